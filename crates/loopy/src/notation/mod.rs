//! CGSuite notation for loopy games: printing and parsing.
//!
//! Printing ([`format_value`], [`format_stopper`], and `Display` of [`Value`] and
//! [`Stopper`]): a loop-free stopper prints exactly as `chopsticks-cgt` prints it.
//! Otherwise names are used when the game (or a subposition) is one of `on`,
//! `off`, `over`, `under`, `^[on]`, `^[on]*`, `v[on]`, `v[on]*`, `^<on>`,
//! `^<on>*`, `v<on>`, `v<on>*`, a number plus one of the last ten (`5over`,
//! `-5over`, `3/2under`, `5^[on]*`), `+-G`, `Tiny(G)` = `{0||0|-G}` or
//! `Miny(G)` = `{G|0||0}` for a loopy `G > 0`. Other vertices print in braces; an
//! option that is the single option on its side and prints in braces itself is
//! written without its braces, with one more bar in its parent (`{0||0|off}`),
//! as long as that takes at most four bars. A vertex's own option is `pass`; a
//! vertex referred to from below gets a label (`a`, `b`, …, no `v`), written
//! before its braces (`a{0||||0|||a|*||*}`). `dud` is `on & off`; other sided
//! values print as `s & t`.
//!
//! Printing as a tree repeats a vertex reached along several paths, which can
//! take exponential room. Past [`MAX_PRINTED_NODES`] braces the graph is
//! printed instead as equations, one per loopy vertex, the start first:
//! `[a = {0,b|c}; b = {a|*}; c = {pass|b}]` (not CGSuite syntax, and not read
//! back by [`parse`]; it only happens to graphs that are not simplified,
//! or to very large stoppers).
//!
//! Parsing ([`parse`]): a text without letters (other than `v`) and without `&`
//! is read by `chopsticks-cgt` (so short games read exactly as there). Otherwise
//! the grammar is
//!
//! ```text
//! sided   := expr ['&' expr]
//! expr    := signed (('+' | '-' | '+-') term)*
//! primary := literal | word | '(' sided ')' | [label] '{' options '}'
//!          | 'Tiny(' sided ')' | 'Miny(' sided ')'
//! word    := on | off | over | under | dud | pass | label
//! literal := [number] [ups | '^[on]' | '^<on>' | 'v[on]' | 'v<on>' | over | under] [star]
//! ```
//!
//! with the short-game literals of `chopsticks-cgt` (`1/2`, `^^*`, `v3*2`,
//! `^<2>`, `^[3]`, `.22*`). Inside braces, bars and commas separate options, a
//! longer run of bars binding more loosely (`{a|b||c}` = `{{a|b}|c}`); `pass`
//! is the innermost game in braces (slash-separated games included), a label
//! names the game in braces it is written before. An option is `pass`, a label,
//! a game in braces, or an expression without `pass` or labels. Bounds: at most
//! [`MAX_INPUT`] bytes, [`MAX_NESTING`] levels, graphs of at most
//! [`MAX_PARSE_VERTICES`] vertices, short games of at most
//! [`MAX_PARSE_SHORT_MOVES`] moves and [`MAX_PARSE_SHORT_VERTICES`] vertices, sides taken of graphs of at most
//! [`MAX_PARSE_SIDE_VERTICES`] vertices; past them, an error (never a panic).

use std::collections::HashMap;

use chopsticks_cgt::cursor::{unexpected, Cursor};
use chopsticks_cgt::{GameId, GameStore, Kind, Relation};

use crate::game::Game;
use crate::sides::{self, Side};
use crate::stopper::Stopper;
use crate::value::Value;
use crate::LoopyError;

/// The largest `n` in `n * G` for a loopy `G` (the sum of `n` copies).
pub const MAX_MULTIPLIER: u64 = 256;

/// Longest input accepted by [`parse`], in bytes.
pub const MAX_INPUT: usize = 1 << 18;
/// Deepest nesting (braces, parentheses, signs) accepted by [`parse`].
pub const MAX_NESTING: usize = 64;
/// Largest graph built while parsing (games in braces, sums).
pub const MAX_PARSE_VERTICES: usize = 1024;

/// Most moves (edges) of a short game read inside a loopy text: its graph is
/// put back into canonical short form when printed, which costs about the
/// fourth power of the options per position (`*63` has 4,032 moves).
pub const MAX_PARSE_SHORT_MOVES: usize = 4096;

/// Work allowed for a short game read inside a loopy text (steps of
/// `chopsticks-cgt`; a fraction of a second), 32 times less than a short game
/// alone may take: every such game also becomes a graph.
pub const MAX_PARSE_SHORT_WORK: u64 = 1 << 20;

/// Most vertices of a short game read inside a loopy text (its graph, canonical
/// already, is put into the stopper's canonical order and hash, which grows
/// faster than linearly: the integer 255 is the largest that passes).
pub const MAX_PARSE_SHORT_VERTICES: usize = 256;

mod read;
mod write;

pub use read::{check_syntax, looks_loopy, parse, split_relation};
pub use write::{format_graph, format_stopper, format_value, MAX_PRINTED_NODES};

/// Largest graph whose sides are taken while parsing.
pub const MAX_PARSE_SIDE_VERTICES: usize = 256;

/// Most bars a vertex prints with before its options are braced.
const MAX_SLASHES: usize = 4;

/// Error of [`parse`]: where and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at character {character}: {message}")]
pub struct ParseError {
    /// Byte offset of the problem.
    pub position: usize,
    /// The same place counted in characters from 1, as the message gives it
    /// (set from the text by [`parse`] and [`check_syntax`]).
    pub character: usize,
    /// What went wrong.
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        let message = parse(text).map(|_| ()).expect_err("an error").to_string();
        // The check without computing says the same.
        assert_eq!(
            check_syntax(text).expect_err("an error").to_string(),
            message,
            "{text}"
        );
        message
    }

    #[test]
    fn errors_count_characters_and_name_the_fix() {
        assert_eq!(
            error("on.Cool(1)"),
            "at character 3: cooling (`.Cool`) is defined for short games; `on` is loopy"
        );
        assert_eq!(
            error("{pass|*}.Temperature"),
            "at character 9: the temperature (`.Temperature`) is defined for short games; \
             `{pass|*}` is loopy"
        );
        assert_eq!(
            error("over + {1|0}.AtomicWeight"),
            "at character 13: the atomic weight (`.AtomicWeight`) is read in expressions of \
             short games only, and this one has loopy games: evaluate `{1|0}.AtomicWeight` on \
             its own"
        );
        assert_eq!(
            error("Cool(on, 1)"),
            "at character 1: cooling (`Cool`) is defined for short games, and this expression \
             has loopy games"
        );
        assert_eq!(
            error("on = over"),
            "at character 4: `=` is not a comparison: write `==` (`G == H`)"
        );
        assert_eq!(
            error("↑ + on"),
            "at character 1: unexpected character `↑` (write `^` for ↑: `^^` for ↑↑, `^3` for 3·↑)"
        );
        assert_eq!(
            error("on + ±1"),
            "at character 6: unexpected character `±` (write `+-` for ±: `+-1`, `+-{1,2}`)"
        );
        assert!(error("on.Foo").contains("unknown method `.Foo`"));
    }
}
