//! CGSuite-style plain-text notation: parsing, printing, and McKay's
//! uptimal digit form.
//!
//! Reading text has two phases. [`Expression::parse`] reads the whole text into a
//! syntax tree, checking the syntax, the size of every literal and the nesting
//! depth, without building any game; only then does [`GameStore::evaluate`] build
//! the games, within a work limit ([`MAX_WORK`] by default) and with every number
//! of every intermediate result kept in bounds. A syntax error is therefore found
//! at once, however much work the text before it would have asked for.

use std::collections::HashMap;

use crate::dyadic::Dyadic;
use crate::store::{GameId, GameStore, Kind, WorkLimit};
use std::fmt;

/// Error returned by [`Expression::parse`], [`GameStore::parse`] and
/// [`GameStore::evaluate`]: a syntax error, a literal or a result beyond the
/// bounds, or the work limit reached.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at byte {position}: {message}")]
pub struct ParseError {
    /// Byte offset in the input where the problem was found.
    pub position: usize,
    /// What went wrong.
    pub message: String,
    /// The work limit, when the evaluation stopped there ([`GameStore::evaluate`]).
    pub work_limit: Option<WorkLimit>,
}

/// An uptimal in McKay's digit form: `.d1 d2 … dk` (+ `*m`), meaning
/// `d1·↑ + d2·↑^2 + … + dk·↑^k + *m` with `↑^n` the up-nth powers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Uptimal {
    /// Digits `d1, …, dk`; empty for a nimber. The last digit is non-zero.
    pub digits: Vec<i64>,
    /// The nimber part `m` of `*m`.
    pub star: u32,
}

impl fmt::Display for Uptimal {
    /// `.22*`, `.1`, `.01`, `.2(-1)*2`, and `.0` / `.0*` when there are no
    /// digits. Digits outside 0..=9 are written in parentheses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(".")?;
        if self.digits.is_empty() {
            f.write_str("0")?;
        }
        for d in &self.digits {
            if (0..=9).contains(d) {
                write!(f, "{d}")?;
            } else {
                write!(f, "({d})")?;
            }
        }
        match self.star {
            0 => Ok(()),
            1 => f.write_str("*"),
            m => write!(f, "*{m}"),
        }
    }
}

/// `↑^<k>` and `↑^[k]` are printed by name for `k` up to this bound.
const NAMED_POWERS: u32 = 4;

fn star_suffix(m: u32) -> String {
    match m {
        0 => String::new(),
        1 => "*".to_string(),
        m => format!("*{m}"),
    }
}

fn ups_text(n: i64) -> String {
    match n {
        0 => String::new(),
        1 => "^".into(),
        2 => "^^".into(),
        -1 => "v".into(),
        -2 => "vv".into(),
        n if n > 0 => format!("^{n}"),
        n => format!("v{}", -n),
    }
}

/// How a game prints: a text of its own, `±G`, or braces around its options.
enum Shape {
    Text(String),
    PlusMinus(GameId),
    Braces,
}

/// The order of options in print: numbers by value, then games `x + n·↑ + *m`
/// by `(x, n, m)`, then the others by birthday (and then by text).
type OptionKey = (u8, Dyadic, i64, u32);

impl GameStore {
    /// Like [`GameStore::format`], but `None` when the text could be longer than
    /// `max_chars` (games with many distinct subgames print exponentially long).
    pub fn format_within(&mut self, g: GameId, max_chars: u64) -> Option<String> {
        (self.printed_length_bound(g, max_chars) <= max_chars).then(|| self.format(g))
    }

    /// An upper bound on the length of `format(g)`, saturating just above `cap`:
    /// short forms (numbers, ups, nimbers) count 32, others `{…|…}` around their
    /// options. Computed bottom-up over the distinct subgames (no recursion).
    pub fn printed_length_bound(&self, g: GameId, cap: u64) -> u64 {
        let mut memo: HashMap<GameId, u64> = HashMap::new();
        let mut stack = vec![(g, false)];
        while let Some((h, expanded)) = stack.pop() {
            if memo.contains_key(&h) {
                continue;
            }
            let options = self.left_options(h).iter().chain(self.right_options(h));
            if matches!(self.kind(h), Kind::Simple { .. }) {
                memo.insert(h, 32);
            } else if !expanded {
                stack.push((h, true));
                stack.extend(
                    options
                        .filter(|o| !memo.contains_key(o))
                        .map(|&o| (o, false)),
                );
            } else {
                let mut total: u64 = 32;
                for o in options {
                    total = total.saturating_add(memo[o] + 1);
                    if total > cap {
                        break;
                    }
                }
                memo.insert(h, total.min(cap + 1));
            }
        }
        memo[&g]
    }

