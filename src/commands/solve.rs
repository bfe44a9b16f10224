//! `chopsticks solve`: solve every position of a two-player variant.

use std::time::Instant;

use anyhow::{Context, Result};
use chopsticks_rules::Position;
use chopsticks_solve::{file, Concept, Summary, Value};
use clap::Args;
use serde_json::json;

use super::solved::{concept_text, outcome_json, outcome_text, seat_label, solved_with, DbArgs};
use crate::memory::human_bytes;
use crate::rules_args::{NotationArgs, OutputArgs, RulesArgs};
use crate::workload::explore_with_progress;

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    notation: NotationArgs,
    /// Summarise from this position instead of the usual start.
    #[arg(long)]
    start: Option<String>,
    /// Save the solution to this file (versioned, checksummed).
    #[arg(long, value_name = "FILE")]
    save: Option<std::path::PathBuf>,
    /// Keep the values alone, two bits per position, without remoteness (a
    /// quarter of the one-byte table: for saving the largest variants). `query`
    /// then gives values without remoteness; `play` and `strategy` need it.
    #[arg(long)]
    no_remoteness: bool,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: &SolveArgs) -> Result<()> {
    let clock = Instant::now();
    // The notation, the start and the file to save to are refused before the work.
    let (mut s, (notation, start)) = solved_with(
        &args.rules,
        &DbArgs::default(),
        args.output.quiet,
        |rules| {
            let notation = args.notation.notation(rules)?;
            let start = match &args.start {
                Some(text) => Position::parse(text, rules).context("--start")?,
                None => Position::start(rules),
            };
            if let Some(path) = &args.save {
                chopsticks_files::check_writable(path).context("cannot save the solution")?;
            }
            Ok((notation, start))
        },
    )?;
    if args.no_remoteness {
        s.solution = s.solution.without_remoteness()?;
    }
    let write = |p: &Position| p.to_notation(&s.rules, notation);
    let graph = s.graph()?;
    let start_index = graph.index_of(&start);
    let exploration = explore_with_progress(graph, &start, args.output.quiet).exploration;
    let summary = Summary::new(graph, &s.solution, &exploration.reached, start_index)?;
    if let Some(path) = &args.save {
        file::save(&s.solution, path)?;
    }
    let seconds = clock.elapsed().as_secs_f64();
    let solve_seconds = s.solve_time.as_secs_f64();
    let rate = s.solution.count() as f64 / solve_seconds.max(1e-9);
    let longest = match summary.longest_win {
        Some((i, r)) => Some((write(&graph.position(i))?, r)),
        None => None,
    };
    if args.output.json {
        super::print_json(&json!({
            "ruleset": s.rules,
            "description": s.rules.describe(),
            "positions": s.solution.count(),
            "reachable": summary.reachable,
            "win": summary.win,
            "lose": summary.lose,
            "draw": summary.draw,
            "terminal": summary.terminal,
            "start_position": write(&start)?,
            "start": outcome_json(&summary.start),
            "concept": s.solution.concept(),
            "start_seats": summary.start_seats.iter().map(outcome_json).collect::<Vec<_>>(),
            "seats": summary.seats.iter().enumerate().map(|(seat, c)| json!({
                "seat": seat, "win": c.win, "lose": c.lose, "draw": c.draw,
            })).collect::<Vec<_>>(),
            "longest_win": longest.as_ref().map(|(p, r)| json!({"position": p, "remoteness": r})),
            "seconds": seconds,
            "solve_seconds": solve_seconds,
            "positions_per_second": rate,
            "encoding": s.solution.table().encoding(),
            "bits_per_position": s.solution.table().bits_per_entry()
                * s.solution.concept().width(s.rules.players()) as u64,
            "saved": args.save.as_ref().map(|p| p.display().to_string()),
        }));
        return Ok(());
    }
    let concept = s.solution.concept();
    let players = s.rules.players();
    println!("Ruleset:              {}", s.rules.describe());
    println!(
        "Solved:               {} positions (every position of the index){}",
        s.solution.count(),
        match concept {
            Concept::Coalition => format!(" × {players} seats"),
            _ => String::new(),
        }
    );
    if concept != Concept::TwoPlayer {
        println!("Values:               {}", concept_text(concept));
    }
    println!(
        "Reachable:            {} positions from {}",
        summary.reachable,
        write(&start)?
    );
    if concept == Concept::Coalition {
        println!("  finished games:     {}", summary.terminal);
        println!("  positions in play, by each seat's value (seat 0 moves, then turn order):");
        println!(
            "    {:<14} {:>10} {:>10} {:>10}   at the start",
            "seat", "win", "lose", "draw"
        );
        for (seat, c) in summary.seats.iter().enumerate() {
            println!(
                "    {:<14} {:>10} {:>10} {:>10}   {}",
                seat_label(seat),
                c.win,
                c.lose,
                c.draw,
                outcome_text(&summary.start_seats[seat])
            );
        }
        let named = |value: Value| -> Vec<String> {
            summary
                .start_seats
                .iter()
                .enumerate()
                .filter(|(_, o)| o.value == value)
                .map(|(seat, o)| match o.remoteness {
                    Some(r) => format!("player {} in {r}", seat + 1),
                    None => format!("player {}", seat + 1),
                })
                .collect()
        };
        let (winners, losers, survivors) =
            (named(Value::Win), named(Value::Lose), named(Value::Draw));
        println!(
            "Start:                {}",
            if winners.is_empty() {
                "no player can force a win against all the others together".to_string()
            } else {
                format!(
                    "a forced win against all the others together: {} (plies)",
                    winners.join(", ")
                )
            }
        );
        if !losers.is_empty() {
            println!(
                "                      the others together beat {} (plies)",
                losers.join(", ")
            );
        }
        if !survivors.is_empty() {
            println!(
                "                      {} can hold out against all the others for ever (draw)",
                survivors.join(", ")
            );
        }
    } else {
        if concept == Concept::Teams {
            println!("  wins for the mover's team: {}", summary.win);
        } else {
            println!("  wins for the mover: {}", summary.win);
        }
        println!("  losses:             {}", summary.lose);
        println!("  draws:              {}", summary.draw);
        println!("  finished games:     {}", summary.terminal);
        let who = match (concept, summary.start.value) {
            (Concept::Teams, Value::Win) => "the first player's team can force a win",
            (Concept::Teams, Value::Lose) => "the second player's team can force a win",
            (_, Value::Win) => "the first player can force a win",
            (_, Value::Lose) => "the second player can force a win",
            (_, Value::Draw) => "neither side can force a win",
        };
        println!(
            "Start:                {} ({who})",
            outcome_text(&summary.start)
        );
    }
    match &longest {
        Some((p, r)) => println!("Longest forced win:   {r} plies (from {p})"),
        None if !s.solution.has_remoteness() => {
            println!("Longest forced win:   not known (values kept without remoteness)")
        }
        None => println!("Longest forced win:   none (no reachable position is a win)"),
    }
    println!(
        "Time:                 {seconds:.3} s in all; solving {solve_seconds:.3} s ({:.2} M positions/s), {} bits per position in the table",
        rate / 1e6,
        s.solution.table().bits_per_entry() * s.solution.concept().width(s.rules.players()) as u64
    );
    if let Some(path) = &args.save {
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        println!(
            "Saved:                {} ({})",
            path.display(),
            human_bytes(size)
        );
    }
    Ok(())
}
