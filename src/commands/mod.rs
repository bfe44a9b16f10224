//! One module per subcommand.

pub mod bench;
pub mod moves;
pub mod rules;
pub mod stats;

/// Prints a value as pretty JSON on stdout.
pub fn print_json(value: &serde_json::Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).expect("JSON values serialise")
    );
}
