//! Reading CGSuite notation for loopy games (the grammar is in the parent
//! module's documentation): a parser to a syntax tree, then its evaluation.

use super::*;

/// A short game's text read by `chopsticks-cgt` within [`MAX_PARSE_SHORT_WORK`].
fn parse_short(store: &mut GameStore, text: &str) -> Result<GameId, chopsticks_cgt::ParseError> {
    let expression = chopsticks_cgt::Expression::parse(text)?;
    store.evaluate_within(&expression, &[], MAX_PARSE_SHORT_WORK)
}

/// A `chopsticks-cgt` error in a short game written at byte `at`.
fn short_error(at: usize) -> impl Fn(chopsticks_cgt::ParseError) -> ParseError {
    move |e| ParseError {
        position: at + e.position,
        character: 0,
        message: e.message,
    }
}

/// The value of a short game's text written at byte `at`, within the bounds on
/// short games inside loopy text.
fn short_value(text: &str, at: usize) -> Result<Value, ParseError> {
    let mut store = GameStore::new();
    let id = parse_short(&mut store, text).map_err(short_error(at))?;
    // A short game of few vertices can still print exponentially long (an
    // ordinal sum of nimbers): its text must stay within what is read.
    if store.printed_length_bound(id, MAX_INPUT as u64) > MAX_INPUT as u64 {
        return Err(ParseError {
            position: at,
            character: 0,
            message: format!(
                "short game too large: its text would be longer than {MAX_INPUT} bytes"
            ),
        });
    }
    let g = short_graph(&store, id, at)?;
    Ok(Value::Stopper(Stopper::from_canonical_graph(&g)))
}

/// Whether a text uses the loopy notation's words (`over`, `pass`, labels) or
/// `&`, rather than only short-game notation (whose letters are `v` and the
/// names of its functions, `Cool`, `AtomicWeight`, …).
pub fn looks_loopy(text: &str) -> bool {
    if text.contains('&') {
        return true;
    }
    let mut word = String::new();
    // The character before the word: a word after `.` is a method (`G.Cool(1)`),
    // short-game notation even when misspelt.
    let (mut before, mut previous) = (' ', ' ');
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' {
            if word.is_empty() {
                before = previous;
            }
            word.push(c);
            previous = c;
            continue;
        }
        previous = c;
        let letters = word.trim_start_matches(|d: char| d.is_ascii_digit());
        let loopy = letters.chars().any(|c| c.is_alphabetic() && c != 'v')
            && !chopsticks_cgt::parse::is_function_name(letters)
            && !(before == '.' && word.starts_with(|c: char| c.is_ascii_alphabetic()));
        if loopy {
            return true;
        }
        word.clear();
    }
    false
}

