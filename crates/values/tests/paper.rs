//! The paper's statements on one hand each: Table 2 for n ≤ 606, J = .22*,
//! (1|1)_12 = ±J and (2|5)_40 = {J|0} (not uptimals), Theorem 3, and the
//! conjecture on ±J (A110035).

use chopsticks_cgt::{GameStore, Outcome};
use chopsticks_rules::Preset;
use chopsticks_values::one_hand::{predicted, Predicted};
use chopsticks_values::{
    a110035, evaluate, fibonacci, grid, one_hand, table2, table2_from_scratch, theorem3_is_next,
    value, CgtPosition, Limits, OneHandSweep,
};

const PM_J: &str = "+-{0|^[2]}";

/// Table 2 of the paper (docs/REFERENCE.md §4.4), `J` written as CGSuite does.
fn published_table2() -> Vec<(u32, u32, &'static str, Outcome)> {
    use Outcome::{N, P};
    vec![
        (1, 1, "*", N),
        (2, 2, "0", P),
        (3, 4, "*", N),
        (5, 7, "0", P),
        (8, 11, "*", N),
        (12, 12, PM_J, N),
        (13, 20, "0", P),
        (21, 30, "*", N),
        (31, 33, PM_J, N),
        (34, 54, "0", P),
        (55, 79, "*", N),
        (80, 88, PM_J, N),
        (89, 143, "0", P),
        (144, 208, "*", N),
        (209, 232, PM_J, N),
        (233, 376, "0", P),
        (377, 545, "*", N),
        (546, 606, PM_J, N),
    ]
}

#[test]
fn table_2_up_to_606_every_n_from_scratch() {
    let runs = table2_from_scratch(606);
    let got: Vec<(u32, u32, &str, Outcome)> = runs
        .iter()
        .map(|r| (r.from, r.to, r.value.as_str(), r.outcome))
        .collect();
    assert_eq!(got, published_table2());
    // The incremental sweep gives the same table.
    assert_eq!(table2(606, None).unwrap(), runs);
}

#[test]
fn j_is_the_uptimal_22star() {
    let mut s = GameStore::new();
    let j = s.parse("{0|^[2]}").unwrap();
    assert_eq!(s.to_uptimal(j).as_deref(), Some("*.22"));
    assert_eq!(s.parse(".22*").unwrap(), j);
}

#[test]
fn one_one_12_is_pm_j_and_two_five_40_is_j_over_0_not_uptimals() {
    let mut s = GameStore::new();
    let simple = Preset::Simple.ruleset();
    let e = evaluate(&mut s, &simple, None, "(1|1)_12", Limits::DEFAULT, None).unwrap();
    let pm_j = s.parse("+-{0|^[2]}").unwrap();
    assert_eq!(e.value, pm_j);
    assert_eq!(s.to_uptimal(e.value), None);
    assert_eq!(s.outcome(e.value), Outcome::N);

    let e = evaluate(&mut s, &simple, None, "(2|5)_40", Limits::DEFAULT, None).unwrap();
    let j_over_0 = s.parse("{{0|^[2]}|0}").unwrap();
    assert_eq!(e.value, j_over_0, "(2|5)_40 = {}", s.format(e.value));
    assert_eq!(s.to_uptimal(e.value), None);
    assert_eq!(s.format(e.value), "{{0|^[2]}|0}");

    // The same through the general evaluator of the rules crate's simple ruleset.
    let mut rules = Preset::Simple.ruleset();
    rules.hands = vec![1, 1];
    rules.fingers = 41;
    let g = value(&mut s, &rules, &CgtPosition::new(vec![2], vec![5])).unwrap();
    assert_eq!(g, j_over_0);
}

#[test]
fn team_play_sum() {
    let mut s = GameStore::new();
    let simple = Preset::Simple.ruleset();
    let e = evaluate(
        &mut s,
        &simple,
        None,
        "(1|1)_12 + (2|5)_40",
        Limits::DEFAULT,
        None,
    )
    .unwrap();
    assert_eq!(e.components.len(), 2);
    let a = e.components[0].value;
    let b = e.components[1].value;
    assert_eq!(e.value, s.add(a, b));
    // ±J + {J|0}: Left moving first plays to J + {J|0} ... whatever it is, the
    // outcome follows from the canonical value.
    let o = s.outcome(e.value);
    let zero = s.zero();
    assert_eq!(o == Outcome::P, e.value == zero);
}

#[test]
fn theorem_3_and_the_conjecture_up_to_2000() {
    let mut sweep = OneHandSweep::new(2000).unwrap();
    while let Some(n) = sweep.advance() {
        let g = sweep.value(1, 1);
        let s = sweep.store_mut();
        let outcome = s.outcome(g);
        assert_eq!(
            outcome == Outcome::N,
            theorem3_is_next(n),
            "Theorem 3 at n = {n}"
        );
        assert_eq!(
            outcome == Outcome::P,
            predicted(n) == Predicted::Zero,
            "n = {n}"
        );
        assert_eq!(s.format(g), predicted(n).text(), "conjecture at n = {n}");
    }
}

#[test]
fn theorem_3_by_value_from_scratch_for_small_n() {
    let mut s = GameStore::new();
    for n in 1..=150 {
        let g = one_hand(&mut s, 1, 1, n);
        assert_eq!(s.outcome(g) == Outcome::N, theorem3_is_next(n), "n = {n}");
    }
}

#[test]
fn sequences() {
    assert_eq!(
        a110035(200_000),
        vec![1, 2, 5, 12, 31, 80, 209, 546, 1429, 3740, 9791, 25632, 67105, 175682]
    );
    assert_eq!(
        &fibonacci(100)[..12],
        &[1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144]
    );
    // ±J starts where the paper says: at the A110035 terms from 12 on.
    let starts: Vec<u32> = (1..=606)
        .filter(|&n| {
            predicted(n) == Predicted::PlusMinusJ && predicted(n - 1) != Predicted::PlusMinusJ
        })
        .collect();
    assert_eq!(starts, vec![12, 31, 80, 209, 546]);
}

#[test]
fn sweep_agrees_with_from_scratch_on_every_position() {
    let mut sweep = OneHandSweep::new(60).unwrap();
    while let Some(n) = sweep.advance() {
        let mut fresh = GameStore::new();
        for a in 1..=n {
            for b in 1..=n {
                let g = one_hand(&mut fresh, a, b, n);
                let h = sweep.value(a, b);
                let (x, y) = (fresh.format(g), sweep.store_mut().format(h));
                assert_eq!(x, y, "(a|b)_n = ({a}|{b})_{n}");
            }
        }
    }
}

#[test]
fn table_1_for_20_fingers() {
    let mut s = GameStore::new();
    let g = grid(&mut s, 20);
    assert_eq!(g.len(), 20);
    // Symmetry: (j|i) = -(i|j).
    for (i, row) in g.iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            let neg = s.neg(v);
            assert_eq!(g[j][i], neg, "({}|{})_20", i + 1, j + 1);
        }
    }
    // i + j > 20: both players remove the other's hand at once: *.
    let star = s.star();
    assert_eq!(g[19][19], star);
    assert_eq!(g[0][0], s.parse("0").unwrap()); // (1|1)_20 = 0 (Table 2)
                                                // "All values in the table are uptimals."
    for row in &g {
        for &v in row {
            assert!(
                s.to_uptimal(v).is_some(),
                "{} is not an uptimal",
                s.format(v)
            );
        }
    }
}
