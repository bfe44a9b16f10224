//! What holds for every `n` (docs/EVERY-N.md): the reduced game's closed forms,
//! and the reduction itself checked against the level atlas.

use chopsticks_atlas::every_n::{compositions, reduce_mover, ReducedGame};
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