/// Splits a comparison `G <= H` at its relation (the first `<=`, `>=`, `==`,
/// `!=`, `===`, `!==`, `<>`, `<|`, `|>`, `<` or `>` outside braces,
/// parentheses, brackets and the
/// `<…>` of `^<on>`): the text before, the relation, the text after.
pub fn split_relation(text: &str) -> Option<(&str, Relation, &str)> {
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    let mut angle = 0i32;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => depth -= 1,
            b'<' if i > 0 && matches!(bytes[i - 1], b'^' | b'v') => angle += 1,
            b'>' if angle > 0 => angle -= 1,
            _ if depth == 0 && angle == 0 => {
                let two = text.get(i..i + 2).unwrap_or("");
                let three = text.get(i..i + 3).unwrap_or("");
                let relation = match (three, two) {
                    ("===", _) => Some((Relation::Identical, 3)),
                    ("!==", _) => Some((Relation::NotIdentical, 3)),
                    (_, "!=") => Some((Relation::NotEqual, 2)),
                    _ => None,
                };
                let relation = relation.or(match two {
                    "<=" => Some((Relation::AtMost, 2)),
                    ">=" => Some((Relation::AtLeast, 2)),
                    "==" => Some((Relation::Equal, 2)),
                    "<>" => Some((Relation::Confused, 2)),
                    "<|" => Some((Relation::LessOrConfused, 2)),
                    "|>" => Some((Relation::GreaterOrConfused, 2)),
                    _ if c == b'<' => Some((Relation::Less, 1)),
                    _ if c == b'>' => Some((Relation::Greater, 1)),
                    _ => None,
                });
                if let Some((r, len)) = relation {
                    return Some((&text[..i], r, &text[i + len..]));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Refuses a text longer than [`MAX_INPUT`].
fn check_length(text: &str) -> Result<(), ParseError> {
    if text.len() > MAX_INPUT {
        return Err(ParseError {
            position: MAX_INPUT,
            character: 0,
            message: format!("input longer than {MAX_INPUT} bytes"),
        });
    }
    Ok(())
}

/// The graph of a short game read at byte `at`, refused past
/// [`MAX_PARSE_SHORT_VERTICES`] vertices or [`MAX_PARSE_SHORT_MOVES`] moves.
fn short_graph(store: &GameStore, id: GameId, at: usize) -> Result<Game, ParseError> {
    let g = Game::from_short(store, id, MAX_PARSE_SHORT_VERTICES).map_err(|e| perr(at, e))?;
    if g.edge_count() > MAX_PARSE_SHORT_MOVES {
        return Err(perr(
            at,
            LoopyError::TooLarge {
                what: "short game in a loopy text (moves)",
                limit: MAX_PARSE_SHORT_MOVES,
            },
        ));
    }
    Ok(g)
}

// ----------------------------------------------------------------------
// Parsing
// ----------------------------------------------------------------------

/// Reads a value in CGSuite notation (see the module documentation).
pub fn parse(text: &str) -> Result<Value, ParseError> {
    read_value(text).map_err(|e| e.locate(text))
}

impl ParseError {
    /// The error with [`ParseError::character`] set from `text`, the text whose
    /// byte offset [`ParseError::position`] is.
    fn locate(mut self, text: &str) -> ParseError {
        self.character = chopsticks_cgt::notation::character_at(text, self.position);
        self
    }
}

fn read_value(text: &str) -> Result<Value, ParseError> {
    check_length(text)?;
    if !looks_loopy(text) {
        return short_value(text, 0);
    }
    let ast = read_ast(text)?;
    let mut e = Evaluator;
    e.eval(&ast)
}

/// The syntax tree of a whole text (its length already checked).
fn read_ast(text: &str) -> Result<Ast, ParseError> {
    let mut p = Parser {
        cursor: Cursor::new(text),
    };
    let ast = p.sided()?;
    p.skip_ws();
    if !p.at_end() {
        return Err(p.error(&unexpected(&p.cursor, true)));
    }
    Ok(ast)
}

/// Checks that `text` is well formed in the notation without computing its
/// value (cheap: no game arithmetic). [`parse`] may still refuse it: an
/// onside below its offside, a bound of the arithmetic, a short game past its
/// limits.
pub fn check_syntax(text: &str) -> Result<(), ParseError> {
    read_syntax(text).map_err(|e| e.locate(text))
}

fn read_syntax(text: &str) -> Result<(), ParseError> {
    check_length(text)?;
    let ast = read_ast(text)?;
    if let Some((position, message)) = unbound(&ast, &mut Vec::new()) {
        return Err(ParseError {
            position,
            character: 0,
            message,
        });
    }
    check_shorts(&ast)
}

/// Reads (without evaluating) every short game's text in `ast`.
fn check_shorts(ast: &Ast) -> Result<(), ParseError> {
    match ast {
        Ast::Short(text, at) => chopsticks_cgt::Expression::parse(text)
            .and_then(|e| e.check_game())
            .map_err(short_error(*at)),
        Ast::Braces { left, right, .. } => left.iter().chain(right).try_for_each(check_shorts),
        Ast::PlusMinus(games, _) => games.iter().try_for_each(check_shorts),
        Ast::Neg(a) | Ast::Tiny(a, _) | Ast::Miny(a, _) => check_shorts(a),
        Ast::Sum(ts) => ts.iter().try_for_each(|(_, t)| check_shorts(t)),
        Ast::Sided(a, b, _) | Ast::Product(a, b, _) => {
            check_shorts(a).and_then(|()| check_shorts(b))
        }
        _ => Ok(()),
    }
}

#[derive(Clone, Debug)]
enum Ast {
    /// A short game in `chopsticks-cgt` notation.
    Short(String, usize),
    On,
    Off,
    Over,
    Under,
    Dud,
    /// `^[on]` (sum) or `^<on>` (power), negated for `v`.
    Upon {
        power: bool,
        negative: bool,
    },
    Pass(usize),
    Ref(String, usize),
    Braces {
        label: Option<String>,
        left: Vec<Ast>,
        right: Vec<Ast>,
        at: usize,
    },
    Neg(Box<Ast>),
    /// `+-G`, or `+-{G,H,…}` (a multiple switch `{G,H,… | -G,-H,…}`).
    PlusMinus(Vec<Ast>, usize),
    Sum(Vec<(bool, Ast)>),
    Tiny(Box<Ast>, usize),
    Miny(Box<Ast>, usize),
    Sided(Box<Ast>, Box<Ast>, usize),
    /// `a * b`, one side an integer.
    Product(Box<Ast>, Box<Ast>, usize),
}

/// The parser: a [`Cursor`] (shared with the short-game parser of
/// `chopsticks-cgt`, whose moves and looks it uses through `Deref`) and the
/// grammar below.
struct Parser {
    cursor: Cursor,
}

impl std::ops::Deref for Parser {
    type Target = Cursor;
    fn deref(&self) -> &Cursor {
        &self.cursor
    }
}

impl std::ops::DerefMut for Parser {
    fn deref_mut(&mut self) -> &mut Cursor {
        &mut self.cursor
    }
}

fn is_down_word(w: &str) -> bool {
    let rest = w.trim_start_matches('v');
    w.starts_with('v')
        && (rest.is_empty()
            || (w.len() - rest.len() == 1 && rest.chars().all(|c| c.is_ascii_digit())))
}

impl Parser {
    fn error(&self, message: &str) -> ParseError {
        ParseError {
            position: self.at(),
            character: 0,
            message: message.to_string(),
        }
    }

    fn enter(&mut self) -> Result<(), ParseError> {
        if !self.cursor.enter(MAX_NESTING) {
            return Err(self.error(&format!("nesting deeper than {MAX_NESTING} levels")));
        }
        Ok(())
    }

    /// sided := expr ['&' expr]
    fn sided(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        let at = self.at();
        let a = self.expr()?;
        self.skip_ws();
        if self.eat('&') {
            let b = self.expr()?;
            return Ok(Ast::Sided(Box::new(a), Box::new(b), at));
        }
        Ok(a)
    }

    fn expr(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        let first = self.signed()?;
        let first = self.times(first)?;
        let mut terms = vec![(false, first)];
        loop {
            self.skip_ws();
            match self.peek() {
                Some('+') => {
                    if self.peek_at(1) != Some('-') {
                        self.pos += 1;
                    }
                    let t = self.signed()?;
                    terms.push((false, self.times(t)?));
                }
                Some('-') => {
                    self.pos += 1;
                    let t = self.unary()?;
                    terms.push((true, self.times(t)?));
                }
                _ => break,
            }
            if terms.len() > MAX_INPUT {
                return Err(self.error("too many terms"));
            }
        }
        Ok(if terms.len() == 1 {
            terms.pop().expect("one").1
        } else {
            Ast::Sum(terms)
        })
    }

    /// `a * b * …` after the term `a`: integer multiples, `3 * {pass|*}`.
    fn times(&mut self, first: Ast) -> Result<Ast, ParseError> {
        let mut acc = first;
        loop {
            let save = self.pos;
            self.skip_ws();
            if self.peek() != Some('*') {
                self.pos = save;
                return Ok(acc);
            }
            let at = self.at();
            self.pos += 1;
            self.enter()?;
            let rhs = self.unary()?;
            self.leave();
            acc = Ast::Product(Box::new(acc), Box::new(rhs), at);
        }
    }

    fn signed(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        if self.peek() == Some('+') && self.peek_at(1) == Some('-') {
            let at = self.at();
            self.pos += 2;
            self.enter()?;
            self.skip_ws();
            // `+-{G,H}`: games in braces without bars, a multiple switch.
            if self.peek() == Some('{') {
                let save = self.pos;
                if let Some(games) = self.bar_free_list()? {
                    self.leave();
                    return Ok(Ast::PlusMinus(games, at));
                }
                self.pos = save;
            }
            let g = self.unary()?;
            self.leave();
            return Ok(Ast::PlusMinus(vec![g], at));
        }
        self.unary()
    }

    /// At `{`: the games of `{G, H, …}` when the braces hold no bar at their
    /// own level (then the cursor is after `}`); `None` (the cursor anywhere)
    /// when they hold one: the braces are a game.
    fn bar_free_list(&mut self) -> Result<Option<Vec<Ast>>, ParseError> {
        let at = self.at();
        self.pos += 1; // `{`
        self.enter()?;
        let mut games = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some('|') => {
                    self.leave();
                    return Ok(None);
                }
                Some('}') => {
                    self.pos += 1;
                    break;
                }
                Some(',') if !games.is_empty() => self.pos += 1,
                None => return Err(self.error("expected '}'")),
                _ => {
                    let before = self.pos;
                    let g = self.sided()?;
                    if self.pos == before {
                        return Err(self.error("expected a game"));
                    }
                    games.push(g);
                    self.skip_ws();
                    if !matches!(self.peek(), Some(',' | '|' | '}')) {
                        return Err(self.error("expected ',', '|' or '}'"));
                    }
                }
            }
        }
        self.leave();
        if games.is_empty() {
            return Err(ParseError {
                position: at,
                character: 0,
                message: "`+-{…}` needs at least one game".into(),
            });
        }
        Ok(Some(games))
    }

    fn unary(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        if self.peek() == Some('-') {
            self.pos += 1;
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return self.literal(true);
            }
            self.enter()?;
            let g = self.unary()?;
            self.leave();
            return Ok(Ast::Neg(Box::new(g)));
        }
        if self.peek() == Some('+') && self.peek_at(1) == Some('-') {
            return self.signed();
        }
        let start = self.pos;
        let g = self.primary()?;
        self.no_method(start)?;
        Ok(g)
    }

    /// Refuses a short game's method (`.Cool(1)`, `.Temperature`) after the
    /// primary read from `start`: they are defined for short games.
    fn no_method(&mut self, start: usize) -> Result<(), ParseError> {
        let save = self.pos;
        self.skip_ws();
        let dot = self.pos;
        if !(self.peek() == Some('.') && self.peek_at(1).is_some_and(|c| c.is_ascii_alphabetic())) {
            self.pos = save;
            return Ok(());
        }
        self.pos += 1;
        let name = self.word();
        let Some(what) = chopsticks_cgt::parse::function_description(&name) else {
            self.pos = dot;
            return Err(self.error(&format!(
                "unknown method `.{name}` (and the methods of short games are not defined for \
                 loopy games)"
            )));
        };
        let game = self.slice(start, save);
        let game = game.trim();
        self.pos = dot;
        Err(self.error(&if looks_loopy(game) {
            format!("{what} (`.{name}`) is defined for short games; `{game}` is loopy")
        } else {
            format!(
                "{what} (`.{name}`) is read in expressions of short games only, and this one \
                 has loopy games: evaluate `{game}.{name}` on its own"
            )
        }))
    }

    fn primary(&mut self) -> Result<Ast, ParseError> {
        self.skip_ws();
        let at = self.at();
        match self.peek() {
            Some('{') => {
                self.pos += 1;
                self.braces(None, at)
            }
            Some('(') => {
                self.pos += 1;
                self.enter()?;
                let g = self.sided()?;
                self.leave();
                self.skip_ws();
                if !self.eat(')') {
                    return Err(self.error("expected ')'"));
                }
                Ok(g)
            }
            Some(c) if c.is_ascii_digit() || c == '^' || c == '*' || c == '.' => {
                self.literal(false)
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let save = self.pos;
                let w = self.word();
                if is_down_word(&w) {
                    self.pos = save;
                    return self.literal(false);
                }
                match w.as_str() {
                    "on" => Ok(Ast::On),
                    "off" => Ok(Ast::Off),
                    "over" => Ok(Ast::Over),
                    "under" => Ok(Ast::Under),
                    "dud" => Ok(Ast::Dud),
                    // CGSuite's name for ^[on] = {pass|*}.
                    "upon" => Ok(Ast::Upon {
                        power: false,
                        negative: false,
                    }),
                    "pass" => Ok(Ast::Pass(at)),
                    "Tiny" | "Miny" => {
                        self.skip_ws();
                        if !self.eat('(') {
                            return Err(self.error("expected '('"));
                        }
                        self.enter()?;
                        let g = self.sided()?;
                        self.leave();
                        self.skip_ws();
                        if !self.eat(')') {
                            return Err(self.error("expected ')'"));
                        }
                        Ok(if w == "Tiny" {
                            Ast::Tiny(Box::new(g), at)
                        } else {
                            Ast::Miny(Box::new(g), at)
                        })
                    }
                    _ => {
                        self.skip_ws();
                        if let Some(what) =
                            chopsticks_cgt::parse::function_description(&w).filter(|_| {
                                self.peek() == Some('(')
                                    && !w.eq_ignore_ascii_case("tiny")
                                    && !w.eq_ignore_ascii_case("miny")
                            })
                        {
                            self.pos = save;
                            return Err(self.error(&format!(
                                "{what} (`{w}`) is defined for short games, and this \
                                 expression has loopy games"
                            )));
                        }
                        if self.peek() == Some('{') {
                            let at2 = self.at();
                            self.pos += 1;
                            self.braces(Some(w), at2)
                        } else {
                            Ok(Ast::Ref(w, at))
                        }
                    }
                }
            }
            Some(_) => Err(self.error(&unexpected(&self.cursor, false))),
            None => Err(self.error("unexpected end of input")),
        }
    }

    /// A literal: number, ups, loopy ups or `over`/`under`, star.
    fn literal(&mut self, negative: bool) -> Result<Ast, ParseError> {
        let at = self.at();
        let start = self.pos;
        if self.peek() == Some('.') {
            self.pos += 1;
            while let Some(c) = self.peek() {
                // A digit, an overline, or CGSuite's `-` after a digit (negative).
                let negative_mark = c == '-'
                    && self
                        .previous()
                        .is_some_and(|d| d.is_ascii_digit() || d == ')')
                    && chopsticks_cgt::parse::negates_digit(&self.cursor);
                if c.is_ascii_digit() || c == '\u{0305}' || negative_mark {
                    self.pos += 1;
                } else if c == '(' {
                    self.pos += 1;
                    self.eat('-');
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.pos += 1;
                    }
                    if !self.eat(')') {
                        return Err(self.error("expected ')'"));
                    }
                } else {
                    break;
                }
            }
            self.star(false);
            let mut text = self.slice(start, self.pos);
            if negative {
                text = format!("-({text})");
            }
            return Ok(Ast::Short(text, at));
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let has_number = self.pos > start;
        if has_number
            && self.peek() == Some('/')
            && self.peek_at(1).is_some_and(|c| c.is_ascii_digit())
        {
            self.pos += 1;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        let number_end = self.pos;
        let mut loopy: Option<Ast> = None;
        let mut ups_text = String::new();
        if let Some(c @ ('^' | 'v')) = self.peek() {
            let neg = c == 'v';
            let save = self.pos;
            self.pos += 1;
            if self.eat_str("[on]") {
                loopy = Some(Ast::Upon {
                    power: false,
                    negative: neg,
                });
            } else if self.eat_str("<on>") {
                loopy = Some(Ast::Upon {
                    power: true,
                    negative: neg,
                });
            } else if self.peek() == Some('<') || self.peek() == Some('[') {
                let close = if self.peek() == Some('<') { '>' } else { ']' };
                self.pos += 1;
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.pos += 1;
                }
                if !self.eat(close) {
                    return Err(self.error(&format!("expected '{close}'")));
                }
                ups_text = self.slice(save, self.pos);
            } else if self.peek().is_some_and(|d| d.is_ascii_digit()) {
                while self.peek().is_some_and(|d| d.is_ascii_digit()) {
                    self.pos += 1;
                }
                ups_text = self.slice(save, self.pos);
            } else {
                while self.eat(c) {}
                if self.peek().is_some_and(|d| d.is_ascii_alphabetic()) {
                    return Err(self.error("unexpected letter after ups"));
                }
                ups_text = self.slice(save, self.pos);
            }
        } else if has_number {
            let save = self.pos;
            let w = self.word();
            match w.as_str() {
                "over" => loopy = Some(Ast::Over),
                "under" => loopy = Some(Ast::Under),
                "" => {}
                _ => {
                    self.pos = save;
                    return Err(self.error("unexpected word after a number"));
                }
            }
        }
        let star_start = self.pos;
        self.star(self.pos > start);
        let star_text = self.slice(star_start, self.pos);
        let mut short = format!("{}{}{}", self.slice(start, number_end), ups_text, star_text);
        if negative && !short.is_empty() {
            short = format!("-{short}");
        }
        let short_ast = (!short.is_empty()).then_some(Ast::Short(short, at));
        match (short_ast, loopy) {
            (Some(s), None) => Ok(s),
            (None, Some(l)) => Ok(l),
            (Some(s), Some(l)) => Ok(Ast::Sum(vec![(false, s), (false, l)])),
            (None, None) => Err(self.error("expected a game")),
        }
    }

    /// `*` or `*m`; as a suffix, a bare `*` before a game (`3*{pass|*}`) is
    /// left for multiplication.
    fn star(&mut self, suffix: bool) {
        if suffix
            && self.peek() == Some('*')
            && self
                .peek_at(1)
                .is_some_and(|c| matches!(c, '{' | '(' | '^') || c.is_ascii_alphabetic())
        {
            return;
        }
        if self.eat('*') {
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        }
    }

    /// After `{`: options, commas and bars up to `}`.
    fn braces(&mut self, label: Option<String>, at: usize) -> Result<Ast, ParseError> {
        self.enter()?;
        let mut lists: Vec<Vec<Ast>> = vec![Vec::new()];
        let mut bars: Vec<(usize, usize)> = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some('}') => {
                    self.pos += 1;
                    break;
                }
                Some('|') => {
                    let bat = self.at();
                    let mut k = 0;
                    while self.eat('|') {
                        k += 1;
                    }
                    bars.push((k, bat));
                    lists.push(Vec::new());
                }
                Some(',') => {
                    self.pos += 1;
                    if lists.last().is_some_and(Vec::is_empty) {
                        return Err(self.error("empty option"));
                    }
                }
                None => return Err(self.error("expected '}'")),
                _ => {
                    let before = self.pos;
                    let g = self.sided()?;
                    if self.pos == before {
                        return Err(self.error("expected an option"));
                    }
                    lists.last_mut().expect("one list").push(g);
                    self.skip_ws();
                    if !matches!(self.peek(), Some(',' | '|' | '}')) {
                        return Err(self.error("expected ',', '|' or '}'"));
                    }
                }
            }
        }
        self.leave();
        if bars.is_empty() {
            return Err(ParseError {
                position: at,
                character: 0,
                message: "braces without '|'".into(),
            });
        }
        split_bars(label, lists, &bars, at)
    }
}

