//! chopsticks-loopy's integration tests, linked as one binary (ripgrep's layout):
//! each file beside this one is a module of it, and a file not named here
//! is not built (`autotests = false`; `tests/architecture.rs` checks the list).

mod identities;
mod module_order;
mod properties;
mod rollover;
