//! The proof of the closed form for five-fingered hands
//! (`chopsticks_atlas::five`, docs/FIVE-FINGERS.md, "Proof"):
//!
//! 1. the level recursion as this crate writes it
//!    (`chopsticks_atlas::equal_hands::level_recursion`) is the game's: the true
//!    relation, from the level atlas, satisfies it at every pair with at most 10
//!    hands, and nothing else does there;
//! 2. the closed form satisfies that recursion at **every** pair of sides with
//!    equal hand counts: two SMT solvers, z3 and cvc5, each answer `unsat` to the
//!    query of `chopsticks_atlas::smt` (the closed form and the recursion as
//!    formulas of linear integer arithmetic, printed from the very functions that
//!    compute them);
//! 3. the query is not vacuous: rules with a deliberate error give `sat`, and the
//!    counterexample each solver returns is checked by computing, in Rust, the
//!    rule and the recursion at it.
//!
//! The recursion has one solution, so 2 proves the closed form.
//!
//! Needs the solvers `z3` and `cvc5` (Debian's packages of those names). Without
//! them the test fails when the environment variable `CI` is set (`.ci/run`
//! installs them) and is skipped with a message otherwise.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use chopsticks_atlas::equal_hands::level_recursion;
use chopsticks_atlas::five::closed_form;
use chopsticks_atlas::formula::{Count, Truth};
use chopsticks_atlas::smt::level_recursion_query;
use chopsticks_atlas::LevelAtlas;

const MOVER: [&str; 5] = ["a", "b", "c", "d", "e"];
const OTHER: [&str; 5] = ["p", "q", "r", "s", "t"];

/// A solver: its command, and the arguments that make it read SMT-LIB 2 from
/// standard input.
struct Solver {
    name: &'static str,
    arguments: &'static [&'static str],
}

const SOLVERS: [Solver; 2] = [
    Solver {
        name: "z3",
        arguments: &["-smt2", "-in"],
    },
    Solver {
        name: "cvc5",
        arguments: &["--lang", "smt2", "--produce-models"],
    },
];

fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// The solvers installed, or `None` (the test is skipped) where one is missing
/// outside CI.
fn solvers() -> Option<Vec<(PathBuf, &'static Solver)>> {
    let mut found = Vec::new();
    for s in &SOLVERS {
        match on_path(s.name) {
            Some(path) => found.push((path, s)),
            None => {
                assert!(
                    std::env::var_os("CI").is_none(),
                    "the proof needs the SMT solvers z3 and cvc5 (.ci/run installs them: apt-get install z3 cvc5)"
                );
                eprintln!(
                    "skipped: {} is not installed (apt-get install z3 cvc5)",
                    s.name
                );
                return None;
            }
        }
    }
    Some(found)
}

