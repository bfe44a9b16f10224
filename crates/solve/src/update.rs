//! The parent update, the one rule of every two-player solver, written once.
//!
//! When a child is resolved at level `k`, each of its parents still unresolved
//! is updated: a **lost** child makes the parent a **win** at `k + 1` (the
//! first losing child met is the nearest, since levels ascend); a **won**
//! child counts the parent's children down (counted the first time, lazily),
//! and the parent is a **loss** at `k + 1` when none is left (the last child
//! resolved is the farthest). A resolved parent never changes.
//!
//! The solvers differ only in how a cell is stored: the 16-bit cells of the
//! in-memory, out-of-core and distributed solvers (a tag and a counter or
//! remoteness, [`crate::retrograde`]), and the one-byte cells of the
//! values-only solver (a counter, or a value with the level's parity,
//! [`crate::compact`]). [`CellCode`] says what the rule needs of an encoding;
//! [`parent_update`] is the rule on a cell's value (for a worker that owns its
//! cells), and [`update_atomic`] the same on a cell shared between threads.

use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};

use chopsticks_space::Graph;

/// What the parent update needs of a cell encoding.
pub trait CellCode {
    /// A cell's value.
    type Cell: Copy + Eq;
    /// Whether a cell is unresolved (a counter, counted or not).
    fn is_unresolved(c: Self::Cell) -> bool;
    /// The children left of an unresolved cell, or `None` when they are not
    /// counted yet.
    fn remaining(c: Self::Cell) -> Option<u32>;
    /// A win resolved at `level`.
    fn win(level: u32) -> Self::Cell;
    /// A loss resolved at `level`.
    fn lose(level: u32) -> Self::Cell;
    /// An unresolved cell with `remaining` children left (at least 1).
    fn counting(remaining: u32) -> Self::Cell;
}

/// What became of a parent's cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Updated {
    /// It was already resolved: nothing changed.
    Unchanged,
    /// Its counter went down.
    Counted,
    /// It is resolved now (a win or a loss at the level given).
    Resolved,
}

/// The new value of parent cell `cur` when one of its children is found lost
/// (`child_lost`) or won, the parent resolving at `next`; `children` counts
/// the parent's children (asked only the first time a won child is found).
/// `None` when the parent is already resolved.
#[inline(always)]
pub fn parent_update<E: CellCode>(
    cur: E::Cell,
    child_lost: bool,
    next: u32,
    children: impl FnOnce() -> u32,
) -> Option<(E::Cell, Updated)> {
    if !E::is_unresolved(cur) {
        return None;
    }
    if child_lost {
        return Some((E::win(next), Updated::Resolved));
    }
    let remaining = E::remaining(cur).unwrap_or_else(children);
    Some(if remaining <= 1 {
        (E::lose(next), Updated::Resolved)
    } else {
        (E::counting(remaining - 1), Updated::Counted)
    })
}

/// A parent gathered for a batch of updates: its index and its ranks (its
/// mover's first; its seat class is the child's next), so that its children
/// can be counted without dividing the index.
#[derive(Clone, Copy, Debug)]
pub struct Parent {
    /// The parent's index.
    pub index: u64,
    /// The parent's mover's multiset rank.
    pub r0: u32,
    /// The parent's opponent's multiset rank.
    pub r1: u32,
    /// Whether the child was lost (the parent wins) or won (one child fewer).
    pub child_lost: bool,
}

/// Calls `gather(parent)` for each parent of the two-player position of seat
/// class `seat` and ranks `(ra, rb)`, and asks the processor to fetch each
/// parent's cell of `cells` at once ([`prefetch`]), so that by the time the
/// batch is updated its cache lines have come, while the next parents were
/// being generated. Each parent carries the kind of child (`child_lost`), read
/// when the batch is updated.
#[inline(always)]
pub fn gather_parents_of_pair<C>(
    graph: &Graph,
    cells: &[C],
    (seat, ra, rb): (usize, u64, u64),
    child_lost: bool,
    mut gather: impl FnMut(Parent),
) {
    graph.for_each_parent_of_pair(seat, ra, rb, |index, r0, r1| {
        prefetch(&cells[index as usize]);
        gather(Parent {
            index,
            r0: r0 as u32,
            r1: r1 as u32,
            child_lost,
        });
    });
}

