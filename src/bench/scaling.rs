//! `chopsticks bench scaling`: one variant solved at 1, 2, 4, … threads up to
//! this machine's count, each in a thread pool of its own over the same move
//! graph, with the time, the rate and the parallel efficiency against one
//! thread. Every thread count must give the same table: its CRC-32 is checked
//! against the one thread's, so a race that changed a value would stop the
//! benchmark instead of speeding it up.

use std::time::Instant;

use anyhow::{bail, Context, Result};
use chopsticks_rules::Ruleset;
use chopsticks_solve::Solution;
use serde_json::json;

use crate::workload::graph_for_solving;

/// The variant solved unless `--variant` names another: 2 × 6 hands at F = 10,
/// cutoff (25,050,025 positions), long enough to time, short enough to repeat.
pub const DEFAULT_VARIANT: &str = "standard.h6.f10";

/// 1, 2, 4, … below `max`, then `max`.
pub fn thread_counts(max: usize) -> Vec<usize> {
    let mut counts: Vec<usize> = std::iter::successors(Some(1usize), |t| Some(t * 2))
        .take_while(|&t| t < max)
        .collect();
    counts.push(max.max(1));
    counts
}

/// CRC-32 of a table's bytes as a file stores them.
fn digest(solution: &Solution) -> Result<u32> {
    let mut hasher = crc32fast::Hasher::new();
    solution.table().for_each_chunk(1 << 20, |bytes| {
        hasher.update(bytes);
        Ok(())
    })?;
    Ok(hasher.finalize())
}

pub fn run(variant: Option<&str>, values_only: bool, runs: u32, json: bool) -> Result<()> {
    let rules = Ruleset::from_variant_id(variant.unwrap_or(DEFAULT_VARIANT))?;
    if values_only && rules.players() != 2 {
        bail!(
            "--values-only solves two players; this variant has {}",
            rules.players()
        );
    }
    let graph = graph_for_solving(&rules, true)?;
    let max = std::thread::available_parallelism().map_or(1, |n| n.get());
    let solve = || -> Result<Solution> {
        Ok(if values_only {
            Solution::solve_values(&graph, None, None, &|_| {})?.0
        } else {
            Solution::solve(&graph, &|_| {})?
        })
    };
    let mut rows = Vec::new();
    let mut one_thread: Option<(f64, u32)> = None;
    for threads in thread_counts(max) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .context("starting a thread pool")?;
        let mut times = Vec::new();
        let mut crcs = Vec::new();
        for _ in 0..runs {
            let clock = Instant::now();
            let solution = pool.install(solve)?;
            times.push(clock.elapsed().as_secs_f64());
            crcs.push(digest(&solution)?);
        }
        times.sort_by(f64::total_cmp);
        let best = times[0];
        let crc = crcs[0];
        let (base, base_crc) = *one_thread.get_or_insert((best, crc));
        // Every run's table, not only one run's: a race may show in any.
        if let Some(other) = crcs.iter().find(|&&c| c != base_crc) {
            bail!(
                "{threads} threads gave another table (CRC-32 {other:08x}) than one thread ({base_crc:08x})"
            );
        }
        let speedup = base / best;
        rows.push(json!({
            "threads": threads,
            "seconds": times,
            "best_seconds": best,
            "positions_per_second": graph.count() as f64 / best,
            "speedup": speedup,
            "efficiency": speedup / threads as f64,
            "table_crc32": format!("{crc:08x}"),
        }));
    }
    if json {
        crate::commands::print_json(&json!({
            "workload": "scaling",
            "variant": rules.variant_id(),
            "ruleset": rules.describe(),
            "positions": graph.count(),
            "values_only": values_only,
            "cores": max,
            "runs": rows,
        }));
        return Ok(());
    }
    println!("workload:  scaling of the solve with threads (best of {runs})");
    println!(
        "ruleset:   {} ({} positions{})",
        rules.describe(),
        crate::text::count(graph.count()),
        if values_only { ", values alone" } else { "" }
    );
    println!(
        "{:>8} {:>10} {:>14} {:>9} {:>11}",
        "threads", "seconds", "M positions/s", "speedup", "efficiency"
    );
    for r in &rows {
        println!(
            "{:>8} {:>10.3} {:>14.2} {:>8.2}× {:>10.0}%",
            r["threads"].as_u64().unwrap_or(0),
            r["best_seconds"].as_f64().unwrap_or(0.0),
            r["positions_per_second"].as_f64().unwrap_or(0.0) / 1e6,
            r["speedup"].as_f64().unwrap_or(0.0),
            100.0 * r["efficiency"].as_f64().unwrap_or(0.0),
        );
    }
    println!(
        "every thread count gave the same table (CRC-32 {})",
        rows[0]["table_crc32"].as_str().unwrap_or("")
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_double_up_to_the_machine() {
        assert_eq!(thread_counts(1), vec![1]);
        assert_eq!(thread_counts(2), vec![1, 2]);
        assert_eq!(thread_counts(6), vec![1, 2, 4, 6]);
        assert_eq!(thread_counts(16), vec![1, 2, 4, 8, 16]);
    }
}
