//! The list of temporary files that the binary's signal handler empties. Its own
//! test binary: `remove_temporary_files` removes the temporary files of the whole
//! process, which would break writes of other tests running beside it.

use std::fs;
use std::path::Path;

use chopsticks_files::{write_atomically, write_with};

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
