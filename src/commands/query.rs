//! `chopsticks query POSITION`: a position's value and every move's value, best first.

use anyhow::Result;
use chopsticks_learn::{optimal_line, Line};
use chopsticks_rules::{Position, SeatedPosition};
use chopsticks_solve::Concept;
use clap::Args;
use serde_json::json;

use super::solved::{outcome_json, outcome_text, seat_label, solved, verdict, DbArgs};
use crate::rules_args::{NotationArgs, OutputArgs, RulesArgs};

#[derive(Args, Debug)]
pub struct QueryArgs {
    /// The position, in any notation (mover's hands first), or with the seat to
    /// move (`2_1213`: Player 2 to move, every seat's hands, Player 1 first).
    position: String,
    /// Show, after each move, the line that follows it with best play on both
    /// sides (to the end of the game, or for a draw to the first position met
    /// again); and the line from the position itself.
    #[arg(long)]
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
    let notation = args.notation.notation(&s.rules)?;
    let seated = SeatedPosition::parse(&args.position, &s.rules)?;
    let position = seated.position().clone();
    s.check_around(&position)?;
    let write = |p: &Position| p.to_notation(&s.rules, notation);
    let moves = s.solution.evaluate_moves(&position)?;
    let seats = s.solution.seat_outcomes(&position)?;
    let concept = s.solution.concept();
    // The lines (`--line`): from the position, and after each move.
    let (line, move_lines) = if args.line {
        let mut checker = s.checker()?;
        let here = optimal_line(&s.solution, &seated, &mut checker)?;
        let after = moves
            .iter()
            .map(|m| {
                optimal_line(
                    &s.solution,
                    &seated.after(m.to.clone(), m.step),
                    &mut checker,
                )
            })
            .collect::<Result<Vec<Line>, _>>()?;
        (Some(here), after)
    } else {
        (None, Vec::new())
    };
    if args.output.json {
        let list = moves
            .iter()
            .enumerate()
            .map(|(k, m)| {
                let mut entry = json!({
                    "move": m.mv.describe(&s.rules),
                    "kind": m.mv.kind(),
                    "to": super::child_text(&s.rules, notation, &m.to)?,
                    "value": m.outcome.value.name(),
                    "remoteness": m.outcome.remoteness,
                    "seats": m.seats.iter().map(outcome_json).collect::<Vec<_>>(),
                });
                if let Some(l) = move_lines.get(k) {
                    entry["line"] = serde_json::to_value(l)?;
                }
                Ok(entry)
            })
            .collect::<Result<Vec<_>>>()?;
        let mut value = outcome_json(&seats[0]);
        value["position"] = json!(write(&position)?);
        value["terminal"] = json!(position.is_terminal(&s.rules));
        value["concept"] = json!(s.solution.concept());
        value["seats"] = json!(seats.iter().map(outcome_json).collect::<Vec<_>>());
        value["moves"] = json!(list);
        if let Some(l) = &line {
            value["line"] = serde_json::to_value(l)?;
        }
        super::print_json(&value);
        return Ok(());
    }
    match concept {
        Concept::Coalition => {
            println!(
                "{}: each seat's value alone against all the others together:",
                write(&position)?
            );
            for (seat, o) in seats.iter().enumerate() {
                println!("  seat {:<12} {}", seat_label(seat), outcome_text(o));
            }
        }
        Concept::Teams => println!(
            "{}: {} for the mover's team (seats 0, 2, …)",
            write(&position)?,
            outcome_text(&seats[0])
        ),
        Concept::TwoPlayer => println!(
            "{}: {} ({})",
            write(&position)?,
            outcome_text(&seats[0]),
            verdict(&seats[0])
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
            "value for the player making the move, then for seats 1, 2, … after it"
        }
        Concept::Teams => "value for the team making the move",
        Concept::TwoPlayer => "value for the player making the move",
    };
    println!("Moves, best first ({whose}):");
    let width = moves
        .iter()
        .map(|m| m.mv.describe(&s.rules).chars().count())
        .max()
        .unwrap_or(0);
    for (k, m) in moves.iter().enumerate() {
        let text = m.mv.describe(&s.rules);
        let pad = " ".repeat(width - text.chars().count());
        let value = if concept == Concept::Coalition {
            let rest: Vec<String> = m.seats[1..].iter().map(outcome_text).collect();
            format!("{:<12}  | {}", outcome_text(&m.outcome), rest.join(" | "))
        } else {
            outcome_text(&m.outcome)
        };
        println!(
            "  {text}{pad}  → {:<14} {value}",
            super::child_text(&s.rules, notation, &m.to)?,
        );
        if let Some(l) = move_lines.get(k) {
            println!("      then: {}", l.text());
        }
    }
    Ok(())
}
