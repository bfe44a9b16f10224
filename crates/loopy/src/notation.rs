//! CGSuite notation for loopy games: printing and parsing.
//!
//! Printing ([`format_value`], [`format_stopper`], and `Display` of [`Value`] and
//! [`Stopper`]): a loop-free stopper prints exactly as `chopsticks-cgt` prints it.
//! Otherwise names are used when the game (or a subposition) is one of `on`,
//! `off`, `over`, `under`, `^[on]`, `^[on]*`, `v[on]`, `v[on]*`, `^<on>`,
//! `^<on>*`, `v<on>`, `v<on>*`, a number plus one of the last ten (`5over`,
//! `-5over`, `3/2under`, `5^[on]*`), `+-G`, `Tiny(G)` = `{0||0|-G}` or
//! `Miny(G)` = `{G|0||0}` for a loopy `G > 0`. Other vertices print in braces; an
//! option that is the single option on its side and prints in braces itself is
//! written without its braces, with one more bar in its parent (`{0||0|off}`),
//! as long as that takes at most four bars. A vertex's own option is `pass`; a
//! vertex referred to from below gets a label (`a`, `b`, …, no `v`), written
//! before its braces (`a{0||||0|||a|*||*}`). `dud` is `on & off`; other sided
//! values print as `s & t`.
//!
//! Printing as a tree repeats a vertex reached along several paths, which can
//! take exponential room. Past [`MAX_PRINTED_NODES`] braces the graph is
//! printed instead as equations, one per loopy vertex, the start first:
//! `[a = {0,b|c}; b = {a|*}; c = {pass|b}]` (not CGSuite syntax, and not read
//! back by [`parse`]; it only happens to graphs that are not simplified,
//! or to very large stoppers).
//!
//! Parsing ([`parse`]): a text without letters (other than `v`) and without `&`
//! is read by `chopsticks-cgt` (so short games read exactly as there). Otherwise
//! the grammar is
//!
//! ```text
//! sided   := expr ['&' expr]
//! expr    := signed (('+' | '-' | '+-') term)*
//! primary := literal | word | '(' sided ')' | [label] '{' options '}'
//!          | 'Tiny(' sided ')' | 'Miny(' sided ')'
//! word    := on | off | over | under | dud | pass | label
//! literal := [number] [ups | '^[on]' | '^<on>' | 'v[on]' | 'v<on>' | over | under] [star]
//! ```
//!
//! with the short-game literals of `chopsticks-cgt` (`1/2`, `^^*`, `v3*2`,
//! `^<2>`, `^[3]`, `.22*`). Inside braces, bars and commas separate options, a
//! longer run of bars binding more loosely (`{a|b||c}` = `{{a|b}|c}`); `pass`
//! is the innermost game in braces (slash-separated games included), a label
//! names the game in braces it is written before. An option is `pass`, a label,
//! a game in braces, or an expression without `pass` or labels. Bounds: at most
//! [`MAX_INPUT`] bytes, [`MAX_NESTING`] levels, graphs of at most
//! [`MAX_PARSE_VERTICES`] vertices, short games of at most
//! [`MAX_PARSE_SHORT_MOVES`] moves and [`MAX_PARSE_SHORT_VERTICES`] vertices, sides taken of graphs of at most
//! [`MAX_PARSE_SIDE_VERTICES`] vertices; past them, an error (never a panic).

use std::collections::HashMap;

use chopsticks_cgt::cursor::{unexpected, Cursor};
use chopsticks_cgt::{GameId, GameStore, Kind, Relation};

use crate::game::Game;
use crate::sides::{self, Side};
use crate::stopper::Stopper;
use crate::value::Value;
use crate::LoopyError;

/// The largest `n` in `n * G` for a loopy `G` (the sum of `n` copies).
pub const MAX_MULTIPLIER: u64 = 256;

/// Longest input accepted by [`parse`], in bytes.
pub const MAX_INPUT: usize = 1 << 18;
/// Deepest nesting (braces, parentheses, signs) accepted by [`parse`].
pub const MAX_NESTING: usize = 64;
/// Largest graph built while parsing (games in braces, sums).
pub const MAX_PARSE_VERTICES: usize = 1024;

/// Most moves (edges) of a short game read inside a loopy text: its graph is
/// put back into canonical short form when printed, which costs about the
/// fourth power of the options per position (`*63` has 4,032 moves).
pub const MAX_PARSE_SHORT_MOVES: usize = 4096;

