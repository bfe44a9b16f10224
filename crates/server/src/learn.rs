//! Learning endpoints: optimal lines, game reviews, puzzles and the printable
//! strategy sheet, from `chopsticks-learn`.
//!
//! ```text
//! GET  /api/v1/chopsticks/{variant}/line?p=POS          the optimal line from a position
//! POST /api/v1/chopsticks/{variant}/review              a game record (text) reviewed
//! GET  /api/v1/chopsticks/{variant}/review?record=TEXT  the same, for short records
//! GET  /api/v1/chopsticks/{variant}/puzzles?count=N&seed=S&difficulty=D&kind=K
//!                                                       puzzles chosen by a seed
//! GET  /api/v1/chopsticks/{variant}/puzzles?…&format=svg[&page=K]
//!                                                       the chosen puzzles as a worksheet
//! GET  /api/v1/chopsticks/{variant}/puzzles?p=POS       the puzzle at a position
//! GET  /api/v1/chopsticks/{variant}/puzzles?p=POS&played=M1,M2,…
//!                                                       the puzzle with the player's
//!                                                       moves so far judged (`progress`)
//! GET  /api/v1/chopsticks/rating?rating=R&deviation=D&volatility=V&puzzle=P&solved=B
//!                                                       a player's Glicko-2 rating after
//!                                                       a puzzle
//! GET  /api/v1/chopsticks/{variant}/strategy?format=svg the strategy sheet (SVG)
//! ```
//!
//! The answers are `chopsticks-learn`'s reports with their keys in camelCase,
//! as the rest of the API writes its own fields (`bestLine`, `startValue`);
//! values are `{"value", "remoteness"}` as the command line's `--json` writes
//! them (a draw's remoteness `null`, not GamesmanUni's `-200`: these are not
//! GamesmanUni's fields). Every line is checked against the rules first for a
//! saved solution not checked whole, as the positions endpoint checks what it
//! shows. The work runs on a blocking thread.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chopsticks_learn::playout::follow;
use chopsticks_learn::puzzles::{puzzle_at_seated, view, view_seated, Filter};
use chopsticks_learn::rating::Rating;
use chopsticks_learn::record::GameRecord;
use chopsticks_learn::worksheet::Worksheet;
use chopsticks_learn::{optimal_line, review_within, Checker, Difficulty, PuzzleKind};
use chopsticks_rules::SeatedPosition;
use serde::Deserialize;
use serde_json::{json, Value as Json_};

use crate::api::{left, rules_of, wants_svg, AppState, MAX_POSITION_TEXT};
use crate::cache::Solved;
use crate::error::{learn_error, ApiError};

/// The longest game record read by the review endpoint (about 20,000 moves).
pub const MAX_REVIEW_BYTES: usize = 256 * 1024;

/// The most puzzles one request returns.
pub const MAX_PUZZLES: usize = 100;

/// The most positions one request solves again with a game's history (a
/// review's every move and line together, a position of a game in progress):
/// about two seconds of work at most (13 µs a position measured on a
/// three-player review); past it the values are the table's, marked not exact
/// (`exact: false`). The command line allows `chopsticks_learn::history::DEFAULT_BOUND`.
pub const HISTORY_BOUND: usize = 150_000;

/// The most moves of a puzzle's `played` followed.
pub const MAX_PLAYED: usize = 500;

/// `snake_case` keys to `camelCase`, all the way down.
pub fn camel_keys(value: Json_) -> Json_ {
    match value {
        Json_::Object(map) => Json_::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let mut key = String::with_capacity(k.len());
                    let mut upper = false;
                    for c in k.chars() {
                        if c == '_' {
                            upper = true;
                        } else if upper {
                            key.extend(c.to_uppercase());
                            upper = false;
                        } else {
                            key.push(c);
                        }
                    }
                    (key, camel_keys(v))
                })
                .collect(),
        ),
        Json_::Array(items) => Json_::Array(items.into_iter().map(camel_keys).collect()),
        v => v,
    }
}

