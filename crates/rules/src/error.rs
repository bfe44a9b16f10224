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
    /// A player number that names no player of the rules.
    #[error("`{text}` names no player: players are numbered 1 to {players}")]
    Player { text: String, players: usize },
    /// A move written as text is not understood, or names a player that is not
    /// there.
    #[error("{0}")]
    Move(String),
    /// A move read from text that is not one of the position's legal moves
    /// (`text` quoted for a message), with the legal moves by name.
    #[error("`{text}` is not a legal move here; legal moves: {}", .legal.join(", "))]
    IllegalMove { text: String, legal: Vec<String> },
}

pub type Result<T, E = RulesError> = std::result::Result<T, E>;

/// The most characters of an input that a message repeats.
pub const MAX_QUOTED: usize = 60;

/// `text` as a message quotes it: whole when short, else its first [`MAX_QUOTED`]
/// characters, an ellipsis and the full length, so a 100 KB input does not come back
/// whole in an error; control characters escaped (`\u{1b}`), so that quoting an
/// input never drives the terminal that shows the message.
pub fn quoted(text: &str) -> String {
    let length = text.chars().count();
    if length <= MAX_QUOTED {
        escape_controls(text)
    } else {
        let head: String = text.chars().take(MAX_QUOTED).collect();
        format!("{}… ({length} characters)", escape_controls(&head))
    }
}

/// Whether `c` is written as an escape when text read from input is shown: a
/// control character, or a bidirectional embedding, override or isolate
/// (U+202A to U+202E, U+2066 to U+2069), which would reorder what follows it
/// on a terminal or a page.
fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with its control characters and bidirectional overrides written as
/// escapes (`\u{1b}`, `\n`, `\u{202e}`).
pub fn escape_controls(text: &str) -> String {
    if !text.chars().any(needs_escape) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if needs_escape(c) {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
