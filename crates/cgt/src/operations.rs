//! Operations on short games that CGSuite users reach for: cooling and heating,
//! overheating, the ordinal sum, atomic weight, and the tiny and miny games.
//!
//! Each is defined recursively on canonical forms and computed bottom-up over the
//! distinct subgames (no recursion on the structure of games, so deep games
//! cannot overflow the call stack), within the store's work limit:
//!
//! * **Cooling** by a number `t ≥ 0` (Conway; *Winning Ways* ch. 6; Siegel II.5):
//!   `G_t = {G^L_t − t | G^R_t + t}`, except that a number stays itself and a game
//!   cooled beyond its temperature is its mean: `G_t = m(G)` for `t > τ(G)`.
//! * **Heating** by any game `t`: `∫^t G = G` for a number `G`, otherwise
//!   `{∫^t G^L + t | ∫^t G^R − t}`.
//! * **Overheating** from `s` to `t` (Berlekamp): `∫_s^t G = n·s` for an integer
//!   `G = n`, otherwise `{∫_s^t G^L + t | ∫_s^t G^R − t}` (every non-integer,
//!   numbers included, is expanded through its options).
//! * **Ordinal sum** `G : H = {G^L, G:H^L | G^R, G:H^R}`, on the canonical forms
//!   of `G` and `H` (its value depends on the form of `G`).
//! * **Atomic weight** of an all-small game (Siegel II.7; *Winning Ways* ch. 8):
//!   `AW(G) = {AW(G^L) − 2 | AW(G^R) + 2}`, except when that is an integer `n`
//!   (the *eccentric* case): then, among the integers `x` with
//!   `AW(G^L) − 2 ⧏ x ⧏ AW(G^R) + 2` for every option, the largest if `G > ☆`
//!   (far star, `*N` for `N` beyond every nimber in `G`), the smallest if
//!   `G < ☆`, and `n` otherwise.
//! * `Tiny(G) = {0 || 0 | −G}` and `Miny(G) = {G | 0 || 0}`.

use std::collections::HashMap;

use crate::dyadic::Dyadic;
use crate::store::{GameId, GameStore, Kind, WorkLimit};

/// Why an operation has no answer for its argument.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OperationError {
    /// The work limit was reached.
    #[error(transparent)]
    Work(#[from] WorkLimit),
    /// Atomic weight asked of a game that is not all-small.
    #[error("that game is not all-small: atomic weight is defined for all-small games only (every subposition has moves for both players or for neither)")]
    NotAllSmall,
    /// Cooling by a negative number.
    #[error("cooling is by a number t >= 0 (here t = {0})")]
    NegativeCooling(Dyadic),
    /// Cooling by something that is not a number.
    #[error("cooling is by a number, not by a game that is not one")]
    NotANumber,
    /// A game too large for the operation's own bounds.
    #[error("{0}")]
    TooLarge(String),
}

impl GameStore {
    /// Rebuilds `g` bottom-up: `leaf` gives the result of a subgame directly (or
    /// `None`), `node` builds it from its option lists and their results.
    fn transform(
        &mut self,
        g: GameId,
        mut leaf: impl FnMut(&mut Self, GameId) -> Result<Option<GameId>, OperationError>,
        mut node: impl FnMut(&mut Self, GameId, &[GameId], &[GameId]) -> Result<GameId, OperationError>,
    ) -> Result<GameId, OperationError> {
        let mut done: HashMap<GameId, GameId> = HashMap::new();
        let mut stack = vec![(g, false)];
        while let Some((h, expanded)) = stack.pop() {
            if done.contains_key(&h) {
                continue;
            }
            if !expanded {
                self.try_charge(1)?;
                if let Some(r) = leaf(self, h)? {
                    self.within_bounds(r)?;
                    done.insert(h, r);
                    continue;
                }
                stack.push((h, true));
                let options = self.left_options(h).iter().chain(self.right_options(h));
                stack.extend(
                    options
                        .filter(|o| !done.contains_key(o))
                        .map(|&o| (o, false))
                        .collect::<Vec<_>>(),
                );
                continue;
            }
            let lefts: Vec<GameId> = self.left_options(h).iter().map(|o| done[o]).collect();
            let rights: Vec<GameId> = self.right_options(h).iter().map(|o| done[o]).collect();
            let r = node(self, h, &lefts, &rights)?;
            self.within_bounds(r)?;
            done.insert(h, r);
        }
        Ok(done[&g])
    }

