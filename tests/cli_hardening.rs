//! Bad input that once did damage (issue 7's audit), each through the real binary:
//! files written over pipes, devices and links; forged solution files; contradicting
//! rule switches; runaway inputs; messages.

use crate::common;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use chopsticks_rules::{Position, Preset};
use chopsticks_space::Graph;
use common::{fails_with, json, run, stdout};

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `/dev/full`, opened for writing: every write fails with "no space left".
fn full_device() -> fs::File {
    fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap()
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    fs::symlink_metadata(path).unwrap().file_type().is_fifo()
}

#[test]
fn save_refuses_fifos_and_devices() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    fails_with(
        &["solve", "--preset", "rahman", "--save", text(&fifo)],
        "not a regular file (a FIFO)",
    );
    assert!(is_fifo(&fifo), "the FIFO is still a FIFO");
    fails_with(
        &["solve", "--preset", "rahman", "--save", "/dev/full"],
        "not a regular file (a character device)",
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::metadata("/dev/full")
        .unwrap()
        .file_type()
        .is_char_device());
    for option in ["--svg", "--png"] {
        fails_with(
            &["table", "grid", "--fingers", "4", option, text(&fifo)],
            "not a regular file (a FIFO)",
        );
        fails_with(
            &["table", "grid", "--fingers", "4", option, "/dev/full"],
            "not a regular file",
        );
    }
    assert!(is_fifo(&fifo));
    // Nothing else was left in the directory.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn save_writes_through_symbolic_links() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.sol");
    fs::write(&real, b"old").unwrap();
    let link = dir.path().join("link.sol");
    symlink(&real, &link).unwrap();
    json(&[
        "solve",
        "--preset",
        "rahman",
        "--save",
        text(&link),
        "--json",
    ]);
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(fs::read(&real).unwrap().starts_with(b"CHOPSOLV"));
    let v = json(&["query", "11-11", "--db", text(&link), "--json"]);
    assert_eq!(v["value"], "draw");
    let picture = dir.path().join("grid.svg");
    let picture_link = dir.path().join("grid-link.svg");
    fs::write(&picture, b"old").unwrap();
    symlink("grid.svg", &picture_link).unwrap();
    stdout(&[
        "table",
        "grid",
        "--fingers",
        "4",
        "--svg",
        text(&picture_link),
    ]);
    assert!(fs::symlink_metadata(&picture_link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(fs::read_to_string(&picture).unwrap().contains("<svg"));
}

/// A saved solution of the standard game with one position's byte replaced and
/// the checksum made valid again.
fn forged(dir: &Path, position: &str, byte: Option<u8>, fill: Option<u8>) -> String {
    let db = dir.join("forged.sol");
    json(&["solve", "--save", text(&db), "--json"]);
    let mut bytes = fs::read(&db).unwrap();
    // Version 3: the table follows the header and its checksum.
    let start = 20 + u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let rules = Preset::Standard.ruleset();
    let graph = Graph::new(&rules).unwrap();
    let end = start + graph.count() as usize;
    if let Some(b) = fill {
        bytes[start..end].fill(b);
    }
    if let Some(b) = byte {
        let index = graph.index_of(&Position::parse(position, &rules).unwrap());
        bytes[start + index as usize] = b;
    }
    // Every checksum made valid again, as a forger would.
    assert!(chopsticks_solve::file::reseal(&mut bytes));
    fs::write(&db, &bytes).unwrap();
    text(&db).to_string()
}

#[test]
fn forged_solution_files_are_not_believed() {
    let dir = tempfile::tempdir().unwrap();
    // `1211` stored as "win in 0".
    let db = forged(dir.path(), "1211", Some(0), None);
    fails_with(
        &["query", "1211", "--db", &db],
        "inconsistent solution: the table says win in 0 at 1211",
    );
    // The start (1111 → tap 1→1 → 1211) shows it among its moves: refused too.
    fails_with(&["query", "1111", "--db", &db], "inconsistent solution");
    fails_with(&["strategy", "--db", &db], "inconsistent solution");
    // Every position "win in 1": strategy used to panic (exit 101).
    let db = forged(dir.path(), "1111", None, Some(1));
    for args in [
        vec!["strategy", "--db", &db],
        vec!["query", "1111", "--db", &db],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("inconsistent solution"), "{err}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
        .args(["play", "--computer-first", "--db", &db])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("inconsistent solution"));
    // An honest file still works.
    let honest = dir.path().join("honest.sol");
    json(&["solve", "--save", text(&honest), "--json"]);
    let v = json(&["strategy", "--db", text(&honest), "--json"]);
    assert!(v.to_string().contains("configurations"), "{v}");
}

#[test]
fn a_header_edited_to_other_rules_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("rahman.sol");
    json(&["solve", "--preset", "rahman", "--save", text(&db), "--json"]);
    common::forge::edit_header(&db, "\"misere\":false", "\"misere\":true ");
    fails_with(&["strategy", "--db", text(&db)], "inconsistent solution");
}