/// Builds nested games from option lists separated by runs of bars.
fn split_bars(
    label: Option<String>,
    mut lists: Vec<Vec<Ast>>,
    bars: &[(usize, usize)],
    at: usize,
) -> Result<Ast, ParseError> {
    if bars.is_empty() {
        return Err(ParseError {
            position: at,
            character: 0,
            message: "internal: no bars".into(),
        });
    }
    let max = bars.iter().map(|b| b.0).max().expect("non-empty");
    let positions: Vec<usize> = (0..bars.len()).filter(|&i| bars[i].0 == max).collect();
    if positions.len() > 1 {
        return Err(ParseError {
            position: bars[positions[1]].1,
            character: 0,
            message: "ambiguous bars: the longest run must be unique".into(),
        });
    }
    let i = positions[0];
    let right_lists = lists.split_off(i + 1);
    let left_lists = lists;
    let side = |ls: Vec<Vec<Ast>>, bs: &[(usize, usize)]| -> Result<Vec<Ast>, ParseError> {
        if bs.is_empty() {
            Ok(ls.into_iter().next().unwrap_or_default())
        } else {
            let nested_at = bs[0].1;
            Ok(vec![split_bars(None, ls, bs, nested_at)?])
        }
    };
    let left = side(left_lists, &bars[..i])?;
    let right = side(right_lists, &bars[i + 1..])?;
    Ok(Ast::Braces {
        label,
        left,
        right,
        at,
    })
}

