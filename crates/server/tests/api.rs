//! The API through the router (no socket): values equal the solver's for every
//! reachable position of three presets, bad input gets a 4xx with a message, the
//! cache solves once and keeps to its budget.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use chopsticks_rules::{Notation, Position, Preset};
use chopsticks_server::{router, state, AppState};
use chopsticks_solve::Solution;
use chopsticks_space::{explore, Graph};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

const BUDGET: u64 = 1 << 30;

async fn get(state: &AppState, uri: &str) -> (StatusCode, Value, Option<String>) {
    let response = router(state.clone())
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let cors = response
        .headers()
        .get("access-control-allow-origin")
        .map(|v| v.to_str().unwrap().to_string());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, body, cors)
}

/// `%2C` and friends for a position in a query string.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn values_equal_the_solver_on_every_reachable_position() {
    let state = state(BUDGET);
    for preset in [Preset::Standard, Preset::Rollover, Preset::Rahman] {
        let rules = preset.ruleset();
        let graph = Graph::new(&rules).unwrap();
        let solution = Solution::solve(&graph, &|_| {}).unwrap();
        let start = graph.index_of(&Position::start(&rules));
        let reached = explore(&graph, start, &|_| {}).reached;
        let mut checked = 0;
        for i in reached.iter() {
            let position = graph.position(i);
            let text = position
                .to_notation(&rules, Notation::default_for(&rules))
                .unwrap();
            let uri = format!(
                "/api/v1/chopsticks/{}/positions/?p={}",
                preset.name(),
                encode(&text)
            );
            let (status, v, cors) = get(&state, &uri).await;
            assert_eq!(status, StatusCode::OK, "{uri}: {v}");
            assert_eq!(cors.as_deref(), Some("*"));
            let o = solution.outcome_at(i).unwrap();
            // Answered with the seat to move: Player 1, for a mover-first text.
            assert_eq!(v["position"], format!("1_{text}"));
            assert_eq!(v["moverFirst"], text);
            assert_eq!(v["positionValue"], o.value.name(), "{uri}");
            assert_eq!(
                v["remoteness"],
                o.remoteness.map_or(-200, i64::from),
                "{uri}"
            );
            assert_eq!(v["terminal"], position.is_terminal(&rules));
            let moves = v["moves"].as_array().unwrap();
            let expected = solution.evaluate_moves(&position).unwrap();
            assert_eq!(moves.len(), expected.len());
            for (m, e) in moves.iter().zip(&expected) {
                assert_eq!(m["move"], e.mv.describe(&rules));
                assert_eq!(m["moveValue"], e.outcome.value.name());
                let child = solution.outcome(&e.to).unwrap();
                assert_eq!(m["positionValue"], child.value.name());
                assert_eq!(m["remoteness"], child.remoteness.map_or(-200, i64::from));
                assert!(m["deltaRemoteness"].as_i64().unwrap() >= 0);
            }
            // Best first: the first move has delta 0.
            if let Some(first) = moves.first() {
                assert_eq!(first["deltaRemoteness"], 0);
            }
            checked += 1;
        }
        assert!(checked >= 150, "{preset:?}: {checked}");
    }
    // One cache entry per variant, however many requests.
    assert_eq!(state.cache.ids(), vec!["rahman", "rollover", "standard"]);
}

#[tokio::test]
async fn variants_are_answered_with_their_canonical_id() {
    let state = state(BUDGET);
    let (status, v, _) = get(
        &state,
        "/api/v1/chopsticks/rollover.h3.f7.suicide.no-transfer/",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["id"], "rahman.h3.f7.no-transfer");
    assert_eq!(v["startPosition"], "1_111111");
    assert_eq!(
        v["name"],
        "2 players × 3 hands, F = 7 rollover; attack, division, suicide"
    );
    let (_, v, _) = get(&state, "/api/v1/").await;
    assert_eq!(v[0]["id"], "chopsticks");
    let (_, v, _) = get(&state, "/api/v1/chopsticks/").await;
    let variants = v["variants"].as_array().unwrap();
    assert_eq!(variants.len(), chopsticks_server::api::LISTED.len());
    // One name per variant: the list's is the variant's own.
    for listed in variants {
        let id = listed["id"].as_str().unwrap();
        let (_, own, _) = get(&state, &format!("/api/v1/chopsticks/{id}/")).await;
        assert_eq!(own["id"], id);
        assert_eq!(own["name"], listed["name"], "{id}");
    }
    let (status, v, _) = get(&state, "/healthz").await;
    assert_eq!((status, v), (StatusCode::OK, Value::String("ok".into())));
}

