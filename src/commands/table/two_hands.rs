//! `chopsticks table two-hands`: the values of every position with two hands a
//! side under the paper's future-work variants (rollover, splits, revivals),
//! whose play can cycle: loopy values, found together by one joint side search
//! ([`chopsticks_values::two_hand_table`]).

use std::time::Instant;

use anyhow::{bail, Result};
use chopsticks_loopy::{Outcome, Value};
use chopsticks_rules::Ruleset;
use chopsticks_values::picture::GridPicture;
use chopsticks_values::{two_hand_sides, TwoHandRules, MAX_TWO_HAND_N};
use clap::Args;
use serde_json::json;

use super::{check_picture_paths, csv, md, write_pictures, Format};
use crate::progress;

/// The most positions of the joint game graph (4,355 at n = 10).
const MAX_VERTICES: usize = chopsticks_loopy::sides::MAX_SIDE_VERTICES_LIMIT;

/// The default of `--side-work` (steps of loopy work; about twelve million a
/// second in these tables here): revivals at n = 10, the longest table that
/// completes without a limit, takes 5.14 × 10⁹ steps (344 s), so every
/// table up to n = 10 under rollover, revivals, even revivals and splits
/// completes within ten minutes on the machine of docs/PERFORMANCE.md, and
/// only rollover at n = 9 reaches the limit.
const DEFAULT_SIDE_WORK: &str = "5500000000";

/// Reads `--side-work`: a count of steps, or `none` for no limit.
fn side_work_steps(text: &str) -> Result<u64, String> {
    if text == "none" {
        return Ok(u64::MAX);
    }
    text.parse::<u64>()
        .map_err(|_| format!("`{text}` is not a count of steps (a whole number) or `none`"))
}

/// Largest side graph (positions reachable) of a value not reduced that the
/// table prints: past it the value is named as not reduced with its graphs'
/// sizes (`value` on the one position prints the graphs). Past the side-work
/// limit of revivals at n = 8 a printed value took 120,000 characters, and
/// the JSON 235 MB.
const MAX_PRINTED_SIDE_VERTICES: usize = 256;

/// What the outcome codes mean, for `--help` and the text output.
const CODES: &str = "L: Left wins whoever starts; R: Right wins whoever starts; N: the \
    player who starts wins; P: the other player wins; D: a draw whoever starts; N^: Left \
    wins if she starts, a draw if Right starts; P^: a draw if Left starts, Left wins if \
    Right starts; Nv: a draw if Left starts, Right wins if he starts; Pv: Right wins if \
    Left starts, a draw if Right starts";

/// The options of `table two-hands` (the codes are explained on `Table::TwoHands`).
#[derive(Args, Debug)]
pub(super) struct TwoHandsArgs {
    /// The finger count n (a hand holds 1..=n fingers, F = n + 1).
    #[arg(
        long = "n",
        value_name = "N",
        default_value_t = 4,
        help_heading = "Rules"
    )]
    n: u32,
    /// Rollover: `x + y` taken modulo n + 1; a hand dies only at exactly 0.
    #[arg(long, help_heading = "Rules")]
    rollover: bool,
    /// Splits: a player may move fingers between their two live hands instead of
    /// attacking (both stay alive).
    #[arg(long, help_heading = "Rules")]
    transfer: bool,
    /// Revivals: a player may move fingers from a live hand onto a dead one.
    #[arg(long, help_heading = "Rules")]
    divide: bool,
    /// Revivals only by halving an even hand (implies --divide).
    #[arg(long, help_heading = "Rules")]
    even_divide: bool,
    /// Merges: a live hand may give all its fingers to your other live hand
    /// and die (a "suicide"; allowed with or without --transfer).
    #[arg(long, help_heading = "Rules")]
    suicide: bool,
    /// Output format: text (a summary and the grid of outcome classes), or one
    /// line per position with its value (markdown, csv).
    #[arg(long, value_enum, default_value_t = Format::Text, help_heading = "Output")]
    format: Format,
    /// Print JSON: {"n", "variant", "description", "ruleset", "sides", "counts", "positions": [{"position",
    /// "left", "right", "value" (null for a value not reduced too large to print), "not_reduced",
    /// "outcome", "left_first", "right_first", "stopper", "stopper_sided"}]} (instead of a --format).
    #[arg(long, conflicts_with = "format", help_heading = "Output")]
    json: bool,
    /// Draw the grid of outcome classes as a PNG picture (rows: Left's hands,
    /// columns: Right's hands).
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    png: Option<String>,
    /// Draw it as an SVG picture.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    svg: Option<String>,
    /// Stop with an error after this many steps of loopy work (the count the
    /// progress shows; about six million a second). Unbounded by default.
    #[arg(long, value_name = "STEPS", help_heading = "Limits")]
    max_work: Option<u64>,
    /// After this many steps of loopy work the side search stops editing: the
    /// sides not reduced by then are counted and marked as not reduced, and
    /// the table completes. `none`: no limit (rollover at n = 9 then runs for
    /// more than ten minutes).
    #[arg(long, value_name = "STEPS", default_value = DEFAULT_SIDE_WORK, value_parser = side_work_steps, help_heading = "Limits")]
    side_work: u64,
    /// Print the computing time on stderr.
    #[arg(long, help_heading = "Output")]
    time: bool,
    /// No progress indicator.
    #[arg(long, short, help_heading = "Output")]
    quiet: bool,
}

