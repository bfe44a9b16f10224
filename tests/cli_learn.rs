//! `review`, `puzzles`, `query --line`, `strategy --svg/--png` and `play
//! --record` through the real binary, as a person uses them: records from files
//! and standard input, bad records, puzzles played through standard input, a
//! saved solution forged under a review.

use crate::common;

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
    // 50 positions with one winning move, 35 more with at most half winning.
    assert_eq!(a["total"], 85);
    assert_eq!(a["reachable"], 199);
    let puzzles = a["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 5);
    for p in puzzles {
        // The accepted moves are the winning ones, checked by querying every
        // move; at most half of them; listed in the rules' order.
        let q = json(&["query", p["position"].as_str().unwrap(), "--json"]);
        let all = q["moves"].as_array().unwrap();
        let mut wins: Vec<&str> = all
            .iter()
            .filter(|m| m["value"] == "win")
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        wins.sort();
        let mut accepted: Vec<&str> = p["accepted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(accepted[0], p["answer"]);
        accepted.sort();
        assert_eq!(accepted, wins, "{p}");
        assert!(2 * wins.len() <= all.len());
        let listed = json(&["moves", p["position"].as_str().unwrap(), "--json"]);
        let order: Vec<&serde_json::Value> = listed["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| &m["move"])
            .collect();
        let shown: Vec<&serde_json::Value> = p["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| &m["move"])
            .collect();
        assert_eq!(shown, order, "the rules' order, as `moves` lists them");
        // The solution: the expected moves and the replies, to the end of the
        // game, each ply from where the one before ended.
        let steps = p["solution"]["steps"].as_array().unwrap();
        assert_eq!(steps[0]["move"], p["answer"]);
        assert_eq!(steps[0]["position"], p["position"]);
        for w in steps.windows(2) {
            assert_eq!(w[0]["to"], w[1]["position"]);
            assert_ne!(w[0]["expected"], w[1]["expected"], "turns alternate");
        }
        assert_eq!(p["solution"]["end"]["kind"], "finished");
        let last = json(&[
            "query",
            steps.last().unwrap()["to"].as_str().unwrap(),
            "--json",
        ]);
        assert_eq!(
            last["moves"].as_array().unwrap().len(),
            0,
            "the game is over"
        );
        assert_eq!(
            steps.len() as u64,
            p["value"]["remoteness"].as_u64().unwrap()
        );
        // The grade from its score, explained.
        let why = p["why"].as_array().unwrap();
        assert!(why
            .last()
            .unwrap()
            .as_str()
            .unwrap()
            .starts_with(&format!("Score {}:", p["score"])));
        assert!(p["rating"].as_u64().unwrap() >= 1000);
    }
    // Hidden answers: no answer, no solution, no reason naming a move.
    let hidden = json(&[
        "puzzles",
        "--count",
        "1",
        "--seed",
        "7",
        "--json",
        "--hide-answers",
    ]);
    for key in ["answer", "accepted", "solution", "why"] {
        assert!(hidden["puzzles"][0].get(key).is_none(), "{key}");
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
    // Rollover is a draw: its puzzles include positions to hold, held until
    // the draw is safe.
    let hold = json(&[
        "puzzles", "--preset", "rollover", "--kind", "hold", "--count", "3", "--json",
    ]);
    let holds = hold["puzzles"].as_array().unwrap();
    assert!(!holds.is_empty());
    for p in holds {
        assert_eq!(p["kind"], "hold");
        let end = p["solution"]["end"]["kind"].as_str().unwrap();
        assert!(["safe", "repeated", "held"].contains(&end), "{p}");
    }
    fails_with(
        &["puzzles", "--difficulty", "7"],
        "--difficulty: `7` is not a grade",
    );
    fails_with(&["puzzles", "--difficulty", "5-1"], "is empty");
    fails_with(
        &["puzzles", "--position", "1_1114"],
        "1_1114 is not a puzzle: 2 of its 3 moves win: a puzzle has at most half of its moves good",
    );
    // One puzzle by its position, with its solution and why it is graded so.
    let p = &puzzles[0];
    let one = stdout(&["puzzles", "--position", p["position"].as_str().unwrap()]);
    assert!(one.contains(p["goal"].as_str().unwrap()), "{one}");
    assert!(
        one.contains(&format!(
            "P{} {}",
            p["player"],
            p["answer"].as_str().unwrap()
        )),
        "{one}"
    );
    assert!(one.contains("(the game is over: won)."), "{one}");
    assert!(one.contains(p["why"][0].as_str().unwrap()), "{one}");
}

#[test]
fn a_worksheet_is_drawn_for_a_class() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("worksheet.svg");
    let out = run(&[
        "puzzles",
        "--count",
        "8",
        "--seed",
        "3",
        "--svg",
        text(&svg),
    ]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("8 puzzles on 3 A4 pages (the answers on page 3)"),
        "{err}"
    );
    let drawing = std::fs::read_to_string(&svg).unwrap();
    assert!(drawing.starts_with("<svg"));
    // Each puzzle drawn once with its goal and position, then its answer.
    let set = json(&["puzzles", "--count", "8", "--seed", "3", "--json"]);
    assert_eq!(drawing.matches("class=\"puzzle\"").count(), 8);
    assert_eq!(drawing.matches("class=\"page\"").count(), 3);
    assert!(
        drawing.contains("height=\"3369\""),
        "three A4 pages stacked"
    );
    for (k, p) in set["puzzles"].as_array().unwrap().iter().enumerate() {
        assert!(drawing.contains(&format!(">{}</text>", p["position"].as_str().unwrap())));
        let answer = format!(">{}. {}", k + 1, p["accepted"][0].as_str().unwrap());
        assert!(drawing.contains(&answer), "{answer}");
    }
    // A path that cannot be written: refused, nothing left behind.
    fails_with(
        &["puzzles", "--svg", "/nonexistent/dir/w.svg"],
        "cannot write the worksheet /nonexistent/dir/w.svg",
    );
    fails_with(
        &["puzzles", "--svg", text(&svg), "--play"],
        "cannot be used with",
    );
    // No puzzle: nothing written, an error.
    let empty = dir.path().join("empty.svg");
    fails_with(
        &["puzzles", "--kind", "hold", "--svg", text(&empty)],
        "no puzzle of the kind and grade asked for",
    );
    assert!(!empty.exists());
    // Without the answers.
    let bare = dir.path().join("bare.svg");
    stdout(&[
        "puzzles",
        "--count",
        "8",
        "--seed",
        "3",
        "--svg",
        text(&bare),
        "--hide-answers",
        "-q",
    ]);
    let drawing = std::fs::read_to_string(&bare).unwrap();
    assert_eq!(drawing.matches("class=\"page\"").count(), 2);
    assert!(!drawing.contains(">Answers<"));
}

/// `query --history`: the values of a game in progress, the cycle of
/// 1_1313 come round twice (its next split would bring it up a third time).
#[test]
fn query_with_a_history_counts_the_games_repetitions() {
    let before = "1_1313,2_2213,1_2222,2_1322,1_1313,2_2213,1_2222";
    let g = json(&["query", "2_1322", "--history", before, "--json"]);
    assert_eq!(g["plies"], 7);
    assert_eq!(g["times_seen"], 2);
    let back = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["to"] == "1_1313")
        .unwrap();
    assert_eq!(back["repetition"], true);
    assert_eq!(back["value"], "draw");
    let alone = json(&["query", "2_1322", "--json"]);
    assert_eq!(g["table_value"], alone["value"]);
    let out = stdout(&["query", "2_1322", "--history", before]);
    assert!(
        out.contains("after 7 plies (repetitions: 3; this position seen 2 times)"),
        "{out}"
    );
    assert!(
        out.contains(
            "split 22→13      → 1_1313  draw (brings a position up for the last time: a draw by repetition)"
        ),
        "{out}"
    );
    let free = json(&[
        "query",
        "2_1322",
        "--history",
        before,
        "--repetitions",
        "none",
        "--json",
    ]);
    assert_eq!(free["value"], alone["value"]);
    assert_eq!(free["remoteness"], alone["remoteness"]);
    let over = stdout(&["query", "1_1313", "--history", &format!("{before},2_1322")]);
    assert!(
        over.contains("The game is over: a draw by repetition (the position came up 3 times)."),
        "{over}"
    );
    fails_with(
        &["query", "1_1313", "--history", "1_1111"],
        "position 2 (1_1313) does not follow 1_1111 by a legal move",
    );
    fails_with(
        &["query", "1_1313", "--history", "1_1111,zz"],
        "--history: position 2:",
    );
    fails_with(
        &["query", "1_1313", "--history", "1_1111,,2_1211"],
        "--history: position 2 is empty",
    );
    fails_with(
        &["query", "2_1322", "--history", &format!("{before},2_1322")],
        "leave the position now out",
    );
    fails_with(
        &[
            "query",
            "1_1313",
            "--history",
            "1_1111",
            "--repetitions",
            "1",
        ],
        "--repetitions",
    );
}

/// The first move of a puzzle (as `puzzles --json` lists it) not accepted.
fn a_wrong_move(puzzle: &serde_json::Value) -> String {
    let moves = puzzle["moves"].as_array().unwrap();
    let wrong = moves.iter().find(|m| m["answer"] == false).unwrap();
    wrong["move"].as_str().unwrap().to_string()
}

/// Plays the puzzles of `args` with `input`, the rating kept in `data`.
fn play_puzzles(args: &[&str], input: &str, data: &std::path::Path) -> String {
    let out = common::run_input_with_env(args, input, &[("CHOPSTICKS_DATA_DIR", data)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn puzzles_are_played_to_the_end_through_standard_input() {
    let data = tempfile::tempdir().unwrap();
    // The first puzzle of seed 3 (played easiest first) missed; the second
    // played out to the end of the game by its solution, a slower win tried
    // on the way.
    let set = json(&["puzzles", "--count", "2", "--seed", "3", "--json"]);
    let mut puzzles = set["puzzles"].as_array().unwrap().clone();
    puzzles.sort_by_key(|p| p["difficulty"].as_u64().unwrap());
    let (first, second) = (&puzzles[0], &puzzles[1]);
    let wrong = a_wrong_move(first);
    let mine: Vec<String> = second["solution"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["expected"] == true)
        .map(|s| s["move"].as_str().unwrap().replace('→', "->"))
        .collect();
    let input = format!("not a move\n{wrong}\n{}\n", mine.join("\n"));
    let args = ["puzzles", "--count", "2", "--seed", "3", "--play"];
    let out = play_puzzles(&args, &input, data.path());
    assert!(
        out.contains(
            "`not a move` is not a move (`not` is not a kind of move: tap, self, split or pass)."
        ),
        "{out}"
    );
    assert!(
        out.contains(&format!("Not this one: {wrong} gives")),
        "{out}"
    );
    assert!(out.contains("The solution from here: P"), "{out}");
    assert!(out.contains("Right. Player 2 replies "), "{out}");
    assert!(out.contains("Solved: the game is over: won."), "{out}");
    assert!(out.contains("Streak: 1."), "{out}");
    assert!(out.contains("Solved 1 of 2 played cleanly"), "{out}");
    // The rating: kept in the data directory, read back by the next run.
    assert!(
        out.contains("Your puzzle rating: 1500 ± 350 (0 puzzles"),
        "{out}"
    );
    let kept: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(data.path().join("puzzle-rating.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(kept["puzzles"], 2);
    assert_eq!(kept["solved"], 1);
    let rating = kept["rating"].as_f64().unwrap();
    let again = play_puzzles(&args, "quit\n", data.path());
    assert!(
        again.contains(&format!("Your puzzle rating: {rating:.0} ± ")),
        "{again}"
    );
    assert!(again.contains("(2 puzzles, kept in "), "{again}");
    // A corrupted rating is refused, and left as it was.
    std::fs::write(data.path().join("puzzle-rating.json"), "{not json").unwrap();
    let out = common::run_input_with_env(&args, "quit\n", &[("CHOPSTICKS_DATA_DIR", data.path())]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot be read") && err.contains("delete it to start again"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(data.path().join("puzzle-rating.json")).unwrap(),
        "{not json"
    );
}

#[test]
fn a_puzzle_is_followed_by_the_moves_played() {
    let p = json(&[
        "puzzles",
        "--position",
        "1_2312",
        "--played",
        "t32",
        "--json",
    ]);
    let progress = &p["progress"];
    assert_eq!(progress["verdict"], "right");
    assert_eq!(progress["moves"], 1);
    assert_eq!(progress["replies"][0]["player"], 2);
    assert_eq!(progress["position"], progress["replies"][0]["to"]);
    assert_eq!(
        progress["rest"]["steps"][0]["position"],
        progress["position"]
    );
    let out = stdout(&["puzzles", "--position", "1_2312", "--played", "t21"]);
    assert!(
        out.contains("0 moves made; the last given, t21, is wrong: the puzzle is failed."),
        "{out}"
    );
    assert!(
        out.contains("The rest of the solution: P1 tap 3→2"),
        "{out}"
    );
    let mine: Vec<String> = p["solution"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["expected"] == true)
        .map(|s| s["move"].as_str().unwrap().to_string())
        .collect();
    let out = stdout(&[
        "puzzles",
        "--position",
        "1_2312",
        "--played",
        &mine.join(","),
    ]);
    assert!(
        out.contains("The puzzle is over: the game is over: won."),
        "{out}"
    );
    fails_with(
        &["puzzles", "--position", "1_2312", "--played", "t21,t32"],
        "the puzzle: it is over after move 1: move 2 (t32) cannot follow",
    );
    fails_with(&["puzzles", "--played", "t32"], "--position");
    fails_with(
        &["puzzles", "--position", "1_2312", "--played", "t32,,t33"],
        "move 2 of the list is empty",
    );
}

#[test]
fn a_slower_win_is_tried_again() {
    let data = tempfile::tempdir().unwrap();
    // The start: after the key move, a step where a slower win exists.
    let p = json(&["puzzles", "--position", "1_1111", "--json"]);
    assert!(p["steps"].as_u64().unwrap() >= 2);
    let steps = p["solution"]["steps"].as_array().unwrap();
    // Find the first of the player's later steps with a winning move that is
    // slower than the expected one.
    let mut input = Vec::new();
    let mut slower = None;
    for s in steps.iter().filter(|s| s["expected"] == true).skip(1) {
        let q = json(&["query", s["position"].as_str().unwrap(), "--json"]);
        let found = q["moves"].as_array().unwrap().iter().find(|m| {
            m["value"] == "win" && !s["accepted"].as_array().unwrap().contains(&m["move"])
        });
        if let Some(m) = found {
            slower = Some(m["move"].as_str().unwrap().to_string());
            break;
        }
        input.push(s["move"].as_str().unwrap().to_string());
    }
    let slower = slower.expect("a slower win on the way");
    let first = steps[0]["move"].as_str().unwrap().to_string();
    let mut lines = vec![first];
    lines.extend(input);
    lines.push(slower.clone());
    lines.push("quit".into());
    let out = play_puzzles(
        &["puzzles", "--position", "1_1111", "--play"],
        &lines.join("\n"),
        data.path(),
    );
    assert!(
        out.contains(&format!(
            "{slower} wins too, but slower: the puzzle asks for the fastest win. Try again."
        )),
        "{out}"
    );
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

/// The short form of a move's name, as a person types it: `tap 2→1` as `t21`,
/// `self 1→3` as `s13`, `split 13→22` as `split 13 22`.
fn short_form(name: &str) -> String {
    let (kind, rest) = name.split_once(' ').unwrap();
    let (a, b) = rest.split_once('→').unwrap();
    match kind {
        "tap" => format!("t{a}{b}"),
        "self" => format!("s{a}{b}"),
        _ => format!("split {a} {b}"),
    }
}

#[test]
fn play_prints_seated_positions_and_reads_short_moves() {
    // Every form of the same tap: the hands' values, not their places.
    for form in ["tap 1→1", "tap 1->1", "tap 1 1", "t11", "1 1"] {
        let out = run_with_input(&["play", "-q"], &format!("{form}\nquit\n"));
        assert!(
            out.contains("Moves name hands by the fingers they show (their values, not their places):\n  tap 1 2      or t12, 1 2, tap 1→2    your hand showing 1 taps the opponent's hand showing 2\n"),
            "{out}"
        );
        assert!(out.contains("You are Player 1;"), "{out}");
        assert!(
            out.contains("Position 1_1111: P1* [1,1] (you)  P2 [1,1] (computer)"),
            "{out}"
        );
        assert!(out.contains("You play tap 1→1."), "{out}");
        // Player 1's hands first whoever moves: Player 2 to move now.
        assert!(
            out.contains("Position 2_1112: P1 [1,1] (you)  P2* [1,2] (computer)"),
            "{form}: {out}"
        );
        assert!(out.contains("The computer (Player 2) plays "), "{out}");
    }
    // `tap 1 2` names values: the hand showing 1 taps the hand showing 2.
    let out = run_with_input(&["play", "-q", "--start", "1_1312"], "1 2\nquit\n");
    assert!(
        out.contains("Position 1_1312: P1* [1,3] (you)  P2 [1,2] (computer)"),
        "{out}"
    );
    assert!(out.contains("You play tap 1→2."), "{out}");
    assert!(out.contains("Position 2_1313: "), "{out}");
    // Self-taps and splits in their short forms.
    let out = run_with_input(
        &["play", "-q", "--start", "1_1312"],
        "s13\nundo\nsplit 13 22\nquit\n",
    );
    assert!(out.contains("You play self 1→3."), "{out}");
    assert!(out.contains("You play split 13→22."), "{out}");
    // Unknown commands say how moves are written; illegal moves list the legal ones.
    let out = run_with_input(&["play", "-q"], "dance\nt44\nquit\n");
    assert!(
        out.contains("`dance` is not a move (`dance` is not a kind of move: tap, self, split or pass). A move names hands by the fingers they show: `tap 1 2` (or `t12`, `1 2`, `tap 1→2`)"),
        "{out}"
    );
    assert!(
        out.contains("Commands: `moves`, `hint`, `undo`, `help`, `quit`, or a move."),
        "{out}"
    );
    assert!(
        out.contains("`t44` is not a legal move here; legal moves: tap 1→1, self 1→1"),
        "{out}"
    );
}

#[test]
fn play_starts_from_a_seated_position_with_whoever_is_to_move() {
    // Player 2 to move: you are Player 1, so the computer begins.
    let out = run_with_input(&["play", "-q", "--start", "2_1312"], "quit\n");
    assert!(
        out.contains("Player 2 is to move at the start: the computer begins."),
        "{out}"
    );
    assert!(
        out.contains("Position 2_1312: P1 [1,3] (you)  P2* [1,2] (computer)"),
        "{out}"
    );
    assert!(out.contains("The computer (Player 2) plays "), "{out}");
    // `--computer-first`: you take the seat after the mover.
    let out = run_with_input(
        &["play", "-q", "--start", "1_1312", "--computer-first"],
        "quit\n",
    );
    assert!(out.contains("You are Player 2;"), "{out}");
    assert!(
        out.contains("Position 1_1312: P1* [1,3] (computer)  P2 [1,2] (you)"),
        "{out}"
    );
    assert!(out.contains("The computer (Player 1) plays "), "{out}");
    // Any notation still reads (the mover first, Player 1 to move).
    let out = run_with_input(&["play", "-q", "--start", "13-12"], "quit\n");
    assert!(out.contains("Position 1_1312: "), "{out}");
    // Contradictions and impossible seats are refused.
    fails_with(
        &["play", "--computer-first", "--seat", "1"],
        "cannot be used with",
    );
    fails_with(
        &[
            "play",
            "--players",
            "3",
            "--start",
            "1_11-00-11",
            "--seat",
            "2",
        ],
        "you would be Player 2, who has no live hand at 1_11-00-11",
    );
    fails_with(&["play", "--start", "3_1111"], "--start");
    // Three players: every player by number, a tap names whom by number or `@k`.
    let out = run_with_input(
        &["play", "--players", "3", "-q"],
        "moves\ntap 1 1\ntap 1 1 P3\nquit\n",
    );
    assert!(out.contains("You are Player 1 of 3."), "{out}");
    assert!(
        out.contains(
            "Position 1_11-11-11: P1* [1,1] (you)  P2 [1,1] (computer)  P3 [1,1] (computer)"
        ),
        "{out}"
    );
    assert!(
        out.contains("Your moves: tap 1→1 P2, tap 1→1 P3, self 1→1"),
        "{out}"
    );
    assert!(out.contains("with 3 players say whom you tap"), "{out}");
    assert!(out.contains("  tap 1 2 P3   or t12p3, tap 1 2 @1"), "{out}");
    assert!(out.contains("You play tap 1→1 P3."), "{out}");
    assert!(out.contains("Player 2 plays "), "{out}");
    assert!(!out.contains("player 2"), "{out}");
}

#[test]
fn a_game_that_comes_back_three_times_is_a_draw() {
    // Rollover is a draw: with best play the line comes round. You play Player
    // 1's moves of the line, the computer its own best moves, which are the
    // line's: the start's cycle comes back a third time.
    let q = json(&["query", "1111", "--preset", "rollover", "--line", "--json"]);
    let steps = q["line"]["steps"].as_array().unwrap();
    let back_to = q["line"]["end"]["ply"].as_u64().unwrap() as usize;
    let cycle = &steps[back_to..];
    let mut line: Vec<&serde_json::Value> = steps.iter().collect();
    line.extend(cycle);
    line.extend(cycle);
    let input: String = line
        .iter()
        .filter(|s| s["player"] == 1)
        .map(|s| format!("{}\n", short_form(s["move"].as_str().unwrap())))
        .collect();
    let record = tempfile::tempdir().unwrap();
    let path = record.path().join("drawn.txt");
    let out = run_with_input(
        &[
            "play",
            "--preset",
            "rollover",
            "-q",
            "--record",
            text(&path),
        ],
        &input,
    );
    assert!(
        out.contains("Draw by threefold repetition: the same position, with the same player to move, came up a third time."),
        "{out}"
    );
    assert!(!out.contains("Input ended."), "{out}");
    // The record of that game reads back as a draw by repetition.
    let r = json(&["review", text(&path), "--json"]);
    assert_eq!(r["finished"], true, "{r}");
    assert!(r["repetition"].as_u64().is_some(), "{r}");
    let review = stdout(&["review", text(&path)]);
    assert!(
        review.contains("a draw by threefold repetition"),
        "{review}"
    );
}

#[test]
fn a_record_that_repeats_a_position_ends_there_as_a_draw() {
    let dir = tempfile::tempdir().unwrap();
    let round = "split 13→22; split 13→22; split 22→13; split 22→13\n";
    let drawn = write(
        dir.path(),
        "drawn.txt",
        &format!("variant standard\nstart 1_1313\n{}", round.repeat(2)),
    );
    let r = json(&["review", text(&drawn), "--json"]);
    assert_eq!(r["last_player"], 1);
    assert_eq!(r["repetition"], 8);
    assert_eq!(r["finished"], true);
    assert_eq!(r["last"], "1_1313");
    let out = stdout(&["review", text(&drawn)]);
    assert!(
        out.contains("Last position: 1_1313  P1* [1,3]  P2 [1,3] (a draw by threefold repetition: the position came up a third time after move 8)."),
        "{out}"
    );
    // Twice is no draw; a move after the third time is refused.
    let twice = write(
        dir.path(),
        "twice.txt",
        &format!("variant standard\nstart 1_1313\n{round}"),
    );
    let r = json(&["review", text(&twice), "--json"]);
    assert_eq!(r["repetition"], serde_json::Value::Null);
    assert_eq!(r["finished"], false);
    let after = write(
        dir.path(),
        "after.txt",
        &format!("variant standard\nstart 1_1313\n{}t11\n", round.repeat(2)),
    );
    fails_with(
        &["review", text(&after)],
        "line 5: move 9 `t11`: the game is already over at 1_1313: a draw by threefold repetition",
    );
}

#[test]
fn terminal_puzzles_climb_show_grades_and_list_moves_in_the_rules_order() {
    let data = tempfile::tempdir().unwrap();
    let set = json(&["puzzles", "--count", "3", "--seed", "1", "--json"]);
    let mut puzzles: Vec<serde_json::Value> = set["puzzles"].as_array().unwrap().clone();
    let grades: Vec<u64> = puzzles
        .iter()
        .map(|p| p["difficulty"].as_u64().unwrap())
        .collect();
    puzzles.sort_by_key(|p| p["difficulty"].as_u64().unwrap());
    // Puzzle 1: `moves`, a hint, then given up: the solution is shown.
    // Puzzle 2: a wrong move, in a short form. Then quit.
    let wrong = a_wrong_move(&puzzles[1]);
    let input = format!("moves\nhint\nundo\nskip\n{}\nquit\n", short_form(&wrong));
    let out = play_puzzles(
        &["puzzles", "--count", "3", "--seed", "1", "--play"],
        &input,
        data.path(),
    );
    // Played easiest first.
    let mut climbing = grades.clone();
    climbing.sort();
    for (k, p) in puzzles.iter().take(2).enumerate() {
        let posed = format!(
            "Puzzle {} of 3, grade {} ({}), rated {}: {}",
            k + 1,
            climbing[k],
            p["grade"].as_str().unwrap(),
            p["rating"],
            p["goal"].as_str().unwrap()
        );
        assert!(out.contains(&posed), "{posed}\n{out}");
    }
    // Seated ids and every player's hands, Player 1 first; the legal moves
    // in the rules' order (as `moves` lists them), with no value.
    assert!(
        out.contains(&format!(
            "  {}   P1",
            puzzles[0]["position"].as_str().unwrap()
        )),
        "{out}"
    );
    let listed = json(&["moves", puzzles[0]["position"].as_str().unwrap(), "--json"]);
    let legal: Vec<&str> = listed["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert!(
        out.matches(&format!("Legal moves: {}\n", legal.join(", ")))
            .count()
            >= 2,
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "Hint: {} (a hint counts as a miss for the rating)",
            puzzles[0]["hint"].as_str().unwrap()
        )),
        "{out}"
    );
    assert!(out.contains("A puzzle cannot be taken back."), "{out}");
    assert!(out.contains("The solution: P"), "{out}");
    assert!(
        out.contains(&format!("Not this one: {wrong} gives")),
        "{out}"
    );
    assert!(out.contains("Streak: 0. Rating: 1500 ± 350 → "), "{out}");
    assert!(
        out.contains("Solved 0 of 2 played cleanly (no wrong move, no hint; 3 offered)"),
        "{out}"
    );
}

/// The game: the hint at 1_0311 the second time is the game's value
/// (a draw: the table's only winning move repeats a position a third time),
/// the computer steers for the draw, and the review marks the thrown win.
#[test]
fn play_hints_and_reviews_count_the_games_repetitions() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.txt");
    let record = record.to_str().unwrap();
    let out = run_with_input(
        &["play", "--record", record],
        "s11\ns31\ns03 12\ns31\nhint\ns03 12\n",
    );
    assert!(
        out.contains("You are at draw (for you; the position alone is win in 23, but this game's history changes it)"),
        "{out}"
    );
    assert!(
        out.contains("split 03→12      draw by repetition (the position alone: win in 23)"),
        "{out}"
    );
    assert!(out.contains("(draw for the computer)"), "{out}");
    assert!(out.contains("Draw by threefold repetition"), "{out}");
    let review = stdout(&["review", record]);
    assert!(
        review
            .contains("P1 self 3→1     win in 21   → draw        ?? a win thrown away: now a draw"),
        "{review}"
    );
    // Without the repetition rule the values are the table's.
    let out = run_with_input(
        &["play", "--repetitions", "none"],
        "s11\ns31\ns03 12\ns31\nhint\nquit\n",
    );
    assert!(
        out.contains("You are at win in 23 (for you). Moves, best first:"),
        "{out}"
    );
    // A weaker computer plays by its seed: the same seed, the same game.
    let a = run_with_input(
        &["play", "--level", "random", "--seed", "7"],
        "t11\nt11\nt11\nquit\n",
    );
    let b = run_with_input(
        &["play", "--level", "random", "--seed", "7"],
        "t11\nt11\nt11\nquit\n",
    );
    assert_eq!(a, b);
    assert!(
        a.contains("The computer plays at level random: any legal move at random."),
        "{a}"
    );
}
