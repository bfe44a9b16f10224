//! `chopsticks bench`: time the exploration of a large variant and measure its memory.

use std::time::Instant;

use anyhow::Result;
use chopsticks_rules::{Position, Preset, Ruleset};
use clap::{Args, ValueEnum};
use serde_json::json;

use chopsticks_solve::Solution;

use crate::memory::{human_bytes, peak_resident_bytes, reset_peak};
use crate::workload::{explore_with_progress, graph_for_exploring, graph_for_solving};

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Workload {
    /// Reachable positions of 2 players × 6 hands, rollover at 10, transfers and
    /// divisions (25,050,025 positions in the index).
    Explore,
    /// Solve the same ruleset with 4, 5 and 6 hands per player (511,225, 4,008,004
    /// and 25,050,025 positions), to show how the cost grows.
    Solve,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// What to measure.
    #[arg(value_enum, default_value = "explore")]
    workload: Workload,
    /// Number of timed runs (the table build is timed separately, once).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
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
    match args.workload {
        Workload::Explore => explore(args),
        Workload::Solve => solve(args),
    }
}

fn solve(args: &BenchArgs) -> Result<()> {
    let mut rows = Vec::new();
    for hands in [4usize, 5, 6] {
        let rules = Ruleset {
            hands: vec![hands; 2],
            ..large_variant()
        };
        reset_peak();
        let graph = graph_for_solving(&rules, true)?;
        let mut times = Vec::new();
        let mut start = None;
        for _ in 0..args.runs {
            let clock = Instant::now();
            let solution = Solution::solve(&graph, &|_| {})?;
            times.push(clock.elapsed().as_secs_f64());
            start = Some(solution.outcome(&Position::start(&rules)));
        }
        times.sort_by(f64::total_cmp);
        let best = times[0];
        let peak = peak_resident_bytes().unwrap_or(0);
        rows.push(json!({
            "hands": hands,
            "positions": graph.count(),
            "seconds": times,
            "best_seconds": best,
            "positions_per_second": graph.count() as f64 / best,
            "peak_resident_bytes": peak,
            "peak_bytes_per_position": peak as f64 / graph.count() as f64,
            "start": start.map(|o| o.to_string()),
        }));
    }
    if args.json {
        super::print_json(&json!({
            "workload": "solve",
            "ruleset": large_variant().describe(),
            "threads": rayon::current_num_threads(),
            "runs": rows,
        }));
        return Ok(());
    }
    println!(
        "workload:  solve every position ({} threads)",
        rayon::current_num_threads()
    );
    println!(
        "ruleset:   {} (hands per player varied)",
        large_variant().describe()
    );
    println!("hands  positions   best time   positions/s   peak memory (this size)");
    for r in &rows {
        println!(
            "{:>5}  {:>10}  {:>8.3} s  {:>10.2} M  {} ({:.2} bytes/position)",
            r["hands"],
            r["positions"],
            r["best_seconds"].as_f64().unwrap_or(0.0),
            r["positions_per_second"].as_f64().unwrap_or(0.0) / 1e6,
            human_bytes(r["peak_resident_bytes"].as_u64().unwrap_or(0)),
            r["peak_bytes_per_position"].as_f64().unwrap_or(0.0),
        );
    }
    Ok(())
}

fn explore(args: &BenchArgs) -> Result<()> {
    let rules = large_variant();
    let build = Instant::now();
    let graph = graph_for_exploring(&rules, true)?;
    let build_seconds = build.elapsed().as_secs_f64();
    let start = Position::start(&rules);
    let mut times = Vec::new();
    let mut reachable = 0;
    for _ in 0..args.runs {
        let clock = Instant::now();
        let stats = explore_with_progress(&graph, &start, true);
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
