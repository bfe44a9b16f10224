//! The JSON API, in the shape of GamesmanUni's so that its clients can read it.
//!
//! ```text
//! GET /api/v1/                                       the games: [{id, name, type, gui}]
//! GET /api/v1/chopsticks/                            the game and its named variants
//! GET /api/v1/chopsticks/{variant}/                  a variant: canonical id, start position
//! GET /api/v1/chopsticks/{variant}/positions/?p=POS  a position's value and its moves, best first
//! GET /api/v1/chopsticks/{variant}/strategy          a checked winning strategy, or the traps of a draw
//! GET /api/v1/value?expr=EXPR[&variant=V]            a canonical game value (`chopsticks value`)
//! GET /healthz                                       "ok"
//! ```
//!
//! GamesmanUni's field names are kept as they are (`positionValue`, `remoteness`,
//! `moves[].moveValue`, `deltaRemoteness`, …) and a draw's remoteness is its sentinel
//! `-200`; fields of ours are added beside them, never renamed: `terminal`, `hands`,
//! `cgt` (the canonical value, for loop-free rules), each move's `kind` and `detail`
//! (the move as data). A variant is named by a variant id (`rollover.h3.f7.suicide`,
//! see `chopsticks_rules::Ruleset::from_variant_id`) and answered with its canonical
//! id. Positions are read in any notation and written in the variant's default one.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::Json;
use chopsticks_rules::{Notation, Position, PositionIndex, Preset, Ruleset};
use chopsticks_solve::strategy::{advice, seat_name, Advice};
use chopsticks_solve::{Outcome, Value};
use chopsticks_space::explore;
use serde::Deserialize;
use serde_json::{json, Value as Json_};

use crate::cache::SolutionCache;
use crate::error::ApiError;
use crate::values::{expression_value, position_value, Evaluations};

/// GamesmanUni's remoteness for a draw.
pub const DRAW_REMOTENESS: i64 = -200;

/// The longest position text read.
pub const MAX_POSITION_TEXT: usize = 256;

/// The game's id in paths.
pub const GAME: &str = "chopsticks";

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub cache: Arc<SolutionCache>,
    pub evaluations: Evaluations,
    /// The longest a request is answered in; then 503 (the work goes on).
    pub time_limit: std::time::Duration,
}

fn value_name(v: Value) -> &'static str {
    v.name()
}

/// The remoteness as the API gives it: a draw's is `-200`; a win or loss read
/// from a file saved without remoteness (`--no-remoteness`) has none: `null`.
fn remoteness(o: &Outcome) -> Option<i64> {
    match (o.value, o.remoteness) {
        (_, Some(r)) => Some(i64::from(r)),
        (Value::Draw, None) => Some(DRAW_REMOTENESS),
        (_, None) => None,
    }
}

fn rules_of(variant: &str) -> Result<Ruleset, ApiError> {
    Ruleset::from_variant_id(variant).map_err(|e| ApiError::unprocessable(e.to_string()))
}

fn write(position: &Position, rules: &Ruleset) -> Result<String, ApiError> {
    position
        .to_notation(rules, Notation::default_for(rules))
        .map_err(|e| ApiError::internal(e.to_string()))
}

/// `GET /api/v1/`
pub async fn games() -> Json<Json_> {
    Json(json!([{
        "id": GAME,
        "name": "Chopsticks",
        "type": "twoPlayer",
        "gui": "v3",
    }]))
}

/// `GET /api/v1/chopsticks/`
pub async fn game() -> Json<Json_> {
    let variants: Vec<Json_> = Preset::ALL
        .iter()
        .map(|p| {
            json!({
                "id": p.name(),
                "name": p.description(),
                "gui": "v3",
            })
        })
        .collect();
    Json(json!({
        "id": GAME,
        "name": "Chopsticks",
        "variants": variants,
        "allowCustomVariantCreation": true,
        "supportsWinBy": false,
        "instructions": "Each player starts with one finger up on every hand. On your turn, tap \
            one of your live hands on a live hand of your opponent: it gains your hand's \
            fingers, and dies when it reaches F (cutoff) or lands on exactly F (rollover). \
            Variants may allow tapping your own hands, moving fingers between your hands, \
            and reviving a dead hand. Whoever loses every hand loses (wins, in misère play).",
    }))
}

/// `GET /api/v1/chopsticks/{variant}/`
///
/// Besides GamesmanUni's fields: the `ruleset`, its number of `positions`, and
/// `refused`, the message its positions would be refused with here (too large for
/// the memory budget, or more than two players), or `null`.
pub async fn variant(
    State(state): State<AppState>,
    Path(variant): Path<String>,
) -> Result<Json<Json_>, ApiError> {
    let rules = rules_of(&variant)?;
    let start = write(&Position::start(&rules), &rules)?;
    let count = PositionIndex::new(&rules).ok().map(|i| i.count());
    let refused = state.cache.admit(&rules).err().map(|e| e.message);
    Ok(Json(json!({
        "id": rules.variant_id(),
        "name": rules.describe(),
        "startPosition": start,
        "autoguiStartPosition": start,
        "gui": "v3",
        "ruleset": rules,
        "positions": count,
        "refused": refused,
    })))
}

#[derive(Deserialize)]
pub struct PositionQuery {
    p: Option<String>,
}

