//! `chopsticks play`: a game against the perfect computer in the terminal.
//!
//! Reads commands line by line from standard input, so it also works with piped
//! input (and is tested that way): a move as `moves` prints it (`tap 1→2`,
//! `split 13→22`, `->` for `→`), or `moves`, `hint`, `undo`, `help`, `quit`.
//!
//! Any number of players: you take one seat (`--seat`), the computer every other,
//! each playing its own best move by its coalition value (fastest win, else a draw,
//! else the slowest loss), or in team play its team's best move.

use std::io::{BufRead, Write};

use anyhow::{bail, Context, Result};
use chopsticks_rules::{Position, Ruleset};
use chopsticks_solve::Concept;
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
    /// The computer moves first (by default you do). Two players; with more, see
    /// `--seat`.
    #[arg(long, conflicts_with = "seat")]
    computer_first: bool,
    /// Your seat: 1 moves first, then 2, … (default 1). The other seats are played
    /// by the computer, each for itself (its coalition value: alone against all the
    /// others), or with `--teams` for its team, so your partners are computers too.
    #[arg(long, value_name = "N")]
    seat: Option<usize>,
    /// Start from this position (mover's hands first) instead of the usual start.
    #[arg(long)]
    start: Option<String>,
    /// Call the game a draw when a position comes up this many times with the same
    /// player to move (at least 2: a position's first appearance is no repetition).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..))]
    repetitions: u32,
    /// When the game ends (or you quit), write it to this file as a game record,
    /// which `chopsticks review FILE` reviews and the page loads.
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
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

/// One position of the game and the seat (counted from the first player, from 0)
/// of its mover.
#[derive(Clone, PartialEq)]
struct Turn {
    position: Position,
    mover: usize,
}

/// Who is who at the table.
struct Table<'r> {
    rules: &'r Ruleset,
    players: usize,
    /// The human's seat, from 0.
    human: usize,
}

impl Table<'_> {
    /// `you`, `the computer` (two players), `player 3`, `player 3 (your partner)`.
    fn name(&self, seat: usize) -> String {
        if seat == self.human {
            "you".to_string()
        } else if self.players == 2 {
            "the computer".to_string()
        } else if self.rules.teams && seat % 2 == self.human % 2 {
            format!("player {} (your partner)", seat + 1)
        } else {
            format!("player {}", seat + 1)
        }
    }

    /// Every player's hands, as `you [1,1] computer [1,2]` (two players, you
    /// first) or `player 1 [1,1] you [1,2] player 3 [0,1]` in seat order.
    fn describe(&self, turn: &Turn) -> String {
        let hands_of = |seat: usize| {
            let k = (seat + self.players - turn.mover) % self.players;
            hands(&turn.position.players()[k])
        };
        if self.players == 2 {
            let computer = 1 - self.human;
            return format!(
                "you {} computer {}",
                hands_of(self.human),
                hands_of(computer)
            );
        }
        (0..self.players)
            .map(|seat| {
                let mut name = self.name(seat);
                if seat == turn.mover {
                    name.push_str(" (to move)");
                }
                format!("{name} {}", hands_of(seat))
            })
            .collect::<Vec<_>>()
            .join("  ")
    }

    /// Who won a finished game, in a sentence.
    fn result(&self, turn: &Turn) -> String {
        let alive = turn.position.alive();
        let alive_at = |seat: usize| alive[(seat + self.players - turn.mover) % self.players];
        if self.rules.teams {
            let team_alive =
                |parity: usize| (0..self.players).any(|s| s % 2 == parity && alive_at(s));
            let yours_won = team_alive(self.human % 2) != self.rules.misere;
            return if self.players == 2 {
                if yours_won {
                    "Game over: you win!".to_string()
                } else {
                    "Game over: the computer wins.".to_string()
                }
            } else if yours_won {
                "Game over: your team wins!".to_string()
            } else {
                "Game over: the other team wins.".to_string()
            };
        }
        // Normal play: the one player left with a live hand; misère: the player
        // whose hands all died.
        let winner = (0..self.players)
            .find(|&s| alive_at(s) != self.rules.misere)
            .unwrap_or(turn.mover);
        if winner == self.human {
            "Game over: you win!".to_string()
        } else if self.players == 2 {
            "Game over: the computer wins.".to_string()
        } else {
            format!("Game over: player {} wins.", winner + 1)
        }
    }
}

/// The step of a move (how many seats the turn moves on).
fn step_of(rules: &Ruleset, position: &Position, mv: &chopsticks_rules::Move) -> usize {
    position
        .moves_with_steps(rules)
        .into_iter()
        .find(|(m, _, _)| m == mv)
        .map_or(1, |(_, _, s)| s)
}