// ----------------------------------------------------------------------
// Evaluation
// ----------------------------------------------------------------------

struct Evaluator;

fn perr(at: usize, e: LoopyError) -> ParseError {
    ParseError {
        position: at,
        character: 0,
        message: e.to_string(),
    }
}

/// The first `pass` or label reference of `ast` that is not inside braces it
/// can refer to: its position and what it is.
fn unbound(ast: &Ast, bound: &mut Vec<String>) -> Option<(usize, String)> {
    match ast {
        Ast::Pass(at) => Some((*at, "`pass` outside braces".into())),
        Ast::Ref(name, at) => (!bound.contains(name)).then(|| {
            (
                *at,
                format!("unknown name `{name}` (not a word of the notation, nor the label of enclosing braces `{name}{{…}}`)"),
            )
        }),
        Ast::Braces {
            label, left, right, ..
        } => {
            let pushed = label.is_some();
            if let Some(l) = label {
                bound.push(l.clone());
            }
            let found = left
                .iter()
                .chain(right)
                .filter(|o| !matches!(o, Ast::Pass(_)))
                .find_map(|o| unbound(o, bound));
            if pushed {
                bound.pop();
            }
            found
        }
        Ast::PlusMinus(games, _) => games.iter().find_map(|g| unbound(g, bound)),
        Ast::Neg(a) | Ast::Tiny(a, _) | Ast::Miny(a, _) => unbound(a, bound),
        Ast::Sum(ts) => ts.iter().find_map(|(_, t)| unbound(t, bound)),
        Ast::Sided(a, b, _) | Ast::Product(a, b, _) => {
            unbound(a, bound).or_else(|| unbound(b, bound))
        }
        _ => None,
    }
}

