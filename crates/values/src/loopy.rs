//! Values of positions under rulesets whose play can cycle (rollover, transfers,
//! divisions, suicide, self-attacks, pass-splits): loopy games.
//!
//! A position's [`GameGraph`] (every position reachable by either player's moves,
//! with Left's and Right's options) becomes a `chopsticks_loopy::Game`, whose
//! value is a canonical stopper, a stopper-sided value `s & t`, or, when a side
//! is not found to equal a stopper, both sides' simplified graphs
//! ([`chopsticks_loopy::Value`]). A loop-free position gets the same canonical
//! form the short-game engine gives.
//!
//! Expressions ([`Plan::evaluate_loopy`]) are sums and differences of terms, each
//! a position in the paper's notation or a game in CGSuite's loopy notation
//! (`on`, `over`, `{pass|*}`, …): `(1,2|1,3)_4 - (1,1|2)_4`, `(1|1)_5 + over`.

use chopsticks_cgt::Relation;
use chopsticks_loopy::notation::split_relation;
use chopsticks_loopy::{Game, Value};
use chopsticks_rules::Ruleset;

use crate::error::ValueError;
use crate::expression::Plan;
use crate::game_graph::GameGraph;
use crate::solve::CgtPosition;

/// The most positions a loopy value's game graph may have by default.
pub const MAX_LOOPY_VERTICES: usize = 4096;

/// A position's value under a ruleset with loops.
#[derive(Clone, Debug)]
pub struct LoopyComponent {
    /// The position as written.
    pub text: String,
    /// The ruleset it was evaluated under.
    pub rules: Ruleset,
    /// The position.
    pub position: CgtPosition,
    /// Its value.
    pub value: Value,
    /// Positions in its game graph.
    pub vertices: usize,
    /// Whether play from it can cycle.
    pub cyclic: bool,
}

/// An evaluated expression of loopy games.
#[derive(Clone, Debug)]
pub struct LoopyEvaluation {
    /// The positions found in the text, in order.
    pub components: Vec<LoopyComponent>,
    /// The value of the whole expression (of its left-hand side for a
    /// comparison).
    pub value: Value,
    /// For a comparison `G <= H`: the relation and whether it holds (both sides
    /// of the values compared: `G >= H` when `G⁺ >= H⁺` and `G⁻ >= H⁻`).
    pub comparison: Option<(Relation, bool)>,
}

/// The loopy game of a position's graph.
pub fn loopy_game(graph: &GameGraph) -> Result<Game, ValueError> {
    Ok(Game::new(graph.left.clone(), graph.right.clone(), 0)?)
}

/// The value of `position` under `rules`, whether or not its play can cycle;
/// refused past `max_vertices` positions in its graph.
pub fn loopy_value(
    rules: &Ruleset,
    position: &CgtPosition,
    max_vertices: usize,
) -> Result<(Value, GameGraph), ValueError> {
    let graph = GameGraph::build(rules, position, max_vertices)?;
    let value = Value::from_game(&loopy_game(&graph)?)?;
    Ok((value, graph))
}

/// The values of several positions under one ruleset, found together: one
/// graph of every position reachable from any of them, whose sides are sought
/// for all the positions at once (much cheaper than one search each when they
/// share their positions, as the positions of one variant do). Refused past
/// `max_vertices` positions in the graph.
pub fn loopy_values(
    rules: &Ruleset,
    positions: &[CgtPosition],
    max_vertices: usize,
) -> Result<Vec<Value>, ValueError> {
    let (graph, roots) = GameGraph::build_many(rules, positions, max_vertices)?;
    let game = loopy_game(&graph)?;
    Ok(Value::values_within(&game, &roots, max_vertices)?)
}

