//! Solved variants kept in memory, within a budget.
//!
//! Each variant is solved at most once at a time: the first request for a variant
//! puts an empty cell under its canonical id and starts the solve in a task of its
//! own; later requests for the same variant wait on the same cell. Because the solve
//! does not run inside any request's future, a client that disconnects mid-solve
//! neither cancels nor duplicates it: the result lands in the cache for the next
//! request.
//!
//! Memory is accounted per entry: while a variant is being solved, the solver's peak
//! estimate (working cells and move tables); once solved, what it really keeps (the
//! table and the move graph). A variant whose estimate exceeds the whole budget is
//! refused at once, before anything is allocated. Otherwise room is made by evicting
//! the least recently used solved entries; entries still being solved are never
//! evicted, so when they alone fill the budget the request is refused as busy.
//!
//! Besides the solutions, the bytes of the positions endpoint's answers are kept by
//! the request's own words (at most [`ANSWER_BYTES`], emptied when full): a solved
//! table never changes, so a repeated request gets the same bytes without its
//! variant or position being read again. Each answer holds its variant weakly: once
//! the variant is evicted its answers are never used.
//!
//! A saved solution (`serve --db`) is served from its file, which may be forged
//! though its checksums are valid: an answer about a position first checks the
//! optimal line from it and from each position one move away against the rules
//! ([`Solved::check_lines`]), and the strategy first checks the whole table
//! ([`Solved::check_whole`]), unless `serve --check` checked it at start. A table
//! that contradicts the rules is answered 503 with the position where it shows.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, Weak};

use axum::body::Bytes;
use chopsticks_rules::{Position, PositionIndex, Ruleset};
use chopsticks_solve::strategy::Advice;
use chopsticks_solve::{Solution, SolveError};
use chopsticks_space::{human_bytes, Graph};
use tokio::sync::OnceCell;

use crate::error::ApiError;

/// A solved variant as the server keeps it: the toolkit's
/// [`chopsticks_solve::Solved`] (its checks of a saved file included), with
/// what is computed from it on first request. Its move graph is built before
/// it is served.
pub struct Solved {
    solved: chopsticks_solve::Solved,
    /// The strategy advice from the start, computed on first request.
    pub advice: OnceCell<Result<Arc<Advice>, ApiError>>,
    /// Every puzzle of the variant, found on first request.
    pub puzzles: OnceCell<Result<Arc<chopsticks_learn::PuzzleSet>, ApiError>>,
}

impl std::ops::Deref for Solved {
    type Target = chopsticks_solve::Solved;
    fn deref(&self) -> &chopsticks_solve::Solved {
        &self.solved
    }
}

impl Solved {
    /// Serves `solved`, its move graph built now (a ruleset whose tables cannot
    /// be built is refused here, not on a request).
    fn new(solved: chopsticks_solve::Solved) -> Result<Solved, ApiError> {
        solved
            .graph()
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        Ok(Solved {
            solved,
            advice: OnceCell::new(),
            puzzles: OnceCell::new(),
        })
    }

    /// The move graph (built when the variant was added).
    pub fn graph(&self) -> Result<&Graph, ApiError> {
        self.solved
            .graph()
            .map_err(|e| ApiError::unprocessable(e.to_string()))
    }

    /// What a saved solution contradicting the rules is answered: 503, naming the
    /// file and the position where the contradiction shows.
    fn contradicted(&self, e: SolveError) -> ApiError {
        let path = self
            .path()
            .map_or_else(String::new, |p| format!(" {}", p.display()));
        match e {
            SolveError::Inconsistent(_) => ApiError::unavailable(format!(
                "the saved solution{path} contradicts the rules, so it is not served: {e}"
            )),
            e => ApiError::unavailable(format!("the saved solution{path} cannot be read: {e}")),
        }
    }

    /// For a saved solution not checked whole: checks what an answer about
    /// `position` shows ([`chopsticks_solve::Solved::check_lines`]).
    pub fn check_lines(&self, position: &Position) -> Result<(), ApiError> {
        self.solved
            .check_lines(position)
            .map_err(|e| self.contradicted(e))
    }

    /// Checks every position of a saved solution not checked whole yet
    /// ([`chopsticks_solve::Solved::check_whole`]): what the strategy, which
    /// reads much of the table, relies on.
    pub fn check_whole(&self, progress: &(dyn Fn(u64) + Sync)) -> Result<(), ApiError> {
        self.solved
            .check_whole(progress)
            .map_err(|e| self.contradicted(e))
    }

