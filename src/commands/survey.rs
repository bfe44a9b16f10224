//! `chopsticks survey`: solve a family of variants (ranges of fingers and hands) and
//! tabulate who wins from the start: the published tables, extended.

use std::ops::RangeInclusive;

use anyhow::{bail, Result};
use chopsticks_rules::{Position, PositionIndex, Ruleset};
use chopsticks_solve::{Solution, Summary, Value};
use chopsticks_space::explore;
use clap::Args;
use serde_json::json;

use super::solved::{outcome_json, outcome_text};
use crate::progress;
use crate::rules_args::{OutputArgs, RulesArgs};
use crate::workload::{announce_if_long, graph_for_solving, solving_bytes, solving_seconds};

/// Variants with more positions than this are skipped (and reported as skipped).
const MAX_POSITIONS: u64 = 50_000_000;

#[derive(Args, Debug)]
pub struct SurveyArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Values of F to survey: `5`, or a range `2..9` (inclusive).
    #[arg(long = "fingers-range", default_value = "2..9", value_parser = parse_range)]
    #[arg(help_heading = "Family")]
    fingers_range: RangeInclusive<u32>,
    /// Hands per player to survey: `2`, or a range `1..3` (inclusive).
    #[arg(long = "hands-range", default_value = "1..3", value_parser = parse_range)]
    #[arg(help_heading = "Family")]
    hands_range: RangeInclusive<u32>,
    #[command(flatten)]
    output: OutputArgs,
}

/// Reads `A` or `A..B` (inclusive; `A..=B` and `A-B` too).
fn parse_range(text: &str) -> Result<RangeInclusive<u32>, String> {
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("`{t}` is not a whole number"))
    };
    let (a, b) = if let Some((a, b)) = text.split_once("..=") {
        (number(a)?, number(b)?)
    } else if let Some((a, b)) = text.split_once("..").or_else(|| text.split_once('-')) {
        (number(a)?, number(b)?)
    } else {
        let a = number(text)?;
        (a, a)
    };
    if a > b {
        return Err(format!("empty range {a}..{b}"));
    }
    if b - a > 1000 {
        return Err(format!("range {a}..{b} is too wide (at most 1001 values)"));
    }
    Ok(a..=b)
}

/// One surveyed variant.
struct Row {
    variant: String,
    hands: u32,
    fingers: u32,
    positions: u64,
    /// `None` when skipped as too large.
    result: Option<Summary>,
}

