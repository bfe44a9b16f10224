//! `chopsticks table`: the paper's tables of Simple Chopsticks values with one hand
//! each. `one-hand`: Table 2, the values of `(1|1)_n` for `1 ≤ n ≤ N` as runs of
//! equal values. `grid`: Table 1, the values of `(i|j)_N` for `1 ≤ i, j ≤ N`, as
//! text, Markdown, CSV, JSON, or a coloured picture (PNG, SVG). `outcomes`: the
//! outcome class of every position with many hands a side ([`outcomes`]).
//!
//! Every subcommand spells the paper's finger count `n` (a hand holds `1..=n`
//! fingers, `F = n + 1`) as `--n`; the older `--max` (one-hand) and `--fingers`
//! (grid) still work, with a warning.

use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use chopsticks_cgt::{GameId, GameStore, Outcome};
use chopsticks_values::picture::{self, GridPicture};
use chopsticks_values::{one_hand, runs, OneHandSweep, Run};
use clap::{Args, Subcommand, ValueEnum};
use rayon::prelude::*;
use serde_json::json;

use crate::memory::ensure_fits;
use crate::progress;

mod outcomes;
mod two_hands;

#[derive(Args, Debug)]
pub struct TableArgs {
    #[command(subcommand)]
    table: Table,
}

