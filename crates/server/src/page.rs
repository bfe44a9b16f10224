//! The page: one HTML file, one script and one style sheet, embedded in the binary
//! (`include_str!`), so the release binary alone serves everything, offline.
//!
//! The page is a client of the JSON API and nothing else: it asks
//! `/api/v1/chopsticks/{variant}/positions/?p=…` for every position it shows and
//! keeps the game (moves, undo and redo, the value history) in the browser. Its
//! address records the variant and the position (`/?variant=rollover&p=1121`), so a
//! link reproduces what you see.

use axum::http::header;
use axum::response::IntoResponse;

const INDEX: &str = include_str!("../page/index.html");
const SCRIPT: &str = include_str!("../page/app.js");
const STYLE: &str = include_str!("../page/style.css");

/// `GET /`
pub async fn index() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        INDEX,
    )
}

/// `GET /app.js`
pub async fn script() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        SCRIPT,
    )
}

/// `GET /style.css`
pub async fn style() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        STYLE,
    )
}
