//! Values of loopy games: stoppers, stopper-sided values `s & t`, and games whose
//! sides were not found to be stoppers.

use std::fmt;

use crate::compare::{self, Mode};
use crate::game::{Game, Player, Winner};
use crate::sides::{self, Side, SideValue};
use crate::stopper::Stopper;
use crate::LoopyError;

pub use crate::game::MAX_SUM_VERTICES;

/// The value of a loopy game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A stopper (its canonical form); short games are loop-free stoppers.
    Stopper(Stopper),
    /// `onside & offside` with two different stoppers (`offside < onside`).
    Sided {
        /// The onside `G⁺` (infinite play won by Left).
        onside: Stopper,
        /// The offside `G⁻` (infinite play won by Right).
        offside: Stopper,
    },
    /// A game for which at least one side was not found to equal a stopper
    /// (e.g. Bach's carousel, which is not stopper-sided). Each side is given as
    /// a simplified graph with the same side value (a canonical stopper's graph
    /// when that side was found).
    NotStopperSided {
        /// Graph whose onside is the game's onside.
        onside: Game,
        /// Graph whose offside is the game's offside.
        offside: Game,
    },
}

/// The outcome class of a stopper or of one side: who wins with each player
/// starting (sides decide infinite play, so there are no draws here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Left wins whoever starts.
    L,
    /// Right wins whoever starts.
    R,
    /// The first player wins.
    N,
    /// The second player wins.
    P,
}

impl Class {
    fn from_winners(left_first: Player, right_first: Player) -> Class {
        match (left_first, right_first) {
            (Player::Left, Player::Left) => Class::L,
            (Player::Right, Player::Right) => Class::R,
            (Player::Left, Player::Right) => Class::N,
            (Player::Right, Player::Left) => Class::P,
        }
    }

    fn winner(self, first: Player) -> Player {
        match (self, first) {
            (Class::L, _) => Player::Left,
            (Class::R, _) => Player::Right,
            (Class::N, p) => p,
            (Class::P, Player::Left) => Player::Right,
            (Class::P, Player::Right) => Player::Left,
        }
    }

    fn letter(self) -> &'static str {
        match self {
            Class::L => "L",
            Class::R => "R",
            Class::N => "N",
            Class::P => "P",
        }
    }
}

/// The outcome of a loopy game with draws: the class of its onside and of its
/// offside.
///
/// Named ([`Outcome::name`]) as in Winning Ways and CGSuite, in ASCII: `L`, `R`,
/// `N`, `P` when both sides agree, `D` (onside L, offside R: a draw whoever
/// starts), and `N^` = (L, N), `P^` = (L, P), `Nv` = (N, R), `Pv` = (P, R) for
/// N̂, P̂, Ň, P̌ (the hat `^` when the onside is L, the check `v` when the offside
/// is R).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Class of the onside.
    pub onside: Class,
    /// Class of the offside.
    pub offside: Class,
}

impl Outcome {
    /// The nine outcomes a game can have, in the order `L`, `R`, `N`, `P`, `D`,
    /// `N^`, `P^`, `Nv`, `Pv` (the onside is never below the offside, so (R, L),
    /// (N, L), … do not occur).
    pub const ALL: [Outcome; 9] = {
        use Class::*;
        const fn o(onside: Class, offside: Class) -> Outcome {
            Outcome { onside, offside }
        }
        [
            o(L, L),
            o(R, R),
            o(N, N),
            o(P, P),
            o(L, R),
            o(L, N),
            o(L, P),
            o(N, R),
            o(P, R),
        ]
    };

    /// Who wins with each player starting, in words: `Left starting: Left
    /// wins; Right starting: a draw`.
    pub fn describe(&self) -> String {
        let words = |w: Winner| match w {
            Winner::Left => "Left wins",
            Winner::Right => "Right wins",
            Winner::Draw => "a draw",
        };
        format!(
            "Left starting: {}; Right starting: {}",
            words(self.left_starts()),
            words(self.right_starts())
        )
    }

    /// `L`, `R`, `N`, `P`, `D`, `N^`, `P^`, `Nv`, `Pv` (see the type's
    /// documentation); `(x,y)` for a pair that cannot occur for a game.
    pub fn name(&self) -> String {
        use Class::*;
        match (self.onside, self.offside) {
            (a, b) if a == b => a.letter().to_string(),
            (L, R) => "D".into(),
            (L, N) => "N^".into(),
            (L, P) => "P^".into(),
            (N, R) => "Nv".into(),
            (P, R) => "Pv".into(),
            (a, b) => format!("({},{})", a.letter(), b.letter()),
        }
    }

    /// Who wins when `first` starts: the player who wins both sides, or a draw.
    pub fn winner(&self, first: Player) -> Winner {
        match (self.onside.winner(first), self.offside.winner(first)) {
            (Player::Left, Player::Left) => Winner::Left,
            (Player::Right, Player::Right) => Winner::Right,
            _ => Winner::Draw,
        }
    }

