//! A ruleset with its solution, solved here or opened from a file: the one
//! `Solved` of the command line and the server.
//!
//! A solution solved here is trusted. One opened from a file is not believed
//! where the rules contradict it: before a position is shown, the optimal lines
//! from it and from its neighbours are checked ([`Solved::check_lines`]); a
//! command that walks much of the table checks it whole first
//! ([`Solved::check_whole`]), after which the lines need no check; and a file
//! changed since it was opened is refused ([`Solved::check_source`]). The move
//! graph is built when first asked for: a query of a saved file needs none, and
//! building the tables of a large variant takes longer than the query.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use chopsticks_rules::{Position, Ruleset};
use chopsticks_space::Graph;

use crate::{file, Concept, Solution, SolveError};

/// What tells a file apart from another, or from itself rewritten.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FileIdentity {
    device: u64,
    inode: u64,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl FileIdentity {
    fn of(path: &Path) -> std::io::Result<FileIdentity> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path)?;
        Ok(FileIdentity {
            device: m.dev(),
            inode: m.ino(),
            len: m.len(),
            modified: m.modified().ok(),
        })
    }
}

/// A ruleset with its move graph (built when first asked for) and its solution.
pub struct Solved {
    pub rules: Ruleset,
    graph: OnceLock<Graph>,
    pub solution: Solution,
    /// Time spent solving (zero when opened from a file).
    pub solve_time: Duration,
    /// The file the solution was opened from, and its identity then.
    source: Option<(PathBuf, FileIdentity)>,
    /// Whether every position of the table is known to be what the rules give:
    /// true for a solution solved here, and for an opened one once checked whole.
    checked: AtomicBool,
    /// The positions whose lines around were checked already
    /// ([`Solved::check_lines`]): asked again, they are not checked again.
    /// Emptied when it holds [`LINES_REMEMBERED`] positions.
    lines_checked: Mutex<HashSet<u64>>,
}

/// The most positions [`Solved::check_lines`] remembers (8 MiB or so).
pub const LINES_REMEMBERED: usize = 1 << 18;

impl Solved {
    /// A solution solved here, with its graph.
    pub fn new(rules: Ruleset, graph: Graph, solution: Solution, solve_time: Duration) -> Solved {
        Solved {
            rules,
            graph: OnceLock::from(graph),
            solution,
            solve_time,
            source: None,
            checked: AtomicBool::new(true),
            lines_checked: Mutex::new(HashSet::new()),
        }
    }

    /// Solves `rules` in memory (the move graph, then the solution).
    pub fn solve(rules: Ruleset) -> Result<Solved, SolveError> {
        let clock = std::time::Instant::now();
        let graph = Graph::new(&rules)?;
        let solution = Solution::solve(&graph, &|_| {})?;
        Ok(Solved::new(rules, graph, solution, clock.elapsed()))
    }

    /// Opens the solution file at `path` (read in place, not checked yet); its
    /// identity is taken now, for [`Solved::check_source`].
    pub fn open(path: &Path) -> Result<Solved, SolveError> {
        let solution = file::open(path)?;
        Solved::opened(solution, path)
    }

    /// A solution already opened from `path`.
    pub fn opened(solution: Solution, path: &Path) -> Result<Solved, SolveError> {
        let identity = FileIdentity::of(path)
            .map_err(|e| SolveError::Io(format!("{}: {e}", path.display())))?;
        Ok(Solved {
            rules: solution.rules().clone(),
            graph: OnceLock::new(),
            solution,
            solve_time: Duration::ZERO,
            source: Some((path.to_path_buf(), identity)),
            checked: AtomicBool::new(false),
            lines_checked: Mutex::new(HashSet::new()),
        })
    }

    /// The move graph of the ruleset, built the first time.
    pub fn graph(&self) -> Result<&Graph, SolveError> {
        if let Some(graph) = self.graph.get() {
            return Ok(graph);
        }
        let graph = Graph::new(&self.rules)?;
        Ok(self.graph.get_or_init(|| graph))
    }

    /// Whether the solution was opened from a file.
    pub fn loaded(&self) -> bool {
        self.source.is_some()
    }

    /// The file the solution was opened from.
    pub fn path(&self) -> Option<&Path> {
        self.source.as_ref().map(|(p, _)| p.as_path())
    }

    /// Whether answers about positions need [`Solved::check_lines`] (an opened
    /// solution not checked whole).
    pub fn needs_line_checks(&self) -> bool {
        !self.checked.load(Ordering::Relaxed)
    }