    /// Print `g` in CGSuite-like notation (see the crate documentation for
    /// the conventions). Parsing the result gives back `g`.
    ///
    /// The text is built bottom-up over the distinct subgames (no recursion), and
    /// each subgame's text is dropped once every game using it is printed.
    pub fn format(&mut self, g: GameId) -> String {
        // The subgames to print, options before the games using them, and how many
        // times each is used.
        let mut shapes: HashMap<GameId, Shape> = HashMap::new();
        let mut uses: HashMap<GameId, usize> = HashMap::new();
        let mut order = Vec::new();
        let mut stack = vec![(g, false)];
        while let Some((h, expanded)) = stack.pop() {
            if expanded {
                order.push(h);
                continue;
            }
            if shapes.contains_key(&h) {
                continue;
            }
            let shape = self.shape(h);
            let children: Vec<GameId> = match shape {
                Shape::Text(_) => Vec::new(),
                Shape::PlusMinus(a) => vec![a],
                Shape::Braces => self
                    .left_options(h)
                    .iter()
                    .chain(self.right_options(h))
                    .copied()
                    .collect(),
            };
            shapes.insert(h, shape);
            stack.push((h, true));
            for c in children {
                *uses.entry(c).or_insert(0) += 1;
                if !shapes.contains_key(&c) {
                    stack.push((c, false));
                }
            }
        }
        let mut texts: HashMap<GameId, String> = HashMap::new();
        // The text of an option, given up when its last user has it.
        let mut take = |texts: &mut HashMap<GameId, String>, c: GameId| -> String {
            let left = uses.get_mut(&c).expect("counted");
            *left -= 1;
            if *left == 0 {
                texts.remove(&c).expect("printed before its users")
            } else {
                texts[&c].clone()
            }
        };
        for h in order {
            let text = match shapes.remove(&h).expect("shaped") {
                Shape::Text(t) => t,
                Shape::PlusMinus(a) => {
                    let inner = take(&mut texts, a);
                    if inner.starts_with('-') || inner.contains('+') {
                        format!("+-({inner})")
                    } else {
                        format!("+-{inner}")
                    }
                }
                Shape::Braces => {
                    let mut sides = [String::new(), String::new()];
                    for (i, side) in sides.iter_mut().enumerate() {
                        let list = if i == 0 {
                            self.left_options(h)
                        } else {
                            self.right_options(h)
                        };
                        let mut keyed: Vec<(OptionKey, String)> = list
                            .iter()
                            .map(|&o| (self.option_key(o), take(&mut texts, o)))
                            .collect();
                        keyed.sort();
                        let parts: Vec<String> = keyed.into_iter().map(|k| k.1).collect();
                        *side = parts.join(",");
                    }
                    format!("{{{}|{}}}", sides[0], sides[1])
                }
            };
            texts.insert(h, text);
        }
        texts.remove(&g).unwrap_or_default()
    }

    /// How `g` prints, without looking further than its options.
    fn shape(&mut self, g: GameId) -> Shape {
        if let Kind::Simple { number, ups, star } = self.kind(g) {
            let mut s = String::new();
            if number != Dyadic::ZERO || (ups == 0 && star == 0) {
                s.push_str(&number.to_string());
            }
            s.push_str(&ups_text(ups));
            s.push_str(&star_suffix(star));
            return Shape::Text(s);
        }
        if let Some(k) = self.up_sum_order(g) {
            return Shape::Text(if k > 0 {
                format!("^[{k}]")
            } else {
                format!("v[{}]", -k)
            });
        }
        if let Some(name) = self.name_of(g) {
            return Shape::Text(name);
        }
        if let (&[a], &[b]) = (self.left_options(g), self.right_options(g)) {
            if self.neg(a) == b {
                return Shape::PlusMinus(a);
            }
        }
        Shape::Braces
    }

    /// Where an option goes in print (options are printed in an order independent
    /// of ids, so that equal games print identically in every store).
    fn option_key(&self, o: GameId) -> OptionKey {
        match self.kind(o) {
            Kind::Simple {
                number,
                ups: 0,
                star: 0,
            } => (0, number, 0, 0),
            Kind::Simple { number, ups, star } => (1, number, ups, star),
            Kind::Other => (2, Dyadic::integer(i64::from(self.birthday(o))), 0, 0),
        }
    }

    /// `Some(k)` when `g = ↑^[k]` (`k ≥ 2`), `Some(-k)` when `g = ↓^[k]`, read
    /// from the canonical forms `↑^[k] = {↑^[k-1] | *}` and `↓^[k] = {* | ↓^[k-1]}`
    /// (with `↑^[1] = ↑`), without building anything.
    fn up_sum_order(&self, g: GameId) -> Option<i64> {
        let is_star = |s: &Self, h: GameId| s.as_nimber(h) == Some(1);
        let unit = |s: &Self, h: GameId| match s.kind(h) {
            Kind::Simple {
                number,
                ups,
                star: 0,
            } if number == Dyadic::ZERO && ups.abs() == 1 => Some(ups),
            _ => None,
        };
        let mut k: i64 = 0;
        let mut sign = 0;
        let mut h = g;
        loop {
            if k > 0 {
                if let Some(u) = unit(self, h) {
                    return (u == sign).then_some(sign * (k + 1));
                }
            }
            let (l, r) = (self.left_options(h), self.right_options(h));
            let (&[a], &[b]) = (l, r) else { return None };
            let (next, s) = if is_star(self, b) {
                (a, 1)
            } else if is_star(self, a) {
                (b, -1)
            } else {
                return None;
            };
            if sign != 0 && s != sign {
                return None;
            }
            sign = s;
            k += 1;
            h = next;
        }
    }

