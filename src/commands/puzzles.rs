//! `chopsticks puzzles`: positions where at most half of the moves win (or
//! keep the draw), from `chopsticks_learn::puzzles`: listed with their
//! solutions, one shown by its position (and followed by `--played` moves),
//! drawn as a worksheet (`--svg`), or played in the terminal to their end
//! with a streak and a rating (easiest first; a wrong move fails). Positions are printed by
//! their seated id and every player's hands, Player 1 first
//! (`1_2202   P1* [2,2]  P2 [0,2]`).

use std::io::{BufRead, Write};

use anyhow::{bail, Context, Result};
use chopsticks_learn::playout::{PuzzleGame, Verdict};
use chopsticks_learn::puzzles::{
    puzzle_at_seated, step_hint, view, view_seated, Filter, PuzzleSet, PuzzleView,
};
use chopsticks_learn::rating::Rating;
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
    /// Win puzzles (keep a forced win, to the end of the game), hold puzzles
    /// (keep the draw until it is safe), or both.
    #[arg(long, value_enum, default_value_t = KindArg::Any, help_heading = "Puzzles")]
    kind: KindArg,
    /// The seed that fixes which puzzles are chosen, and their order.
    #[arg(long, default_value_t = 1, help_heading = "Puzzles")]
    seed: u64,
    /// Show the puzzle at this position (any notation, or `2_1213` with the
    /// seat to move), or say why it is not one.
    #[arg(long, value_name = "POSITION", conflicts_with_all = ["count", "difficulty", "kind", "seed"], help_heading = "Input")]
    position: Option<String>,
    /// Draw the chosen puzzles as a worksheet for a class, to this SVG file:
    /// A4 pages, each puzzle's hands, its goal and room to write, the answers
    /// on pages of their own (written atomically).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["play", "position"], help_heading = "Output")]
    svg: Option<std::path::PathBuf>,
    /// With `--position`: the player's moves so far in the puzzle,
    /// comma-separated (`tap 2→2,split 13→22`): every one but the last must
    /// have been accepted; the last is judged, and the solver's replies, the
    /// end or the rest of the solution are shown (`progress` in `--json`).
    #[arg(
        long,
        value_name = "MOVES",
        requires = "position",
        conflicts_with = "play",
        help_heading = "Input"
    )]
    played: Option<String>,
    /// Do not print the answers and their lines.
    #[arg(long, help_heading = "Output")]
    hide_answers: bool,
    /// Play the puzzles in the terminal, easiest first, each to its end (the
    /// solver replies): type a move (`tap 1 2`, `t12`, `tap 1→2`, …), `moves`,
    /// `hint`, `skip` or `quit`; a wrong move fails the puzzle, a slower win is
    /// tried again. The rating (Glicko-2) is kept in $CHOPSTICKS_DATA_DIR or the
    /// user's data directory. Reads standard input, so it works piped.
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
    args.db.refuse_output(args.svg.as_deref(), "--svg")?;
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
    // The puzzles shown or drawn, viewed once (`--json` builds its own).
    let views = if args.svg.is_some() || !args.output.json {
        let mut checker = s.checker()?;
        set.choose(&filter, args.count, args.seed)
            .iter()
            .map(|p| view(&s.solution, p, &graph.position(p.index), &mut checker))
            .collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    if let Some(path) = &args.svg {
        write_worksheet(
            &s.rules,
            &views,
            path,
            !args.hide_answers,
            args.output.quiet,
        )?;
    }
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
        return play(&s, &climbing);
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

/// Writes the worksheet of `views` to `path` (atomically), saying so on
/// standard error unless quiet.
fn write_worksheet(
    rules: &Ruleset,
    views: &[PuzzleView],
    path: &std::path::Path,
    answers: bool,
    quiet: bool,
) -> Result<()> {
    use chopsticks_learn::worksheet::{Worksheet, PER_PAGE};
    if views.is_empty() {
        bail!(
            "no puzzle of the kind and grade asked for (or --count 0): no worksheet written to {}",
            path.display()
        );
    }
    let sheet = Worksheet::new(rules, views, answers)?;
    chopsticks_files::write_atomically(path, sheet.svg().as_bytes())
        .with_context(|| format!("cannot write the worksheet {}", path.display()))?;
    if !quiet {
        let puzzle_pages = views.len().div_ceil(PER_PAGE);
        let pages = sheet.page_count();
        let answers = match (answers, pages - puzzle_pages) {
            (false, _) => " (no answers: --hide-answers)".to_string(),
            (true, 1) => format!(" (the answers on page {pages})"),
            (true, _) => format!(" (the answers on pages {}–{pages})", puzzle_pages + 1),
        };
        eprintln!(
            "wrote {}: {} on {} A4 pages{answers}.",
            path.display(),
            crate::text::counted(views.len() as u64, "puzzle"),
            pages
        );
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
        "        grade {} ({}), rated {}: {} moves, {} to find, {} pl{} deep",
        v.difficulty.0,
        v.grade,
        v.rating,
        v.moves.len(),
        v.steps,
        v.depth,
        if v.depth == 1 { "y" } else { "ies" },
    );
}

fn print_answer(number: usize, v: &PuzzleView) {
    println!(
        "{number:>4}. {}: {} ({}).",
        v.accepted.join(" or "),
        solution_text(&v.solution.steps),
        v.solution.text
    );
    for why in &v.why {
        println!("        {why}");
    }
    for m in v.moves.iter().filter(|m| m.decoy) {
        println!("        not {} ({}): {}", m.name, m.value, m.line.text());
    }
}

fn show_one(s: &Solved, text: &str, args: &PuzzlesArgs) -> Result<()> {
    let seated = SeatedPosition::parse(text, &s.rules).context("--position")?;
    let played: Option<Vec<String>> = args
        .played
        .as_deref()
        .map(chopsticks_learn::playout::split_moves)
        .transpose()
        .context("--played")?;
    if args.output.json {
        s.check_all(args.output.quiet)?;
        super::print_json(&chopsticks_report::puzzle_at(
            s,
            &seated,
            args.hide_answers,
            played.as_deref(),
        )?);
        return Ok(());
    }
    // A puzzle's solution reads the table far from its position: a saved
    // table is checked whole first.
    s.check_all(args.output.quiet)?;
    let position = seated.position();
    let mut checker = s.checker()?;
    checker.around(&s.solution, position)?;
    let puzzle = puzzle_at_seated(&s.solution, &seated)?;
    let v = view_seated(&s.solution, &puzzle, &seated, &mut checker)?;
    if args.play {
        return play(s, std::slice::from_ref(&v));
    }
    // Followed before anything is printed: a bad move is refused alone.
    let progress = played
        .as_ref()
        .map(|played| chopsticks_learn::playout::follow(&s.solution, puzzle.kind, &seated, played))
        .transpose()?;
    print_puzzle(&s.rules, 1, &v);
    if let Some(p) = progress {
        let verdict = match p.verdict {
            Some(Verdict::Right) => "right",
            Some(Verdict::Slower) => "a win, but slower: not made, try again",
            Some(Verdict::Wrong) => "wrong: the puzzle is failed",
            None => "no move yet",
        };
        let last = played
            .as_ref()
            .and_then(|m| m.last())
            .cloned()
            .unwrap_or_default();
        println!(
            "        {} made; the last given, {last}, is {verdict}.",
            crate::text::counted(p.moves as u64, "move")
        );
        for r in &p.replies {
            println!("        Player {} replies {}.", r.player, r.name);
        }
        match &p.text {
            Some(_) if p.verdict == Some(Verdict::Wrong) => {}
            Some(end) => println!("        The puzzle is over: {end}."),
            None => println!(
                "        Now {}   {}; legal moves: {}",
                p.position,
                board(&s.rules, &p.position),
                p.legal.join(", ")
            ),
        }
        if !args.hide_answers && !p.rest.steps.is_empty() {
            println!(
                "        The rest of the solution: {}.",
                solution_text(&p.rest.steps)
            );
        }
        return Ok(());
    }
    if !args.hide_answers {
        print_answer(1, &v);
    }
    Ok(())
}

/// What the terminal puzzles take, besides a move.
const PLAY_COMMANDS: &str =
    "Commands: a move, `moves` (the legal moves), `hint`, `skip` (give up: the solution), `quit`.";

/// Where `puzzles --play` keeps the player's rating: `$CHOPSTICKS_DATA_DIR`,
/// else the user's data directory (`$XDG_DATA_HOME/chopsticks`, by default
/// `~/.local/share/chopsticks`).
fn rating_path() -> Result<std::path::PathBuf> {
    use etcetera::BaseStrategy;
    let dir = match std::env::var_os("CHOPSTICKS_DATA_DIR") {
        Some(d) if !d.is_empty() => std::path::PathBuf::from(d),
        _ => etcetera::choose_base_strategy()
            .context("cannot find the user's data directory to keep the puzzle rating in (set CHOPSTICKS_DATA_DIR)")?
            .data_dir()
            .join("chopsticks"),
    };
    Ok(dir.join("puzzle-rating.json"))
}

/// The player's rating and how many puzzles it counts, as kept on disk.
#[derive(serde::Serialize, serde::Deserialize)]
struct Kept {
    #[serde(flatten)]
    rating: Rating,
    puzzles: u64,
    solved: u64,
}

fn read_rating(path: &std::path::Path) -> Result<Kept> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Kept {
                rating: Rating::default(),
                puzzles: 0,
                solved: 0,
            })
        }
        Err(e) => bail!("cannot read the puzzle rating {}: {e}", path.display()),
    };
    let kept: Kept = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "the puzzle rating {} cannot be read ({e}); delete it to start again at 1500",
            path.display()
        )
    })?;
    if let Err(e) = kept.rating.check() {
        bail!(
            "the puzzle rating {} holds no rating: {e}; delete it to start again at 1500",
            path.display()
        );
    }
    if kept.solved > kept.puzzles {
        bail!(
            "the puzzle rating {} counts {} puzzles solved of {}; delete it to start again at 1500",
            path.display(),
            kept.solved,
            kept.puzzles
        );
    }
    Ok(kept)
}

