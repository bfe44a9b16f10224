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

/// Opens an input file given by name (`review FILE`, `value --file FILE`): a
/// FIFO, a device or a directory is refused before it is opened (opening a FIFO
/// blocks until a writer comes), naming what it is.
pub fn open_input(path: &std::path::Path) -> anyhow::Result<std::fs::File> {
    use anyhow::Context;
    if let Err(chopsticks_files::ReadError::NotRegular { kind, .. }) =
        chopsticks_files::check_regular(path)
    {
        anyhow::bail!(
            "{} is not a regular file ({kind}): only regular files are read",
            path.display()
        );
    }
    std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))
}

/// Prints a value as pretty JSON on stdout.
pub fn print_json(value: &serde_json::Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).expect("JSON values serialise")
    );
}
