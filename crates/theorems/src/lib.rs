//! # chopsticks-theorems: the statements of the Simple Chopsticks paper, checked
//!
//! Dailly, Gledel, Nowakowski and Santos state theorems about Simple Chopsticks
//! (`(x1,…,xl | y1,…,yr)_n`, attacks only, a hand past `n` fingers removed). This
//! crate checks each of them by exhaustion within bounds, using engines that do not
//! assume the statement:
//!
//! * **Theorem 3** (`(1|1)_n` is N exactly when `f(2i) ≤ n < f(2i+1)`, Fibonacci `f`)
//!   and the **conjecture on `±J`** (the value of `(1|1)_n` is `0`, `*` or `±J` as
//!   [`chopsticks_values::one_hand::predicted`] says): against the canonical values
//!   of Table 2 ([`chopsticks_values::table2`]), every `n ≤ max_n`;
//! * **Theorem 4** (with more hands than the opponent, the first player wins; its
//!   statement is lost from the text, it is checked as the proofs use it),
//!   **Lemma 1** (a first player with fewer hands who wins has exactly one hand fewer,
//!   and every winning move removes a hand): against the outcome atlas
//!   ([`chopsticks_atlas::Atlas`]) of every finger count `n ≤ atlas_n`, every
//!   position with up to `max_hands` hands a side, every winning move named;
//! * **Propositions 1–3** (every outcome at `n = 2`): the atlas at `n = 2`;
//! * **Proposition 4** (`(1^a | 1^a)_3` is N): the atlas at `n = 3`;
//! * **the closed form at `n = 3`** ([`chopsticks_atlas::three`], this project's
//!   answer to the paper's open problem): the atlas at `n = 3`;
//! * **the closed form at `n = 4`** ([`chopsticks_atlas::four`]) and this project's
//!   **conjectures for every `n`** (facing a hand of `n` fingers the mover never
//!   loses; against `(n − 1)^h` she loses exactly when her 1s are odd): the level
//!   atlas ([`chopsticks_atlas::LevelAtlas`]).
//!
//! Each check returns a [`Check`]: the statement, whether it holds, what was
//! checked and how many positions, and the first counterexamples as positions.
//! Library code never prints; progress is reported through a callback.

use std::collections::HashMap;

use rayon::prelude::*;

use chopsticks_atlas::every_n::{self, compositions, ReducedGame};
use chopsticks_atlas::{five, four, three, Atlas, AtlasError, LevelAtlas};
use chopsticks_cgt::{GameStore, Outcome};
use chopsticks_values::families;
use chopsticks_values::one_hand::predicted;
use chopsticks_values::{one_hand, table2, theorem3_is_next, ValueError};
use serde::Serialize;
use thiserror::Error;

/// The most counterexamples a check lists (it counts them all).
pub const MAX_LISTED: usize = 10;

/// Why a check could not run.
#[derive(Debug, Error)]
pub enum TheoremError {
    /// The outcome atlas refused its bounds.
    #[error(transparent)]
    Atlas(#[from] AtlasError),
    /// The table of values refused its bound.
    #[error(transparent)]
    Values(#[from] ValueError),
    /// A bound out of range.
    #[error("{0}")]
    Bounds(String),
}

/// The statements this crate checks, by their command-line names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Statement {
    /// Theorem 3: the outcome of `(1|1)_n`.
    Theorem3,
    /// Theorem 4: more hands, moving first, wins.
    Theorem4,
    /// Lemma 1: winning with fewer hands.
    Lemma1,
    /// Proposition 1: two hands more at `n = 2`.
    Proposition1,
    /// Proposition 2: equal hands at `n = 2`.
    Proposition2,
    /// Proposition 3: one hand more at `n = 2`.
    Proposition3,
    /// Proposition 4: `(1^a | 1^a)_3` is N.
    Proposition4,
    /// The paper's conjecture on `±J` in `(1|1)_n`.
    ConjecturePlusMinusJ,
    /// This project's closed form for every position at `n = 3`.
    ThreeFingers,
    /// This project's closed form at `n = 4` (proved in docs/FOUR-FINGERS.md).
    FourFingers,
    /// This project's rules at `n = 5` (docs/FIVE-FINGERS.md): which side with as
    /// many hands as its opponent loses moving first, where a closed form is known,
    /// and the nine families of opponents that can be lost to.
    FiveFingers,
    /// This project's theorems for every `n` (docs/EVERY-N.md): with equal hand
    /// counts, the mover facing a hand of `n` fingers never loses moving first;
    /// against `(n − 1)^h` she loses exactly when her 1s are odd; against
    /// `(n − 2)^h` (`n ≥ 4`) exactly when she holds a 2 and her 1s and 2s are odd.
    GeneralN,
    /// Propositions 0–5 of docs/TABLE1.md: the closed forms of Table 1's outer
    /// bands and of band 3's first two layers.
    Table1ClosedForms,
    /// Conjecture 5 of docs/TABLE1.md: the `±J` runs of `(k|k+1)_n`.
    Conjecture5,
}

impl Statement {
    /// Every statement, in the paper's order.
    pub const ALL: [Statement; 14] = [
        Statement::Theorem3,
        Statement::Theorem4,
        Statement::Lemma1,
        Statement::Proposition1,
        Statement::Proposition2,
        Statement::Proposition3,
        Statement::Proposition4,
        Statement::ConjecturePlusMinusJ,
        Statement::ThreeFingers,
        Statement::FourFingers,
        Statement::FiveFingers,
        Statement::GeneralN,
        Statement::Table1ClosedForms,
        Statement::Conjecture5,
    ];

