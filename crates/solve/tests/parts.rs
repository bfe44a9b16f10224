//! The solve over parts of the index (out of core, resumable) gives the
//! in-memory solver's table exactly, however the index is cut and wherever a
//! solve is interrupted.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::Duration;

use chopsticks_rules::{Preset, Ruleset};

use crate::common;
use chopsticks_solve::parts::{solve_to_file, DiskPlan};
use chopsticks_solve::{file, Solution};
use chopsticks_space::Graph;

fn rulesets() -> Vec<Ruleset> {
    common::rulesets(common::SHAPES)
}

fn plan(dir: &Path, cell_bytes: u64, every: Option<Duration>) -> DiskPlan {
    DiskPlan {
        dir: dir.join("work"),
        cell_bytes,
        // The smallest batches (4 KiB a spool): many writes per pass.
        spool_bytes: 0,
        checkpoint_every: every,
    }
}

#[test]
fn parts_give_the_in_memory_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.sol");
    let mut parted = 0;
    let mut kept = 0;
    for rules in rulesets() {
        let graph = Graph::new(&rules).unwrap();
        let solution = Solution::solve(&graph, &|_| {}).unwrap();
        let n = graph.count();
        // One part (in memory), a few parts, and parts of one row of tiles.
        for cell_bytes in [u64::MAX, n, 2 * 64 * 64, 1] {
            let report =
                solve_to_file(&graph, &plan(dir.path(), cell_bytes, None), &out, &|_| {}).unwrap();
            if report.parts > 1 {
                parted += 1;
            }
            // A part loaded whose cells no update changed keeps its file.
            kept += report.kept_files;
            let back = file::load(&out).unwrap();
            assert_eq!(
                back.table(),
                solution.table(),
                "{} in {} parts",
                rules.describe(),
                report.parts
            );
            assert_eq!(
                std::fs::read(&out).unwrap(),
                file::encode(&solution),
                "the same file, byte for byte"
            );
            assert!(
                !dir.path().join("work").exists(),
                "the work directory is removed"
            );
        }
    }
    assert!(parted > 20, "{parted}");
    assert!(kept > 0, "no part ever kept its file");
}

/// Stops a solve by a panic in its progress report after `reports` reports,
/// leaving its work directory as a crash would (files of the pass under way
/// written, the manifest of the pass before).
fn interrupted(graph: &Graph, plan: &DiskPlan, out: &Path, reports: usize) -> bool {
    let count = std::sync::atomic::AtomicUsize::new(0);
    let result = catch_unwind(AssertUnwindSafe(|| {
        solve_to_file(graph, plan, out, &|_| {
            if count.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == reports {
                panic!("interrupted");
            }
        })
    }));
    result.is_err()
}

/// Cutoff rules with many levels (standard, 2 × 4 hands, F = 8), cut into many
/// parts when a part is a row of tiles.
fn many_levels() -> Graph {
    Graph::new(&Ruleset {
        hands: vec![4, 4],
        fingers: 8,
        ..Preset::Standard.ruleset()
    })
    .unwrap()
}

#[test]
fn an_interrupted_solve_resumes_to_the_same_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.sol");
    let graph = many_levels();
    let want = file::encode(&Solution::solve(&graph, &|_| {}).unwrap());
    let mut resumed = 0;
    for (cell_bytes, every) in [(1, None), (u64::MAX, Some(Duration::ZERO))] {
        let plan = plan(dir.path(), cell_bytes, every);
        for reports in [3, 10, 25, 40, 77] {
            if !interrupted(&graph, &plan, &out, reports) {
                std::fs::remove_file(&out).unwrap();
                continue;
            }
            assert!(!out.exists());
            // Interrupted again, later, then finished.
            interrupted(&graph, &plan, &out, reports / 2);
            let report = solve_to_file(&graph, &plan, &out, &|_| {}).unwrap();
            if report.resumed_from.is_some() {
                resumed += 1;
            }
            assert_eq!(
                std::fs::read(&out).unwrap(),
                want,
                "stopped after {reports} reports"
            );
            std::fs::remove_file(&out).unwrap();
        }
    }
    assert!(resumed >= 6, "{resumed}");
}

#[test]
fn a_checkpoint_of_other_rules_or_damaged_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.sol");
    let graph = many_levels();
    let plan = plan(dir.path(), 1, None);
    assert!(interrupted(&graph, &plan, &out, 30));
    let other = Graph::new(&Preset::Standard.ruleset()).unwrap();
    let err = solve_to_file(&other, &plan, &out, &|_| {})
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("holds a solve of") && err.contains("remove it"),
        "{err}"
    );
    // A part file damaged: refused, not resumed from.
    let part = std::fs::read_dir(&plan.dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "cells"))
        .unwrap();
    let mut bytes = std::fs::read(&part).unwrap();
    bytes[3] ^= 0x10;
    std::fs::write(&part, &bytes).unwrap();
    let err = solve_to_file(&graph, &plan, &out, &|_| {})
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("damaged") && err.contains("start over"),
        "{err}"
    );
    assert!(!out.exists());
    // A spool damaged: refused too (its CRC-32 is in the manifest).
    let mut damaged_spool = false;
    for reports in [20, 40, 60, 80, 100] {
        std::fs::remove_dir_all(&plan.dir).unwrap();
        assert!(interrupted(&graph, &plan, &out, reports));
        let manifest: serde_json::Value =
            serde_json::from_slice(&std::fs::read(plan.dir.join("manifest.json")).unwrap())
                .unwrap();
        let pass = manifest["pass"].as_u64().unwrap();
        let spools = manifest["spools"].as_array().unwrap();
        let Some(part) = spools.iter().position(|s| s[0].as_u64().unwrap() >= 16) else {
            continue;
        };
        let spool = plan.dir.join(format!("spool-{part}-{pass}.bin"));
        let mut bytes = std::fs::read(&spool).unwrap();
        bytes[9] ^= 0x01;
        std::fs::write(&spool, &bytes).unwrap();
        let err = solve_to_file(&graph, &plan, &out, &|_| {})
            .unwrap_err()
            .to_string();
        assert!(err.contains("damaged"), "{err}");
        damaged_spool = true;
        break;
    }
    assert!(damaged_spool, "no spool to damage");
}
