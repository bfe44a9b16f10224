//! A closed form's proof obligation, written for an SMT solver.
//!
//! A rule `lost(mover, other)` for the pairs of sides with as many hands is the
//! true relation "the side to move loses moving first" exactly when it satisfies
//! the level recursion at every pair ([`crate::equal_hands::level_recursion`]:
//! the recursion has one solution). Written over [`Term`]s, both the rule (a
//! closed form such as [`crate::five::closed_form`]) and the recursion become
//! formulas of linear integer arithmetic with `mod 2` in the counts.
//! [`level_recursion_query`] writes, in SMT-LIB 2:
//!
//! ```text
//! (define-fun lost ((a Int) … (t Int)) Bool <the closed form>)
//! counts a … t ≥ 0, a + … + e = p + … + t ≥ 1
//! (assert (not (= (lost a … t) <the recursion, calling lost one exchange on>)))
//! (check-sat)
//! ```
//!
//! A solver that answers `unsat` has shown that no pair of sides, of any size,
//! breaks the recursion: the closed form is a theorem. The check is symbolic, so
//! it covers every count at once, where a finite check covers a box. Any solver
//! for `QF_LIA` reads it (z3 and cvc5 both decide the `n = 5` obligation in
//! seconds).

use crate::equal_hands::level_recursion;
use crate::formula::{Formula, Term};

/// The name the query gives the rule.
const RULE: &str = "lost";

/// The SMT-LIB 2 query whose answer `unsat` proves that `rule` satisfies the
/// level recursion for sides of `N` values (`n = N`) at every pair with equal
/// hand counts. The counts are named `mover_names` (the side to move) and
/// `other_names`; they name both the variables and the rule's parameters.
pub fn level_recursion_query<const N: usize>(
    mover_names: [&str; N],
    other_names: [&str; N],
    rule: impl Fn([Term; N], [Term; N]) -> Formula,
) -> String {
    let mover = mover_names.map(Term::var);
    let other = other_names.map(Term::var);
    let call = |m: [Term; N], o: [Term; N]| apply(RULE, &m, &o);
    let recursion = level_recursion(mover, other, call);
    query(
        &format!(
            "The closed form `{RULE}` for Simple Chopsticks with n = {N} satisfies the\n\
             level recursion at every pair of sides with equal hand counts: `unsat`\n\
             proves it. The side to move holds {} of the values 1..{N}, the other {}.",
            mover_names.join(" "),
            other_names.join(" ")
        ),
        &mover,
        &other,
        &[(RULE, rule(mover, other))],
        call(mover, other).iff(recursion),
    )
}

/// The names the reduced-game query gives the two relations.
const MOVER_LOST: &str = "mover_lost";
const OPPONENT_LOST: &str = "opponent_lost";

/// The SMT-LIB 2 query whose answer `unsat` proves that `rule` (mover loses,
/// opponent loses) satisfies the recursion of the reduced game with `K1 = k + 1`
/// counts a side ([`crate::every_n::reduced_recursion`]) at every pair with
/// equal hand counts, for both players to move. `a_names` name the counts of
/// `A` (small hands `1..=k`, then big), `b_names` those of `B` (hands of `n`,
/// `n − 1`, …, `n − k`).
pub fn reduced_game_query<const K1: usize>(
    a_names: [&str; K1],
    b_names: [&str; K1],
    rule: impl Fn([Term; K1], [Term; K1]) -> (Formula, Formula),
) -> String {
    let a = a_names.map(Term::var);
    let b = b_names.map(Term::var);
    let mover = |x: [Term; K1], y: [Term; K1]| apply(MOVER_LOST, &x, &y);
    let opponent = |x: [Term; K1], y: [Term; K1]| apply(OPPONENT_LOST, &x, &y);
    let (mover_rule, opponent_rule) = rule(a, b);
    let (mover_recursion, opponent_recursion) =
        crate::every_n::reduced_recursion(a, b, mover, opponent);
    query(
        &format!(
            "The closed form (`{MOVER_LOST}`, `{OPPONENT_LOST}`) of the reduced game\n\
             with k = {} (docs/EVERY-N.md) satisfies its recursion at every pair of\n\
             sides with equal hand counts, for both players to move: `unsat` proves\n\
             it. A holds {} (small hands 1..k, then big), B holds {} (n, n - 1, ...).",
            K1 - 1,
            a_names.join(" "),
            b_names.join(" ")
        ),
        &a,
        &b,
        &[(MOVER_LOST, mover_rule), (OPPONENT_LOST, opponent_rule)],
        mover(a, b).iff(mover_recursion) & opponent(a, b).iff(opponent_recursion),
    )
}

/// `(name mover… other…)`.
fn apply(name: &str, mover: &[Term], other: &[Term]) -> Formula {
    let arguments: Vec<Term> = mover.iter().chain(other).copied().collect();
    Formula::apply(name, &arguments)
}

/// The query: a comment, each definition as a `define-fun` over the counts,
/// the counts (at least 0, equal hand counts, at least one hand), and the
/// negation of `claim`.
fn query(
    comment: &str,
    mover: &[Term],
    other: &[Term],
    definitions: &[(&str, Formula)],
    claim: Formula,
) -> String {
    let mut q = String::new();
    for line in comment.lines() {
        q.push_str(&format!("; {}\n", line.trim_start()));
    }
    q.push_str("(set-logic QF_LIA)\n");
    let all: Vec<Term> = mover.iter().chain(other).copied().collect();
    let parameters: Vec<String> = all.iter().map(|v| format!("({} Int)", v.text())).collect();
    for (name, body) in definitions {
        q.push_str(&format!(
            "(define-fun {name} ({}) Bool\n  {})\n",
            parameters.join(" "),
            body.text()
        ));
    }
    for v in &all {
        q.push_str(&format!(
            "(declare-fun {0} () Int)\n(assert (>= {0} 0))\n",
            v.text()
        ));
    }
    let sum = |side: &[Term]| {
        let texts: Vec<String> = side.iter().map(|t| t.text()).collect();
        format!("(+ {})", texts.join(" "))
    };
    q.push_str(&format!("(assert (= {} {}))\n", sum(mover), sum(other)));
    q.push_str(&format!("(assert (>= {} 1))\n", sum(mover)));
    q.push_str(&format!("(assert (not {}))\n(check-sat)\n", claim.text()));
    q
}

/// The proved closed forms: the finger counts `n` whose rule for equal hand
/// counts has a query ([`closed_form_query`]).
pub const PROVED: [u32; 3] = [3, 4, 5];

/// The query that proves the closed form at `n` (3, 4 or 5: [`crate::three`],
/// [`crate::four`], [`crate::five`]), with the counts named as in their
/// documents; `None` for another `n`. The repository keeps each as
/// `docs/proofs/{three,four,five}-fingers.smt2`.
pub fn closed_form_query(n: u32) -> Option<String> {
    match n {
        3 => Some(level_recursion_query(
            ["a", "b", "c"],
            ["d", "e", "f"],
            crate::three::closed_form,
        )),
        4 => Some(level_recursion_query(
            ["a", "b", "c", "d"],
            ["p", "q", "r", "s"],
            crate::four::closed_form,
        )),
        5 => Some(level_recursion_query(
            ["a", "b", "c", "d", "e"],
            ["p", "q", "r", "s", "t"],
            crate::five::closed_form,
        )),
        _ => None,
    }
}
