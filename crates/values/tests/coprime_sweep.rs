//! The low-memory sweep against the full-table sweep, the from-scratch evaluator
//! and the conjecture.

use chopsticks_cgt::GameStore;
use chopsticks_values::one_hand::{predicted, table2_from_scratch};
use chopsticks_values::{one_hand, CoprimeSweep, OneHandSweep, ValueError};

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn every_coprime_position_agrees_with_the_full_table_up_to_160() {
    let max = 160;
    let mut old = OneHandSweep::new(max).unwrap();
    let mut new = CoprimeSweep::new(max).unwrap();
    let mut checked = 0u64;
    while let Some(n) = old.advance() {
        assert_eq!(new.advance(), Some(n));
        for a in 1..=n {
            for b in 1..=n {
                let Some(g) = new.value(a, b) else {
                    assert_ne!(gcd(a, b), 1);
                    continue;
                };
                let h = old.value(a, b);
                let x = new.store_mut().format(g);
                let y = old.store_mut().format(h);
                assert_eq!(x, y, "({a}|{b})_{n}");
                checked += 1;
            }
        }
        let (g, h) = (new.root(), old.value(1, 1));
        let x = new.store_mut().format(g);
        let y = old.store_mut().format(h);
        assert_eq!(x, y, "(1|1)_{n}");
    }
    assert_eq!(new.advance(), None);
    assert!(checked > 800_000, "{checked}");
}

#[test]
fn values_past_the_16_bit_slots_go_to_the_overflow_map() {
    // With only 40 slots in the cells, most stored values overflow; the results
    // must not change.
    let mut small = CoprimeSweep::new(3000).unwrap();
    small.set_slot_limit(40);
    let mut normal = CoprimeSweep::new(3000).unwrap();
    while let Some(n) = normal.advance() {
        assert_eq!(small.advance(), Some(n));
        let (g, h) = (small.root(), normal.root());
        let x = small.store_mut().format(g);
        assert_eq!(x, normal.store_mut().format(h), "(1|1)_{n}");
        assert_eq!(x, predicted(n).text(), "n = {n}");
    }
    assert!(small.overflow_len() > 1000, "{}", small.overflow_len());
    assert_eq!(normal.overflow_len(), 0);
    for (a, b) in [(2, 3), (3, 7), (10, 33), (41, 100), (100, 41)] {
        let (g, h) = (small.value(a, b).unwrap(), normal.value(a, b).unwrap());
        let x = small.store_mut().format(g);
        assert_eq!(x, normal.store_mut().format(h), "({a}|{b})");
    }
}

#[test]
fn a_few_positions_agree_with_the_evaluator_from_scratch() {
    let mut sweep = CoprimeSweep::new(400).unwrap();
    let mut fresh = GameStore::new();
    while let Some(n) = sweep.advance() {
        if n % 37 != 0 || n < 40 {
            continue;
        }
        for (a, b) in [
            (1, 2),
            (2, 3),
            (3, 5),
            (5, 3),
            (7, 19),
            (1, 40),
            (40, 1),
            (13, 21),
        ] {
            let g = sweep.value(a, b).unwrap();
            let h = one_hand(&mut fresh, a, b, n);
            assert_eq!(
                sweep.store_mut().format(g),
                fresh.format(h),
                "({a}|{b})_{n}"
            );
        }
    }
}

#[test]
fn table2_agrees_with_from_scratch_and_the_old_sweep() {
    let runs = table2_from_scratch(400);
    assert_eq!(chopsticks_values::table2(400, None).unwrap(), runs);
    let mut old = OneHandSweep::new(2500).unwrap();
    let mut entries = Vec::new();
    while let Some(n) = old.advance() {
        let g = old.value(1, 1);
        let s = old.store_mut();
        entries.push((n, s.format(g), s.outcome(g)));
    }
    assert_eq!(
        chopsticks_values::table2(2500, None).unwrap(),
        chopsticks_values::runs(entries)
    );
}

#[test]
fn the_conjecture_holds_up_to_8000() {
    let values = chopsticks_values::coprime_sweep::one_one_values(8000, None).unwrap();
    assert_eq!(values.len(), 8000);
    for (n, text, _) in values {
        assert_eq!(text, predicted(n).text(), "n = {n}");
    }
}

#[test]
fn memory_estimate_and_refusal() {
    // About n²/10 bytes.
    let b = CoprimeSweep::bytes(200_000);
    assert!((3_900_000_000..4_200_000_000).contains(&b), "{b}");
    let e = CoprimeSweep::with_memory_limit(200_000, 1 << 30)
        .err()
        .unwrap();
    assert_eq!(
        e,
        ValueError::Memory {
            bytes: b,
            limit: 1 << 30
        }
    );
    assert!(e.to_string().contains("3.8 GiB"), "{e}");
    assert!(matches!(
        CoprimeSweep::new(CoprimeSweep::MAX_N + 1),
        Err(ValueError::TooLarge { .. })
    ));
}