    /// The CGSuite name of `g` when it is `±↑^<k>` or `±↑^[k]` (`2 ≤ k ≤`
    /// [`NAMED_POWERS`]), possibly plus `*`: `^<3>`, `v[2]*`, …
    fn name_of(&mut self, g: GameId) -> Option<String> {
        if self.named.is_none() {
            let mut named = Vec::new();
            for k in 2..=NAMED_POWERS {
                let star = self.star();
                let power = self.up_power(k);
                let sum = self.up_power_sum(k);
                for (base, text) in [(power, format!("<{k}>")), (sum, format!("[{k}]"))] {
                    let neg = self.neg(base);
                    for (game, sign) in [(base, '^'), (neg, 'v')] {
                        let starred = self.add(game, star);
                        named.push((game, format!("{sign}{text}")));
                        named.push((starred, format!("{sign}{text}*")));
                    }
                }
            }
            self.named = Some(named);
        }
        let named = self.named.as_ref().expect("built above");
        named
            .iter()
            .find(|(id, _)| *id == g)
            .map(|(_, t)| t.clone())
    }

    /// Parse a game written in CGSuite-like notation (see the crate
    /// documentation for the accepted grammar): [`Expression::parse`], then
    /// [`GameStore::evaluate`].
    ///
    /// Input is bounded so that no text can make the engine overflow or run away:
    /// numbers up to [`MAX_INTEGER`] in absolute value with denominators up to
    /// `2^`[`MAX_EXPONENT`], nimbers up to `*`[`MAX_NIMBER`], multiples of ↑ up to
    /// [`MAX_UPS`], powers of ↑ up to [`MAX_POWER`], nesting up to [`MAX_DEPTH`]
    /// levels; the same bounds hold for every intermediate result (checked before
    /// a result of the form `x + n·↑ + *m` is built), and the whole evaluation may
    /// take at most [`MAX_WORK`] steps. Beyond these the parser returns an error
    /// (it never panics).
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
    /// [`GameStore::set_work_limit`]).
    pub fn evaluate_within(
        &mut self,
        expression: &Expression,
        games: &[GameId],
        work_limit: u64,
    ) -> Result<GameId, ParseError> {
        if let Some((k, at)) = expression.largest_given {
            if k >= games.len() {
                return Err(ParseError {
                    position: at,
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
            };
            e.eval(&expression.root)
        })
    }

    /// The uptimal form of `g` as text (`.22*`), when `g` is an uptimal.
    pub fn to_uptimal(&mut self, g: GameId) -> Option<String> {
        self.uptimal(g).map(|u| u.to_string())
    }

    /// [`GameStore::to_uptimal`] within the work limit.
    pub fn try_to_uptimal(&mut self, g: GameId) -> Result<Option<String>, WorkLimit> {
        Ok(self.try_uptimal(g)?.map(|u| u.to_string()))
    }

    /// Decompose `g` as `d1·↑ + d2·↑^2 + … + dk·↑^k + *m` when possible.
    ///
    /// Method: `g + *m` must be a pure uptimal `h` for some `m` (tried in
    /// the order 0, 1, 2, …, up to a bound from the birthday). The digits
    /// of `h` are found level by level: a pure uptimal is positive exactly
    /// when its leading non-zero digit is, so `d ↦ h - d·↑^i` changes sign
    /// around the digit; when two candidates `a < a + 1` remain,
    /// `X = h - a·↑^i` is the remainder `R ≪ ↑^i` (so `2X < ↑^i`) when the
    /// digit is `a`, and `↑^i + R` with `R < 0` (so `2X > ↑^i`) when it is
    /// `a + 1`. The decomposition is accepted only if the remainder reaches
    /// exactly 0, so a `Some` answer is always correct; the search bounds
    /// (digits and nimbers at most `2·birthday + 4`, at most
    /// [`MAX_UPTIMAL_DIGITS`] digits and nimbers up to `*`[`MAX_NIMBER`]) only
    /// limit completeness.
    pub fn uptimal(&mut self, g: GameId) -> Option<Uptimal> {
        self.with_work_limit(u64::MAX, |s| s.try_uptimal(g))
            .unwrap_or(None)
    }

    /// [`GameStore::uptimal`] within the work limit.
    pub fn try_uptimal(&mut self, g: GameId) -> Result<Option<Uptimal>, WorkLimit> {
        if self.stops(g) != (Dyadic::ZERO, Dyadic::ZERO) {
            return Ok(None);
        }
        let bound = 2 * i64::from(self.birthday(g)) + 4;
        let stars = bound.min(i64::from(MAX_NIMBER)) as u32;
        for m in 0..=stars {
            let nim = self.try_number_up_star(Dyadic::ZERO, 0, m)?;
            let h = self.try_add(g, nim)?;
            if let Some(digits) = self.pure_uptimal_digits(h, bound)? {
                return Ok(Some(Uptimal { digits, star: m }));
            }
        }
        Ok(None)
    }

    /// Sign of `g` when comparable with 0.
    fn sign(&mut self, g: GameId) -> Result<Option<std::cmp::Ordering>, WorkLimit> {
        use std::cmp::Ordering::*;
        Ok(
            match (self.try_le(GameId::ZERO, g)?, self.try_le(g, GameId::ZERO)?) {
                (true, true) => Some(Equal),
                (true, false) => Some(Greater),
                (false, true) => Some(Less),
                (false, false) => None,
            },
        )
    }

    fn pure_uptimal_digits(
        &mut self,
        h: GameId,
        bound: i64,
    ) -> Result<Option<Vec<i64>>, WorkLimit> {
        use std::cmp::Ordering::*;
        let mut digits = Vec::new();
        let mut residual = h;
        let levels = bound.min(i64::from(MAX_UPTIMAL_DIGITS)) as u32;
        for level in 1..=levels {
            if residual == GameId::ZERO {
                break;
            }
            let p = self.try_up_power(level)?;
            let flip = match self.sign(residual)? {
                None => return Ok(None),
                Some(Equal) => break,
                Some(Greater) => false,
                Some(Less) => true,
            };
            // Work with a positive residual r; the digit is negated back.
            let r = if flip { self.neg(residual) } else { residual };
            let neg_p = self.neg(p);
            // Largest a >= 0 with r - a·p > 0.
            let mut a = 0i64;
            let mut x = r; // r - a·p
            loop {
                let next = self.try_add(x, neg_p)?; // r - (a+1)·p
                match self.sign(next)? {
                    None => return Ok(None),
                    Some(Greater) => {
                        a += 1;
                        x = next;
                        if a > bound {
                            return Ok(None);
                        }
                    }
                    Some(Equal) => {
                        a += 1;
                        x = next;
                        break;
                    }
                    Some(Less) => {
                        // Digit is a or a + 1: decide by the sign of p - 2x.
                        let two_x = self.try_add(x, x)?;
                        let neg_two_x = self.neg(two_x);
                        let test = self.try_add(p, neg_two_x)?;
                        match self.sign(test)? {
                            None => return Ok(None),
                            Some(Greater) => {}
                            Some(_) => {
                                a += 1;
                                x = next;
                            }
                        }
                        break;
                    }
                }
            }
            let digit = if flip { -a } else { a };
            digits.push(digit);
            residual = if flip { self.neg(x) } else { x };
        }
        if residual != GameId::ZERO {
            return Ok(None);
        }
        while digits.last() == Some(&0) {
            digits.pop();
        }
        Ok(Some(digits))
    }

    /// The game denoted by an uptimal.
    pub fn from_uptimal(&mut self, u: &Uptimal) -> GameId {
        self.with_work_limit(u64::MAX, |s| s.try_from_uptimal(u))
            .expect("no work limit")
    }

    /// [`GameStore::from_uptimal`] within the work limit.
    pub fn try_from_uptimal(&mut self, u: &Uptimal) -> Result<GameId, WorkLimit> {
        let mut acc = self.try_number_up_star(Dyadic::ZERO, 0, u.star)?;
        for (i, d) in u.digits.iter().enumerate() {
            let level = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let p = self.try_up_power(level)?;
            let term = self.try_multiple(p, *d)?;
            acc = self.try_add(acc, term)?;
        }
        Ok(acc)
    }
}

// The bounds below hold for what is written and for every intermediate result
// alike, so that whatever the parser builds prints as text it reads back.

/// Every number, written or computed, has `|x| + 1 < 2^MAX_NUMBER_BITS` (sums of
/// such numbers stay far from overflowing the [`Dyadic`] arithmetic).
pub const MAX_NUMBER_BITS: u32 = 20;
/// The largest integer, written or computed (`2^20 - 2`).
pub const MAX_INTEGER: i64 = (1 << MAX_NUMBER_BITS) - 2;
/// The largest `k` of a denominator `2^k`, written or computed.
pub const MAX_EXPONENT: u32 = 40;
/// The largest nimber `*m`, written or computed (`2^11 - 1`: sums of nimbers stay
/// below it; `*m` has `m` options and `x + *m` about `m²` option entries).
pub const MAX_NIMBER: u32 = 2047;
/// The largest multiple `n` of ↑ or ↓, written (`^n`, `vn`, `^^…^`, an uptimal
/// digit `(k)`) or computed (`n·↑` is a chain of `n` games).
pub const MAX_UPS: i64 = 1 << 16;
/// The largest `n` in `^<n>` and `^[n]`.
pub const MAX_POWER: u32 = 64;
/// Most levels of nesting: each parenthesis, pair of braces, negation `-` and
/// `+-` opens one, and so does each longer run of bars in `{a|b||c}`.
pub const MAX_DEPTH: u32 = 64;
/// Most digits of an uptimal `.d1d2…dk`, in a literal and in
/// [`GameStore::uptimal`].
pub const MAX_UPTIMAL_DIGITS: u32 = 64;
/// The most steps of game arithmetic one evaluation may take by default
/// ([`GameStore::evaluate`]; a step is one comparison, sum or option handled, see
/// [`GameStore::set_work_limit`]): a few seconds, and a few hundred MB at most.
pub const MAX_WORK: u64 = 1 << 25;

/// A text in CGSuite notation, read and checked ([`Expression::parse`]) but not
/// evaluated: reading builds no game, so every syntax error, literal out of bounds
/// or nesting too deep is found before any work. [`GameStore::evaluate`] gives its
/// value.
#[derive(Clone, Debug)]
pub struct Expression {
    root: Ast,
    /// The largest `#k` and where it is written.
    largest_given: Option<(usize, usize)>,
}

/// A node of the syntax tree, with the byte offset where it starts.
#[derive(Clone, Debug)]
struct Ast {
    at: usize,
    term: Term,
}

#[derive(Clone, Debug)]
enum Term {
    /// A number literal (its sign included).
    Number(Dyadic),
    /// `#k`.
    Given(usize),
    /// `{L | R}` (bars already resolved).
    Braces(Vec<Ast>, Vec<Ast>),
    /// `.d1d2…dk*m`.
    Uptimal(Uptimal),
    /// A game followed by an ups suffix and/or a star suffix: `1/2^*`, `{0|*}v*2`.
    Suffixed {
        base: Box<Ast>,
        ups: Option<(Ups, usize)>,
        star: Option<(u32, usize)>,
    },
    /// `-g`.
    Neg(Box<Ast>),
    /// `+-g`.
    PlusMinus(Box<Ast>),
    /// `a + b - c …`: the first term, then each further term with `true` for `-`.
    Sum(Box<Ast>, Vec<(bool, Ast)>),
}

/// An ups suffix: `^<n>`, `^[n]`, or `n·↑`; negated for `v`.
#[derive(Clone, Copy, Debug)]
struct Ups {
    negative: bool,
    kind: UpsKind,
}

#[derive(Clone, Copy, Debug)]
enum UpsKind {
    Power(u32),
    PowerSum(u32),
    Multiple(i64),
}

impl Expression {
    /// Reads `text` (see the crate documentation for the grammar and
    /// [`GameStore::parse`] for the bounds), building no game.
    pub fn parse(text: &str) -> Result<Expression, ParseError> {
        let mut p = Parser {
            chars: text.char_indices().collect(),
            pos: 0,
            len: text.len(),
            depth: 0,
            largest_given: None,
        };
        let root = p.expr()?;
        p.skip_ws();
        if p.pos < p.chars.len() {
            return Err(p.error("unexpected trailing input"));
        }
        Ok(Expression {
            root,
            largest_given: p.largest_given,
        })
    }
}

struct Parser {
    chars: Vec<(usize, char)>,
    pos: usize,
    len: usize,
    /// Levels of nesting open at this point.
    depth: u32,
    largest_given: Option<(usize, usize)>,
}

/// A piece of the inside of braces: a game, a comma, or a run of `k` bars.
enum BracePiece {
    Game(Ast),
    Comma,
    Bars(usize),
}

impl Parser {
    /// Opens one level of nesting (closed by `self.depth -= 1`).
    fn enter(&mut self) -> Result<(), ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(&format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        self.depth += 1;
        Ok(())
    }

