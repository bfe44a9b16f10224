//! `review`, `puzzles`, `query --line`, `strategy --svg/--png` and `play
//! --record` through the real binary, as a person uses them: records from files
//! and standard input, bad records, puzzles played through standard input, a
//! saved solution forged under a review.

mod common;

use common::{fails_with, json, run, run_with_input, stdout, text};

/// A game of standard Chopsticks with a thrown-away win at move 1 (the best
/// move is `self 1→1`, win in 23; `tap 1→1` loses in 14) and a slower win at
/// move 6.
const GAME: &str = "# a test game\nvariant standard\n1. tap 1→1\n2. tap 2→1\n3. tap 1→2\n4. tap 1→1\n5. tap 2->1\n6. tap 3→3\n";

fn write(dir: &std::path::Path, name: &str, content: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

#[test]
fn review_classifies_every_move_and_names_the_refutation() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "game.txt", GAME);
    let r = json(&["review", text(&game), "--json"]);
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    assert_eq!(r["start_value"]["value"], "win");
    assert_eq!(moves[0]["verdict"]["kind"], "win-to-loss");
    assert_eq!(moves[0]["before"]["remoteness"], 23);
    assert_eq!(moves[0]["after"]["remoteness"], 14);
    assert_eq!(moves[0]["best"][0], "self 1→1");
    assert_eq!(moves[5]["verdict"]["kind"], "slower-win");
    assert_eq!(moves[5]["verdict"]["plies"], 8);
    // The refutation of move 1 starts after it and ends the game in 14 plies
    // (the mover's loss in 14: 13 plies after the opponent's first reply).
    let refutation = &moves[0]["refutation"];
    assert_eq!(refutation["start"], moves[0]["to"]);
    assert_eq!(refutation["steps"].as_array().unwrap().len(), 13);
    assert_eq!(refutation["end"]["kind"], "finished");
    assert_eq!(refutation["steps"][0]["player"], 2);
    // Accuracy: Player 1 kept the value at none of 3 moves; Player 2 at 1.
    assert_eq!(r["players"][0]["accuracy"], 0.0);
    assert_eq!(r["players"][1]["kept"], 1);

    // The same from standard input, in text.
    let out = run_with_input(&["review", "-"], GAME);
    assert!(out.contains("1. P1 tap 1→1"), "{out}");
    assert!(out.contains("?? a win thrown away: now a loss"), "{out}");
    assert!(out.contains("best move: self 1→1 (win in 23)"), "{out}");
    assert!(out.contains("refutation of tap 1→1: P2 "), "{out}");
    assert!(out.contains("?! a slower win (8 plies longer)"), "{out}");
    assert!(out.contains("Player 1: 3 moves, accuracy 0%"), "{out}");
    // Only the mistakes, without lines.
    let short = run_with_input(&["review", "--mistakes", "--no-lines"], GAME);
    assert!(!short.contains("refutation"), "{short}");
    assert!(
        !short.contains("P2 tap 3→3  win in 5    → win in 5"),
        "{short}"
    );
}

