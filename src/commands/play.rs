//! `chopsticks play`: a game against the computer in the terminal, perfect or
//! weaker (`--level`), every value shown that of the game so far (its
//! repetitions counted, `chopsticks_learn::history`).
//!
//! Reads commands line by line from standard input, so it also works with piped
//! input (and is tested that way): a move in any form the rules' move reader
//! takes (`tap 1→2`, `tap 1 2`, `t12`, `1 2`, `self 2 1`, `split 13 22`, …:
//! hands named by the fingers they show, see `chopsticks_rules::read_move_text`),
//! or `moves`, `hint`, `undo`, `help`, `quit`.
//!
//! Any number of players: you take one seat (`--seat`), the computer every other,
//! each playing its own best move by its coalition value (fastest win, else a draw,
//! else the slowest loss), or in team play its team's best move. Positions are
//! printed by their seated id (`1_1311`: Player 1 to move, then every player's
//! hands, Player 1 first) and every player's hands in seat order, the mover
//! starred: `P1* [1,3] (you)  P2 [1,1] (computer)`. A position that comes up a
//! third time with the same player to move ends the game, a draw by threefold
//! repetition (`--repetitions`).

use std::io::{BufRead, Write};

use anyhow::{bail, Context, Result};
use chopsticks_learn::history::{evaluate, GameEnd, GameValues, History, DEFAULT_BOUND};
use chopsticks_learn::{Level, Repetitions, Rng};
use chopsticks_rules::{
    team_seats, team_text, Player, RulesError, Ruleset, SeatedPosition, MOVE_FORMS_TABLE,
    MOVE_TARGET_TABLE,
};
use chopsticks_solve::{Concept, Outcome};
use clap::Args;

use super::solved::{outcome_text, solved, DbArgs, SolvedChecks};
use crate::rules_args::{NotationArgs, RulesArgs};

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    notation: NotationArgs,
    /// The computer moves first: you take the seat after the player to move at the
    /// start (Player 2 at the usual start). Without it you are Player 1 (or
    /// `--seat`), and whoever is to move at the start moves first.
    #[arg(long, conflicts_with = "seat")]
    #[arg(help_heading = "Game")]
    computer_first: bool,
    /// Your seat: 1 moves first, then 2, … (default 1). The other seats are played
    /// by the computer, each for itself (its coalition value: alone against all the
    /// others), or with `--teams` for its team, so your partners are computers too.
    #[arg(long, value_name = "N")]
    #[arg(help_heading = "Game")]
    seat: Option<usize>,
    /// Start from this position instead of the usual start: a seated id
    /// (`2_1312`: Player 2 to move, then every player's hands, Player 1 first) or
    /// any notation `query` reads (the mover's hands first). When the player to
    /// move there is not you, the computer begins.
    #[arg(long)]
    #[arg(help_heading = "Game")]
    start: Option<String>,
    /// Call the game a draw when a position comes up this many times with the same
    /// player to move (at least 2: a position's first appearance is no repetition;
    /// 3, threefold repetition, by default), or `none`: the game plays on for ever.
    /// Every value shown (hints, the computer's choice) counts the game's history
    /// under this rule: a win that must pass through a position seen too often is
    /// a draw.
    #[arg(long, default_value = "3", value_parser = parse_repetitions)]
    #[arg(help_heading = "Game")]
    repetitions: Repetitions,
    /// How well the computer plays: perfect (always the best move), strong (the
    /// best move 9 times in 10, otherwise any legal move at random), casual (6 in
    /// 10), random (any legal move). The page's levels, defined once (docs/LEARN.md).
    #[arg(long, default_value = "perfect", value_parser = parse_level)]
    #[arg(help_heading = "Game")]
    level: Level,
    /// The seed of the computer's random choices (below `perfect`): the same seed
    /// and the same moves, the same game. Without it, a seed from the clock.
    #[arg(long, value_name = "N")]
    #[arg(help_heading = "Game")]
    seed: Option<u64>,
    /// When the game ends (or you quit), write it to this file as a game record,
    /// which `chopsticks review FILE` reviews and the page loads.
    #[arg(long, value_name = "FILE")]
    #[arg(help_heading = "Output")]
    record: Option<std::path::PathBuf>,
    /// No progress bar while solving.
    #[arg(long, short)]
    #[arg(help_heading = "Output")]
    quiet: bool,
}