/// A term of an expression: whether it is subtracted, and its text (`#k` for
/// the k-th position). A unary minus (at the start, or after `+`) stays in the
/// term's text, so that `-1under` is read as the literal `(-1) + under`, as the
/// printer writes it, while `x - 1under` subtracts `1under`.
fn terms(rewritten: &str) -> Result<Vec<(bool, String)>, ValueError> {
    let err = |m: &str| ValueError::Expression(m.to_string());
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut current = String::new();
    let mut negative = false;
    // A sign has been read since the last term.
    let mut signed = false;
    let chars: Vec<char> = rewritten.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '{' | '(' | '[' | '<' => depth += 1,
            '}' | ')' | ']' | '>' => depth -= 1,
            '&' if depth == 0 => {
                return Err(err(
                    "a sided value `s & t` cannot be a term of a sum with positions; \
                     evaluate it alone",
                ))
            }
            _ => {}
        }
        // A top-level sign ends the term before it, unless it starts `+-` (±).
        let is_pm = c == '+' && chars.get(i + 1) == Some(&'-');
        let body = current.trim().trim_start_matches('-').trim();
        let starts_term = body.is_empty();
        if depth == 0 && (c == '+' || c == '-') && !(is_pm && starts_term) {
            if !starts_term {
                out.push((negative, current.trim().to_string()));
                current.clear();
                negative = c == '-';
                signed = true;
            } else if c == '-' && !current.contains('-') {
                // A unary minus: part of the term.
                current.push('-');
            } else if signed || c == '-' || !current.trim().is_empty() {
                // `--x`, `+ +x`, `- +x` are not accepted (as CGSuite's parser).
                return Err(err("two signs in a row"));
            } else {
                signed = true;
            }
            i += 1;
            continue;
        }
        if is_pm && starts_term && depth == 0 {
            signed = false;
            current.push_str("+-");
            i += 2;
            continue;
        }
        if !c.is_whitespace() {
            signed = false;
        }
        current.push(c);
        i += 1;
    }
    if depth != 0 {
        return Err(err("unbalanced brackets"));
    }
    if current.trim().trim_start_matches('-').trim().is_empty() {
        return Err(err("the expression ends with a sign, or is empty"));
    }
    out.push((negative, current.trim().to_string()));
    Ok(out)
}

/// A term of a loopy expression.
pub(crate) enum Term {
    /// The k-th position.
    Position(usize),
    /// A game written in CGSuite's loopy notation.
    Game(Value),
}

/// The signed terms of a rewritten expression with `positions` positions. An
/// expression without positions is read whole by the loopy parser (so `s & t`
/// and its precedence are the parser's). The games are computed: call it within
/// the caller's work budget.
pub(crate) fn read_terms(
    rewritten: &str,
    positions: usize,
) -> Result<Vec<(bool, Term)>, ValueError> {
    let mut read = Vec::new();
    split_terms(rewritten, positions, |negative, term| {
        read.push((
            negative,
            match term {
                Ok(k) => Term::Position(k),
                Err(text) => {
                    Term::Game(chopsticks_loopy::parse(text).map_err(|e| unreadable(text, e))?)
                }
            },
        ));
        Ok(())
    })?;
    Ok(read)
}

/// Checks that the expression reads as a sum of positions and loopy games,
/// without computing any game (see [`chopsticks_loopy::check_syntax`]).
pub(crate) fn check_terms(rewritten: &str, positions: usize) -> Result<(), ValueError> {
    if let Some((_, Relation::AtMost, right)) = split_relation(rewritten) {
        if right.starts_with('>') {
            return Err(ValueError::Expression(
                "`<=>` (CGSuite's three-way comparison) is not read: ask one relation, \
                 `<=`, `>=`, `==`, `!=`, `<>`, `<|` or `|>`"
                    .into(),
            ));
        }
    }
    if let Some((left, _, right)) = split_relation(rewritten) {
        if split_relation(right).is_some() {
            return Err(ValueError::Expression(
                "a comparison has two sides: `G <= H`; compare a third game separately".into(),
            ));
        }
        check_terms(left, positions)?;
        return check_terms(right, positions);
    }
    split_terms(rewritten, positions, |_, term| match term {
        Ok(_) => Ok(()),
        Err(text) => chopsticks_loopy::check_syntax(text).map_err(|e| unreadable(text, e)),
    })
}

fn unreadable(text: &str, e: chopsticks_loopy::ParseError) -> ValueError {
    if let Some(limit) = chopsticks_loopy::work::spent_limit() {
        return ValueError::Loopy(chopsticks_loopy::LoopyError::Work { limit });
    }
    ValueError::Expression(format!(
        "cannot read `{}`: {e}",
        chopsticks_rules::quoted(text)
    ))
}

/// Calls `each` with every term's sign and either its position's number
/// (`Ok`) or its text in loopy notation (`Err`).
fn split_terms(
    rewritten: &str,
    positions: usize,
    mut each: impl FnMut(bool, Result<usize, &str>) -> Result<(), ValueError>,
) -> Result<(), ValueError> {
    if positions == 0 {
        return each(false, Err(rewritten.trim()));
    }
    for (mut negative, term) in terms(rewritten)? {
        let unsigned = term.trim_start_matches('-').trim();
        match unsigned
            .strip_prefix('#')
            .and_then(|k| k.parse::<usize>().ok())
        {
            Some(k) if k < positions => {
                negative ^= term.starts_with('-');
                each(negative, Ok(k))?;
            }
            _ if term.contains('#') => {
                return Err(ValueError::Expression(format!(
                    "{}: where play can cycle (loopy rules or games), a position must be a \
                     whole term of a sum or difference, not inside braces nor joined to other text",
                    chopsticks_rules::quoted(&term)
                )))
            }
            _ => each(negative, Err(&term))?,
        }
    }
    Ok(())
}

