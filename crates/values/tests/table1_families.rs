//! Table 1 for every `n`: the closed forms and observations of `docs/TABLE1.md`
//! checked against computation (`n ≤ 60` here; the `table1_survey` example
//! covers `n ≤ 200`).

use chopsticks_cgt::{Dyadic, GameId, GameStore, Outcome};
use chopsticks_values::families::{
    band, closed_form, gcd, in_first_layer_of_band_3, in_second_layer_of_band_3, j, pm_j_adjacent,
    q_chain, reduce, table, up_chain, Class, Classifier, Form,
};
use chopsticks_values::{grid, one_hand};

const MAX_N: u32 = 60;

/// The tables for `n = 0..=max` (`tables[0]` empty), in one store.
fn tables(store: &mut GameStore, max: u32) -> Vec<Vec<Vec<GameId>>> {
    (0..=max).map(|n| table(store, n)).collect()
}

#[test]
fn dynamic_programming_table_equals_the_from_scratch_grid() {
    let mut store = GameStore::new();
    for n in 1..=40 {
        assert_eq!(table(&mut store, n), grid(&mut store, n), "n = {n}");
    }
}

#[test]
fn table_1_for_20_fingers_first_row_and_the_papers_examples() {
    let mut store = GameStore::new();
    let t = table(&mut store, 20);
    let row: Vec<String> = t[0].iter().map(|&g| store.format(g)).collect();
    assert_eq!(
        row,
        [
            "0", "v[2]", "*", "^[2]", "^", "0", "vv*", "v", "*", "^[9]", "^[8]", "^[7]", "^[6]",
            "^[5]", "^[4]", "^[3]", "^[2]", "^", "0", "*"
        ]
    );
    assert_eq!(store.format(t[1][2]), "{0|^[2]}"); // (2|3)_20 = J
    let t40 = table(&mut store, 40);
    assert_eq!(store.format(t40[1][4]), "{{0|^[2]}|0}"); // (2|5)_40 = {J|0}
    let t12 = table(&mut store, 12);
    assert_eq!(store.format(t12[0][0]), "+-{0|^[2]}"); // (1|1)_12 = ±J
}

/// The chains of the closed forms are the uptimals they are said to be, built
/// independently (sums of up-powers, `n·↑ + *m`).
#[test]
fn chains_are_the_uptimals_named() {
    let mut store = GameStore::new();
    for k in 0..=10 {
        let chain = up_chain(&mut store, k);
        let sum = store.up_power_sum(k);
        assert_eq!(chain, sum, "U_{k} = ↑^[{k}]");
    }
    for k in 0..=40u32 {
        let chain = q_chain(&mut store, k);
        let ups = store.number_up_star(Dyadic::ZERO, i64::from(k), u32::from(k % 2 == 0));
        assert_eq!(chain, ups, "Q_{k} = {k}·↑ + [{k} even]·*");
    }
    let jj = j(&mut store);
    assert_eq!(store.to_uptimal(jj).as_deref(), Some("*.22"));
}

