//! Property tests on random small stoppers and random small game graphs.

use chopsticks_cgt::GameStore;
use chopsticks_loopy::{parse, Game, Player, Side, Stopper, Value, Winner};
use proptest::prelude::*;

/// A random graph: `n` vertices, each with up to `deg` Left and Right options.
fn graph(max_n: usize, deg: usize) -> impl Strategy<Value = Game> {
    (1..=max_n).prop_flat_map(move |n| {
        let lists = proptest::collection::vec(
            (
                proptest::collection::vec(0..n as u32, 0..=deg),
                proptest::collection::vec(0..n as u32, 0..=deg),
            ),
            n,
        );
        lists.prop_map(|v| {
            let (l, r): (Vec<_>, Vec<_>) = v.into_iter().unzip();
            Game::new(l, r, 0).expect("valid")
        })
    })
}

/// Drops edges (last option of the vertex with the most options) until the
/// graph is a stopper.
fn make_stopper(g: Game) -> Game {
    let mut g = g.reachable();
    while !g.is_stopper() {
        let n = g.len();
        let (mut l, mut r): (Vec<Vec<u32>>, Vec<Vec<u32>>) = (
            (0..n as u32).map(|v| g.left(v).to_vec()).collect(),
            (0..n as u32).map(|v| g.right(v).to_vec()).collect(),
        );
        let v = (0..n)
            .max_by_key(|&v| (l[v].len() + r[v].len(), v))
            .expect("vertex");
        if l[v].len() >= r[v].len() {
            l[v].pop();
        } else {
            r[v].pop();
        }
        g = Game::new(l, r, g.start()).expect("valid").reachable();
    }
    g
}

fn stopper(max_n: usize) -> impl Strategy<Value = Stopper> {
    graph(max_n, 2).prop_map(|g| Stopper::new(&make_stopper(g)).expect("stopper"))
}

/// A random loop-free graph: options only to later vertices.
fn dag(max_n: usize) -> impl Strategy<Value = Game> {
    graph(max_n, 3).prop_map(|g| {
        let n = g.len() as u32;
        let keep = |v: u32, list: &[u32]| -> Vec<u32> {
            list.iter().copied().filter(|&w| w > v).collect()
        };
        let l = (0..n).map(|v| keep(v, g.left(v))).collect();
        let r = (0..n).map(|v| keep(v, g.right(v))).collect();
        Game::new(l, r, 0).expect("valid")
    })
}

