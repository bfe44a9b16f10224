//! End-to-end tests of `chopsticks value` for CGSuite's users (issue 40): a
//! method's result printed without an outcome class, errors that count
//! characters and name the fix, numbers that are also positions, scripts of
//! expressions, and the help's headings.

use crate::common;

use common::{fails_with, json, run_input, run_with_input, stdout};

#[test]
fn a_methods_number_has_no_outcome_class() {
    for (expression, value) in [
        ("{3|-1}.Temperature", "2"),
        ("{3|-1}.Mean", "1"),
        ("{3|-1}.LeftStop", "3"),
        ("{3|-1}.RightStop", "-1"),
        ("{1|0}.Birthday", "2"),
        ("^^.AtomicWeight", "2"),
        ("AtomicWeight(^^*)", "2"),
        ("{3|-1}.LeftStop - {3|-1}.RightStop", "4"),
        ("-{3|-1}.Temperature", "-2"),
    ] {
        let text = stdout(&["value", expression]);
        assert_eq!(text, format!("Value:    {value}\n"), "{expression}");
        let v = json(&["value", expression, "--json"]);
        assert_eq!(v["value"], value, "{expression}");
        for key in ["outcome", "outcome_words", "left_first", "right_first"] {
            assert!(v[key].is_null(), "{expression}: {key} {v}");
        }
    }
    // A method that makes a game keeps the game's outcome class.
    let text = stdout(&["value", "{3|-1}.Cool(1)"]);
    assert!(text.contains("Value:    {2|0}\nOutcome:  N"), "{text}");
    // A measure in a sum with a game is a game.
    let text = stdout(&["value", "{3|-1}.Temperature - 2 + *"]);
    assert!(text.contains("Value:    *\nOutcome:  N"), "{text}");
    // The measure of a position's value too; the position keeps its own class.
    let text = stdout(&["value", "(1|1)_12.Temperature"]);
    assert!(text.contains("(1|1)_12 = +-{0|^[2]}  (N, "), "{text}");
    assert!(!text.contains("Outcome:"), "{text}");
}

#[test]
fn errors_count_characters_from_one_and_name_the_fix() {
    fails_with(
        &["value", "↑↑ + *"],
        "at character 1: unexpected character `↑` (write `^` for ↑: `^^` for ↑↑",
    );
    // Characters, not bytes: `↓` comes after a three-byte `↑`.
    fails_with(
        &["value", "^ + ↓"],
        "at character 5: unexpected character `↓` (write `v`",
    );
    fails_with(
        &["value", "^ = *"],
        "at character 3: `=` is not a comparison: write `==`",
    );
    fails_with(&["value", "±1"], "unexpected character `±` (write `+-`");
    fails_with(&["value", "{1|0"], "at character 5: unclosed '{'");
    fails_with(
        &["value", "on.Cool(1)"],
        "cannot read `on.Cool(1)`: at character 3: cooling (`.Cool`) is defined for short games; \
         `on` is loopy",
    );
    fails_with(
        &["value", "over.Temperature"],
        "the temperature (`.Temperature`) is defined for short games; `over` is loopy",
    );
    fails_with(
        &["value", "{1|0}; "],
        "(`;` ends a CGSuite statement: write one expression without it)",
    );
    // After positions (replaced by `#0`, … in the text quoted), the count is in
    // that text.
    fails_with(
        &["value", "(1|1)_4 + ↑"],
        "`#0  + ↑` (the positions replaced by #0, #1, …): at character 7: unexpected character `↑`",
    );
}

