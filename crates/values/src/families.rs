//! Table 1 for every `n`: the values of `(i|j)_n` by dynamic programming, and
//! the closed forms of its families (see `docs/TABLE1.md` for the statements,
//! the ranges checked and the proofs).
//!
//! Notation. `U_k = ↑^[k] = ↑ + ↑² + … + ↑ᵏ` is built as the chain
//! `U_0 = 0`, `U_k = {U_{k-1} | *}` ([`up_chain`]); `Q_k = k·↑ + [k even]·*` as
//! `Q_0 = *`, `Q_k = {0 | Q_{k-1}}` ([`q_chain`]; `Q_1 = ↑ = U_1`,
//! `Q_2 = ⇑*`, `Q_3 = 3·↑`, …). `J = {0 | ↑^[2]}`.
//!
//! The *band* of `(a|b)_n` ([`band`]) counts how far the game is from its end:
//!
//! * band 0: `a + b > n`, every move removes a hand: `*`;
//! * band 1: `a + b ≤ n` but `a + 2b > n` or `2a + b > n`: one player's moves are
//!   all final; `(a|b)_n = U_{⌊(n-b)/a⌋-1}` when `a + 2b > n`, and
//!   `-U_{⌊(n-a)/b⌋-1}` when `2a + b > n`;
//! * band 2: `a + 2b ≤ n`, `2a + b ≤ n`, and `a + 3b > n` or `3a + b > n`:
//!   `(a|b)_n = -Q_m` with `m = ⌊(n-a-2b)/(2a)⌋` when `a + 3b > n`, and
//!   `Q_m` with `m = ⌊(n-2a-b)/(2b)⌋` when `3a + b > n` (`Q_0` read as `*`);
//! * band 3: everything else. Its **first layer**, where also `n < 4a + 3b` and
//!   `n < 3a + 4b`, is the set of cells whose two options `(a|a+b)_n` and
//!   `(a+b|b)_n` both lie in bands 0–2; there the value follows from theirs
//!   (Proposition 4 of `docs/TABLE1.md`):
//!
//!   | Left's option \ Right's option | `-U_k'` | `Q_m'` (`m' ≥ 1`) | `*` |
//!   |---|---|---|---|
//!   | `U_k` | `*` | `Q_{m'+1}` | `U_{k+1}` |
//!   | `-Q_m` (`m ≥ 1`) | `-Q_{m+1}` | `0` | `0` |
//!   | `*` | `-U_{k'+1}` | `0` | `0` |
//!
//!   Its **second layer** is the rest of the cells whose options lie in bands
//!   0–2 or the first layer (`n < 7a + 3b` and `n < 3a + 7b`): for `a ≤ b`,
//!   `4a + 3b ≤ n < 7a + 3b`, where (Proposition 5)
//!   `(a|b)_n` is `0` if `n < 5a + 3b`, `↑` if `5a + 3b ≤ n < 2a + 5b`, `J` if
//!   `max(5a + 3b, 2a + 5b) ≤ n < 3a + 5b` and `*` if `n ≥ 3a + 5b`; for
//!   `a > b` the mirror image (`0`, `↓`, `-J`, `*`).
//!
//!   Deeper in band 3 there is no closed form here: it holds a scaled copy of the
//!   whole table, and every `J` value but the second layer's.
//!
//! [`closed_form`] gives the value of bands 0–2 and of band 3's first two layers;
//! [`reduce`] the scaling by `gcd(a, b)`, which sends the diagonal `(i|i)_n` to
//! `(1|1)_{⌊n/i⌋}` (Table 2).

use std::collections::HashMap;

use chopsticks_cgt::{GameId, GameStore};

/// The values of `(i|j)_n` for `1 ≤ i, j ≤ n`: `t[i - 1][j - 1]`, computed
/// bottom-up in `store` (every position with `a + b ≤ n` once, in decreasing
/// order of `a + b`; `*` when `a + b > n`).
pub fn table(store: &mut GameStore, n: u32) -> Vec<Vec<GameId>> {
    let n = n as usize;
    let star = store.star();
    let mut t = vec![vec![star; n]; n];
    for s in (2..=n).rev() {
        for a in 1..s {
            let b = s - a;
            let left = if 2 * a + b <= n {
                t[a - 1][s - 1]
            } else {
                star
            };
            let right = if a + 2 * b <= n {
                t[s - 1][b - 1]
            } else {
                star
            };
            t[a - 1][b - 1] = store.simple_game(Some(left), Some(right));
        }
    }
    t
}