/// Work allowed for a short game read inside a loopy text (steps of
/// `chopsticks-cgt`; a fraction of a second), 32 times less than a short game
/// alone may take: every such game also becomes a graph.
pub const MAX_PARSE_SHORT_WORK: u64 = 1 << 20;

/// Most vertices of a short game read inside a loopy text (its graph, canonical
/// already, is put into the stopper's canonical order and hash, which grows
/// faster than linearly: the integer 255 is the largest that passes).
pub const MAX_PARSE_SHORT_VERTICES: usize = 256;

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
/// `<>`, `<|`, `|>`, `<` or `>` outside braces, parentheses, brackets and the
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
                let relation = match two {
                    "<=" => Some((Relation::AtMost, 2)),
                    ">=" => Some((Relation::AtLeast, 2)),
                    "==" => Some((Relation::Equal, 2)),
                    "<>" => Some((Relation::Confused, 2)),
                    "<|" => Some((Relation::LessOrConfused, 2)),
                    "|>" => Some((Relation::GreaterOrConfused, 2)),
                    _ if c == b'<' => Some((Relation::Less, 1)),
                    _ if c == b'>' => Some((Relation::Greater, 1)),
                    _ => None,
                };
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
/// Largest graph whose sides are taken while parsing.
pub const MAX_PARSE_SIDE_VERTICES: usize = 256;

/// Most bars a vertex prints with before its options are braced.
const MAX_SLASHES: usize = 4;

/// Error of [`parse`]: where and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at character {character}: {message}")]
pub struct ParseError {
    /// Byte offset of the problem.
    pub position: usize,
    /// The same place counted in characters from 1, as the message gives it
    /// (set from the text by [`parse`] and [`check_syntax`]).
    pub character: usize,
    /// What went wrong.
    pub message: String,
}

// ----------------------------------------------------------------------
// Printing
// ----------------------------------------------------------------------

/// The text of a value (see the module documentation).
pub fn format_value(v: &Value) -> String {
    match v {
        Value::Stopper(s) => format_stopper(s),
        Value::Sided { onside, offside } => {
            if *onside == Stopper::on() && *offside == Stopper::off() {
                "dud".to_string()
            } else {
                format!("{} & {}", format_stopper(onside), format_stopper(offside))
            }
        }
        Value::NotStopperSided { onside, offside } => {
            format!("{} & {}", format_graph(onside), format_graph(offside))
        }
    }
}

/// The text of a canonical stopper.
pub fn format_stopper(s: &Stopper) -> String {
    let mut store = GameStore::new();
    if let Some(id) = s.game().to_short(&mut store) {
        return store.format(id);
    }
    let mut p = Printer::new(s.game(), Some(s), store);
    p.top(s.game().start())
}

/// The text of any game graph (no names are looked up for its loopy vertices
/// unless it is a stopper, which is then simplified first).
pub fn format_graph(g: &Game) -> String {
    let g = g.reachable();
    if g.alternating_cycle_states().is_empty() {
        if let Ok(s) = Stopper::new(&g) {
            return format_stopper(&s);
        }
    }
    let store = GameStore::new();
    let mut p = Printer::new(&g, None, store);
    p.top(g.start())
}

/// A printed piece: an atom (name, label, `pass`, braced text) or the inside of
/// braces with its number of bars.
struct Piece {
    text: String,
    bars: usize,
    atom: bool,
}

