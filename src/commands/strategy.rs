//! `chopsticks strategy`: a winning strategy a person can remember, or the positions
//! to avoid in a drawn variant.

use anyhow::{bail, Context, Result};
use chopsticks_rules::Position;
use chopsticks_solve::strategy::{minimise, traps, verify, winning_strategy, Winner};
use clap::Args;
use serde_json::json;

use super::solved::{outcome_json, outcome_text, solved, DbArgs};
use crate::rules_args::{OutputArgs, RulesArgs};
use crate::workload::explore_with_progress;

/// Lists up to this many configurations are shortened (one check per entry).
const MINIMISE_UP_TO: usize = 2000;

#[derive(Args, Debug)]
pub struct StrategyArgs {
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    db: DbArgs,
    /// Start from this position instead of the usual start.
    #[arg(long)]
    start: Option<String>,
    #[command(flatten)]
    output: OutputArgs,
}

/// `[2,1],[1,1]`: the winner's hands (largest first, as Wikipedia writes them), then
/// the opponent's, for a position where the opponent is to move.
fn configuration(p: &Position) -> String {
    let write = |h: &[u32]| {
        let v: Vec<String> = h.iter().rev().map(u32::to_string).collect();
        format!("[{}]", v.join(","))
    };
    format!("{},{}", write(&p.players()[1]), write(&p.players()[0]))
}

pub fn run(args: &StrategyArgs) -> Result<()> {
    let s = solved(&args.rules, &args.db, args.output.quiet)?;
    s.check_all(args.output.quiet)?;
    let start = match &args.start {
        Some(text) => Position::parse(text, &s.rules).context("--start")?,
        None => Position::start(&s.rules),
    };
    let start_index = s.graph.index_of(&start);
    let start_outcome = s.solution.outcome_at(start_index);
    if start.is_terminal(&s.rules) {
        bail!("the game is already over at the start position: there is nothing to play");
    }
    if let Some(strategy) = winning_strategy(&s.graph, &s.solution, start_index) {
        if let Err(e) = verify(&s.graph, start_index, &strategy) {
            bail!("internal error: the extracted strategy fails its check: {e}");
        }
        // Shorten lists of human size; the result is checked again.
        let strategy = if strategy.configurations.len() <= MINIMISE_UP_TO {
            minimise(&s.graph, start_index, &strategy)
        } else {
            strategy
        };
        let faced = match verify(&s.graph, start_index, &strategy) {
            Ok(n) => n,
            Err(e) => bail!("internal error: the shortened strategy fails its check: {e}"),
        };
        // Finished configurations (the opponent has no live hand) become one line.
        let (finished, rest): (Vec<u64>, Vec<u64>) = strategy
            .configurations
            .iter()
            .partition(|&&c| s.graph.is_terminal(c));
        let lines: Vec<String> = rest
            .iter()
            .map(|&c| configuration(&s.graph.position(c)))
            .collect();
        let who = match strategy.winner {
            Winner::First => "first",
            Winner::Second => "second",
        };
        if args.output.json {
            super::print_json(&json!({
                "ruleset": s.rules.describe(),
                "start": outcome_json(&start_outcome),
                "winner": who,
                "win_immediately": !finished.is_empty(),
                "configurations": lines,
                "positions_faced": faced,
                "verified": true,
            }));
            return Ok(());
        }
        println!("{}", s.rules.describe());
        println!(
            "The {who} player can force a win ({} for the first player).",
            outcome_text(&start_outcome)
        );
        println!(
            "After each of your moves, reach the first configuration of this list that you can \
             ([your hands],[opponent's hands]):"
        );
        if !finished.is_empty() {
            println!("  [?,?],[0,0]  (win immediately if you can)");
        }
        for line in &lines {
            println!("  {line}");
        }
        println!(
            "Checked: this list wins against every defence ({} configurations, {faced} positions faced).",
            strategy.configurations.len()
        );
        return Ok(());
    }
    let reached = explore_with_progress(&s.graph, &start, args.output.quiet)
        .exploration
        .reached;
    let avoid = traps(&s.graph, &s.solution, reached.iter());
    let lines: Vec<String> = avoid
        .iter()
        .map(|&c| {
            let o = s.solution.outcome_at(c);
            format!(
                "{}  (opponent wins in {})",
                configuration(&s.graph.position(c)),
                o.remoteness.unwrap_or(0)
            )
        })
        .collect();
    if args.output.json {
        super::print_json(&json!({
            "ruleset": s.rules.describe(),
            "start": outcome_json(&start_outcome),
            "winner": null,
            "avoid": avoid.iter().map(|&c| configuration(&s.graph.position(c))).collect::<Vec<_>>(),
        }));
        return Ok(());
    }
    println!("{}", s.rules.describe());
    println!("Neither player can force a win: with best play the game never ends.");
    println!(
        "Never leave your opponent in one of these {} configurations ([your hands],[opponent's hands]):",
        lines.len()
    );
    for line in &lines {
        println!("  {line}");
    }
    Ok(())
}