fn parse_repetitions(text: &str) -> Result<Repetitions, String> {
    Repetitions::parse(text)
}

fn parse_level(text: &str) -> Result<Level, String> {
    Level::parse(text)
}

/// A move's value as a hint shows it: `win in 5`, `draw by repetition` for a
/// move that ends the game by repetition, and the table's value beside it
/// when the game's history changes it: `draw (the position alone: win in 23)`.
fn game_value_text(outcome: &Outcome, table: &Outcome, repetition: bool) -> String {
    let mut text = outcome_text(outcome);
    if repetition {
        text.push_str(" by repetition");
    }
    if outcome != table {
        text.push_str(&format!(" (the position alone: {})", outcome_text(table)));
    }
    text
}

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

/// Who is who at the table.
struct Table<'r> {
    rules: &'r Ruleset,
    players: usize,
    /// The human's seat, from 0.
    human: usize,
}

impl Table<'_> {
    /// The label after a player's hands: `you`, `computer`, `your partner`.
    fn label(&self, player: Player) -> String {
        let seat = player.seat();
        if seat == self.human {
            "you".to_string()
        } else if self.rules.teams && self.rules.same_side(seat, self.human) {
            "your partner".to_string()
        } else {
            "computer".to_string()
        }
    }

    /// Every player's hands in seat order, Player 1 first, the mover starred:
    /// `P1* [1,1] (you)  P2 [1,2] (computer)`.
    fn describe(&self, at: &SeatedPosition) -> String {
        at.hands_line_with(|p| Some(self.label(p)))
    }

    /// Who won a finished game, in a sentence.
    fn result(&self, at: &SeatedPosition) -> String {
        let alive = at.position().alive();
        let alive_at = |seat: usize| alive[(seat + self.players - at.turn()) % self.players];
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
            .unwrap_or(at.turn());
        if winner == self.human {
            "Game over: you win!".to_string()
        } else if self.players == 2 {
            "Game over: the computer wins.".to_string()
        } else {
            format!("Game over: {} wins.", Player::from_seat(winner))
        }
    }
}

/// The human's seat (from 0): `--seat N`; with `--computer-first` the seat after
/// the start's mover, so that the computer moves first; else Player 1. Whoever
/// is to move at the start moves first, so from a start where another player is
/// to move the computer begins. A seat with no live hand at the start (it would
/// never move) is refused.
fn human_seat(args: &PlayArgs, start: &SeatedPosition, rules: &Ruleset) -> Result<usize> {
    let players = rules.players();
    let seat = match args.seat {
        Some(seat) if seat == 0 || seat > players => {
            bail!(
                "there is no Player {seat}: this game has {players} players (--seat 1 … {players})"
            )
        }
        Some(seat) => seat - 1,
        None if args.computer_first => (start.turn() + 1) % players,
        None => 0,
    };
    let hands = &start.hands_by_seat()[seat];
    if !start.position().is_terminal(rules) && hands.iter().all(|&v| v == 0) {
        bail!(
            "you would be {}, who has no live hand at {} and would never move: choose a seat still in the game (--seat)",
            Player::from_seat(seat),
            start.to_text(rules)?
        );
    }
    Ok(seat)
}

/// How a game drawn by repetition ends, in a sentence.
fn repetition_text(times: usize) -> String {
    if times == 3 {
        "Draw by threefold repetition: the same position, with the same player to move, came up a third time.".to_string()
    } else {
        format!("Draw by repetition: the same position, with the same player to move, came up {times} times.")
    }
}

