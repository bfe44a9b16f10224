//! Checks Theorem 3 and the conjecture on `±J` for `(1|1)_n`, every `n ≤ MAX`,
//! with the incremental sweep, and prints the runs of Table 2.
//!
//! Run: `cargo run --release -p chopsticks-values --example conjecture [MAX]`

use chopsticks_cgt::Outcome;
use chopsticks_values::one_hand::{predicted, theorem3_is_next};
use chopsticks_values::OneHandSweep;
use std::time::Instant;

fn main() {
    let max: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(11_000);
    let t = Instant::now();
    let mut sweep = OneHandSweep::new(max).expect("sweep size");
    let mut entries = Vec::new();
    let mut failures = 0u32;
    while let Some(n) = sweep.advance() {
        let g = sweep.value(1, 1);
        let store = sweep.store_mut();
        let text = store.format(g);
        let outcome = store.outcome(g);
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
    }
    for r in chopsticks_values::runs(entries) {
        println!("{:>6}-{:<6} {:<12} {}", r.from, r.to, r.value, r.outcome);
    }
    println!(
        "n <= {max}: {failures} disagreements with Theorem 3 and the conjecture; {:.1} s, {} canonical games",
        t.elapsed().as_secs_f64(),
        sweep.store_mut().len()
    );
}