#[test]
fn numbers_that_are_also_positions_are_read_with_a_note() {
    let text = stdout(&["value", "1211"]);
    assert_eq!(
        text,
        "Note:     read `1211` as the number 1211, as CGSuite does; the position 1211 is \
         written `(1,2|1,1)_4` (the paper's notation, the player to move as Left)\n\
         Value:    1211\nOutcome:  L (Left wins)\n"
    );
    let text = stdout(&["value", "12-11"]);
    assert!(
        text.starts_with(
            "Note:     read `12-11` as the difference 12 - 11, as CGSuite does; the position \
             12-11 is written `(1,2|1,1)_4`"
        ),
        "{text}"
    );
    assert!(text.contains("Value:    1\n"), "{text}");
    let text = stdout(&["value", "12 - 11"]);
    assert!(
        text.contains("read `12 - 11` as the difference 12 - 11"),
        "{text}"
    );
    // The position suggested reads as a position.
    let text = stdout(&["value", "(1,2|1,1)_4"]);
    assert!(!text.contains("Note:"), "{text}");
    // A dead hand: the paper's notation lists live hands, so the hands are given.
    let text = stdout(&["value", "1011"]);
    assert!(text.contains("`(1|1,1)_4` with --hands 2"), "{text}");
    // A term of a sum, and JSON.
    let v = json(&["value", "1211 + *", "--json"]);
    assert_eq!(v["value"], "1211*");
    assert!(
        v["note"]
            .as_str()
            .is_some_and(|n| n.starts_with("read `1211` as the number 1211")),
        "{v}"
    );
    // Under other rules, their positions: with F = 2 (n = 1), 1211 is none.
    let text = stdout(&["value", "1211", "--fingers", "2"]);
    assert!(!text.contains("Note:"), "{text}");
    let text = stdout(&["value", "1211", "--fingers", "3"]);
    assert!(text.contains("`(1,2|1,1)_2`"), "{text}");
    let text = stdout(&["value", "1111", "--fingers", "2"]);
    assert!(text.contains("`(1,1|1,1)_1`"), "{text}");
    // Numbers that are no position, and numbers in other roles, get no note.
    for expression in [
        "5",
        "1/2",
        "*1211",
        "^3",
        "{3|-1}.Cool(1)",
        "(1|1)_12",
        "1211/2",
    ] {
        let text = stdout(&["value", expression]);
        assert!(!text.contains("Note:"), "{expression}: {text}");
        let v = json(&["value", expression, "--json"]);
        assert!(v.get("note").is_none(), "{expression}: {v}");
    }
}

#[test]
fn a_script_of_expressions_is_answered_line_by_line() {
    let script = "// a CGSuite-style script\n\
                  {3|-1}.Temperature\n\
                  \n\
                  # a comment\n\
                  ^ = *\n\
                  ^ + ^ == ^^\n\
                  (1|1)_12\n";
    let out = run_input(&["value", "-"], script);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text,
        format!(
            "> {{3|-1}}.Temperature\nValue:    2\n\n\
             > ^ = *\nError:    cannot read `^ = *`: at character 3: `=` is not a comparison: \
             write `==` (`G == H`)\n\n\
             > ^ + ^ == ^^\nAnswer:   true\n\n\
             > (1|1)_12\nRules:    {}\nValue:    +-{{0|^[2]}}\nOutcome:  N (first player wins)\n",
            rules_line(&text)
        )
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 of 4 expressions failed (line 5 of standard input)"),
        "{err}"
    );
    // JSON lines: one object a line, with its line number and expression.
    let out = run_input(&["value", "-", "--json"], script);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["script_line"], 2);
    assert_eq!(lines[0]["expression"], "{3|-1}.Temperature");
    assert_eq!(lines[0]["value"], "2");
    assert!(lines[0]["outcome"].is_null());
    assert_eq!(lines[1]["script_line"], 5);
    assert!(lines[1]["error"]
        .as_str()
        .is_some_and(|e| e.contains("`=` is not a comparison")));
    assert_eq!(lines[2]["holds"], true);
    assert_eq!(lines[3]["outcome"], "N");
    // Without errors, success; a file reads as standard input does.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("games.txt");
    std::fs::write(&path, "1/2 + 1/2\r\n*.Heat(1)\n").expect("written");
    let text = stdout(&["value", "--file", common::text(&path)]);
    assert_eq!(
        text,
        "> 1/2 + 1/2\nValue:    1\nOutcome:  L (Left wins)\n\n\
         > *.Heat(1)\nValue:    +-1\nOutcome:  N (first player wins)\n"
    );
    assert_eq!(run_with_input(&["value", "-"], "\n// nothing\n"), "");
    // The bounds hold for each expression: one over the work limit fails alone.
    let out = run_input(
        &["value", "-", "--max-work", "100000"],
        ".(4096)(4096)\n^^*\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("steps of work"), "{text}");
    assert!(
        text.ends_with("> ^^*\nValue:    ^^*\nOutcome:  L (Left wins)\n"),
        "{text}"
    );
    fails_with(
        &["value", "--file", "/nonexistent/games.txt"],
        "cannot open",
    );
    fails_with(&["value", "1", "--file", "x"], "cannot be used with");
    // `--file -` is standard input, as `-` is.
    assert_eq!(
        run_with_input(&["value", "--file", "-"], "1/2 + 1/2\n"),
        "> 1/2 + 1/2\nValue:    1\nOutcome:  L (Left wins)\n"
    );
}

