//! chopsticks-solve's integration tests, linked as one binary (ripgrep's layout):
//! each file beside this one is a module of it, and a file not named here
//! is not built (`autotests = false`; `tests/architecture.rs` checks the list).

mod common;

mod brute_force;
mod compact;
mod file;
mod multi_brute_force;
mod multi_strategy;
mod parts;
mod published;
mod same_files;
mod symmetry;
mod verify;
