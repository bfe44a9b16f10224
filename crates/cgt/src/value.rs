//! Games of any size: a game of the arena plus a number of any size.
//!
//! The arena keeps its numbers within [`crate::notation::MAX_INTEGER`] and
//! denominators within `2^`[`crate::notation::MAX_EXPONENT`] (the canonical form of
//! the integer `n` is a chain of `n` games). CGSuite takes any integer and any
//! dyadic; so does the evaluator, by number translation: for a game `G` that is
//! not a number and a number `x`, `G + x = {G^L + x | G^R + x}` is already
//! canonical. A [`Value`] is `game + shift`, the shift a [`BigDyadic`].
//!
//! Invariant (kept by the evaluator): the shift is 0, or `game + shift` does not
//! fit in the arena; then `game` has no number part (it is 0, an infinitesimal
//! `n·↑ + *m`, or a game that is not of the form `x + n·↑ + *m`), so a number of
//! any size is `Value { game: 0, shift }`.
//!
//! Everything about a value follows from its game: the stops and the mean move by
//! the shift, the temperature stays, the outcome is decided by the stops (a
//! shift beyond the arena's numbers is never equal to a stop of the game), and
//! printing prints every number shifted.

use num_bigint::BigInt;

use crate::analysis::Outcome;
use crate::big::BigDyadic;
use crate::dyadic::Dyadic;
use crate::notation::Uptimal;
use crate::store::{GameId, GameStore, Kind, WorkLimit};

/// A game `game + shift` (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    /// The part in the arena.
    pub game: GameId,
    /// The number added to it.
    pub shift: BigDyadic,
}

/// What an expression denotes: a game, or, for a comparison (`G <= H`), whether
/// it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A game.
    Game(Value),
    /// The truth of a comparison.
    Truth(bool),
    /// A number that is not dyadic (`1/3`, `2 / 6`): the value of an
    /// expression made of numbers alone, which CGSuite keeps as a rational
    /// number; it is not a short game, so it has no outcome class.
    Rational(crate::rational::Rational),
}

impl Value {
    /// A game of the arena.
    pub fn of(game: GameId) -> Value {
        Value {
            game,
            shift: BigDyadic::zero(),
        }
    }

    /// The game of the arena, when there is no shift.
    pub fn in_arena(&self) -> Option<GameId> {
        self.shift.is_zero().then_some(self.game)
    }
}

impl GameStore {
    /// The text of a value (see [`GameStore::format_shifted`]).
    pub fn format_value(&mut self, v: &Value) -> String {
        self.format_shifted(v.game, Some(&v.shift))
    }

    /// Like [`GameStore::format_value`], `None` when the text could be longer
    /// than `max_chars`.
    pub fn format_value_within(&mut self, v: &Value, max_chars: u64) -> Option<String> {
        // Each number printed grows by at most the shift's digits.
        let factor = 1 + v.shift.to_string().len() as u64 / 16;
        (self
            .printed_length_bound(v.game, max_chars)
            .saturating_mul(factor)
            <= max_chars)
            .then(|| self.format_value(v))
    }

    /// The Left and Right stops of a value.
    pub fn value_stops(&mut self, v: &Value) -> (BigDyadic, BigDyadic) {
        let (l, r) = self.stops(v.game);
        (
            &BigDyadic::from(l) + &v.shift,
            &BigDyadic::from(r) + &v.shift,
        )
    }

    /// The mean of a value.
    pub fn value_mean(&mut self, v: &Value) -> BigDyadic {
        &BigDyadic::from(self.mean(v.game)) + &v.shift
    }

    /// The temperature of a value (Siegel's convention for numbers: `-1` for
    /// integers, `-1/2^k` for `m/2^k`).
    pub fn value_temperature(&mut self, v: &Value) -> BigDyadic {
        if v.game == GameId::ZERO {
            return if v.shift.is_integer() {
                BigDyadic::integer(-1)
            } else {
                BigDyadic::integer(-1).div_pow2(v.shift.exponent())
            };
        }
        BigDyadic::from(self.temperature(v.game))
    }

