//! Outcomes read from loopy values agree with a direct search.
//!
//! For every rollover position with one or two live hands a side and `n ≤ 6`,
//! the outcome read from the position's computed value — from its two sides,
//! with infinite play won by Left in the onside and by Right in the offside —
//! equals the win/lose/draw found by [`winners`], a retrograde search of the
//! game graph written separately (it knows nothing of values). The same for
//! sums of two such positions: the outcome of a sum is read from the sums of
//! the components' sides (the upsum of the onsides, the downsum of the
//! offsides), and compared with the direct search of the product graph.

use crate::common;

use chopsticks_loopy::{Game, Player, Value};
use chopsticks_values::{
    loopy_values, rollover_rules, winners, CgtPosition, GameGraph, Winner, MAX_LOOPY_VERTICES,
};
use common::multisets;
use rayon::prelude::*;

/// Every position with one or two live hands a side (as multisets).
fn positions(n: u32) -> Vec<CgtPosition> {
    let sides: Vec<Vec<u32>> = (1..=2).flat_map(|k| multisets(k, n)).collect();
    sides
        .iter()
        .flat_map(|l| {
            sides
                .iter()
                .map(move |r| CgtPosition::new(l.clone(), r.clone()))
        })
        .collect()
}

/// The rollover positions of [`positions`] at `n` with their values (found
/// together) and each one's own game graph (for the direct search).
fn rollover_positions(n: u32) -> (Vec<CgtPosition>, Vec<Value>, Vec<GameGraph>) {
    let rules = rollover_rules(n, 2);
    let all = positions(n);
    let values = loopy_values(&rules, &all, MAX_LOOPY_VERTICES).unwrap();
    let graphs: Vec<GameGraph> = all
        .iter()
        .map(|p| GameGraph::build(&rules, p, MAX_LOOPY_VERTICES).unwrap())
        .collect();
    (all, values, graphs)
}

/// Who wins when `first` starts, read from the graphs of the onside and the
/// offside: Left wins outright if Left wins even when infinite play counts for
/// Right (offside), Right wins outright if Right wins even when it counts for
/// Left (onside); otherwise the play is drawn.
fn winner_from_sides(onside: &Game, offside: &Game, first: Player) -> Winner {
    if offside.winner_with_infinite(first, Player::Right) == Player::Left {
        Winner::Left
    } else if onside.winner_with_infinite(first, Player::Left) == Player::Right {
        Winner::Right
    } else {
        Winner::Draw
    }
}

/// Both winners (Left starting, Right starting) of a sum of values, from the
/// sums of their sides.
fn sum_winners(a: &Value, b: &Value) -> (Winner, Winner) {
    let on = a.onside_game().sum(&b.onside_game(), 1 << 20).unwrap();
    let off = a.offside_game().sum(&b.offside_game(), 1 << 20).unwrap();
    (
        winner_from_sides(&on, &off, Player::Left),
        winner_from_sides(&on, &off, Player::Right),
    )
}

#[test]
fn outcomes_of_rollover_positions_and_their_sums_agree_with_direct_search() {
    let mut checked_sums = 0;
    let mut draws = 0;
    let mut sum_draws = 0;
    let mut not_stopper_sided = Vec::new();
    for n in 1..=6 {
        let (all, values, graphs) = rollover_positions(n);
        let mut unsided = 0;
        for (k, v) in values.iter().enumerate() {
            let direct = winners(&[&graphs[k]], 1 << 24).unwrap();
            let o = v.outcome();
            assert_eq!(
                (o.left_starts(), o.right_starts()),
                direct,
                "n = {n}, {:?}: value {v}",
                all[k]
            );
            // The same read through the sides' graphs, as for sums.
            let (on, off) = (v.onside_game(), v.offside_game());
            assert_eq!(
                (
                    winner_from_sides(&on, &off, Player::Left),
                    winner_from_sides(&on, &off, Player::Right)
                ),
                direct
            );
            draws += (direct.0 == Winner::Draw || direct.1 == Winner::Draw) as usize;
            unsided += !v.is_stopper_sided() as usize;
        }
        not_stopper_sided.push(unsided);
        // Sums: every pair for n <= 3; above, each position with a spread of
        // partners (the direct search of a sum walks the product of two graphs
        // of up to ~800 positions).
        let partners = match n {
            1..=3 => all.len(),
            4 => 8,
            5 => 4,
            _ => 1,
        };
        let count = all.len();
        let pairs: Vec<(usize, usize)> = (0..count)
            .flat_map(|a| {
                (0..partners).map(move |j| {
                    if partners == count {
                        (a, j)
                    } else {
                        (a, (a * 31 + 17 * j + 5) % count)
                    }
                })
            })
            .collect();
        let drawn: Vec<bool> = pairs
            .par_iter()
            .map(|&(a, b)| {
                let direct = winners(&[&graphs[a], &graphs[b]], 1 << 26).unwrap();
                assert_eq!(
                    sum_winners(&values[a], &values[b]),
                    direct,
                    "n = {n}: {:?} + {:?} = {} + {}",
                    all[a],
                    all[b],
                    values[a],
                    values[b]
                );
                direct.0 == Winner::Draw || direct.1 == Winner::Draw
            })
            .collect();
        checked_sums += pairs.len();
        sum_draws += drawn.iter().filter(|&&d| d).count();
    }
    // The draws of the direct search (positions where a starter cannot force
    // a win), as counted in tests/game_graph.rs.
    assert_eq!(draws, 110 + 112 + 573);
    assert_eq!(
        checked_sums,
        4 * 4 + 25 * 25 + 81 * 81 + 196 * 8 + 400 * 4 + 729
    );
    // Sums with draws are among them.
    assert!(sum_draws > 1_000, "{sum_draws}");
    // Where the bounded side search finds no stopper (n = 6 only).
    assert_eq!(not_stopper_sided, [0, 0, 0, 0, 0, 75]);
}

