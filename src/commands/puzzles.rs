//! `chopsticks puzzles`: positions where exactly one move wins (or keeps the
//! draw), from `chopsticks_learn::puzzles`: listed with their answers and
//! lines, one shown by its position, or played in the terminal with a streak
//! (easiest first, a second try after a wrong move). Positions are printed by
//! their seated id and every player's hands, Player 1 first
//! (`1_2202   P1* [2,2]  P2 [0,2]`).

use std::io::{BufRead, Write};

use anyhow::{bail, Context, Result};
use chopsticks_learn::puzzles::{
    puzzle_at_seated, view, view_seated, Filter, PuzzleSet, PuzzleView,
};
use chopsticks_learn::{Difficulty, PuzzleKind};
use chopsticks_rules::{
    Position, RulesError, Ruleset, SeatedPosition, MOVE_FORMS_TABLE, MOVE_TARGET_TABLE,
};
use clap::{Args, ValueEnum};

use super::solved::{solved, DbArgs, Solved, SolvedChecks};
use crate::progress;
use crate::rules_args::{OutputArgs, RulesArgs};

#[derive(Clone, Copy, Debug, ValueEnum)]
enum KindArg {
    Win,
    Hold,
    Any,
}

#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    /// How many puzzles (at most as many as there are).
    #[arg(long, default_value_t = 10, help_heading = "Puzzles")]
    count: usize,
    /// Grades: one (`3`, `medium`) or a range (`2-4`, `easy-hard`); 1 beginner,
    /// 2 easy, 3 medium, 4 hard, 5 expert.
    #[arg(long, value_name = "GRADES", help_heading = "Puzzles")]
    difficulty: Option<String>,
    /// Win puzzles (find the only winning move), hold puzzles (find the only
    /// move that keeps a draw), or both.
    #[arg(long, value_enum, default_value_t = KindArg::Any, help_heading = "Puzzles")]
    kind: KindArg,
    /// The seed that fixes which puzzles are chosen, and their order.
    #[arg(long, default_value_t = 1, help_heading = "Puzzles")]
    seed: u64,
    /// Show the puzzle at this position (any notation, or `2_1213` with the
    /// seat to move), or say why it is not one.
    #[arg(long, value_name = "POSITION", conflicts_with_all = ["count", "difficulty", "kind", "seed"], help_heading = "Input")]
    position: Option<String>,
    /// Do not print the answers and their lines.
    #[arg(long, help_heading = "Output")]
    hide_answers: bool,
    /// Play the puzzles in the terminal, easiest first, each with its grade:
    /// type a move (`tap 1 2`, `t12`, `tap 1→2`, …), `moves`, `hint`, `skip` or
    /// `quit`; a wrong move gets a second try before the answer is shown. Reads
    /// standard input, so it works piped.
    #[arg(long, conflicts_with_all = ["json", "hide_answers"], help_heading = "Game")]
    play: bool,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    output: OutputArgs,
}

/// Reads `3`, `medium`, `2-4`, `easy-hard`.
fn grades(text: &str) -> Result<(Difficulty, Difficulty)> {
    let one = |t: &str| {
        Difficulty::parse(t).with_context(|| {
            format!(
                "--difficulty: `{t}` is not a grade (1 to 5, or {})",
                Difficulty::NAMES.join(", ")
            )
        })
    };
    let (lo, hi) = match text.split_once(['-', '.']) {
        Some((a, b)) => (one(a)?, one(b.trim_start_matches('.'))?),
        None => {
            let g = one(text)?;
            (g, g)
        }
    };
    if lo > hi {
        bail!("--difficulty: the range {text} is empty (the lower grade comes first)");
    }
    Ok((lo, hi))
}

/// Every player's hands, Player 1 first, the mover starred (`P1* [2,2]  P2
/// [0,2]`), as every command prints a position for people.
fn board(rules: &Ruleset, position: &str) -> String {
    match SeatedPosition::parse(position, rules) {
        Ok(seated) => seated.hands_line(),
        Err(_) => position.to_string(),
    }
}