fn zero() -> Value {
    Value::Stopper(Stopper::zero())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn double_negation(s in stopper(6)) {
        prop_assert_eq!(s.neg().neg(), s.clone());
        let v = Value::Stopper(s);
        prop_assert_eq!(v.neg().neg(), v);
    }

    #[test]
    fn negation_of_sided_values(g in graph(5, 2)) {
        let v = Value::from_game(&g).unwrap();
        let w = Value::from_game(&g.neg()).unwrap();
        prop_assert!(v.neg().equivalent(&w).unwrap());
        if v.is_stopper_sided() {
            prop_assert_eq!(v.neg(), w);
        }
    }

    #[test]
    fn sums_commute(a in stopper(4), b in stopper(4)) {
        let (a, b) = (Value::Stopper(a), Value::Stopper(b));
        let ab = a.add(&b).unwrap();
        let ba = b.add(&a).unwrap();
        if ab.is_stopper_sided() && ba.is_stopper_sided() {
            prop_assert_eq!(&ab, &ba);
        }
        prop_assert!(ab.equivalent(&ba).unwrap());
    }

    #[test]
    fn tweedledum(s in stopper(5)) {
        let v = Value::Stopper(s);
        let d = v.sub(&v).unwrap();
        prop_assert!(d.side_ge(&zero(), Side::On).unwrap(), "onside of G - G below 0: {}", d);
        prop_assert!(zero().side_ge(&d, Side::Off).unwrap(), "offside of G - G above 0: {}", d);
    }

    #[test]
    fn offside_at_most_onside(g in graph(5, 2)) {
        let v = Value::from_game(&g).unwrap();
        if let (Some(on), Some(off)) = (v.onside(), v.offside()) {
            prop_assert!(off.le(on));
        }
    }

    #[test]
    fn loop_free_games_match_the_short_engine(g in dag(7)) {
        let mut store = GameStore::new();
        let id = g.to_short(&mut store).unwrap();
        let text = store.format(id);
        let v = Value::from_game(&g).unwrap();
        prop_assert_eq!(v.to_string(), text.clone());
        let generic = Stopper::new_generic(&g).unwrap();
        prop_assert_eq!(generic.to_string(), text.clone());
        prop_assert_eq!(&generic, v.as_stopper().unwrap());
        // And back through the parser.
        prop_assert_eq!(parse(&text).unwrap(), v);
    }

    #[test]
    fn stoppers_round_trip(s in stopper(6)) {
        let text = s.to_string();
        let back = parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        prop_assert_eq!(back.as_stopper(), Some(&s), "text {}", text);
    }

    #[test]
    fn values_round_trip(g in graph(5, 2)) {
        let v = Value::from_game(&g).unwrap();
        let text = v.to_string();
        let back = parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        if v.is_stopper_sided() {
            prop_assert_eq!(&back, &v, "text {}", text);
        } else {
            prop_assert!(back.equivalent(&v).unwrap(), "text {}", text);
        }
    }

    #[test]
    fn outcome_matches_retrograde_analysis(g in graph(6, 2)) {
        let v = Value::from_game(&g).unwrap();
        let o = v.outcome();
        prop_assert_eq!(o.left_starts(), direct_winner(&g, Player::Left));
        prop_assert_eq!(o.right_starts(), direct_winner(&g, Player::Right));
    }

    /// The order of stoppers against the play of their difference (Siegel,
    /// *Combinatorial Game Theory*, ch. VI): `G >= H` exactly when Left, moving
    /// second in `G - H`, does not lose (she wins, or play never ends).
    #[test]
    fn stopper_order_is_survival_in_the_difference(g in graph(4, 2), h in graph(4, 2)) {
        let (g, h) = (make_stopper(g), make_stopper(h));
        let difference = g.sum(&h.neg(), 1 << 12).unwrap();
        let survives = difference.winner(Player::Right) != Winner::Right;
        let (a, b) = (Stopper::new(&g).unwrap(), Stopper::new(&h).unwrap());
        prop_assert_eq!(a.ge(&b), survives, "{} >= {}", a, b);
    }

    #[test]
    fn stopper_equality_is_mutual_order(a in stopper(4), b in stopper(4)) {
        prop_assert_eq!(a == b, a.le(&b) && b.le(&a));
    }

    #[test]
    fn adding_and_removing_a_short_game(s in stopper(5), h in dag(4)) {
        let v = Value::Stopper(s);
        let h = Value::from_game(&h).unwrap();
        let back = v.add(&h).unwrap().sub(&h).unwrap();
        prop_assert_eq!(back, v);
    }

    #[test]
    fn canonical_form_ignores_copies(g in graph(5, 2), flips in proptest::collection::vec(any::<bool>(), 0..20)) {
        // Two copies of the graph, each edge going to either copy: the same game.
        let g = make_stopper(g);
        let n = g.len() as u32;
        let mut k = 0;
        let mut pick = |w: u32| { let f = flips.get(k).copied().unwrap_or(false); k += 1; if f { w + n } else { w } };
        let mut l = Vec::new();
        let mut r = Vec::new();
        for _copy in 0..2 {
            for v in 0..n {
                l.push(g.left(v).iter().map(|&w| pick(w)).collect::<Vec<_>>());
                r.push(g.right(v).iter().map(|&w| pick(w)).collect::<Vec<_>>());
            }
        }
        let doubled = Game::new(l, r, g.start()).unwrap();
        prop_assume!(doubled.is_stopper());
        prop_assert_eq!(Stopper::new(&doubled).unwrap(), Stopper::new(&g).unwrap());
    }

    #[test]
    fn stoppers_of_many_vertices_at_once(g in graph(7, 3)) {
        // The joint canonical forms of every vertex equal each vertex's own.
        let g = make_stopper(g);
        let starts: Vec<u32> = (0..g.len() as u32).rev().collect();
        let many = Stopper::new_many(&g, &starts).unwrap();
        for (&t, s) in starts.iter().zip(&many) {
            prop_assert_eq!(s, &Stopper::new(&g.with_start(t)).unwrap());
        }
    }

    #[test]
    fn sum_of_graphs_is_sum_of_values(g in graph(3, 2), h in graph(3, 2)) {
        // (s & t) + (u & v) = (s ⊕ u) & (t ⊖ v): adding the values equals the
        // value of the sum graph.
        let direct = Value::from_game(&g.sum(&h, 1 << 12).unwrap()).unwrap();
        let by_values = Value::from_game(&g).unwrap().add(&Value::from_game(&h).unwrap()).unwrap();
        prop_assert!(direct.equivalent(&by_values).unwrap(), "{} vs {}", direct, by_values);
        if direct.is_stopper_sided() && by_values.is_stopper_sided() {
            prop_assert_eq!(direct, by_values);
        }
    }

    #[test]
    fn parser_never_panics(s in "[-+{}|,&()*^v<>\\[\\]./0-9a-z ]{0,40}") {
        let _ = parse(&s);
    }

    #[test]
    fn parser_never_panics_on_any_text(s in "\\PC{0,30}") {
        let _ = parse(&s);
    }
}

/// Win/lose/draw by a plain retrograde analysis on the states (vertex, mover),
/// written separately from the crate's: repeated sweeps until nothing changes.
fn direct_winner(g: &Game, first: Player) -> Winner {
    let g = g.reachable();
    let n = g.len();
    // 0 unknown, 1 Left wins, 2 Right wins; index 2v + (mover == Right).
    let mut w = vec![0u8; 2 * n];
    loop {
        let mut changed = false;
        for v in 0..n as u32 {
            for (k, player) in [(0usize, Player::Left), (1, Player::Right)] {
                let s = 2 * v as usize + k;
                if w[s] != 0 {
                    continue;
                }
                let me = if k == 0 { 1 } else { 2 };
                let other_state = |o: u32| 2 * o as usize + (1 - k);
                let opts = g.options(v, player);
                let value = if opts.iter().any(|&o| w[other_state(o)] == me) {
                    me
                } else if opts.iter().all(|&o| w[other_state(o)] == 3 - me) {
                    3 - me
                } else {
                    0
                };
                if value != 0 {
                    w[s] = value;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    match w[2 * g.start() as usize + usize::from(first == Player::Right)] {
        1 => Winner::Left,
        2 => Winner::Right,
        _ => Winner::Draw,
    }
}
