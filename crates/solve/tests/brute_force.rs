//! The fast solver agrees with a tiny, separately written solver on every position
//! (reachable or not) of every ruleset combination with two hands per player and
//! F ≤ 6, and of a sample of combinations with other hand counts (1 and 2, 1 and 3,
//! 2 and 3, 3 and 3).

use std::collections::{HashMap, HashSet};

use chopsticks_rules::{Position, Preset, Ruleset};
use chopsticks_solve::{Outcome, Solution};
use chopsticks_space::Graph;

/// Win/lose/draw with remoteness by sweeping levels over positions: a position is a
/// win at level k when some child is a loss at level k-1 (and it was not resolved
/// before), a loss at level k when every child is a win and the largest is k-1.
fn brute_force(rules: &Ruleset) -> HashMap<Position, Outcome> {
    // Every position, reachable or not: all hand values for each player, in each
    // turn order the hand counts allow, reduced to canonical positions.
    let mut seen: HashSet<Position> = HashSet::new();
    let p = rules.players();
    for seat in 0..p {
        let counts: Vec<usize> = (0..p).map(|k| rules.hands[(seat + k) % p]).collect();
        let total: usize = counts.iter().sum();
        let f = rules.fingers as u64;
        for raw in 0..f.pow(total as u32) {
            let mut r = raw;
            let mut players = Vec::new();
            for &c in &counts {
                let mut h = Vec::new();
                for _ in 0..c {
                    h.push((r % f) as u32);
                    r /= f;
                }
                players.push(h);
            }
            seen.insert(Position::new(rules, players).unwrap());
        }
    }
    let all: Vec<Position> = seen.into_iter().collect();
    let children: HashMap<Position, Vec<Position>> = all
        .iter()
        .map(|p| {
            (
                p.clone(),
                p.moves(rules).into_iter().map(|(_, q)| q).collect(),
            )
        })
        .collect();
    let mut known: HashMap<Position, Outcome> = HashMap::new();
    for p in &all {
        let at_level_0 = |won: bool| {
            if won {
                Outcome::win(0)
            } else {
                Outcome::lose(0)
            }
        };
        if p.is_terminal(rules) {
            // Finished: the mover won if alive (normal play) or dead (misère).
            let alive = p.mover().iter().any(|&v| v > 0);
            known.insert(p.clone(), at_level_0(alive != rules.misere));
        } else if children[p].is_empty() {
            // No move: the mover loses (normal play) or wins (misère).
            known.insert(p.clone(), at_level_0(rules.misere));
        }
    }
    let mut level = 1;
    loop {
        let mut new = Vec::new();
        for p in &all {
            if known.contains_key(p) {
                continue;
            }
            let kids = &children[p];
            if kids
                .iter()
                .any(|q| known.get(q) == Some(&Outcome::lose(level - 1)))
            {
                new.push((p.clone(), Outcome::win(level)));
            } else if kids.iter().all(|q| {
                known
                    .get(q)
                    .is_some_and(|o| o.value == chopsticks_solve::Value::Win)
            }) {
                new.push((p.clone(), Outcome::lose(level)));
            }
        }
        if new.is_empty() && !known.values().any(|o| o.remoteness == Some(level - 1)) {
            break;
        }
        known.extend(new);
        level += 1;
    }
    for p in all {
        known.entry(p).or_insert(Outcome::DRAW);
    }
    known
}

fn combinations() -> Vec<Ruleset> {
    let mut out = Vec::new();
    let shapes: [(Vec<usize>, u32, usize); 5] = [
        (vec![2, 2], 6, 1),
        (vec![1, 2], 5, 3),
        (vec![1, 3], 4, 3),
        (vec![2, 3], 4, 5),
        (vec![3, 3], 4, 5),
    ];
    for (hands, max_fingers, sample) in shapes {
        for fingers in 2..=max_fingers {
            let base = Ruleset {
                hands: hands.clone(),
                fingers,
                ..Preset::Simple.ruleset()
            };
            // Every combination for two hands each; a sample for the other shapes.
            out.extend(base.variants().into_iter().step_by(sample));
        }
    }
    out
}

#[test]
fn agrees_with_brute_force_on_every_small_ruleset() {
    let mut rulesets = 0;
    let mut positions = 0;
    for rules in combinations() {
        let graph = Graph::new(&rules).unwrap();
        let solution = Solution::solve(&graph, &|_| {}).unwrap();
        for (p, want) in brute_force(&rules) {
            assert_eq!(
                solution.outcome(&p).unwrap(),
                want,
                "{} at {p:?}",
                rules.describe()
            );
            positions += 1;
        }
        rulesets += 1;
    }
    assert!(rulesets > 500, "{rulesets}");
    assert!(positions > 200_000, "{positions}");
}
