//! Large work, sized before it starts: the move graph for exploring or solving a
//! ruleset is built only after the memory it needs is known to fit (else the job is
//! refused with the estimate), and work expected to take longer than
//! [`ANNOUNCE_AFTER`] is announced on stderr with its memory and time estimate
//! before it starts. Shared by every command that explores or solves.

use std::time::Duration;

use anyhow::Result;
use chopsticks_rules::{Position, PositionIndex, Ruleset};
use chopsticks_solve::Concept;
use chopsticks_space::{explore_bytes, explore_on_disk_bytes, BitSet, Graph, Statistics};

use crate::memory::{ensure_fits, human_bytes};
use crate::progress;

/// Positions explored per second on the reference machine (2 cores; docs/PERFORMANCE.md:
/// 25 M positions in 2.1 s, the 591 M of 2 × 8 hands in 95 s).
const EXPLORE_RATE: f64 = 6.0e6;
/// Positions solved per second on the reference machine: about 120 M/s on the
/// rollover variants (mostly draws), 6 M/s on cutoff ones with more wins and
/// losses (docs/PERFORMANCE.md); a cautious middle figure.
const SOLVE_RATE: f64 = 8.0e6;
/// States (a position and a seat) solved per second by the solver of three or more
/// players on the reference machine (measured: docs/PERFORMANCE.md).
const MULTI_SOLVE_RATE: f64 = 2.0e6;
/// Work expected to take longer than this is announced before it starts.
pub const ANNOUNCE_AFTER: Duration = Duration::from_secs(10);

/// The rates above scaled to this machine's worker threads (measured with two).
fn scaled(rate: f64) -> f64 {
    rate * rayon::current_num_threads().max(1) as f64 / 2.0
}

