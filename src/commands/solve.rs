//! `chopsticks solve`: solve every position of a two-player variant.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use chopsticks_rules::{
    team_seats, team_text, Player, Position, PositionIndex, Ruleset, SeatedPosition,
};
use chopsticks_solve::parts::{self, DiskPlan, DiskReport};
use chopsticks_solve::{file, Concept, Summary, Value};
use chopsticks_space::BitSet;
use clap::Args;
use serde_json::json;

use super::solved::{
    concept_text, outcome_json, outcome_text, solved_with, turn_label, DbArgs, Solved,
};
use crate::memory::human_bytes;
use crate::progress;
use crate::rules_args::{NotationArgs, OutputArgs, RulesArgs};
use crate::text;
use crate::workload::{graph_for_plan, plan_solve, reachable_set, SolveMode, SolvePlan};

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
    /// Memory allowed (`512M`, `2G`; default: three quarters of what is
    /// available). A solve that does not fit is done out of core, in parts of
    /// the index kept on disk (two players).
    #[arg(long, value_name = "SIZE", value_parser = crate::memory::parse_size)]
    #[arg(help_heading = "Solving")]
    memory: Option<u64>,
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

/// Seconds between the checkpoints of an in-memory solve saved with `--save`,
/// unless `--checkpoint-every` says otherwise.
const CHECKPOINT_EVERY: u64 = 300;

/// How often checkpoints are written, in words: `every 300 s`, `at every level`.
fn every_words(seconds: u64) -> String {
    match seconds {
        0 => "at every level".to_string(),
        s => format!("every {s} s"),
    }
}

/// The largest index `solve` explores from the start without `--reachable`: the
/// exploration (6–12 million positions a second) would otherwise take longer than
/// the solve itself, which on the largest variants touches only the decided
/// positions.
pub const EXPLORE_BY_DEFAULT: u64 = 100_000_000;

/// How the solve went, for the summary.
struct Method {
    mode: SolveMode,
    report: Option<DiskReport>,
    work_dir: Option<PathBuf>,
    /// The solution file was written by the solve itself.
    saved: bool,
    /// The distributed solve's workers.
    workers: Option<Vec<chopsticks_distributed::WorkerReport>>,
    /// Solved with one-byte cells, values alone (`chopsticks_solve::compact`).
    values_only: bool,
    /// That solve's parent updates, level by level.
    updates: Option<Vec<u64>>,
}

/// Solves with `workers` processes of the distributed solver on loopback. With
/// `save`, the workers write checkpoints every `checkpoint_every` seconds in the
/// work directory beside it, and a solve started again after a lost process
/// resumes from them.
#[allow(clippy::too_many_arguments)]
fn solve_by_workers(
    rules: &Ruleset,
    workers: usize,
    save: Option<&Path>,
    memory: Option<u64>,
    explore: bool,
    checkpoint_every: u64,
    quiet: bool,
) -> Result<(Solved, Method)> {
    if rules.players() != 2 {
        anyhow::bail!(
            "the distributed solver is for two players; this ruleset has {}",
            rules.players()
        );
    }
    let count = PositionIndex::new(rules)?.count();
    let needed = chopsticks_solve::solve_bytes(count);
    if let Some(allowed) = memory.filter(|&m| needed > m) {
        anyhow::bail!(
            "solving {count} positions with {workers} workers needs about {} in all, more than --memory allows ({}): the distributed solver keeps every cell in memory; drop --workers to solve out of core within --memory",
            crate::memory::human_bytes(needed),
            crate::memory::human_bytes(allowed)
        );
    }
    crate::memory::ensure_fits(
        needed,
        &format!("solving {count} positions with {workers} workers"),
    )?;
    let clock = Instant::now();
    let (dir, out, temporary) = crate::cluster::dirs_for(rules, save);
    progress::announce(
        &format!(
            "solving with {workers} worker processes on loopback (timely dataflow), their cells in {}",
            dir.display()
        ),
        quiet,
    );
    let spinner = progress::counter(&format!("solving with {workers} workers"), quiet);
    let reports = crate::cluster::solve_on_loopback(
        rules,
        workers,
        &dir,
        &out,
        explore,
        save.map(|_| checkpoint_every),
        &spinner,
    );
    spinner.finish_and_clear();
    if reports.is_err() && temporary {
        // Nothing to resume from without --save: leave nothing behind.
        let _ = std::fs::remove_dir_all(&dir);
    }
    let reports = reports?;
    let _ = std::fs::remove_dir_all(&dir);
    let graph = crate::workload::graph_for_exploring(rules, quiet)?;
    let solved = solved_from_file(rules, graph, &out, temporary, clock.elapsed())?;
    Ok((
        solved,
        Method {
            mode: SolveMode::InMemory,
            report: None,
            work_dir: None,
            saved: true,
            workers: Some(reports),
            values_only: false,
            updates: None,
        },
    ))
}

