//! Writing result files safely.
//!
//! Every file the toolkit writes (saved solutions, pictures of tables) goes through
//! [`write_atomically`], which keeps three promises:
//!
//! - **Nothing half-written.** The bytes go to a new temporary file in the target's
//!   directory, are flushed to disk, and the temporary file is then renamed over the
//!   target. A failure at any step removes the temporary file and leaves the target as
//!   it was; a reader never sees a partial file under the target's name.
//! - **Links are written through, not replaced.** When the target is a symbolic link
//!   (or a chain of them), the file it points to is the one replaced, and the link
//!   stays. A dangling link creates the file it names.
//! - **Only regular files are replaced.** A target that exists and is not a regular
//!   file (a directory, a FIFO, a character or block device such as `/dev/full`, a
//!   socket) is refused with [`WriteError::NotRegular`] before anything is opened or
//!   created: renaming over it would silently swap a device or a pipe for a file.
//!
//! A process that is interrupted while writing (Ctrl-C, `kill`) would leave its
//! temporary file behind: every temporary file is listed while it exists, and the
//! binary's signal handler calls [`remove_temporary_files`] before it exits. A
//! process killed outright (`kill -9`) cannot clean up: the next write of the same
//! target removes the temporary files of processes that no longer exist
//! ([`remove_stale_temporary_files`]).
//!
//! The temporary file is created with `create_new` (it must not exist), under a name
//! made of the target's name, the process id and a per-process counter, so two runs
//! writing beside each other never share one, and an existing file or link of that
//! name is never followed. An existing target's permissions, owner and group are
//! carried over to the new file (the owner where the writer may give it away:
//! as root).

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// How many symbolic links are followed before giving up (as the kernel's `ELOOP`).
pub const MAX_LINKS: usize = 40;

/// Why a file could not be written. The target is unchanged in every case.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The target exists and is not a regular file.
    #[error("{path}: not a regular file ({kind}); refusing to replace it")]
    NotRegular { path: String, kind: &'static str },
    /// A chain of symbolic links too long, or a loop.
    #[error("{path}: more than {MAX_LINKS} symbolic links (a loop?)")]
    LinkLoop { path: String },
    /// The operating system refused a step.
    #[error("{path}: cannot write")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> WriteError + '_ {
    move |source| WriteError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// What kind of file a metadata describes, for messages.
fn kind_of(file_type: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_file() {
        "a regular file"
    } else {
        "not a file"
    }
}

/// The file `path` finally names: symbolic links followed (relative targets are
/// read from the link's directory), whether or not that file exists yet.
pub fn resolve(path: &Path) -> Result<PathBuf, WriteError> {
    let mut current = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&current).map_err(io_error(path))?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            Ok(_) => return Ok(current),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(io_error(path)(e)),
        }
    }
    Err(WriteError::LinkLoop {
        path: path.display().to_string(),
    })
}

/// Checks, before long work, what [`write_with`] would refuse at its start: a
/// target that exists and is not a regular file, a link loop, or a directory where
/// no file can be created (missing, read-only). Creates and removes an empty probe
/// file beside the target.
pub fn check_writable(path: &Path) -> Result<(), WriteError> {
    let (target, _) = regular_target(path)?;
    let probe = sibling(path, &target, "probe")?;
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(io_error(path))?;
    let _ = fs::remove_file(&probe);
    Ok(())
}

/// The file `path` names (links followed) and its metadata if it exists, refusing
/// anything but a regular file.
fn regular_target(path: &Path) -> Result<(PathBuf, Option<fs::Metadata>), WriteError> {
    // What the kernel finds at `path` first: "magic" links such as `/dev/stdout`
    // (to `/proc/self/fd/1`, to a pipe or a terminal) cannot be followed by name.
    if let Ok(meta) = fs::metadata(path) {
        if !meta.is_file() {
            return Err(WriteError::NotRegular {
                path: path.display().to_string(),
                kind: kind_of(meta.file_type()),
            });
        }
    }
    let target = resolve(path)?;
    let existing = match fs::metadata(&target) {
        Ok(meta) if meta.is_file() => Some(meta),
        Ok(meta) => {
            return Err(WriteError::NotRegular {
                path: path.display().to_string(),
                kind: kind_of(meta.file_type()),
            })
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_error(path)(e)),
    };
    Ok((target, existing))
}