/// A seated id, as `query` and `play` print positions, is not CGSuite's
/// language: the error says how `value` writes that position.
#[test]
fn a_seated_id_gets_the_papers_notation_as_a_hint() {
    fails_with(
        &["value", "2_1312"],
        "hint: `2_1312` is a seated id (Player 2 to move)",
    );
    fails_with(&["value", "2_1312"], "`(1,3|1,2)_4`");
    // The hint is what value reads.
    let text = stdout(&["value", "(1,3|1,2)_4"]);
    assert!(text.contains("Value:"), "{text}");
}

/// The `Rules:` line printed for `(1|1)_12` (its wording belongs to the rules).
fn rules_line(text: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix("Rules:    "))
        .expect("a Rules: line")
        .to_string()
}

#[test]
fn the_help_gives_each_option_its_heading() {
    let help = stdout(&["value", "--help"]);
    // Each heading's options: from the heading to the next one.
    let section = |heading: &str| -> String {
        let start = help
            .find(&format!("\n{heading}:\n"))
            .unwrap_or_else(|| panic!("no {heading}: heading in\n{help}"));
        let rest = &help[start + heading.len() + 3..];
        let end = rest
            .find("\n\n")
            .and_then(|_| {
                rest.lines()
                    .position(|l| !l.is_empty() && !l.starts_with(' '))
                    .map(|k| rest.lines().take(k).map(|l| l.len() + 1).sum())
            })
            .unwrap_or(rest.len());
        rest[..end].to_string()
    };
    let rules = section("Rules");
    assert!(rules.contains("--preset"), "{rules}");
    for flag in ["--uptimal", "--details", "--max-", "--json", "--file"] {
        assert!(!rules.contains(flag), "{flag} under Rules:\n{rules}");
    }
    let analysis = section("Analysis");
    assert!(analysis.contains("--uptimal") && analysis.contains("--details"));
    let limits = section("Limits");
    for flag in ["--max-positions", "--max-work", "--max-vertices"] {
        assert!(limits.contains(flag), "{flag}:\n{limits}");
    }
    let output = section("Output");
    assert!(output.contains("--json") && output.contains("--quiet"));
    assert!(section("Input").contains("--file"));
}

/// CGSuite's `!=`, `===` and `!==` (issue 45), with its answers; `<=>` is
/// refused with the relations to ask instead.
#[test]
fn comparisons_spelled_as_cgsuite_spells_them() {
    for (expression, relation, holds) in [
        ("*!=0", "!=", true),
        ("1!=0", "!=", true),
        ("0 != 0", "!=", false),
        ("25+* === 25+*", "===", true),
        ("25+* !== 25", "!==", true),
        ("25+* === 25", "===", false),
        ("{0|0} === *", "===", true),
        ("(1|1)_4 === *", "===", true),
        ("(1|1)_4 != *", "!=", false),
        ("over === over", "===", true),
        ("over != over", "!=", false),
        ("over !== under", "!==", true),
        ("(1|1)_4 != (1|1)_4", "!=", false),
    ] {
        let text = stdout(&["value", expression]);
        assert!(
            text.ends_with(&format!("Answer:   {holds}\n")),
            "{expression}: {text}"
        );
        let v = json(&["value", expression, "--json"]);
        assert_eq!(v["relation"], relation, "{expression}");
        assert_eq!(v["holds"], holds, "{expression}");
    }
    // Under rules whose play can cycle, the loopy engine answers.
    let v = json(&["value", "(1|1)_4 === (1|1)_4", "--rollover", "--json"]);
    assert_eq!(v["holds"], true, "{v}");
    for expression in ["1 <=> 0", "over <=> 0"] {
        fails_with(
            &["value", expression],
            "`<=>` (CGSuite's three-way comparison) is not read",
        );
    }
}

