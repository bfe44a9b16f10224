//! The solve driver: everything between "solve this variant" and a solution
//! with its summary, for the command line and the benchmarks (the server, which
//! solves small variants in memory within its cache, sizes them by the same
//! estimate, [`chopsticks_solve::solve_memory`]).
//!
//! The model:
//!
//! - **One memory plan.** Before any work, [`plan_solve`] estimates what a solve
//!   of the ruleset needs all in memory ([`chopsticks_solve::solve_memory`], the
//!   estimate the server sizes its cache by too) and chooses a [`SolveMode`]:
//!   in memory, in memory with checkpoints (the solution is saved), or out of
//!   core in parts within the memory allowed; values alone with one-byte cells
//!   when remoteness is not kept. What cannot be done is refused with the
//!   estimate ([`DriverError::Refused`]), never started.
//! - **One solve.** [`solve`] runs the plan with one of the four solvers of
//!   [`chopsticks_solve`] and [`chopsticks_distributed`] (worker processes on
//!   loopback, [`loopback`]) and returns the [`Solved`] with a [`SolveReport`]
//!   of how it went.
//! - **Scratch files in known places** ([`scratch`]): beside the saved file,
//!   where a solve started again resumes from them; else in the temporary
//!   directory under this process's id, removed afterwards, and removed by the
//!   next solve when a killed one left them.
//! - **One summary** ([`summarise`]): the outcome counts over the positions
//!   reachable from a start (explored in memory, on disk, or already counted
//!   by the workers), or over the whole index.
//!
//! The library never prints. What a person should see (an announcement before
//! long work, a progress count, a warning) goes to an [`Events`]; the command
//! line shows it on stderr, a test or the server may drop it ([`Silent`]).

mod error;
pub mod estimate;
pub mod loopback;
mod plan;
mod run;
pub mod scratch;
mod summary;

pub use chopsticks_solve::Solved;
pub use error::DriverError;
pub use estimate::{available_bytes, ensure_fits};
pub use plan::{
    check_announcement, graph_for_checking, graph_for_exploring, graph_for_plan, graph_for_solving,
    out_of_core_memory, plan_solve, program_bytes, solve_announcement, Announcement,
    OutOfCoreMemory, SolveMode, SolvePlan,
};
pub use run::{
    every_words, solve, solve_graph, solve_in_memory, SolveReport, SolveRequest, Workers,
    CHECKPOINT_EVERY,
};
pub use summary::{explore, reachable_set, summarise, Reach, SummaryOf};

/// What a person watching long work should see; the library's only way to
/// speak. Every method has a default that says nothing.
pub trait Events: Sync {
    /// Before large or unusual work: what it will take, in a sentence.
    fn announce(&self, _text: &str) {}
    /// Work begins: `what`, over `total` units when known (else a count
    /// without a known end).
    fn begin(&self, _what: &str, _total: Option<u64>) {}
    /// The work begun last moved on: `done` units, and what it is doing now.
    fn advance(&self, _done: u64, _message: &str) {}
    /// The work begun last has ended.
    fn end(&self) {}
    /// A warning to pass on at once, on a line of its own.
    fn warn(&self, _line: &str) {}
}

/// Events nobody watches.
pub struct Silent;

impl Events for Silent {}
