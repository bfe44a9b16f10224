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

use chopsticks_cgt::{Answer, Expression, GameId, GameStore};
use chopsticks_rules::{quoted, Position, Ruleset, MAX_HANDS};

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
    let shown = quoted(text);
    if base.players() != 2 {
        return Err(ValueError::Players(base.players()));
    }
    let mut rules = base.clone();
    if let Some(at) = text.rfind(")_") {
        let digits = &text[at + 2..];
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ValueError::Position(format!(
                "invalid position `{shown}`: expected the finger count n after `_`"
            )));
        }
        let n: u64 = digits.parse().unwrap_or(u64::MAX);
        if n == 0 {
            return Err(ValueError::Position(format!(
                "invalid position `{shown}`: the finger count n must be at least 1"
            )));
        }
        let max = u64::from(chopsticks_rules::MAX_FINGERS) - 1;
        if n > max {
            return Err(ValueError::Position(format!(
                "invalid position `{shown}`: the finger count n = {} is too large (at most {max})",
                quoted(digits)
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
                "invalid position `{shown}`: {name} has {} live hands, but the rules give {h}",
                side.len()
            )));
        }
    }
    rules.validate()?;
    Ok((rules, CgtPosition::new(left, right)))
}

/// A position found in an expression, read and checked, not yet evaluated.
#[derive(Clone, Debug)]
pub struct Planned {
    /// The position as written.
    pub text: String,
    /// The ruleset it is evaluated under (finger count and hands set by the text).
    pub rules: Ruleset,
    /// The position.
    pub position: CgtPosition,
}

/// An expression read and checked in full (every position, and the CGSuite text
/// around them, syntax and literal bounds included) before anything is evaluated,
/// so that a mistake anywhere is reported at once: [`Plan::new`], then
/// [`Plan::evaluate`]. In between, a caller can size the work ([`crate::estimate`]
/// of each position).
#[derive(Clone, Debug)]
pub struct Plan {
    /// The positions, in the order written (`#0`, `#1`, … in the rewritten text).
    pub positions: Vec<Planned>,
    /// The text with the positions replaced by `#k`, read by the CGSuite parser.
    rewritten: String,
    /// The rewritten text read as a short-game expression, or why it could not be
    /// (a loopy game such as `over` is read by [`Plan::evaluate_loopy`] instead).
    expression: Result<Expression, ValueError>,
    /// The text as written (for messages).
    text: String,
}

