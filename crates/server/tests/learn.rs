//! The learning endpoints through the router (no socket): lines, reviews,
//! puzzles and the strategy sheet equal what `chopsticks-learn` computes from
//! the solver's table, in the API's camelCase; bad input gets a 4xx with the
//! reason.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use chopsticks_learn::record::GameRecord;
use chopsticks_learn::{optimal_line, review, Checker, PuzzleSet};
use chopsticks_rules::{Position, Ruleset, SeatedPosition};
use chopsticks_server::learn::camel_keys;
use chopsticks_server::{router, state, AppState};
use chopsticks_solve::Solution;
use chopsticks_space::Graph;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

const BUDGET: u64 = 1 << 30;

async fn send(state: &AppState, request: Request<Body>) -> (StatusCode, String, Option<String>) {
    let response = router(state.clone()).oneshot(request).await.unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned(), kind)
}

async fn get(state: &AppState, uri: &str) -> (StatusCode, Value) {
    let (status, body, _) = send(state, Request::get(uri).body(Body::empty()).unwrap()).await;
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

async fn post(state: &AppState, uri: &str, body: &str) -> (StatusCode, Value) {
    let request = Request::post(uri)
        .header("content-type", "text/plain")
        .body(Body::from(body.to_string()))
        .unwrap();
    let (status, body, _) = send(state, request).await;
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

fn solved(id: &str) -> (Ruleset, Graph, Solution) {
    let rules = Ruleset::from_variant_id(id).unwrap();
    let graph = Graph::new(&rules).unwrap();
    let solution = Solution::solve(&graph, &|_| {}).unwrap();
    (rules, graph, solution)
}

const GAME: &str = "variant standard\n1. tap 1→1\n2. tap 2→1\n3. tap 1→2\n";

#[tokio::test]
async fn lines_and_reviews_are_the_libraries() {
    let state = state(BUDGET);
    let (rules, _, solution) = solved("standard");
    for p in ["1_1111", "2_1213", "1_0234"] {
        let (status, body) = get(&state, &format!("/api/v1/chopsticks/standard/line?p={p}")).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let seated = SeatedPosition::parse(p, &rules).unwrap();
        let line = optimal_line(&solution, &seated, &mut Checker::trusted()).unwrap();
        assert_eq!(body, camel_keys(serde_json::to_value(&line).unwrap()));
    }
    let replay = GameRecord::parse(GAME).unwrap().replay(&rules).unwrap();
    let expected = camel_keys(
        serde_json::to_value(review(&solution, &replay, &mut Checker::trusted()).unwrap()).unwrap(),
    );
    let (status, body) = post(&state, "/api/v1/chopsticks/standard/review", GAME).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body == expected, "the review differs from the library's");
    assert_eq!(body["moves"][0]["verdict"]["kind"], "win-to-loss");
    assert!(body["moves"][0]["bestLine"]["steps"].is_array());
    // GET with the record in the query, and a record naming no variant.
    let (status, again) = get(
        &state,
        "/api/v1/chopsticks/standard/review?record=1.%20tap%201-%3E1%0A2.%20tap%202-%3E1%0A3.%20tap%201-%3E2",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{again}");
    // The same review, but for the record's line numbers (no `variant` line).
    let without_lines = |mut v: Value| {
        for m in v["moves"].as_array_mut().unwrap() {
            m.as_object_mut().unwrap().remove("recordLine");
        }
        v
    };
    assert!(without_lines(again) == without_lines(expected.clone()));
}

#[tokio::test]
async fn puzzles_are_the_libraries_and_open_by_position() {
    let state = state(BUDGET);
    let (rules, graph, solution) = solved("rollover");
    let start = graph.index_of(&Position::start(&rules));
    let set = PuzzleSet::find(&graph, &solution, start, &|_| {}).unwrap();
    let (status, body) = get(&state, "/api/v1/chopsticks/rollover/puzzles?count=7&seed=5").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["total"], set.puzzles.len());
    assert_eq!(body["reachable"], set.reachable);
    let chosen = set.choose(&Default::default(), 7, 5);
    let puzzles = body["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 7);
    for (shown, p) in puzzles.iter().zip(&chosen) {
        let position = graph.position(p.index);
        let view =
            chopsticks_learn::puzzles::view(&solution, p, &position, &mut Checker::trusted())
                .unwrap();
        assert_eq!(*shown, camel_keys(serde_json::to_value(&view).unwrap()));
        // The same puzzle by its position.
        let text = shown["position"].as_str().unwrap();
        let (status, one) = get(
            &state,
            &format!("/api/v1/chopsticks/rollover/puzzles?p={text}"),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(one, *shown);
    }
    let (_, holds) = get(
        &state,
        "/api/v1/chopsticks/rollover/puzzles?kind=hold&difficulty=1-2&count=100",
    )
    .await;
    for p in holds["puzzles"].as_array().unwrap() {
        assert_eq!(p["kind"], "hold");
        assert!(p["difficulty"].as_u64().unwrap() <= 2);
    }
    // At most 100 a request.
    let (_, many) = get(&state, "/api/v1/chopsticks/rollover/puzzles?count=100000").await;
    assert!(many["puzzles"].as_array().unwrap().len() <= 100);
}

/// A puzzle played move by move through `played`: the progress is the
/// library's, a wrong move fails it, bad moves are refused; the rating
/// endpoint is Glicko-2's.
#[tokio::test]
async fn puzzles_are_followed_by_their_moves_and_rated() {
    let state = state(BUDGET);
    let (rules, _, solution) = solved("standard");
    let (status, puzzle) = get(&state, "/api/v1/chopsticks/standard/puzzles?p=1_1111").await;
    assert_eq!(status, StatusCode::OK, "{puzzle}");
    let mine: Vec<String> = puzzle["solution"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["expected"] == true)
        .map(|s| s["move"].as_str().unwrap().to_string())
        .collect();
    let start = SeatedPosition::parse("1_1111", &rules).unwrap();
    for k in [1, 2, mine.len()] {
        let played = mine[..k].join(",");
        let (status, body) = get(
            &state,
            &format!(
                "/api/v1/chopsticks/standard/puzzles?p=1_1111&played={}",
                urlencode(&played)
            ),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let expected = chopsticks_learn::playout::follow(
            &solution,
            chopsticks_learn::PuzzleKind::Win,
            &start,
            &mine[..k],
        )
        .unwrap();
        assert_eq!(
            body["progress"],
            camel_keys(serde_json::to_value(&expected).unwrap())
        );
        assert_eq!(body["progress"]["verdict"], "right");
    }
    let (_, done) = get(
        &state,
        &format!(
            "/api/v1/chopsticks/standard/puzzles?p=1_1111&played={}",
            urlencode(&mine.join(","))
        ),
    )
    .await;
    assert_eq!(done["progress"]["end"]["kind"], "finished");
    // The start's other move loses: the puzzle is failed.
    let wrong = puzzle["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["answer"] == false)
        .unwrap()["move"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, failed) = get(
        &state,
        &format!(
            "/api/v1/chopsticks/standard/puzzles?p=1_1111&played={}",
            urlencode(&wrong)
        ),
    )
    .await;
    assert_eq!(failed["progress"]["verdict"], "wrong");
    assert_eq!(failed["progress"]["end"]["kind"], "failed");
    let (status, body) = get(
        &state,
        &format!(
            "/api/v1/chopsticks/standard/puzzles?p=1_1111&played={},{}",
            urlencode(&wrong),
            urlencode(&mine[0])
        ),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, body) = get(
        &state,
        "/api/v1/chopsticks/standard/puzzles?p=1_1111&played=tap%209%209",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");

    // Ratings: a new player's; after a solved puzzle, as the library rates.
    let (status, new) = get(&state, "/api/v1/chopsticks/rating").await;
    assert_eq!(status, StatusCode::OK, "{new}");
    assert_eq!(new["rating"], 1500.0);
    assert_eq!(new["deviation"], 350.0);
    let (_, up) = get(&state, "/api/v1/chopsticks/rating?rating=1500&deviation=350&volatility=0.06&puzzle=1900&solved=true").await;
    let expected = chopsticks_learn::rating::Rating::default().after_puzzle(1900, true);
    assert_eq!(up["rating"].as_f64().unwrap(), expected.rating);
    assert_eq!(up["text"], expected.text());
    for bad in [
        "deviation=-1&puzzle=1500&solved=true",
        "rating=NaN&puzzle=1500&solved=true",
        "puzzle=1500",
        "puzzle=99999&solved=false",
        "rating=1e308&puzzle=1500&solved=true",
        "rating=-50000",
        "puzzle=-1&solved=true",
    ] {
        let (status, body) = get(&state, &format!("/api/v1/chopsticks/rating?{bad}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert!(body["error"].is_string(), "{body}");
    }
}

/// The chosen puzzles as a worksheet: all its pages in one SVG, or one page;
/// the count of pages in `x-pages`; a page out of range refused.
#[tokio::test]
async fn puzzles_are_drawn_as_a_worksheet() {
    let state = state(BUDGET);
    let all = Request::get("/api/v1/chopsticks/standard/puzzles?count=7&seed=2&format=svg")
        .body(Body::empty())
        .unwrap();
    let response = router(state.clone()).oneshot(all).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "image/svg+xml");
    assert_eq!(response.headers()["x-pages"], "3");
    let (status, body, _) = send(
        &state,
        Request::get("/api/v1/chopsticks/standard/puzzles?count=7&seed=2&format=svg&page=2")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.starts_with("<svg") && body.contains("height=\"1123\""));
    assert_eq!(
        body.matches("class=\"puzzle\"").count(),
        1,
        "the seventh puzzle"
    );
    let (status, body) = get(
        &state,
        "/api/v1/chopsticks/standard/puzzles?count=7&format=svg&page=4",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["error"],
        "`page` is 1 to 3 (the worksheet's pages), not 4"
    );
    let (status, body) = get(&state, "/api/v1/chopsticks/standard/puzzles?format=pdf").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "`format` is json or svg, not `pdf`");
    // Nothing to draw: refused, not an empty worksheet.
    let (status, body) = get(
        &state,
        "/api/v1/chopsticks/standard/puzzles?kind=hold&format=svg",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, _) = get(
        &state,
        "/api/v1/chopsticks/standard/puzzles?count=0&format=svg",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    // Parameters that mean nothing alone are refused, as a reversed range.
    for (query, error) in [
        (
            "played=t11",
            "`played` follows the puzzle at `p`: give `p` too",
        ),
        (
            "page=2",
            "`page` is a page of the worksheet: give `format=svg` too",
        ),
        (
            "difficulty=5-1",
            "`difficulty`: the range 5-1 is empty (the lower grade comes first)",
        ),
    ] {
        let (status, body) = get(
            &state,
            &format!("/api/v1/chopsticks/standard/puzzles?{query}"),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(body["error"], error);
    }
    let (status, body) = get(
        &state,
        "/api/v1/chopsticks/standard/puzzles?p=1_2312&played=t32,,t33",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["error"],
        "the puzzle: move 2 of the list is empty (two commas, or one at an end)"
    );
}

/// Percent-encodes a query value.
fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn the_strategy_sheet_is_svg() {
    let state = state(BUDGET);
    let request = Request::get("/api/v1/chopsticks/standard/strategy?format=svg")
        .body(Body::empty())
        .unwrap();
    let (status, body, kind) = send(&state, request).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind.as_deref(), Some("image/svg+xml"));
    assert!(body.starts_with("<svg"));
    assert_eq!(body.matches("class=\"card\"").count(), 24);
    let (status, body) = get(&state, "/api/v1/chopsticks/standard/strategy?format=pdf").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "`format` is json or svg, not `pdf`");
}

#[tokio::test]
async fn bad_requests_get_the_reason() {
    let state = state(BUDGET);
    let cases: Vec<(StatusCode, Value, &str)> = vec![
        {
            let (s, b) = post(
                &state,
                "/api/v1/chopsticks/standard/review",
                "variant standard\ntap 1→1\ntap 4→4\n",
            )
            .await;
            (
                s,
                b,
                "line 3: move 2 `tap 4→4` is not a legal move at 2_1112",
            )
        },
        {
            let (s, b) = post(
                &state,
                "/api/v1/chopsticks/standard/review",
                "variant rollover\ntap 1→1\n",
            )
            .await;
            (
                s,
                b,
                "the game record is of variant rollover, but the solution is of standard",
            )
        },
        {
            let (s, b) = get(&state, "/api/v1/chopsticks/standard/review").await;
            (s, b, "missing parameter `record`")
        },
        {
            let (s, b) = get(&state, "/api/v1/chopsticks/standard/line").await;
            (s, b, "missing parameter `p`")
        },
        {
            let (s, b) = get(&state, "/api/v1/chopsticks/standard/line?p=1_1199").await;
            (s, b, "")
        },
        {
            let (s, b) = get(&state, "/api/v1/chopsticks/standard/puzzles?p=1_1114").await;
            (s, b, "1_1114 is not a puzzle: 2 of its 3 moves win")
        },
        {
            let (s, b) = get(&state, "/api/v1/chopsticks/standard/puzzles?difficulty=9").await;
            (s, b, "`difficulty` is a grade 1 to 5")
        },
        {
            let (s, b) = get(&state, "/api/v1/chopsticks/standard/puzzles?kind=lose").await;
            (s, b, "`kind` is win, hold or any, not `lose`")
        },
    ];
    for (status, body, reason) in cases {
        assert!(status.is_client_error(), "{status} {body}");
        let error = body["error"].as_str().unwrap_or_default();
        assert!(error.contains(reason), "{error} (wanted {reason})");
    }
    // A body beyond the limit.
    let big = "tap 1→1\n".repeat(40_000);
    let (status, body) = post(&state, "/api/v1/chopsticks/standard/review", &big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    assert!(body["error"].is_string(), "{body}");
}