    /// The command-line name (`theorem-3`, `conjecture-pm-j`, …).
    pub fn name(self) -> &'static str {
        match self {
            Statement::Theorem3 => "theorem-3",
            Statement::Theorem4 => "theorem-4",
            Statement::Lemma1 => "lemma-1",
            Statement::Proposition1 => "proposition-1",
            Statement::Proposition2 => "proposition-2",
            Statement::Proposition3 => "proposition-3",
            Statement::Proposition4 => "proposition-4",
            Statement::ConjecturePlusMinusJ => "conjecture-pm-j",
            Statement::ThreeFingers => "three-fingers",
            Statement::FourFingers => "four-fingers",
            Statement::FiveFingers => "five-fingers",
            Statement::GeneralN => "general-n",
            Statement::Table1ClosedForms => "table-1-closed-forms",
            Statement::Conjecture5 => "conjecture-5",
        }
    }

    /// The statement by its command-line name.
    pub fn from_name(name: &str) -> Option<Statement> {
        Statement::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The statement in words.
    pub fn text(self) -> &'static str {
        match self {
            Statement::Theorem3 => {
                "Theorem 3: (1|1)_n is N exactly when f(2i) <= n < f(2i+1) for some i (Fibonacci f1 = f2 = 1), otherwise P"
            }
            Statement::Theorem4 => {
                "Theorem 4 (as the proofs use it): a player with more hands than the opponent, who has a hand, wins moving first"
            }
            Statement::Lemma1 => {
                "Lemma 1: if Left has fewer hands (l < r) and wins moving first, then l = r - 1 and every winning move removes one of Right's hands"
            }
            Statement::Proposition1 => {
                "Proposition 1: (1^a,2^b | 1^c,2^d)_2 with both sides holding a hand is L if a+b >= c+d+2, R if c+d >= a+b+2"
            }
            Statement::Proposition2 => {
                "Proposition 2: (1^a,2^b | 1^c,2^d)_2 with a+b = c+d > 0 is P if b = d = 0 and a, c odd; L if b = 0, d != 0, c odd; R if d = 0, b != 0, a odd; N otherwise"
            }
            Statement::Proposition3 => {
                "Proposition 3: (1^a,2^b | 1^c,2^d)_2 with a+b = c+d+1 is P if c = d = 0; N if d = 0, b > 0, a odd; L otherwise (and the mirror image)"
            }
            Statement::Proposition4 => "Proposition 4: (1^a | 1^a)_3 is N for every a >= 1",
            Statement::ConjecturePlusMinusJ => {
                "Conjecture: (1|1)_n is 0 on P-intervals, and on each N-interval [f(2i), f(2i+1)) it is * below the A110035 term a(i+1) and +-J = +-{0|^[2]} from it on"
            }
            Statement::ThreeFingers => {
                "The closed form for n = 3 (docs/THREE-FINGERS.md): the outcome of (1^a 2^b 3^c | 1^d 2^e 3^f)_3 from the counts"
            }
            Statement::FourFingers => {
                "The closed form for n = 4 (docs/FOUR-FINGERS.md): which side with as many hands as its opponent loses moving first, from the counts"
            }
            Statement::FiveFingers => {
                "The closed form for n = 5 (docs/FIVE-FINGERS.md, proved with the SMT solvers z3 and cvc5): which side with as many hands as its opponent loses moving first, from the counts; and no opponent outside the nine families 1, 2, 3, 4, 12, 13, 14, 23, 123 is ever lost to"
            }
            Statement::Table1ClosedForms => {
                "Propositions 0-5 of docs/TABLE1.md: (i|j)_n is *, U_k, -U_k, Q_m or -Q_m by the closed forms of bands 0-2, and of band 3's first layer (n < 4i+3j, n < 3i+4j) by the table of its options' values; in band 3's second layer (for i <= j: 4i+3j <= n < 7i+3j) it is 0, ^, J or * (n < 5i+3j; < 2i+5j; < 3i+5j; the rest), and the mirror images"
            }
            Statement::Conjecture5 => {
                "Conjecture 5 of docs/TABLE1.md: (k|k+1)_n = +-J exactly for n in the runs a_i(k-2) + a_(i+1) <= n <= f_i k + e_i (a: 12, 31, 80, 209, 546, 1429; f: 13, 34, 89, 233, 610; e: 4, 12, 33, 88, 232)"
            }
            Statement::GeneralN => {
                "Theorems for every n (docs/EVERY-N.md): with as many hands as the opponent, the side to move never loses facing a hand of n fingers; against (n-1)^h it loses exactly when it holds an odd number of 1s; against (n-2)^h (n >= 4) exactly when it holds a 2 and its 1s and 2s together are odd"
            }
        }
    }
}

