//! The proof of the closed form for five-fingered hands
//! (`chopsticks_atlas::five`, docs/FIVE-FINGERS.md, "Proof"):
//!
//! 1. the level recursion as this crate writes it
//!    (`chopsticks_atlas::equal_hands::level_recursion`) is the game's: the true
//!    relation, from the level atlas, satisfies it at every pair with at most 8
//!    hands, and that relation with one pair flipped does not; and so does the
//!    relation of the full atlas, which assumes neither Theorem 4 nor Lemma 1,
//!    at every pair with at most 5 hands;
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

use crate::common;

use std::collections::HashMap;

use common::smt::{kept_in_the_docs, prove, refute};

use chopsticks_atlas::equal_hands::level_recursion;
use chopsticks_atlas::five::closed_form;
use chopsticks_atlas::formula::{Count, Formula, Term, Truth};
use chopsticks_atlas::smt::level_recursion_query;
use chopsticks_atlas::{Atlas, LevelAtlas};
use chopsticks_cgt::Outcome;

const MOVER: [&str; 5] = ["a", "b", "c", "d", "e"];
const OTHER: [&str; 5] = ["p", "q", "r", "s", "t"];

#[test]
#[cfg_attr(not(smt), ignore = "needs z3 and cvc5 (apt-get install z3 cvc5)")]
fn the_closed_form_satisfies_the_level_recursion_for_all_counts() {
    prove(&query(), "five-fingers.smt2");
}

/// The query, as `level_recursion_query` writes it for the closed form.
fn query() -> String {
    let query = level_recursion_query(MOVER, OTHER, closed_form);
    assert_eq!(
        chopsticks_atlas::smt::closed_form_query(5),
        Some(query.clone())
    );
    query
}

/// docs/proofs/five-fingers.smt2 is the query of the proof, so that any SMT
/// solver can check it without building anything (`z3
/// docs/proofs/five-fingers.smt2` prints `unsat`).
#[test]
fn the_query_in_the_docs_is_the_proofs() {
    kept_in_the_docs(&query(), "five-fingers.smt2");
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
#[cfg_attr(not(smt), ignore = "needs z3 and cvc5 (apt-get install z3 cvc5)")]
fn a_wrong_rule_is_refused_with_a_counterexample_that_computation_confirms() {
    type Rule = (
        &'static str,
        fn([Term; 5], [Term; 5]) -> Formula,
        fn([i64; 5], [i64; 5]) -> bool,
    );
    let rules: [Rule; 3] = [
        ("flipped_region", flipped_region, flipped_region),
        ("moved_threshold", moved_threshold, moved_threshold),
        ("never_lost", never_lost, never_lost),
    ];
    for (name, symbolic, computed) in rules {
        let query = level_recursion_query(MOVER, OTHER, symbolic);
        let found = refute(&query, MOVER, OTHER);
        for (solver, mover, other) in found {
            assert_ne!(
                computed(mover, other),
                level_recursion(mover, other, computed),
                "{solver} on {name}: {mover:?} against {other:?} is no counterexample"
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

/// The recursion is the game's without Theorem 4 and Lemma 1 too: with the
/// relation read from the full atlas (which solves whole positions and assumes
/// neither result), it holds at all 22,251 pairs with at most 5 hands.
#[test]
fn the_level_recursion_holds_on_the_full_atlas() {
    const HANDS: usize = 5;
    let atlas = Atlas::solve(5, HANDS, None).unwrap();
    let sides = atlas.sides();
    let mut index = HashMap::new();
    for rank in 0..sides.count() {
        let mut c = [0i64; 5];
        for v in sides.values(rank) {
            c[v as usize - 1] += 1;
        }
        index.insert(c, rank);
    }
    // The side to move (Left) loses moving first: R or P.
    let lost = |m: [i64; 5], o: [i64; 5]| {
        matches!(
            atlas.outcome_at(index[&m], index[&o]),
            Outcome::R | Outcome::P
        )
    };
    let mut checked = 0u64;
    for (&m, _) in index.iter() {
        for (&o, _) in index.iter() {
            let h = m.iter().sum::<i64>();
            if h == 0 || h != o.iter().sum::<i64>() {
                continue;
            }
            assert_eq!(
                level_recursion(m, o, lost),
                lost(m, o),
                "{m:?} against {o:?}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 22_251, "pairs with at most {HANDS} hands");
}