#[derive(Subcommand, Debug)]
enum Table {
    /// Table 2: the values and outcomes of (1|1)_n for 1 ≤ n ≤ N, as runs of equal values.
    OneHand(OneHandArgs),
    /// Table 1: the values of (i|j)_N for 1 ≤ i, j ≤ N (rows i, columns j).
    Grid(GridArgs),
    /// The outcome class (L, R, N, P) of every position (x|y)_n with up to H hands a side.
    Outcomes(outcomes::OutcomesArgs),
    /// Loopy values of every position with two hands a side under rollover,
    /// splits (--transfer) or revivals (--divide, --even-divide).
    ///
    /// Play can cycle, so the values are loopy games (stoppers, `s & t`), and
    /// the outcome classes include draws. Outcome codes (Winning Ways' N̂, P̂, Ň,
    /// P̌ written N^, P^, Nv, Pv): L: Left wins whoever starts; R: Right wins
    /// whoever starts; N: the player who starts wins; P: the other player wins;
    /// D: a draw whoever starts; N^: Left wins if she starts, a draw if Right
    /// starts; P^: a draw if Left starts, Left wins if Right starts; Nv: a draw
    /// if Left starts, Right wins if he starts; Pv: Right wins if Left starts, a
    /// draw if Right starts.
    TwoHands(two_hands::TwoHandsArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Markdown,
    Csv,
}

/// The largest N `table one-hand --from-scratch` accepts (time grows as N³).
const MAX_FROM_SCRATCH: u32 = 5000;
/// The largest N `table grid` accepts (N² cells are printed).
const MAX_GRID: u32 = 1000;
/// The largest N `table grid --rollover` and `table one-hand --rollover` accept.
const MAX_ROLLOVER_GRID: u32 = 60;
/// The most positions of one game graph under rollover (one hand each: n² + 1).
const ROLLOVER_VERTICES: usize = 4096;

#[derive(Args, Debug)]
struct OneHandArgs {
    /// The largest finger count n (the paper's n = F - 1); the table covers 1 ≤ n ≤ N
    /// [default: 606, the paper's Table 2].
    #[arg(long = "n", value_name = "N")]
    n: Option<u32>,
    /// The old spelling of --n (kept, with a warning).
    #[arg(long, hide = true, conflicts_with = "n")]
    max: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Compute every n from scratch (in parallel) instead of incrementally.
    #[arg(long)]
    from_scratch: bool,
    /// Rollover (`x + y` taken modulo n + 1, a hand dies only at 0): the loopy
    /// values of (1|1)_n [--n defaults to 30].
    #[arg(long, conflicts_with = "from_scratch")]
    rollover: bool,
    /// Print JSON: a list of {"from", "to", "value", "outcome"} (instead of a
    /// --format).
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Print the computing time on stderr.
    #[arg(long)]
    time: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct GridArgs {
    /// The finger count n (the paper's n = F - 1) [default: 20, the paper's Table 1].
    #[arg(long = "n", value_name = "N")]
    n: Option<u32>,
    /// The old spelling of --n: here it meant n, not F (kept, with a warning).
    #[arg(long, hide = true, conflicts_with = "n")]
    fingers: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write values in uptimal form (`.22*`) where they have one.
    #[arg(long, conflicts_with = "rollover")]
    uptimal: bool,
    /// Rollover (`x + y` taken modulo n + 1, a hand dies only at 0): loopy values
    /// (stoppers such as `over`, or `onside & offside`).
    #[arg(long)]
    rollover: bool,
    /// Print JSON: {"n", "fingers" (F = n + 1), "values": [[…]], "rollover", "distinct"}
    /// (instead of a --format).
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Draw the table as a PNG picture, one colour per distinct value, with a legend.
    #[arg(long, value_name = "FILE")]
    png: Option<String>,
    /// Draw the table as an SVG picture.
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: &TableArgs) -> Result<()> {
    match &args.table {
        Table::OneHand(a) => one_hand_table(a),
        Table::Grid(a) => grid_table(a),
        Table::Outcomes(a) => outcomes::run(a),
        Table::TwoHands(a) => two_hands::run(a),
    }
}

/// Quotes a CSV field when it needs it.
fn csv(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// Escapes a Markdown table cell.
fn md(cell: &str) -> String {
    cell.replace('|', "\\|")
}

fn interval(r: &Run) -> String {
    if r.from == r.to {
        r.from.to_string()
    } else {
        format!("{}–{}", r.from, r.to)
    }
}

/// The value of `--n`, or of its old spelling `old` (with a warning), or `default`.
fn paper_n(n: Option<u32>, old: Option<u32>, old_name: &str, default: u32) -> u32 {
    if let Some(v) = old {
        eprintln!(
            "warning: --{old_name} is the old spelling of --n (the paper's n, F - 1); use --n {v}"
        );
    }
    n.or(old).unwrap_or(default)
}

fn one_hand_table(args: &OneHandArgs) -> Result<()> {
    if args.rollover {
        return rollover_one_hand_table(args);
    }
    let max = paper_n(args.n, args.max, "max", 606);
    if max == 0 {
        bail!("--n must be at least 1");
    }
    let clock = Instant::now();
    let table = if args.from_scratch {
        if max > MAX_FROM_SCRATCH {
            bail!(
                "--from-scratch goes up to --n {MAX_FROM_SCRATCH} (its time grows as N³); \
                 drop --from-scratch for the incremental method"
            );
        }
        let bar = progress::bar(max as u64, "finger counts", args.quiet);
        let entries: Vec<(u32, String, Outcome)> = (1..=max)
            .into_par_iter()
            .map(|n| {
                let mut store = GameStore::new();
                let g = one_hand(&mut store, 1, 1, n);
                bar.inc(1);
                (n, store.format(g), store.outcome(g))
            })
            .collect();
        bar.finish_and_clear();
        runs(entries)
    } else {
        if max > OneHandSweep::MAX_N {
            bail!(
                "--n goes up to {} (the incremental sweep keeps about N²/10 bytes)",
                OneHandSweep::MAX_N
            );
        }
        ensure_fits(
            OneHandSweep::bytes(max),
            &format!("the values of (a|b)_n for a + b ≤ {}", max),
        )?;
        let bar = progress::bar(max as u64, "finger counts", args.quiet);
        let report = |n: u32| bar.set_position(n as u64);
        let t = chopsticks_values::table2(max, Some(&report))?;
        bar.finish_and_clear();
        t
    };
    if args.time {
        eprintln!(
            "computed (1|1)_n for n ≤ {} in {:.3} s ({})",
            max,
            clock.elapsed().as_secs_f64(),
            if args.from_scratch {
                "every n from scratch"
            } else {
                "incrementally"
            }
        );
    }
    if args.json {
        let list: Vec<_> = table
            .iter()
            .map(|r| json!({"from": r.from, "to": r.to, "value": r.value, "outcome": r.outcome.to_string()}))
            .collect();
        super::print_json(&json!(list));
        return Ok(());
    }
    match args.format {
        Format::Text => {
            let w = table
                .iter()
                .map(|r| r.value.chars().count())
                .max()
                .unwrap_or(5)
                .max(5);
            let iw = table
                .iter()
                .map(|r| interval(r).chars().count())
                .max()
                .unwrap_or(1)
                .max("interval of n".len());
            println!("Values of (1|1)_n for 1 ≤ n ≤ {} (Table 2)", max);
            println!("{:<iw$}  {:<w$}  outcome", "interval of n", "value");
            for r in &table {
                println!("{:<iw$}  {:<w$}  {}", interval(r), r.value, r.outcome);
            }
        }
        Format::Markdown => {
            println!("| Interval of n | Value of (1\\|1)_n | Outcome |");
            println!("|---|---|---|");
            for r in &table {
                println!("| {} | `{}` | {} |", interval(r), md(&r.value), r.outcome);
            }
        }
        Format::Csv => {
            println!("from,to,value,outcome");
            for r in &table {
                println!("{},{},{},{}", r.from, r.to, csv(&r.value), r.outcome);
            }
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` (atomically, through links, only over a regular file).
fn write_atomically(path: &str, bytes: &[u8]) -> Result<()> {
    Ok(chopsticks_files::write_atomically(Path::new(path), bytes)?)
}

/// Checks the files of `--png` and `--svg` before any work: named (not empty,
/// not `-`), different, with the extension of their type, and writable.
fn check_picture_paths(png: Option<&str>, svg: Option<&str>) -> Result<()> {
    if png.is_some() && png == svg {
        bail!("--png and --svg name the same file");
    }
    for (flag, path, ext) in [("--png", png, "png"), ("--svg", svg, "svg")] {
        let Some(path) = path else { continue };
        if path.trim().is_empty() {
            bail!("{flag} needs a file name, such as picture.{ext}");
        }
        if path == "-" {
            bail!("{flag} writes a file: give its name (`-`, standard output, is not accepted for pictures)");
        }
        chopsticks_files::check_writable(Path::new(path))?;
        let has_ext = Path::new(path)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case(ext));
        if !has_ext {
            bail!(
                "{flag} writes a{} {} picture: give a file name ending in .{ext} (not {})",
                if ext == "svg" { "n" } else { "" },
                ext.to_uppercase(),
                chopsticks_rules::quoted(path)
            );
        }
    }
    Ok(())
}

/// Writes a grid picture as PNG and/or SVG (each atomically), and says so on
/// stderr (unless `quiet`).
fn write_pictures(
    pic: &GridPicture,
    png: Option<&str>,
    svg: Option<&str>,
    quiet: bool,
) -> Result<()> {
    if let Some(path) = png {
        let bytes = picture::png(pic).context("cannot encode the PNG picture")?;
        write_atomically(path, &bytes)?;
        progress::announce(&format!("wrote {path}"), quiet);
    }
    if let Some(path) = svg {
        write_atomically(path, picture::svg(pic).as_bytes())?;
        progress::announce(&format!("wrote {path}"), quiet);
    }
    Ok(())
}

/// Distinct values as (cells indexing them, their texts, their outcome classes).
type GridCells = (Vec<Vec<usize>>, Vec<String>, Vec<String>);

/// Table 1 (`(i|j)_n`) of Simple Chopsticks: cells, distinct values, outcomes.
fn short_grid_cells(n: u32, uptimal: bool, quiet: bool) -> Result<GridCells> {
    // The incremental sweep gives every (i|j)_n with i + j ≤ n; the others are *.
    let bar = progress::bar(n as u64, "finger counts", quiet);
    let mut sweep = OneHandSweep::new(n)?;
    while let Some(k) = sweep.advance() {
        bar.set_position(k as u64);
    }
    bar.finish_and_clear();
    let ids: Vec<Vec<GameId>> = (1..=n)
        .map(|i| (1..=n).map(|j| sweep.value(i, j)).collect())
        .collect();
    let store = sweep.store_mut();
    // Distinct values in order of first appearance (row by row).
    let mut distinct: Vec<GameId> = Vec::new();
    for &g in ids.iter().flatten() {
        if !distinct.contains(&g) {
            distinct.push(g);
        }
    }
    // With --uptimal, games that print with braces are written in uptimal form.
    let text_of = |store: &mut GameStore, g: GameId| -> String {
        let plain = store.format(g);
        if uptimal && plain.contains('{') {
            if let Some(u) = store.to_uptimal(g) {
                return u;
            }
        }
        plain
    };
    let names: Vec<String> = distinct.iter().map(|&g| text_of(store, g)).collect();
    let outcomes: Vec<Outcome> = distinct.iter().map(|&g| store.outcome(g)).collect();
    let index = |g: GameId| distinct.iter().position(|&d| d == g).expect("listed");
    let cells: Vec<Vec<usize>> = ids
        .iter()
        .map(|row| row.iter().map(|&g| index(g)).collect())
        .collect();
    let outcomes = outcomes.iter().map(|o| o.to_string()).collect();
    Ok((cells, names, outcomes))
}

/// The rollover analogue of Table 1: loopy values, one hand each.
fn rollover_grid_cells(n: u32, quiet: bool) -> Result<GridCells> {
    if n > MAX_ROLLOVER_GRID {
        bail!("with --rollover, --n goes up to {MAX_ROLLOVER_GRID} (each cell's game graph has about n² positions)");
    }
    let bar = progress::bar(n as u64, "rows", quiet);
    let row_done = || bar.inc(1);
    let rows = chopsticks_values::rollover_grid(n, ROLLOVER_VERTICES, Some(&row_done))?;
    bar.finish_and_clear();
    let mut distinct: Vec<&chopsticks_loopy::Value> = Vec::new();
    for v in rows.iter().flatten() {
        if !distinct.contains(&v) {
            distinct.push(v);
        }
    }
    let cells = rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|v| distinct.iter().position(|d| *d == v).expect("listed"))
                .collect()
        })
        .collect();
    let names = distinct.iter().map(|v| v.to_string()).collect();
    let outcomes = distinct.iter().map(|v| v.outcome().name()).collect();
    Ok((cells, names, outcomes))
}

/// The rollover analogue of Table 2: runs of equal loopy values of `(1|1)_n`.
fn rollover_one_hand_table(args: &OneHandArgs) -> Result<()> {
    let max = paper_n(args.n, args.max, "max", 30);
    if max == 0 || max > MAX_ROLLOVER_GRID {
        bail!("with --rollover, --n must be between 1 and {MAX_ROLLOVER_GRID}");
    }
    let clock = Instant::now();
    let bar = progress::bar(max as u64, "finger counts", args.quiet);
    let values: Vec<(String, String)> = (1..=max)
        .into_par_iter()
        .map(|n| {
            let v = chopsticks_values::rollover_one_one(n, ROLLOVER_VERTICES)?;
            bar.inc(1);
            Ok((v.to_string(), v.outcome().name()))
        })
        .collect::<Result<_, chopsticks_values::ValueError>>()?;
    bar.finish_and_clear();
    if args.time {
        eprintln!(
            "computed (1|1)_n with rollover for n ≤ {max} in {:.3} s",
            clock.elapsed().as_secs_f64()
        );
    }
    // Runs of equal values.
    let mut runs: Vec<(u32, u32, &str, &str)> = Vec::new();
    for (k, (v, o)) in values.iter().enumerate() {
        let n = k as u32 + 1;
        match runs.last_mut() {
            Some(r) if r.2 == v => r.1 = n,
            _ => runs.push((n, n, v, o)),
        }
    }
    if args.json {
        let list: Vec<_> = runs
            .iter()
            .map(|r| json!({"from": r.0, "to": r.1, "value": r.2, "outcome": r.3}))
            .collect();
        super::print_json(&json!(list));
        return Ok(());
    }
    let span = |r: &(u32, u32, &str, &str)| {
        if r.0 == r.1 {
            r.0.to_string()
        } else {
            format!("{}–{}", r.0, r.1)
        }
    };
    match args.format {
        Format::Text => {
            let w = runs
                .iter()
                .map(|r| span(r).chars().count())
                .max()
                .unwrap_or(1);
            let vw = runs.iter().map(|r| r.2.chars().count()).max().unwrap_or(1);
            for r in &runs {
                println!("{:<w$}  {:<vw$}  {}", span(r), r.2, r.3);
            }
        }
        Format::Markdown => {
            println!("| n | (1\\|1)_n with rollover | outcome |");
            println!("|---|---|---|");
            for r in &runs {
                println!("| {} | `{}` | {} |", span(r), md(r.2), r.3);
            }
        }
        Format::Csv => {
            println!("from,to,value,outcome");
            for r in &runs {
                println!("{},{},{},{}", r.0, r.1, csv(r.2), r.3);
            }
        }
    }
    Ok(())
}

fn grid_table(args: &GridArgs) -> Result<()> {
    let n = paper_n(args.n, args.fingers, "fingers", 20);
    if n == 0 {
        bail!("--n must be at least 1");
    }
    if n > MAX_GRID {
        bail!("--n goes up to {MAX_GRID} (the table has N² cells)");
    }
    check_picture_paths(args.png.as_deref(), args.svg.as_deref())?;
    let (cells, names, outcomes) = if args.rollover {
        rollover_grid_cells(n, args.quiet)?
    } else {
        short_grid_cells(n, args.uptimal, args.quiet)?
    };
    let game = if args.rollover {
        "Chopsticks with rollover (attacks only, x + y mod (n + 1))"
    } else {
        "Simple Chopsticks"
    };
    let text: Vec<Vec<&str>> = cells
        .iter()
        .map(|row| row.iter().map(|&k| names[k].as_str()).collect())
        .collect();

    if args.png.is_some() || args.svg.is_some() {
        let pic = GridPicture {
            title: format!(
                "Values of (i|j)_{n} in {game} (rows i: Left's hand, columns j: Right's hand)"
            ),
            row_label: "i".into(),
            col_label: "j".into(),
            first_row: 1,
            first_col: 1,
            row_names: Vec::new(),
            col_names: Vec::new(),
            legend_title: "value (outcome)".into(),
            cell_titles: Vec::new(),
            cells: cells.clone(),
            legend: names
                .iter()
                .zip(&outcomes)
                .map(|(v, o)| format!("{v}  ({o})"))
                .collect(),
        };
        write_pictures(&pic, args.png.as_deref(), args.svg.as_deref(), args.quiet)?;
    }

    if args.json {
        super::print_json(&json!({
            "n": n,
            "fingers": n + 1,
            "values": text,
            "rollover": args.rollover,
            "distinct": names.iter().zip(&outcomes).map(|(v, o)| json!({"value": v, "outcome": o})).collect::<Vec<_>>(),
        }));
        return Ok(());
    }
    if (args.png.is_some() || args.svg.is_some()) && args.format == Format::Text {
        // A picture was asked for: a short summary instead of the whole table.
        println!("{} distinct values of (i|j)_{n}:", names.len());
        for (v, o) in names.iter().zip(&outcomes) {
            println!("  {v}  ({o})");
        }
        return Ok(());
    }
    match args.format {
        Format::Text => {
            let w = names.iter().map(|s| s.chars().count()).max().unwrap_or(1);
            let lw = n.to_string().len().max(3);
            if args.rollover {
                println!("Values of (i|j)_{n} with rollover: row i = Left's hand, column j = Right's hand");
            } else {
                println!(
                    "Values of (i|j)_{n}: row i = Left's hand, column j = Right's hand (Table 1)"
                );
            }
            let header: Vec<String> = (1..=n).map(|j| format!("{j:>w$}")).collect();
            println!("{:>lw$}  {}", "i\\j", header.join(" "));
            for (i, row) in text.iter().enumerate() {
                let cells: Vec<String> = row.iter().map(|s| format!("{s:>w$}")).collect();
                println!("{:>lw$}  {}", i + 1, cells.join(" "));
            }
        }
        Format::Markdown => {
            let header: Vec<String> = (1..=n).map(|j| j.to_string()).collect();
            println!("| i \\ j | {} |", header.join(" | "));
            println!("|---|{}", "---|".repeat(n as usize));
            for (i, row) in text.iter().enumerate() {
                let cells: Vec<String> = row.iter().map(|s| format!("`{}`", md(s))).collect();
                println!("| {} | {} |", i + 1, cells.join(" | "));
            }
        }
        Format::Csv => {
            let header: Vec<String> = (1..=n).map(|j| j.to_string()).collect();
            println!("i\\j,{}", header.join(","));
            for (i, row) in text.iter().enumerate() {
                let cells: Vec<String> = row.iter().map(|s| csv(s)).collect();
                println!("{},{}", i + 1, cells.join(","));
            }
        }
    }
    Ok(())
}
