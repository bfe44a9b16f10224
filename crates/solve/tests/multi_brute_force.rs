//! A second, separately written solver for three or more players: value iteration
//! over explicit positions (built with `Position::moves_with_steps`, numbered by a
//! hash map, not by the dense index), with the solution concepts of
//! docs/MULTIPLAYER.md written out again from their definitions. It must agree with
//! `Solution::solve` on every position and seat of every ruleset combination with
//! 3 players × 2 hands and F ≤ 5, and of 4-player team games (2 hands each) with
//! F ≤ 4.

use std::collections::HashMap;

use chopsticks_rules::{Position, Preset, Ruleset};
use chopsticks_solve::{Concept, Outcome, Solution, Value};
use chopsticks_space::Graph;
use rayon::prelude::*;

/// Every sorted multiset of `size` values below `fingers`.
fn multisets(size: usize, fingers: u32) -> Vec<Vec<u32>> {
    if size == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for rest in multisets(size - 1, fingers) {
        let low = rest.last().copied().unwrap_or(0);
        for v in low..fingers {
            let mut m = rest.clone();
            m.push(v);
            out.push(m);
        }
    }
    out
}

/// Every position of a ruleset whose players all have `hands` hands.
fn all_positions(rules: &Ruleset) -> Vec<Position> {
    let sets = multisets(rules.hands[0], rules.fingers);
    let mut out = vec![Vec::new()];
    for _ in 0..rules.players() {
        let mut next = Vec::new();
        for prefix in &out {
            for m in &sets {
                let mut p: Vec<Vec<u32>> = prefix.clone();
                p.push(m.clone());
                next.push(p);
            }
        }
        out = next;
    }
    out.into_iter()
        .map(|players| Position::new(rules, players).unwrap())
        .collect()
}

/// The values of every (position, slot): slot = seat for coalition values, the only
/// slot 0 (the mover's team) for team play. `None` is a draw.
fn brute_force(rules: &Ruleset, positions: &[Position]) -> Vec<Vec<Outcome>> {
    let p = rules.players();
    let teams = rules.teams;
    let slots = if teams { 1 } else { p };
    let number: HashMap<&Position, usize> =
        positions.iter().enumerate().map(|(i, q)| (q, i)).collect();
    let alive = |q: &Position| -> Vec<bool> {
        q.players()
            .iter()
            .map(|h| h.iter().any(|&v| v > 0))
            .collect()
    };
    // Children (index, step) of each position.
    let children: Vec<Vec<(usize, usize)>> = positions
        .iter()
        .map(|q| {
            q.moves_with_steps(rules)
                .into_iter()
                .map(|(_, c, s)| (number[&c], s))
                .collect()
        })
        .collect();
    // What a state is worth to its protagonist: Some((win, remoteness)).
    let mut value: Vec<Vec<Option<(bool, u32)>>> = vec![vec![None; slots]; positions.len()];
    // Level 0, from the definitions.
    for (i, q) in positions.iter().enumerate() {
        let a = alive(q);
        if teams {
            let team_alive = |parity: usize| (0..p).any(|k| k % 2 == parity && a[k]);
            let over = !team_alive(0) || !team_alive(1);
            if over {
                // Normal play: the team with hands left won; misère: the team without.
                value[i][0] = Some((team_alive(0) != rules.misere, 0));
            }
        } else {
            let living = a.iter().filter(|&&x| x).count();
            let over = if rules.misere {
                living < p
            } else {
                living <= 1
            };
            for seat in 0..p {
                if over {
                    value[i][seat] = Some((if rules.misere { !a[seat] } else { a[seat] }, 0));
                } else if !a[seat] {
                    value[i][seat] = Some((false, 0));
                }
            }
        }
    }
    // Value iteration, level by level, from a snapshot of the previous levels.
    for level in 0.. {
        let mut found = Vec::new();
        for i in 0..positions.len() {
            if children[i].is_empty() {
                continue;
            }
            for slot in 0..slots {
                if value[i][slot].is_some() {
                    continue;
                }
                // The slot's protagonist moves at slot 0 (the mover, or the mover's team).
                let protagonist_moves = slot == 0;
                let mut good = false;
                let mut all_bad = true;
                for &(c, step) in &children[i] {
                    let (cslot, flip) = if teams {
                        (0, step % 2 == 1)
                    } else {
                        ((slot + p - step) % p, false)
                    };
                    match value[c][cslot] {
                        Some((win, r)) if r <= level => {
                            // Good for the side to move: a win for the protagonist
                            // when it moves, a loss when the opposition does.
                            if (win != flip) == protagonist_moves {
                                good = true;
                                all_bad = false;
                            }
                        }
                        _ => all_bad = false,
                    }
                }
                if good {
                    found.push((i, slot, protagonist_moves));
                } else if all_bad {
                    found.push((i, slot, !protagonist_moves));
                }
            }
        }
        if found.is_empty() {
            break;
        }
        for (i, slot, win) in found {
            value[i][slot] = Some((win, level + 1));
        }
    }
    // Positions whose mover is out while the game goes on: as with the turn passed on.
    let mut out: Vec<Vec<Outcome>> = Vec::with_capacity(positions.len());
    let to_outcome = |v: Option<(bool, u32)>| match v {
        Some((true, r)) => Outcome::win(r),
        Some((false, r)) => Outcome::lose(r),
        None => Outcome::DRAW,
    };
    for (i, q) in positions.iter().enumerate() {
        let (live, step) = q.with_live_mover(rules);
        let row = (0..slots)
            .map(|slot| {
                if step == 0 || value[i][slot].is_some() {
                    return to_outcome(value[i][slot]);
                }
                let j = number[&live];
                if teams {
                    let o = to_outcome(value[j][0]);
                    if step % 2 == 1 {
                        o.flipped()
                    } else {
                        o
                    }
                } else {
                    to_outcome(value[j][(slot + p - step) % p])
                }
            })
            .collect();
        out.push(row);
    }
    out
}

