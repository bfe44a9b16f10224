//! `chopsticks bench two-hands`: the loopy value of every position with two hands
//! a side under each of the paper's future-work rules (rollover, splits,
//! revivals, even revivals), as `table two-hands` computes them: one joint side
//! search per table, timed with its counts, so that a faster search that found
//! fewer sides would show.

use std::time::Instant;

use anyhow::Result;
use chopsticks_loopy::Value;
use chopsticks_values::TwoHandRules;
use serde_json::json;

/// The rules of one table: the paper's game with one rule added.
fn rules(rule: &str) -> TwoHandRules {
    match rule {
        "rollover" => TwoHandRules {
            rollover: true,
            ..TwoHandRules::default()
        },
        "transfer" => TwoHandRules {
            transfer: true,
            ..TwoHandRules::default()
        },
        "divide" => TwoHandRules {
            divide: true,
            ..TwoHandRules::default()
        },
        _ => TwoHandRules {
            even_divide: true,
            ..TwoHandRules::default()
        },
    }
}

/// Times each table for `n` from `min_n` to `max_n` (best of `runs`).
pub fn run(min_n: u32, max_n: u32, runs: u32, json: bool) -> Result<()> {
    // Each bound is within 1..=MAX_TWO_HAND_N (the arguments' parsers).
    if min_n > max_n {
        anyhow::bail!("bench two-hands needs --min-n <= --max-n");
    }
    let mut rows = Vec::new();
    if !json {
        println!("workload:  table two-hands (every position with two hands a side), one joint side search per table");
    }
    for rule in ["rollover", "transfer", "divide", "even-divide"] {
        for n in min_n..=max_n {
            let rules = rules(rule).ruleset(n);
            let mut times = Vec::new();
            let mut table = Vec::new();
            for _ in 0..runs {
                let clock = Instant::now();
                table = chopsticks_values::two_hand_table(
                    &rules,
                    chopsticks_loopy::sides::MAX_SIDE_VERTICES_LIMIT,
                )?;
                times.push(clock.elapsed().as_secs_f64());
            }
            times.sort_by(f64::total_cmp);
            let all: Vec<&Value> = table.iter().flatten().collect();
            let stoppers = all.iter().filter(|v| v.is_stopper()).count();
            let sided = all.iter().filter(|v| v.is_stopper_sided()).count();
            let row = json!({
                "rule": rule,
                "n": n,
                "positions": all.len(),
                "seconds": times,
                "best_seconds": times[0],
                "stoppers": stoppers,
                "sided": sided - stoppers,
                "not_reduced": all.len() - sided,
            });
            if !json {
                println!(
                    "  {rule:<11} n = {n:>2}: {:>5} positions in {:>8.3} s (best of {runs}); {} stoppers, {} sided, {} not found stopper-sided",
                    all.len(),
                    times[0],
                    stoppers,
                    sided - stoppers,
                    all.len() - sided,
                );
            }
            rows.push(row);
        }
    }
    if json {
        crate::commands::print_json(&json!({"workload": "two-hands", "runs": rows}));
    }
    Ok(())
}