fn to_json(value: &impl serde::Serialize) -> Result<Json_, ApiError> {
    serde_json::to_value(value)
        .map(camel_keys)
        .map_err(|e| ApiError::internal(e.to_string()))
}

impl Solved {
    /// What checks the lines an answer shows (see the module documentation).
    pub fn checker(&self) -> Checker<'_> {
        match self.graph() {
            Ok(graph) if self.needs_line_checks() => Checker::against_rules(Some(graph)),
            _ => Checker::trusted(),
        }
    }
}

/// Runs `work` with the solved variant on a thread of its own (see
/// [`crate::background`]).
async fn blocking<T: Send + 'static>(
    solved: Arc<Solved>,
    work: impl FnOnce(&Solved) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    crate::background::run(crate::background::Priority::Answer, move || work(&solved)).await
}

fn parse_position(text: Option<String>, solved: &Solved) -> Result<SeatedPosition, ApiError> {
    let text = text.ok_or_else(|| ApiError::bad_request("missing parameter `p` (the position)"))?;
    if text.len() > MAX_POSITION_TEXT {
        return Err(ApiError::bad_request(format!(
            "the position is longer than {MAX_POSITION_TEXT} bytes"
        )));
    }
    SeatedPosition::parse(&text, &solved.rules).map_err(|e| ApiError::unprocessable(e.to_string()))
}

#[derive(Deserialize)]
pub struct LineQuery {
    p: Option<String>,
}

/// `GET /api/v1/chopsticks/{variant}/line?p=POS`
pub async fn line(
    State(state): State<AppState>,
    Path(variant): Path<String>,
    Query(query): Query<LineQuery>,
) -> Result<Json<Json_>, ApiError> {
    let solved = state.solved(rules_of(&variant)?).await?;
    let seated = parse_position(query.p, &solved)?;
    let line = blocking(solved, move |s| {
        optimal_line(&s.solution, &seated, &mut s.checker()).map_err(learn_error)
    })
    .await?;
    Ok(Json(to_json(&line)?))
}

#[derive(Deserialize)]
pub struct ReviewQuery {
    record: Option<String>,
}

/// Reviews a record of `variant` (a record naming no variant is of it).
async fn review_text(
    state: AppState,
    variant: String,
    text: String,
) -> Result<Json<Json_>, ApiError> {
    if text.len() > MAX_REVIEW_BYTES {
        return Err(ApiError::too_large(format!(
            "the game record is {} bytes long; at most {MAX_REVIEW_BYTES} are read",
            text.len()
        )));
    }
    let asked = rules_of(&variant)?;
    let record = GameRecord::parse(&text).map_err(learn_error)?;
    let rules = record.rules(Some(&asked)).map_err(learn_error)?;
    let replay = record.replay(&rules).map_err(learn_error)?;
    let solved = state.solved(rules).await?;
    let reviewed = blocking(solved, move |s| {
        review_within(&s.solution, &replay, &mut s.checker(), HISTORY_BOUND).map_err(learn_error)
    })
    .await?;
    Ok(Json(to_json(&reviewed)?))
}

/// `POST /api/v1/chopsticks/{variant}/review` with the record as the body.
pub async fn review_post(
    State(state): State<AppState>,
    Path(variant): Path<String>,
    body: Bytes,
) -> Result<Json<Json_>, ApiError> {
    let text = String::from_utf8(body.to_vec())
        .map_err(|_| ApiError::bad_request("the game record is not UTF-8 text"))?;
    review_text(state, variant, text).await
}

/// `GET /api/v1/chopsticks/{variant}/review?record=TEXT`
pub async fn review_get(
    State(state): State<AppState>,
    Path(variant): Path<String>,
    Query(query): Query<ReviewQuery>,
) -> Result<Json<Json_>, ApiError> {
    let text = query.record.ok_or_else(|| {
        ApiError::bad_request(
            "missing parameter `record` (the game record; or POST it as the body)",
        )
    })?;
    review_text(state, variant, text).await
}

