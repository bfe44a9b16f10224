//! chopsticks-values's integration tests, linked as one binary (ripgrep's layout):
//! each file beside this one is a module of it, and a file not named here
//! is not built (`autotests = false`; `tests/architecture.rs` checks the list).

mod common;

mod coprime_sweep;
mod evaluators;
mod game_graph;
mod limits;
mod loopy_outcomes;
mod paper;
mod propositions;
mod symmetry;
mod table1_families;
