//! `value --json`: the canonical game value of an expression of positions and
//! CGSuite games, or the loopy value where play can cycle.
//!
//! [`value`] evaluates a [`Plan`] (an expression read and checked whole) and
//! returns the document; the command line prints it as JSON or writes its
//! text from it, and the Python package returns it. A loop-free expression is
//! evaluated by the short-game engine; one whose play can cycle (or a loopy
//! game written in CGSuite notation) by the loopy engine, within the same work
//! limit.

use chopsticks_cgt::{Answer, GameStore, Outcome};
use chopsticks_loopy::Stopper;
use chopsticks_rules::Ruleset;
use chopsticks_values::{Limits, LoopyEvaluation, Plan, ValueError};
use serde_json::{json, Value};
use thiserror::Error;

/// The longest value printed; longer ones (sums of many switches print
/// exponentially long) are `null` in the document (a loopy one is refused).
pub const MAX_PRINTED: u64 = 1 << 20;

/// Why a value cannot be given.
#[derive(Debug, Error)]
pub enum ValueReportError {
    /// From the short-game evaluation (positions, work, parsing).
    #[error(transparent)]
    Short(ValueError),
    /// From the loopy evaluation (graph size, work).
    #[error(transparent)]
    Loopy(ValueError),
    /// A value that is given but cannot be written or classified.
    #[error("{0}")]
    Unwritable(String),
    /// Rules that are not a game of two players.
    #[error(
        "game values need exactly 2 players (Left and Right), the ruleset has {0}: drop --players"
    )]
    Players(usize),
}

/// How a value is evaluated and what the document holds.
#[derive(Clone, Copy, Debug)]
pub struct ValueOptions {
    pub limits: Limits,
    /// Under rules whose play can cycle: at most this many positions in a
    /// component's game graph.
    pub max_vertices: usize,
    /// Also the uptimal form (`uptimal`, and `uptimal_note` when the search
    /// ran out of work).
    pub uptimal: bool,
    /// Also the birthday, the stops, the mean and the temperature.
    pub details: bool,
}

/// Refuses rules that are not a game of two players (a game value is Left's
/// and Right's), whatever the expression.
pub fn check_two_players(rules: &Ruleset) -> Result<(), ValueReportError> {
    match rules.players() {
        2 => Ok(()),
        n => Err(ValueReportError::Players(n)),
    }
}

/// A position of an expression whose size contradicts the variant id given
/// with it: positions carry their own `_n` and hands, and an id that names the
/// fingers (`f8`) or the hands (`h3`) must agree ([`size_mismatch`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeMismatch {
    Fingers {
        position: String,
        fingers: u32,
        said: u32,
    },
    Hands {
        position: String,
        hands: Vec<usize>,
        said: Vec<usize>,
    },
}

/// The first position of `plan` whose finger count (when `variant_id` names
/// one) or hands (when it names them and no hands are given otherwise) differ
/// from `base`, the ruleset the id reads as.
pub fn size_mismatch(
    plan: &Plan,
    base: &Ruleset,
    variant_id: &str,
    hands_given: bool,
) -> Option<SizeMismatch> {
    let part = |c: char| chopsticks_rules::variant_size_token(variant_id, c).is_some();
    if part('f') {
        if let Some(c) = plan
            .positions
            .iter()
            .find(|c| c.rules.fingers != base.fingers)
        {
            return Some(SizeMismatch::Fingers {
                position: c.text.trim().to_string(),
                fingers: c.rules.fingers,
                said: base.fingers,
            });
        }
    }
    if part('h') && !hands_given {
        if let Some(c) = plan.positions.iter().find(|c| c.rules.hands != base.hands) {
            return Some(SizeMismatch::Hands {
                position: c.text.trim().to_string(),
                hands: c.rules.hands.clone(),
                said: base.hands.clone(),
            });
        }
    }
    None
}

/// The outcome class in words.
pub fn outcome_words(o: Outcome) -> &'static str {
    match o {
        Outcome::L => "Left wins",
        Outcome::R => "Right wins",
        Outcome::N => "first player wins",
        Outcome::P => "second player wins",
    }
}

/// Who wins a short game when Left starts and when Right starts.
fn first_winners(o: Outcome) -> (&'static str, &'static str) {
    match o {
        Outcome::L => ("left", "left"),
        Outcome::R => ("right", "right"),
        Outcome::N => ("left", "right"),
        Outcome::P => ("right", "left"),
    }
}

