//! Simple Chopsticks with one hand each (Dailly, Gledel, Nowakowski,
//! Santos): the values of `(1|1)_n` for n = 1..=34 against the paper's Table 2.

use chopsticks_cgt::{GameId, GameStore, Outcome};

/// `(a|b)_n`: Left's option is `(a|a+b)_n`, Right's is `(a+b|b)_n`; a move
/// that removes the opponent's last hand (`a + b > n`) is a move to 0.
fn value(s: &mut GameStore, a: u32, b: u32, n: u32) -> GameId {
    if a + b > n {
        let zero = s.zero();
        return s.simple_game(Some(zero), Some(zero));
    }
    let left = value(s, a, a + b, n);
    let right = value(s, a + b, b, n);
    s.simple_game(Some(left), Some(right))
}

#[test]
fn table_2_up_to_34() {
    let mut s = GameStore::new();
    let zero = s.parse("0").unwrap();
    let star = s.parse("*").unwrap();
    let pm_j = s.parse("+-{0|^[2]}").unwrap();
    let expected = |n: u32| match n {
        1 | 3..=4 | 8..=11 | 21..=30 => star,
        2 | 5..=7 | 13..=20 | 34 => zero,
        12 | 31..=33 => pm_j,
        _ => unreachable!(),
    };
    for n in 1..=34 {
        let g = value(&mut s, 1, 1, n);
        assert_eq!(g, expected(n), "n = {n}: got {}", s.format(g));
        // Theorem 3: N-positions are exactly the non-zero values here.
        let outcome = s.outcome(g);
        assert_eq!(outcome == Outcome::P, g == zero);
    }
    // The value J = {0 | ^[2]} occurring in ±J is the uptimal .22*.
    let j = s.left_options(pm_j)[0];
    assert_eq!(s.to_uptimal(j).as_deref(), Some("*.22"));
    // (2|5)_40 = {J | 0}, which is not an uptimal.
    let g = value(&mut s, 2, 5, 40);
    let j_over_0 = s.game(&[j], &[zero]);
    assert_eq!(g, j_over_0, "(2|5)_40 = {}", s.format(g));
    assert_eq!(s.to_uptimal(g), None);
}
