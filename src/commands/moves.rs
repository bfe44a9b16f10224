//! `chopsticks moves POSITION`: the legal moves and the positions they lead to.

use anyhow::{bail, Result};
use chopsticks_rules::Position;
use clap::Args;
use serde_json::json;

use crate::rules_args::{NotationArgs, RulesArgs};

/// The most moves `moves` lists (checked against a bound before listing them).
pub const MAX_LISTED_MOVES: u64 = 100_000;

#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The position, in any notation: `1211`, `[1211]`, `12-11`, `1,12-3,4`, `(1,2|1,1)_4`.
    position: String,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    notation: NotationArgs,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &MovesArgs) -> Result<()> {
    let rules = args.rules.ruleset()?;
    let notation = args.notation.notation(&rules)?;
    let position = Position::parse(&args.position, &rules)?;
    let write = |p: &Position| p.to_notation(&rules, notation);
    let bound = position.move_count_bound(&rules);
    if bound > MAX_LISTED_MOVES {
        bail!(
            "this position may have up to {bound} moves (F = {} allows that many transfers); \
             `moves` lists at most {MAX_LISTED_MOVES}",
            rules.fingers
        );
    }
    let moves = position.moves(&rules);
    if args.json {
        let list = moves
            .iter()
            .map(|(m, q)| {
                Ok(json!({"move": m.describe(&rules), "kind": m.kind(), "to": super::child_text(&rules, notation, q)?}))
            })
            .collect::<Result<Vec<_>>>()?;
        super::print_json(&json!({
            "ruleset": rules.describe(),
            "position": write(&position)?,
            "terminal": position.is_terminal(&rules),
            "moves": list,
        }));
        return Ok(());
    }
    println!("{} ({})", write(&position)?, rules.describe());
    if position.is_terminal(&rules) {
        println!("The game is over: no moves.");
        return Ok(());
    }
    println!(
        "{} legal move{}:",
        moves.len(),
        if moves.len() == 1 { "" } else { "s" }
    );
    let width = moves
        .iter()
        .map(|(m, _)| m.describe(&rules).chars().count())
        .max()
        .unwrap_or(0);
    for (m, q) in &moves {
        let text = m.describe(&rules);
        let pad = width - text.chars().count();
        println!(
            "  {text}{}  {:<11} → {}",
            " ".repeat(pad),
            m.kind(),
            super::child_text(&rules, notation, q)?
        );
    }
    Ok(())
}