#[test]
fn contradicting_rule_switches_are_errors() {
    for args in [
        ["--even-divide", "--no-divide"],
        ["--no-divide", "--even-divide"],
        ["--rollover", "--cutoff"],
        ["--cutoff", "--rollover"],
        ["--transfer", "--no-transfer"],
        ["--misere", "--no-misere"],
        ["--no-self-attack", "--self-attack"],
    ] {
        let out = run(&["rules", args[0], args[1]]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot be used with"), "{args:?}: {err}");
    }
    // What a preset has may still be switched off alone.
    let v = json(&["rules", "--preset", "standard", "--no-divide", "--json"]);
    assert_eq!(v["ruleset"]["divide"], false, "{v}");
}

#[test]
fn short_inputs_do_not_run_away() {
    // 8,388,608 transfers: refused from a bound, before listing anything.
    fails_with(
        &["moves", "8388607,1-1,1", "--fingers", "16777216"],
        "`moves` lists at most 100000",
    );
    // Large but listable.
    let v = json(&["moves", "40000,1-1,1", "--fingers", "80001", "--json"]);
    // 2 taps, 2 self-attacks, 19,999 transfers {1 + k, 40000 - k}.
    assert_eq!(v["moves"].as_array().unwrap().len(), 20_003);
}

#[test]
fn messages_say_what_is_true() {
    fails_with(&["query", "💥"], "at character 1: `💥` is not a digit");
    fails_with(&["query", "11💥1"], "at character 3: `💥` is not a digit");
    fails_with(&["query", "111"], "3 digits written");
    let long = "1".repeat(100_000);
    let out = run(&["query", &long]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.len() < 400, "{} bytes of message", err.len());
    assert!(err.contains("… (100000 characters)"), "{err}");
    let out = run(&["rules", "--preset", &"x".repeat(10_000)]);
    assert!(String::from_utf8_lossy(&out.stderr).len() < 400);
    fails_with(
        &["play", "--repetitions", "1"],
        "1 is too few (2 or more, or `none`)",
    );
    fails_with(
        &["play", "--level", "expert"],
        "`expert` is not a level: perfect, strong, casual or random",
    );
    fails_with(&["bench", "--runs", "0"], "0 is not in 1..");
    // An option of another workload is refused, not ignored.
    fails_with(
        &["bench", "explore", "--variant", "standard"],
        "--variant is for the serve and scaling",
    );
    fails_with(
        &["bench", "solve", "--db", "x.sol"],
        "--db is for the query workload",
    );
}

#[test]
fn play_into_a_closed_pipe_exits_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
        .args(["play", "--preset", "simple", "--computer-first"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end at once, then feed moves until the game writes.
    drop(child.stdout.take());
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        let _ = input.write_all("moves\nhint\n".repeat(200).as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(141));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn large_work_is_announced_and_reports_progress_when_piped() {
    use std::io::{BufRead, BufReader};
    // Eight players: 2,562,890,625 positions, legitimately large (minutes).
    let mut child = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
        .args(["stats", "--players", "8"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(
        first.starts_with("exploring 2,562,890,625 positions: about ")
            && first.contains(" of memory and roughly "),
        "{first}"
    );
    // Then a plain line every few seconds, though stderr is a pipe.
    let second = lines.next().unwrap().unwrap();
    assert!(
        second.starts_with("[00:00:0") && second.contains(" of 2,562,890,625 ("),
        "{second}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    // --quiet says nothing at all.
    let out = run(&["stats", "--players", "2", "--quiet"]);
    assert!(out.status.success() && out.stderr.is_empty());
}

/// A full disk for standard output (`> /dev/full`) is one line of error and
/// status 1, never a panic report.
#[test]
fn a_full_standard_output_is_an_error_not_a_panic() {
    for args in [
        // Help and the version that cannot be written are errors too.
        &["--help"][..],
        &["--version"],
        &["solve", "--help"],
        &["value", "(1,1|1,1)_4", "--rollover"],
        &["table", "two-hands", "--n", "3", "--rollover"],
        &["table", "grid", "--rollover", "--n", "5"],
        &["solve", "--preset", "rahman"],
        &["export", "--preset", "rahman"],
        &[
            "table",
            "outcomes",
            "--n",
            "2",
            "--max-hands",
            "3",
            "--format",
            "csv",
        ],
    ] {
        let full = full_device();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_chopsticks"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("cannot write the output (standard output)"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// An unwritable standard error (`2> /dev/full`) changes nothing but what is
/// shown: an error still exits 1, a success 0, never 101 (a panic).
#[test]
fn an_unwritable_standard_error_keeps_the_exit_status() {
    for (args, status) in [
        (&["query", "11x"][..], 1),
        (&["query", "1111", "--preset", "nope"], 1),
        (&["solve", "--preset", "rahman"], 0),
        (&["query", "--no-such-option"], 2),
    ] {
        let full = full_device();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_chopsticks"))
            .args(args)
            .stderr(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(status), "{args:?}");
    }
}

/// Control characters of an input never reach the terminal raw: a message quotes
/// them escaped.
#[test]
fn control_characters_in_input_are_escaped_in_messages() {
    for args in [
        &["query", "\u{1b}[31mRED\u{1b}[0m"][..],
        &["query", "1111", "--preset", "st\u{1b}[31m"],
        &["value", "{0|\u{7}}"],
    ] {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            !err.chars().any(|c| c.is_control() && c != '\n'),
            "{args:?}: {err:?}"
        );
        assert!(
            err.contains("\\u{1b}") || err.contains("\\u{7}"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_failed_final_save_names_the_path_and_leaves_nothing_behind() {
    // A write that fails at the final save, as a full disk does: the file size
    // limit (with SIGXFSZ ignored, so that the write fails instead of the
    // process being killed; an ignored signal stays ignored across exec).
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("r4.sol");
    let out = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; exec prlimit --fsize=100000 \"$@\"")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_chopsticks"))
        .args([
            "solve",
            "--preset",
            "rollover",
            "--hands",
            "4",
            "--fingers",
            "10",
        ])
        .args(["--quiet", "--save", text(&target)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{}: cannot write", target.display())),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    // No solution, no temporary file, no work directory holding only a lock.
    let left: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn scratch_of_dead_runs_is_removed_by_the_next_run() {
    // What solves without --save killed outright leave in the temporary
    // directory: a work directory whose lock nobody holds, and a solution file
    // of a process that no longer exists (no process has a number that large).
    let tmp = tempfile::tempdir().unwrap();
    let stale_dir = tmp.path().join("chopsticks-rollover-99999999.work");
    fs::create_dir(&stale_dir).unwrap();
    fs::write(stale_dir.join("lock"), b"").unwrap();
    fs::write(stale_dir.join("cells.0"), vec![0u8; 4096]).unwrap();
    let stale_file = tmp.path().join("chopsticks-rollover-99999999.sol");
    fs::write(&stale_file, b"x").unwrap();
    // Left alone: a directory another run holds the lock of, and other names.
    let live_dir = tmp.path().join("chopsticks-rollover-99999998.work");
    fs::create_dir(&live_dir).unwrap();
    let lock = fs::File::create(live_dir.join("lock")).unwrap();
    lock.try_lock().unwrap();
    let other = tmp.path().join("chopsticks-notes.txt");
    fs::write(&other, b"mine").unwrap();
    // A solve that works out of core without --save uses the temporary directory.
    let out = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
        .env("TMPDIR", tmp.path())
        .args([
            "solve",
            "--preset",
            "rollover",
            "--hands",
            "4",
            "--fingers",
            "10",
        ])
        .args(["--part-size", "1M", "--quiet", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["mode"], "out-of-core", "{v}");
    assert!(!stale_dir.exists());
    assert!(!stale_file.exists());
    assert!(live_dir.join("lock").exists());
    assert!(other.exists());
    drop(lock);
    // And the run's own scratch is gone.
    let left: Vec<_> = fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".work") || n.ends_with(".sol"))
        .collect();
    assert_eq!(left, ["chopsticks-rollover-99999998.work"]);
}

/// Issue 60, F7: an output that is the solution read with `--db` (the same
/// file, or a link to it) is refused before anything is written, and the
/// solution is left as it was.
#[test]
fn an_output_that_is_the_solution_read_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let sol = dir.path().join("in.sol");
    let link = dir.path().join("link.sol");
    let sol_text = sol.to_str().unwrap();
    let link_text = link.to_str().unwrap();
    stdout(&["solve", "--save", sol_text, "-q"]);
    std::os::unix::fs::symlink(&sol, &link).unwrap();
    let before = fs::read(&sol).unwrap();
    for (args, flag) in [
        (vec!["export", "--db", sol_text, "-o", sol_text], "--output"),
        (
            vec!["export", "--db", sol_text, "-o", link_text],
            "--output",
        ),
        (
            vec!["play", "--db", sol_text, "--record", link_text],
            "--record",
        ),
        (
            vec!["strategy", "--db", sol_text, "--svg", sol_text],
            "--svg",
        ),
        (
            vec!["strategy", "--db", link_text, "--png", sol_text],
            "--png",
        ),
        (
            vec!["puzzles", "--db", sol_text, "--svg", link_text],
            "--svg",
        ),
    ] {
        fails_with(&args, &format!("{flag} "));
        fails_with(&args, "is the solution read with --db");
        assert_eq!(
            fs::read(&sol).unwrap(),
            before,
            "{args:?} changed the solution"
        );
    }
    // Another file is written as before.
    let other = dir.path().join("out.csv");
    stdout(&[
        "export",
        "--db",
        sol_text,
        "-o",
        other.to_str().unwrap(),
        "-q",
    ]);
    assert!(other.exists());
}

/// Issue 60, F4: what `value --file` echoes of each line is escaped as the
/// errors quote input: no raw escape sequence or bidirectional override
/// reaches the terminal.
#[test]
fn echoed_input_is_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("script");
    fs::write(&script, "\u{1b}[31mRED\u{1b}[0m\n{0|\u{202e}1}\n0\n").unwrap();
    let out = run(&["value", "--file", text(&script)]);
    let shown = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(
        !shown.contains('\u{1b}') && !shown.contains('\u{202e}'),
        "{shown:?}"
    );
    assert!(shown.contains("> \\u{1b}[31mRED"), "{shown}");
    assert!(shown.contains("\\u{202e}"), "{shown}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains('\u{202e}'), "{err:?}");
}

/// Issue 60, F5: a FIFO given as a file is refused at once, before it is
/// opened (opening one blocks until a writer comes); standard input stays `-`.
#[test]
fn a_fifo_given_as_a_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("ff");
    mkfifo(&fifo);
    for args in [
        &["review", text(&fifo)][..],
        &["value", "--file", text(&fifo)],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let clock = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if clock.elapsed() > std::time::Duration::from_secs(10) {
                let _ = child.kill();
                panic!("{args:?} still waits on the FIFO after 10 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("not a regular file (a FIFO)"),
            "{args:?}: {err}"
        );
    }
    let out = common::run_input(&["value", "--file", "-"], "0\n");
    assert!(out.status.success());
}

/// Two saved solutions of one variant for `serve` are refused at start: the
/// last would otherwise silently win.
#[test]
fn two_saved_solutions_of_one_variant_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.sol"), dir.path().join("b.sol"));
    for path in [&a, &b] {
        stdout(&[
            "solve",
            "--preset",
            "rahman",
            "--save",
            text(path),
            "--quiet",
        ]);
    }
    fails_with(
        &["serve", "--port", "0", "--db", text(&a), "--db", text(&b)],
        "are both solutions of",
    );
}

/// Issue 60, F6: an out-of-core solve keeps within `--memory`: its peak
/// resident memory (the program, its move tables, buffers and spools, the
/// summary after) is at most the budget, with 1 and with 6 threads, and what
/// it prints says so.
#[test]
fn an_out_of_core_solve_keeps_within_its_memory() {
    // 56M: parts of more than 32 MiB, which glibc's allocator kept on its heap
    // once freed (its threshold for mapping blocks rose with them); values
    // alone: the table read back a slice at a time to drop the remoteness.
    for (threads, memory, extra) in [
        ("1", 32u64, None),
        ("6", 32, None),
        ("2", 56, None),
        ("2", 32, Some("--no-remoteness")),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let budget = format!("{memory}M");
        let out = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
            .args(["solve", "--variant", "rollover.h6.f10", "--memory", &budget])
            .args(extra)
            .args(["--quiet", "--json"])
            .env("TMPDIR", tmp.path())
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["mode"], "out-of-core", "{v}");
        assert!(v["parts"].as_u64().unwrap() > 1, "{v}");
        let peak = v["peak_resident_bytes"].as_u64().unwrap();
        assert_eq!(v["memory_budget"], memory << 20, "{v}");
        assert!(
            peak <= memory << 20,
            "{threads} threads, {extra:?}: peak {peak} B over the {memory} MiB allowed"
        );
        // A solution read back is the in-memory solver's: the same counts.
        assert_eq!(v["positions"], 25_050_025, "{v}");
    }
    // Too little for the program and one part: refused with what it needs.
    fails_with(
        &["solve", "--variant", "rollover.h6.f10", "--memory", "16M"],
        "out of core it needs at least",
    );
    // Parts asked for: smaller than a row, larger than the memory leaves, or
    // for three players.
    fails_with(
        &["solve", "--variant", "rollover.h6.f10", "--part-size", "1K"],
        "a part holds at least one row of tiles",
    );
    fails_with(
        &[
            "solve",
            "--variant",
            "rollover.h6.f10",
            "--memory",
            "40M",
            "--part-size",
            "39M",
        ],
        "do not fit in the 40.0 MiB of memory allowed",
    );
    fails_with(
        &["solve", "--variant", "standard.p3", "--part-size", "1M"],
        "--part-size is for two players",
    );
    // The worker processes are not held to --memory: refused, not ignored.
    fails_with(
        &["solve", "--workers", "2", "--memory", "1G"],
        "cannot be used with",
    );
}

/// Issue 60, F6: an out-of-core solve that saves nothing says nothing can be
/// resumed, names the disk it needs, and a SIGTERM (or Ctrl-C) removes its
/// parts and its solution file: nothing is left in the temporary directory.
#[test]
fn an_out_of_core_solve_without_save_keeps_its_word_when_stopped() {
    use std::io::{BufRead, BufReader};
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let tmp = tempfile::tempdir().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
            .args(["solve", "--variant", "rollover.h6.f10", "--memory", "32M"])
            .env("TMPDIR", tmp.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut said = String::new();
        while !said.contains("solving out of core") {
            let mut line = String::new();
            if err.read_line(&mut line).unwrap() == 0 {
                break;
            }
            said.push_str(&line);
        }
        assert!(
            said.contains("of disk") && said.contains("nothing is resumed without --save FILE"),
            "{said}"
        );
        // Parts on disk, then the signal.
        let work = || {
            fs::read_dir(tmp.path())
                .unwrap()
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("chopsticks-"))
                .collect::<Vec<_>>()
        };
        let clock = std::time::Instant::now();
        while work().is_empty() && clock.elapsed() < std::time::Duration::from_secs(30) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        // SAFETY: kill sends a signal to the child this test started.
        unsafe { libc::kill(child.id() as i32, signal) };
        let status = child.wait().unwrap();
        let left = work();
        if status.success() {
            // Finished before the signal came: it cleaned up by itself.
            assert!(left.is_empty(), "{left:?}");
            continue;
        }
        assert_eq!(status.code(), Some(128 + signal), "{status:?}");
        assert!(left.is_empty(), "left behind: {left:?}");
    }
}

/// Issue 60, F6: an out-of-core solve that cannot fit on its disk is refused
/// before it starts, with the estimate and what is free (a 1 MiB tmpfs as the
/// temporary directory; mounting one needs root).
#[test]
#[ignore = "needs root to mount a 1 MiB tmpfs; run `cargo test --release --test tests cli_hardening:: -- --ignored` as root"]
fn an_out_of_core_solve_that_cannot_fit_on_its_disk_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
        .arg(tmp.path())
        .status()
        .unwrap();
    assert!(mounted.success(), "mount -t tmpfs failed (run as root)");
    let out = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
        .args(["solve", "--variant", "rollover.h6.f10", "--memory", "32M"])
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    let left = fs::read_dir(tmp.path()).unwrap().count();
    let _ = Command::new("umount").arg(tmp.path()).status();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("out of core needs about") && err.contains("free there"),
        "{err}"
    );
    assert_eq!(left, 0, "nothing written");
}
