//! End-to-end tests of three or more players: coalition values and team play in
//! `solve`, `query`, `play`, and the errors of bad input.

use crate::common;

use common::{fails_with, json, run_with_input};

#[test]
fn solve_reports_every_seat() {
    let v = json(&["solve", "--preset", "rollover", "--players", "3", "--json"]);
    assert_eq!(v["concept"], "coalition");
    // Wikipedia's count of three-player positions (docs/FINDINGS.md).
    assert_eq!(v["reachable"], 3141);
    let seats = v["start_players"].as_array().unwrap();
    assert_eq!(seats.len(), 3);
    // Nobody survives a coalition of the other two: each is forced out. Players
    // are numbered from 1.
    for (seat, want) in [(0, 9), (1, 10), (2, 11)] {
        assert_eq!(seats[seat]["player"], seat + 1, "{v}");
        assert_eq!(seats[seat]["value"], "lose", "{v}");
        assert_eq!(seats[seat]["remoteness"], want, "{v}");
    }
    assert_eq!(v["start_player"], 1);
    assert_eq!(v["start"]["value"], seats[0]["value"]);
    assert_eq!(v["start"]["remoteness"], seats[0]["remoteness"]);
    let counts = v["by_turn"].as_array().unwrap();
    assert_eq!(counts.len(), 3);
    let in_play = 3141 - v["terminal"].as_u64().unwrap();
    for c in counts {
        let sum =
            c["win"].as_u64().unwrap() + c["lose"].as_u64().unwrap() + c["draw"].as_u64().unwrap();
        assert_eq!(sum, in_play);
    }
    // Seat 0's counts are the mover's (the `win`, `lose`, `draw` keys).
    assert_eq!(counts[0]["win"], v["win"]);
    assert_eq!(counts[0]["draw"], v["draw"]);

    let v = json(&["solve", "--players", "4", "--teams", "--json"]);
    assert_eq!(v["concept"], "teams");
    assert_eq!(v["start"]["value"], "draw");
    let seats = v["start_players"].as_array().unwrap();
    assert_eq!(seats.len(), 4);
    assert!(seats.iter().all(|s| s["value"] == "draw"));
}

#[test]
fn query_lists_every_seat_and_every_move() {
    let v = json(&["query", "111111", "--players", "3", "--json"]);
    let seats = v["players"].as_array().unwrap();
    assert_eq!(seats.len(), 3);
    assert_eq!(v["player"], 1);
    assert_eq!(v["position"], "1_11-11-11");
    assert_eq!(v["value"], seats[0]["value"]);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    for m in moves {
        let after = m["players"].as_array().unwrap();
        assert_eq!(after.len(), 3);
        assert_eq!(after[0]["player"], 1);
        assert_eq!(after[0]["value"], m["value"]);
        assert_eq!(after[0]["remoteness"], m["remoteness"]);
    }
    // The mover's best move keeps its own value; the value is one ply longer
    // than the same player's value in the position the move leads to, which is
    // seated: the next mover is named.
    assert_eq!(moves[0]["remoteness"], seats[0]["remoteness"]);
    let to = moves[0]["to"].as_str().unwrap();
    let child = json(&["query", to, "--players", "3", "--json"]);
    assert_eq!(child["position"], to);
    let child_players = child["players"].as_array().unwrap();
    let r = child_players[0]["remoteness"].as_u64().unwrap();
    assert_eq!(moves[0]["remoteness"].as_u64().unwrap(), r + 1);

    let v = json(&["query", "11111111", "--players", "4", "--teams", "--json"]);
    assert_eq!(v["concept"], "teams");
    assert_eq!(v["players"].as_array().unwrap().len(), 4);
}

#[test]
fn play_three_players_and_teams_with_piped_input() {
    let text = run_with_input(
        &["play", "--players", "3", "-q"],
        "hint\nmoves\ntap 1->1@5\ntap 1->1@1\nundo\ntap 1->1@2\n",
    );
    assert!(text.contains("You are Player 1 of 3"), "{text}");
    assert!(
        text.contains("lose in 9 (for you against all the others)"),
        "{text}"
    );
    assert!(
        text.contains("there is no player 5 places after you"),
        "{text}"
    );
    assert!(text.contains("Player 2 plays"), "{text}");
    assert!(text.contains("Player 3 plays"), "{text}");
    assert!(text.contains("Taken back."), "{text}");
    // Playing on to the end (attacks only, so the game is finite): every tap is
    // offered in turn, the illegal ones refused, until the game is over.
    let mut input = String::new();
    for _ in 0..40 {
        for (a, b, k) in [
            (1, 1, 1),
            (1, 2, 1),
            (2, 1, 1),
            (2, 2, 1),
            (1, 1, 2),
            (1, 2, 2),
            (2, 1, 2),
            (2, 2, 2),
        ] {
            input.push_str(&format!("tap {a}->{b}@{k}\n"));
        }
    }
    let text = run_with_input(
        &[
            "play",
            "--preset",
            "simple",
            "--players",
            "3",
            "--fingers",
            "3",
            "-q",
        ],
        &input,
    );
    assert!(text.contains("Game over: "), "{text}");
    assert!(text.contains("wins") || text.contains("you win"), "{text}");

    let text = run_with_input(
        &["play", "--players", "4", "--teams", "--seat", "2", "-q"],
        "tap 1->1@2\nhint\n",
    );
    assert!(text.contains("your team is Players 2 and 4"), "{text}");
    assert!(text.contains("Player 1 plays"), "{text}");
    assert!(text.contains("is your teammate"), "{text}");
    assert!(text.contains("(for your team)"), "{text}");
}

