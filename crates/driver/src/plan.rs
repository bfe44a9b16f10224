//! The memory plan: how a solve will use memory, chosen before it starts.

use chopsticks_rules::text::human_bytes;
use chopsticks_rules::{PositionIndex, Ruleset};
use chopsticks_solve::{Concept, Solution};
use chopsticks_space::{explore_bytes, explore_on_disk_bytes, Graph};

use crate::estimate::{
    announce_if_long, checking_seconds, decided_share, default_budget, ensure_fits,
    expected_resident_bytes, exploring_seconds, positions, solve_seconds_estimate, solving_bytes,
    values_solving_bytes,
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
/// `part_bytes`: out of core in parts of at most that many bytes of working
/// cells, even when the whole would fit in memory (two players).
pub fn plan_solve(
    rules: &Ruleset,
    count: u64,
    memory: Option<u64>,
    checkpoints: bool,
    values_only: bool,
    part_bytes: Option<u64>,
) -> Result<SolvePlan, DriverError> {
    let budget = memory.unwrap_or_else(default_budget);
    let two_players = Concept::of(rules) == Concept::TwoPlayer;
    if part_bytes.is_some() && !two_players {
        return Err(DriverError::Refused(
            "--part-size is for two players: three or more are solved in memory".into(),
        ));
    }
    if values_only && two_players && part_bytes.is_none() {
        let in_memory_bytes = values_solving_bytes(count);
        if in_memory_bytes + program_bytes() <= budget {
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
    let mode = if in_memory_bytes + program_bytes() <= budget && part_bytes.is_none() {
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
                "{} needs about {} of memory with the program's own {}, more than the {} allowed; \
                 solving out of core is for two players",
                positions("solving", count),
                human_bytes(in_memory_bytes + program_bytes()),
                human_bytes(program_bytes()),
                human_bytes(budget)
            ));
        }
        // The move tables are counted once the graph is built
        // (`out_of_core_memory` again, in the solve): here, what the budget
        // must hold whatever they take, and a `--part-size` that cannot fit
        // even beside no tables is refused before the graph is built.
        let memory = out_of_core_memory(rules, count, budget, 0)?;
        let cell_bytes = parts_within(&memory, part_bytes, budget)?;
        SolveMode::OutOfCore { cell_bytes }
    };
    Ok(SolvePlan {
        mode,
        in_memory_bytes,
        budget,
        values_only: false,
    })
}

/// The program itself, resident whatever it does: its code (about 7 MiB of
/// the binary read in), and for each thread of the solver's pool its stack
/// and its arena of the allocator, counted as 1 MiB. Measured on rollover.h6.f10
/// out of core with 2 threads: 12 MiB of resident memory beyond the heap's
/// peak (docs/PERFORMANCE.md).
pub fn program_bytes() -> u64 {
    (10 << 20) + rayon::current_num_threads() as u64 * (1 << 20)
}

/// Buffers of an out-of-core solve's reads and writes (a part's cells, a
/// spool applied, the solution saved): a few mebibytes, counted as four.
const IO_BYTES: u64 = 4 << 20;

/// How an out-of-core solve shares its memory budget: what it holds beside its
/// working cells, and the cells get the rest. Every figure is bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfCoreMemory {
    /// The program itself ([`program_bytes`]).
    pub program: u64,
    /// The move tables.
    pub tables: u64,
    /// The tiles and their two marks.
    pub tiles: u64,
    /// The spools' buffers, all together (a sixteenth of the budget, at most
    /// [`chopsticks_solve::parts::SPOOL_BATCH`] for each of the `2 k` spools).
    pub spools: u64,
    /// The buffers of reads and writes.
    pub io: u64,
    /// The working cells of the part in memory, at most.
    pub cells: u64,
    /// The least a part takes: one row of tiles.
    pub row: u64,
    /// After the solve, when the cells are gone: the summary's exploration
    /// of the positions reached (in memory or on disk, whichever takes less)
    /// and its slice of the table, beside the program and the tables.
    pub summary: u64,
}