    /// Refuses a result `x + n·↑ + *m` beyond the arena's bounds. New numbers are
    /// made only as such results (a simplest number, one bit finer than its
    /// options at most), so checking them at every node keeps every number of
    /// the operation within reach of exact arithmetic.
    fn within_bounds(&self, r: GameId) -> Result<(), OperationError> {
        use crate::notation::{MAX_EXPONENT, MAX_INTEGER, MAX_UPS};
        if let Kind::Simple { number, ups, .. } = self.kind(r) {
            let magnitude = number
                .floor()
                .unsigned_abs()
                .max(number.ceil().unsigned_abs());
            if magnitude > MAX_INTEGER as u64
                || number.exponent() > MAX_EXPONENT
                || ups.unsigned_abs() > MAX_UPS as u64
            {
                return Err(OperationError::TooLarge(format!(
                    "the result has numbers beyond the game engine's bounds (integers up \
                     to {MAX_INTEGER}, denominators up to 2^{MAX_EXPONENT}, {MAX_UPS} ups)"
                )));
            }
        }
        Ok(())
    }

    /// `g` cooled by the number `t ≥ 0` (see the module documentation).
    pub fn try_cool(&mut self, g: GameId, t: GameId) -> Result<GameId, OperationError> {
        let t_value = self.as_number(t).ok_or(OperationError::NotANumber)?;
        if t_value < Dyadic::ZERO {
            return Err(OperationError::NegativeCooling(t_value));
        }
        let minus_t = self.neg(t);
        self.transform(
            g,
            |s, h| {
                if s.is_number(h) {
                    return Ok(Some(h));
                }
                if s.temperature(h) < t_value {
                    let mean = s.mean(h);
                    return Ok(Some(s.try_number_up_star(mean, 0, 0)?));
                }
                Ok(None)
            },
            |s, _, lefts, rights| s.shifted_options(lefts, minus_t, rights, t),
        )
    }

    /// `g` heated by `t` (see the module documentation).
    pub fn try_heat(&mut self, g: GameId, t: GameId) -> Result<GameId, OperationError> {
        let minus_t = self.neg(t);
        self.transform(
            g,
            |s, h| Ok(s.is_number(h).then_some(h)),
            |s, _, lefts, rights| s.shifted_options(lefts, t, rights, minus_t),
        )
    }

    /// `g` overheated from `s` to `t` (see the module documentation).
    pub fn try_overheat(
        &mut self,
        g: GameId,
        s: GameId,
        t: GameId,
    ) -> Result<GameId, OperationError> {
        let minus_t = self.neg(t);
        self.transform(
            g,
            |store, h| match store.as_number(h) {
                Some(x) if x.is_integer() => Ok(Some(store.try_multiple(s, x.numerator())?)),
                _ => Ok(None),
            },
            |store, _, lefts, rights| store.shifted_options(lefts, t, rights, minus_t),
        )
    }

    /// `{L + a | R + b}`.
    fn shifted_options(
        &mut self,
        lefts: &[GameId],
        a: GameId,
        rights: &[GameId],
        b: GameId,
    ) -> Result<GameId, OperationError> {
        let (l, r) = self.shifted_lists(lefts, a, rights, b)?;
        Ok(self.try_game(&l, &r)?)
    }

    /// The option lists `L + a` and `R + b`.
    fn shifted_lists(
        &mut self,
        lefts: &[GameId],
        a: GameId,
        rights: &[GameId],
        b: GameId,
    ) -> Result<(Vec<GameId>, Vec<GameId>), WorkLimit> {
        let mut l = Vec::with_capacity(lefts.len());
        for &o in lefts {
            l.push(self.try_add(o, a)?);
        }
        let mut r = Vec::with_capacity(rights.len());
        for &o in rights {
            r.push(self.try_add(o, b)?);
        }
        Ok((l, r))
    }

    /// The ordinal sum `g : h` (see the module documentation).
    pub fn try_ordinal_sum(&mut self, g: GameId, h: GameId) -> Result<GameId, OperationError> {
        let base_left = self.left_options(g).to_vec();
        let base_right = self.right_options(g).to_vec();
        self.transform(
            h,
            |_, k| Ok((k == GameId::ZERO).then_some(g)),
            |s, _, lefts, rights| {
                let l: Vec<GameId> = base_left.iter().chain(lefts).copied().collect();
                let r: Vec<GameId> = base_right.iter().chain(rights).copied().collect();
                Ok(s.try_game(&l, &r)?)
            },
        )
    }