/// A loopy reading error with the positions written back in place of `#k`.
pub(crate) fn restore_positions(e: ValueError, positions: &[Planned]) -> ValueError {
    let ValueError::Expression(message) = e else {
        return e;
    };
    let mut out = String::with_capacity(message.len());
    let mut rest = message.as_str();
    while let Some(at) = rest.find('#') {
        out.push_str(&rest[..at]);
        let digits: String = rest[at + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        match digits.parse::<usize>().ok().and_then(|k| positions.get(k)) {
            Some(p) => out.push_str(p.text.trim()),
            None => {
                out.push('#');
                out.push_str(&digits);
            }
        }
        rest = &rest[at + 1 + digits.len()..];
    }
    out.push_str(rest);
    ValueError::Expression(out)
}

impl Plan {
    /// Reads an expression (see the module documentation).
    pub fn new(base: &Ruleset, hands: Option<&[usize]>, text: &str) -> Result<Plan, ValueError> {
        let mut positions = Vec::new();
        let mut rewritten = String::with_capacity(text.len());
        let mut last = 0;
        for span in find_positions(text) {
            let written = &text[span.start..span.end];
            let (rules, position) = parse_position(written, base, hands)?;
            rewritten.push_str(&text[last..span.start]);
            rewritten.push_str(&format!(" #{} ", positions.len()));
            last = span.end;
            positions.push(Planned {
                text: written.to_string(),
                rules,
                position,
            });
        }
        rewritten.push_str(&text[last..]);
        if rewritten.trim().is_empty() {
            return Err(ValueError::Position(
                "empty expression: write a position such as (1|1)_12 or a game such as {0|^[2]}"
                    .into(),
            ));
        }
        let quote = |rewritten: &str| {
            if positions.is_empty() {
                format!("`{}`", quoted(text))
            } else {
                format!(
                    "`{}` (the positions replaced by #0, #1, …)",
                    quoted(rewritten.trim())
                )
            }
        };
        let expression = Expression::parse(&rewritten).map_err(|error| ValueError::Parse {
            text: quote(&rewritten),
            error: trimmed(error, &rewritten, positions.len()),
        });
        // Not a short game: it must read as a sum of loopy games, or it is an error.
        // Text with words of loopy notation (`over`, `pass`, labels) or `&` gets
        // the loopy parser's error, any other the short-game parser's.
        if let Err(e) = &expression {
            if let Err(loopy_error) = crate::loopy::check_terms(&rewritten, positions.len()) {
                return Err(if chopsticks_loopy::notation::looks_loopy(&rewritten) {
                    restore_positions(loopy_error, &positions)
                } else {
                    e.clone()
                });
            }
        }
        Ok(Plan {
            positions,
            rewritten,
            expression,
            text: text.to_string(),
        })
    }

    /// The expression as a short game, or why it cannot be read as one.
    pub fn short_expression(&self) -> Result<&Expression, ValueError> {
        self.expression.as_ref().map_err(Clone::clone)
    }

    /// The text with the positions replaced by `#0`, `#1`, ….
    pub(crate) fn rewritten(&self) -> &str {
        &self.rewritten
    }

    /// Evaluates every position, then the expression, each within `limits`.
    /// `progress` is called now and then with the number of positions evaluated
    /// in the current component. An error for a comparison or a game with
    /// numbers beyond the arena's ([`Plan::evaluate_answer`] takes those).
    pub fn evaluate(
        &self,
        store: &mut GameStore,
        limits: Limits,
        progress: Option<&dyn Fn(u64)>,
    ) -> Result<Evaluation, ValueError> {
        let components = self.components(store, limits, progress)?;
        let games: Vec<GameId> = components.iter().map(|c| c.value).collect();
        let value = store
            .evaluate_within(self.short_expression()?, &games, limits.max_work)
            .map_err(|error| self.parse_error(&components, error))?;
        Ok(Evaluation { components, value })
    }

    /// Like [`Plan::evaluate`], for any text: a game of any size, or for a
    /// comparison (`(1|1)_12 <= ^`) whether it holds.
    pub fn evaluate_answer(
        &self,
        store: &mut GameStore,
        limits: Limits,
        progress: Option<&dyn Fn(u64)>,
    ) -> Result<(Vec<Component>, Answer), ValueError> {
        let components = self.components(store, limits, progress)?;
        let games: Vec<GameId> = components.iter().map(|c| c.value).collect();
        let answer = store
            .evaluate_answer(self.short_expression()?, &games, limits.max_work)
            .map_err(|error| self.parse_error(&components, error))?;
        Ok((components, answer))
    }

    /// The value of every position.
    fn components(
        &self,
        store: &mut GameStore,
        limits: Limits,
        progress: Option<&dyn Fn(u64)>,
    ) -> Result<Vec<Component>, ValueError> {
        self.short_expression()?;
        let mut components = Vec::with_capacity(self.positions.len());
        for p in &self.positions {
            let value = value_with(store, &p.rules, &p.position, limits, progress)?;
            components.push(Component {
                text: p.text.clone(),
                rules: p.rules.clone(),
                position: p.position.clone(),
                value,
            });
        }
        Ok(components)
    }

    fn parse_error(
        &self,
        components: &[Component],
        error: chopsticks_cgt::ParseError,
    ) -> ValueError {
        ValueError::Parse {
            text: if components.is_empty() {
                format!("`{}`", quoted(&self.text))
            } else {
                format!(
                    "`{}` (the positions replaced by #0, #1, …)",
                    quoted(self.rewritten.trim())
                )
            },
            error: trimmed(error, &self.rewritten, components.len()),
        }
    }
}

/// The error of the text `rewritten` with its character counted in the text
/// quoted: with positions, the text trimmed (`#0 + …`, not ` #0  + …`).
fn trimmed(
    mut error: chopsticks_cgt::ParseError,
    rewritten: &str,
    positions: usize,
) -> chopsticks_cgt::ParseError {
    if positions > 0 {
        let leading = rewritten.chars().take_while(|c| c.is_whitespace()).count();
        error.character = error.character.saturating_sub(leading).max(1);
    }
    error
}

/// Evaluates an expression (see the module documentation): [`Plan::new`], then
/// [`Plan::evaluate`].
pub fn evaluate(
    store: &mut GameStore,
    base: &Ruleset,
    hands: Option<&[usize]>,
    text: &str,
    limits: Limits,
    progress: Option<&dyn Fn(u64)>,
) -> Result<Evaluation, ValueError> {
    Plan::new(base, hands, text)?.evaluate(store, limits, progress)
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

    #[test]
    fn errors_count_characters_in_the_text_quoted() {
        let base = chopsticks_rules::Preset::Simple.ruleset();
        let message = |text: &str| {
            Plan::new(&base, None, text)
                .expect_err("refused")
                .to_string()
        };
        assert_eq!(
            message("(1|1)_4 + ↑"),
            "cannot read `#0  + ↑` (the positions replaced by #0, #1, …): at character 7: \
             unexpected character `↑` (write `^` for ↑: `^^` for ↑↑, `^3` for 3·↑)"
        );
        assert_eq!(
            message("^ + ↓"),
            "cannot read `^ + ↓`: at character 5: unexpected character `↓` (write `v` for ↓: \
             `vv` for ↓↓, `v3` for 3·↓)"
        );
        let mut store = GameStore::new();
        let e = evaluate(
            &mut store,
            &base,
            None,
            "(1|1)_4 + *.Cool(-1)",
            Limits::DEFAULT,
            None,
        )
        .expect_err("refused")
        .to_string();
        assert!(e.contains("at character 14: cooling is by a number"), "{e}");
    }
}