fn ast_at(ast: &Ast) -> usize {
    match ast {
        Ast::Short(_, at)
        | Ast::Pass(at)
        | Ast::Ref(_, at)
        | Ast::Braces { at, .. }
        | Ast::PlusMinus(_, at)
        | Ast::Tiny(_, at)
        | Ast::Miny(_, at)
        | Ast::Sided(_, _, at)
        | Ast::Product(_, _, at) => *at,
        Ast::Neg(a) => ast_at(a),
        Ast::Sum(ts) => ts.first().map_or(0, |t| ast_at(&t.1)),
        _ => 0,
    }
}

/// Graph under construction for games in braces, built for one side.
struct Builder {
    left: Vec<Vec<u32>>,
    right: Vec<Vec<u32>>,
    side: Side,
    /// Whether an embedded value was not a stopper.
    sided: bool,
}

impl Builder {
    fn vertex(&mut self, at: usize) -> Result<u32, ParseError> {
        if self.left.len() >= MAX_PARSE_VERTICES {
            return Err(perr(
                at,
                LoopyError::TooLarge {
                    what: "game in braces",
                    limit: MAX_PARSE_VERTICES,
                },
            ));
        }
        self.left.push(Vec::new());
        self.right.push(Vec::new());
        Ok(self.left.len() as u32 - 1)
    }

