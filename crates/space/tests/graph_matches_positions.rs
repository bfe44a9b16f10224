//! The fast move graph agrees with the plain position moves, and the parallel
//! exploration agrees with a naive breadth-first search over positions.

use std::collections::{HashMap, HashSet, VecDeque};

use chopsticks_rules::{Position, Preset, Ruleset};
use chopsticks_space::{explore, Graph};

/// Many rule combinations, small enough to check every position.
fn rulesets() -> Vec<Ruleset> {
    let mut out = Vec::new();
    for hands in [
        vec![2, 2],
        vec![1, 1],
        vec![1, 3],
        vec![3, 3],
        vec![2, 2, 2],
        vec![1, 2, 1, 2],
        vec![1, 1, 1],
        vec![1, 1, 1, 1],
        vec![2, 1, 1],
    ] {
        for fingers in [2u32, 3, 4, 5] {
            let base = Ruleset {
                hands: hands.clone(),
                fingers,
                ..Preset::Simple.ruleset()
            };
            // Sample the larger configurations to keep the test quick.
            let big = hands.len() > 2 || hands.iter().sum::<usize>() > 4;
            for (k, rules) in base.variants().into_iter().enumerate() {
                if big && (k % 7 != 0 || fingers == 2) {
                    continue;
                }
                if rules.players() % 2 == 0 && k % 3 == 0 {
                    out.push(Ruleset {
                        teams: true,
                        ..rules.clone()
                    });
                }
                out.push(rules);
            }
        }
    }
    out
}

/// Two-player cutoff rulesets with more fingers, where many attacking values
/// kill the same hand (runs of up to nine values giving one child), with
/// rollover beside them.
fn long_runs() -> Vec<Ruleset> {
    let mut out = Vec::new();
    for (hands, fingers) in [(vec![3, 3], 7), (vec![2, 2], 10), (vec![2, 4], 6)] {
        for preset in [Preset::Standard, Preset::Simple, Preset::Rollover] {
            out.push(Ruleset {
                hands: hands.clone(),
                fingers,
                ..preset.ruleset()
            });
        }
    }
    out
}

#[test]
fn children_agree_for_every_position() {
    let mut checked = 0u64;
    for rules in rulesets().into_iter().chain(long_runs()) {
        let graph = Graph::new(&rules).unwrap();
        for i in 0..graph.count() {
            let pos = graph.position(i);
            assert_eq!(graph.index_of(&pos), i);
            let fast = graph.children(i);
            // The distinct children of the plain move list, in first-occurrence order.
            let mut slow: Vec<u64> = Vec::new();
            for (_, q) in pos.moves(&rules) {
                let c = graph.index_of(&q);
                if !slow.contains(&c) {
                    slow.push(c);
                }
            }
            assert_eq!(fast, slow, "{} at {pos:?}", rules.describe());
            // Steps agree too (first occurrence of each child).
            let mut fast_steps = Vec::new();
            graph.for_each_child_step(i, |c, s| fast_steps.push((c, s)));
            let mut slow_steps: Vec<(u64, usize)> = Vec::new();
            for (_, q, s) in pos.moves_with_steps(&rules) {
                let c = graph.index_of(&q);
                if !slow_steps.iter().any(|&(d, _)| d == c) {
                    slow_steps.push((c, s));
                }
            }
            assert_eq!(fast_steps, slow_steps, "{} at {pos:?}", rules.describe());
            assert_eq!(graph.is_terminal(i), pos.is_terminal(&rules));
            checked += 1;
        }
    }
    assert!(checked > 100_000, "{checked}");
}

fn naive_reachable(rules: &Ruleset) -> (usize, HashMap<Position, u32>) {
    let start = Position::start(rules);
    let mut dist = HashMap::from([(start.clone(), 0u32)]);
    let mut queue = VecDeque::from([start]);
    while let Some(p) = queue.pop_front() {
        let d = dist[&p];
        for (_, q) in p.moves(rules) {
            if !dist.contains_key(&q) {
                dist.insert(q.clone(), d + 1);
                queue.push_back(q);
            }
        }
    }
    (dist.len(), dist)
}

#[test]
fn exploration_agrees_with_naive_search() {
    for rules in rulesets().into_iter().step_by(5) {
        let graph = Graph::new(&rules).unwrap();
        let start = graph.index_of(&Position::start(&rules));
        let e = explore(&graph, start, &|_| {});
        let (count, dist) = naive_reachable(&rules);
        assert_eq!(e.reachable(), count as u64, "{}", rules.describe());
        let reached: HashSet<u64> = e.reached.iter().collect();
        for (p, d) in &dist {
            assert!(reached.contains(&graph.index_of(p)));
            assert!((*d as usize) < e.layers.len());
        }
        let mut layers = vec![0u64; e.layers.len()];
        for d in dist.values() {
            layers[*d as usize] += 1;
        }
        assert_eq!(layers, e.layers);
    }
}

