//! Evaluating a syntax tree ([`crate::Expression`]) into a game of any size
//! ([`Value`]) or, for a comparison, a truth value ([`Answer`]).
//!
//! Every intermediate result kept in the arena stays within the arena's bounds
//! (numbers below `2^`[`MAX_NUMBER_BITS`], denominators at most
//! `2^`[`MAX_EXPONENT`], multiples of ↑ at most [`MAX_UPS`]); numbers beyond them
//! are carried as the shift of a [`Value`] (number translation), and the whole
//! evaluation stays within the work limit.

use std::collections::HashMap;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use crate::big::BigDyadic;
use crate::dyadic::Dyadic;
use crate::notation::{ParseError, MAX_EXPONENT, MAX_NUMBER_BITS, MAX_UPS, MAX_WORK};
use crate::operations::OperationError;
use crate::parse::{Ast, Expression, Function, Term, UpsKind};
use crate::rational::Rational;
use crate::store::{GameId, GameStore, Kind, WorkLimit};
use crate::value::{Answer, Value};

/// The largest integer `n` in `n * G` for a game `G` that is not a number.
pub const MAX_MULTIPLIER: i64 = 1 << 20;

impl GameStore {
    /// Parse a game written in CGSuite-like notation (see the crate
    /// documentation for the accepted grammar): [`Expression::parse`], then
    /// [`GameStore::evaluate`].
    ///
    /// Input is bounded so that no text can make the engine overflow or run away:
    /// nimbers up to `*`[`crate::notation::MAX_NIMBER`], multiples of ↑ up to
    /// [`MAX_UPS`], powers of ↑ up to [`crate::notation::MAX_POWER`], nesting up to
    /// [`crate::notation::MAX_DEPTH`] levels, and the whole evaluation may take at
    /// most [`MAX_WORK`] steps. Numbers are not bounded by the text, but a game of
    /// the arena keeps its numbers below [`crate::notation::MAX_INTEGER`] and its
    /// denominators at most `2^`[`MAX_EXPONENT`]: a text whose game is beyond them
    /// is read by [`GameStore::evaluate_answer`], and is an error here. Beyond the
    /// bounds the parser returns an error (it never panics).
    pub fn parse(&mut self, text: &str) -> Result<GameId, ParseError> {
        self.parse_with(text, &[])
    }

    /// Like [`GameStore::parse`], where `#0`, `#1`, … stand for the games of
    /// `games` (ids of this store), e.g. `#0 + #1 - ^`.
    pub fn parse_with(&mut self, text: &str, games: &[GameId]) -> Result<GameId, ParseError> {
        let expression = Expression::parse(text)?;
        self.evaluate(&expression, games)
    }

    /// The game an expression denotes, `#k` standing for `games[k]`, within
    /// [`MAX_WORK`] steps of work.
    pub fn evaluate(
        &mut self,
        expression: &Expression,
        games: &[GameId],
    ) -> Result<GameId, ParseError> {
        self.evaluate_within(expression, games, MAX_WORK)
    }

    /// Like [`GameStore::evaluate`], within `work_limit` steps (see
    /// [`GameStore::set_work_limit`]). An error for a comparison, and for a game
    /// whose numbers are beyond the arena's bounds.
    pub fn evaluate_within(
        &mut self,
        expression: &Expression,
        games: &[GameId],
        work_limit: u64,
    ) -> Result<GameId, ParseError> {
        self.evaluate_game(expression, games, work_limit)
            .map_err(|e| e.locate(&expression.text))
    }

    fn evaluate_game(
        &mut self,
        expression: &Expression,
        games: &[GameId],
        work_limit: u64,
    ) -> Result<GameId, ParseError> {
        match self.evaluate_answer(expression, games, work_limit)? {
            Answer::Game(v) => v.in_arena().ok_or_else(|| ParseError {
                position: 0,
                character: 0,
                message: format!(
                    "number too large: the value has numbers beyond the game engine's \
                     arena (integers up to {}, denominators up to 2^{MAX_EXPONENT}); \
                     `chopsticks value` prints such games",
                    crate::notation::MAX_INTEGER
                ),
                work_limit: None,
            }),
            Answer::Rational(r) => Err(ParseError {
                position: 0,
                character: 0,
                message: not_a_game(&r),
                work_limit: None,
            }),
            Answer::Truth(_) => Err(ParseError {
                position: 0,
                character: 0,
                message: format!(
                    "a comparison (`{}`) is true or false, not a game",
                    expression.relation().map_or("", |r| r.symbol())
                ),
                work_limit: None,
            }),
        }
    }

