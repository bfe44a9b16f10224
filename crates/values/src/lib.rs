//! # chopsticks-values: canonical game values of loop-free Chopsticks variants
//!
//! Dailly, Gledel, Nowakowski and Santos, *Simple Chopsticks: playing with any
//! number of hands and fingers*, study Chopsticks with attacks only (a hand that
//! would hold more than `n` fingers is removed) as a combinatorial game: a position
//! `(x1,…,xl | y1,…,yr)_n` lists Left's and Right's live hands and names no player
//! to move; Left's options are her attacks, Right's his. This crate computes the
//! canonical value of such positions, in a [`chopsticks_cgt::GameStore`], for the
//! rules crate's `simple` ruleset and for any other two-player normal-play ruleset
//! whose positions cannot repeat.
//!
//! * [`value`] / [`value_with`]: the value of a [`CgtPosition`] under a
//!   [`chopsticks_rules::Ruleset`]. A position where a player has no live hand is
//!   `0`. Loops are detected and refused ([`ValueError::Loop`]); the search is an
//!   explicit-stack post-order walk with a memo, so deep games (thousands of plies)
//!   do not overflow the call stack. Attack-only cutoff rules have fast paths:
//!   one hand each ([`one_hand()`], the `(a|b)` tree) and sorted live hands.
//! * [`evaluate`]: an expression of positions and CGSuite games,
//!   `(1|1)_12 + (2|5)_40`, each position a component of the sum.
//! * [`one_hand`](mod@one_hand) module: the paper's Table 2 ([`table2`],
//!   [`table2_from_scratch`]) and Table 1 ([`grid`]), the incremental
//!   full-table [`OneHandSweep`], [`fibonacci`], [`theorem3_is_next`] and
//!   [`a110035`]; [`coprime_sweep`]: the low-memory [`CoprimeSweep`] behind
//!   [`table2`], used to check the conjecture on `±J` to `n = 200,000`.
//!
//! * [`picture`]: a table of values drawn as a coloured grid with a legend (PNG
//!   through the built-in 5×7 [`font`], or SVG).
//!
//! Library code never prints; errors are [`ValueError`].
//!
//! ```
//! use chopsticks_cgt::{GameStore, Outcome};
//! use chopsticks_values::{evaluate, Limits};
//! use chopsticks_rules::Preset;
//!
//! let mut store = GameStore::new();
//! let simple = Preset::Simple.ruleset();
//! let e = evaluate(&mut store, &simple, None, "(1|1)_12", Limits::DEFAULT, None).unwrap();
//! assert_eq!(store.format(e.value), "+-{0|^[2]}");
//! assert_eq!(store.outcome(e.value), Outcome::N);
//! ```

pub mod coprime_sweep;
mod error;
mod expression;
pub mod families;
pub mod game_graph;
pub mod loopy;
pub mod one_hand;
pub mod picture;
mod solve;

pub use chopsticks_draw::font;
pub use coprime_sweep::{CoprimeSweep, SweepStats};
pub use error::ValueError;
pub use expression::{evaluate, parse_position, Component, Evaluation, Plan, Planned};
pub use game_graph::{winners, GameGraph, Winner};
pub use loopy::{
    loopy_value, loopy_values, rollover_grid, rollover_one_one, rollover_rules, two_hand_sides,
    two_hand_table, LoopyComponent, LoopyEvaluation, TwoHandRules, MAX_LOOPY_VERTICES,
    MAX_TWO_HAND_N,
};
pub use one_hand::{
    a110035, fibonacci, grid, runs, table2, table2_from_scratch, theorem3_is_next, OneHandSweep,
    Run,
};
pub use solve::{
    check_rules, estimate, is_attack_only, method, one_hand, options, value, value_by, value_with,
    CgtPosition, Estimate, Limits, Method, DEFAULT_MAX_WORK, MEMO_STEPS,
};