    /// Parses with one more level of nesting.
    fn nested(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<Ast, ParseError>,
    ) -> Result<Ast, ParseError> {
        self.enter()?;
        let result = f(self);
        self.depth -= 1;
        result
    }

    fn at(&self) -> usize {
        self.chars.get(self.pos).map_or(self.len, |c| c.0)
    }

    fn error(&self, message: &str) -> ParseError {
        ParseError {
            position: self.at(),
            message: message.to_string(),
            work_limit: None,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(|c| c.1)
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).map(|c| c.1)
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// `*` or `*m` after a term: the nimber's size, or `None` when no `*` follows.
    fn read_star(&mut self) -> Result<Option<(u32, usize)>, ParseError> {
        let at = self.at();
        if !self.eat('*') {
            return Ok(None);
        }
        match self.unsigned()? {
            Some(m) => u32::try_from(m)
                .ok()
                .filter(|m| *m <= MAX_NIMBER)
                .map(|m| Some((m, at)))
                .ok_or_else(|| self.error(&format!("nimber too large (at most *{MAX_NIMBER})"))),
            None => Ok(Some((1, at))),
        }
    }

    fn unsigned(&mut self) -> Result<Option<u64>, ParseError> {
        let start = self.pos;
        let mut v: u64 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d)))
                .ok_or_else(|| self.error("number too large"))?;
            self.pos += 1;
        }
        Ok((self.pos > start).then_some(v))
    }

    /// A count written in the text (of ups, or an uptimal digit), at most [`MAX_UPS`].
    fn count(&self, v: u64, what: &str) -> Result<i64, ParseError> {
        i64::try_from(v)
            .ok()
            .filter(|v| *v <= MAX_UPS)
            .ok_or_else(|| self.error(&format!("{what} too large (at most {MAX_UPS})")))
    }

    /// expr := signed_term (('+' | '-' | '+-') term)*
    fn expr(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        let at = self.at();
        let first = self.signed_term()?;
        let mut rest = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some('+') => {
                    // `a+-b` is `a + ±b`: leave the `+-` to signed_term.
                    if self.peek_at(1) != Some('-') {
                        self.pos += 1;
                    }
                    rest.push((false, self.signed_term()?));
                }
                Some('-') => {
                    self.pos += 1;
                    rest.push((true, self.unary()?));
                }
                _ => break,
            }
        }
        Ok(if rest.is_empty() {
            first
        } else {
            Ast {
                at,
                term: Term::Sum(Box::new(first), rest),
            }
        })
    }

    /// A term possibly preceded by `+-` (plus-minus) or `-`.
    fn signed_term(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        if self.peek() == Some('+') && self.peek_at(1) == Some('-') {
            let at = self.at();
            self.pos += 2;
            return self.nested(|p| {
                let g = p.unary()?;
                Ok(Ast {
                    at,
                    term: Term::PlusMinus(Box::new(g)),
                })
            });
        }
        self.unary()
    }

    fn unary(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        let at = self.at();
        if self.eat('-') {
            // `-1/2v*` is (-1/2) + ↓ + *: the sign belongs to the number only,
            // matching how such values are printed. Otherwise `-` negates.
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return self.compound(at, true);
            }
            return self.nested(|p| {
                let g = p.unary()?;
                Ok(Ast {
                    at,
                    term: Term::Neg(Box::new(g)),
                })
            });
        }
        if self.peek() == Some('+') && self.peek_at(1) == Some('-') {
            return self.signed_term();
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        let at = self.at();
        match self.peek() {
            Some('{') => {
                self.pos += 1;
                let g = self.nested(|p| p.braces(at))?;
                self.suffixes(g)
            }
            Some('(') => {
                self.pos += 1;
                self.nested(|p| {
                    let g = p.expr()?;
                    p.skip_ws();
                    if !p.eat(')') {
                        return Err(p.error("expected ')'"));
                    }
                    Ok(g)
                })
            }
            Some('.') => {
                self.pos += 1;
                self.uptimal(at)
            }
            Some('#') => {
                self.pos += 1;
                let k = self
                    .unsigned()?
                    .ok_or_else(|| self.error("expected a game number after '#'"))?;
                let k = usize::try_from(k).unwrap_or(usize::MAX);
                if self.largest_given.is_none_or(|(largest, _)| k > largest) {
                    self.largest_given = Some((k, at));
                }
                self.suffixes(Ast {
                    at,
                    term: Term::Given(k),
                })
            }
            Some(c) if c.is_ascii_digit() || c == '^' || c == 'v' || c == '*' => {
                self.compound(at, false)
            }
            Some(_) => Err(self.error("unexpected character")),
            None => Err(self.error("unexpected end of input")),
        }
    }

    /// `[number] [ups] [star]` with at least one part, e.g. `1/2`, `^^*`,
    /// `v3*2`, `^<2>`, `^[3]*`, `2^`; `negative` when a `-` came before a digit.
    fn compound(&mut self, at: usize, negative: bool) -> Result<Ast, ParseError> {
        let mut x = Dyadic::ZERO;
        if let Some(n) = self.unsigned()? {
            let too_large =
                |p: &Self| p.error(&format!("number too large (at most {MAX_INTEGER})"));
            let n = i64::try_from(n).map_err(|_| too_large(self))?;
            let exponent = if self.peek() == Some('/')
                && self.peek_at(1).is_some_and(|c| c.is_ascii_digit())
            {
                self.pos += 1;
                let d = self.unsigned()?.unwrap_or(0);
                if d == 0 || !d.is_power_of_two() {
                    return Err(self.error("denominator must be a power of two"));
                }
                if d.trailing_zeros() > MAX_EXPONENT {
                    return Err(
                        self.error(&format!("denominator too large (at most 2^{MAX_EXPONENT})"))
                    );
                }
                d.trailing_zeros()
            } else {
                0
            };
            x = Dyadic::new(n, exponent);
            if number_bits(x) > MAX_NUMBER_BITS {
                return Err(too_large(self));
            }
            if negative {
                x = -x;
            }
        }
        self.suffixes(Ast {
            at,
            term: Term::Number(x),
        })
    }

    /// Up/down and star suffixes after `base`.
    fn suffixes(&mut self, base: Ast) -> Result<Ast, ParseError> {
        let mut ups = None;
        let at = self.at();
        if let Some(c @ ('^' | 'v')) = self.peek() {
            self.pos += 1;
            let kind = if self.eat('<') {
                let n = self
                    .unsigned()?
                    .ok_or_else(|| self.error("expected exponent"))?;
                if !self.eat('>') {
                    return Err(self.error("expected '>'"));
                }
                if n == 0 || n > u64::from(MAX_POWER) {
                    return Err(
                        self.error(&format!("exponent out of range (from 1 to {MAX_POWER})"))
                    );
                }
                UpsKind::Power(n as u32)
            } else if self.eat('[') {
                let n = self
                    .unsigned()?
                    .ok_or_else(|| self.error("expected exponent"))?;
                if !self.eat(']') {
                    return Err(self.error("expected ']'"));
                }
                if n > u64::from(MAX_POWER) {
                    return Err(
                        self.error(&format!("exponent out of range (from 0 to {MAX_POWER})"))
                    );
                }
                UpsKind::PowerSum(n as u32)
            } else {
                let n = match self.unsigned()? {
                    Some(n) => self.count(n, "number of ups")?,
                    None => {
                        let mut n = 1;
                        while self.eat(c) {
                            n += 1;
                        }
                        n
                    }
                };
                if n > MAX_UPS {
                    return Err(self.error(&format!("number of ups too large (at most {MAX_UPS})")));
                }
                UpsKind::Multiple(n)
            };
            ups = Some((
                Ups {
                    negative: c == 'v',
                    kind,
                },
                at,
            ));
        }
        let star = self.read_star()?;
        if ups.is_none() && star.is_none() {
            return Ok(base);
        }
        Ok(Ast {
            at: base.at,
            term: Term::Suffixed {
                base: Box::new(base),
                ups,
                star,
            },
        })
    }

    /// After the `.`: digits (`0`–`9`, or `(k)` for any integer `k`, or a
    /// digit followed by U+0305 COMBINING OVERLINE for its negative), then
    /// an optional `*` or `*m`.
    fn uptimal(&mut self, at: usize) -> Result<Ast, ParseError> {
        let mut digits = Vec::new();
        loop {
            if digits.len() > MAX_UPTIMAL_DIGITS as usize {
                return Err(self.error(&format!("more than {MAX_UPTIMAL_DIGITS} uptimal digits")));
            }
            match self.peek() {
                Some(c) if c.is_ascii_digit() => {
                    self.pos += 1;
                    let mut d = i64::from(c.to_digit(10).unwrap_or(0));
                    if self.eat('\u{0305}') {
                        d = -d;
                    }
                    digits.push(d);
                }
                Some('(') => {
                    self.pos += 1;
                    let neg = self.eat('-');
                    let v = self
                        .unsigned()?
                        .ok_or_else(|| self.error("expected digit"))?;
                    let v = self.count(v, "digit")?;
                    if !self.eat(')') {
                        return Err(self.error("expected ')'"));
                    }
                    digits.push(if neg { -v } else { v });
                }
                _ => break,
            }
        }
        if digits.is_empty() {
            return Err(self.error("expected uptimal digits"));
        }
        let star = self.read_star()?.map_or(0, |s| s.0);
        Ok(Ast {
            at,
            term: Term::Uptimal(Uptimal { digits, star }),
        })
    }

    /// Inside `{ … }` (the `{` already consumed), up to and including `}`.
    fn braces(&mut self, at: usize) -> Result<Ast, ParseError> {
        let mut pieces = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some('}') => {
                    self.pos += 1;
                    break;
                }
                Some(',') => {
                    self.pos += 1;
                    pieces.push(BracePiece::Comma);
                }
                Some('|') => {
                    let mut k = 0;
                    while self.eat('|') {
                        k += 1;
                    }
                    pieces.push(BracePiece::Bars(k));
                }
                None => return Err(self.error("unclosed '{'")),
                _ => {
                    let g = self.expr()?;
                    pieces.push(BracePiece::Game(g));
                }
            }
        }
        self.build_slashes(at, pieces)
    }

    /// Resolve bars by precedence: the longest run of bars splits first, and
    /// each shorter run inside makes a game one level deeper.
    fn build_slashes(&mut self, at: usize, pieces: Vec<BracePiece>) -> Result<Ast, ParseError> {
        let runs: Vec<(usize, usize)> = pieces
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p {
                BracePiece::Bars(k) => Some((i, *k)),
                _ => None,
            })
            .collect();
        let Some(max) = runs.iter().map(|r| r.1).max() else {
            return Err(self.error("braces need a '|'"));
        };
        let at_max: Vec<usize> = runs.iter().filter(|r| r.1 == max).map(|r| r.0).collect();
        if at_max.len() != 1 {
            return Err(self.error("ambiguous bars: two separators of the same length"));
        }
        let mut pieces = pieces;
        let rhs = pieces.split_off(at_max[0] + 1);
        pieces.pop();
        let left = self.side(at, pieces)?;
        let right = self.side(at, rhs)?;
        Ok(Ast {
            at,
            term: Term::Braces(left, right),
        })
    }

    fn side(&mut self, at: usize, pieces: Vec<BracePiece>) -> Result<Vec<Ast>, ParseError> {
        if pieces.iter().any(|p| matches!(p, BracePiece::Bars(_))) {
            return Ok(vec![self.nested(|p| p.build_slashes(at, pieces))?]);
        }
        let mut out = Vec::new();
        let mut expect_game = true;
        for p in pieces {
            match (p, expect_game) {
                (BracePiece::Game(g), true) => {
                    out.push(g);
                    expect_game = false;
                }
                (BracePiece::Comma, false) => expect_game = true,
                _ => return Err(self.error("malformed option list")),
            }
        }
        if expect_game && !out.is_empty() {
            return Err(self.error("trailing ','"));
        }
        Ok(out)
    }
}

