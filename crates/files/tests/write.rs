//! The promises of `write_atomically`, each on real files in a temporary directory.

use std::fs;
use std::path::Path;
use std::process::Command;

use chopsticks_files::{write_atomically, write_with, WriteError};

/// Everything in `dir` but the names listed: no temporary file may be left over.
fn leftovers(dir: &Path, expected: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !expected.contains(&n.as_str()))
        .collect();
    names.sort();
    names
}

#[test]
fn creates_and_replaces_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.bin");
    write_atomically(&path, b"first").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"first");
    write_atomically(&path, b"second, longer").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"second, longer");
    assert!(leftovers(dir.path(), &["out.bin"]).is_empty());
}

#[cfg(unix)]
#[test]
fn keeps_the_permissions_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.bin");
    fs::write(&path, b"old").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    write_atomically(&path, b"new").unwrap();
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[cfg(unix)]
#[test]
fn writes_through_a_chain_of_symbolic_links() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.bin");
    fs::write(&real, b"old").unwrap();
    // link2 -> link1 -> real.bin, the first one relative.
    symlink("real.bin", dir.path().join("link1")).unwrap();
    symlink(dir.path().join("link1"), dir.path().join("link2")).unwrap();
    write_atomically(&dir.path().join("link2"), b"through").unwrap();
    assert_eq!(fs::read(&real).unwrap(), b"through");
    for link in ["link1", "link2"] {
        let meta = fs::symlink_metadata(dir.path().join(link)).unwrap();
        assert!(meta.file_type().is_symlink(), "{link} must stay a link");
    }
    assert!(leftovers(dir.path(), &["real.bin", "link1", "link2"]).is_empty());
}

#[cfg(unix)]
#[test]
fn a_dangling_link_creates_the_file_it_names() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    symlink("missing.bin", dir.path().join("link")).unwrap();
    write_atomically(&dir.path().join("link"), b"made").unwrap();
    assert_eq!(fs::read(dir.path().join("missing.bin")).unwrap(), b"made");
    assert!(fs::symlink_metadata(dir.path().join("link"))
        .unwrap()
        .file_type()
        .is_symlink());
}

#[cfg(unix)]
#[test]
fn a_loop_of_links_is_an_error() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    symlink("b", dir.path().join("a")).unwrap();
    symlink("a", dir.path().join("b")).unwrap();
    let err = write_atomically(&dir.path().join("a"), b"x").unwrap_err();
    assert!(matches!(err, WriteError::LinkLoop { .. }), "{err}");
    assert!(leftovers(dir.path(), &["a", "b"]).is_empty());
}

#[cfg(unix)]
#[test]
fn refuses_a_fifo_without_opening_it() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // Opening a FIFO for writing would block with no reader: the refusal must come
    // from its metadata alone.
    let err = write_atomically(&fifo, b"x").unwrap_err();
    assert!(
        err.to_string().contains("not a regular file (a FIFO)"),
        "{err}"
    );
    let meta = fs::symlink_metadata(&fifo).unwrap();
    use std::os::unix::fs::FileTypeExt;
    assert!(meta.file_type().is_fifo(), "the FIFO is still there");
    assert!(leftovers(dir.path(), &["pipe"]).is_empty());
}

#[cfg(unix)]
#[test]
fn refuses_a_device_and_a_link_to_one() {
    use std::os::unix::fs::{symlink, FileTypeExt};
    let err = write_atomically(Path::new("/dev/full"), b"x").unwrap_err();
    assert!(
        err.to_string()
            .contains("not a regular file (a character device)"),
        "{err}"
    );
    assert!(fs::metadata("/dev/full")
        .unwrap()
        .file_type()
        .is_char_device());
    let dir = tempfile::tempdir().unwrap();
    symlink("/dev/null", dir.path().join("null")).unwrap();
    let err = write_atomically(&dir.path().join("null"), b"x").unwrap_err();
    assert!(matches!(err, WriteError::NotRegular { .. }), "{err}");
    assert!(fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
}

#[test]
fn refuses_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    let err = write_atomically(&sub, b"x").unwrap_err();
    assert!(err.to_string().contains("a directory"), "{err}");
    assert!(sub.is_dir());
}

#[test]
fn a_failed_write_leaves_the_target_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.bin");
    fs::write(&path, b"precious").unwrap();
    let err = write_with(&path, |file| {
        use std::io::Write;
        file.write_all(b"half")?;
        Err(std::io::Error::other("disk on fire"))
    })
    .unwrap_err();
    // The cause is the error's source (printed after it by `{:#}` chains).
    let source = std::error::Error::source(&err).map(|s| s.to_string());
    assert_eq!(source.as_deref(), Some("disk on fire"), "{err}");
    assert_eq!(fs::read(&path).unwrap(), b"precious");
    assert!(leftovers(dir.path(), &["out.bin"]).is_empty());
}

#[test]
fn a_missing_directory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let err = write_atomically(&dir.path().join("no/such/dir/out.bin"), b"x").unwrap_err();
    assert!(matches!(err, WriteError::Io { .. }), "{err}");
}

#[test]
fn check_writable_refuses_before_the_work_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.txt");
    chopsticks_files::check_writable(&target).unwrap();
    // Nothing is left behind, not even the probe.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let err = chopsticks_files::check_writable(dir.path()).unwrap_err();
    assert!(err.to_string().contains("a directory"), "{err}");
    let err = chopsticks_files::check_writable(&dir.path().join("no/such/dir/x")).unwrap_err();
    assert!(
        matches!(err, chopsticks_files::WriteError::Io { .. }),
        "{err}"
    );
    let err = chopsticks_files::check_writable(std::path::Path::new("/dev/null")).unwrap_err();
    assert!(err.to_string().contains("character device"), "{err}");
}

/// A temporary file left by a run that died while writing the same target (`kill
/// -9`) is removed by the next write; one of a live process, or another file, is
/// left alone.
#[test]
fn the_next_write_removes_temporary_files_of_dead_runs() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.sol");
    // A process id that does not exist now.
    let dead = (100_000..4_000_000u32)
        .find(|pid| !Path::new(&format!("/proc/{pid}")).exists())
        .unwrap();
    let stale = dir.path().join(format!(".out.sol.{dead}.1.tmp"));
    let live = dir
        .path()
        .join(format!(".out.sol.{}.7.tmp", std::process::id()));
    let other = dir.path().join(format!(".other.sol.{dead}.1.tmp"));
    let odd = dir.path().join(format!(".out.sol.{dead}.tmp"));
    for f in [&stale, &live, &other, &odd] {
        fs::write(f, b"half").unwrap();
    }
    write_atomically(&target, b"whole").unwrap();
    assert_eq!(fs::read(&target).unwrap(), b"whole");
    assert!(!stale.exists(), "the dead run's file is removed");
    for kept in [&live, &other, &odd] {
        assert!(kept.exists(), "{} is kept", kept.display());
    }
}
