//! Reading CGSuite notation into a syntax tree ([`Expression::parse`]).
//!
//! The grammar (the crate documentation lists every form with examples):
//!
//! ```text
//! statement := expr [relation expr]          relation: <= >= < > == <> <| |>
//! expr      := signed (('+' | '-') signed)*
//! signed    := '+-' unary | unary
//! product   := ordinal ('*' ordinal)*        (n * G, G * n: one side an integer)
//! ordinal   := postfix (':' postfix)*        (ordinal sum G:H)
//! postfix   := primary ('.' Method ['(' args ')'])*
//! primary   := literal | '{' options '}' | '(' expr ')' | '#k'
//!            | Function '(' expr [',' expr]* ')'
//! literal   := [number] [ups] [star] ['.' digits [star]]
//! ```
//!
//! A `*` written directly after a game and followed by digits (`3*5`, `{0|*}*2`)
//! is a star suffix, as printed (`3*5` is `3 + *5`); with a space, or before
//! `{`, `(`, `#`, `^` or `v`, it multiplies (`3 * 5` is 15, `3*^` is `3·↑`).

use num_bigint::BigInt;
use num_traits::Zero;

use crate::big::BigDyadic;
use crate::cursor::{unexpected, Cursor};
use crate::notation::{
    ParseError, Uptimal, MAX_DEPTH, MAX_NIMBER, MAX_POWER, MAX_UPS, MAX_UPTIMAL_DIGITS,
};

/// Most decimal digits of a number literal (its numerator or denominator).
pub const MAX_LITERAL_DIGITS: usize = 4096;

/// A text in CGSuite notation, read and checked ([`Expression::parse`]) but not
/// evaluated: reading builds no game, so every syntax error, literal out of bounds
/// or nesting too deep is found before any work. [`crate::GameStore::evaluate`]
/// gives its value, [`crate::GameStore::evaluate_answer`] its answer (a game or,
/// for a comparison, true or false).
#[derive(Clone, Debug)]
pub struct Expression {
    pub(crate) root: Ast,
    /// `G <= H` and the like: the relation and the right-hand side.
    pub(crate) relation: Option<(Relation, Ast)>,
    /// The largest `#k` and where it is written.
    pub(crate) largest_given: Option<(usize, usize)>,
    /// The text read, which the byte offsets of the tree are in (for the
    /// character counts of the evaluation's errors).
    pub(crate) text: String,
}

/// A comparison between two games, as CGSuite writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `G <= H`.
    AtMost,
    /// `G >= H`.
    AtLeast,
    /// `G < H`: `G <= H` and not equal.
    Less,
    /// `G > H`.
    Greater,
    /// `G == H`.
    Equal,
    /// `G <> H`: confused (incomparable), `G || H`.
    Confused,
    /// `G <| H`: less than or confused with (`G ⧏ H`, not `G >= H`).
    LessOrConfused,
    /// `G |> H`: greater than or confused with (`G ⧐ H`, not `G <= H`).
    GreaterOrConfused,
    /// `G != H`: not equal.
    NotEqual,
    /// `G === H`: identical, CGSuite's test of the same object. Values are held
    /// in canonical form (short games hash-consed, stoppers simplest), so two
    /// values are identical when they are equal and written the same.
    Identical,
    /// `G !== H`: not identical.
    NotIdentical,
}

impl Relation {
    /// The relation as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Relation::AtMost => "<=",
            Relation::AtLeast => ">=",
            Relation::Less => "<",
            Relation::Greater => ">",
            Relation::Equal => "==",
            Relation::Confused => "<>",
            Relation::LessOrConfused => "<|",
            Relation::GreaterOrConfused => "|>",
            Relation::NotEqual => "!=",
            Relation::Identical => "===",
            Relation::NotIdentical => "!==",
        }
    }

    /// Whether it holds, given whether `G <= H` and whether `G >= H` (for
    /// [`Relation::Identical`], of canonical values: equal is identical; see
    /// [`Relation::holds_written`] for values whose text may differ).
    pub fn holds(self, le: bool, ge: bool) -> bool {
        self.holds_written(le, ge, true)
    }

    /// Whether it holds, given whether `G <= H`, whether `G >= H`, and whether
    /// the two values are written the same (which only identity asks).
    pub fn holds_written(self, le: bool, ge: bool, same_text: bool) -> bool {
        match self {
            Relation::AtMost => le,
            Relation::AtLeast => ge,
            Relation::Less => le && !ge,
            Relation::Greater => ge && !le,
            Relation::Equal => le && ge,
            Relation::Confused => !le && !ge,
            Relation::LessOrConfused => !ge,
            Relation::GreaterOrConfused => !le,
            Relation::NotEqual => !(le && ge),
            Relation::Identical => le && ge && same_text,
            Relation::NotIdentical => !(le && ge && same_text),
        }
    }
}

