//! A request that the solve under way stop: for a host that cannot kill its
//! own process to end a solve (Python's Ctrl-C, which must leave the
//! interpreter running).
//!
//! The model: one flag for the process, set by [`request`] from any thread,
//! looked at by every solver after each level it reports (and by an
//! out-of-core solve after each part), which then returns
//! [`SolveError::Stopped`](crate::SolveError::Stopped) with its cells dropped.
//! A solve that saves leaves its last checkpoint, as a killed one does; the
//! caller removes scratch nothing resumes from. The flag stays set until
//! [`clear`]: a host clears it before the next solve. Solves of one process
//! that run at once all stop (the command line and the server never set it;
//! the Python package runs one solve at a time).

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Asks the solves under way to stop at their next level.
pub fn request() {
    STOP.store(true, Ordering::SeqCst);
}

/// Forgets a request to stop (before a new solve).
pub fn clear() {
    STOP.store(false, Ordering::SeqCst);
}

/// Whether a stop was asked for and not cleared since.
pub fn requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// `Err(Stopped)` when a stop was asked for: the solvers' check after each
/// level.
pub(crate) fn check() -> Result<(), crate::SolveError> {
    if requested() {
        Err(crate::SolveError::Stopped)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_holds_until_cleared() {
        clear();
        assert!(check().is_ok());
        request();
        assert!(requested());
        assert!(matches!(check(), Err(crate::SolveError::Stopped)));
        clear();
        assert!(!requested());
    }
}