#[test]
fn bad_records_are_refused_with_the_line_and_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let illegal = write(
        dir.path(),
        "a.txt",
        "variant standard\ntap 1→1\n\ntap 4→4\n",
    );
    fails_with(
        &["review", text(&illegal)],
        "line 4: move 2 `tap 4→4` is not a legal move at 2_1112 (Player 2 to move; legal: tap 1→1, tap 2→1, self 1→2, self 2→1)",
    );
    let numbered = write(
        dir.path(),
        "b.txt",
        "variant standard\n1. tap 1→1\n3. tap 1→1\n",
    );
    fails_with(
        &["review", text(&numbered)],
        "line 3: `3. tap 1→1` is numbered 3, but it is move 2",
    );
    let unknown = write(dir.path(), "c.txt", "variant nonsense.h2\ntap 1→1\n");
    fails_with(&["review", text(&unknown)], "line 1: variant `nonsense.h2`");
    let other = write(dir.path(), "d.txt", "variant rollover\ntap 1→1\n");
    fails_with(
        &["review", text(&other), "--preset", "standard"],
        "the game record is of variant rollover, but the solution is of standard",
    );
    let after_end = write(
        dir.path(),
        "e.txt",
        "variant standard\nstart 1_1204\ntap 1→4\ntap 1→1\n",
    );
    fails_with(
        &["review", text(&after_end)],
        "line 4: move 2 `tap 1→1`: the game is already over at 2_1200",
    );
    let binary = dir.path().join("f.bin");
    std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
    fails_with(&["review", text(&binary)], "not UTF-8 text");
    fails_with(
        &["review", text(&dir.path().join("missing.txt"))],
        "cannot open",
    );
    fails_with(&["review", text(dir.path())], "is not a regular file");
    // No variant in the record: the rule flags give it.
    let bare = write(dir.path(), "g.txt", "tap 1→1\n");
    let out = stdout(&["review", text(&bare), "--preset", "rollover"]);
    assert!(out.contains("Review of a game of rollover"), "{out}");
    let out = stdout(&["review", text(&bare)]);
    assert!(out.contains("Review of a game of standard"), "{out}");
}

#[test]
fn a_forged_saved_solution_is_not_believed_by_a_review() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("standard.sol");
    stdout(&["solve", "--save", text(&db), "-q"]);
    let game = write(dir.path(), "game.txt", GAME);
    let honest = json(&["review", text(&game), "--db", text(&db), "--json"]);
    let solved_here = json(&["review", text(&game), "--json"]);
    assert_eq!(honest, solved_here);
    // The value of the position after move 1 changed, checksums recomputed.
    let rules = chopsticks_rules::Ruleset::from_variant_id("standard").unwrap();
    let after_move_1 = chopsticks_rules::Position::parse("1211", &rules).unwrap();
    common::forge::set_value(&db, &rules, &after_move_1, 0);
    let out = run(&["review", text(&game), "--db", text(&db)]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("inconsistent solution"), "{err}");
}

#[test]
fn query_shows_the_line_after_each_move() {
    let q = json(&["query", "1213", "--line", "--json"]);
    let line = &q["line"];
    assert_eq!(line["steps"].as_array().unwrap().len(), 7);
    assert_eq!(line["end"]["kind"], "finished");
    for m in q["moves"].as_array().unwrap() {
        let after = &m["line"];
        // A won or lost move's line is one ply shorter than its remoteness.
        let r = m["remoteness"].as_u64().unwrap();
        assert_eq!(
            after["steps"].as_array().unwrap().len() as u64,
            r - 1,
            "{m}"
        );
    }
    let out = stdout(&["query", "1111", "--line", "--preset", "rollover"]);
    assert!(out.contains("Best play from here: P1 "), "{out}");
    assert!(out.contains(": a draw)"), "{out}");
    assert!(out.contains("      then: P2 "), "{out}");
}