/// Builds the games of a syntax tree, keeping every intermediate result in bounds.
struct Evaluator<'a> {
    store: &'a mut GameStore,
    games: &'a [GameId],
    /// Memo of [`Evaluator::number_bounds`].
    bounds: HashMap<GameId, (u32, u32)>,
}

/// Bits of the largest integer part of a number (and its neighbours).
fn number_bits(x: Dyadic) -> u32 {
    let int = x.floor().unsigned_abs().max(x.ceil().unsigned_abs()) + 1;
    64 - int.leading_zeros()
}

impl Evaluator<'_> {
    fn eval(&mut self, ast: &Ast) -> Result<GameId, ParseError> {
        let at = ast.at;
        match &ast.term {
            Term::Number(x) => self.limited(at, |s| s.try_number_up_star(*x, 0, 0)),
            Term::Given(k) => Ok(self.games[*k]),
            Term::Braces(left, right) => {
                let mut l = Vec::with_capacity(left.len());
                for o in left {
                    l.push(self.eval(o)?);
                }
                let mut r = Vec::with_capacity(right.len());
                for o in right {
                    r.push(self.eval(o)?);
                }
                let g = self.limited(at, |s| s.try_game(&l, &r))?;
                self.guard(g, at)
            }
            Term::Uptimal(u) => {
                if let Some(&d) = u.digits.first() {
                    self.check_ups(d, at)?;
                }
                let g = self.limited(at, |s| s.try_from_uptimal(u))?;
                self.guard(g, at)
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
                    acc = self.add(acc, term, at)?;
                }
                if let Some((m, at)) = *star {
                    let nim = self.limited(at, |s| s.try_number_up_star(Dyadic::ZERO, 0, m))?;
                    acc = self.add(acc, nim, at)?;
                }
                Ok(acc)
            }
            Term::Neg(g) => {
                let g = self.eval(g)?;
                Ok(self.store.neg(g))
            }
            Term::PlusMinus(g) => {
                let g = self.eval(g)?;
                let ng = self.store.neg(g);
                let pm = self.limited(at, |s| s.try_game(&[g], &[ng]))?;
                self.guard(pm, at)
            }
            Term::Sum(first, rest) => {
                let mut acc = self.eval(first)?;
                for (minus, term) in rest {
                    let t = self.eval(term)?;
                    let t = if *minus { self.store.neg(t) } else { t };
                    acc = self.add(acc, t, term.at)?;
                }
                Ok(acc)
            }
        }
    }

    /// Runs a store operation, its work limit reported at `at`.
    fn limited(
        &mut self,
        at: usize,
        f: impl FnOnce(&mut GameStore) -> Result<GameId, WorkLimit>,
    ) -> Result<GameId, ParseError> {
        f(self.store).map_err(|e| ParseError {
            position: at,
            message: e.to_string(),
            work_limit: Some(e),
        })
    }

    /// `a + b`, refused before it is built when two games `x + n·↑ + *m` would
    /// add up to one beyond the bounds.
    fn add(&mut self, a: GameId, b: GameId, at: usize) -> Result<GameId, ParseError> {
        if let (
            Kind::Simple {
                number: x1,
                ups: n1,
                ..
            },
            Kind::Simple {
                number: x2,
                ups: n2,
                ..
            },
        ) = (self.store.kind(a), self.store.kind(b))
        {
            let x = x1 + x2;
            self.check_number(number_bits(x), x.exponent(), at)?;
            self.check_ups(n1 + n2, at)?;
        }
        let sum = self.limited(at, |s| s.try_add(a, b))?;
        self.guard(sum, at)
    }

    /// Refuses numbers with more than [`MAX_NUMBER_BITS`] bits or a denominator
    /// beyond `2^`[`MAX_EXPONENT`].
    fn check_number(&self, bits: u32, exponent: u32, at: usize) -> Result<(), ParseError> {
        let message = if bits > MAX_NUMBER_BITS {
            format!("number too large (numbers must stay below 2^{MAX_NUMBER_BITS})")
        } else if exponent > MAX_EXPONENT {
            format!("number too fine (denominators must stay at most 2^{MAX_EXPONENT})")
        } else {
            return Ok(());
        };
        Err(ParseError {
            position: at,
            message,
            work_limit: None,
        })
    }

    fn check_ups(&self, n: i64, at: usize) -> Result<(), ParseError> {
        if n.abs() > MAX_UPS {
            return Err(ParseError {
                position: at,
                message: format!("too many ups in a result (at most {MAX_UPS} times ↑ or ↓)"),
                work_limit: None,
            });
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