    /// Whether every subposition of `g` has moves for both players or for
    /// neither (checked on the canonical form).
    pub fn is_all_small(&self, g: GameId) -> bool {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![g];
        while let Some(h) = stack.pop() {
            if !seen.insert(h) {
                continue;
            }
            let (l, r) = (self.left_options(h), self.right_options(h));
            if l.is_empty() != r.is_empty() {
                return false;
            }
            stack.extend(l.iter().chain(r));
        }
        true
    }

    /// The atomic weight of the all-small game `g` (see the module documentation).
    pub fn try_atomic_weight(&mut self, g: GameId) -> Result<GameId, OperationError> {
        if !self.is_all_small(g) {
            return Err(OperationError::NotAllSmall);
        }
        let two = self.try_number_up_star(Dyadic::integer(2), 0, 0)?;
        let minus_two = self.neg(two);
        self.transform(
            g,
            |_, h| Ok((h == GameId::ZERO).then_some(GameId::ZERO)),
            |s, h, lefts, rights| {
                let (l, r) = s.shifted_lists(lefts, minus_two, rights, two)?;
                let plain = s.try_game(&l, &r)?;
                let Some(n) = s.as_number(plain).filter(|x| x.is_integer()) else {
                    return Ok(plain);
                };
                // The eccentric case: compare h with far star.
                let far = s.far_star(h)?;
                let (above, below) = (s.try_le(far, h)?, s.try_le(h, far)?);
                let step = match (above, below) {
                    (true, false) => 1,
                    (false, true) => -1,
                    _ => return Ok(plain),
                };
                // The integers that fit form an interval around n.
                let mut x = n.numerator();
                loop {
                    let next = s.try_number_up_star(Dyadic::integer(x + step), 0, 0)?;
                    if !s.fits_between(next, &l, &r)? {
                        break;
                    }
                    x += step;
                }
                Ok(s.try_number_up_star(Dyadic::integer(x), 0, 0)?)
            },
        )
    }

    /// `*N` with `N` a power of two beyond every nimber in `g` (beyond its birthday).
    fn far_star(&mut self, g: GameId) -> Result<GameId, OperationError> {
        let n = (self.birthday(g) + 1).next_power_of_two();
        if n > crate::notation::MAX_NIMBER {
            return Err(OperationError::TooLarge(format!(
                "the game is too deep for atomic weight (birthday {}; far star would be beyond *{})",
                self.birthday(g),
                crate::notation::MAX_NIMBER
            )));
        }
        Ok(self.try_number_up_star(Dyadic::ZERO, 0, n)?)
    }

    /// Whether `x` lies strictly between the options: no Left option `>= x` and
    /// no Right option `<= x`.
    fn fits_between(
        &mut self,
        x: GameId,
        lefts: &[GameId],
        rights: &[GameId],
    ) -> Result<bool, WorkLimit> {
        for &l in lefts {
            if self.try_le(x, l)? {
                return Ok(false);
            }
        }
        for &r in rights {
            if self.try_le(r, x)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `Tiny(g) = {0 || 0 | -g}`.
    pub fn try_tiny(&mut self, g: GameId) -> Result<GameId, WorkLimit> {
        let minus = self.neg(g);
        let inner = self.try_game(&[GameId::ZERO], &[minus])?;
        self.try_game(&[GameId::ZERO], &[inner])
    }

    /// `Miny(g) = {g | 0 || 0}`.
    pub fn try_miny(&mut self, g: GameId) -> Result<GameId, WorkLimit> {
        let inner = self.try_game(&[g], &[GameId::ZERO])?;
        self.try_game(&[inner], &[GameId::ZERO])
    }

    /// `Some(G)` when `g = Tiny(G)` with `G > 0` (`g = {0 | {0 | -G}}`), read
    /// from the canonical form.
    pub fn tiny_of(&mut self, g: GameId) -> Option<GameId> {
        let (&[a], &[b]) = (self.left_options(g), self.right_options(g)) else {
            return None;
        };
        if a != GameId::ZERO || matches!(self.kind(g), Kind::Simple { .. }) {
            return None;
        }
        let (&[c], &[d]) = (self.left_options(b), self.right_options(b)) else {
            return None;
        };
        if c != GameId::ZERO {
            return None;
        }
        let inner = self.neg(d);
        (self.le(GameId::ZERO, inner) && inner != GameId::ZERO).then_some(inner)
    }

    /// `Some(G)` when `g = Miny(G)` with `G > 0` (`g = {{G | 0} | 0}`).
    pub fn miny_of(&mut self, g: GameId) -> Option<GameId> {
        let minus = self.neg(g);
        self.tiny_of(minus)
    }
}
