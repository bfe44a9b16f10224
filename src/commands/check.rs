//! `chopsticks check FILE`: a saved solution checked against the rules, every
//! position, with progress; exits with status 1 at the first contradiction.
//!
//! The checksums of a file prove only that nobody damaged it by accident: a
//! forger recomputes them. This command reads the table through them (a damaged
//! block is named) and then checks every position against its moves and the
//! rules of finished games (`Solution::verify_with_progress`), which for a table
//! with remoteness proves it exactly the solution of the ruleset its header
//! names; a header edited to other rules is caught as the positions it
//! contradicts.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use chopsticks_solve::file;
use clap::Args;
use serde_json::json;

use crate::memory::available_bytes;
use crate::progress;
use crate::workload::graph_for_checking;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The solution file to check (written by `solve --save`).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Print JSON: {"file", "variant", "ruleset", "positions", "encoding", "read",
    /// "remoteness", "consistent", "proven", "contradiction", "seconds"}; the exit
    /// status is 1 when the file is not consistent, as without --json.
    #[arg(long)]
    json: bool,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
    /// Read the table from the file a block at a time (every block's checksum
    /// checked as it is read) even where it would fit in memory: the way a
    /// table larger than memory is checked (each thread keeps 32 MiB of the
    /// blocks it read).
    #[arg(long)]
    in_place: bool,
}

pub fn run(args: &CheckArgs) -> Result<()> {
    let clock = Instant::now();
    let opened = file::open(&args.file)?;
    let rules = opened.rules().clone();
    let graph = graph_for_checking(&opened, args.quiet)?;
    // The checks read every position's children, scattered over the table: from
    // memory when the table fits (read whole, every block checked), else from the
    // file a block at a time (`--in-place`; docs/PERFORMANCE.md has both rates).
    let table_bytes = opened
        .table()
        .encoding()
        .bytes_for(opened.table().len())
        .unwrap_or(u64::MAX);
    let in_memory = !args.in_place
        && available_bytes().is_some_and(|a| {
            table_bytes.saturating_mul(2) <= (a / 4 * 3).saturating_sub(graph.table_bytes())
        });
    let solution = if in_memory && opened.table().is_paged() {
        file::load(&args.file)?
    } else {
        opened
    };
    let read = if solution.table().is_paged() {
        "in place"
    } else {
        "memory"
    };
    let bar = progress::bar(solution.count(), "checking every position", args.quiet);
    let checked = solution.verify_with_progress(&graph, &|done| bar.set_position(done));
    bar.finish_and_clear();
    let seconds = clock.elapsed().as_secs_f64();
    let remoteness = solution.has_remoteness();
    let path = args.file.display().to_string();
    if args.json {
        let contradiction = checked.as_ref().err().map(|e| e.to_string());
        super::print_json(&super::with_variant(
            &rules,
            json!({
                "file": path,
                "concept": solution.concept().name(),
                "positions": solution.count(),
                "encoding": solution.table().encoding().name(),
                "read": read,
                "remoteness": remoteness,
                "consistent": checked.is_ok(),
                "proven": checked.is_ok() && remoteness,
                "contradiction": contradiction,
                "seconds": seconds,
            }),
        ));
        if checked.is_err() {
            std::process::exit(1);
        }
        return Ok(());
    }
    checked?;
    println!("{path}: the solution of {}", rules.describe());
    println!(
        "{} positions ({} values, {}, read {read}): every one is what its moves give, and every finished game what the rules give ({seconds:.2} s).",
        crate::text::count(solution.count()),
        solution.concept().name(),
        solution.table().encoding().name(),
    );
    if remoteness {
        println!(
            "With remoteness stored, this proves the table exactly the solution of these rules."
        );
    } else {
        println!(
            "The table holds values without remoteness (--no-remoteness): it is consistent, \
             but a consistent table without remoteness can still call a draw a win (a loop of \
             wins), so this does not prove it right."
        );
    }
    Ok(())
}
