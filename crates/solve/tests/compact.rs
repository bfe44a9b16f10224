//! The values-only solver in one byte a position gives the values of the
//! two-byte solver exactly, resumes from its checkpoint to the same table
//! wherever it is stopped, and refuses a checkpoint it cannot trust.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Duration;

use chopsticks_rules::{Preset, Ruleset};

use crate::common;
use chopsticks_solve::compact::{self, Checkpoints, CHECKPOINT};
use chopsticks_solve::{file, Solution};
use chopsticks_space::Graph;

fn rulesets() -> Vec<Ruleset> {
    let mut shapes = common::SHAPES.to_vec();
    shapes.push((&[4, 4], 8));
    common::rulesets(&shapes)
}

#[test]
fn one_byte_cells_give_the_values_of_two_byte_cells() {
    let mut checked = 0;
    for rules in rulesets() {
        let graph = Graph::new(&rules).unwrap();
        assert!(compact::fits(&graph), "{}", rules.describe());
        let want = Solution::solve(&graph, &|_| {})
            .unwrap()
            .without_remoteness()
            .unwrap();
        let (got, report) = Solution::solve_values(&graph, None, None, &|_| {}).unwrap();
        assert_eq!(got.table(), want.table(), "{}", rules.describe());
        assert_eq!(report.resumed_from, None);
        assert_eq!(report.checkpoints, 0);
        // The levels are retrograde's: one more than the longest remoteness.
        let full = Solution::solve(&graph, &|_| {}).unwrap();
        let longest = (0..full.count())
            .filter_map(|i| full.outcome_at(i).unwrap().remoteness)
            .max()
            .unwrap_or(0);
        assert_eq!(report.levels, longest + 1, "{}", rules.describe());
        checked += 1;
    }
    assert!(checked > 30, "{checked}");
}

/// Stops a solve by a panic in its progress report after `reports` reports,
/// leaving its work directory as a crash would.
fn interrupted(graph: &Graph, plan: &Checkpoints, out: &Path, reports: usize) -> bool {
    let count = AtomicUsize::new(0);
    catch_unwind(AssertUnwindSafe(|| {
        compact::solve_values(graph, Some(plan), Some(out), &|_| {
            if count.fetch_add(1, Relaxed) == reports {
                panic!("interrupted");
            }
        })
    }))
    .is_err()
}

/// Cutoff rules with many levels (standard, 2 × 4 hands, F = 8).
fn many_levels() -> Graph {
    Graph::new(&Ruleset {
        hands: vec![4, 4],
        fingers: 8,
        ..Preset::Standard.ruleset()
    })
    .unwrap()
}

#[test]
fn an_interrupted_solve_resumes_to_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.sol");
    let graph = many_levels();
    let want = file::encode(
        &Solution::solve(&graph, &|_| {})
            .unwrap()
            .without_remoteness()
            .unwrap(),
    );
    let plan = Checkpoints {
        dir: dir.path().join("work"),
        every: Duration::ZERO,
    };
    let mut resumed = 0;
    for reports in [2, 5, 10, 20, 30] {
        if !interrupted(&graph, &plan, &out, reports) {
            std::fs::remove_file(&out).unwrap();
            continue;
        }
        assert!(!out.exists(), "nothing saved by a stopped solve");
        // Interrupted again, after fewer reports, then finished.
        interrupted(&graph, &plan, &out, reports / 2);
        let (_, report) = compact::solve_values(&graph, Some(&plan), Some(&out), &|_| {}).unwrap();
        if let Some(level) = report.resumed_from {
            assert!(level >= 1);
            resumed += 1;
        }
        assert_eq!(
            std::fs::read(&out).unwrap(),
            want,
            "stopped after {reports} reports"
        );
        assert!(!plan.dir.exists(), "the work directory is removed");
        std::fs::remove_file(&out).unwrap();
    }
    assert!(resumed >= 3, "{resumed}");
}

#[test]
fn a_checkpoint_of_other_rules_or_damaged_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.sol");
    let graph = many_levels();
    let plan = Checkpoints {
        dir: dir.path().join("work"),
        every: Duration::ZERO,
    };
    assert!(interrupted(&graph, &plan, &out, 10));
    let checkpoint = plan.dir.join(CHECKPOINT);
    assert!(checkpoint.exists());
    // Other rules.
    let other = Graph::new(&Preset::Standard.ruleset()).unwrap();
    let err = compact::solve_values(&other, Some(&plan), None, &|_| {})
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("another ruleset") && err.contains("start over"),
        "{err}"
    );
    // One bit changed in the cells: the checksum catches it.
    let good = std::fs::read(&checkpoint).unwrap();
    let mut bytes = good.clone();
    let at = bytes.len() - 100;
    bytes[at] ^= 0x10;
    std::fs::write(&checkpoint, &bytes).unwrap();
    let err = compact::solve_values(&graph, Some(&plan), Some(&out), &|_| {})
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("damaged") && err.contains("start over"),
        "{err}"
    );
    // Cut short.
    std::fs::write(&checkpoint, &good[..good.len() - 7]).unwrap();
    let err = compact::solve_values(&graph, Some(&plan), Some(&out), &|_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("bytes, not the"), "{err}");
    assert!(!out.exists());
    // A checkpoint of the two-byte solver is not resumed by this one.
    std::fs::remove_file(&checkpoint).unwrap();
    std::fs::write(plan.dir.join("manifest.json"), b"{}").unwrap();
    let err = compact::solve_values(&graph, Some(&plan), Some(&out), &|_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("with remoteness"), "{err}");
    // Intact again: it resumes.
    std::fs::remove_file(plan.dir.join("manifest.json")).unwrap();
    std::fs::write(&checkpoint, &good).unwrap();
    let (_, report) = compact::solve_values(&graph, Some(&plan), Some(&out), &|_| {}).unwrap();
    assert!(report.resumed_from.is_some());
}