/// An operation written as a method (`G.Cool(1)`) or a function (`Tiny(2)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Function {
    Cool,
    Heat,
    Overheat,
    AtomicWeight,
    Mean,
    Temperature,
    LeftStop,
    RightStop,
    Birthday,
    Tiny,
    Miny,
}

impl Function {
    /// Whether it measures a game (a number, or the atomic weight) rather than
    /// making a game from it.
    fn is_measure(self) -> bool {
        matches!(
            self,
            Function::AtomicWeight
                | Function::Mean
                | Function::Temperature
                | Function::LeftStop
                | Function::RightStop
                | Function::Birthday
        )
    }

    /// What it computes, in words, for messages.
    fn description(self) -> &'static str {
        match self {
            Function::Cool => "cooling",
            Function::Heat => "heating",
            Function::Overheat => "overheating",
            Function::AtomicWeight => "the atomic weight",
            Function::Mean => "the mean",
            Function::Temperature => "the temperature",
            Function::LeftStop => "the Left stop",
            Function::RightStop => "the Right stop",
            Function::Birthday => "the birthday",
            Function::Tiny => "Tiny",
            Function::Miny => "Miny",
        }
    }
}

/// What a short-game function or method computes, in words (`cooling` for
/// `Cool`), read without regard to case; `None` for any other word.
pub fn function_description(word: &str) -> Option<&'static str> {
    function(word).map(|(f, _)| f.description())
}

/// Every function: its name as CGSuite writes it and how many arguments follow
/// the game.
const FUNCTIONS: [(&str, Function, usize); 11] = [
    ("Cool", Function::Cool, 1),
    ("Heat", Function::Heat, 1),
    ("Overheat", Function::Overheat, 2),
    ("AtomicWeight", Function::AtomicWeight, 0),
    ("Mean", Function::Mean, 0),
    ("Temperature", Function::Temperature, 0),
    ("LeftStop", Function::LeftStop, 0),
    ("RightStop", Function::RightStop, 0),
    ("Birthday", Function::Birthday, 0),
    ("Tiny", Function::Tiny, 0),
    ("Miny", Function::Miny, 0),
];

/// The words of the short-game notation (function and method names), read
/// without regard to case; any other word belongs to the loopy notation.
pub fn is_function_name(word: &str) -> bool {
    function(word).is_some()
}

fn function(word: &str) -> Option<(Function, usize)> {
    FUNCTIONS
        .iter()
        .find(|(name, _, _)| name.eq_ignore_ascii_case(word))
        .map(|&(_, f, n)| (f, n))
}

fn function_names() -> String {
    FUNCTIONS.iter().map(|f| f.0).collect::<Vec<_>>().join(", ")
}

/// A node of the syntax tree, with the byte offset where it starts.
#[derive(Clone, Debug)]
pub(crate) struct Ast {
    pub at: usize,
    pub term: Term,
}

#[derive(Clone, Debug)]
pub(crate) enum Term {
    /// A number literal (its sign included), of any size.
    Number(BigDyadic),
    /// `#k`.
    Given(usize),
    /// `{L | R}` (bars already resolved).
    Braces(Vec<Ast>, Vec<Ast>),
    /// `.d1d2…dk*m` (the number part, if any, is a separate term of a sum).
    Uptimal(Uptimal),
    /// A game followed by an ups suffix and/or a star suffix: `1/2^*`, `{0|*}v*2`.
    Suffixed {
        base: Box<Ast>,
        ups: Option<(Ups, usize)>,
        star: Option<(u32, usize)>,
    },
    /// `-g`.
    Neg(Box<Ast>),
    /// `+-g` (one game) or `+-{g,h}` (several): `{g,h | -g,-h}`.
    PlusMinus(Vec<Ast>),
    /// `a + b - c …`: the first term, then each further term with `true` for `-`.
    Sum(Box<Ast>, Vec<(bool, Ast)>),
    /// `a * b`, one of them an integer (or both numbers).
    Product(Box<Ast>, Box<Ast>),
    /// `a / b`, both numbers (`3 / 4`; a literal `3/4` is a `Number`).
    Quotient(Box<Ast>, Box<Ast>),
    /// `g : h`, the ordinal sum.
    Ordinal(Box<Ast>, Box<Ast>),
    /// `g.Method(args)` or `Function(g, args)`: the game first.
    Call(Function, Vec<Ast>),
}

