//! The value of a position for the player to move.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Win, loss or draw for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Value {
    /// The mover can force a win.
    Win,
    /// The opponent can force a win.
    Lose,
    /// Neither side can force a win: perfect play goes on for ever.
    Draw,
}

impl Value {
    /// `win`, `lose` or `draw`.
    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Lose => "lose",
            Value::Draw => "draw",
        }
    }

    /// The value for the other player.
    pub fn flip(self) -> Value {
        match self {
            Value::Win => Value::Lose,
            Value::Lose => Value::Win,
            Value::Draw => Value::Draw,
        }
    }
}

/// A position's value with its remoteness: the number of plies to the end of the game
/// under perfect play (the winner hurries, the loser delays). Draws have none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub value: Value,
    pub remoteness: Option<u32>,
}

impl Outcome {
    pub const DRAW: Outcome = Outcome {
        value: Value::Draw,
        remoteness: None,
    };

    pub fn win(remoteness: u32) -> Outcome {
        Outcome {
            value: Value::Win,
            remoteness: Some(remoteness),
        }
    }

    pub fn lose(remoteness: u32) -> Outcome {
        Outcome {
            value: Value::Lose,
            remoteness: Some(remoteness),
        }
    }

    /// A win or loss whose remoteness is not stored (tables saved with
    /// `--no-remoteness`), or a draw.
    pub fn unknown(value: Value) -> Outcome {
        Outcome {
            value,
            remoteness: None,
        }
    }

    /// The outcome for the player who moves *into* a position with this outcome:
    /// the value flips and the game is one ply longer.
    pub fn through_move(self) -> Outcome {
        Outcome {
            value: self.value.flip(),
            remoteness: self.remoteness.map(|r| r + 1),
        }
    }

    /// The same value for the other side (win and loss swap; draws stay).
    pub fn flipped(self) -> Outcome {
        Outcome {
            value: self.value.flip(),
            remoteness: self.remoteness,
        }
    }

    /// The same value one ply earlier (remoteness plus one).
    pub fn later(self) -> Outcome {
        Outcome {
            value: self.value,
            remoteness: self.remoteness.map(|r| r + 1),
        }
    }

    /// Orders outcomes from the mover's point of view, best first: faster wins, then
    /// draws, then slower losses.
    pub fn preference(&self, other: &Outcome) -> Ordering {
        self.preference_key().cmp(&other.preference_key())
    }

    /// A number that orders outcomes as [`Outcome::preference`] does (smaller
    /// is better for the mover), one number per outcome
    /// ([`Outcome::from_preference_key`] gives the outcome back): wins by
    /// remoteness, a win of unknown remoteness after every known one, draws,
    /// a loss of unknown remoteness before every known one (it might be the
    /// slowest), losses by remoteness from the slowest. For loops that keep
    /// the best of many outcomes as one integer.
    #[inline]
    pub fn preference_key(&self) -> u64 {
        const BAND: u64 = 1 << 32;
        match (self.value, self.remoteness) {
            (Value::Win, Some(r)) => r as u64,
            (Value::Win, None) => BAND,
            (Value::Draw, _) => 2 * BAND,
            (Value::Lose, None) => 3 * BAND,
            (Value::Lose, Some(r)) => 4 * BAND - r as u64,
        }
    }

    /// The outcome of a [`Outcome::preference_key`].
    #[inline]
    pub fn from_preference_key(key: u64) -> Outcome {
        const BAND: u64 = 1 << 32;
        match key / BAND {
            0 => Outcome::win(key as u32),
            1 => Outcome::unknown(Value::Win),
            2 => Outcome::DRAW,
            _ if key == 3 * BAND => Outcome::unknown(Value::Lose),
            _ => Outcome::lose((4 * BAND - key) as u32),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.remoteness {
            Some(r) => write!(f, "{} in {r}", self.value.name()),
            None => write!(f, "{}", self.value.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preference_orders_best_first() {
        let mut v = vec![
            Outcome::lose(2),
            Outcome::DRAW,
            Outcome::win(5),
            Outcome::lose(8),
            Outcome::win(1),
        ];
        v.sort_by(Outcome::preference);
        assert_eq!(
            v,
            vec![
                Outcome::win(1),
                Outcome::win(5),
                Outcome::DRAW,
                Outcome::lose(8),
                Outcome::lose(2)
            ]
        );
        assert_eq!(Outcome::lose(0).through_move(), Outcome::win(1));
        let unknown = Outcome::unknown(Value::Win);
        assert!(Outcome::win(1000).preference(&unknown).is_lt());
        assert!(unknown.preference(&Outcome::DRAW).is_lt());
        assert!(Outcome::unknown(Value::Lose)
            .preference(&Outcome::lose(1))
            .is_lt());
        assert_eq!(unknown.to_string(), "win");
    }

    #[test]
    fn preference_keys_order_and_round_trip() {
        let outcomes = [
            Outcome::win(0),
            Outcome::win(1),
            Outcome::win(u32::MAX),
            Outcome::unknown(Value::Win),
            Outcome::DRAW,
            Outcome::unknown(Value::Lose),
            Outcome::lose(u32::MAX),
            Outcome::lose(7),
            Outcome::lose(0),
        ];
        for (k, o) in outcomes.iter().enumerate() {
            assert_eq!(Outcome::from_preference_key(o.preference_key()), *o);
            if let Some(next) = outcomes.get(k + 1) {
                assert!(
                    o.preference_key() < next.preference_key(),
                    "{o} before {next}"
                );
                assert!(o.preference(next).is_lt());
            }
        }
    }
}
