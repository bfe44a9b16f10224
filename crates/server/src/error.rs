//! Errors as the API answers them: a status and `{"error": "..."}` carrying the
//! same message the command line prints.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An error answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// Seconds after which the same request may succeed (`Retry-After`), for
    /// an answer still being computed.
    pub retry_after: Option<u64>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// The same error, telling the client to ask again after `seconds`.
    pub fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds.max(1));
        self
    }

    /// An error with any status.
    pub fn new_with(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError::new(status, message)
    }

    /// 400: the request is malformed (a missing or unreadable parameter).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: no such resource (an unknown game or path).
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 422: well-formed but impossible (an invalid position or ruleset).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 413: the work asked for exceeds this server's limits.
    pub fn too_large(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, message)
    }

    /// 429: the server is busy with other work; the same request may succeed later.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
    }

    /// 503: the answer is not ready within the time limit; try again.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// 500: a bug. Never expected; reported rather than dropping the connection.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

/// A `chopsticks-learn` error as the API answers it: a saved table that
/// contradicts the rules or cannot be read, 503; anything else (a table without
/// remoteness, a bad record or position), 422.
pub fn learn_error(e: chopsticks_learn::LearnError) -> ApiError {
    use chopsticks_learn::LearnError;
    use chopsticks_solve::SolveError;
    match e {
        LearnError::Solve(SolveError::Inconsistent(_)) => ApiError::unavailable(format!(
            "the saved solution contradicts the rules, so it is not served: {e}"
        )),
        LearnError::Solve(SolveError::NoRemoteness) => ApiError::unprocessable(e.to_string()),
        LearnError::Solve(e) => ApiError::unavailable(e.to_string()),
        e => ApiError::unprocessable(e.to_string()),
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            Json(serde_json::json!({"error": self.message})),
        )
            .into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(seconds),
            );
        }
        response
    }
}
