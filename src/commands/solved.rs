//! What the solver commands share: getting a solution (solved now or loaded from
//! `--db`), and writing outcomes for people.

use std::path::PathBuf;

use anyhow::{bail, Result};
use chopsticks_rules::{Position, Ruleset};
use chopsticks_solve::{file, Concept, Outcome, Value};
use clap::Args;

use crate::progress;
use crate::rules_args::RulesArgs;

/// `--db FILE`: use a saved solution instead of solving.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Input")]
pub struct DbArgs {
    /// Read the solution from this file (written by `solve --save`) instead of solving.
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

impl DbArgs {
    /// Refuses an output (`flag` names it) that is the solution read with
    /// `--db`, through links too: what a command reads, it does not destroy.
    pub fn refuse_output(&self, output: Option<&std::path::Path>, flag: &str) -> Result<()> {
        if let (Some(db), Some(out)) = (&self.db, output) {
            if chopsticks_files::same_file(db, out) {
                bail!(
                    "{flag} {} is the solution read with --db {}: writing there would destroy it; choose another file",
                    out.display(),
                    db.display()
                );
            }
        }
        Ok(())
    }
}

pub use chopsticks_solve::Solved;

/// What the commands ask of a [`Solved`] besides the library's checks: errors
/// in the command line's words, the checker of lines for reviews and puzzles,
/// and a whole check behind a spinner.
pub trait SolvedChecks {
    /// Checks, for a loaded solution, what showing `position` with the values of
    /// its moves relies on ([`Solved::check_lines`]). A solution solved here is
    /// not checked.
    fn check_around(&self, position: &Position) -> Result<()>;
    /// What checks the lines a review, a puzzle or `query --line` shows: for a
    /// loaded solution, against the rules (`chopsticks_learn::Checker`); for one
    /// solved here, nothing.
    fn checker(&self) -> Result<chopsticks_learn::Checker<'_>>;
    /// Checks every position of a loaded solution (for commands that walk much
    /// of the table, such as `strategy`): afterwards the table is known to be
    /// exactly the solution of its ruleset.
    fn check_all(&self, quiet: bool) -> Result<()>;
}

impl SolvedChecks for Solved {
    fn check_around(&self, position: &Position) -> Result<()> {
        Ok(self.check_lines(position)?)
    }

    fn checker(&self) -> Result<chopsticks_learn::Checker<'_>> {
        Ok(chopsticks_report::checker(self)?)
    }

    fn check_all(&self, quiet: bool) -> Result<()> {
        if self.needs_line_checks() {
            self.graph()?;
            let spinner = progress::counter("checking the saved solution", quiet);
            let checked = self.check_whole(&|_| {});
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
        return Ok((Solved::opened(solution, path)?, prepared));
    }
    let Some(rules) = asked else {
        bail!("no rules given and no saved solution (--db) to read them from");
    };
    let prepared = prepare(&rules)?;
    let solved = chopsticks_driver::solve_in_memory(&rules, &progress::Shown::new(quiet))?;
    Ok((solved, prepared))
}

/// `win in 5`, `lose in 8`, `draw`.
pub fn outcome_text(o: &Outcome) -> String {
    o.to_string()
}

pub use chopsticks_report::outcome_json;

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
