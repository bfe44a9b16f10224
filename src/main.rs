//! `chopsticks`: solve and analyse the hand game Chopsticks in all its
//! generalisations. This binary only parses options and formats results; the work
//! is done by the library crates (see ARCHITECTURE.md).

mod commands;
mod memory;
mod progress;
mod rules_args;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "chopsticks",
    version,
    about = "Solve and analyse the hand game Chopsticks in all its generalisations",
    long_about = None
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Measure a variant's state space: raw, distinct, reachable and finished
    /// positions, shortest game, eccentricity, branching.
    Stats(commands::stats::StatsArgs),
    /// List the legal moves of a position and where they lead.
    Moves(commands::moves::MovesArgs),
    /// Show a ruleset (or list the presets with --list).
    Rules(commands::rules::RulesCommandArgs),
    /// Benchmarks: time the exploration of a large variant.
    Bench(commands::bench::BenchArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Stats(args) => commands::stats::run(&args),
        Command::Moves(args) => commands::moves::run(&args),
        Command::Rules(args) => commands::rules::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
    };
    if let Err(error) = result {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}