    fn embed(&mut self, g: &Game, at: usize) -> Result<u32, ParseError> {
        let g = g.reachable();
        if self.left.len() + g.len() > MAX_PARSE_VERTICES {
            return Err(perr(
                at,
                LoopyError::TooLarge {
                    what: "game in braces",
                    limit: MAX_PARSE_VERTICES,
                },
            ));
        }
        let shift = self.left.len() as u32;
        for v in 0..g.len() as u32 {
            self.left
                .push(g.left(v).iter().map(|&w| w + shift).collect());
            self.right
                .push(g.right(v).iter().map(|&w| w + shift).collect());
        }
        Ok(g.start() + shift)
    }
}

impl Evaluator {
    fn eval(&mut self, ast: &Ast) -> Result<Value, ParseError> {
        if let Some((position, message)) = unbound(ast, &mut Vec::new()) {
            return Err(ParseError {
                position,
                character: 0,
                message,
            });
        }
        match ast {
            Ast::Short(text, at) => short_value(text, *at),
            Ast::On => Ok(Value::Stopper(Stopper::on())),
            Ast::Off => Ok(Value::Stopper(Stopper::off())),
            Ast::Over => Ok(Value::Stopper(Stopper::over())),
            Ast::Under => Ok(Value::Stopper(Stopper::under())),
            Ast::Dud => Ok(Value::Sided {
                onside: Stopper::on(),
                offside: Stopper::off(),
            }),
            Ast::Upon { power, negative } => {
                let text = match power {
                    false => "{pass|*}",
                    true => "{0||0|0,pass}",
                };
                let v = parse(text)?;
                Ok(if *negative { v.neg() } else { v })
            }
            Ast::Pass(at) | Ast::Ref(_, at) => Err(ParseError {
                position: *at,
                character: 0,
                message: "unexpected `pass` or label".into(),
            }),
            Ast::Braces { .. } => self.braces_value(ast),
            Ast::Neg(a) => Ok(self.eval(a)?.neg()),
            Ast::PlusMinus(games, at) => {
                let mut values = Vec::with_capacity(games.len());
                for g in games {
                    let v = self.eval(g)?;
                    let n = v.neg();
                    values.push((v, n));
                }
                let b = Ast::Braces {
                    label: None,
                    left: vec![Ast::Short("0".into(), *at)],
                    right: vec![Ast::Short("0".into(), *at)],
                    at: *at,
                };
                let pairs: Vec<(&Value, &Value)> = values.iter().map(|(v, n)| (v, n)).collect();
                self.braces_with(&b, &pairs)
            }
            Ast::Tiny(a, at) => {
                let g = self.eval(a)?;
                // {0 || 0 | -G}
                self.tiny(&g.neg(), *at, false)
            }
            Ast::Miny(a, at) => {
                let g = self.eval(a)?;
                self.tiny(&g, *at, true)
            }
            Ast::Sum(terms) => {
                let mut acc: Option<Value> = None;
                for (neg, t) in terms {
                    let mut v = self.eval(t)?;
                    if *neg {
                        v = v.neg();
                    }
                    acc = Some(match acc {
                        None => v,
                        Some(a) => a
                            .add_within(&v, MAX_PARSE_VERTICES, MAX_PARSE_SIDE_VERTICES)
                            .map_err(|e| perr(ast_at(t), e))?,
                    });
                }
                Ok(acc.expect("at least one term"))
            }
            Ast::Product(a, b, at) => self.product(a, b, *at),
            Ast::Sided(a, b, at) => {
                let s = self.eval(a)?;
                let t = self.eval(b)?;
                match (s.onside(), t.offside()) {
                    (Some(on), Some(off)) => {
                        Value::from_sides(on.clone(), off.clone()).map_err(|e| perr(*at, e))
                    }
                    _ => Ok(Value::NotStopperSided {
                        onside: s.onside_game(),
                        offside: t.offside_game(),
                    }),
                }
            }
        }
    }