pub fn run(args: &PlayArgs) -> Result<()> {
    args.db.refuse_output(args.record.as_deref(), "--record")?;
    // A record that could not be written is refused before the game, not after.
    if let Some(path) = &args.record {
        chopsticks_files::check_writable(path).context("cannot write the game record")?;
    }
    let s = solved(&args.rules, &args.db, args.quiet)?;
    if !s.solution.has_remoteness() {
        return Err(chopsticks_solve::SolveError::NoRemoteness.into());
    }
    let rules = &s.rules;
    let players = rules.players();
    let notation = args
        .notation
        .notation
        .is_some()
        .then(|| args.notation.notation(rules))
        .transpose()?;
    let start = match &args.start {
        Some(text) => SeatedPosition::parse(text, rules).context("--start")?,
        None => SeatedPosition::start(rules),
    };
    let human = human_seat(args, &start, rules)?;
    let table = Table {
        rules,
        players,
        human,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    let mut history = History::new(start.clone(), args.repetitions);
    let mut rng = Rng::new(args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    }));
    // The moves that led to each later entry of `history`, by name.
    let mut played: Vec<String> = Vec::new();
    writeln!(out, "Chopsticks: {}", rules.describe())?;
    let you = Player::from_seat(human);
    match Concept::of(rules) {
        Concept::TwoPlayer => writeln!(out, "You are {you}; the computer is the other player.")?,
        Concept::Coalition => writeln!(
            out,
            "You are {you} of {players}. Every value shown is a coalition value: \
             that player alone against all the others together."
        )?,
        Concept::Teams => writeln!(
            out,
            "You are {you} of {players}; your team is {}. Values are for the \
             team of the player to move.",
            team_text(team_seats(human, players))
        )?,
    }
    if start.turn() != human && !start.position().is_terminal(rules) {
        writeln!(
            out,
            "{} is to move at the start: the computer begins.",
            start.mover()
        )?;
    }
    writeln!(out, "{}", help(players))?;
    if args.level != Level::Perfect {
        writeln!(
            out,
            "The computer plays at level {}: {}.",
            args.level.name(),
            args.level.description()
        )?;
    }
    loop {
        let at = history.current().clone();
        let pos = at.position();
        let human_turn = at.turn() == human;
        let also = match notation {
            Some(n) => format!(" ({})", pos.to_notation(rules, n)?),
            None => String::new(),
        };
        writeln!(
            out,
            "\nPosition {}{also}: {}",
            at.to_text(rules)?,
            table.describe(&at)
        )?;
        match history.end(rules) {
            Some(GameEnd::Finished) => {
                writeln!(out, "{}", table.result(&at))?;
                break;
            }
            Some(GameEnd::Repetition { times }) => {
                writeln!(out, "{}", repetition_text(times))?;
                break;
            }
            None => {}
        }
        if !human_turn {
            s.check_around(pos)?;
            let values = game_values(&s.solution, &history)?;
            let best = &values.moves[args.level.choose(values.moves.len(), &mut rng)];
            let mover = at.mover();
            let line = if players == 2 {
                format!(
                    "The computer ({mover}) plays {} ({} for the computer).",
                    at.move_name(rules, &best.mv),
                    outcome_text(&best.outcome)
                )
            } else {
                let whose = if rules.teams {
                    format!("the team of {mover}")
                } else {
                    mover.to_string()
                };
                let partner = if rules.teams && rules.same_side(at.turn(), human) {
                    " (your partner)"
                } else {
                    ""
                };
                format!(
                    "{mover}{partner} plays {} ({} for {whose}).",
                    at.move_name(rules, &best.mv),
                    outcome_text(&best.outcome)
                )
            };
            writeln!(out, "{line}")?;
            played.push(at.move_name(rules, &best.mv));
            history.push(best.to.clone());
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
            "help" | "?" => writeln!(out, "{}", help(players))?,
            "moves" => {
                writeln!(out, "{}", moves_text(rules, &at))?;
            }
            "hint" => {
                s.check_around(pos)?;
                let values = game_values(&s.solution, &history)?;
                let mine = values.mover(at.turn());
                let table_value = values.table[at.turn()];
                writeln!(
                    out,
                    "You are at {} (for you{}{}). Moves, best first:",
                    outcome_text(&mine),
                    match Concept::of(rules) {
                        Concept::Coalition => " against all the others",
                        Concept::Teams if players > 2 => "r team",
                        _ => "",
                    },
                    if mine == table_value {
                        String::new()
                    } else {
                        format!(
                            "; the position alone is {}, but this game's history changes it",
                            outcome_text(&table_value)
                        )
                    }
                )?;
                if !values.exact {
                    writeln!(out, "  (values of the position alone: this game's repetitions are too many positions to count exactly)")?;
                }
                for m in &values.moves {
                    writeln!(
                        out,
                        "  {:<16} {}",
                        at.move_name(rules, &m.mv),
                        game_value_text(&m.outcome, &m.table, m.repetition)
                    )?;
                }
            }
            "undo" => {
                // Back to the last position before this one where it was your turn.
                let last = history.len() - 1;
                match (0..last)
                    .rev()
                    .find(|&t| history.positions()[t].turn() == human)
                {
                    Some(t) => {
                        history.truncate(t + 1);
                        played.truncate(t);
                        writeln!(out, "Taken back.")?;
                    }
                    None => writeln!(out, "Nothing to undo.")?,
                }
            }
            _ => match at.find_move(rules, command) {
                Ok((m, next)) => {
                    writeln!(out, "You play {}.", at.move_name(rules, &m))?;
                    played.push(at.move_name(rules, &m));
                    history.push(next);
                }
                Err(e @ RulesError::IllegalMove { .. }) => {
                    writeln!(out, "{e}")?;
                }
                Err(e) => {
                    writeln!(out, "{e}")?;
                    writeln!(
                        out,
                        "Commands: `moves`, `hint`, `undo`, `help`, `quit`, or a move."
                    )?;
                }
            },
        }
    }
    if let Some(path) = &args.record {
        let record = chopsticks_learn::record::GameRecord {
            variant: Some(rules.variant_id()),
            start: (start != SeatedPosition::start(rules))
                .then(|| start.to_text(rules))
                .transpose()?,
            start_line: 0,
            moves: played
                .into_iter()
                .map(|text| chopsticks_learn::record::WrittenMove { text, line: 0 })
                .collect(),
            rounds: false,
        };
        chopsticks_files::write_atomically(path, record.write().as_bytes())
            .context("cannot write the game record")?;
        writeln!(out, "The game is recorded in {}.", path.display())?;
    }
    Ok(())
}

