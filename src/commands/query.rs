//! `chopsticks query POSITION`: a position's value and every move's value, best first.

use anyhow::Result;
use chopsticks_rules::Position;
use clap::Args;
use serde_json::json;

use super::solved::{outcome_json, outcome_text, solved, verdict, DbArgs};
use crate::rules_args::{NotationArgs, OutputArgs, RulesArgs};

#[derive(Args, Debug)]
pub struct QueryArgs {
    /// The position, in any notation (mover's hands first).
    position: String,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    notation: NotationArgs,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: &QueryArgs) -> Result<()> {
    let s = solved(&args.rules, &args.db, args.output.quiet)?;
    let notation = args.notation.notation(&s.rules)?;
    let position = Position::parse(&args.position, &s.rules)?;
    s.check_around(&position)?;
    let write = |p: &Position| p.to_notation(&s.rules, notation);
    let outcome = s.solution.outcome(&position);
    let moves = s.solution.evaluate_moves(&position);
    if args.output.json {
        let list = moves
            .iter()
            .map(|m| {
                Ok(json!({
                    "move": m.mv.describe(&s.rules),
                    "kind": m.mv.kind(),
                    "to": super::child_text(&s.rules, notation, &m.to)?,
                    "value": m.outcome.value.name(),
                    "remoteness": m.outcome.remoteness,
                }))
            })
            .collect::<Result<Vec<_>>>()?;
        let mut value = outcome_json(&outcome);
        value["position"] = json!(write(&position)?);
        value["terminal"] = json!(position.is_terminal(&s.rules));
        value["moves"] = json!(list);
        super::print_json(&value);
        return Ok(());
    }
    println!(
        "{}: {} ({})",
        write(&position)?,
        outcome_text(&outcome),
        verdict(&outcome)
    );
    if moves.is_empty() {
        println!("No moves: the game is over.");
        return Ok(());
    }
    println!("Moves, best first (value for the player making the move):");
    let width = moves
        .iter()
        .map(|m| m.mv.describe(&s.rules).chars().count())
        .max()
        .unwrap_or(0);
    for m in &moves {
        let text = m.mv.describe(&s.rules);
        let pad = " ".repeat(width - text.chars().count());
        println!(
            "  {text}{pad}  → {:<14} {}",
            super::child_text(&s.rules, notation, &m.to)?,
            outcome_text(&m.outcome)
        );
    }
    Ok(())
}