/// How an out-of-core solve of the `count` positions of `rules` shares
/// `budget` bytes with move tables of `tables` bytes; refused, with what it
/// would need, when no part of the index fits beside the rest or the summary
/// after the solve does not.
pub fn out_of_core_memory(
    rules: &Ruleset,
    count: u64,
    budget: u64,
    tables: u64,
) -> Result<OutOfCoreMemory, DriverError> {
    let index = PositionIndex::new(rules)?;
    let tiles = chopsticks_space::TileMap::count_for(&index)
        * (std::mem::size_of::<chopsticks_space::Tile>() as u64 + 8);
    let spools = budget / 16;
    let program = program_bytes();
    let fixed = program + tables + tiles + spools + IO_BYTES;
    // The reachable set is explored in memory when that fits, else on disk
    // (chunks of its snapshots beside one bit a position): the lesser.
    let explore = explore_bytes(count).min(explore_on_disk_bytes(count));
    let summary = explore + chopsticks_solve::slice_bytes(count);
    // A part is at least one row of tiles: 64 multisets of the mover (or all
    // of them, when fewer).
    let row = (0..index.period())
        .map(|seat| {
            let rows = index.multiset(index.hands_of(seat, 0)).count().min(64);
            rows * 2 * index.multiset(index.hands_of(seat, 1)).count()
        })
        .max()
        .unwrap_or(0);
    let cells = budget.saturating_sub(fixed);
    let tables_text = if tables == 0 {
        "not counted yet".to_string()
    } else {
        human_bytes(tables)
    };
    let least = |what: &str, needed: u64, parts: &str| {
        Err(DriverError::Refused(format!(
            "{} needs about {} of memory all in memory, and {} for the program beside; out of \
             core it needs at least {}{}, more than the {} allowed: {what} ({parts})",
            positions("solving", count),
            human_bytes(solving_bytes(rules, count)),
            human_bytes(program),
            human_bytes(needed),
            if tables == 0 {
                " and its move tables"
            } else {
                ""
            },
            human_bytes(budget),
        )))
    };
    // The least budget for one part: `b` with `b - b / 16 - rest ≥ row` (the
    // spools take a sixteenth of it); for the summary after the solve.
    let for_a_part = (fixed - spools + row) * 16 / 15 + 1;
    let for_the_summary = program + tables + summary;
    if cells < row || for_the_summary > budget {
        return if for_a_part >= for_the_summary {
            least(
                &format!("one part of the index (64 rows) takes {}", human_bytes(row)),
                for_a_part,
                &format!(
                    "beside the program {}, the move tables {tables_text}, the tiles {}, the \
                     buffers {} and the spools, a sixteenth of the budget",
                    human_bytes(program),
                    human_bytes(tiles),
                    human_bytes(IO_BYTES)
                ),
            )
        } else {
            least(
                &format!(
                    "after the solve, its summary takes {} for the set of positions reached and a slice of the table",
                    human_bytes(summary)
                ),
                for_the_summary,
                &format!(
                    "beside the program {} and the move tables {tables_text}",
                    human_bytes(program)
                ),
            )
        };
    }
    Ok(OutOfCoreMemory {
        program,
        tables,
        tiles,
        spools,
        io: IO_BYTES,
        cells,
        row,
        summary,
    })
}

impl OutOfCoreMemory {
    /// The most the solve holds at once with parts of `cell_bytes` of working
    /// cells: everything beside the cells and the cells while it solves, or
    /// the summary after (whichever is more).
    pub fn needed(&self, cell_bytes: u64) -> u64 {
        let solving = self.program + self.tables + self.tiles + self.spools + self.io;
        solving
            .saturating_add(cell_bytes)
            .max(self.program + self.tables + self.summary)
    }
}

/// The bytes of working cells a part may take out of core: `part_bytes` when
/// asked (refused when it does not fit beside the rest in `budget`, or is
/// smaller than one row of tiles), else all the cells `memory` leaves.
pub fn parts_within(
    memory: &OutOfCoreMemory,
    part_bytes: Option<u64>,
    budget: u64,
) -> Result<u64, DriverError> {
    match part_bytes {
        None => Ok(memory.cells),
        Some(part) if part > memory.cells => Err(DriverError::Refused(format!(
            "parts of {} of working cells do not fit in the {} of memory allowed: at most {} \
             ({} bytes) beside the program, the move tables and the buffers",
            human_bytes(part),
            human_bytes(budget),
            human_bytes(memory.cells),
            chopsticks_rules::text::count(memory.cells)
        ))),
        Some(part) if part < memory.row => Err(DriverError::Refused(format!(
            "a part holds at least one row of tiles (64 multisets of the mover): {}, more than the --part-size of {}",
            human_bytes(memory.row),
            human_bytes(part)
        ))),
        Some(part) => Ok(part),
    }
}