struct Names {
    plain: Vec<(Stopper, &'static str)>,
    /// Bases that a number can be added to.
    translatable: Vec<(Stopper, &'static str)>,
}

fn names() -> Names {
    // upon = {pass | *}, upon* = {0, pass | 0}
    let g = |l: Vec<Vec<u32>>, r: Vec<Vec<u32>>| Game::from_unsorted(l, r, 0);
    let zero_star = |mut l: Vec<Vec<u32>>, mut r: Vec<Vec<u32>>| {
        // appends vertex z = 0 and s = * at the end; returns (l, r, z, s)
        let z = l.len() as u32;
        l.push(vec![]);
        r.push(vec![]);
        l.push(vec![z]);
        r.push(vec![z]);
        (l, r, z, z + 1)
    };
    let (l, r, _z, s) = zero_star(vec![vec![]], vec![vec![]]);
    let mut l1 = l;
    let mut r1 = r;
    l1[0] = vec![0];
    r1[0] = vec![s];
    let upon = g(l1, r1);
    let upon_star = g(vec![vec![0, 1], vec![]], vec![vec![1], vec![]]);
    // ^<on> = {0 | v[on]*}; v[on]* = {0 | 0, pass}
    let uponth = g(
        vec![vec![1], vec![], vec![1]],
        vec![vec![2], vec![], vec![1, 2]],
    );
    // ^<on>* = {0, * | v[on]}; v[on] = {* | pass}
    let uponth_star = g(
        vec![vec![1, 3], vec![], vec![3], vec![1]],
        vec![vec![2], vec![], vec![2], vec![1]],
    );
    let st = |g: &Game| Stopper::new(g).expect("small stopper");
    let upon = st(&upon);
    let upon_star = st(&upon_star);
    let uponth = st(&uponth);
    let uponth_star = st(&uponth_star);
    let translatable = vec![
        (Stopper::over(), "over"),
        (Stopper::under(), "under"),
        (upon.clone(), "^[on]"),
        (upon_star.clone(), "^[on]*"),
        (upon.neg(), "v[on]"),
        (upon_star.neg(), "v[on]*"),
        (uponth.clone(), "^<on>"),
        (uponth_star.clone(), "^<on>*"),
        (uponth.neg(), "v<on>"),
        (uponth_star.neg(), "v<on>*"),
    ];
    let mut plain = vec![(Stopper::on(), "on"), (Stopper::off(), "off")];
    plain.extend(translatable.iter().cloned());
    Names {
        plain,
        translatable,
    }
}

/// Most vertices in braces a printed tree may have (see the module
/// documentation) before the equations are printed instead.
pub const MAX_PRINTED_NODES: usize = 4096;

struct Printer<'a> {
    /// Vertices printed in braces so far.
    printed: usize,
    g: &'a Game,
    stopper: Option<&'a Stopper>,
    store: GameStore,
    short: Vec<Option<GameId>>,
    names: Option<Names>,
    name_cache: HashMap<u32, Option<String>>,
    on_stack: Vec<bool>,
    label: Vec<Option<String>>,
    labels_used: usize,
}

fn label_name(k: usize) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuwxyz";
    let c = LETTERS[k % LETTERS.len()] as char;
    let round = k / LETTERS.len();
    if round == 0 {
        c.to_string()
    } else {
        format!("{c}{round}")
    }
}