/// `GET /api/v1/chopsticks/{variant}/positions/?p=POSITION`
pub async fn position(
    State(state): State<AppState>,
    Path(variant): Path<String>,
    Query(query): Query<PositionQuery>,
) -> Result<Json<Json_>, ApiError> {
    let rules = rules_of(&variant)?;
    let text = query
        .p
        .ok_or_else(|| ApiError::bad_request("missing parameter `p` (the position)"))?;
    if text.len() > MAX_POSITION_TEXT {
        return Err(ApiError::bad_request(format!(
            "the position is longer than {MAX_POSITION_TEXT} bytes"
        )));
    }
    let position =
        Position::parse(&text, &rules).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let solved = state.cache.get(rules).await?;
    let rules = &solved.rules;
    let damaged = |e: chopsticks_solve::SolveError| ApiError::internal(e.to_string());
    let outcome = solved.solution.outcome(&position).map_err(damaged)?;
    let moves = solved.solution.evaluate_moves(&position).map_err(damaged)?;
    // The best child remoteness for each move value: deltaRemoteness is measured
    // from it (fastest win, slowest loss).
    let best = |v: Value| -> Option<u32> {
        let children = moves
            .iter()
            .filter(|m| m.outcome.value == v)
            .filter_map(|m| m.outcome.remoteness);
        match v {
            Value::Win => children.min(),
            Value::Lose => children.max(),
            Value::Draw => None,
        }
    };
    let list = moves
        .iter()
        .map(|m| {
            // The child's outcome for its own mover: the opposite value, one ply less.
            let child = Outcome {
                value: m.outcome.value.flip(),
                remoteness: m.outcome.remoteness.map(|r| r - 1),
            };
            let delta = match (best(m.outcome.value), m.outcome.remoteness) {
                (Some(b), Some(r)) => i64::from(b.abs_diff(r)),
                _ => 0,
            };
            let text = m.mv.describe(rules);
            let to = write(&m.to, rules)?;
            Ok(json!({
                "move": text,
                "autoguiMove": text,
                "kind": m.mv.kind(),
                "detail": m.mv,
                "position": to,
                "autoguiPosition": to,
                "moveValue": value_name(m.outcome.value),
                "positionValue": value_name(child.value),
                "remoteness": remoteness(&child),
                "deltaRemoteness": delta,
            }))
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    let position_text = write(&position, rules)?;
    let cgt = position_value(&state.evaluations, rules, &position).await;
    Ok(Json(json!({
        "position": position_text,
        "autoguiPosition": position_text,
        "positionValue": value_name(outcome.value),
        "remoteness": remoteness(&outcome),
        "winby": 0,
        "terminal": position.is_terminal(rules),
        "hands": position.players(),
        "variant": rules.variant_id(),
        "cgt": cgt,
        "moves": list,
    })))
}

/// `GET /api/v1/chopsticks/{variant}/strategy`: what `chopsticks strategy` prints,
/// computed once per cached variant.
pub async fn strategy(
    State(state): State<AppState>,
    Path(variant): Path<String>,
) -> Result<Json<Json_>, ApiError> {
    let rules = rules_of(&variant)?;
    let solved = state.cache.get(rules).await?;
    let advice = solved
        .advice
        .get_or_init(|| {
            let solved = Arc::clone(&solved);
            async move {
                tokio::task::spawn_blocking(move || {
                    let start = solved.graph.index_of(&Position::start(&solved.rules));
                    advice(&solved.graph, &solved.solution, start, || {
                        explore(&solved.graph, start, &|_| {})
                            .reached
                            .iter()
                            .collect()
                    })
                    .map(Arc::new)
                    .map_err(|e| {
                        if solved.solution.has_remoteness() {
                            ApiError::internal(format!("internal error: {e}"))
                        } else {
                            ApiError::unprocessable(e)
                        }
                    })
                })
                .await
                .unwrap_or_else(|e| Err(ApiError::internal(format!("the strategy stopped: {e}"))))
            }
        })
        .await
        .clone()?;
    let start = solved
        .solution
        .outcome(&Position::start(&solved.rules))
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let mut out = json!({
        "variant": solved.rules.variant_id(),
        "startValue": value_name(start.value),
        "startRemoteness": remoteness(&start),
    });
    match &*advice {
        Advice::Win {
            seat,
            win_immediately,
            configurations,
            listed,
            positions_faced,
        } => {
            out["winner"] = json!(seat_name(*seat));
            out["winImmediately"] = json!(win_immediately);
            out["configurations"] = json!(configurations);
            out["listed"] = json!(listed);
            out["positionsFaced"] = json!(positions_faced);
        }
        Advice::Draw { avoid } => {
            out["winner"] = Json_::Null;
            out["avoid"] = avoid
                .iter()
                .map(|(c, n)| json!({"configuration": c, "opponentWinsIn": n}))
                .collect();
        }
    }
    Ok(Json(out))
}

#[derive(Deserialize)]
pub struct ValueQuery {
    expr: Option<String>,
    variant: Option<String>,
}

/// `GET /api/v1/value?expr=EXPR[&variant=VARIANT]`
pub async fn value(
    State(state): State<AppState>,
    Query(query): Query<ValueQuery>,
) -> Result<Json<Json_>, ApiError> {
    expression_value(&state.evaluations, query.expr, query.variant)
        .await
        .map(Json)
}