impl TwoHandsArgs {
    /// The paper's game (attacks only, cutoff) with two hands a side and the
    /// variant's rules.
    fn rules(&self) -> Ruleset {
        TwoHandRules {
            rollover: self.rollover,
            transfer: self.transfer,
            divide: self.divide,
            even_divide: self.even_divide,
            suicide: self.suicide,
        }
        .ruleset(self.n)
    }
}

/// Who wins, in a word for the picture's legend.
fn winner_word(w: chopsticks_loopy::Winner) -> &'static str {
    match w {
        chopsticks_loopy::Winner::Left => "Left",
        chopsticks_loopy::Winner::Right => "Right",
        chopsticks_loopy::Winner::Draw => "draw",
    }
}

/// A side's short label: its two hands as digits (`03`, `12`).
fn side_label(side: &[u32]) -> String {
    side.iter().map(|h| h.to_string()).collect()
}

pub(super) fn run(args: &TwoHandsArgs) -> Result<()> {
    if args.n == 0 || args.n > MAX_TWO_HAND_N {
        bail!("--n must be between 1 and {MAX_TWO_HAND_N} (the table has (n(n+3)/2)² positions)");
    }
    check_picture_paths(args.png.as_deref(), args.svg.as_deref())?;
    let rules = args.rules();
    let n = args.n;
    let sides = two_hand_sides(n);
    // Slow cases (measured, docs/PERFORMANCE.md): rollover from n = 7 (minutes at
    // n = 7 and 9), rollover with revivals from n = 5, revivals from n = 7
    // (minutes), splits at n = 10 (minutes).
    let slow = (args.rollover && n >= 7)
        || (args.rollover && (args.divide || args.even_divide) && n >= 5)
        || ((args.divide || args.even_divide) && n >= 7)
        || (args.transfer && n >= 10);
    if slow {
        progress::announce(
            &format!(
                "note: {} positions under these rules can take minutes or more \
                 (the side search is exponential in the worst case); the count below is steps \
                 of work; past --side-work steps ({}) the side search stops and the \
                 table completes with the sides not reduced by then marked; \
                 --max-work bounds the whole (an error past it)",
                sides.len() * sides.len(),
                if args.side_work == u64::MAX {
                    "none".to_string()
                } else {
                    args.side_work.to_string()
                }
            ),
            args.quiet,
        );
    }
    let spinner = progress::counter("joint side search, steps of work", args.quiet);
    let side_work = args.side_work;
    let budget = chopsticks_loopy::work::Budget::with_side_limit(
        args.max_work.unwrap_or(u64::MAX),
        side_work,
    );
    let limited = budget.clone();
    let watched = budget.clone();
    progress::follow(&spinner, move || watched.steps());
    let clock = Instant::now();
    let table = chopsticks_loopy::work::with_budget(budget, || {
        chopsticks_values::two_hand_table(&rules, MAX_VERTICES)
    })
    .map_err(|e| match e {
        chopsticks_values::ValueError::Loopy(chopsticks_loopy::LoopyError::Work { .. }) => {
            anyhow::anyhow!("{e}; --max-work sets the limit")
        }
        e => anyhow::anyhow!(e),
    })?;
    spinner.finish_and_clear();
    // Whether the side searches stopped at their limit of work: some sides
    // may then be left unreduced that a longer search would reduce.
    let side_limit_reached = limited.side_limit_reached();
    let work_steps = limited.steps();
    if args.time {
        eprintln!(
            "computed {} values in {:.3} s ({work_steps} steps of loopy work)",
            sides.len() * sides.len(),
            clock.elapsed().as_secs_f64()
        );
    }
    // The paper's notation lists live hands only (what `value` reads back).
    let live = |side: &[u32]| {
        side.iter()
            .filter(|&&h| h > 0)
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let position = |l: &[u32], r: &[u32]| format!("({}|{})_{n}", live(l), live(r));
    // Each outcome once: for a side left as a graph it is a solve of the graph.
    let outcomes: Vec<Vec<Outcome>> = table
        .iter()
        .map(|row| row.iter().map(Value::outcome).collect())
        .collect();
    let class_of = |o: &Outcome| {
        Outcome::ALL
            .iter()
            .position(|c| c == o)
            .expect("an outcome class")
    };
    let cells: Vec<Vec<usize>> = outcomes
        .iter()
        .map(|row| row.iter().map(class_of).collect())
        .collect();
    let mut counts = [0usize; 9];
    for &k in cells.iter().flatten() {
        counts[k] += 1;
    }
    let all: Vec<&Value> = table.iter().flatten().collect();
    let stoppers = all.iter().filter(|v| v.is_stopper()).count();
    // Stopper-sided values that are not stoppers (`s & t`).
    let sided = all.iter().filter(|v| v.is_stopper_sided()).count() - stoppers;
    let unsided = all.len() - stoppers - sided;
    let distinct: std::collections::HashSet<&Value> = all.iter().copied().collect();

    if args.png.is_some() || args.svg.is_some() {
        let pic = GridPicture {
            title: format!(
                "Outcome classes of two-hand positions, n = {n}: {}",
                // The picture font is ASCII.
                rules.describe().replace('×', "x")
            ),
            row_label: "L".into(),
            col_label: "R".into(),
            first_row: 0,
            first_col: 0,
            row_names: sides.iter().map(|s| side_label(s)).collect(),
            col_names: sides.iter().map(|s| side_label(s)).collect(),
            legend_title: "outcome: who wins when Left starts, when Right starts".into(),
            cell_titles: sides
                .iter()
                .zip(table.iter().zip(&outcomes))
                .map(|(l, (row, outcome_row))| {
                    sides
                        .iter()
                        .zip(row.iter().zip(outcome_row))
                        .map(|(r, (v, o))| {
                            format!(
                                "{} = {}: {} ({})",
                                position(l, r),
                                value_text(v).unwrap_or_else(|e| e),
                                o.name(),
                                o.describe()
                            )
                        })
                        .collect()
                })
                .collect(),
            cells: cells.clone(),
            legend: Outcome::ALL
                .iter()
                .zip(counts)
                .map(|(o, k)| {
                    format!(
                        "{}  {}, {}  ({k} position{})",
                        o.name(),
                        winner_word(o.left_starts()),
                        winner_word(o.right_starts()),
                        super::super::plural(k as u64)
                    )
                })
                .collect(),
        };
        write_pictures(&pic, args.png.as_deref(), args.svg.as_deref(), args.quiet)?;
    }

    if args.json {
        let mut list = Vec::new();
        for (l, (row, outcome_row)) in sides.iter().zip(table.iter().zip(&outcomes)) {
            for (r, (v, o)) in sides.iter().zip(row.iter().zip(outcome_row)) {
                list.push(json!({
                    "position": position(l, r),
                    "left": l,
                    "right": r,
                    "value": value_text(v).ok(),
                    "not_reduced": chopsticks_report::value::not_reduced(v),
                    "outcome": o.name(),
                    "left_first": o.left_starts().as_str(),
                    "right_first": o.right_starts().as_str(),
                    "stopper": v.is_stopper(),
                    "stopper_sided": chopsticks_report::value::stopper_sided(v),
                }));
            }
        }
        super::super::print_json(&super::super::with_variant(
            &rules,
            json!({
                "n": n,
                "sides": sides,
                "counts": {
                    "positions": all.len(),
                    "distinct_values": distinct.len(),
                    "stoppers": stoppers,
                    "sided": sided,
                    "stopper_sided": stoppers + sided,
                    "not_reduced": unsided,
                    "side_work_limit_reached": side_limit_reached,
                    "work_steps": work_steps,
                    "outcomes": Outcome::ALL.iter().zip(counts).map(|(o, k)| (o.name(), json!(k))).collect::<serde_json::Map<String, serde_json::Value>>(),
                },
                "positions": list,
            }),
        ));
        return Ok(());
    }
    match args.format {
        Format::Text => {
            println!("Two hands a side, n = {n}: {}", rules.describe());
            println!(
                "{} ({} distinct values): {stoppers} with a stopper value, {sided} with a sided value s & t (not a stopper), {unsided} not reduced",
                crate::text::counted(all.len() as u64, "position"),
                crate::text::count(distinct.len() as u64),
            );
            if unsided > 0 {
                println!(
                    "not reduced: the bounded side search left a side of these positions with \
                     alternating cycles; their values print as simplified graphs `onside & \
                     offside`, not canonical forms (not a claim that they are not stopper-sided)"
                );
            }
            if side_limit_reached {
                println!(
                    "the side search reached its limit of work (--side-work {}): sides not \
                     reduced by then are left as simplified graphs, marked not reduced \
                     (--side-work none: no limit)",
                    args.side_work
                );
            }
            let summary: Vec<String> = Outcome::ALL
                .iter()
                .zip(counts)
                .filter(|(_, k)| *k > 0)
                .map(|(o, k)| format!("{} {k}", o.name()))
                .collect();
            println!("outcomes: {}", summary.join(", "));
            println!("({CODES})");
            println!("Outcome classes: row = Left's hands, column = Right's hands (ab = hands a and b; 0 = dead; with `value`, add --hands 2)");
            let header: Vec<String> = sides
                .iter()
                .map(|s| format!("{:>3}", side_label(s)))
                .collect();
            println!("L\\R {}", header.join(""));
            for (l, row) in sides.iter().zip(&cells) {
                let line: Vec<String> = row
                    .iter()
                    .map(|&k| format!("{:>3}", Outcome::ALL[k].name()))
                    .collect();
                println!("{:>3} {}", side_label(l), line.join(""));
            }
        }
        Format::Markdown => {
            println!(
                "| position | value | outcome | Left starts | Right starts | stopper | sides |"
            );
            println!("|---|---|---|---|---|---|---|");
            for (l, (row, outcome_row)) in sides.iter().zip(table.iter().zip(&outcomes)) {
                for (r, (v, o)) in sides.iter().zip(row.iter().zip(outcome_row)) {
                    let text = match value_text(v) {
                        Ok(t) => format!("`{}`", md(&t)),
                        Err(named) => md(&named),
                    };
                    let unreduced = chopsticks_report::value::not_reduced(v);
                    let sides_cell = if unreduced.is_empty() {
                        "reduced".to_string()
                    } else {
                        format!("not reduced: {}", unreduced.join(", "))
                    };
                    println!(
                        "| {} | {} | {} | {} | {} | {} | {} |",
                        md(&position(l, r)),
                        text,
                        md(&o.name()),
                        o.left_starts().as_str(),
                        o.right_starts().as_str(),
                        if v.is_stopper() { "yes" } else { "no" },
                        sides_cell
                    );
                }
            }
        }
        Format::Csv => {
            println!(
                "position,value,outcome,left_first,right_first,stopper,stopper_sided,not_reduced"
            );
            for (l, (row, outcome_row)) in sides.iter().zip(table.iter().zip(&outcomes)) {
                for (r, (v, o)) in sides.iter().zip(row.iter().zip(outcome_row)) {
                    // `stopper_sided` as in the JSON: true, or empty (null: not decided).
                    println!(
                        "{},{},{},{},{},{},{},{}",
                        csv(&position(l, r)),
                        csv(&value_text(v).unwrap_or_else(|e| e)),
                        o.name(),
                        o.left_starts().as_str(),
                        o.right_starts().as_str(),
                        v.is_stopper(),
                        chopsticks_report::value::stopper_sided(v).map_or("", |_| "true"),
                        chopsticks_report::value::not_reduced(v).join(";")
                    );
                }
            }
        }
    }
    Ok(())
}

/// The value's text, or, for a value whose unreduced side graphs are too large
/// to print in a table (more than [`MAX_PRINTED_SIDE_VERTICES`] positions),
/// what the table prints instead: the sides not reduced and the sizes of their
/// graphs (a side that is a stopper prints as a canonical form, small or named).
fn value_text(v: &Value) -> Result<String, String> {
    let sides = chopsticks_report::value::not_reduced(v);
    let sizes: Vec<usize> = v
        .unreduced_sides()
        .into_iter()
        .map(|side| {
            let g = match side {
                chopsticks_loopy::Side::On => v.onside_game(),
                chopsticks_loopy::Side::Off => v.offside_game(),
            };
            g.reachable().len()
        })
        .collect();
    if sizes.iter().all(|&k| k <= MAX_PRINTED_SIDE_VERTICES) {
        return Ok(v.to_string());
    }
    let shown: Vec<String> = sizes
        .iter()
        .map(|&k| crate::text::count(k as u64))
        .collect();
    Err(format!(
        "not reduced: {} (side graph{} of {} positions; `value` on this position prints \
         {})",
        sides.join(" and "),
        if sizes.len() > 1 { "s" } else { "" },
        shown.join(" and "),
        if sizes.len() > 1 { "them" } else { "it" }
    ))
}
