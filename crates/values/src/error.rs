use chopsticks_cgt::{ParseError, WorkLimit};
use chopsticks_rules::RulesError;
use thiserror::Error;

/// Everything that can go wrong when computing a value. Every variant says what is
/// wrong in words a user of the command line can act on.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ValueError {
    /// The ruleset, or a position written for it, is invalid.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// Combinatorial game values are for two players.
    #[error("game values need exactly 2 players, the ruleset has {0}")]
    Players(usize),
    /// Misère play is not normal play: canonical values do not describe it.
    #[error("misère play has no canonical value in normal-play game theory; drop --misere")]
    Misere,
    /// Play can return to a position: the game is loopy, not a short game.
    #[error(
        "the game is loopy: play can return to {position}, so it has no canonical value \
         (rules with transfers, divisions or rollover can cycle; use attack-only rules \
         such as --preset simple)"
    )]
    Loop {
        /// The position met again, as `(Left's hands | Right's hands)_n`.
        position: String,
    },
    /// The computation would visit more positions than allowed.
    #[error(
        "more than {limit} positions to evaluate; this value is too large to compute \
         (fewer fingers or hands, or raise the limit)"
    )]
    TooLarge {
        /// The position limit that was reached.
        limit: u64,
    },
    /// The one-hand evaluator would visit more positions than allowed (estimated
    /// before it starts).
    #[error(
        "about {positions} positions to evaluate (an estimate), more than the limit of \
         {limit}; this value is too large to compute (fewer fingers, or raise the limit)"
    )]
    Estimated {
        /// The estimated number of positions.
        positions: u64,
        /// The position limit.
        limit: u64,
    },
    /// A table would need more memory than allowed (estimated before it starts).
    #[error(
        "about {:.1} GiB of memory needed (an estimate), more than the limit of {:.1} GiB; \
         fewer fingers, or raise the limit",
        *bytes as f64 / GIB,
        *limit as f64 / GIB
    )]
    Memory {
        /// The estimated number of bytes.
        bytes: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The game arithmetic (or the memo of positions) needed more work than allowed.
    #[error(
        "{0}; this value is too large to compute (fewer fingers or hands, or raise the limit)"
    )]
    Work(WorkLimit),
    /// A position of the expression has the wrong number of hands, or another mistake.
    #[error("{0}")]
    Position(String),
    /// The expression (or a game in CGSuite notation) could not be read.
    #[error("cannot read {text}: {error}")]
    Parse {
        /// The text handed to the CGSuite parser, in backquotes (and with the
        /// positions replaced by `#0`, `#1`, …, said after it).
        text: String,
        /// What went wrong.
        error: ParseError,
    },
    /// An expression of loopy games that cannot be read.
    #[error("{0}")]
    Expression(String),
    /// A loopy game operation failed (a bound, or a malformed graph).
    #[error("{0}")]
    Loopy(#[from] chopsticks_loopy::LoopyError),
}

/// Bytes in a GiB, for messages.
const GIB: f64 = (1u64 << 30) as f64;

impl From<WorkLimit> for ValueError {
    fn from(e: WorkLimit) -> ValueError {
        ValueError::Work(e)
    }
}