/// The values of the game so far (its history and repetition rule counted).
fn game_values(solution: &chopsticks_solve::Solution, history: &History) -> Result<GameValues> {
    Ok(evaluate(solution, history, DEFAULT_BOUND)?)
}

/// The help: how moves are named, and the commands.
fn help(players: usize) -> String {
    let targets = if players > 2 {
        format!("\n{MOVE_TARGET_TABLE}")
    } else {
        String::new()
    };
    format!(
        "{MOVE_FORMS_TABLE}{targets}\nCommands: `moves`, `hint` (every move with its value), `undo` (take back your \
         move), `help`, `quit`."
    )
}

/// The legal moves at `at` by name, as `moves` lists them; with three or more
/// players what the `P3` of a tap means.
pub(crate) fn moves_text(rules: &Ruleset, at: &SeatedPosition) -> String {
    let list: Vec<String> = at
        .position()
        .moves(rules)
        .iter()
        .map(|(m, _)| at.move_name(rules, m))
        .collect();
    let mut text = format!("Your moves: {}", list.join(", "));
    if rules.players() > 2 {
        text.push_str(
            "\n(`tap 1→2 P3`: your hand showing 1 taps Player 3's hand showing 2; `tap 1 2 @k`, the player k places after you, is read too.)",
        );
    }
    text
}