#[test]
fn parents_invert_children() {
    let mut checked = 0;
    for rules in rulesets()
        .into_iter()
        .filter(|r| r.players() == 2)
        .chain(long_runs())
    {
        let graph = Graph::new(&rules).unwrap();
        let n = graph.count();
        let mut parents: Vec<Vec<u64>> = vec![Vec::new(); n as usize];
        for i in 0..n {
            for c in graph.children(i) {
                parents[c as usize].push(i);
            }
        }
        for c in 0..n {
            let mut got = graph.parents(c);
            let before = got.len();
            got.sort_unstable();
            got.dedup();
            assert_eq!(got.len(), before, "parents are distinct");
            let mut want = parents[c as usize].clone();
            want.sort_unstable();
            assert_eq!(got, want, "{} at {:?}", rules.describe(), graph.position(c));
            checked += 1;
        }
        let bound = graph.max_children_bound();
        assert!((0..n).all(|i| graph.children(i).len() <= bound));
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn parents_with_steps_invert_children_for_any_players() {
    let mut checked = 0;
    let mut teams = 0;
    for rules in rulesets() {
        let graph = Graph::new(&rules).unwrap();
        let n = graph.count();
        let mut parents: Vec<Vec<(u64, usize)>> = vec![Vec::new(); n as usize];
        for i in 0..n {
            let pos = graph.position(i);
            for (_, q, step) in pos.moves_with_steps(&rules) {
                parents[graph.index_of(&q) as usize].push((i, step));
            }
        }
        for c in 0..n {
            let mut got = Vec::new();
            graph.for_each_parent_step(c, |p, s| got.push((p, s)));
            got.sort_unstable();
            got.dedup();
            let mut want = parents[c as usize].clone();
            want.sort_unstable();
            want.dedup();
            assert_eq!(got, want, "{} at {:?}", rules.describe(), graph.position(c));
            checked += 1;
            if rules.teams {
                teams += 1;
            }
        }
    }
    assert!(checked > 100_000 && teams > 10_000, "{checked} {teams}");
}

/// `terminal_mask` (the index divided once, then counted up) says of every
/// position what `is_terminal` says, from every start and length, across seat
/// classes and the end of the index.
#[test]
fn terminal_masks_agree_with_is_terminal() {
    let mut checked = 0u64;
    for rules in rulesets() {
        let graph = Graph::new(&rules).unwrap();
        let n = graph.count();
        for first in (0..n).step_by(7).chain([0, n.saturating_sub(3)]) {
            for len in [1u32, 13, 64] {
                let mask = graph.terminal_mask(first, len);
                for bit in 0..len as u64 {
                    let i = first + bit;
                    let want = i < n && graph.is_terminal(i);
                    assert_eq!(mask >> bit & 1 == 1, want, "{rules:?} at {i}");
                    checked += 1;
                }
            }
        }
        assert_eq!(graph.terminal_mask(n, 64), 0);
    }
    assert!(checked > 100_000, "{checked}");
}

/// The two-player entry points that take ranks instead of an index (the
/// solvers' inner loops) say what the index-based ones say: child counts,
/// parents with their ranks, the tiles' ended positions and the tile of a
/// position.
#[test]
fn pair_entry_points_agree_with_the_index() {
    let rules = rulesets()
        .into_iter()
        .filter(|r| r.players() == 2)
        .chain(long_runs());
    let mut checked = 0u64;
    for rules in rules {
        let graph = Graph::new(&rules).unwrap();
        let map = chopsticks_space::TileMap::new(&graph).unwrap();
        let period = graph.index().period();
        let mut ended = Vec::new();
        for tile in map.tiles() {
            graph.for_each_ended_in_tile(tile, |i, finished| ended.push((i, finished)));
        }
        ended.sort_unstable();
        let mut want_ended = Vec::new();
        for i in 0..graph.count() {
            let mut ranks = [0u64; 2];
            let seat = graph.index().split(i, &mut ranks);
            let [r0, r1] = ranks;
            assert_eq!(
                graph.child_count_of_pair(seat, r0, r1),
                graph.children(i).len() as u32,
                "{} at {:?}",
                rules.describe(),
                graph.position(i)
            );
            let mut parents = Vec::new();
            graph.for_each_parent_of_pair(seat, r0, r1, |p, q0, q1| {
                let parent_seat = (seat + 1) % period;
                assert_eq!(graph.index().join(parent_seat, &[q0, q1]), p);
                assert_eq!(map.tile_at(parent_seat, q0, q1), map.tile_of(p));
                parents.push(p);
            });
            // (`parents_invert_children` checks `parents` against the children.)
            assert_eq!(parents, graph.parents(i));
            let (finished, has_child) = graph.classify(seat, &ranks);
            if finished || !has_child {
                want_ended.push((i, finished));
            }
            checked += 1;
        }
        assert_eq!(ended, want_ended, "{}", rules.describe());
    }
    assert!(checked > 10_000, "{checked}");
}