/// `40 s`, `17 min`, `3.2 h`.
fn human_duration(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// Seconds to solve `count` positions and explore them from a start, estimated.
pub fn solving_seconds(count: u64) -> f64 {
    count as f64 / scaled(SOLVE_RATE) + count as f64 / scaled(EXPLORE_RATE)
}

/// Announces work estimated to take longer than [`ANNOUNCE_AFTER`] on stderr, with
/// its memory and time estimate (unless `quiet`).
pub fn announce_if_long(what: &str, bytes: u64, seconds: f64, quiet: bool) {
    if seconds > ANNOUNCE_AFTER.as_secs_f64() {
        progress::announce(
            &format!(
                "{what}: about {} of memory and roughly {} on this machine (an estimate); \
                 progress follows on stderr (--quiet hides it)",
                human_bytes(bytes),
                human_duration(seconds)
            ),
            quiet,
        );
    }
}

/// Checks memory, announces long work, and builds the move graph.
fn prepare(rules: &Ruleset, what: &str, bytes: u64, seconds: f64, quiet: bool) -> Result<Graph> {
    ensure_fits(bytes, what)?;
    announce_if_long(what, bytes, seconds, quiet);
    Ok(Graph::new(rules)?)
}

/// The move graph of a ruleset to explore (`stats`, `solve`'s summary, benchmarks).
pub fn graph_for_exploring(rules: &Ruleset, quiet: bool) -> Result<Graph> {
    let count = PositionIndex::new(rules)?.count();
    let seconds = count as f64 / scaled(EXPLORE_RATE);
    let what = format!("exploring {} positions", crate::text::count(count));
    prepare(rules, &what, explore_bytes(count), seconds, quiet)
}

/// Children checked per second by `chopsticks check` on one thread of the
/// reference machine (the cost of a check is reading each position's children:
/// measured on 2 × 6 hands at F = 10, cutoff and rollover, 25 M positions,
/// 1.5 × 10^7 children a second a thread, from the user time).
const CHECK_CHILD_RATE: f64 = 1.5e7;

/// The move graph of a ruleset whose saved solution is checked against the rules
/// (`check`), sized like the others and announced with an estimate from the
/// children of a sample of positions (how long a check takes depends on the
/// branching far more than on the count).
pub fn graph_for_checking(rules: &Ruleset, quiet: bool) -> Result<Graph> {
    let count = PositionIndex::new(rules)?.count();
    let what = format!("checking {} positions", crate::text::count(count));
    let bytes = explore_bytes(count);
    ensure_fits(bytes, &what)?;
    let graph = Graph::new(rules)?;
    let width = Concept::of(rules).width(rules.players()) as f64;
    let children = mean_children(&graph) * count as f64 * width;
    let seconds = children / (CHECK_CHILD_RATE * rayon::current_num_threads().max(1) as f64);
    announce_if_long(&what, bytes, seconds, quiet);
    Ok(graph)
}

/// The mean number of children over 4,096 positions spread evenly over the index.
fn mean_children(graph: &Graph) -> f64 {
    let count = graph.count();
    let samples = count.min(4096);
    if samples == 0 {
        return 0.0;
    }
    let mut children = 0u64;
    for k in 0..samples {
        graph.for_each_child(k * (count / samples), |_| children += 1);
    }
    // Every position costs a visit even without children.
    1.0 + children as f64 / samples as f64
}

/// Bytes to solve the `count` positions of `rules` (working cells and the
/// reachable set), in the common case: [`chopsticks_solve::solve_memory`], the
/// estimate the server sizes its cache by too. A remoteness past 126 doubles
/// the cells of more than two players; that is not known in advance, so the
/// estimate is of the common case and the refusal of the certain one.
pub fn solving_bytes(rules: &Ruleset, count: u64) -> u64 {
    chopsticks_solve::solve_memory(rules, count).bytes
}

/// Bytes to solve the values alone of `count` positions of a two-player
/// ruleset with one-byte cells (`chopsticks_solve::compact`): the cells and the
/// two-bit result, and the reachable set as in [`solving_bytes`].
pub fn values_solving_bytes(count: u64) -> u64 {
    chopsticks_solve::compact::values_solve_bytes(count) + count / 4
}

/// Seconds to solve (only) the `count` positions of `rules` in memory,
/// estimated from the rates measured on the reference machine.
pub fn solve_seconds_estimate(rules: &Ruleset, count: u64) -> f64 {
    match Concept::of(rules) {
        Concept::TwoPlayer => count as f64 / scaled(SOLVE_RATE),
        concept => count as f64 * concept.width(rules.players()) as f64 / scaled(MULTI_SOLVE_RATE),
    }
}

/// Seconds to solve and explore `count` positions of `rules`, estimated.
pub fn solving_seconds_for(rules: &Ruleset, count: u64) -> f64 {
    let states = count as f64 * Concept::of(rules).width(rules.players()) as f64;
    match Concept::of(rules) {
        Concept::TwoPlayer => solving_seconds(count),
        _ => states / scaled(MULTI_SOLVE_RATE) + count as f64 / scaled(EXPLORE_RATE),
    }
}

/// The move graph of a ruleset to solve and then explore.
pub fn graph_for_solving(rules: &Ruleset, quiet: bool) -> Result<Graph> {
    let count = PositionIndex::new(rules)?.count();
    let what = format!("solving {} positions", crate::text::count(count));
    prepare(
        rules,
        &what,
        solving_bytes(rules, count),
        solving_seconds_for(rules, count),
        quiet,
    )
}

/// Explores from `start` with progress: the figures of `chopsticks stats`.
pub fn explore_with_progress(graph: &Graph, start: &Position, quiet: bool) -> Statistics {
    let bar = progress::bar(graph.count(), "exploring", quiet);
    let stats = Statistics::compute(graph, graph.index_of(start), &|p| {
        bar.set_position(p.reached);
        bar.set_message(format!("exploring, depth {}", p.depth));
    });
    bar.finish_and_clear();
    stats
}

/// The positions reachable from `start`, for a summary: explored in memory
/// (three bits a position) when that fits in three quarters of the available
/// memory and `on_disk` is not asked for, else with one bit a position in
/// memory and the layers found from snapshots written to `dir`
/// (`chopsticks_space::explore_on_disk`; the directory is removed after).
/// Returns the set and whether it was explored on disk.
pub fn reachable_set(
    graph: &Graph,
    start: &Position,
    on_disk: bool,
    dir: &std::path::Path,
    quiet: bool,
) -> Result<(BitSet, bool)> {
    let count = graph.count();
    let fits = crate::memory::available_bytes().is_none_or(|a| explore_bytes(count) <= a / 4 * 3);
    if !on_disk && fits {
        return Ok((
            explore_with_progress(graph, start, quiet)
                .exploration
                .reached,
            false,
        ));
    }
    ensure_fits(
        explore_on_disk_bytes(count),
        &format!(
            "exploring {} positions with one bit a position in memory",
            crate::text::count(count)
        ),
    )?;
    progress::announce(
        &format!(
            "exploring from the start with one bit a position in memory ({}), the layers found from snapshots in {}",
            human_bytes(explore_on_disk_bytes(count)),
            dir.display()
        ),
        quiet,
    );
    let bar = progress::bar(count, "exploring", quiet);
    let explored = chopsticks_space::explore_on_disk(graph, graph.index_of(start), dir, &|p| {
        bar.set_position(p.reached);
        bar.set_message(format!("exploring on disk, depth {}", p.depth));
    });
    bar.finish_and_clear();
    let _ = std::fs::remove_dir(dir);
    let explored = explored
        .map_err(|e| anyhow::anyhow!("exploring with snapshots in {}: {e}", dir.display()))?;
    Ok((explored.reached, true))
}

/// How a solve will use memory, chosen from the estimate before it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveMode {
    /// Every working cell in memory, no files (the fastest).
    InMemory,
    /// Every working cell in memory, with checkpoints in a work directory
    /// (`solve --save`): a killed solve resumes.
    Checkpointed,
    /// The cells in parts of at most `cell_bytes`, one in memory at a time, the
    /// others on disk (see `chopsticks_solve::parts`).
    OutOfCore { cell_bytes: u64 },
}