    /// `n * G` (or `G * n`): the sum of `|n|` copies of `G` (of `-G` for `n < 0`).
    fn product(&mut self, a: &Ast, b: &Ast, at: usize) -> Result<Value, ParseError> {
        let integer = |x: &Ast| match x {
            Ast::Short(t, _) => t.trim().parse::<i64>().ok(),
            _ => None,
        };
        if let (Ast::Short(x, _), Ast::Short(y, _)) = (a, b) {
            return short_value(&format!("({x}) * ({y})"), at);
        }
        let (n, g) = match (integer(a), integer(b)) {
            (Some(n), _) => (n, b),
            (_, Some(n)) => (n, a),
            _ => {
                return Err(ParseError {
                    position: at,
                    character: 0,
                    message: "`*` multiplies by an integer: write `n * G`".into(),
                })
            }
        };
        if n.unsigned_abs() > MAX_MULTIPLIER {
            return Err(ParseError {
                position: at,
                character: 0,
                message: format!(
                    "multiplier too large for a loopy game (at most {MAX_MULTIPLIER})"
                ),
            });
        }
        let g = self.eval(g)?;
        let g = if n < 0 { g.neg() } else { g };
        let mut acc = Value::Stopper(Stopper::zero());
        for _ in 0..n.unsigned_abs() {
            acc = acc
                .add_within(&g, MAX_PARSE_VERTICES, MAX_PARSE_SIDE_VERTICES)
                .map_err(|e| perr(at, e))?;
        }
        Ok(acc)
    }

