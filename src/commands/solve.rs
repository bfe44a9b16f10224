//! `chopsticks solve`: solve every position of a two-player variant.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use chopsticks_driver::scratch::{Kind, Scratch};
use chopsticks_driver::{
    every_words, Reach, SolveMode, SolveRequest, SummaryOf, Workers, CHECKPOINT_EVERY,
};
use chopsticks_rules::{team_seats, team_text, Player, Position, PositionIndex, SeatedPosition};
use chopsticks_solve::{Concept, Value};
use clap::Args;
use serde_json::json;

use super::solved::{concept_text, outcome_text, turn_label};
use crate::memory::human_bytes;
use crate::progress;
use crate::rules_args::{NotationArgs, OutputArgs, RulesArgs};
use crate::text;

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    notation: NotationArgs,
    /// Summarise from this position instead of the usual start.
    #[arg(long)]
    #[arg(help_heading = "Analysis")]
    start: Option<String>,
    /// Save the solution to this file (versioned, checksummed).
    #[arg(long, value_name = "FILE")]
    #[arg(help_heading = "Solving")]
    save: Option<std::path::PathBuf>,
    /// Keep the values alone, two bits per position, without remoteness (a
    /// quarter of the one-byte table: for saving the largest variants). `query`
    /// then gives values without remoteness; `play` and `strategy` need it.
    #[arg(long)]
    #[arg(help_heading = "Solving")]
    no_remoteness: bool,
    /// Memory allowed (`512M`, `2G`), the program counted within it (out of
    /// core, its move tables and buffers too). Default: three quarters of the memory available, as for
    /// every command (docs/RELIABILITY.md). A solve that does not fit is done
    /// out of core, in parts of the index kept on disk (two players). Not with
    /// `--workers`: the worker processes are not bounded by it.
    #[arg(long, value_name = "SIZE", value_parser = crate::memory::parse_size)]
    #[arg(help_heading = "Solving", conflicts_with = "workers")]
    memory: Option<u64>,
    /// Solve out of core in parts of at most this much working memory (two
    /// bytes a position; `2M`, `1G`), even when the whole would fit in memory:
    /// to try the disk path on a small variant, or to leave memory to other
    /// work. Default: what `--memory` leaves beside the program, the move
    /// tables and the buffers. Two players.
    #[arg(long, value_name = "SIZE", value_parser = crate::memory::parse_size)]
    #[arg(help_heading = "Solving", conflicts_with = "workers")]
    part_size: Option<u64>,
    /// With `--save`: write a checkpoint of an in-memory solve when this many
    /// seconds have passed since the last (out of core, every level is one). A
    /// killed solve, started again with the same command, resumes from it.
    /// Default: 300.
    #[arg(long, value_name = "SECONDS", requires = "save")]
    #[arg(help_heading = "Solving")]
    checkpoint_every: Option<u64>,
    /// Solve with this many processes of the distributed solver on this machine
    /// (timely dataflow over loopback TCP; two players); `chopsticks cluster`
    /// runs it across hosts.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=64))]
    #[arg(help_heading = "Solving")]
    workers: Option<u64>,
    /// Count the positions reachable from the start, and the outcomes among them,
    /// whatever the size: a breadth-first exploration of every reachable position
    /// (6–12 million positions a second here, so 1–2 minutes at 591 million). By
    /// default only indices of at most 100 million positions are explored; larger
    /// ones are summarised over every position of the index.
    #[arg(long, conflicts_with = "no_reachable")]
    #[arg(help_heading = "Analysis")]
    reachable: bool,
    /// Summarise over every position of the index, without exploring from the
    /// start (the counts then include positions no game reaches).
    #[arg(long)]
    #[arg(help_heading = "Analysis")]
    no_reachable: bool,
    /// Explore from the start (as `--reachable`) with one bit a position in
    /// memory, the layers found from snapshots written to disk (beside the
    /// `--save` file, else in the temporary directory). Chosen by itself when
    /// the three bits a position of the exploration in memory do not fit.
    #[arg(long, conflicts_with = "no_reachable")]
    #[arg(help_heading = "Solving")]
    explore_on_disk: bool,
    #[command(flatten)]
    output: OutputArgs,
}

/// The largest index `solve` explores from the start without `--reachable`.
pub use chopsticks_report::EXPLORE_BY_DEFAULT;