fn check(rules: &Ruleset) -> usize {
    let graph = Graph::new(rules).unwrap();
    let solution = Solution::solve(&graph, &|_| {}).unwrap();
    let positions = all_positions(rules);
    assert_eq!(positions.len() as u64, graph.count());
    let want = brute_force(rules, &positions);
    let expected_concept = if rules.teams {
        Concept::Teams
    } else {
        Concept::Coalition
    };
    assert_eq!(solution.concept(), expected_concept);
    for (q, row) in positions.iter().zip(&want) {
        let i = graph.index_of(q);
        if rules.teams {
            assert_eq!(
                solution.outcome_at(i).unwrap(),
                row[0],
                "{} at {q:?}",
                rules.describe()
            );
            for seat in 0..rules.players() {
                let team = if seat % 2 == 0 {
                    row[0]
                } else {
                    row[0].flipped()
                };
                assert_eq!(solution.seat_outcome_at(i, seat).unwrap(), team);
            }
        } else {
            assert_eq!(
                solution.seat_outcomes_at(i).unwrap(),
                *row,
                "{} at {q:?}",
                rules.describe()
            );
        }
    }
    // The table is consistent by the checker used for loaded files.
    solution.verify(&graph).unwrap();
    positions.len() * row_width(rules)
}

fn row_width(rules: &Ruleset) -> usize {
    if rules.teams {
        1
    } else {
        rules.players()
    }
}

#[test]
fn three_players_every_ruleset_agrees_with_value_iteration() {
    let mut rulesets = Vec::new();
    for fingers in 2..=5 {
        let base = Ruleset {
            hands: vec![2, 2, 2],
            fingers,
            ..Preset::Simple.ruleset()
        };
        rulesets.extend(base.variants());
    }
    assert_eq!(rulesets.len(), 4 * 176);
    let states: usize = rulesets.par_iter().map(check).sum();
    assert!(states > 1_000_000, "{states}");
}

#[test]
fn four_player_teams_every_ruleset_agrees_with_value_iteration() {
    let mut rulesets = Vec::new();
    for fingers in 2..=4 {
        let base = Ruleset {
            hands: vec![2, 2, 2, 2],
            fingers,
            teams: true,
            ..Preset::Simple.ruleset()
        };
        rulesets.extend(base.variants());
    }
    assert_eq!(rulesets.len(), 3 * 176);
    let states: usize = rulesets.par_iter().map(check).sum();
    assert!(states > 1_000_000, "{states}");
}

#[test]
fn some_seat_values_are_decided_and_some_drawn() {
    // The comparison above is not vacuous: the rollover rules for three players
    // have wins, losses and draws among their seat values.
    let rules = Ruleset {
        hands: vec![2, 2, 2],
        ..Preset::Rollover.ruleset()
    };
    let graph = Graph::new(&rules).unwrap();
    let solution = Solution::solve(&graph, &|_| {}).unwrap();
    let mut seen = [0usize; 3];
    for i in 0..graph.count() {
        for o in solution.seat_outcomes_at(i).unwrap() {
            seen[match o.value {
                Value::Win => 0,
                Value::Lose => 1,
                Value::Draw => 2,
            }] += 1;
        }
    }
    println!("rollover, 3 players: {seen:?} seat values win/lose/draw");
    assert!(seen.iter().all(|&k| k > 100), "{seen:?}");
}
