//! The player's puzzle rating: Glicko-2 (Glickman, "Example of the Glicko-2
//! system", 2012), each puzzle a game against an opponent of the puzzle's
//! rating.
//!
//! A rating is three numbers: the rating `r` (1500 for a new player), its
//! deviation `RD` (350 for a new player: how unsure the rating is) and the
//! volatility `σ` (0.06: how much the player's strength moves). A solved
//! puzzle is a win (score 1) against an opponent rated as the puzzle (see
//! [`crate::puzzles`]: `1000 + 300 · log2(1 + score)`) with the deviation
//! [`PUZZLE_DEVIATION`] (a puzzle's strength is known, not measured); a failed
//! one (a wrong move, a hint taken, or given up) is a loss. Each puzzle is its
//! own rating period, as on lichess, with the system constant `τ =`
//! [`TAU`].
//!
//! The update, in Glicko-2's scale (`μ = (r − 1500) / 173.7178`,
//! `φ = RD / 173.7178`): `g(φⱼ) = 1 / √(1 + 3φⱼ²/π²)`,
//! `E = 1 / (1 + exp(−g(φⱼ)(μ − μⱼ)))`, the variance `v = 1 / Σ g²E(1 − E)`,
//! the improvement `Δ = v Σ g(s − E)`; the new volatility `σ'` solves
//! Glickman's equation by the Illinois method; then `φ* = √(φ² + σ'²)`,
//! `φ' = 1 / √(1/φ*² + 1/v)`, `μ' = μ + φ'² Σ g(s − E)`.

use serde::{Deserialize, Serialize};

/// Glicko-2's system constant (Glickman suggests 0.3 to 1.2).
pub const TAU: f64 = 0.5;

/// A puzzle's deviation, as an opponent.
pub const PUZZLE_DEVIATION: f64 = 60.0;

/// Glicko-2's scale: 400 / ln 10.
const SCALE: f64 = 173.7178;

/// The convergence tolerance of the volatility's iteration.
const EPSILON: f64 = 0.000_001;

/// A player's rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    /// A new player's: 1500, deviation 350, volatility 0.06.
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

/// One game of a rating period: the opponent's rating and deviation, and the
/// score (1 a win, 0 a loss, 0.5 a draw).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub rating: f64,
    pub deviation: f64,
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

impl Rating {
    /// The highest rating read (and the highest puzzle rating rated against).
    pub const MAX: f64 = 10_000.0;

    /// Whether the numbers can be a rating: the rating from 0 to [`Rating::MAX`],
    /// the deviation above 0 and at most 350, the volatility above 0 and below
    /// 1, all finite. A rating read from a file or a request is checked by it;
    /// the error names the number at fault.
    pub fn check(&self) -> Result<(), String> {
        if !(self.rating.is_finite() && (0.0..=Self::MAX).contains(&self.rating)) {
            return Err(format!(
                "the rating {} is not one: a rating is from 0 to {}",
                self.rating,
                Self::MAX
            ));
        }
        if !(self.deviation.is_finite() && self.deviation > 0.0 && self.deviation <= 350.0) {
            return Err(format!(
                "the deviation {} is not one: a deviation is above 0 and at most 350",
                self.deviation
            ));
        }
        if !(self.volatility.is_finite() && self.volatility > 0.0 && self.volatility < 1.0) {
            return Err(format!(
                "the volatility {} is not one: a volatility is above 0 and below 1",
                self.volatility
            ));
        }
        Ok(())
    }

    /// Whether [`Rating::check`] passes.
    pub fn is_valid(&self) -> bool {
        self.check().is_ok()
    }

    /// The rating after a rating period of these games (none: only the
    /// deviation grows).
    pub fn after(&self, games: &[Game]) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let phi = (phi * phi + sigma * sigma).sqrt();
            return Rating {
                deviation: (phi * SCALE).min(350.0),
                ..*self
            };
        }
        let mut v_inv = 0.0;
        let mut sum = 0.0;
        for game in games {
            let mu_j = (game.rating - 1500.0) / SCALE;
            let g_j = g(game.deviation / SCALE);
            let e = 1.0 / (1.0 + (-g_j * (mu - mu_j)).exp());
            v_inv += g_j * g_j * e * (1.0 - e);
            sum += g_j * (game.score - e);
        }
        let v = 1.0 / v_inv;
        let delta = v * sum;
        // The volatility, by the Illinois method (step 5 of the example).
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        while (big_b - big_a).abs() > EPSILON {
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
        }
        let sigma = (big_a / 2.0).exp();
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * sum;
        Rating {
            rating: SCALE * mu + 1500.0,
            deviation: (SCALE * phi).min(350.0),
            volatility: sigma,
        }
    }

    /// The rating after one puzzle of rating `puzzle`, solved or not.
    pub fn after_puzzle(&self, puzzle: impl Into<f64>, solved: bool) -> Rating {
        self.after(&[Game {
            rating: puzzle.into(),
            deviation: PUZZLE_DEVIATION,
            score: if solved { 1.0 } else { 0.0 },
        }])
    }

    /// The rating rounded for people: `1464 ± 152`.
    pub fn text(&self) -> String {
        format!("{:.0} ± {:.0}", self.rating, self.deviation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example: a player of 1500 (RD 200, σ 0.06) against
    /// 1400 (30), 1550 (100) and 1700 (300), winning the first and losing the
    /// others, becomes 1464.06 (RD 151.52, σ 0.05999).
    #[test]
    fn glickmans_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let games = [
            (1400.0, 30.0, 1.0),
            (1550.0, 100.0, 0.0),
            (1700.0, 300.0, 0.0),
        ]
        .map(|(rating, deviation, score)| Game {
            rating,
            deviation,
            score,
        });
        let after = player.after(&games);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn solving_raises_failing_lowers_and_both_narrow() {
        let new = Rating::default();
        let up = new.after_puzzle(1500, true);
        let down = new.after_puzzle(1500, false);
        assert!(up.rating > 1500.0 && down.rating < 1500.0);
        assert!(up.deviation < 350.0 && down.deviation < 350.0);
        // A harder puzzle solved raises more.
        assert!(new.after_puzzle(2000, true).rating > up.rating);
        // Nothing played: only the deviation grows, up to 350.
        let idle = up.after(&[]);
        assert_eq!(idle.rating, up.rating);
        assert!(idle.deviation > up.deviation);
        assert!(new.is_valid() && up.is_valid());
        assert!(!Rating {
            deviation: f64::NAN,
            ..new
        }
        .is_valid());
        assert_eq!(up.text(), format!("{:.0} ± {:.0}", up.rating, up.deviation));
    }
}
