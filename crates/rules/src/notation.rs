//! Reading and writing positions in the notations of the sources.
//!
//! | notation | example | meaning |
//! |---|---|---|
//! | [`Notation::Compact`] (Wikipedia) | `1211`, `[1211]`, `111211` | every hand one digit, mover's hands first, then each player in turn order |
//! | [`Notation::Dashed`] (Rahman) | `12-11`, `11-12-13`, `1,12-3,4` | players separated by `-`; values separated by `,` when `F > 10` |
//! | [`Notation::Paper`] (Dailly et al.) | `(1,1\|1,2)_4`, `(1^3\|2)_3`, `(\|1)_4` | Left's live hands `\|` Right's live hands, `_n` with `n = F - 1` |
//!
//! Within a player the order of hands does not matter when reading; writing always
//! sorts them ascending (dead hands, `0`, first). The paper's notation lists live hands
//! only (dead hands are removed) and names no player to move: reading it puts Left
//! (seat 0) to move, writing it puts seat 0 on the left. Positions of symmetric
//! rulesets are mover-relative (the mover is always seat 0), so for them the paper's
//! notation is written with the player to move as Left.
//!
//! Reading rules for a group of characters without commas (a player in dashed
//! notation): when `F ≤ 10` each digit is one hand; when `F > 10` the group is one
//! number, one hand (write several hands with commas: `1,12`).

use crate::error::{quoted, Result, RulesError};
use crate::position::{write_hands, Position};
use crate::ruleset::Ruleset;

/// The notations a position can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Wikipedia's digits, `1211` (needs `F ≤ 10` and equal hand counts).
    Compact,
    /// Rahman's dashed form, `12-11`, extended to any number of players and to values
    /// of two or more digits (`1,12-3,4`).
    Dashed,
    /// The paper's `(x1,…,xl | y1,…,yr)_n` (two players only).
    Paper,
}

impl Notation {
    /// Every notation.
    pub const ALL: [Notation; 3] = [Notation::Compact, Notation::Dashed, Notation::Paper];

    /// Lower-case name, as accepted by `--notation`.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Compact => "compact",
            Notation::Dashed => "dashed",
            Notation::Paper => "paper",
        }
    }

    /// Looks a notation up by name (`compact`/`wikipedia`, `dashed`/`rahman`, `paper`).
    pub fn from_name(name: &str) -> Option<Notation> {
        match name.to_ascii_lowercase().as_str() {
            "compact" | "wikipedia" => Some(Notation::Compact),
            "dashed" | "rahman" => Some(Notation::Dashed),
            "paper" => Some(Notation::Paper),
            _ => None,
        }
    }

    /// The notation to use by default for a ruleset: compact when every hand is one
    /// digit and players have the same number of hands, dashed otherwise.
    pub fn default_for(rules: &Ruleset) -> Notation {
        if rules.fingers <= 10 && rules.is_symmetric() {
            Notation::Compact
        } else {
            Notation::Dashed
        }
    }
}

/// A reading error at character `at` (0-based) of `text`.
/// An error at byte `at` of `text`, reported as a character position.
fn error_at(text: &str, at: usize, message: impl std::fmt::Display) -> RulesError {
    let character = text.get(..at).map_or(at, |before| before.chars().count()) + 1;
    error(text, format!("at character {character}: {message}"))
}

/// An error found in `compact` (the text as typed, `original`, without its white
/// space), said of the text as typed: quoted whole, and a character counted in
/// it (`13 1x`: the `x` is character 5, not the 4 of `131x`).
pub(crate) fn as_typed(e: RulesError, compact: &str, original: &str) -> RulesError {
    let RulesError::Position { text, message } = e else {
        return e;
    };
    if compact == original || text != quoted(compact) {
        return RulesError::Position { text, message };
    }
    // The k-th character that is not white space, counted in the original.
    let message = recount(message, |k| {
        original
            .chars()
            .enumerate()
            .filter(|(_, c)| !c.is_whitespace())
            .nth(k - 1)
            .map_or(Some(k), |(i, _)| Some(i + 1))
    });
    error(original.trim(), message)
}

/// A message `at character K: …` with `K` counted again by `at` (`None`: the
/// place left out, the message kept without it); another message as it is.
pub(crate) fn recount(message: String, at: impl FnOnce(usize) -> Option<usize>) -> String {
    let Some((k, rest)) = message
        .strip_prefix("at character ")
        .and_then(|rest| rest.split_once(':'))
        .and_then(|(k, rest)| Some((k.parse::<usize>().ok()?, rest)))
    else {
        return message;
    };
    match at(k) {
        Some(k) => format!("at character {k}:{rest}"),
        None => rest.trim_start().to_string(),
    }
}