impl Plan {
    /// Evaluates the expression as loopy games: every position's value from its
    /// game graph (at most `max_vertices` positions each), then the sum of the
    /// terms (see the module documentation).
    pub fn evaluate_loopy(&self, max_vertices: usize) -> Result<LoopyEvaluation, ValueError> {
        // Every term is read before any position is evaluated.
        let (first, relation) = match split_relation(self.rewritten()) {
            Some((left, relation, right)) => (left, Some((relation, right))),
            None => (self.rewritten(), None),
        };
        let read = |text: &str| {
            read_terms(text, self.positions.len())
                .map_err(|e| crate::expression::restore_positions(e, &self.positions))
        };
        let left = read(first)?;
        let right = match relation {
            Some((_, text)) => Some(read(text)?),
            None => None,
        };
        let mut components = Vec::with_capacity(self.positions.len());
        for p in &self.positions {
            let (value, graph) = loopy_value(&p.rules, &p.position, max_vertices)?;
            components.push(LoopyComponent {
                text: p.text.clone(),
                rules: p.rules.clone(),
                position: p.position.clone(),
                value,
                vertices: graph.len(),
                cyclic: graph.has_cycle(),
            });
        }
        let total = |read: Vec<(bool, Term)>| -> Result<Value, ValueError> {
            let mut total: Option<Value> = None;
            for (negative, t) in read {
                let v = match t {
                    Term::Position(k) => components[k].value.clone(),
                    Term::Game(v) => v,
                };
                let v = if negative { v.neg() } else { v };
                total = Some(match total {
                    None => v,
                    Some(t) => t.add(&v)?,
                });
            }
            Ok(total.expect("at least one term"))
        };
        let value = total(left)?;
        let comparison = match (relation, right) {
            (Some((relation, _)), Some(right)) => {
                let other = total(right)?;
                let (le, ge) = (other.ge(&value)?, value.ge(&other)?);
                // Identity (`===`): equal, and the same canonical text (sides
                // that no bounded search reduced print as graphs, which may
                // differ for equal values).
                let same = le && ge && value.to_string() == other.to_string();
                Some((relation, relation.holds_written(le, ge, same)))
            }
            _ => None,
        };
        Ok(LoopyEvaluation {
            components,
            value,
            comparison,
        })
    }
}

/// The paper's game under rollover with `hands` hands a side: attacks only,
/// `x + y` taken modulo `n + 1` (a hand dies only at exactly 0).
pub fn rollover_rules(n: u32, hands: usize) -> Ruleset {
    let mut r = chopsticks_rules::Preset::Simple.ruleset();
    r.hands = vec![hands, hands];
    r.fingers = n + 1;
    r.overflow = chopsticks_rules::Overflow::Rollover;
    r
}

/// The rollover analogue of Table 1: the values of `(i|j)_n` for `1 ≤ i, j ≤ n`
/// (rows `i`), one hand each, each within `max_vertices` positions. Rows are
/// computed in parallel; `row_done` is called as each one is finished.
pub fn rollover_grid(
    n: u32,
    max_vertices: usize,
    row_done: Option<&(dyn Fn() + Sync)>,
) -> Result<Vec<Vec<Value>>, ValueError> {
    use rayon::prelude::*;
    let rules = rollover_rules(n, 1);
    (1..=n)
        .into_par_iter()
        .map(|i| {
            let row = (1..=n)
                .map(|j| {
                    let p = CgtPosition::new(vec![i], vec![j]);
                    Ok(loopy_value(&rules, &p, max_vertices)?.0)
                })
                .collect();
            if let Some(f) = row_done {
                f();
            }
            row
        })
        .collect()
}

/// Every side of two hands with at most `n` fingers a hand, a dead hand
/// written 0: `[a, b]` with `0 ≤ a ≤ b ≤ n`, not both dead; by `b`, then `a`
/// (so the sides with one live hand, `[0, b]`, come first in each group).
pub fn two_hand_sides(n: u32) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    for b in 1..=n {
        for a in 0..=b {
            out.push(vec![a, b]);
        }
    }
    out
}

/// The largest `n` of a two-hands table: `(n(n+3)/2)²` positions (4,225 at
/// n = 10, a graph of 4,355 vertices).
pub const MAX_TWO_HAND_N: u32 = 10;

