//! chopsticks-atlas's integration tests, linked as one binary (ripgrep's layout):
//! each file beside this one is a module of it, and a file not named here
//! is not built (`autotests = false`; `tests/architecture.rs` checks the list).

mod common;

mod checker;
mod every_n;
mod figures;
mod five_fingers;
mod five_fingers_proof;
mod four_fingers_proof;
mod levels;
mod three_fingers;