pub(crate) fn error(text: &str, message: impl std::fmt::Display) -> RulesError {
    RulesError::Position {
        text: quoted(text),
        message: message.to_string(),
    }
}

/// Reads an unsigned number starting at byte `start` of `text`, returning it and the
/// byte after it.
fn read_number(text: &str, start: usize) -> Result<(u32, usize)> {
    let bytes = text.as_bytes();
    let mut end = start;
    while end < bytes.len() && bytes[end].is_ascii_digit() {
        end += 1;
    }
    if end == start {
        let found = text[start..].chars().next();
        return Err(match found {
            Some(c) => error_at(text, start, format!("expected a number, found `{c}`")),
            None => error_at(text, start, "expected a number, found the end"),
        });
    }
    let value = text[start..end]
        .parse::<u32>()
        .map_err(|_| error_at(text, start, "number too large"))?;
    Ok((value, end))
}

/// Checks that a hand value read at `at` is below `F`.
fn check_value(text: &str, at: usize, value: u32, rules: &Ruleset) -> Result<u32> {
    if value >= rules.fingers {
        Err(error_at(
            text,
            at,
            format!(
                "a hand of {value} is out of range: hands hold 0..{} (0 is dead, F = {})",
                rules.fingers - 1,
                rules.fingers
            ),
        ))
    } else {
        Ok(value)
    }
}

/// Reads one player's group of dashed notation starting at byte `start`.
fn read_group(text: &str, start: usize, end: usize, rules: &Ruleset) -> Result<Vec<u32>> {
    let group = &text[start..end];
    if group.is_empty() {
        return Err(error_at(text, start, "a player with no hands written"));
    }
    let mut values = Vec::new();
    if group.contains(',') || rules.fingers > 10 {
        let mut at = start;
        loop {
            let (v, next) = read_number(text, at)?;
            if next > end {
                return Err(error_at(text, at, "number runs past the player's end"));
            }
            values.push(check_value(text, at, v, rules)?);
            if next == end {
                break;
            }
            if text.as_bytes()[next] != b',' {
                return Err(error_at(text, next, "expected `,` between hands"));
            }
            at = next + 1;
        }
    } else {
        for (i, c) in group.char_indices() {
            let d = c
                .to_digit(10)
                .ok_or_else(|| error_at(text, start + i, format!("`{c}` is not a digit")))?;
            values.push(check_value(text, start + i, d, rules)?);
        }
    }
    Ok(values)
}

pub(crate) fn read_dashed(text: &str, rules: &Ruleset) -> Result<Vec<Vec<u32>>> {
    let mut players = Vec::new();
    let mut start = 0;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), '-')))
    {
        if c == '-' {
            players.push(read_group(text, start, i, rules)?);
            start = i + 1;
        }
    }
    Ok(players)
}

pub(crate) fn read_compact(text: &str, rules: &Ruleset) -> Result<Vec<Vec<u32>>> {
    let (inner, offset) = match (text.strip_prefix('['), text.ends_with(']')) {
        (Some(rest), true) => (&rest[..rest.len() - 1], 1),
        (None, false) => (text, 0),
        _ => return Err(error(text, "unbalanced brackets: write [1211] or 1211")),
    };
    if rules.fingers > 10 {
        return Err(error(
            text,
            format!(
                "digits-only notation needs F ≤ 10 (F = {}); write players with dashes and hands with commas, e.g. 1,12-3,4",
                rules.fingers
            ),
        ));
    }
    if !rules.is_symmetric() {
        return Err(error(
            text,
            "players have different numbers of hands, so digits alone are ambiguous; separate players with dashes (e.g. 1-123)",
        ));
    }
    let total: usize = rules.hands.iter().sum();
    let mut digits = Vec::with_capacity(total);
    for (i, c) in inner.char_indices() {
        let d = c
            .to_digit(10)
            .ok_or_else(|| error_at(text, offset + i, format!("`{c}` is not a digit")))?;
        digits.push((i, d));
    }
    if digits.len() != total {
        return Err(error(
            text,
            format!(
                "{} digit{} written, but {} players × {} hands need {total}",
                digits.len(),
                if digits.len() == 1 { "" } else { "s" },
                rules.players(),
                rules.hands[0]
            ),
        ));
    }
    let mut values = Vec::with_capacity(total);
    for (i, d) in digits {
        values.push(check_value(text, offset + i, d, rules)?);
    }
    Ok(values.chunks(rules.hands[0]).map(<[u32]>::to_vec).collect())
}

