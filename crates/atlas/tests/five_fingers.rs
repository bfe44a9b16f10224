//! The rules at `n = 5` (`chopsticks_atlas::five`, docs/FIVE-FINGERS.md) against
//! the level atlas and the full atlas, which know nothing of them.

use chopsticks_atlas::five::{self, Counts5, Verdict};
use chopsticks_atlas::{Atlas, LevelAtlas};

fn counts(values: &[u32]) -> Counts5 {
    let mut c = [0u64; 5];
    for &v in values {
        c[v as usize - 1] += 1;
    }
    c
}

/// Every pair of equal-sized sides with at most 12 hands: the rules predict every
/// pair outside the open family, and the mover loses only against the nine
/// families.
#[test]
fn the_rules_agree_with_the_level_atlas_to_twelve_hands() {
    let atlas = LevelAtlas::solve(5, 12, None).unwrap();
    let (mut known, mut open, mut lost_in_open) = (0u64, 0u64, 0u64);
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
                match five::loses_moving_first(*mover, *other) {
                    Verdict::Known(said) => {
                        assert_eq!(said, lost, "{mover:?} against {other:?}");
                        known += 1;
                    }
                    Verdict::Open => {
                        open += 1;
                        lost_in_open += lost as u64;
                    }
                }
            }
        }
    }
    assert!(known > 5_000_000 && open > 100_000, "{known} {open}");
    // The open family (1s, 2s and 3s) is not empty of losses: 9,581 lost pairs.
    assert!(lost_in_open > 9_000, "{lost_in_open}");
}

/// The outcome of every position with at most 5 hands a side, where the rules
/// decide it, equals the full atlas (which uses neither Theorem 4 nor Lemma 1).
#[test]
fn outcomes_agree_with_the_full_atlas() {
    let atlas = Atlas::solve(5, 5, None).unwrap();
    let sides = atlas.sides();
    let mut decided = 0;
    for l in 0..sides.count() {
        let left: Vec<u32> = sides.values(l).collect();
        for r in 0..sides.count() {
            let right: Vec<u32> = sides.values(r).collect();
            if let Some(o) = five::outcome(counts(&left), counts(&right)) {
                assert_eq!(o, atlas.outcome_at(l, r), "({left:?}|{right:?})_5");
                decided += 1;
            }
        }
    }
    assert!(decided > 50_000, "{decided}");
}

/// The rows proved for every `n` read the same at `n = 5`: a 5 is never lost to,
/// and against `4^h` the mover loses exactly when her 1s are odd.
#[test]
fn the_proved_rows() {
    for a in 0..=6u64 {
        for b in 0..=6 - a {
            let mover = [a, b, 6 - a - b, 0, 0];
            assert_eq!(
                five::loses_moving_first(mover, [0, 0, 0, 6, 0]),
                Verdict::Known(a % 2 == 1)
            );
            assert_eq!(
                five::loses_moving_first(mover, [1, 1, 1, 1, 2]),
                Verdict::Known(false)
            );
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
        assert_eq!(said, Verdict::Known(lost), "{mover:?} against {other:?}");
        let h = mover.len();
        let index = |side: &[u32]| {
            (0..atlas.sides_with(h) as usize)
                .find(|&i| atlas.level_side(h, i) == side)
                .unwrap()
        };
        assert_eq!(!atlas.level_wins(h, index(mover), index(other)), lost);
    }
}