fn write_rating(path: &std::path::Path, kept: &Kept) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot make the directory {}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(kept).expect("a rating serialises");
    chopsticks_files::write_atomically(path, text.as_bytes())
        .with_context(|| format!("cannot write the puzzle rating {}", path.display()))
}

/// A solution's plies from `from` on, as one line: `P1 tap 2→2, P2 split
/// 04→22, …`, with the other accepted moves of a step in brackets.
fn solution_text(steps: &[chopsticks_learn::playout::SolutionStep]) -> String {
    steps
        .iter()
        .map(|s| {
            let others = s.accepted.iter().skip(1).cloned().collect::<Vec<_>>();
            if others.is_empty() {
                format!("P{} {}", s.player, s.name)
            } else {
                format!("P{} {} (or {})", s.player, s.name, others.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Plays the puzzles in the terminal, each to its end: the solver replies to
/// every accepted move; a wrong move fails the puzzle, a slower win is tried
/// again. A streak of puzzles solved, and the player's rating (Glicko-2),
/// kept in the user's data directory.
fn play(s: &Solved, views: &[PuzzleView]) -> Result<()> {
    let rules = &s.rules;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let write_err =
        |e: std::io::Error| anyhow::anyhow!("cannot write the output (standard output): {e}");
    let path = rating_path()?;
    let mut kept = read_rating(&path)?;
    // Written back at once: a place where it cannot be kept is said before
    // any puzzle is played.
    write_rating(&path, &kept)?;
    let (mut streak, mut best, mut solved, mut played) = (0u32, 0u32, 0u32, 0usize);
    let mut unfinished = None;
    let targets = if rules.players() > 2 {
        format!("\n{MOVE_TARGET_TABLE}")
    } else {
        String::new()
    };
    writeln!(out, "{MOVE_FORMS_TABLE}{targets}\n{PLAY_COMMANDS}").map_err(write_err)?;
    writeln!(
        out,
        "Your puzzle rating: {} ({}, kept in {}).",
        kept.rating.text(),
        crate::text::counted(kept.puzzles, "puzzle"),
        path.display()
    )
    .map_err(write_err)?;
    let mut checker = s.checker()?;
    'puzzles: for (k, v) in views.iter().enumerate() {
        let at = SeatedPosition::parse(&v.position, rules)?;
        let mut game = PuzzleGame::new(&s.solution, v.kind, at)?;
        writeln!(
            out,
            "\nPuzzle {} of {}, grade {} ({}), rated {}: {}",
            k + 1,
            views.len(),
            v.difficulty.0,
            v.grade,
            v.rating,
            v.goal
        )
        .map_err(write_err)?;
        let legal = |game: &PuzzleGame| -> String {
            game.choice()
                .map(|c| {
                    c.moves
                        .iter()
                        .map(|m| game.position().move_name(rules, &m.mv))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default()
        };
        let show = |out: &mut std::io::StdoutLock, game: &PuzzleGame| -> Result<()> {
            let p = game.position();
            writeln!(out, "  {}   {}", p.to_text(rules)?, p.hands_line()).map_err(write_err)?;
            writeln!(out, "  Legal moves: {}", legal(game)).map_err(write_err)?;
            Ok(())
        };
        show(&mut out, &game)?;
        let mut helped = false;
        let outcome: Option<bool> = loop {
            write!(out, "> ").map_err(write_err)?;
            out.flush().map_err(write_err)?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out).map_err(write_err)?;
                break None;
            }
            let said = line.trim();
            match said.to_lowercase().as_str() {
                "" => continue,
                "quit" | "q" => break None,
                "hint" | "h" => {
                    helped = true;
                    if let Some(h) = step_hint(&game) {
                        writeln!(out, "  Hint: {h} (a hint counts as a miss for the rating)")
                            .map_err(write_err)?;
                    }
                    continue;
                }
                "moves" => {
                    writeln!(out, "  Legal moves: {}", legal(&game)).map_err(write_err)?;
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
                        "  A puzzle cannot be taken back. Type a move, `hint`, `skip` (the solution, then the next puzzle) or `quit`."
                    )
                    .map_err(write_err)?;
                    continue;
                }
                "skip" => {
                    let rest = game.solution(&s.solution)?;
                    writeln!(out, "  The solution: {}.", solution_text(&rest.steps))
                        .map_err(write_err)?;
                    break Some(false);
                }
                _ => {}
            }
            let mv = match game.position().find_move(rules, said) {
                Ok((mv, _)) => mv,
                Err(e) => {
                    writeln!(out, "  {e}").map_err(write_err)?;
                    if !matches!(e, RulesError::IllegalMove { .. }) {
                        writeln!(out, "  {PLAY_COMMANDS}").map_err(write_err)?;
                    }
                    continue;
                }
            };
            let before = game.clone();
            let name = before.position().move_name(rules, &mv);
            let played = game.play(&s.solution, &mv)?;
            match played.verdict {
                Verdict::Slower => {
                    writeln!(
                        out,
                        "  {name} wins too, but slower: the puzzle asks for the fastest win. Try again."
                    )
                    .map_err(write_err)?;
                    continue;
                }
                Verdict::Wrong => {
                    let c = before.choice().expect("a step to play");
                    let m = c.moves.iter().find(|m| m.mv == mv).expect("a legal move");
                    let to = before.position().after(m.to.clone(), m.step);
                    let refutation =
                        chopsticks_learn::optimal_line(&s.solution, &to, &mut checker)?;
                    writeln!(
                        out,
                        "  Not this one: {name} gives {}. Refutation: {}",
                        m.outcome,
                        refutation.text()
                    )
                    .map_err(write_err)?;
                    let rest = before.solution(&s.solution)?;
                    writeln!(
                        out,
                        "  The solution from here: {}.",
                        solution_text(&rest.steps)
                    )
                    .map_err(write_err)?;
                    break Some(false);
                }
                Verdict::Right => {}
            }
            for r in &played.replies {
                writeln!(
                    out,
                    "  Right. Player {} replies {}.",
                    r.from.turn() + 1,
                    r.from.move_name(rules, &r.mv)
                )
                .map_err(write_err)?;
            }
            if let Some(end) = game.end() {
                writeln!(out, "  Solved: {}.", end.text()).map_err(write_err)?;
                break Some(!helped);
            }
            if played.replies.is_empty() {
                writeln!(out, "  Right. Your move again.").map_err(write_err)?;
            }
            show(&mut out, &game)?;
        };
        let Some(clean) = outcome else {
            if game.moves_made() > 0 {
                unfinished = Some(k + 1);
            }
            break 'puzzles;
        };
        played += 1;
        if clean {
            solved += 1;
            streak += 1;
            best = best.max(streak);
        } else {
            streak = 0;
        }
        let before = kept.rating;
        kept.rating = kept.rating.after_puzzle(v.rating, clean);
        kept.puzzles += 1;
        kept.solved += u64::from(clean);
        write_rating(&path, &kept)?;
        writeln!(
            out,
            "  Streak: {streak}. Rating: {} → {} ({:+.0}).",
            before.text(),
            kept.rating.text(),
            kept.rating.rating - before.rating
        )
        .map_err(write_err)?;
    }
    if let Some(k) = unfinished {
        writeln!(out, "Puzzle {k} was left unfinished: not rated.").map_err(write_err)?;
    }
    writeln!(
        out,
        "Solved {solved} of {played} played cleanly (no wrong move, no hint; {} offered); best streak {best}. Your puzzle rating: {}.",
        views.len(),
        kept.rating.text()
    )
    .map_err(write_err)?;
    Ok(())
}
