//! End-to-end tests of `chopsticks value` and `chopsticks table`.

use crate::common;

use common::{fails_with, json, stdout};

#[test]
fn value_of_one_one_12() {
    let text = stdout(&["value", "(1|1)_12"]);
    assert!(text.contains("Value:    +-{0|^[2]}"), "{text}");
    assert!(text.contains("Outcome:  N (first player wins)"), "{text}");
    let text = stdout(&["value", "(1|1)_12", "--uptimal"]);
    assert!(text.contains("not an uptimal"), "{text}");
    let v = json(&["value", "(1|1)_12", "--json", "--uptimal"]);
    assert_eq!(v["value"], "+-{0|^[2]}");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["uptimal"], serde_json::Value::Null);
}

#[test]
fn value_of_a_cgsuite_game_and_its_uptimal_form() {
    let v = json(&["value", "{0|^[2]}", "--json", "--uptimal"]);
    assert_eq!(v["value"], "{0|^[2]}");
    assert_eq!(v["outcome"], "L");
    // CGSuite's form (the paper writes `.22*`, which reads too).
    assert_eq!(v["uptimal"], "*.22");
    let text = stdout(&["value", ".22*", "--uptimal"]);
    assert!(text.contains("Value:    {0|^[2]}"), "{text}");
    assert!(text.contains("Left wins"), "{text}");
}

#[test]
fn value_of_a_sum_of_positions() {
    let v = json(&["value", "(1|1)_12 + (2|5)_40", "--json"]);
    let comps = v["components"].as_array().unwrap();
    assert_eq!(comps.len(), 2);
    assert_eq!(comps[0]["value"], "+-{0|^[2]}");
    assert_eq!(comps[1]["value"], "{{0|^[2]}|0}");
    assert_eq!(comps[1]["n"], 40);
    assert_eq!(comps[1]["fingers"], 41);
    // The sum equals the sum written in CGSuite notation.
    let w = json(&["value", "+-{0|^[2]} + {{0|^[2]}|0}", "--json"]);
    assert_eq!(v["value"], w["value"]);
    assert_eq!(v["outcome"], w["outcome"]);
    // A position minus itself is 0, a second-player win.
    let z = json(&["value", "(2|5)_40 - (2|5)_40", "--json"]);
    assert_eq!(z["value"], "0");
    assert_eq!(z["outcome"], "P");
}

