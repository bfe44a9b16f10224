//! `chopsticks moves POSITION`: the legal moves and the positions they lead to.

use anyhow::Result;
use chopsticks_rules::SeatedPosition;
use clap::Args;

use crate::rules_args::{NotationArgs, RulesArgs};

pub use chopsticks_report::MAX_LISTED_MOVES;

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
    if args.json {
        super::print_json(&chopsticks_report::moves(&rules, &seated, printed)?);
        return Ok(());
    }
    let position = seated.position();
    let bound = position.move_count_bound(&rules);
    if bound > MAX_LISTED_MOVES {
        return Err(chopsticks_report::ReportError::TooManyMoves {
            bound,
            fingers: rules.fingers,
        }
        .into());
    }
    let moves = position.moves_with_steps(&rules);
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
