//! CGSuite-style plain-text notation: parsing, printing, and McKay's
//! uptimal digit form.

use std::collections::HashMap;

use crate::dyadic::Dyadic;
use crate::store::{GameId, GameStore, Kind};
use std::fmt;

/// Error returned by [`GameStore::parse`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot parse game at byte {position}: {message}")]
pub struct ParseError {
    /// Byte offset in the input where the problem was found.
    pub position: usize,
    /// What went wrong.
    pub message: String,
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

impl GameStore {
    /// Print `g` in CGSuite-like notation (see the crate documentation for
    /// the conventions). Parsing the result gives back `g`.
    /// Like [`GameStore::format`], but `None` when the text could be longer than
    /// `max_chars` (games with many distinct subgames print exponentially long).
    pub fn format_within(&mut self, g: GameId, max_chars: u64) -> Option<String> {
        (self.printed_length_bound(g, max_chars) <= max_chars).then(|| self.format(g))
    }

    /// An upper bound on the length of `format(g)`, saturating just above `cap`:
    /// short forms (numbers, ups, nimbers) count 32, others `{…|…}` around their
    /// options.
    pub fn printed_length_bound(&self, g: GameId, cap: u64) -> u64 {
        fn bound(store: &GameStore, g: GameId, cap: u64, memo: &mut HashMap<GameId, u64>) -> u64 {
            if let Some(&b) = memo.get(&g) {
                return b;
            }
            let b = if matches!(store.kind(g), Kind::Simple { .. }) {
                32
            } else {
                let mut total: u64 = 32;
                for &o in store.left_options(g).iter().chain(store.right_options(g)) {
                    total = total.saturating_add(bound(store, o, cap, memo) + 1);
                    if total > cap {
                        break;
                    }
                }
                total.min(cap + 1)
            };
            memo.insert(g, b);
            b
        }
        bound(self, g, cap, &mut HashMap::new())
    }

