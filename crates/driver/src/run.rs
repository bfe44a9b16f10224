//! The solve: the plan run with one of the four solvers.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use chopsticks_distributed::WorkerReport;
use chopsticks_rules::text::human_bytes;
use chopsticks_rules::{PositionIndex, Ruleset};
use chopsticks_solve::parts::{self, DiskPlan, DiskReport};
use chopsticks_solve::{file, Solution, Solved};
use chopsticks_space::Graph;

use crate::estimate::{ensure_fits, positions, solve_seconds_estimate, time_left};
use crate::loopback::{solve_on_loopback, Loopback};
use crate::plan::{
    graph_for_exploring, graph_for_plan, out_of_core_memory, parts_within, plan_solve, SolveMode,
    SolvePlan,
};
use crate::scratch::{Kind, Scratch};
use crate::{DriverError, Events};

/// Time between the checkpoints of an in-memory solve that saves its
/// solution, unless the request says otherwise.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(300);

/// Worker processes of the distributed solver on this machine.
#[derive(Clone, Debug)]
pub struct Workers {
    pub count: usize,
    /// The program each runs (see [`crate::loopback::worker_arguments`]).
    pub program: PathBuf,
    /// The workers explore from the start after the solve and count the
    /// outcomes of the positions reached, for the summary
    /// ([`crate::Reach::Counted`]).
    pub explore: bool,
}

/// What to solve, and how.
#[derive(Clone, Debug)]
pub struct SolveRequest {
    pub rules: Ruleset,
    /// The file to save the solution to (versioned, checksummed); the solve's
    /// scratch then goes beside it, and a killed solve resumes.
    pub save: Option<PathBuf>,
    /// Bytes of memory allowed (default: three quarters of what is available).
    pub memory: Option<u64>,
    /// Out of core in parts of at most this many bytes of working cells, even
    /// when the whole would fit in memory (two players).
    pub part_bytes: Option<u64>,
    /// Time between checkpoints of a solve that saves its solution.
    pub checkpoint_every: Duration,
    /// Solve with worker processes of the distributed solver.
    pub workers: Option<Workers>,
    /// Keep the values alone, without remoteness.
    pub no_remoteness: bool,
}

impl SolveRequest {
    /// A solve of `rules` in memory, saving nothing.
    pub fn new(rules: Ruleset) -> SolveRequest {
        SolveRequest {
            rules,
            save: None,
            memory: None,
            part_bytes: None,
            checkpoint_every: CHECKPOINT_EVERY,
            workers: None,
            no_remoteness: false,
        }
    }

    /// How this solve will use memory: [`plan_solve`] for its ruleset.
    pub fn plan(&self) -> Result<SolvePlan, DriverError> {
        let count = PositionIndex::new(&self.rules)?.count();
        plan_solve(
            &self.rules,
            count,
            self.memory,
            self.save.is_some(),
            self.no_remoteness && self.workers.is_none(),
            self.part_bytes,
        )
    }
}

/// How a solve went.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// The plan that was run (a values-alone plan whose positions have too many
    /// moves for one-byte counters is planned again with two-byte cells).
    pub plan: SolvePlan,
    /// The report of a solve by parts or with checkpoints.
    pub disk: Option<DiskReport>,
    /// The work directory of a solve by parts or with checkpoints.
    pub work_dir: Option<PathBuf>,
    /// The distributed solve's workers.
    pub workers: Option<Vec<WorkerReport>>,
    /// Solved with one-byte cells, values alone (`chopsticks_solve::compact`).
    pub values_only: bool,
    /// That solve's parent updates, level by level.
    pub updates: Option<Vec<u64>>,
    /// Whole seconds between checkpoints.
    pub checkpoint_every: u64,
}

impl SolveReport {
    fn new(plan: &SolvePlan, request: &SolveRequest) -> SolveReport {
        SolveReport {
            plan: plan.clone(),
            disk: None,
            work_dir: None,
            workers: None,
            values_only: false,
            updates: None,
            checkpoint_every: request.checkpoint_every.as_secs(),
        }
    }

