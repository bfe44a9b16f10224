//! The proof of the closed form for four-fingered hands
//! (`chopsticks_atlas::four`), in three computer-checked steps
//! (docs/FOUR-FINGERS.md, "Proof"):
//!
//! 1. the closed form `F` satisfies the level recursion of the game (Theorem 4 and
//!    Lemma 1 of the paper reduce every position to pairs of sides with as many
//!    hands) at every pair whose counts lie in a box;
//! 2. whether `F` satisfies the recursion at a pair depends only on the pair's
//!    *type* (count classes and a few clamped linear forms);
//! 3. every type has a representative in the box: a pair outside it can be lowered
//!    without changing its type (a bound found by exact linear programming over
//!    every abstract state of the counts).
//!
//! A second proof, by another method, checks the same closed form: written once
//! over `chopsticks_atlas::formula::Count`, it is printed with the level
//! recursion as a formula of linear integer arithmetic, and the SMT solvers z3
//! and cvc5 each show that it satisfies the recursion for all counts
//! (`an_smt_solver_proves_it_too`, as the `n = 5` proof in
//! `five_fingers_proof.rs`).
//!
//! A pair is written `[a, b, c, d, p, q, r, s]`: the mover holds `1^a 2^b 3^c 4^d`,
//! the opponent `1^p 2^q 3^r 4^s`, with `a + b + c + d = p + q + r + s`.

use crate::common;

use chopsticks_atlas::equal_hands::level_recursion;
use chopsticks_atlas::four::{closed_form, loses_moving_first, Counts4};
use chopsticks_atlas::smt::level_recursion_query;
use rayon::prelude::*;

type Pair = [u64; 8];

/// The box of step 3: every type has a representative with each count at most
/// this (`a b c d p q r s`).
const BOX: [u64; 8] = [17, 23, 16, 17, 17, 23, 16, 17];

/// The linear forms the closed form compares, as coefficients on
/// `a b c d p q r s`, with the range `[bottom, top]` each is clamped to. The first
/// three are read by `F(mover | other)`: `q − c` (against 0 and 1), `q − c − d`
/// (against 1 and 3), `b − (q − c)` (against 1); the last three are the same
/// forms of `F(other | mover)`. Each range widens the thresholds by one on each
/// side, since one exchange moves each form by at most one.
const FORMS: [([i64; 8], i64, i64); 6] = [
    ([0, 0, -1, 0, 0, 1, 0, 0], -2, 2),
    ([0, 0, -1, -1, 0, 1, 0, 0], -1, 4),
    ([0, 1, 1, 0, 0, -1, 0, 0], -1, 2),
    ([0, 1, 0, 0, 0, 0, -1, 0], -2, 2),
    ([0, 1, 0, 0, 0, 0, -1, -1], -1, 4),
    ([0, -1, 0, 0, 0, 1, 1, 0], -1, 2),
];

fn split(v: &Pair) -> (Counts4, Counts4) {
    ([v[0], v[1], v[2], v[3]], [v[4], v[5], v[6], v[7]])
}

/// The level recursion evaluated with `F` one exchange deep
/// (`chopsticks_atlas::equal_hands::level_recursion`, the recursion the second
/// proof prints for the solvers): the mover (`h` hands against `h`) loses moving
/// first when every hit fails. A hit that keeps the opponent's hands fails when
/// the opponent, now moving, does not lose by `F`. A hit that removes a hand
/// leaves him `h − 1` hands moving first; he wins only by removing one of hers so
/// that she loses moving first by `F` (Lemma 1 and Theorem 4), and with no hand
/// left he has lost.
fn recursion(mover: Counts4, other: Counts4) -> bool {
    let signed = |side: Counts4| side.map(|v| v as i64);
    level_recursion(signed(mover), signed(other), closed_form)
}

/// A count's class: 0, 1, 2, odd and at least 3, even and at least 4.
fn class(x: u64) -> u64 {
    if x <= 2 {
        x
    } else {
        3 + x % 2
    }
}

type Type = ([u64; 8], [i64; 6]);

/// The type of a pair: the class of each count and each form clamped to its
/// range.
fn type_of(v: &Pair) -> Type {
    let classes = v.map(class);
    let mut forms = [0i64; 6];
    for (f, (coefficients, bottom, top)) in forms.iter_mut().zip(FORMS) {
        let value: i64 = coefficients.iter().zip(v).map(|(c, &x)| c * x as i64).sum();
        *f = value.clamp(bottom, top);
    }
    (classes, forms)
}

