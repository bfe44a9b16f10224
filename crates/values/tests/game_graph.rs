//! The game graph of a position and the direct win/lose/draw search of sums:
//! checked against canonical values where the game is loop-free, and on rollover,
//! where play can go on for ever.

use crate::common;

use chopsticks_cgt::{GameStore, Outcome};
use chopsticks_rules::{Overflow, Preset, Ruleset};
use chopsticks_values::{value, winners, CgtPosition, GameGraph, Winner};
use common::multisets;

fn simple(n: u32, overflow: Overflow) -> Ruleset {
    let mut r = Preset::Simple.ruleset();
    r.hands = vec![2, 2];
    r.fingers = n + 1;
    r.overflow = overflow;
    r
}

/// Every position with one or two live hands a side.
fn positions(n: u32) -> Vec<CgtPosition> {
    let mut out = Vec::new();
    for l in 1..=2 {
        for r in 1..=2 {
            for x in multisets(l, n) {
                for y in multisets(r, n) {
                    out.push(CgtPosition::new(x.clone(), y.clone()));
                }
            }
        }
    }
    out
}

/// The winners when Left starts and when Right starts, read from an outcome class.
fn from_outcome(o: Outcome) -> (Winner, Winner) {
    match o {
        Outcome::L => (Winner::Left, Winner::Left),
        Outcome::R => (Winner::Right, Winner::Right),
        Outcome::N => (Winner::Left, Winner::Right),
        Outcome::P => (Winner::Right, Winner::Left),
    }
}

const MAX: usize = 100_000;

#[test]
fn winners_of_loop_free_games_and_their_sums_agree_with_canonical_values() {
    let mut sums = 0;
    for n in 1..=4 {
        let rules = simple(n, Overflow::Cutoff);
        let mut store = GameStore::new();
        let all = positions(n);
        let graphs: Vec<GameGraph> = all
            .iter()
            .map(|p| GameGraph::build(&rules, p, MAX).unwrap())
            .collect();
        let values: Vec<_> = all
            .iter()
            .map(|p| value(&mut store, &rules, p).unwrap())
            .collect();
        for (k, g) in graphs.iter().enumerate() {
            assert!(!g.has_cycle());
            assert_eq!(g.positions[0].paper(n + 1), all[k].paper(n + 1));
            let o = store.outcome(values[k]);
            assert_eq!(
                winners(&[g], 1 << 20).unwrap(),
                from_outcome(o),
                "{:?}",
                all[k]
            );
        }
        // Sums of two positions: every pair for n <= 2, a spread of pairs above.
        let step = if n <= 2 { 1 } else { 7 };
        for a in (0..all.len()).step_by(step) {
            for b in (a % 5..all.len()).step_by(5 * step) {
                let sum = store.add(values[a], values[b]);
                let o = store.outcome(sum);
                let got = winners(&[&graphs[a], &graphs[b]], 1 << 22).unwrap();
                assert_eq!(got, from_outcome(o), "{:?} + {:?}", all[a], all[b]);
                sums += 1;
            }
        }
    }
    assert!(sums > 300, "{sums}");
}

/// Rollover (`x + y` taken modulo `F`, a hand dies only at exactly 0): positions
/// repeat, and some are draws. Counts over the positions with one or two hands a
/// side, as multisets.
#[test]
fn rollover_has_cycles_and_draws() {
    let mut table = Vec::new();
    for n in 1..=6 {
        let rules = simple(n, Overflow::Rollover);
        let mut cyclic = 0;
        let mut drawn = 0;
        let all = positions(n);
        for p in &all {
            let g = GameGraph::build(&rules, p, MAX).unwrap();
            cyclic += g.has_cycle() as usize;
            let (l, r) = winners(&[&g], 1 << 24).unwrap();
            drawn += (l == Winner::Draw || r == Winner::Draw) as usize;
        }
        table.push((all.len(), cyclic, drawn));
    }
    // (n + n(n+1)/2)² positions.
    let counts: Vec<usize> = table.iter().map(|t| t.0).collect();
    assert_eq!(counts, [4, 25, 81, 196, 400, 729]);
    // Positions where some starter cannot force a win: none up to n = 3, then
    // 110, 112, 573 — the figures of the loopy-games reference notes (§7), measured by a
    // separate script.
    let drawn: Vec<usize> = table.iter().map(|t| t.2).collect();
    assert_eq!(drawn, [0, 0, 0, 110, 112, 573], "{table:?}");
    // Positions from which play can cycle (any cycle, not only alternating ones).
    let cyclic: Vec<usize> = table.iter().map(|t| t.1).collect();
    assert_eq!(cyclic, [0, 15, 69, 180, 378, 705], "{table:?}");
    // A draw needs a cycle.
    for t in &table {
        assert!(t.1 >= t.2, "{table:?}");
    }
}

#[test]
fn bounds_are_refused() {
    let rules = simple(6, Overflow::Rollover);
    let p = CgtPosition::new(vec![1, 1], vec![1, 1]);
    assert!(GameGraph::build(&rules, &p, 10).is_err());
    let g = GameGraph::build(&rules, &p, MAX).unwrap();
    assert!(winners(&[&g, &g, &g], 1000).is_err());
    // A bad position is an error, not a panic.
    assert!(GameGraph::build(&rules, &CgtPosition::new(vec![9], vec![1]), MAX).is_err());
}
