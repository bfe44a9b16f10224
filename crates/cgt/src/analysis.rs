//! Outcome classes, stops, thermographs and temperature.

use crate::dyadic::Dyadic;
use crate::store::{GameId, GameStore};
use crate::thermograph::{Thermograph, Trajectory};
use std::fmt;

/// Outcome class of a game: who wins with perfect play.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// Left wins whoever starts (`G > 0`).
    L,
    /// Right wins whoever starts (`G < 0`).
    R,
    /// The player to move (the Next player) wins (`G || 0`).
    N,
    /// The player who just moved (the Previous player) wins (`G = 0`).
    P,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::L => "L",
            Outcome::R => "R",
            Outcome::N => "N",
            Outcome::P => "P",
        })
    }
}

/// Memo tables of the analysis functions, indexed by game id.
#[derive(Clone, Debug, Default)]
pub(crate) struct AnalysisCache {
    stops: Vec<Option<(Dyadic, Dyadic)>>,
    thermographs: Vec<Option<Thermograph>>,
}

impl GameStore {
    /// Outcome class of `g`.
    pub fn outcome(&mut self, g: GameId) -> Outcome {
        let ge0 = self.le(GameId::ZERO, g);
        let le0 = self.le(g, GameId::ZERO);
        match (ge0, le0) {
            (true, true) => Outcome::P,
            (true, false) => Outcome::L,
            (false, true) => Outcome::R,
            (false, false) => Outcome::N,
        }
    }

    /// `(Left stop, Right stop)` of `g`: the number reached when Left
    /// (resp. Right) moves first and both play until a number is reached.
    /// Computed bottom-up over the subgames not seen before (no recursion).
    pub fn stops(&mut self, g: GameId) -> (Dyadic, Dyadic) {
        let mut stack = vec![(g, false)];
        while let Some((h, expanded)) = stack.pop() {
            if self.cached_stops(h).is_some() {
                continue;
            }
            let result = if let Some(x) = self.as_number(h) {
                (x, x)
            } else if !expanded {
                self.push_unknown_options(h, &mut stack, |s, o| s.cached_stops(o).is_some());
                continue;
            } else {
                let stop = |o: &GameId| self.cached_stops(*o).expect("options first");
                let ls = self.left_options(h).iter().map(|o| stop(o).1).max();
                let rs = self.right_options(h).iter().map(|o| stop(o).0).min();
                // A non-number canonical game has options on both sides; fall
                // back to the other stop defensively.
                match (ls, rs) {
                    (Some(l), Some(r)) => (l, r),
                    (Some(l), None) => (l, l),
                    (None, Some(r)) => (r, r),
                    (None, None) => (Dyadic::ZERO, Dyadic::ZERO),
                }
            };
            let cache = &mut self.analysis.stops;
            if cache.len() <= h.index() {
                cache.resize(h.index() + 1, None);
            }
            cache[h.index()] = Some(result);
        }
        self.cached_stops(g).expect("computed above")
    }

    /// For a bottom-up pass on an explicit stack: pushes `h` back as expanded, then
    /// those of its options not yet `known`, so that they are done before it.
    fn push_unknown_options(
        &self,
        h: GameId,
        stack: &mut Vec<(GameId, bool)>,
        known: impl Fn(&Self, GameId) -> bool,
    ) {
        stack.push((h, true));
        let options = self.left_options(h).iter().chain(self.right_options(h));
        stack.extend(options.filter(|&&o| !known(self, o)).map(|&o| (o, false)));
    }

    fn cached_stops(&self, g: GameId) -> Option<(Dyadic, Dyadic)> {
        self.analysis.stops.get(g.index()).copied().flatten()
    }

    /// Left stop of `g`.
    pub fn left_stop(&mut self, g: GameId) -> Dyadic {
        self.stops(g).0
    }

    /// Right stop of `g`.
    pub fn right_stop(&mut self, g: GameId) -> Dyadic {
        self.stops(g).1
    }