    /// `{0 || 0 | h}` (Tiny, `h = -G`) or `{h | 0 || 0}` (Miny, `h = G`).
    fn tiny(&mut self, h: &Value, at: usize, miny: bool) -> Result<Value, ParseError> {
        let mut games = Vec::new();
        for side in [Side::On, Side::Off] {
            let hg = match side {
                Side::On => h.onside_game(),
                Side::Off => h.offside_game(),
            };
            let mut b = Builder {
                left: Vec::new(),
                right: Vec::new(),
                side,
                sided: false,
            };
            let top = b.vertex(at)?;
            let mid = b.vertex(at)?;
            let zero = b.vertex(at)?;
            let hv = b.embed(&hg, at)?;
            if miny {
                b.left[top as usize].push(mid);
                b.right[top as usize].push(zero);
                b.left[mid as usize].push(hv);
                b.right[mid as usize].push(zero);
            } else {
                b.left[top as usize].push(zero);
                b.right[top as usize].push(mid);
                b.left[mid as usize].push(zero);
                b.right[mid as usize].push(hv);
            }
            games.push(Game::from_unsorted(b.left, b.right, top));
        }
        self.value_of_sides(&games[0], &games[1], !h.is_stopper(), at)
    }

    /// Value from the graph built for the onside and the one for the offside.
    fn value_of_sides(
        &mut self,
        on: &Game,
        off: &Game,
        sided: bool,
        at: usize,
    ) -> Result<Value, ParseError> {
        if !sided {
            return Value::from_game_within(on, MAX_PARSE_SIDE_VERTICES).map_err(|e| perr(at, e));
        }
        let s =
            sides::side_within(on, Side::On, MAX_PARSE_SIDE_VERTICES).map_err(|e| perr(at, e))?;
        let t =
            sides::side_within(off, Side::Off, MAX_PARSE_SIDE_VERTICES).map_err(|e| perr(at, e))?;
        Ok(Value::combine(s, t))
    }

    fn braces_value(&mut self, ast: &Ast) -> Result<Value, ParseError> {
        self.braces_with(ast, &[])
    }

    /// The value of a game in braces; `extra` adds (Left, Right) options given as
    /// values to the outer game (for `+-G`, replacing its placeholder options).
    fn braces_with(&mut self, ast: &Ast, extra: &[(&Value, &Value)]) -> Result<Value, ParseError> {
        let at = ast_at(ast);
        let mut games = Vec::new();
        let mut sided = false;
        for side in [Side::On, Side::Off] {
            let mut b = Builder {
                left: Vec::new(),
                right: Vec::new(),
                side,
                sided: false,
            };
            let mut scopes: Vec<(Option<String>, u32)> = Vec::new();
            let top = if extra.is_empty() {
                self.build(ast, &mut b, &mut scopes)?
            } else {
                let top = b.vertex(at)?;
                for (l, r) in extra {
                    let pick = |v: &Value| match side {
                        Side::On => v.onside_game(),
                        Side::Off => v.offside_game(),
                    };
                    if !l.is_stopper() || !r.is_stopper() {
                        b.sided = true;
                    }
                    let lv = b.embed(&pick(l), at)?;
                    let rv = b.embed(&pick(r), at)?;
                    b.left[top as usize].push(lv);
                    b.right[top as usize].push(rv);
                }
                top
            };
            sided |= b.sided;
            games.push(Game::from_unsorted(b.left, b.right, top));
            if !sided {
                break;
            }
        }
        if games.len() == 1 {
            let g = games.pop().expect("one");
            return self.value_of_sides(&g, &g, false, at);
        }
        self.value_of_sides(&games[0], &games[1], true, at)
    }

    /// Adds the vertex of a game in braces (and its options) to `b`.
    fn build(
        &mut self,
        ast: &Ast,
        b: &mut Builder,
        scopes: &mut Vec<(Option<String>, u32)>,
    ) -> Result<u32, ParseError> {
        let Ast::Braces {
            label,
            left,
            right,
            at,
        } = ast
        else {
            return Err(ParseError {
                position: ast_at(ast),
                character: 0,
                message: "internal: not braces".into(),
            });
        };
        let v = b.vertex(*at)?;
        scopes.push((label.clone(), v));
        for (k, list) in [left, right].into_iter().enumerate() {
            for o in list {
                let w = match o {
                    Ast::Pass(_) => v,
                    Ast::Ref(name, oat) => scopes
                        .iter()
                        .rev()
                        .find(|(l, _)| l.as_deref() == Some(name.as_str()))
                        .map(|s| s.1)
                        .ok_or_else(|| ParseError {
                            position: *oat,
                            character: 0,
                            message: format!("unknown name `{name}`"),
                        })?,
                    Ast::Braces { .. } if unbound(o, &mut Vec::new()).is_some() => {
                        self.build(o, b, scopes)?
                    }
                    _ => {
                        let val = self.eval(o)?;
                        if !val.is_stopper() {
                            b.sided = true;
                        }
                        let g = match b.side {
                            Side::On => val.onside_game(),
                            Side::Off => val.offside_game(),
                        };
                        b.embed(&g, ast_at(o))?
                    }
                };
                if k == 0 {
                    b.left[v as usize].push(w);
                } else {
                    b.right[v as usize].push(w);
                }
            }
        }
        scopes.pop();
        Ok(v)
    }
}
