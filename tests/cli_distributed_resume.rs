//! A distributed solve survives a lost process: one of three worker processes
//! killed with SIGKILL mid-solve ends the others promptly with a message that
//! says what to run; started again with the same arguments the solve resumes
//! from the last level every worker checkpointed, and the saved file is the
//! uninterrupted solve's, byte for byte. Once through `solve --workers 3`, once
//! through `cluster worker` processes from a hostfile on loopback.

#![cfg(unix)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::text;

/// Rules whose distributed solve takes some seconds here, over many levels.
const RULES: [&str; 6] = ["--preset", "standard", "--hands", "5", "--fingers", "10"];

fn start(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_chopsticks"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child`, killing it (and failing) after `limit`.
fn finish(mut child: Child, limit: Duration, what: &str) -> Output {
    let clock = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if clock.elapsed() > limit {
            child.kill().unwrap();
            panic!("{what} ran for more than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Waits until `dir` holds a checkpoint of every one of `workers` workers at a
/// level past the first, and returns that level.
fn wait_for_checkpoints(dir: &Path, workers: usize) -> u32 {
    let clock = Instant::now();
    loop {
        if let Some(level) = chopsticks_levels(dir, workers) {
            return level;
        }
        assert!(
            clock.elapsed() < Duration::from_secs(120),
            "no checkpoint of every worker appeared in {}",
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The last level every worker has a checkpoint file of (by the names), past
/// level 2.
fn chopsticks_levels(dir: &Path, workers: usize) -> Option<u32> {
    let names: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let of = |w: usize| -> Vec<u32> {
        let prefix = format!("checkpoint-{w}-");
        names
            .iter()
            .filter_map(|n| n.strip_prefix(&prefix)?.strip_suffix(".bin")?.parse().ok())
            .collect()
    };
    let mut common = of(0);
    for w in 1..workers {
        let mine = of(w);
        common.retain(|l| mine.contains(l));
    }
    common.into_iter().filter(|&l| l > 2).max()
}

/// The process ids of the running `cluster worker` processes of `dir`, by
/// process number, read from /proc.
fn worker_pids(dir: &Path) -> Vec<(usize, u32)> {
    let dir = text(dir);
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let words: Vec<String> = cmdline
            .split(|&b| b == 0)
            .map(|w| String::from_utf8_lossy(w).into_owned())
            .collect();
        let is_worker = words
            .windows(2)
            .any(|w| w[0] == "cluster" && w[1] == "worker")
            && words.iter().any(|w| w == dir);
        if !is_worker {
            continue;
        }
        if let Some(k) = words.iter().position(|w| w == "--process") {
            if let Some(n) = words.get(k + 1).and_then(|n| n.parse().ok()) {
                found.push((n, pid));
            }
        }
    }
    found
}

/// Waits until no `cluster worker` process of `dir` runs, failing with `why`
/// after ten seconds.
fn wait_until_no_worker(dir: &Path, why: &str) {
    let clock = Instant::now();
    while !worker_pids(dir).is_empty() {
        assert!(clock.elapsed() < Duration::from_secs(10), "{why}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A hostfile in `dir` of `processes` free ports on loopback.
fn hostfile(dir: &Path, processes: usize) -> PathBuf {
    let ports: Vec<String> = (0..processes)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .map(|l| l.local_addr().unwrap().to_string())
        .collect();
    let path = dir.join("hosts");
    std::fs::write(&path, ports.join("\n") + "\n").unwrap();
    path
}

fn kill(pid: u32) {
    let done = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(done.success());
}

/// The uninterrupted solve's file.
fn uninterrupted(dir: &Path) -> Vec<u8> {
    let save = dir.join("uninterrupted.sol");
    let mut args = vec!["solve"];
    args.extend(RULES);
    args.extend(["--save", text(&save), "-q", "--no-reachable"]);
    let out = finish(start(&args), Duration::from_secs(300), "the solve");
    assert!(out.status.success(), "{}", common::said(&out));
    std::fs::read(&save).unwrap()
}

#[test]
fn solve_workers_resumes_after_a_worker_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let want = uninterrupted(dir.path());
    let save = dir.path().join("w.sol");
    let cells = PathBuf::from(format!("{}.cluster", save.display()));
    let mut args = vec!["solve"];
    args.extend(RULES);
    args.extend(["--workers", "3", "--save", text(&save), "-q"]);
    args.extend(["--checkpoint-every", "0", "--no-reachable", "--json"]);
    let solving = start(&args);
    let level = wait_for_checkpoints(&cells, 3);
    let pids = worker_pids(&cells);
    let (_, victim) = *pids
        .iter()
        .find(|(n, _)| *n == 1)
        .expect("worker process 1");
    kill(victim);
    // The others end promptly, and the message says what to run.
    let out = finish(solving, Duration::from_secs(30), "the interrupted solve");
    assert_eq!(out.status.code(), Some(1));
    let err = common::said(&out);
    assert!(err.contains("worker process 1"), "{err}");
    assert!(err.contains("run the same command again"), "{err}");
    assert!(err.contains("resumes from level"), "{err}");
    wait_until_no_worker(&cells, "workers still running");
    assert!(!save.exists());
    // Again, the same command: it resumes, and the file is the same.
    let out = finish(start(&args), Duration::from_secs(300), "the resumed solve");
    assert!(out.status.success(), "{}", common::said(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let resumed = v["resumed_from"].as_u64().expect("resumed");
    assert!(resumed >= u64::from(level), "{v}");
    assert_eq!(std::fs::read(&save).unwrap(), want);
    // Nothing is left of the work directory.
    assert!(!cells.exists());
}

#[test]
fn cluster_workers_resume_after_one_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let want = uninterrupted(dir.path());
    let hostfile = hostfile(dir.path(), 3);
    let cells = dir.path().join("cells");
    let arguments = |process: usize| -> Vec<String> {
        let mut args: Vec<String> = vec!["cluster".into(), "worker".into()];
        args.extend(RULES.iter().map(|s| s.to_string()));
        args.extend(
            [
                "--hostfile",
                text(&hostfile),
                "--process",
                &process.to_string(),
                "--dir",
                text(&cells),
                "--checkpoint-every",
                "0",
                "--json",
            ]
            .map(String::from),
        );
        args
    };
    let launch = |process: usize| {
        let args = arguments(process);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        start(&args)
    };
    let workers: Vec<Child> = (0..3).map(launch).collect();
    wait_for_checkpoints(&cells, 3);
    let mut workers: Vec<Option<Child>> = workers.into_iter().map(Some).collect();
    let mut victim = workers[1].take().unwrap();
    victim.kill().unwrap();
    victim.wait().unwrap();
    // The other two end promptly with a message that says how to resume.
    for (k, w) in workers.into_iter().enumerate() {
        let Some(w) = w else { continue };
        let out = finish(w, Duration::from_secs(30), "a worker that lost its peer");
        assert!(!out.status.success(), "worker {k} succeeded");
        let err = common::said(&out);
        assert!(
            err.contains("start every worker again"),
            "worker {k}: {err}"
        );
    }
    // Every worker again, with the same arguments.
    let workers: Vec<Child> = (0..3).map(launch).collect();
    for (k, w) in workers.into_iter().enumerate() {
        let out = finish(w, Duration::from_secs(300), "a resumed worker");
        assert!(out.status.success(), "worker {k}: {}", common::said(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(v["workers"][0]["resumed_from"].as_u64().is_some(), "{v}");
    }
    let save = dir.path().join("assembled.sol");
    let mut args = vec!["cluster", "assemble"];
    args.extend(RULES);
    args.extend(["--dir", text(&cells), "--save", text(&save)]);
    let out = finish(start(&args), Duration::from_secs(120), "assemble");
    assert!(out.status.success(), "{}", common::said(&out));
    assert_eq!(std::fs::read(&save).unwrap(), want);
}

/// A signal to the parent alone (a scheduler's `kill PID`, or SIGKILL) ends its
/// workers too: none solves on unseen, overwriting what a rerun resumes from.
#[test]
fn the_workers_end_with_the_solve_that_started_them() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("w.sol");
    let cells = PathBuf::from(format!("{}.cluster", save.display()));
    let mut args = vec!["solve"];
    args.extend(RULES);
    args.extend(["--workers", "3", "--save", text(&save), "-q"]);
    args.extend(["--checkpoint-every", "0", "--no-reachable"]);
    let mut solving = start(&args);
    wait_for_checkpoints(&cells, 3);
    assert_eq!(worker_pids(&cells).len(), 3);
    solving.kill().unwrap();
    solving.wait().unwrap();
    wait_until_no_worker(&cells, "workers still running without their solve");
    // What they checkpointed is still there to resume from.
    assert!(chopsticks_levels(&cells, 3).is_some());
    // Started again with two workers instead of three, the solve cannot use
    // them: it says so at once, file by file, and solves from the start.
    let want = uninterrupted(dir.path());
    let mut args = vec!["solve"];
    args.extend(RULES);
    args.extend([
        "--workers",
        "2",
        "--save",
        text(&save),
        "--no-reachable",
        "--json",
    ]);
    let out = finish(
        start(&args),
        Duration::from_secs(300),
        "the solve with 2 workers",
    );
    let err = common::said(&out);
    assert!(out.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["resumed_from"].is_null(), "{v}");
    let ignored = v["ignored_checkpoints"].as_array().expect("a list");
    assert!(ignored.len() >= 3, "{v}");
    for line in ignored {
        let line = line.as_str().unwrap();
        assert!(line.contains("of a solve with 3 workers, not 2"), "{line}");
        assert!(
            err.contains(&format!("warning: not resuming from {line}")),
            "{line} not in: {err}"
        );
    }
    // Worker 2's, which no worker of this solve owns, are named too.
    assert!(ignored
        .iter()
        .any(|l| l.as_str().unwrap().contains("(worker 2, level")));
    assert_eq!(std::fs::read(&save).unwrap(), want);
    assert!(!cells.exists());
}

/// Files in the work directory that are not checkpoints of this solve are
/// named on stderr as the workers find them, and in the JSON, and the solve
/// goes on from the start; a worker process's progress lines count every
/// position the solve resolves.
#[test]
fn checkpoints_not_resumed_from_are_named_and_progress_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("s.sol");
    let cells = PathBuf::from(format!("{}.cluster", save.display()));
    std::fs::create_dir_all(&cells).unwrap();
    std::fs::write(cells.join("checkpoint-0-3.bin"), "junk").unwrap();
    std::fs::write(cells.join("checkpoint-1-4.bin"), "CHOPSCKP").unwrap();
    std::fs::write(cells.join("checkpoint-7-3.bin"), "").unwrap();
    std::fs::write(cells.join("checkpoint-8-03.bin"), "").unwrap();
    let args = ["solve", "--workers", "2", "--save", text(&save), "--json"];
    let out = finish(start(&args), Duration::from_secs(60), "the solve");
    let err = common::said(&out);
    assert!(out.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ignored: Vec<&str> = v["ignored_checkpoints"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let name = |f: &str| text(&cells.join(f)).to_string();
    assert_eq!(
        ignored,
        [
            format!(
                "{} (worker 0, level 3): not a checkpoint of chopsticks",
                name("checkpoint-0-3.bin")
            ),
            format!(
                "{} (worker 1, level 4): cut short (its header is incomplete)",
                name("checkpoint-1-4.bin")
            ),
            format!(
                "{} (worker 7, level 3): cut short (its header is incomplete)",
                name("checkpoint-7-3.bin")
            ),
            format!(
                "{}: not named as a checkpoint is (checkpoint-WORKER-LEVEL.bin), so never read",
                name("checkpoint-8-03.bin")
            ),
        ],
        "{v}"
    );
    for line in &ignored {
        assert!(err.contains(line), "{line} not in: {err}");
    }
    assert!(!cells.exists(), "the work directory is left");
    // A file where the work directory goes is refused, saying so.
    std::fs::write(&cells, "not a directory").unwrap();
    let out = finish(start(&args), Duration::from_secs(60), "the solve");
    assert_eq!(out.status.code(), Some(1));
    let err = common::said(&out);
    assert!(err.contains("exists and is not a directory"), "{err}");
    std::fs::remove_file(&cells).unwrap();
    // One worker process alone: its last progress line counts every position
    // resolved (won or lost), as the one-machine solve does.
    let hostfile = hostfile(dir.path(), 1);
    let args = [
        "cluster",
        "worker",
        "--preset",
        "rollover",
        "--hostfile",
        text(&hostfile),
        "--process",
        "0",
        "--dir",
        text(&cells),
        "--progress-lines",
        "-q",
    ];
    let out = finish(start(&args), Duration::from_secs(60), "the worker");
    let err = common::said(&out);
    assert!(out.status.success(), "{err}");
    let last = err
        .lines()
        .rfind(|l| l.starts_with("progress "))
        .expect(&err);
    let words: Vec<u64> = last
        .split_whitespace()
        .skip(1)
        .map(|w| w.parse().unwrap())
        .collect();
    let args = ["solve", "--preset", "rollover", "--no-reachable", "--json"];
    let out = finish(start(&args), Duration::from_secs(60), "the solve");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let decided =
        v["win"].as_u64().unwrap() + v["lose"].as_u64().unwrap() + v["terminal"].as_u64().unwrap();
    assert_eq!(words[1], decided, "{last} {v}");
    // (Rollover has draws: the count is not the index's size.)
    assert!(decided < v["positions"].as_u64().unwrap(), "{v}");
    assert!(words[0] > 0, "{last}");
}

/// Workers started with different rules (a mistyped option on one host) all
/// refuse at once, before any message of the solve (one of them used to
/// panic, or the solve to finish with meaningless cells).
#[test]
fn workers_with_different_rules_refuse_together() {
    let dir = tempfile::tempdir().unwrap();
    let hostfile = hostfile(dir.path(), 3);
    let cells = dir.path().join("cells");
    let workers: Vec<Child> = (0..3)
        .map(|process: usize| {
            let fingers = if process == 2 { "9" } else { "10" };
            let process = process.to_string();
            start(&[
                "cluster",
                "worker",
                "--hands",
                "5",
                "--fingers",
                fingers,
                "--hostfile",
                text(&hostfile),
                "--process",
                &process,
                "--dir",
                text(&cells),
                "-q",
            ])
        })
        .collect();
    for (k, w) in workers.into_iter().enumerate() {
        let out = finish(w, Duration::from_secs(60), "a worker of other rules");
        assert_eq!(out.status.code(), Some(1), "worker {k}");
        let err = common::said(&out);
        assert!(
            err.contains("do not all solve the same rules"),
            "worker {k}: {err}"
        );
        assert!(!err.contains("panicked"), "worker {k}: {err}");
    }
}
