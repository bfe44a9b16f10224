//! The list of temporary files that the binary's signal handler empties. Each
//! test here runs in a process of its own (the test binary started again for
//! it alone): `remove_temporary_files` removes the temporary files of the whole
//! process, which would break the writes of other tests running beside it.

use std::fs;
use std::path::Path;
use std::process::Command;

use chopsticks_files::{write_atomically, write_with};

/// Set in the process that runs one test alone.
const ALONE: &str = "CHOPSTICKS_FILES_TEST_ALONE";

/// In the test binary's own process: runs the test `name` (of this module) in a
/// new process of the same binary, alone, asserts that it passed there, and
/// returns `false`. In that new process: returns `true`, the test's body to run.
fn alone(name: &str) -> bool {
    if std::env::var_os(ALONE).is_some() {
        return true;
    }
    let full = format!("interrupt::{name}");
    let out = Command::new(std::env::current_exe().unwrap())
        .args([full.as_str(), "--exact", "--test-threads=1", "--nocapture"])
        .env(ALONE, "1")
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{full}, alone:\n{said}");
    assert!(
        said.contains("1 passed"),
        "{full} did not run alone:\n{said}"
    );
    false
}

fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// While `fill` runs, the temporary file is listed; `remove_temporary_files` (what
/// the binary's signal handler calls) deletes it, the write then fails, and neither
/// the temporary file nor a target is left.
#[test]
fn temporary_files_are_listed_while_written_and_removed_on_request() {
    if !alone("temporary_files_are_listed_while_written_and_removed_on_request") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.jsonl");
    let result = write_with(&path, |file| {
        use std::io::Write;
        file.write_all(b"partial")?;
        let listed = chopsticks_files::temporary_files();
        let mine: Vec<_> = listed
            .iter()
            .filter(|p| p.starts_with(dir.path()))
            .collect();
        assert_eq!(mine.len(), 1, "{listed:?}");
        assert!(mine[0].exists());
        assert!(chopsticks_files::remove_temporary_files() >= 1);
        assert!(!mine[0].exists());
        Ok(())
    });
    assert!(result.is_err(), "the rename of a removed file must fail");
    assert!(leftovers(dir.path()).is_empty());
    assert!(!chopsticks_files::temporary_files()
        .iter()
        .any(|p| p.starts_with(dir.path())));
    // A successful write is no longer listed.
    write_atomically(&path, b"whole").unwrap();
    assert!(!chopsticks_files::temporary_files()
        .iter()
        .any(|p| p.starts_with(dir.path())));
}
