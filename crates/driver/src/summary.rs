//! The summary of a solution: its outcomes counted over the positions
//! reachable from a start, or over the whole index.

use std::path::Path;

use chopsticks_distributed::ReachCounts;
use chopsticks_rules::text::human_bytes;
use chopsticks_rules::Position;
use chopsticks_solve::{SeatCounts, Solved, Summary};
use chopsticks_space::{explore_bytes, explore_on_disk_bytes, BitSet, Graph, Statistics};

use crate::estimate::{default_budget, ensure_fits, positions};
use crate::plan::program_bytes;
use crate::{DriverError, Events};

/// Which positions a summary counts.
#[derive(Clone, Copy, Debug)]
pub enum Reach<'a> {
    /// Every position of the index, reachable or not.
    Index,
    /// Those reachable from the start, explored here: in memory (three bits a
    /// position) when that fits in `memory` bytes (default: three quarters
    /// of the available memory) beside what is held already (the program, the
    /// move tables, the solution's table) and `on_disk` is not asked for, else
    /// with one bit a position in memory and the layers found from snapshots
    /// written to `dir` (removed after).
    Explored {
        on_disk: bool,
        memory: Option<u64>,
        dir: &'a Path,
    },
    /// Those reachable from the start, counted already by the workers of a
    /// distributed solve (two players).
    Counted(&'a ReachCounts),
}

/// A summary and how its positions were found.
#[derive(Clone, Debug)]
pub struct SummaryOf {
    pub summary: Summary,
    /// The reachable positions were explored on disk.
    pub explored_on_disk: bool,
}

/// Explores `graph` from `start` with progress: the figures of `chopsticks
/// stats`.
pub fn explore(graph: &Graph, start: &Position, events: &dyn Events) -> Statistics {
    events.begin("exploring", Some(graph.count()));
    let stats = Statistics::compute(graph, graph.index_of(start), &|p| {
        events.advance(p.reached, &format!("exploring, depth {}", p.depth));
    });
    events.end();
    stats
}

/// The positions reachable from `start`, explored as [`Reach::Explored`]
/// says. Returns the set and whether it was explored on disk.
pub fn reachable_set(
    graph: &Graph,
    start: &Position,
    on_disk: bool,
    memory: u64,
    dir: &Path,
    events: &dyn Events,
) -> Result<(BitSet, bool), DriverError> {
    let count = graph.count();
    if !on_disk && explore_bytes(count) <= memory {
        crate::estimate::announce_if_long(
            &positions("exploring", count),
            crate::estimate::exploring_resident_bytes(count),
            crate::estimate::exploring_seconds(count),
            events,
        );
        return Ok((explore(graph, start, events).exploration.reached, false));
    }
    ensure_fits(
        explore_on_disk_bytes(count),
        &format!(
            "{} with one bit a position in memory",
            positions("exploring", count)
        ),
    )?;
    events.announce(&format!(
        "exploring from the start with one bit a position in memory ({}), the layers found from snapshots in {}",
        human_bytes(explore_on_disk_bytes(count)),
        dir.display()
    ));
    events.begin("exploring", Some(count));
    // Nothing resumes an exploration: its snapshots go with an interrupt.
    chopsticks_files::remove_on_interrupt(dir);
    let explored = chopsticks_space::explore_on_disk(graph, graph.index_of(start), dir, &|p| {
        events.advance(p.reached, &format!("exploring on disk, depth {}", p.depth));
    });
    events.end();
    chopsticks_files::keep_on_interrupt(dir);
    let _ = std::fs::remove_dir(dir);
    let explored = explored.map_err(DriverError::io(format!(
        "exploring with snapshots in {}",
        dir.display()
    )))?;
    Ok((explored.reached, true))
}

/// Counts the outcomes of `solved` over the positions `reach` names, with the
/// outcome of `start`.
pub fn summarise(
    solved: &Solved,
    start: &Position,
    reach: Reach<'_>,
    events: &dyn Events,
) -> Result<SummaryOf, DriverError> {
    let graph = solved.graph()?;
    let start_index = graph.index_of(start);
    let solution = &solved.solution;
    let (reached, explored_on_disk) = match reach {
        Reach::Counted(counts) => {
            // Two players: the second seat has the first's wins as losses.
            let summary = Summary {
                reachable: counts.reachable,
                win: counts.win,
                lose: counts.lose,
                draw: counts.draw,
                terminal: counts.terminal,
                start: solution.outcome_at(start_index)?,
                start_seats: solution.seat_outcomes_at(start_index)?,
                seats: SeatCounts::of_sides(counts.win, counts.lose, counts.draw, 2),
                longest_win: counts.longest_win,
            };
            return Ok(SummaryOf {
                summary,
                explored_on_disk: false,
            });
        }
        Reach::Index => (BitSet::full(graph.count()), false),
        Reach::Explored {
            on_disk,
            memory,
            dir,
        } => {
            // What the exploration may take: the budget, less what is held
            // (the table read in place holds a slice of itself at a time).
            let slice = match solution.table().is_paged() {
                true => chopsticks_solve::slice_bytes(graph.count()),
                false => 0,
            };
            let table = solution.table().resident_bytes() + slice;
            let held = program_bytes() + graph.table_bytes() + table;
            let memory = memory.unwrap_or_else(default_budget).saturating_sub(held);
            reachable_set(graph, start, on_disk, memory, dir, events)?
        }
    };
    Ok(SummaryOf {
        summary: Summary::new(graph, solution, &reached, start_index)?,
        explored_on_disk,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chopsticks_rules::Ruleset;

    #[test]
    fn explored_in_memory_and_on_disk_alike() {
        let solved = Solved::solve(Ruleset::from_variant_id("rollover").unwrap()).unwrap();
        let start = Position::start(&solved.rules);
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("x.explore");
        let in_memory = summarise(
            &solved,
            &start,
            Reach::Explored {
                on_disk: false,
                memory: None,
                dir: &dir,
            },
            &crate::Silent,
        )
        .unwrap();
        let on_disk = summarise(
            &solved,
            &start,
            Reach::Explored {
                on_disk: true,
                memory: None,
                dir: &dir,
            },
            &crate::Silent,
        )
        .unwrap();
        assert!(!in_memory.explored_on_disk);
        assert!(on_disk.explored_on_disk);
        assert_eq!(in_memory.summary, on_disk.summary);
        assert!(!dir.exists());
        // Rollover at F = 5 with transfers and divisions: 204 positions
        // reachable from the start (Wikipedia; REFERENCE.md), fewer than the index.
        let index = summarise(&solved, &start, Reach::Index, &crate::Silent).unwrap();
        assert_eq!(in_memory.summary.reachable, 204);
        assert!(index.summary.reachable > 204);
        assert_eq!(index.summary.start, in_memory.summary.start);
    }
}