pub fn run(args: &SurveyArgs) -> Result<()> {
    // The survey sets the hands and fingers of each variant itself: a flag that
    // would be ignored is refused with the one to use.
    if let Some(hands) = &args.rules.hands {
        let list: Vec<String> = hands.iter().map(usize::to_string).collect();
        bail!(
            "the survey varies the hands itself: use --hands-range {} (or a range such as 1..3) instead of --hands",
            list.join(",").split(',').next().unwrap_or("2")
        );
    }
    if let Some(fingers) = args.rules.fingers {
        bail!(
            "the survey varies F itself: use --fingers-range {fingers} (or a range such as 2..9) instead of --fingers"
        );
    }
    let base = args.rules.ruleset()?;
    if let Some(id) = &args.rules.variant {
        // A variant id's own `hN` / `fN` would be replaced by every size surveyed.
        if let Some(token) = chopsticks_rules::variant_size_token(id, 'h') {
            bail!(
                "the survey varies the hands itself: `{token}` in --variant would be ignored; drop it and use --hands-range {} instead",
                token[1..].split('-').next().unwrap_or("2")
            );
        }
        if let Some(token) = chopsticks_rules::variant_size_token(id, 'f') {
            bail!(
                "the survey varies F itself: `{token}` in --variant would be ignored; drop it and use --fingers-range {} instead",
                &token[1..]
            );
        }
    }
    if base.players() != 2 {
        bail!(
            "the survey solves two-player variants; this ruleset has {}",
            base.players()
        );
    }
    let cells: Vec<(u32, u32)> = args
        .hands_range
        .clone()
        .flat_map(|h| args.fingers_range.clone().map(move |f| (h, f)))
        .collect();
    // Sizes first: the whole survey's time is announced when it is long.
    let mut sizes = Vec::with_capacity(cells.len());
    for &(hands, fingers) in &cells {
        let rules = Ruleset {
            hands: vec![hands as usize; 2],
            fingers,
            ..base.clone()
        };
        rules.validate()?;
        let positions = PositionIndex::new(&rules)
            .map(|i| i.count())
            .unwrap_or(u64::MAX);
        sizes.push((rules, positions));
    }
    let solved: Vec<u64> = sizes
        .iter()
        .map(|&(_, p)| p)
        .filter(|&p| p <= MAX_POSITIONS)
        .collect();
    announce_if_long(
        &format!(
            "surveying {} variants ({} positions to solve)",
            solved.len(),
            solved.iter().sum::<u64>()
        ),
        solved
            .iter()
            .map(|&p| solving_bytes(&base, p))
            .max()
            .unwrap_or(0),
        solved.iter().map(|&p| solving_seconds(p)).sum(),
        args.output.quiet,
    );
    let bar = progress::bar(cells.len() as u64, "surveying", args.output.quiet);
    let mut rows = Vec::new();
    for ((hands, fingers), (rules, positions)) in cells.into_iter().zip(sizes) {
        let result = if positions > MAX_POSITIONS {
            None
        } else {
            let graph = graph_for_solving(&rules, true)?;
            let solution = Solution::solve(&graph, &|_| {})?;
            let start = graph.index_of(&Position::start(&rules));
            let reached = explore(&graph, start, &|_| {}).reached;
            Some(Summary::new(&graph, &solution, &reached, start)?)
        };
        rows.push(Row {
            variant: rules.variant_id(),
            hands,
            fingers,
            positions,
            result,
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    // The rules without hands and F, e.g. "cutoff; attack, self-attack, transfer".
    let description = {
        let full = base.describe();
        let rules = full.split_once("; ").map_or("", |(_, r)| r).to_string();
        let overflow = match base.overflow {
            chopsticks_rules::Overflow::Cutoff => "cutoff",
            chopsticks_rules::Overflow::Rollover => "rollover",
        };
        format!("{overflow}; {rules}")
    };
    if args.output.json {
        let list: Vec<_> = rows
            .iter()
            .map(|r| {
                json!({
                    "variant": r.variant,
                    "hands": [r.hands, r.hands],
                    "fingers": r.fingers,
                    "positions": r.positions,
                    "skipped": r.result.is_none(),
                    "reachable": r.result.as_ref().map(|s| s.reachable),
                    "win": r.result.as_ref().map(|s| s.win),
                    "lose": r.result.as_ref().map(|s| s.lose),
                    "draw": r.result.as_ref().map(|s| s.draw),
                    "terminal": r.result.as_ref().map(|s| s.terminal),
                    "start": r.result.as_ref().map(|s| outcome_json(&s.start)),
                })
            })
            .collect();
        super::print_json(&json!({"description": description, "variants": list}));
        return Ok(());
    }
    println!("Two players, {description}; F and the hands per player varied.");
    println!("hands   F    positions    reachable        draws  start (for Player 1)");
    for r in &rows {
        match &r.result {
            Some(s) => {
                let who = match s.start.value {
                    Value::Win => "Player 1 wins",
                    Value::Lose => "Player 2 wins",
                    Value::Draw => "drawn",
                };
                println!(
                    "{:>5} {:>3} {:>12} {:>12} {:>12}  {} ({who})",
                    r.hands,
                    r.fingers,
                    crate::text::count(r.positions),
                    crate::text::count(s.reachable),
                    crate::text::count(s.draw),
                    outcome_text(&s.start)
                );
            }
            None => println!(
                "{:>5} {:>3} {:>12}  skipped: more than {} positions",
                r.hands,
                r.fingers,
                if r.positions == u64::MAX {
                    "> 2^64".to_string()
                } else {
                    crate::text::count(r.positions)
                },
                crate::text::count(MAX_POSITIONS)
            ),
        }
    }
    Ok(())
}
