//! Writing loopy games in CGSuite notation (see the parent module's
//! documentation): names, braces and labels, or equations for huge graphs.

use super::*;
use crate::game::Player;

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
        // Count first: building the text of a tree past the limit only to
        // throw it away cost most of the time of tables with large unreduced
        // sides (each brace level copies the text inside it).
        if self.tree_nodes(v, MAX_PRINTED_NODES) > MAX_PRINTED_NODES {
            return self.equations(v);
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
        let reaches_start = g.reaching(&[start]);
        let separate = |u: u32| short[u as usize].is_none() && !reaches_start[u as usize];
        // +-G, and the multiple switch +-{G,H,…} = {G,H,… | -G,-H,…}: each
        // Right option the negative of one Left option.
        let (ls, rs) = (g.left(start), g.right(start));
        if !ls.is_empty() && ls.len() == rs.len() && ls.iter().chain(rs).all(|&u| separate(u)) {
            let negatives: Vec<Stopper> = rs.iter().map(|&b| sub.subgame(b)).collect();
            let mut used = vec![false; rs.len()];
            let mut texts = Vec::with_capacity(ls.len());
            for &a in ls {
                let ga = sub.subgame(a);
                let neg = ga.neg();
                let Some(j) = (0..rs.len()).find(|&j| !used[j] && negatives[j] == neg) else {
                    break;
                };
                used[j] = true;
                texts.push(format_stopper(&ga));
            }
            if texts.len() == ls.len() {
                if let [t] = texts.as_slice() {
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
                return Some(format!("+-{{{}}}", texts.join(",")));
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

    /// How many vertices [`Printer::node`] would print in braces from `v`
    /// (the same walk: `pass`, labels of vertices on the stack, short games
    /// and names print without braces), counting `printed` onwards and
    /// stopping once past `cap`. Leaves the printer as it found it.
    fn tree_nodes(&mut self, v: u32, cap: usize) -> usize {
        fn walk(p: &mut Printer<'_>, v: u32, count: &mut usize, cap: usize) {
            *count += 1;
            if *count > cap {
                return;
            }
            p.on_stack[v as usize] = true;
            for player in [Player::Left, Player::Right] {
                for i in 0..p.g.options(v, player).len() {
                    let o = p.g.options(v, player)[i];
                    if o == v || p.on_stack[o as usize] || p.short[o as usize].is_some() {
                        continue;
                    }
                    if p.name(o).is_some() {
                        continue;
                    }
                    walk(p, o, count, cap);
                    if *count > cap {
                        break;
                    }
                }
            }
            p.on_stack[v as usize] = false;
        }
        let mut count = self.printed;
        walk(self, v, &mut count, cap);
        count
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

/// `s > 0`.
fn positive(s: &Stopper) -> bool {
    let zero = Stopper::zero();
    zero.le(s) && !s.le(&zero)
}

// How stoppers and values print: here, beside the notation they print in, so
// that `stopper` and `value` need nothing of `notation`.
impl std::fmt::Debug for Stopper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Stopper({})", format_stopper(self))
    }
}

impl std::fmt::Display for Stopper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_stopper(self))
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_value(self))
    }
}
