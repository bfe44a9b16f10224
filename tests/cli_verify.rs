//! `chopsticks verify` through the real binary.

use crate::common;

use common::{fails_with, json, stdout};

const SMALL: [&str; 22] = [
    "--max-n",
    "400",
    "--atlas-n",
    "4",
    "--max-hands",
    "4",
    "--hands-n2",
    "8",
    "--hands-n3",
    "6",
    "--hands-n4",
    "8",
    "--hands-n5",
    "6",
    "--general-n",
    "5",
    "--general-hands",
    "4",
    "--table1-n",
    "20",
    "--adjacent-k",
    "3",
];

#[test]
fn every_statement_holds_and_says_what_was_checked() {
    let mut args = vec!["verify", "--json", "-q"];
    args.extend(SMALL);
    let v = json(&args);
    let list = v.as_array().unwrap();
    let names: Vec<&str> = list.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "theorem-3",
            "theorem-4",
            "lemma-1",
            "proposition-1",
            "proposition-2",
            "proposition-3",
            "proposition-4",
            "conjecture-pm-j",
            "three-fingers",
            "four-fingers",
            "five-fingers",
            "general-n",
            "table-1-closed-forms",
            "conjecture-5"
        ]
    );
    for c in list {
        for key in ["statement", "holds", "checked", "counterexamples"] {
            assert!(c.get(key).is_some(), "{key} in {c}");
        }
        assert_eq!(c["holds"], true, "{c}");
        assert!(c["positions"].as_u64().unwrap() > 0, "{c}");
        assert_eq!(c["counterexamples"].as_array().unwrap().len(), 0);
    }
    assert_eq!(list[0]["positions"], 400);
    assert_eq!(list[6]["positions"], 6); // (1^a|1^a)_3, a = 1..=6
                                         // C(3 + 6, 6)^2 positions at n = 3.
    assert_eq!(list[8]["positions"], 84 * 84);
    // Pairs of equal-sized sides at n = 4, h = 1..=8: Σ C(h + 3, 3)².
    let pairs: u64 = (1..=8u64)
        .map(|h| {
            let c = (h + 1) * (h + 2) * (h + 3) / 6;
            c * c
        })
        .sum();
    let four = list[9]["positions"].as_u64().unwrap();
    assert_eq!(four, pairs);
    // five-fingers: every pair at n = 5, h = 1..=6.
    let binomial = |n: u64, k: u64| -> u64 { (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1)) };
    let five: u64 = (1..=6u64).map(|h| binomial(h + 4, 4).pow(2)).sum();
    assert_eq!(list[10]["positions"].as_u64().unwrap(), five);
    // general-n: for n = 2..=5 and h = 1..=4, the pairs whose opponent holds an n
    // (every side of h hands but those without an n) or is (n-1)^h (one side) or,
    // from n = 4, (n-2)^h (one side); then the reduced games to 4 · 4 hands: the
    // k = 1 game at every pair of sides of two counts, the k = 2 row at every
    // side of three counts.
    let mut cases = 0;
    for n in 2..=5u64 {
        for h in 1..=4u64 {
            let sides = binomial(h + n - 1, h);
            let without_n = binomial(h + n - 2, h);
            let rows = if n >= 4 { 2 } else { 1 };
            cases += sides * (sides - without_n + rows);
        }
    }
    for h in 1..=16u64 {
        cases += (h + 1) * (h + 1) + binomial(h + 2, 2);
    }
    assert_eq!(list[11]["positions"].as_u64().unwrap(), cases);
    // Table 1 to n = 20: every cell but band 3 beyond its first two layers (the
    // second: 4a + 3b <= n < 7a + 3b for a <= b, and the mirror image).
    let deep: u64 = (1..=20u64)
        .map(|n| {
            let mut count = 0;
            for a in 1..=n {
                for b in 1..=n {
                    let band3 = a + 3 * b <= n && 3 * a + b <= n;
                    let first = n < 4 * a + 3 * b && n < 3 * a + 4 * b;
                    let second = if a <= b {
                        4 * a + 3 * b <= n && n < 7 * a + 3 * b
                    } else {
                        3 * a + 4 * b <= n && n < 3 * a + 7 * b
                    };
                    if band3 && !first && !second {
                        count += 1;
                    }
                }
            }
            count
        })
        .sum();
    let cells: u64 = (1..=20u64).map(|n| n * n).sum();
    assert_eq!(list[12]["positions"].as_u64().unwrap(), cells - deep);
    // Conjecture 5 for k = 1..=3: one case per n, k < n <= 250k.
    assert_eq!(list[13]["positions"], 249 + 498 + 747);

    let mut args = vec!["verify", "--only", "theorem-3,proposition-4"];
    args.extend(SMALL);
    let text = stdout(&args);
    assert!(text.contains("holds: Theorem 3"), "{text}");
    assert!(text.contains("holds: Proposition 4"), "{text}");
    assert!(!text.contains("Lemma 1"), "{text}");
    assert!(text.contains("2 of 2 statements hold"), "{text}");
}

