//! Times the paper's tables through this crate's evaluators:
//!
//! * Table 2, the values of `(1|1)_n` for every `n ≤ 606`, **each `n` from scratch**
//!   (a fresh store, the one-hand evaluator, then printing and outcome), then the
//!   same through the incremental sweep;
//! * Table 1, the values of `(i|j)_20` for `1 ≤ i, j ≤ 20` (fresh store);
//! * `(1|1)_606` alone through each evaluator (tree, attack-only memo, general);
//! * the conjecture sweep: `(1|1)_n` for every `n ≤ MAX_SWEEP` (incremental).
//!
//! Run: `cargo run --release -p chopsticks-values --example table_bench [MAX_SWEEP]`

use chopsticks_cgt::GameStore;
use chopsticks_rules::Preset;
use chopsticks_values::{grid, table2, table2_from_scratch, value_by, CgtPosition, Limits, Method};
use std::time::Instant;

fn best_of<T>(reps: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..reps {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(r);
    }
    (best, out.expect("at least one repetition"))
}

fn main() {
    let sweep_max: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(11_000);

    let (t_scratch, runs) = best_of(3, || table2_from_scratch(606));
    println!(
        "Table 2, n <= 606, every n from scratch: {:.3} s (best of 3)",
        t_scratch
    );
    for r in &runs {
        println!("  {:>4}-{:<4} {:<12} {}", r.from, r.to, r.value, r.outcome);
    }
    let (t_sweep, runs2) = best_of(3, || table2(606, None).expect("sweep"));
    assert_eq!(runs, runs2);
    println!(
        "Table 2, n <= 606, incremental sweep:    {:.3} s (best of 3)",
        t_sweep
    );

    let (t_grid, texts) = best_of(5, || {
        let mut store = GameStore::new();
        let g = grid(&mut store, 20);
        g.iter()
            .map(|row| row.iter().map(|v| store.format(*v)).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    });
    let mut distinct: Vec<&String> = texts.iter().flatten().collect();
    distinct.sort();
    distinct.dedup();
    println!(
        "Table 1, (i|j)_20, fresh store:           {:.4} s (best of 5), {} distinct values",
        t_grid,
        distinct.len()
    );

    // The same position through the other evaluators, for comparison.
    let mut rules = Preset::Simple.ruleset();
    rules.hands = vec![1, 1];
    rules.fingers = 607;
    let p = CgtPosition::new(vec![1], vec![1]);
    for method in [Method::OneHand, Method::AttackOnly, Method::General] {
        let mut store = GameStore::new();
        let t = Instant::now();
        let g = value_by(&mut store, &rules, &p, method, Limits::DEFAULT, None).expect("value");
        println!(
            "(1|1)_606 alone, {method:?} evaluator: {:.4} s = {}",
            t.elapsed().as_secs_f64(),
            store.format(g)
        );
    }

    let t = Instant::now();
    let runs = table2(sweep_max, None).expect("sweep");
    println!(
        "Table 2, n <= {sweep_max}, incremental sweep: {:.3} s, {} runs",
        t.elapsed().as_secs_f64(),
        runs.len()
    );
}
