//! One toolkit, one language: every command and endpoint that takes a position
//! reads it in every notation (compact, bracketed, dashed, paper, seated) and gives
//! the same answer; players are numbered from 1 in every text and JSON field;
//! every printed position is written one way (the seated id, Player 1 first,
//! and each player's hands ascending); flags a command would ignore are refused.
//! The findings of the issue that asked for this are tests here, each of which
//! failed before.

use crate::common;

use common::server::{encode, Server};
use common::{fails_with, json, run, stdout};
use serde_json::Value;

/// Player 1 to move, Player 1 holding 1 and 3, Player 2 holding 1 and 2, in every
/// notation a user may type.
const SAME_POSITION: [&str; 6] = [
    "1312",
    "[1312]",
    "13-12",
    "(1,3|1,2)_4",
    "1_1312",
    "1 _ 13 12",
];

/// The same position with Player 2 to move (the hands swapped by seat): the
/// same game for the mover, another seat.
const SEATED_OTHER: &str = "2_1213";

#[test]
fn every_command_reads_every_notation_alike() {
    let want = json(&["query", "1_1312", "--json"]);
    assert_eq!(want["value"], "win");
    // The moves' names, in the order of `query` (best first) or sorted.
    let ordered = |v: &Value| -> Vec<String> {
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap().to_string())
            .collect()
    };
    let names = |v: &Value| -> Vec<String> {
        let mut list = ordered(v);
        list.sort();
        list
    };
    let solve_start = json(&["solve", "--start", "1_1312", "--json"]);
    let stats_start = json(&["stats", "--start", "1_1312", "--json"]);
    let strategy_start = json(&["strategy", "--start", "1_1312", "--json"]);
    let export_lines = |start: &str| {
        stdout(&["export", "-q", "--reachable", "--start", start, "--json"])
            .lines()
            .count()
    };
    let exported = export_lines("1_1312");
    assert!(exported > 100);
    let mut texts: Vec<&str> = SAME_POSITION.to_vec();
    texts.push(SEATED_OTHER);
    for text in texts {
        // query: the same value, remoteness and moves.
        let q = json(&["query", text, "--json"]);
        assert_eq!(q["value"], want["value"], "{text}");
        assert_eq!(q["remoteness"], want["remoteness"], "{text}");
        assert_eq!(names(&q), names(&want), "{text}");
        // moves: the same moves.
        let m = json(&["moves", text, "--json"]);
        assert_eq!(names(&m), names(&want), "{text}");
        // solve, stats, strategy and export from it as the start.
        let s = json(&["solve", "--start", text, "--json"]);
        assert_eq!(s["start"], solve_start["start"], "{text}");
        assert_eq!(s["reachable"], solve_start["reachable"], "{text}");
        let st = json(&["stats", "--start", text, "--json"]);
        assert_eq!(st["reachable"], stats_start["reachable"], "{text}");
        let sg = json(&["strategy", "--start", text, "--json"]);
        assert_eq!(sg["start"], strategy_start["start"], "{text}");
        assert_eq!(export_lines(text), exported, "{text}");
        // A game record starting there.
        let record = format!("variant standard\nstart {text}\n{}\n", ordered(&want)[0]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.txt");
        std::fs::write(&path, record).unwrap();
        let r = json(&["review", common::text(&path), "--json"]);
        assert_eq!(r["moves"][0]["before"]["value"], want["value"], "{text}");
        assert_eq!(
            r["moves"][0]["before"]["remoteness"], want["remoteness"],
            "{text}"
        );
    }
    // The seat is kept: Player 2 to move is named Player 2.
    let q = json(&["query", SEATED_OTHER, "--json"]);
    assert_eq!(q["player"], 2);
    assert_eq!(q["position"], SEATED_OTHER);
    assert_eq!(q["hands"], serde_json::json!([[1, 2], [1, 3]]));
    let sg = json(&["strategy", "--start", SEATED_OTHER, "--json"]);
    assert_eq!(sg["player"], 2);
}