    /// The solver that ran, as the JSON names it: `in-memory`,
    /// `checkpointed`, `out-of-core` or `distributed`.
    pub fn mode_name(&self) -> &'static str {
        match self.plan.mode {
            _ if self.workers.is_some() => "distributed",
            SolveMode::InMemory => "in-memory",
            SolveMode::Checkpointed => "checkpointed",
            SolveMode::OutOfCore { .. } => "out-of-core",
        }
    }
}

/// How often checkpoints are written, in words: `every 300 s`, `at every level`.
pub fn every_words(seconds: u64) -> String {
    match seconds {
        0 => "at every level".to_string(),
        s => format!("every {s} s"),
    }
}

/// Solves as `request` asks, following `plan` (from [`SolveRequest::plan`]);
/// saves the solution when asked. The solution has remoteness unless
/// `no_remoteness` is asked.
pub fn solve(
    request: &SolveRequest,
    plan: SolvePlan,
    events: &dyn Events,
) -> Result<(Solved, SolveReport), DriverError> {
    let rules = &request.rules;
    let mut plan = plan;
    let mut done = None;
    if plan.values_only {
        done = solve_values_only(request, &plan, events)?;
        if done.is_none() {
            // Too many moves for one-byte counters: two-byte cells.
            let count = PositionIndex::new(rules)?.count();
            plan = plan_solve(
                rules,
                count,
                request.memory,
                request.save.is_some(),
                false,
                request.part_bytes,
            )?;
        }
    }
    let (mut solved, report, saved) = match (done, &request.workers, &plan.mode) {
        (Some((solved, report)), _, _) => (solved, report, request.save.is_some()),
        (None, Some(workers), _) => {
            let (solved, report) = solve_by_workers(request, &plan, workers, events)?;
            (solved, report, !request.no_remoteness)
        }
        (None, None, SolveMode::InMemory) => {
            let graph = graph_for_plan(rules, &plan, events)?;
            let solved = solve_graph(rules.clone(), graph, events)?;
            (solved, SolveReport::new(&plan, request), false)
        }
        (None, None, _) => {
            let (solved, report) = solve_by_parts(request, &plan, events)?;
            (solved, report, !request.no_remoteness)
        }
    };
    if request.no_remoteness && !report.values_only {
        solved.solution = solved.solution.without_remoteness()?;
    }
    if let (Some(path), false) = (&request.save, saved) {
        file::save(&solved.solution, path)?;
    }
    Ok((solved, report))
}

/// Solves `graph` of `rules` in memory, with progress.
pub fn solve_graph(
    rules: Ruleset,
    graph: Graph,
    events: &dyn Events,
) -> Result<Solved, DriverError> {
    let clock = Instant::now();
    // How many positions will be resolved (the rest are draws) is not known in
    // advance, so this counts resolved positions level by level.
    events.begin("solving: setting up (finished positions)", None);
    let estimate = solve_seconds_estimate(&rules, graph.count());
    let solution = Solution::solve(&graph, &|p| {
        events.advance(
            p.resolved,
            &format!(
                "solving {} positions: remoteness {} done, {}; wins and losses found",
                graph.count(),
                p.level,
                time_left(estimate, clock.elapsed().as_secs_f64())
            ),
        );
    });
    events.end();
    Ok(Solved::new(rules, graph, solution?, clock.elapsed()))
}

/// Solves `rules` in memory: the memory checked, long work announced, the
/// move graph built and the solution found (what a command without a saved
/// solution does).
pub fn solve_in_memory(rules: &Ruleset, events: &dyn Events) -> Result<Solved, DriverError> {
    let graph = crate::plan::graph_for_solving(rules, events)?;
    solve_graph(rules.clone(), graph, events)
}