/// The bounds of the checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Theorem 3 and the conjecture: every `n ≤ max_n`.
    pub max_n: u32,
    /// Theorem 4 and Lemma 1: every finger count `n ≤ atlas_n` …
    pub atlas_n: u32,
    /// … and every position with at most this many hands a side.
    pub max_hands: usize,
    /// Propositions 1–3: every position at `n = 2` with at most this many hands a side.
    pub hands_n2: usize,
    /// Proposition 4 and the closed form: every position at `n = 3` with at most
    /// this many hands a side.
    pub hands_n3: usize,
    /// The closed form at `n = 4`: every pair of equal-sized sides with at most
    /// this many hands (level atlas).
    pub hands_n4: usize,
    /// The rules at `n = 5`: every pair of equal-sized sides with at most this
    /// many hands (level atlas).
    pub hands_n5: usize,
    /// The conjectures for every `n`: every finger count `2 ≤ n ≤ general_n` …
    pub general_n: u32,
    /// … and every pair of equal-sized sides with at most this many hands.
    pub general_hands: usize,
    /// Propositions 0–5 of Table 1: every cell of `(i|j)_n` for `n ≤ table1_n`.
    pub table1_n: u32,
    /// Conjecture 5: every `k ≤ adjacent_k` and `k < n ≤ 250k`.
    pub adjacent_k: u32,
}

impl Default for Bounds {
    /// Bounds that take well under a minute on two cores.
    fn default() -> Bounds {
        Bounds {
            max_n: 3000,
            atlas_n: 6,
            max_hands: 10,
            hands_n2: 60,
            hands_n3: 40,
            hands_n4: 30,
            hands_n5: 16,
            general_n: 7,
            general_hands: 9,
            table1_n: 60,
            adjacent_k: 8,
        }
    }
}

/// The result of checking one statement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    /// The statement's command-line name.
    pub name: String,
    /// The statement in words.
    pub statement: String,
    /// Whether no counterexample was found within the bounds.
    pub holds: bool,
    /// What was checked, in words.
    pub checked: String,
    /// How many positions (or finger counts, for `(1|1)_n`) were checked.
    pub positions: u64,
    /// The number of counterexamples found.
    pub counterexample_count: u64,
    /// The first counterexamples (at most [`MAX_LISTED`]), as positions.
    pub counterexamples: Vec<String>,
}

/// Collects the counterexamples of one check.
#[derive(Default)]
struct Tally {
    positions: u64,
    count: u64,
    listed: Vec<String>,
}