#[test]
fn puzzles_are_listed_chosen_by_seed_and_checked() {
    let a = json(&["puzzles", "--count", "5", "--seed", "7", "--json"]);
    let b = json(&["puzzles", "--count", "5", "--seed", "7", "--json"]);
    assert_eq!(a, b);
    assert_eq!(a["total"], 50);
    assert_eq!(a["reachable"], 199);
    let puzzles = a["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 5);
    for p in puzzles {
        // Exactly one move keeps the win, checked by querying every move.
        let q = json(&["query", p["position"].as_str().unwrap(), "--json"]);
        let wins: Vec<&serde_json::Value> = q["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["value"] == "win")
            .collect();
        assert_eq!(wins.len(), 1, "{p}");
        assert_eq!(wins[0]["move"], p["answer"]);
    }
    let hard = json(&[
        "puzzles",
        "--count",
        "100",
        "--difficulty",
        "hard-expert",
        "--json",
    ]);
    for p in hard["puzzles"].as_array().unwrap() {
        assert!(p["difficulty"].as_u64().unwrap() >= 4, "{p}");
    }
    // Rollover is a draw: its puzzles include positions to hold.
    let hold = json(&[
        "puzzles", "--preset", "rollover", "--kind", "hold", "--count", "3", "--json",
    ]);
    assert!(hold["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["kind"] == "hold"));
    assert!(!hold["puzzles"].as_array().unwrap().is_empty());
    fails_with(
        &["puzzles", "--difficulty", "7"],
        "--difficulty: `7` is not a grade",
    );
    fails_with(&["puzzles", "--difficulty", "5-1"], "is empty");
    fails_with(
        &["puzzles", "--position", "1213"],
        "1_1213 is not a puzzle: 3 of its 6 moves win",
    );
    // One puzzle by its position, with its answer.
    let p = &puzzles[0];
    let one = stdout(&["puzzles", "--position", p["position"].as_str().unwrap()]);
    assert!(one.contains(p["goal"].as_str().unwrap()), "{one}");
    assert!(
        one.contains(&format!(
            "{} ({} in {})",
            p["answer"].as_str().unwrap(),
            p["value"]["value"].as_str().unwrap(),
            p["value"]["remoteness"]
        )),
        "{one}"
    );
}

#[test]
fn puzzles_are_played_through_standard_input() {
    // The first puzzle of seed 3, missed, then the second solved after a hint.
    let set = json(&["puzzles", "--count", "2", "--seed", "3", "--json"]);
    let first = &set["puzzles"][0];
    let second = &set["puzzles"][1];
    let wrong = first["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["answer"] == false)
        .unwrap()["move"]
        .as_str()
        .unwrap()
        .to_string();
    let input = format!(
        "not a move\n{wrong}\nhint\n{}\n",
        second["answer"].as_str().unwrap().replace('→', "->")
    );
    let out = run_with_input(
        &["puzzles", "--count", "2", "--seed", "3", "--play"],
        &input,
    );
    assert!(
        out.contains("`not a move` is not a legal move here."),
        "{out}"
    );
    assert!(
        out.contains(&format!("Not this one: {wrong} gives")),
        "{out}"
    );
    assert!(
        out.contains(&format!("Hint: {}", second["hint"].as_str().unwrap())),
        "{out}"
    );
    assert!(out.contains("Right! "), "{out}");
    assert!(out.contains("Streak: 1."), "{out}");
    assert!(out.contains("Solved 1 of 2; best streak 1."), "{out}");
}

#[test]
fn the_strategy_sheet_is_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("sheet.svg");
    let png = dir.path().join("sheet.png");
    stdout(&["strategy", "--svg", text(&svg), "--png", text(&png), "-q"]);
    let drawing = std::fs::read_to_string(&svg).unwrap();
    // 23 configurations and the immediate win: 24 cards.
    assert_eq!(drawing.matches("class=\"card\"").count(), 24);
    assert!(drawing.starts_with("<svg"));
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"));
    // A drawn variant: the traps.
    stdout(&[
        "strategy",
        "--preset",
        "rollover",
        "--svg",
        text(&svg),
        "-q",
    ]);
    let drawing = std::fs::read_to_string(&svg).unwrap();
    assert!(drawing.contains("they win in 1"), "traps with their notes");
    // A path that cannot be written: refused, nothing left behind.
    fails_with(
        &[
            "strategy",
            "--svg",
            text(&dir.path().join("no/such/dir/s.svg")),
        ],
        "cannot write the sheet",
    );
}

#[test]
fn a_game_played_in_the_terminal_is_recorded_and_reviewed() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.txt");
    run_with_input(
        &["play", "--record", text(&record), "-q"],
        "tap 1->1\nquit\n",
    );
    let written = std::fs::read_to_string(&record).unwrap();
    assert!(
        written.contains("variant standard\n1. tap 1→1\n2. "),
        "{written}"
    );
    let r = json(&["review", text(&record), "--json"]);
    assert_eq!(r["moves"][0]["verdict"]["kind"], "win-to-loss");
    assert_eq!(r["moves"][1]["verdict"]["kind"], "best");
}
