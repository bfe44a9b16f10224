//! A tiny direct win/lose search for Simple Chopsticks, written from the paper's
//! Definition 1 and independent of the crate under test.

#![allow(dead_code)]

use std::collections::HashMap;

use chopsticks_cgt::Outcome;

/// Sorted live hands of each side.
pub type Hands = (Vec<u32>, Vec<u32>);

/// All hands after the hand of value `y` is hit by `x` (removed past `n`).
fn hit(side: &[u32], i: usize, x: u32, n: u32) -> Vec<u32> {
    let mut out = side.to_vec();
    let y = out.remove(i);
    if x + y <= n {
        out.push(x + y);
    }
    out.sort_unstable();
    out
}

/// Left's options (Left attacks Right) of a position.
pub fn left_options(p: &Hands, n: u32) -> Vec<Hands> {
    let mut out = Vec::new();
    for &x in &p.0 {
        for j in 0..p.1.len() {
            out.push((p.0.clone(), hit(&p.1, j, x, n)));
        }
    }
    out
}

/// Right's options (Right attacks Left).
pub fn right_options(p: &Hands, n: u32) -> Vec<Hands> {
    let mut out = Vec::new();
    for &y in &p.1 {
        for i in 0..p.0.len() {
            out.push((hit(&p.0, i, y, n), p.1.clone()));
        }
    }
    out
}

/// Memoized minimax: does the player to move win?
pub struct Minimax {
    pub n: u32,
    memo: HashMap<(Hands, bool), bool>,
}

impl Minimax {
    pub fn new(n: u32) -> Minimax {
        Minimax {
            n,
            memo: HashMap::new(),
        }
    }

    /// Whether the mover (Left when `left_moves`) wins. A player with no move
    /// (the game is over when a side has no live hand) loses.
    pub fn mover_wins(&mut self, p: &Hands, left_moves: bool) -> bool {
        if p.0.is_empty() || p.1.is_empty() {
            return false;
        }
        if let Some(&w) = self.memo.get(&(p.clone(), left_moves)) {
            return w;
        }
        let options = if left_moves {
            left_options(p, self.n)
        } else {
            right_options(p, self.n)
        };
        let w = options.iter().any(|q| !self.mover_wins(q, !left_moves));
        self.memo.insert((p.clone(), left_moves), w);
        w
    }

    pub fn outcome(&mut self, p: &Hands) -> Outcome {
        match (self.mover_wins(p, true), self.mover_wins(p, false)) {
            (true, true) => Outcome::N,
            (true, false) => Outcome::L,
            (false, true) => Outcome::R,
            (false, false) => Outcome::P,
        }
    }
}

/// Every sorted multiset of `k` values in `1..=n`.
pub fn multisets(k: usize, n: u32) -> Vec<Vec<u32>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for m in multisets(k - 1, n) {
        let lo = m.last().copied().unwrap_or(1);
        for v in lo..=n {
            let mut m2 = m.clone();
            m2.push(v);
            out.push(m2);
        }
    }
    out
}

/// `1^a, 2^b` as a sorted list.
pub fn ones_twos(a: usize, b: usize) -> Vec<u32> {
    let mut v = vec![1; a];
    v.extend(std::iter::repeat_n(2, b));
    v
}