impl Tally {
    fn check(&mut self, ok: bool, position: impl FnOnce() -> String) {
        self.positions += 1;
        if !ok {
            self.count += 1;
            if self.listed.len() < MAX_LISTED {
                self.listed.push(position());
            }
        }
    }

    /// Adds the cases of `later`, checked after this tally's (its counterexamples
    /// are listed after these).
    fn merge(mut self, later: Tally) -> Tally {
        self.positions += later.positions;
        self.count += later.count;
        let room = MAX_LISTED.saturating_sub(self.listed.len());
        self.listed.extend(later.listed.into_iter().take(room));
        self
    }

    fn finish(self, statement: Statement, checked: String) -> Check {
        Check {
            name: statement.name().to_string(),
            statement: statement.text().to_string(),
            holds: self.count == 0,
            checked,
            positions: self.positions,
            counterexample_count: self.count,
            counterexamples: self.listed,
        }
    }
}

/// Checks `statements` within `bounds`. `progress` is told each statement as it starts.
pub fn verify(
    statements: &[Statement],
    bounds: Bounds,
    progress: &dyn Fn(Statement),
) -> Result<Vec<Check>, TheoremError> {
    // Each bound is checked where a statement uses it, before any work.
    let at_least_one = |name: &str, v: u64| {
        if v == 0 {
            Err(TheoremError::Bounds(format!("{name} must be at least 1")))
        } else {
            Ok(())
        }
    };
    for &s in statements {
        match s {
            Statement::Theorem3 | Statement::ConjecturePlusMinusJ => {
                at_least_one("max_n", bounds.max_n.into())?
            }
            Statement::Theorem4 | Statement::Lemma1 => {
                at_least_one("atlas_n", bounds.atlas_n.into())?;
                at_least_one("max_hands", bounds.max_hands as u64)?
            }
            Statement::Proposition1 | Statement::Proposition2 | Statement::Proposition3 => {
                at_least_one("hands_n2", bounds.hands_n2 as u64)?
            }
            Statement::Proposition4 | Statement::ThreeFingers => {
                at_least_one("hands_n3", bounds.hands_n3 as u64)?
            }
            Statement::FourFingers => at_least_one("hands_n4", bounds.hands_n4 as u64)?,
            Statement::FiveFingers => at_least_one("hands_n5", bounds.hands_n5 as u64)?,
            Statement::Table1ClosedForms => {
                at_least_one("table1_n", bounds.table1_n.into())?;
                if bounds.table1_n > MAX_TABLE1_N {
                    return Err(TheoremError::Bounds(format!(
                        "table1_n must be at most {MAX_TABLE1_N}"
                    )));
                }
            }
            Statement::Conjecture5 => {
                at_least_one("adjacent_k", bounds.adjacent_k.into())?;
                if bounds.adjacent_k > MAX_ADJACENT_K {
                    return Err(TheoremError::Bounds(format!(
                        "adjacent_k must be at most {MAX_ADJACENT_K}"
                    )));
                }
            }
            Statement::GeneralN => {
                if bounds.general_n < 2 {
                    return Err(TheoremError::Bounds("general_n must be at least 2".into()));
                }
                at_least_one("general_hands", bounds.general_hands as u64)?
            }
        }
    }
    // Table 2 is shared by Theorem 3 and the conjecture, each atlas by the
    // statements that read it.
    let mut table: Option<Vec<(u32, String, Outcome)>> = None;
    let mut atlases: HashMap<(u32, usize), Atlas> = HashMap::new();
    let mut out = Vec::new();
    for &s in statements {
        progress(s);
        let check = match s {
            Statement::Theorem3 | Statement::ConjecturePlusMinusJ => {
                if table.is_none() {
                    let runs = table2(bounds.max_n, None)?;
                    table = Some(
                        runs.iter()
                            .flat_map(|r| (r.from..=r.to).map(|n| (n, r.value.clone(), r.outcome)))
                            .collect(),
                    );
                }
                let entries = table.as_ref().expect("computed above");
                one_one(s, entries, bounds.max_n)
            }
            Statement::Theorem4 | Statement::Lemma1 => {
                for n in 1..=bounds.atlas_n {
                    atlas(&mut atlases, n, bounds.max_hands)?;
                }
                let list: Vec<&Atlas> = (1..=bounds.atlas_n)
                    .map(|n| &atlases[&(n, bounds.max_hands)])
                    .collect();
                theorem_4_or_lemma_1(s, &list)
            }
            Statement::Proposition1 | Statement::Proposition2 | Statement::Proposition3 => {
                n_equals_2(s, atlas(&mut atlases, 2, bounds.hands_n2)?)
            }
            Statement::Proposition4 | Statement::ThreeFingers => {
                n_equals_3(s, atlas(&mut atlases, 3, bounds.hands_n3)?)?
            }
            Statement::FourFingers => n_equals_4(s, bounds.hands_n4)?,
            Statement::FiveFingers => n_equals_5(s, bounds.hands_n5)?,
            Statement::GeneralN => general_n(s, bounds.general_n, bounds.general_hands)?,
            Statement::Table1ClosedForms => table1_closed_forms(s, bounds.table1_n),
            Statement::Conjecture5 => conjecture_5(s, bounds.adjacent_k),
        };
        out.push(check);
    }
    Ok(out)
}