    pub fn format(&mut self, g: GameId) -> String {
        if let Kind::Simple { number, ups, star } = self.kind(g) {
            let mut s = String::new();
            if number != Dyadic::ZERO || (ups == 0 && star == 0) {
                s.push_str(&number.to_string());
            }
            s.push_str(&ups_text(ups));
            s.push_str(&star_suffix(star));
            return s;
        }
        if let Some(k) = self.up_sum_order(g) {
            return if k > 0 {
                format!("^[{k}]")
            } else {
                format!("v[{}]", -k)
            };
        }
        if let Some(name) = self.name_of(g) {
            return name;
        }
        let left = self.left_options(g).to_vec();
        let right = self.right_options(g).to_vec();
        if let ([a], [b]) = (left.as_slice(), right.as_slice()) {
            if self.neg(*a) == *b {
                let inner = self.format(*a);
                return if inner.starts_with('-') || inner.contains('+') {
                    format!("+-({inner})")
                } else {
                    format!("+-{inner}")
                };
            }
        }
        let l = self.format_options(&left);
        let r = self.format_options(&right);
        format!("{{{l}|{r}}}")
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

    /// Options printed in an order independent of ids (so that equal games
    /// print identically in every store): numbers by value, then games
    /// `x + n·↑ + *m` by `(x, n, m)`, then the others by birthday and text.
    fn format_options(&mut self, options: &[GameId]) -> String {
        let mut keyed: Vec<((u8, Dyadic, i64, u32), String)> = options
            .iter()
            .map(|o| {
                let text = self.format(*o);
                let key = match self.kind(*o) {
                    Kind::Simple {
                        number,
                        ups: 0,
                        star: 0,
                    } => (0, number, 0, 0),
                    Kind::Simple { number, ups, star } => (1, number, ups, star),
                    Kind::Other => (2, Dyadic::integer(i64::from(self.birthday(*o))), 0, 0),
                };
                (key, text)
            })
            .collect();
        keyed.sort();
        let texts: Vec<String> = keyed.into_iter().map(|k| k.1).collect();
        texts.join(",")
    }

    /// Parse a game written in CGSuite-like notation (see the crate
    /// documentation for the accepted grammar).
    ///
    /// Input is bounded so that no text can make the engine overflow or run away:
    /// integers up to [`MAX_INTEGER`], denominators up to `2^`[`MAX_EXPONENT`],
    /// nimbers up to `*`[`MAX_NIMBER`], multiples of ↑ up to [`MAX_UPS`], nesting
    /// up to [`MAX_DEPTH`], and every intermediate result must keep its numbers
    /// within `2^`[`MAX_NUMBER_BITS`] and `2^-`[`MAX_RESULT_EXPONENT`]. Beyond
    /// these the parser returns an error (it never panics).
    pub fn parse(&mut self, text: &str) -> Result<GameId, ParseError> {
        self.parse_with(text, &[])
    }

    /// Like [`GameStore::parse`], where `#0`, `#1`, … stand for the games of
    /// `games` (ids of this store), e.g. `#0 + #1 - ^`.
    pub fn parse_with(&mut self, text: &str, games: &[GameId]) -> Result<GameId, ParseError> {
        let mut p = Parser {
            chars: text.char_indices().collect(),
            pos: 0,
            len: text.len(),
            store: self,
            games,
            depth: 0,
            bounds: std::collections::HashMap::new(),
        };
        let g = p.expr()?;
        p.skip_ws();
        if p.pos < p.chars.len() {
            return Err(p.error("unexpected trailing input"));
        }
        Ok(g)
    }

    /// The uptimal form of `g` as text (`.22*`), when `g` is an uptimal.
    pub fn to_uptimal(&mut self, g: GameId) -> Option<String> {
        self.uptimal(g).map(|u| u.to_string())
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
    /// (digits and levels at most `2·birthday + 4`) only limit completeness.
    pub fn uptimal(&mut self, g: GameId) -> Option<Uptimal> {
        if self.stops(g) != (Dyadic::ZERO, Dyadic::ZERO) {
            return None;
        }
        let bound = 2 * i64::from(self.birthday(g)) + 4;
        for m in 0..=(bound as u32) {
            let nim = self.nimber(m);
            let h = self.add(g, nim);
            if let Some(digits) = self.pure_uptimal_digits(h, bound) {
                return Some(Uptimal { digits, star: m });
            }
        }
        None
    }

    /// Sign of `g` when comparable with 0.
    fn sign(&mut self, g: GameId) -> Option<std::cmp::Ordering> {
        use std::cmp::Ordering::*;
        match (self.le(GameId::ZERO, g), self.le(g, GameId::ZERO)) {
            (true, true) => Some(Equal),
            (true, false) => Some(Greater),
            (false, true) => Some(Less),
            (false, false) => None,
        }
    }

    fn pure_uptimal_digits(&mut self, h: GameId, bound: i64) -> Option<Vec<i64>> {
        use std::cmp::Ordering::*;
        let mut digits = Vec::new();
        let mut residual = h;
        for level in 1..=bound as u32 {
            if residual == GameId::ZERO {
                break;
            }
            let p = self.up_power(level);
            let flip = match self.sign(residual)? {
                Equal => break,
                Greater => false,
                Less => true,
            };
            // Work with a positive residual r; the digit is negated back.
            let r = if flip { self.neg(residual) } else { residual };
            let neg_p = self.neg(p);
            // Largest a >= 0 with r - a·p > 0.
            let mut a = 0i64;
            let mut x = r; // r - a·p
            loop {
                let next = self.add(x, neg_p); // r - (a+1)·p
                match self.sign(next)? {
                    Greater => {
                        a += 1;
                        x = next;
                        if a > bound {
                            return None;
                        }
                    }
                    Equal => {
                        a += 1;
                        x = next;
                        break;
                    }
                    Less => {
                        // Digit is a or a + 1: decide by the sign of p - 2x.
                        let two_x = self.add(x, x);
                        let neg_two_x = self.neg(two_x);
                        let test = self.add(p, neg_two_x);
                        if self.sign(test)? != Greater {
                            a += 1;
                            x = next;
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
            return None;
        }
        while digits.last() == Some(&0) {
            digits.pop();
        }
        Some(digits)
    }

    /// The game denoted by an uptimal.
    pub fn from_uptimal(&mut self, u: &Uptimal) -> GameId {
        let mut acc = self.nimber(u.star);
        for (i, d) in u.digits.iter().enumerate() {
            let p = self.up_power(i as u32 + 1);
            let term = self.multiple(p, *d);
            acc = self.add(acc, term);
        }
        acc
    }
}

/// Largest integer literal [`GameStore::parse`] accepts.
pub const MAX_INTEGER: i64 = 1 << 16;
/// Largest `k` of a denominator `2^k` in a literal.
pub const MAX_EXPONENT: u32 = 16;
/// Largest nimber `*m` in a literal.
pub const MAX_NIMBER: u32 = 1024;
/// Largest multiple `n` in `^n` / `vn`, and largest uptimal digit `(k)`.
pub const MAX_UPS: i64 = 4096;
/// Deepest nesting of braces, parentheses and unary signs.
pub const MAX_DEPTH: u32 = 64;
/// Every number inside an intermediate result stays below `2^MAX_NUMBER_BITS`.
pub const MAX_NUMBER_BITS: u32 = 20;
/// … and has a denominator at most `2^MAX_RESULT_EXPONENT`.
pub const MAX_RESULT_EXPONENT: u32 = 40;

struct Parser<'a> {
    chars: Vec<(usize, char)>,
    pos: usize,
    len: usize,
    store: &'a mut GameStore,
    games: &'a [GameId],
    depth: u32,
    /// Memo of [`Parser::number_bounds`].
    bounds: std::collections::HashMap<GameId, (u32, u32)>,
}

/// A piece of the inside of braces: a game, a comma, or a run of `k` bars.
enum BracePiece {
    Game(GameId),
    Comma,
    Bars(usize),
}

impl Parser<'_> {
    /// `(bits of the largest |integer part|, largest exponent)` over every number
    /// that is a subgame of `g`.
    fn number_bounds(&mut self, g: GameId) -> (u32, u32) {
        if let Some(&b) = self.bounds.get(&g) {
            return b;
        }
        if let Kind::Simple { number, .. } = self.store.kind(g) {
            // Every number inside x + n·↑ + *m lies within 1 of x, with a
            // denominator dividing x's (no need to walk the options: the
            // canonical form of the integer n is n levels deep).
            let int = number
                .floor()
                .unsigned_abs()
                .max(number.ceil().unsigned_abs())
                + 1;
            return (64 - int.leading_zeros(), number.exponent());
        }
        let mut b = (0, 0);
        let options: Vec<GameId> = self
            .store
            .left_options(g)
            .iter()
            .chain(self.store.right_options(g))
            .copied()
            .collect();
        for o in options {
            let ob = self.number_bounds(o);
            b = (b.0.max(ob.0), b.1.max(ob.1));
        }
        self.bounds.insert(g, b);
        b
    }

    /// Refuses a result whose numbers are too large or too fine for further
    /// arithmetic to stay exact.
    fn guard(&mut self, g: GameId) -> Result<GameId, ParseError> {
        let (bits, exponent) = self.number_bounds(g);
        if bits > MAX_NUMBER_BITS {
            return Err(self.error(&format!(
                "number too large (numbers must stay below 2^{MAX_NUMBER_BITS})"
            )));
        }
        if exponent > MAX_RESULT_EXPONENT {
            return Err(self.error(&format!(
                "number too fine (denominators must stay at most 2^{MAX_RESULT_EXPONENT})"
            )));
        }
        Ok(g)
    }

    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(&format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    fn error(&self, message: &str) -> ParseError {
        ParseError {
            position: self.chars.get(self.pos).map_or(self.len, |c| c.0),
            message: message.to_string(),
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
    fn read_star(&mut self) -> Result<Option<u32>, ParseError> {
        if !self.eat('*') {
            return Ok(None);
        }
        match self.unsigned()? {
            Some(m) => u32::try_from(m)
                .ok()
                .filter(|m| *m <= MAX_NIMBER)
                .map(Some)
                .ok_or_else(|| self.error(&format!("nimber too large (at most *{MAX_NIMBER})"))),
            None => Ok(Some(1)),
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

    fn small(&self, v: u64) -> Result<i64, ParseError> {
        i64::try_from(v)
            .ok()
            .filter(|v| *v <= MAX_INTEGER)
            .ok_or_else(|| self.error(&format!("number too large (at most {MAX_INTEGER})")))
    }

    /// expr := ['+-'] unary (('+' | '-' | '+-') unary)*
    fn expr(&mut self) -> Result<GameId, ParseError> {
        self.skip_ws();
        let mut acc = self.signed_term()?;
        loop {
            self.skip_ws();
            match self.peek() {
                Some('+') => {
                    // `a+-b` is `a + ±b`: leave the `+-` to signed_term.
                    if self.peek_at(1) != Some('-') {
                        self.pos += 1;
                    }
                    let t = self.signed_term()?;
                    let sum = self.store.add(acc, t);
                    acc = self.guard(sum)?;
                }
                Some('-') => {
                    self.pos += 1;
                    let t = self.unary()?;
                    let difference = self.store.sub(acc, t);
                    acc = self.guard(difference)?;
                }
                _ => return Ok(acc),
            }
        }
    }

    /// A term possibly preceded by `+-` (plus-minus) or `-`.
    fn signed_term(&mut self) -> Result<GameId, ParseError> {
        self.skip_ws();
        if self.peek() == Some('+') && self.peek_at(1) == Some('-') {
            self.pos += 2;
            let g = self.unary()?;
            let ng = self.store.neg(g);
            return Ok(self.store.game(&[g], &[ng]));
        }
        self.unary()
    }

    fn unary(&mut self) -> Result<GameId, ParseError> {
        self.enter()?;
        let g = self.unary_inner();
        self.depth -= 1;
        g
    }

    fn unary_inner(&mut self) -> Result<GameId, ParseError> {
        self.skip_ws();
        if self.eat('-') {
            // `-1/2v*` is (-1/2) + ↓ + *: the sign belongs to the number only,
            // matching how such values are printed. Otherwise `-` negates.
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return self.compound_with_sign(true);
            }
            let g = self.unary()?;
            return Ok(self.store.neg(g));
        }
        if self.peek() == Some('+') && self.peek_at(1) == Some('-') {
            return self.signed_term();
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<GameId, ParseError> {
        self.skip_ws();
        match self.peek() {
            Some('{') => {
                self.pos += 1;
                let g = self.braces()?;
                self.suffixes(g)
            }
            Some('(') => {
                self.pos += 1;
                let g = self.expr()?;
                self.skip_ws();
                if !self.eat(')') {
                    return Err(self.error("expected ')'"));
                }
                Ok(g)
            }
            Some('.') => {
                self.pos += 1;
                self.uptimal()
            }
            Some('#') => {
                self.pos += 1;
                let k = self
                    .unsigned()?
                    .ok_or_else(|| self.error("expected a game number after '#'"))?;
                let g = usize::try_from(k)
                    .ok()
                    .and_then(|k| self.games.get(k).copied())
                    .ok_or_else(|| self.error("no such game"))?;
                self.suffixes(g)
            }
            Some(c) if c.is_ascii_digit() || c == '^' || c == 'v' || c == '*' => self.compound(),
            Some(_) => Err(self.error("unexpected character")),
            None => Err(self.error("unexpected end of input")),
        }
    }

    /// `[number] [ups] [star]` with at least one part, e.g. `1/2`, `^^*`,
    /// `-` handled by `unary`, `v3*2`, `^<2>`, `^[3]*`, `2^`.
    fn compound(&mut self) -> Result<GameId, ParseError> {
        self.compound_with_sign(false)
    }

    fn compound_with_sign(&mut self, negative: bool) -> Result<GameId, ParseError> {
        let mut acc = GameId::ZERO;
        if let Some(n) = self.unsigned()? {
            let n = self.small(n)?;
            let x = if self.peek() == Some('/')
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
                Dyadic::new(n, d.trailing_zeros())
            } else {
                Dyadic::integer(n)
            };
            acc = self.store.number(if negative { -x } else { x });
        }
        self.suffixes(acc)
    }

    /// Up/down and star suffixes added to `acc`.
    fn suffixes(&mut self, mut acc: GameId) -> Result<GameId, ParseError> {
        if let Some(c @ ('^' | 'v')) = self.peek() {
            self.pos += 1;
            let sign = if c == '^' { 1 } else { -1 };
            let term = if self.eat('<') {
                let n = self
                    .unsigned()?
                    .ok_or_else(|| self.error("expected exponent"))?;
                if !self.eat('>') {
                    return Err(self.error("expected '>'"));
                }
                if n == 0 || n > 64 {
                    return Err(self.error("exponent out of range"));
                }
                self.store.up_power(n as u32)
            } else if self.eat('[') {
                let n = self
                    .unsigned()?
                    .ok_or_else(|| self.error("expected exponent"))?;
                if !self.eat(']') {
                    return Err(self.error("expected ']'"));
                }
                if n > 64 {
                    return Err(self.error("exponent out of range"));
                }
                self.store.up_power_sum(n as u32)
            } else if let Some(n) = self.unsigned()? {
                let n = self.small(n)?;
                if n > MAX_UPS {
                    return Err(self.error(&format!("too many ups (at most {MAX_UPS})")));
                }
                self.store.ups(n)
            } else {
                let mut n = 1;
                while self.eat(c) {
                    n += 1;
                }
                self.store.ups(n)
            };
            let term = if sign < 0 { self.store.neg(term) } else { term };
            let sum = self.store.add(acc, term);
            acc = self.guard(sum)?;
        }
        if let Some(m) = self.read_star()? {
            let nim = self.store.nimber(m);
            let sum = self.store.add(acc, nim);
            acc = self.guard(sum)?;
        }
        Ok(acc)
    }

    /// After the `.`: digits (`0`–`9`, or `(k)` for any integer `k`, or a
    /// digit followed by U+0305 COMBINING OVERLINE for its negative), then
    /// an optional `*` or `*m`.
    fn uptimal(&mut self) -> Result<GameId, ParseError> {
        let mut digits = Vec::new();
        loop {
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
                    let v = self.small(v)?;
                    if v > MAX_UPS {
                        return Err(self.error(&format!("digit too large (at most {MAX_UPS})")));
                    }
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
        if digits.len() > MAX_DEPTH as usize {
            return Err(self.error(&format!("more than {MAX_DEPTH} uptimal digits")));
        }
        let star = self.read_star()?.unwrap_or(0);
        Ok(self.store.from_uptimal(&Uptimal { digits, star }))
    }

    /// Inside `{ … }` (the `{` already consumed), up to and including `}`.
    fn braces(&mut self) -> Result<GameId, ParseError> {
        self.enter()?;
        let g = self.braces_inner();
        self.depth -= 1;
        let g = g?;
        self.guard(g)
    }

    fn braces_inner(&mut self) -> Result<GameId, ParseError> {
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
        self.build_slashes(&pieces)
    }

    /// Resolve bars by precedence: the longest run of bars splits first.
    fn build_slashes(&mut self, pieces: &[BracePiece]) -> Result<GameId, ParseError> {
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
        let at: Vec<usize> = runs.iter().filter(|r| r.1 == max).map(|r| r.0).collect();
        if at.len() != 1 {
            return Err(self.error("ambiguous bars: two separators of the same length"));
        }
        let (lhs, rhs) = (&pieces[..at[0]], &pieces[at[0] + 1..]);
        let left = self.side(lhs)?;
        let right = self.side(rhs)?;
        Ok(self.store.game(&left, &right))
    }

    fn side(&mut self, pieces: &[BracePiece]) -> Result<Vec<GameId>, ParseError> {
        if pieces.iter().any(|p| matches!(p, BracePiece::Bars(_))) {
            return Ok(vec![self.build_slashes(pieces)?]);
        }
        let mut out = Vec::new();
        let mut expect_game = true;
        for p in pieces {
            match (p, expect_game) {
                (BracePiece::Game(g), true) => {
                    out.push(*g);
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
