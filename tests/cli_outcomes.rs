//! `chopsticks table outcomes` and the `--n` spelling of every `table` subcommand,
//! through the real binary.

use crate::common;

use common::{fails_with, json, run, stdout};

#[test]
fn summary_counts_every_position() {
    let v = json(&[
        "table",
        "outcomes",
        "--n",
        "3",
        "--max-hands",
        "6",
        "--json",
    ]);
    // C(3 + 6, 6) = 84 sides a player.
    assert_eq!(v["positions"], 84 * 84);
    let c = &v["counts"];
    let sum: u64 = ["L", "R", "N", "P"]
        .iter()
        .map(|k| c[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 84 * 84);
    assert_eq!(c["L"], c["R"], "the players are treated alike");
    let by_hands = v["by_hands"].as_array().unwrap();
    assert_eq!(by_hands.len(), 7 * 7);
    // Theorem 4: two hands more always win.
    for cell in by_hands {
        let (l, r) = (
            cell["left"].as_u64().unwrap(),
            cell["right"].as_u64().unwrap(),
        );
        if r >= 1 && l >= r + 2 {
            assert_eq!(cell["R"], 0);
            assert_eq!(cell["N"], 0);
            assert_eq!(cell["P"], 0);
        }
    }
    let text = stdout(&["table", "outcomes", "--n", "2", "--max-hands", "4"]);
    assert!(
        text.contains("with at most 4 hands a side: 225 positions"),
        "{text}"
    );
    assert!(text.contains("l - r"), "{text}");
}

#[test]
fn one_line_per_position() {
    let out = stdout(&[
        "table",
        "outcomes",
        "--n",
        "3",
        "--max-hands",
        "2",
        "--format",
        "jsonl",
    ]);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 100); // C(5, 2) = 10 sides a player
    let find = |p: &str| {
        lines
            .iter()
            .find(|v| v["position"] == p)
            .unwrap_or_else(|| panic!("{p} is listed"))["outcome"]
            .clone()
    };
    // (1|1)_3: Theorem 3 (f(4) = 3 ≤ 3 < f(5) = 5), N.
    assert_eq!(find("(1|1)_3"), "N");
    // The closed form for n = 3: a side with an odd number of 2s loses moving
    // first against 1^k, so (2|1)_3 is P, and (1,1|2)_3 (one hand more) is L.
    assert_eq!(find("(2|1)_3"), "P");
    assert_eq!(find("(1,1|2)_3"), "L");
    assert_eq!(find("(|)_3"), "P");
    let csv = stdout(&[
        "table",
        "outcomes",
        "--n",
        "3",
        "--max-hands",
        "2",
        "--format",
        "csv",
    ]);
    let mut rows = csv.lines();
    assert_eq!(rows.next(), Some("position,outcome"));
    assert_eq!(rows.count(), 100);
    assert!(csv.contains("\"(1,1|2)_3\",L"), "{csv}");

    let dir = std::env::temp_dir().join(format!("cs-outcomes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("atlas.jsonl");
    let f = file.to_str().unwrap();
    stdout(&[
        "table",
        "outcomes",
        "--n",
        "3",
        "--max-hands",
        "2",
        "--format",
        "jsonl",
        "-o",
        f,
    ]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), out);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pictures_of_slices() {
    let dir = std::env::temp_dir().join(format!("cs-outcomes-pic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("hands.png");
    let svg = dir.join("ones.svg");
    stdout(&[
        "table",
        "outcomes",
        "--n",
        "3",
        "--max-hands",
        "8",
        "-q",
        "--png",
        png.to_str().unwrap(),
    ]);
    assert_eq!(&std::fs::read(&png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
    stdout(&[
        "table",
        "outcomes",
        "--n",
        "2",
        "--max-hands",
        "6",
        "-q",
        "--slice",
        "ones-twos",
        "--hands",
        "6,6",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"));
    // Proposition 2: (1^6 | 1^c 2^(6-c))_2 with c odd is L.
    assert!(
        text.contains("<title>(6|1): L: Left wins</title>"),
        "{text}"
    );
    // The level slice: every position with 2 hands a side at n = 3, sides named
    // by their counts; (1,2|1,1)_3 is P (docs/THREE-FINGERS.md).
    let level = dir.join("level.svg");
    stdout(&[
        "table",
        "outcomes",
        "--n",
        "3",
        "--max-hands",
        "2",
        "-q",
        "--slice",
        "level",
        "--hands",
        "2,2",
        "--svg",
        level.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&level).unwrap();
    assert!(
        text.contains("<title>(110|200): P: the player to move loses</title>"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_refused() {
    fails_with(&["table", "outcomes", "--n", "0"], "--n must be between");
    fails_with(
        &["table", "outcomes", "--max-hands", "0"],
        "--max-hands must be",
    );
    fails_with(
        &["table", "outcomes", "--n", "3", "--max-hands", "250"],
        "positions",
    );
    fails_with(
        &["table", "outcomes", "--n", "9", "--max-hands", "40"],
        "positions",
    );
    fails_with(
        &[
            "table",
            "outcomes",
            "--slice",
            "ones-twos",
            "--hands",
            "6",
            "--svg",
            "x.svg",
        ],
        "LEFT,RIGHT",
    );
    fails_with(
        &[
            "table",
            "outcomes",
            "--max-hands",
            "4",
            "--slice",
            "ones-twos",
            "--hands",
            "5,1",
            "--svg",
            "x.svg",
        ],
        "more than --max-hands",
    );
    fails_with(
        &["table", "outcomes", "--hands", "1,1", "--png", "x.png"],
        "--slice ones-twos",
    );
    fails_with(
        &[
            "table", "outcomes", "--slice", "level", "--hands", "2,1", "--svg", "x.svg",
        ],
        "--hands H,H",
    );
    fails_with(
        &[
            "table", "outcomes", "--slice", "level", "--full", "--svg", "x.svg",
        ],
        "leave out --full",
    );
    // Refused before any work: 23,426 sides at n = 4 with 50 hands.
    fails_with(
        &[
            "table",
            "outcomes",
            "--n",
            "4",
            "--max-hands",
            "50",
            "--slice",
            "level",
            "--hands",
            "50,50",
            "--png",
            "x.png",
        ],
        "23426 × 23426 cells",
    );
    // --slice and --hands only choose what a picture shows.
    fails_with(
        &["table", "outcomes", "--max-hands", "2", "--slice", "hands"],
        "--png or --svg",
    );
    fails_with(
        &["table", "outcomes", "--max-hands", "2", "--hands", "1,1"],
        "--png or --svg",
    );
    // Pictures go to files, each its own.
    fails_with(
        &["table", "outcomes", "--max-hands", "2", "--png", "-"],
        "--png writes a file",
    );
    fails_with(
        &[
            "table",
            "outcomes",
            "--max-hands",
            "2",
            "--png",
            "a",
            "--svg",
            "a",
        ],
        "the same file",
    );
    // Size errors say which limit and give the true count.
    fails_with(
        &["table", "outcomes", "--n", "250", "--max-hands", "2"],
        "hit transitions",
    );
    fails_with(
        &["table", "outcomes", "--n", "250", "--max-hands", "40"],
        "more sides than a 128-bit count holds",
    );
    fails_with(
        &["table", "outcomes", "--output", "x.jsonl"],
        "--format jsonl or csv",
    );
    fails_with(
        &[
            "table",
            "outcomes",
            "--max-hands",
            "2",
            "--format",
            "csv",
            "-o",
            "/nonexistent-dir/x.csv",
        ],
        "cannot write",
    );
}

#[test]
fn every_table_spells_n_as_n_and_keeps_the_old_spelling_with_a_warning() {
    let new = stdout(&["table", "grid", "--n", "6"]);
    let old = run(&["table", "grid", "--fingers", "6"]);
    assert!(old.status.success());
    assert_eq!(String::from_utf8_lossy(&old.stdout), new);
    assert!(String::from_utf8_lossy(&old.stderr).contains("old spelling of --n"));
    let new = stdout(&["table", "one-hand", "--n", "30"]);
    let old = run(&["table", "one-hand", "--max", "30"]);
    assert_eq!(String::from_utf8_lossy(&old.stdout), new);
    assert!(String::from_utf8_lossy(&old.stderr).contains("old spelling of --n"));
    fails_with(
        &["table", "grid", "--n", "6", "--fingers", "6"],
        "cannot be used with",
    );
}

/// n beyond 64 (a hand value past a 64-bit mask crashed the solver once), and the
/// default --max-hands that depends on n.
#[test]
fn large_n_and_the_default_hand_bound() {
    let v = json(&[
        "table",
        "outcomes",
        "--n",
        "100",
        "--max-hands",
        "1",
        "--json",
    ]);
    assert_eq!(v["positions"], 101 * 101);
    // The players are treated alike, and the 201 positions with an empty side
    // are over (P).
    assert_eq!(v["counts"]["L"], v["counts"]["R"]);
    assert!(v["counts"]["P"].as_u64().unwrap() >= 201);
    for (n, h) in [(2, 30), (3, 30), (4, 16), (5, 11)] {
        let v = json(&["table", "outcomes", "--n", &n.to_string(), "--json", "-q"]);
        assert_eq!(v["max_hands"], h, "n = {n}");
        assert!(v["positions"].as_u64().unwrap() <= 30_000_000);
    }
}

/// A long `--output` write started by `launch` (given the command line to run),
/// interrupted by each signal of `signals` in turn once its temporary file
/// grows: the signals before the last must leave it running (they were ignored
/// at start); the last must end it with `status`, leaving neither the target
/// nor a temporary file.
#[cfg(unix)]
fn interrupt_a_write(launch: &[&str], signals: &[&str], status: i32) {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("atlas.jsonl");
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new(launch[0]);
    // The test's own dispositions are not the point: a test suite started as a
    // background job of a script has SIGINT ignored, which the child would keep
    // (rightly). Each case starts from the defaults, and `launch` ignores what
    // it ignores on top.
    // SAFETY: the closure runs in the forked child before exec and only calls
    // `signal`, which is async-signal-safe; it touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(signal, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    let mut child = command
        .args(&launch[1..])
        .arg(env!("CARGO_BIN_EXE_chopsticks"))
        .args(["table", "outcomes", "--n", "3", "--max-hands", "30"])
        .args(["--format", "jsonl", "-q", "-o"])
        .arg(&target)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the temporary file exists and is growing (30 M lines take seconds).
    let clock = Instant::now();
    let temporary = loop {
        let found = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| std::fs::metadata(p).map(|m| m.len() > 0).unwrap_or(false));
        if let Some(p) = found {
            break p;
        }
        assert!(
            clock.elapsed() < Duration::from_secs(120),
            "no temporary file appeared"
        );
        assert!(child.try_wait().unwrap().is_none(), "finished too soon");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(temporary
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with(".atlas.jsonl."));
    let (last, before) = signals.split_last().unwrap();
    let pid = child.id().to_string();
    let send = |signal: &str| {
        let sent = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &pid])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -{signal}");
    };
    for signal in before {
        send(signal);
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            child.try_wait().unwrap().is_none(),
            "SIG{signal}, ignored at start, ended the process"
        );
        assert!(temporary.exists(), "SIG{signal} removed the temporary file");
    }
    send(last);
    let status_seen = child.wait().unwrap();
    assert_eq!(
        status_seen.code(),
        Some(status),
        "SIG{last}: {status_seen:?}"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "left behind after SIG{last}: {left:?}");
}

/// An interrupted `--output` leaves neither the target nor a temporary file, and
/// the process ends as the signal would (128 + its number).
#[cfg(unix)]
#[test]
fn an_interrupted_output_leaves_nothing_behind() {
    // `env` runs the command as it is: the signal dispositions of this test.
    interrupt_a_write(&["env"], &["INT"], 130);
    interrupt_a_write(&["env"], &["TERM"], 143);
}

/// Under `nohup` (SIGHUP ignored, as nohup and some service managers and CI
/// runners leave it), SIGINT and SIGTERM still clean up, and SIGHUP stays
/// ignored: nohup's promise is kept. (The `ctrlc` crate used before gave up on
/// every signal when SIGHUP was ignored: the temporary file stayed, exit by
/// signal 2.)
#[cfg(unix)]
#[test]
fn under_nohup_an_interrupt_still_cleans_up() {
    // `sh -c 'trap "" HUP; exec …'` is what nohup does to the signals, without
    // nohup's own handling of the terminal.
    let ignoring = |signal: &str| format!("trap '' {signal}; exec \"$0\" \"$@\"");
    let hup = ignoring("HUP");
    interrupt_a_write(&["sh", "-c", &hup], &["HUP", "INT"], 130);
    interrupt_a_write(&["sh", "-c", &hup], &["HUP", "TERM"], 143);
    interrupt_a_write(&["nohup"], &["HUP", "INT"], 130);
    // A background job of a script starts with SIGINT ignored: it stays so,
    // and SIGTERM still cleans up.
    let int = ignoring("INT");
    interrupt_a_write(&["sh", "-c", &int], &["INT", "TERM"], 143);
}
