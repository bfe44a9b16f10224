//! Combinatorial game values over HTTP: the canonical value of a position of a
//! loop-free variant (shown beside its win/lose/draw value), and `GET
//! /api/v1/value?expr=…`, the command line's `chopsticks value`.
//!
//! The model: a two-player Chopsticks position is a partizan game once we name the
//! player to move *Left* and the other *Right*; its canonical value (CGSuite
//! notation) and outcome class then say who wins whoever starts, and the values of
//! positions add up as games played side by side (team play). Only attack-only
//! cutoff rules (the paper's Simple Chopsticks, any hands and fingers) are certainly
//! loop-free, so only they get a value with every position.
//!
//! Every evaluation runs on a blocking thread within a work limit far below the
//! command line's ([`SERVER_LIMITS`]), and at most [`MAX_EVALUATIONS`] run at once;
//! beyond that the request is answered as busy (429), not queued.

use std::sync::Arc;

use chopsticks_cgt::{Answer, GameStore};
use chopsticks_rules::{Position, Preset, Ruleset};
use chopsticks_values::{is_attack_only, value_with, CgtPosition, Limits, Plan, ValueError};
use serde_json::{json, Value as Json_};
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// Limits of one evaluation on the server: about a tenth of a second of work.
pub const SERVER_LIMITS: Limits = Limits {
    max_positions: 2_000_000,
    max_work: 1 << 21,
};

/// Evaluations running at once.
pub const MAX_EVALUATIONS: usize = 4;

/// The longest expression read by `/api/v1/value`.
pub const MAX_EXPRESSION_TEXT: usize = 1000;

/// The longest value printed; longer ones are summarised.
const MAX_PRINTED: u64 = 4096;

/// The evaluation slots.
#[derive(Clone)]
pub struct Evaluations {
    slots: Arc<Semaphore>,
}

impl Default for Evaluations {
    fn default() -> Self {
        Evaluations {
            slots: Arc::new(Semaphore::new(MAX_EVALUATIONS)),
        }
    }
}

impl Evaluations {
    /// Runs `f` on a thread of its own (see [`crate::background`]) when a slot is
    /// free, else answers busy.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let slots = Arc::clone(&self.slots);
        crate::background::run_admitted(
            crate::background::Priority::Answer,
            move || {
                slots.try_acquire_owned().map_err(|_| {
                    ApiError::busy(
                        "every evaluation slot of this server is busy; try again shortly",
                    )
                })
            },
            move |permit| {
                let _permit = permit;
                f()
            },
        )
        .await
    }
}

/// Whether positions of `rules` get a canonical value: two players, loop-free rules.
pub fn has_values(rules: &Ruleset) -> bool {
    rules.players() == 2 && is_attack_only(rules)
}

fn value_json(store: &mut GameStore, g: chopsticks_cgt::GameId) -> Json_ {
    let text = store
        .format_within(g, MAX_PRINTED)
        .unwrap_or_else(|| format!("(a game of birthday {})", store.birthday(g)));
    json!({"value": text, "outcome": store.outcome(g).to_string()})
}

/// The `cgt` field of a position: its value with Left the player to move, or `null`
/// with a note when the rules are not loop-free or the value is too large here.
pub async fn position_value(
    evaluations: &Evaluations,
    rules: &Ruleset,
    position: &Position,
) -> Json_ {
    if !has_values(rules) {
        return Json_::Null;
    }
    let players = position.players();
    let cgt = CgtPosition::new(players[0].clone(), players[1].clone());
    let paper = cgt.paper(rules.fingers);
    let rules = rules.clone();
    let answer = evaluations
        .run(move || {
            let mut store = GameStore::new();
            let g = value_with(&mut store, &rules, &cgt, SERVER_LIMITS, None)
                .map_err(|e| ApiError::too_large(e.to_string()))?;
            Ok(value_json(&mut store, g))
        })
        .await;
    match answer {
        Ok(mut v) => {
            v["paper"] = json!(paper);
            v["left"] = json!("the player to move");
            v
        }
        Err(e) => json!({"paper": paper, "error": e.message}),
    }
}

/// `GET /api/v1/value?expr=…&variant=…`: `chopsticks value EXPR` with the rules of
/// the variant (default `simple`).
pub async fn expression_value(
    evaluations: &Evaluations,
    expression: Option<String>,
    variant: Option<String>,
) -> Result<Json_, ApiError> {
    let text = expression.ok_or_else(|| {
        ApiError::bad_request("missing parameter `expr` (a position or CGSuite expression)")
    })?;
    if text.len() > MAX_EXPRESSION_TEXT {
        return Err(ApiError::bad_request(format!(
            "the expression is longer than {MAX_EXPRESSION_TEXT} bytes"
        )));
    }
    let rules = match variant {
        Some(v) => {
            Ruleset::from_variant_id(&v).map_err(|e| ApiError::unprocessable(e.to_string()))?
        }
        None => Preset::Simple.ruleset(),
    };
    let variant = rules.variant_id();
    evaluations
        .run(move || {
            let mut store = GameStore::new();
            let (components, answer) = Plan::new(&rules, None, &text)
                .and_then(|plan| plan.evaluate_answer(&mut store, SERVER_LIMITS, None))
                .map_err(|e| match e {
                    ValueError::Work(_)
                    | ValueError::TooLarge { .. }
                    | ValueError::Estimated { .. } => {
                        ApiError::too_large(format!("{e} (this server's limit)"))
                    }
                    ValueError::Parse { ref error, .. } if error.work_limit.is_some() => {
                        ApiError::too_large(format!("{e} (this server's limit)"))
                    }
                    e => ApiError::unprocessable(e.to_string()),
                })?;
            let mut out = match answer {
                // A comparison (`^ <= *`): whether it holds.
                Answer::Truth(holds) => json!({ "holds": holds }),
                // A number that is not dyadic (`1/3`): no outcome class.
                Answer::Rational(r) => json!({ "value": r.to_string(), "outcome": null }),
                Answer::Game(v) => match v.in_arena() {
                    Some(g) => value_json(&mut store, g),
                    None => json!({
                        "value": store.format_value_within(&v, MAX_PRINTED),
                        "outcome": store.value_outcome(&v).map(|o| o.to_string()),
                    }),
                },
            };
            out["expression"] = json!(text);
            out["variant"] = json!(variant);
            out["components"] = components
                .iter()
                .map(|c| {
                    let mut v = value_json(&mut store, c.value);
                    v["position"] = json!(c.text.trim());
                    v
                })
                .collect();
            Ok(out)
        })
        .await
}