/// The future-work rules of a two-hands table, added to the paper's game
/// (attacks only, cutoff, two hands a side).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TwoHandRules {
    /// Rollover: `x + y` taken modulo `n + 1`.
    pub rollover: bool,
    /// Splits between two live hands.
    pub transfer: bool,
    /// Revivals of a dead hand.
    pub divide: bool,
    /// Revivals only by halving an even hand (implies `divide`).
    pub even_divide: bool,
    /// Merges (a hand gives all its fingers to the other and dies).
    pub suicide: bool,
}

impl TwoHandRules {
    /// The ruleset at finger count `n` (`F = n + 1`).
    pub fn ruleset(&self, n: u32) -> Ruleset {
        let mut r = chopsticks_rules::Preset::Simple.ruleset();
        r.hands = vec![2, 2];
        r.fingers = n + 1;
        if self.rollover {
            r.overflow = chopsticks_rules::Overflow::Rollover;
        }
        r.transfer = self.transfer;
        r.divide = self.divide || self.even_divide;
        r.even_divide = self.even_divide;
        r.suicide = self.suicide;
        r
    }
}

/// The values of every position with two hands a side under `rules` (which
/// must have two hands a side; `n = F - 1`): row `k` is Left's side
/// `two_hand_sides(n)[k]`, column `l` Right's side `two_hand_sides(n)[l]`. One
/// graph and one joint side search serve all of them ([`loopy_values`]).
pub fn two_hand_table(rules: &Ruleset, max_vertices: usize) -> Result<Vec<Vec<Value>>, ValueError> {
    if rules.hands != [2, 2] {
        return Err(ValueError::Position(format!(
            "a two-hands table needs two players with two hands each, not {:?}",
            rules.hands
        )));
    }
    let sides = two_hand_sides(rules.fingers.saturating_sub(1));
    let positions: Vec<CgtPosition> = sides
        .iter()
        .flat_map(|l| sides.iter().map(|r| CgtPosition::new(l.clone(), r.clone())))
        .collect();
    let values = loopy_values(rules, &positions, max_vertices)?;
    Ok(values.chunks(sides.len()).map(<[Value]>::to_vec).collect())
}

/// The rollover analogue of Table 2: the value of `(1|1)_n`, one hand each.
pub fn rollover_one_one(n: u32, max_vertices: usize) -> Result<Value, ValueError> {
    let rules = rollover_rules(n, 1);
    Ok(loopy_value(&rules, &CgtPosition::new(vec![1], vec![1]), max_vertices)?.0)
}

#[cfg(test)]
mod tests {
    use super::{read_terms, terms, Term};

    #[test]
    fn terms_split_at_top_level_signs() {
        let t = terms(" #0 - #1+{0|-1} - over").unwrap();
        assert_eq!(
            t,
            vec![
                (false, "#0".to_string()),
                (true, "#1".to_string()),
                (false, "{0|-1}".to_string()),
                (true, "over".to_string()),
            ]
        );
        assert_eq!(
            terms("+-over").unwrap(),
            vec![(false, "+-over".to_string())]
        );
        // A unary minus stays in the term: `-1under` is the literal (-1) + under.
        assert_eq!(terms("-#0").unwrap(), vec![(false, "-#0".to_string())]);
        assert_eq!(
            terms("#0 - 1under + -1under").unwrap(),
            vec![
                (false, "#0".to_string()),
                (true, "1under".to_string()),
                (false, "-1under".to_string()),
            ]
        );
        assert!(terms("#0 +").is_err());
        assert!(terms("- -over").is_err());
        assert!(terms("- +over").is_err());
        assert!(terms("#0 + + #1").is_err());
        assert!(terms("#0 & 1").is_err());
        assert!(terms(&format!("{}1", "-".repeat(1000))).is_err());
        assert!(terms("{0|").is_err());
    }

    /// The printed forms with a negative offside or a negative pseudonumber read
    /// back (they were split at their minus signs once).
    #[test]
    fn printed_values_with_minus_signs_read_back() {
        for text in ["v & -3/4", "-1 & -2", "over & -1", "under & -1", "-1under"] {
            let read = read_terms(text, 0).unwrap();
            let [(false, Term::Game(v))] = &read[..] else {
                panic!("{text}: one positive game expected")
            };
            assert_eq!(v.to_string(), text);
        }
        // `-1under` is (-1) + under, so `0 + -1under + 1` is under.
        let read = read_terms("0 + -1under + 1", 0).unwrap();
        let [(false, Term::Game(v))] = &read[..] else {
            panic!("one game expected")
        };
        assert_eq!(v.to_string(), "under");
        // With a position, a subtracted `1under` is -(1under) = -1over.
        let read = read_terms("#0 - 1under", 1).unwrap();
        let (true, Term::Game(v)) = &read[1] else {
            panic!("a subtracted game expected")
        };
        assert_eq!(v.to_string(), "1under");
    }
}
