//! The evaluators agree with each other, outcomes from canonical values agree
//! with a direct win/lose search, loops and impossible requests are refused.

use crate::common;

use chopsticks_cgt::{GameStore, Outcome};
use chopsticks_rules::{Overflow, Preset, Ruleset};
use chopsticks_values::{
    method, value, value_by, value_with, CgtPosition, Limits, Method, ValueError,
};
use common::{multisets, Minimax};

fn simple(hands: [usize; 2], n: u32) -> Ruleset {
    let mut r = Preset::Simple.ruleset();
    r.hands = hands.to_vec();
    r.fingers = n + 1;
    r
}

/// Every position with `1..=max_l` live hands for Left and `1..=max_r` for Right.
fn positions(max_l: usize, max_r: usize, n: u32) -> Vec<(Vec<u32>, Vec<u32>)> {
    let mut out = Vec::new();
    for l in 1..=max_l {
        for r in 1..=max_r {
            for x in multisets(l, n) {
                for y in multisets(r, n) {
                    out.push((x.clone(), y.clone()));
                }
            }
        }
    }
    out
}

#[test]
fn outcomes_from_values_match_a_direct_search() {
    // Up to 2 hands each for n <= 6, and 3 hands each for n <= 3.
    for (max_h, max_n) in [(2usize, 6u32), (3, 3)] {
        for n in 1..=max_n {
            let rules = simple([max_h, max_h], n);
            let mut store = GameStore::new();
            let mut mm = Minimax::new(n);
            for (l, r) in positions(max_h, max_h, n) {
                let g = value(&mut store, &rules, &CgtPosition::new(l.clone(), r.clone())).unwrap();
                let by_value = store.outcome(g);
                let by_search = mm.outcome(&(l.clone(), r.clone()));
                assert_eq!(by_value, by_search, "({l:?}|{r:?})_{n}");
            }
        }
    }
}

#[test]
fn the_three_evaluators_agree() {
    for n in 1..=5u32 {
        let rules = simple([2, 2], n);
        let mut store = GameStore::new();
        for (l, r) in positions(2, 2, n) {
            let p = CgtPosition::new(l.clone(), r.clone());
            let none = Limits::DEFAULT;
            let fast = value_by(&mut store, &rules, &p, Method::AttackOnly, none, None).unwrap();
            let general = value_by(&mut store, &rules, &p, Method::General, none, None).unwrap();
            assert_eq!(fast, general, "({l:?}|{r:?})_{n}");
            if l.len() == 1 && r.len() == 1 {
                assert_eq!(method(&rules, &p), Method::OneHand);
                let tree = value_by(&mut store, &rules, &p, Method::OneHand, none, None).unwrap();
                assert_eq!(tree, general, "({l:?}|{r:?})_{n}");
            }
        }
    }
    // One hand each, larger finger counts: tree against the general path.
    for n in [12u32, 20, 33] {
        let rules = simple([1, 1], n);
        let mut store = GameStore::new();
        for a in 1..=n {
            for b in 1..=n {
                let p = CgtPosition::new(vec![a], vec![b]);
                let none = Limits::DEFAULT;
                let tree = value_by(&mut store, &rules, &p, Method::OneHand, none, None).unwrap();
                let general =
                    value_by(&mut store, &rules, &p, Method::General, none, None).unwrap();
                assert_eq!(tree, general, "({a}|{b})_{n}");
            }
        }
    }
}

#[test]
fn asymmetric_hand_counts_use_the_seats() {
    // (1,1|1)_4: Left has two hands, Right one. General and attack-only agree.
    let rules = simple([2, 1], 4);
    let mut store = GameStore::new();
    let mut mm = Minimax::new(4);
    for (l, r) in positions(2, 1, 4) {
        let p = CgtPosition::new(l.clone(), r.clone());
        let none = Limits::DEFAULT;
        let a = value_by(&mut store, &rules, &p, Method::AttackOnly, none, None).unwrap();
        let g = value_by(&mut store, &rules, &p, Method::General, none, None).unwrap();
        assert_eq!(a, g, "({l:?}|{r:?})_4");
        assert_eq!(store.outcome(g), mm.outcome(&(l, r)));
    }
}