    /// For a solution read from a file: that the file is still the one opened.
    fn check_source(&self) -> Result<(), ApiError> {
        self.solved.check_source().map_err(|what| {
            ApiError::unavailable(format!(
                "the saved solution {} changed since this server opened it: it {what}; \
                 restart the server to serve the file as it is now",
                self.path()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default()
            ))
        })
    }
}

/// The most bytes of answers kept (besides the budget for solutions): the
/// positions endpoint's answers, by the request's words.
pub const ANSWER_BYTES: usize = 16 << 20;

/// Answers by the request's words, each with its variant held weakly.
type RequestAnswers = HashMap<String, (Weak<Solved>, Bytes)>;

type Cell = Arc<OnceCell<Result<Arc<Solved>, ApiError>>>;

struct Entry {
    cell: Cell,
    bytes: u64,
    last_used: u64,
}

struct Inner {
    entries: HashMap<String, Entry>,
    clock: u64,
}

/// The cache of solved variants (see the module documentation).
pub struct SolutionCache {
    budget: u64,
    inner: Mutex<Inner>,
    /// Solutions read from files (`chopsticks serve --db`): read in place, a
    /// block at a time (at most 64 MiB of blocks kept each), so outside the
    /// budget, and never evicted.
    saved: Mutex<HashMap<String, Arc<Solved>>>,
    /// Answers by the request's own words (variant and position as written), so
    /// that a repeated request is answered without reading either again; an
    /// answer whose variant was evicted is not used. At most [`ANSWER_BYTES`],
    /// then emptied.
    requests: Mutex<(RequestAnswers, usize)>,
}

/// The solver's peak memory for a variant of `count` positions, estimated before
/// anything is built: the most a solve can take
/// ([`chopsticks_solve::SolveMemory::at_most`], the command line's estimate).
pub fn solve_estimate(rules: &Ruleset, count: u64) -> u64 {
    chopsticks_solve::solve_memory(rules, count).at_most
}

impl SolutionCache {
    /// An empty cache that keeps at most `budget` bytes of solutions.
    pub fn new(budget: u64) -> SolutionCache {
        SolutionCache {
            budget,
            inner: Mutex::new(Inner {
                entries: HashMap::new(),
                clock: 0,
            }),
            saved: Mutex::new(HashMap::new()),
            requests: Mutex::new((HashMap::new(), 0)),
        }
    }

    fn request_key(variant: &str, position: &str) -> String {
        format!("{variant}\u{0}{position}")
    }

    /// The answer already given to the same words, if its variant is still here.
    pub fn answered(&self, variant: &str, position: &str) -> Option<Bytes> {
        let requests = self.requests.lock().expect("cache lock");
        let (solved, bytes) = requests.0.get(&Self::request_key(variant, position))?;
        solved.upgrade().map(|_| bytes.clone())
    }

    /// Remembers the answer to these words, for [`SolutionCache::answered`].
    pub fn remember(&self, variant: &str, position: &str, solved: &Arc<Solved>, bytes: Bytes) {
        let key = Self::request_key(variant, position);
        let size = key.len() + bytes.len();
        let mut requests = self.requests.lock().expect("cache lock");
        if requests.1 + size > ANSWER_BYTES {
            *requests = (HashMap::new(), 0);
        }
        requests.1 += size;
        requests.0.insert(key, (Arc::downgrade(solved), bytes));
    }

    /// Serves `solution` (read from a file) for its variant from now on, instead
    /// of solving it; returns the variant's id.
    ///
    /// `path` is the file the solution was opened from: its identity (device,
    /// inode, size, modification time) is taken now, and a request for the variant
    /// is refused once it differs, before the file's bytes are read: a file
    /// truncated or rewritten under a running server would otherwise answer from
    /// bytes it was not checked against, or fault on pages that no longer exist.
    pub fn add_saved(&self, solution: Solution, path: &Path) -> Result<String, ApiError> {
        let opened = chopsticks_solve::Solved::opened(solution, path)
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        let solved = Solved::new(opened)?;
        let id = solved.rules.variant_id();
        self.saved
            .lock()
            .expect("cache lock")
            .insert(id.clone(), Arc::new(solved));
        Ok(id)
    }

    /// The memory budget in bytes.
    /// Checks every position of the saved solution served for variant `id`
    /// against the rules (`serve --db FILE --check`): a contradiction is an
    /// error, and once checked the requests skip the checks of their lines.
    pub fn check_saved(&self, id: &str, progress: &(dyn Fn(u64) + Sync)) -> Result<(), ApiError> {
        self.saved_solution(id)?.check_whole(progress)
    }

    /// The number of positions of the saved solution served for variant `id`
    /// (0 when there is none).
    pub fn saved_count(&self, id: &str) -> u64 {
        self.saved_solution(id).map_or(0, |s| s.solution.count())
    }