/// Greatest common divisor.
pub fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `(a|b)_n = (a/g | b/g)_{⌊n/g⌋}` with `g = gcd(a, b)`: the reduced triple.
pub fn reduce(a: u32, b: u32, n: u32) -> (u32, u32, u32) {
    let g = gcd(a, b);
    (a / g, b / g, n / g)
}

/// `U_k = ↑^[k]`, built as `U_0 = 0`, `U_k = {U_{k-1} | *}`.
pub fn up_chain(store: &mut GameStore, k: u32) -> GameId {
    let star = store.star();
    (0..k).fold(GameId::ZERO, |u, _| store.simple_game(Some(u), Some(star)))
}

/// `Q_k = k·↑ + [k even]·*`, built as `Q_0 = *`, `Q_k = {0 | Q_{k-1}}`.
pub fn q_chain(store: &mut GameStore, k: u32) -> GameId {
    let star = store.star();
    (0..k).fold(star, |q, _| store.simple_game(Some(GameId::ZERO), Some(q)))
}

/// `J = {0 | ↑^[2]}`.
pub fn j(store: &mut GameStore) -> GameId {
    let u2 = up_chain(store, 2);
    store.simple_game(Some(GameId::ZERO), Some(u2))
}

/// The band of `(a|b)_n` (0, 1, 2, or 3 for "3 or more"); see the module
/// documentation. `a, b ≥ 1`.
pub fn band(a: u32, b: u32, n: u32) -> u32 {
    let (a, b, n) = (u64::from(a), u64::from(b), u64::from(n));
    if a + b > n {
        0
    } else if a + 2 * b > n || 2 * a + b > n {
        1
    } else if a + 3 * b > n || 3 * a + b > n {
        2
    } else {
        3
    }
}

/// The closed form of a family, as a description of the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// `*`.
    Star,
    /// `U_k = ↑^[k]` (`U_0 = 0`).
    Up(u32),
    /// `-U_k`.
    Down(u32),
    /// `Q_k = k·↑ + [k even]·*` (`Q_0 = *`).
    Q(u32),
    /// `-Q_k`.
    NegQ(u32),
    /// `J = {0 | ↑^[2]}`.
    J,
    /// `-J`.
    NegJ,
}

impl Form {
    /// The game in `store`.
    pub fn game(self, store: &mut GameStore) -> GameId {
        match self {
            Form::Star => store.star(),
            Form::Up(k) => up_chain(store, k),
            Form::Down(k) => {
                let u = up_chain(store, k);
                store.neg(u)
            }
            Form::Q(k) => q_chain(store, k),
            Form::NegQ(k) => {
                let q = q_chain(store, k);
                store.neg(q)
            }
            Form::J => j(store),
            Form::NegJ => {
                let jj = j(store);
                store.neg(jj)
            }
        }
    }

    /// The negative: `-*  = *`, `-U_k`, `-Q_k`, `-J`.
    pub fn negative(self) -> Form {
        match self {
            Form::Star => Form::Star,
            Form::Up(k) => Form::Down(k),
            Form::Down(k) => Form::Up(k),
            Form::Q(k) => Form::NegQ(k),
            Form::NegQ(k) => Form::Q(k),
            Form::J => Form::NegJ,
            Form::NegJ => Form::J,
        }
    }
}

/// Whether `(a|b)_n` lies in the first layer of band 3: band 3, with both
/// options `(a|a+b)_n` and `(a+b|b)_n` in bands 0–2 (`n < 4a + 3b` and
/// `n < 3a + 4b`). `a, b ≥ 1`.
pub fn in_first_layer_of_band_3(a: u32, b: u32, n: u32) -> bool {
    let (a64, b64, n64) = (u64::from(a), u64::from(b), u64::from(n));
    band(a, b, n) == 3 && n64 < 4 * a64 + 3 * b64 && n64 < 3 * a64 + 4 * b64
}

/// Whether `(a|b)_n` lies in the second layer of band 3: band 3, not in the
/// first layer, with both options in bands 0–2 or in the first layer
/// (`n < 7a + 3b` and `n < 3a + 7b`). For `a ≤ b` this is
/// `4a + 3b ≤ n < 7a + 3b`, for `a ≥ b` `3a + 4b ≤ n < 3a + 7b`. `a, b ≥ 1`.
pub fn in_second_layer_of_band_3(a: u32, b: u32, n: u32) -> bool {
    let (a64, b64, n64) = (u64::from(a), u64::from(b), u64::from(n));
    band(a, b, n) == 3
        && !in_first_layer_of_band_3(a, b, n)
        && n64 < 7 * a64 + 3 * b64
        && n64 < 3 * a64 + 7 * b64
}