impl<'a> Printer<'a> {
    fn new(g: &'a Game, stopper: Option<&'a Stopper>, mut store: GameStore) -> Printer<'a> {
        let short = g.short_ids_partial(&mut store);
        Printer {
            printed: 0,
            g,
            stopper,
            store,
            short,
            names: None,
            name_cache: HashMap::new(),
            on_stack: vec![false; g.len()],
            label: vec![None; g.len()],
            labels_used: 0,
        }
    }

    fn top(&mut self, v: u32) -> String {
        if let Some(id) = self.short[v as usize] {
            return self.store.format(id);
        }
        if let Some(name) = self.name(v) {
            return name;
        }
        let p = self.node(v);
        if self.printed > MAX_PRINTED_NODES {
            return self.equations(v);
        }
        if p.atom {
            p.text
        } else {
            format!("{{{}}}", p.text)
        }
    }

    /// The graph from `v` as equations, one per loopy vertex (names `a`, `b`,
    /// … in breadth-first order from `v`); short vertices print as themselves.
    fn equations(&mut self, v: u32) -> String {
        let order = self.g.with_start(v).reachable_order();
        let mut name: HashMap<u32, String> = HashMap::new();
        for &u in &order {
            if self.short[u as usize].is_none() {
                let k = name.len();
                name.insert(u, label_name(k));
            }
        }
        let mut text: HashMap<u32, String> = HashMap::new();
        for &u in &order {
            let t = match self.short[u as usize] {
                Some(id) => self.store.format(id),
                None => name[&u].clone(),
            };
            text.insert(u, t);
        }
        let mut lines = Vec::new();
        for &u in &order {
            if self.short[u as usize].is_some() {
                continue;
            }
            let side = |list: &[u32]| -> String {
                list.iter()
                    .map(|&w| {
                        if w == u {
                            "pass".to_string()
                        } else {
                            text[&w].clone()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            };
            lines.push(format!(
                "{} = {{{}|{}}}",
                name[&u],
                side(self.g.left(u)),
                side(self.g.right(u))
            ));
        }
        format!("[{}]", lines.join("; "))
    }

    /// The name of loopy vertex `v` of a stopper, if it has one.
    fn name(&mut self, v: u32) -> Option<String> {
        let s = self.stopper?;
        if let Some(n) = self.name_cache.get(&v) {
            return n.clone();
        }
        let sub = s.subgame(v);
        let n = self.name_of(&sub);
        self.name_cache.insert(v, n.clone());
        n
    }

    fn name_of(&mut self, sub: &Stopper) -> Option<String> {
        if self.names.is_none() {
            self.names = Some(names());
        }
        let names = self.names.as_ref().expect("built");
        if let Some((_, n)) = names.plain.iter().find(|(s, _)| s == sub) {
            return Some((*n).to_string());
        }
        let g = sub.game();
        let start = g.start();
        let mut store = GameStore::new();
        let short = g.short_ids_partial(&mut store);
        // x + base, x a number read from a short option.
        let mut candidates: Vec<chopsticks_cgt::Dyadic> = Vec::new();
        for &o in g.left(start).iter().chain(g.right(start)) {
            if let Some(id) = short[o as usize] {
                if let Kind::Simple { number, .. } = store.kind(id) {
                    if number != chopsticks_cgt::Dyadic::ZERO && !candidates.contains(&number) {
                        candidates.push(number);
                    }
                }
            }
        }
        for x in candidates {
            let xid = store.number(x);
            let Ok(xg) = Game::from_short(&store, xid, 4096) else {
                continue;
            };
            for (base, text) in &names.translatable {
                let Ok(sum) = base.game().sum(&xg, 1 << 16) else {
                    continue;
                };
                if let Ok(t) = Stopper::new(&sum) {
                    if t == *sub {
                        return Some(format!("{}{}", store.format(xid), text));
                    }
                }
            }
        }
        // The vertices that can reach the start: a part named separately must
        // not be one of them (it would need a label of the whole).
        let reaches_start = reaching(g, start);
        let separate = |u: u32| short[u as usize].is_none() && !reaches_start[u as usize];
        // +-G
        if let (&[a], &[b]) = (g.left(start), g.right(start)) {
            if separate(a) && separate(b) {
                let ga = sub.subgame(a);
                if sub.subgame(b) == ga.neg() {
                    let t = format_stopper(&ga);
                    let simple = !(t.starts_with('-')
                        || t.starts_with(|c: char| c.is_ascii_digit())
                        || t.contains('+')
                        || t.contains(' '));
                    return Some(if simple {
                        format!("+-{t}")
                    } else {
                        format!("+-({t})")
                    });
                }
            }
        }
        // Tiny(G) = {0 || 0 | -G}, Miny(G) = {G | 0 || 0}, G loopy and > 0.
        let is_zero = |o: u32| short[o as usize] == Some(GameId::ZERO);
        if let (&[z], &[w]) = (g.left(start), g.right(start)) {
            if is_zero(z) {
                if let (&[z2], &[u]) = (g.left(w), g.right(w)) {
                    if is_zero(z2) && separate(u) && !reaches_start[w as usize] {
                        let big = sub.subgame(u).neg();
                        if positive(&big) {
                            return Some(format!("Tiny({})", format_stopper(&big)));
                        }
                    }
                }
            }
        }
        if let (&[w], &[z]) = (g.left(start), g.right(start)) {
            if is_zero(z) {
                if let (&[u], &[z2]) = (g.left(w), g.right(w)) {
                    if is_zero(z2) && separate(u) && !reaches_start[w as usize] {
                        let big = sub.subgame(u);
                        if positive(&big) {
                            return Some(format!("Miny({})", format_stopper(&big)));
                        }
                    }
                }
            }
        }
        None
    }

    /// The text of option `o` of the vertex `scope` being printed.
    fn option(&mut self, o: u32, scope: u32) -> Piece {
        let atom = |text: String| Piece {
            text,
            bars: 0,
            atom: true,
        };
        if o == scope {
            return atom("pass".into());
        }
        if self.on_stack[o as usize] {
            if self.label[o as usize].is_none() {
                self.label[o as usize] = Some(label_name(self.labels_used));
                self.labels_used += 1;
            }
            return atom(self.label[o as usize].clone().expect("set"));
        }
        if let Some(id) = self.short[o as usize] {
            return atom(self.store.format(id));
        }
        if let Some(name) = self.name(o) {
            return atom(name);
        }
        self.node(o)
    }

    /// Vertex `v` in braces (returned without the outer braces unless labelled).
    fn node(&mut self, v: u32) -> Piece {
        self.printed += 1;
        if self.printed > MAX_PRINTED_NODES {
            return Piece {
                text: String::new(),
                bars: 0,
                atom: true,
            };
        }
        self.on_stack[v as usize] = true;
        let mut sides: [(String, usize); 2] = [(String::new(), 0), (String::new(), 0)];
        let lists = [self.g.left(v).to_vec(), self.g.right(v).to_vec()];
        for (k, list) in lists.iter().enumerate() {
            let mut pieces: Vec<Piece> = list.iter().map(|&o| self.option(o, v)).collect();
            if pieces.len() == 1 && !pieces[0].atom && pieces[0].bars < MAX_SLASHES {
                let p = pieces.pop().expect("one");
                sides[k] = (p.text, p.bars);
            } else {
                let texts: Vec<String> = pieces
                    .into_iter()
                    .map(|p| {
                        if p.atom {
                            p.text
                        } else {
                            format!("{{{}}}", p.text)
                        }
                    })
                    .collect();
                sides[k] = (texts.join(","), 0);
            }
        }
        self.on_stack[v as usize] = false;
        let bars = 1 + sides[0].1.max(sides[1].1);
        let text = format!("{}{}{}", sides[0].0, "|".repeat(bars), sides[1].0);
        match &self.label[v as usize] {
            Some(l) => Piece {
                text: format!("{l}{{{text}}}"),
                bars: 0,
                atom: true,
            },
            None => Piece {
                text,
                bars,
                atom: false,
            },
        }
    }
}

/// For every vertex, whether it can reach `target` (`target` itself included).
fn reaching(g: &Game, target: u32) -> Vec<bool> {
    let n = g.len();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for v in 0..n as u32 {
        for &w in g.left(v).iter().chain(g.right(v)) {
            preds[w as usize].push(v);
        }
    }
    let mut seen = vec![false; n];
    seen[target as usize] = true;
    let mut stack = vec![target];
    while let Some(w) = stack.pop() {
        for &v in &preds[w as usize] {
            if !seen[v as usize] {
                seen[v as usize] = true;
                stack.push(v);
            }
        }
    }
    seen
}

/// `s > 0`.
fn positive(s: &Stopper) -> bool {
    let zero = Stopper::zero();
    zero.le(s) && !s.le(&zero)
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
            .map(|_| ())
            .map_err(short_error(*at)),
        Ast::Braces { left, right, .. } => left.iter().chain(right).try_for_each(check_shorts),
        Ast::Neg(a) | Ast::PlusMinus(a, _) | Ast::Tiny(a, _) | Ast::Miny(a, _) => check_shorts(a),
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
    PlusMinus(Box<Ast>, usize),
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
            let g = self.unary()?;
            self.leave();
            return Ok(Ast::PlusMinus(Box::new(g), at));
        }
        self.unary()
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
        Ast::Neg(a) | Ast::PlusMinus(a, _) | Ast::Tiny(a, _) | Ast::Miny(a, _) => unbound(a, bound),
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
            Ast::PlusMinus(a, at) => {
                let g = self.eval(a)?;
                let b = Ast::Braces {
                    label: None,
                    left: vec![Ast::Short("0".into(), *at)],
                    right: vec![Ast::Short("0".into(), *at)],
                    at: *at,
                };
                self.braces_with(&b, &[(&g, &g.neg())])
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

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        let message = parse(text).map(|_| ()).expect_err("an error").to_string();
        // The check without computing says the same.
        assert_eq!(
            check_syntax(text).expect_err("an error").to_string(),
            message,
            "{text}"
        );
        message
    }

    #[test]
    fn errors_count_characters_and_name_the_fix() {
        assert_eq!(
            error("on.Cool(1)"),
            "at character 3: cooling (`.Cool`) is defined for short games; `on` is loopy"
        );
        assert_eq!(
            error("{pass|*}.Temperature"),
            "at character 9: the temperature (`.Temperature`) is defined for short games; \
             `{pass|*}` is loopy"
        );
        assert_eq!(
            error("over + {1|0}.AtomicWeight"),
            "at character 13: the atomic weight (`.AtomicWeight`) is read in expressions of \
             short games only, and this one has loopy games: evaluate `{1|0}.AtomicWeight` on \
             its own"
        );
        assert_eq!(
            error("Cool(on, 1)"),
            "at character 1: cooling (`Cool`) is defined for short games, and this expression \
             has loopy games"
        );
        assert_eq!(
            error("on = over"),
            "at character 4: `=` is not a comparison: write `==` (`G == H`)"
        );
        assert_eq!(
            error("↑ + on"),
            "at character 1: unexpected character `↑` (write `^` for ↑: `^^` for ↑↑, `^3` for 3·↑)"
        );
        assert_eq!(
            error("on + ±1"),
            "at character 6: unexpected character `±` (write `+-` for ±: `+-1`, `+-{1,2}`)"
        );
        assert!(error("on.Foo").contains("unknown method `.Foo`"));
    }
}