/// The solver's output for `query`.
fn solve(path: &PathBuf, solver: &Solver, query: &str) -> String {
    let mut child = Command::new(path)
        .args(solver.arguments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", solver.name));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(query.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// The pair `(mover, other)` of a `sat` answer followed by `(get-value …)`.
fn counterexample(output: &str) -> ([i64; 5], [i64; 5]) {
    let mut values = [0i64; 10];
    let mut found = [false; 10];
    let tokens: Vec<String> = output
        .replace(['(', ')'], " ")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    for w in tokens.windows(2) {
        if let Some(i) = MOVER.iter().chain(OTHER.iter()).position(|n| *n == w[0]) {
            if let Ok(v) = w[1].parse() {
                values[i] = v;
                found[i] = true;
            }
        }
    }
    assert!(found.iter().all(|&f| f), "no model in {output}");
    (
        [values[0], values[1], values[2], values[3], values[4]],
        [values[5], values[6], values[7], values[8], values[9]],
    )
}

#[test]
fn the_closed_form_satisfies_the_level_recursion_for_all_counts() {
    let Some(solvers) = solvers() else { return };
    let query = level_recursion_query(MOVER, OTHER, closed_form);
    // Kept beside the build, for anyone who wants to run another solver on it.
    let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("five-fingers.smt2");
    std::fs::write(&file, &query).unwrap();
    for (path, solver) in &solvers {
        let answer = solve(path, solver, &query);
        assert_eq!(
            answer.trim(),
            "unsat",
            "{} on {}: the closed form breaks the recursion somewhere",
            solver.name,
            file.display()
        );
    }
}

/// The closed form, wrong in a region: against 1s and 3s with `a` even and
/// `x = a + b − p = 3`, its answer is flipped where `p = a + e + 2`.
fn flipped_region<C: Count>(mover: [C; 5], other: [C; 5]) -> C::Truth {
    let [a, b, _, _, e] = mover;
    let [p, q, r, s, t] = other;
    let two = C::from(2);
    let region = p.at_least(1)
        & q.is(0)
        & r.at_least(1)
        & s.is(0)
        & t.is(0)
        & a.at_least(2)
        & a.even()
        & (a + b - p).is(3)
        & p.is(a + e + two);
    let f = closed_form(mover, other);
    (f & !region) | (!f & region)
}

/// The closed form with one threshold moved: against 1s, 2s and 3s it says
/// "lost" for `a ≥ 2` from `J ≥ 4` where the true rule says `J ≥ 3`.
fn moved_threshold<C: Count>(mover: [C; 5], other: [C; 5]) -> C::Truth {
    let [a, _, c, d, e] = mover;
    let [p, q, r, s, t] = other;
    let j = r - c - d - e;
    let region = p.at_least(1)
        & q.at_least(1)
        & r.at_least(1)
        & s.is(0)
        & t.is(0)
        & a.at_least(2)
        & j.is(3)
        & (p - a - e).at_least(0);
    closed_form(mover, other) & !region
}

/// "The mover never loses": false against `(1|4)_5`'s `1^1` facing `4^1`.
fn never_lost<C: Count>(_mover: [C; 5], _other: [C; 5]) -> C::Truth {
    C::Truth::constant(false)
}

#[test]
fn a_wrong_rule_is_refused_with_a_counterexample_that_computation_confirms() {
    let Some(solvers) = solvers() else { return };
    type Rule = (
        &'static str,
        fn(
            [chopsticks_atlas::formula::Term; 5],
            [chopsticks_atlas::formula::Term; 5],
        ) -> chopsticks_atlas::formula::Formula,
        fn([i64; 5], [i64; 5]) -> bool,
    );
    let rules: [Rule; 3] = [
        ("flipped_region", flipped_region, flipped_region),
        ("moved_threshold", moved_threshold, moved_threshold),
        ("never_lost", never_lost, never_lost),
    ];
    let names = MOVER
        .iter()
        .chain(OTHER.iter())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    for (name, symbolic, computed) in rules {
        let query = format!(
            "(set-option :produce-models true)\n{}(get-value ({names}))\n",
            level_recursion_query(MOVER, OTHER, symbolic)
        );
        for (path, solver) in &solvers {
            let answer = solve(path, solver, &query);
            assert!(
                answer.starts_with("sat"),
                "{} on {name}: {answer}",
                solver.name
            );
            let (mover, other) = counterexample(&answer);
            assert!(mover.iter().chain(other.iter()).all(|&v| v >= 0));
            let h: i64 = mover.iter().sum();
            assert!(
                h >= 1 && h == other.iter().sum::<i64>(),
                "{mover:?} {other:?}"
            );
            assert_ne!(
                computed(mover, other),
                level_recursion(mover, other, computed),
                "{} on {name}: {mover:?} against {other:?} is no counterexample",
                solver.name
            );
        }
    }
}

/// The recursion as written is the game's: with the true relation (the level
/// atlas, which knows nothing of it) it holds at every pair with at most 8
/// hands, and with the relation flipped at one pair it fails there.
#[test]
fn the_level_recursion_is_the_games() {
    const HANDS: usize = 8;
    let atlas = LevelAtlas::solve(5, HANDS, None).unwrap();
    let counts = |h: usize, i: usize| -> [i64; 5] {
        let c = atlas.level_counts(h, i);
        [c[0], c[1], c[2], c[3], c[4]].map(|v| v as i64)
    };
    let mut index = HashMap::new();
    for h in 1..=HANDS {
        for i in 0..atlas.sides_with(h) as usize {
            index.insert(counts(h, i), i);
        }
    }
    let lost = |m: [i64; 5], o: [i64; 5]| {
        let h = m.iter().sum::<i64>() as usize;
        !atlas.level_wins(h, index[&m], index[&o])
    };
    let mut checked = 0u64;
    let mut lost_pairs = 0u64;
    for h in 1..=HANDS {
        let sides = atlas.sides_with(h) as usize;
        for a in 0..sides {
            for b in 0..sides {
                let (m, o) = (counts(h, a), counts(h, b));
                let truth = lost(m, o);
                assert_eq!(level_recursion(m, o, lost), truth, "{m:?} against {o:?}");
                checked += 1;
                lost_pairs += truth as u64;
            }
        }
    }
    // Σ over h = 1..8 of C(h + 4, 4)² pairs.
    assert_eq!(checked, 420_276);
    assert_eq!(lost_pairs, 7_557, "lost pairs with at most {HANDS} hands");
    // One pair flipped: the recursion notices at that pair.
    let (m, o) = ([1, 0, 0, 0, 0], [0, 0, 0, 1, 0]);
    let flipped = |x: [i64; 5], y: [i64; 5]| lost(x, y) ^ (x == m && y == o);
    assert_ne!(level_recursion(m, o, flipped), flipped(m, o));
}