/// The atlas of `n` and `h`, solved once.
fn atlas(
    atlases: &mut HashMap<(u32, usize), Atlas>,
    n: u32,
    h: usize,
) -> Result<&Atlas, TheoremError> {
    Ok(match atlases.entry((n, h)) {
        std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
        std::collections::hash_map::Entry::Vacant(e) => e.insert(Atlas::solve(n, h, None)?),
    })
}

fn one_one(s: Statement, entries: &[(u32, String, Outcome)], max_n: u32) -> Check {
    let mut tally = Tally::default();
    for (n, value, outcome) in entries {
        let ok = match s {
            Statement::Theorem3 => {
                let next = theorem3_is_next(*n);
                *outcome == if next { Outcome::N } else { Outcome::P }
            }
            _ => *value == predicted(*n).text(),
        };
        tally.check(ok, || format!("(1|1)_{n} = {value} ({outcome})"));
    }
    tally.finish(
        s,
        format!("the canonical value of (1|1)_n for every n <= {max_n} (Table 2, incrementally)"),
    )
}

fn theorem_4_or_lemma_1(s: Statement, atlases: &[&Atlas]) -> Check {
    let mut tally = Tally::default();
    let max_n = atlases.len();
    let h = atlases.first().map_or(0, |a| a.max_hands());
    for atlas in atlases {
        let sides = atlas.sides();
        for a in 0..sides.count() {
            for b in 0..sides.count() {
                let (l, r) = (sides.hands(a), sides.hands(b));
                if l == 0 || r == 0 {
                    continue;
                }
                match s {
                    Statement::Theorem4 => {
                        if l > r {
                            tally.check(atlas.wins_first(a, b), || atlas.paper(a, b));
                        }
                    }
                    _ => {
                        if l < r {
                            let ok = !atlas.wins_first(a, b)
                                || (l + 1 == r
                                    && atlas.options(a, b).all(|(_, _, b2)| {
                                        atlas.wins_first(b2, a) || sides.hands(b2) + 1 == r
                                    }));
                            tally.check(ok, || atlas.paper(a, b));
                        }
                    }
                }
            }
        }
    }
    let what = match s {
        Statement::Theorem4 => "every position with l > r >= 1",
        _ => "every position with 1 <= l < r, every winning move of Left",
    };
    tally.finish(
        s,
        format!("{what}, for every n <= {max_n} with at most {h} hands a side (outcome atlas)"),
    )
}

/// Propositions 1–3: the outcome of `(1^a, 2^b | 1^c, 2^d)_2`, or `None` when the
/// proposition says nothing about the position.
pub fn proposition_1_2_3(s: Statement, [a, b]: [u64; 2], [c, d]: [u64; 2]) -> Option<Outcome> {
    let (l, r) = (a + b, c + d);
    let odd = |x: u64| x % 2 == 1;
    match s {
        Statement::Proposition1 if l > 0 && r > 0 && l.abs_diff(r) >= 2 => {
            Some(if l > r { Outcome::L } else { Outcome::R })
        }
        Statement::Proposition2 if l == r && l > 0 => {
            Some(if b == 0 && d == 0 && odd(a) && odd(c) {
                Outcome::P
            } else if b == 0 && d != 0 && odd(c) {
                Outcome::L
            } else if d == 0 && b != 0 && odd(a) {
                Outcome::R
            } else {
                Outcome::N
            })
        }
        Statement::Proposition3 if l == r + 1 => Some(if c == 0 && d == 0 {
            Outcome::P
        } else if d == 0 && b > 0 && odd(a) {
            Outcome::N
        } else {
            Outcome::L
        }),
        Statement::Proposition3 if r == l + 1 => Some(if a == 0 && b == 0 {
            Outcome::P
        } else if b == 0 && d > 0 && odd(c) {
            Outcome::N
        } else {
            Outcome::R
        }),
        _ => None,
    }
}

