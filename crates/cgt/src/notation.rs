//! CGSuite-style plain-text notation: parsing, printing, and McKay's
//! uptimal digit form.
//!
//! Reading text has two phases. [`crate::Expression::parse`] reads the whole text into a
//! syntax tree, checking the syntax, the size of every literal and the nesting
//! depth, without building any game; only then does [`GameStore::evaluate`] build
//! the games, within a work limit ([`MAX_WORK`] by default) and with every number
//! of every intermediate result kept in bounds. A syntax error is therefore found
//! at once, however much work the text before it would have asked for.

use std::collections::HashMap;

use crate::big::BigDyadic;
use crate::dyadic::Dyadic;
use crate::store::{GameId, GameStore, Kind, WorkLimit};
use std::fmt;

/// Error returned by [`crate::Expression::parse`], [`GameStore::parse`] and
/// [`GameStore::evaluate`]: a syntax error, a literal or a result beyond the
/// bounds, or the work limit reached.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at character {character}: {message}")]
pub struct ParseError {
    /// Byte offset in the input where the problem was found.
    pub position: usize,
    /// The same place counted in characters from 1, as the message gives it
    /// (every text editor counts so); set from the text read when the error
    /// leaves the parser or the evaluator ([`ParseError::locate`]).
    pub character: usize,
    /// What went wrong.
    pub message: String,
    /// The work limit, when the evaluation stopped there ([`GameStore::evaluate`]).
    pub work_limit: Option<WorkLimit>,
}

impl ParseError {
    /// The error with [`ParseError::character`] set from `text`, the text whose
    /// byte offset [`ParseError::position`] is.
    pub fn locate(mut self, text: &str) -> ParseError {
        self.character = character_at(text, self.position);
        self
    }
}

/// The character, counted from 1, at byte offset `byte` of `text` (one past the
/// last character at the end; an offset inside a character counts that
/// character).
pub fn character_at(text: &str, byte: usize) -> usize {
    text.char_indices().take_while(|&(i, _)| i < byte).count() + 1
}

/// An uptimal in McKay's digit form with a number part, as CGSuite writes it:
/// `x*m.d1 d2 … dk`, meaning `x + d1·↑ + d2·↑^2 + … + dk·↑^k + *m` with `↑^n`
/// the up-nth powers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Uptimal {
    /// The number part `x`.
    pub number: Dyadic,
    /// Digits `d1, …, dk`; empty for a number plus a nimber. The last digit is
    /// non-zero.
    pub digits: Vec<i64>,
    /// The nimber part `m` of `*m`.
    pub star: u32,
}

impl Uptimal {
    /// The text with `number` as the number part (for numbers beyond the
    /// arena's, see [`crate::Value`]).
    pub fn text_with_number(&self, number: &BigDyadic) -> String {
        let mut out = String::new();
        if !number.is_zero() {
            out.push_str(&number.to_string());
        }
        out.push_str(&star_suffix(self.star));
        out.push('.');
        if self.digits.is_empty() {
            out.push('0');
        }
        for d in &self.digits {
            match d {
                0..=9 => out.push_str(&d.to_string()),
                -9..=-1 => {
                    out.push_str(&(-d).to_string());
                    out.push('-');
                }
                _ => out.push_str(&format!("({d})")),
            }
        }
        out
    }
}

impl fmt::Display for Uptimal {
    /// CGSuite's form: the number part (when not 0), the star, a `.`, then the
    /// digits: `.1`, `*.22`, `5.0`, `6*.1`, `73/16*8.9-`, `.0` for 0. A
    /// negative digit from -1 to -9 is written as its absolute value followed
    /// by `-` (`.21-` is `2·↑ - ↑^2`); digits beyond are written in
    /// parentheses, `(10)`, `(-12)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text_with_number(&BigDyadic::from(self.number)))
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

/// How a game prints: a text of its own, `±G`, `Tiny(G)`, `Miny(G)`, `±{G,H}`,
/// or braces around its options.
enum Shape {
    Text(String),
    PlusMinus(GameId),
    Tiny(GameId),
    Miny(GameId),
    PlusMinusList,
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
        self.format_shifted(g, None)
    }

    /// Levels of nesting the parser meets reading `format(g)` (braces, and the
    /// `+-` and parentheses of the named shapes): at most
    /// [`MAX_DEPTH`] for a text that reads back. Bottom-up over the distinct
    /// subgames (no recursion).
    pub fn printed_depth(&mut self, g: GameId) -> u32 {
        self.printed_depth_shifted(g, None)
    }

    /// Levels of nesting of `format_shifted(g, shift)`: a shift can make the
    /// text deeper than `g`'s, since names (`^[k]`, `+-G`) are not used with one.
    pub fn printed_depth_shifted(&mut self, g: GameId, shift: Option<&BigDyadic>) -> u32 {
        let shift = shift.filter(|s| !s.is_zero());
        let mut memo: HashMap<GameId, u32> = HashMap::new();
        let mut stack = vec![(g, false)];
        while let Some((h, expanded)) = stack.pop() {
            if memo.contains_key(&h) {
                continue;
            }
            let shape = self.shape(h, shift);
            let (children, extra): (Vec<GameId>, u32) = match shape {
                Shape::Text(_) => (Vec::new(), 0),
                Shape::PlusMinus(a) | Shape::Tiny(a) | Shape::Miny(a) => (vec![a], 2),
                Shape::PlusMinusList => (self.left_options(h).to_vec(), 2),
                Shape::Braces => (
                    self.left_options(h)
                        .iter()
                        .chain(self.right_options(h))
                        .copied()
                        .collect(),
                    1,
                ),
            };
            if !expanded && children.iter().any(|c| !memo.contains_key(c)) {
                stack.push((h, true));
                stack.extend(
                    children
                        .iter()
                        .filter(|c| !memo.contains_key(c))
                        .map(|&c| (c, false)),
                );
                continue;
            }
            let d = children.iter().map(|c| memo[c]).max().unwrap_or(0) + extra;
            memo.insert(h, if children.is_empty() { extra } else { d });
        }
        memo[&g]
    }

