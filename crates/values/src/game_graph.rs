//! The game graph of a position under any two-player ruleset, loops included, and
//! who wins a sum of such games by direct search.
//!
//! A position seen as a combinatorial game (see [`crate::value`]) has Left's and
//! Right's options; under rulesets with loops (rollover, divisions, transfers,
//! pass-splits, …) play can return to a position, so the game is a finite graph
//! rather than a tree. [`GameGraph::build`] walks every position reachable from a
//! start by either player's moves (vertex 0 is the start) and records, per vertex,
//! its Left and Right options as vertex numbers. A position where a player has no
//! live hand has no options (the game is over: `0`).
//!
//! [`winners`] plays a *sum* of such graphs (a move is a move in one component) and
//! says who wins when Left starts and when Right starts, with **draws** for infinite
//! play. It is a plain retrograde analysis of the product graph (states: a vertex
//! per component and the player to move): a player with no move loses; a state is
//! won when some move reaches a state lost for the opponent, lost when every move
//! reaches one won for the opponent; what is neither is a draw. It knows nothing of
//! game values, which is the point: it checks the outcomes read from loopy values.

use std::collections::HashMap;

use chopsticks_rules::Ruleset;

use crate::error::ValueError;
use crate::solve::{check_rules, general_options, CgtPosition};

/// The positions reachable from a start, with each one's Left and Right options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameGraph {
    /// Each vertex's position: Left's and Right's hands, sorted, padded with dead
    /// hands to the ruleset's hand counts. Vertex 0 is the start.
    pub positions: Vec<CgtPosition>,
    /// Left's options of each vertex, as vertex numbers (no repeats).
    pub left: Vec<Vec<u32>>,
    /// Right's options of each vertex.
    pub right: Vec<Vec<u32>>,
}

impl GameGraph {
    /// Every position reachable from `start` by either player's moves, in the
    /// order of a breadth-first walk; refused with [`ValueError::TooLarge`] past
    /// `max_vertices`.
    pub fn build(
        rules: &Ruleset,
        start: &CgtPosition,
        max_vertices: usize,
    ) -> Result<GameGraph, ValueError> {
        Ok(GameGraph::build_many(rules, std::slice::from_ref(start), max_vertices)?.0)
    }

    /// Every position reachable from any of `starts`, and the vertex of each
    /// start (the starts come first, in order, a repeated one sharing its
    /// vertex); refused past `max_vertices`.
    pub fn build_many(
        rules: &Ruleset,
        starts: &[CgtPosition],
        max_vertices: usize,
    ) -> Result<(GameGraph, Vec<u32>), ValueError> {
        check_rules(rules)?;
        let key = |l: &[u32], r: &[u32]| -> (Vec<u32>, Vec<u32>) {
            let mut l = l.to_vec();
            let mut r = r.to_vec();
            l.sort_unstable();
            r.sort_unstable();
            (l, r)
        };
        let mut index: HashMap<(Vec<u32>, Vec<u32>), u32> = HashMap::new();
        let mut order: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
        let mut roots = Vec::with_capacity(starts.len());
        for start in starts {
            let p = crate::solve::padded(rules, start)?;
            let p = key(&p.0, &p.1);
            let id = match index.get(&p) {
                Some(&id) => id,
                None => {
                    if order.len() >= max_vertices {
                        return Err(ValueError::TooLarge {
                            limit: max_vertices as u64,
                        });
                    }
                    index.insert(p.clone(), order.len() as u32);
                    order.push(p);
                    order.len() as u32 - 1
                }
            };
            roots.push(id);
        }
        let mut left = Vec::new();
        let mut right = Vec::new();
        let mut next = 0;
        while next < order.len() {
            let (l, r) = order[next].clone();
            next += 1;
            let mut options = [Vec::new(), Vec::new()];
            let over = l.iter().all(|&v| v == 0) || r.iter().all(|&v| v == 0);
            if !over {
                general_options(rules, &l, &r, |side, left, right| {
                    options[side].push(key(left, right))
                })?;
            }
            let mut ids = [Vec::new(), Vec::new()];
            for (side, list) in options.into_iter().enumerate() {
                for k in list {
                    let id = match index.get(&k) {
                        Some(&id) => id,
                        None => {
                            if order.len() >= max_vertices {
                                return Err(ValueError::TooLarge {
                                    limit: max_vertices as u64,
                                });
                            }
                            let id = order.len() as u32;
                            index.insert(k.clone(), id);
                            order.push(k);
                            id
                        }
                    };
                    if !ids[side].contains(&id) {
                        ids[side].push(id);
                    }
                }
            }
            let [l_ids, r_ids] = ids;
            left.push(l_ids);
            right.push(r_ids);
        }
        let positions = order
            .into_iter()
            .map(|(l, r)| CgtPosition::new(l, r))
            .collect();
        Ok((
            GameGraph {
                positions,
                left,
                right,
            },
            roots,
        ))
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.left.len()
    }