#[test]
fn a_loop_free_ruleset_other_than_simple() {
    // Self-attacks only raise hands, so play cannot cycle; compare the outcome
    // with a direct search over the rules crate's moves.
    let mut rules = simple([2, 2], 4);
    rules.self_attack = true;
    let mut store = GameStore::new();
    use chopsticks_rules::Position;
    use std::collections::HashMap;
    fn wins(rules: &Ruleset, p: &Position, memo: &mut HashMap<Position, bool>) -> bool {
        if let Some(&w) = memo.get(p) {
            return w;
        }
        let w = p.moves(rules).iter().any(|(_, q)| !wins(rules, q, memo));
        memo.insert(p.clone(), w);
        w
    }
    let mut memo = HashMap::new();
    for (l, r) in positions(2, 2, 4) {
        let g = value(&mut store, &rules, &CgtPosition::new(l.clone(), r.clone())).unwrap();
        let pad = |h: &Vec<u32>| {
            let mut h = h.clone();
            h.resize(2, 0);
            h
        };
        let left_first = Position::new(&rules, vec![pad(&l), pad(&r)]).unwrap();
        let right_first = Position::new(&rules, vec![pad(&r), pad(&l)]).unwrap();
        let by_search = match (
            wins(&rules, &left_first, &mut memo),
            wins(&rules, &right_first, &mut memo),
        ) {
            (true, true) => Outcome::N,
            (true, false) => Outcome::L,
            (false, true) => Outcome::R,
            (false, false) => Outcome::P,
        };
        assert_eq!(
            store.outcome(g),
            by_search,
            "({l:?}|{r:?}) with self-attacks"
        );
    }
}

#[test]
fn loops_are_refused() {
    let mut store = GameStore::new();
    // Transfers: 13 -> 22 -> 13 …
    let standard = Preset::Standard.ruleset();
    let e = value(
        &mut store,
        &standard,
        &CgtPosition::new(vec![1, 1], vec![1, 1]),
    )
    .unwrap_err();
    assert!(matches!(e, ValueError::Loop { .. }), "{e}");
    assert!(e.to_string().contains("loopy"), "{e}");
    // Rollover with one hand each, F = 4: Left's 2 cycles Right's 1 -> 3 -> 1.
    let mut roll = simple([1, 1], 3);
    roll.overflow = Overflow::Rollover;
    let e = value(&mut store, &roll, &CgtPosition::new(vec![2], vec![1])).unwrap_err();
    assert!(matches!(e, ValueError::Loop { .. }), "{e}");
    // Rollover with F = 5, one hand each, also cycles once Left and Right both
    // move: (2|1) -R-> (3|1) -L-> (3|4) -R-> (2|4) -L-> (2|1).
    let mut roll5 = simple([1, 1], 4);
    roll5.overflow = Overflow::Rollover;
    let e = value(&mut store, &roll5, &CgtPosition::new(vec![1], vec![1])).unwrap_err();
    assert!(matches!(e, ValueError::Loop { .. }), "{e}");
}

#[test]
fn impossible_requests_are_errors() {
    let mut store = GameStore::new();
    let mut misere = simple([1, 1], 4);
    misere.misere = true;
    let p = CgtPosition::new(vec![1], vec![1]);
    assert_eq!(value(&mut store, &misere, &p), Err(ValueError::Misere));
    let mut three = simple([1, 1], 4);
    three.hands = vec![1, 1, 1];
    assert_eq!(value(&mut store, &three, &p), Err(ValueError::Players(3)));
    let rules = simple([1, 1], 4);
    let too_many = CgtPosition::new(vec![1, 1], vec![1]);
    assert!(matches!(
        value(&mut store, &rules, &too_many),
        Err(ValueError::Position(_))
    ));
    let too_big = CgtPosition::new(vec![5], vec![1]);
    assert!(matches!(
        value(&mut store, &rules, &too_big),
        Err(ValueError::Position(_))
    ));
    // The position limit.
    let rules = simple([1, 1], 2000);
    let limits = Limits {
        max_positions: 1000,
        ..Limits::DEFAULT
    };
    // The one-hand evaluator refuses at once from its estimate (about 1.2 million
    // positions below (1|1)_2000).
    let e = value_with(&mut store, &rules, &p, limits, None).unwrap_err();
    assert!(
        matches!(e, ValueError::Estimated { positions, limit: 1000 } if (1_150_000..1_300_000).contains(&positions)),
        "{e:?}"
    );
    let rules = simple([2, 2], 50);
    let p = CgtPosition::new(vec![1, 1], vec![1, 1]);
    let e = value_with(&mut store, &rules, &p, limits, None).unwrap_err();
    assert_eq!(e, ValueError::TooLarge { limit: 1000 });
    // Positions that are over are 0.
    let p = CgtPosition::new(vec![], vec![3]);
    assert_eq!(value(&mut store, &simple([1, 1], 4), &p), Ok(store.zero()));
}

#[test]
fn deep_games_do_not_use_the_call_stack() {
    // (1|1)_1500 is 1500 plies deep along (1|1) -> (1|2) -> (1|3) -> …; evaluate it
    // with the memoized evaluator on a thread with a small stack.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let rules = simple([1, 1], 1500);
            let mut store = GameStore::new();
            let p = CgtPosition::new(vec![1], vec![1]);
            let none = Limits::DEFAULT;
            let a = value_by(&mut store, &rules, &p, Method::AttackOnly, none, None).unwrap();
            let t = value_by(&mut store, &rules, &p, Method::OneHand, none, None).unwrap();
            assert_eq!(a, t);
            store.format(a)
        })
        .unwrap();
    // 1500 is in [987, 1597): after 1429 the value is ±J.
    assert_eq!(handle.join().unwrap(), "+-{0|^[2]}");
}