/// The identities the proofs of bands 1 and 2 use.
#[test]
fn identities_used_by_the_proofs() {
    let mut store = GameStore::new();
    let star = store.star();
    let zero = GameId::ZERO;
    // {*|*} = 0, {0|0} = *, {*|0} = ↓.
    assert_eq!(store.simple_game(Some(star), Some(star)), zero);
    assert_eq!(store.simple_game(Some(zero), Some(zero)), star);
    let down = store.down();
    assert_eq!(store.simple_game(Some(star), Some(zero)), down);
    for k in 1..=40 {
        // {U_k | 0} = * for k >= 1.
        let u = up_chain(&mut store, k);
        assert_eq!(store.simple_game(Some(u), Some(zero)), star, "k = {k}");
        // {-Q_k | *} = 0 and {-Q_k | 0} = -Q_{k+1}.
        let q = q_chain(&mut store, k);
        let nq = store.neg(q);
        assert_eq!(store.simple_game(Some(nq), Some(star)), zero, "k = {k}");
        let q1 = q_chain(&mut store, k + 1);
        let nq1 = store.neg(q1);
        assert_eq!(store.simple_game(Some(nq), Some(zero)), nq1, "k = {k}");
    }
    // Proposition 4's table, for every pair of indices up to 20 (k = 0 included
    // where the proof allows it).
    for k in 0..=20 {
        let u = up_chain(&mut store, k);
        let u1 = up_chain(&mut store, k + 1);
        let q = q_chain(&mut store, k);
        let nq = store.neg(q);
        let q1 = q_chain(&mut store, k + 1);
        let nq1 = store.neg(q1);
        // {U_k | *} = U_{k+1}.
        assert_eq!(store.simple_game(Some(u), Some(star)), u1, "k = {k}");
        for l in 0..=20 {
            let v = up_chain(&mut store, l);
            let nv = store.neg(v);
            let p = q_chain(&mut store, l);
            let p1 = q_chain(&mut store, l + 1);
            // {U_k | -U_l} = *.
            assert_eq!(
                store.simple_game(Some(u), Some(nv)),
                star,
                "k = {k}, l = {l}"
            );
            // {-Q_k | Q_l} = 0, * included as Q_0.
            assert_eq!(
                store.simple_game(Some(nq), Some(p)),
                zero,
                "k = {k}, l = {l}"
            );
            if k >= 1 && l >= 1 {
                // {U_k | Q_l} = Q_{l+1} and {-Q_k | -U_l} = -Q_{k+1}.
                assert_eq!(store.simple_game(Some(u), Some(p)), p1, "k = {k}, l = {l}");
                assert_eq!(
                    store.simple_game(Some(nq), Some(nv)),
                    nq1,
                    "k = {k}, l = {l}"
                );
            }
        }
    }
}

/// Propositions 1-5: bands 0, 1 and 2 and the first two layers of band 3, every
/// cell for `n ≤ 60`; beyond the second layer, no closed form is claimed.
#[test]
fn closed_forms_of_bands_0_1_2_and_the_first_layer_of_band_3() {
    let mut store = GameStore::new();
    let mut checked = [0u32; 4];
    for n in 1..=MAX_N {
        let t = table(&mut store, n);
        for a in 1..=n {
            for b in 1..=n {
                let g = t[a as usize - 1][b as usize - 1];
                match closed_form(a, b, n) {
                    Some(form) => {
                        checked[band(a, b, n) as usize] += 1;
                        let want = form.game(&mut store);
                        assert_eq!(g, want, "({a}|{b})_{n}: {form:?}");
                    }
                    None => {
                        assert_eq!(band(a, b, n), 3);
                        assert!(!in_first_layer_of_band_3(a, b, n), "({a}|{b})_{n}");
                        assert!(!in_second_layer_of_band_3(a, b, n), "({a}|{b})_{n}");
                    }
                }
            }
        }
    }
    // Every band is met (the first layer of band 3 counted as band 3), and most
    // of the table is covered.
    assert!(checked.iter().all(|&c| c > 1000), "{checked:?}");
}

/// Proposition 5: the second layer of band 3 (`4a + 3b ≤ n < 7a + 3b` for
/// `a ≤ b`, and the mirror image) is `0`, `↑`, `J` or `*` (`0`, `↓`, `-J`, `*`),
/// every cell for `n ≤ 400`, against the table computed by dynamic programming;
/// and the layer is what its definition says: both options have a closed form
/// (bands 0–2 or the first layer), and the cell itself is not in the first layer.
#[test]
fn second_layer_of_band_3() {
    let mut store = GameStore::new();
    // 0 for a ≤ b, and its mirror image -0 = 0 for a > b, counted apart.
    let forms = [
        Form::Up(0),
        Form::Down(0),
        Form::Up(1),
        Form::Down(1),
        Form::J,
        Form::NegJ,
        Form::Star,
    ];
    let games: Vec<GameId> = forms.iter().map(|f| f.game(&mut store)).collect();
    let mut cells = 0u64;
    let mut seen = vec![0u64; forms.len()];
    for n in 1..=400 {
        let t = table(&mut store, n);
        for a in 1..=n {
            for b in 1..=n {
                if !in_second_layer_of_band_3(a, b, n) {
                    continue;
                }
                cells += 1;
                assert!(!in_first_layer_of_band_3(a, b, n));
                for (x, y) in [(a, a + b), (a + b, b)] {
                    assert!(
                        band(x, y, n) < 3 || in_first_layer_of_band_3(x, y, n),
                        "({a}|{b})_{n}: option ({x}|{y})"
                    );
                }
                // The inequalities of the statement, written out.
                let (p, q) = (a.min(b), a.max(b));
                assert!(4 * p + 3 * q <= n && n < 7 * p + 3 * q, "({a}|{b})_{n}");
                let form = closed_form(a, b, n).expect("a closed form");
                let i = forms
                    .iter()
                    .position(|&f| f == form)
                    .expect("a listed form");
                seen[i] += 1;
                let g = t[a as usize - 1][b as usize - 1];
                assert_eq!(g, games[i], "({a}|{b})_{n}: {form:?}");
            }
        }
    }
    // Every case of the statement occurs (±↑ and ±0 apart from the diagonal).
    assert!(seen.iter().all(|&c| c > 100), "{seen:?}");
    println!("second layer, n <= 400: {cells} cells, by form {forms:?}: {seen:?}");
    assert!(cells > 30_000, "{cells}");
}