/// The solution a solve wrote to `out`, read in place (a temporary file is
/// removed at once: the mapping keeps its data while it is used).
fn solved_from_file(
    rules: &Ruleset,
    graph: Graph,
    scratch: &Scratch,
    solve_time: Duration,
) -> Result<Solved, DriverError> {
    let solution = file::open(&scratch.out)?;
    if scratch.temporary {
        let _ = std::fs::remove_file(&scratch.out);
    }
    Ok(Solved::new(rules.clone(), graph, solution, solve_time))
}

/// Solves with worker processes of the distributed solver on loopback. When
/// the solution is saved, the workers write checkpoints in the work directory
/// beside it, and a solve started again after a lost process resumes from
/// them.
fn solve_by_workers(
    request: &SolveRequest,
    plan: &SolvePlan,
    workers: &Workers,
    events: &dyn Events,
) -> Result<(Solved, SolveReport), DriverError> {
    let rules = &request.rules;
    let n = workers.count;
    if rules.players() != 2 {
        return Err(DriverError::Refused(format!(
            "the distributed solver is for two players; this ruleset has {}",
            rules.players()
        )));
    }
    let count = PositionIndex::new(rules)?.count();
    let needed = chopsticks_solve::solve_bytes(count);
    let what = format!("{} with {n} workers", positions("solving", count));
    if let Some(allowed) = request.memory.filter(|&m| needed > m) {
        return Err(DriverError::Refused(format!(
            "{what} needs about {} in all, more than --memory allows ({}): the distributed solver keeps every cell in memory; drop --workers to solve out of core within --memory",
            human_bytes(needed),
            human_bytes(allowed)
        )));
    }
    ensure_fits(needed, &what)?;
    let clock = Instant::now();
    let scratch = Scratch::of(rules, request.save.as_deref(), Kind::Cluster);
    events.announce(&format!(
        "solving with {n} worker processes on loopback (timely dataflow), their cells in {}",
        scratch.dir.display()
    ));
    let loopback = Loopback {
        program: &workers.program,
        workers: n,
        dir: &scratch.dir,
        out: &scratch.out,
        explore: workers.explore,
        checkpoint_every: request
            .save
            .as_ref()
            .map(|_| request.checkpoint_every.as_secs()),
    };
    let reports = solve_on_loopback(rules, &loopback, events);
    if reports.is_err() && scratch.temporary {
        // Nothing to resume from without a saved file: leave nothing behind.
        let _ = std::fs::remove_dir_all(&scratch.dir);
    }
    let reports = reports?;
    let _ = std::fs::remove_dir_all(&scratch.dir);
    let graph = graph_for_exploring(rules, events)?;
    let solved = solved_from_file(rules, graph, &scratch, clock.elapsed())?;
    let mut report = SolveReport::new(plan, request);
    report.plan.mode = SolveMode::InMemory;
    report.workers = Some(reports);
    Ok((solved, report))
}

/// The disk an out-of-core solve of `count` positions is estimated to need at
/// its peak, in parts of at most `part_bytes` of working cells: every part's
/// two-byte cells on disk, a part's new file beside its old one while it is
/// written, the solution file (at most two bytes a position) and a tenth more
/// for the spools. Measured: rollover.h6.f10 (25 M positions, `--memory 24M`)
/// peaked at 87 MB, against 130 MB estimated.
pub fn out_of_core_disk(count: u64, part_bytes: u64) -> u64 {
    let cells = count.saturating_mul(2);
    let total = cells
        .saturating_add(part_bytes.min(cells))
        .saturating_add(cells);
    total.saturating_add(total / 10)
}

