//! `chopsticks bench`: time the exploration of a large variant and measure its memory.

use std::time::Instant;

use anyhow::Result;
use chopsticks_rules::{Position, Preset, Ruleset};
use clap::{Args, ValueEnum};
use serde_json::json;

use super::stats::{graph_for, measure};
use crate::memory::{human_bytes, peak_resident_bytes};

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Workload {
    /// Reachable positions of 2 players × 6 hands, rollover at 10, transfers and
    /// divisions (25,050,025 positions in the index).
    Explore,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// What to measure.
    #[arg(value_enum, default_value = "explore")]
    workload: Workload,
    /// Number of timed runs (the table build is timed separately, once).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// The foundation issue's large variant.
pub fn large_variant() -> Ruleset {
    Ruleset {
        hands: vec![6, 6],
        fingers: 10,
        ..Preset::Rollover.ruleset()
    }
}

pub fn run(args: &BenchArgs) -> Result<()> {
    let Workload::Explore = args.workload;
    let rules = large_variant();
    let build = Instant::now();
    let graph = graph_for(&rules)?;
    let build_seconds = build.elapsed().as_secs_f64();
    let start = Position::start(&rules);
    let mut times = Vec::new();
    let mut reachable = 0;
    for _ in 0..args.runs.max(1) {
        let clock = Instant::now();
        let stats = measure(&graph, &start, true);
        times.push(clock.elapsed().as_secs_f64());
        reachable = stats.reachable();
    }
    times.sort_by(f64::total_cmp);
    let best = times[0];
    let median = times[times.len() / 2];
    let peak = peak_resident_bytes();
    let per_position = peak.map(|b| b as f64 / graph.count() as f64);
    if args.json {
        super::print_json(&json!({
            "workload": "explore",
            "ruleset": rules.describe(),
            "positions": graph.count(),
            "reachable": reachable,
            "threads": rayon::current_num_threads(),
            "table_seconds": build_seconds,
            "seconds": times,
            "best_seconds": best,
            "median_seconds": median,
            "peak_resident_bytes": peak,
            "peak_bytes_per_position": per_position,
        }));
        return Ok(());
    }
    println!("workload:        explore reachable positions");
    println!("ruleset:         {}", rules.describe());
    println!(
        "positions:       {} in the index, {reachable} reachable",
        graph.count()
    );
    println!("threads:         {}", rayon::current_num_threads());
    println!(
        "move tables:     {build_seconds:.3} s, {}",
        human_bytes(graph.table_bytes())
    );
    println!(
        "exploration:     best {best:.3} s, median {median:.3} s over {} runs ({:.1} M positions/s)",
        times.len(),
        reachable as f64 / best / 1e6
    );
    if let (Some(peak), Some(per)) = (peak, per_position) {
        println!(
            "peak memory:     {} ({per:.3} bytes per position)",
            human_bytes(peak)
        );
    }
    Ok(())
}