#[derive(Deserialize)]
pub struct PuzzleQuery {
    p: Option<String>,
    /// The player's moves so far, comma-separated names.
    played: Option<String>,
    /// `json` (the default) or `svg`: the chosen puzzles as a worksheet.
    format: Option<String>,
    /// With `format=svg`, one page of the worksheet (from 1); else all.
    page: Option<usize>,
    count: Option<usize>,
    seed: Option<u64>,
    difficulty: Option<String>,
    kind: Option<String>,
}

fn filter_of(query: &PuzzleQuery) -> Result<Filter, ApiError> {
    let kind = match query.kind.as_deref() {
        None | Some("any") => None,
        Some("win") => Some(PuzzleKind::Win),
        Some("hold") => Some(PuzzleKind::Hold),
        Some(k) => {
            return Err(ApiError::bad_request(format!(
                "`kind` is win, hold or any, not `{k}`"
            )))
        }
    };
    let difficulty = match query.difficulty.as_deref() {
        None | Some("") | Some("any") => None,
        Some(text) => {
            let one = |t: &str| {
                Difficulty::parse(t).ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "`difficulty` is a grade 1 to 5 ({}) or a range `2-4`, not `{text}`",
                        Difficulty::NAMES.join(", ")
                    ))
                })
            };
            let (lo, hi) = match text.split_once('-') {
                Some((a, b)) => (one(a)?, one(b)?),
                None => (one(text)?, one(text)?),
            };
            if lo > hi {
                return Err(ApiError::bad_request(format!(
                    "`difficulty`: the range {text} is empty (the lower grade comes first)"
                )));
            }
            Some((lo, hi))
        }
    };
    Ok(Filter { kind, difficulty })
}

/// `GET /api/v1/chopsticks/{variant}/puzzles?…`
pub async fn puzzles(
    State(state): State<AppState>,
    Path(variant): Path<String>,
    Query(query): Query<PuzzleQuery>,
) -> Result<Response, ApiError> {
    let filter = filter_of(&query)?;
    let svg = wants_svg(query.format.as_deref())?;
    if query.played.is_some() && query.p.is_none() {
        return Err(ApiError::bad_request(
            "`played` follows the puzzle at `p`: give `p` too",
        ));
    }
    if query.page.is_some() && !svg {
        return Err(ApiError::bad_request(
            "`page` is a page of the worksheet: give `format=svg` too",
        ));
    }
    if svg && query.p.is_some() {
        return Err(ApiError::bad_request(
            "`format=svg` draws puzzles chosen by `count` and `seed`, not the one at `p`",
        ));
    }
    let deadline = state.deadline();
    let solved = state.solved_by(rules_of(&variant)?, deadline).await?;
    if query.p.is_some() {
        let seated = parse_position(query.p, &solved)?;
        let played: Option<Vec<String>> = query
            .played
            .map(|text| chopsticks_learn::playout::split_moves(&text))
            .transpose()
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        if played.as_ref().is_some_and(|p| p.len() > MAX_PLAYED) {
            return Err(ApiError::bad_request(format!(
                "`played` has more than {MAX_PLAYED} moves"
            )));
        }
        // A puzzle's solution reads the table far from its position: a saved
        // table is checked whole first (once, a computation of the cache).
        state.cache.checked(&solved, left(deadline)).await?;
        let (shown, progress) = blocking(solved, move |s| {
            let position = seated.position();
            let mut checker = s.checker();
            checker
                .around(&s.solution, position)
                .map_err(|e| learn_error(e.into()))?;
            let puzzle = puzzle_at_seated(&s.solution, &seated).map_err(learn_error)?;
            let shown =
                view_seated(&s.solution, &puzzle, &seated, &mut checker).map_err(learn_error)?;
            let progress = played
                .map(|played| follow(&s.solution, puzzle.kind, &seated, &played))
                .transpose()
                .map_err(learn_error)?;
            Ok((shown, progress))
        })
        .await?;
        let mut answer = to_json(&shown)?;
        if let Some(progress) = progress {
            answer["progress"] = to_json(&progress)?;
        }
        return Ok(Json(answer).into_response());
    }
    let count = query.count.unwrap_or(10).min(MAX_PUZZLES);
    let seed = query.seed.unwrap_or(1);
    let set = state.cache.puzzles(&solved, left(deadline)).await?;
    let id = solved.rules.variant_id();
    let rules = solved.rules.clone();
    let (views, counts, total, reachable) = blocking(solved, move |s| {
        let graph = s.graph()?;
        let mut checker = s.checker();
        let views = set
            .choose(&filter, count, seed)
            .iter()
            .map(|p| view(&s.solution, p, &graph.position(p.index), &mut checker))
            .collect::<Result<Vec<_>, _>>()
            .map_err(learn_error)?;
        Ok((views, set.counts(), set.puzzles.len(), set.reachable))
    })
    .await?;
    if svg {
        if views.is_empty() {
            return Err(ApiError::unprocessable(
                "no puzzle of this kind and difficulty (or `count=0`): no worksheet to draw",
            ));
        }
        let sheet = Worksheet::new(&rules, &views, true).map_err(learn_error)?;
        let pages = sheet.page_count();
        let body = match query.page {
            None => sheet.svg(),
            Some(k) if (1..=pages).contains(&k) => sheet.pages().swap_remove(k - 1),
            Some(k) => {
                return Err(ApiError::bad_request(format!(
                    "`page` is 1 to {pages} (the worksheet's pages), not {k}"
                )))
            }
        };
        return Ok((
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("image/svg+xml"),
                ),
                (
                    HeaderName::from_static("x-pages"),
                    HeaderValue::from(pages as u64),
                ),
            ],
            body,
        )
            .into_response());
    }
    Ok(Json(camel_keys(json!({
        "variant": id,
        "seed": seed,
        "total": total,
        "reachable": reachable,
        "win_by_grade": counts[0],
        "hold_by_grade": counts[1],
        "puzzles": views.iter().map(to_json).collect::<Result<Vec<_>, _>>()?,
    })))
    .into_response())
}