/// An ups suffix: `^<n>`, `^[n]`, or `n·↑`; negated for `v`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ups {
    pub negative: bool,
    pub kind: UpsKind,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum UpsKind {
    Power(u32),
    PowerSum(u32),
    Multiple(i64),
}

impl Expression {
    /// Reads `text` (see the crate documentation for the grammar and
    /// [`crate::GameStore::parse`] for the bounds), building no game.
    pub fn parse(text: &str) -> Result<Expression, ParseError> {
        Expression::read(text).map_err(|e| e.locate(text))
    }

    fn read(text: &str) -> Result<Expression, ParseError> {
        let mut p = Parser {
            cursor: Cursor::new(text),
            largest_given: None,
        };
        let root = p.expr()?;
        p.cursor.skip_ws();
        if p.cursor.looking_at("<=>") {
            return Err(p.error(
                "`<=>` (CGSuite's three-way comparison) is not read: ask one relation, \
                 `<=`, `>=`, `==`, `!=`, `<>`, `<|` or `|>`",
            ));
        }
        let relation = match p.relation() {
            Some(r) => {
                let rhs = p.expr()?;
                p.cursor.skip_ws();
                Some((r, rhs))
            }
            None => None,
        };
        if !p.cursor.at_end() {
            let save = p.cursor.pos;
            let message = if p.relation().is_some() {
                "a comparison has two sides: `G <= H`; compare a third game separately".to_string()
            } else {
                unexpected(&p.cursor, true)
            };
            p.cursor.pos = save;
            return Err(p.error(&message));
        }
        // A number that is not dyadic where a game is needed: refused now,
        // before any position is evaluated.
        crate::evaluate::check_numbers(&root, relation.as_ref().map(|(_, rhs)| rhs))?;
        Ok(Expression {
            root,
            relation,
            largest_given: p.largest_given,
            text: text.to_string(),
        })
    }

    /// Whether the value is a measure of a game rather than a game to play: the
    /// result of a method that measures (`.Mean`, `.Temperature`, `.LeftStop`,
    /// `.RightStop`, `.Birthday`, `.AtomicWeight`), possibly negated or in sums
    /// and multiples with numbers (`G.LeftStop - G.RightStop`). Its outcome class
    /// says nothing about the game measured.
    pub fn is_measure(&self) -> bool {
        self.relation.is_none() && measure(&self.root) == Some(true)
    }

    /// Refuses a text that is a number but not a game (`1/3`, a rational number
    /// that is not dyadic) where a game is needed: as an option or a term of a
    /// loopy game.
    pub fn check_game(&self) -> Result<(), ParseError> {
        crate::evaluate::in_games(&self.root).map_err(|e| e.locate(&self.text))
    }

    /// The relation when the text is a comparison (`G <= H`).
    pub fn relation(&self) -> Option<Relation> {
        self.relation.as_ref().map(|r| r.0)
    }
}

/// `Some(true)` for a measure (see [`Expression::is_measure`]), `Some(false)`
/// for a number written, `None` for anything else.
fn measure(ast: &Ast) -> Option<bool> {
    fn all<'a>(asts: impl IntoIterator<Item = &'a Ast>) -> Option<bool> {
        asts.into_iter()
            .try_fold(false, |any, a| measure(a).map(|m| any || m))
    }
    match &ast.term {
        Term::Number(_) => Some(false),
        Term::Call(f, _) => f.is_measure().then_some(true),
        Term::Neg(a) => measure(a),
        Term::Sum(first, rest) => all(std::iter::once(&**first).chain(rest.iter().map(|r| &r.1))),
        Term::Product(a, b) | Term::Quotient(a, b) => all([&**a, &**b]),
        _ => None,
    }
}

struct Parser {
    cursor: Cursor,
    largest_given: Option<(usize, usize)>,
}

/// A piece of the inside of braces: a game, a comma, or a run of `k` bars.
enum BracePiece {
    Game(Ast),
    Comma,
    Bars(usize),
}