/// Asks the processor to bring the cache line of `value` in (a hint: nothing
/// is read into the program, nothing waits for it).
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults and reads nothing into
    // the program (Intel's and AMD's manuals: PREFETCHh "does not affect
    // program behavior"); the pointer comes from a reference, valid anyway.
    // The solvers' tests, which pin the tables byte for byte, run through it.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// A cell shared between threads, updated by compare and exchange.
pub trait AtomicCell {
    type Value: Copy + Eq;
    fn load(&self) -> Self::Value;
    /// Stores `new` if the cell holds `cur`, else returns what it holds.
    fn exchange_weak(&self, cur: Self::Value, new: Self::Value) -> Result<(), Self::Value>;
}

impl AtomicCell for AtomicU16 {
    type Value = u16;
    #[inline(always)]
    fn load(&self) -> u16 {
        AtomicU16::load(self, Relaxed)
    }
    #[inline(always)]
    fn exchange_weak(&self, cur: u16, new: u16) -> Result<(), u16> {
        self.compare_exchange_weak(cur, new, Relaxed, Relaxed)
            .map(|_| ())
    }
}

impl AtomicCell for AtomicU8 {
    type Value = u8;
    #[inline(always)]
    fn load(&self) -> u8 {
        AtomicU8::load(self, Relaxed)
    }
    #[inline(always)]
    fn exchange_weak(&self, cur: u8, new: u8) -> Result<(), u8> {
        self.compare_exchange_weak(cur, new, Relaxed, Relaxed)
            .map(|_| ())
    }
}

/// [`parent_update`] on a shared cell: retried until the exchange holds (other
/// threads update the same parent for its other children), so every child
/// counts once. Returns what became of the cell.
#[inline(always)]
pub fn update_atomic<E: CellCode, A: AtomicCell<Value = E::Cell>>(
    c: &A,
    child_lost: bool,
    next: u32,
    children: impl Fn() -> u32,
) -> Updated {
    let mut cur = c.load();
    while let Some((new, what)) = parent_update::<E>(cur, child_lost, next, &children) {
        match c.exchange_weak(cur, new) {
            Ok(()) => return what,
            Err(now) => cur = now,
        }
    }
    Updated::Unchanged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compact::OneByte;
    use crate::retrograde::{cell, TwoBytes, LOSE, NOT_COUNTED, UNRESOLVED, WIN};

    #[test]
    fn a_lost_child_wins_the_parent_and_won_children_count_it_down() {
        // Two bytes: not counted, three children.
        let three = || 3;
        let (c, what) = parent_update::<TwoBytes>(NOT_COUNTED, false, 5, three).unwrap();
        assert_eq!((c, what), (cell(UNRESOLVED, 2), Updated::Counted));
        let (c, _) = parent_update::<TwoBytes>(c, false, 6, three).unwrap();
        assert_eq!(c, cell(UNRESOLVED, 1));
        let (c, what) = parent_update::<TwoBytes>(c, false, 7, three).unwrap();
        assert_eq!((c, what), (cell(LOSE, 7), Updated::Resolved));
        assert!(parent_update::<TwoBytes>(c, true, 8, three).is_none());
        let (w, _) = parent_update::<TwoBytes>(cell(UNRESOLVED, 2), true, 4, three).unwrap();
        assert_eq!(w, cell(WIN, 4));
        // One byte: the same rule, the level kept by its parity.
        let (c, _) = parent_update::<OneByte>(0, false, 5, || 2).unwrap();
        assert_eq!(c, 1);
        let (c, what) = parent_update::<OneByte>(c, false, 6, || 2).unwrap();
        assert_eq!((c, what), (OneByte::lose(6), Updated::Resolved));
        assert!(parent_update::<OneByte>(c, true, 7, || 2).is_none());
        // On a shared cell.
        let shared = AtomicU16::new(NOT_COUNTED);
        assert_eq!(
            update_atomic::<TwoBytes, _>(&shared, false, 3, || 2),
            Updated::Counted
        );
        assert_eq!(
            update_atomic::<TwoBytes, _>(&shared, true, 3, || 2),
            Updated::Resolved
        );
        assert_eq!(
            update_atomic::<TwoBytes, _>(&shared, false, 4, || 2),
            Updated::Unchanged
        );
        assert_eq!(shared.into_inner(), cell(WIN, 3));
    }
}
