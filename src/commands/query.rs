//! `chopsticks query POSITION`: a position's value and every move's value, best first.

use anyhow::Result;
use chopsticks_report::by_player;
use chopsticks_rules::{team_seats, team_text, Player, SeatedPosition};
use chopsticks_solve::Concept;
use clap::Args;

use super::solved::{outcome_text, solved, verdict, DbArgs};
use crate::rules_args::{NotationArgs, OutputArgs, RulesArgs};

#[derive(Args, Debug)]
pub struct QueryArgs {
    /// The position, in any notation: seated `2_1312` (Player 2 to move, every
    /// player's hands, Player 1 first), or the player to move first (`1213`,
    /// `12-13`, `(1,2|1,3)_4`, read as Player 1 to move).
    position: String,
    /// Show, after each move, the line that follows it with best play on both
    /// sides (to the end of the game, or for a draw to the first position met
    /// again); and the line from the position itself.
    #[arg(long)]
    #[arg(help_heading = "Analysis")]
    line: bool,
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
    let printed = args.notation.printed(&s.rules)?;
    let seated = SeatedPosition::parse(&args.position, &s.rules)?;
    if args.output.json {
        super::print_json(&chopsticks_report::query(&s, &seated, printed, args.line)?);
        return Ok(());
    }
    let chopsticks_report::Analysis {
        moves,
        seats,
        line,
        move_lines,
    } = chopsticks_report::analyse(&s, &seated, args.line)?;
    let concept = s.solution.concept();
    let mover = seated.mover();
    let written = seated.write(&s.rules, printed)?;
    let head = format!("{written}  {}", seated.hands_line());
    match concept {
        Concept::Coalition => {
            println!("{head}: each player's value alone against all the others together:");
            for (player, o) in by_player(&seated, &seats) {
                let to_move = if player == mover { " (to move)" } else { "" };
                println!("  {:<20} {}", format!("{player}{to_move}"), outcome_text(o));
            }
        }
        Concept::Teams => println!(
            "{head}: {} for {}, to move, and partners ({})",
            outcome_text(&seats[0]),
            mover,
            team_text(team_seats(mover.seat(), s.rules.players()))
        ),
        Concept::TwoPlayer => println!(
            "{head}: {} ({})",
            outcome_text(&seats[0]),
            verdict(&seats[0], mover)
        ),
    }
    if moves.is_empty() {
        println!("No moves: the game is over.");
        return Ok(());
    }
    if let Some(l) = &line {
        println!("Best play from here: {}", l.text());
    }
    let whose = match concept {
        Concept::Coalition => {
            format!(
                "value for {mover}, who moves, then for {}",
                (1..s.rules.players())
                    .map(|k| Player::from_seat(seated.seat_of(k)).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        Concept::Teams => format!("value for {mover}'s team, which moves"),
        Concept::TwoPlayer => format!("value for {mover}, who moves"),
    };
    println!("Moves, best first ({whose}):");
    let width = moves
        .iter()
        .map(|m| seated.move_name(&s.rules, &m.mv).chars().count())
        .max()
        .unwrap_or(0);
    for (k, m) in moves.iter().enumerate() {
        let text = seated.move_name(&s.rules, &m.mv);
        let pad = " ".repeat(width - text.chars().count());
        let value = if concept == Concept::Coalition {
            let rest: Vec<String> = m.seats[1..].iter().map(outcome_text).collect();
            format!("{:<12}  | {}", outcome_text(&m.outcome), rest.join(" | "))
        } else {
            outcome_text(&m.outcome)
        };
        println!(
            "  {text}{pad}  → {:<14} {value}",
            super::child_text(&s.rules, printed, &seated, &m.to, m.step)?,
        );
        if let Some(l) = move_lines.get(k) {
            println!("      then: {}", l.text());
        }
    }
    Ok(())
}