/// Proposition 4 (scaling) and its corollary for the diagonal; antisymmetry.
#[test]
fn scaling_by_the_gcd_diagonal_and_antisymmetry() {
    let mut store = GameStore::new();
    let ts = tables(&mut store, MAX_N);
    for n in 1..=MAX_N {
        for a in 1..=n {
            for b in 1..=n {
                let g = ts[n as usize][a as usize - 1][b as usize - 1];
                let (ra, rb, rn) = reduce(a, b, n);
                assert_eq!(gcd(ra, rb), 1);
                let h = ts[rn as usize][ra as usize - 1][rb as usize - 1];
                assert_eq!(g, h, "({a}|{b})_{n} = ({ra}|{rb})_{rn}");
                let mirror = ts[n as usize][b as usize - 1][a as usize - 1];
                assert_eq!(store.neg(g), mirror, "({b}|{a})_{n} = -({a}|{b})_{n}");
            }
            // Diagonal: (i|i)_n = (1|1)_{⌊n/i⌋}, the one-hand evaluator on the right.
            let d = ts[n as usize][a as usize - 1][a as usize - 1];
            assert_eq!(d, one_hand(&mut store, 1, 1, n / a), "({a}|{a})_{n}");
        }
    }
}

/// Corollary: the first row `(1|j)_n` for `j ≥ n/3`, written out, checked in the
/// printed CGSuite text.
#[test]
fn first_row_for_j_at_least_n_over_3() {
    let mut store = GameStore::new();
    for n in 3..=MAX_N {
        let t = table(&mut store, n);
        for jj in 1..=n {
            let text = store.format(t[0][jj as usize - 1]);
            let want = if jj == n {
                "*".to_string()
            } else if 2 * jj >= n {
                up_text(n - 1 - jj)
            } else if 3 * jj >= n {
                let m = (n - 1 - 2 * jj) / 2;
                if m == 0 {
                    "*".to_string()
                } else {
                    let q = q_chain(&mut store, m);
                    let nq = store.neg(q);
                    store.format(nq)
                }
            } else {
                continue;
            };
            assert_eq!(text, want, "(1|{jj})_{n}");
            // And (j|1)_n is its negative.
            let mirror = t[jj as usize - 1][0];
            assert_eq!(store.neg(t[0][jj as usize - 1]), mirror);
        }
    }
}

/// `↑^[k]` as CGSuite prints it.
fn up_text(k: u32) -> String {
    match k {
        0 => "0".to_string(),
        1 => "^".to_string(),
        k => format!("^[{k}]"),
    }
}

/// Observations 1 and 2: up to `n = 11` every value is `0`, `*`, `±↑^[k]` or
/// `±(k·↑ + [k even]·*)`; from `n = 12` on other values occur, and every one of
/// them (for `n ≤ 60`) has `J` or `-J` in its canonical form.
#[test]
fn values_outside_the_families_involve_j_and_start_at_12() {
    let mut store = GameStore::new();
    let mut classifier = Classifier::new(&mut store, MAX_N + 2);
    let mut first_other = None;
    for n in 1..=MAX_N {
        let t = table(&mut store, n);
        for &g in t.iter().flatten() {
            if classifier.class(g) == Class::Other {
                first_other.get_or_insert(n);
                let name = classifier.name(&mut store, g);
                assert!(
                    classifier.involves_j(&mut store, g),
                    "n = {n}: {name} has no J"
                );
            }
        }
    }
    assert_eq!(first_other, Some(12));
}