/// Counts of each value `1..=k` on side `rank`.
fn counts<const K: usize>(atlas: &Atlas, rank: u32) -> [u64; K] {
    let mut c = [0u64; K];
    for v in atlas.sides().values(rank) {
        c[v as usize - 1] += 1;
    }
    c
}

fn n_equals_2(s: Statement, atlas: &Atlas) -> Check {
    let h = atlas.max_hands();
    let sides = atlas.sides();
    let mut tally = Tally::default();
    for a in 0..sides.count() {
        for b in 0..sides.count() {
            if let Some(p) = proposition_1_2_3(s, counts(atlas, a), counts(atlas, b)) {
                tally.check(atlas.outcome_at(a, b) == p, || {
                    format!("{} is {}", atlas.paper(a, b), atlas.outcome_at(a, b))
                });
            }
        }
    }
    tally.finish(
        s,
        format!("every position it covers at n = 2 with at most {h} hands a side (outcome atlas)"),
    )
}

fn n_equals_3(s: Statement, atlas: &Atlas) -> Result<Check, TheoremError> {
    let h = atlas.max_hands();
    let sides = atlas.sides();
    let mut tally = Tally::default();
    match s {
        Statement::Proposition4 => {
            for k in 1..=h {
                let start = vec![1u32; k];
                let o = atlas.outcome(&start, &start)?;
                tally.check(o == Outcome::N, || format!("(1^{k}|1^{k})_3 is {o}"));
            }
        }
        _ => {
            let all: Vec<[u64; 3]> = (0..sides.count()).map(|r| counts(atlas, r)).collect();
            // Rows of Left sides in parallel; tallies merged in order of rows.
            tally = (0..sides.count())
                .into_par_iter()
                .map(|a| {
                    let mut row = Tally::default();
                    for b in 0..sides.count() {
                        let got = atlas.outcome_at(a, b);
                        row.check(
                            got == three::outcome(all[a as usize], all[b as usize]),
                            || format!("{} is {got}", atlas.paper(a, b)),
                        );
                    }
                    row
                })
                .reduce(Tally::default, Tally::merge);
        }
    }
    let what = match s {
        Statement::Proposition4 => format!("(1^a|1^a)_3 for every a <= {h}"),
        _ => format!("every position at n = 3 with at most {h} hands a side"),
    };
    Ok(tally.finish(s, format!("{what} (outcome atlas)")))
}

/// The closed form at `n = 4` against the level atlas: every pair of equal-sized
/// sides where it gives an answer.
fn n_equals_4(s: Statement, max_hands: usize) -> Result<Check, TheoremError> {
    let atlas = LevelAtlas::solve(4, max_hands, None)?;
    let tally = check_levels(&atlas, max_hands, |mover, other, lost| {
        let c = |x: &[u64]| [x[0], x[1], x[2], x[3]];
        Some(four::loses_moving_first(c(mover), c(other)) == lost)
    });
    Ok(tally.finish(
        s,
        format!(
            "every pair of equal-sized sides at n = 4 with at most {max_hands} hands (level atlas; with Theorem 4 and Lemma 1 this is every position)"
        ),
    ))
}

/// The rules at `n = 5` against the level atlas: every pair of equal-sized sides
/// is predicted, and every pair the mover loses has an opponent in one of the
/// nine families.
fn n_equals_5(s: Statement, max_hands: usize) -> Result<Check, TheoremError> {
    let atlas = LevelAtlas::solve(5, max_hands, None)?;
    let tally = check_levels(&atlas, max_hands, |mover, other, lost| {
        let c = |x: &[u64]| [x[0], x[1], x[2], x[3], x[4]];
        let predicted = five::loses_moving_first(c(mover), c(other));
        Some(
            predicted == lost
                && (!lost || five::LOSABLE_FAMILIES.contains(&five::family(c(other)))),
        )
    });
    Ok(tally.finish(
        s,
        format!(
            "every pair of equal-sized sides at n = 5 with at most {max_hands} hands (level atlas; with Theorem 4 and Lemma 1 this is every position)"
        ),
    ))
}

