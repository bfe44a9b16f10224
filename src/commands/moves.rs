//! `chopsticks moves POSITION`: the legal moves and the positions they lead to.

use anyhow::{bail, Result};
use chopsticks_rules::SeatedPosition;
use clap::Args;
use serde_json::json;

use crate::rules_args::{NotationArgs, RulesArgs};

/// The most moves `moves` lists (checked against a bound before listing them).
pub const MAX_LISTED_MOVES: u64 = 100_000;

#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The position, in any notation: seated `2_1112` (Player 2 to move, every
    /// player's hands, Player 1 first), or the player to move first: `1211`,
    /// `[1211]`, `12-11`, `1,12-3,4`, `(1,2|1,1)_4`.
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
    let printed = args.notation.printed(&rules)?;
    let seated = SeatedPosition::parse(&args.position, &rules)?;
    let position = seated.position();
    let bound = position.move_count_bound(&rules);
    if bound > MAX_LISTED_MOVES {
        bail!(
            "this position may have up to {bound} moves (F = {} allows that many transfers); \
             `moves` lists at most {MAX_LISTED_MOVES}",
            rules.fingers
        );
    }
    let moves = position.moves_with_steps(&rules);
    if args.json {
        let list = moves
            .iter()
            .map(|(m, q, step)| {
                Ok(json!({
                    "move": seated.move_name(&rules, m),
                    "kind": m.kind(),
                    "to": super::child_text(&rules, printed, &seated, q, *step)?,
                }))
            })
            .collect::<Result<Vec<_>>>()?;
        super::print_json(&super::with_variant(
            &rules,
            json!({
                "position": seated.write(&rules, printed)?,
                "player": seated.mover().number(),
                "hands": seated.hands_by_seat(),
                "terminal": position.is_terminal(&rules),
                "moves": list,
            }),
        ));
        return Ok(());
    }
    println!(
        "{}  {} ({})",
        seated.write(&rules, printed)?,
        seated.hands_line(),
        rules.describe()
    );
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
        .map(|(m, _, _)| seated.move_name(&rules, m).chars().count())
        .max()
        .unwrap_or(0);
    for (m, q, step) in &moves {
        let text = seated.move_name(&rules, m);
        let pad = width - text.chars().count();
        println!(
            "  {text}{}  {:<11} → {}",
            " ".repeat(pad),
            m.kind(),
            super::child_text(&rules, printed, &seated, q, *step)?
        );
    }
    Ok(())
}