#[test]
fn every_endpoint_reads_every_notation_alike() {
    let server = Server::start();
    let get = |path: &str| {
        let (status, body) = server.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        body
    };
    let want = get("/api/v1/chopsticks/standard/positions/?p=1_1312");
    let want_line = get("/api/v1/chopsticks/standard/line/?p=1_1312");
    for text in SAME_POSITION {
        let p = encode(text);
        let got = get(&format!("/api/v1/chopsticks/standard/positions/?p={p}"));
        assert_eq!(got["position"], want["position"], "{text}");
        assert_eq!(got["positionValue"], want["positionValue"], "{text}");
        assert_eq!(got["moves"], want["moves"], "{text}");
        let line = get(&format!("/api/v1/chopsticks/standard/line/?p={p}"));
        assert_eq!(line["steps"], want_line["steps"], "{text}");
    }
    // The command line and the API name the position and its children alike.
    let q = json(&["query", "13-12", "--json"]);
    assert_eq!(q["position"], want["position"]);
    // One field of every move, sorted.
    let children = |v: &Value, key: &str| -> Vec<String> {
        let mut list: Vec<String> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m[key].to_string())
            .collect();
        list.sort();
        list
    };
    let (a, c) = (children(&want, "position"), children(&q, "to"));
    assert_eq!(a, c);
}

/// Finding 1: `moves`, `strategy --start`, `solve --start` (and `stats`,
/// `export`) refused the seated id `1_1312` ("`_` is not a digit").
#[test]
fn finding_1_seated_ids_are_read_everywhere() {
    for args in [
        vec!["moves", "1_1312"],
        vec!["strategy", "--start", "1_1312"],
        vec!["solve", "--start", "1_1312"],
        vec!["stats", "--start", "1_1312"],
        vec!["export", "-q", "--reachable", "--start", "1_1312"],
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {err}");
        assert!(!err.contains("not a digit"), "{args:?}: {err}");
    }
}