    /// What an expression denotes, `#k` standing for `games[k]`, within
    /// `work_limit` steps: a game of any size, or the truth of a comparison.
    pub fn evaluate_answer(
        &mut self,
        expression: &Expression,
        games: &[GameId],
        work_limit: u64,
    ) -> Result<Answer, ParseError> {
        self.answer(expression, games, work_limit)
            .map_err(|e| e.locate(&expression.text))
    }

    fn answer(
        &mut self,
        expression: &Expression,
        games: &[GameId],
        work_limit: u64,
    ) -> Result<Answer, ParseError> {
        if let Some((k, at)) = expression.largest_given {
            if k >= games.len() {
                return Err(ParseError {
                    position: at,
                    character: 0,
                    message: match games.len() {
                        0 => "no such game: `#k` stands for a given game, and none is given"
                            .to_string(),
                        n => format!("no such game: #{k} (the games given are #0 to #{})", n - 1),
                    },
                    work_limit: None,
                });
            }
        }
        self.with_work_limit(work_limit, |store| {
            let mut e = Evaluator {
                store,
                games,
                bounds: HashMap::new(),
                deepening: false,
            };
            // An expression of numbers alone is computed exactly: its value may
            // be a rational that is not a game (`1/3`), and such numbers compare.
            let exact_root = exact(&expression.root).transpose()?;
            match (&expression.relation, &exact_root) {
                (None, Some(r)) if r.to_dyadic().is_none() => {
                    return Ok(Answer::Rational(r.clone()));
                }
                (Some((relation, rhs)), Some(x)) => {
                    if let Some(y) = exact(rhs).transpose()? {
                        if x.to_dyadic().is_none() || y.to_dyadic().is_none() {
                            let (le, ge) = (x <= &y, x >= &y);
                            return Ok(Answer::Truth(relation.holds(le, ge)));
                        }
                    }
                }
                _ => {}
            }
            let left = e.eval(&expression.root)?;
            match &expression.relation {
                // A big number shifts every number inside, where names are not used:
                // the text can then be deeper than the game's own.
                None if e.deepening || !left.shift.is_zero() => {
                    Ok(Answer::Game(e.shallow(left, 0)?))
                }
                None => Ok(Answer::Game(left)),
                Some((relation, rhs)) => {
                    let right = e.eval(rhs)?;
                    let (le, ge) = e.compare(&left, &right, rhs.at)?;
                    Ok(Answer::Truth(relation.holds(le, ge)))
                }
            }
        })
    }
}

impl GameStore {
    /// `(a <= b, a >= b)` for values of any size, within `work_limit` steps.
    pub fn compare_values(
        &mut self,
        a: &Value,
        b: &Value,
        work_limit: u64,
    ) -> Result<(bool, bool), ParseError> {
        self.with_work_limit(work_limit, |store| {
            let mut e = Evaluator {
                store,
                games: &[],
                bounds: HashMap::new(),
                deepening: false,
            };
            e.compare(a, b, 0).map_err(|e| e.locate(""))
        })
    }

    /// `-v`.
    pub fn negate_value(&mut self, v: &Value) -> Value {
        Value {
            game: self.neg(v.game),
            shift: -&v.shift,
        }
    }
}

/// Builds the games of a syntax tree, keeping every intermediate result in bounds.
struct Evaluator<'a> {
    store: &'a mut GameStore,
    games: &'a [GameId],
    /// Memo of [`Evaluator::number_bounds`].
    bounds: HashMap<GameId, (u32, u32)>,
    /// Whether an operation that builds deep games was used (ordinal sums,
    /// heating, multiples, …): then the result must print within the nesting
    /// the parser reads.
    deepening: bool,
}

/// Bits of the largest integer part of a number (and its neighbours).
fn number_bits(x: Dyadic) -> u32 {
    let int = x.floor().unsigned_abs().max(x.ceil().unsigned_abs()) + 1;
    64 - int.leading_zeros()
}

/// The most bits the numerator and denominator of a number computed exactly
/// may hold together.
const MAX_EXACT_BITS: u64 = 1 << 16;

