//! Stops of stoppers, which are **pseudonumbers**: numbers, `x over`, `x under`,
//! `on` and `off` (Siegel, *Combinatorial Game Theory*, ch. VI).
//!
//! As for short games, the Left stop of `G` is where alternating play stops when
//! Left moves first and both play well: at a pseudonumber, which is its own stop;
//! otherwise `L(G) = max R(G^L)` and `R(G) = min L(G^R)`. A stopper has no
//! infinite alternating play, so this recursion ends. Pseudonumbers are read from
//! the canonical graph: a number's canonical form is as for short games
//! (`n = {n-1 | }`, `m/2^k = {x - 2^-k | x + 2^-k}`), `on = {pass | }`,
//! `off = { | pass}`, `x over = x + over = {x | pass}` and
//! `x under = {pass | x}`.
//!
//! Pseudonumbers are ordered `off < … < x under < x < x over < … < on`.

use std::cmp::Ordering;
use std::fmt;

use chopsticks_cgt::Dyadic;

use crate::game::Game;
use crate::stopper::Stopper;
use crate::LoopyError;

/// Which of `x under`, `x`, `x over`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tilt {
    /// `x under`, just below `x`.
    Under,
    /// `x` itself.
    Exact,
    /// `x over`, just above `x`.
    Over,
}

/// A pseudonumber: the stop of a stopper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pseudonumber {
    /// `off`, below everything.
    Off,
    /// A number, or a number plus `over` or `under`.
    Number(Dyadic, Tilt),
    /// `on`, above everything.
    On,
}

impl Pseudonumber {
    fn rank(&self) -> (u8, Dyadic, Tilt) {
        match *self {
            Pseudonumber::Off => (0, Dyadic::ZERO, Tilt::Exact),
            Pseudonumber::Number(x, t) => (1, x, t),
            Pseudonumber::On => (2, Dyadic::ZERO, Tilt::Exact),
        }
    }
}

impl Ord for Pseudonumber {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Pseudonumber {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Pseudonumber {
    /// As CGSuite prints them: `on`, `off`, `3/2`, `over`, `5over`, `-1under`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Pseudonumber::Off => f.write_str("off"),
            Pseudonumber::On => f.write_str("on"),
            Pseudonumber::Number(x, tilt) => {
                let word = match tilt {
                    Tilt::Exact => return write!(f, "{x}"),
                    Tilt::Over => "over",
                    Tilt::Under => "under",
                };
                if x == Dyadic::ZERO {
                    f.write_str(word)
                } else {
                    write!(f, "{x}{word}")
                }
            }
        }
    }
}

/// The number each vertex of a canonical graph is, when it is one.
fn numbers(g: &Game) -> Vec<Option<Dyadic>> {
    let n = g.len();
    let mut num: Vec<Option<Dyadic>> = vec![None; n];
    loop {
        let mut changed = false;
        for v in 0..n as u32 {
            if num[v as usize].is_some() {
                continue;
            }
            let (l, r) = (g.left(v), g.right(v));
            let of = |w: &u32| if *w == v { None } else { num[*w as usize] };
            let x = match (l, r) {
                ([], []) => Some(Dyadic::ZERO),
                ([a], []) => of(a)
                    .filter(|a| a.is_integer() && *a >= Dyadic::ZERO)
                    .map(|a| a + Dyadic::ONE),
                ([], [b]) => of(b)
                    .filter(|b| b.is_integer() && *b <= Dyadic::ZERO)
                    .map(|b| b - Dyadic::ONE),
                ([a], [b]) => match (of(a), of(b)) {
                    (Some(p), Some(q)) if p < q => {
                        let x = (p + q).div_pow2(1);
                        let k = x.exponent();
                        let step = Dyadic::new(1, k);
                        (k >= 1 && p == x - step && q == x + step).then_some(x)
                    }
                    _ => None,
                },
                _ => None,
            };
            if x.is_some() {
                num[v as usize] = x;
                changed = true;
            }
        }
        if !changed {
            return num;
        }
    }
}

/// The pseudonumber each vertex of a canonical graph is, when it is one.
fn pseudonumbers(g: &Game) -> Vec<Option<Pseudonumber>> {
    let num = numbers(g);
    (0..g.len() as u32)
        .map(|v| {
            if let Some(x) = num[v as usize] {
                return Some(Pseudonumber::Number(x, Tilt::Exact));
            }
            let number = |w: &u32| num[*w as usize];
            match (g.left(v), g.right(v)) {
                ([a], []) if *a == v => Some(Pseudonumber::On),
                ([], [b]) if *b == v => Some(Pseudonumber::Off),
                ([a], [b]) if *b == v => number(a).map(|x| Pseudonumber::Number(x, Tilt::Over)),
                ([a], [b]) if *a == v => number(b).map(|x| Pseudonumber::Number(x, Tilt::Under)),
                _ => None,
            }
        })
        .collect()
}

impl Stopper {
    /// `(Left stop, Right stop)`: pseudonumbers (see the module documentation).
    pub fn stops(&self) -> Result<(Pseudonumber, Pseudonumber), LoopyError> {
        let g = self.game();
        let pseudo = pseudonumbers(g);
        let n = g.len();
        // memo[2v] = Left stop of v, memo[2v + 1] = Right stop.
        let mut memo: Vec<Option<Pseudonumber>> = vec![None; 2 * n];
        let mut open = vec![false; 2 * n];
        // Explicit stack of (state, expanded).
        let start = g.start() as usize;
        for root in [2 * start, 2 * start + 1] {
            let mut stack = vec![(root, false)];
            while let Some((s, expanded)) = stack.pop() {
                if memo[s].is_some() {
                    continue;
                }
                let v = (s / 2) as u32;
                let left_first = s % 2 == 0;
                if let Some(p) = pseudo[v as usize] {
                    memo[s] = Some(p);
                    continue;
                }
                let mut options = if left_first { g.left(v) } else { g.right(v) };
                let next = 1 - s % 2;
                if options.is_empty() {
                    // Not a pseudonumber but one-sided: the other player's options
                    // stand in (defensive; canonical stoppers that are not
                    // pseudonumbers have options on both sides).
                    options = if left_first { g.right(v) } else { g.left(v) };
                    if options.is_empty() {
                        memo[s] = Some(Pseudonumber::Number(Dyadic::ZERO, Tilt::Exact));
                        continue;
                    }
                }
                let child = |w: u32| 2 * w as usize + next;
                if !expanded {
                    if open[s] {
                        return Err(LoopyError::InvalidGraph(
                            "stops of a game with an alternating cycle (not a stopper)".into(),
                        ));
                    }
                    open[s] = true;
                    stack.push((s, true));
                    for &w in options {
                        if memo[child(w)].is_none() {
                            if open[child(w)] {
                                return Err(LoopyError::InvalidGraph(
                                    "stops of a game with an alternating cycle (not a stopper)"
                                        .into(),
                                ));
                            }
                            stack.push((child(w), false));
                        }
                    }
                    continue;
                }
                let values = options
                    .iter()
                    .map(|&w| memo[child(w)].expect("options first"));
                let stop = if left_first {
                    values.max()
                } else {
                    values.min()
                };
                memo[s] = stop;
                open[s] = false;
            }
        }
        Ok((
            memo[2 * start].expect("computed"),
            memo[2 * start + 1].expect("computed"),
        ))
    }
}
