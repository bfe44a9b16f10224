//! chopsticks-toolkit's integration tests, linked as one binary (ripgrep's layout):
//! each file beside this one is a module of it, and a file not named here
//! is not built (`autotests = false`; `tests/architecture.rs` checks the list).

mod common;

mod architecture;
mod browser;
mod cli;
mod cli_check;
mod cli_cluster;
mod cli_distributed_resume;
mod cli_export;
mod cli_hardening;
mod cli_io_errors;
mod cli_language;
mod cli_learn;
mod cli_outcomes;
mod cli_players;
mod cli_resume;
mod cli_rollover;
mod cli_serve;
mod cli_solve;
mod cli_value_language;
mod cli_values;
mod cli_verify;
mod docs;
mod gamesmanuni;
mod json_reference;
mod python;
mod serve_limits;