/// What a job announces before it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Announcement {
    /// The job, in words (`solving 1,234 positions`).
    pub what: String,
    /// The most memory it may take: refused where the machine lacks it.
    pub at_most: u64,
    /// The resident memory it is expected to reach: what is announced.
    pub bytes: u64,
    /// The seconds it is expected to take: what is announced.
    pub seconds: f64,
}

/// What a solve planned by [`plan_solve`] announces: the memory the plan
/// will really use and its expected resident share, and its time.
pub fn solve_announcement(rules: &Ruleset, plan: &SolvePlan) -> Result<Announcement, DriverError> {
    let count = PositionIndex::new(rules)?.count();
    let (at_most, what) = solve_at_most(rules, plan, count)?;
    Ok(announced(rules, plan, count, at_most, what))
}

/// [`solve_announcement`] once its bound is known (and, in a solve, has
/// been found to fit: the pilot runs here).
fn announced(
    rules: &Ruleset,
    plan: &SolvePlan,
    count: u64,
    at_most: u64,
    what: String,
) -> Announcement {
    let (bytes, seconds) = match plan.mode {
        // Out of core, the parts' cells are written whole, and no pilot runs
        // beside a solve held to its budget.
        SolveMode::OutOfCore { .. } => (
            at_most,
            crate::estimate::reference_solve_seconds(rules, count),
        ),
        _ => (
            expected_resident_bytes(rules, at_most),
            solve_seconds_estimate(rules, count),
        ),
    };
    Announcement {
        what,
        at_most,
        bytes,
        seconds,
    }
}

/// The most memory a planned solve may take, and the job in words: what it
/// is refused on, before any pilot runs.
fn solve_at_most(
    rules: &Ruleset,
    plan: &SolvePlan,
    count: u64,
) -> Result<(u64, String), DriverError> {
    Ok(match plan.mode {
        // Out of core: what the plan holds at once, within the budget (the
        // move tables are not built yet). Not the budget itself: a default
        // budget is what was available a moment ago, a given one may be more
        // than the solve takes.
        SolveMode::OutOfCore { cell_bytes } => (
            out_of_core_memory(rules, count, plan.budget, 0)?.needed(cell_bytes),
            format!("{} out of core", positions("solving", count)),
        ),
        _ => (plan.in_memory_bytes, positions("solving", count)),
    })
}

/// The move graph for a solve planned by [`plan_solve`]: checked against the
/// memory the plan will really use, and announced when long
/// ([`solve_announcement`]).
pub fn graph_for_plan(
    rules: &Ruleset,
    plan: &SolvePlan,
    events: &dyn Events,
) -> Result<Graph, DriverError> {
    let count = PositionIndex::new(rules)?.count();
    let (at_most, what) = solve_at_most(rules, plan, count)?;
    ensure_fits(at_most, &what)?;
    let said = announced(rules, plan, count, at_most, what);
    announce_if_long(&said.what, said.bytes, said.seconds, events);
    Ok(Graph::new(rules)?)
}

/// The move graph of a ruleset to explore (`stats`, a solve's summary,
/// benchmarks).
pub fn graph_for_exploring(rules: &Ruleset, events: &dyn Events) -> Result<Graph, DriverError> {
    let count = PositionIndex::new(rules)?.count();
    let what = positions("exploring", count);
    ensure_fits(explore_bytes(count), &what)?;
    let bytes = crate::estimate::exploring_resident_bytes(count);
    announce_if_long(&what, bytes, exploring_seconds(count), events);
    Ok(Graph::new(rules)?)
}

/// The move graph of a ruleset to solve in memory.
pub fn graph_for_solving(rules: &Ruleset, events: &dyn Events) -> Result<Graph, DriverError> {
    let count = PositionIndex::new(rules)?.count();
    let what = positions("solving", count);
    let at_most = solving_bytes(rules, count);
    ensure_fits(at_most, &what)?;
    let bytes = expected_resident_bytes(rules, at_most);
    announce_if_long(&what, bytes, solve_seconds_estimate(rules, count), events);
    Ok(Graph::new(rules)?)
}

