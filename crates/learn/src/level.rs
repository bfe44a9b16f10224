//! The computer's levels, defined once for the page, `chopsticks play` and the
//! API.
//!
//! A level plays from the moves of a position listed best first by their value
//! for the mover under the game's rules, its history included
//! ([`crate::history`]): the fastest win, else a move that keeps a draw, else
//! the slowest loss, equals in the rules' order. The first of that list is
//! *the best move*.
//!
//! | level | what it plays |
//! |---|---|
//! | `perfect` | always the best move |
//! | `strong` | the best move with probability 0.9; otherwise a move drawn uniformly from all the legal moves (the best one included) |
//! | `casual` | the best move with probability 0.6; otherwise a move drawn uniformly from all the legal moves |
//! | `random` | a move drawn uniformly from all the legal moves |
//!
//! So with `n` legal moves a level of probability `p` plays the best move with
//! probability `p + (1 - p) / n`, and each other move with `(1 - p) / n`.
//! Choices are drawn from a [`Rng`] seeded by the caller, so a game is
//! reproducible from its seed.

use serde::Serialize;

/// How well the computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Perfect,
    Strong,
    Casual,
    Random,
}

impl Level {
    /// Every level, strongest first.
    pub const ALL: [Level; 4] = [Level::Perfect, Level::Strong, Level::Casual, Level::Random];

    /// `perfect`, `strong`, `casual`, `random`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Perfect => "perfect",
            Level::Strong => "strong",
            Level::Casual => "casual",
            Level::Random => "random",
        }
    }

    /// The level's name for a menu: `Strong (best move 90%)`.
    pub fn label(self) -> &'static str {
        match self {
            Level::Perfect => "Perfect",
            Level::Strong => "Strong (best move 90%)",
            Level::Casual => "Casual (best move 60%)",
            Level::Random => "Random",
        }
    }

    /// The level named `text` (case ignored).
    pub fn parse(text: &str) -> Result<Level, String> {
        let t = text.trim().to_ascii_lowercase();
        Level::ALL
            .into_iter()
            .find(|l| l.name() == t)
            .ok_or_else(|| {
                format!(
                    "`{}` is not a level: perfect, strong, casual or random",
                    chopsticks_rules::quoted(text)
                )
            })
    }

    /// The probability of playing the best move on purpose (the rest of the
    /// time a legal move is drawn uniformly).
    pub fn best_probability(self) -> f64 {
        match self {
            Level::Perfect => 1.0,
            Level::Strong => 0.9,
            Level::Casual => 0.6,
            Level::Random => 0.0,
        }
    }

    /// What the level does, in a sentence.
    pub fn description(self) -> &'static str {
        match self {
            Level::Perfect => {
                "always the best move: the fastest win, else a draw, else the slowest loss"
            }
            Level::Strong => "the best move 9 times in 10, otherwise any legal move at random",
            Level::Casual => "the best move 6 times in 10, otherwise any legal move at random",
            Level::Random => "any legal move at random",
        }
    }

    /// The index of the move the level plays among `count` moves listed best
    /// first (`count` at least 1).
    pub fn choose(self, count: usize, rng: &mut Rng) -> usize {
        assert!(count > 0, "a level chooses among at least one move");
        match self {
            Level::Perfect => 0,
            _ => {
                if rng.unit() < self.best_probability() {
                    0
                } else {
                    rng.below(count)
                }
            }
        }
    }
}

/// A small pseudo-random generator (SplitMix64): the same seed, the same
/// choices, on every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A number in `0..n` (`n` at least 1), without bias.
    pub fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for l in Level::ALL {
            assert_eq!(Level::parse(l.name()), Ok(l));
        }
        assert_eq!(Level::parse(" Strong "), Ok(Level::Strong));
        assert!(Level::parse("expert").is_err());
    }

    #[test]
    fn rng_is_reproducible_and_uniform() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut counts = [0usize; 5];
        for _ in 0..50_000 {
            counts[a.below(5)] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }
}
