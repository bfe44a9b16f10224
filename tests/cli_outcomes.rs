//! `chopsticks table outcomes` and the `--n` spelling of every `table` subcommand,
//! through the real binary.

mod common;

use common::{fails_with, json, run, stdout};

#[test]
fn summary_counts_every_position() {
    let v = json(&[
        "table",
        "outcomes",
        "--n",
        "3",
        "--max-hands",
        "6",
        "--json",
    ]);
    // C(3 + 6, 6) = 84 sides a player.
    assert_eq!(v["positions"], 84 * 84);
    let c = &v["counts"];
    let sum: u64 = ["L", "R", "N", "P"]
        .iter()
        .map(|k| c[k].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 84 * 84);
    assert_eq!(c["L"], c["R"], "the players are treated alike");
    let by_hands = v["by_hands"].as_array().unwrap();
    assert_eq!(by_hands.len(), 7 * 7);
    // Theorem 4: two hands more always win.
    for cell in by_hands {
        let (l, r) = (
            cell["left"].as_u64().unwrap(),
            cell["right"].as_u64().unwrap(),
        );
        if r >= 1 && l >= r + 2 {
            assert_eq!(cell["R"], 0);
            assert_eq!(cell["N"], 0);
            assert_eq!(cell["P"], 0);
        }
    }
    let text = stdout(&["table", "outcomes", "--n", "2", "--max-hands", "4"]);
    assert!(
        text.contains("with at most 4 hands a side: 225 positions"),
        "{text}"
    );
    assert!(text.contains("l - r"), "{text}");
}

#[test]
fn one_line_per_position() {
    let out = stdout(&[
        "table",
        "outcomes",
        "--n",
        "3",
        "--max-hands",
        "2",
        "--format",
        "jsonl",
    ]);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 100); // C(5, 2) = 10 sides a player
    let find = |p: &str| {
        lines
            .iter()
            .find(|v| v["position"] == p)
            .unwrap_or_else(|| panic!("{p} is listed"))["outcome"]
            .clone()
    };
    // (1|1)_3: Theorem 3 (f(4) = 3 ≤ 3 < f(5) = 5), N.
    assert_eq!(find("(1|1)_3"), "N");
    // The closed form for n = 3: a side with an odd number of 2s loses moving
    // first against 1^k, so (2|1)_3 is P, and (1,1|2)_3 (one hand more) is L.
    assert_eq!(find("(2|1)_3"), "P");
    assert_eq!(find("(1,1|2)_3"), "L");
    assert_eq!(find("(|)_3"), "P");
    let csv = stdout(&[
        "table",
        "outcomes",
        "--n",
        "3",
        "--max-hands",
        "2",
        "--format",
        "csv",
    ]);
    let mut rows = csv.lines();
    assert_eq!(rows.next(), Some("position,outcome"));
    assert_eq!(rows.count(), 100);
    assert!(csv.contains("\"(1,1|2)_3\",L"), "{csv}");

    let dir = std::env::temp_dir().join(format!("cs-outcomes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("atlas.jsonl");
    let f = file.to_str().unwrap();
    stdout(&[
        "table",
        "outcomes",
        "--n",
        "3",
        "--max-hands",
        "2",
        "--format",
        "jsonl",
        "-o",
        f,
    ]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), out);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pictures_of_slices() {
    let dir = std::env::temp_dir().join(format!("cs-outcomes-pic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("hands.png");
    let svg = dir.join("ones.svg");
    stdout(&[
        "table",
        "outcomes",
        "--n",
        "3",
        "--max-hands",
        "8",
        "-q",
        "--png",
        png.to_str().unwrap(),
    ]);
    assert_eq!(&std::fs::read(&png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
    stdout(&[
        "table",
        "outcomes",
        "--n",
        "2",
        "--max-hands",
        "6",
        "-q",
        "--slice",
        "ones-twos",
        "--hands",
        "6,6",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"));
    // Proposition 2: (1^6 | 1^c 2^(6-c))_2 with c odd is L.
    assert!(
        text.contains("<title>(6|1): L: Left wins</title>"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_refused() {
    fails_with(&["table", "outcomes", "--n", "0"], "--n must be between");
    fails_with(
        &["table", "outcomes", "--max-hands", "0"],
        "--max-hands must be",
    );
    fails_with(
        &["table", "outcomes", "--n", "3", "--max-hands", "250"],
        "positions",
    );
    fails_with(
        &["table", "outcomes", "--n", "9", "--max-hands", "40"],
        "positions",
    );
    fails_with(
        &["table", "outcomes", "--slice", "ones-twos", "--hands", "6"],
        "LEFT,RIGHT",
    );
    fails_with(
        &[
            "table",
            "outcomes",
            "--max-hands",
            "4",
            "--slice",
            "ones-twos",
            "--hands",
            "5,1",
        ],
        "more than --max-hands",
    );
    fails_with(
        &["table", "outcomes", "--hands", "1,1"],
        "--slice ones-twos",
    );
    fails_with(
        &["table", "outcomes", "--output", "x.jsonl"],
        "--format jsonl or csv",
    );
    fails_with(
        &[
            "table",
            "outcomes",
            "--max-hands",
            "2",
            "--format",
            "csv",
            "-o",
            "/nonexistent-dir/x.csv",
        ],
        "cannot write",
    );
}

#[test]
fn every_table_spells_n_as_n_and_keeps_the_old_spelling_with_a_warning() {
    let new = stdout(&["table", "grid", "--n", "6"]);
    let old = run(&["table", "grid", "--fingers", "6"]);
    assert!(old.status.success());
    assert_eq!(String::from_utf8_lossy(&old.stdout), new);
    assert!(String::from_utf8_lossy(&old.stderr).contains("old spelling of --n"));
    let new = stdout(&["table", "one-hand", "--n", "30"]);
    let old = run(&["table", "one-hand", "--max", "30"]);
    assert_eq!(String::from_utf8_lossy(&old.stdout), new);
    assert!(String::from_utf8_lossy(&old.stderr).contains("old spelling of --n"));
    fails_with(
        &["table", "grid", "--n", "6", "--fingers", "6"],
        "cannot be used with",
    );
}