/// The lowerings of step 3: lower by 2 any counts of the mover's side and any
/// of the opponent's (at least one of `b c d q r s`, or exactly `a` and `p`),
/// and raise `a` or `p` by as much as keeps the hand counts equal. Each lowers
/// `b + c + d + q + r + s`, or `a + p` with it unchanged, so repeating them ends.
fn lowerings() -> Vec<[i64; 8]> {
    let mut moves = Vec::new();
    for mover_set in 0..16 {
        for other_set in 0..16 {
            let mut m = [0i64; 8];
            for i in 0..4 {
                if mover_set >> i & 1 == 1 {
                    m[i] -= 2;
                }
                if other_set >> i & 1 == 1 {
                    m[4 + i] -= 2;
                }
            }
            let difference: i64 = m[..4].iter().sum::<i64>() - m[4..].iter().sum::<i64>();
            if difference < 0 {
                m[0] -= difference;
            } else {
                m[4] += difference;
            }
            let lowers_the_rest = [1, 2, 3, 5, 6, 7].iter().any(|&i| m[i] != 0);
            if (lowers_the_rest || m == [-2, 0, 0, 0, -2, 0, 0, 0]) && !moves.contains(&m) {
                moves.push(m);
            }
        }
    }
    moves
}

/// `v` after the lowering `m`, when it keeps every count's class (a count is
/// lowered from 5 or more, raised from 3 or more) and the type.
fn lower(v: &Pair, m: &[i64; 8]) -> Option<Pair> {
    let mut w = *v;
    for i in 0..8 {
        if (m[i] < 0 && v[i] < 5) || (m[i] > 0 && v[i] < 3) {
            return None;
        }
        w[i] = (v[i] as i64 + m[i]) as u64;
    }
    (type_of(&w) == type_of(v)).then_some(w)
}

/// Whether some lowering applies to `v` (the same test as [`lower`], with the
/// forms computed once).
fn reducible(v: &Pair, moves: &[[i64; 8]]) -> bool {
    let forms = FORMS.map(|(f, _, _)| f.iter().zip(v).map(|(c, &x)| c * x as i64).sum::<i64>());
    moves.iter().any(|m| {
        (0..8).all(|i| !(m[i] < 0 && v[i] < 5 || m[i] > 0 && v[i] < 3))
            && FORMS.iter().zip(forms).all(|((f, bottom, top), value)| {
                let moved = value + f.iter().zip(m).map(|(c, x)| c * x).sum::<i64>();
                moved.clamp(*bottom, *top) == value.clamp(*bottom, *top)
            })
    })
}

/// Step 2, sampled: a lowering keeps the type, and the type decides both `F` and
/// the recursion (the argument is in the doc; this checks it on every pair with
/// counts up to 9 that some lowering applies to).
#[test]
fn the_type_decides_the_recursion() {
    let moves = lowerings();
    assert_eq!(moves.len(), 127);
    let checked = sum_over_pairs([9; 8], |v| {
        let mut checked = 0;
        assert_eq!(
            reducible(&v, &moves),
            moves.iter().any(|m| lower(&v, m).is_some())
        );
        for m in &moves {
            if let Some(w) = lower(&v, m) {
                let ((m1, o1), (m2, o2)) = (split(&v), split(&w));
                assert_eq!(loses_moving_first(m1, o1), loses_moving_first(m2, o2));
                assert_eq!(recursion(m1, o1), recursion(m2, o2), "{v:?} and {w:?}");
                checked += 1;
            }
        }
        checked
    });
    assert_eq!(checked, 26_651_448);
}

/// Sums `f` over every pair with equal hand counts (at least one) and each count
/// at most `bound`, in parallel.
fn sum_over_pairs(bound: [u64; 8], f: impl Fn(Pair) -> u64 + Sync) -> u64 {
    let heads: Vec<(u64, u64)> = (0..=bound[0])
        .flat_map(|a| (0..=bound[1]).map(move |b| (a, b)))
        .collect();
    heads
        .into_par_iter()
        .map(|(a, b)| {
            let mut total = 0;
            for c in 0..=bound[2] {
                for d in 0..=bound[3] {
                    let h = a + b + c + d;
                    if h == 0 {
                        continue;
                    }
                    for q in 0..=bound[5].min(h) {
                        for r in 0..=bound[6].min(h - q) {
                            for s in 0..=bound[7].min(h - q - r) {
                                let p = h - q - r - s;
                                if p <= bound[4] {
                                    total += f([a, b, c, d, p, q, r, s]);
                                }
                            }
                        }
                    }
                }
            }
            total
        })
        .sum()
}