/// `--smt-query N` prints the query of the proof kept in docs/proofs, for n = 3,
/// 4 and 5, and refuses another n.
#[test]
fn the_proofs_queries_are_printed() {
    for (n, file) in [(3, "three"), (4, "four"), (5, "five")] {
        let kept = std::fs::read_to_string(format!(
            "{}/docs/proofs/{file}-fingers.smt2",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        assert_eq!(stdout(&["verify", "--smt-query", &n.to_string()]), kept);
    }
    fails_with(
        &["verify", "--smt-query", "6"],
        "the closed forms proved by a solver are those for n = 3, 4, 5",
    );
    fails_with(
        &["verify", "--smt-query", "5", "--json"],
        "cannot be used with",
    );
}

#[test]
fn bad_bounds_are_refused() {
    fails_with(&["verify", "--only", "theorem-5"], "unknown statement");
    fails_with(
        &["verify", "--only", "theorem-3", "--max-n", "0"],
        "--max-n must be",
    );
    fails_with(
        &["verify", "--only", "theorem-3", "--max-n", "4000000000"],
        "--max-n must be",
    );
    fails_with(
        &["verify", "--only", "lemma-1", "--max-hands", "0"],
        "at least 1",
    );
    fails_with(
        &["verify", "--only", "three-fingers", "--hands-n3", "255"],
        "--hands-n3: (x|y)_3 with up to 255 hands a side has 8003557851136 positions",
    );
    fails_with(
        &["verify", "--only", "four-fingers", "--hands-n4", "0"],
        "--hands-n4 must be at least 1",
    );
    fails_with(
        &["verify", "--only", "four-fingers", "--hands-n4", "200"],
        "--hands-n4: (x|y)_4 with up to 200 hands a side has",
    );
    fails_with(
        &["verify", "--only", "general-n", "--general-n", "1"],
        "--general-n must be at least 2",
    );
    fails_with(
        &["verify", "--only", "general-n", "--general-hands", "0"],
        "--general-hands must be at least 1",
    );
    fails_with(
        &[
            "verify",
            "--only",
            "general-n",
            "--general-n",
            "8",
            "--general-hands",
            "60",
        ],
        "--general-n and --general-hands: (x|y)_",
    );
    fails_with(
        &[
            "verify",
            "--only",
            "table-1-closed-forms",
            "--table1-n",
            "0",
        ],
        "--table1-n must be between 1 and 400",
    );
    fails_with(
        &["verify", "--only", "conjecture-5", "--adjacent-k", "61"],
        "--adjacent-k must be between 1 and 60",
    );
    fails_with(
        &["verify", "--atlas-n", "300"],
        "--atlas-n must be between 1 and 250",
    );
    fails_with(
        &[
            "verify",
            "--only",
            "theorem-4",
            "--atlas-n",
            "100",
            "--max-hands",
            "3",
        ],
        "--atlas-n and --max-hands: (x|y)_91",
    );
    // Only the bounds the chosen statements use are checked.
    let v = json(&[
        "verify",
        "--only",
        "theorem-3",
        "--max-n",
        "50",
        "--atlas-n",
        "0",
        "--hands-n2",
        "0",
        "--json",
        "-q",
    ]);
    assert_eq!(v[0]["holds"], true);
}
