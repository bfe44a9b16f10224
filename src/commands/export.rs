//! `chopsticks export`: every position of a solved variant, one line each (JSON
//! lines or CSV), streamed to standard output or written atomically to a file.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use chopsticks_rules::{quoted, Position, SeatedPosition};
use chopsticks_solve::export::{export, ExportFormat, Selection};
use clap::Args;

use super::solved::{solved_with, DbArgs, SolvedChecks};
use crate::progress;
use crate::rules_args::{NotationArgs, RulesArgs};
use crate::workload::explore_with_progress;

#[derive(Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    notation: NotationArgs,
    /// Only the positions reachable from the start (by default every position of the
    /// index, each marked `reachable` or not).
    #[arg(long)]
    #[arg(help_heading = "Analysis")]
    reachable: bool,
    /// Reachability from this position instead of the usual start.
    #[arg(long)]
    #[arg(help_heading = "Analysis")]
    start: Option<String>,
    /// `jsonl` (one JSON object per line, the default) or `csv` (with a header
    /// line).
    #[arg(long, default_value = "jsonl")]
    format: String,
    /// JSON lines, one object a position (the same as `--format jsonl`, the
    /// default): `export` writes JSON lines rather than one JSON document, so
    /// that millions of positions stream.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Write to this file (atomically: complete or not at all) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// No progress bar on stderr (it is also hidden when stderr is not a terminal).
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: &ExportArgs) -> Result<()> {
    let name = if args.json { "jsonl" } else { &args.format };
    let Some(format) = ExportFormat::from_name(name) else {
        bail!(
            "unknown format `{}`; use jsonl or csv",
            quoted(&args.format)
        );
    };
    // `-` is standard output.
    let output = args
        .output
        .as_deref()
        .filter(|p| *p != std::path::Path::new("-"));
    args.db.refuse_output(output, "--output")?;
    // The notation, the start and the output file are refused before the work.
    let (s, (notation, start)) = solved_with(&args.rules, &args.db, args.quiet, |rules| {
        let notation = args.notation.notation(rules)?;
        let start = match &args.start {
            Some(text) => SeatedPosition::parse(text, rules)
                .context("--start")?
                .into_position(),
            None => Position::start(rules),
        };
        if let Some(path) = output {
            chopsticks_files::check_writable(path)?;
        }
        Ok((notation, start))
    })?;
    s.check_all(args.quiet)?;
    let reached = explore_with_progress(s.graph()?, &start, args.quiet)
        .exploration
        .reached;
    let selection = if args.reachable {
        Selection::Reachable { reached: &reached }
    } else {
        Selection::All { reached: &reached }
    };
    let bar = progress::bar(s.solution.count(), "exporting", args.quiet);
    let clock = Instant::now();
    let report = |done: u64| bar.set_position(done);
    let lines = match output {
        None => {
            let stdout = std::io::stdout();
            let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
            export(&s.solution, selection, notation, format, &mut out, &report)
                .and_then(|lines| out.flush().map(|()| lines))
                .context("cannot write the output (standard output)")?
        }
        Some(path) => {
            let mut lines = 0;
            chopsticks_files::write_with(path, |file| {
                let mut out = BufWriter::with_capacity(1 << 20, file);
                lines = export(&s.solution, selection, notation, format, &mut out, &report)?;
                out.flush()
            })?;
            lines
        }
    };
    bar.finish_and_clear();
    let seconds = clock.elapsed().as_secs_f64();
    progress::announce(
        &format!(
            "exported {} in {seconds:.2} s ({:.1} M lines/s)",
            crate::text::counted(lines, "position"),
            lines as f64 / seconds.max(1e-9) / 1e6
        ),
        args.quiet,
    );
    Ok(())
}
