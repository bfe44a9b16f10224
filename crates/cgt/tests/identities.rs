//! Identities from the literature, each checked by computation.

use chopsticks_cgt::{Dyadic, GameStore, Kind, Outcome};

fn p(s: &mut GameStore, text: &str) -> chopsticks_cgt::GameId {
    s.parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn basic_identities() {
    let mut s = GameStore::new();
    let (up, down, star) = (p(&mut s, "^"), p(&mut s, "v"), p(&mut s, "*"));
    assert_eq!(s.add(up, down), s.zero(), "^ + v = 0");
    assert_eq!(s.add(star, star), s.zero(), "* + * = 0");
    // ↑ is {0|*} and ↓ is {*|0} by definition.
    assert_eq!(up, p(&mut s, "{0|*}"));
    assert_eq!(down, p(&mut s, "{*|0}"));
    // ↑* = {0,*|0}.
    let up_star = s.add(up, star);
    assert_eq!(up_star, p(&mut s, "{0,*|0}"));
    // The claims {0|↑*} = ⇑ and {0|↑} = ⇑* are both TRUE (Winning Ways).
    let double_up = s.add(up, up);
    assert_eq!(p(&mut s, "{0|^*}"), double_up);
    let double_up_star = s.add(double_up, star);
    assert_eq!(p(&mut s, "{0|^}"), double_up_star);
    // ↑² = {0 | ↓*} (Siegel's up-second).
    let down_star = s.add(down, star);
    let up2 = s.game(&[s.zero()], &[down_star]);
    assert_eq!(p(&mut s, "^<2>"), up2);
    assert_eq!(s.up_power(2), up2);
    // ±1 = {1|-1}, 1/2 = {0|1}, {1|0} is hot with temperature 1/2.
    assert_eq!(p(&mut s, "+-1"), p(&mut s, "{1|-1}"));
    assert_eq!(p(&mut s, "{0|1}"), p(&mut s, "1/2"));
    assert_eq!(p(&mut s, "1/2 + 1/2"), p(&mut s, "1"));
    assert_eq!(p(&mut s, "*2 + *3"), p(&mut s, "*"));
    // ±↑ = {↑|↓} = *.
    assert_eq!(p(&mut s, "+-^"), star);
    // ↑ is positive, ↑* fuzzy, ⇑* positive, ↑ + *2 positive.
    assert_eq!(s.outcome(up), Outcome::L);
    assert_eq!(s.outcome(up_star), Outcome::N);
    assert_eq!(s.outcome(double_up_star), Outcome::L);
    let up_star2 = p(&mut s, "^*2");
    assert_eq!(s.outcome(up_star2), Outcome::L);
    // ↑ exceeds every multiple of ↑²: ↑ - 5·↑² > 0.
    let five_up2 = s.multiple(up2, 5);
    let diff = s.sub(up, five_up2);
    assert_eq!(s.outcome(diff), Outcome::L);
}

#[test]
fn j_is_the_uptimal_22_star() {
    let mut s = GameStore::new();
    let j = p(&mut s, "{0|^[2]}");
    // .22* = ↑ + ↑ + ↑² + ↑² + *, built from the definitions.
    let up = s.up();
    let up2 = s.up_power(2);
    let star = s.star();
    let parts = [up, up, up2, up2, star];
    let sum = s.sum_of(&parts);
    assert_eq!(j, sum);
    // CGSuite's form puts the star first; the paper's `.22*` reads too.
    assert_eq!(s.to_uptimal(j).as_deref(), Some("*.22"));
    assert_eq!(p(&mut s, ".22*"), j);
    assert_eq!(p(&mut s, "*.22"), j);
    // ↑^[2] itself is the uptimal .11.
    let up_sum2 = s.up_power_sum(2);
    assert_eq!(s.to_uptimal(up_sum2).as_deref(), Some(".11"));
}

#[test]
fn plus_minus_j_and_j_over_0_are_not_uptimals() {
    let mut s = GameStore::new();
    let pm_j = p(&mut s, "+-{0|^[2]}");
    let j_0 = p(&mut s, "{{0|^[2]}|0}");
    assert_eq!(s.to_uptimal(pm_j), None);
    assert_eq!(s.to_uptimal(j_0), None);
    assert_eq!(s.outcome(pm_j), Outcome::N);
}

#[test]
fn uptimal_round_trips() {
    let mut s = GameStore::new();
    for text in [
        ".1", ".01", ".001", ".2", ".11", ".1(-1)", ".(-3)2*", ".0*", ".0*2", ".302*", ".12",
    ] {
        let g = p(&mut s, text);
        let u = s
            .uptimal(g)
            .unwrap_or_else(|| panic!("{text} not recognised"));
        let back = s.from_uptimal(&u);
        assert_eq!(back, g, "{text}");
    }
    let up = p(&mut s, ".1");
    assert_eq!(s.to_uptimal(up).as_deref(), Some(".1"));
    let overline = p(&mut s, ".21\u{0305}");
    assert_eq!(overline, p(&mut s, ".2(-1)"));
    // A number part is allowed (CGSuite: `5.0`, `6*.1`).
    for (text, uptimal) in [
        ("1", "1.0"),
        ("1/2", "1/2.0"),
        ("1*", "1*.0"),
        ("-3/4v", "-3/4.1-"),
    ] {
        let g = p(&mut s, text);
        assert_eq!(s.to_uptimal(g).as_deref(), Some(uptimal), "{text}");
        assert_eq!(p(&mut s, uptimal), g, "{uptimal}");
    }
    for not_uptimal in ["+-1", "{1|0}", "{1|0}+^", "{0|^[2]}+{1|-1}"] {
        let g = p(&mut s, not_uptimal);
        assert_eq!(s.to_uptimal(g), None, "{not_uptimal}");
    }
}

#[test]
fn notation_examples() {
    let mut s = GameStore::new();
    for (text, printed) in [
        ("0", "0"),
        ("-2", "-2"),
        ("3/4", "3/4"),
        ("{|}", "0"),
        ("{0|}", "1"),
        ("{0,*|0,*}", "*2"),
        ("^^^", "^3"),
        ("^3", "^3"),
        ("^ + ^ + *", "^^*"),
        ("1/2+*", "1/2*"),
        ("^+*2", "^*2"),
        ("-1/2v3*2", "-1/2v3*2"),
        ("1 + {0|*}", "1^"),
        ("{1|-1}", "+-1"),
        ("{0|1||2}", "1"),
        ("{2|1}", "{2|1}"),
    ] {
        let g = p(&mut s, text);
        assert_eq!(s.format(g), printed, "{text}");
    }
    // Slash precedence.
    let a = p(&mut s, "{3|1||0}");
    let b = p(&mut s, "{{3|1}|0}");
    assert_eq!(a, b);
    let a = p(&mut s, "{3||1|0}");
    let b = p(&mut s, "{3|{1|0}}");
    assert_eq!(a, b);
    assert!(s.parse("{1||2||3}").is_err());
    assert!(s.parse("{a|b}").is_err());
    assert!(s.parse("1/3").is_err());
}

#[test]
fn kind_tags_match_generic_construction() {
    // With the arithmetic shortcuts off, build x + n·↑ + *m by repeated
    // generic sums and check the tag recognised from the canonical options.
    let mut s = GameStore::new();
    s.set_fast_paths(false);
    let numbers = [
        Dyadic::ZERO,
        Dyadic::ONE,
        Dyadic::new(-1, 1),
        Dyadic::new(3, 2),
        Dyadic::integer(-2),
    ];
    for &x in &numbers {
        for n in -6i64..=6 {
            for m in 0u32..=5 {
                let mut acc = s.number(x);
                let unit = if n >= 0 { s.up() } else { s.down() };
                for _ in 0..n.abs() {
                    acc = s.add(acc, unit);
                }
                let nim = s.nimber(m);
                acc = s.add(acc, nim);
                assert_eq!(
                    s.kind(acc),
                    Kind::Simple {
                        number: x,
                        ups: n,
                        star: m
                    },
                    "x={x} n={n} m={m}"
                );
            }
        }
    }
}

#[test]
fn stops_and_temperatures() {
    let mut s = GameStore::new();
    let cases = [
        ("0", -1, 0),
        ("5", -1, 0),
        ("1/2", -1, 1),
        ("-3/4", -1, 2),
        ("*", 0, 0),
        ("^", 0, 0),
        ("{0|^[2]}", 0, 0),
        ("+-1", 1, 0),
        ("{1|0}", 1, 1),
        ("{3|{2|0}}", 1, 0),
        ("{2|1}*", 1, 1),
    ];
    for (text, num, exp) in cases {
        let g = p(&mut s, text);
        assert_eq!(
            s.temperature(g),
            Dyadic::new(num, exp),
            "temperature of {text}"
        );
        // For numbers the thermograph agrees with the convention.
        let t = s.thermograph(g);
        assert_eq!(
            t.temperature,
            Dyadic::new(num, exp),
            "thermograph of {text}"
        );
    }
    let g = p(&mut s, "{3|{2|0}}");
    assert_eq!(s.mean(g), Dyadic::integer(2));
    assert_eq!(s.stops(g), (Dyadic::integer(3), Dyadic::integer(2)));
    let g = p(&mut s, "{1|0}");
    assert_eq!(s.mean(g), Dyadic::new(1, 1));
    let g = p(&mut s, "1/2*");
    assert_eq!(s.stops(g), (Dyadic::new(1, 1), Dyadic::new(1, 1)));
    let g = p(&mut s, "{4|{2|0}}");
    // Left scaffold 4 - t, right scaffold 2 until t = 1 then 1 + t: meet at 3/2.
    assert_eq!(s.temperature(g), Dyadic::new(3, 1));
    assert_eq!(s.mean(g), Dyadic::new(5, 1));
}

#[test]
fn birthdays() {
    let mut s = GameStore::new();
    for (text, b) in [
        ("0", 0),
        ("*", 1),
        ("1", 1),
        ("^", 2),
        ("1/2", 2),
        ("*2", 2),
        ("^^", 3),
        ("+-1", 2),
    ] {
        let g = p(&mut s, text);
        assert_eq!(s.birthday(g), b, "{text}");
    }
}

#[test]
fn large_numbers_and_single_option_cache() {
    let mut s = GameStore::new();
    let big = s.integer(1000);
    assert_eq!(s.birthday(big), 1000);
    assert_eq!(p(&mut s, "1000"), big);
    let minus = s.integer(-1000);
    assert_eq!(s.neg(big), minus);
    let x = p(&mut s, "-1023/1024");
    assert_eq!(s.as_number(x), Some(Dyadic::new(-1023, 10)));
    // Beyond 1000 ids: the single-option fast path agrees with the general
    // constructor, on small and on large ids, first call and cached call.
    let ids: Vec<_> = s.ids().collect();
    assert!(ids.len() > 1000);
    for &a in ids.iter().step_by(53) {
        for &b in ids.iter().step_by(61) {
            let first = s.simple_game(Some(a), Some(b));
            let again = s.simple_game(Some(a), Some(b));
            let general = s.game(&[a, a], &[b]);
            assert_eq!(first, again);
            assert_eq!(first, general);
        }
    }
}

#[test]
fn up_power_sums_print_by_name() {
    let mut s = GameStore::new();
    for k in 2..=9u32 {
        let g = s.up_power_sum(k);
        assert_eq!(s.format(g), format!("^[{k}]"));
        let ng = s.neg(g);
        assert_eq!(s.format(ng), format!("v[{k}]"));
        let text = s.format(ng);
        assert_eq!(s.parse(&text).unwrap(), ng);
    }
    for k in 2..=4u32 {
        let g = s.up_power(k);
        assert_eq!(s.format(g), format!("^<{k}>"));
    }
    // {^|*} is ^[2]; {^[2]|*} is ^[3]; but {^^|*} is not a unit sum.
    let g = s.parse("{^|*}").unwrap();
    assert_eq!(s.format(g), "^[2]");
    let g = s.parse("{^[2]|*}").unwrap();
    assert_eq!(s.format(g), "^[3]");
    let g = s.parse("{^^|*}").unwrap();
    assert_ne!(s.format(g), "^[2]");
}
