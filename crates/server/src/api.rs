//! The JSON API, in the shape of GamesmanUni's so that its clients can read it.
//!
//! ```text
//! GET /api/v1/                                          the games: [{id, name, type, gui}]
//! GET /api/v1/chopsticks/                               the game and its listed variants
//! GET /api/v1/chopsticks/{variant}/                     a variant: id, name, start, AutoGUI theme
//! GET /api/v1/chopsticks/{variant}/positions/?p=POS     a position's values and its moves, best first
//! GET /api/v1/chopsticks/{variant}/instructions/        the variant's rules (Markdown)
//! GET /api/v1/chopsticks/{variant}/strategy             a checked winning strategy, or the traps of a draw
//!                                          ?format=svg  the same as a printable sheet (SVG)
//! GET /api/v1/chopsticks/{variant}/line?p=POS           the optimal line from a position   (crate::learn)
//! POST /api/v1/chopsticks/{variant}/review              a game record reviewed             (crate::learn)
//! GET /api/v1/chopsticks/{variant}/puzzles              puzzles, or the one at ?p=POS      (crate::learn)
//! GET /api/v1/chopsticks/rating                         a Glicko-2 rating after a puzzle   (crate::learn)
//! GET /api/v1/value?expr=EXPR[&variant=V]               a canonical game value (`chopsticks value`)
//! GET /healthz                                          "ok"
//! ```
//!
//! GamesmanUni's field names are kept as they are (`positionValue`, `remoteness`,
//! `moves[].moveValue`, `deltaRemoteness`, `winby`, `mex`, …) and a draw's
//! remoteness is its sentinel `-200`; fields of ours are added beside them, in the
//! vocabulary of the command line (docs/JSON.md; camelCase here, as GamesmanUni
//! writes its own): `terminal`, `player` (the player to move, numbered from 1),
//! `playerCount`, `players` (every player's hands and value), `hands` (Player 1
//! first), `moverFirst`, `cgt` (the canonical value, for loop-free rules), each
//! move's `kind`, `detail` (the move as data), `player`, `targetPlayer` and
//! `players`.
//!
//! Positions are named by [`SeatedPosition`] texts, `2_1112`: the seat to move,
//! then every seat's hands, Player 1 first, so that a client knows whose turn it
//! is in absolute terms; any notation of the command line (mover first) is read
//! too. The AutoGUI strings and theme come from [`crate::autogui`]. A variant is
//! named by a variant id (`rollover.h3.f7.suicide`, see
//! `chopsticks_rules::Ruleset::from_variant_id`) and answered with its canonical id
//! and one name, `Ruleset::describe`, everywhere.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chopsticks_learn::history::{evaluate, History, Repetitions};
use chopsticks_rules::{Notation, Position, PositionIndex, Ruleset, SeatedPosition};
use chopsticks_solve::strategy::Advice;
use chopsticks_solve::{Concept, Outcome, Value};
use serde::Deserialize;
use serde_json::{json, Value as Json_};

use crate::autogui::Layout;
use crate::background::Priority;
use crate::cache::{SolutionCache, Solved};
use crate::error::ApiError;
use crate::instructions;
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

impl AppState {
    /// How long a request waits for a computation of the cache: nine tenths of
    /// its time limit, so that the cache's 503, which says what is being
    /// computed, comes before the time limit's.
    pub fn wait(&self) -> std::time::Duration {
        self.time_limit * 9 / 10
    }

    /// When a request started now stops waiting for computations: a request
    /// that waits for two (a solve, then its strategy) shares one wait between
    /// them, so that the cache's 503 still comes before the time limit's.
    pub fn deadline(&self) -> std::time::Instant {
        std::time::Instant::now() + self.wait()
    }

    /// The solution of `rules` ([`SolutionCache::get`]).
    pub async fn solved(&self, rules: Ruleset) -> Result<Arc<Solved>, ApiError> {
        self.solved_by(rules, self.deadline()).await
    }