/// Solves by parts (`chopsticks_solve::parts`): checkpointed, or out of core.
fn solve_by_parts(
    request: &SolveRequest,
    plan: &SolvePlan,
    events: &dyn Events,
) -> Result<(Solved, SolveReport), DriverError> {
    let rules = &request.rules;
    let checkpoint_every = request.checkpoint_every;
    let graph = graph_for_plan(rules, plan, events)?;
    let clock = Instant::now();
    // The solution goes to the file to save, or to a temporary file read in
    // place and removed at once (the open file keeps it while it is used).
    let scratch = Scratch::of(rules, request.save.as_deref(), Kind::Work);
    let count = graph.count();
    // Out of core, the cells get what the budget leaves beside the tables now
    // built (the plan counted them as nothing).
    let mut plan = plan.clone();
    let (cell_bytes, spool_bytes) = match plan.mode {
        SolveMode::OutOfCore { .. } => {
            let memory = out_of_core_memory(rules, count, plan.budget, graph.table_bytes())?;
            let cell_bytes = parts_within(&memory, request.part_bytes, plan.budget)?;
            plan.mode = SolveMode::OutOfCore { cell_bytes };
            (cell_bytes, memory.spools)
        }
        _ => (u64::MAX, 0),
    };
    let plan = &plan;
    let disk = DiskPlan {
        dir: scratch.dir.clone(),
        cell_bytes,
        spool_bytes,
        checkpoint_every: Some(checkpoint_every),
    };
    // What a kill leaves: with --save, the work directory a rerun resumes
    // from; without, nothing (the scratch is removed on an interrupt, and what
    // a kill -9 leaves by the next solve).
    let after_a_kill = if scratch.temporary {
        chopsticks_files::remove_on_interrupt(&scratch.dir);
        chopsticks_files::remove_on_interrupt(&scratch.out);
        "removed when the solve ends or is stopped; nothing is resumed without --save FILE"
    } else {
        "a killed solve resumes from there"
    };
    // Out of core, held to its budget, no pilot solve runs first.
    let estimate = match plan.mode {
        SolveMode::OutOfCore { .. } => crate::estimate::reference_solve_seconds(rules, count),
        _ => solve_seconds_estimate(rules, count),
    };
    // Out of core is always said; checkpoints only for solves long enough to
    // write one.
    let long = estimate > checkpoint_every.as_secs_f64();
    match plan.mode {
        SolveMode::OutOfCore { .. } => {
            let disk = out_of_core_disk(count, cell_bytes);
            let free = chopsticks_files::free_bytes(&scratch.dir);
            if let Some(free) = free.filter(|&free| free < disk) {
                return Err(DriverError::Refused(format!(
                    "solving {count} positions out of core needs about {} of disk in {}; {} are free there: free some, or give --save FILE on a disk with room (or TMPDIR for a solve that saves nothing)",
                    human_bytes(disk),
                    scratch.dir.parent().unwrap_or(&scratch.dir).display(),
                    human_bytes(free)
                )));
            }
            events.announce(&format!(
                "solving out of core: about {} needed all in memory, {} allowed; parts of at most {} of working cells, the others in {} (about {} of disk{}; {after_a_kill})",
                human_bytes(plan.in_memory_bytes),
                human_bytes(plan.budget),
                human_bytes(cell_bytes),
                scratch.dir.display(),
                human_bytes(disk),
                free.map_or_else(String::new, |f| format!(", {} free", human_bytes(f)))
            ))
        }
        _ if long => events.announce(&format!(
            "solving in memory, checkpoints {} in {} ({after_a_kill})",
            every_words(checkpoint_every.as_secs()),
            scratch.dir.display()
        )),
        _ => {}
    }
    events.begin("solving: setting up (finished positions)", None);
    let started = Instant::now();
    // The start of the pass under way, for the time left in it.
    let pass = std::sync::Mutex::new((u32::MAX, Instant::now()));
    let solved = parts::solve_to_file(&graph, &disk, &scratch.out, &|p| {
        let part = match p.part {
            Some((done, of)) => {
                let mut pass = pass.lock().unwrap_or_else(|e| e.into_inner());
                if pass.0 != p.level {
                    *pass = (p.level, Instant::now());
                }
                let per_part = pass.1.elapsed().as_secs_f64() / done as f64;
                let left = per_part * (of - done) as f64;
                format!(", part {done} of {of}, about {left:.0} s left in this level")
            }
            None => format!(", {}", time_left(estimate, started.elapsed().as_secs_f64())),
        };
        events.advance(
            p.resolved,
            &format!(
                "solving {count} positions: remoteness {}{part}, wins and losses found",
                p.level
            ),
        );
    });
    events.end();
    let disk_report = match solved {
        Ok(report) => report,
        Err(e) => {
            // Stopped or failed: without --save nothing resumes from the work
            // directory, so nothing of it stays.
            if scratch.temporary {
                let _ = std::fs::remove_dir_all(&scratch.dir);
                let _ = std::fs::remove_file(&scratch.out);
                chopsticks_files::keep_on_interrupt(&scratch.dir);
                chopsticks_files::keep_on_interrupt(&scratch.out);
            }
            return Err(e.into());
        }
    };
    let solved = solved_from_file(rules, graph, &scratch, clock.elapsed())?;
    if scratch.temporary {
        // Gone already: the work directory with the solve, the file once opened.
        chopsticks_files::keep_on_interrupt(&scratch.dir);
        chopsticks_files::keep_on_interrupt(&scratch.out);
    }
    let mut report = SolveReport::new(plan, request);
    report.disk = Some(disk_report);
    report.work_dir = Some(scratch.dir);
    Ok((solved, report))
}