    /// The graph a check of lines needs: none for two players (their lines are
    /// checked from the positions' moves) unless it is built already.
    pub fn graph_for_checks(&self) -> Result<Option<&Graph>, SolveError> {
        Ok(match self.solution.concept() {
            Concept::TwoPlayer => self.graph.get(),
            _ => Some(self.graph()?),
        })
    }

    /// For an opened solution not checked whole: checks what showing `position`
    /// with the values of its moves relies on, the optimal line from it and
    /// from every position one move away, against the rules
    /// (`Solution::check_lines_around`). Nothing otherwise, and nothing for a
    /// position checked so before (the table does not change while it is
    /// open: a file rewritten since is refused by [`Solved::check_source`]).
    pub fn check_lines(&self, position: &Position) -> Result<(), SolveError> {
        if !self.needs_line_checks() {
            return Ok(());
        }
        let rank = self.solution.rank(position);
        let remembered = |set: &HashSet<u64>| set.contains(&rank);
        if remembered(&self.lines_checked.lock().unwrap_or_else(|e| e.into_inner())) {
            return Ok(());
        }
        self.solution
            .check_lines_around(self.graph_for_checks()?, position)?;
        let mut set = self.lines_checked.lock().unwrap_or_else(|e| e.into_inner());
        if set.len() >= LINES_REMEMBERED {
            set.clear();
        }
        set.insert(rank);
        Ok(())
    }

    /// Checks every position of an opened solution not checked whole yet
    /// (`Solution::verify_with_progress`, `progress` the positions checked):
    /// afterwards the table is known to be the solution of its rules.
    pub fn check_whole(&self, progress: &(dyn Fn(u64) + Sync)) -> Result<(), SolveError> {
        if !self.needs_line_checks() {
            return Ok(());
        }
        self.solution
            .verify_with_progress(self.graph()?, progress)?;
        if self.solution.has_remoteness() {
            self.checked.store(true, Ordering::Relaxed);
        }
        Ok(())
    }

    /// For an opened solution: that its file is still the one opened (a file
    /// truncated or rewritten since would answer from bytes it was not checked
    /// against). The error says what changed.
    pub fn check_source(&self) -> Result<(), String> {
        let Some((path, opened)) = &self.source else {
            return Ok(());
        };
        let now = FileIdentity::of(path);
        if now.as_ref().is_ok_and(|now| now == opened) {
            return Ok(());
        }
        Err(match now {
            Err(e) => format!("cannot be read any more ({e})"),
            Ok(now) if now.len != opened.len => {
                format!("is now {} bytes long, was {}", now.len, opened.len)
            }
            Ok(_) => "was replaced or rewritten".to_string(),
        })
    }

    /// Bytes kept in memory: the move graph (if built) and the table.
    pub fn resident_bytes(&self) -> u64 {
        self.graph.get().map_or(0, Graph::table_bytes) + self.solution.table().resident_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chopsticks_rules::Preset;

    #[test]
    fn a_position_whose_lines_were_checked_is_remembered() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sol");
        let here = Solved::solve(Preset::Standard.ruleset()).unwrap();
        file::save(&here.solution, &path).unwrap();
        let opened = Solved::open(&path).unwrap();
        let start = Position::start(&opened.rules);
        let rank = opened.solution.rank(&start);
        assert!(!opened.lines_checked.lock().unwrap().contains(&rank));
        opened.check_lines(&start).unwrap();
        assert!(opened.lines_checked.lock().unwrap().contains(&rank));
        opened.check_lines(&start).unwrap();
        assert_eq!(opened.lines_checked.lock().unwrap().len(), 1);
    }

    #[test]
    fn an_opened_solution_is_checked_and_its_file_watched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sol");
        let here = Solved::solve(Preset::Standard.ruleset()).unwrap();
        assert!(!here.loaded() && !here.needs_line_checks());
        file::save(&here.solution, &path).unwrap();
        let opened = Solved::open(&path).unwrap();
        assert!(opened.loaded() && opened.needs_line_checks());
        assert_eq!(opened.rules, here.rules);
        let start = Position::start(&opened.rules);
        opened.check_lines(&start).unwrap();
        opened.check_whole(&|_| {}).unwrap();
        assert!(!opened.needs_line_checks());
        assert_eq!(opened.check_source(), Ok(()));
        std::fs::write(&path, b"short").unwrap();
        assert!(opened.check_source().unwrap_err().contains("bytes long"));
    }
}