/// The exact value of an expression made of numbers alone (numbers, `-`, sums,
/// products and quotients): `None` when it holds anything else; an error for a
/// division by zero or a number too large.
fn exact(ast: &Ast) -> Option<Result<Rational, ParseError>> {
    let at = ast.at;
    let checked = |r: Rational| {
        if r.bits() > MAX_EXACT_BITS {
            Err(error(at, "number too large (more than 65,536 bits)"))
        } else {
            Ok(r)
        }
    };
    Some(match &ast.term {
        Term::Number(x) => Ok(Rational::from_dyadic(x)),
        Term::Neg(a) => exact(a)?.map(|r| r.neg()),
        Term::Sum(first, rest) => {
            let mut parts = Vec::with_capacity(rest.len() + 1);
            parts.push((false, exact(first)?));
            for (minus, t) in rest {
                parts.push((*minus, exact(t)?));
            }
            let mut acc: Option<Rational> = None;
            for (minus, part) in parts {
                let part = match part {
                    Ok(p) => p,
                    Err(e) => return Some(Err(e)),
                };
                let part = if minus { part.neg() } else { part };
                acc = Some(match acc {
                    None => part,
                    Some(a) => match checked(a.add(&part)) {
                        Ok(r) => r,
                        Err(e) => return Some(Err(e)),
                    },
                });
            }
            Ok(acc.expect("a sum has a first term"))
        }
        Term::Product(a, b) => {
            let (x, y) = (exact(a)?, exact(b)?);
            x.and_then(|x| y.and_then(|y| checked(x.mul(&y))))
        }
        Term::Quotient(a, b) => {
            let (x, y) = (exact(a)?, exact(b)?);
            x.and_then(|x| {
                y.and_then(|y| {
                    x.div(&y)
                        .ok_or_else(|| error(b.at, "division by zero"))
                        .and_then(checked)
                })
            })
        }
        _ => return None,
    })
}

/// Why a number that is not dyadic cannot stand where a game is needed.
fn not_a_game(r: &Rational) -> String {
    format!(
        "{r} is a number but not a game: only numbers whose denominator is a power of two \
         are short games (CGSuite keeps {r} as a rational number, which cannot be played or \
         added to a game)"
    )
}

/// Refuses, before any work, a number that is not dyadic (`1/3`) where a game
/// is needed: in an expression that is not made of numbers alone (a
/// comparison of two numbers is, side by side). A division by zero is refused
/// here too.
pub(crate) fn check_numbers(root: &Ast, rhs: Option<&Ast>) -> Result<(), ParseError> {
    let numbers = |a: &Ast| exact(a).is_some();
    match rhs {
        None if numbers(root) => return Ok(()),
        Some(r) if numbers(root) && numbers(r) => return Ok(()),
        _ => {}
    }
    in_games(root)?;
    rhs.map_or(Ok(()), in_games)
}

/// [`check_numbers`] within a game's expression.
pub(crate) fn in_games(ast: &Ast) -> Result<(), ParseError> {
    if divides(ast) {
        if let Some(r) = exact(ast) {
            let r = r?;
            return match r.to_dyadic() {
                Some(_) => Ok(()),
                None => Err(error(ast.at, not_a_game(&r))),
            };
        }
    }
    match &ast.term {
        Term::Neg(a) => in_games(a),
        Term::Suffixed { base, .. } => in_games(base),
        Term::Sum(first, rest) => {
            in_games(first)?;
            rest.iter().try_for_each(|(_, t)| in_games(t))
        }
        Term::Product(a, b) | Term::Quotient(a, b) | Term::Ordinal(a, b) => {
            in_games(a)?;
            in_games(b)
        }
        Term::Braces(left, right) => left.iter().chain(right).try_for_each(in_games),
        Term::PlusMinus(games) | Term::Call(_, games) => games.iter().try_for_each(in_games),
        _ => Ok(()),
    }
}

/// Whether an expression's tree holds a quotient `a / b`.
fn divides(ast: &Ast) -> bool {
    match &ast.term {
        Term::Quotient(..) => true,
        Term::Neg(a) | Term::Product(a, _) if divides(a) => true,
        Term::Product(_, b) => divides(b),
        Term::Sum(first, rest) => divides(first) || rest.iter().any(|(_, t)| divides(t)),
        _ => false,
    }
}

fn error(at: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        position: at,
        character: 0,
        message: message.into(),
        work_limit: None,
    }
}

fn operation_error(at: usize) -> impl Fn(OperationError) -> ParseError {
    move |e| match e {
        OperationError::Work(w) => ParseError {
            position: at,
            character: 0,
            message: w.to_string(),
            work_limit: Some(w),
        },
        e => error(at, e.to_string()),
    }
}

/// The shift as a number of the arena, when it is one.
fn arena_number(x: &BigDyadic) -> Option<Dyadic> {
    x.to_dyadic()
        .filter(|d| number_bits(*d) <= MAX_NUMBER_BITS && d.exponent() <= MAX_EXPONENT)
}

