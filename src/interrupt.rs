//! Interrupts: Ctrl-C, `kill` or a closed terminal end the process as the
//! signal's default action would (exit status 128 + the signal), but first
//! remove the temporary files of the writes in progress
//! ([`chopsticks_files::remove_temporary_files`]), so an interrupted `--output`,
//! `--save` or checkpoint leaves nothing half-written behind.
//!
//! The model: SIGINT, SIGTERM and SIGHUP are each watched **unless the process
//! started with that signal ignored**. A parent that ignores a signal for its
//! child keeps a promise by it: `nohup` ignores SIGHUP so that closing the
//! terminal does not end the job; a shell ignores SIGINT for a background job
//! of a script. That promise is kept (the signal stays ignored), and the other
//! signals are still watched: an interrupt under `nohup` cleans up as it does in
//! a terminal. (`ctrlc`, used before, gave up on all three signals as soon as
//! one was ignored, so under `nohup` an interrupt left its temporary file.)
//!
//! The signals are received by [`signal_hook`]'s iterator on a thread of their
//! own, so the clean-up runs as ordinary code, not in a signal handler.
//! `serve` has its own graceful shutdown and does not use this.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The signals that end the process after cleaning up.
const WATCHED: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// Whether `signal` is ignored now (its disposition is `SIG_IGN`).
pub fn is_ignored(signal: i32) -> bool {
    // SAFETY: `sigaction` with a null new action only reads the current
    // disposition into `old`, a zero-initialised `sigaction` struct that lives
    // for the call (all-zero bytes are a valid value of this plain C struct);
    // it changes nothing, so it cannot race with a handler being installed in
    // a way that matters here (this runs once, at start, before any thread
    // installs one). A signal number out of range makes it fail (non-zero),
    // answered as "not ignored".
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// Starts watching the signals that were not ignored at start. Returns the
/// signals watched, or an error when none could be (then an interrupted write
/// may leave a temporary file, and the caller says so).
pub fn clean_up_on_interrupt() -> std::io::Result<Vec<i32>> {
    let watched: Vec<i32> = WATCHED.into_iter().filter(|&s| !is_ignored(s)).collect();
    if watched.is_empty() {
        return Ok(watched);
    }
    let mut signals = signal_hook::iterator::Signals::new(&watched)?;
    std::thread::Builder::new()
        .name("interrupt".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                chopsticks_files::remove_temporary_files();
                std::process::exit(128 + signal);
            }
        })?;
    Ok(watched)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disposition_is_read_without_changing_it() {
        // SIGWINCH is not ignored by default (its default action is to do
        // nothing, which is not SIG_IGN); ignore it, read, restore.
        assert!(!is_ignored(libc::SIGWINCH));
        // SAFETY: `signal` swaps the disposition of SIGWINCH, which no code of
        // this test binary watches, and the old one is put back right after.
        let old = unsafe { libc::signal(libc::SIGWINCH, libc::SIG_IGN) };
        let seen = is_ignored(libc::SIGWINCH);
        unsafe { libc::signal(libc::SIGWINCH, old) };
        assert!(seen);
        assert!(!is_ignored(libc::SIGWINCH));
        // A number that is no signal is not "ignored".
        assert!(!is_ignored(-1));
        assert!(!is_ignored(100_000));
    }
}
