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
    /// The game so far: the positions before POSITION, oldest first,
    /// comma-separated (each following the one before by a legal move). The
    /// values are then the game's, its repetitions counted (see
    /// `--repetitions`), the table's beside them.
    #[arg(
        long,
        value_name = "POSITIONS",
        conflicts_with = "line",
        help_heading = "Analysis"
    )]
    history: Option<String>,
    /// With `--history`: a position met this many times draws (3 by default),
    /// or `none` to play on for ever.
    #[arg(
        long,
        value_name = "N|none",
        requires = "history",
        help_heading = "Analysis"
    )]
    repetitions: Option<String>,
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
    if let Some(before) = &args.history {
        return game(&s, before, &seated, args);
    }
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

/// `query P --history …`: the values of the game so far, the table's beside.
fn game(
    s: &chopsticks_solve::Solved,
    before: &str,
    seated: &SeatedPosition,
    args: &QueryArgs,
) -> Result<()> {
    use chopsticks_learn::{History, Repetitions};
    let repetitions = match &args.repetitions {
        Some(text) => {
            Repetitions::parse(text).map_err(|e| anyhow::anyhow!("--repetitions: {e}"))?
        }
        None => Repetitions::default(),
    };
    if before.trim().is_empty() {
        anyhow::bail!(
            "--history: no position: give the positions before {}, oldest first, comma-separated",
            args.position
        );
    }
    let mut positions = before
        .split(',')
        .map(str::trim)
        .enumerate()
        .map(|(k, p)| {
            if p.is_empty() {
                anyhow::bail!(
                    "--history: position {} is empty (two commas, or one at an end)",
                    k + 1
                );
            }
            SeatedPosition::parse(p, &s.rules)
                .map_err(|e| anyhow::anyhow!("--history: position {}: {e}", k + 1))
        })
        .collect::<Result<Vec<_>>>()?;
    if positions.last() == Some(seated) {
        anyhow::bail!(
            "--history ends with {} itself: it lists the positions before POSITION (leave the position now out)",
            args.position
        );
    }
    positions.push(seated.clone());
    let history = History::from_positions(positions, repetitions).expect("the position now");
    let value = chopsticks_report::game(s, &history)?;
    if args.output.json {
        super::print_json(&value);
        return Ok(());
    }
    let words = |v: &serde_json::Value, value: &str, remoteness: &str| -> String {
        match v[remoteness].as_u64() {
            Some(r) => format!("{} in {r}", v[value].as_str().unwrap_or_default()),
            None => v[value].as_str().unwrap_or_default().to_string(),
        }
    };
    let seen = match value["times_seen"].as_u64().unwrap_or(1) {
        1 => "once".to_string(),
        n => format!("{n} times"),
    };
    println!(
        "{}  {} after {} (repetitions: {}; this position seen {seen})",
        seated.to_text(&s.rules)?,
        seated.hands_line(),
        crate::text::plies(value["plies"].as_u64().unwrap_or(0)),
        value["repetitions"].as_str().unwrap_or_default(),
    );
    if let Some(end) = value["end"].as_object() {
        let how = match end.get("times") {
            Some(t) => format!("a draw by repetition (the position came up {t} times)"),
            None => "finished by the rules".to_string(),
        };
        println!("The game is over: {how}.");
        return Ok(());
    }
    let free = value["repetitions"] == "none";
    let alone = if free {
        String::new()
    } else {
        format!(
            " (the position alone: {})",
            words(&value, "table_value", "table_remoteness")
        )
    };
    let bound = if value["exact"] == false {
        "; past the bound, the table's values"
    } else {
        ""
    };
    println!(
        "Player {} to move: {} in this game{alone}{bound}. Moves, best first:",
        value["player"],
        words(&value, "value", "remoteness"),
    );
    for m in value["moves"].as_array().into_iter().flatten() {
        let game = words(m, "value", "remoteness");
        let table = words(m, "table_value", "table_remoteness");
        let note = if m["repetition"] == true {
            " (brings a position up for the last time: a draw by repetition)".to_string()
        } else if game != table && !free {
            format!(" (the position alone: {table})")
        } else {
            String::new()
        };
        println!(
            "  {:<16} → {}  {game}{note}",
            m["move"].as_str().unwrap_or_default(),
            m["to"].as_str().unwrap_or_default()
        );
    }
    Ok(())
}