    /// The thermograph of `g` (see the crate documentation for the method).
    /// Computed bottom-up over the subgames not seen before (no recursion).
    pub fn thermograph(&mut self, g: GameId) -> Thermograph {
        let mut stack = vec![(g, false)];
        while let Some((h, expanded)) = stack.pop() {
            if self.cached_thermograph(h).is_some() {
                continue;
            }
            let integer = self.as_number(h).is_some_and(|x| x.is_integer());
            if !integer && !expanded {
                self.push_unknown_options(h, &mut stack, |s, o| s.cached_thermograph(o).is_some());
                continue;
            }
            let result = self.compute_thermograph(h);
            let cache = &mut self.analysis.thermographs;
            if cache.len() <= h.index() {
                cache.resize(h.index() + 1, None);
            }
            cache[h.index()] = Some(result);
        }
        self.cached_thermograph(g).expect("computed above").clone()
    }

    fn cached_thermograph(&self, g: GameId) -> Option<&Thermograph> {
        self.analysis.thermographs.get(g.index())?.as_ref()
    }

    /// The thermograph of `g` from those of its options (already computed).
    fn compute_thermograph(&mut self, g: GameId) -> Thermograph {
        if let Some(x) = self.as_number(g) {
            if x.is_integer() {
                return Thermograph {
                    left_wall: Trajectory::constant(x),
                    right_wall: Trajectory::constant(x),
                    temperature: Dyadic::integer(-1),
                    mast: x,
                };
            }
        }
        let lefts = self.left_options(g).to_vec();
        let rights = self.right_options(g).to_vec();
        // Left scaffold: max over G^L of (right wall of G^L) - t.
        let mut left_scaffold: Option<Trajectory> = None;
        for o in lefts {
            let w = self
                .cached_thermograph(o)
                .expect("options first")
                .right_wall
                .tilt(-1);
            left_scaffold = Some(match left_scaffold {
                None => w,
                Some(s) => Trajectory::max(&s, &w),
            });
        }
        // Right scaffold: min over G^R of (left wall of G^R) + t.
        let mut right_scaffold: Option<Trajectory> = None;
        for o in rights {
            let w = self
                .cached_thermograph(o)
                .expect("options first")
                .left_wall
                .tilt(1);
            right_scaffold = Some(match right_scaffold {
                None => w,
                Some(s) => Trajectory::min(&s, &w),
            });
        }
        let (ls, rs) = match (left_scaffold, right_scaffold) {
            (Some(l), Some(r)) => (l, r),
            // Not reachable for canonical games (one-sided canonical games
            // are integers); mirror the existing side defensively.
            (Some(l), None) => (l.clone(), l),
            (None, Some(r)) => (r.clone(), r),
            (None, None) => (
                Trajectory::constant(Dyadic::ZERO),
                Trajectory::constant(Dyadic::ZERO),
            ),
        };
        let minus_one = Dyadic::integer(-1);
        let temperature = Trajectory::first_at_most(&ls, &rs).unwrap_or(minus_one);
        let (lv, rv) = (ls.eval(temperature), rs.eval(temperature));
        if lv == rv {
            Thermograph {
                left_wall: ls.mast_from(temperature),
                right_wall: rs.mast_from(temperature),
                temperature,
                mast: lv,
            }
        } else {
            // The scaffolds never crossed (left scaffold already below the
            // right one at t = -1): the game is a number-like mast.
            let mast = Dyadic::simplest_between(Some(lv), Some(rv)).unwrap_or(lv);
            Thermograph {
                left_wall: Trajectory::constant(mast),
                right_wall: Trajectory::constant(mast),
                temperature: minus_one,
                mast,
            }
        }
    }

    /// Temperature of `g`. For numbers this is Siegel's convention: `-1` for
    /// integers and `-1/2^k` for `m/2^k` (m odd); for other games it is the
    /// height at which the thermograph's walls meet (the smallest `t` such
    /// that `g` cooled by `t` is infinitesimally close to a number).
    pub fn temperature(&mut self, g: GameId) -> Dyadic {
        if let Some(x) = self.as_number(g) {
            return if x.is_integer() {
                Dyadic::integer(-1)
            } else {
                Dyadic::new(-1, x.exponent())
            };
        }
        self.thermograph(g).temperature
    }

    /// Mean value of `g` (the mast of its thermograph).
    pub fn mean(&mut self, g: GameId) -> Dyadic {
        self.thermograph(g).mast
    }
}
