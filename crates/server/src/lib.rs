//! The web face of chopsticks: an HTTP server with a JSON API in the shape of
//! GamesmanUni's over solutions cached in memory.
//!
//! The model: every request names a variant (a variant id, see
//! `chopsticks_rules::Ruleset::from_variant_id`) and, for positions, a position in any
//! notation. The [`cache::SolutionCache`] solves each variant once, in a task of its
//! own, within a memory budget, and keeps the most recently used solutions; the
//! handlers in [`api`] only read them. Every error is an answer with a 4xx status and
//! `{"error": "..."}` carrying the command line's message; read-only answers carry
//! `Access-Control-Allow-Origin: *` so clients served from elsewhere can use them.
//!
//! The library never prints: [`serve`] takes a bound listener and a shutdown signal
//! and returns when the server has stopped.

pub mod api;
pub mod autogui;
pub mod background;
pub mod cache;
pub mod connections;
pub mod error;
pub mod instructions;
pub mod learn;
pub mod load;
pub mod page;
pub mod values;

use std::sync::Arc;

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

pub use api::AppState;
pub use cache::SolutionCache;
pub use connections::Limits;
pub use error::ApiError;

/// The API's routes, each with and without a trailing slash.
pub fn router(state: AppState) -> Router {
    let time_limit = state.time_limit;
    let api = Router::new()
        .route("/api/v1", get(api::games))
        .route("/api/v1/", get(api::games))
        .route("/api/v1/chopsticks", get(api::game))
        .route("/api/v1/chopsticks/", get(api::game))
        .route("/api/v1/chopsticks/{variant}", get(api::variant))
        .route("/api/v1/chopsticks/{variant}/", get(api::variant))
        .route("/api/v1/chopsticks/{variant}/positions", get(api::position))
        .route(
            "/api/v1/chopsticks/{variant}/positions/",
            get(api::position),
        )
        .route(
            "/api/v1/chopsticks/{variant}/instructions",
            get(api::instructions),
        )
        .route(
            "/api/v1/chopsticks/{variant}/instructions/",
            get(api::instructions),
        )
        .route("/api/v1/chopsticks/{variant}/strategy", get(api::strategy))
        .route("/api/v1/chopsticks/{variant}/strategy/", get(api::strategy))
        .route("/api/v1/chopsticks/{variant}/line", get(learn::line))
        .route("/api/v1/chopsticks/{variant}/line/", get(learn::line))
        .route(
            "/api/v1/chopsticks/{variant}/review",
            get(learn::review_get).post(learn::review_post).layer(
                axum::extract::DefaultBodyLimit::max(learn::MAX_REVIEW_BYTES),
            ),
        )
        .route(
            "/api/v1/chopsticks/{variant}/review/",
            get(learn::review_get).post(learn::review_post).layer(
                axum::extract::DefaultBodyLimit::max(learn::MAX_REVIEW_BYTES),
            ),
        )
        .route("/api/v1/chopsticks/{variant}/puzzles", get(learn::puzzles))
        .route("/api/v1/chopsticks/{variant}/puzzles/", get(learn::puzzles))
        .route("/api/v1/chopsticks/rating", get(learn::rating))
        .route("/api/v1/chopsticks/rating/", get(learn::rating))
        .route("/api/v1/server", get(api::server))
        .route("/api/v1/server/", get(api::server))
        .route("/api/v1/value", get(api::value))
        .route("/api/v1/value/", get(api::value))
        .route("/healthz", get(|| async { "ok" }))
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .fallback(|| async { ApiError::not_found("no such resource") })
        .with_state(state);
    api.layer(axum::middleware::from_fn_with_state(
        time_limit,
        within_time_limit,
    ))
    .layer(axum::middleware::from_fn(within_head_limits))
    .layer(axum::middleware::map_response(errors_as_json))
    .layer(axum::middleware::map_response(allow_any_origin))
}

pub use chopsticks_rules::escape_controls;

/// The longest request target (path and query) answered; longer ones get a 414.
pub const MAX_URI: usize = 8 * 1024;

/// The most request headers answered; more get a 431.
pub const MAX_HEADERS: usize = 100;

/// Refuses request heads beyond [`MAX_URI`] and [`MAX_HEADERS`] with a JSON reason.
async fn within_head_limits(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    // The length of the target as written, without building it on every request.
    let target = request.uri();
    let uri = target.scheme_str().map_or(0, |s| s.len() + 3)
        + target.authority().map_or(0, |a| a.as_str().len())
        + target.path_and_query().map_or(0, |pq| pq.as_str().len());
    if uri > MAX_URI {
        return ApiError::new_with(
            axum::http::StatusCode::URI_TOO_LONG,
            format!("the request target is {uri} bytes long; at most {MAX_URI} are read"),
        )
        .into_response();
    }
    let headers = request.headers().len();
    if headers > MAX_HEADERS {
        return ApiError::new_with(
            axum::http::StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("the request has {headers} headers; at most {MAX_HEADERS} are read"),
        )
        .into_response();
    }
    next.run(request).await
}

/// The longest error body of a layer below read back to be quoted.
const MAX_ERROR_TEXT: usize = 4096;

/// Every error answer is `{"error": REASON}`: an error of a layer below the
/// handlers (a method not allowed, a query string that does not read, such as a
/// repeated `p`) comes as text or with no body; it is wrapped, its text kept as
/// the reason (or the status's own words when it has none), control characters
/// escaped.
async fn errors_as_json(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, MAX_ERROR_TEXT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let reason = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        escape_controls(&text)
    };
    let mut answer = ApiError::new_with(status, reason).into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            answer.headers_mut().insert(name.clone(), value.clone());
        }
    }
    answer
}

/// The longest a request is answered in, by default ([`AppState::time_limit`]).
/// Solving a large variant can take longer: the solve goes on in its own task, and
/// the request is answered 503 meanwhile.
pub const REQUEST_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(30);

/// Answers 503 when a request takes longer than the time limit.
async fn within_time_limit(
    axum::extract::State(limit): axum::extract::State<std::time::Duration>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::unavailable(format!(
            "no answer within {:.1} s (what it waits for goes on in the background); \
             try again later",
            limit.as_secs_f64()
        ))
        .into_response(),
    }
}

/// Adds `Access-Control-Allow-Origin: *`: the API is read-only.
async fn allow_any_origin(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}

/// A server state with an empty cache of `budget` bytes.
pub fn state(budget: u64) -> AppState {
    AppState {
        cache: Arc::new(SolutionCache::new(budget)),
        evaluations: values::Evaluations::default(),
        time_limit: REQUEST_TIME_LIMIT,
    }
}

/// Serves `router(state)` on `listener` within the default [`Limits`] until
/// `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_within(listener, state, Limits::default(), shutdown).await
}

/// Serves `router(state)` on `listener` within `limits` (timeouts and the number of
/// connections, see [`connections`]) until `shutdown` completes.
pub async fn serve_within(
    listener: tokio::net::TcpListener,
    state: AppState,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    connections::serve(listener, router(state), limits, shutdown).await
}