/// Proposition 5 of `docs/TABLE1.md`: `(a|b)_n` for `a ≤ b` and
/// `4a + 3b ≤ n < 7a + 3b` (the second layer of band 3 on the side `a ≤ b`) is
/// `0` if `n < 5a + 3b`, `↑` if `5a + 3b ≤ n < 2a + 5b`, `J` if
/// `max(5a + 3b, 2a + 5b) ≤ n < 3a + 5b`, and `*` if `n ≥ 3a + 5b`.
fn second_layer(a: u64, b: u64, n: u64) -> Form {
    debug_assert!(a <= b && 4 * a + 3 * b <= n && n < 7 * a + 3 * b);
    if n < 5 * a + 3 * b {
        Form::Up(0)
    } else if n < 2 * a + 5 * b {
        Form::Up(1)
    } else if n < 3 * a + 5 * b {
        Form::J
    } else {
        Form::Star
    }
}

/// The closed form of `(a|b)_n` in bands 0–2 and in the first two layers of
/// band 3 (Propositions 0–5 of `docs/TABLE1.md`), `None` deeper in band 3.
/// `a, b ≥ 1`.
pub fn closed_form(a: u32, b: u32, n: u32) -> Option<Form> {
    let (a64, b64, n64) = (u64::from(a), u64::from(b), u64::from(n));
    match band(a, b, n) {
        0 => Some(Form::Star),
        1 if a64 + 2 * b64 > n64 => Some(Form::Up((n - b) / a - 1)),
        1 => Some(Form::Down((n - a) / b - 1)),
        2 if a64 + 3 * b64 > n64 => Some(Form::NegQ((n - a - 2 * b) / (2 * a))),
        2 => Some(Form::Q((n - 2 * a - b) / (2 * b))),
        _ if in_first_layer_of_band_3(a, b, n) => {
            // Proposition 4: Left's option is U_k (k ≥ 1), -Q_m or *; Right's
            // -U_k' (k' ≥ 1), Q_m' or *.
            let left = closed_form(a, a + b, n)?;
            let right = closed_form(a + b, b, n)?;
            let is_star = |f: Form| matches!(f, Form::Star | Form::Q(0) | Form::NegQ(0));
            match (left, right) {
                (Form::Up(_), Form::Down(_)) => Some(Form::Star),
                (Form::Up(k), r) if is_star(r) => Some(Form::Up(k + 1)),
                (Form::Up(_), Form::Q(m)) => Some(Form::Q(m + 1)),
                (l, Form::Down(k)) if is_star(l) => Some(Form::Down(k + 1)),
                (Form::NegQ(m), Form::Down(_)) => Some(Form::NegQ(m + 1)),
                (l, r)
                    if (is_star(l) || matches!(l, Form::NegQ(_)))
                        && (is_star(r) || matches!(r, Form::Q(_))) =>
                {
                    Some(Form::Up(0))
                }
                _ => None,
            }
        }
        // Proposition 5, and its mirror image by antisymmetry.
        _ if in_second_layer_of_band_3(a, b, n) => Some(if a <= b {
            second_layer(a64, b64, n64)
        } else {
            second_layer(b64, a64, n64).negative()
        }),
        _ => None,
    }
}

/// The first `±J` runs of `(1|1)_m` and of `(k|k+1)_n`: the run `i` of
/// `(k|k+1)_n` is `a_i·(k − 2) + a_{i+1} ≤ n ≤ f_i·k + e_i`, where `a_i` (12, 31,
/// 80, 209, 546, 1429, then 3740) are the A110035 terms at which the runs of
/// `(1|1)_m` start, `f_i` (13, 34, 89, 233, 610, 1597) the Fibonacci numbers at
/// which they end (the next P-position), and `e_i` (4, 12, 33, 88, 232, 609)
/// follow `e_{i+1} = 3e_i − e_{i−1} + 1`. The sixth run is the offsets' reading
/// extended, checked at its two ends for `k = 2, 3, 4, 5`.
const PM_J_RUNS: [(u32, u32, u32, u32); 6] = [
    (12, 31, 13, 4),
    (31, 80, 34, 12),
    (80, 209, 89, 33),
    (209, 546, 233, 88),
    (546, 1429, 610, 232),
    (1429, 3740, 1597, 609),
];