/// How [`value`] tells its caller how far it is.
#[derive(Clone, Copy, Default)]
pub struct ValueProgress<'a> {
    /// The positions of the short-game evaluation evaluated so far.
    pub positions: Option<&'a dyn Fn(u64)>,
    /// The loopy evaluation begins (the short one, if any, is over).
    pub loopy: Option<&'a dyn Fn()>,
}

/// The document of `expression` (read into `plan`): its value, outcome and
/// components, or for a comparison whether it holds.
pub fn value(
    plan: &Plan,
    expression: &str,
    options: &ValueOptions,
    progress: ValueProgress<'_>,
) -> Result<Value, ValueReportError> {
    let loopy = || -> Result<Value, ValueReportError> {
        if let Some(begin) = progress.loopy {
            begin();
        }
        let e = chopsticks_loopy::with_work_limit(options.limits.max_work, || {
            plan.evaluate_loopy(options.max_vertices)
        })
        .map_err(ValueReportError::Loopy)?;
        loopy_value(expression, &e, options)
    };
    // Loopy games written in CGSuite notation (`over`, `{pass|*}`) are not short
    // games: the loopy engine reads them.
    if plan.short_expression().is_err() {
        return loopy();
    }
    let mut store = GameStore::new();
    let (components, answer) =
        match plan.evaluate_answer(&mut store, options.limits, progress.positions) {
            // Play can cycle: the value is a loopy game.
            Err(ValueError::Loop { .. }) => return loopy(),
            r => r.map_err(ValueReportError::Short)?,
        };
    let components: Vec<Value> = components
        .iter()
        .map(|c| {
            let o = store.outcome(c.value);
            let (left, right) = first_winners(o);
            component(
                &c.rules,
                &c.position,
                json!({
                    "value": store.format_within(c.value, MAX_PRINTED),
                    "outcome": o.to_string(),
                    "outcome_words": outcome_words(o),
                    "left_first": left,
                    "right_first": right,
                    "stopper": true,
                    "stopper_sided": true,
                }),
            )
        })
        .collect();
    let g = match answer {
        Answer::Truth(holds) => {
            let relation = plan
                .short_expression()
                .ok()
                .and_then(|e| e.relation())
                .map_or("", |r| r.symbol());
            return Ok(json!({
                "expression": expression,
                "relation": relation,
                "holds": holds,
                "components": components,
            }));
        }
        Answer::Game(g) => g,
        // A number that is not dyadic (`1/3`): a number, not a game played, so
        // without an outcome class, as a measure.
        Answer::Rational(r) => {
            return Ok(json!({
                "expression": expression,
                "value": r.to_string(),
                "outcome": null,
                "outcome_words": null,
                "left_first": null,
                "right_first": null,
                "stopper": true,
                "stopper_sided": true,
                "components": components,
            }));
        }
    };
    // A measure of a game (`G.Temperature`, `G.AtomicWeight`) is a value, not a
    // game to play: it has no outcome class.
    let measure = plan.short_expression().is_ok_and(|e| e.is_measure());
    let outcome = if measure {
        None
    } else {
        Some(store.value_outcome(&g).ok_or_else(|| {
            ValueReportError::Unwritable(
                "the outcome cannot be decided: the value's numbers are too large for the engine"
                    .into(),
            )
        })?)
    };
    let mut out = json!({
        "expression": expression,
        "value": store.format_value_within(&g, MAX_PRINTED),
        "outcome": outcome.map(|o| o.to_string()),
        "outcome_words": outcome.map(outcome_words),
        "left_first": outcome.map(|o| first_winners(o).0),
        "right_first": outcome.map(|o| first_winners(o).1),
        "stopper": true,
        "stopper_sided": true,
        "components": components,
    });
    if options.uptimal {
        // The uptimal search is bounded by the work limit too.
        let uptimal = store
            .with_work_limit(options.limits.max_work, |s| s.try_value_uptimal(&g))
            .map(|u| u.map(|(u, number)| u.text_with_number(&number)));
        out["uptimal"] = json!(uptimal.as_ref().ok().cloned().flatten());
        if let Err(e) = uptimal {
            out["uptimal_note"] = json!(format!("not found within the work limit ({e})"));
        }
    }
    if options.details {
        let birthday = store.value_birthday(&g);
        out["birthday"] = match u64::try_from(&birthday) {
            Ok(b) => json!(b),
            Err(_) => json!(birthday.to_string()),
        };
        let (left_stop, right_stop) = store.value_stops(&g);
        out["left_stop"] = json!(left_stop.to_string());
        out["right_stop"] = json!(right_stop.to_string());
        out["mean"] = json!(store.value_mean(&g).to_string());
        out["temperature"] = json!(store.value_temperature(&g).to_string());
    }
    Ok(out)
}

