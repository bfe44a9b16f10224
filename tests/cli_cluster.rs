//! `solve --workers N`: the distributed solver as N processes on loopback gives
//! the one-process solver's file, byte for byte; `cluster worker` and `cluster
//! assemble` do the same by hand from a hostfile. Every run is bounded in time.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{fails_with, json, text};

/// Runs the binary, killing it (and failing) after two minutes.
fn bounded(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let clock = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if clock.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("{args:?} ran for more than two minutes");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

const RULES: [&str; 6] = ["--preset", "standard", "--hands", "4", "--fingers", "8"];

fn solve(save: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["solve"];
    args.extend(RULES);
    args.extend(["--save", text(save), "--json", "--quiet"]);
    args.extend(extra);
    let out = bounded(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn workers_on_loopback_give_the_one_process_file() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.sol");
    let v = solve(&one, &[]);
    let want = std::fs::read(&one).unwrap();
    for workers in ["2", "4"] {
        let save = dir.path().join(format!("w{workers}.sol"));
        let w = solve(&save, &["--workers", workers]);
        assert_eq!(w["mode"], "distributed", "{w}");
        // The workers explored from the start themselves.
        assert_eq!(w["explored_on_workers"], true, "{w}");
        assert_eq!(w["workers"].to_string(), workers);
        assert!(w["messages"].as_u64().unwrap() > 0);
        assert_eq!(std::fs::read(&save).unwrap(), want, "{workers} workers");
        for key in [
            "reachable",
            "win",
            "lose",
            "draw",
            "terminal",
            "by_turn",
            "start",
            "longest_win",
        ] {
            assert_eq!(w[key], v[key], "{key}");
        }
        assert!(!Path::new(&format!("{}.cluster", save.display())).exists());
    }
}

#[test]
fn cluster_worker_and_assemble_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.sol");
    solve(&one, &[]);
    // Two processes on loopback from a hostfile, as on two hosts.
    let ports: Vec<String> = (0..2)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .map(|l| l.local_addr().unwrap().to_string())
        .collect();
    let hostfile = dir.path().join("hosts");
    std::fs::write(
        &hostfile,
        format!("# two processes\n{}\n{}\n", ports[0], ports[1]),
    )
    .unwrap();
    let cells = dir.path().join("cells");
    let workers: Vec<_> = (0..2)
        .map(|process| {
            let mut args: Vec<String> = vec!["cluster".into(), "worker".into()];
            args.extend(RULES.iter().map(|s| s.to_string()));
            args.extend([
                "--hostfile".into(),
                text(&hostfile).into(),
                "--process".into(),
                process.to_string(),
                "--dir".into(),
                text(&cells).into(),
                "--json".into(),
            ]);
            std::thread::spawn(move || {
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                bounded(&args)
            })
        })
        .collect();
    for w in workers {
        let out = w.join().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["workers"][0]["workers"], 2, "{v}");
    }
    let save = dir.path().join("assembled.sol");
    let mut args = vec!["cluster", "assemble"];
    args.extend(RULES);
    args.extend(["--dir", text(&cells), "--save", text(&save), "--json"]);
    let v = json(&args);
    assert_eq!(v["workers"], 2);
    assert_eq!(std::fs::read(&save).unwrap(), std::fs::read(&one).unwrap());
    // Assembling for other rules, or from a hostfile without this process: refused.
    let mut other = vec!["cluster", "assemble", "--preset", "rollover"];
    other.extend(["--dir", text(&cells), "--save", text(&save)]);
    fails_with(&other, "holds a solve of");
    let mut bad = vec!["cluster", "worker"];
    bad.extend(RULES);
    bad.extend([
        "--hostfile",
        text(&hostfile),
        "--process",
        "2",
        "--dir",
        text(&cells),
    ]);
    fails_with(&bad, "the hostfile lists 2 processes");
    // One process: the noun agrees.
    let single = dir.path().join("single");
    std::fs::write(&single, "127.0.0.1:1\n").unwrap();
    let mut bad = vec!["cluster", "worker"];
    bad.extend(RULES);
    bad.extend([
        "--hostfile",
        text(&single),
        "--process",
        "1",
        "--dir",
        text(&cells),
    ]);
    fails_with(&bad, "the hostfile lists 1 process (process 0 only)");
    fails_with(
        &["solve", "--players", "3", "--workers", "2"],
        "the distributed solver is for two players",
    );
    // An address that does not resolve: refused at once, not retried for ever.
    let bad_hosts = dir.path().join("bad-hosts");
    std::fs::write(
        &bad_hosts,
        format!("nosuchhost.invalid:4000\n{}\n", ports[1]),
    )
    .unwrap();
    let mut unresolved = vec!["cluster", "worker"];
    unresolved.extend(RULES);
    unresolved.extend([
        "--hostfile",
        text(&bad_hosts),
        "--process",
        "1",
        "--dir",
        text(&cells),
    ]);
    let out = bounded(&unresolved);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not resolve"));
    // A peer that never comes: the connection timeout ends the worker.
    let alone = dir.path().join("alone-hosts");
    let free: Vec<String> = (0..2)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .map(|l| l.local_addr().unwrap().to_string())
        .collect();
    std::fs::write(&alone, format!("{}\n{}\n", free[0], free[1])).unwrap();
    let mut waiting = vec!["cluster", "worker"];
    waiting.extend(RULES);
    waiting.extend([
        "--hostfile",
        text(&alone),
        "--process",
        "0",
        "--dir",
        text(&cells),
    ]);
    waiting.extend(["--connect-timeout", "2"]);
    let out = bounded(&waiting);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("were not all connected after 2 s"), "{err}");
}

/// The cluster commands read only regular files of bounded size: `/dev/zero`, a
/// FIFO or a link to a device as a hostfile or a worker report is refused at once,
/// never read without end or waited on.
#[test]
fn cluster_inputs_are_bounded_regular_files() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let work = dir.path().join("work");
    let work = work.to_str().unwrap();
    for (hostfile, needle) in [
        ("/dev/zero", "not a regular file (a character device)"),
        (fifo.to_str().unwrap(), "not a regular file (a FIFO)"),
    ] {
        fails_with(
            &[
                "cluster",
                "worker",
                "--hostfile",
                hostfile,
                "--process",
                "0",
                "--dir",
                work,
            ],
            needle,
        );
    }
    let reports = dir.path().join("reports");
    std::fs::create_dir(&reports).unwrap();
    std::os::unix::fs::symlink("/dev/zero", reports.join("worker-0.json")).unwrap();
    let save = dir.path().join("out.sol");
    fails_with(
        &[
            "cluster",
            "assemble",
            "--dir",
            reports.to_str().unwrap(),
            "--save",
            save.to_str().unwrap(),
        ],
        "not a regular file (a character device)",
    );
    std::fs::remove_file(reports.join("worker-0.json")).unwrap();
    std::fs::write(reports.join("worker-0.json"), vec![b' '; 17 << 20]).unwrap();
    fails_with(
        &[
            "cluster",
            "assemble",
            "--dir",
            reports.to_str().unwrap(),
            "--save",
            save.to_str().unwrap(),
        ],
        "more than the 16777216 bytes read for a worker report",
    );
    assert!(!save.exists());
}