#[test]
fn bad_input_for_many_players() {
    fails_with(
        &["solve", "--players", "3", "--teams"],
        "even number of players",
    );
    fails_with(
        &["solve", "--variant", "standard.p5.teams"],
        "even number of players",
    );
    fails_with(
        &["query", "11-11", "--players", "3"],
        "2 players given, the ruleset has 3",
    );
    fails_with(&["query", "11-11-11"], "3 players given, the ruleset has 2");
    fails_with(
        &["play", "--players", "3", "--seat", "4"],
        "there is no Player 4",
    );
    fails_with(
        &["play", "--players", "3", "--seat", "0"],
        "there is no Player 0",
    );
}

#[test]
fn strategy_for_a_seat_that_beats_a_coalition_and_for_teams() {
    // Three players, standard rules, from 01-01-03: the second player wins in 10
    // against the other two together.
    let v = json(&["strategy", "--players", "3", "--start", "010103", "--json"]);
    assert_eq!(v["concept"], "coalition");
    // Players are numbered from 1: Player 2 wins.
    assert_eq!(v["player"], 2);
    assert_eq!(v["verified"], true);
    assert_eq!(v["start_players"][1]["player"], 2);
    assert_eq!(v["start_players"][1]["value"], "win");
    assert_eq!(v["start_players"][1]["remoteness"], 10);
    let configurations = v["configurations"].as_array().unwrap();
    assert!(!configurations.is_empty());
    // Three players' hands each, yours first, as arrays.
    assert!(configurations
        .iter()
        .all(|c| c.as_array().unwrap().len() == 3));
    assert!(v["positions_faced"].as_u64().unwrap() >= 1);

    // From the start nobody beats a coalition; the text says how fast each falls.
    let out = common::stdout(&["strategy", "--players", "3", "-q"]);
    assert!(
        out.contains("No player can force a win against all the others"),
        "{out}"
    );
    assert!(out.contains("Player 2 loses in 10"), "{out}");

    // Simple rules at F = 3, two against two: the first player's team wins in 13.
    let v = json(&[
        "strategy",
        "--preset",
        "simple",
        "--fingers",
        "3",
        "--players",
        "4",
        "--teams",
        "--json",
    ]);
    assert_eq!(v["concept"], "teams");
    assert_eq!(v["player"], 1);
    assert_eq!(v["start"]["value"], "win");
    assert_eq!(v["start"]["remoteness"], 13);
    assert_eq!(v["win_immediately"], true);
    let out = common::stdout(&[
        "strategy",
        "--preset",
        "simple",
        "--fingers",
        "4",
        "--players",
        "4",
        "--teams",
        "-q",
    ]);
    assert!(
        out.contains("Player 2's team (Players 2 and 4) can force a win (win in 17"),
        "{out}"
    );
    assert!(out.contains("Both partners"), "{out}");

    // Standard rules, two against two: a draw, with the configurations to avoid.
    let v = json(&["strategy", "--players", "4", "--teams", "--json"]);
    assert_eq!(v["player"], serde_json::Value::Null);
    let avoid = v["avoid"].as_array().unwrap();
    assert!(!avoid.is_empty());
    assert_eq!(avoid.len(), v["avoid_loses_in"].as_array().unwrap().len());
    assert!(avoid.iter().all(|c| c.as_array().unwrap().len() == 4));
}

#[test]
fn refusals_come_before_the_work_and_hands_per_seat_are_kept() {
    // A variant's per-seat hands are kept by a matching --players, refused otherwise.
    let v = json(&[
        "rules",
        "--variant",
        "standard.h1-2-3",
        "--players",
        "3",
        "--json",
    ]);
    assert_eq!(v["ruleset"]["hands"], serde_json::json!([1, 2, 3]));
    fails_with(
        &["rules", "--variant", "standard.h1-2-3", "--players", "4"],
        "cannot keep the variant's hands per seat",
    );
    // Targets and notations that cannot work are refused before solving (this
    // variant takes a quarter of a minute to solve).
    let big = ["--preset", "rollover", "--players", "4", "--fingers", "10"];
    let with = |extra: &[&'static str], first: &'static str| -> Vec<&'static str> {
        let mut a = vec![first];
        a.extend(big);
        a.extend(extra);
        a
    };
    fails_with(
        &with(&["--save", "/nonexistent/x.sol"], "solve"),
        "No such file or directory",
    );
    fails_with(
        &with(&["--output", "/dev/full"], "export"),
        "character device",
    );
    fails_with(&with(&["--notation", "paper"], "solve"), "two players only");
    fails_with(
        &[
            "export",
            "--preset",
            "rollover",
            "--hands",
            "5",
            "--fingers",
            "12",
            "--notation",
            "compact",
        ],
        "dashed",
    );
    // `--output -` is standard output.
    let out = common::stdout(&[
        "export",
        "--players",
        "3",
        "--fingers",
        "2",
        "--output",
        "-",
        "-q",
    ]);
    assert!(out.starts_with("{\"position\""), "{out}");
    // Misère: being out is winning, so the text says "beat", not "force out".
    let out = common::stdout(&["solve", "--players", "3", "--misere", "-q"]);
    assert!(
        out.contains("the others together beat Player 1 in"),
        "{out}"
    );
}