#[tokio::test]
async fn bad_input_gets_a_4xx_with_the_message() {
    let state = state(BUDGET);
    for (uri, status, needle) in [
        (
            "/api/v1/chopsticks/standard/positions/",
            StatusCode::BAD_REQUEST,
            "missing parameter `p`",
        ),
        (
            "/api/v1/chopsticks/standard/positions/?p=12345",
            StatusCode::UNPROCESSABLE_ENTITY,
            "5 digits written",
        ),
        (
            "/api/v1/chopsticks/standard/positions/?p=%F0%9F%92%A5",
            StatusCode::UNPROCESSABLE_ENTITY,
            "is not a digit",
        ),
        (
            "/api/v1/chopsticks/nope/positions/?p=1111",
            StatusCode::UNPROCESSABLE_ENTITY,
            "not a preset",
        ),
        (
            "/api/v1/chopsticks/standard.cutoff.rollover/",
            StatusCode::UNPROCESSABLE_ENTITY,
            "contradict",
        ),
        (
            "/api/v1/chopsticks/standard/positions/?p=3_1111",
            StatusCode::UNPROCESSABLE_ENTITY,
            "names no player",
        ),
        (
            "/api/v1/chopsticks/standard.p3/positions/?p=4_11-11-11",
            StatusCode::UNPROCESSABLE_ENTITY,
            "the player to move is numbered 1 to 3",
        ),
        (
            "/api/v1/chopsticks/standard.p3/positions/?p=1_00-11-11",
            StatusCode::UNPROCESSABLE_ENTITY,
            "no live hand",
        ),
        (
            "/api/v1/chopsticks/standard/positions/?p=1_f---f---f---f---",
            StatusCode::UNPROCESSABLE_ENTITY,
            "this is an AutoGUI board",
        ),
        (
            "/api/v1/chopsticks/standard/positions/?p=1_",
            StatusCode::UNPROCESSABLE_ENTITY,
            "no hands",
        ),
        (
            "/api/v1/chopsticks/standard.p99/",
            StatusCode::UNPROCESSABLE_ENTITY,
            "players",
        ),
        (
            "/api/v1/chopsticks/standard/instructions/?locale=%3Cscript%3E",
            StatusCode::BAD_REQUEST,
            "language tag",
        ),
        (
            "/api/v1/chopsticks/nope/instructions/",
            StatusCode::UNPROCESSABLE_ENTITY,
            "not a preset",
        ),
        (
            "/api/v1/chopsticks/standard.h6.f10/positions/?p=111111-111111",
            StatusCode::PAYLOAD_TOO_LARGE,
            "budget",
        ),
        (
            "/api/v1/chopsticks/standard.p8/positions/?p=1_11-11-11-11-11-11-11-11",
            StatusCode::PAYLOAD_TOO_LARGE,
            "budget",
        ),
        ("/api/v1/nothing", StatusCode::NOT_FOUND, "no such resource"),
    ] {
        let small = if status == StatusCode::PAYLOAD_TOO_LARGE {
            chopsticks_server::state(1 << 20)
        } else {
            state.clone()
        };
        let (got, v, cors) = get(&small, uri).await;
        assert_eq!(got, status, "{uri}: {v}");
        let message = v["error"].as_str().unwrap_or_else(|| panic!("{uri}: {v}"));
        assert!(message.contains(needle), "{uri}: {message}");
        assert_eq!(cors.as_deref(), Some("*"));
    }
    let long = "1".repeat(300);
    let (status, _, _) = get(
        &state,
        &format!("/api/v1/chopsticks/standard/positions/?p={long}"),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Nothing was cached for the failures.
    assert!(state.cache.ids().is_empty(), "{:?}", state.cache.ids());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_requests_share_one_solve_and_the_budget_holds() {
    let state = state(BUDGET);
    let mut tasks = Vec::new();
    for _ in 0..32 {
        let state = state.clone();
        tasks.push(tokio::spawn(async move {
            get(
                &state,
                "/api/v1/chopsticks/rollover.h3.f7/positions/?p=111111",
            )
            .await
        }));
    }
    let mut values = Vec::new();
    for t in tasks {
        let (status, v, _) = t.await.unwrap();
        assert_eq!(status, StatusCode::OK);
        values.push(v);
    }
    assert!(values.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(state.cache.ids(), vec!["rollover.h3.f7"]);
    // A budget that holds about one small variant at a time evicts the older one.
    let tight = chopsticks_server::state(2 << 20);
    let cache = Arc::clone(&tight.cache);
    for variant in ["standard", "rollover", "rahman", "standard"] {
        let (status, _, _) = get(
            &tight,
            &format!("/api/v1/chopsticks/{variant}/positions/?p=1111"),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert!(
            cache.used() <= cache.budget(),
            "{} > {}",
            cache.used(),
            cache.budget()
        );
    }
    assert!(cache.ids().len() < 4);
}

#[tokio::test]
async fn moves_carry_their_details_and_loop_free_positions_their_value() {
    let state = state(BUDGET);
    let (status, v, _) = get(&state, "/api/v1/chopsticks/simple/positions/?p=1111").await;
    assert_eq!(status, StatusCode::OK);
    // The paper's (1,1|1,1)_4 is 0: a second-player win, so the mover loses.
    assert_eq!(v["cgt"]["paper"], "(1,1|1,1)_4");
    assert_eq!(v["cgt"]["value"], "0");
    assert_eq!(v["cgt"]["outcome"], "P");
    assert_eq!(v["positionValue"], "lose");
    assert_eq!(
        v["moves"][0]["detail"],
        serde_json::json!({"type": "tap", "from": 1, "target": 1, "to": 1})
    );
    // A loopy variant has no value; splits and self-attacks are described.
    let (_, v, _) = get(&state, "/api/v1/chopsticks/standard/positions/?p=2213").await;
    assert_eq!(v["cgt"], Value::Null);
    let kinds: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["detail"]["type"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"self-tap") && kinds.contains(&"split"),
        "{kinds:?}"
    );
    let split = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["detail"]["type"] == "split")
        .unwrap();
    assert!(split["detail"]["before"].is_array() && split["detail"]["kind"].is_string());
}

#[tokio::test]
async fn the_strategy_is_the_command_lines() {
    let state = state(BUDGET);
    let (status, v, cors) = get(&state, "/api/v1/chopsticks/standard/strategy").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cors.as_deref(), Some("*"));
    // Players are numbered from 1; configurations are arrays of hands.
    assert_eq!(v["player"], 1);
    assert_eq!(v["startPlayers"][0]["player"], 1);
    assert_eq!(v["startValue"], "win");
    assert_eq!(v["startRemoteness"], 23);
    let configurations = v["configurations"].as_array().unwrap();
    assert!(!configurations.is_empty());
    assert!(configurations
        .iter()
        .all(|c| c.as_array().unwrap().len() == 2));
    assert!(v["positionsFaced"].as_u64().unwrap() > 0);
    // A drawn variant lists its traps.
    let (status, v, _) = get(&state, "/api/v1/chopsticks/rollover/strategy").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["player"], Value::Null);
    assert!(v["avoid"][0]["configuration"].is_array());
    assert_eq!(v["startValue"], "draw");
    assert!(!v["avoid"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn values_of_expressions_are_bounded() {
    let state = state(BUDGET);
    let (status, v, _) = get(&state, "/api/v1/value?expr=(1%7C1)_12").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["value"], "+-{0|^[2]}");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["variant"], "simple");
    // CGSuite's comparisons and numbers of any size.
    let (status, v, _) = get(&state, "/api/v1/value?expr=(1%7C1)_12%20%7C%3E%200").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["holds"], true);
    assert_eq!(v["components"][0]["value"], "+-{0|^[2]}");
    let (status, v, _) = get(&state, "/api/v1/value?expr=-1823437481924%2B*").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["value"], "-1823437481924*");
    assert_eq!(v["outcome"], "R");
    let (status, v, _) = get(&state, "/api/v1/value?expr=%7B0%7C").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"].as_str().unwrap().contains("unclosed"), "{v}");
    let (status, v, _) = get(&state, "/api/v1/value").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("expr"), "{v}");
    // Work beyond the server's (small) limit is refused, not run for seconds.
    let clock = std::time::Instant::now();
    let (status, v, _) = get(&state, "/api/v1/value?expr=.(4096)(4096)").await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(v["error"].as_str().unwrap().contains("work"), "{v}");
    assert!(clock.elapsed().as_secs() < 5);
    let long = "1%2B".repeat(600);
    let (status, _, _) = get(&state, &format!("/api/v1/value?expr={long}")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_variant_says_whether_this_server_would_refuse_it() {
    let state = state(64 << 20);
    let (status, v, _) = get(&state, "/api/v1/chopsticks/standard/").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["positions"], 225);
    assert_eq!(v["refused"], Value::Null);
    let (status, v, _) = get(&state, "/api/v1/chopsticks/standard.h4.f100/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(v["refused"].as_str().unwrap().contains("budget"), "{v}");
}

#[tokio::test]
async fn the_page_and_its_files_are_served() {
    let state = state(BUDGET);
    for (uri, needle) in [
        ("/", "<script type=\"module\" src=\"/app.js\">"),
        ("/app.js", "positions/?p="),
        ("/style.css", "--win: #008000"),
    ] {
        let (status, body, _) = get(&state, uri).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert!(body.as_str().unwrap().contains(needle), "{uri}");
    }
}

/// A request that waits longer than the time limit for a solve is answered 503 and
/// told to try again; the solve is not cancelled, and serves the next request.
#[tokio::test]
async fn a_request_waiting_too_long_is_answered_503() {
    let mut state = state(BUDGET);
    state.time_limit = std::time::Duration::from_millis(50);
    let uri = "/api/v1/chopsticks/rollover.h6.f9/positions/?p=111111111111";
    let (status, v, cors) = get(&state, uri).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    // The cache's answer, before the time limit's: what is being computed.
    let error = v["error"].as_str().unwrap();
    assert!(
        error.contains("still computing the solution of rollover.h6.f9")
            && error.contains("ask again in"),
        "{v}"
    );
    assert_eq!(cors.as_deref(), Some("*"));
    state.time_limit = std::time::Duration::from_secs(60);
    let clock = std::time::Instant::now();
    let (status, v, _) = get(&state, uri).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["positionValue"], "draw");
    assert_eq!(state.cache.ids(), vec!["rollover.h6.f9".to_string()]);
    assert!(clock.elapsed().as_secs() < 60);
}

