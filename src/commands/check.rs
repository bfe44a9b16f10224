//! `chopsticks check FILE`: a saved solution checked against the rules, every
//! position, with progress; exits with status 1 at the first contradiction.
//!
//! The checksums of a file prove only that nobody damaged it by accident: a
//! forger recomputes them. This command reads the table through them (a damaged
//! block is named) and then checks every position against its moves and the
//! rules of finished games (`Solution::verify_within`), which for a table
//! with remoteness proves it exactly the solution of the ruleset its header
//! names; a header edited to other rules is caught as the positions it
//! contradicts.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};
use chopsticks_solve::file;
use clap::Args;
use serde_json::json;

use crate::memory::{default_budget, human_bytes};
use crate::progress;
use crate::workload::graph_for_checking;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The solution file to check (written by `solve --save`).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Print JSON: {"file", "variant", "ruleset", "positions", "encoding", "read",
    /// "in_place_bytes", "remoteness", "consistent", "proven", "contradiction",
    /// "seconds"}; the exit
    /// status is 1 when the file is not consistent, as without --json.
    #[arg(long)]
    json: bool,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
    /// Read the table from the file in place (every block's checksum checked
    /// as it is read) even where it would fit in memory: the way a table
    /// larger than memory is checked, a range of its rows at a time, within
    /// --memory.
    #[arg(long)]
    in_place: bool,
    /// The most memory the check may use (e.g. 512M, 4G), the move graph's
    /// tables counted within it: a table of half of what they leave or less is
    /// read whole, a larger one (or any with --in-place) of two players in
    /// ranges of rows as wide as that allows (three or more players: through a
    /// bounded cache of blocks). Default: three quarters of the memory
    /// available, as for every command (docs/RELIABILITY.md).
    #[arg(long, value_name = "SIZE", value_parser = crate::memory::parse_size)]
    memory: Option<u64>,
}

pub fn run(args: &CheckArgs) -> Result<()> {
    let clock = Instant::now();
    // Asked before the move graph is built, which then counts within it.
    let allowed = args.memory.unwrap_or_else(default_budget);
    let opened = file::open(&args.file)?;
    let rules = opened.rules().clone();
    let graph = graph_for_checking(&opened, args.quiet)?;
    // The checks read every position's children, scattered over the table: from
    // memory when the table fits (read whole, every block checked), else from the
    // file in ranges of rows (`--in-place`; docs/PERFORMANCE.md has both rates).
    let table_bytes = opened
        .table()
        .encoding()
        .bytes_for(opened.table().len())
        .unwrap_or(u64::MAX);
    let budget = allowed.saturating_sub(graph.table_bytes());
    let in_memory = !args.in_place && table_bytes.saturating_mul(2) <= budget;
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
    // In place, a two-player table is checked a range of rows at a time,
    // as wide as the budget allows; one that needs more than it is refused
    // before any work.
    let source = match args.memory {
        Some(_) => format!("--memory {}", human_bytes(allowed)),
        None => format!(
            "the default budget of {} (docs/RELIABILITY.md)",
            human_bytes(allowed)
        ),
    };
    let in_place_bytes = match solution.in_place_check_bytes(&graph, budget) {
        Some((least, _)) if least > budget => bail!(
            "checking {} in place holds at least {} of its table (its widest row of \
             tiles with their columns), more than the {} that {source} leaves beside \
             the move graph's tables ({}); give --memory {} or more where the machine has it",
            args.file.display(),
            human_bytes(least),
            human_bytes(budget),
            human_bytes(graph.table_bytes()),
            human_bytes(least.saturating_add(graph.table_bytes())),
        ),
        Some((_, used)) => Some(used),
        None => None,
    };
    let bar = progress::bar(solution.count(), "checking every position", args.quiet);
    let checked = solution.verify_within(&graph, budget, &|done| bar.set_position(done));
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
                "in_place_bytes": in_place_bytes,
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
