//! `chopsticks strategy`: a winning strategy a person can remember, or the positions
//! to avoid in a drawn variant.

use anyhow::{anyhow, bail, Context, Result};
use chopsticks_rules::Position;
use chopsticks_solve::strategy::{advice, Advice};
use clap::Args;
use serde_json::json;

use super::solved::{outcome_json, outcome_text, solved, DbArgs};
use crate::rules_args::{OutputArgs, RulesArgs};
use crate::workload::explore_with_progress;

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
    let advice = advice(&s.graph, &s.solution, start_index, || {
        explore_with_progress(&s.graph, &start, args.output.quiet)
            .exploration
            .reached
            .iter()
            .collect()
    })
    .map_err(|e| anyhow!("internal error: {e}"))?;
    match advice {
        Advice::Win {
            winner,
            win_immediately,
            configurations,
            listed,
            positions_faced,
        } => {
            let who = winner.name();
            if args.output.json {
                super::print_json(&json!({
                    "ruleset": s.rules.describe(),
                    "start": outcome_json(&start_outcome),
                    "winner": who,
                    "win_immediately": win_immediately,
                    "configurations": configurations,
                    "positions_faced": positions_faced,
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
                "After each of your moves, reach the first configuration of this list that you \
                 can ([your hands],[opponent's hands]):"
            );
            if win_immediately {
                println!("  [?,?],[0,0]  (win immediately if you can)");
            }
            for line in &configurations {
                println!("  {line}");
            }
            println!(
                "Checked: this list wins against every defence ({listed} configurations, \
                 {positions_faced} positions faced)."
            );
        }
        Advice::Draw { avoid } => {
            if args.output.json {
                super::print_json(&json!({
                    "ruleset": s.rules.describe(),
                    "start": outcome_json(&start_outcome),
                    "winner": null,
                    "avoid": avoid.iter().map(|(c, _)| c).collect::<Vec<_>>(),
                }));
                return Ok(());
            }
            println!("{}", s.rules.describe());
            println!("Neither player can force a win: with best play the game never ends.");
            println!(
                "Never leave your opponent in one of these {} configurations ([your \
                 hands],[opponent's hands]):",
                avoid.len()
            );
            for (line, wins_in) in &avoid {
                println!("  {line}  (opponent wins in {wins_in})");
            }
        }
    }
    Ok(())
}
