//! End-to-end tests of the `chopsticks` binary.

use crate::common;

use common::{fails_with, json, run};

#[test]
fn stats_json_has_the_documented_keys() {
    let v = json(&["stats", "--preset", "rollover", "--json"]);
    assert_eq!(v["raw"], 625);
    assert_eq!(v["distinct"], 225);
    assert_eq!(v["reachable"], 204);
    assert_eq!(v["terminal"], 14);
    assert_eq!(v["unreachable"], 21);
    assert_eq!(v["unreachable_positions"].as_array().unwrap().len(), 21);
    assert_eq!(v["shortest_game"], 5);
    assert_eq!(v["eccentricity"], 9);
    assert_eq!(v["deepest_endgame"], 9);
    assert_eq!(v["max_branching"], 5);
}

#[test]
fn stats_flags_override_the_preset() {
    let v = json(&["stats", "--preset", "rollover", "--suicide", "--json"]);
    assert_eq!(v["reachable"], 207);
    let v = json(&["stats", "--preset", "rahman", "--no-suicide", "--json"]);
    assert_eq!(v["reachable"], 204);
    let v = json(&["stats", "--preset", "rollover", "--players", "3", "--json"]);
    assert_eq!(v["reachable"], 3141);
    assert_eq!(v["distinct"], 3375);
    let v = json(&["stats", "--preset", "rollover", "--fingers", "4", "--json"]);
    assert_eq!(v["reachable"], 84);
}

#[test]
fn stats_human_output() {
    let out = run(&["stats", "--preset", "rollover"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Reachable from the start:   204"), "{text}");
    assert!(text.contains("3444"));
}

#[test]
fn moves_lists_wikipedia_example() {
    // The positions every move leads to, sorted.
    let children = |v: &serde_json::Value| -> Vec<String> {
        let mut to: Vec<String> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["to"].as_str().unwrap().to_string())
            .collect();
        to.sort();
        to
    };
    // Mover first, in the notation Wikipedia writes (`--notation compact`).
    let v = json(&[
        "moves",
        "1312",
        "--preset",
        "rollover",
        "--notation",
        "compact",
        "--json",
    ]);
    assert_eq!(children(&v), ["0113", "1222", "1313", "2213", "2413"]);
    // By default the children are seated: Player 2 to move, Player 1's hands first.
    let v = json(&["moves", "1312", "--preset", "rollover", "--json"]);
    assert_eq!(v["position"], "1_1312");
    assert_eq!(
        children(&v),
        ["2_1301", "2_1313", "2_1322", "2_1324", "2_2212"]
    );
    let v = json(&["moves", "12-11", "--notation", "dashed", "--json"]);
    assert_eq!(v["position"], "12-11");
    assert!(v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["move"] == "self 1→2"));
}

#[test]
fn bad_input_is_a_clear_error() {
    fails_with(&["moves", "1711"], "out of range");
    fails_with(&["moves", "12-1"], "hand counts [2, 1]");
    fails_with(&["moves", "121"], "3 digits");
    fails_with(&["stats", "--hands", "0"], "0 hands");
    fails_with(&["stats", "--fingers", "1"], "fingers must be at least 2");
    fails_with(&["stats", "--preset", "nope"], "unknown preset");
    fails_with(
        &["stats", "--hands", "1,2", "--players", "3"],
        "--hands lists 2 players",
    );
    fails_with(
        &["moves", "11-11", "--notation", "klingon"],
        "unknown notation",
    );
    fails_with(
        &[
            "stats",
            "--hands",
            "16",
            "--players",
            "8",
            "--fingers",
            "100",
        ],
        "too large",
    );
}

#[test]
fn rules_list_and_show() {
    let v = json(&["rules", "--list", "--json"]);
    assert_eq!(v.as_array().unwrap().len(), 4);
    let v = json(&["rules", "--preset", "simple", "--hands", "1,3", "--json"]);
    assert_eq!(v["ruleset"]["hands"], serde_json::json!([1, 3]));
}

#[test]
fn variant_ids_name_rulesets() {
    let v = json(&[
        "rules",
        "--variant",
        "rollover.h3.f7.suicide.no-transfer",
        "--json",
    ]);
    assert_eq!(v["variant"], "rahman.h3.f7.no-transfer");
    assert_eq!(v["ruleset"]["hands"], serde_json::json!([3, 3]));
    // Options still apply on top of an id, and the id printed is canonical.
    let v = json(&[
        "rules",
        "--variant",
        "simple",
        "--rollover",
        "--transfer",
        "--divide",
        "--json",
    ]);
    assert_eq!(v["variant"], "rollover");
    fails_with(
        &["rules", "--variant", "standard.cutoff.rollover"],
        "contradict",
    );
    fails_with(&["rules", "--variant", "nope.f4"], "not a preset");
    let out = run(&["rules", "--variant", "standard", "--preset", "simple"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn pass_splits_takes_its_value_with_a_space_or_an_equals_sign() {
    for args in [
        &["rules", "--pass-splits", "live", "--json"][..],
        &["rules", "--pass-splits=live", "--json"][..],
    ] {
        assert_eq!(json(args)["ruleset"]["pass_splits"], "live", "{args:?}");
    }
    assert_eq!(
        json(&["rules", "--pass-splits", "any", "--json"])["ruleset"]["pass_splits"],
        "any"
    );
    assert_eq!(
        json(&["rules", "--pass-splits", "--json"])["ruleset"]["pass_splits"],
        "any"
    );
    // A position after the bare flag stays a position.
    let v = json(&["query", "--pass-splits", "1111", "--json"]);
    assert_eq!(v["position"], "1_1111", "{v}");
    fails_with(
        &["rules", "--pass-splits=sometimes"],
        "takes `live` or `any`",
    );
}

#[test]
fn serve_memory_takes_sizes_and_refuses_too_little() {
    fails_with(&["serve", "--memory", "256"], "did you mean 256M?");
    fails_with(&["serve", "--memory", "12X"], "unknown unit");
}

#[test]
fn completions_for_every_shell_and_a_manual_page() {
    for (shell, needle) in [
        ("bash", "_chopsticks()"),
        ("zsh", "#compdef chopsticks"),
        ("fish", "complete -c chopsticks"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[chopsticks]"),
    ] {
        let out = run(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(needle),
            "{shell}: {}",
            &text[..text.len().min(300)]
        );
        // Every command is completed.
        assert!(text.contains("solve") && text.contains("serve"), "{shell}");
    }
    fails_with(&["completions", "tcsh"], "invalid value");
    let page = String::from_utf8(run(&["man"]).stdout).unwrap();
    assert!(page.contains(".TH chopsticks 1"), "{page}");
    assert!(page.contains("completions"), "the page lists the commands");
    let solve = String::from_utf8(run(&["man", "solve"]).stdout).unwrap();
    assert!(solve.contains(".TH chopsticks-solve 1"), "{solve}");
    assert!(solve.contains("memory"), "the page has the options");
    fails_with(&["man", "nope"], "no command `nope`");
}