impl Evaluator<'_> {
    fn eval(&mut self, ast: &Ast) -> Result<Value, ParseError> {
        let at = ast.at;
        // Numbers divided (`3 / 4 * 6`): computed exactly, a game when dyadic.
        if matches!(
            ast.term,
            Term::Quotient(..) | Term::Product(..) | Term::Sum(..) | Term::Neg(..)
        ) && divides(ast)
        {
            if let Some(r) = exact(ast) {
                let r = r?;
                let Some(x) = r.to_dyadic() else {
                    return Err(error(at, not_a_game(&r)));
                };
                return self.value(GameId::ZERO, x, at);
            }
        }
        match &ast.term {
            Term::Number(x) => self.value(GameId::ZERO, x.clone(), at),
            Term::Given(k) => Ok(Value::of(self.games[*k])),
            Term::Braces(left, right) => {
                let mut l = Vec::with_capacity(left.len());
                for o in left {
                    l.push(self.eval(o)?);
                }
                let mut r = Vec::with_capacity(right.len());
                for o in right {
                    r.push(self.eval(o)?);
                }
                self.braces(&l, &r, at)
            }
            Term::Uptimal(u) => {
                if let Some(&d) = u.digits.first() {
                    self.check_ups(d, at)?;
                }
                let g = self.limited(at, |s| s.try_from_uptimal(u))?;
                let g = self.guard(g, at)?;
                Ok(Value::of(g))
            }
            Term::Suffixed { base, ups, star } => {
                let mut acc = self.eval(base)?;
                if let Some((ups, at)) = *ups {
                    let term = match ups.kind {
                        UpsKind::Power(n) => self.limited(at, |s| s.try_up_power(n))?,
                        UpsKind::PowerSum(n) => self.limited(at, |s| s.try_up_power_sum(n))?,
                        UpsKind::Multiple(n) => {
                            self.limited(at, |s| s.try_number_up_star(Dyadic::ZERO, n, 0))?
                        }
                    };
                    let term = if ups.negative {
                        self.store.neg(term)
                    } else {
                        term
                    };
                    acc = self.add(&acc, &Value::of(term), at)?;
                }
                if let Some((m, at)) = *star {
                    let nim = self.limited(at, |s| s.try_number_up_star(Dyadic::ZERO, 0, m))?;
                    acc = self.add(&acc, &Value::of(nim), at)?;
                }
                Ok(acc)
            }
            Term::Neg(g) => {
                let g = self.eval(g)?;
                Ok(self.neg(&g))
            }
            Term::PlusMinus(games) => {
                let mut l = Vec::with_capacity(games.len());
                for g in games {
                    l.push(self.eval(g)?);
                }
                let r: Vec<Value> = l.iter().map(|v| self.neg(v)).collect();
                self.braces(&l, &r, at)
            }
            Term::Sum(first, rest) => {
                let mut acc = self.eval(first)?;
                for (minus, term) in rest {
                    let t = self.eval(term)?;
                    let t = if *minus { self.neg(&t) } else { t };
                    acc = self.add(&acc, &t, term.at)?;
                }
                Ok(acc)
            }
            Term::Product(a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                let p = self.product(&x, &y, at)?;
                self.shallow(p, at)
            }
            Term::Quotient(a, b) => {
                // Not numbers alone (those were computed above).
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                let which = if self.as_number(&x).is_none() { a } else { b };
                let _ = y;
                Err(error(
                    which.at,
                    "`/` divides numbers, and this is a game that is not a number \
                     (CGSuite divides numbers only; a game can be multiplied by an \
                     integer, `n * G`)",
                ))
            }
            Term::Ordinal(a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                let (g, h) = (
                    self.arena(&x, a.at, "an ordinal sum")?,
                    self.arena(&y, b.at, "an ordinal sum")?,
                );
                let r = self
                    .store
                    .try_ordinal_sum(g, h)
                    .map_err(operation_error(at))?;
                let r = Value::of(self.guard(r, at)?);
                self.shallow(r, at)
            }
            Term::Call(f, args) => {
                let r = self.call(*f, args, at)?;
                self.shallow(r, at)
            }
        }
    }

    /// `game + shift` in the invariant form of [`Value`]: the number part of a
    /// game `x + n·↑ + *m` moved into the shift, and the whole put back in the
    /// arena when it fits.
    fn value(&mut self, game: GameId, shift: BigDyadic, at: usize) -> Result<Value, ParseError> {
        if shift.is_zero() {
            return Ok(Value::of(game));
        }
        let (mut game, mut shift) = (game, shift);
        if let Kind::Simple { number, ups, star } = self.store.kind(game) {
            if number != Dyadic::ZERO {
                shift = &shift + &BigDyadic::from(number);
                game = self.limited(at, |s| s.try_number_up_star(Dyadic::ZERO, ups, star))?;
            }
        }
        if shift.is_zero() {
            return Ok(Value::of(game));
        }
        // A game that is not a number keeps its arena part near 0: an integer
        // at its left stop moves into the shift. Otherwise a nested game of
        // shifted options would carry every level's frame inside the arena,
        // doubling its numbers level by level (`^[20] - N` for a number N
        // past 64 bits printed as text that did not read back).
        if matches!(self.store.kind(game), Kind::Other) {
            let k = self.store.stops(game).0.floor();
            if k != 0 {
                let back = self.limited(at, |s| s.try_number_up_star(Dyadic::integer(-k), 0, 0))?;
                game = self.limited(at, |s| s.try_add(game, back))?;
                shift = &shift + &BigDyadic::integer(k);
            }
        }
        if let Some(x) = arena_number(&shift) {
            let fits = match self.store.kind(game) {
                Kind::Simple { .. } => true,
                Kind::Other => {
                    let (bits, exponent) = self.number_bounds(game);
                    bits.max(number_bits(x)) < MAX_NUMBER_BITS && exponent <= MAX_EXPONENT
                }
            };
            if fits {
                let n = self.limited(at, |s| s.try_number_up_star(x, 0, 0))?;
                let sum = self.limited(at, |s| s.try_add(game, n))?;
                return Ok(Value::of(self.guard(sum, at)?));
            }
        }
        Ok(Value { game, shift })
    }

    /// The number part of a value moved into its shift: `(game, shift)` with a
    /// game that has no number part when it is `x + n·↑ + *m`.
    fn split(&mut self, v: &Value, at: usize) -> Result<(GameId, BigDyadic), ParseError> {
        if let Kind::Simple { number, ups, star } = self.store.kind(v.game) {
            if number != Dyadic::ZERO {
                let g = self.limited(at, |s| s.try_number_up_star(Dyadic::ZERO, ups, star))?;
                return Ok((g, &v.shift + &BigDyadic::from(number)));
            }
        }
        Ok((v.game, v.shift.clone()))
    }

    /// The number a value is, if it is one.
    fn as_number(&self, v: &Value) -> Option<BigDyadic> {
        self.store
            .as_number(v.game)
            .map(|x| &BigDyadic::from(x) + &v.shift)
    }

    /// The game of the arena a value is, or an error naming the operation.
    fn arena(&mut self, v: &Value, at: usize, what: &str) -> Result<GameId, ParseError> {
        v.in_arena().ok_or_else(|| {
            error(
                at,
                format!(
                    "number too large for {what}: games with numbers beyond the arena \
                     (integers up to {}, denominators up to 2^{MAX_EXPONENT}) are only \
                     added, negated, multiplied, compared, cooled and put in braces",
                    crate::notation::MAX_INTEGER
                ),
            )
        })
    }

    fn neg(&mut self, v: &Value) -> Value {
        Value {
            game: self.store.neg(v.game),
            shift: -&v.shift,
        }
    }

    fn add(&mut self, a: &Value, b: &Value, at: usize) -> Result<Value, ParseError> {
        let (ga, xa) = self.split(a, at)?;
        let (gb, xb) = self.split(b, at)?;
        if let (Kind::Simple { ups: n1, .. }, Kind::Simple { ups: n2, .. }) =
            (self.store.kind(ga), self.store.kind(gb))
        {
            self.check_ups(n1 + n2, at)?;
        }
        let sum = self.limited(at, |s| s.try_add(ga, gb))?;
        let sum = self.guard(sum, at)?;
        self.value(sum, &xa + &xb, at)
    }

    /// `G <= H` and `G >= H`.
    fn compare(&mut self, a: &Value, b: &Value, at: usize) -> Result<(bool, bool), ParseError> {
        if let (Some(g), Some(h)) = (a.in_arena(), b.in_arena()) {
            let le = self.limited(at, |s| s.try_le(g, h))?;
            let ge = self.limited(at, |s| s.try_le(h, g))?;
            return Ok((le, ge));
        }
        let nb = self.neg(b);
        let d = self.add(a, &nb, at)?;
        self.store.value_signs(&d).ok_or_else(|| {
            error(
                at,
                "cannot compare: the games' numbers are too large for the game engine",
            )
        })
    }

    /// `{L | R}` of values. Without shifts, in the arena. With them: numbers alone
    /// give the simplest number between them; otherwise the options are moved
    /// into the arena by a common integer shift `s` chosen so that they all lie on
    /// one side of 0 (every stop at least 2 away), where the simplest number of an
    /// interval moves with the interval; the result is shifted back.
    fn braces(&mut self, left: &[Value], right: &[Value], at: usize) -> Result<Value, ParseError> {
        if left.iter().chain(right).all(|v| v.shift.is_zero()) {
            let l: Vec<GameId> = left.iter().map(|v| v.game).collect();
            let r: Vec<GameId> = right.iter().map(|v| v.game).collect();
            let g = self.limited(at, |s| s.try_game(&l, &r))?;
            return Ok(Value::of(self.guard(g, at)?));
        }
        // Numbers alone, left below right: the simplest number between.
        let numbers = |e: &Self, side: &[Value]| -> Option<Vec<BigDyadic>> {
            side.iter().map(|v| e.as_number(v)).collect()
        };
        if let (Some(ls), Some(rs)) = (numbers(self, left), numbers(self, right)) {
            let lo = ls.iter().max();
            let hi = rs.iter().min();
            if let Some(x) = BigDyadic::simplest_between(lo, hi) {
                return self.value(GameId::ZERO, x, at);
            }
        }
        let mut parts = Vec::with_capacity(left.len() + right.len());
        for v in left.iter().chain(right) {
            parts.push(self.split(v, at)?);
        }
        let lo = parts.iter().map(|p| &p.1).min().expect("options").clone();
        let hi = parts.iter().map(|p| &p.1).max().expect("options").clone();
        let spread = &hi - &lo;
        if spread.magnitude_bits() + 2 > u64::from(MAX_NUMBER_BITS)
            || parts
                .iter()
                .any(|p| p.1.exponent() > u64::from(MAX_EXPONENT))
        {
            return Err(error(
                at,
                format!(
                    "numbers too far apart in one game ({lo} and {hi}): the options of a \
                     game may differ by up to 2^{} and have denominators up to 2^{MAX_EXPONENT}",
                    MAX_NUMBER_BITS - 2
                ),
            ));
        }
        // The largest stop of any option's game, and 2 more.
        let mut margin = BigInt::from(2);
        for p in &parts {
            let (l, r) = self.store.stops(p.0);
            let m = l
                .floor()
                .abs()
                .max(l.ceil().abs())
                .max(r.floor().abs().max(r.ceil().abs()));
            margin = margin.max(BigInt::from(m) + 2);
        }
        let frame = if lo.signum() >= 0 {
            (lo.floor() - &margin).max(BigInt::zero())
        } else if hi.signum() <= 0 {
            (hi.ceil() + &margin).min(BigInt::zero())
        } else {
            BigInt::zero()
        };
        let frame = BigDyadic::integer(frame);
        let mut games = Vec::with_capacity(parts.len());
        for (g, x) in &parts {
            let relative = x - &frame;
            let Some(d) = arena_number(&relative) else {
                return Err(error(
                    at,
                    format!("number too large in a game's options ({x})"),
                ));
            };
            let n = self.limited(at, |s| s.try_number_up_star(d, 0, 0))?;
            let o = self.limited(at, |s| s.try_add(*g, n))?;
            games.push(self.guard(o, at)?);
        }
        let (l, r) = games.split_at(left.len());
        let g = self.limited(at, |s| s.try_game(l, r))?;
        let g = self.guard(g, at)?;
        if let Some(y) = self.store.as_number(g) {
            // Within the frame the interval lies on one side of 0 (bounded there by
            // the options of that side), so its simplest number moves with it;
            // with no option on that side it reaches 0, whose simplest number is 0.
            let unbounded =
                (frame.signum() > 0 && left.is_empty()) || (frame.signum() < 0 && right.is_empty());
            let x = if unbounded {
                BigDyadic::zero()
            } else {
                &BigDyadic::from(y) + &frame
            };
            return self.value(GameId::ZERO, x, at);
        }
        self.value(g, frame, at)
    }

    /// `a * b`: two numbers, or a game and an integer.
    fn product(&mut self, a: &Value, b: &Value, at: usize) -> Result<Value, ParseError> {
        let (x, y) = (self.as_number(a), self.as_number(b));
        if let (Some(x), Some(y)) = (&x, &y) {
            let product =
                BigDyadic::new(x.numerator() * y.numerator(), x.exponent() + y.exponent());
            if product.exponent() > 1 << 16 || product.magnitude_bits() > 1 << 16 {
                return Err(error(at, "number too large (more than 65,536 bits)"));
            }
            return self.value(GameId::ZERO, product, at);
        }
        let (n, g) = match (x, y) {
            (Some(n), _) if n.is_integer() => (n, b),
            (_, Some(n)) if n.is_integer() => (n, a),
            _ => {
                return Err(error(
                    at,
                    "`*` multiplies a game by an integer (`n * G`, n copies of G) or two \
                     numbers; a game that is not a number times a fraction is not defined \
                     (CGSuite refuses it too); `3*5` without spaces is 3 + *5",
                ))
            }
        };
        let n = n.numerator().clone();
        let (game, shift) = self.split(g, at)?;
        let shift = shift.mul_int(&n);
        if game == GameId::ZERO || n.is_zero() {
            return self.value(GameId::ZERO, shift, at);
        }
        let Some(k) = n.to_i64().filter(|k| k.abs() <= MAX_MULTIPLIER) else {
            return Err(error(
                at,
                format!("multiplier too large for a game that is not a number (at most {MAX_MULTIPLIER})"),
            ));
        };
        if let Kind::Simple { ups, .. } = self.store.kind(game) {
            self.check_ups(ups.saturating_mul(k), at)?;
        }
        let m = self.limited(at, |s| s.try_multiple(game, k))?;
        let m = self.guard(m, at)?;
        self.value(m, shift, at)
    }

    /// A number argument of a function.
    fn number_argument(&mut self, ast: &Ast, what: &str) -> Result<BigDyadic, ParseError> {
        let v = self.eval(ast)?;
        self.as_number(&v)
            .ok_or_else(|| error(ast.at, format!("{what} must be a number")))
    }

    fn call(&mut self, f: Function, args: &[Ast], at: usize) -> Result<Value, ParseError> {
        let v = self.eval(&args[0])?;
        match f {
            Function::Cool => {
                let t = self.number_argument(&args[1], "the temperature to cool by")?;
                if t.signum() < 0 {
                    return Err(error(
                        args[1].at,
                        format!("cooling is by a number t >= 0 (here t = {t})"),
                    ));
                }
                let (game, shift) = (v.game, v.shift.clone());
                let cooled = match arena_number(&t) {
                    Some(t) => {
                        let t = self.limited(at, |s| s.try_number_up_star(t, 0, 0))?;
                        self.store.try_cool(game, t).map_err(operation_error(at))?
                    }
                    // Beyond every temperature in the arena: the mean.
                    None => {
                        let mean = self.store.mean(game);
                        self.limited(at, |s| s.try_number_up_star(mean, 0, 0))?
                    }
                };
                let cooled = self.guard(cooled, at)?;
                self.value(cooled, shift, at)
            }
            Function::Heat => {
                let g = self.arena(&v, args[0].at, "heating")?;
                let t = self.eval(&args[1])?;
                let t = self.arena(&t, args[1].at, "heating")?;
                let r = self.store.try_heat(g, t).map_err(operation_error(at))?;
                Ok(Value::of(self.guard(r, at)?))
            }
            Function::Overheat => {
                let g = self.arena(&v, args[0].at, "overheating")?;
                let s = self.eval(&args[1])?;
                let s = self.arena(&s, args[1].at, "overheating")?;
                let t = self.eval(&args[2])?;
                let t = self.arena(&t, args[2].at, "overheating")?;
                let r = self
                    .store
                    .try_overheat(g, s, t)
                    .map_err(operation_error(at))?;
                Ok(Value::of(self.guard(r, at)?))
            }
            Function::AtomicWeight => {
                let Some(g) = v.in_arena() else {
                    return Err(operation_error(at)(OperationError::NotAllSmall));
                };
                let r = self
                    .store
                    .try_atomic_weight(g)
                    .map_err(operation_error(at))?;
                Ok(Value::of(self.guard(r, at)?))
            }
            Function::Mean => {
                let m = self.store.value_mean(&v);
                self.value(GameId::ZERO, m, at)
            }
            Function::Temperature => {
                let t = self.store.value_temperature(&v);
                self.value(GameId::ZERO, t, at)
            }
            Function::LeftStop | Function::RightStop => {
                let (l, r) = self.store.value_stops(&v);
                let x = if f == Function::LeftStop { l } else { r };
                self.value(GameId::ZERO, x, at)
            }
            Function::Birthday => {
                let b = self.store.value_birthday(&v);
                self.value(GameId::ZERO, BigDyadic::integer(b), at)
            }
            Function::Tiny | Function::Miny => {
                // Tiny(G) = {0 || 0 | -G}, Miny(G) = {G | 0 || 0}.
                let zero = Value::of(GameId::ZERO);
                if f == Function::Tiny {
                    let minus = self.neg(&v);
                    let inner = self.braces(std::slice::from_ref(&zero), &[minus], at)?;
                    self.braces(std::slice::from_ref(&zero), &[inner], at)
                } else {
                    let inner = self.braces(&[v], std::slice::from_ref(&zero), at)?;
                    self.braces(&[inner], &[zero], at)
                }
            }
        }
    }

    /// Runs a store operation, its work limit reported at `at`.
    fn limited<T>(
        &mut self,
        at: usize,
        f: impl FnOnce(&mut GameStore) -> Result<T, WorkLimit>,
    ) -> Result<T, ParseError> {
        f(self.store).map_err(|e| ParseError {
            position: at,
            character: 0,
            message: e.to_string(),
            work_limit: Some(e),
        })
    }

    /// Refuses numbers with more than [`MAX_NUMBER_BITS`] bits or a denominator
    /// beyond `2^`[`MAX_EXPONENT`].
    fn check_number(&self, bits: u32, exponent: u32, at: usize) -> Result<(), ParseError> {
        let message = if bits > MAX_NUMBER_BITS {
            format!(
                "number too large inside a game (numbers in a game's options must stay \
                 below 2^{MAX_NUMBER_BITS}, unless the game is a number plus a game within \
                 them)"
            )
        } else if exponent > MAX_EXPONENT {
            format!("number too fine (denominators must stay at most 2^{MAX_EXPONENT})")
        } else {
            return Ok(());
        };
        Err(error(at, message))
    }

    fn check_ups(&self, n: i64, at: usize) -> Result<(), ParseError> {
        if n.abs() > MAX_UPS {
            return Err(error(
                at,
                format!("too many ups in a result (at most {MAX_UPS} times ↑ or ↓)"),
            ));
        }
        Ok(())
    }

    /// `(bits of the largest |integer part|, largest exponent)` over every number
    /// that is a subgame of `g`, bottom-up over the subgames not seen before.
    fn number_bounds(&mut self, g: GameId) -> (u32, u32) {
        let mut stack = vec![(g, false)];
        while let Some((h, expanded)) = stack.pop() {
            if self.bounds.contains_key(&h) {
                continue;
            }
            if let Kind::Simple { number, .. } = self.store.kind(h) {
                // Every number inside x + n·↑ + *m lies within 1 of x, with a
                // denominator dividing x's (no need to walk the options: the
                // canonical form of the integer n is n levels deep).
                self.bounds
                    .insert(h, (number_bits(number), number.exponent()));
                continue;
            }
            let options = self
                .store
                .left_options(h)
                .iter()
                .chain(self.store.right_options(h));
            if !expanded {
                stack.push((h, true));
                stack.extend(
                    options
                        .filter(|o| !self.bounds.contains_key(o))
                        .map(|&o| (o, false)),
                );
                continue;
            }
            let b = options.fold((0, 0), |b, o| {
                let ob = self.bounds[o];
                (b.0.max(ob.0), b.1.max(ob.1))
            });
            self.bounds.insert(h, b);
        }
        self.bounds[&g]
    }

    /// Refuses a result of the operations that build deep games (ordinal sums,
    /// heating, multiples, …) whose printed text would nest deeper than the
    /// parser reads: whatever is read prints as text that reads back.
    fn shallow(&mut self, v: Value, at: usize) -> Result<Value, ParseError> {
        self.deepening = true;
        let depth = self.store.printed_depth_shifted(v.game, Some(&v.shift));
        if depth > crate::notation::MAX_DEPTH {
            return Err(error(
                at,
                format!(
                    "the result nests {depth} levels of braces deep when printed, more than \
                     the {} this notation reads",
                    crate::notation::MAX_DEPTH
                ),
            ));
        }
        Ok(v)
    }

    /// Refuses a result whose numbers are too large or too fine for further
    /// arithmetic to stay exact, or whose multiple of ↑ is too large.
    fn guard(&mut self, g: GameId, at: usize) -> Result<GameId, ParseError> {
        let (bits, exponent) = self.number_bounds(g);
        self.check_number(bits, exponent, at)?;
        if let Kind::Simple { ups, .. } = self.store.kind(g) {
            self.check_ups(ups, at)?;
        }
        Ok(g)
    }
}