/// Step 1: on every pair in the box that no lowering applies to, `F` equals the
/// recursion evaluated with `F`. (Every pair lowers to one of these with the same
/// type, so they cover every type.)
#[test]
fn closed_form_satisfies_the_level_recursion() {
    let moves = lowerings();
    let irreducible = sum_over_pairs(BOX, |v| {
        if reducible(&v, &moves) {
            return 0;
        }
        let (mover, other) = split(&v);
        assert_eq!(
            loses_moving_first(mover, other),
            recursion(mover, other),
            "{v:?}"
        );
        1
    });
    assert_eq!(irreducible, 1_024_682);
}

/// Step 3: every pair that no lowering applies to lies in [`BOX`].
///
/// A pair's *state* says of each count whether it is at most 2, 3 or 4, or at
/// least 5; the state decides which lowerings keep every class. A lowering that
/// moves no form then applies, so the pair is reducible. Otherwise each lowering
/// must be blocked by a form it moves: a form `L` clamped to `[bottom, top]` and
/// moved by `t` keeps its clamp unless `bottom − t + 1 ≤ L ≤ top − 1` (`t > 0`) or
/// `bottom + 1 ≤ L ≤ top + |t| − 1` (`t < 0`). So an irreducible pair satisfies, for some
/// minimal set of forms meeting every applicable lowering, each form of the set
/// in the union of those ranges, besides its counts' ranges and equal hand counts.
/// Fourier–Motzkin elimination bounds each count of 5 or more over that
/// polyhedron (exactly, as a linear program; the rounding of each derived
/// inequality is valid for integer points), and every bound is within the box.
#[test]
fn every_type_has_a_representative_in_the_box() {
    let moves = lowerings();
    let mut worst = [0i64; 8];
    let mut polyhedra = 0u64;
    for state_index in 0..3usize.pow(8) {
        // 0: at most 2, 1: 3 or 4, 2: at least 5.
        let state: [usize; 8] = std::array::from_fn(|i| state_index / 3usize.pow(i as u32) % 3);
        let big: Vec<usize> = (0..8).filter(|&i| state[i] == 2).collect();
        if big.is_empty() {
            continue; // every count at most 4
        }
        let applicable: Vec<[i64; 6]> = moves
            .iter()
            .filter(|m| (0..8).all(|i| !(m[i] < 0 && state[i] < 2 || m[i] > 0 && state[i] < 1)))
            .map(|m| FORMS.map(|(f, _, _)| f.iter().zip(m).map(|(c, x)| c * x).sum()))
            .collect();
        if applicable.iter().any(|t| t.iter().all(|&x| x == 0)) {
            continue; // a lowering moves no form: it applies
        }
        let meets = |set: u32| {
            applicable
                .iter()
                .all(|t| (0..6).any(|j| set >> j & 1 == 1 && t[j] != 0))
        };
        for set in 0..64u32 {
            if !meets(set) || (0..6).any(|j| set >> j & 1 == 1 && meets(set & !(1 << j))) {
                continue;
            }
            let mut constraints: Vec<([i64; 8], i64)> = Vec::new();
            for i in 0..8 {
                let mut e = [0i64; 8];
                e[i] = 1;
                let (low, high) = [(0, Some(2)), (3, Some(4)), (5, None)][state[i]];
                constraints.push((e.map(|x| -x), -low));
                if let Some(high) = high {
                    constraints.push((e, high));
                }
            }
            let sum = [1, 1, 1, 1, -1, -1, -1, -1];
            constraints.push((sum, 0));
            constraints.push((sum.map(|x| -x), 0));
            for (j, (f, bottom, top)) in FORMS.iter().enumerate() {
                if set >> j & 1 == 0 {
                    continue;
                }
                // Moved by t > 0 the clamp changes unless L ≥ top or L + t ≤ bottom;
                // moved by t < 0, unless L ≤ bottom or L + t ≥ top.
                let up = applicable.iter().map(|t| t[j]).max().unwrap().max(0);
                let down = applicable.iter().map(|t| -t[j]).max().unwrap().max(0);
                let low = if up > 0 { bottom - up + 1 } else { bottom + 1 };
                let high = if down > 0 { top + down - 1 } else { top - 1 };
                constraints.push((*f, high));
                constraints.push((f.map(|x| -x), -low));
            }
            polyhedra += 1;
            for &i in &big {
                match maximum(&constraints, i) {
                    Bound::Empty => {}
                    Bound::Unbounded => {
                        panic!("count {i} unbounded in state {state:?}, forms {set:b}")
                    }
                    Bound::At(m) => worst[i] = worst[i].max(m),
                }
            }
        }
    }
    assert_eq!(polyhedra, 16_974);
    for i in 0..8 {
        assert!(
            worst[i] <= BOX[i] as i64,
            "count {i}: {} > {}",
            worst[i],
            BOX[i]
        );
    }
    // The box is also the least one: each bound is reached by the linear programs.
    assert_eq!(worst.map(|x| x as u64), BOX);
}