    /// The text of `g + shift` for a number `shift` of any size: every number
    /// in `g`'s canonical form is printed shifted (number translation: for a
    /// game `g` that is not a number, `g + x = {g^L + x | g^R + x}`). Names
    /// (`^[2]`, `+-G`, `Tiny(G)`) are used only without a shift.
    pub fn format_shifted(&mut self, g: GameId, shift: Option<&BigDyadic>) -> String {
        let shift = shift.filter(|s| !s.is_zero());
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
            let shape = self.shape(h, shift);
            let children: Vec<GameId> = match shape {
                Shape::Text(_) => Vec::new(),
                Shape::PlusMinus(a) | Shape::Tiny(a) | Shape::Miny(a) => vec![a],
                Shape::PlusMinusList => self.left_options(h).to_vec(),
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
                Shape::Tiny(a) => format!("Tiny({})", take(&mut texts, a)),
                Shape::Miny(a) => format!("Miny({})", take(&mut texts, a)),
                Shape::PlusMinusList => {
                    let mut keyed: Vec<(OptionKey, String)> = self
                        .left_options(h)
                        .iter()
                        .map(|&o| (self.option_key(o), take(&mut texts, o)))
                        .collect();
                    keyed.sort();
                    let parts: Vec<String> = keyed.into_iter().map(|k| k.1).collect();
                    format!("+-{{{}}}", parts.join(","))
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

    /// How `g` (plus `shift`) prints, without looking further than its options.
    fn shape(&mut self, g: GameId, shift: Option<&BigDyadic>) -> Shape {
        if let Kind::Simple { number, ups, star } = self.kind(g) {
            let mut s = String::new();
            match shift {
                None => {
                    if number != Dyadic::ZERO || (ups == 0 && star == 0) {
                        s.push_str(&number.to_string());
                    }
                }
                Some(x) => {
                    let number = x + &BigDyadic::from(number);
                    if !number.is_zero() || (ups == 0 && star == 0) {
                        s.push_str(&number.to_string());
                    }
                }
            }
            s.push_str(&ups_text(ups));
            s.push_str(&star_suffix(star));
            return Shape::Text(s);
        }
        if shift.is_some() {
            return Shape::Braces;
        }
        if let Some(k) = self
            .up_sum_order(g)
            .filter(|k| k.unsigned_abs() <= u64::from(MAX_POWER))
        {
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
        if let Some(a) = self.tiny_of(g) {
            return Shape::Tiny(a);
        }
        if let Some(a) = self.miny_of(g) {
            return Shape::Miny(a);
        }
        let (left, right) = (
            self.left_options(g).to_vec(),
            self.right_options(g).to_vec(),
        );
        if left.len() >= 2 && left.len() == right.len() {
            let mut negatives: Vec<GameId> = left.iter().map(|&a| self.neg(a)).collect();
            negatives.sort_unstable();
            if negatives == right {
                return Shape::PlusMinusList;
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

    /// The uptimal form of `g` as text (`*.22`), when `g` is an uptimal.
    pub fn to_uptimal(&mut self, g: GameId) -> Option<String> {
        self.uptimal(g).map(|u| u.to_string())
    }

    /// [`GameStore::to_uptimal`] within the work limit.
    pub fn try_to_uptimal(&mut self, g: GameId) -> Result<Option<String>, WorkLimit> {
        Ok(self.try_uptimal(g)?.map(|u| u.to_string()))
    }

    /// Decompose `g` as `x + d1·↑ + d2·↑^2 + … + dk·↑^k + *m` when possible.
    ///
    /// Method: both stops of `g` must be the number `x`; then, for `g' = g - x`,
    /// `g' + *m` must be a pure uptimal `h` for some `m` (tried in
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
        // An uptimal is a number plus an infinitesimal: both stops are the number.
        let (left, right) = self.stops(g);
        if left != right {
            return Ok(None);
        }
        let minus_x = self.try_number_up_star(-left, 0, 0)?;
        let g = self.try_add(g, minus_x)?;
        let bound = 2 * i64::from(self.birthday(g)) + 4;
        let stars = bound.min(i64::from(MAX_NIMBER)) as u32;
        for m in 0..=stars {
            let nim = self.try_number_up_star(Dyadic::ZERO, 0, m)?;
            let h = self.try_add(g, nim)?;
            if let Some(digits) = self.pure_uptimal_digits(h, bound)? {
                return Ok(Some(Uptimal {
                    number: left,
                    digits,
                    star: m,
                }));
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
        let mut acc = self.try_number_up_star(u.number, 0, u.star)?;
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