    /// `Some((G <= 0, G >= 0))` of a value; `None` in the one case the stops
    /// cannot decide (a stop of the game exactly cancelling a shift that does
    /// not fit in the arena, which the evaluator avoids).
    pub fn value_signs(&mut self, v: &Value) -> Option<(bool, bool)> {
        if v.shift.is_zero() {
            let g = v.game;
            return Some((self.le(g, GameId::ZERO), self.le(GameId::ZERO, g)));
        }
        if v.game == GameId::ZERO {
            let s = v.shift.signum();
            return Some((s <= 0, s >= 0));
        }
        // G + x <= 0 iff LS(G) + x < 0, and G + x >= 0 iff RS(G) + x > 0, when
        // neither is 0.
        let (l, r) = self.value_stops(v);
        if l.is_zero() || r.is_zero() {
            return None;
        }
        Some((l.signum() < 0, r.signum() > 0))
    }

    /// The outcome class of a value (see [`GameStore::value_signs`]).
    pub fn value_outcome(&mut self, v: &Value) -> Option<Outcome> {
        let (le, ge) = self.value_signs(v)?;
        Some(match (ge, le) {
            (true, true) => Outcome::P,
            (true, false) => Outcome::L,
            (false, true) => Outcome::R,
            (false, false) => Outcome::N,
        })
    }

    /// The birthday of a value. With a shift, each number `y` of the game's
    /// canonical form becomes `y + shift`, whose birthday is `|y + shift|` for an
    /// integer and `⌊|y + shift|⌋ + k + 1` for `m/2^k`; an infinitesimal
    /// `n·↑ + *m` added to a number adds its own birthday (number translation
    /// replaces each 0 at the leaves of its canonical form by the number).
    pub fn value_birthday(&mut self, v: &Value) -> BigInt {
        if v.shift.is_zero() {
            return BigInt::from(self.birthday(v.game));
        }
        let number_birthday = |x: &BigDyadic| -> BigInt {
            let a = x.abs();
            if a.is_integer() {
                a.floor()
            } else {
                a.floor() + BigInt::from(a.exponent()) + 1
            }
        };
        let mut memo: std::collections::HashMap<GameId, BigInt> = Default::default();
        let mut stack = vec![(v.game, false)];
        while let Some((h, expanded)) = stack.pop() {
            if memo.contains_key(&h) {
                continue;
            }
            if let Kind::Simple { number, ups, star } = self.kind(h) {
                let shifted = &BigDyadic::from(number) + &v.shift;
                let infinitesimal = self.number_up_star(Dyadic::ZERO, ups, star);
                let b = number_birthday(&shifted) + BigInt::from(self.birthday(infinitesimal));
                memo.insert(h, b);
                continue;
            }
            let options: Vec<GameId> = self
                .left_options(h)
                .iter()
                .chain(self.right_options(h))
                .copied()
                .collect();
            if !expanded {
                stack.push((h, true));
                stack.extend(
                    options
                        .iter()
                        .filter(|o| !memo.contains_key(o))
                        .map(|&o| (o, false)),
                );
                continue;
            }
            let b = options
                .iter()
                .map(|o| memo[o].clone())
                .max()
                .unwrap_or_default()
                + 1;
            memo.insert(h, b);
        }
        memo.remove(&v.game).unwrap_or_default()
    }

    /// The uptimal form of a value and its number part, when it is an uptimal
    /// (see [`GameStore::try_uptimal`]); print it with
    /// [`Uptimal::text_with_number`].
    pub fn try_value_uptimal(
        &mut self,
        v: &Value,
    ) -> Result<Option<(Uptimal, BigDyadic)>, WorkLimit> {
        Ok(self.try_uptimal(v.game)?.map(|u| {
            let number = &BigDyadic::from(u.number) + &v.shift;
            (u, number)
        }))
    }
}