/// Observation 4: the uptimals among the values outside the families (`n ≤ 200`
/// in the survey) include `J`, and `{J | ↑^[2]} = .221*`; `{J|0}` and `±J` are
/// not uptimals.
#[test]
fn j_over_up_2_is_an_uptimal_j_over_0_is_not() {
    let mut store = GameStore::new();
    let jj = j(&mut store);
    let u2 = up_chain(&mut store, 2);
    let g = store.simple_game(Some(jj), Some(u2));
    assert_eq!(store.to_uptimal(g).as_deref(), Some("*.221"));
    let u = store.uptimal(g).expect("an uptimal");
    assert_eq!(store.from_uptimal(&u), g);
    // Where it first occurs: (1|12)_163.
    assert_eq!(one_hand(&mut store, 1, 12, 163), g);
    assert_eq!(store.outcome(g), Outcome::L);
    let j_over_0 = store.simple_game(Some(jj), Some(GameId::ZERO));
    assert_eq!(store.to_uptimal(j_over_0), None);
    let nj = store.neg(jj);
    let pm = store.simple_game(Some(jj), Some(nj));
    assert_eq!(store.to_uptimal(pm), None);
}

/// Conjecture 5 of docs/TABLE1.md: `(k|k+1)_n = ±J` exactly on the predicted
/// runs (the first four), `k ≤ 8`, `n ≤ 250k`; and the fifth run at `k = 2`.
#[test]
fn plus_minus_j_on_the_adjacent_diagonal() {
    let mut store = GameStore::new();
    let jj = j(&mut store);
    let nj = store.neg(jj);
    let pm = store.simple_game(Some(jj), Some(nj));
    for k in 1..=8u32 {
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for n in (k + 1)..=250 * k {
            if one_hand(&mut store, k, k + 1, n) == pm {
                match runs.last_mut() {
                    Some(r) if r.1 + 1 == n => r.1 = n,
                    _ => runs.push((n, n)),
                }
            }
        }
        assert_eq!(runs, pm_j_adjacent(k, 250 * k), "k = {k}");
    }
    // The fifth run at k = 2: 546·0 + 1429 ≤ n ≤ 610·2 + 232.
    assert_eq!(pm_j_adjacent(2, 1500).last(), Some(&(1429, 1452)));
    let fifth: Vec<u32> = (1420..=1460)
        .filter(|&n| one_hand(&mut store, 2, 3, n) == pm)
        .collect();
    assert_eq!(fifth, (1429..=1452).collect::<Vec<_>>());
    // The sixth run at k = 2, as the offsets' reading predicts it
    // (1429·0 + 3740 ≤ n ≤ 1597·2 + 609): both ends.
    assert_eq!(pm_j_adjacent(2, 4000).last(), Some(&(3740, 3803)));
    let sixth: Vec<u32> = (3735..=3745)
        .chain(3798..=3808)
        .filter(|&n| one_hand(&mut store, 2, 3, n) == pm)
        .collect();
    let want: Vec<u32> = (3740..=3745).chain(3798..=3803).collect();
    assert_eq!(sixth, want);
}

/// `Form::game` agrees with the classifier (the closed forms name the families).
#[test]
fn forms_and_classes_agree() {
    let mut store = GameStore::new();
    let classifier = Classifier::new(&mut store, 30);
    for k in 0..=30 {
        let cases = [
            (Form::Up(k), if k == 0 { Class::Zero } else { Class::Up(k) }),
            (
                Form::Down(k),
                if k == 0 { Class::Zero } else { Class::Down(k) },
            ),
            (
                Form::Q(k),
                match k {
                    0 => Class::Star,
                    1 => Class::Up(1),
                    k => Class::Q(k),
                },
            ),
            (
                Form::NegQ(k),
                match k {
                    0 => Class::Star,
                    1 => Class::Down(1),
                    k => Class::NegQ(k),
                },
            ),
        ];
        for (form, class) in cases {
            let g = form.game(&mut store);
            assert_eq!(classifier.class(g), class, "{form:?}");
        }
    }
}
