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
        // A win of unknown remoteness after every known one; a loss of unknown
        // remoteness before every known one (it might be the slowest).
        fn key(o: &Outcome) -> (u8, i64) {
            match (o.value, o.remoteness) {
                (Value::Win, Some(r)) => (0, r as i64),
                (Value::Win, None) => (0, i64::MAX),
                (Value::Draw, _) => (1, 0),
                (Value::Lose, Some(r)) => (2, -(r as i64)),
                (Value::Lose, None) => (2, i64::MIN),
            }
        }
        key(self).cmp(&key(other))
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
}
