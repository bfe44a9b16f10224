//! `chopsticks cluster`: the distributed solver on several hosts.
//!
//! On one machine `solve --workers N` does everything. Across hosts: write a
//! hostfile (one `host:port` a line, the same file everywhere), run `cluster
//! worker --process I` on each host with the same rules and a directory, copy
//! every host's `cells-*.bin` and `worker-*.json` into one directory, then
//! `cluster assemble --save FILE` there.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use clap::{Args, Subcommand};
use serde_json::json;

use crate::cluster::{cluster_config, read_hostfile};
use crate::memory::human_bytes;
use crate::rules_args::RulesArgs;

#[derive(Args, Debug)]
pub struct ClusterArgs {
    #[command(subcommand)]
    command: ClusterCommand,
}

#[derive(Subcommand, Debug)]
enum ClusterCommand {
    /// Run process I of a distributed solve: its share of the index, exchanging
    /// parent updates with the other processes of the hostfile over TCP; its
    /// cells and report go to --dir.
    Worker(WorkerArgs),
    /// Write the solution file from every worker's cells and report in --dir.
    Assemble(AssembleArgs),
}

#[derive(Args, Debug)]
struct WorkerArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// One `host:port` a line, process I on line I (the same file on every host).
    #[arg(long, value_name = "FILE")]
    #[arg(help_heading = "Cluster")]
    hostfile: PathBuf,
    /// This process's line in the hostfile, from 0.
    #[arg(long, value_name = "I")]
    #[arg(help_heading = "Cluster")]
    process: usize,
    /// Worker threads in this process.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    #[arg(help_heading = "Cluster")]
    threads: u64,
    /// Where this process writes its cells and report.
    #[arg(long, value_name = "DIR")]
    #[arg(help_heading = "Cluster")]
    dir: PathBuf,
    /// After the solve, explore from the variant's start on the same workers
    /// and count the outcomes of the positions reached (in the reports).
    #[arg(long)]
    #[arg(help_heading = "Cluster")]
    explore: bool,
    /// Print JSON.
    #[arg(long)]
    #[arg(help_heading = "Output")]
    json: bool,
    /// No messages on stderr.
    #[arg(long, short)]
    #[arg(help_heading = "Output")]
    quiet: bool,
    /// Give up when the other processes of the hostfile are not all connected
    /// after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    #[arg(help_heading = "Cluster")]
    connect_timeout: u64,
    /// Write a checkpoint of this process's workers at the first level
    /// boundary after this many seconds since the last (0: at every level),
    /// all workers at the same level. Started again with the same arguments
    /// after a process was lost, every worker resumes from the last level all
    /// of them checkpointed.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    #[arg(help_heading = "Cluster")]
    checkpoint_every: u64,
    /// Write no checkpoints (a lost process then means starting over).
    #[arg(long, conflicts_with = "checkpoint_every")]
    #[arg(help_heading = "Cluster")]
    no_checkpoints: bool,
    /// End when the process that started this one ends (`solve --workers`).
    #[arg(long, hide = true)]
    exit_with_parent: bool,
    /// Print `progress LEVEL RESOLVED` lines on stderr as the solve goes
    /// (`solve --workers` reads them for its progress line).
    #[arg(long, hide = true)]
    progress_lines: bool,
}

#[derive(Args, Debug)]
struct AssembleArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// The directory holding every worker's `cells-*.bin` and `worker-*.json`.
    #[arg(long, value_name = "DIR")]
    #[arg(help_heading = "Cluster")]
    dir: PathBuf,
    /// The solution file to write.
    #[arg(long, value_name = "FILE")]
    #[arg(help_heading = "Cluster")]
    save: PathBuf,
    /// Print JSON.
    #[arg(long)]
    #[arg(help_heading = "Output")]
    json: bool,
}

pub fn run(args: &ClusterArgs) -> Result<()> {
    match &args.command {
        ClusterCommand::Worker(a) => worker(a),
        ClusterCommand::Assemble(a) => assemble(a),
    }
}

fn worker(args: &WorkerArgs) -> Result<()> {
    let rules = args.rules.ruleset()?;
    let addresses = read_hostfile(&args.hostfile)?;
    crate::cluster::check_addresses(&addresses, &args.hostfile)?;
    let config = cluster_config(addresses, args.process, args.threads as usize)?;
    if args.dir.exists() && !args.dir.is_dir() {
        anyhow::bail!("--dir {}: not a directory", args.dir.display());
    }
    crate::cluster::one_line_on_lost_connection(if args.exit_with_parent {
        // Started by `solve --workers`, which says what to run.
        "the solve that started this worker says how to go on".to_string()
    } else {
        format!(
            "start every worker again with the same arguments: they resume from the last level all of them checkpointed (in {} on each host)",
            args.dir.display()
        )
    });
    let started = Arc::new(AtomicBool::new(false));
    crate::cluster::watch(
        Arc::clone(&started),
        Duration::from_secs(args.connect_timeout),
        args.exit_with_parent,
    );
    let watch = Arc::new(chopsticks_distributed::Watch::default());
    crate::cluster::report_watch(&watch, args.progress_lines);
    let reports = crate::cluster::with_stdout_elsewhere(args.quiet, || {
        let start = args.explore.then(|| {
            chopsticks_rules::PositionIndex::new(&rules)
                .map(|index| index.rank(&chopsticks_rules::Position::start(&rules)))
        });
        let options = chopsticks_distributed::RunOptions {
            explore_from: start.transpose()?,
            checkpoint_every: (!args.no_checkpoints)
                .then(|| Duration::from_secs(args.checkpoint_every)),
            watch: Some(Arc::clone(&watch)),
        };
        Ok::<_, anyhow::Error>(chopsticks_distributed::run_watched(
            &rules, config, &args.dir, &options, started,
        )?)
    })?;
    crate::cluster::warn_ignored(&watch);
    if args.progress_lines {
        eprintln!("{}", crate::cluster::progress_line(&watch));
    }
    if args.json {
        super::print_json(&json!({ "workers": reports }));
    } else if !args.quiet {
        for r in &reports {
            if let Some(level) = r.resumed_from {
                println!("worker {}: resumed from level {level}", r.worker);
            }
            println!(
                "worker {} of {}: positions {} to {}, {} updates sent, {} levels, cells in {}",
                r.worker,
                r.workers,
                r.first,
                r.first + r.len.saturating_sub(1),
                r.messages,
                r.levels,
                chopsticks_distributed::cells_path(&args.dir, r.worker).display()
            );
        }
    }
    Ok(())
}

fn assemble(args: &AssembleArgs) -> Result<()> {
    let rules = args.rules.ruleset()?;
    chopsticks_files::check_writable(&args.save)?;
    let reports = chopsticks_distributed::assemble(&rules, &args.dir, &args.save)?;
    let size = std::fs::metadata(&args.save).map(|m| m.len()).unwrap_or(0);
    if args.json {
        super::print_json(&json!({
            "workers": reports.len(),
            "saved": args.save.display().to_string(),
            "bytes": size,
        }));
    } else {
        println!(
            "Saved {} ({}) from {} worker{}",
            args.save.display(),
            human_bytes(size),
            reports.len(),
            if reports.len() == 1 { "" } else { "s" }
        );
    }
    Ok(())
}
