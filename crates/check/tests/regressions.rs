//! Replays every input the fuzzers ever found (`fuzz/regressions/<target>/`) and the
//! seed corpus (`fuzz/seeds/<target>/`) through the same checks as the fuzz targets,
//! under plain `cargo test`. A missing or empty folder fails: this test must never
//! pass by testing nothing.

use std::path::PathBuf;

use chopsticks_check::TARGETS;

fn folder(kind: &str, target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz")
        .join(kind)
        .join(target)
}

fn replay(kind: &str) -> usize {
    let mut total = 0;
    let mut failed = Vec::new();
    for (target, check) in TARGETS {
        let dir = folder(kind, target);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{} is empty", dir.display());
        for path in files {
            let data = std::fs::read(&path).unwrap();
            if std::panic::catch_unwind(|| check(&data)).is_err() {
                failed.push(path.display().to_string());
            }
            total += 1;
        }
    }
    assert!(
        failed.is_empty(),
        "these inputs fail their check: {failed:#?}"
    );
    total
}

#[test]
fn every_regression_input_passes() {
    assert!(replay("regressions") >= TARGETS.len());
}

#[test]
fn every_seed_passes() {
    assert!(replay("seeds") >= TARGETS.len());
}
