//! Propositions 1–4, Theorem 4 and Lemma 1 of the paper, checked exhaustively for
//! small sizes: outcomes from canonical values (and, for Theorem 4 and Lemma 1,
//! from a direct search that also names the winning moves).

use crate::common;

use chopsticks_cgt::{GameStore, Outcome};
use chopsticks_rules::Preset;
use chopsticks_values::{value, CgtPosition};
use common::{left_options, multisets, ones_twos, Minimax};

fn outcome(store: &mut GameStore, n: u32, l: &[u32], r: &[u32]) -> Outcome {
    let mut rules = Preset::Simple.ruleset();
    rules.hands = vec![l.len().max(1), r.len().max(1)];
    rules.fingers = n + 1;
    let g = value(store, &rules, &CgtPosition::new(l.to_vec(), r.to_vec())).unwrap();
    store.outcome(g)
}

/// Propositions 1–3: the outcome of `(1^a, 2^b | 1^c, 2^d)_2`.
fn predicted_n2(a: usize, b: usize, c: usize, d: usize) -> Outcome {
    let (l, r) = (a + b, c + d);
    let odd = |x: usize| x % 2 == 1;
    if l == 0 || r == 0 {
        // The game is over: 0 by the paper's convention. Proposition 3 says so
        // (P when c = d = 0); Proposition 1 as printed would say L or R here,
        // but it can only mean positions where both players still have a hand.
        Outcome::P
    } else if l >= r + 2 {
        Outcome::L // Proposition 1
    } else if r >= l + 2 {
        Outcome::R
    } else if l == r {
        // Proposition 2 (l = r = 0 is the Garden of Eden 0, a P-position).
        if l == 0 || (b == 0 && d == 0 && odd(a) && odd(c)) {
            Outcome::P
        } else if b == 0 && d != 0 && odd(c) {
            Outcome::L
        } else if d == 0 && b != 0 && odd(a) {
            Outcome::R
        } else {
            Outcome::N
        }
    } else if l > r {
        // Proposition 3.1
        if c == 0 && d == 0 {
            Outcome::P
        } else if d == 0 && b > 0 && odd(a) {
            Outcome::N
        } else {
            Outcome::L
        }
    } else if a == 0 && b == 0 {
        // Proposition 3.2
        Outcome::P
    } else if b == 0 && d > 0 && odd(c) {
        Outcome::N
    } else {
        Outcome::R
    }
}

#[test]
fn propositions_1_2_3_finger_count_2() {
    const MAX: usize = 6; // up to 6 hands each
    let mut store = GameStore::new();
    let mut checked = 0;
    for a in 0..=MAX {
        for b in 0..=MAX - a {
            for c in 0..=MAX {
                for d in 0..=MAX - c {
                    let l = ones_twos(a, b);
                    let r = ones_twos(c, d);
                    let got = outcome(&mut store, 2, &l, &r);
                    assert_eq!(
                        got,
                        predicted_n2(a, b, c, d),
                        "(1^{a},2^{b} | 1^{c},2^{d})_2"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 28 * 28);
}

#[test]
fn proposition_4_start_with_three_fingers_is_next() {
    let mut store = GameStore::new();
    for a in 1..=7 {
        let start = vec![1; a];
        assert_eq!(
            outcome(&mut store, 3, &start, &start),
            Outcome::N,
            "(1^{a}|1^{a})_3"
        );
    }
}

/// Theorem 4 as the paper uses it (its statement did not survive in the text):
/// when Left has more hands than Right, Left moving first wins. Lemma 1: when
/// Left has fewer hands and wins moving first, she has exactly one hand fewer and
/// every winning move removes one of Right's hands.
#[test]
fn theorem_4_and_lemma_1() {
    for n in 1..=4u32 {
        let mut mm = Minimax::new(n);
        for l in 1..=4usize {
            for r in 1..=4usize {
                for x in multisets(l, n) {
                    for y in multisets(r, n) {
                        let p = (x.clone(), y.clone());
                        let left_first = mm.mover_wins(&p, true);
                        if l > r {
                            assert!(left_first, "Theorem 4 fails at ({x:?}|{y:?})_{n}");
                        }
                        if l < r && left_first {
                            assert_eq!(l, r - 1, "Lemma 1 (hand counts) at ({x:?}|{y:?})_{n}");
                            for q in left_options(&p, n) {
                                if !mm.mover_wins(&q, false) {
                                    assert_eq!(
                                        q.1.len(),
                                        r - 1,
                                        "Lemma 1: winning move {q:?} from ({x:?}|{y:?})_{n}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
