//! Expressions mixing positions and games: `(1|1)_12 + (2|5)_40`, `{0|^[2]}`,
//! `(1,1|2)_4 - ^*`.
//!
//! Every position written in the paper's notation, `(x1,…,xl | y1,…,yr)_n`, is one
//! component (the paper's team play: several pairs of players, each pair a
//! component). Its `_n` sets the finger count (`F = n + 1`) of that component
//! (without `_n` the base ruleset's `F` is used) and its hand counts are the hands
//! written (at least one each), unless hand counts are imposed. Each component is
//! evaluated and replaced by a placeholder `#k` standing for its value, and the
//! whole text is then read by the CGSuite parser ([`GameStore::parse_with`]), so
//! positions and games combine with `+`, `-`, `+-`, parentheses and braces.

use chopsticks_cgt::{GameId, GameStore};
use chopsticks_rules::{Position, Ruleset, MAX_HANDS};

use crate::error::ValueError;
use crate::solve::{value_with, CgtPosition, Limits};

/// One position of an expression and its value.
#[derive(Clone, Debug)]
pub struct Component {
    /// The position as written.
    pub text: String,
    /// The ruleset it was evaluated under (finger count and hands set by the text).
    pub rules: Ruleset,
    /// The position.
    pub position: CgtPosition,
    /// Its canonical value.
    pub value: GameId,
}

/// An evaluated expression.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// The positions found in the text, in order.
    pub components: Vec<Component>,
    /// The canonical value of the whole expression.
    pub value: GameId,
}

/// Where a paper-notation position sits in the text: `(`, the matching `)` and the
/// end of its `_n` suffix (byte offsets).
struct Span {
    start: usize,
    end: usize,
}

/// Finds the positions written in the paper's notation: a parenthesis group with
/// no parenthesis or brace inside that contains a `|`, optionally followed by `_n`.
fn find_positions(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'(' {
            i += 1;
            continue;
        }
        let Some(close) = text[i + 1..].find(['(', ')']).map(|k| i + 1 + k) else {
            break;
        };
        if bytes[close] == b'(' {
            i = close;
            continue;
        }
        let inner = &text[i + 1..close];
        if inner.contains('|') && !inner.contains(['{', '}']) {
            let mut end = close + 1;
            if end < bytes.len() && bytes[end] == b'_' {
                end += 1;
                while end < bytes.len() && bytes[end].is_ascii_digit() {
                    end += 1;
                }
            }
            out.push(Span { start: i, end });
            i = end;
        } else {
            i = close + 1;
        }
    }
    out
}

/// Reads one position in the paper's notation. `base` gives every rule but the
/// finger count (from `_n`, or `base`'s when absent) and the hand counts (the
/// hands written, at least one each, or `hands` when given).
pub fn parse_position(
    text: &str,
    base: &Ruleset,
    hands: Option<&[usize]>,
) -> Result<(Ruleset, CgtPosition), ValueError> {
    let text = text.trim();
    if base.players() != 2 {
        return Err(ValueError::Players(base.players()));
    }
    let mut rules = base.clone();
    if let Some(at) = text.rfind(")_") {
        let digits = &text[at + 2..];
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ValueError::Position(format!(
                "invalid position `{text}`: expected the finger count n after `_`"
            )));
        }
        let n: u64 = digits.parse().unwrap_or(u64::MAX);
        if n == 0 {
            return Err(ValueError::Position(format!(
                "invalid position `{text}`: the finger count n must be at least 1"
            )));
        }
        let max = u64::from(chopsticks_rules::MAX_FINGERS) - 1;
        if n > max {
            return Err(ValueError::Position(format!(
                "invalid position `{text}`: the finger count n = {digits} is too large (at most {max})"
            )));
        }
        rules.fingers = n as u32 + 1;
    }
    // Read with room for every hand the notation can write, then count.
    let mut wide = rules.clone();
    wide.hands = vec![MAX_HANDS, MAX_HANDS];
    let p = Position::parse(text, &wide)?;
    let live = |h: &[u32]| -> Vec<u32> { h.iter().copied().filter(|&v| v != 0).collect() };
    let (left, right) = (live(&p.players()[0]), live(&p.players()[1]));
    rules.hands = match hands {
        Some(h) if h.len() == 2 => h.to_vec(),
        Some(h) if h.len() == 1 => vec![h[0], h[0]],
        Some(h) => {
            return Err(ValueError::Position(format!(
                "hand counts for {} players given; game values are for 2",
                h.len()
            )))
        }
        None => vec![left.len().max(1), right.len().max(1)],
    };
    for (name, side, h) in [
        ("Left", &left, rules.hands[0]),
        ("Right", &right, rules.hands[1]),
    ] {
        if side.len() > h {
            return Err(ValueError::Position(format!(
                "invalid position `{text}`: {name} has {} live hands, but the rules give {h}",
                side.len()
            )));
        }
    }
    rules.validate()?;
    Ok((rules, CgtPosition::new(left, right)))
}

/// Evaluates an expression (see the module documentation). `progress` is called now
/// and then with the number of positions evaluated in the current component.
pub fn evaluate(
    store: &mut GameStore,
    base: &Ruleset,
    hands: Option<&[usize]>,
    text: &str,
    limits: Limits,
    progress: Option<&dyn Fn(u64)>,
) -> Result<Evaluation, ValueError> {
    let mut components = Vec::new();
    let mut rewritten = String::with_capacity(text.len());
    let mut last = 0;
    for span in find_positions(text) {
        let written = &text[span.start..span.end];
        let (rules, position) = parse_position(written, base, hands)?;
        let value = value_with(store, &rules, &position, limits, progress)?;
        rewritten.push_str(&text[last..span.start]);
        rewritten.push_str(&format!(" #{} ", components.len()));
        last = span.end;
        components.push(Component {
            text: written.to_string(),
            rules,
            position,
            value,
        });
    }
    rewritten.push_str(&text[last..]);
    if rewritten.trim().is_empty() {
        return Err(ValueError::Position(
            "empty expression: write a position such as (1|1)_12 or a game such as {0|^[2]}".into(),
        ));
    }
    let games: Vec<GameId> = components.iter().map(|c| c.value).collect();
    let value = store
        .parse_with(&rewritten, &games)
        .map_err(|error| ValueError::Parse {
            text: if components.is_empty() {
                text.to_string()
            } else {
                format!("{} (the positions replaced by #0, #1, …)", rewritten.trim())
            },
            error,
        })?;
    Ok(Evaluation { components, value })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_positions_but_not_groupings() {
        let t = "(1|1)_12 + (2|5)_40 - ({0|*}) + (1^2,3|4)";
        let spans: Vec<&str> = find_positions(t)
            .iter()
            .map(|s| &t[s.start..s.end])
            .collect();
        assert_eq!(spans, vec!["(1|1)_12", "(2|5)_40", "(1^2,3|4)"]);
        assert!(find_positions("{0|^[2]}").is_empty());
        assert!(find_positions("((^))").is_empty());
    }
}