    fn saved_solution(&self, id: &str) -> Result<Arc<Solved>, ApiError> {
        self.saved
            .lock()
            .expect("cache lock")
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no saved solution for {id}")))
    }

    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Bytes accounted to the entries now.
    pub fn used(&self) -> u64 {
        let inner = self.inner.lock().expect("cache lock");
        inner.entries.values().map(|e| e.bytes).sum()
    }

    /// The canonical ids of the variants cached or being solved.
    pub fn ids(&self) -> Vec<String> {
        let inner = self.inner.lock().expect("cache lock");
        let mut ids: Vec<String> = inner.entries.keys().cloned().collect();
        ids.extend(self.saved.lock().expect("cache lock").keys().cloned());
        ids.sort();
        ids
    }

    /// Whether this server can solve `rules`: an index that fits, and a solver's
    /// estimate within the budget. The number of positions and the estimate in
    /// bytes, or the refusal the positions of the variant would get.
    pub fn admit(&self, rules: &Ruleset) -> Result<(u64, u64), ApiError> {
        let count = PositionIndex::new(rules)
            .map_err(|e| ApiError::too_large(e.to_string()))?
            .count();
        let needed = solve_estimate(rules, count);
        if needed > self.budget {
            return Err(ApiError::too_large(format!(
                "solving {count} positions needs about {} of memory; this server's budget is {}",
                human_bytes(needed),
                human_bytes(self.budget)
            )));
        }
        Ok((count, needed))
    }

    /// The solution of `rules`: from the cache, by waiting for a solve under way, or
    /// by starting one.
    pub async fn get(self: &Arc<Self>, rules: Ruleset) -> Result<Arc<Solved>, ApiError> {
        let id = rules.variant_id();
        if let Some(saved) = self.saved.lock().expect("cache lock").get(&id) {
            saved.check_source()?;
            return Ok(Arc::clone(saved));
        }
        let (_, needed) = self.admit(&rules)?;
        let cell = self.reserve(&id, needed)?;
        let task = {
            let cell = cell.clone();
            let cache = Arc::clone(self);
            let id = id.clone();
            tokio::spawn(async move {
                let result = cell
                    .get_or_init(|| async move {
                        tokio::task::spawn_blocking(move || solve(rules))
                            .await
                            .unwrap_or_else(|e| {
                                Err(ApiError::internal(format!("the solver stopped: {e}")))
                            })
                    })
                    .await
                    .clone();
                cache.settle(&id, &result);
                result
            })
        };
        task.await
            .unwrap_or_else(|e| Err(ApiError::internal(format!("the solver stopped: {e}"))))
    }

    /// Finds or makes the entry of `id`, making room for `needed` bytes.
    fn reserve(&self, id: &str, needed: u64) -> Result<Cell, ApiError> {
        let mut inner = self.inner.lock().expect("cache lock");
        inner.clock += 1;
        let now = inner.clock;
        if let Some(entry) = inner.entries.get_mut(id) {
            entry.last_used = now;
            return Ok(entry.cell.clone());
        }
        let mut used: u64 = inner.entries.values().map(|e| e.bytes).sum();
        while used + needed > self.budget {
            // The least recently used entry that is solved (or failed).
            let victim = inner
                .entries
                .iter()
                .filter(|(_, e)| e.cell.initialized())
                .min_by_key(|(_, e)| e.last_used)
                .map(|(k, _)| k.clone());
            let Some(victim) = victim else {
                return Err(ApiError::busy(format!(
                    "other variants being solved fill this server's memory budget ({}); try again shortly",
                    human_bytes(self.budget)
                )));
            };
            let removed = inner.entries.remove(&victim).expect("present");
            used -= removed.bytes;
        }
        let cell: Cell = Arc::new(OnceCell::new());
        inner.entries.insert(
            id.to_string(),
            Entry {
                cell: cell.clone(),
                bytes: needed,
                last_used: now,
            },
        );
        Ok(cell)
    }

    /// After a solve: account what the entry really keeps, or drop a failed entry.
    fn settle(&self, id: &str, result: &Result<Arc<Solved>, ApiError>) {
        let mut inner = self.inner.lock().expect("cache lock");
        match result {
            Ok(solved) => {
                if let Some(entry) = inner.entries.get_mut(id) {
                    entry.bytes = solved.resident_bytes();
                }
            }
            Err(_) => {
                inner.entries.remove(id);
            }
        }
    }
}

fn solve(rules: Ruleset) -> Result<Arc<Solved>, ApiError> {
    let solved = chopsticks_solve::Solved::solve(rules)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    Ok(Arc::new(Solved::new(solved)?))
}
