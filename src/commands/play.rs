//! `chopsticks play`: a game against the perfect computer in the terminal.
//!
//! Reads commands line by line from standard input, so it also works with piped
//! input (and is tested that way): a move as `moves` prints it (`tap 1→2`,
//! `split 13→22`, `->` for `→`), or `moves`, `hint`, `undo`, `help`, `quit`.

use std::io::{BufRead, Write};

use anyhow::Result;
use chopsticks_rules::Position;
use clap::Args;

use super::solved::{outcome_text, solved, DbArgs};
use crate::rules_args::{NotationArgs, RulesArgs};

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    notation: NotationArgs,
    /// The computer moves first (by default you do).
    #[arg(long)]
    computer_first: bool,
    /// Start from this position (mover's hands first) instead of the usual start.
    #[arg(long)]
    start: Option<String>,
    /// Call the game a draw when a position comes up this many times with the same
    /// player to move (at least 2: a position's first appearance is no repetition).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..))]
    repetitions: u32,
    /// No progress bar while solving.
    #[arg(long, short)]
    quiet: bool,
}

const HELP: &str = "Commands: a move (e.g. `tap 1→2`, `split 13→22`; `->` works too), \
`moves` (list your moves), `hint` (every move with its value), `undo` (take back your last move), \
`quit`.";

/// The longest command line read; longer lines are cut there.
const MAX_LINE: u64 = 1024;

/// Reads one line of input (at most [`MAX_LINE`] bytes, the rest of a longer line
/// skipped; invalid UTF-8 replaced), or `None` at the end of the input.
fn read_command(input: &mut impl BufRead) -> std::io::Result<Option<String>> {
    let mut bytes = Vec::new();
    let n = std::io::Read::take(&mut *input, MAX_LINE).read_until(b'\n', &mut bytes)?;
    if n == 0 {
        return Ok(None);
    }
    if bytes.last() != Some(&b'\n') {
        // Skip the rest of an overlong line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let m = std::io::Read::take(&mut *input, MAX_LINE).read_until(b'\n', &mut rest)?;
            if m == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

fn hands(h: &[u32]) -> String {
    let v: Vec<String> = h.iter().map(u32::to_string).collect();
    format!("[{}]", v.join(","))
}

pub fn run(args: &PlayArgs) -> Result<()> {
    let s = solved(&args.rules, &args.db, args.quiet)?;
    let rules = &s.rules;
    let notation = args.notation.notation(rules)?;
    let start = match &args.start {
        Some(text) => Position::parse(text, rules)?,
        None => Position::start(rules),
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    let mut history = vec![start];
    // Plies with an even index are the first mover's; the human is first unless told.
    let human_parity = usize::from(args.computer_first);
    writeln!(out, "Chopsticks: {}", rules.describe())?;
    writeln!(out, "{HELP}")?;
    loop {
        let pos = history.last().expect("never empty").clone();
        let human_turn = (history.len() - 1) % 2 == human_parity;
        let (you, computer) = if human_turn {
            (pos.mover(), &pos.players()[1][..])
        } else {
            (&pos.players()[1][..], pos.mover())
        };
        writeln!(
            out,
            "\nPosition {}: you {} computer {}",
            pos.to_notation(rules, notation)?,
            hands(you),
            hands(computer)
        )?;
        if pos.is_terminal(rules) {
            let mover_won = pos.mover().iter().any(|&v| v > 0) != rules.misere;
            if mover_won == human_turn {
                writeln!(out, "Game over: you win!")?;
            } else {
                writeln!(out, "Game over: the computer wins.")?;
            }
            break;
        }
        // The same position with the same player to move (same parity of ply).
        let ply = history.len() - 1;
        let seen = history
            .iter()
            .enumerate()
            .filter(|&(k, p)| k % 2 == ply % 2 && *p == pos)
            .count();
        if seen >= args.repetitions as usize {
            writeln!(
                out,
                "Game over: a draw (the position came up {seen} times)."
            )?;
            break;
        }
        if !human_turn {
            s.check_around(&pos)?;
            let best = s
                .solution
                .evaluate_moves(&pos)
                .into_iter()
                .next()
                .expect("a position that is not finished has a move");
            writeln!(
                out,
                "The computer plays {} ({} for the computer).",
                best.mv.describe(rules),
                outcome_text(&best.outcome)
            )?;
            history.push(best.to);
            continue;
        }
        write!(out, "Your move: ")?;
        out.flush()?;
        let Some(line) = read_command(&mut input)? else {
            writeln!(out, "\nInput ended.")?;
            break;
        };
        let command = line.trim();
        match command.to_lowercase().as_str() {
            "" => continue,
            "quit" | "exit" => {
                writeln!(out, "Bye.")?;
                break;
            }
            "help" | "?" => writeln!(out, "{HELP}")?,
            "moves" => {
                let list: Vec<String> = pos
                    .moves(rules)
                    .iter()
                    .map(|(m, _)| m.describe(rules))
                    .collect();
                writeln!(out, "Your moves: {}", list.join(", "))?;
            }
            "hint" => {
                s.check_around(&pos)?;
                writeln!(
                    out,
                    "You are at {} (for you). Moves, best first:",
                    outcome_text(&s.solution.outcome(&pos))
                )?;
                for m in s.solution.evaluate_moves(&pos) {
                    writeln!(
                        out,
                        "  {:<16} {}",
                        m.mv.describe(rules),
                        outcome_text(&m.outcome)
                    )?;
                }
            }
            "undo" => {
                // Back to the previous position where it was your turn.
                let mut target = history.len() - 1;
                loop {
                    if target < 2 {
                        target = usize::MAX;
                        break;
                    }
                    target -= 2;
                    if target % 2 == human_parity {
                        break;
                    }
                }
                if target == usize::MAX {
                    writeln!(out, "Nothing to undo.")?;
                } else {
                    history.truncate(target + 1);
                    writeln!(out, "Taken back.")?;
                }
            }
            _ => match pos.find_move(rules, command) {
                Ok((m, next)) => {
                    writeln!(out, "You play {}.", m.describe(rules))?;
                    history.push(next);
                }
                Err(e) => writeln!(out, "{e}")?,
            },
        }
    }
    Ok(())
}
