//! A long solve killed (SIGKILL, at no chosen moment) and started again with
//! the same command resumes from its checkpoint and saves the same file as a
//! solve that was never interrupted; out of core and in memory.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{fails_with, json, text};

/// Cutoff rules with many levels: 2 players × 6 hands, F = 8 (2,944,656 positions).
const RULES: [&str; 6] = ["--preset", "standard", "--hands", "6", "--fingers", "8"];

/// The pass recorded in the work directory's manifest, if there is one.
fn manifest_pass(work: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(work.join("manifest.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["pass"].as_u64()
}

/// The level recorded in the checkpoint of a values-only solve
/// (`--no-remoteness`, one-byte cells), if there is one: the file starts with
/// 8 magic bytes, the header's length and the header (JSON).
fn values_level(work: &Path) -> Option<u64> {
    let bytes = std::fs::read(work.join("values.checkpoint")).ok()?;
    let len = u64::from_le_bytes(bytes.get(8..16)?.try_into().ok()?) as usize;
    let v: serde_json::Value = serde_json::from_slice(bytes.get(16..16 + len)?).ok()?;
    v["level"].as_u64()
}

/// The level of the checkpoint in a work directory, of either solver.
fn checkpoint_level(work: &Path) -> Option<u64> {
    manifest_pass(work).or_else(|| values_level(work))
}

/// Starts `solve` with `extra` options, kills it with SIGKILL once its
/// checkpoint has reached level `at`, and returns the level it had reached.
fn kill_after(save: &Path, extra: &[&str], at: u64) -> u64 {
    let work = Path::new(&format!("{}.work", save.display())).to_path_buf();
    let mut child = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
        .arg("solve")
        .args(RULES)
        .args(["--save", text(save), "--quiet"])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let clock = Instant::now();
    loop {
        if let Some(pass) = checkpoint_level(&work) {
            if pass >= at {
                child.kill().unwrap();
                let status = child.wait().unwrap();
                assert!(!status.success(), "killed, not finished");
                return pass;
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the solve ended ({status}) before level {at} was checkpointed");
        }
        assert!(
            clock.elapsed() < Duration::from_secs(120),
            "no checkpoint came"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn a_killed_solve_resumes_to_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("reference.sol");
    let mut args: Vec<&str> = vec!["solve"];
    args.extend(RULES);
    args.extend(["--save", text(&reference), "--json", "--quiet"]);
    let v = json(&args);
    assert_eq!(v["mode"], "checkpointed", "{v}");
    let want = std::fs::read(&reference).unwrap();
    for (name, extra, at) in [
        // Out of core: parts of 2 MiB of cells (`--part-size`, a dozen parts), a checkpoint a level.
        ("parts.sol", vec!["--part-size", "2M"], 4),
        // In memory, a checkpoint every level (every 0 s).
        ("memory.sol", vec!["--checkpoint-every", "0"], 6),
    ] {
        let save = dir.path().join(name);
        let reached = kill_after(&save, &extra, at);
        assert!(!save.exists(), "nothing saved by the killed solve");
        // Killed again, later.
        let reached = kill_after(&save, &extra, reached + 3);
        let mut args: Vec<&str> = vec!["solve"];
        args.extend(RULES);
        args.extend(["--save", text(&save), "--json", "--quiet"]);
        args.extend(extra.iter().copied());
        let v = json(&args);
        assert!(v["resumed_from"].as_u64().unwrap() >= reached, "{v}");
        assert_eq!(std::fs::read(&save).unwrap(), want, "{name}: the same file");
        assert!(!Path::new(&format!("{}.work", save.display())).exists());
        // Its summary is the uninterrupted one's.
        for key in ["reachable", "win", "lose", "draw", "start", "longest_win"] {
            let mut again: Vec<&str> = vec!["solve"];
            again.extend(RULES);
            again.extend(["--json", "--quiet"]);
            assert_eq!(v[key], json(&again)[key], "{key}");
        }
    }
}

/// `--no-remoteness` solves the values alone with one-byte cells in memory;
/// killed, it resumes from its checkpoint; its file is the one the two-byte
/// solver gives out of core, then saved without remoteness.
#[test]
fn a_killed_values_only_solve_resumes_to_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let solve = |save: &Path, extra: &[&str]| {
        let mut args: Vec<&str> = vec!["solve"];
        args.extend(RULES);
        args.extend(["--no-remoteness", "--save", text(save), "--json", "--quiet"]);
        args.extend(extra.iter().copied());
        json(&args)
    };
    let reference = dir.path().join("reference.sol");
    let v = solve(&reference, &[]);
    assert_eq!(v["cell_bytes"], 1, "{v}");
    assert_eq!(v["encoding"], "values", "{v}");
    assert_eq!(v["mode"], "checkpointed", "{v}");
    let want = std::fs::read(&reference).unwrap();
    // Out of core (in parts, `--part-size`): two-byte cells.
    let parts = dir.path().join("parts.sol");
    let v = solve(&parts, &["--part-size", "2M"]);
    assert_eq!(v["cell_bytes"], 2, "{v}");
    assert_eq!(v["mode"], "out-of-core", "{v}");
    assert_eq!(std::fs::read(&parts).unwrap(), want, "the same file");

    let save = dir.path().join("values.sol");
    let every = ["--no-remoteness", "--checkpoint-every", "0"];
    let reached = kill_after(&save, &every, 5);
    assert!(!save.exists(), "nothing saved by the killed solve");
    let reached = kill_after(&save, &every, reached + 3);
    let v = solve(&save, &["--checkpoint-every", "0"]);
    assert!(v["resumed_from"].as_u64().unwrap() >= reached, "{v}");
    assert_eq!(std::fs::read(&save).unwrap(), want, "the same file");
    assert!(!Path::new(&format!("{}.work", save.display())).exists());
}

#[test]
fn memory_too_small_or_a_foreign_checkpoint_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("x.sol");
    let mut args: Vec<&str> = vec!["solve"];
    args.extend(RULES);
    args.extend(["--save", text(&save), "--memory", "100K"]);
    fails_with(&args, "more than the 100.0 KiB allowed");
    args.pop();
    args.push("5X");
    fails_with(&args, "unknown unit");
    // Three players cannot go out of core.
    fails_with(
        &[
            "solve",
            "--players",
            "3",
            "--hands",
            "3",
            "--fingers",
            "8",
            "--memory",
            "1M",
        ],
        "solving out of core is for two players",
    );
    // A checkpoint of other rules in the work directory.
    kill_after(&save, &["--part-size", "2M"], 2);
    let mut other: Vec<&str> = vec!["solve", "--preset", "standard", "--hands", "6"];
    other.extend(["--fingers", "7", "--part-size", "2M", "--save", text(&save)]);
    fails_with(&other, "remove it to start over");
}

#[test]
fn three_players_save_in_memory_and_one_solve_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    // Three players: saved (in memory, without checkpoints) and read back.
    let p3 = dir.path().join("p3.sol");
    let v = json(&[
        "solve",
        "--preset",
        "rollover",
        "--players",
        "3",
        "--save",
        text(&p3),
        "--json",
    ]);
    assert_eq!(v["mode"], "in-memory", "{v}");
    let q = json(&["query", "110101", "--db", text(&p3), "--json"]);
    assert_eq!(q["players"].as_array().unwrap().len(), 3, "{q}");
    // A second solve of the same file while the first runs: refused.
    let save = dir.path().join("busy.sol");
    let work = Path::new(&format!("{}.work", save.display())).to_path_buf();
    let mut first = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
        .arg("solve")
        .args(RULES)
        .args(["--save", text(&save), "--quiet", "--part-size", "2M"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let clock = Instant::now();
    while manifest_pass(&work).is_none() {
        assert!(
            clock.elapsed() < Duration::from_secs(60),
            "no checkpoint came"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let mut second: Vec<&str> = vec!["solve"];
    second.extend(RULES);
    second.extend(["--save", text(&save), "--part-size", "2M"]);
    fails_with(&second, "is in use by another solve");
    first.kill().unwrap();
    first.wait().unwrap();
}
