//! The reading position shared by the CGSuite-notation parsers (this crate's
//! short games and `chopsticks-loopy`'s loopy games): the text as characters
//! with their byte offsets, where reading has got to, and the nesting depth.
//!
//! A parser owns a `Cursor` and builds its own errors from [`Cursor::at`]; the
//! cursor only moves and looks.

/// A position in a text being read.
#[derive(Clone, Debug)]
pub struct Cursor {
    chars: Vec<(usize, char)>,
    /// Index of the next character to read in `chars`.
    pub pos: usize,
    len: usize,
    /// Levels of nesting open at this point (each parser keeps its own bound).
    pub depth: usize,
}

impl Cursor {
    /// A cursor at the start of `text`.
    pub fn new(text: &str) -> Cursor {
        Cursor {
            chars: text.char_indices().collect(),
            pos: 0,
            len: text.len(),
            depth: 0,
        }
    }

    /// Byte offset of the next character (the text's length at the end).
    pub fn at(&self) -> usize {
        self.chars.get(self.pos).map_or(self.len, |c| c.0)
    }

    /// Byte offset of the character at index `pos`.
    pub fn offset(&self, pos: usize) -> usize {
        self.chars.get(pos).map_or(self.len, |c| c.0)
    }

    /// Whether every character has been read.
    pub fn at_end(&self) -> bool {
        self.pos >= self.chars.len()
    }

    /// The next character.
    pub fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(|c| c.1)
    }

    /// The character `k` places after the next one.
    pub fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).map(|c| c.1)
    }

    /// The character just read.
    pub fn previous(&self) -> Option<char> {
        self.pos
            .checked_sub(1)
            .and_then(|p| self.chars.get(p))
            .map(|c| c.1)
    }

    /// Skips whitespace.
    pub fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// Reads `c` if it comes next.
    pub fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Whether `s` comes next.
    pub fn looking_at(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.peek_at(i) == Some(c))
    }

    /// Reads `s` if it comes next.
    pub fn eat_str(&mut self, s: &str) -> bool {
        let ok = self.looking_at(s);
        if ok {
            self.pos += s.chars().count();
        }
        ok
    }

    /// The characters from index `from` to index `to` (exclusive).
    pub fn slice(&self, from: usize, to: usize) -> String {
        self.chars[from..to].iter().map(|c| c.1).collect()
    }

    /// Reads a run of ASCII digits: `None` when none comes next.
    pub fn digits(&mut self) -> Option<String> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        (self.pos > start).then(|| self.slice(start, self.pos))
    }

    /// Reads a word of ASCII letters, digits and `_` (possibly empty).
    pub fn word(&mut self) -> String {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.pos += 1;
        }
        self.slice(start, self.pos)
    }

    /// Opens one level of nesting; `false` (nothing opened) at `max` levels.
    pub fn enter(&mut self, max: usize) -> bool {
        if self.depth >= max {
            return false;
        }
        self.depth += 1;
        true
    }

    /// Closes a level opened by [`Cursor::enter`].
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// The message for the character next at `cursor`, which cannot start a game
/// (or, `trailing`, continue one that is complete): the character named, and the
/// usual fix when there is one (`↑` is written `^`, `=` is not a comparison).
pub fn unexpected(cursor: &Cursor, trailing: bool) -> String {
    let Some(c) = cursor.peek() else {
        return "unexpected end of input".to_string();
    };
    let next = cursor.peek_at(1);
    match (c, next) {
        ('=', Some('=')) => {}
        ('=', _) => return "`=` is not a comparison: write `==` (`G == H`)".to_string(),
        (':', Some('=')) => {
            return "`:=` (CGSuite's assignment) is not read: write the game itself".to_string()
        }
        _ => {}
    }
    let shown = if c.is_control() || c.is_whitespace() || c == '`' {
        format!("U+{:04X}", u32::from(c))
    } else {
        format!("`{c}`")
    };
    let after = if trailing {
        " after a complete game"
    } else {
        ""
    };
    match hint(c) {
        Some(h) => format!("unexpected character {shown}{after} ({h})"),
        None => format!("unexpected character {shown}{after}"),
    }
}

/// The usual fix for a character that CGSuite's plain-text notation writes
/// otherwise.
fn hint(c: char) -> Option<&'static str> {
    Some(match c {
        '↑' | '⬆' => "write `^` for ↑: `^^` for ↑↑, `^3` for 3·↑",
        '↓' => "write `v` for ↓: `vv` for ↓↓, `v3` for 3·↓",
        '⇑' => "write `^^` for ⇑",
        '⇓' => "write `vv` for ⇓",
        '±' => "write `+-` for ±: `+-1`, `+-{1,2}`",
        '−' | '–' | '—' => "write `-` for minus",
        '∗' | '⋆' | '★' | '✱' => "write `*` for a star",
        '≤' => "write `<=` for ≤",
        '≥' => "write `>=` for ≥",
        '⧏' => "write `<|` for ⧏",
        '⧐' => "write `|>` for ⧐",
        '‖' | '∥' => "write `||` for ‖",
        '½' => "write `1/2`",
        '¼' => "write `1/4`",
        '¾' => "write `3/4`",
        ';' => "`;` ends a CGSuite statement: write one expression without it",
        '"' | '\'' | '“' | '”' | '‘' | '’' => {
            "quotes are for the shell: write the game without them"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_looks() {
        let mut c = Cursor::new("  ab↑12 x");
        c.skip_ws();
        assert_eq!(c.at(), 2);
        assert!(c.eat_str("ab"));
        assert!(c.eat('↑'));
        assert_eq!(c.at(), 7);
        assert_eq!(c.digits().as_deref(), Some("12"));
        assert_eq!(c.digits(), None);
        assert_eq!(c.previous(), Some('2'));
        c.skip_ws();
        assert_eq!(c.word(), "x");
        assert!(c.at_end());
        assert_eq!(c.at(), 11);
        assert!(c.enter(1));
        assert!(!c.enter(1));
        c.leave();
        assert!(c.enter(1));
    }

    #[test]
    fn names_the_unexpected_character_and_the_fix() {
        let at = |text: &str, trailing| unexpected(&Cursor::new(text), trailing);
        assert_eq!(
            at("↑↑", false),
            "unexpected character `↑` (write `^` for ↑: `^^` for ↑↑, `^3` for 3·↑)"
        );
        assert_eq!(
            at("= *", true),
            "`=` is not a comparison: write `==` (`G == H`)"
        );
        assert_eq!(
            at("±1", false),
            "unexpected character `±` (write `+-` for ±: `+-1`, `+-{1,2}`)"
        );
        assert_eq!(
            at("@", true),
            "unexpected character `@` after a complete game"
        );
        assert_eq!(at("\t", false), "unexpected character U+0009");
        assert_eq!(at("", false), "unexpected end of input");
        assert!(at(":= 1", true).contains("`:=`"));
        assert!(at("== 1", true).starts_with("unexpected character `=`"));
    }
}
