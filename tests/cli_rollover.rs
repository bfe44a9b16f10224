//! Loopy values through the real binary: `value` under rollover and other rules
//! whose play can cycle, and the rollover analogues of Tables 1 and 2.

use crate::common;

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
    fails_with(&["value", "{pass|", "--json"], "cannot read");
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

/// Printed values read back, loopy text gets the loopy parser's message, and
/// `--max-work` bounds loopy sums.
#[test]
fn loopy_text_reads_back_and_is_bounded() {
    for text in ["v & -3/4", "-1 & -2", "over & -1", "under & -1", "-1under"] {
        let v = json(&["value", text, "--json"]);
        assert_eq!(v["value"], text);
    }
    let v = json(&["value", "0 + -1under + 1", "--json"]);
    assert_eq!(v["value"], "under");
    let v = json(&["value", "(1|1)_5 - 1under", "--rollover", "--json"]);
    assert_eq!(v["value"], "-1over");
    for (text, message) in [
        ("under & over", "the offside is not at most the onside"),
        ("foo", "unknown name `foo`"),
        ("a{0|b}", "unknown name `b`"),
        ("{0|pass} + pass", "`pass` outside braces"),
        ("{pass|*9999}", "nimber too large"),
        (
            "(1|1)_5 + on & off",
            "cannot be a term of a sum with positions",
        ),
    ] {
        fails_with(&["value", text, "--rollover"], message);
    }
    let sum = vec!["{pass|*}"; 600].join(" + ");
    fails_with(&["value", &sum, "--max-work", "1000000"], "--max-work");
    // Printed values can be summed as text, as the positions can.
    let a = json(&["value", "(1,2|3,4)_4", "--rollover", "--json"]);
    let a = a["value"].as_str().unwrap();
    let twice = json(&["value", &format!("({a}) + ({a})"), "--json"]);
    let direct = json(&["value", "(1,2|3,4)_4 + (1,2|3,4)_4", "--rollover", "--json"]);
    assert_eq!(twice["value"], direct["value"]);
    assert_eq!(json(&["value", "upon", "--json"])["value"], "^[on]");
    // Messages name the positions as written, not their placeholders.
    fails_with(&["value", "(1|1)_4x", "--rollover"], "(1|1)_4 x:");
    fails_with(&["value", "+-(1|2)_5", "--rollover"], "+- (1|2)_5:");
    // A variant id's fingers and hands must agree with the position's.
    fails_with(
        &["value", "(1,1|1,1)_4", "--variant", "rollover.h3.f7"],
        "--variant rollover.h3.f7 says F = 7",
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

/// `table two-hands`: every position with two hands a side under splits,
/// revivals and rollover, with the counts in JSON, a picture, and bad input
/// refused.
#[test]
fn two_hands_tables_of_splits_and_revivals() {
    let v = json(&["table", "two-hands", "--n", "3", "--divide", "--json"]);
    assert_eq!(v["counts"]["positions"], 81);
    assert_eq!(v["sides"].as_array().unwrap().len(), 9);
    // Revivals (free) at n = 3: 12 stoppers, 69 sided values; 18 positions where
    // some starter cannot force a win.
    assert_eq!(v["counts"]["stoppers"], 12);
    assert_eq!(v["counts"]["sided"], 69);
    // Stopper-sided counts the stoppers too, as the per-position flag does.
    assert_eq!(v["counts"]["stopper_sided"], 81);
    let flagged = v["positions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["stopper_sided"] == true)
        .count();
    assert_eq!(flagged, 81);
    let o = &v["counts"]["outcomes"];
    let draws: u64 = ["D", "N^", "P^", "Nv", "Pv"]
        .iter()
        .map(|c| o[c].as_u64().unwrap())
        .sum();
    assert_eq!(draws, 18);
    let first = &v["positions"][0];
    assert_eq!(first["position"], "(1|1)_3");
    assert_eq!(first["outcome"], "P");
    assert_eq!(first["left_first"], "right");
    // Splits alone make no draws at n = 4, and every value is a stopper.
    let v = json(&["table", "two-hands", "--n", "4", "--transfer", "--json"]);
    assert_eq!(v["counts"]["stoppers"], 196);
    assert_eq!(v["counts"]["outcomes"]["D"], 0);
    // Text: the summary and the grid; csv: a line per position.
    let text = stdout(&["table", "two-hands", "--n", "2", "--rollover"]);
    assert!(text.contains("25 positions"), "{text}");
    assert!(text.contains("L\\R"), "{text}");
    assert!(text.contains("N^: Left wins if she starts"), "{text}");
    let csv = stdout(&[
        "table",
        "two-hands",
        "--n",
        "2",
        "--even-divide",
        "--format",
        "csv",
    ]);
    assert_eq!(csv.lines().count(), 26);
    // A picture.
    let dir = std::env::temp_dir().join(format!("two-hands-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("t.png");
    let svg = dir.join("t.svg");
    stdout(&[
        "table",
        "two-hands",
        "--n",
        "3",
        "--rollover",
        "--png",
        png.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    // Tooltips name the position in the paper's notation, with its value.
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.contains("<title>(1,2|1,2)_3 = "), "{drawn}");
    std::fs::remove_dir_all(&dir).unwrap();
    // Bad input.
    fails_with(
        &["table", "two-hands", "--n", "0"],
        "--n must be between 1 and 10",
    );
    fails_with(
        &["table", "two-hands", "--n", "11"],
        "--n must be between 1 and 10",
    );
    fails_with(
        &["table", "two-hands", "--png", "-"],
        "not accepted for pictures",
    );
    fails_with(&["table", "two-hands", "--png", ""], "needs a file name");
    fails_with(
        &[
            "table",
            "two-hands",
            "--n",
            "5",
            "--rollover",
            "--max-work",
            "1000",
        ],
        "--max-work sets the limit",
    );
    fails_with(&["table", "two-hands", "--png", "t.svg"], "ending in .png");
    fails_with(&["table", "grid", "--svg", "t.png"], "ending in .svg");
    let help = stdout(&["table", "two-hands", "--help"]);
    assert!(help.contains("Pv: Right wins if Left starts"), "{help}");
}

#[test]
fn bench_two_hands_times_every_rule_with_its_counts() {
    let out = json(&[
        "bench",
        "two-hands",
        "--min-n",
        "2",
        "--max-n",
        "3",
        "--runs",
        "1",
        "--json",
    ]);
    assert_eq!(out["workload"], "two-hands");
    let runs = out["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 8, "four rules, two sizes each");
    // (rule, n, stoppers, sided): docs/FINDINGS.md, two hands a side.
    let expected = [
        ("rollover", 2, 25, 0),
        ("rollover", 3, 81, 0),
        ("transfer", 3, 81, 0),
        ("divide", 2, 11, 14),
        ("divide", 3, 12, 69),
        ("even-divide", 2, 11, 14),
        ("even-divide", 3, 81, 0),
    ];
    for (rule, n, stoppers, sided) in expected {
        let row = runs
            .iter()
            .find(|r| r["rule"] == rule && r["n"] == n)
            .unwrap_or_else(|| panic!("{rule} n = {n} missing"));
        assert_eq!(row["stoppers"], stoppers, "{rule} n = {n}");
        assert_eq!(row["sided"], sided, "{rule} n = {n}");
        assert_eq!(row["not_reduced"], 0, "{rule} n = {n}");
        assert!(row["best_seconds"].as_f64().unwrap() >= 0.0);
    }
    fails_with(
        &["bench", "two-hands", "--min-n", "4", "--max-n", "3"],
        "--min-n <= --max-n",
    );
    fails_with(
        &["bench", "two-hands", "--max-n", "11"],
        "11 is not in 1..=10",
    );
}

#[test]
fn bench_scaling_solves_at_every_thread_count_with_the_same_table() {
    let out = json(&[
        "bench",
        "scaling",
        "--variant",
        "rollover.h3.f7",
        "--runs",
        "1",
        "--json",
    ]);
    assert_eq!(out["workload"], "scaling");
    assert_eq!(out["variant"], "rollover.h3.f7");
    let runs = out["runs"].as_array().unwrap();
    assert_eq!(runs[0]["threads"], 1);
    assert_eq!(runs[0]["speedup"], 1.0);
    assert_eq!(
        runs.last().unwrap()["threads"],
        out["cores"],
        "up to the machine's count"
    );
    for r in runs {
        assert_eq!(r["table_crc32"], runs[0]["table_crc32"]);
        let efficiency = r["efficiency"].as_f64().unwrap();
        let speedup = r["speedup"].as_f64().unwrap();
        let threads = r["threads"].as_f64().unwrap();
        assert!((efficiency - speedup / threads).abs() < 1e-9);
        assert!(r["positions_per_second"].as_f64().unwrap() > 0.0);
    }
    fails_with(
        &[
            "bench",
            "scaling",
            "--variant",
            "standard.p3",
            "--values-only",
        ],
        "--values-only solves two players",
    );
}

/// Past `--side-work` steps the side search stops editing: the table still
/// completes, with the sides not reduced by then counted, marked and said;
/// without the limit the same table reduces every side.
#[test]
fn a_table_completes_at_its_limit_of_side_work() {
    let full = json(&[
        "table",
        "two-hands",
        "--n",
        "5",
        "--rollover",
        "--json",
        "-q",
    ]);
    assert_eq!(full["counts"]["side_work_limit_reached"], false, "{full}");
    assert_eq!(full["counts"]["not_reduced"], 0, "{full}");
    let cut = json(&[
        "table",
        "two-hands",
        "--n",
        "5",
        "--rollover",
        "--json",
        "-q",
        "--side-work",
        "1",
    ]);
    assert_eq!(cut["counts"]["side_work_limit_reached"], true, "{cut}");
    let unreduced = cut["counts"]["not_reduced"].as_u64().unwrap();
    assert!(unreduced > 0, "{cut}");
    let flagged = cut["positions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["stopper_sided"].is_null())
        .count() as u64;
    assert_eq!(flagged, unreduced);
    // Each position says which of its sides were not reduced.
    for p in cut["positions"].as_array().unwrap() {
        let named = p["not_reduced"].as_array().unwrap();
        assert_eq!(named.is_empty(), p["stopper_sided"] == true, "{p}");
        assert!(named.iter().all(|s| s == "onside" || s == "offside"), "{p}");
    }
    assert!(cut["counts"]["work_steps"].as_u64().unwrap() > 0, "{cut}");
    // The outcomes do not depend on how far the sides were reduced.
    assert_eq!(cut["counts"]["outcomes"], full["counts"]["outcomes"]);
    let text = stdout(&[
        "table",
        "two-hands",
        "--n",
        "5",
        "--rollover",
        "-q",
        "--side-work",
        "1",
    ]);
    assert!(
        text.contains("reached its limit of work (--side-work 1)"),
        "{text}"
    );
}

/// A value left unreduced whose side graphs are large is not printed in a
/// table (its JSON value is null, its text says so and how large they are),
/// while `value` on the position still prints it; `--side-work none` lifts
/// the limit, and a bad limit is refused.
#[test]
fn large_unreduced_values_are_named_not_printed() {
    let cut = json(&[
        "table",
        "two-hands",
        "--n",
        "6",
        "--divide",
        "--json",
        "-q",
        "--side-work",
        "1",
    ]);
    let positions = cut["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 729);
    let first = &positions[0];
    assert_eq!(first["position"], "(1|1)_6", "{first}");
    assert!(first["value"].is_null(), "{first}");
    assert_eq!(
        first["not_reduced"],
        serde_json::json!(["onside", "offside"])
    );
    let csv = stdout(&[
        "table",
        "two-hands",
        "--n",
        "6",
        "--divide",
        "-q",
        "--side-work",
        "1",
        "--format",
        "csv",
    ]);
    let line = csv.lines().nth(1).unwrap();
    assert!(
        line.starts_with("(1|1)_6,not reduced: onside and offside (side graphs of "),
        "{line}"
    );
    let none = json(&[
        "table",
        "two-hands",
        "--n",
        "3",
        "--divide",
        "--json",
        "-q",
        "--side-work",
        "none",
    ]);
    assert_eq!(none["counts"]["side_work_limit_reached"], false, "{none}");
    assert_eq!(none["counts"]["not_reduced"], 0, "{none}");
    fails_with(
        &["table", "two-hands", "--n", "3", "--side-work", "lots"],
        "`lots` is not a count of steps",
    );
}
