//! What the solver commands share: getting a solution (solved now or loaded from
//! `--db`), and writing outcomes for people.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use chopsticks_rules::{Position, Ruleset};
use chopsticks_solve::{file, Concept, Outcome, Solution, Value};
use chopsticks_space::Graph;
use clap::Args;

use crate::progress;
use crate::rules_args::RulesArgs;
use crate::workload::graph_for_solving;

/// `--db FILE`: use a saved solution instead of solving.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Input")]
pub struct DbArgs {
    /// Read the solution from this file (written by `solve --save`) instead of solving.
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

/// A ruleset with its move graph and its solution.
pub struct Solved {
    pub rules: Ruleset,
    /// The move graph, built when first asked for ([`Solved::graph`]): a query
    /// of a saved file needs none, and building the tables of a large variant
    /// takes longer than the query.
    graph: OnceLock<Graph>,
    pub solution: Solution,
    /// Time spent solving (zero when loaded).
    pub solve_time: Duration,
    /// Read from a file (`--db`): its table is checked before it is believed.
    pub loaded: bool,
}

impl Solved {
    /// A solution solved here (by the caller) with its graph.
    pub fn new(rules: Ruleset, graph: Graph, solution: Solution, solve_time: Duration) -> Solved {
        Solved {
            rules,
            graph: OnceLock::from(graph),
            solution,
            solve_time,
            loaded: false,
        }
    }

    /// The move graph of the ruleset.
    pub fn graph(&self) -> Result<&Graph> {
        if let Some(graph) = self.graph.get() {
            return Ok(graph);
        }
        let graph = Graph::new(&self.rules).context("rebuilding the move graph")?;
        Ok(self.graph.get_or_init(|| graph))
    }

    /// Checks, for a loaded solution, what showing `position` with the values of
    /// its moves relies on: the optimal line from the position and from every
    /// position one move away, each position on them against its moves and each
    /// line's end against the rules of a finished game
    /// (`Solution::check_lines_around`). A solution solved here is not checked.
    /// Two-player tables are checked from the positions' moves, with no move graph.
    pub fn check_around(&self, position: &Position) -> Result<()> {
        if !self.loaded {
            return Ok(());
        }
        let graph = match self.solution.concept() {
            Concept::TwoPlayer => None,
            _ => Some(self.graph()?),
        };
        self.solution.check_lines_around(graph, position)?;
        Ok(())
    }

    /// What checks the lines a review, a puzzle or `query --line` shows: for a
    /// loaded solution, against the rules (`chopsticks_learn::Checker`); for one
    /// solved here, nothing.
    pub fn checker(&self) -> Result<chopsticks_learn::Checker<'_>> {
        if !self.loaded {
            return Ok(chopsticks_learn::Checker::trusted());
        }
        let graph = match self.solution.concept() {
            Concept::TwoPlayer => None,
            _ => Some(self.graph()?),
        };
        Ok(chopsticks_learn::Checker::against_rules(graph))
    }

    /// Checks every position of a loaded solution (for commands that walk much of
    /// the table, such as `strategy`): afterwards the table is known to be exactly
    /// the solution of its ruleset.
    pub fn check_all(&self, quiet: bool) -> Result<()> {
        if self.loaded {
            let graph = self.graph()?;
            let spinner = progress::counter("checking the saved solution", quiet);
            let checked = self.solution.verify(graph);
            spinner.finish_and_clear();
            checked?;
        }
        Ok(())
    }
}

/// Solves the ruleset of `rules`, or loads `db` (refusing a file for other rules).
pub fn solved(rules: &RulesArgs, db: &DbArgs, quiet: bool) -> Result<Solved> {
    solved_with(rules, db, quiet, |_| Ok(())).map(|(s, ())| s)
}