/// Every pair of equal-sized sides of `atlas` with at most `max_hands` hands,
/// level by level and in parallel: `judge(mover's counts, opponent's counts,
/// whether the mover loses moving first)` says whether the pair agrees with the
/// statement, or `None` where the statement says nothing of it (skipped).
fn check_levels<F>(atlas: &LevelAtlas, max_hands: usize, judge: F) -> Tally
where
    F: Fn(&[u64], &[u64], bool) -> Option<bool> + Sync,
{
    let n = atlas.n();
    let mut tally = Tally::default();
    for h in 1..=max_hands {
        let count = atlas.sides_with(h) as usize;
        let counts: Vec<Vec<u64>> = (0..count).map(|i| atlas.level_counts(h, i)).collect();
        let level = (0..count)
            .into_par_iter()
            .map(|a| {
                let mut row = Tally::default();
                for (b, other) in counts.iter().enumerate() {
                    let lost = !atlas.level_wins(h, a, b);
                    let Some(ok) = judge(&counts[a], other, lost) else {
                        continue;
                    };
                    row.check(ok, || {
                        let side = |i: usize| side_text(atlas, h, i);
                        format!(
                            "({}|{})_{n}: the side to move {} moving first",
                            side(a),
                            side(b),
                            if lost { "loses" } else { "wins" }
                        )
                    })
                }
                row
            })
            .reduce(Tally::default, Tally::merge);
        tally = tally.merge(level);
    }
    tally
}

