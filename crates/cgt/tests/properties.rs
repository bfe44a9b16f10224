//! Property tests over random games born by day 3.

use crate::common;

use chopsticks_cgt::{Dyadic, GameId, GameStore, Outcome};
use common::next_day;
use proptest::prelude::*;

/// The 22 games born by day 2, in a deterministic order (by construction).
fn day_two(s: &mut GameStore) -> Vec<GameId> {
    let mut day = vec![s.zero()];
    for _ in 0..2 {
        day = next_day(s, &day);
    }
    day
}

/// A random game born by day 3: Left and Right option sets as bit masks
/// over the 22 games born by day 2 (at most `max_options` bits kept each).
#[derive(Clone, Debug)]
struct Recipe {
    left: u32,
    right: u32,
}

fn recipe() -> impl Strategy<Value = Recipe> {
    // Sparse masks: up to 8 picks a side keeps sums of three cheap.
    let side = proptest::collection::vec(0u32..22, 0..=8)
        .prop_map(|v| v.into_iter().fold(0u32, |m, i| m | (1 << i)));
    (side.clone(), side).prop_map(|(left, right)| Recipe { left, right })
}

fn build(s: &mut GameStore, day2: &[GameId], r: &Recipe) -> GameId {
    let pick = |m: u32| -> Vec<GameId> {
        (0..22)
            .filter(|i| m >> i & 1 == 1)
            .map(|i| day2[i])
            .collect()
    };
    s.game(&pick(r.left), &pick(r.right))
}

fn setup() -> (GameStore, Vec<GameId>) {
    let mut s = GameStore::new();
    let d = day_two(&mut s);
    assert_eq!(d.len(), 22);
    (s, d)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn inverse_and_involution(a in recipe()) {
        let (mut s, d) = setup();
        let g = build(&mut s, &d, &a);
        let ng = s.neg(g);
        prop_assert_eq!(s.add(g, ng), s.zero());
        prop_assert_eq!(s.neg(ng), g);
        prop_assert!(s.birthday(g) <= 3);
    }

    #[test]
    fn commutative_and_associative(a in recipe(), b in recipe(), c in recipe()) {
        let (mut s, d) = setup();
        let (g, h, k) = (build(&mut s, &d, &a), build(&mut s, &d, &b), build(&mut s, &d, &c));
        prop_assert_eq!(s.add(g, h), s.add(h, g));
        let gh = s.add(g, h);
        let hk = s.add(h, k);
        prop_assert_eq!(s.add(gh, k), s.add(g, hk));
    }

    #[test]
    fn order_is_antisymmetric_and_translation_invariant(a in recipe(), b in recipe()) {
        let (mut s, d) = setup();
        let (g, h) = (build(&mut s, &d, &a), build(&mut s, &d, &b));
        let both = s.le(g, h) && s.le(h, g);
        prop_assert_eq!(both, g == h);
        let diff = s.sub(h, g);
        let zero = s.zero();
        prop_assert_eq!(s.le(g, h), s.le(zero, diff));
        prop_assert_eq!(s.le(h, g), s.le(diff, zero));
    }

    #[test]
    fn print_then_parse_is_identity(a in recipe(), b in recipe()) {
        let (mut s, d) = setup();
        let g = build(&mut s, &d, &a);
        let h = build(&mut s, &d, &b);
        for x in [g, s.add(g, h), s.neg(g)] {
            let text = s.format(x);
            let back = s.parse(&text);
            prop_assert_eq!(back, Ok(x), "text {}", text);
            if let Some(u) = s.to_uptimal(x) {
                prop_assert_eq!(s.parse(&u), Ok(x), "uptimal {}", u);
            }
        }
    }

    #[test]
    fn outcomes_of_sums(a in recipe(), b in recipe()) {
        let (mut s, d) = setup();
        let (g, h) = (build(&mut s, &d, &a), build(&mut s, &d, &b));
        let (og, oh) = (s.outcome(g), s.outcome(h));
        let gh = s.add(g, h);
        let ogh = s.outcome(gh);
        let ng = s.neg(g);
        let mirrored = match og {
            Outcome::L => Outcome::R,
            Outcome::R => Outcome::L,
            o => o,
        };
        prop_assert_eq!(s.outcome(ng), mirrored);
        let g_minus_g = s.add(g, ng);
        prop_assert_eq!(s.outcome(g_minus_g), Outcome::P);
        match (og, oh) {
            (Outcome::P, o) | (o, Outcome::P) => prop_assert_eq!(ogh, o),
            (Outcome::L, Outcome::L) => prop_assert_eq!(ogh, Outcome::L),
            (Outcome::R, Outcome::R) => prop_assert_eq!(ogh, Outcome::R),
            // L + N is L or N (never R or P); R + N is R or N.
            (Outcome::L, Outcome::N) | (Outcome::N, Outcome::L) =>
                prop_assert!(matches!(ogh, Outcome::L | Outcome::N)),
            (Outcome::R, Outcome::N) | (Outcome::N, Outcome::R) =>
                prop_assert!(matches!(ogh, Outcome::R | Outcome::N)),
            _ => {}
        }
    }

    #[test]
    fn shortcuts_agree_with_definitions(a in recipe(), b in recipe()) {
        let (mut fast, df) = setup();
        let (mut slow, ds) = setup();
        slow.set_fast_paths(false);
        let (g1, h1) = (build(&mut fast, &df, &a), build(&mut fast, &df, &b));
        let (g2, h2) = (build(&mut slow, &ds, &a), build(&mut slow, &ds, &b));
        prop_assert_eq!(fast.le(g1, h1), slow.le(g2, h2));
        prop_assert_eq!(fast.le(h1, g1), slow.le(h2, g2));
        let s1 = fast.add(g1, h1);
        let s2 = slow.add(g2, h2);
        prop_assert_eq!(fast.format(s1), slow.format(s2));
        let gg1 = fast.add(g1, g1);
        let gg2 = slow.add(g2, g2);
        prop_assert_eq!(fast.format(gg1), slow.format(gg2));
    }

    #[test]
    fn stops_mean_and_temperature(a in recipe(), b in recipe(), num in -8i64..8, exp in 0u32..3) {
        let (mut s, d) = setup();
        let (g, h) = (build(&mut s, &d, &a), build(&mut s, &d, &b));
        // The mean is additive.
        let gh = s.add(g, h);
        let (mg, mh) = (s.mean(g), s.mean(h));
        prop_assert_eq!(s.mean(gh), mg + mh);
        // Left stop >= Right stop; mean between the stops.
        let (l, r) = s.stops(g);
        prop_assert!(l >= r);
        prop_assert!(r <= mg && mg <= l);
        // Adding a number translates stops and mean, keeps the temperature
        // of a non-number.
        let x = Dyadic::new(num, exp);
        let xg = s.number(x);
        let gx = s.add(g, xg);
        prop_assert_eq!(s.stops(gx), (l + x, r + x));
        prop_assert_eq!(s.mean(gx), mg + x);
        if !s.is_number(g) {
            let t = s.temperature(g);
            prop_assert_eq!(s.temperature(gx), t);
            prop_assert!(t >= Dyadic::ZERO || l == r);
        }
    }
}
