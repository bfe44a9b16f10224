//! Large work, sized before it starts: the move graph for exploring or solving a
//! ruleset is built only after the memory it needs is known to fit (else the job is
//! refused with the estimate), and work expected to take longer than
//! [`ANNOUNCE_AFTER`] is announced on stderr with its memory and time estimate
//! before it starts. Shared by every command that explores or solves.

use std::time::Duration;

use anyhow::Result;
use chopsticks_rules::{Position, PositionIndex, Ruleset};
use chopsticks_solve::solve_bytes;
use chopsticks_space::{explore_bytes, Graph, Statistics};

use crate::memory::{ensure_fits, human_bytes};
use crate::progress;

/// Positions explored per second on the reference machine (2 cores; docs/PERFORMANCE.md:
/// 25 M positions in 9.2 s, 0.76 M in 0.2 s).
const EXPLORE_RATE: f64 = 2.5e6;
/// Positions solved per second on the reference machine (25 M positions in 6.2 s).
const SOLVE_RATE: f64 = 4.0e6;
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
    let what = format!("exploring {count} positions");
    prepare(rules, &what, explore_bytes(count), seconds, quiet)
}

/// Bytes to solve `count` positions (working cells and the reachable set).
pub fn solving_bytes(count: u64) -> u64 {
    solve_bytes(count) + count / 4
}

/// The move graph of a two-player ruleset to solve and then explore.
pub fn graph_for_solving(rules: &Ruleset, quiet: bool) -> Result<Graph> {
    if rules.players() != 2 {
        anyhow::bail!(
            "the solver handles two players; this ruleset has {}",
            rules.players()
        );
    }
    let count = PositionIndex::new(rules)?.count();
    let what = format!("solving {count} positions");
    prepare(
        rules,
        &what,
        solving_bytes(count),
        solving_seconds(count),
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
