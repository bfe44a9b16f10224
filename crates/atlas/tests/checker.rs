//! The atlas against separately written checkers: the outcome of the canonical
//! value computed by `chopsticks-values` (an independent evaluator over the rules
//! crate's `simple` ruleset), and a plain memoized minimax over sorted hand lists
//! written here from the paper's Definition 1.

use std::collections::HashMap;

use chopsticks_atlas::Atlas;
use chopsticks_cgt::{GameStore, Outcome};
use chopsticks_rules::Preset;
use chopsticks_values::{value, CgtPosition};

/// Whether the player to move, holding `mover` against `other`, wins.
fn mover_wins(
    memo: &mut HashMap<(Vec<u32>, Vec<u32>), bool>,
    n: u32,
    mover: &[u32],
    other: &[u32],
) -> bool {
    if mover.is_empty() || other.is_empty() {
        return false;
    }
    let key = (mover.to_vec(), other.to_vec());
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut win = false;
    'search: for &x in mover {
        for j in 0..other.len() {
            let mut hit = other.to_vec();
            let y = hit.remove(j);
            if x + y <= n {
                hit.push(x + y);
            }
            hit.sort_unstable();
            if !mover_wins(memo, n, &hit, mover) {
                win = true;
                break 'search;
            }
        }
    }
    memo.insert(key, win);
    win
}

fn minimax_outcome(
    memo: &mut HashMap<(Vec<u32>, Vec<u32>), bool>,
    n: u32,
    l: &[u32],
    r: &[u32],
) -> Outcome {
    match (mover_wins(memo, n, l, r), mover_wins(memo, n, r, l)) {
        (true, false) => Outcome::L,
        (false, true) => Outcome::R,
        (true, true) => Outcome::N,
        (false, false) => Outcome::P,
    }
}

/// Every position of the atlas with `n` and up to `h` hands a side.
fn check(n: u32, h: usize, with_values: bool) -> usize {
    let atlas = Atlas::solve(n, h, None).unwrap();
    let sides = atlas.sides();
    let mut memo = HashMap::new();
    let mut store = GameStore::new();
    let mut rules = Preset::Simple.ruleset();
    rules.fingers = n + 1;
    rules.hands = vec![h, h];
    let mut checked = 0;
    for &a in sides.in_order() {
        for &b in sides.in_order() {
            let l: Vec<u32> = sides.values(a).collect();
            let r: Vec<u32> = sides.values(b).collect();
            let got = atlas.outcome_at(a, b);
            assert_eq!(
                got,
                minimax_outcome(&mut memo, n, &l, &r),
                "{} (minimax)",
                atlas.paper(a, b)
            );
            if with_values {
                let g = value(&mut store, &rules, &CgtPosition::new(l.clone(), r.clone())).unwrap();
                assert_eq!(
                    got,
                    store.outcome(g),
                    "{} (canonical value)",
                    atlas.paper(a, b)
                );
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn three_fingers_six_hands_a_side() {
    // C(3 + 6, 6) = 84 sides.
    assert_eq!(check(3, 6, true), 84 * 84);
}

#[test]
fn four_fingers_four_hands_a_side() {
    // C(4 + 4, 4) = 70 sides.
    assert_eq!(check(4, 4, true), 70 * 70);
}

#[test]
fn small_finger_counts_and_hand_bounds() {
    for n in 1..=6 {
        for h in 1..=4 {
            let sides = Atlas::solve(n, h, None).unwrap().sides().count() as usize;
            assert_eq!(check(n, h, false), sides * sides, "n = {n}, H = {h}");
        }
    }
}