/// Like [`solved`], with `prepare` run on the ruleset as soon as it is known and
/// before the solve (a file is read first, which is quick): what would fail after
/// the work (a position that cannot be read, a notation that cannot write these
/// rules, a file that cannot be written) is refused before it.
pub fn solved_with<T>(
    rules: &RulesArgs,
    db: &DbArgs,
    quiet: bool,
    prepare: impl FnOnce(&Ruleset) -> Result<T>,
) -> Result<(Solved, T)> {
    // With a file and no rule flags, the file's rules; else the flags' (the
    // standard game when none is given).
    let asked = if db.db.is_some() && !rules.any_given() {
        None
    } else {
        Some(rules.ruleset()?)
    };
    solved_ruleset(asked, db, quiet, prepare)
}

/// [`solved_with`] for a ruleset known otherwise (a game record's variant):
/// solves `asked`, or loads `db` (refusing a file for other rules than `asked`;
/// `None`: whatever rules the file holds).
pub fn solved_ruleset<T>(
    asked: Option<Ruleset>,
    db: &DbArgs,
    quiet: bool,
    prepare: impl FnOnce(&Ruleset) -> Result<T>,
) -> Result<(Solved, T)> {
    if let Some(path) = &db.db {
        let solution = file::open(path)?;
        let stored = solution.rules().clone();
        if let Some(asked) = asked {
            if asked != stored {
                bail!(
                    "{} holds the solution of {}, not of the rules asked for ({})",
                    path.display(),
                    stored.describe(),
                    asked.describe()
                );
            }
        }
        let prepared = prepare(&stored)?;
        let s = Solved {
            rules: stored,
            graph: OnceLock::new(),
            solution,
            solve_time: Duration::ZERO,
            loaded: true,
        };
        return Ok((s, prepared));
    }
    let Some(rules) = asked else {
        bail!("no rules given and no saved solution (--db) to read them from");
    };
    let prepared = prepare(&rules)?;
    let graph = graph_for_solving(&rules, quiet)?;
    let clock = Instant::now();
    // How many positions will be resolved (the rest are draws) is not known in
    // advance, so this counts resolved positions level by level.
    let bar = progress::counter("solving: setting up (finished positions)", quiet);
    let estimate = crate::workload::solve_seconds_estimate(&rules, graph.count());
    let solution = Solution::solve(&graph, &|p| {
        bar.set_position(p.resolved);
        bar.set_message(format!(
            "solving {} positions: remoteness {} done, {}; wins and losses found",
            graph.count(),
            p.level,
            progress::time_left(estimate, clock.elapsed().as_secs_f64())
        ));
    })?;
    bar.finish_and_clear();
    let s = Solved {
        rules,
        graph: OnceLock::from(graph),
        solution,
        solve_time: clock.elapsed(),
        loaded: false,
    };
    Ok((s, prepared))
}

/// `win in 5`, `lose in 8`, `draw`.
pub fn outcome_text(o: &Outcome) -> String {
    o.to_string()
}

/// The outcome as JSON: `{"value": "win", "remoteness": 5}`.
pub fn outcome_json(o: &Outcome) -> serde_json::Value {
    serde_json::json!({"value": o.value.name(), "remoteness": o.remoteness})
}

/// Who wins from a position whose mover, `mover`, has this outcome, in words.
pub fn verdict(o: &Outcome, mover: chopsticks_rules::Player) -> String {
    match o.value {
        Value::Win => format!("{mover}, to move, wins"),
        Value::Lose => format!("{mover}, to move, loses"),
        Value::Draw => "neither player can force a win".to_string(),
    }
}

/// What the values of a solution mean, in words.
pub fn concept_text(concept: Concept) -> &'static str {
    match concept {
        Concept::TwoPlayer => "for the player to move",
        Concept::Coalition => {
            "coalition values: each player alone against all the others together (docs/MULTIPLAYER.md)"
        }
        Concept::Teams => {
            "for the mover's team (Players 1, 3, … against 2, 4, …; docs/MULTIPLAYER.md)"
        }
    }
}

/// `to move`, `next`, `2 after`, …: a player counted from the one to move, in
/// turn order (rows of counts over positions, where no player number applies).
pub fn turn_label(after: usize) -> String {
    match after {
        0 => "to move".to_string(),
        1 => "next".to_string(),
        k => format!("{k} after"),
    }
}