fn read_paper_side(text: &str, start: usize, end: usize, rules: &Ruleset) -> Result<Vec<u32>> {
    let mut values = Vec::new();
    if start == end {
        return Ok(values); // no live hand
    }
    let mut at = start;
    loop {
        let (v, mut next) = read_number(text, at)?;
        let mut repeat = 1;
        if next < end && text.as_bytes()[next] == b'^' {
            let (a, after) = read_number(text, next + 1)?;
            repeat = a;
            next = after;
        }
        if next > end {
            return Err(error_at(text, at, "number runs past `|`"));
        }
        if v == 0 {
            return Err(error_at(
                text,
                at,
                "the paper's notation lists live hands only; leave dead hands out",
            ));
        }
        let v = check_value(text, at, v, rules)?;
        if repeat == 0 {
            return Err(error_at(
                text,
                at,
                format!("{v}^0 writes no hand; leave it out"),
            ));
        }
        if repeat as usize > rules.hands.iter().copied().max().unwrap_or(0) {
            return Err(error_at(
                text,
                at,
                format!("{v}^{repeat}: more hands than any player has"),
            ));
        }
        values.extend(std::iter::repeat_n(v, repeat as usize));
        if next == end {
            break;
        }
        if text.as_bytes()[next] != b',' {
            return Err(error_at(text, next, "expected `,` between hands"));
        }
        at = next + 1;
    }
    Ok(values)
}

fn read_paper(text: &str, rules: &Ruleset) -> Result<Vec<Vec<u32>>> {
    if rules.players() != 2 {
        return Err(error(
            text,
            "the paper's notation is for two players (Left | Right)",
        ));
    }
    let close = text.find(')').ok_or_else(|| error(text, "missing `)`"))?;
    let bar = text[..close]
        .find('|')
        .ok_or_else(|| error(text, "missing `|` between Left's and Right's hands"))?;
    let left = read_paper_side(text, 1, bar, rules)?;
    let right = read_paper_side(text, bar + 1, close, rules)?;
    let rest = &text[close + 1..];
    if !rest.is_empty() {
        let n_at = close + 1;
        let n_text = rest
            .strip_prefix('_')
            .ok_or_else(|| error_at(text, n_at, "expected `_n` after `)`"))?;
        let (n, end) = read_number(text, n_at + 1)?;
        if end != text.len() || n_text.is_empty() {
            return Err(error_at(
                text,
                end,
                "unexpected text after the finger count",
            ));
        }
        if n as u64 + 1 != rules.fingers as u64 {
            return Err(error_at(
                text,
                n_at + 1,
                format!(
                    "finger count n = {n} means F = {}, but the ruleset has F = {} (n = {})",
                    n as u64 + 1,
                    rules.fingers,
                    rules.fingers - 1
                ),
            ));
        }
    }
    let mut players = Vec::new();
    for (seat, (name, mut live)) in [("Left", left), ("Right", right)].into_iter().enumerate() {
        let h = rules.hands[seat];
        if live.len() > h {
            return Err(error(
                text,
                format!(
                    "{name} has {} live hands, but the ruleset gives {h}",
                    live.len()
                ),
            ));
        }
        live.resize(h, 0);
        players.push(live);
    }
    Ok(players)
}

impl Position {
    /// Reads a position in any of the notations (detected from its shape): `(` starts
    /// the paper's notation, a `-` marks the dashed notation, otherwise digits (with
    /// optional brackets) are Wikipedia's compact notation. Errors say what is wrong
    /// and at which character.
    pub fn parse(text: &str, rules: &Ruleset) -> Result<Position> {
        // White space is allowed anywhere: `(1, 1 | 1, 2)_4`, `12 - 11`.
        let original = text;
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let text = compact.as_str();
        if text.is_empty() {
            return Err(error(text, "empty position"));
        }
        let typed = |e: RulesError| as_typed(e, text, original);
        let players = if text.starts_with('(') {
            read_paper(text, rules)
        } else if text.contains('-') {
            read_dashed(text, rules)
        } else {
            read_compact(text, rules)
        }
        .map_err(typed)?;
        let position = Position::new(rules, players).map_err(|e| match e {
            RulesError::Position { message, .. } => error(text, message),
            other => other,
        })?;
        if !position.is_terminal(rules) && position.mover().iter().all(|&v| v == 0) {
            return Err(error(
                text,
                "the player to move has no live hand, but the game is not over: a player \
                 without hands is skipped, so write the next player with a live hand first",
            ));
        }
        Ok(position)
    }

