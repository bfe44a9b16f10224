//! Loopy values through the real binary: `value` under rollover and other rules
//! whose play can cycle, and the rollover analogues of Tables 1 and 2.

mod common;

use common::{fails_with, json, stdout};

#[test]
fn value_of_loopy_positions_and_games() {
    let v = json(&["value", "(1,1|1,1)_4", "--preset", "rollover", "--json"]);
    assert_eq!(v["value"], "1over & -1under");
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["left_first"], "draw");
    assert_eq!(v["right_first"], "draw");
    assert_eq!(v["stopper"], false);
    assert_eq!(v["components"][0]["cyclic"], true);
    // Loopy CGSuite games, and sums.
    let v = json(&["value", "{pass|*}", "--json"]);
    assert_eq!(v["value"], "^[on]");
    assert_eq!(v["stopper"], true);
    assert_eq!(
        (v["left_first"].as_str(), v["right_first"].as_str()),
        (Some("left"), Some("left"))
    );
    assert!(stdout(&["value", "over - over"]).contains("Value:    over & under"));
    let v = json(&[
        "value",
        "(3|7)_10 - (3|7)_10",
        "--preset",
        "simple",
        "--rollover",
        "--json",
    ]);
    assert_eq!(v["components"].as_array().unwrap().len(), 2);
    // Short games keep their values and gain the same keys.
    let v = json(&["value", "(1|1)_12", "--json"]);
    assert_eq!(v["value"], "+-{0|^[2]}");
    assert_eq!(v["stopper"], true);
    assert_eq!(
        (v["left_first"].as_str(), v["right_first"].as_str()),
        (Some("left"), Some("right"))
    );
    fails_with(&["value", "{pass|", "--json"], "error");
    fails_with(
        &[
            "value",
            "(1,1|1,1)_6",
            "--preset",
            "rollover",
            "--max-vertices",
            "10",
        ],
        "--max-vertices",
    );
}

#[test]
fn rollover_table_1_is_invariant_under_units_mod_f() {
    let v = json(&["table", "grid", "--n", "10", "--rollover", "--json", "-q"]);
    let values = v["values"].as_array().unwrap();
    let cell = |i: u32, j: u32| {
        values[i as usize - 1][j as usize - 1]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(v["distinct"].as_array().unwrap().len(), 10);
    // Attacks are x + y mod F: multiplying every hand by a unit k mod F maps the
    // game onto itself, so (i|j) = (ki|kj) (F = 11 is prime: every k is a unit).
    for i in 1..=10 {
        assert_eq!(cell(i, i), "0");
        for j in 1..=10 {
            for k in 2..=10 {
                assert_eq!(
                    cell(i, j),
                    cell(k * i % 11, k * j % 11),
                    "({i}|{j}) k = {k}"
                );
            }
        }
    }
    assert_eq!(cell(1, 10), "*");
    assert_eq!(cell(1, 2), "v & -3/4");
    assert_eq!(cell(2, 1), "3/4 & ^");
}

#[test]
fn rollover_table_2() {
    let v = json(&[
        "table",
        "one-hand",
        "--rollover",
        "--n",
        "12",
        "--json",
        "-q",
    ]);
    let runs: Vec<(u64, u64, String, String)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["from"].as_u64().unwrap(),
                r["to"].as_u64().unwrap(),
                r["value"].as_str().unwrap().to_string(),
                r["outcome"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expect = [
        (1, 1, "*", "N"),
        (2, 3, "0", "P"),
        (4, 4, "*", "N"),
        (5, 8, "0", "P"),
        (9, 9, "{{^^*|^}|0} & {0|{v|vv*}}", "N"),
        (10, 11, "0", "P"),
        (12, 12, "{over|0} & {0|under}", "N"),
    ];
    assert_eq!(runs.len(), expect.len(), "{runs:?}");
    for (got, want) in runs.iter().zip(expect) {
        assert_eq!((got.0, got.1, got.2.as_str(), got.3.as_str()), want);
    }
    fails_with(
        &["table", "one-hand", "--rollover", "--n", "100"],
        "between 1 and 60",
    );
}
