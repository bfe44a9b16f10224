//! The rules at `n = 5` (`chopsticks_atlas::five`, docs/FIVE-FINGERS.md) against
//! the level atlas and the full atlas, which know nothing of them.

use chopsticks_atlas::five::{self, Counts5};
use chopsticks_atlas::{Atlas, LevelAtlas};

fn counts(values: &[u32]) -> Counts5 {
    let mut c = [0u64; 5];
    for &v in values {
        c[v as usize - 1] += 1;
    }
    c
}

/// Every pair of equal-sized sides with at most 12 hands: the rules predict every
/// pair, and the mover loses only against the nine families.
#[test]
fn the_rules_agree_with_the_level_atlas_to_twelve_hands() {
    let atlas = LevelAtlas::solve(5, 12, None).unwrap();
    let mut checked = 0u64;
    for h in 1..=12 {
        let sides: Vec<Counts5> = (0..atlas.sides_with(h) as usize)
            .map(|i| counts(&atlas.level_side(h, i)))
            .collect();
        for (a, mover) in sides.iter().enumerate() {
            for (b, other) in sides.iter().enumerate() {
                let lost = !atlas.level_wins(h, a, b);
                if lost {
                    assert!(
                        five::LOSABLE_FAMILIES.contains(&five::family(*other)),
                        "{mover:?} loses to {other:?}"
                    );
                }
                assert_eq!(
                    five::loses_moving_first(*mover, *other),
                    lost,
                    "{mover:?} against {other:?}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 6_873_100 + 236_027);
}

/// The outcome of every position with at most 5 hands a side equals the full
/// atlas (which uses neither Theorem 4 nor Lemma 1).
#[test]
fn outcomes_agree_with_the_full_atlas() {
    let atlas = Atlas::solve(5, 5, None).unwrap();
    let sides = atlas.sides();
    let mut decided = 0;
    for l in 0..sides.count() {
        let left: Vec<u32> = sides.values(l).collect();
        for r in 0..sides.count() {
            let right: Vec<u32> = sides.values(r).collect();
            let o = five::outcome(counts(&left), counts(&right));
            assert_eq!(o, atlas.outcome_at(l, r), "({left:?}|{right:?})_5");
            decided += 1;
        }
    }
    assert_eq!(decided, sides.count() * sides.count());
}

/// The rows proved for every `n` read the same at `n = 5`: a 5 is never lost to,
/// and against `4^h` the mover loses exactly when her 1s are odd.
#[test]
fn the_proved_rows() {
    for a in 0..=6u64 {
        for b in 0..=6 - a {
            let mover = [a, b, 6 - a - b, 0, 0];
            assert_eq!(five::loses_moving_first(mover, [0, 0, 0, 6, 0]), a % 2 == 1);
            assert!(!five::loses_moving_first(mover, [1, 1, 1, 1, 2]));
        }
    }
}

/// The worked examples of docs/FIVE-FINGERS.md for the rows against 1s and 3s
/// and against 1s and 2s, each also read from the level atlas.
#[test]
fn worked_examples_of_the_mixed_rows() {
    let atlas = LevelAtlas::solve(5, 4, None).unwrap();
    let cases: [(&[u32], &[u32], bool); 4] = [
        (&[1, 2, 4, 5], &[1, 1, 1, 3], true),
        (&[1, 1, 2, 2], &[1, 1, 1, 3], true),
        (&[3, 3], &[1, 2], false),
        (&[2, 2, 2], &[1, 1, 2], true),
    ];
    for (mover, other, lost) in cases {
        let said = five::loses_moving_first(counts(mover), counts(other));
        assert_eq!(said, lost, "{mover:?} against {other:?}");
        let h = mover.len();
        let index = |side: &[u32]| {
            (0..atlas.sides_with(h) as usize)
                .find(|&i| atlas.level_side(h, i) == side)
                .unwrap()
        };
        assert_eq!(!atlas.level_wins(h, index(mover), index(other)), lost);
    }
}