    /// The solution of `rules`, waited for until `deadline` at most.
    pub async fn solved_by(
        &self,
        rules: Ruleset,
        deadline: std::time::Instant,
    ) -> Result<Arc<Solved>, ApiError> {
        self.cache.get(rules, left(deadline)).await
    }
}

/// What is left until `deadline` (nothing once it passed).
pub fn left(deadline: std::time::Instant) -> std::time::Duration {
    deadline.saturating_duration_since(std::time::Instant::now())
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

pub(crate) fn rules_of(variant: &str) -> Result<Ruleset, ApiError> {
    Ruleset::from_variant_id(variant).map_err(|e| ApiError::unprocessable(e.to_string()))
}

fn seated_text(seated: &SeatedPosition, rules: &Ruleset) -> Result<String, ApiError> {
    seated
        .to_text(rules)
        .map_err(|e| ApiError::internal(e.to_string()))
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

/// The variants listed by `GET /api/v1/chopsticks/`: the presets, then three and
/// four players and teams (any other variant id works too).
pub const LISTED: [&str; 7] = [
    "standard",
    "rollover",
    "rahman",
    "simple",
    "standard.p3",
    "standard.p4",
    "standard.p4.teams",
];

/// `GET /api/v1/chopsticks/`
pub async fn game() -> Json<Json_> {
    let variants: Vec<Json_> = LISTED
        .iter()
        .map(|id| {
            let rules = Ruleset::from_variant_id(id).expect("listed variants are valid");
            json!({
                "id": rules.variant_id(),
                "name": rules.describe(),
                "gui": "v3",
                "playerCount": rules.players(),
            })
        })
        .collect();
    Json(json!({
        "id": GAME,
        "name": "Chopsticks",
        "variants": variants,
        "switches": switches_json(),
        "choices": choices_json(),
        "levels": chopsticks_learn::Level::ALL.iter().map(|l| json!({
            "name": l.name(),
            "label": l.label(),
            "best": l.best_probability(),
            "description": l.description(),
        })).collect::<Vec<_>>(),
        "allowCustomVariantCreation": true,
        "supportsWinBy": false,
        "instructions": "Each player starts with one finger up on every hand. On your turn, tap \
            one of your live hands on a live hand of your opponent: it gains your hand's \
            fingers, and dies when it reaches F (cutoff) or lands on exactly F (rollover). \
            Variants may allow tapping your own hands, moving fingers between your hands, \
            and reviving a dead hand. Whoever loses every hand loses (wins, in misère play). \
            Each variant's rules: /api/v1/chopsticks/{variant}/instructions/",
    }))
}

/// The rule switches of `chopsticks_rules::options`, for a rule picker: each
/// with its `token` (the variant id's word, `no-` + it when off), the ruleset's
/// `field`, a `label`, and what it sets besides itself on (`on_sets`) and off
/// (`off_sets`), as `[token, on]` pairs.
fn switches_json() -> Json_ {
    chopsticks_rules::options::switches()
        .map(|s| {
            json!({
                "token": s.token,
                "field": s.field,
                "label": s.label,
                "help": s.help,
                "on_sets": s.on_sets,
                "off_sets": s.off_sets,
            })
        })
        .collect()
}

/// The rule choices (overflow, pass-splits): each with its `name`, the
/// ruleset's `field`, a `label` and its `values` (`value` as in the ruleset,
/// its `token` in a variant id, a `label`).
fn choices_json() -> Json_ {
    chopsticks_rules::options::choices()
        .map(|c| {
            json!({
                "name": c.name,
                "field": c.field,
                "label": c.label,
                "values": c.values.iter().map(|v| json!({
                    "value": v.value,
                    "token": v.token,
                    "label": v.label,
                })).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// `GET /api/v1/chopsticks/{variant}/`
///
/// Besides GamesmanUni's fields: the `ruleset`, its number of `positions`, the
/// number of `players`, the solution `concept` (`two-player`, `coalition` or
/// `teams`), and `refused`, the message its positions would be refused with here
/// (too large for the memory budget), or `null`.
pub async fn variant(
    State(state): State<AppState>,
    Path(variant): Path<String>,
) -> Result<Json<Json_>, ApiError> {
    let rules = rules_of(&variant)?;
    let start = SeatedPosition::start(&rules);
    let layout = Layout::of(&rules);
    let count = PositionIndex::new(&rules).ok().map(|i| i.count());
    let refused = state.cache.admit(&rules).err().map(|e| e.message);
    Ok(Json(json!({
        "id": rules.variant_id(),
        "name": rules.describe(),
        "startPosition": seated_text(&start, &rules)?,
        "autoguiStartPosition": layout.position(&rules, &start),
        "imageAutoGUIData": layout.image_data(),
        "gui": "v3",
        "ruleset": rules,
        "playerCount": rules.players(),
        "concept": Concept::of(&rules).name(),
        "positions": count,
        "refused": refused,
    })))
}

#[derive(Deserialize)]
pub struct InstructionsQuery {
    locale: Option<String>,
}

/// `GET /api/v1/chopsticks/{variant}/instructions/?locale=en-US`: the variant's
/// rules as Markdown (English whatever the locale).
pub async fn instructions(
    Path(variant): Path<String>,
    Query(query): Query<InstructionsQuery>,
) -> Result<Json<Json_>, ApiError> {
    let rules = rules_of(&variant)?;
    if let Some(locale) = &query.locale {
        if !instructions::is_locale(locale) {
            return Err(ApiError::bad_request(format!(
                "`locale` must be a language tag such as en-US (letters and digits in parts \
                 of at most 8, joined by `-`, {} characters at most)",
                instructions::MAX_LOCALE
            )));
        }
    }
    Ok(Json(json!({
        "instructions": instructions::markdown(&rules),
        "locale": "en-US",
        "variant": rules.variant_id(),
    })))
}

#[derive(Deserialize)]
pub struct PositionQuery {
    p: Option<String>,
    /// The game's positions before `p`, oldest first, comma-separated seated
    /// ids (`1_1111,2_1211`): the values are then the game's, its history and
    /// its repetition rule counted.
    history: Option<String>,
    /// When the game is drawn by repetition: a count (3, threefold, by
    /// default) or `none`.
    repetitions: Option<String>,
}

/// The most positions a game's history may hold.
pub const MAX_HISTORY: usize = 2_000;

/// Whether a text that is not a position looks like an AutoGUI board string
/// (`1_f---f---…`, `2_...~P1~1~1`): a side prefix followed by board characters.
fn looks_like_autogui(text: &str) -> bool {
    text.split_once('_')
        .is_some_and(|(side, board)| matches!(side, "1" | "2") && board.contains(['f', '~', '.']))
}

/// An outcome as a seat's entry: `{"value", "remoteness"}`.
fn outcome_json(o: &Outcome) -> Json_ {
    json!({"value": value_name(o.value), "remoteness": remoteness(o)})
}

/// Writes a configuration as `configuration_json` makes it, `[[1,2],[0,1]]`:
/// its text is already that list's items (numbers, commas and brackets), so it
/// is copied inside brackets; any other text is read and written as JSON.
fn configuration_into(out: &mut String, text: &str) -> Result<(), ApiError> {
    if !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || b"[],".contains(&b))
    {
        out.push('[');
        out.push_str(text);
        out.push(']');
        return Ok(());
    }
    out.push_str(&configuration_json(text)?.to_string());
    Ok(())
}

/// A configuration of the strategy as arrays of hands (`null` for any value).
fn configuration_json(text: &str) -> Result<Json_, ApiError> {
    chopsticks_learn::sheet::parse_configuration(text)
        .map(|c| json!(c))
        .map_err(|e| ApiError::internal(e.to_string()))
}

/// GamesmanUni's fields that this server does not compute, with the values that
/// mean "not used": no win-by count, no Grundy value, no pure-draw analysis.
fn unused_fields(entry: &mut Json_) {
    entry["winby"] = json!(0);
    entry["mex"] = json!("");
    entry["drawLevel"] = json!(-1);
    entry["drawRemoteness"] = json!(-1);
}

/// `GET /api/v1/chopsticks/{variant}/positions/?p=POSITION`
pub async fn position(
    State(state): State<AppState>,
    Path(variant): Path<String>,
    Query(query): Query<PositionQuery>,
) -> Result<Response, ApiError> {
    let text = query
        .p
        .ok_or_else(|| ApiError::bad_request("missing parameter `p` (the position)"))?;
    if text.len() > MAX_POSITION_TEXT {
        return Err(ApiError::bad_request(format!(
            "the position is longer than {MAX_POSITION_TEXT} bytes"
        )));
    }
    let in_game = query
        .history
        .as_deref()
        .is_some_and(|h| !h.trim().is_empty())
        || query.repetitions.is_some();
    if !in_game {
        if let Some(bytes) = state.cache.answered(&variant, &text) {
            return Ok(json_bytes(bytes));
        }
    }
    let rules = rules_of(&variant)?;
    let seated = SeatedPosition::parse(&text, &rules).map_err(|e| {
        let mut message = e.to_string();
        if looks_like_autogui(&text) {
            message.push_str(
                " (this is an AutoGUI board, an `autoguiPosition`; ask for a position by its \
                 `position` id, such as 1_1111)",
            );
        }
        ApiError::unprocessable(message)
    })?;
    let repetitions = match &query.repetitions {
        None => Repetitions::default(),
        Some(text) => Repetitions::parse(text)
            .map_err(|e| ApiError::bad_request(format!("parameter `repetitions`: {e}")))?,
    };
    let mut positions = Vec::new();
    if let Some(list) = query.history.as_deref().filter(|h| !h.trim().is_empty()) {
        for (k, item) in list.split(',').enumerate() {
            if k >= MAX_HISTORY {
                return Err(ApiError::bad_request(format!(
                    "the history holds more than {MAX_HISTORY} positions"
                )));
            }
            positions.push(SeatedPosition::parse(item.trim(), &rules).map_err(|e| {
                ApiError::unprocessable(format!("history, position {}: {e}", k + 1))
            })?);
        }
    }
    positions.push(seated.clone());
    let history = History::from_positions(positions, repetitions).expect("not empty");
    history
        .check_moves(&rules)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let solved = state.solved(rules).await?;
    let answer = position_answer(&state, &solved, &history).await?;
    let bytes =
        Bytes::from(serde_json::to_vec(&answer).map_err(|e| ApiError::internal(e.to_string()))?);
    // A value the evaluation slots were too busy for is not kept, nor a game's.
    if !in_game && answer["cgt"].get("error").is_none() {
        state
            .cache
            .remember(&variant, &text, &solved, bytes.clone());
    }
    Ok(json_bytes(bytes))
}

/// A JSON answer from bytes already serialised.
fn json_bytes(bytes: Bytes) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        bytes,
    )
        .into_response()
}

/// What the positions endpoint answers for the current position of a game:
/// every value is the game's ([`chopsticks_learn::history`]), which for a
/// game without history is the table's.
async fn position_answer(
    state: &AppState,
    solved: &Arc<Solved>,
    history: &History,
) -> Result<Json_, ApiError> {
    let rules = &solved.rules;
    let seated = history.current();
    let position = seated.position();
    // Only a saved file's table can fail to be read (a damaged block).
    let damaged = |e: chopsticks_learn::LearnError| ApiError::unavailable(e.to_string());
    if solved.needs_line_checks() {
        // Reads of a file (from disk when cold): on a thread of its own, not
        // on one of the few that serve every connection.
        let (checking, at) = (Arc::clone(solved), position.clone());
        crate::background::run(Priority::Answer, move || checking.check_lines(&at)).await?;
    }
    let values = if history.len() > 1 {
        let (solving, game) = (Arc::clone(solved), history.clone());
        crate::background::run(Priority::Answer, move || {
            Ok(evaluate(
                &solving.solution,
                &game,
                crate::learn::HISTORY_BOUND,
            ))
        })
        .await?
    } else {
        evaluate(&solved.solution, history, crate::learn::HISTORY_BOUND)
    }
    .map_err(damaged)?;
    let outcome = values.mover(seated.turn());
    let moves = &values.moves;
    let layout = Layout::of(rules);
    let move_refs: Vec<&chopsticks_rules::Move> = moves.iter().map(|m| &m.mv).collect();
    let autogui_moves = layout.moves(seated, &move_refs, rules);
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
    let earlier = |o: &Outcome| Outcome {
        value: o.value,
        remoteness: o.remoteness.map(|r| r.saturating_sub(1)),
    };
    let list = moves
        .iter()
        .zip(autogui_moves)
        .map(|(m, autogui_move)| {
            let child = &m.to;
            // Every seat's value of the position after the move.
            let child_seats: Vec<Outcome> = m.seats.iter().map(earlier).collect();
            let child_outcome = child_seats[child.turn()];
            let delta = match (best(m.outcome.value), m.outcome.remoteness) {
                (Some(b), Some(r)) => i64::from(b.abs_diff(r)),
                _ => 0,
            };
            let text = seated.move_name(rules, &m.mv);
            let mut entry = json!({
                "move": text,
                "order": m.index,
                "autoguiMove": autogui_move,
                "kind": m.mv.kind(),
                "detail": m.mv,
                "player": seated.turn() + 1,
                "position": seated_text(child, rules)?,
                "autoguiPosition": layout.position(rules, child),
                "moveValue": value_name(m.outcome.value),
                "moveRemoteness": remoteness(&m.outcome),
                "positionValue": value_name(child_outcome.value),
                "remoteness": remoteness(&child_outcome),
                "deltaRemoteness": delta,
                "players": child_seats.iter().enumerate().map(|(seat, o)| {
                    let mut entry = outcome_json(o);
                    entry["player"] = json!(seat + 1);
                    entry
                }).collect::<Vec<_>>(),
            });
            if m.repetition {
                entry["repetition"] = json!(true);
            }
            if m.outcome != m.table {
                entry["tableMoveValue"] = json!(value_name(m.table.value));
                entry["tableMoveRemoteness"] = json!(remoteness(&m.table));
            }
            if let chopsticks_rules::Move::Tap { target, .. } = m.mv {
                entry["targetPlayer"] = json!(seated.seat_of(target) + 1);
            }
            unused_fields(&mut entry);
            Ok(entry)
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    let cgt = position_value(&state.evaluations, rules, position).await;
    let seats = seated
        .hands_by_seat()
        .into_iter()
        .zip(&values.seats)
        .enumerate()
        .map(|(seat, (hands, o))| {
            let mut entry = json!({
                "player": seat + 1,
                "alive": hands.iter().any(|&v| v != 0),
                "hands": hands,
                "value": value_name(o.value),
                "remoteness": remoteness(o),
            });
            if rules.teams {
                entry["team"] = json!(seat % 2 + 1);
            }
            entry
        })
        .collect::<Vec<_>>();
    let mut answer = json!({
        "position": seated_text(seated, rules)?,
        "autoguiPosition": layout.position(rules, seated),
        "positionValue": value_name(outcome.value),
        "remoteness": remoteness(&outcome),
        "terminal": position.is_terminal(rules),
        "player": seated.turn() + 1,
        "playerCount": rules.players(),
        "concept": solved.solution.concept().name(),
        "moverFirst": write(position, rules)?,
        "hands": seated.hands_by_seat(),
        "players": seats,
        "variant": rules.variant_id(),
        "cgt": cgt,
        "moves": list,
    });
    if history.len() > 1 || history.repetitions() != Repetitions::default() {
        let table = values.table[seated.turn()];
        answer["game"] = json!({
            "plies": history.len() - 1,
            "repetitions": history.repetitions().word(),
            "timesSeen": history.times_seen(seated),
            "over": values.end,
            "exact": values.exact,
            "tableValue": value_name(table.value),
            "tableRemoteness": remoteness(&table),
        });
    }
    unused_fields(&mut answer);
    Ok(answer)
}

#[derive(Deserialize)]
pub struct StrategyQuery {
    format: Option<String>,
}

/// Reads a `format` parameter: `json` (the default) or `svg`; whether SVG is
/// asked for.
pub fn wants_svg(format: Option<&str>) -> Result<bool, ApiError> {
    match format {
        None | Some("json") => Ok(false),
        Some("svg") => Ok(true),
        Some(f) => Err(ApiError::bad_request(format!(
            "`format` is json or svg, not `{f}`"
        ))),
    }
}

/// The largest strategy sheet drawn as SVG; a larger one is refused (413) with
/// its estimated size, before it is drawn.
pub const MAX_SHEET_SVG: u64 = 64 << 20;

/// The configurations of a strategy written per chunk of its JSON answer.
const STRATEGY_CHUNK: usize = 512;

/// `GET /api/v1/chopsticks/{variant}/strategy`: what `chopsticks strategy` prints,
/// computed once per variant (a computation of the cache) and streamed, a few
/// hundred configurations at a time, so that a strategy of any length is
/// answered in bounded memory; with `format=svg`, the printable sheet of it
/// (`chopsticks strategy --svg`), sized first: at most [`MAX_SHEET_SVG`], its
/// bytes reserved from the memory budget while it is drawn and sent.
pub async fn strategy(
    State(state): State<AppState>,
    Path(variant): Path<String>,
    Query(query): Query<StrategyQuery>,
) -> Result<Response, ApiError> {
    let rules = rules_of(&variant)?;
    let svg = wants_svg(query.format.as_deref())?;
    let deadline = state.deadline();
    let solved = state.solved_by(rules, deadline).await?;
    let advice = state.cache.advice(&solved, left(deadline)).await?;
    let id = solved.rules.variant_id();
    if svg {
        let rules = solved.rules.clone();
        let sized = Arc::clone(&advice);
        let estimate = crate::background::run(Priority::Computation, move || {
            chopsticks_learn::sheet::Sheet::svg_estimate(&rules, &sized)
                .map_err(|e| ApiError::internal(e.to_string()))
        })
        .await?;
        if estimate > MAX_SHEET_SVG {
            return Err(ApiError::too_large(format!(
                "the strategy sheet of {id} would be about {} ({} cards); sheets of at most {} \
                 are drawn here: read the strategy as JSON, or draw it with `chopsticks \
                 strategy --variant {id} --svg FILE`",
                chopsticks_space::human_bytes(estimate),
                advice.len(),
                chopsticks_space::human_bytes(MAX_SHEET_SVG)
            )));
        }
        // The cards laid out, the text drawn, and its copy being sent.
        let reserved = state.cache.reserve_answer(
            estimate.saturating_mul(3),
            &format!("drawing the strategy sheet of {id}"),
        )?;
        let rules = solved.rules.clone();
        // The reservation goes with the drawing: a client that hangs up does
        // not free what a drawing still under way holds.
        let (body, reserved) = crate::background::run(Priority::Computation, move || {
            let drawn =
                chopsticks_learn::sheet::Sheet::from_advice(&rules, &advice).map(|s| s.svg());
            Ok((drawn, reserved))
        })
        .await?;
        let body = body.map_err(|e| ApiError::internal(e.to_string()))?;
        return Ok((
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("image/svg+xml"),
            )],
            reserved_body(Bytes::from(body), reserved),
        )
            .into_response());
    }
    let start = solved
        .solution
        .outcome(&Position::start(&solved.rules))
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let start_seats = solved
        .solution
        .seat_outcomes(&Position::start(&solved.rules))
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let mut out = json!({
        "variant": id,
        "concept": solved.solution.concept().name(),
        "startValue": value_name(start.value),
        "startRemoteness": remoteness(&start),
        "startPlayers": start_seats.iter().enumerate().map(|(seat, o)| {
            let mut entry = outcome_json(o);
            entry["player"] = json!(seat + 1);
            entry
        }).collect::<Vec<_>>(),
    });
    let list = match &*advice {
        Advice::Win {
            seat,
            win_immediately,
            listed,
            positions_faced,
            ..
        } => {
            out["player"] = json!(seat + 1);
            out["winImmediately"] = json!(win_immediately);
            out["listed"] = json!(listed);
            out["positionsFaced"] = json!(positions_faced);
            "configurations"
        }
        Advice::Draw { .. } => {
            out["player"] = Json_::Null;
            "avoid"
        }
    };
    // The document's other keys, then its list, streamed.
    let mut head = serde_json::to_string(&out).map_err(|e| ApiError::internal(e.to_string()))?;
    head.pop(); // the closing brace
    head.push_str(&format!(",\"{list}\":["));
    // The state: the head not yet sent, and the first configuration of the
    // next chunk (`None` once the closing brackets are sent, or after an error).
    let chunks = futures_util::stream::unfold(
        (Some(head), Some(0usize), advice),
        |(head, next, advice)| async move {
            if let Some(head) = head {
                return Some((Ok(Bytes::from(head)), (None, next, advice)));
            }
            let from = next?;
            let total = advice.len();
            let to = (from + STRATEGY_CHUNK).min(total);
            let mut chunk = String::new();
            for k in from..to {
                if k > 0 {
                    chunk.push(',');
                }
                let written = match &*advice {
                    Advice::Win { configurations, .. } => {
                        configuration_into(&mut chunk, &configurations[k])
                    }
                    Advice::Draw { avoid } => {
                        chunk.push_str("{\"configuration\":");
                        configuration_into(&mut chunk, &avoid[k].0).map(|()| {
                            chunk.push_str(&format!(",\"opponentWinsIn\":{}}}", avoid[k].1))
                        })
                    }
                };
                if let Err(e) = written {
                    return Some((Err(e), (None, None, advice)));
                }
            }
            if to == total {
                chunk.push_str("]}");
            }
            // The other connections' turn between chunks: a client that reads
            // fast does not hold a thread of the server.
            tokio::task::yield_now().await;
            Some((
                Ok(Bytes::from(chunk)),
                (None, (to < total).then_some(to), advice),
            ))
        },
    );
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        axum::body::Body::from_stream(chunks),
    )
        .into_response())
}

/// A body of `bytes` that holds `reserved` until it is sent or abandoned: the
/// reservation is given back when the body is asked for its next chunk after
/// `bytes` (hyper asks once it has written them) or dropped.
pub fn reserved_body(bytes: Bytes, reserved: crate::cache::Reserved) -> axum::body::Body {
    axum::body::Body::from_stream(futures_util::stream::unfold(
        (Some(bytes), Some(reserved)),
        |(bytes, reserved)| async move {
            let bytes = bytes?;
            Some((Ok::<_, ApiError>(bytes), (None, reserved)))
        },
    ))
}

/// `GET /api/v1/server`: the memory budget, what is accounted to it, and every
/// computation kept or under way (what, of which variant, done or not, bytes,
/// seconds since it started), for whoever runs the server.
pub async fn server(State(state): State<AppState>) -> Json<Json_> {
    let cache = &state.cache;
    Json(json!({
        "budget": cache.budget(),
        "used": cache.used(),
        "answers": cache.answers(),
        "requestTimeLimit": state.time_limit.as_secs_f64(),
        "computations": cache.computations().iter().map(|c| json!({
            "kind": c.kind.name(),
            "variant": c.variant,
            "done": c.done,
            "bytes": c.bytes,
            "seconds": (c.seconds * 10.0).round() / 10.0,
        })).collect::<Vec<_>>(),
        "saved": cache.saved_ids(),
    }))
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
