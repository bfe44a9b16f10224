//! End-to-end tests of `solve`, `query`, `play` and `strategy`.

use crate::common;

use common::{fails_with, json, run, run_with_input};

fn play(args: &[&str], input: &str) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    run_with_input(&all, input)
}

#[test]
fn solve_json_keys() {
    let v = json(&["solve", "--preset", "rahman", "--json"]);
    assert_eq!(v["reachable"], 207);
    assert_eq!(v["win"], 72);
    assert_eq!(v["lose"], 21);
    assert_eq!(v["draw"], 100);
    assert_eq!(v["terminal"], 14);
    assert_eq!(v["start"]["value"], "draw");
    assert_eq!(v["start"]["remoteness"], serde_json::Value::Null);
    let v = json(&["solve", "--json"]);
    assert_eq!(v["start"]["value"], "win");
    assert_eq!(v["start"]["remoteness"], 23);
    let v = json(&["solve", "--preset", "simple", "--json"]);
    assert_eq!(v["start"]["value"], "lose");
    assert_eq!(v["start"]["remoteness"], 8);
}

#[test]
fn query_orders_moves_best_first() {
    let v = json(&["query", "1111", "--json"]);
    assert_eq!(v["value"], "win");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves[0]["move"], "self 1→1");
    assert_eq!(moves[0]["value"], "win");
    assert_eq!(moves[0]["remoteness"], 23);
    assert_eq!(moves[1]["value"], "lose");
    let v = json(&["query", "11-02", "--preset", "rahman", "--json"]);
    assert_eq!(v["value"], "win");
}

#[test]
fn saved_solutions_are_used_and_checked() {
    let dir = std::env::temp_dir().join(format!("chopsticks-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("rahman.sol");
    let db_text = db.to_str().unwrap();
    let v = json(&["solve", "--preset", "rahman", "--save", db_text, "--json"]);
    assert_eq!(v["saved"], db_text);
    let v = json(&["query", "11-11", "--db", db_text, "--json"]);
    assert_eq!(v["value"], "draw");
    // Asking for other rules than the file holds is refused.
    let out = run(&["query", "11-11", "--db", db_text, "--preset", "standard"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds the solution of"));
    // A damaged file is refused.
    let bytes = std::fs::read(&db).unwrap();
    std::fs::write(&db, &bytes[..bytes.len() - 7]).unwrap();
    let out = run(&["query", "11-11", "--db", db_text]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("truncated"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_against_the_computer_with_piped_input() {
    // Simple Chopsticks is a second-player win: moving first, the human loses
    // whatever they do; `hint`, `moves`, `undo` and a bad move are handled.
    let text = play(
        &["--preset", "simple"],
        "hint\nmoves\ntap 3→3\ntap 1->1\nundo\ntap 1->1\n",
    );
    assert!(text.contains("You are at lose in 8"), "{text}");
    assert!(text.contains("Your moves: tap 1→1"), "{text}");
    assert!(text.contains("is not a legal move"), "{text}");
    assert!(text.contains("Taken back."), "{text}");
    assert!(text.contains("The computer (Player 2) plays"), "{text}");
    // Keep playing the first legal move until the game ends: the computer wins.
    let mut input = String::new();
    for _ in 0..40 {
        input.push_str("tap 1->1\ntap 1->2\ntap 2->1\ntap 2->2\ntap 1->3\ntap 3->1\ntap 2->3\ntap 3->2\ntap 3->3\ntap 1->4\ntap 4->1\n");
    }
    let text = play(&["--preset", "simple"], &input);
    assert!(text.contains("Game over: the computer wins."), "{text}");
    // The computer moving first in the standard game wins too.
    let text = play(&["--computer-first"], &input);
    assert!(text.contains("Game over: the computer wins."), "{text}");
}

#[test]
fn play_ends_on_input_end_and_draws_by_repetition() {
    let text = play(&["--preset", "rahman"], "");
    assert!(text.contains("Input ended."), "{text}");
    let text = play(
        &[
            "--preset",
            "rahman",
            "--computer-first",
            "--repetitions",
            "2",
        ],
        &"hint\n".repeat(3),
    );
    assert!(
        text.contains("Input ended.") || text.contains("draw"),
        "{text}"
    );
}

#[test]
fn strategy_for_won_and_drawn_variants() {
    let v = json(&["strategy", "--json"]);
    // Players are numbered from 1; configurations are arrays of hands, each
    // player's ascending (Wikipedia's `[2,1],[1,1]`).
    assert_eq!(v["player"], 1);
    assert_eq!(v["verified"], true);
    let configurations = v["configurations"].as_array().unwrap();
    assert!(configurations
        .iter()
        .any(|c| c == &serde_json::json!([[1, 2], [1, 1]])));
    let v = json(&["strategy", "--preset", "simple", "--json"]);
    assert_eq!(v["player"], 2);
    let v = json(&["strategy", "--preset", "rahman", "--json"]);
    assert_eq!(v["player"], serde_json::Value::Null);
    assert!(!v["avoid"].as_array().unwrap().is_empty());
}

#[test]
fn solver_errors() {
    fails_with(&["query", "99-11"], "out of range");
    fails_with(&["strategy", "--start", "0011"], "already over");
    // Too large for memory: refused up front with the estimate.
    let big = ["--preset", "rollover", "--hands", "16", "--fingers", "10"];
    fails_with(
        &[&["solve"], &big[..]].concat(),
        "needs about 12.3 TiB of memory",
    );
    fails_with(
        &[&["stats"], &big[..]].concat(),
        "needs about 1.4 TiB of memory",
    );
}

#[test]
fn survey_tabulates_start_values() {
    // The paper's n = 2 (F = 3): (1^a | 1^a) is a second-player win exactly when a is
    // odd (Proposition 2), and (1^a | 1^a)_3 (F = 4) is a first-player win
    // (Proposition 4).
    let v = json(&[
        "survey",
        "--preset",
        "simple",
        "--fingers-range",
        "3..4",
        "--hands-range",
        "1..4",
        "--json",
    ]);
    let starts: Vec<(u64, u64, String)> = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["hands"][0].as_u64().unwrap(),
                r["fingers"].as_u64().unwrap(),
                r["start"]["value"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for (hands, fingers, value) in starts {
        let expected = if fingers == 4 || hands % 2 == 0 {
            "win"
        } else {
            "lose"
        };
        assert_eq!(value, expected, "{hands} hands, F = {fingers}");
    }
    let v = json(&[
        "survey",
        "--fingers-range",
        "5",
        "--hands-range",
        "2",
        "--json",
    ]);
    assert_eq!(v["variants"][0]["start"]["remoteness"], 23);
    fails_with(&["survey", "--fingers-range", "9..2"], "empty range");
}
