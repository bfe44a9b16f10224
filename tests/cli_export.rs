//! End-to-end tests of `chopsticks export`: every line agrees with `query`, the
//! counts with `solve`, both formats, files written atomically, bad input refused.

use crate::common;

use common::{fails_with, json, run, stdout};

fn lines(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["export", "-q"];
    all.extend_from_slice(args);
    stdout(&all)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn every_position_once_with_the_values_of_query() {
    let rows = lines(&["--preset", "rahman"]);
    assert_eq!(rows.len(), 225);
    let reachable = rows.iter().filter(|r| r["reachable"] == true).count();
    let solved = json(&["solve", "--preset", "rahman", "--json"]);
    assert_eq!(reachable as u64, solved["reachable"].as_u64().unwrap());
    // Every line has exactly the documented keys, and the values of `query`.
    for row in rows.iter().step_by(7) {
        let keys: Vec<&String> = row.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["position", "reachable", "remoteness", "value"]);
        let position = row["position"].as_str().unwrap();
        let q = json(&["query", position, "--preset", "rahman", "--json"]);
        assert_eq!(q["value"], row["value"], "{position}");
        assert_eq!(q["remoteness"], row["remoteness"], "{position}");
    }
    let only = lines(&["--preset", "rahman", "--reachable"]);
    assert_eq!(only.len(), reachable);
    assert!(only.iter().all(|r| r["reachable"] == true));
}

#[test]
fn three_players_have_seats_and_csv_has_a_header() {
    let rows = lines(&["--preset", "rollover", "--players", "3", "--reachable"]);
    assert_eq!(rows.len(), 3141);
    let start = rows.iter().find(|r| r["position"] == "111111").unwrap();
    let q = json(&[
        "query",
        "111111",
        "--preset",
        "rollover",
        "--players",
        "3",
        "--json",
    ]);
    // The start's mover is Player 1: counted from the mover, the players are in
    // their numbers' order.
    let by_player: Vec<serde_json::Value> = q["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| serde_json::json!({"value": p["value"], "remoteness": p["remoteness"]}))
        .collect();
    assert_eq!(start["by_turn"], serde_json::json!(by_player));
    assert_eq!(start["value"], q["value"]);

    let text = stdout(&["export", "-q", "--players", "3", "--format", "csv"]);
    let mut it = text.lines();
    assert_eq!(
        it.next().unwrap(),
        "position,reachable,value,remoteness,mover_value,mover_remoteness,next_value,next_remoteness,after2_value,after2_remoteness"
    );
    assert_eq!(it.count(), 15usize.pow(3));
    // Paper notation holds commas: quoted in CSV.
    let text = stdout(&[
        "export",
        "-q",
        "--preset",
        "simple",
        "--notation",
        "paper",
        "--format",
        "csv",
    ]);
    assert!(text.contains("\"(1,1|1,1)_4\",true,lose,8\n"), "{text}");
    // Draws have no remoteness.
    let text = stdout(&["export", "-q", "--preset", "rahman", "--format", "csv"]);
    assert!(
        text.contains("\n11-11,true,draw,\n") || text.contains("\n1111,true,draw,\n"),
        "{text}"
    );
}

#[test]
fn files_are_written_whole_and_bad_input_refused() {
    let dir = std::env::temp_dir().join(format!("chopsticks-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("standard.jsonl");
    let out = run(&["export", "-q", "--output", path.to_str().unwrap()]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 225);
    // Refused: a device, an unknown format, a notation that cannot write the rules.
    fails_with(&["export", "--output", "/dev/null"], "not a regular file");
    fails_with(&["export", "--format", "xml"], "unknown format");
    fails_with(
        &["export", "--players", "3", "--notation", "paper"],
        "two players only",
    );
    fails_with(
        &["export", "--players", "3", "--teams"],
        "even number of players",
    );
    // Nothing half-written was left behind.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `solve --no-reachable` counts every position of the index: its counts are
/// those of `export` (finished games are the positions of remoteness 0), and the
/// default, which explores this small index, counts the reachable ones.
#[test]
fn solve_without_exploring_counts_the_whole_index() {
    for preset in ["rahman", "rollover", "standard"] {
        let rows = lines(&["--preset", preset]);
        let count = |value: &str, finished: bool| {
            rows.iter()
                .filter(|r| (r["remoteness"] == 0) == finished && r["value"] == value)
                .count() as u64
        };
        let finished = rows.iter().filter(|r| r["remoteness"] == 0).count() as u64;
        let all = json(&["solve", "--preset", preset, "--no-reachable", "--json"]);
        assert_eq!(all["counted"], "index");
        assert!(all["reachable"].is_null());
        assert_eq!(all["win"], count("win", false), "{preset}");
        assert_eq!(all["lose"], count("lose", false), "{preset}");
        assert_eq!(all["draw"], count("draw", false), "{preset}");
        assert_eq!(all["terminal"], finished, "{preset}");
        // The two players, counted from the mover: the next has the mover's wins
        // as losses.
        assert_eq!(all["by_turn"][1]["win"], all["lose"]);
        assert_eq!(all["by_turn"][1]["lose"], all["win"]);

        let reachable = rows.iter().filter(|r| r["reachable"] == true).count() as u64;
        let explored = json(&["solve", "--preset", preset, "--json"]);
        assert_eq!(explored["counted"], "reachable");
        assert_eq!(explored["reachable"], reachable);
        let forced = json(&["solve", "--preset", preset, "--reachable", "--json"]);
        for key in [
            "counted",
            "reachable",
            "win",
            "lose",
            "draw",
            "terminal",
            "by_turn",
            "start",
            "longest_win",
        ] {
            assert_eq!(forced[key], explored[key], "{preset}: {key}");
        }
    }
    fails_with(
        &["solve", "--reachable", "--no-reachable"],
        "cannot be used with",
    );
    fails_with(
        &["solve", "--explore-on-disk", "--no-reachable"],
        "cannot be used with",
    );
}

/// The exploration with one bit a position in memory and its layers on disk
/// counts what the one in memory counts, and leaves no snapshot behind.
#[test]
fn exploring_on_disk_counts_what_exploring_in_memory_counts() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("s.sol");
    for rules in [
        vec!["--preset", "rollover"],
        vec!["--preset", "standard", "--hands", "4", "--fingers", "6"],
        vec!["--preset", "rollover", "--hands", "2,2,2"],
    ] {
        let mut args = vec!["solve", "--json", "-q"];
        args.extend(rules.iter().copied());
        let memory = json(&args);
        assert_eq!(memory["explored_on_disk"], false);
        args.extend(["--explore-on-disk", "--save", common::text(&save)]);
        let disk = json(&args);
        assert_eq!(disk["explored_on_disk"], true, "{disk}");
        for key in [
            "counted",
            "reachable",
            "win",
            "lose",
            "draw",
            "terminal",
            "by_turn",
            "start",
            "longest_win",
        ] {
            assert_eq!(disk[key], memory[key], "{rules:?}: {key}");
        }
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("s.sol")], "{left:?}");
    }
}
