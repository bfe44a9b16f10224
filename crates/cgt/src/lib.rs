//! # chopsticks-cgt: combinatorial game theory for short partizan games
//!
//! A small engine for *short partizan games* in normal play (the player who
//! cannot move loses), written from the standard theory: Conway, *On Numbers
//! and Games*; Berlekamp, Conway and Guy, *Winning Ways*; Siegel,
//! *Combinatorial Game Theory*. It exists to compute the values of Simple
//! Chopsticks positions, so it is built for games that are mostly small
//! infinitesimals met again and again.
//!
//! ## The model
//!
//! A game `G = {G^L | G^R}` is given by its sets of Left and Right options.
//! Every short game is equal to exactly one game in **canonical form**: a
//! game whose options are all canonical, with no *dominated* option (a Left
//! option `≤` another Left option, a Right option `≥` another Right option)
//! and no *reversible* option (a Left option `G^L` with some
//! `G^{LR} ≤ G`, or a Right option `G^R` with some `G^{RL} ≥ G`). Two games
//! are equal exactly when their canonical forms are identical.
//!
//! ## Ids and the arena
//!
//! A [`GameStore`] is a hash-consed arena: each canonical game is stored
//! once, as a node holding its Left and Right option lists, and named by a
//! [`GameId`] (an index into the arena). Invariants:
//!
//! * every id in the arena denotes a canonical game;
//! * option lists are canonical ids, sorted by id, without repetition;
//! * id 0 ([`GameId::ZERO`]) is the game `0 = { | }`;
//! * an option's id is always smaller than the id of a game that has it as an
//!   option (nodes are created bottom-up), and ids are never reused;
//! * consequently **equality of games is equality of ids** (within one store).
//!
//! A hash map from option lists to ids makes re-building a game from option
//! lists already seen a single lookup ([`GameStore::game`]); a second map
//! keyed by the id pair serves the common case `{G | H}` with one option on
//! each side ([`GameStore::simple_game`]), backed by a direct-mapped table
//! for pairs of small ids (the values met in practice). Both maps also remember
//! non-canonical option lists that were reduced before.
//!
//! Every node carries a [`Kind`] tag: `x + n·↑ + *m` (with `x` a dyadic
//! number, which covers numbers and nimbers) or other. The tag is recognised
//! from the options when the node is created, using the canonical forms
//! `n = {n-1 | }`, `m/2^k = {(m-1)/2^k | (m+1)/2^k}`, `*m = {0,…,*(m-1) | 0,…,*(m-1)}`,
//! `↑* = {0,* | 0}`, `n·↑ + *m = {0 | (n-1)·↑ + *(m⊕1)}` for `n ≥ 1`
//! otherwise, their negatives, and the translates `x + G = {x + G^L | x + G^R}`.
//! Tagged games are compared and added by arithmetic on `(x, n, m)`.
//!
//! ## Operations
//!
//! * [`GameStore::le`]: `G ≤ H` iff no `H ≤ G^L` and no `H^R ≤ G`, memoized
//!   on id pairs; the moves inside a number are skipped when the other game
//!   is not a number (number avoidance).
//! * [`GameStore::add`]: `G + H = {G^L + H, G + H^L | G^R + H, G + H^R}`,
//!   memoized on the unordered pair, then reduced to canonical form; for a
//!   number `x` plus a non-number `G` only `{x + G^L | x + G^R}` is formed
//!   (number translation).
//! * [`GameStore::neg`]: `-G = {-G^R | -G^L}`, memoized (already canonical).
//! * [`GameStore::game`]: canonical form from any option lists: remove
//!   dominated options, bypass reversible ones (replace `G^L` by the Left
//!   options of the `G^{LR} ≤ G`, and dually), and repeat until stable.
//! * [`GameStore::outcome`], [`GameStore::birthday`], [`GameStore::stops`],
//!   [`GameStore::thermograph`], [`GameStore::temperature`], [`GameStore::mean`].
//!
//! ## Temperature
//!
//! Numbers follow Siegel's convention: integers have temperature `-1`, and
//! `m/2^k` (`m` odd) has temperature `-1/2^k`. Other games are measured by
//! their **thermograph**: walls are continuous piecewise-linear functions of
//! `t ≥ -1`; an integer's walls are the constant mast; otherwise the Left
//! scaffold is `max over G^L of (right wall of G^L)(t) - t`, the Right
//! scaffold `min over G^R of (left wall of G^R)(t) + t`; the temperature is
//! the least `t` where the Left scaffold is no longer to the left of
//! (greater than) the Right scaffold, and above it both walls are the mast
//! at the value where they met (the mean). This is the thermograph
//! construction of *Winning Ways* ch. 6 / Siegel II.5, and the temperature
//! is the least `t` at which `G` cooled by `t` is infinitely close to a number.
//! (For non-integer numbers the thermograph gives the same `-1/2^k`.)
//!
//! ## Notation (CGSuite plain-text conventions)
//!
//! [`GameStore::format`] prints, and [`GameStore::parse`] reads:
//!
//! * numbers `0`, `3`, `-2`, `1/2`, `-3/8`;
//! * nimbers `*`, `*2`, …;
//! * ups: `^`, `^^`, then `^3`, `^4`, … for `3·↑`, … (a choice of this
//!   crate for multiples from 3 on, short and unambiguous next to `^<n>`
//!   and `^[n]`); downs `v`, `vv`, `v3`; combined with a number and a star in this
//!   order, e.g. `^*`, `v*`, `^^*`, `^*2`, `1/2*`, `1^*`, `-1/2v3*2` (the
//!   sign belongs to the number: `(-1/2) + 3·↓ + *2`);
//!   when parsing, `^^^` is accepted as well as `^3`;
//! * `^<n>` is `↑^n` (up-nth power: `↑^1 = ↑`, `↑^n = {0 | ↓^[n-1] *}`, so
//!   `↑^2 = {0 | ↓*}`), `^[n]` is `↑^[n] = ↑ + ↑^2 + … + ↑^n`; `v<n>`, `v[n]`
//!   are their negatives; printing uses `^[n]`/`v[n]` for every `n ≥ 2`, and
//!   `^<n>`, `v<n>`, `^[n]*`, `v<n>*`, … when `2 ≤ n ≤ 4` (larger ones are
//!   spelled out with braces);
//! * `+-G` is `±G = {G | -G}` (printed when a game has that shape; `+-(…)`
//!   when `G` prints with a sign or a sum);
//! * braces `{a,b|c}`, with nesting and the slash convention: a longer run of
//!   bars binds more loosely, `{a|b||c} = {{a|b}|c}`, `{a||b|c} = {a|{b|c}}`;
//!   printing always uses nested braces;
//! * sums and differences `1/2+*`, `^+*2`, `{0|1}-1`, parentheses `( … )`,
//!   and unary `-`; `a+-b` means `a + ±b`;
//! * McKay's uptimals as CGSuite writes them, `x*m.d1d2…dk` =
//!   `x + d1·↑ + d2·↑^2 + … + dk·↑^k + *m`: `.1` (↑), `*.22` (the paper's `.22*`,
//!   which reads too), `5.0`, `6*.1`, `73/16*8.9-`; a digit is `0`–`9`, `(k)` for
//!   any integer (e.g. `.2(-1)`), or a digit followed by `-` (CGSuite) or U+0305
//!   (combining overline) for its negative. [`GameStore::to_uptimal`] gives
//!   this form (`.0` for 0, `*.0` for `*`) when the game is an uptimal;
//! * integer multiples `n * G` and `G * n` (a `*` written directly after a game
//!   and followed by digits is the star: `3*5` is `3 + *5`), the ordinal sum
//!   `G : H`, the multiple switch `+-{G,H}`, `Tiny(G)`, `Miny(G)`, and the methods
//!   `G.Cool(t)`, `G.Heat(t)`, `G.Overheat(s, t)`, `G.AtomicWeight`, `G.Mean`,
//!   `G.Temperature`, `G.LeftStop`, `G.RightStop`, `G.Birthday`
//!   ([`operations`]);
//! * comparisons `G <= H`, `>=`, `<`, `>`, `==`, `<>` (confused), `<|` (less than
//!   or confused), `|>`, whose answer is true or false
//!   ([`GameStore::evaluate_answer`], [`Answer`]);
//! * numbers of any size (`-1823437481924`, `0/7`): the arena keeps its own
//!   numbers small, and larger ones are carried beside a game of the arena as a
//!   [`Value`] (see the `value` module).
//!
//! The grammar is in the [`parse`] module; the shared reading position of this
//! crate's and `chopsticks-loopy`'s parsers is [`cursor::Cursor`].
//!
//! Printing then parsing gives back the same id.
//!
//! ```
//! use chopsticks_cgt::GameStore;
//! let mut s = GameStore::new();
//! let j = s.parse("{0|^[2]}").unwrap();
//! assert_eq!(s.to_uptimal(j).as_deref(), Some("*.22"));
//! let up = s.parse("^").unwrap();
//! let down = s.parse("v").unwrap();
//! assert_eq!(s.add(up, down), s.zero());
//! ```

pub mod analysis;
pub mod big;
pub mod cursor;
pub mod dyadic;
mod evaluate;
pub mod notation;
pub mod operations;
pub mod parse;
pub mod rational;
pub mod store;
pub mod thermograph;
mod value;

pub use analysis::Outcome;
pub use big::BigDyadic;
pub use dyadic::Dyadic;
pub use evaluate::MAX_MULTIPLIER;
pub use notation::{ParseError, Uptimal};
pub use operations::OperationError;
pub use parse::{Expression, Relation};
pub use rational::Rational;
pub use store::{GameId, GameStore, Kind, WorkLimit};
pub use thermograph::{Thermograph, Trajectory};
pub use value::{Answer, Value};
