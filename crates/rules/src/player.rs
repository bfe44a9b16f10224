//! Player numbers, the one way the toolkit names players.
//!
//! Inside the solvers seats are indices from 0 (`seat 0` moves first). Everything a
//! person or a script sees numbers players **from 1**: `Player 1` moves first, in
//! every text, JSON field (`"player": 1`), URL (`1_1112`) and page. [`Player`]
//! is the one conversion between the two, so that no command writes `seat + 1`
//! (or forgets to) on its own.
//!
//! | form | example | written by |
//! |---|---|---|
//! | long | `Player 2` | [`Player`]'s `Display` |
//! | short | `P2` | [`Player::short`] |
//! | number | `2` | [`Player::number`] (JSON's `player`) |
//! | with teams | `Players 1 and 3` | [`team_text`] |

use std::fmt;

use crate::error::{Result, RulesError};

/// A player, numbered from 1 for people and scripts, from 0 (its seat) inside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Player {
    seat: usize,
}

impl Player {
    /// The player in `seat` (0 = the first to move).
    pub fn from_seat(seat: usize) -> Player {
        Player { seat }
    }

    /// The player numbered `number` (1 = the first to move) among `players`
    /// players; a number out of range is refused with the range.
    pub fn from_number(number: usize, players: usize) -> Result<Player> {
        if (1..=players).contains(&number) {
            Ok(Player { seat: number - 1 })
        } else {
            Err(RulesError::Player {
                text: number.to_string(),
                players,
            })
        }
    }

    /// Reads a player number as people write it: `2`, `P2`, `p2` or `Player 2`.
    pub fn parse(text: &str, players: usize) -> Result<Player> {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        let digits = lower
            .strip_prefix("player")
            .or_else(|| lower.strip_prefix('p'))
            .unwrap_or(&lower)
            .trim();
        match digits.parse::<usize>() {
            Ok(n) if (1..=players).contains(&n) => Ok(Player { seat: n - 1 }),
            _ => Err(RulesError::Player {
                text: t.to_string(),
                players,
            }),
        }
    }

    /// The seat, from 0 (for indexing the solvers' arrays).
    pub fn seat(self) -> usize {
        self.seat
    }

    /// The number people and JSON see, from 1.
    pub fn number(self) -> usize {
        self.seat + 1
    }

    /// `P2`.
    pub fn short(self) -> String {
        format!("P{}", self.number())
    }
}

impl fmt::Display for Player {
    /// `Player 2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Player {}", self.number())
    }
}

/// The players of `seats` in words: `Player 1`, `Players 1 and 3`,
/// `Players 1, 3 and 5`.
pub fn team_text(seats: impl IntoIterator<Item = usize>) -> String {
    let numbers: Vec<String> = seats
        .into_iter()
        .map(|s| Player::from_seat(s).number().to_string())
        .collect();
    match numbers.as_slice() {
        [] => "no player".to_string(),
        [one] => format!("Player {one}"),
        [init @ .., last] => format!("Players {} and {last}", init.join(", ")),
    }
}

/// The seats of team `parity` (0: the first mover's team) among `players` players
/// in team play: every other seat.
pub fn team_seats(parity: usize, players: usize) -> Vec<usize> {
    (0..players).filter(|s| s % 2 == parity % 2).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_from_one() {
        let p = Player::from_seat(0);
        assert_eq!(p.number(), 1);
        assert_eq!(p.to_string(), "Player 1");
        assert_eq!(p.short(), "P1");
        for text in ["2", "P2", "p2", "Player 2", " player 2 "] {
            assert_eq!(Player::parse(text, 3).unwrap().seat(), 1, "{text}");
        }
        for text in ["0", "4", "P0", "x", ""] {
            let e = Player::parse(text, 3).unwrap_err().to_string();
            assert!(e.contains("1 to 3"), "{text}: {e}");
        }
        assert_eq!(Player::from_number(3, 3).unwrap().seat(), 2);
        assert!(Player::from_number(0, 3).is_err());
    }

    #[test]
    fn teams_in_words() {
        assert_eq!(team_text(team_seats(0, 2)), "Player 1");
        assert_eq!(team_text(team_seats(0, 4)), "Players 1 and 3");
        assert_eq!(team_text(team_seats(1, 6)), "Players 2, 4 and 6");
    }
}