pub fn run(args: &PlayArgs) -> Result<()> {
    let s = solved(&args.rules, &args.db, args.quiet)?;
    if !s.solution.has_remoteness() {
        return Err(chopsticks_solve::SolveError::NoRemoteness.into());
    }
    let rules = &s.rules;
    let players = rules.players();
    let notation = args.notation.notation(rules)?;
    let start = match &args.start {
        Some(text) => Position::parse(text, rules)?,
        None => Position::start(rules),
    };
    let human = match args.seat {
        Some(seat) if seat == 0 || seat > players => {
            bail!("there is no seat {seat}: this game has {players} players (--seat 1 … {players})")
        }
        Some(seat) => seat - 1,
        None => usize::from(args.computer_first),
    };
    let table = Table {
        rules,
        players,
        human,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    let start_seat = start.seat();
    let mut history = vec![Turn {
        mover: start_seat,
        position: start.clone(),
    }];
    // The moves that led to each later entry of `history`, by name.
    let mut played: Vec<String> = Vec::new();
    writeln!(out, "Chopsticks: {}", rules.describe())?;
    match Concept::of(rules) {
        Concept::TwoPlayer => {}
        Concept::Coalition => writeln!(
            out,
            "You are player {} of {players}. Every value shown is a coalition value: \
             that player alone against all the others together.",
            human + 1
        )?,
        Concept::Teams => writeln!(
            out,
            "You are player {} of {players}; your team is players {}. Values are for the \
             team of the player to move.",
            human + 1,
            (0..players)
                .filter(|k| k % 2 == human % 2)
                .map(|k| (k + 1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )?,
    }
    writeln!(out, "{HELP}")?;
    loop {
        let turn = history.last().expect("never empty").clone();
        let pos = &turn.position;
        let human_turn = turn.mover == human;
        writeln!(
            out,
            "\nPosition {}: {}",
            pos.to_notation(rules, notation)?,
            table.describe(&turn)
        )?;
        if pos.is_terminal(rules) {
            writeln!(out, "{}", table.result(&turn))?;
            break;
        }
        // The same position with the same player to move.
        let seen = history.iter().filter(|t| **t == turn).count();
        if seen >= args.repetitions as usize {
            writeln!(
                out,
                "Game over: a draw (the position came up {seen} times)."
            )?;
            break;
        }
        if !human_turn {
            s.check_around(pos)?;
            let best = s
                .solution
                .evaluate_moves(pos)?
                .into_iter()
                .next()
                .expect("a position that is not finished has a move");
            let who = table.name(turn.mover);
            let whose = if players == 2 {
                "the computer".to_string()
            } else {
                who.clone()
            };
            let mut line = format!(
                "{} plays {} ({} for {whose}).",
                if players == 2 {
                    "The computer".to_string()
                } else {
                    capitalised(&who)
                },
                best.mv.describe(rules),
                outcome_text(&best.outcome)
            );
            if rules.teams && players > 2 {
                line = line.replace(" for ", " for the team of ");
            }
            writeln!(out, "{line}")?;
            played.push(best.mv.describe(rules));
            history.push(Turn {
                mover: (turn.mover + best.step) % players,
                position: best.to,
            });
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
                if players > 2 {
                    writeln!(
                        out,
                        "(`@k` names the player k places after you: @1 is player {}.)",
                        (human + 1) % players + 1
                    )?;
                }
            }
            "hint" => {
                s.check_around(pos)?;
                writeln!(
                    out,
                    "You are at {} (for you{}). Moves, best first:",
                    outcome_text(&s.solution.outcome(pos)?),
                    match Concept::of(rules) {
                        Concept::Coalition => " against all the others",
                        Concept::Teams if players > 2 => "r team",
                        _ => "",
                    }
                )?;
                for m in s.solution.evaluate_moves(pos)? {
                    writeln!(
                        out,
                        "  {:<16} {}",
                        m.mv.describe(rules),
                        outcome_text(&m.outcome)
                    )?;
                }
            }
            "undo" => {
                // Back to the last position before this one where it was your turn.
                let last = history.len() - 1;
                match (0..last).rev().find(|&t| history[t].mover == human) {
                    Some(t) => {
                        history.truncate(t + 1);
                        played.truncate(t);
                        writeln!(out, "Taken back.")?;
                    }
                    None => writeln!(out, "Nothing to undo.")?,
                }
            }
            _ => match pos.find_move(rules, command) {
                Ok((m, next)) => {
                    writeln!(out, "You play {}.", m.describe(rules))?;
                    let step = step_of(rules, pos, &m);
                    played.push(m.describe(rules));
                    history.push(Turn {
                        mover: (turn.mover + step) % players,
                        position: next,
                    });
                }
                Err(e) => writeln!(out, "{e}")?,
            },
        }
    }
    if let Some(path) = &args.record {
        let seated = chopsticks_rules::SeatedPosition::new(rules, start_seat, start)?;
        let record = chopsticks_learn::record::GameRecord {
            variant: Some(rules.variant_id()),
            start: (seated != chopsticks_rules::SeatedPosition::start(rules))
                .then(|| seated.to_text(rules))
                .transpose()?,
            start_line: 0,
            moves: played
                .into_iter()
                .map(|text| chopsticks_learn::record::WrittenMove { text, line: 0 })
                .collect(),
        };
        chopsticks_files::write_atomically(path, record.write().as_bytes())
            .with_context(|| format!("cannot write the game record to {}", path.display()))?;
        writeln!(out, "The game is recorded in {}.", path.display())?;
    }
    Ok(())
}

/// `Player 3`, `You`.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