enum Bound {
    Empty,
    Unbounded,
    At(i64),
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// The largest integer value of variable `target` over `{x : c·x ≤ r for each
/// (c, r)}`, found by eliminating every other variable (Fourier–Motzkin), or
/// whether the set is empty or unbounded above in `target`. Each derived
/// inequality is divided by its coefficients' gcd and its right side rounded
/// down, which keeps every integer point.
fn maximum(constraints: &[([i64; 8], i64)], target: usize) -> Bound {
    let mut rows: Vec<([i64; 8], i64)> = constraints.to_vec();
    for j in (0..8).filter(|&j| j != target) {
        let (mut keep, mut pos, mut neg) = (Vec::new(), Vec::new(), Vec::new());
        for row in rows {
            match row.0[j].signum() {
                0 => keep.push(row),
                1 => pos.push(row),
                _ => neg.push(row),
            }
        }
        for (pc, pr) in &pos {
            for (nc, nr) in &neg {
                let (u, w) = (-nc[j], pc[j]);
                let mut c = [0i64; 8];
                for k in 0..8 {
                    c[k] = u * pc[k] + w * nc[k];
                }
                keep.push((c, u * pr + w * nr));
            }
        }
        let mut tightest: std::collections::HashMap<[i64; 8], i64> = Default::default();
        for (c, r) in keep {
            let g = c.iter().fold(0, |g, &x| gcd(g, x));
            let (c, r) = if g > 1 {
                (c.map(|x| x / g), r.div_euclid(g))
            } else {
                (c, r)
            };
            let entry = tightest.entry(c).or_insert(r);
            *entry = (*entry).min(r);
        }
        rows = tightest.into_iter().collect();
    }
    let mut best = None;
    for (c, r) in rows {
        let k = c[target];
        if k == 0 {
            if r < 0 {
                return Bound::Empty;
            }
        } else if k > 0 {
            let m = r.div_euclid(k);
            best = Some(best.map_or(m, |b: i64| b.min(m)));
        }
    }
    match best {
        Some(m) => Bound::At(m),
        None => Bound::Unbounded,
    }
}

/// `four::outcome` (the rules, with Theorem 4 and Lemma 1) against the full atlas,
/// which assumes neither, on every position with at most 8 hands a side.
#[test]
fn the_outcome_of_every_position_matches_the_full_atlas() {
    use chopsticks_atlas::Atlas;
    let atlas = Atlas::solve(4, 8, None).unwrap();
    let sides = atlas.sides();
    let counts: Vec<Counts4> = (0..sides.count())
        .map(|r| {
            let mut c = [0u64; 4];
            for v in sides.values(r) {
                c[v as usize - 1] += 1;
            }
            c
        })
        .collect();
    let mut checked = 0u64;
    for (a, &ca) in counts.iter().enumerate() {
        for (b, &cb) in counts.iter().enumerate() {
            assert_eq!(
                atlas.outcome_at(a as u32, b as u32),
                chopsticks_atlas::four::outcome(ca, cb),
                "{}",
                atlas.paper(a as u32, b as u32)
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 495 * 495);
}

/// The second proof: z3 and cvc5 each find that the closed form satisfies the
/// level recursion at every pair of sides, of any size (the query is kept as
/// docs/proofs/four-fingers.smt2).
#[test]
#[cfg_attr(not(smt), ignore = "needs z3 and cvc5 (apt-get install z3 cvc5)")]
fn an_smt_solver_proves_it_too() {
    let query = level_recursion_query(["a", "b", "c", "d"], ["p", "q", "r", "s"], closed_form);
    common::smt::prove(&query, "four-fingers.smt2");
}

/// docs/proofs/four-fingers.smt2 is the second proof's query, so that any SMT solver can
/// check it without building anything.
#[test]
fn the_query_in_the_docs_is_the_proofs() {
    let query = level_recursion_query(["a", "b", "c", "d"], ["p", "q", "r", "s"], closed_form);
    common::smt::kept_in_the_docs(&query, "four-fingers.smt2");
}