    /// Whether the graph has no vertex (never true of a built graph).
    pub fn is_empty(&self) -> bool {
        self.left.is_empty()
    }

    /// Whether some play from the start can go on for ever (a cycle is reachable).
    pub fn has_cycle(&self) -> bool {
        // Iterative three-colour depth-first search over both players' edges.
        let n = self.len();
        let mut colour = vec![0u8; n];
        let mut stack: Vec<(u32, usize)> = Vec::new();
        for root in 0..n as u32 {
            if colour[root as usize] != 0 {
                continue;
            }
            colour[root as usize] = 1;
            stack.push((root, 0));
            while let Some(&mut (v, ref mut k)) = stack.last_mut() {
                let (l, r) = (&self.left[v as usize], &self.right[v as usize]);
                if *k < l.len() + r.len() {
                    let w = if *k < l.len() { l[*k] } else { r[*k - l.len()] };
                    *k += 1;
                    match colour[w as usize] {
                        0 => {
                            colour[w as usize] = 1;
                            stack.push((w, 0));
                        }
                        1 => return true,
                        _ => {}
                    }
                } else {
                    colour[v as usize] = 2;
                    stack.pop();
                }
            }
        }
        false
    }
}

/// Who wins a game (or a sum) with both players playing perfectly: `Left`,
/// `Right`, or `Draw` (play goes on for ever); the loopy engine's type.
pub use chopsticks_loopy::Winner;

/// Who wins the sum of `components` (each from its vertex 0) when Left starts and
/// when Right starts, by retrograde analysis of the product graph; refused with
/// [`ValueError::TooLarge`] when it has more than `max_states` states.
pub fn winners(components: &[&GameGraph], max_states: u64) -> Result<(Winner, Winner), ValueError> {
    let too_large = ValueError::TooLarge { limit: max_states };
    let mut vertices: u64 = 1;
    for c in components {
        vertices = vertices
            .checked_mul(c.len() as u64)
            .filter(|&v| v.saturating_mul(2) <= max_states)
            .ok_or(too_large.clone())?;
    }
    let states = (2 * vertices) as usize;
    // Mixed radix: component 0 varies fastest. State = vertex * 2 + mover
    // (mover 0: Left to move, 1: Right to move).
    let radix: Vec<u64> = components
        .iter()
        .scan(1u64, |acc, c| {
            let r = *acc;
            *acc *= c.len() as u64;
            Some(r)
        })
        .collect();
    let for_each_option = |s: usize, f: &mut dyn FnMut(usize)| {
        let (v, mover) = ((s / 2) as u64, s % 2);
        for (c, g) in components.iter().enumerate() {
            let digit = (v / radix[c]) % g.len() as u64;
            let base = v - digit * radix[c];
            let options = if mover == 0 {
                &g.left[digit as usize]
            } else {
                &g.right[digit as usize]
            };
            for &w in options {
                let t = base + w as u64 * radix[c];
                f((t * 2) as usize + (1 - mover));
            }
        }
    };
    // Out-degrees, then predecessor lists in compressed rows.
    let mut unresolved = vec![0u32; states];
    let mut starts = vec![0u32; states + 1];
    for (s, count) in unresolved.iter_mut().enumerate() {
        for_each_option(s, &mut |t| {
            *count += 1;
            starts[t + 1] += 1;
        });
    }
    for s in 0..states {
        starts[s + 1] += starts[s];
    }
    let mut fill = starts.clone();
    let mut preds = vec![0u32; starts[states] as usize];
    for s in 0..states {
        for_each_option(s, &mut |t| {
            preds[fill[t] as usize] = s as u32;
            fill[t] += 1;
        });
    }
    drop(fill);
    // 0: unknown (a draw if it stays so), 1: won by the mover, 2: lost by the mover.
    let mut result = vec![0u8; states];
    let mut queue: Vec<usize> = (0..states).filter(|&s| unresolved[s] == 0).collect();
    for &s in &queue {
        result[s] = 2;
    }
    let mut head = 0;
    while head < queue.len() {
        let t = queue[head];
        head += 1;
        for &p in &preds[starts[t] as usize..starts[t + 1] as usize] {
            let p = p as usize;
            if result[p] != 0 {
                continue;
            }
            if result[t] == 2 {
                result[p] = 1;
                queue.push(p);
            } else {
                unresolved[p] -= 1;
                if unresolved[p] == 0 {
                    result[p] = 2;
                    queue.push(p);
                }
            }
        }
    }
    let left_starts = match result[0] {
        1 => Winner::Left,
        2 => Winner::Right,
        _ => Winner::Draw,
    };
    let right_starts = match result[1] {
        1 => Winner::Right,
        2 => Winner::Left,
        _ => Winner::Draw,
    };
    Ok((left_starts, right_starts))
}