pub fn run(args: &PuzzlesArgs) -> Result<()> {
    let filter = Filter {
        kind: match args.kind {
            KindArg::Win => Some(PuzzleKind::Win),
            KindArg::Hold => Some(PuzzleKind::Hold),
            KindArg::Any => None,
        },
        difficulty: args.difficulty.as_deref().map(grades).transpose()?,
    };
    let s = solved(&args.rules, &args.db, args.output.quiet)?;
    if !s.solution.has_remoteness() {
        return Err(chopsticks_solve::SolveError::NoRemoteness.into());
    }
    if let Some(text) = &args.position {
        return show_one(&s, text, args);
    }
    // Finding puzzles reads every reachable position: a saved table is checked
    // whole first.
    s.check_all(args.output.quiet)?;
    let graph = s.graph()?;
    let start = graph.index_of(&Position::start(&s.rules));
    let bar = progress::counter("finding puzzles: exploring", args.output.quiet);
    let set = PuzzleSet::find(graph, &s.solution, start, &|n| bar.set_position(n))?;
    bar.finish_and_clear();
    if args.output.json {
        let choice = chopsticks_report::PuzzleChoice {
            filter,
            count: args.count,
            seed: args.seed,
            hide_answers: args.hide_answers,
        };
        super::print_json(&chopsticks_report::puzzle_set(&s, &set, &choice)?);
        return Ok(());
    }
    let chosen = set.choose(&filter, args.count, args.seed);
    let mut checker = s.checker()?;
    let views = chosen
        .iter()
        .map(|p| view(&s.solution, p, &graph.position(p.index), &mut checker))
        .collect::<Result<Vec<_>, _>>()?;
    let counts = set.counts();
    let sum = |k: usize| counts[k].iter().sum::<u64>();
    println!(
        "{} ({}): {} among the {} positions reachable from the start: {} to win (by grade 1–5: {}), {} to hold a draw (by grade: {}).",
        s.rules.variant_id(),
        s.rules.describe(),
        crate::text::counted(set.puzzles.len() as u64, "puzzle"),
        crate::text::count(set.reachable),
        crate::text::count(sum(0)),
        counts[0].map(crate::text::count).join(", "),
        crate::text::count(sum(1)),
        counts[1].map(crate::text::count).join(", "),
    );
    if views.is_empty() {
        if args.count > 0 {
            println!("No puzzle of the kind and grade asked for.");
        }
        return Ok(());
    }
    if args.play {
        // Easy first: the chosen puzzles by grade, climbing (in the seed's order
        // within a grade).
        let mut climbing = views;
        climbing.sort_by_key(|v| v.difficulty);
        return play(&s.rules, &climbing);
    }
    println!(
        "{} (seed {}):",
        crate::text::counted(views.len() as u64, "puzzle"),
        args.seed
    );
    for (k, v) in views.iter().enumerate() {
        print_puzzle(&s.rules, k + 1, v);
    }
    if !args.hide_answers {
        println!("Answers:");
        for (k, v) in views.iter().enumerate() {
            print_answer(k + 1, v);
        }
    }
    Ok(())
}

fn print_puzzle(rules: &Ruleset, number: usize, v: &PuzzleView) {
    println!(
        "{number:>4}. {}   {}   {}",
        v.position,
        board(rules, &v.position),
        v.goal
    );
    println!(
        "        grade {} ({}): {} pl{} deep, {} moves, {} decoy{}",
        v.difficulty.0,
        v.grade,
        v.depth,
        if v.depth == 1 { "y" } else { "ies" },
        v.moves.len(),
        v.decoys,
        if v.decoys == 1 { "" } else { "s" }
    );
}

fn print_answer(number: usize, v: &PuzzleView) {
    let Some(answer) = v.moves.iter().find(|m| m.answer) else {
        return;
    };
    println!(
        "{number:>4}. {} ({}): {}",
        answer.name,
        answer.value,
        answer.line.text()
    );
    for m in v.moves.iter().filter(|m| m.decoy) {
        println!("        not {} ({}): {}", m.name, m.value, m.line.text());
    }
}

fn show_one(s: &Solved, text: &str, args: &PuzzlesArgs) -> Result<()> {
    let seated = SeatedPosition::parse(text, &s.rules).context("--position")?;
    if args.output.json {
        super::print_json(&chopsticks_report::puzzle_at(
            s,
            &seated,
            args.hide_answers,
        )?);
        return Ok(());
    }
    let position = seated.position();
    let mut checker = s.checker()?;
    checker.around(&s.solution, position)?;
    let puzzle = puzzle_at_seated(&s.solution, &seated)?;
    let v = view_seated(&s.solution, &puzzle, &seated, &mut checker)?;
    if args.play {
        return play(&s.rules, std::slice::from_ref(&v));
    }
    print_puzzle(&s.rules, 1, &v);
    if !args.hide_answers {
        print_answer(1, &v);
    }
    Ok(())
}

/// What the terminal puzzles take, besides a move.
const PLAY_COMMANDS: &str =
    "Commands: a move, `moves` (the legal moves), `hint`, `skip` (show the answer), `quit`.";