/// Finding 2: `solve --players 3` printed rows `seat 0 (to move) … seat 2` above
/// "beat player 1 …"; JSON had 0-based `winner_seat` and `seats[].seat`.
#[test]
fn finding_2_players_are_numbered_from_one() {
    let text = stdout(&["solve", "--players", "3"]);
    assert!(!text.contains("seat 0"), "{text}");
    assert!(!text.contains("player 1"), "{text}");
    assert!(text.contains("Player 1: lose in 9"), "{text}");
    assert!(text.contains("beat Player 1 in 9"), "{text}");
    let v = json(&["solve", "--players", "3", "--json"]);
    assert!(
        v.get("seats").is_none() && v.get("start_seats").is_none(),
        "{v}"
    );
    let players: Vec<u64> = v["start_players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["player"].as_u64().unwrap())
        .collect();
    assert_eq!(players, [1, 2, 3]);
    let s = json(&["strategy", "--json"]);
    assert!(s.get("winner_seat").is_none(), "{s}");
    assert_eq!(s["player"], 1);
    // The help of --teams numbers players from 1 too.
    let help = stdout(&["solve", "--help"]);
    assert!(!help.contains("seats 0, 2, 4"), "{help}");
    assert!(help.contains("Players 1, 3, 5"), "{help}");
}

/// Finding 3: positions printed one way: the seated id, Player 1 first, each
/// player's hands ascending (`puzzles` printed `1_2202  P1* [2,2]  P2 [2,0]`).
#[test]
fn finding_3_hands_are_printed_in_seat_order_ascending() {
    let q = stdout(&["query", "2_1312"]);
    let first = q.lines().next().unwrap();
    assert!(first.starts_with("2_1312  P1 [1,3]  P2* [1,2]:"), "{q}");
    let m = stdout(&["moves", "2_1302"]);
    assert!(m.starts_with("2_1302  P1 [1,3]  P2* [0,2]"), "{m}");
    // Strategy configurations: each player's hands ascending.
    let s = stdout(&["strategy"]);
    assert!(s.contains("[0,3],[0,1]"), "{s}");
    assert!(!s.contains("[3,0]"), "{s}");
}

/// Finding 4: `export --json` was refused; `solve`, `stats`, `query` and
/// `strategy` named no variant; `strategy --json` gave configurations as strings.
#[test]
fn finding_4_json_everywhere_with_the_variant() {
    let lines = stdout(&["export", "--json", "-q"]);
    let first: Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert!(first["position"].is_string());
    for args in [
        vec!["solve", "--json"],
        vec!["stats", "--json"],
        vec!["query", "1111", "--json"],
        vec!["strategy", "--json"],
        vec!["moves", "1111", "--json"],
    ] {
        let v = json(&args);
        assert_eq!(v["variant"], "standard", "{args:?}");
        assert!(v["description"].is_string(), "{args:?}");
        assert!(v["ruleset"].is_object(), "{args:?}");
    }
    let s = json(&["strategy", "--json"]);
    assert!(s["configurations"][0].is_array(), "{s}");
}

/// Finding 6: `survey --hands 2 --fingers 5` ignored both flags; help headings
/// put analysis options under "Rules:"; counts had no separators.
#[test]
fn finding_6_ignored_flags_refused_and_words_right() {
    fails_with(&["survey", "--hands", "2"], "--hands-range");
    fails_with(&["survey", "--fingers", "5"], "--fingers-range");
    // The same sizes written in a variant id would be replaced as well.
    fails_with(&["survey", "--variant", "standard.h3"], "--hands-range 3");
    fails_with(&["survey", "--variant", "rollover.f7"], "--fingers-range 7");
    // Options that only act together with another are refused without it.
    fails_with(&["solve", "--checkpoint-every", "10"], "--save");
    fails_with(
        &["puzzles", "--play", "--hide-answers"],
        "cannot be used with",
    );
    fails_with(&["value", "--misere", "(1|1)_4"], "drop --misere");
    // Under "Rules:" only rule flags.
    for command in [
        "export",
        "solve",
        "query",
        "strategy",
        "stats",
        "survey",
        "rules",
        "value",
        "play",
        "puzzles",
        "review",
        "moves",
        "cluster worker",
        "cluster assemble",
    ] {
        let mut args: Vec<&str> = command.split(' ').collect();
        args.push("--help");
        let help = stdout(&args);
        let mut heading = "";
        for line in help.lines() {
            if !line.starts_with(' ') && line.ends_with(':') {
                heading = line;
            }
            // An option's line starts with it (`-q, --quiet`, `--hands <HANDS>`);
            // other lines are its help, wrapped.
            let words: Vec<&str> = line.split_whitespace().collect();
            let flag = if words.first().is_some_and(|w| w.starts_with('-')) {
                words
                    .iter()
                    .take(2)
                    .find(|w| w.starts_with("--"))
                    .copied()
                    .unwrap_or("")
            } else {
                ""
            };
            if heading == "Rules:" && !flag.is_empty() {
                let name = flag.trim_start_matches("--");
                let name = name.split(['[', '=', ' ']).next().unwrap();
                assert!(
                    RULE_FLAGS.contains(&name),
                    "{command}: --{name} is listed under Rules"
                );
            }
        }
    }
    let text = stdout(&["solve", "--hands", "4", "--fingers", "6", "-q"]);
    assert!(text.contains("15,876 positions"), "{text}");
    let text = stdout(&["stats", "--hands", "4", "--fingers", "6"]);
    assert!(text.contains("1,679,616"), "{text}");
    // The one-line help of verify names its statements.
    let help = stdout(&["--help"]);
    let verify = help
        .lines()
        .find(|l| l.trim_start().starts_with("verify"))
        .unwrap();
    for name in [
        "Theorems 3 and 4",
        "Propositions 1–4",
        "n = 3 and 4",
        "Conjecture 5",
    ] {
        assert!(verify.contains(name), "{verify}");
    }
}

/// The flags of `RulesArgs`, the only ones a "Rules:" heading may list.
const RULE_FLAGS: [&str; 17] = [
    "preset",
    "variant",
    "players",
    "hands",
    "fingers",
    "rollover",
    "cutoff",
    "transfer",
    "divide",
    "even-divide",
    "near-even-divide",
    "suicide",
    "self-attack",
    "pass-splits",
    "misere",
    "teams",
    "no-teams",
];

/// Words of single outputs, found in review: the finished side of the strategy
/// list has as many hands as the players have, a review's last position names
/// its player to move, and a seated id's error quotes the whole id.
#[test]
fn small_words_say_what_they_mean() {
    let one_hand = stdout(&["strategy", "--hands", "1"]);
    assert!(
        one_hand.contains("  [?],[0]  (win immediately if you can)"),
        "{one_hand}"
    );
    let mixed = stdout(&["strategy", "--hands", "1,2"]);
    assert!(
        mixed.contains("  [?,?],[0]  (win immediately if you can)"),
        "{mixed}"
    );
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.txt");
    std::fs::write(&record, "variant standard\ntap 1 1\nself 2 1\n").unwrap();
    let review = stdout(&["review", record.to_str().unwrap()]);
    assert!(
        review
            .contains("Last position: 1_1123  P1* [1,1]  P2 [2,3] (Player 1 to move: lose in 12)."),
        "{review}"
    );
    fails_with(
        &["query", "2_13x2"],
        "`2_13x2`: at character 5: `x` is not a digit",
    );
    // A game record that could not be written is refused before the game.
    fails_with(
        &["play", "--record", "/nonexistent-dir/game.txt", "-q"],
        "cannot write the game record: /nonexistent-dir/game.txt",
    );
}

/// A second new user's review: each finding a check.
#[test]
fn second_review_findings() {
    // 1. A puzzle lists its moves in the rules' order (as `moves` does), so
    // the list does not give the answer away.
    let names = |moves: &Value| -> Vec<String> {
        moves
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap().to_string())
            .collect()
    };
    let set = json(&["puzzles", "--count", "20", "--json", "-q"]);
    for p in set["puzzles"].as_array().unwrap() {
        let position = p["position"].as_str().unwrap();
        let moves = json(&["moves", position, "--json"]);
        assert_eq!(names(&p["moves"]), names(&moves["moves"]), "{position}");
    }
    // 2. `start_players` is Player 1 first, whoever starts.
    let s = json(&["solve", "--start", "2_1312", "--json", "-q"]);
    let order: Vec<i64> = s["start_players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["player"].as_i64().unwrap())
        .collect();
    assert_eq!(order, [1, 2]);
    // 3. A child printed in the paper's notation reads back as that child.
    let m = json(&["moves", "2_1312", "--notation", "paper", "--json"]);
    for child in m["moves"].as_array().unwrap() {
        let to = child["to"].as_str().unwrap();
        let q = json(&["query", to, "--json", "-q"]);
        assert!(q["value"].is_string(), "{to}");
    }
    // 4. `review --no-lines --json` keeps the keys, as `null`.
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.txt");
    std::fs::write(&record, "variant standard\ntap 1 1\n").unwrap();
    let r = json(&[
        "review",
        record.to_str().unwrap(),
        "--no-lines",
        "--json",
        "-q",
    ]);
    let first = &r["moves"][0];
    assert!(
        first.get("best_line").is_some_and(|v| v.is_null()),
        "{first}"
    );
    assert!(
        first.get("refutation").is_some_and(|v| v.is_null()),
        "{first}"
    );
    // 8. Options that would be ignored are refused.
    fails_with(&["rules", "--list", "--players", "3"], "drop them");
    fails_with(
        &["value", "{3|-1}", "--players", "3"],
        "need exactly 2 players",
    );
    // 9. What is printed can be pasted; a mistyped seated id gets a hint.
    let pasted = json(&[
        "query",
        "P1 [1,3] (you)  P2* [1,2] (computer)",
        "--json",
        "-q",
    ]);
    assert_eq!(pasted["position"], "2_1312");
    fails_with(&["query", "2-1312"], "did you mean `2_1312`");
    fails_with(&["query", "13|12"], "did you mean `(1,3|1,2)_4`");
    // 5. A seated id inside a sum gets the hint too.
    fails_with(&["value", "2_1312 + (1|1)_4"], "`(1,3|1,2)_4`");
}

/// One default memory budget, said alike by every command that takes
/// `--memory` (docs/RELIABILITY.md, "The memory budget").
#[test]
fn every_memory_option_has_the_one_default() {
    let help = stdout(&["--help"]);
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    let mut with_memory = Vec::new();
    for command in commands {
        let text = stdout(&[command, "--help"]);
        if !text.contains("--memory <SIZE>") {
            continue;
        }
        let said: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            said.contains("Default: three quarters of the memory available, as for every command (docs/RELIABILITY.md)"),
            "{command} --help: {text}"
        );
        with_memory.push(command);
    }
    assert_eq!(with_memory, ["solve", "serve", "check"]);
}
