//! The figures docs/THREE-FINGERS.md quotes, computed.

use chopsticks_atlas::{Atlas, Counts, Summary};
use chopsticks_cgt::Outcome;

/// Outcome counts by `l - r` (both sides with a hand), from `-h` to `h`.
fn by_difference(s: &Summary) -> Vec<Counts> {
    let h = s.max_hands as i64;
    let mut out = vec![[0u64; 4]; (2 * h + 1) as usize];
    for (l, row) in s.by_hands.iter().enumerate() {
        for (r, c) in row.iter().enumerate() {
            if l > 0 && r > 0 {
                let d = (l as i64 - r as i64 + h) as usize;
                for k in 0..4 {
                    out[d][k] += c[k];
                }
            }
        }
    }
    out
}

#[test]
fn three_fingers_thirty_hands() {
    let atlas = Atlas::solve(3, 30, None).unwrap();
    let s = atlas.summary();
    assert_eq!(s.total, [14_038_882, 14_038_882, 1_678_781, 11_391]);
    let d = by_difference(&s);
    let h = 30;
    assert_eq!(d[h + 1], [1_537_558, 0, 9_215, 0]);
    assert_eq!(d[h], [7_080, 7_080, 1_660_351, 480]);
    let more: u64 = (h + 2..=2 * h).map(|k| d[k][0]).sum();
    assert_eq!(more, 12_494_244);
    assert!((h + 2..=2 * h).all(|k| d[k][1] + d[k][2] + d[k][3] == 0));
    for (l, r, o) in [
        (vec![2], vec![1], Outcome::P),
        (vec![1, 2], vec![1, 1], Outcome::P),
        (vec![2, 2], vec![1, 3], Outcome::L),
        (vec![1], vec![1], Outcome::N),
    ] {
        assert_eq!(atlas.outcome(&l, &r).unwrap(), o, "({l:?}|{r:?})_3");
    }
}

#[test]
fn four_fingers_twenty_hands() {
    let atlas = Atlas::solve(4, 20, None).unwrap();
    let s = atlas.summary();
    assert_eq!(s.total, [50_705_427, 50_705_427, 11_479_361, 21_661]);
    let d = by_difference(&s);
    let h = 20;
    assert_eq!(d[h + 1], [9_742_306, 0, 41_706, 0]);
    assert_eq!(d[h], [42_137, 42_137, 11_395_949, 410]);
    let more: u64 = (h + 2..=2 * h).map(|k| d[k][0]).sum();
    assert_eq!(more, 40_920_984);
    assert!((h + 2..=2 * h).all(|k| d[k][1] + d[k][2] + d[k][3] == 0));
}

/// At n = 4 with up to 10 hands a side, 2,805 pairs of equal-sized sides (A, B)
/// leave the player holding A lost to move, and B is always 1^k, 2^k, 3^k or
/// holds only 1s and 2s. Against `1^k`, a side without 1s is lost to move exactly
/// when it holds a 2 or an odd number of 3s.
#[test]
fn four_fingers_lost_to_move() {
    let atlas = Atlas::solve(4, 10, None).unwrap();
    let sides = atlas.sides();
    let mut lost = 0;
    for a in 0..sides.count() {
        for b in 0..sides.count() {
            let k = sides.hands(a);
            if k == 0 || sides.hands(b) != k {
                continue;
            }
            let mine: Vec<u32> = sides.values(a).collect();
            if sides.values(b).all(|v| v == 1) && !mine.contains(&1) {
                let threes = mine.iter().filter(|&&v| v == 3).count();
                let predicted_lost = mine.contains(&2) || threes % 2 == 1;
                assert_eq!(
                    !atlas.wins_first(a, b),
                    predicted_lost,
                    "{}",
                    atlas.paper(a, b)
                );
            }
            if atlas.wins_first(a, b) {
                continue;
            }
            lost += 1;
            let values: Vec<u32> = sides.values(b).collect();
            let only = |v: u32| values.iter().all(|&x| x == v);
            let ones_twos = values.iter().all(|&x| x <= 2);
            assert!(
                only(1) || only(2) || only(3) || ones_twos,
                "{}",
                atlas.paper(a, b)
            );
        }
    }
    assert_eq!(lost, 2_805);
}
