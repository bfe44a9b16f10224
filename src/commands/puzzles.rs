//! `chopsticks puzzles`: positions where exactly one move wins (or keeps the
//! draw), from `chopsticks_learn::puzzles`: listed with their answers and
//! lines, one shown by its position, or played in the terminal with a streak.

use std::io::{BufRead, Write};

use anyhow::{bail, Context, Result};
use chopsticks_learn::puzzles::{puzzle_at, view, Filter, PuzzleSet, PuzzleView};
use chopsticks_learn::{Difficulty, PuzzleKind};
use chopsticks_rules::{normalise_move_text, Position, Ruleset, SeatedPosition};
use clap::{Args, ValueEnum};
use serde_json::json;

use super::solved::{solved, DbArgs, Solved};
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
    #[arg(long, default_value_t = 10)]
    count: usize,
    /// Grades: one (`3`, `medium`) or a range (`2-4`, `easy-hard`); 1 beginner,
    /// 2 easy, 3 medium, 4 hard, 5 expert.
    #[arg(long, value_name = "GRADES")]
    difficulty: Option<String>,
    /// Win puzzles (find the only winning move), hold puzzles (find the only
    /// move that keeps a draw), or both.
    #[arg(long, value_enum, default_value_t = KindArg::Any)]
    kind: KindArg,
    /// The seed that fixes which puzzles are chosen, and their order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Show the puzzle at this position (any notation, or `2_1213` with the
    /// seat to move), or say why it is not one.
    #[arg(long, value_name = "POSITION", conflicts_with_all = ["count", "difficulty", "kind", "seed"])]
    position: Option<String>,
    /// Do not print the answers and their lines.
    #[arg(long)]
    hide_answers: bool,
    /// Play the puzzles in the terminal: type a move (as `moves` prints it),
    /// `hint`, `skip` or `quit`; reads standard input, so it works piped.
    #[arg(long, conflicts_with = "json")]
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

fn board(rules: &Ruleset, position: &str) -> String {
    let Ok(seated) = SeatedPosition::parse(position, rules) else {
        return position.to_string();
    };
    seated
        .hands_by_seat()
        .iter()
        .enumerate()
        .map(|(seat, h)| {
            let hands: Vec<String> = h.iter().rev().map(u32::to_string).collect();
            let mark = if seat == seated.turn() { "*" } else { "" };
            format!("P{}{mark} [{}]", seat + 1, hands.join(","))
        })
        .collect::<Vec<_>>()
        .join("  ")
}

fn view_json(v: &PuzzleView) -> Result<serde_json::Value> {
    Ok(serde_json::to_value(v)?)
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
    let chosen = set.choose(&filter, args.count, args.seed);
    let mut checker = s.checker()?;
    let views = chosen
        .iter()
        .map(|p| view(&s.solution, p, &graph.position(p.index), &mut checker))
        .collect::<Result<Vec<_>, _>>()?;
    let counts = set.counts();
    if args.output.json {
        let puzzles = views.iter().map(view_json).collect::<Result<Vec<_>>>()?;
        super::print_json(&json!({
            "variant": s.rules.variant_id(),
            "ruleset": s.rules.describe(),
            "reachable": set.reachable,
            "total": set.puzzles.len(),
            "win_by_grade": counts[0],
            "hold_by_grade": counts[1],
            "seed": args.seed,
            "puzzles": puzzles,
        }));
        return Ok(());
    }
    let sum = |k: usize| counts[k].iter().sum::<u64>();
    println!(
        "{} ({}): {} puzzles among the {} positions reachable from the start: {} to win (by grade 1–5: {}), {} to hold a draw (by grade: {}).",
        s.rules.variant_id(),
        s.rules.describe(),
        set.puzzles.len(),
        set.reachable,
        sum(0),
        counts[0].map(|c| c.to_string()).join(", "),
        sum(1),
        counts[1].map(|c| c.to_string()).join(", "),
    );
    if views.is_empty() {
        if args.count > 0 {
            println!("No puzzle of the kind and grade asked for.");
        }
        return Ok(());
    }
    if args.play {
        return play(&s.rules, &views);
    }
    println!("{} puzzles (seed {}):", views.len(), args.seed);
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
    let position = seated.position();
    let mut checker = s.checker()?;
    checker.around(&s.solution, position)?;
    let puzzle = puzzle_at(&s.solution, position)?;
    let v = view(&s.solution, &puzzle, position, &mut checker)?;
    if args.output.json {
        super::print_json(&view_json(&v)?);
        return Ok(());
    }
    if args.play {
        return play(&s.rules, std::slice::from_ref(&v));
    }
    print_puzzle(&s.rules, 1, &v);
    if !args.hide_answers {
        print_answer(1, &v);
    }
    Ok(())
}

