//! The closed form for three-fingered hands (`chopsticks_atlas::three`): equal to
//! the solver's outcome on every position with at most 30 hands a side, and a
//! fixed point of the game's recursion on every count vector with counts ≤ 16,
//! which proves it for every position (the argument is in docs/THREE-FINGERS.md).
//! A second proof: the SMT solvers z3 and cvc5 each show that the rule for equal
//! hand counts satisfies the level recursion for all counts, as for `n = 5`
//! (`five_fingers_proof.rs`).

use crate::common;

use chopsticks_atlas::smt::level_recursion_query;
use chopsticks_atlas::three::{closed_form, left_wins_moving_first, outcome, Counts3};
use chopsticks_atlas::Atlas;

fn counts(values: impl Iterator<Item = u32>) -> Counts3 {
    let mut c = [0u64; 3];
    for v in values {
        c[v as usize - 1] += 1;
    }
    c
}

#[test]
fn closed_form_equals_the_solver_up_to_thirty_hands() {
    let atlas = Atlas::solve(3, 30, None).unwrap();
    let sides = atlas.sides();
    let all: Vec<(u32, Counts3)> = (0..sides.count())
        .map(|r| (r, counts(sides.values(r))))
        .collect();
    let mut checked = 0u64;
    for &(a, ca) in &all {
        for &(b, cb) in &all {
            assert_eq!(
                atlas.outcome_at(a, b),
                outcome(ca, cb),
                "{}",
                atlas.paper(a, b)
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 5456 * 5456);
}

/// The side `side` after its hand `y` is hit by `x` (removed past 3).
fn hit(side: Counts3, y: usize, x: usize) -> Counts3 {
    let mut s = side;
    s[y - 1] -= 1;
    if x + y <= 3 {
        s[x + y - 1] += 1;
    }
    s
}

/// The recursion of the game, evaluated on the closed form one move deep: Left
/// moving first wins when some hit leaves Right (now moving first) losing.
fn recursion(left: Counts3, right: Counts3) -> bool {
    if left.iter().sum::<u64>() == 0 || right.iter().sum::<u64>() == 0 {
        return false;
    }
    (1..=3).any(|x| {
        left[x - 1] > 0
            && (1..=3).any(|y| right[y - 1] > 0 && !left_wins_moving_first(hit(right, y, x), left))
    })
}

#[test]
fn closed_form_satisfies_the_recursion() {
    const M: u64 = 16; // every type of position has a representative here (docs/THREE-FINGERS.md)
    let mut checked = 0u64;
    for a in 0..=M {
        for b in 0..=M {
            for c in 0..=M {
                for d in 0..=M {
                    for e in 0..=M {
                        for f in 0..=M {
                            let (l, r) = ([a, b, c], [d, e, f]);
                            assert_eq!(
                                left_wins_moving_first(l, r),
                                recursion(l, r),
                                "(1^{a} 2^{b} 3^{c} | 1^{d} 2^{e} 3^{f})_3"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, (M + 1).pow(6));
}

/// The second proof: z3 and cvc5 each find that the rule for equal hand counts
/// satisfies the level recursion at every pair of sides, of any size (the query
/// is kept as docs/proofs/three-fingers.smt2).
#[test]
#[cfg_attr(not(smt), ignore = "needs z3 and cvc5 (apt-get install z3 cvc5)")]
fn an_smt_solver_proves_it_too() {
    let query = level_recursion_query(["a", "b", "c"], ["d", "e", "f"], closed_form);
    common::smt::prove(&query, "three-fingers.smt2");
}

/// docs/proofs/three-fingers.smt2 is the second proof's query, so that any SMT solver can
/// check it without building anything.
#[test]
fn the_query_in_the_docs_is_the_proofs() {
    let query = level_recursion_query(["a", "b", "c"], ["d", "e", "f"], closed_form);
    common::smt::kept_in_the_docs(&query, "three-fingers.smt2");
}
