//! Bounded work: inputs that once ran away (minutes of CPU, gigabytes of memory, or
//! a stack overflow) get an answer or a refusal whose work is bounded by
//! construction (the work limit), and the refusals say what the limit is.

use std::collections::HashMap;

use chopsticks_cgt::notation::{MAX_DEPTH, MAX_INTEGER, MAX_NIMBER, MAX_UPS, MAX_WORK};
use chopsticks_cgt::{Dyadic, Expression, GameId, GameStore, Kind, WorkLimit};

/// A generous limit for inputs that should need little work.
const SMALL: u64 = 1 << 22;

fn parse_within(s: &mut GameStore, text: &str, limit: u64) -> Result<GameId, String> {
    let e = Expression::parse(text).map_err(|e| e.to_string())?;
    s.evaluate_within(&e, &[], limit).map_err(|e| e.to_string())
}

#[test]
fn numbers_plus_large_nimbers_are_built_directly() {
    // x + *m used to be reduced from {x + *k | x + *k} option by option (m^4 work).
    let mut s = GameStore::new();
    for (text, printed, x, m) in [
        ("1*1024", "1*1024", 1, 1024),
        ("*868+88", "88*868", 88, 868),
        ("65536*1024", "65536*1024", 65536, 1024),
        ("-3*1000+^", "-3^*1000", -3, 1000),
    ] {
        let g = parse_within(&mut s, text, SMALL).unwrap();
        assert_eq!(s.format(g), printed);
        let ups = i64::from(text.contains('^'));
        assert_eq!(
            s.kind(g),
            Kind::Simple {
                number: Dyadic::integer(x),
                ups,
                star: m
            }
        );
        assert_eq!(
            s.left_options(g).len(),
            if ups == 0 { m as usize } else { 1 }
        );
    }
    // n·↑ + *m with a large m is a chain, not a sum to reduce.
    let g = parse_within(&mut s, "^4096*1024", SMALL).unwrap();
    assert_eq!(s.format(g), "^4096*1024");
}

/// The structure of a game, ignoring the kind tags (which `format` prints).
fn structure(s: &GameStore, g: GameId, memo: &mut HashMap<GameId, String>) -> String {
    if let Some(t) = memo.get(&g) {
        return t.clone();
    }
    let side = |opts: &[GameId], memo: &mut HashMap<GameId, String>| {
        let mut v: Vec<String> = opts.iter().map(|&o| structure(s, o, memo)).collect();
        v.sort();
        v.join(",")
    };
    let l = side(s.left_options(g), memo);
    let r = side(s.right_options(g), memo);
    let t = format!("{{{l}|{r}}}");
    memo.insert(g, t.clone());
    t
}

#[test]
fn direct_forms_of_x_plus_ups_plus_star_are_the_canonical_forms() {
    // Built directly from the canonical form, and by generic sums with the
    // arithmetic shortcuts off: the same games.
    let mut fast = GameStore::new();
    let mut slow = GameStore::new();
    slow.set_fast_paths(false);
    for x in [
        Dyadic::ZERO,
        Dyadic::ONE,
        Dyadic::integer(-2),
        Dyadic::new(1, 1),
        Dyadic::new(-3, 2),
    ] {
        for n in -4i64..=4 {
            for m in 0u32..=4 {
                let direct = fast.number_up_star(x, n, m);
                let mut acc = slow.number(x);
                let unit = if n >= 0 { slow.up() } else { slow.down() };
                for _ in 0..n.abs() {
                    acc = slow.add(acc, unit);
                }
                let nim = slow.nimber(m);
                let generic = slow.add(acc, nim);
                assert_eq!(
                    structure(&fast, direct, &mut HashMap::new()),
                    structure(&slow, generic, &mut HashMap::new()),
                    "x={x} n={n} m={m}"
                );
                assert_eq!(fast.kind(direct), slow.kind(generic));
            }
        }
    }
}

