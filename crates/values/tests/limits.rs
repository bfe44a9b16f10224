//! Bounded work for values: the one-hand evaluator refuses from its estimate
//! before it allocates, the memoized evaluators stop at the work limit, an
//! expression is read in full before anything is evaluated, and messages never
//! repeat a long input whole.

use chopsticks_cgt::GameStore;
use chopsticks_rules::{Preset, Ruleset};
use chopsticks_values::{estimate, evaluate, value_with, CgtPosition, Limits, Plan, ValueError};

fn simple(hands: [usize; 2], n: u32) -> Ruleset {
    let mut r = Preset::Simple.ruleset();
    r.hands = hands.to_vec();
    r.fingers = n + 1;
    r
}

/// Positions below `(a|b)_n` in the one-hand tree, counted directly.
fn count(a: u32, b: u32, n: u32) -> u64 {
    let mut stack = vec![(a, b)];
    let mut c = 0;
    while let Some((p, q)) = stack.pop() {
        if p + q <= n {
            c += 1;
            stack.push((p, p + q));
            stack.push((p + q, q));
        }
    }
    c
}

#[test]
fn the_one_hand_estimate_is_close() {
    for (a, b, n) in [
        (1, 1, 2000),
        (1, 2, 2000),
        (2, 3, 3000),
        (5, 7, 4000),
        (3, 3, 3000),
    ] {
        let e = estimate(&simple([1, 1], n), &CgtPosition::new(vec![a], vec![b]))
            .expect("one hand each");
        let c = count(a, b, n);
        let ratio = e.positions as f64 / c as f64;
        assert!(
            (0.98..=1.01).contains(&ratio),
            "({a}|{b})_{n}: {} vs {c}",
            e.positions
        );
        assert!(e.bytes <= 16 * u64::from(n));
    }
    // No estimate for the memoized evaluators.
    let p = CgtPosition::new(vec![1, 1], vec![1]);
    assert_eq!(estimate(&simple([2, 1], 5), &p), None);
}

#[test]
fn huge_one_hand_positions_are_refused_before_any_work() {
    // (1|1)_16777215 has about 8.6e13 positions below it: refused from the estimate
    // at once (it used to fill 2.5 GB before refusing).
    let mut store = GameStore::new();
    let rules = simple([1, 1], 16_777_215);
    let p = CgtPosition::new(vec![1], vec![1]);
    let e = value_with(&mut store, &rules, &p, Limits::DEFAULT, None).unwrap_err();
    let ValueError::Estimated { positions, limit } = e else {
        panic!("{e:?}")
    };
    assert_eq!(limit, Limits::DEFAULT.max_positions);
    assert!(positions > 80_000_000_000_000, "{positions}");
    assert!(
        e.to_string().contains("more than the limit of 100000000"),
        "{e}"
    );
    assert_eq!(store.len(), 2, "nothing built but 0 and *");
    // Just below the limit, it is computed.
    let rules = simple([1, 1], 5000);
    assert!(value_with(&mut store, &rules, &p, Limits::DEFAULT, None).is_ok());
}

#[test]
fn many_hands_stop_at_the_work_limit() {
    // (1^16|1^16)_1000: the search explodes; it stops at the work limit (a small
    // one here, the default in the command-line test).
    let mut store = GameStore::new();
    let limits = Limits {
        max_work: 1 << 22,
        ..Limits::DEFAULT
    };
    let e = evaluate(
        &mut store,
        &Preset::Simple.ruleset(),
        None,
        "(1^16|1^16)_1000",
        limits,
        None,
    )
    .unwrap_err();
    assert!(
        matches!(e, ValueError::Work(w) if w.limit == 1 << 22),
        "{e:?}"
    );
    let text = e.to_string();
    assert!(text.contains("more than 4194304 steps of work"), "{text}");
    assert!(text.contains("too large to compute"), "{text}");
    // The same store goes on working.
    let e = evaluate(
        &mut store,
        &Preset::Simple.ruleset(),
        None,
        "(1^3|1^3)_3",
        Limits::DEFAULT,
        None,
    )
    .unwrap();
    assert_eq!(store.format(e.value), "*");
}

#[test]
fn expressions_are_read_in_full_before_any_work() {
    let simple = Preset::Simple.ruleset();
    // A syntax error after an expensive position, and a bad position after one.
    for (text, needle) in [
        ("(1|1)_16000 + {", "unclosed '{'"),
        ("(1|1)_16000 + (1|x)_4", "invalid position"),
        ("{0{,,0*868+88|0}z", "expected ',', '|' or '}'"),
        ("{0{,,0*868+88|0}", "malformed option list"),
        ("(1^16|1^16)_1000 + 1/3", "power of two"),
    ] {
        let e = Plan::new(&simple, None, text).unwrap_err();
        assert!(e.to_string().contains(needle), "{text}: {e}");
    }
    let plan = Plan::new(&simple, None, "(1|1)_12 + (2|5)_40 - ^").unwrap();
    assert_eq!(plan.positions.len(), 2);
    assert_eq!(plan.positions[1].rules.fingers, 41);
    let mut store = GameStore::new();
    let e = plan.evaluate(&mut store, Limits::DEFAULT, None).unwrap();
    assert_eq!(e.components.len(), 2);
}

#[test]
fn messages_do_not_repeat_long_inputs() {
    let simple = Preset::Simple.ruleset();
    let long_game = format!("{} + z", "1+".repeat(50_000));
    let long_position = format!("({}1|1)_4", "1,".repeat(50_000));
    let long_n = format!("(1|1)_{}", "9".repeat(100_000));
    let after_position = format!("(1|1)_4 + {}z", "*+".repeat(50_000));
    for text in [long_game, long_position, long_n, after_position] {
        let mut store = GameStore::new();
        let e = evaluate(&mut store, &simple, None, &text, Limits::DEFAULT, None).unwrap_err();
        let message = e.to_string();
        assert!(message.chars().count() < 400, "{message}");
        assert!(message.contains('…'), "{message}");
    }
}