#[tokio::test]
async fn every_error_is_json_with_a_reason() {
    let state = state(BUDGET);
    let send = |request: Request<Body>| {
        let state = state.clone();
        async move {
            let response = router(state).oneshot(request).await.unwrap();
            let status = response.status();
            let json = response
                .headers()
                .get("content-type")
                .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
            let cors = response
                .headers()
                .contains_key("access-control-allow-origin");
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            let body: Value = serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&bytes)));
            assert!(json && cors, "{status}: {body}");
            (
                status,
                body["error"].as_str().unwrap_or_default().to_string(),
            )
        }
    };
    // A repeated parameter.
    let (status, reason) = send(
        Request::get("/api/v1/chopsticks/standard/positions/?p=1111&p=1112")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(reason.contains("duplicate field `p`"), "{reason}");
    // A method other than GET.
    let (status, reason) = send(
        Request::post("/api/v1/chopsticks/")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(reason, "method not allowed");
    // A request target too long.
    let long = format!(
        "/api/v1/chopsticks/standard/positions/?p={}",
        "1".repeat(9000)
    );
    let (status, reason) = send(Request::get(long).body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::URI_TOO_LONG);
    assert!(reason.contains("at most 8192"), "{reason}");
    // Too many headers.
    let mut request = Request::get("/healthz");
    for k in 0..150 {
        request = request.header(format!("x-header-{k}"), "1");
    }
    let (status, reason) = send(request.body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    assert!(reason.contains("at most 100"), "{reason}");
}

/// The values of a game in progress: the positions before `p` in `history`
/// make the table's win at 1_0311 a draw, its only winning move bringing
/// 2_1211 up a third time (docs/API.md, "A game in progress").
#[tokio::test]
async fn a_game_in_progress_is_valued_with_its_history() {
    let state = state(1 << 30);
    let before = "1_1111,2_1211,1_1311,2_3411,1_0311,2_1211,1_1311,2_3411";
    let (status, alone, _) = get(&state, "/api/v1/chopsticks/standard/positions/?p=1_0311").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(alone["positionValue"], "win");
    assert!(alone.get("game").is_none());
    let uri = format!(
        "/api/v1/chopsticks/standard/positions/?p=1_0311&history={}",
        encode(before)
    );
    let (status, game, _) = get(&state, &uri).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["positionValue"], "draw");
    assert_eq!(game["game"]["tableValue"], "win");
    assert_eq!(game["game"]["tableRemoteness"], 23);
    assert_eq!(game["game"]["timesSeen"], 2);
    assert_eq!(game["game"]["exact"], true);
    let first = &game["moves"][0];
    assert_eq!(first["move"], "split 03→12");
    assert_eq!(first["moveValue"], "draw");
    assert_eq!(first["repetition"], true);
    assert_eq!(first["tableMoveValue"], "win");
    assert_eq!(game["players"][0]["value"], "draw");
    // The rules' order of every move is given, for lists that hide the values.
    let mut orders: Vec<u64> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["order"].as_u64().unwrap())
        .collect();
    orders.sort();
    assert_eq!(orders, (0..orders.len() as u64).collect::<Vec<_>>());
    // After the repetition, the game is over: no moves.
    let uri = format!(
        "/api/v1/chopsticks/standard/positions/?p=2_1211&history={}",
        encode(&format!("{before},1_0311"))
    );
    let (_, over, _) = get(&state, &uri).await;
    assert_eq!(over["game"]["over"]["kind"], "repetition");
    assert_eq!(over["moves"].as_array().unwrap().len(), 0);
    assert_eq!(over["positionValue"], "draw");
    // No repetition rule: the table's values.
    let uri = format!(
        "/api/v1/chopsticks/standard/positions/?p=1_0311&history={}&repetitions=none",
        encode(before)
    );
    let (_, never, _) = get(&state, &uri).await;
    assert_eq!(never["positionValue"], "win");
    assert_eq!(never["remoteness"], 23);
    // A history that is no game, or a bad rule, is refused with the reason.
    let uri = "/api/v1/chopsticks/standard/positions/?p=1_0311&history=1_1111,1_1311";
    let (status, bad, _) = get(&state, uri).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad["error"]
            .as_str()
            .unwrap()
            .contains("does not follow 1_1111 by a legal move"),
        "{bad}"
    );
    let uri = "/api/v1/chopsticks/standard/positions/?p=1_0311&repetitions=1";
    let (status, _, _) = get(&state, uri).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // The levels the page offers come from the library's definitions.
    let (_, info, _) = get(&state, "/api/v1/chopsticks/").await;
    let levels: Vec<&str> = info["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["perfect", "strong", "casual", "random"]);
    assert_eq!(info["levels"][1]["best"], 0.9);
}