#[test]
fn large_uptimal_digits_stop_at_the_work_limit() {
    // 4096·↑^2 has birthday 8193 and a huge canonical form: refused within the limit.
    let mut s = GameStore::new();
    let err = parse_within(&mut s, ".(4096)(4096)", SMALL).unwrap_err();
    assert!(
        err.contains(&format!("more than {SMALL} steps of work")),
        "{err}"
    );
    assert!(err.contains("work limit"), "{err}");
    // The default limit is what `parse` uses.
    let e = Expression::parse(".0(4096)").unwrap();
    let err = s.evaluate(&e, &[]).unwrap_err();
    assert!(
        err.message.contains(&format!("more than {MAX_WORK} steps")),
        "{err}"
    );
    // Moderate digits are fine.
    let g = parse_within(&mut s, ".(20)(20)", SMALL).unwrap();
    assert_eq!(s.to_uptimal(g).as_deref(), Some(".(20)(20)"));
}

#[test]
fn syntax_is_checked_before_any_work() {
    // The expensive part comes first, the mistake later: reported at once, and
    // nothing was built.
    let mut s = GameStore::new();
    let before = s.len();
    let err = s.parse("{0{,,0*868+88|0}z").unwrap_err();
    assert_eq!(err.message, "malformed option list");
    assert_eq!(err.position, 16);
    let err = s.parse(".(4096)(4096) + z").unwrap_err();
    assert!(
        err.message.starts_with("unknown word `z`"),
        "{}",
        err.message
    );
    let err = s.parse("*1024+*1023+65536*1000 + {").unwrap_err();
    assert_eq!(err.message, "unclosed '{'");
    assert_eq!(s.len(), before);
    // A syntax error is found with no work at all.
    assert!(Expression::parse("{0{,,0*868+88|0}z").is_err());
}

#[test]
fn nesting_limit_is_exact_and_says_so() {
    let mut s = GameStore::new();
    let d = MAX_DEPTH as usize;
    let ok = format!("{}0{}", "(".repeat(d), ")".repeat(d));
    assert_eq!(s.parse(&ok), Ok(GameId::ZERO));
    let deep = format!("{}0{}", "(".repeat(d + 1), ")".repeat(d + 1));
    let err = s.parse(&deep).unwrap_err();
    assert_eq!(err.message, format!("nesting deeper than {d} levels"));
    // Braces, negations and plus-minus count the same way.
    let ok = format!("{}0{}", "{0|".repeat(d), "}".repeat(d));
    assert!(s.parse(&ok).is_ok());
    let deep = format!("{}0{}", "{0|".repeat(d + 1), "}".repeat(d + 1));
    assert!(s
        .parse(&deep)
        .unwrap_err()
        .message
        .contains("nesting deeper"));
    assert_eq!(s.parse(&format!("{}1", "- ".repeat(d))), s.parse("1"));
    assert!(s.parse(&format!("{}1", "- ".repeat(d + 1))).is_err());
    assert!(s.parse(&format!("{}1", "+-".repeat(d))).is_ok());
    assert!(s.parse(&format!("{}1", "+-".repeat(d + 1))).is_err());
    // Each longer run of bars nests one level deeper: {0|0||0|||0…}.
    let bars = |k: usize| -> String {
        let mut t = String::from("{0");
        for i in 1..=k {
            t.push_str(&"|".repeat(i));
            t.push('0');
        }
        t.push('}');
        t
    };
    assert!(s.parse(&bars(d)).is_ok());
    let err = s.parse(&bars(d + 1)).unwrap_err();
    assert!(err.message.contains("nesting deeper"), "{err}");
}

#[test]
fn results_beyond_the_bounds_are_refused_before_they_are_built() {
    let mut s = GameStore::new();
    let many = vec!["^4096"; 16].join("+");
    let g = parse_within(&mut s, &many, SMALL).unwrap();
    assert_eq!(s.format(g), format!("^{MAX_UPS}"));
    let too_many = vec!["^4096"; 17].join("+");
    let err = parse_within(&mut s, &too_many, SMALL).unwrap_err();
    assert!(
        err.contains("too many ups in a result (at most 65536"),
        "{err}"
    );
    let err = parse_within(&mut s, &"^".repeat(70_000), SMALL).unwrap_err();
    assert!(
        err.contains("number of ups too large (at most 65536)"),
        "{err}"
    );
}