/// A hidden file name beside `target`, unique to this process and call.
fn sibling(path: &Path, target: &Path, what: &str) -> Result<PathBuf, WriteError> {
    let name = target
        .file_name()
        .ok_or_else(|| WriteError::NotRegular {
            path: path.display().to_string(),
            kind: "a directory",
        })?
        .to_owned();
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(&name);
    tmp_name.push(format!(
        ".{}.{}.{what}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    Ok(target.with_file_name(tmp_name))
}

/// Removes the temporary files beside `target` left by runs that died while
/// writing it (`kill -9`, a power cut): `.NAME.PID.N.tmp` whose process `PID` no
/// longer exists. A file of a live process (another run writing the same target)
/// is left alone; so is anything that does not have exactly that form. Where
/// processes cannot be looked up (`/proc` absent), nothing is removed.
pub fn remove_stale_temporary_files(target: &Path) -> usize {
    let (Some(name), Some(dir)) = (target.file_name(), target.parent()) else {
        return 0;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    if !Path::new("/proc/self").exists() {
        return 0;
    }
    let prefix = format!(".{}.", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|r| r.strip_suffix(".tmp"))
        else {
            continue;
        };
        let mut parts = rest.split('.');
        let (Some(pid), Some(n), None) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let (Ok(pid), Ok(_)) = (pid.parse::<u32>(), n.parse::<u64>()) else {
            continue;
        };
        let dead = process_is_gone(pid);
        let regular = entry.file_type().is_ok_and(|t| t.is_file());
        if dead && regular && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Whether no process `pid` exists any more (never for this process; never
/// where processes cannot be looked up, `/proc` absent): what makes a file named
/// after a process safe to remove.
pub fn process_is_gone(pid: u32) -> bool {
    pid != std::process::id()
        && Path::new("/proc/self").exists()
        && !Path::new(&format!("/proc/{pid}")).exists()
}

/// Distinguishes the temporary files of one process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Gives the new file the owner and group of the file it replaces (as root,
/// saving through a link to another user's file keeps it theirs). A user who
/// may not give a file away keeps at least the group where it is one of theirs;
/// otherwise the new file is the writer's, as any editor's save would make it.
fn keep_owner(file: &fs::File, old: &fs::Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let Ok(now) = file.metadata() else {
            return;
        };
        if (now.uid(), now.gid()) == (old.uid(), old.gid()) {
            return;
        }
        if std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid())).is_err() {
            let _ = std::os::unix::fs::fchown(file, None, Some(old.gid()));
        }
    }
}

/// The temporary files that exist now (created and not yet renamed or removed).
static IN_FLIGHT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn in_flight() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // A panic while the list was held leaves it intact: keep using it.
    IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Scratch this process made that nothing will ever resume from (the work
/// directory and solution file of a solve that saves nothing), removed with
/// the temporary files when the process is interrupted.
static SCRATCH: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn scratch() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    SCRATCH.lock().unwrap_or_else(|e| e.into_inner())
}

/// Registers `path` (a directory, removed with everything in it, or a file) as
/// scratch that an interrupt removes ([`remove_temporary_files`]): work that
/// nothing resumes from, which would otherwise fill the disk after a kill.
pub fn remove_on_interrupt(path: &Path) {
    let mut list = scratch();
    if !list.iter().any(|p| p == path) {
        list.push(path.to_path_buf());
    }
}

/// Forgets a path given to [`remove_on_interrupt`] (its work is over).
pub fn keep_on_interrupt(path: &Path) {
    scratch().retain(|p| p != path);
}

/// Set once [`remove_temporary_files`] has begun: the process is being
/// interrupted.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether an interrupt's clean-up ([`remove_temporary_files`]) has begun: the
/// work may then fail for want of the files it removes, and such a failure is
/// not to be reported (the handler ends the process with the signal's status).
pub fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Removes every temporary file this process is writing now, and the scratch
/// registered with [`remove_on_interrupt`]; returns how many temporary files
/// there were. For a signal handler that is about to end the process: the
/// targets are left as they were, and the writes in progress fail if they go
/// on.
pub fn remove_temporary_files() -> usize {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
    let mut list = in_flight();
    let count = list.len();
    for tmp in list.drain(..) {
        let _ = fs::remove_file(tmp);
    }
    for path in scratch().drain(..) {
        // The work may still write there while it is removed (a directory is
        // not empty any more when its last entry goes): again, until it is gone.
        for _ in 0..100 {
            match fs::symlink_metadata(&path) {
                Ok(m) if m.is_dir() => {
                    let _ = fs::remove_dir_all(&path);
                }
                Ok(_) => {
                    let _ = fs::remove_file(&path);
                }
                Err(_) => break,
            }
        }
    }
    count
}

/// The bytes free to this user on the file system that holds `path` (or the
/// nearest directory above it that exists); `None` where it cannot be read.
pub fn free_bytes(path: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut at = path;
        while !at.exists() {
            at = at.parent()?;
        }
        let at = if at.as_os_str().is_empty() {
            Path::new(".")
        } else {
            at
        };
        let name = std::ffi::CString::new(at.as_os_str().as_bytes()).ok()?;
        // SAFETY: statvfs writes one struct, zero-initialised here (all-zero
        // bytes are a valid value of this plain C struct), that lives on this
        // stack frame for the call; `name` is a NUL-terminated path that
        // outlives it. A failure (non-zero) is answered `None`.
        unsafe {
            let mut stat: libc::statvfs = std::mem::zeroed();
            if libc::statvfs(name.as_ptr(), &mut stat) != 0 {
                return None;
            }
            Some((stat.f_bavail as u64).saturating_mul(stat.f_frsize as u64))
        }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// The temporary files of this process that exist now.
pub fn temporary_files() -> Vec<PathBuf> {
    in_flight().clone()
}

/// Whether two paths name the same file: the same device and inode (through
/// symbolic and hard links), or, where that cannot be read, the same
/// canonical path. A path that does not exist names no file yet: `false`.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (fs::metadata(a), fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ma.dev() == mb.dev() && ma.ino() == mb.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (ma, mb);
        matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    }
}

/// Writes `bytes` to `path` atomically, through symbolic links, refusing anything
/// but a regular file (see the crate documentation).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_with(path, |file| file.write_all(bytes))
}

