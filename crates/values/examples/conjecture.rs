//! Checks Theorem 3 and the conjecture on `±J` for `(1|1)_n`, every `n ≤ MAX`,
//! with the low-memory [`CoprimeSweep`], and prints the runs of Table 2.
//!
//! Run: `cargo run --release -p chopsticks-values --example conjecture [MAX [FROM]]`
//! (runs printed from the one containing `FROM`, default 1). Progress goes to
//! stderr every 1,000 finger counts; `--full-table` uses the old quadratic
//! [`OneHandSweep`] instead (for comparison, `MAX ≤ 80,000`).

use chopsticks_cgt::Outcome;
use chopsticks_values::one_hand::{predicted, theorem3_is_next};
use chopsticks_values::{CoprimeSweep, OneHandSweep};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let full = args.iter().any(|a| a == "--full-table");
    let nums: Vec<u32> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let max = nums.first().copied().unwrap_or(11_000);
    let from = nums.get(1).copied().unwrap_or(1);
    let t = Instant::now();
    let mut entries: Vec<(u32, String, Outcome)> = Vec::with_capacity(max as usize);
    let mut failures = 0u32;
    let mut check = |n: u32, text: String, outcome: Outcome| {
        let next = outcome == Outcome::N;
        if next != theorem3_is_next(n) || text != predicted(n).text() {
            failures += 1;
            if failures <= 20 {
                println!(
                    "n = {n}: computed {text} ({outcome}), predicted {}",
                    predicted(n).text()
                );
            }
        }
        entries.push((n, text, outcome));
        if n.is_multiple_of(1000) {
            eprintln!(
                "n = {n}: {:.1} s, {failures} disagreements so far",
                t.elapsed().as_secs_f64()
            );
        }
    };
    let summary = if full {
        let mut sweep = OneHandSweep::new(max).expect("sweep size");
        while let Some(n) = sweep.advance() {
            let g = sweep.value(1, 1);
            let store = sweep.store_mut();
            check(n, store.format(g), store.outcome(g));
        }
        format!("full table, {} games", sweep.store_mut().len())
    } else {
        eprintln!(
            "coprime sweep to {max}: about {:.2} GiB estimated",
            CoprimeSweep::bytes(max) as f64 / (1u64 << 30) as f64
        );
        let mut sweep = CoprimeSweep::new(max).expect("sweep size");
        let mut texts = std::collections::HashMap::new();
        while let Some(n) = sweep.advance() {
            let g = sweep.root();
            let (text, outcome) = texts
                .entry(g)
                .or_insert_with(|| {
                    let store = sweep.store_mut();
                    (store.format(g), store.outcome(g))
                })
                .clone();
            check(n, text, outcome);
        }
        let s = sweep.stats();
        format!(
            "coprime sweep: {} events, {} recomputations ({} changed) in {} batches; \
             {} games met, {} stored values, {} overflow cells",
            s.events,
            s.recomputed,
            s.changed,
            s.batches,
            sweep.palette_len(),
            sweep.slots_len(),
            sweep.overflow_len()
        )
    };
    for r in chopsticks_values::runs(entries) {
        if r.to >= from {
            println!("{:>6}-{:<6} {:<12} {}", r.from, r.to, r.value, r.outcome);
        }
    }
    println!(
        "n <= {max}: {failures} disagreements with Theorem 3 and the conjecture; {:.1} s; {summary}",
        t.elapsed().as_secs_f64(),
    );
}