/// The finger counts `n ≤ max_n` at which `(k|k+1)_n = ±J`, as conjectured
/// (Conjecture 5 of `docs/TABLE1.md`, checked for `k ≤ 60` and `n ≤ 250k`, and
/// for `k ≤ 4` and `n ≤ 760k`): the runs `a_i·(k − 2) + a_{i+1} ≤ n ≤ f_i·k + e_i`
/// of `PM_J_RUNS` (`12k+7 ≤ n ≤ 13k+4`, `31k+18 ≤ n ≤ 34k+12`,
/// `80k+49 ≤ n ≤ 89k+33`, `209k+128 ≤ n ≤ 233k+88`, `546k+337 ≤ n ≤ 610k+232`),
/// and the sixth `1429k + 882 ≤ n ≤ 1597k + 609`, empty runs left out. Runs
/// past the sixth are not predicted: `max_n` must stay below `3740k + 2311`,
/// where the seventh would start.
pub fn pm_j_adjacent(k: u32, max_n: u32) -> Vec<(u32, u32)> {
    PM_J_RUNS
        .iter()
        .map(|&(a, next, f, e)| ((a * k + next).saturating_sub(2 * a), f * k + e))
        .filter(|&(lo, hi)| lo <= hi && lo <= max_n)
        .map(|(lo, hi)| (lo, hi.min(max_n)))
        .collect()
}

/// What a value of Table 1 is, among the families met for `n ≤ 200`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// `*`.
    Star,
    /// `0`.
    Zero,
    /// `U_k = ↑^[k]`, `k ≥ 1`.
    Up(u32),
    /// `-U_k`, `k ≥ 1`.
    Down(u32),
    /// `Q_k = k·↑ + [k even]·*`, `k ≥ 2` (`Q_1 = U_1`).
    Q(u32),
    /// `-Q_k`, `k ≥ 2`.
    NegQ(u32),
    /// Anything else (in Table 1 for `n ≤ 200`: games with `J` or `-J` among
    /// their subpositions).
    Other,
}

/// Recognises the families of [`Class`] and names the other values by their
/// options (`{{J|0}|0}`, `±J`), in one store.
pub struct Classifier {
    known: HashMap<GameId, Class>,
    names: HashMap<GameId, String>,
}

impl Classifier {
    /// A classifier that knows `U_k` and `Q_k` for `k ≤ max_k`.
    pub fn new(store: &mut GameStore, max_k: u32) -> Classifier {
        let mut known = HashMap::new();
        let mut names = HashMap::new();
        let star = store.star();
        known.insert(star, Class::Star);
        known.insert(GameId::ZERO, Class::Zero);
        names.insert(star, "*".to_string());
        names.insert(GameId::ZERO, "0".to_string());
        let mut u = GameId::ZERO;
        let mut q = star;
        for k in 1..=max_k {
            u = store.simple_game(Some(u), Some(star));
            q = store.simple_game(Some(GameId::ZERO), Some(q));
            let (nu, nq) = (store.neg(u), store.neg(q));
            known.insert(u, Class::Up(k));
            known.insert(nu, Class::Down(k));
            names.insert(u, format!("^[{k}]"));
            names.insert(nu, format!("v[{k}]"));
            if k >= 2 {
                known.insert(q, Class::Q(k));
                known.insert(nq, Class::NegQ(k));
                let star = if k.is_multiple_of(2) { "*" } else { "" };
                names.insert(q, format!("^{k}{star}"));
                names.insert(nq, format!("v{k}{star}"));
            }
        }
        let jj = j(store);
        let nj = store.neg(jj);
        names.insert(jj, "J".to_string());
        names.insert(nj, "-J".to_string());
        Classifier { known, names }
    }

    /// The class of `g`.
    pub fn class(&self, g: GameId) -> Class {
        self.known.get(&g).copied().unwrap_or(Class::Other)
    }

    /// A short name: `*`, `0`, `^[k]`, `v[k]`, `^k`/`^k*`, `vk`/`vk*`, `J`, `-J`,
    /// `+-G` (`±G`), or `{G|H}` built from the names of the options.
    pub fn name(&mut self, store: &mut GameStore, g: GameId) -> String {
        if let Some(s) = self.names.get(&g) {
            return s.clone();
        }
        let l = store.left_options(g).to_vec();
        let r = store.right_options(g).to_vec();
        let s = match (l.as_slice(), r.as_slice()) {
            ([x], [y]) if store.neg(*x) == *y => format!("+-{}", self.name(store, *x)),
            _ => {
                let ls: Vec<String> = l.iter().map(|&x| self.name(store, x)).collect();
                let rs: Vec<String> = r.iter().map(|&x| self.name(store, x)).collect();
                format!("{{{}|{}}}", ls.join(","), rs.join(","))
            }
        };
        self.names.insert(g, s.clone());
        s
    }

    /// Whether the name of `g` mentions `J` (so `J` or `-J` is a subposition of
    /// its canonical form, or `g` is `J` or `-J`).
    pub fn involves_j(&mut self, store: &mut GameStore, g: GameId) -> bool {
        self.name(store, g).contains('J')
    }
}
