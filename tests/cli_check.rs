//! Tables that are not believed where the rules contradict them: `query` follows
//! the optimal line to the end of the game, and `check` checks a whole file, so
//! that a forged header or a forged value with recomputed checksums is refused,
//! naming the position where the contradiction shows.

use crate::common;

use chopsticks_rules::Preset;
use common::forge::{along_the_line, edit_header, set_value};
use common::{fails_with, json, run, stdout, text};

#[test]
fn a_header_edited_to_misere_is_caught_at_the_end_of_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("standard.sol");
    stdout(&["solve", "--save", text(&db), "--quiet"]);
    edit_header(&db, "\"misere\":false", "\"misere\":true ");
    // Every position with moves is consistent with its children; only the end
    // of the line contradicts the header.
    let out = run(&["query", "1111", "--db", text(&db)]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("inconsistent solution"), "{err}");
    assert!(
        err.contains("it has no move and the rules give win in 0"),
        "{err}"
    );
    assert!(
        err.contains("23 plies along the optimal line from 1111"),
        "{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "nothing that could be taken for a result"
    );
    // The whole-file check finds it too, as text and as JSON.
    fails_with(&["check", text(&db)], "the rules give win in 0");
    fails_with(
        &["check", text(&db), "--in-place"],
        "the rules give win in 0",
    );
    let out = run(&["check", text(&db), "--json", "--quiet"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["consistent"], false, "{v}");
    assert_eq!(v["proven"], false, "{v}");
    assert_eq!(v["variant"], "standard.misere", "{v}");
    assert!(
        v["contradiction"].as_str().unwrap().contains("at 0000"),
        "{v}"
    );
}

#[test]
fn a_value_forged_deep_on_the_line_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("standard.sol");
    stdout(&["solve", "--save", text(&db), "--quiet"]);
    let rules = Preset::Standard.ruleset();
    // Six plies along: out of reach of the start's neighbours, which is all
    // that was checked before.
    let (deep, near) = along_the_line(&rules, 6);
    assert!(!near);
    // Stored as "win in 0" (code 0 of the narrow encoding).
    set_value(&db, &rules, &deep, 0);
    let out = run(&["query", "1111", "--db", text(&db)]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("inconsistent solution"), "{err}");
    assert!(err.contains("along the optimal line from 1111"), "{err}");
    fails_with(&["check", text(&db)], "inconsistent solution");
    // The position itself is refused when asked for.
    let deep_text = deep
        .to_notation(&rules, chopsticks_rules::Notation::default_for(&rules))
        .unwrap();
    fails_with(&["query", &deep_text, "--db", text(&db)], "win in 0");
}

#[test]
fn an_honest_file_checks_and_is_proven() {
    let dir = tempfile::tempdir().unwrap();
    for (variant, concept) in [
        ("rahman", "two-player"),
        ("standard", "two-player"),
        ("rahman.p3", "coalition"),
    ] {
        let db = dir.path().join(format!("{variant}.sol"));
        stdout(&[
            "solve",
            "--variant",
            variant,
            "--save",
            text(&db),
            "--quiet",
        ]);
        let v = json(&["check", text(&db), "--json"]);
        assert_eq!(v["consistent"], true, "{v}");
        assert_eq!(v["proven"], true, "{v}");
        assert_eq!(v["concept"], concept, "{v}");
        assert_eq!(v["read"], "memory", "{v}");
        assert!(v["in_place_bytes"].is_null(), "{v}");
        // Read from the file in place, the same verdict.
        let v = json(&["check", text(&db), "--json", "--in-place", "--quiet"]);
        assert_eq!(v["read"], "in place", "{v}");
        if concept == "two-player" {
            assert!(v["in_place_bytes"].as_u64().unwrap() > 0, "{v}");
        }
        assert_eq!(v["consistent"], true, "{v}");
        assert_eq!(v["proven"], true, "{v}");
        assert!(v["positions"].as_u64().unwrap() > 100, "{v}");
        let out = stdout(&["check", text(&db)]);
        assert!(
            out.contains("proves the table exactly the solution"),
            "{out}"
        );
        // And a query follows its lines without complaint.
        let start = if concept == "coalition" {
            "11-11-11"
        } else {
            "1111"
        };
        stdout(&["query", start, "--db", text(&db)]);
    }
    // Without remoteness: consistent, and said not to be a proof.
    let db = dir.path().join("values.sol");
    stdout(&["solve", "--no-remoteness", "--save", text(&db), "--quiet"]);
    let v = json(&["check", text(&db), "--json"]);
    assert_eq!(v["consistent"], true, "{v}");
    assert_eq!(v["proven"], false, "{v}");
    assert!(stdout(&["check", text(&db)]).contains("does not prove it right"));
}

/// Read in place, the check holds at most what `--memory` leaves beside the
/// move graph's tables: a budget below the least it needs is refused before
/// any work, with that least.
#[test]
fn a_memory_budget_too_small_for_checking_in_place_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.sol");
    stdout(&["solve", "--save", text(&db), "--quiet"]);
    fails_with(
        &["check", text(&db), "--in-place", "--memory", "1K"],
        "that --memory 1.0 KiB leaves beside the move graph's tables",
    );
    fails_with(&["check", text(&db), "--memory", "lots"], "--memory");
    let v = json(&[
        "check",
        text(&db),
        "--json",
        "--in-place",
        "--memory",
        "64M",
    ]);
    assert_eq!(v["consistent"], true, "{v}");
    assert!(v["in_place_bytes"].as_u64().unwrap() <= 64 << 20, "{v}");
}

#[test]
fn check_refuses_what_is_not_a_solution_file() {
    let dir = tempfile::tempdir().unwrap();
    fails_with(&["check", "/dev/zero"], "not a regular file");
    fails_with(
        &["check", text(&dir.path().join("missing.sol"))],
        "missing.sol",
    );
    let junk = dir.path().join("junk.sol");
    std::fs::write(&junk, b"not a solution").unwrap();
    fails_with(&["check", text(&junk)], "junk.sol");
}