#[test]
fn what_the_parser_builds_prints_as_text_it_reads_back() {
    // The bounds on literals are the bounds on results, so the largest results
    // print as literals the parser accepts.
    let mut s = GameStore::new();
    for text in [
        &*vec!["65536"; 15].join("+"),
        &format!("-{MAX_INTEGER}"),
        "1/1099511627776",
        "1/1099511627776 + 1/2",
        &*vec!["^4096"; 16].join("+"),
        "*1024 + *1023",
        &format!("1/2v{MAX_UPS}*{MAX_NIMBER}"),
        "{65536+65536|*2047}",
    ] {
        let g = parse_within(&mut s, text, MAX_WORK).unwrap_or_else(|e| panic!("{text}: {e}"));
        let printed = s.format(g);
        assert_eq!(
            parse_within(&mut s, &printed, MAX_WORK),
            Ok(g),
            "{text} -> {printed}"
        );
    }
    // Larger numbers are values of their own (`GameStore::evaluate_answer`), not
    // games of the arena.
    let err = parse_within(&mut s, &format!("{}", MAX_INTEGER + 1), SMALL).unwrap_err();
    assert!(
        err.contains("number too large") && err.contains("1048574"),
        "{err}"
    );
    let err = parse_within(&mut s, &format!("{MAX_INTEGER}+1"), SMALL).unwrap_err();
    assert!(err.contains("number too large"), "{err}");
    let err = parse_within(&mut s, "*2048", SMALL).unwrap_err();
    assert!(err.contains("nimber too large (at most *2047)"), "{err}");
}

#[test]
fn try_operations_stop_cleanly_and_leave_the_store_exact() {
    // Stop a large sum half way, then finish it without a limit: the same game as
    // in a fresh store.
    let text = "{5|{3|{1|0}}} + {4|{2|0}}*";
    let mut fresh = GameStore::new();
    let g = fresh.parse(text).unwrap();
    let expected = (fresh.format(g), fresh.outcome(g));
    let mut s = GameStore::new();
    let a = s.parse("{5|{3|{1|0}}}").unwrap();
    let b = s.parse("{4|{2|0}}*").unwrap();
    s.set_work_limit(20);
    assert_eq!(s.try_add(a, b), Err(WorkLimit { limit: 20 }));
    // The operations without `try_` are not limited.
    let h = s.add(a, b);
    assert_eq!((s.format(h), s.outcome(h)), expected);
    s.set_work_limit(20);
    assert_eq!(s.try_add(a, b), Ok(h), "memoized now");
    // A scoped limit is put back afterwards.
    s.set_work_limit(u64::MAX);
    let c = s.parse("{6|{4|{2|0}}}").unwrap();
    assert!(s.with_work_limit(3, |s| s.try_add(c, b)).is_err());
    assert!(s.try_add(c, b).is_ok());
}

/// Runs `f` on a thread with a small stack: deep games must not use the call stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(128 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .expect("no stack overflow")
}

#[test]
fn deep_games_do_not_use_the_call_stack() {
    let texts = on_small_stack(|| {
        let mut s = GameStore::new();
        let mut out = Vec::new();
        // A chain of integers a million long, negated (once a recursion per link).
        let big = format!("-({})", vec!["65536"; 15].join("+"));
        let g = s.parse(&big).unwrap();
        out.push(s.format(g));
        let h = s.neg(g);
        out.push(format!("{:?}", s.stops(h)));
        // x + 65536·↑ + *: a chain of 65536 games (once built by a recursion of
        // sums), its stops, thermograph and order against hot games.
        let ups = vec!["^4096"; 16].join("+");
        let deep = s.parse(&format!("1/2 + {ups} + *")).unwrap();
        out.push(s.format(deep));
        out.push(format!("{:?}", s.stops(deep)));
        out.push(s.temperature(deep).to_string());
        out.push(s.birthday(deep).to_string());
        let hot = s.parse(&format!("{{{ups}*|-1}}")).unwrap();
        out.push(s.format(hot));
        out.push(format!("{} {}", s.le(hot, deep), s.le(deep, hot)));
        out.push(s.outcome(hot).to_string());
        out.push(s.mean(hot).to_string());
        // Sums over the chain stop at the work limit or finish; either way no
        // overflow.
        let sum = s.with_work_limit(SMALL, |s| s.try_add(hot, hot));
        out.push(format!("{}", sum.is_ok()));
        let up = s.with_work_limit(SMALL, |s| s.try_to_uptimal(deep));
        out.push(format!("{up:?}"));
        out
    });
    assert_eq!(texts[0], "-983040");
    assert_eq!(texts[2], "1/2^65536*");
    assert_eq!(texts[6], "{^65536*|-1}");
}
