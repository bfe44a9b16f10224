//! Large work, sized before it starts, for the commands: the driver's
//! (`chopsticks_driver`) graphs and estimates with progress shown on stderr
//! (nothing with `quiet`). The move graph for exploring, solving or checking
//! a ruleset is built only after the memory it needs is known to fit (else
//! the job is refused with the estimate), and long work is announced with its
//! memory and time estimate before it starts.

use anyhow::Result;
use chopsticks_rules::{Position, Ruleset};
use chopsticks_space::{Graph, Statistics};

use crate::progress::Shown;

pub use chopsticks_driver::estimate::{solving_bytes, solving_seconds};

/// Announces work estimated to take long on stderr, with its memory and time
/// estimate (unless `quiet`).
pub fn announce_if_long(what: &str, bytes: u64, seconds: f64, quiet: bool) {
    chopsticks_driver::estimate::announce_if_long(what, bytes, seconds, &Shown::new(quiet));
}

/// The move graph of a ruleset to explore (`stats`, benchmarks).
pub fn graph_for_exploring(rules: &Ruleset, quiet: bool) -> Result<Graph> {
    Ok(chopsticks_driver::graph_for_exploring(
        rules,
        &Shown::new(quiet),
    )?)
}

/// The move graph of a ruleset whose saved solution is checked against the
/// rules (`check`).
pub fn graph_for_checking(solution: &chopsticks_solve::Solution, quiet: bool) -> Result<Graph> {
    Ok(chopsticks_driver::graph_for_checking(
        solution,
        &Shown::new(quiet),
    )?)
}

/// The move graph of a ruleset to solve and then explore.
pub fn graph_for_solving(rules: &Ruleset, quiet: bool) -> Result<Graph> {
    Ok(chopsticks_driver::graph_for_solving(
        rules,
        &Shown::new(quiet),
    )?)
}

/// Explores from `start` with progress: the figures of `chopsticks stats`.
pub fn explore_with_progress(graph: &Graph, start: &Position, quiet: bool) -> Statistics {
    chopsticks_driver::explore(graph, start, &Shown::new(quiet))
}
