#![warn(missing_docs)]
//! # chopsticks-loopy: loopy partizan combinatorial games
//!
//! Values of games whose positions can repeat, written from the mathematics of
//! Winning Ways (ch. 11), Conway's *Loopy games* (1978) and Siegel's
//! *Combinatorial Game Theory* (ch. VI). Short (loop-free) games are handled by
//! `chopsticks-cgt`, and this crate gives exactly its canonical forms and printed
//! text for them.
//!
//! ## What a loopy game is
//!
//! A [`Game`] is a finite graph: every vertex is a position with a list of Left
//! options and a list of Right options, and one vertex is the start. A vertex may
//! be its own option: that move is a `pass`. Players alternate; a player with no
//! move loses; an infinite play is a draw for outcomes. [`Game::neg`] swaps the
//! options, and [`Game::sum`] builds the disjunctive sum as the product graph
//! restricted to the pairs reachable from the start (refused past a size bound).
//!
//! ## Stoppers
//!
//! A game is a **stopper** when no infinite *alternating* play starts anywhere in
//! it: there is no cycle in the graph of states `(vertex, player to move)`
//! ([`Game::is_stopper`]). Stoppers are ordered: `G ≤ H` when Left, moving second
//! in `H - G`, *survives* (is never left without a move; infinite play is
//! survival). Every stopper equals a unique **simplest form** (up to graph
//! isomorphism), and [`Stopper`] always holds that form:
//!
//! 1. one retrograde analysis of `G - G` over all pairs of vertices gives every
//!    comparison between vertices ([`compare`]);
//! 2. equal vertices are fused;
//! 3. dominated options are deleted and reversible options bypassed (a Left
//!    option `G^L` with some `G^{LR} ≤ G` is replaced by the Left options of
//!    `G^{LR}`), vertex by vertex until nothing changes; a bypass that would
//!    create an alternating cycle is not made;
//! 4. the vertices reachable from the start are kept and put in a canonical order
//!    (colour refinement from the start, individualisation of ambiguous classes,
//!    least encoding), so equal stoppers have identical graphs,
//!    [`Stopper::encoding`], and the hash [`Stopper::hash64`] of it.
//!
//! Loop-free stoppers are simplified by `chopsticks-cgt` instead (the same forms).
//!
//! ## Sides
//!
//! A game with alternating cycles has two **sides**: the onside `G⁺`, where
//! infinite play is won by Left, and the offside `G⁻`, where it is won by Right.
//! When each side equals a stopper, `G = s & t` ([`Value::Sided`], `t ≤ s`; `s & s`
//! is the stopper `s`). Sides are compared like stoppers, but an infinite play of
//! `A - B` is won by Left only if it has infinitely many moves in `A` (onsides) or
//! in `B` (offsides) ([`compare::Mode`]): a Büchi game, solved by iterated
//! attractors. A side is found by deleting moves on alternating cycles, then by
//! unravelling such moves a bounded number of times, each edit kept only when the
//! side comparison proves the side unchanged ([`sides`]); the search always ends.
//! When no stopper is found, [`Value::NotStopperSided`] carries the simplified
//! graphs of both sides (Bach's carousel is the classical game that is not
//! stopper-sided). Sums follow `(s & t) + (u & v) = (s ⊕ u) & (t ⊖ v)`: the
//! upsum `⊕` is the onside of the plain sum, the downsum `⊖` its offside.
//!
//! Outcomes with draws ([`Outcome`]) pair the class of the onside with the class
//! of the offside: `L`, `R`, `N`, `P`, `D`, and `N^`, `P^`, `Nv`, `Pv` for
//! N̂ = (L, N), P̂ = (L, P), Ň = (N, R), P̌ = (P, R); [`Outcome::left_starts`] and
//! [`Outcome::right_starts`] say `left`, `right` or `draw`.
//!
//! ## Notation
//!
//! [`parse`] reads and [`Value`]'s `Display` prints CGSuite's notation: short
//! games as in `chopsticks-cgt` (numbers, `^`, `*2`, `^[3]`, `+-1`, braces with
//! slashes), `pass`, labelled vertices `a{0|a}`, `on`, `off`, `over`, `under`,
//! `dud`, `upon`, `^[on]`, `v[on]*`, `^<on>`, pseudonumbers `5over`, `-5over`,
//! `3/2under`, `Tiny(on)`, `Miny(over)`, `+-over`, sided values `s & t`, with
//! `+`, `-` and parentheses. Printing uses braces with slashes (at most four)
//! and labels `a`, `b`, … for vertices referred to from below.
//!
//! ## Bounds
//!
//! Every operation is bounded and returns [`LoopyError::TooLarge`] past its
//! bound: graphs ([`game::MAX_VERTICES`]), sums ([`value::MAX_SUM_VERTICES`]),
//! comparisons ([`compare::MAX_PAIR_STATES`] pair states), simplification
//! ([`stopper::MAX_SIMPLIFY_VERTICES`]), side search
//! ([`sides::MAX_SIDE_VERTICES`], [`sides::MAX_UNRAVEL_COPIES`]), and the parser
//! (input length, nesting, graph sizes: [`notation`]). The total work of a call
//! is bounded by [`with_work_limit`] (module [`work`]). Memory for a comparison is
//! a few bytes per pair state, allocated per call; nothing is global.
//!
//! ```
//! use chopsticks_loopy::parse;
//! assert_eq!(parse("{pass|}").unwrap().to_string(), "on");
//! assert_eq!(parse("on + off").unwrap().to_string(), "dud");
//! assert_eq!(parse("over - over").unwrap().to_string(), "over & under");
//! assert_eq!(parse("{0|^*5}").unwrap().to_string(), "^^*4");
//! ```

pub mod compare;
pub mod game;
pub mod notation;
pub mod sides;
pub mod stopper;
pub mod stops;
pub mod value;
pub mod work;

pub use compare::Mode;
pub use game::{Game, Player, Winner};
pub use notation::{check_syntax, parse, ParseError};
pub use sides::{side, Side, SideValue};
pub use stopper::Stopper;
pub use stops::{Pseudonumber, Tilt};
pub use value::{Class, Outcome, Value};
pub use work::with_work_limit;

/// Errors of the loopy game operations.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoopyError {
    /// A graph given by the caller is malformed.
    #[error("invalid game graph: {0}")]
    InvalidGraph(String),
    /// An operation would exceed one of the crate's bounds.
    #[error("{what} too large (limit {limit})")]
    TooLarge {
        /// What was too large.
        what: &'static str,
        /// The bound.
        limit: usize,
    },
    /// The work budget of [`with_work_limit`] was spent.
    #[error("more than {limit} steps of work")]
    Work {
        /// The budget.
        limit: u64,
    },
    /// A stopper was required.
    #[error("the game is not a stopper")]
    NotStopper,
    /// `s & t` with `t ≤ s` false.
    #[error("the offside is not at most the onside")]
    SidesOutOfOrder,
}