    /// Who wins when Left starts.
    pub fn left_starts(&self) -> Winner {
        self.winner(Player::Left)
    }

    /// Who wins when Right starts.
    pub fn right_starts(&self) -> Winner {
        self.winner(Player::Right)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Class of one side given as a graph, infinite play won by `infinite`.
fn side_class(g: &Game, infinite: Player) -> Class {
    Class::from_winners(
        g.winner_with_infinite(Player::Left, infinite),
        g.winner_with_infinite(Player::Right, infinite),
    )
}

impl Value {
    /// The value of a game graph: its canonical form if it is a stopper, otherwise
    /// its two sides (see [`crate::sides`]).
    pub fn from_game(game: &Game) -> Result<Value, LoopyError> {
        Value::from_game_within(game, sides::MAX_SIDE_VERTICES)
    }

    /// Like [`Value::from_game`], refusing to take sides of graphs with more than
    /// `max_side_vertices` vertices.
    pub fn from_game_within(game: &Game, max_side_vertices: usize) -> Result<Value, LoopyError> {
        let g = game.reachable();
        if g.alternating_cycle_states().is_empty() {
            return Ok(Value::Stopper(Stopper::new(&g)?));
        }
        let start = g.start();
        Ok(Value::values_within(&g, &[start], max_side_vertices)?
            .pop()
            .expect("one value per target"))
    }

    /// The values of several vertices of one graph, each taken as the start:
    /// canonical stoppers where no alternating cycle is reachable, and otherwise
    /// sides sought for all targets together ([`sides::sides_within`]); the
    /// onsides and offsides are sought at the same time on two threads.
    pub fn values_within(
        game: &Game,
        targets: &[u32],
        max_side_vertices: usize,
    ) -> Result<Vec<Value>, LoopyError> {
        let (on, off) = std::thread::scope(|scope| {
            let budget = crate::work::current();
            let on = scope.spawn(|| {
                crate::work::within(budget, || {
                    sides::sides_within(game, Side::On, targets, max_side_vertices)
                })
            });
            let off = sides::sides_within(game, Side::Off, targets, max_side_vertices);
            (on.join().expect("onside search panicked"), off)
        });
        Ok(on?
            .into_iter()
            .zip(off?)
            .map(|(on, off)| Value::combine(on, off))
            .collect())
    }

    /// The value with these two sides: a stopper when both are the same stopper,
    /// `s & t` when both are stoppers, the sides' graphs otherwise.
    pub(crate) fn combine(on: SideValue, off: SideValue) -> Value {
        match (on, off) {
            (SideValue::Stopper(s), SideValue::Stopper(t)) => {
                if s == t {
                    Value::Stopper(s)
                } else {
                    Value::Sided {
                        onside: s,
                        offside: t,
                    }
                }
            }
            (on, off) => Value::NotStopperSided {
                onside: side_graph(on),
                offside: side_graph(off),
            },
        }
    }

    /// `s & t` from two stoppers; an error unless `t ≤ s`. `s & s` is `s`.
    pub fn from_sides(onside: Stopper, offside: Stopper) -> Result<Value, LoopyError> {
        if onside == offside {
            return Ok(Value::Stopper(onside));
        }
        if !offside.try_le(&onside)? {
            return Err(LoopyError::SidesOutOfOrder);
        }
        Ok(Value::Sided { onside, offside })
    }

    /// A stopper's value.
    pub fn stopper(s: Stopper) -> Value {
        Value::Stopper(s)
    }

    /// The stopper, when the value is one.
    pub fn as_stopper(&self) -> Option<&Stopper> {
        match self {
            Value::Stopper(s) => Some(s),
            _ => None,
        }
    }

    /// The onside as a stopper, when known to be one.
    pub fn onside(&self) -> Option<&Stopper> {
        match self {
            Value::Stopper(s) => Some(s),
            Value::Sided { onside, .. } => Some(onside),
            Value::NotStopperSided { .. } => None,
        }
    }

    /// The offside as a stopper, when known to be one.
    pub fn offside(&self) -> Option<&Stopper> {
        match self {
            Value::Stopper(s) => Some(s),
            Value::Sided { offside, .. } => Some(offside),
            Value::NotStopperSided { .. } => None,
        }
    }

    /// A graph whose onside is this value's onside.
    pub fn onside_game(&self) -> Game {
        match self {
            Value::Stopper(s) => s.game().clone(),
            Value::Sided { onside, .. } => onside.game().clone(),
            Value::NotStopperSided { onside, .. } => onside.clone(),
        }
    }

    /// A graph whose offside is this value's offside.
    pub fn offside_game(&self) -> Game {
        match self {
            Value::Stopper(s) => s.game().clone(),
            Value::Sided { offside, .. } => offside.game().clone(),
            Value::NotStopperSided { offside, .. } => offside.clone(),
        }
    }

    /// True for a stopper.
    pub fn is_stopper(&self) -> bool {
        matches!(self, Value::Stopper(_))
    }

    /// True when both sides are stoppers (stoppers included).
    pub fn is_stopper_sided(&self) -> bool {
        !matches!(self, Value::NotStopperSided { .. })
    }

    /// The sides the bounded side search did not reduce to a stopper (their
    /// graphs, as printed, still have alternating cycles): empty for a
    /// stopper-sided value. Such a side is not proved to be no stopper: the
    /// search is bounded (see [`crate::sides`]), and the game may or may not be
    /// stopper-sided.
    pub fn unreduced_sides(&self) -> Vec<Side> {
        match self {
            Value::NotStopperSided { onside, offside } => {
                [(Side::On, onside), (Side::Off, offside)]
                    .into_iter()
                    .filter(|(_, g)| !g.is_stopper())
                    .map(|(side, _)| side)
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// The negative: `-(s & t) = (-t) & (-s)`.
    pub fn neg(&self) -> Value {
        match self {
            Value::Stopper(s) => Value::Stopper(s.neg()),
            Value::Sided { onside, offside } => Value::Sided {
                onside: offside.neg(),
                offside: onside.neg(),
            },
            Value::NotStopperSided { onside, offside } => Value::NotStopperSided {
                onside: offside.neg(),
                offside: onside.neg(),
            },
        }
    }

    /// The sum: `(s & t) + (u & v) = (s ⊕ u) & (t ⊖ v)`, where the upsum `⊕` is
    /// the onside of the plain sum and the downsum `⊖` its offside. A sum of
    /// stoppers that is a stopper is simplified directly.
    pub fn add(&self, other: &Value) -> Result<Value, LoopyError> {
        self.add_within(other, MAX_SUM_VERTICES, sides::MAX_SIDE_VERTICES)
    }

    /// Like [`Value::add`], with bounds on the sum graph and on the graphs whose
    /// sides are taken.
    pub fn add_within(
        &self,
        other: &Value,
        max_sum_vertices: usize,
        max_side_vertices: usize,
    ) -> Result<Value, LoopyError> {
        if let (Value::Stopper(a), Value::Stopper(b)) = (self, other) {
            let sum = a.game().sum(b.game(), max_sum_vertices)?;
            return Value::from_game_within(&sum, max_side_vertices);
        }
        let on = self
            .onside_game()
            .sum(&other.onside_game(), max_sum_vertices)?;
        let off = self
            .offside_game()
            .sum(&other.offside_game(), max_sum_vertices)?;
        let on = sides::side_within(&on, Side::On, max_side_vertices)?;
        let off = sides::side_within(&off, Side::Off, max_side_vertices)?;
        Ok(Value::combine(on, off))
    }

    /// `self - other`.
    pub fn sub(&self, other: &Value) -> Result<Value, LoopyError> {
        self.add(&other.neg())
    }

    /// The outcome with draws ([`Outcome`]).
    pub fn outcome(&self) -> Outcome {
        Outcome {
            onside: side_class(&self.onside_game(), Player::Left),
            offside: side_class(&self.offside_game(), Player::Right),
        }
    }

    /// Compares sides: `self⁺ ≥ other⁺` (`Side::On`) or `self⁻ ≥ other⁻`
    /// (`Side::Off`).
    pub fn side_ge(&self, other: &Value, side: Side) -> Result<bool, LoopyError> {
        match side {
            Side::On => compare::geq(&self.onside_game(), &other.onside_game(), Mode::Onside),
            Side::Off => compare::geq(&self.offside_game(), &other.offside_game(), Mode::Offside),
        }
    }

    /// `self >= other`: both sides compared, `self⁺ ≥ other⁺` and
    /// `self⁻ ≥ other⁻` (for stoppers, the stopper order).
    pub fn ge(&self, other: &Value) -> Result<bool, LoopyError> {
        Ok(self.side_ge(other, Side::On)? && self.side_ge(other, Side::Off)?)
    }

    /// Equality of values decided by comparison (both sides, both ways), for any
    /// two values (the derived `==` compares representations, which is exact for
    /// stoppers and stopper-sided values).
    pub fn equivalent(&self, other: &Value) -> Result<bool, LoopyError> {
        Ok(self.side_ge(other, Side::On)?
            && other.side_ge(self, Side::On)?
            && self.side_ge(other, Side::Off)?
            && other.side_ge(self, Side::Off)?)
    }
}

fn side_graph(r: SideValue) -> Game {
    match r {
        SideValue::Stopper(s) => s.game().clone(),
        SideValue::Graph(g) => g,
    }
}
