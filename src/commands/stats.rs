//! `chopsticks stats`: measure a variant's state space.

use std::time::Instant;

use anyhow::{Context, Result};
use chopsticks_rules::{Notation, Position, SeatedPosition};
use clap::Args;
use serde_json::json;

use crate::memory::human_bytes;
use crate::rules_args::{NotationArgs, OutputArgs, RulesArgs};
use crate::text::{count, counted};
use crate::workload::{explore_with_progress, graph_for_exploring};

/// Unreachable positions are listed when there are fewer than this many.
const LIST_LIMIT: u64 = 1000;

#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    notation: NotationArgs,
    /// Start from this position instead of the usual start (every hand at 1).
    #[arg(long)]
    #[arg(help_heading = "Analysis")]
    start: Option<String>,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: &StatsArgs) -> Result<()> {
    let rules = args.rules.ruleset()?;
    let notation = args.notation.notation(&rules)?;
    let start_seated = match &args.start {
        Some(text) => SeatedPosition::parse(text, &rules).context("--start")?,
        None => SeatedPosition::start(&rules),
    };
    let start = start_seated.position().clone();
    // The start as given: seated unless a mover-first notation is asked for.
    let start_text = match args.notation.printed(&rules)? {
        None => start_seated.to_text(&rules)?,
        Some(n) => start.to_notation(&rules, n)?,
    };
    let write = |p: &Position| p.to_notation(&rules, notation);
    let clock = Instant::now();
    let graph = graph_for_exploring(&rules, args.output.quiet)?;
    let stats = explore_with_progress(&graph, &start, args.output.quiet);
    let seconds = clock.elapsed().as_secs_f64();
    let e = &stats.exploration;
    let unreachable: Option<Vec<String>> = if stats.unreachable() < LIST_LIMIT {
        let mut list = stats
            .unreachable_positions()
            .map(|i| write(&graph.position(i)))
            .collect::<Result<Vec<_>, _>>()?;
        list.sort();
        Some(list)
    } else {
        None
    };
    let branching_at = write(&graph.position(e.max_branching_at))?;
    if args.output.json {
        super::print_json(&super::with_variant(
            &rules,
            json!({
                "start_position": start_text,
                "raw": stats.raw,
                "distinct": stats.distinct,
                "reachable": stats.reachable(),
                "terminal": e.terminal(),
                "unreachable": stats.unreachable(),
                "unreachable_positions": unreachable,
                "shortest_game": e.shortest_game(),
                "deepest_endgame": e.deepest_endgame(),
                "eccentricity": e.eccentricity(),
                "max_branching": e.max_branching,
                "max_branching_position": branching_at,
                "layers": e.layers,
                "terminal_layers": e.terminal_layers,
                "seconds": seconds,
            }),
        ));
        return Ok(());
    }
    let raw = stats.raw.map_or_else(
        || "more than 2^128".to_string(),
        |r| u64::try_from(r).map_or_else(|_| r.to_string(), crate::text::count),
    );
    println!("Ruleset:                    {}", rules.describe());
    println!("Start:                      {start_text}");
    println!("Raw positions:              {raw}");
    println!("Functionally distinct:      {}", count(stats.distinct));
    println!("Reachable from the start:   {}", count(stats.reachable()));
    println!("  of which finished games:  {}", count(e.terminal()));
    println!("Unreachable:                {}", count(stats.unreachable()));
    if let Some(list) = &unreachable {
        if !list.is_empty() {
            for chunk in list.chunks(12) {
                println!("  {}", chunk.join(" "));
            }
        }
    }
    let at_depth = |d: Option<u32>| {
        d.map_or_else(
            || "none (no finished game is reachable)".to_string(),
            |d| {
                let n = e.terminal_layers[d as usize];
                format!(
                    "{} ({} at that depth)",
                    crate::text::plies(u64::from(d)),
                    counted(n, "endgame")
                )
            },
        )
    };
    println!(
        "Shortest game:              {}",
        at_depth(e.shortest_game())
    );
    println!(
        "Deepest endgame:            {}",
        at_depth(e.deepest_endgame())
    );
    println!(
        "Eccentricity of the start:  {} ({} at that depth)",
        crate::text::plies(u64::from(e.eccentricity())),
        counted(e.layers[e.eccentricity() as usize], "position")
    );
    println!(
        "Largest branching factor:   {} (at {branching_at})",
        e.max_branching
    );
    let layers: Vec<String> = e.layers.iter().map(|&n| count(n)).collect();
    println!("Positions by depth:         {}", layers.join(" "));
    println!(
        "Time:                       {seconds:.3} s (move tables {})",
        human_bytes(graph.table_bytes())
    );
    if notation == Notation::Paper {
        println!("(the paper's notation names no mover: Left is the player to move)");
    }
    Ok(())
}