/// The text `value` prints, written from its JSON document, in each of its
/// forms: a short game with its details, a sum of positions, a short and a loopy
/// comparison, a loopy value, a measure, a rational number.
#[test]
fn the_text_of_every_kind_of_answer() {
    let cases: [(&[&str], &str); 7] = [
        (
            &["value", "(1|1)_4", "--details", "--uptimal"],
            "Rules:    2 players × 1 hand, F = 5 cutoff; attack\nValue:    *\nOutcome:  N (first \
             player wins)\nBirthday: 1\nStops:    0 (Left), 0 (Right)\nMean:     0\nTemperature: \
             0\nUptimal:  *.0\n",
        ),
        (
            &["value", "(1|1)_4 + (2|1)_4"],
            "(1|1)_4 = *  (N, first player wins; 2 players × 1 hand, F = 5 cutoff; attack)\n\
             (2|1)_4 = v  (R, Right wins; 2 players × 1 hand, F = 5 cutoff; attack)\n\
             Value:    v*\nOutcome:  N (first player wins)\n",
        ),
        (
            &["value", "(1|1)_4 <= 0"],
            "(1|1)_4 = *  (N, first player wins; 2 players × 1 hand, F = 5 cutoff; attack)\n\
             Answer:   false\n",
        ),
        (
            &["value", "(1|1)_4 + (2|1)_4 < 0", "--rollover"],
            "(1|1)_4 = *\n(2|1)_4 = 0 & v\nAnswer:   false\n",
        ),
        (
            &["value", "(1|1)_4", "--rollover", "--details"],
            "Rules:    2 players × 1 hand, F = 5 rollover; attack\nGraph:    21 positions \
             reachable, play can cycle\nValue:    *\nKind:     a stopper\nOutcome:  N (Left \
             starting: Left wins; Right starting: Right wins)\nStops:    0 (Left), 0 (Right)\n",
        ),
        (&["value", "{3|-1}.Temperature"], "Value:    2\n"),
        (
            &["value", "5 - 3 / 4 * 6 - 2"],
            "Value:    -3/2\nOutcome:  R (Right wins)\n",
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(stdout(args), expected, "{args:?}");
    }
    assert_eq!(stdout(&["value", "1/3"]), "Value:    1/3\n");
}

/// `+-{G,H}` of loopy games reads and prints as CGSuite writes it (issue 45).
#[test]
fn a_multiple_switch_of_loopy_games() {
    for (expression, value) in [
        (
            "+-{{0|{0||0|0,pass}},{0|{0||0|0,pass}+*}}",
            "+-{{0|^<on>},{0|^<on>*}}",
        ),
        ("+-{{0|^<on>},{0|^<on>*}}", "+-{{0|^<on>},{0|^<on>*}}"),
        ("+-{0|{0||0|0,pass}}", "+-{0|^<on>}"),
        ("+-{over}", "+-over"),
    ] {
        let v = json(&["value", expression, "--json"]);
        assert_eq!(v["value"], value, "{expression}");
        assert_eq!(v["outcome"], "N", "{expression}");
    }
    // The same game written out in braces.
    let v = json(&[
        "value",
        "+-{{0|^<on>},{0|^<on>*}} === {{0|^<on>},{0|^<on>*}|{v<on>|0},{v<on>*|0}}",
        "--json",
    ]);
    assert_eq!(v["holds"], true);
    fails_with(&["value", "+-{}"], "needs at least one game");
}

/// Sides the bounded search leaves with alternating cycles are printed as
/// CGSuite's sidling leaves them, and said to be not reduced, with what was
/// tried; a stopper-sided value has no such side.
#[test]
fn sides_not_reduced_say_so_and_what_was_tried() {
    let carousel = "a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}";
    let v = json(&["value", carousel, "--json"]);
    assert_eq!(
        v["value"], "a{1|1,{1*|a||*}||0} & a{0,{1|||1*|a||*}|0}",
        "{v}"
    );
    assert_eq!(v["not_reduced"], serde_json::json!(["onside", "offside"]));
    let kind = v["kind"].as_str().unwrap();
    assert!(
        kind.starts_with("not a stopper; not reduced: both sides (tried: "),
        "{kind}"
    );
    assert!(kind.contains("unravelling"), "{kind}");
    assert!(kind.contains("not decided"), "{kind}");
    let text = stdout(&["value", carousel]);
    assert!(text.contains("not reduced: both sides"), "{text}");
    // Equal to the sides CGSuite prints, written as `onside & offside`.
    let v = json(&[
        "value",
        &format!("{carousel} == a{{1|1,{{1*|a||*}}||0}} & a{{0,{{1|||1*|a||*}}|0}}"),
        "--json",
    ]);
    assert_eq!(v["holds"], true, "{v}");
    // Stopper-sided: nothing left unreduced.
    let v = json(&["value", "a{1||a|0}", "--json"]);
    assert_eq!(v["value"], "2 & +-1");
    assert_eq!(v["not_reduced"], serde_json::json!([]));
}
