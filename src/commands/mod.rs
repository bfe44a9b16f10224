//! One module per subcommand.

pub mod check;
pub mod cluster;
pub mod docs;
pub mod export;
pub mod moves;
pub mod play;
pub mod puzzles;
pub mod query;
pub mod review;
pub mod rules;
pub mod serve;
pub mod solve;
pub mod solved;
pub mod stats;
pub mod strategy;
pub mod survey;
pub mod table;
pub mod value;
pub mod verify;

pub use chopsticks_report::{child_text, with_variant};

pub use crate::text::plural;

/// Prints a value as pretty JSON on stdout.
pub fn print_json(value: &serde_json::Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).expect("JSON values serialise")
    );
}