    /// Writes the position in the given notation (see the module documentation).
    pub fn to_notation(&self, rules: &Ruleset, notation: Notation) -> Result<String> {
        let refuse = |message: &str| RulesError::Notation {
            notation: notation.name(),
            message: message.to_string(),
        };
        let mut out = String::new();
        match notation {
            Notation::Compact => {
                if rules.fingers > 10 {
                    return Err(refuse("hands of 10 or more need the dashed notation"));
                }
                if !rules.is_symmetric() {
                    return Err(refuse("players have different numbers of hands"));
                }
                for hands in self.players() {
                    write_hands(&mut out, hands, rules.fingers);
                }
            }
            Notation::Dashed => {
                for (k, hands) in self.players().iter().enumerate() {
                    if k > 0 {
                        out.push('-');
                    }
                    write_hands(&mut out, hands, rules.fingers);
                }
            }
            Notation::Paper => {
                if rules.players() != 2 {
                    return Err(refuse("it is for two players only"));
                }
                // Seat 0 is Left whoever moves.
                let (left, right) = if self.seat() == 0 {
                    (&self.players()[0], &self.players()[1])
                } else {
                    (&self.players()[1], &self.players()[0])
                };
                out.push('(');
                for (side, hands) in [left, right].into_iter().enumerate() {
                    if side == 1 {
                        out.push('|');
                    }
                    let live: Vec<String> = hands
                        .iter()
                        .filter(|&&v| v != 0)
                        .map(u32::to_string)
                        .collect();
                    out.push_str(&live.join(","));
                }
                out.push_str(&format!(")_{}", rules.fingers - 1));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Preset;

    #[test]
    fn reads_every_notation() {
        let r = Preset::Rollover.ruleset();
        let want = Position::new(&r, vec![vec![1, 2], vec![1, 1]]).unwrap();
        for text in [
            "1211",
            "[1211]",
            "2111",
            "12-11",
            "21-11",
            "(1,2|1,1)_4",
            "(2,1|1^2)",
            " 12-11 ",
        ] {
            assert_eq!(Position::parse(text, &r).unwrap(), want, "{text}");
        }
        assert_eq!(want.to_notation(&r, Notation::Compact).unwrap(), "1211");
        assert_eq!(want.to_notation(&r, Notation::Dashed).unwrap(), "12-11");
        assert_eq!(
            want.to_notation(&r, Notation::Paper).unwrap(),
            "(1,2|1,1)_4"
        );
    }

    #[test]
    fn paper_notation_drops_dead_hands() {
        let r = Preset::Simple.ruleset();
        let p = Position::parse("(1|1)_4", &r).unwrap();
        assert_eq!(p.players(), &[vec![0, 1], vec![0, 1]]);
        assert_eq!(p.to_notation(&r, Notation::Paper).unwrap(), "(1|1)_4");
        let q = Position::parse("(|2)_4", &r).unwrap();
        assert_eq!(q.to_notation(&r, Notation::Paper).unwrap(), "(|2)_4");
    }

    #[test]
    fn big_values_use_commas() {
        let mut r = Preset::Rollover.ruleset();
        r.fingers = 13;
        let p = Position::parse("1,12-3,4", &r).unwrap();
        assert_eq!(p.players(), &[vec![1, 12], vec![3, 4]]);
        assert_eq!(p.to_notation(&r, Notation::Dashed).unwrap(), "1,12-3,4");
        assert!(p.to_notation(&r, Notation::Compact).is_err());
    }

    #[test]
    fn three_players() {
        let mut r = Preset::Rollover.ruleset();
        r.hands = vec![2, 2, 2];
        let p = Position::parse("11-12-13", &r).unwrap();
        assert_eq!(p.to_notation(&r, Notation::Compact).unwrap(), "111213");
        assert_eq!(Position::parse("111213", &r).unwrap(), p);
    }

    #[test]
    fn errors_say_what_and_where() {
        let r = Preset::Rollover.ruleset();
        let msg = |t: &str| Position::parse(t, &r).unwrap_err().to_string();
        assert!(msg("1711").contains("at character 2"), "{}", msg("1711"));
        assert!(msg("1711").contains("out of range"));
        assert!(msg("121").contains("3 digits"));
        assert!(msg("12-1x").contains("`x` is not a digit"));
        assert!(msg("12-11-11").contains("3 players given"));
        assert!(msg("(1,1|1,1)_5").contains("F = 6"));
        assert!(msg("(1|1)_4294967295").contains("F = 4294967296"));
        assert!(msg("(1,1,1|1)_4").contains("3 live hands"));
        assert!(msg("(0|1)_4").contains("live hands only"));
        assert!(msg("").contains("empty"));
        assert!(msg("[[1211").contains("unbalanced"));
        assert!(msg("(1^0|1)_4").contains("writes no hand"));
        let mut three = Preset::Rollover.ruleset();
        three.hands = vec![2, 2, 2];
        let e = Position::parse("00-11-11", &three).unwrap_err().to_string();
        assert!(e.contains("no live hand"), "{e}");
        assert!(Position::parse("00-00-11", &three)
            .unwrap()
            .is_terminal(&three));
        assert!(msg("1211]").contains("unbalanced"));
        assert!(msg("12-").contains("no hands"));
    }
}