/// The choice of [`SolveMode`] and what it rests on.
#[derive(Clone, Debug)]
pub struct SolvePlan {
    pub mode: SolveMode,
    /// Bytes the solve would need all in memory.
    pub in_memory_bytes: u64,
    /// Bytes allowed (`--memory`, else three quarters of what is available).
    pub budget: u64,
    /// Values alone, one byte a position while solving
    /// (`chopsticks_solve::compact`): planned for `--no-remoteness` when it
    /// fits in memory (then `mode` is `InMemory` or `Checkpointed`).
    pub values_only: bool,
}

/// Chooses how to solve the `count` positions of `rules` within `memory`
/// bytes (default: three quarters of the available memory), refusing with the
/// estimates what cannot be done. `checkpoints`: a work directory can be kept
/// (the solution is saved). `values_only` (`--no-remoteness`, two players):
/// solve with one-byte cells in memory when they fit, else as without it.
pub fn plan_solve(
    rules: &Ruleset,
    count: u64,
    memory: Option<u64>,
    checkpoints: bool,
    values_only: bool,
) -> Result<SolvePlan> {
    let budget =
        memory.unwrap_or_else(|| crate::memory::available_bytes().map_or(u64::MAX, |a| a / 4 * 3));
    if values_only && Concept::of(rules) == Concept::TwoPlayer {
        let in_memory_bytes = values_solving_bytes(count);
        if in_memory_bytes <= budget {
            return Ok(SolvePlan {
                mode: if checkpoints {
                    SolveMode::Checkpointed
                } else {
                    SolveMode::InMemory
                },
                in_memory_bytes,
                budget,
                values_only: true,
            });
        }
    }
    let in_memory_bytes = solving_bytes(rules, count);
    let mode = if in_memory_bytes <= budget {
        // Checkpoints are the two-player solver's (three or more players are
        // solved in memory, without).
        if checkpoints && Concept::of(rules) == Concept::TwoPlayer {
            SolveMode::Checkpointed
        } else {
            SolveMode::InMemory
        }
    } else {
        if Concept::of(rules) != Concept::TwoPlayer {
            anyhow::bail!(
                "solving {} positions needs about {} of memory, more than the {} allowed; \
                 solving out of core is for two players",
                crate::text::count(count),
                human_bytes(in_memory_bytes),
                human_bytes(budget)
            );
        }
        // After the solve: the set of positions summarised (one bit a
        // position, also for the exploration on disk) must fit; the cells get
        // three quarters of the budget.
        let explore = count.div_ceil(8) + (1 << 20);
        if explore >= budget {
            anyhow::bail!(
                "solving {} positions needs about {} of memory; out of core it still \
                 needs about {} for the summary's set of positions, more than the {} allowed",
                crate::text::count(count),
                human_bytes(in_memory_bytes),
                human_bytes(explore),
                human_bytes(budget)
            );
        }
        let cell_bytes = budget / 4 * 3;
        // A part is at least one row of 64 tiles: 64 multisets of the mover.
        let index = PositionIndex::new(rules)?;
        let row = (0..index.period())
            .map(|seat| 64 * 2 * index.multiset(index.hands_of(seat, 1)).count())
            .max()
            .unwrap_or(0);
        if cell_bytes < row {
            anyhow::bail!(
                "solving {} positions out of core needs at least {} for one part of \
                 the index (64 rows), more than the {} allowed",
                crate::text::count(count),
                human_bytes(row * 4 / 3),
                human_bytes(budget)
            );
        }
        SolveMode::OutOfCore { cell_bytes }
    };
    Ok(SolvePlan {
        mode,
        in_memory_bytes,
        budget,
        values_only: false,
    })
}

/// The move graph for a solve planned by [`plan_solve`]: checked against the
/// memory the plan will really use, and announced when long.
pub fn graph_for_plan(rules: &Ruleset, plan: &SolvePlan, quiet: bool) -> Result<Graph> {
    let count = PositionIndex::new(rules)?.count();
    let (bytes, what) = match plan.mode {
        SolveMode::OutOfCore { cell_bytes } => (
            cell_bytes.min(2 * count).max(explore_on_disk_bytes(count)),
            format!(
                "solving {} positions out of core",
                crate::text::count(count)
            ),
        ),
        _ => (
            plan.in_memory_bytes,
            format!("solving {} positions", crate::text::count(count)),
        ),
    };
    prepare(
        rules,
        &what,
        bytes,
        solving_seconds_for(rules, count),
        quiet,
    )
}
