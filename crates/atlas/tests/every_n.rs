//! What holds for every `n` (docs/EVERY-N.md): the reduced game's closed forms,
//! and the reduction itself checked against the level atlas. The closed forms of
//! the `k = 1` and `k = 2` games are also proved for all counts by the SMT
//! solvers z3 and cvc5, as the `n = 5` closed form is (`five_fingers_proof.rs`).

use crate::common;

use std::cell::RefCell;

use chopsticks_atlas::every_n::{
    compositions, k1_rule, k2_rule, reduce_mover, reduced_recursion, ReducedGame,
};
use chopsticks_atlas::formula::{Count, Formula, Term};
use chopsticks_atlas::smt::reduced_game_query;
use chopsticks_atlas::LevelAtlas;

/// The `k = 1` game's closed form, for both players to move, on every pair of
/// sides with at most 40 hands: the induction of docs/EVERY-N.md, replayed.
#[test]
fn the_k1_closed_form_holds_for_both_players() {
    let mut g = ReducedGame::new(1);
    let mut checked = 0;
    for h in 1..=40 {
        for a in compositions(h, 2) {
            for b in compositions(h, 2) {
                let (mover, opponent) = ReducedGame::k1_closed_form(&a, &b);
                assert_eq!(g.mover_loses(&a, &b), mover, "{a:?} to move against {b:?}");
                assert_eq!(
                    g.opponent_loses(&a, &b),
                    opponent,
                    "{b:?} to move against {a:?}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, (1..=41u64).map(|h| h * h).sum::<u64>() - 1);
}

/// Against `(n − 2)^h`, every `n ≥ 4`: the mover loses exactly when she holds a 2
/// and her 1s and 2s together are odd (every `h ≤ 30`).
#[test]
fn the_k2_row_holds_to_thirty_hands() {
    let mut g = ReducedGame::new(2);
    for h in 1..=30 {
        let b = vec![0, 0, h];
        for a in compositions(h, 3) {
            assert_eq!(
                g.mover_loses(&a, &b),
                ReducedGame::k2_row_closed_form(&a),
                "{a:?} against (n-2)^{h}"
            );
        }
    }
}

/// The closed form of the whole `k = 2` game, for both players, on every pair of
/// sides with at most 20 hands.
#[test]
fn the_k2_closed_form_holds_for_both_players() {
    let mut g = ReducedGame::new(2);
    for h in 1..=20 {
        for a in compositions(h, 3) {
            for b in compositions(h, 3) {
                let (mover, opponent) = ReducedGame::k2_closed_form(&a, &b);
                assert_eq!(g.mover_loses(&a, &b), mover, "{a:?} to move against {b:?}");
                assert_eq!(
                    g.opponent_loses(&a, &b),
                    opponent,
                    "{b:?} to move against {a:?}"
                );
            }
        }
    }
}

/// The reduction: for every `n ≥ 2k` up to 7, every pair of equal-sized sides
/// whose opponent holds only values `n − k..=n` has the outcome the reduced game
/// gives (the level atlas knows nothing of the reduction).
#[test]
fn the_reduced_game_agrees_with_the_level_atlas() {
    for n in 2..=7u32 {
        let max_hands = if n <= 4 { 7 } else { 5 };
        let atlas = LevelAtlas::solve(n, max_hands, None).unwrap();
        for k in 1..=3usize {
            if n < 2 * k as u32 {
                continue;
            }
            let mut g = ReducedGame::new(k);
            let mut rows = 0;
            for h in 1..=max_hands {
                let count = atlas.sides_with(h) as usize;
                for bi in 0..count {
                    let other = atlas.level_side(h, bi);
                    if other.iter().any(|&v| v + (k as u32) < n) {
                        continue;
                    }
                    let mut b = vec![0u64; k + 1];
                    for &v in &other {
                        b[(n - v) as usize] += 1;
                    }
                    for ai in 0..count {
                        let a = reduce_mover(&atlas.level_side(h, ai), k);
                        assert_eq!(
                            !atlas.level_wins(h, ai, bi),
                            g.mover_loses(&a, &b),
                            "n = {n}, k = {k}: {:?} against {other:?}",
                            atlas.level_side(h, ai)
                        );
                        rows += 1;
                    }
                }
            }
            assert!(rows > 0);
        }
    }
}

/// The recursion `reduced_recursion` writes is the one `ReducedGame` solves:
/// with its relations, it holds for both players at every pair with at most 10
/// hands (`k = 1, 2`).
#[test]
fn the_reduced_recursion_is_the_reduced_games() {
    fn check<const K1: usize>() -> u64 {
        let game = RefCell::new(ReducedGame::new(K1 - 1));
        let as_vec = |x: [i64; K1]| x.map(|v| v as u64).to_vec();
        let mover =
            |a: [i64; K1], b: [i64; K1]| game.borrow_mut().mover_loses(&as_vec(a), &as_vec(b));
        let opponent =
            |a: [i64; K1], b: [i64; K1]| game.borrow_mut().opponent_loses(&as_vec(a), &as_vec(b));
        let mut checked = 0;
        for h in 1..=10 {
            for a in compositions(h, K1) {
                for b in compositions(h, K1) {
                    let a: [i64; K1] = std::array::from_fn(|i| a[i] as i64);
                    let b: [i64; K1] = std::array::from_fn(|i| b[i] as i64);
                    let (m, o) = reduced_recursion(a, b, mover, opponent);
                    assert_eq!(m, mover(a, b), "{a:?} to move against {b:?}");
                    assert_eq!(o, opponent(a, b), "{b:?} to move against {a:?}");
                    checked += 1;
                }
            }
        }
        checked
    }
    // Σ over h = 1..10 of C(h + k, k)² pairs.
    assert_eq!(check::<2>(), (2..=11u64).map(|x| x * x).sum::<u64>());
    assert_eq!(
        check::<3>(),
        (1..=10u64)
            .map(|h| ((h + 1) * (h + 2) / 2).pow(2))
            .sum::<u64>()
    );
}

/// Theorems B and C by machine, for all counts: the closed forms of the `k = 1`
/// and `k = 2` reduced games satisfy the game's recursion for both players (the
/// queries are kept as docs/proofs/every-n-k1.smt2 and every-n-k2.smt2).
#[test]
#[cfg_attr(not(smt), ignore = "needs z3 and cvc5 (apt-get install z3 cvc5)")]
fn the_reduced_games_closed_forms_hold_for_all_counts() {
    let (k1, k2) = reduced_queries();
    common::smt::prove(&k1, "every-n-k1.smt2");
    common::smt::prove(&k2, "every-n-k2.smt2");
}

/// The queries of theorems B and C (`k = 1`, `k = 2`).
fn reduced_queries() -> (String, String) {
    (
        reduced_game_query(["a", "r"], ["w", "v"], k1_rule),
        reduced_game_query(["a", "b", "r"], ["w", "v", "u"], k2_rule),
    )
}

/// docs/proofs/every-n-k1.smt2 and every-n-k2.smt2 are the proofs' queries, so
/// that any SMT solver can check them without building anything.
#[test]
fn the_reduced_games_queries_in_the_docs_are_the_proofs() {
    let (k1, k2) = reduced_queries();
    common::smt::kept_in_the_docs(&k1, "every-n-k1.smt2");
    common::smt::kept_in_the_docs(&k2, "every-n-k2.smt2");
}

/// The `k = 2` closed form with the opponent's rule wrong where `u` is odd, `w = 0`
/// and `a ≥ u` (it says lost there): the solvers find a pair that breaks the
/// recursion, and computing the rule and the recursion there confirms it.
#[test]
#[cfg_attr(not(smt), ignore = "needs z3 and cvc5 (apt-get install z3 cvc5)")]
fn a_wrong_reduced_rule_is_refused() {
    fn wrong<C: Count>(a: [C; 3], b: [C; 3]) -> (C::Truth, C::Truth) {
        let (m, o) = k2_rule(a, b);
        let [ones, _, big] = a;
        let [w, _, u] = b;
        (m, o | (big.is(0) & u.odd() & w.is(0) & ones.at_least(u)))
    }
    let symbolic: fn([Term; 3], [Term; 3]) -> (Formula, Formula) = wrong;
    let query = reduced_game_query(["a", "b", "r"], ["w", "v", "u"], symbolic);
    let found = common::smt::refute(&query, ["a", "b", "r"], ["w", "v", "u"]);
    let mover = |x: [i64; 3], y: [i64; 3]| wrong(x, y).0;
    let opponent = |x: [i64; 3], y: [i64; 3]| wrong(x, y).1;
    for (solver, a, b) in found {
        assert_ne!(
            reduced_recursion(a, b, mover, opponent),
            wrong(a, b),
            "{solver}: {a:?} against {b:?} is no counterexample"
        );
    }
}