#[derive(Deserialize)]
pub struct RatingQuery {
    rating: Option<f64>,
    deviation: Option<f64>,
    volatility: Option<f64>,
    puzzle: Option<f64>,
    solved: Option<bool>,
}

/// `GET /api/v1/chopsticks/rating?…`: a player's rating after one puzzle
/// (Glicko-2, `chopsticks_learn::rating`); without `rating`, a new player's.
/// The page keeps the rating in the browser and asks here for each update,
/// so that one implementation rates the page and `puzzles --play`.
pub async fn rating(Query(query): Query<RatingQuery>) -> Result<Json<Json_>, ApiError> {
    let new = Rating::default();
    let now = Rating {
        rating: query.rating.unwrap_or(new.rating),
        deviation: query.deviation.unwrap_or(new.deviation),
        volatility: query.volatility.unwrap_or(new.volatility),
    };
    now.check().map_err(ApiError::bad_request)?;
    let after = match (query.puzzle, query.solved) {
        (Some(puzzle), Some(solved))
            if puzzle.is_finite() && (0.0..=Rating::MAX).contains(&puzzle) =>
        {
            now.after_puzzle(puzzle, solved)
        }
        (Some(p), Some(_)) => {
            return Err(ApiError::bad_request(format!(
                "the puzzle's rating {p} is not one: it is from 0 to {}",
                Rating::MAX
            )))
        }
        (None, None) => now,
        _ => {
            return Err(ApiError::bad_request(
                "`puzzle` (the puzzle's rating) and `solved` (true or false) come together",
            ))
        }
    };
    Ok(Json(json!({
        "rating": after.rating,
        "deviation": after.deviation,
        "volatility": after.volatility,
        "text": after.text(),
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_become_camel_case() {
        let v = camel_keys(json!({"best_line": {"start_value": 1}, "a": [{"b_c": 2}]}));
        assert_eq!(v, json!({"bestLine": {"startValue": 1}, "a": [{"bC": 2}]}));
    }
}