/// The canonical sum (`Value::add`: upsum of the onsides, downsum of the
/// offsides, each simplified to a stopper) has the outcome of the direct search
/// too, on a spread of pairs at `n = 4` (where most values are sided) and
/// `n = 5`.
#[test]
fn canonical_sums_of_rollover_values_have_the_outcome_of_direct_search() {
    for (n, step_a, step_b) in [(4, 3, 7), (5, 11, 13)] {
        canonical_sums(n, step_a, step_b);
    }
}

fn canonical_sums(n: u32, step_a: usize, step_b: usize) {
    let rules = rollover_rules(n, 2);
    let all = positions(n);
    let values = loopy_values(&rules, &all, MAX_LOOPY_VERTICES).unwrap();
    let pairs: Vec<(usize, usize)> = (0..all.len())
        .step_by(step_a)
        .flat_map(|a| (0..all.len()).step_by(step_b).map(move |b| (a, b)))
        .collect();
    let sided = pairs
        .par_iter()
        .map(|&(a, b)| {
            let graphs = [
                GameGraph::build(&rules, &all[a], MAX_LOOPY_VERTICES).unwrap(),
                GameGraph::build(&rules, &all[b], MAX_LOOPY_VERTICES).unwrap(),
            ];
            let direct = winners(&[&graphs[0], &graphs[1]], 1 << 26).unwrap();
            let sum = values[a].add(&values[b]).unwrap();
            let o = sum.outcome();
            assert_eq!(
                (o.left_starts(), o.right_starts()),
                direct,
                "{:?} + {:?} = {} + {} = {sum}",
                all[a],
                all[b],
                values[a],
                values[b]
            );
            !sum.is_stopper()
        })
        .filter(|&s| s)
        .count();
    assert!(pairs.len() >= 1000, "{}", pairs.len());
    assert!(sided > pairs.len() / 4, "{sided} of {}", pairs.len());
}

/// Splits and revivals (the paper's other future-work variants), two hands a
/// side, every position for n ≤ 4 (n ≤ 3 with rollover and revivals, whose
/// joint search takes half a minute at n = 4): the outcome read from each value equals the
/// direct search.
#[test]
fn outcomes_under_splits_and_revivals_agree_with_direct_search() {
    use chopsticks_values::{two_hand_sides, two_hand_table};
    type Variant = (&'static str, u32, fn(&mut chopsticks_rules::Ruleset));
    let variants: [Variant; 4] = [
        ("transfer", 4, |r| r.transfer = true),
        ("divide", 4, |r| r.divide = true),
        ("even divide", 4, |r| {
            r.divide = true;
            r.even_divide = true
        }),
        ("rollover and divide", 3, |r| {
            r.divide = true;
            r.overflow = chopsticks_rules::Overflow::Rollover
        }),
    ];
    let mut drawn = Vec::new();
    for (name, max_n, set) in variants {
        for n in 1..=max_n {
            let mut rules = chopsticks_rules::Preset::Simple.ruleset();
            rules.hands = vec![2, 2];
            rules.fingers = n + 1;
            set(&mut rules);
            let sides = two_hand_sides(n);
            let table = two_hand_table(&rules, MAX_LOOPY_VERTICES).unwrap();
            let mut draws = 0;
            for (l, row) in sides.iter().zip(&table) {
                for (r, v) in sides.iter().zip(row) {
                    let p = CgtPosition::new(l.clone(), r.clone());
                    let g = GameGraph::build(&rules, &p, MAX_LOOPY_VERTICES).unwrap();
                    let direct = winners(&[&g], 1 << 24).unwrap();
                    let o = v.outcome();
                    assert_eq!(
                        (o.left_starts(), o.right_starts()),
                        direct,
                        "{name}, {p:?}_{n}: {v}"
                    );
                    draws += (direct.0 == Winner::Draw || direct.1 == Winner::Draw) as usize;
                }
            }
            drawn.push(draws);
        }
    }
    // Positions where a starter cannot force a win, n = 1, 2, … for each
    // variant (as `table two-hands` reports them; none under splits).
    assert_eq!(
        drawn,
        [0, 0, 0, 0, 0, 14, 18, 168, 0, 14, 0, 143, 0, 16, 29]
    );
}

/// Every sum of two rollover positions with up to two hands a side at n = 4
/// (38,416 sums), outcome from the sides against direct search. About a
/// minute and a half on two cores; run with `--ignored`.
#[test]
#[ignore = "slow: about a minute and a half on two cores; run with --ignored"]
fn every_sum_of_two_rollover_positions_at_n_4() {
    let (all, values, graphs) = rollover_positions(4);
    let drawn: usize = (0..all.len())
        .into_par_iter()
        .map(|a| {
            let mut d = 0;
            for b in 0..all.len() {
                let direct = winners(&[&graphs[a], &graphs[b]], 1 << 26).unwrap();
                assert_eq!(
                    sum_winners(&values[a], &values[b]),
                    direct,
                    "{:?} + {:?}",
                    all[a],
                    all[b]
                );
                d += (direct.0 == Winner::Draw || direct.1 == Winner::Draw) as usize;
            }
            d
        })
        .sum();
    assert!(drawn > 0);
    eprintln!("{} sums, {drawn} with a draw", all.len() * all.len());
}