/// The move graph of the ruleset of a saved solution to check against the
/// rules (`check`), sized like the others and announced with an estimate
/// from the branching of a sample of positions and the share of them the
/// table decides.
pub fn graph_for_checking(solution: &Solution, events: &dyn Events) -> Result<Graph, DriverError> {
    let rules = solution.rules();
    let count = PositionIndex::new(rules)?.count();
    let what = positions("checking", count);
    ensure_fits(explore_bytes(count), &what)?;
    let graph = Graph::new(rules)?;
    let said = check_announcement(solution, &graph);
    announce_if_long(&said.what, said.bytes, said.seconds, events);
    Ok(graph)
}

/// What a check of `solution` against the rules announces: its time from the
/// branching of a sample of positions and the share the table decides; its
/// memory the program, the marks of its passes and the table read whole (a
/// table read in place, larger than memory, takes less).
pub fn check_announcement(solution: &Solution, graph: &Graph) -> Announcement {
    let count = graph.count();
    let table = solution
        .table()
        .encoding()
        .bytes_for(solution.table().len())
        .unwrap_or(u64::MAX);
    let bytes = explore_bytes(count)
        .saturating_add(program_bytes())
        .saturating_add(graph.table_bytes())
        .saturating_add(table);
    Announcement {
        what: positions("checking", count),
        at_most: bytes,
        bytes,
        seconds: checking_seconds(graph, decided_share(solution)),
    }
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
        let plan = plan_solve(&rules, n, Some(1 << 30), false, false, None).unwrap();
        assert_eq!(plan.mode, SolveMode::InMemory);
        assert!(!plan.values_only);
        let plan = plan_solve(&rules, n, Some(1 << 30), true, false, None).unwrap();
        assert_eq!(plan.mode, SolveMode::Checkpointed);
        let plan = plan_solve(&rules, n, Some(1 << 30), true, true, None).unwrap();
        assert!(plan.values_only);
        assert_eq!(plan.in_memory_bytes, values_solving_bytes(n));
    }

    #[test]
    fn too_little_memory_for_one_part_is_refused_with_the_estimate() {
        let rules = Ruleset::from_variant_id("standard.h6.f10").unwrap();
        let n = count(&rules);
        let needed = solving_bytes(&rules, n);
        let budget = needed / 2;
        match plan_solve(&rules, n, Some(budget), false, false, None) {
            Ok(plan) => assert!(matches!(plan.mode, SolveMode::OutOfCore { .. })),
            Err(e) => panic!("{e}"),
        }
        let refused = plan_solve(&rules, n, Some(64), false, false, None).unwrap_err();
        let text = refused.to_string();
        assert!(text.contains("allowed"), "{text}");
        assert!(text.contains(&chopsticks_rules::text::count(n)), "{text}");
    }

    #[test]
    fn small_parts_under_a_large_budget_need_far_less_than_the_budget() {
        // What `graph_for_plan` checks against the machine: the parts and
        // what lies beside them, not the whole budget (a default budget is
        // three quarters of what was available a moment before; checking it
        // again refused a solve in parts of 2 MiB when another process had
        // taken memory in between).
        let rules = Ruleset::from_variant_id("standard.h6.f8").unwrap();
        let n = count(&rules);
        let budget = 16 << 30;
        let plan = plan_solve(&rules, n, Some(budget), true, false, Some(2 << 20)).unwrap();
        let SolveMode::OutOfCore { cell_bytes } = plan.mode else {
            panic!("{plan:?}")
        };
        assert_eq!(cell_bytes, 2 << 20);
        let memory = out_of_core_memory(&rules, n, budget, 0).unwrap();
        let needed = memory.needed(cell_bytes);
        assert!(needed >= memory.program + memory.tiles + cell_bytes);
        assert!(needed < budget / 8, "{needed} of {budget}");
    }

    #[test]
    fn three_players_are_never_solved_out_of_core() {
        let rules = Ruleset::from_variant_id("standard.p3").unwrap();
        let n = count(&rules);
        let refused = plan_solve(&rules, n, Some(1024), false, false, None).unwrap_err();
        assert!(refused
            .to_string()
            .contains("out of core is for two players"));
    }
}
