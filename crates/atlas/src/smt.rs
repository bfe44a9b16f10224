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
    let all: Vec<Term> = mover.iter().chain(other.iter()).copied().collect();
    let mut q = String::new();
    q.push_str(&format!(
        "; The closed form `{RULE}` for Simple Chopsticks with n = {N} satisfies the\n\
         ; level recursion at every pair of sides with equal hand counts: `unsat`\n\
         ; proves it. The side to move holds {} of the values 1..{N}, the other {}.\n",
        mover_names.join(" "),
        other_names.join(" ")
    ));
    q.push_str("(set-logic QF_LIA)\n");
    let parameters: Vec<String> = all.iter().map(|v| format!("({} Int)", v.text())).collect();
    q.push_str(&format!(
        "(define-fun {RULE} ({}) Bool\n  {})\n",
        parameters.join(" "),
        rule(mover, other).text()
    ));
    for v in &all {
        q.push_str(&format!(
            "(declare-fun {0} () Int)\n(assert (>= {0} 0))\n",
            v.text()
        ));
    }
    let sum = |side: &[Term; N]| format!("(+ {})", side.map(Term::text).join(" "));
    q.push_str(&format!("(assert (= {} {}))\n", sum(&mover), sum(&other)));
    q.push_str(&format!("(assert (>= {} 1))\n", sum(&mover)));
    let call = |m: [Term; N], o: [Term; N]| {
        let arguments: Vec<Term> = m.iter().chain(o.iter()).copied().collect();
        Formula::apply(RULE, &arguments)
    };
    let recursion = level_recursion(mover, other, call);
    q.push_str(&format!(
        "(assert (not {}))\n(check-sat)\n",
        call(mover, other).iff(recursion).text()
    ));
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