/// Side `i` of the level `h` of `atlas`, its values joined by commas.
fn side_text(atlas: &LevelAtlas, h: usize, i: usize) -> String {
    atlas
        .level_side(h, i)
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// The largest `k` Conjecture 5 is checked for (`n` up to `250k`: each value a
/// search of about `0.3·n²` positions).
pub const MAX_ADJACENT_K: u32 = 60;

/// The largest `n` of the Table 1 check (every table up to it is computed).
pub const MAX_TABLE1_N: u32 = 400;

/// Propositions 0–5 of Table 1 against the table computed by dynamic programming:
/// every cell with a closed form (bands 0–2, band 3's first and second layers).
fn table1_closed_forms(s: Statement, max_n: u32) -> Check {
    let mut store = GameStore::new();
    let mut tally = Tally::default();
    for n in 1..=max_n {
        let t = families::table(&mut store, n);
        for a in 1..=n {
            for b in 1..=n {
                if let Some(form) = families::closed_form(a, b, n) {
                    let want = form.game(&mut store);
                    let got = t[a as usize - 1][b as usize - 1];
                    tally.check(got == want, || {
                        format!("({a}|{b})_{n} = {}, not {form:?}", store.format(got))
                    });
                }
            }
        }
    }
    tally.finish(
        s,
        format!("every cell (i|j)_n with a closed form, n <= {max_n} (the table by dynamic programming)"),
    )
}

/// Conjecture 5 against the values of `(k|k+1)_n`: for each `k`, the runs of
/// `n ≤ 250k` where the value is `±J`, one case per `n`.
fn conjecture_5(s: Statement, max_k: u32) -> Check {
    let mut store = GameStore::new();
    let jj = families::j(&mut store);
    let nj = store.neg(jj);
    let pm = store.simple_game(Some(jj), Some(nj));
    let mut tally = Tally::default();
    for k in 1..=max_k {
        let predicted = families::pm_j_adjacent(k, 250 * k);
        for n in (k + 1)..=250 * k {
            let is_pm = one_hand(&mut store, k, k + 1, n) == pm;
            let said = predicted.iter().any(|&(lo, hi)| (lo..=hi).contains(&n));
            tally.check(is_pm == said, || {
                format!(
                    "({k}|{})_{n} is {}±J",
                    k + 1,
                    if is_pm { "" } else { "not " }
                )
            });
        }
    }
    tally.finish(
        s,
        format!("(k|k+1)_n for every k <= {max_k} and k < n <= 250k (canonical values)"),
    )
}

/// The conjectures for every `n` against the level atlas of each `2 ≤ n ≤ max_n`:
/// every pair of equal-sized sides where the opponent holds an `n` (the mover
/// wins moving first) or is `(n − 1)^h` (she loses exactly when her 1s are odd).
fn general_n(s: Statement, max_n: u32, max_hands: usize) -> Result<Check, TheoremError> {
    let mut tally = Tally::default();
    for n in 2..=max_n {
        let atlas = LevelAtlas::solve(n, max_hands, None)?;
        let top = n as usize - 1;
        let level = check_levels(&atlas, max_hands, |mover, other, lost| {
            let h: u64 = other.iter().sum();
            let wins = if other[top] > 0 {
                true
            } else if other[top - 1] == h {
                mover[0].is_multiple_of(2)
            } else if n >= 4 && other[top - 2] == h {
                mover[1] == 0 || (mover[0] + mover[1]).is_multiple_of(2)
            } else {
                return None;
            };
            Some(wins != lost)
        });
        tally = tally.merge(level);
    }
    // The reduced games, which stand for every n at once (docs/EVERY-N.md): the
    // closed form of the k = 1 game for both players, and the k = 2 row.
    let reduced = (4 * max_hands).min(every_n::MAX_CHECKED_HANDS);
    let mut k1 = ReducedGame::new(1);
    let mut k2 = ReducedGame::new(2);
    for h in 1..=reduced as u64 {
        for a in compositions(h, 2) {
            for b in compositions(h, 2) {
                let want = ReducedGame::k1_closed_form(&a, &b);
                let got = (k1.mover_loses(&a, &b), k1.opponent_loses(&a, &b));
                tally.check(got == want, || {
                    format!(
                        "the k = 1 reduced game at 1^{} big^{} against (n-1)^{} n^{}",
                        a[0], a[1], b[1], b[0]
                    )
                });
            }
        }
        let row = vec![0, 0, h];
        for a in compositions(h, 3) {
            let got = k2.mover_loses(&a, &row);
            tally.check(got == ReducedGame::k2_row_closed_form(&a), || {
                format!(
                    "the k = 2 reduced game at 1^{} 2^{} big^{} against (n-2)^{h}",
                    a[0], a[1], a[2]
                )
            });
        }
    }
    Ok(tally.finish(
        s,
        format!(
            "every pair of equal-sized sides with at most {max_hands} hands, the opponent holding an n or being (n-1)^h or (n-2)^h, for 2 <= n <= {max_n} (level atlas); and the reduced games for every n to {reduced} hands"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in Statement::ALL {
            assert_eq!(Statement::from_name(s.name()), Some(s));
        }
        assert_eq!(Statement::from_name("theorem-5"), None);
    }

    #[test]
    fn everything_holds_within_small_bounds() {
        let bounds = Bounds {
            max_n: 2000,
            atlas_n: 6,
            max_hands: 6,
            hands_n2: 40,
            hands_n3: 20,
            hands_n4: 12,
            hands_n5: 8,
            general_n: 6,
            general_hands: 5,
            table1_n: 30,
            adjacent_k: 3,
        };
        let checks = verify(&Statement::ALL, bounds, &|_| {}).unwrap();
        assert_eq!(checks.len(), Statement::ALL.len());
        for c in &checks {
            assert!(c.holds, "{c:?}");
            assert!(c.positions > 0, "{c:?}");
        }
        // Theorem 3 and the conjecture: one entry per n.
        assert_eq!(checks[0].positions, 2000);
        // Proposition 4: a = 1..=20.
        assert_eq!(checks[6].positions, 20);
    }

    /// A false statement is caught: Proposition 1 read literally (both sides may
    /// be empty) fails where one side has no hand, and the check names the position.
    #[test]
    fn a_wrong_prediction_is_reported_with_its_position() {
        let atlas = Atlas::solve(2, 3, None).unwrap();
        let a = atlas.sides().rank_of(&[1, 1, 1]).unwrap();
        let b = atlas.sides().rank_of(&[]).unwrap();
        // The literal reading says L; the game is over, so it is P.
        assert_eq!(atlas.outcome_at(a, b), Outcome::P);
        let mut tally = Tally::default();
        tally.check(atlas.outcome_at(a, b) == Outcome::L, || atlas.paper(a, b));
        let c = tally.finish(Statement::Proposition1, "one position".into());
        assert!(!c.holds);
        assert_eq!(c.counterexamples, vec!["(1,1,1|)_2".to_string()]);
    }
}