pub fn run(args: &SolveArgs) -> Result<()> {
    let clock = Instant::now();
    let rules = args.rules.ruleset()?;
    let count = PositionIndex::new(&rules)?.count();
    let explored = args.reachable
        || args.explore_on_disk
        || (!args.no_reachable && count <= EXPLORE_BY_DEFAULT);
    let request = SolveRequest {
        rules: rules.clone(),
        save: args.save.clone(),
        memory: args.memory,
        part_bytes: args.part_size,
        checkpoint_every: args
            .checkpoint_every
            .map_or(CHECKPOINT_EVERY, Duration::from_secs),
        workers: match args.workers {
            Some(n) => Some(Workers {
                count: n as usize,
                program: chopsticks_driver::loopback::this_program()?,
                // The workers explore from the usual start themselves.
                explore: explored && args.start.is_none() && !args.explore_on_disk,
            }),
            None => None,
        },
        no_remoteness: args.no_remoteness,
    };
    let plan = request.plan()?;
    // The notation, the start and the file to save to are refused before the work.
    let notation = args.notation.notation(&rules)?;
    let start_seated = match &args.start {
        Some(text) => SeatedPosition::parse(text, &rules).context("--start")?,
        None => SeatedPosition::start(&rules),
    };
    if let Some(path) = &args.save {
        chopsticks_files::check_writable(path).context("cannot save the solution")?;
    }
    let events = progress::Shown::new(args.output.quiet);
    let (s, method) = chopsticks_driver::solve(&request, plan, &events)?;
    let plan = &method.plan;
    let write = |p: &Position| p.to_notation(&s.rules, notation);
    let graph = s.graph()?;
    let start = start_seated.position().clone();
    // The workers of a distributed solve explored from the start themselves.
    let on_workers = method.workers.as_ref().and_then(|w| {
        w.iter()
            .map(|r| r.reach.as_ref())
            .collect::<Option<Vec<_>>>()
            .map(chopsticks_distributed::ReachCounts::sum)
    });
    // Named (and the temporary directory swept) only when exploring here.
    let explore_dir = (on_workers.is_none() && explored)
        .then(|| Scratch::of(&s.rules, args.save.as_deref(), Kind::Explore).dir);
    let reach = match (&on_workers, &explore_dir) {
        (Some(counts), _) => Reach::Counted(counts),
        (None, Some(dir)) => Reach::Explored {
            on_disk: args.explore_on_disk,
            memory: Some(plan.budget),
            dir,
        },
        (None, None) => Reach::Index,
    };
    let SummaryOf {
        summary,
        explored_on_disk,
    } = chopsticks_driver::summarise(&s, &start, reach, &events)?;
    let seconds = clock.elapsed().as_secs_f64();
    // The distributed solve's own time: its slowest worker's, from its set-up to
    // the end of the dataflow (the processes' start-up, timely's connections and
    // the assembly of the file are in `seconds`).
    let solve_seconds = match &method.workers {
        Some(w) => w.iter().map(|r| r.seconds).fold(0.0, f64::max),
        None => s.solve_time.as_secs_f64(),
    };
    let rate = s.solution.count() as f64 / solve_seconds.max(1e-9);
    // The start's outcome for each player, counted from the one to move there.
    let start_players: Vec<(Player, chopsticks_solve::Outcome)> = summary
        .start_seats
        .iter()
        .enumerate()
        .map(|(after, o)| (Player::from_seat(start_seated.seat_of(after)), *o))
        .collect();
    // The start as the user gave it: seated unless a mover-first notation is asked.
    let start_text = match args.notation.printed(&s.rules)? {
        None => start_seated.to_text(&s.rules)?,
        Some(_) => write(&start)?,
    };
    let longest = match summary.longest_win {
        Some((i, r)) => Some((write(&graph.position(i))?, r)),
        None => None,
    };
    if args.output.json {
        let mut value = chopsticks_report::solve_summary(
            &s,
            &summary,
            explored,
            &start_seated,
            &start_text,
            longest.clone(),
        );
        let more = json!({
                "explored_on_disk": explored_on_disk,
                "explored_on_workers": on_workers.is_some(),
                "explore_messages": on_workers.as_ref().map(|c| c.messages),
                "seconds": seconds,
                "solve_seconds": solve_seconds,
                "positions_per_second": rate,
                "encoding": s.solution.table().encoding(),
                "mode": method.mode_name(),
                "memory_budget": plan.budget,
                "in_memory_bytes": plan.in_memory_bytes,
                "peak_resident_bytes": crate::memory::peak_resident_bytes(),
                "parts": method.disk.as_ref().map(|r| r.parts),
                "resumed_from": method.disk.as_ref().and_then(|r| r.resumed_from)
                    .or(method.workers.as_ref().and_then(|w| w.iter().find_map(|r| r.resumed_from))),
                "checkpoints": method.disk.as_ref().map(|r| r.checkpoints)
                    .or(method.workers.as_ref().map(|w| w.iter().map(|r| r.checkpoints).max().unwrap_or(0))),
                "ignored_checkpoints": method.workers.as_ref()
                    .map(|w| {
                        let mut all: Vec<&String> = w.iter().flat_map(|r| r.ignored_checkpoints.iter()).collect();
                        all.sort();
                        all
                    })
                    .unwrap_or_default(),
                "checkpoint_seconds": method.workers.as_ref()
                    .map(|w| w.iter().map(|r| r.checkpoint_seconds).fold(0.0, f64::max)),
                "spooled_bytes": method.disk.as_ref().map(|r| r.spooled_bytes),
                "kept_files": method.disk.as_ref().map(|r| r.kept_files),
                "workers": method.workers.as_ref().map(|w| w.len()),
                "distributed_seconds": method.workers.as_ref().map(|_| s.solve_time.as_secs_f64()),
                "messages": method.workers.as_ref().map(|w| w.iter().map(|r| r.messages).sum::<u64>()),
                "parent_updates": method.updates.as_ref().map(|u| u.iter().sum::<u64>()),
                "updates_per_level": method.updates,
                "cell_bytes": (s.solution.concept() == Concept::TwoPlayer)
                    .then_some(if method.values_only { 1 } else { 2 }),
                "bits_per_position": s.solution.table().bits_per_entry()
                    * s.solution.concept().width(s.rules.players()) as u64,
                "saved": args.save.as_ref().map(|p| p.display().to_string()),
        });
        if let (Some(all), Some(more)) = (value.as_object_mut(), more.as_object()) {
            all.extend(more.clone());
        }
        super::print_json(&super::with_variant(&s.rules, value));
        return Ok(());
    }
    let concept = s.solution.concept();
    let players = s.rules.players();
    println!("Ruleset:              {}", s.rules.describe());
    println!(
        "Solved:               {} positions (every position of the index){}",
        text::count(s.solution.count()),
        match concept {
            Concept::Coalition => format!(", each for {players} players"),
            _ => String::new(),
        }
    );
    if concept != Concept::TwoPlayer {
        println!("Values:               {}", concept_text(concept));
    }
    if explored {
        println!(
            "Reachable:            {} from {}{}",
            text::counted(summary.reachable, "position"),
            start_text,
            if explored_on_disk {
                " (explored with one bit a position in memory, the layers on disk)"
            } else {
                ""
            }
        );
    } else {
        println!(
            "Reachable:            not counted ({} positions in the index; `--reachable` explores from {} at 6–12 M positions/s)",
            text::count(graph.count()),
            start_text
        );
        println!("Every position of the index, by value:");
    }
    if concept == Concept::Coalition {
        println!("  finished games:     {}", text::count(summary.terminal));
        println!("  positions in play, by the value of each player, counted from the one to move:");
        println!(
            "    {:<14} {:>14} {:>14} {:>14}   at the start",
            "player", "win", "lose", "draw"
        );
        for (after, c) in summary.seats.iter().enumerate() {
            let (player, o) = &start_players[after];
            println!(
                "    {:<14} {:>14} {:>14} {:>14}   {player}: {}",
                turn_label(after),
                text::count(c.win),
                text::count(c.lose),
                text::count(c.draw),
                outcome_text(o)
            );
        }
        let named = |value: Value| -> Vec<String> {
            let mut list: Vec<_> = start_players
                .iter()
                .filter(|(_, o)| o.value == value)
                .collect();
            list.sort_by_key(|(p, _)| *p);
            list.iter()
                .map(|(p, o)| match o.remoteness {
                    Some(r) => format!("{p} in {r}"),
                    None => p.to_string(),
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
            println!("  wins for the mover's team: {}", text::count(summary.win));
        } else {
            println!("  wins for the mover: {}", text::count(summary.win));
        }
        println!("  losses:             {}", text::count(summary.lose));
        println!("  draws:              {}", text::count(summary.draw));
        println!("  finished games:     {}", text::count(summary.terminal));
        let mover = start_seated.mover();
        let other = Player::from_seat(start_seated.seat_of(1));
        let who = match (concept, summary.start.value) {
            (Concept::Teams, Value::Win) => format!(
                "{}, {mover}'s team, can force a win",
                team_text(team_seats(mover.seat(), players))
            ),
            (Concept::Teams, Value::Lose) => format!(
                "{}, {other}'s team, can force a win",
                team_text(team_seats(other.seat(), players))
            ),
            (_, Value::Win) => format!("{mover}, to move, can force a win"),
            (_, Value::Lose) => format!("{other} can force a win"),
            (_, Value::Draw) => "neither side can force a win".to_string(),
        };
        println!(
            "Start:                {} ({who})",
            outcome_text(&summary.start)
        );
    }
    match &longest {
        Some((p, r)) => println!(
            "Longest forced win:   {} (from {p})",
            text::plies(u64::from(*r))
        ),
        None if !s.solution.has_remoteness() => {
            println!("Longest forced win:   not known (values kept without remoteness)")
        }
        None if explored => {
            println!("Longest forced win:   none (no reachable position is a win)")
        }
        None => println!("Longest forced win:   none (no position of the index is a win)"),
    }
    println!(
        "Time:                 {seconds:.3} s in all; solving {solve_seconds:.3} s ({:.2} M positions/s), {} bits per position in the table",
        rate / 1e6,
        s.solution.table().bits_per_entry() * s.solution.concept().width(s.rules.players()) as u64
    );
    if let Some(peak) = crate::memory::peak_resident_bytes() {
        println!(
            "Memory:               peak {} resident ({} allowed)",
            human_bytes(peak),
            human_bytes(plan.budget)
        );
    }
    match (&plan.mode, &method.disk, &method.work_dir) {
        (SolveMode::OutOfCore { cell_bytes }, Some(r), Some(dir)) => println!(
            "Out of core:          {} of at most {} of working cells ({} allowed), {} spooled between them, {} part loads kept their file unchanged, a checkpoint every level in {}",
            text::counted(r.parts as u64, "part"),
            human_bytes(*cell_bytes),
            human_bytes(plan.budget),
            human_bytes(r.spooled_bytes),
            r.kept_files,
            dir.display()
        ),
        (SolveMode::Checkpointed, Some(r), Some(dir)) if r.checkpoints > 0 => println!(
            "Checkpoints:          {} written in {} ({})",
            r.checkpoints,
            dir.display(),
            every_words(method.checkpoint_every)
        ),
        _ => {}
    }
    if let Some(workers) = &method.workers {
        println!(
            "Distributed:          {} worker processes on loopback, {} parent updates sent as messages",
            workers.len(),
            text::count(workers.iter().map(|r| r.messages).sum::<u64>())
        );
    }
    if let Some(pass) = method.disk.as_ref().and_then(|r| r.resumed_from) {
        println!("Resumed:              from the checkpoint at remoteness {pass}");
    }
    if let Some(workers) = &method.workers {
        if let Some(level) = workers.iter().find_map(|r| r.resumed_from) {
            println!("Resumed:              from level {level}, every worker's checkpoint");
        }
        let ignored: usize = workers.iter().map(|r| r.ignored_checkpoints.len()).sum();
        if ignored > 0 {
            println!(
                "Not resumed from:     {} (named in the warnings above)",
                text::counted(ignored as u64, "checkpoint file")
            );
        }
        let most = workers.iter().map(|r| r.checkpoints).max().unwrap_or(0);
        if most > 0 {
            let seconds = workers
                .iter()
                .map(|r| r.checkpoint_seconds)
                .fold(0.0, f64::max);
            let bytes: u64 = workers.iter().map(|r| r.checkpoint_bytes).sum();
            println!(
                "Checkpoints:          {} by each worker, {seconds:.3} s at most for one, {} written in all",
                text::count(most),
                human_bytes(bytes)
            );
        }
    }
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
