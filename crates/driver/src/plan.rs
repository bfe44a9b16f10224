//! The memory plan: how a solve will use memory, chosen before it starts.

use chopsticks_rules::text::human_bytes;
use chopsticks_rules::{PositionIndex, Ruleset};
use chopsticks_solve::{Concept, Solution};
use chopsticks_space::{explore_bytes, explore_on_disk_bytes, Graph};

use crate::estimate::{
    announce_if_long, checking_seconds, decided_share, default_budget, ensure_fits,
    exploring_seconds, positions, solving_bytes, solving_seconds_for, values_solving_bytes,
};
use crate::{DriverError, Events};

/// How a solve will use memory, chosen from the estimate before it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveMode {
    /// Every working cell in memory, no files (the fastest).
    InMemory,
    /// Every working cell in memory, with checkpoints in a work directory
    /// (the solution is saved): a killed solve resumes.
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
    /// Bytes allowed (given, else three quarters of what is available).
    pub budget: u64,
    /// Values alone, one byte a position while solving
    /// (`chopsticks_solve::compact`): planned for a solve without remoteness
    /// when it fits in memory (then `mode` is `InMemory` or `Checkpointed`).
    pub values_only: bool,
}

/// Chooses how to solve the `count` positions of `rules` within `memory`
/// bytes (default: three quarters of the available memory), refusing with the
/// estimates what cannot be done. `checkpoints`: a work directory can be kept
/// (the solution is saved). `values_only` (no remoteness kept, two players):
/// solve with one-byte cells in memory when they fit, else as without it.
pub fn plan_solve(
    rules: &Ruleset,
    count: u64,
    memory: Option<u64>,
    checkpoints: bool,
    values_only: bool,
) -> Result<SolvePlan, DriverError> {
    let budget = memory.unwrap_or_else(default_budget);
    let two_players = Concept::of(rules) == Concept::TwoPlayer;
    if values_only && two_players {
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
    let refuse = |text: String| Err(DriverError::Refused(text));
    let mode = if in_memory_bytes <= budget {
        // Checkpoints are the two-player solver's (three or more players are
        // solved in memory, without).
        if checkpoints && two_players {
            SolveMode::Checkpointed
        } else {
            SolveMode::InMemory
        }
    } else {
        if !two_players {
            return refuse(format!(
                "{} needs about {} of memory, more than the {} allowed; \
                 solving out of core is for two players",
                positions("solving", count),
                human_bytes(in_memory_bytes),
                human_bytes(budget)
            ));
        }
        // After the solve: the set of positions summarised (one bit a
        // position, also for the exploration on disk) must fit; the cells get
        // three quarters of the budget.
        let explore = count.div_ceil(8) + (1 << 20);
        if explore >= budget {
            return refuse(format!(
                "{} needs about {} of memory; out of core it still \
                 needs about {} for the summary's set of positions, more than the {} allowed",
                positions("solving", count),
                human_bytes(in_memory_bytes),
                human_bytes(explore),
                human_bytes(budget)
            ));
        }
        let cell_bytes = budget / 4 * 3;
        // A part is at least one row of 64 tiles: 64 multisets of the mover.
        let index = PositionIndex::new(rules)?;
        let row = (0..index.period())
            .map(|seat| 64 * 2 * index.multiset(index.hands_of(seat, 1)).count())
            .max()
            .unwrap_or(0);
        if cell_bytes < row {
            return refuse(format!(
                "{} out of core needs at least {} for one part of \
                 the index (64 rows), more than the {} allowed",
                positions("solving", count),
                human_bytes(row * 4 / 3),
                human_bytes(budget)
            ));
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

/// The move graph of `rules` for a job (`what`, in words) that needs `bytes`
/// and about `seconds`: refused when the memory is not there, announced when
/// long, then built.
pub fn graph_within(
    rules: &Ruleset,
    what: &str,
    bytes: u64,
    seconds: f64,
    events: &dyn Events,
) -> Result<Graph, DriverError> {
    ensure_fits(bytes, what)?;
    announce_if_long(what, bytes, seconds, events);
    Ok(Graph::new(rules)?)
}

/// The move graph for a solve planned by [`plan_solve`]: checked against the
/// memory the plan will really use, and announced when long.
pub fn graph_for_plan(
    rules: &Ruleset,
    plan: &SolvePlan,
    events: &dyn Events,
) -> Result<Graph, DriverError> {
    let count = PositionIndex::new(rules)?.count();
    let (bytes, what) = match plan.mode {
        SolveMode::OutOfCore { cell_bytes } => (
            cell_bytes.min(2 * count).max(explore_on_disk_bytes(count)),
            format!("{} out of core", positions("solving", count)),
        ),
        _ => (plan.in_memory_bytes, positions("solving", count)),
    };
    graph_within(
        rules,
        &what,
        bytes,
        solving_seconds_for(rules, count),
        events,
    )
}

/// The move graph of a ruleset to explore (`stats`, a solve's summary,
/// benchmarks).
pub fn graph_for_exploring(rules: &Ruleset, events: &dyn Events) -> Result<Graph, DriverError> {
    let count = PositionIndex::new(rules)?.count();
    graph_within(
        rules,
        &positions("exploring", count),
        explore_bytes(count),
        exploring_seconds(count),
        events,
    )
}

/// The move graph of a ruleset to solve in memory and then explore.
pub fn graph_for_solving(rules: &Ruleset, events: &dyn Events) -> Result<Graph, DriverError> {
    let count = PositionIndex::new(rules)?.count();
    graph_within(
        rules,
        &positions("solving", count),
        solving_bytes(rules, count),
        solving_seconds_for(rules, count),
        events,
    )
}

/// The move graph of the ruleset of a saved solution to check against the
/// rules (`check`), sized like the others and announced with an estimate
/// from the branching of a sample of positions and the share of them the
/// table decides.
pub fn graph_for_checking(solution: &Solution, events: &dyn Events) -> Result<Graph, DriverError> {
    let rules = solution.rules();
    let count = PositionIndex::new(rules)?.count();
    let what = positions("checking", count);
    let bytes = explore_bytes(count);
    ensure_fits(bytes, &what)?;
    let graph = Graph::new(rules)?;
    let seconds = checking_seconds(&graph, decided_share(solution));
    announce_if_long(&what, bytes, seconds, events);
    Ok(graph)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(rules: &Ruleset) -> u64 {
        PositionIndex::new(rules).unwrap().count()
    }

    #[test]
    fn the_mode_follows_the_memory_allowed() {
        let rules = Ruleset::default();
        let n = count(&rules);
        let plan = plan_solve(&rules, n, Some(1 << 30), false, false).unwrap();
        assert_eq!(plan.mode, SolveMode::InMemory);
        assert!(!plan.values_only);
        let plan = plan_solve(&rules, n, Some(1 << 30), true, false).unwrap();
        assert_eq!(plan.mode, SolveMode::Checkpointed);
        let plan = plan_solve(&rules, n, Some(1 << 30), true, true).unwrap();
        assert!(plan.values_only);
        assert_eq!(plan.in_memory_bytes, values_solving_bytes(n));
    }

    #[test]
    fn too_little_memory_for_one_part_is_refused_with_the_estimate() {
        let rules = Ruleset::from_variant_id("standard.h6.f10").unwrap();
        let n = count(&rules);
        let needed = solving_bytes(&rules, n);
        let budget = needed / 2;
        match plan_solve(&rules, n, Some(budget), false, false) {
            Ok(plan) => assert!(matches!(plan.mode, SolveMode::OutOfCore { .. })),
            Err(e) => panic!("{e}"),
        }
        let refused = plan_solve(&rules, n, Some(64), false, false).unwrap_err();
        let text = refused.to_string();
        assert!(text.contains("allowed"), "{text}");
        assert!(text.contains(&chopsticks_rules::text::count(n)), "{text}");
    }

    #[test]
    fn three_players_are_never_solved_out_of_core() {
        let rules = Ruleset::from_variant_id("standard.p3").unwrap();
        let n = count(&rules);
        let refused = plan_solve(&rules, n, Some(1024), false, false).unwrap_err();
        assert!(refused
            .to_string()
            .contains("out of core is for two players"));
    }
}