/// A position of the expression: where it stands and under which rules, with
/// `value` (an object: its value, outcome and kind) added.
fn component(
    rules: &Ruleset,
    position: &chopsticks_values::CgtPosition,
    mut value: Value,
) -> Value {
    if let Some(map) = value.as_object_mut() {
        for (key, v) in [
            ("position", json!(position.paper(rules.fingers))),
            ("n", json!(rules.fingers - 1)),
            ("fingers", json!(rules.fingers)),
            ("hands", json!(rules.hands)),
            ("variant", json!(rules.variant_id())),
            ("description", json!(rules.describe())),
            ("ruleset", json!(rules)),
        ] {
            map.insert(key.into(), v);
        }
    }
    value
}

/// What kind of loopy value it is, in words; for sides the bounded search
/// did not reduce, which ones and what was tried.
pub fn loopy_kind(v: &chopsticks_loopy::Value) -> String {
    if v.is_stopper() {
        return "a stopper".into();
    }
    if v.is_stopper_sided() {
        return "stopper-sided, not a stopper: onside & offside".into();
    }
    let which = match v.unreduced_sides().as_slice() {
        [one] => format!("the {}", one.name()),
        _ => "both sides".into(),
    };
    format!(
        "not a stopper; not reduced: {which} (tried: {}); printed as simplified graphs \
         of the same side values (onside & offside), not as canonical forms; whether \
         the game is stopper-sided is not decided",
        chopsticks_loopy::sides::tried()
    )
}

/// The JSON's `stopper_sided`: `true` when both sides of `v` were reduced to
/// stoppers, `None` (JSON `null`: not decided) when the bounded search left a
/// side unreduced; never `false`, since nothing here proves a game is not
/// stopper-sided.
pub fn stopper_sided(v: &chopsticks_loopy::Value) -> Option<bool> {
    v.is_stopper_sided().then_some(true)
}

/// The names of the sides of `v` the bounded search did not reduce to
/// stoppers (`"onside"`, `"offside"`).
pub fn not_reduced(v: &chopsticks_loopy::Value) -> Vec<&'static str> {
    v.unreduced_sides().into_iter().map(|s| s.name()).collect()
}

fn loopy_value(
    expression: &str,
    e: &LoopyEvaluation,
    options: &ValueOptions,
) -> Result<Value, ValueReportError> {
    let components: Vec<Value> = e
        .components
        .iter()
        .map(|c| {
            let o = c.value.outcome();
            component(
                &c.rules,
                &c.position,
                json!({
                "value": c.value.to_string(),
                "outcome": o.name(),
                "outcome_words": o.describe(),
                "left_first": o.left_starts().as_str(),
                "right_first": o.right_starts().as_str(),
                "stopper": c.value.is_stopper(),
                "stopper_sided": stopper_sided(&c.value),
                "not_reduced": not_reduced(&c.value),
                "positions": c.vertices,
                "cyclic": c.cyclic,
                }),
            )
        })
        .collect();
    if let Some((relation, holds)) = e.comparison {
        return Ok(json!({
            "expression": expression,
            "relation": relation.symbol(),
            "holds": holds,
            "components": components,
        }));
    }
    let text = e.value.to_string();
    if text.len() as u64 > MAX_PRINTED {
        return Err(ValueReportError::Unwritable(
            "the value is too long to print (more than 1,048,576 characters)".into(),
        ));
    }
    let outcome = e.value.outcome();
    let mut out = json!({
        "expression": expression,
        "value": text,
        "outcome": outcome.name(),
        "outcome_words": outcome.describe(),
        "left_first": outcome.left_starts().as_str(),
        "right_first": outcome.right_starts().as_str(),
        "stopper": e.value.is_stopper(),
        "stopper_sided": stopper_sided(&e.value),
        "not_reduced": not_reduced(&e.value),
        "kind": loopy_kind(&e.value),
        "components": components,
    });
    if options.details {
        // Stops of the sides that are stoppers: pseudonumbers.
        let stops = |s: Option<&Stopper>| {
            s.and_then(|s| s.stops().ok())
                .map(|(l, r)| [l.to_string(), r.to_string()])
        };
        let (onside, offside) = (stops(e.value.onside()), stops(e.value.offside()));
        if e.value.is_stopper() {
            if let Some([l, r]) = &onside {
                out["left_stop"] = json!(l);
                out["right_stop"] = json!(r);
            }
        } else {
            out["onside_stops"] = json!(onside);
            out["offside_stops"] = json!(offside);
        }
    }
    Ok(out)
}