/// Whether a `-` right after an uptimal digit negates it (`.9-`, `.21-1`, as
/// CGSuite prints negative digits) rather than starting a subtraction: it is
/// followed by the end, another digit, a star, a closing mark or a relation,
/// possibly after spaces that lead to the end or such a mark.
pub fn negates_digit(cursor: &Cursor) -> bool {
    let closing = |c: char| matches!(c, ')' | '}' | '|' | ',' | '<' | '>' | '=' | '&' | ']');
    match cursor.peek_at(1) {
        None => true,
        Some(c) if c.is_ascii_digit() || c == '(' || c == '*' || closing(c) => true,
        Some(c) if c.is_whitespace() => {
            let mut k = 2;
            while cursor.peek_at(k).is_some_and(char::is_whitespace) {
                k += 1;
            }
            cursor.peek_at(k).is_none_or(closing)
        }
        _ => false,
    }
}

impl Parser {
    /// Parses with one more level of nesting.
    fn nested<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, ParseError>,
    ) -> Result<T, ParseError> {
        if !self.cursor.enter(MAX_DEPTH as usize) {
            return Err(self.error(&format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        let result = f(self);
        self.cursor.leave();
        result
    }

    fn at(&self) -> usize {
        self.cursor.at()
    }

    fn error(&self, message: &str) -> ParseError {
        ParseError {
            position: self.at(),
            character: 0,
            message: message.to_string(),
            work_limit: None,
        }
    }

    fn peek(&self) -> Option<char> {
        self.cursor.peek()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.cursor.peek_at(k)
    }

    fn eat(&mut self, c: char) -> bool {
        self.cursor.eat(c)
    }

    fn skip_ws(&mut self) {
        self.cursor.skip_ws();
    }

    /// Reads a relation if one comes next (whitespace already skipped).
    fn relation(&mut self) -> Option<Relation> {
        // The longest spellings first: `===` before `==`, `!==` before `!=`.
        const RELATIONS: [(&str, Relation); 11] = [
            ("===", Relation::Identical),
            ("!==", Relation::NotIdentical),
            ("!=", Relation::NotEqual),
            ("<=", Relation::AtMost),
            (">=", Relation::AtLeast),
            ("==", Relation::Equal),
            ("<>", Relation::Confused),
            ("<|", Relation::LessOrConfused),
            ("|>", Relation::GreaterOrConfused),
            ("<", Relation::Less),
            (">", Relation::Greater),
        ];
        RELATIONS
            .iter()
            .find(|(text, _)| self.cursor.eat_str(text))
            .map(|r| r.1)
    }

    /// `*` or `*m` after a term: the nimber's size, or `None` when no `*` follows.
    /// As a suffix (`suffix`), a bare `*` before `{`, `(`, `#`, `^` or `v` is left
    /// for multiplication.
    fn read_star(&mut self, suffix: bool) -> Result<Option<(u32, usize)>, ParseError> {
        let at = self.at();
        if self.peek() != Some('*') {
            return Ok(None);
        }
        if suffix && matches!(self.peek_at(1), Some('{' | '(' | '#' | '^' | 'v')) {
            return Ok(None);
        }
        self.cursor.pos += 1;
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
        let start = self.cursor.pos;
        let mut v: u64 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d)))
                .ok_or_else(|| self.error("number too large"))?;
            self.cursor.pos += 1;
        }
        Ok((self.cursor.pos > start).then_some(v))
    }

    /// A run of digits of any length (at most [`MAX_LITERAL_DIGITS`]).
    fn big_unsigned(&mut self) -> Result<Option<BigInt>, ParseError> {
        let at = self.at();
        let Some(digits) = self.cursor.digits() else {
            return Ok(None);
        };
        if digits.len() > MAX_LITERAL_DIGITS {
            return Err(ParseError {
                position: at,
                character: 0,
                message: format!("number too long (at most {MAX_LITERAL_DIGITS} digits)"),
                work_limit: None,
            });
        }
        Ok(Some(digits.parse().expect("ASCII digits")))
    }

    /// A count written in the text (of ups, or an uptimal digit), at most [`MAX_UPS`].
    fn count(&self, v: u64, what: &str) -> Result<i64, ParseError> {
        i64::try_from(v)
            .ok()
            .filter(|v| *v <= MAX_UPS)
            .ok_or_else(|| self.error(&format!("{what} too large (at most {MAX_UPS})")))
    }

    /// expr := signed (('+' | '-') signed)*
    fn expr(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        let at = self.at();
        let first = self.signed()?;
        let mut rest = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some('+') => {
                    // `a+-b` is `a + ±b`: leave the `+-` to signed.
                    if self.peek_at(1) != Some('-') {
                        self.cursor.pos += 1;
                    }
                    rest.push((false, self.signed()?));
                }
                Some('-') => {
                    self.cursor.pos += 1;
                    rest.push((true, self.product()?));
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

    /// A product possibly preceded by `+-`: `+-G`, `+-{G,H}` (a list of games
    /// without bars).
    fn signed(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        if self.peek() == Some('+') && self.peek_at(1) == Some('-') {
            let at = self.at();
            self.cursor.pos += 2;
            return self.nested(|p| {
                p.skip_ws();
                if p.peek() == Some('{') {
                    let brace_at = p.at();
                    p.cursor.pos += 1;
                    let pieces = p.nested(|p| p.brace_pieces())?;
                    if !pieces.iter().any(|q| matches!(q, BracePiece::Bars(_))) {
                        let games = p.side(brace_at, pieces)?;
                        if games.is_empty() {
                            return Err(p.error("`+-{…}` needs at least one game"));
                        }
                        return Ok(Ast {
                            at,
                            term: Term::PlusMinus(games),
                        });
                    }
                    let g = p.build_slashes(brace_at, pieces)?;
                    let g = p.suffixes(g)?;
                    let g = p.postfix_from(g)?;
                    return Ok(Ast {
                        at,
                        term: Term::PlusMinus(vec![g]),
                    });
                }
                let g = p.unary()?;
                Ok(Ast {
                    at,
                    term: Term::PlusMinus(vec![g]),
                })
            });
        }
        self.product()
    }

    /// product := ordinal (('*' | '/') ordinal)*, left to right as CGSuite
    /// reads them (`3 / 4 * 6` is `(3/4) * 6`).
    fn product(&mut self) -> Result<Ast, ParseError> {
        let at = self.at();
        let mut acc = self.unary()?;
        loop {
            let save = self.cursor.pos;
            self.skip_ws();
            let divide = match self.peek() {
                Some('*') => false,
                Some('/') => true,
                _ => {
                    self.cursor.pos = save;
                    return Ok(acc);
                }
            };
            self.cursor.pos += 1;
            let rhs = self.unary()?;
            let (a, b) = (Box::new(acc), Box::new(rhs));
            acc = Ast {
                at,
                term: if divide {
                    Term::Quotient(a, b)
                } else {
                    Term::Product(a, b)
                },
            };
        }
    }

    fn unary(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        let at = self.at();
        if self.eat('-') {
            // `-1/2v*` is (-1/2) + ↓ + *: the sign belongs to the number only,
            // matching how such values are printed. Otherwise `-` negates.
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                let g = self.compound(at, true)?;
                return self.ordinal_from(g);
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
            return self.signed();
        }
        let g = self.postfix()?;
        self.ordinal_from(g)
    }

    /// ordinal := postfix (':' postfix)*, starting from `first`.
    fn ordinal_from(&mut self, first: Ast) -> Result<Ast, ParseError> {
        let mut acc = first;
        loop {
            let save = self.cursor.pos;
            self.skip_ws();
            if !self.eat(':') {
                self.cursor.pos = save;
                return Ok(acc);
            }
            let rhs = self.nested(|p| {
                p.skip_ws();
                if p.eat('-') {
                    let at = p.at();
                    let g = p.postfix()?;
                    return Ok(Ast {
                        at,
                        term: Term::Neg(Box::new(g)),
                    });
                }
                p.postfix()
            })?;
            acc = Ast {
                at: acc.at,
                term: Term::Ordinal(Box::new(acc), Box::new(rhs)),
            };
        }
    }

    fn postfix(&mut self) -> Result<Ast, ParseError> {
        let g = self.primary()?;
        self.postfix_from(g)
    }

    /// `.Method` and `.Method(args)` after a game.
    fn postfix_from(&mut self, mut g: Ast) -> Result<Ast, ParseError> {
        loop {
            let save = self.cursor.pos;
            self.skip_ws();
            if !(self.peek() == Some('.')
                && self.peek_at(1).is_some_and(|c| c.is_ascii_alphabetic()))
            {
                self.cursor.pos = save;
                return Ok(g);
            }
            self.cursor.pos += 1;
            let at = self.at();
            let name = self.cursor.word();
            let Some((f, arity)) = function(&name) else {
                return Err(ParseError {
                    position: at,
                    character: 0,
                    message: format!("unknown method `{name}` (known: {})", function_names()),
                    work_limit: None,
                });
            };
            let mut args = vec![g];
            self.arguments(&name, arity, &mut args, true)?;
            g = Ast {
                at,
                term: Term::Call(f, args),
            };
        }
    }

    /// `(a, b, …)` with `arity` arguments after the ones in `args`; for a method
    /// without arguments the parentheses are optional.
    fn arguments(
        &mut self,
        name: &str,
        arity: usize,
        args: &mut Vec<Ast>,
        method: bool,
    ) -> Result<(), ParseError> {
        let save = self.cursor.pos;
        self.skip_ws();
        if !self.eat('(') {
            self.cursor.pos = save;
            if method && arity == 0 {
                return Ok(());
            }
            return Err(self.error(&format!("expected '(' after `{name}`")));
        }
        let wanted = args.len() + arity;
        self.skip_ws();
        if !self.eat(')') {
            loop {
                let a = self.nested(|p| p.expr())?;
                args.push(a);
                self.skip_ws();
                if self.eat(')') {
                    break;
                }
                if !self.eat(',') {
                    return Err(self.error("expected ',' or ')'"));
                }
            }
        }
        if args.len() != wanted {
            let expected = arity;
            let given = args.len() - (wanted - arity);
            return Err(self.error(&format!(
                "`{name}` takes {expected} argument{}, not {given}",
                if expected == 1 { "" } else { "s" }
            )));
        }
        Ok(())
    }

    fn primary(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        let at = self.at();
        match self.peek() {
            Some('{') => {
                self.cursor.pos += 1;
                let g = self.nested(|p| p.braces(at))?;
                self.suffixes(g)
            }
            Some('(') => {
                self.cursor.pos += 1;
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
                self.cursor.pos += 1;
                self.uptimal(at)
            }
            Some('#') => {
                self.cursor.pos += 1;
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
            Some(c) if c.is_ascii_alphabetic() => self.function_call(at),
            Some(_) => Err(self.error(&unexpected(&self.cursor, false))),
            None => Err(self.error("unexpected end of input")),
        }
    }

    /// `Tiny(G)`, `Cool(G, t)`: a function with the game as first argument.
    fn function_call(&mut self, at: usize) -> Result<Ast, ParseError> {
        let name = self.cursor.word();
        let Some((f, arity)) = function(&name) else {
            return Err(ParseError {
                position: at,
                character: 0,
                message: format!(
                    "unknown word `{name}` (the short-game functions are {}; loopy games \
                     use on, off, over, under, dud, upon, pass and labels)",
                    function_names()
                ),
                work_limit: None,
            });
        };
        let mut args = Vec::new();
        self.arguments(&name, arity + 1, &mut args, false)?;
        Ok(Ast {
            at,
            term: Term::Call(f, args),
        })
    }

    /// `[number] [ups] [star] ['.' digits [star]]` with at least one part, e.g.
    /// `1/2`, `^^*`, `v3*2`, `^<2>`, `^[3]*`, `2^`, and the uptimals with a
    /// number part as CGSuite prints them, `5.0`, `6*.1`, `73/16*8.9-`;
    /// `negative` when a `-` came before a digit.
    fn compound(&mut self, at: usize, negative: bool) -> Result<Ast, ParseError> {
        let mut x = BigDyadic::zero();
        // A fraction that is not dyadic (`1/3`): the quotient of two numbers,
        // a rational number but not a game (see `crate::rational`).
        let mut denominator = None;
        let has_number = self.peek().is_some_and(|c| c.is_ascii_digit());
        if let Some(n) = self.big_unsigned()? {
            let mut value = BigDyadic::integer(n.clone());
            if self.peek() == Some('/') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
                let slash = self.at();
                self.cursor.pos += 1;
                let d = self.big_unsigned()?.unwrap_or_default();
                let odd = !d.is_zero() && !(&n % (&d >> d.trailing_zeros().unwrap_or(0))).is_zero();
                if odd {
                    denominator = Some((BigDyadic::integer(d), slash));
                } else {
                    value = dyadic_fraction(&n, &d).map_err(|message| ParseError {
                        position: slash,
                        character: 0,
                        message,
                        work_limit: None,
                    })?;
                }
            }
            x = if negative { -value } else { value };
        }
        let number = Ast {
            at,
            term: Term::Number(x),
        };
        let base = match denominator {
            Some((d, slash)) => Ast {
                at,
                term: Term::Quotient(
                    Box::new(number),
                    Box::new(Ast {
                        at: slash + 1,
                        term: Term::Number(d),
                    }),
                ),
            },
            None => number,
        };
        let g = self.suffixes_with(base, !has_number)?;
        // An uptimal's digits after the number and star: `6*.1`, `5.0`.
        if self.peek() == Some('.')
            && self
                .peek_at(1)
                .is_some_and(|c| c.is_ascii_digit() || c == '(')
        {
            if let Term::Suffixed { ups: Some(_), .. } = g.term {
                return Err(self.error("an uptimal's digits follow a number and a star, not ups"));
            }
            let dot = self.at();
            self.cursor.pos += 1;
            let digits = self.uptimal(dot)?;
            return Ok(Ast {
                at,
                term: Term::Sum(Box::new(g), vec![(false, digits)]),
            });
        }
        Ok(g)
    }

    /// Up/down and star suffixes after `base`.
    fn suffixes(&mut self, base: Ast) -> Result<Ast, ParseError> {
        self.suffixes_with(base, false)
    }

    /// Up/down and star suffixes after `base`; `alone` when nothing was read
    /// before them (then a bare `*` is the nimber itself, not a multiplication).
    fn suffixes_with(&mut self, base: Ast, alone: bool) -> Result<Ast, ParseError> {
        let mut ups = None;
        let at = self.at();
        if let Some(c @ ('^' | 'v')) = self.peek() {
            self.cursor.pos += 1;
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
        let star = self.read_star(!(alone && ups.is_none()))?;
        if ups.is_none() && star.is_none() {
            if alone && matches!(base.term, Term::Number(ref x) if x.is_zero()) {
                // Nothing was written: `*{` and the like.
                return Err(self.error("expected a game"));
            }
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

    /// After the `.`: digits (`0`–`9`, or `(k)` for any integer `k`; a digit
    /// followed by U+0305 COMBINING OVERLINE or, as CGSuite prints it, by `-` is
    /// negative), then an optional `*` or `*m`.
    fn uptimal(&mut self, at: usize) -> Result<Ast, ParseError> {
        let mut digits = Vec::new();
        loop {
            if digits.len() > MAX_UPTIMAL_DIGITS as usize {
                return Err(self.error(&format!("more than {MAX_UPTIMAL_DIGITS} uptimal digits")));
            }
            match self.peek() {
                Some(c) if c.is_ascii_digit() => {
                    self.cursor.pos += 1;
                    let mut d = i64::from(c.to_digit(10).unwrap_or(0));
                    if self.eat('\u{0305}') {
                        d = -d;
                    } else if self.peek() == Some('-') && negates_digit(&self.cursor) {
                        self.cursor.pos += 1;
                        d = -d;
                    }
                    digits.push(d);
                }
                Some('(') => {
                    self.cursor.pos += 1;
                    let neg = self.eat('-');
                    let v = self
                        .unsigned()?
                        .ok_or_else(|| self.error("expected digit"))?;
                    let v = self.count(v, "digit")?;
                    if !self.eat(')') {
                        return Err(self.error("expected ')'"));
                    }
                    let mut d = if neg { -v } else { v };
                    if self.peek() == Some('-') && negates_digit(&self.cursor) {
                        self.cursor.pos += 1;
                        d = -d;
                    }
                    digits.push(d);
                }
                _ => break,
            }
        }
        if digits.is_empty() {
            return Err(self.error("expected uptimal digits"));
        }
        let star = self.read_star(false)?.map_or(0, |s| s.0);
        Ok(Ast {
            at,
            term: Term::Uptimal(Uptimal {
                number: crate::Dyadic::ZERO,
                digits,
                star,
            }),
        })
    }

    /// The pieces inside `{ … }` (the `{` already consumed), up to and including `}`.
    fn brace_pieces(&mut self) -> Result<Vec<BracePiece>, ParseError> {
        let mut pieces = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some('}') => {
                    self.cursor.pos += 1;
                    return Ok(pieces);
                }
                Some(',') => {
                    self.cursor.pos += 1;
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
    }

    /// Inside `{ … }` (the `{` already consumed), up to and including `}`.
    fn braces(&mut self, at: usize) -> Result<Ast, ParseError> {
        let pieces = self.brace_pieces()?;
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

/// `n / d` as a dyadic rational: the fraction reduced must have a power of two
/// below (`0/7`, `6/4`, `3/6`); an error otherwise.
fn dyadic_fraction(n: &BigInt, d: &BigInt) -> Result<BigDyadic, String> {
    if d.is_zero() {
        return Err("division by zero".into());
    }
    if n.is_zero() {
        return Ok(BigDyadic::zero());
    }
    let twos = d.trailing_zeros().unwrap_or(0);
    let odd = d >> twos;
    if !(n % &odd).is_zero() {
        return Err(format!(
            "{n}/{d} is not a dyadic rational: game values are numbers whose denominator \
             is a power of two"
        ));
    }
    if twos > 1 << 16 {
        return Err("denominator too large (at most 2^65536)".into());
    }
    Ok(BigDyadic::new(n / odd, twos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameStore;

    fn error(text: &str) -> String {
        Expression::parse(text)
            .map(|_| ())
            .expect_err("an error")
            .to_string()
    }

    #[test]
    fn errors_count_characters_from_one_and_name_the_character() {
        assert_eq!(
            error("↑↑ + *"),
            "at character 1: unexpected character `↑` (write `^` for ↑: `^^` for ↑↑, `^3` for 3·↑)"
        );
        // Characters, not bytes: `↑` is three bytes.
        assert_eq!(
            error("^ + ↓"),
            "at character 5: unexpected character `↓` (write `v` for ↓: `vv` for ↓↓, `v3` for 3·↓)"
        );
        assert_eq!(
            error("^ = *"),
            "at character 3: `=` is not a comparison: write `==` (`G == H`)"
        );
        assert_eq!(
            error("{0|1 = 1}"),
            "at character 6: `=` is not a comparison: write `==` (`G == H`)"
        );
        assert_eq!(
            error("±1"),
            "at character 1: unexpected character `±` (write `+-` for ±: `+-1`, `+-{1,2}`)"
        );
        assert_eq!(error("{1|0"), "at character 5: unclosed '{'");
        assert_eq!(
            error("1 @"),
            "at character 3: unexpected character `@` after a complete game"
        );
        assert!(error("1 < 2 < 3").starts_with("at character 7: a comparison has two sides"));
        // After a two-byte character (U+0305, a negative uptimal digit): byte 5
        // is character 5, not 6.
        let e = Expression::parse(".1\u{305} @").expect_err("an error");
        assert_eq!((e.position, e.character), (5, 5));
    }

    #[test]
    fn evaluation_errors_count_characters_too() {
        let mut store = GameStore::new();
        let e = store.parse("↑↑").expect_err("refused");
        assert_eq!(e.character, 1);
        // `#1` is at byte 5 and character 3.
        let x = Expression::parse("½ ↓#1").map(|_| ()).expect_err("refused");
        assert_eq!(x.character, 1);
        let x = Expression::parse("{0|} + #1").expect("reads");
        let e = store.evaluate(&x, &[]).expect_err("no game given");
        assert_eq!(e.character, 8);
        let x = Expression::parse("*.Cool(-1)").expect("reads");
        let e = store.evaluate(&x, &[]).expect_err("negative");
        assert_eq!(e.character, 8, "{e}");
    }

    #[test]
    fn measures_are_told_from_games() {
        let measure = |text: &str| Expression::parse(text).expect("reads").is_measure();
        for text in [
            "{3|-1}.Temperature",
            "^^.AtomicWeight",
            "AtomicWeight(^^)",
            "{1|0}.Birthday",
            "{3|-1}.Mean",
            "-{3|-1}.LeftStop",
            "{3|-1}.LeftStop - {3|-1}.RightStop",
            "2 * {3|-1}.Temperature + 1/2",
        ] {
            assert!(measure(text), "{text}");
        }
        for text in [
            "2",
            "{3|-1}",
            "{3|-1}.Cool(1)",
            "*.Heat(1)",
            "{3|-1}.Mean + *",
            "Tiny(2)",
            "{3|-1}.Mean <= 1",
        ] {
            assert!(!measure(text), "{text}");
        }
    }
}
