//! `chopsticks review GAME`: every move of a recorded game against the solved
//! table, its mistakes with the best moves and their refutation lines, and each
//! player's accuracy. The record's format is `chopsticks_learn::record`'s
//! (docs/LEARN.md).

use std::io::Read;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use chopsticks_learn::record::{GameRecord, MAX_RECORD_BYTES};
use chopsticks_learn::{review, Review, Verdict};
use chopsticks_rules::{Ruleset, SeatedPosition};
use clap::Args;

use super::solved::{solved_ruleset, DbArgs, SolvedChecks};
use crate::rules_args::{OutputArgs, RulesArgs};

#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The game record: a file, or `-` (or nothing) for standard input. Its first
    /// line names the variant (`variant standard`); the rule flags give it for a
    /// record without one.
    game: Option<PathBuf>,
    /// Only the mistakes (moves that were not best), not every move.
    #[arg(long)]
    #[arg(help_heading = "Output")]
    mistakes: bool,
    /// Without the lines (the best line and the refutation of each mistake).
    #[arg(long)]
    #[arg(help_heading = "Output")]
    no_lines: bool,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    output: OutputArgs,
}

/// Reads a record from a file or standard input, at most [`MAX_RECORD_BYTES`].
fn read_record(path: Option<&PathBuf>) -> Result<(String, String)> {
    let mut bytes = Vec::new();
    let name = match path {
        None => "standard input".to_string(),
        Some(p) if p.as_os_str() == "-" => "standard input".to_string(),
        Some(p) => p.display().to_string(),
    };
    let limit = MAX_RECORD_BYTES as u64 + 1;
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let file = super::open_input(p)?;
            file.take(limit)
                .read_to_end(&mut bytes)
                .with_context(|| format!("cannot read {name}"))?;
        }
        _ => {
            use std::io::IsTerminal;
            if std::io::stdin().is_terminal() {
                bail!(
                    "give the game record as a file (`chopsticks review game.txt`), or pipe it in \
                     (`chopsticks review < game.txt`); `chopsticks play --record FILE` and the \
                     page's Game record box write one"
                );
            }
            std::io::stdin()
                .take(limit)
                .read_to_end(&mut bytes)
                .with_context(|| format!("cannot read {name}"))?;
        }
    }
    if bytes.len() > MAX_RECORD_BYTES {
        bail!("{name}: a game record is at most {MAX_RECORD_BYTES} bytes");
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{name}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok((name, text))
}

pub fn run(args: &ReviewArgs) -> Result<()> {
    let (name, text) = read_record(args.game.as_ref())?;
    let record = GameRecord::parse(&text).with_context(|| name.clone())?;
    let flags = args
        .rules
        .any_given()
        .then(|| args.rules.ruleset())
        .transpose()?;
    let rules = match (&record.variant, flags.as_ref(), &args.db.db) {
        // A record without a variant, read with a file: the file's rules.
        (None, None, Some(_)) => None,
        // Without a variant or rule flags: the standard game, as every command.
        (None, None, None) => Some(args.rules.ruleset()?),
        _ => Some(record.rules(flags.as_ref()).with_context(|| name.clone())?),
    };
    // The moves are checked before any solving.
    let (s, replay) = solved_ruleset(rules, &args.db, args.output.quiet, |rules| {
        record.replay(rules).with_context(|| name.clone())
    })?;
    if args.output.json {
        let shape = chopsticks_report::ReviewShape {
            mistakes_only: args.mistakes,
            no_lines: args.no_lines,
        };
        super::print_json(&chopsticks_report::review(&s, &replay, shape)?);
        return Ok(());
    }
    let mut checker = s.checker()?;
    let r = review(&s.solution, &replay, &mut checker)?;
    print_review(&r, &s.rules, args)?;
    Ok(())
}

fn print_review(r: &Review, rules: &Ruleset, args: &ReviewArgs) -> Result<()> {
    // Positions as everywhere: the seated id and every player's hands.
    let shown = |text: &str| -> Result<(String, chopsticks_rules::Player)> {
        let at = SeatedPosition::parse(text, rules)?;
        Ok((format!("{text}  {}", at.hands_line()), at.mover()))
    };
    let (start, mover) = shown(&r.start)?;
    println!(
        "Review of a game of {} ({}): {} from {start} ({} for {mover}).",
        r.variant,
        rules.describe(),
        crate::text::counted(r.moves.len() as u64, "move"),
        r.start_value,
    );
    let width = r
        .moves
        .iter()
        .map(|m| m.name.chars().count())
        .max()
        .unwrap_or(0);
    for m in &r.moves {
        if args.mistakes && m.verdict == Verdict::Best {
            continue;
        }
        let pad = " ".repeat(width - m.name.chars().count());
        let mark = match m.verdict {
            Verdict::Best => "  ",
            Verdict::SlowerWin { .. } | Verdict::FasterLoss { .. } => "?!",
            _ => "??",
        };
        println!(
            "{:>4}. P{} {}{pad}  {:<11} → {:<11} {mark} {}",
            m.ply,
            m.player,
            m.name,
            m.before.to_string(),
            m.after.to_string(),
            m.verdict.words()
        );
        if m.verdict == Verdict::Best {
            continue;
        }
        let plural = if m.best.len() == 1 { "" } else { "s" };
        println!(
            "        best move{plural}: {} ({})",
            m.best.join(", "),
            m.before
        );
        if args.no_lines {
            continue;
        }
        if let Some(line) = &m.best_line {
            println!("        after {}: {}", m.best[0], line.text());
        }
        if let Some(line) = &m.refutation {
            println!("        refutation of {}: {}", m.name, line.text());
        }
    }
    let state = if let Some(after) = r.repetition {
        format!(
            "a draw by threefold repetition: the position came up a third time after move {after}"
        )
    } else if r.finished {
        "the game is over".to_string()
    } else {
        format!("Player {} to move: {}", r.last_player, r.last_value)
    };
    println!("Last position: {} ({state}).", shown(&r.last)?.0);
    println!("Players (accuracy: the share of moves that kept the player's value):");
    for p in &r.players {
        if p.moves == 0 {
            println!("  Player {}: no move", p.player);
            continue;
        }
        let mut faults = Vec::new();
        for (n, one, many) in [
            (p.thrown_wins, "win thrown away", "wins thrown away"),
            (p.thrown_draws, "draw thrown away", "draws thrown away"),
            (p.slower_wins, "slower win", "slower wins"),
            (p.faster_losses, "faster loss", "faster losses"),
        ] {
            if n > 0 {
                faults.push(format!("{n} {}", if n == 1 { one } else { many }));
            }
        }
        println!(
            "  Player {}: {} move{}, accuracy {:.0}% ({} kept the value), {} best ({:.0}%){}",
            p.player,
            p.moves,
            super::plural(p.moves as u64),
            p.accuracy * 100.0,
            p.kept,
            p.best,
            p.best_share * 100.0,
            if faults.is_empty() {
                String::new()
            } else {
                format!("; {}", faults.join(", "))
            }
        );
    }
    Ok(())
}