/// Solves the values alone with one-byte cells (`chopsticks_solve::compact`),
/// in memory: when saved, checkpointed in a work directory beside the file
/// and saved by the solve. `None` when the ruleset's positions may have more
/// moves than a one-byte counter holds (the caller solves with two-byte cells).
fn solve_values_only(
    request: &SolveRequest,
    plan: &SolvePlan,
    events: &dyn Events,
) -> Result<Option<(Solved, SolveReport)>, DriverError> {
    let rules = &request.rules;
    let checkpoint_every = request.checkpoint_every;
    let graph = graph_for_plan(rules, plan, events)?;
    if !chopsticks_solve::compact::fits(&graph) {
        return Ok(None);
    }
    let save = request.save.as_deref();
    let checkpoints = save.map(|path| chopsticks_solve::compact::Checkpoints {
        dir: Scratch::of(rules, Some(path), Kind::Work).dir,
        every: checkpoint_every,
    });
    let count = graph.count();
    let long = solve_seconds_estimate(rules, count) > checkpoint_every.as_secs_f64();
    if let (Some(c), true) = (&checkpoints, long) {
        events.announce(&format!(
            "solving the values alone in memory, one byte a position ({}), checkpoints {} in {} (a killed solve resumes from there)",
            human_bytes(plan.in_memory_bytes),
            every_words(checkpoint_every.as_secs()),
            c.dir.display()
        ));
    }
    events.begin("solving: setting up (finished positions)", None);
    let estimate = solve_seconds_estimate(rules, count);
    let clock = Instant::now();
    let solved = Solution::solve_values(&graph, checkpoints.as_ref(), save, &|p| {
        events.advance(
            p.resolved,
            &format!(
                "solving the values of {count} positions: level {}, {}, wins and losses found",
                p.level,
                time_left(estimate, clock.elapsed().as_secs_f64())
            ),
        );
    });
    events.end();
    let (solution, values) = solved?;
    let solved = Solved::new(rules.clone(), graph, solution, clock.elapsed());
    let mut report = SolveReport::new(plan, request);
    report.disk = Some(DiskReport {
        parts: 1,
        resumed_from: values.resumed_from,
        checkpoints: values.checkpoints,
        spooled_bytes: 0,
        kept_files: 0,
    });
    report.work_dir = checkpoints.map(|c| c.dir);
    report.values_only = true;
    report.updates = Some(values.updates);
    Ok(Some((solved, report)))
}