/// Plays the puzzles in the terminal: a move per puzzle, a second try after a
/// wrong one, with a streak of puzzles solved at the first try.
fn play(rules: &Ruleset, views: &[PuzzleView]) -> Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let write_err =
        |e: std::io::Error| anyhow::anyhow!("cannot write the output (standard output): {e}");
    let (mut streak, mut best, mut solved, mut second) = (0u32, 0u32, 0u32, 0u32);
    let targets = if rules.players() > 2 {
        format!("\n{MOVE_TARGET_TABLE}")
    } else {
        String::new()
    };
    writeln!(out, "{MOVE_FORMS_TABLE}{targets}\n{PLAY_COMMANDS}").map_err(write_err)?;
    'puzzles: for (k, v) in views.iter().enumerate() {
        let at = SeatedPosition::parse(&v.position, rules)?;
        writeln!(
            out,
            "\nPuzzle {} of {}, grade {} ({}): {}",
            k + 1,
            views.len(),
            v.difficulty.0,
            v.grade,
            v.goal
        )
        .map_err(write_err)?;
        writeln!(out, "  {}   {}", v.position, at.hands_line()).map_err(write_err)?;
        let legal: Vec<&str> = v.moves.iter().map(|m| m.name.as_str()).collect();
        writeln!(out, "  Legal moves: {}", legal.join(", ")).map_err(write_err)?;
        let answer = v.moves.iter().find(|m| m.answer);
        let mut missed: Option<&str> = None;
        loop {
            write!(out, "> ").map_err(write_err)?;
            out.flush().map_err(write_err)?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out).map_err(write_err)?;
                break 'puzzles;
            }
            let said = line.trim();
            match said.to_lowercase().as_str() {
                "" => continue,
                "quit" | "q" => break 'puzzles,
                "hint" | "h" => {
                    writeln!(out, "  Hint: {}", v.hint).map_err(write_err)?;
                    continue;
                }
                "moves" => {
                    writeln!(out, "  Legal moves: {}", legal.join(", ")).map_err(write_err)?;
                    continue;
                }
                "help" | "?" => {
                    writeln!(out, "{MOVE_FORMS_TABLE}{targets}\n{PLAY_COMMANDS}")
                        .map_err(write_err)?;
                    continue;
                }
                "undo" | "u" => {
                    writeln!(
                        out,
                        "  A puzzle is one move: there is nothing to undo. Type a move, `hint`, `skip` (the answer, then the next puzzle) or `quit`."
                    )
                    .map_err(write_err)?;
                    continue;
                }
                "skip" => {
                    streak = 0;
                    if let Some(a) = answer {
                        writeln!(out, "  The answer: {} — {}", a.name, a.line.text())
                            .map_err(write_err)?;
                    }
                    continue 'puzzles;
                }
                _ => {}
            }
            let m = match at.find_move(rules, said) {
                Ok((mv, _)) => {
                    let name = at.move_name(rules, &mv);
                    v.moves.iter().find(|m| m.name == name)
                }
                Err(e) => {
                    writeln!(out, "  {e}").map_err(write_err)?;
                    if !matches!(e, RulesError::IllegalMove { .. }) {
                        writeln!(out, "  {PLAY_COMMANDS}").map_err(write_err)?;
                    }
                    continue;
                }
            };
            let Some(m) = m else {
                writeln!(out, "  `{said}` is not a legal move here.").map_err(write_err)?;
                continue;
            };
            if m.answer {
                solved += 1;
                if missed.is_none() {
                    streak += 1;
                    best = best.max(streak);
                    writeln!(out, "  Right! {} ({}). Streak: {streak}.", m.name, m.value)
                        .map_err(write_err)?;
                } else {
                    second += 1;
                    writeln!(
                        out,
                        "  Right, at the second try: {} ({}). Streak: 0 (only first tries count).",
                        m.name, m.value
                    )
                    .map_err(write_err)?;
                }
                writeln!(out, "  The line: {}", m.line.text()).map_err(write_err)?;
                continue 'puzzles;
            }
            streak = 0;
            if missed.is_none() {
                missed = Some(&m.name);
                writeln!(
                    out,
                    "  Not this one: {} gives {}. Refutation: {}",
                    m.name,
                    m.value,
                    m.line.text()
                )
                .map_err(write_err)?;
                writeln!(out, "  Try again (one more try).").map_err(write_err)?;
                continue;
            }
            writeln!(
                out,
                "  Not this one either: {} gives {}. Refutation: {}",
                m.name,
                m.value,
                m.line.text()
            )
            .map_err(write_err)?;
            if let Some(a) = answer {
                writeln!(
                    out,
                    "  The answer: {} ({}) — {}",
                    a.name,
                    a.value,
                    a.line.text()
                )
                .map_err(write_err)?;
            }
            writeln!(out, "  Streak: 0.").map_err(write_err)?;
            continue 'puzzles;
        }
    }
    let at_second = if second > 0 {
        format!(" ({second} at the second try)")
    } else {
        String::new()
    };
    writeln!(
        out,
        "Solved {solved} of {}{at_second}; best streak {best}.",
        views.len()
    )
    .map_err(write_err)?;
    Ok(())
}