/// Plays the puzzles in the terminal: a move per puzzle, with a streak.
fn play(rules: &Ruleset, views: &[PuzzleView]) -> Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let write_err =
        |e: std::io::Error| anyhow::anyhow!("cannot write the output (standard output): {e}");
    let (mut streak, mut best, mut solved) = (0u32, 0u32, 0u32);
    writeln!(
        out,
        "Type your move as `moves` prints it (`tap 1→2`, `split 13→22`; `->` works too), or `hint`, `skip`, `quit`."
    )
    .map_err(write_err)?;
    'puzzles: for (k, v) in views.iter().enumerate() {
        writeln!(out, "\nPuzzle {} of {}: {}", k + 1, views.len(), v.goal).map_err(write_err)?;
        writeln!(out, "  {}   ({})", board(rules, &v.position), v.position).map_err(write_err)?;
        let legal: Vec<&str> = v.moves.iter().map(|m| m.name.as_str()).collect();
        writeln!(out, "  Legal moves: {}", legal.join(", ")).map_err(write_err)?;
        loop {
            write!(out, "> ").map_err(write_err)?;
            out.flush().map_err(write_err)?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out).map_err(write_err)?;
                break 'puzzles;
            }
            let said = normalise_move_text(&line);
            match said.as_str() {
                "" => continue,
                "quit" | "q" => break 'puzzles,
                "hint" | "h" => {
                    writeln!(out, "  Hint: {}", v.hint).map_err(write_err)?;
                    continue;
                }
                "skip" => {
                    streak = 0;
                    let answer = v.moves.iter().find(|m| m.answer);
                    if let Some(a) = answer {
                        writeln!(out, "  The answer: {} — {}", a.name, a.line.text())
                            .map_err(write_err)?;
                    }
                    continue 'puzzles;
                }
                _ => {}
            }
            let Some(m) = v
                .moves
                .iter()
                .find(|m| normalise_move_text(&m.name) == said)
            else {
                writeln!(out, "  `{}` is not a legal move here.", line.trim())
                    .map_err(write_err)?;
                continue;
            };
            if m.answer {
                streak += 1;
                solved += 1;
                best = best.max(streak);
                writeln!(out, "  Right! {} ({}). Streak: {streak}.", m.name, m.value)
                    .map_err(write_err)?;
                writeln!(out, "  The line: {}", m.line.text()).map_err(write_err)?;
            } else {
                streak = 0;
                let answer = v.moves.iter().find(|m| m.answer);
                writeln!(out, "  Not this one: {} gives {}.", m.name, m.value)
                    .map_err(write_err)?;
                writeln!(out, "  Refutation: {}", m.line.text()).map_err(write_err)?;
                if let Some(a) = answer {
                    writeln!(out, "  The answer: {} — {}", a.name, a.line.text())
                        .map_err(write_err)?;
                }
                writeln!(out, "  Streak: 0.").map_err(write_err)?;
            }
            continue 'puzzles;
        }
    }
    writeln!(
        out,
        "Solved {solved} of {}; best streak {best}.",
        views.len()
    )
    .map_err(write_err)?;
    Ok(())
}