#[test]
fn value_with_several_hands() {
    // Proposition 4: (1^a|1^a)_3 is a first-player win.
    let v = json(&["value", "(1^3|1^3)_3", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["components"][0]["hands"], serde_json::json!([3, 3]));
    // Asymmetric hand counts: Left two hands, Right one.
    let v = json(&["value", "(1,1|1)_4", "--json"]);
    assert_eq!(v["outcome"], "L");
    assert_eq!(v["components"][0]["hands"], serde_json::json!([2, 1]));
}

#[test]
fn value_refuses_bad_input_without_panicking() {
    // Numbers of any size read (as in CGSuite); a literal has at most 4096 digits.
    for n in [
        "123456789012345678901234567890",
        "1099511627775",
        "1/9223372036854775808",
    ] {
        let v = json(&["value", n, "--json"]);
        assert_eq!(v["value"], n);
    }
    fails_with(&["value", &"9".repeat(5000)], "number too long");
    fails_with(&["value", "{2147483648|-2147483648}"], "too far apart");
    // `1/3` is a rational number (issue 45), but not a game.
    fails_with(&["value", "1/3 + *"], "a number but not a game");
    fails_with(&["value", "*4294967295"], "nimber too large");
    fails_with(&["value", "^1000000000"], "too large");
    fails_with(&["value", "{0|"], "cannot read");
    fails_with(&["value", "{0|1}}"], "cannot read");
    fails_with(&["value", ""], "empty");
    fails_with(&["value", "(1|1)_0"], "at least 1");
    fails_with(&["value", "(1|1)_99999999999"], "too large");
    fails_with(&["value", "(5|1)_4"], "out of range");
    fails_with(&["value", "(1|x)_4"], "invalid position");
    fails_with(&["value", "(1|1)_4 + #7"], "no such game");
    let deep = format!("{}0{}", "(".repeat(5000), ")".repeat(5000));
    fails_with(&["value", &deep], "nesting");
    let deep = format!("{}0{}", "{0|".repeat(100), "}".repeat(100));
    fails_with(&["value", &deep], "cannot read");
    let minus = format!("{}1", "-".repeat(100_000));
    fails_with(&["value", "--", &minus], "nesting");
    // Numbers that would overflow the arena once combined are carried beside it.
    let many = vec!["65536"; 40].join("+");
    assert_eq!(json(&["value", &many, "--json"])["value"], "2621440");
    // Rules whose play can cycle give a loopy value: the standard game's start is
    // `*`, a first-player win (as the solver finds), although play can cycle.
    let v = json(&["value", "(1,1|1,1)_4", "--preset", "standard", "--json"]);
    assert_eq!(v["value"], "*");
    assert_eq!(v["components"][0]["cyclic"], true);
    // Misère rules have no canonical value.
    fails_with(&["value", "(1|1)_4", "--misere"], "misère");
    fails_with(&["value", "(1|1)_4", "--players", "3"], "2 players");
    // Too large to compute.
    fails_with(
        &["value", "(1|1)_16000000", "--max-positions", "100000"],
        "too large to compute",
    );
}

#[test]
fn value_under_other_loop_free_rules() {
    // Self-attacks only raise hands: still loop-free.
    let v = json(&["value", "(1,1|1,1)_4", "--self-attack", "--json"]);
    assert!(v["value"].is_string());
    assert!(v["components"][0]["description"]
        .as_str()
        .unwrap()
        .contains("self-attack"));
    assert_eq!(v["components"][0]["ruleset"]["self_attack"], true);
}

#[test]
fn table_one_hand_is_the_papers_table_2() {
    let v = json(&["table", "one-hand", "--n", "606", "--json"]);
    let runs = v.as_array().unwrap();
    assert_eq!(runs.len(), 18);
    assert_eq!(runs[17]["from"], 546);
    assert_eq!(runs[17]["to"], 606);
    assert_eq!(runs[17]["value"], "+-{0|^[2]}");
    assert_eq!(runs[17]["outcome"], "N");
    assert_eq!(runs[11]["from"], 80);
    assert_eq!(runs[11]["to"], 88);
    let scratch = json(&[
        "table",
        "one-hand",
        "--n",
        "300",
        "--from-scratch",
        "--json",
    ]);
    let sweep = json(&["table", "one-hand", "--n", "300", "--json"]);
    assert_eq!(scratch, sweep);
    let md = stdout(&["table", "one-hand", "--n", "40", "--format", "markdown"]);
    assert!(md.contains("| 31–33 | `+-{0\\|^[2]}` | N |"), "{md}");
    let csv = stdout(&["table", "one-hand", "--n", "12", "--format", "csv"]);
    assert!(
        csv.starts_with("from,to,value,outcome\n1,1,*,N\n2,2,0,P\n"),
        "{csv}"
    );
    assert!(csv.contains("12,12,+-{0|^[2]},N"), "{csv}");
    let text = stdout(&["table", "one-hand", "--n", "12"]);
    assert!(text.contains("8–11"), "{text}");
    fails_with(&["table", "one-hand", "--n", "0"], "at least 1");
    fails_with(&["table", "one-hand", "--n", "4000000000"], "goes up to");
}

#[test]
fn table_grid_is_table_1() {
    let v = json(&["table", "grid", "--n", "20", "--json"]);
    assert_eq!(v["n"], 20);
    assert_eq!(v["fingers"], 21);
    let values = v["values"].as_array().unwrap();
    assert_eq!(values.len(), 20);
    assert_eq!(values[0][0], "0"); // (1|1)_20 = 0
    assert_eq!(values[0][1], "v[2]"); // (1|2)_20
    assert_eq!(values[19][19], "*");
    assert_eq!(v["distinct"].as_array().unwrap().len(), 24);
    let text = stdout(&["table", "grid", "--n", "8"]);
    assert!(text.contains("i\\j"), "{text}");
    let csv = stdout(&["table", "grid", "--n", "4", "--format", "csv"]);
    assert_eq!(csv.lines().count(), 5);
    let md = stdout(&["table", "grid", "--n", "4", "--format", "markdown"]);
    assert!(md.starts_with("| i \\ j | 1 | 2 | 3 | 4 |"), "{md}");
    fails_with(&["table", "grid", "--n", "0"], "at least 1");
    fails_with(&["table", "grid", "--n", "100000"], "goes up to");
}

#[test]
fn table_grid_pictures() {
    let dir = std::env::temp_dir().join(format!("chopsticks-grid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("t1.png");
    let svg = dir.join("t1.svg");
    let out = stdout(&[
        "table",
        "grid",
        "--n",
        "20",
        "--png",
        png.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(out.contains("24 distinct values"), "{out}");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"));
    assert!(text.contains("{0|^[2]}"));
    assert!(!dir.join("t1.png.tmp").exists());
    fails_with(
        &[
            "table",
            "grid",
            "--n",
            "4",
            "--png",
            "/nonexistent-dir/x.png",
        ],
        "cannot write",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn value_reads_negative_expressions_and_checks_fingers() {
    let v = json(&["value", "-1/4", "--json"]);
    assert_eq!(v["value"], "-1/4");
    let v = json(&["value", "-(1|1)_4", "--json"]);
    assert_eq!(v["value"], "*");
    fails_with(
        &["value", "(1|1)_4", "--fingers", "7"],
        "--fingers says F = 7",
    );
    let v = json(&["value", "(1|1)", "--fingers", "13", "--json"]);
    assert_eq!(v["value"], "+-{0|^[2]}");
}

#[test]
fn huge_values_are_not_printed() {
    // A sum of 24 distinct switches prints far beyond the limit.
    let sum: Vec<String> = (1..=24).map(|i| format!("+-{i}")).collect();
    let v = json(&["value", &sum.join("+"), "--json"]);
    assert_eq!(v["value"], serde_json::Value::Null);
    assert_eq!(v["outcome"], "N");
}

#[test]
fn oversized_pictures_are_refused() {
    fails_with(
        &[
            "table",
            "grid",
            "--n",
            "1000",
            "--png",
            "/tmp/never-written.png",
            "-q",
        ],
        "pixels",
    );
    assert!(!std::path::Path::new("/tmp/never-written.png").exists());
}

#[test]
fn value_details() {
    let v = json(&["value", "{4|{2|0}}", "--details", "--json"]);
    assert_eq!(v["birthday"], 5);
    assert_eq!(v["left_stop"], "4");
    assert_eq!(v["right_stop"], "2");
    assert_eq!(v["mean"], "5/2");
    assert_eq!(v["temperature"], "3/2");
    let text = stdout(&["value", "(1|1)_12", "--details"]);
    assert!(text.contains("Stops:    0 (Left), 0 (Right)"), "{text}");
}

#[test]
fn short_inputs_get_an_answer_or_a_refusal_with_bounded_work() {
    // Each of these once ran for minutes or filled gigabytes. The work is now
    // bounded by construction (direct forms, estimates, the work limit).
    for (expression, value) in [
        ("1*1024", "1*1024"),
        ("*868+88", "88*868"),
        ("65536*1024", "65536*1024"),
    ] {
        let v = json(&["value", expression, "--json"]);
        assert_eq!(v["value"], value, "{expression}");
        assert_eq!(v["outcome"], "L");
    }
    // 4096·↑^2 is enormous: refused at the work limit, which the message names.
    fails_with(&["value", ".(4096)(4096)"], "steps of work");
    fails_with(&["value", ".(4096)(4096)"], "--max-work");
    // A syntax error after an expensive part is found first.
    fails_with(
        &["value", "{0{,,0*868+88|0}"],
        "at character 17: malformed option list",
    );
    // With a word the short notation lacks, the loopy parser's message.
    fails_with(
        &["value", "{0{,,0*868+88|0}z"],
        "at character 3: expected ',', '|' or '}'",
    );
    // Refused from the estimate before anything is allocated.
    fails_with(
        &["value", "(1|1)_16777215"],
        "more than the limit of 100000000",
    );
    fails_with(&["value", "(1|1)_16777215"], "--max-positions");
    // A many-handed position whose values explode stops at the work limit.
    fails_with(&["value", "(1^16|1^16)_1000"], "steps of work");
    // The limit can be raised or lowered.
    fails_with(
        &["value", "(1,1|1,1)_40", "--max-work", "1000000"],
        "more than 1000000 steps of work",
    );
    let v = json(&["value", "(1^3|1^3)_3", "--json", "--max-work", "1000000"]);
    assert_eq!(v["outcome"], "N");
    // The uptimal search is bounded too.
    let text = stdout(&[
        "value",
        "^1024+(1|1)_12",
        "--uptimal",
        "--max-work",
        "400000",
    ]);
    assert!(
        text.contains("Uptimal:  not found within the work limit"),
        "{text}"
    );
}

#[test]
fn messages_are_true_and_short() {
    // The nesting limit: 64 levels are fine, 65 are refused, and the message says 64.
    let ok = format!("{}0{}", "(".repeat(64), ")".repeat(64));
    assert_eq!(json(&["value", &ok, "--json"])["value"], "0");
    let deep = format!("{}0{}", "(".repeat(65), ")".repeat(65));
    fails_with(&["value", &deep], "nesting deeper than 64 levels");
    // Long inputs are not repeated whole in messages.
    for text in [
        format!("{}z", "1+".repeat(50_000)),
        format!("(1|1)_{}", "9".repeat(100_000)),
        format!("({}1|1)_4", "1,".repeat(50_000)),
    ] {
        let out = common::run(&["value", &text]);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.chars().count() < 400, "{err}");
        assert!(err.contains('…'), "{err}");
    }
    let long = format!("(1|1)_4{}", " ".repeat(100));
    fails_with(&["value", &long, "--fingers", "7"], "--fingers says F = 7");
    // One default preset in the help.
    let help = stdout(&["value", "--help"]);
    assert!(help.contains("simple (the default here"), "{help}");
    assert!(help.contains("[default: simple]"), "{help}");
    assert!(!help.contains("standard (the default)"), "{help}");
    // --json and --format do not go together.
    fails_with(
        &["table", "one-hand", "--json", "--format", "csv"],
        "cannot be used with",
    );
    fails_with(
        &["table", "grid", "--json", "--format", "markdown"],
        "cannot be used with",
    );
}

#[test]
fn value_reads_what_cgsuite_users_type() {
    // Comparisons: true or false, with the relation in JSON.
    let v = json(&["value", "^ <= *", "--json"]);
    assert_eq!(v["relation"], "<=");
    assert_eq!(v["holds"], false);
    let text = stdout(&["value", "3 <> 3+*"]);
    assert!(text.contains("Answer:   true"), "{text}");
    let v = json(&["value", "(1|1)_12 |> 0", "--json"]);
    assert_eq!(v["holds"], true);
    assert_eq!(v["components"][0]["value"], "+-{0|^[2]}");
    // Loopy comparisons and multiples.
    assert_eq!(json(&["value", "on >= over", "--json"])["holds"], true);
    assert_eq!(json(&["value", "2 * over", "--json"])["value"], "over");
    // Integer multiples, big numbers, uptimals with a number part.
    assert_eq!(json(&["value", "10 * ^", "--json"])["value"], "^10");
    let v = json(&["value", "73/16+v9*8", "--uptimal", "--json"]);
    assert_eq!(v["uptimal"], "73/16*8.9-");
    let v = json(&["value", "-1823437481924 + *", "--details", "--json"]);
    assert_eq!(v["value"], "-1823437481924*");
    assert_eq!(v["outcome"], "R");
    assert_eq!(v["birthday"], 1823437481925u64);
    assert_eq!(v["left_stop"], "-1823437481924");
    // Operations.
    assert_eq!(
        json(&["value", "{3|-1}.Cool(1)", "--json"])["value"],
        "{2|0}"
    );
    assert_eq!(json(&["value", "^^.AtomicWeight", "--json"])["value"], "2");
    assert_eq!(json(&["value", "1:1/2", "--json"])["value"], "3/2");
    assert_eq!(json(&["value", "+-{1,1+*}", "--json"])["value"], "+-{1,1*}");
    assert_eq!(json(&["value", "{0||0|-2}", "--json"])["value"], "Tiny(2)");
    fails_with(&["value", "1.AtomicWeight"], "not all-small");
    fails_with(&["value", "{1|0}.Frobnicate"], "unknown method");
    fails_with(&["value", "^ <= * <= 1"], "two sides");
}
