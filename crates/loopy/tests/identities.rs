//! The identities of LOOPY.md §4, with CGSuite's printed forms.

use chopsticks_loopy::{parse, Value};

fn show(text: &str) -> String {
    parse(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .to_string()
}

fn check(text: &str, expected: &str) {
    assert_eq!(show(text), expected, "input {text}");
}

#[test]
fn row01_on_off() {
    check("{pass|}", "on");
    check("{|pass}", "off");
    check("on", "on");
    check("off", "off");
}

#[test]
fn row02_dud() {
    let v = parse("{pass|pass}").unwrap();
    assert_eq!(v.to_string(), "dud");
    assert_eq!(v.onside().unwrap().to_string(), "on");
    assert_eq!(v.offside().unwrap().to_string(), "off");
    assert_eq!(v.outcome().name(), "D");
}

#[test]
fn row03_over_under() {
    check("{0|pass}", "over");
    check("x{0|x}", "over");
    check("{pass|0}", "under");
    check("x{x|0}", "under");
}

#[test]
fn row04_upon() {
    check("{pass|*}", "^[on]");
    check("{pass,0|0}", "^[on]*");
    check("{*|pass}", "v[on]");
    check("{0|0,pass}", "v[on]*");
}

#[test]
fn row05_uponth() {
    check("{0||0|0,pass}", "^<on>");
    check("{0,*||*|pass}", "^<on>*");
    check("{0,pass|0||0}", "v<on>");
    check("{pass|*||0,*}", "v<on>*");
}

#[test]
fn row06_pseudonumbers() {
    check("over+5", "5over");
    check("5+over", "5over");
    check("over-5", "-5over");
    check("under+5", "5under");
}

#[test]
fn row07_over_plus_up() {
    check("over + ^", "over");
}

#[test]
fn row08_three_halves_under() {
    let v = parse("{pass|3/2}").unwrap();
    assert_eq!(v.to_string(), "3/2under");
    let s = v.as_stopper().unwrap();
    assert_eq!(s.game().len(), 5);
}

#[test]
fn row09_dominated_zero() {
    check("{0,pass|*}", "^[on]");
}

#[test]
fn row10_irreducible_four_cycle() {
    let v = parse("x{0||||0|||x|*||*}").unwrap();
    assert_eq!(v.to_string(), "a{0||||0|||a|*||*}");
    assert_eq!(v.as_stopper().unwrap().game().len(), 6);
}

#[test]
fn row11_plus_minus() {
    check("+-{0|pass}", "+-over");
    check("+-{5|pass}", "+-(5over)");
}

#[test]
fn row12_tiny_miny() {
    check("{0|||0||0|off}", "{0|Tiny(on)}");
    check("{on|0||0}", "Miny(on)");
    check("{0||0|under}", "Tiny(over)");
}

#[test]
fn row13_on_plus_off() {
    check("on + off", "dud");
}

#[test]
fn row14_on_plus_over() {
    check("on + over", "on");
}

#[test]
fn row15_over_minus_over() {
    check("over - over", "over & under");
}

#[test]
fn row16_upon_minus_upon() {
    check("{pass|*} - {pass|*}", "^<on> & v<on>");
}

#[test]
fn row17_degree() {
    for (g, d) in [("on", "on"), ("off", "on"), ("{pass|3/2}", "over")] {
        let v = parse(g).unwrap();
        let diff = v.sub(&v).unwrap();
        assert_eq!(diff.onside().unwrap().to_string(), d, "degree of {g}");
    }
}

#[test]
fn row17_degree_by_upsum() {
    use chopsticks_loopy::SideValue;
    for (g, d) in [("on", "on"), ("off", "on"), ("{pass|3/2}", "over")] {
        let s = parse(g).unwrap().as_stopper().unwrap().clone();
        match s.degree().unwrap() {
            SideValue::Stopper(t) => assert_eq!(t.to_string(), d, "degree of {g}"),
            SideValue::Graph(_) => panic!("degree of {g} not a stopper"),
        }
    }
}

#[test]
fn row18_tis_tisn() {
    let tis = parse("a{{|a}|}").unwrap();
    assert_eq!(tis.to_string(), "1 & 0");
    assert_eq!(tis.outcome().name(), "P^");
    let tisn = parse("a{|{a|}}").unwrap();
    assert_eq!(tisn.to_string(), "0 & -1");
    assert_eq!(tis.neg(), tisn);
}

#[test]
fn row19_sided_up() {
    let v = parse("{0|{dud|},*}").unwrap();
    assert_eq!(v.to_string(), "^ & v*");
    assert_eq!(v.outcome().name(), "N^");
}

#[test]
fn row22_uponth_plus_star_switch() {
    check("+-({0||0|0,pass}+*)", "0");
}

#[test]
fn row25_bach_carousel_not_stopper_sided() {
    let start = std::time::Instant::now();
    let v = parse("a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}").unwrap();
    assert!(matches!(v, Value::NotStopperSided { .. }), "{v}");
    assert!(start.elapsed().as_secs() < 5);
    assert_eq!(v.outcome().name(), "N");
    // The sides are simplified as CGSuite's sidling leaves them: a reversible
    // option bypassed (`{*, {1+*|1+*,a}|*}` becomes `{1*|a||*}`), then in the
    // onside Left's option 0, in the offside Right's option 1, deleted as
    // dominated (each alone: deleting every dominated option at once changes
    // a side). CGSuite prints `a{1|1,{1*|a||*}||0} & a{0,{1|||1*|a||*}|0}`.
    assert_eq!(v.to_string(), "a{1|1,{1*|a||*}||0} & a{0,{1|||1*|a||*}|0}");
    // The sides of `G + 1` are those of `G` plus 1.
    let plus_one = parse("a{0,{1|1,{*,{1+*|1+*,a}|*}}|0} + 1").unwrap();
    assert_eq!(
        plus_one.to_string(),
        "a{2|2,{2*|a||1*}||1} & a{1,{2|||2*|a||1*}|1}"
    );
}

#[test]
fn grenville_unstable_is_canonical() {
    check(
        "a{0|{0||||0,*2|||a|0||0}||0}",
        "a{0|{0||||0,*2|||a|0||0}||0}",
    );
}

#[test]
fn cgsuite_stopper_sided_example() {
    check("a{1||a|0}", "2 & +-1");
}

#[test]
fn explicit_sided() {
    check("over & v", "over & v");
}

#[test]
fn short_games_print_as_cgt() {
    check("{0|^*5}", "^^*4");
    check("{3|||2||1|0,*||||-1/2}", "{{3|{2|{1|0,*}}}|-1/2}");
    check("+-1", "+-1");
}

#[test]
fn names_parse_back() {
    for text in [
        "on",
        "off",
        "over",
        "under",
        "dud",
        "^[on]",
        "^[on]*",
        "v[on]",
        "v[on]*",
        "^<on>",
        "^<on>*",
        "v<on>",
        "v<on>*",
        "5over",
        "-5over",
        "5under",
        "3/2under",
        "5^[on]",
        "5v<on>*",
        "+-over",
        "+-(5over)",
        "Tiny(on)",
        "Miny(on)",
        "Tiny(over)",
        "{0|Tiny(on)}",
        "over & under",
        "^<on> & v<on>",
        "1 & 0",
        "^ & v*",
        "a{0||||0|||a|*||*}",
    ] {
        check(text, text);
    }
}

#[test]
fn parse_errors() {
    for bad in [
        "pass",
        "{1|0+pass}",
        "{3|2|1}",
        "1|0",
        "{0|a}",
        "0 & on",
        "{",
        "on +",
        "Tiny(on",
    ] {
        assert!(parse(bad).is_err(), "{bad} should not parse");
    }
}

/// A short game with many moves is refused inside loopy text (printing it
/// would put it back into canonical short form, at a cost in the fourth power
/// of its options; the fuzzer found `*888` taking minutes).
#[test]
fn large_short_games_are_refused() {
    for big in ["*888", "{*89|pass}", "*64 + over"] {
        let e = parse(big).unwrap_err();
        assert!(e.message.contains("too large"), "{big}: {e}");
    }
    assert!(parse("*63 + over").is_ok());
}

#[test]
fn cgsuite_explicit_sided_options() {
    // CGSuite EvalTest, "explicit specifier of sided values".
    check("{2&-2|1&-2}", "{2|1} & -2*");
}

#[test]
fn twice_upon() {
    // The innermost part of CGSuite's `10*upon` (EvalTest, "integer * stopper").
    check("{pass|*}+{pass|*}", "{0|^[on]*}");
}

/// Stops of stoppers are pseudonumbers (numbers, `x over`, `x under`, `on`,
/// `off`), found by alternating play that stops at a pseudonumber.
#[test]
fn stops_of_stoppers() {
    for (text, left, right) in [
        ("on", "on", "on"),
        ("off", "off", "off"),
        ("over", "over", "over"),
        ("5over", "5over", "5over"),
        ("{pass|3/2}", "3/2under", "3/2under"),
        ("{3|-1}", "3", "-1"),
        ("{pass|*}", "0", "0"),
        ("+-over", "over", "under"),
        ("{on|off}", "on", "off"),
        ("{1over|-2}", "1over", "-2"),
        ("a{0||||0|||a|*||*}", "0", "0"),
        ("{pass|0} + 1", "1under", "1under"),
    ] {
        let v = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let s = v
            .as_stopper()
            .unwrap_or_else(|| panic!("{text} is a stopper"));
        let (l, r) = s.stops().unwrap();
        assert_eq!(
            (l.to_string(), r.to_string()),
            (left.into(), right.into()),
            "{text}"
        );
        assert!(l >= r, "{text}: Left stop below Right stop");
    }
}
