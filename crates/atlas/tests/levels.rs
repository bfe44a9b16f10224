//! The level atlas (equal hand counts stored, the rest by Theorem 4 and Lemma 1)
//! against the full atlas, which assumes neither: every position of small sizes.

use chopsticks_atlas::{Atlas, LevelAtlas};

#[test]
fn the_level_atlas_agrees_with_the_full_atlas_everywhere() {
    for (n, h) in [(1, 6), (2, 6), (3, 6), (4, 5), (5, 4), (6, 3), (7, 3)] {
        let full = Atlas::solve(n, h, None).unwrap();
        let levels = LevelAtlas::solve(n, h, None).unwrap();
        let sides = full.sides();
        let all: Vec<Vec<u32>> = (0..sides.count())
            .map(|r| sides.values(r).collect())
            .collect();
        for (a, left) in all.iter().enumerate() {
            for (b, right) in all.iter().enumerate() {
                assert_eq!(
                    levels.outcome(left, right).unwrap(),
                    full.outcome_at(a as u32, b as u32),
                    "n = {n}: {}",
                    full.paper(a as u32, b as u32)
                );
                if left.len() == right.len() {
                    assert_eq!(
                        levels.wins_first(left, right).unwrap(),
                        full.wins_first(a as u32, b as u32)
                    );
                }
            }
        }
        assert_eq!(levels.summary(), full.summary(), "n = {n}, H = {h}");
    }
}

#[test]
fn the_level_atlas_summary_matches_the_full_atlas_at_n4_h12() {
    let full = Atlas::solve(4, 12, None).unwrap().summary();
    let levels = LevelAtlas::solve(4, 12, None).unwrap().summary();
    assert_eq!(levels, full);
}

#[test]
fn the_level_atlas_refuses_what_does_not_fit_and_bad_input() {
    assert!(LevelAtlas::check(0, 3).is_err());
    assert!(LevelAtlas::check(4, 0).is_err());
    let err = LevelAtlas::check(6, 200).unwrap_err().to_string();
    assert!(err.contains("4 GiB") && err.contains("positions"), "{err}");
    let atlas = LevelAtlas::solve(3, 4, None).unwrap();
    assert!(atlas.outcome(&[1, 4], &[1]).is_err());
    assert!(atlas.outcome(&[1, 1, 1, 1, 1], &[1]).is_err());
    assert_eq!(
        atlas.outcome(&[0, 1, 0], &[1]).unwrap(),
        chopsticks_cgt::Outcome::N,
        "(1|1)_3 is N, dead hands ignored"
    );
}

/// The closed form at n = 4 (`chopsticks_atlas::four`) against the level atlas
/// on every pair of equal-sized sides with up to 14 hands; `verify --only
/// four-fingers` goes further.
#[test]
fn the_four_finger_rules_match_the_level_atlas() {
    use chopsticks_atlas::four::loses_moving_first;
    let atlas = LevelAtlas::solve(4, 14, None).unwrap();
    for h in 1..=14 {
        let count = atlas.sides_with(h) as usize;
        let counts: Vec<[u64; 4]> = (0..count)
            .map(|i| {
                let c = atlas.level_counts(h, i);
                assert_eq!(c.iter().sum::<u64>(), h as u64);
                [c[0], c[1], c[2], c[3]]
            })
            .collect();
        for a in 0..count {
            for b in 0..count {
                assert_eq!(
                    loses_moving_first(counts[a], counts[b]),
                    !atlas.level_wins(h, a, b),
                    "{:?} against {:?}",
                    counts[a],
                    counts[b]
                );
            }
        }
    }
    // Examples from the rules: (1|1)_4: a 1 against a 1 wins moving first (a = 1,
    // b = 0); a 2 or a 3 against a 1 loses; against 2^2, 2,4 loses (b = 1, a + b
    // odd) and 1,2 does not; against 3^3, 1,1,1 loses (a odd); 1,1,2,2,4 against
    // 1,2,2,2,2 (q = 4 > d = 1, b = 2 > 4? no): wins; 1,2,2,2,2,2,4 against
    // 1,1,2,2,2,2,2 (q = 5 > 1, b = 5 > 5? no): wins; 1,2,2,2,2,2,2,4 against
    // 1,1,1,2,2,2,2,2 (q = 5, b = 6 > 5, q ≥ d + 3): loses.
    assert!(!loses_moving_first([1, 0, 0, 0], [1, 0, 0, 0]));
    assert!(loses_moving_first([0, 1, 0, 0], [1, 0, 0, 0]));
    assert!(loses_moving_first([0, 0, 1, 0], [1, 0, 0, 0]));
    assert!(loses_moving_first([0, 1, 0, 1], [0, 2, 0, 0]));
    assert!(!loses_moving_first([1, 1, 0, 0], [0, 2, 0, 0]));
    assert!(loses_moving_first([3, 0, 0, 0], [0, 0, 3, 0]));
    assert!(!loses_moving_first([2, 2, 0, 1], [1, 4, 0, 0]));
    assert!(!loses_moving_first([1, 5, 0, 1], [2, 5, 0, 0]));
    assert!(loses_moving_first([1, 6, 0, 1], [3, 5, 0, 0]));
    // (2|1)_4: Left's 2 loses moving first against 1; Right's 1 against 2 (no 2,
    // b = 0) wins: R.
    assert_eq!(
        atlas.outcome(&[2], &[1]).unwrap(),
        chopsticks_cgt::Outcome::R
    );
}
