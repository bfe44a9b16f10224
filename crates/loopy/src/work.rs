//! A work budget for the loopy operations of one caller.
//!
//! Bounds on sizes ([`crate::LoopyError::TooLarge`]) stop one huge step, but
//! not many small ones: a sum of hundreds of terms, each addition cheap, can
//! still run for minutes. [`with_work_limit`] gives the calling thread a budget
//! of *steps*; every comparison (the crate's unit of work: one Büchi solve on
//! pair states) charges the pair states and moves it visits, and the operation
//! that runs over the budget returns [`crate::LoopyError::Work`]. Threads the
//! crate starts for the caller (the onside and offside searches) share the
//! caller's budget. Without a budget nothing is counted.
//!
//! A step is [`PAIR_MOVES_PER_STEP`] pair states or pair moves of a comparison,
//! so that the default limit of `value --max-work` (2²⁵ steps, a few seconds
//! of short-game arithmetic) allows about five seconds of loopy work (about
//! 6·10⁶ steps a second on the two threads of a side search).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::LoopyError;

/// Pair states and pair moves visited per step of work.
pub const PAIR_MOVES_PER_STEP: u64 = 64;

/// The steps allowed and the pair moves spent, shared by the threads of one
/// call; another thread may watch [`Budget::steps`] to show progress.
#[derive(Debug)]
pub struct Budget {
    limit: u64,
    /// Past this many steps the side searches stop editing (see
    /// [`Budget::with_side_limit`]).
    side_limit: u64,
    used: AtomicU64,
}

impl Budget {
    /// A budget of `limit` steps (`u64::MAX`: only counting).
    pub fn new(limit: u64) -> Arc<Budget> {
        Budget::with_side_limit(limit, u64::MAX)
    }

    /// A budget of `limit` steps whose side searches stop editing after
    /// `side_limit` steps: past it a side not yet reduced to a stopper is
    /// left as its simplified graph (reported as not reduced) instead of
    /// searched further, so that a table of many positions completes, where
    /// `limit` would stop it with an error.
    pub fn with_side_limit(limit: u64, side_limit: u64) -> Arc<Budget> {
        Arc::new(Budget {
            limit,
            side_limit,
            used: AtomicU64::new(0),
        })
    }

    /// Whether the side searches' limit has been passed.
    pub fn side_limit_reached(&self) -> bool {
        self.steps() > self.side_limit
    }

    /// The steps spent so far.
    pub fn steps(&self) -> u64 {
        self.used.load(Ordering::Relaxed) / PAIR_MOVES_PER_STEP
    }

    /// Whether more than the limit has been spent.
    fn spent(&self) -> bool {
        self.steps() > self.limit
    }
}

thread_local! {
    static BUDGET: RefCell<Option<Arc<Budget>>> = const { RefCell::new(None) };
}

/// Runs `f` with at most `limit` steps of loopy work on this thread (and the
/// threads the crate starts for it); an operation past the limit returns
/// [`LoopyError::Work`]. Budgets do not nest: an inner call replaces the outer
/// budget while it runs.
pub fn with_work_limit<R>(limit: u64, f: impl FnOnce() -> R) -> R {
    with_budget(Budget::new(limit), f)
}

/// Runs `f` under `budget` (see [`with_work_limit`]); the caller keeps a
/// handle to watch the steps spent.
pub fn with_budget<R>(budget: Arc<Budget>, f: impl FnOnce() -> R) -> R {
    let previous = BUDGET.with(|b| b.replace(Some(budget)));
    struct Restore(Option<Option<Arc<Budget>>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take().flatten();
            BUDGET.with(|b| *b.borrow_mut() = previous);
        }
    }
    let _restore = Restore(Some(previous));
    f()
}

/// The steps spent so far under the current budget, if there is one.
pub fn work_done() -> Option<u64> {
    BUDGET.with(|b| b.borrow().as_ref().map(|b| b.steps()))
}

/// The limit of the current budget if it has been spent (an operation then
/// failed with [`LoopyError::Work`], perhaps reported inside another error,
/// such as a parse error).
pub fn spent_limit() -> Option<u64> {
    BUDGET.with(|b| b.borrow().as_ref().filter(|b| b.spent()).map(|b| b.limit))
}

/// Whether the current budget's limit for side searches has been passed
/// ([`Budget::with_side_limit`]); false without a budget.
pub(crate) fn side_limit_reached() -> bool {
    BUDGET.with(|b| b.borrow().as_ref().is_some_and(|b| b.side_limit_reached()))
}

/// This thread's budget, to hand to a thread started for the same call.
pub(crate) fn current() -> Option<Arc<Budget>> {
    BUDGET.with(|b| b.borrow().clone())
}

/// Runs `f` under `budget` (from [`current`] on the starting thread).
pub(crate) fn within<R>(budget: Option<Arc<Budget>>, f: impl FnOnce() -> R) -> R {
    match budget {
        None => f(),
        Some(b) => with_budget(b, f),
    }
}

/// Charges `moves` pair states and moves to the current budget; an error once
/// it is spent.
pub(crate) fn charge(moves: u64) -> Result<(), LoopyError> {
    BUDGET.with(|b| match b.borrow().as_ref() {
        None => Ok(()),
        Some(b) => {
            b.used.fetch_add(moves, Ordering::Relaxed);
            if b.spent() {
                Err(LoopyError::Work { limit: b.limit })
            } else {
                Ok(())
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_count_and_stop() {
        assert!(charge(u64::MAX).is_ok(), "no budget, nothing counted");
        let k = PAIR_MOVES_PER_STEP;
        with_work_limit(10, || {
            assert!(charge(4 * k).is_ok());
            assert_eq!(work_done(), Some(4));
            let shared = current();
            std::thread::scope(|s| {
                s.spawn(|| within(shared, || assert!(charge(6 * k + k - 1).is_ok())));
            });
            assert_eq!(work_done(), Some(10));
            assert_eq!(spent_limit(), None);
            assert_eq!(charge(k), Err(LoopyError::Work { limit: 10 }));
            assert_eq!(spent_limit(), Some(10));
        });
        assert_eq!(work_done(), None, "the budget ends with the call");
    }

    #[test]
    fn a_long_sum_stops_at_the_limit() {
        let term = crate::parse("{pass|*}").unwrap();
        let r = with_work_limit(100_000, || {
            let mut total = term.clone();
            for _ in 0..1000 {
                total = total.add(&term)?;
            }
            Ok::<_, LoopyError>(total)
        });
        assert_eq!(r.unwrap_err(), LoopyError::Work { limit: 100_000 });
    }
}
