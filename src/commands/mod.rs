//! One module per subcommand.

pub mod bench;
pub mod moves;
pub mod play;
pub mod query;
pub mod rules;
pub mod solve;
pub mod solved;
pub mod stats;
pub mod strategy;
pub mod table;
pub mod value;

/// Prints a value as pretty JSON on stdout.
pub fn print_json(value: &serde_json::Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).expect("JSON values serialise")
    );
}
