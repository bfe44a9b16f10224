use thiserror::Error;

/// Everything that can go wrong when building a ruleset, reading a position or
/// choosing a move. Every variant carries a message that says what is wrong and,
/// for text input, where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The ruleset itself is impossible (0 hands, fewer than 2 fingers, …).
    #[error("impossible ruleset: {0}")]
    Ruleset(String),
    /// The variant has more positions than a dense index can address.
    #[error("variant too large: {0}")]
    TooLarge(String),
    /// A position written in some notation could not be read.
    #[error("invalid position `{text}`: {message}")]
    Position { text: String, message: String },
    /// A position cannot be written in the requested notation.
    #[error("cannot write this position in {notation} notation: {message}")]
    Notation {
        notation: &'static str,
        message: String,
    },
    /// A move written as text is not legal (or not understood) in the position.
    #[error("{0}")]
    Move(String),
}

pub type Result<T, E = RulesError> = std::result::Result<T, E>;