/// Like [`write_atomically`], with the content written by `fill` into the
/// temporary file (for output produced piece by piece).
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut fs::File) -> io::Result<()>,
) -> Result<(), WriteError> {
    let (target, existing) = regular_target(path)?;
    remove_stale_temporary_files(&target);
    let tmp = sibling(path, &target, "tmp")?;
    let mut file = {
        // Listed before it exists, so that a signal never misses it.
        let mut list = in_flight();
        list.push(tmp.clone());
        let opened = OpenOptions::new().write(true).create_new(true).open(&tmp);
        if opened.is_err() {
            list.pop();
        }
        opened.map_err(io_error(path))?
    };
    let written = (|| {
        fill(&mut file)?;
        if let Some(meta) = &existing {
            keep_owner(&file, meta);
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        drop(file);
        let mut list = in_flight();
        let renamed = fs::rename(&tmp, &target);
        list.retain(|p| p != &tmp);
        renamed
    })();
    written.map_err(|e| {
        let mut list = in_flight();
        let _ = fs::remove_file(&tmp);
        list.retain(|p| p != &tmp);
        io_error(path)(e)
    })
}

/// Why an input file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Not a regular file: a FIFO would block, a device (`/dev/zero`) never end.
    #[error("{path}: not a regular file ({kind}); only regular files are read")]
    NotRegular { path: String, kind: &'static str },
    /// Larger than the reader accepts.
    #[error("{path}: {size} bytes, more than the {limit} bytes read for {what}")]
    TooLarge {
        path: String,
        size: u64,
        limit: u64,
        what: &'static str,
    },
    /// The operating system refused. (Its reason is in the message, not a
    /// source of its own: a chain printed whole would say it twice.)
    #[error("{path}: cannot read: {error}")]
    Io { path: String, error: io::Error },
}

/// Whether `path` (symbolic links followed) is a regular file; the kind of thing it
/// is otherwise. Checked before opening, so that a FIFO is never opened (opening
/// one for reading blocks until a writer comes).
pub fn check_regular(path: &Path) -> Result<(), ReadError> {
    let metadata = fs::metadata(path).map_err(|error| ReadError::Io {
        path: path.display().to_string(),
        error,
    })?;
    if metadata.is_file() {
        Ok(())
    } else {
        Err(ReadError::NotRegular {
            path: path.display().to_string(),
            kind: kind_of(metadata.file_type()),
        })
    }
}

/// Reads a whole input file of at most `limit` bytes: only a regular file (links
/// followed), refused before it is opened otherwise, and never more than `limit`
/// bytes even if it grows while it is read. `what` names the file in the message.
pub fn read_bounded(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    check_regular(path)?;
    let io = |error| ReadError::Io {
        path: path.display().to_string(),
        error,
    };
    let file = fs::File::open(path).map_err(io)?;
    let too_large = |size| ReadError::TooLarge {
        path: path.display().to_string(),
        size,
        limit,
        what,
    };
    let size = file.metadata().map_err(io)?.len();
    if size > limit {
        return Err(too_large(size));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

impl ReadError {
    /// The message without the path, for a caller that names the file itself.
    pub fn reason(&self) -> String {
        match self {
            ReadError::NotRegular { kind, .. } => {
                format!("not a regular file ({kind}); only regular files are read")
            }
            ReadError::TooLarge {
                size, limit, what, ..
            } => format!("{size} bytes, more than the {limit} bytes read for {what}"),
            ReadError::Io { error, .. } => format!("cannot read: {error}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replacing a file through a link keeps its mode, owner and group: as
    /// root, another user's file stays theirs (issue 60, F8); as anyone else,
    /// the writer's own file stays as it was.
    #[test]
    #[cfg(unix)]
    fn replacing_keeps_owner_group_and_mode() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("owned");
        fs::write(&target, b"old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        let root = fs::metadata(&target).unwrap().uid() == 0;
        let (uid, gid) = if root {
            (1234, 5678)
        } else {
            let m = fs::metadata(&target).unwrap();
            (m.uid(), m.gid())
        };
        std::os::unix::fs::chown(&target, Some(uid), Some(gid)).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let inode = fs::metadata(&target).unwrap().ino();
        write_atomically(&link, b"new").unwrap();
        let after = fs::metadata(&target).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert_ne!(after.ino(), inode, "replaced, not written in place");
        assert_eq!((after.uid(), after.gid()), (uid, gid));
        assert_eq!(after.permissions().mode() & 0o777, 0o640);
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    #[cfg(unix)]
    fn same_file_sees_through_links() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        fs::write(&a, b"x").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&a, &link).unwrap();
        let hard = dir.path().join("hard");
        fs::hard_link(&a, &hard).unwrap();
        let other = dir.path().join("other");
        fs::write(&other, b"x").unwrap();
        assert!(same_file(&a, &a) && same_file(&a, &link) && same_file(&hard, &link));
        assert!(!same_file(&a, &other));
        assert!(!same_file(&a, &dir.path().join("missing")));
    }
}