/// The solution a solve wrote to `out`, read in place (a temporary file is
/// removed at once: the mapping keeps its data while it is used).
fn solved_from_file(
    rules: &Ruleset,
    graph: chopsticks_space::Graph,
    out: &Path,
    temporary: bool,
    solve_time: Duration,
) -> Result<Solved> {
    let solution = file::open(out)?;
    if temporary {
        let _ = std::fs::remove_file(out);
    }
    Ok(Solved::new(rules.clone(), graph, solution, solve_time))
}

/// Removes what solves without `--save` killed outright (`kill -9`, a power
/// cut) left in the temporary directory, which kept nothing to resume from:
/// work directories `chopsticks-VARIANT-PID.work` whose lock no process holds
/// (a live solve holds its lock), and solution files `chopsticks-VARIANT-PID.sol`
/// of this user whose process `PID` no longer exists.
fn remove_scratch_of_dead_runs(tmp: &Path) {
    use std::os::unix::fs::MetadataExt;
    let Ok(me) = std::fs::metadata("/proc/self").map(|m| m.uid()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(stem) = name.to_str().and_then(|n| n.strip_prefix("chopsticks-")) else {
            continue;
        };
        // Only what has that form and kind and is this user's, never a link.
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if meta.uid() != me {
            continue;
        }
        let pid = |rest: &str| rest.rsplit('-').next().and_then(|p| p.parse::<u32>().ok());
        if let Some(rest) = stem.strip_suffix(".work") {
            if pid(rest).is_none() || !meta.is_dir() {
                continue;
            }
            let unused = std::fs::File::open(entry.path().join("lock"))
                .is_ok_and(|lock| lock.try_lock().is_ok());
            if unused {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        } else if let Some(rest) = stem.strip_suffix(".explore") {
            // An exploration's snapshots (`--explore-on-disk`) of a dead process.
            if meta.is_dir() && pid(rest).is_some_and(chopsticks_files::process_is_gone) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        } else if let Some(rest) = stem.strip_suffix(".sol") {
            if meta.is_file() && pid(rest).is_some_and(chopsticks_files::process_is_gone) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// Solves by parts (`chopsticks_solve::parts`): checkpointed, or out of core.
fn solve_by_parts(
    rules: &Ruleset,
    plan: &SolvePlan,
    save: Option<&Path>,
    checkpoint_every: Duration,
    quiet: bool,
) -> Result<(Solved, Method)> {
    let graph = graph_for_plan(rules, plan, quiet)?;
    let clock = Instant::now();
    // The solution goes to the file to save, or to a temporary file read in
    // place and removed at once (the open file keeps it while it is used).
    let (out, work_dir, temporary) = match save {
        Some(path) => (
            path.to_path_buf(),
            PathBuf::from(format!("{}.work", path.display())),
            false,
        ),
        None => {
            let tmp = std::env::temp_dir();
            remove_scratch_of_dead_runs(&tmp);
            let id = rules.variant_id();
            // Without --save nothing is kept, so nothing resumes: the work
            // directory is this process's own.
            let pid = std::process::id();
            (
                tmp.join(format!("chopsticks-{id}-{pid}.sol")),
                tmp.join(format!("chopsticks-{id}-{pid}.work")),
                true,
            )
        }
    };
    let cell_bytes = match plan.mode {
        SolveMode::OutOfCore { cell_bytes } => cell_bytes,
        _ => u64::MAX,
    };
    let disk = DiskPlan {
        dir: work_dir.clone(),
        cell_bytes,
        checkpoint_every: Some(checkpoint_every),
    };
    let what = match plan.mode {
        SolveMode::OutOfCore { .. } => format!(
            "solving out of core: about {} needed all in memory, {} allowed; parts of at most {} of working cells, the others in {} (a killed solve resumes from there)",
            human_bytes(plan.in_memory_bytes),
            human_bytes(plan.budget),
            human_bytes(cell_bytes),
            work_dir.display()
        ),
        _ => format!(
            "solving in memory, checkpoints {} in {} (a killed solve resumes from there)",
            every_words(checkpoint_every.as_secs()),
            work_dir.display()
        ),
    };
    // Out of core is always said; checkpoints only for solves long enough to
    // write one.
    let count = graph.count();
    let long = crate::workload::solving_seconds_for(rules, count) > checkpoint_every.as_secs_f64();
    if matches!(plan.mode, SolveMode::OutOfCore { .. }) || long {
        progress::announce(&what, quiet);
    }
    let bar = progress::counter("solving: setting up (finished positions)", quiet);
    let estimate = crate::workload::solve_seconds_estimate(rules, count);
    let started = Instant::now();
    // The start of the pass under way, for the time left in it.
    let pass = std::sync::Mutex::new((u32::MAX, Instant::now()));
    let report = parts::solve_to_file(&graph, &disk, &out, &|p| {
        bar.set_position(p.resolved);
        let part = match p.part {
            Some((done, of)) => {
                let mut pass = pass.lock().expect("progress");
                if pass.0 != p.level {
                    *pass = (p.level, Instant::now());
                }
                let per_part = pass.1.elapsed().as_secs_f64() / done as f64;
                let left = per_part * (of - done) as f64;
                format!(", part {done} of {of}, about {left:.0} s left in this level")
            }
            None => format!(
                ", {}",
                progress::time_left(estimate, started.elapsed().as_secs_f64())
            ),
        };
        bar.set_message(format!(
            "solving {} positions: remoteness {}{part}, wins and losses found",
            graph.count(),
            p.level
        ));
    })?;
    bar.finish_and_clear();
    let solved = solved_from_file(rules, graph, &out, temporary, clock.elapsed())?;
    Ok((
        solved,
        Method {
            mode: plan.mode.clone(),
            report: Some(report),
            work_dir: Some(work_dir),
            saved: true,
            workers: None,
            values_only: false,
            updates: None,
        },
    ))
}

/// Solves the values alone with one-byte cells (`chopsticks_solve::compact`),
/// in memory: with `--save`, checkpointed in a work directory beside the file
/// and saved by the solve. `None` when the ruleset's positions may have more
/// moves than a one-byte counter holds (the caller solves with two-byte cells).
fn solve_values_only(
    rules: &Ruleset,
    plan: &SolvePlan,
    save: Option<&Path>,
    checkpoint_every: Duration,
    quiet: bool,
) -> Result<Option<(Solved, Method)>> {
    let graph = graph_for_plan(rules, plan, quiet)?;
    if !chopsticks_solve::compact::fits(&graph) {
        return Ok(None);
    }
    let checkpoints = save.map(|path| chopsticks_solve::compact::Checkpoints {
        dir: PathBuf::from(format!("{}.work", path.display())),
        every: checkpoint_every,
    });
    let count = graph.count();
    let long = crate::workload::solving_seconds_for(rules, count) > checkpoint_every.as_secs_f64();
    if let (Some(c), true) = (&checkpoints, long) {
        progress::announce(
            &format!(
                "solving the values alone in memory, one byte a position ({}), checkpoints {} in {} (a killed solve resumes from there)",
                human_bytes(plan.in_memory_bytes),
                every_words(checkpoint_every.as_secs()),
                c.dir.display()
            ),
            quiet,
        );
    }
    let bar = progress::counter("solving: setting up (finished positions)", quiet);
    let estimate = crate::workload::solve_seconds_estimate(rules, count);
    let clock = Instant::now();
    let (solution, report) =
        chopsticks_solve::Solution::solve_values(&graph, checkpoints.as_ref(), save, &|p| {
            bar.set_position(p.resolved);
            bar.set_message(format!(
                "solving the values of {count} positions: level {}, {}, wins and losses found",
                p.level,
                progress::time_left(estimate, clock.elapsed().as_secs_f64())
            ));
        })?;
    bar.finish_and_clear();
    let solved = Solved::new(rules.clone(), graph, solution, clock.elapsed());
    let method = Method {
        mode: plan.mode.clone(),
        report: Some(DiskReport {
            parts: 1,
            resumed_from: report.resumed_from,
            checkpoints: report.checkpoints,
            spooled_bytes: 0,
            kept_files: 0,
        }),
        work_dir: checkpoints.map(|c| c.dir),
        saved: save.is_some(),
        workers: None,
        values_only: true,
        updates: Some(report.updates),
    };
    Ok(Some((solved, method)))
}

/// The summary of a two-player solve from the counts of the distributed
/// exploration (`chopsticks_distributed::ReachCounts`): the second seat has the
/// first's wins as losses.
fn summary_of_counts(
    s: &Solved,
    counts: &chopsticks_distributed::ReachCounts,
    start: u64,
) -> Result<Summary> {
    Ok(Summary {
        reachable: counts.reachable,
        win: counts.win,
        lose: counts.lose,
        draw: counts.draw,
        terminal: counts.terminal,
        start: s.solution.outcome_at(start)?,
        start_seats: s.solution.seat_outcomes_at(start)?,
        seats: chopsticks_solve::SeatCounts::of_sides(counts.win, counts.lose, counts.draw, 2),
        longest_win: counts.longest_win,
    })
}

pub fn run(args: &SolveArgs) -> Result<()> {
    let clock = Instant::now();
    // The notation, the start and the file to save to are refused before the work.
    let prepare = |rules: &Ruleset| -> Result<_> {
        let notation = args.notation.notation(rules)?;
        let start = match &args.start {
            Some(text) => SeatedPosition::parse(text, rules).context("--start")?,
            None => SeatedPosition::start(rules),
        };
        if let Some(path) = &args.save {
            chopsticks_files::check_writable(path).context("cannot save the solution")?;
        }
        Ok((notation, start))
    };
    let rules = args.rules.ruleset()?;
    let count = PositionIndex::new(&rules)?.count();
    let explored = args.reachable
        || args.explore_on_disk
        || (!args.no_reachable && count <= EXPLORE_BY_DEFAULT);
    let mut plan = plan_solve(
        &rules,
        count,
        args.memory,
        args.save.is_some(),
        args.no_remoteness && args.workers.is_none(),
    )?;
    let mut values_solved = None;
    if plan.values_only {
        let prepared = prepare(&rules)?;
        match solve_values_only(
            &rules,
            &plan,
            args.save.as_deref(),
            Duration::from_secs(args.checkpoint_every.unwrap_or(CHECKPOINT_EVERY)),
            args.output.quiet,
        )? {
            Some((s, method)) => values_solved = Some((s, prepared, method)),
            // Too many moves for one-byte counters: two-byte cells.
            None => plan = plan_solve(&rules, count, args.memory, args.save.is_some(), false)?,
        }
    }
    let (mut s, (notation, start_seated), method) = match (values_solved, args.workers, &plan.mode)
    {
        (Some(done), _, _) => done,
        (None, Some(workers), _) => {
            let prepared = prepare(&rules)?;
            let (s, method) = solve_by_workers(
                &rules,
                workers as usize,
                args.save.as_deref(),
                args.memory,
                explored && args.start.is_none() && !args.explore_on_disk,
                args.checkpoint_every.unwrap_or(CHECKPOINT_EVERY),
                args.output.quiet,
            )?;
            (s, prepared, method)
        }
        (None, None, _) => match plan.mode {
            SolveMode::InMemory => {
                let (s, prepared) =
                    solved_with(&args.rules, &DbArgs::default(), args.output.quiet, prepare)?;
                let method = Method {
                    mode: SolveMode::InMemory,
                    report: None,
                    work_dir: None,
                    saved: false,
                    workers: None,
                    values_only: false,
                    updates: None,
                };
                (s, prepared, method)
            }
            _ => {
                let prepared = prepare(&rules)?;
                let (s, method) = solve_by_parts(
                    &rules,
                    &plan,
                    args.save.as_deref(),
                    Duration::from_secs(args.checkpoint_every.unwrap_or(CHECKPOINT_EVERY)),
                    args.output.quiet,
                )?;
                (s, prepared, method)
            }
        },
    };
    // A solve with remoteness saved by parts is saved again without it.
    let saved_already =
        method.saved && args.save.is_some() && (method.values_only || !args.no_remoteness);
    if args.no_remoteness {
        s.solution = s.solution.without_remoteness()?;
    }
    let write = |p: &Position| p.to_notation(&s.rules, notation);
    let graph = s.graph()?;
    let start = start_seated.position().clone();
    let start_index = graph.index_of(&start);
    // The workers of a distributed solve explored from the start themselves.
    let on_workers = method.workers.as_ref().and_then(|w| {
        w.iter()
            .map(|r| r.reach.as_ref())
            .collect::<Option<Vec<_>>>()
            .map(chopsticks_distributed::ReachCounts::sum)
    });
    let (reached, explored_on_disk) = if on_workers.is_some() {
        (BitSet::new(0), false)
    } else if !explored {
        (BitSet::full(graph.count()), false)
    } else {
        let dir = match &args.save {
            Some(path) => PathBuf::from(format!("{}.explore", path.display())),
            None => {
                let tmp = std::env::temp_dir();
                remove_scratch_of_dead_runs(&tmp);
                tmp.join(format!(
                    "chopsticks-{}-{}.explore",
                    s.rules.variant_id(),
                    std::process::id()
                ))
            }
        };
        reachable_set(graph, &start, args.explore_on_disk, &dir, args.output.quiet)?
    };
    let summary = match &on_workers {
        Some(counts) => summary_of_counts(&s, counts, start_index)?,
        None => Summary::new(graph, &s.solution, &reached, start_index)?,
    };
    drop(reached);
    if let Some(path) = &args.save {
        if !saved_already {
            file::save(&s.solution, path)?;
        }
    }
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
        // Player 1 first, as every list of players.
        let mut by_player = start_players.clone();
        by_player.sort_by_key(|(p, _)| *p);
        let start_by_player: Vec<serde_json::Value> = by_player
            .iter()
            .map(|(p, o)| {
                let mut entry = outcome_json(o);
                entry["player"] = json!(p.number());
                entry
            })
            .collect();
        super::print_json(&super::with_variant(
            &s.rules,
            json!({
                "positions": s.solution.count(),
                "reachable": explored.then_some(summary.reachable),
                "counted": if explored { "reachable" } else { "index" },
                "explored_on_disk": explored_on_disk,
                "explored_on_workers": on_workers.is_some(),
                "explore_messages": on_workers.as_ref().map(|c| c.messages),
                "win": summary.win,
                "lose": summary.lose,
                "draw": summary.draw,
                "terminal": summary.terminal,
                "start_position": start_text,
                "start": outcome_json(&summary.start),
                "concept": s.solution.concept(),
                "start_player": start_seated.mover().number(),
                "start_players": start_by_player,
                "by_turn": summary.seats.iter().enumerate().map(|(after, c)| json!({
                    "after_mover": after, "win": c.win, "lose": c.lose, "draw": c.draw,
                })).collect::<Vec<_>>(),
                "longest_win": longest.as_ref().map(|(p, r)| json!({"position": p, "remoteness": r})),
                "seconds": seconds,
                "solve_seconds": solve_seconds,
                "positions_per_second": rate,
                "encoding": s.solution.table().encoding(),
                "mode": match method.mode {
                    _ if method.workers.is_some() => "distributed",
                    SolveMode::InMemory => "in-memory",
                    SolveMode::Checkpointed => "checkpointed",
                    SolveMode::OutOfCore { .. } => "out-of-core",
                },
                "memory_budget": plan.budget,
                "in_memory_bytes": plan.in_memory_bytes,
                "parts": method.report.as_ref().map(|r| r.parts),
                "resumed_from": method.report.as_ref().and_then(|r| r.resumed_from)
                    .or(method.workers.as_ref().and_then(|w| w.iter().find_map(|r| r.resumed_from))),
                "checkpoints": method.report.as_ref().map(|r| r.checkpoints)
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
                "spooled_bytes": method.report.as_ref().map(|r| r.spooled_bytes),
                "kept_files": method.report.as_ref().map(|r| r.kept_files),
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
            }),
        ));
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
    match (&method.mode, &method.report, &method.work_dir) {
        (SolveMode::OutOfCore { cell_bytes }, Some(r), Some(dir)) => println!(
            "Out of core:          {} parts of at most {} of working cells ({} allowed), {} spooled between them, {} part loads kept their file unchanged, a checkpoint every level in {}",
            r.parts,
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
            every_words(args.checkpoint_every.unwrap_or(CHECKPOINT_EVERY))
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
    if let Some(pass) = method.report.as_ref().and_then(|r| r.resumed_from) {
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
