//! Solved variants, and the documents computed from them, kept in memory within
//! one budget.
//!
//! The model: everything the server computes that takes long (a variant's
//! solution, its strategy, its puzzles, the whole check of a saved table) is a
//! **computation** of this cache, under a key (what it is and of which variant).
//! The first request for a key puts an empty cell under it, with the
//! computation's estimated peak memory accounted to it, and starts the work as a
//! detached task of its own (on a thread of its own, at
//! [`crate::background::Priority::Computation`], below the threads that answer
//! requests); every later request for the
//! same key waits on the same cell. Because the work does not run inside any
//! request's future, a client that hangs up neither cancels nor duplicates it:
//! the result lands in the cache for the next request. A request waits at most
//! its time limit ([`SolutionCache::get`]'s `wait`), then is answered 503 saying
//! what is being computed, for how long so far, and when to ask again
//! (`Retry-After`); the work goes on. Nothing computed is thrown away while it
//! fits: a computation whose estimate does not fit the whole budget is refused
//! (413) before it starts, so every computation started is worth keeping. When
//! the server stops, the runtime is dropped without waiting for them.
//!
//! Memory is accounted per entry: while it is being computed, the estimate
//! (for a solve, the solver's peak: working cells and move tables; for a
//! document, `chopsticks_solve::strategy::advice_memory` or
//! `chopsticks_learn::puzzles::find_memory`); once done, what it really keeps.
//! Room is made by evicting the least recently used finished entries (a
//! solution and its documents are evicted independently; a request that holds
//! one keeps it alive until it is answered); entries still being computed are
//! never evicted, so when they alone fill the budget the request is refused as
//! busy (429). Answers that are built whole before they are sent (a strategy
//! sheet as SVG) reserve their bytes from the same budget while they are built
//! and sent ([`SolutionCache::reserve_answer`]); large answers are streamed
//! instead, or refused with their estimate.
//!
//! Besides the budget, the bytes of the positions endpoint's answers are kept by
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
use std::time::{Duration, Instant};

use axum::body::Bytes;
use chopsticks_learn::PuzzleSet;
use chopsticks_rules::{Position, PositionIndex, Ruleset};
use chopsticks_solve::strategy::Advice;
use chopsticks_solve::{Solution, SolveError};
use chopsticks_space::{human_bytes, Graph};
use tokio::sync::OnceCell;

use crate::error::ApiError;

/// A solved variant as the server keeps it: the toolkit's
/// [`chopsticks_solve::Solved`] (its checks of a saved file included). Its
/// move graph is built before it is served.
pub struct Solved {
    solved: chopsticks_solve::Solved,
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
        Ok(Solved { solved })
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

/// What a computation of the cache is: a variant's solution, or a document
/// computed from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The variant solved.
    Solution,
    /// The strategy from the start ([`chopsticks_solve::strategy::advice`]).
    Strategy,
    /// Every puzzle of the variant ([`chopsticks_learn::PuzzleSet::find`]).
    Puzzles,
    /// A saved table checked whole against the rules.
    Check,
}

impl Kind {
    /// What is being computed, for a message: `the strategy of standard`.
    pub fn describe(self, id: &str) -> String {
        match self {
            Kind::Solution => format!("the solution of {id}"),
            Kind::Strategy => format!("the strategy of {id}"),
            Kind::Puzzles => format!("the puzzles of {id}"),
            Kind::Check => format!("the check of the saved solution of {id}"),
        }
    }

    /// Its name in the API: `solution`, `strategy`, `puzzles`, `check`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Solution => "solution",
            Kind::Strategy => "strategy",
            Kind::Puzzles => "puzzles",
            Kind::Check => "check",
        }
    }
}

/// What the cache keeps under a key.
#[derive(Clone)]
pub enum Kept {
    Solved(Arc<Solved>),
    Advice(Arc<Advice>),
    Puzzles(Arc<PuzzleSet>),
    /// A saved table checked whole: nothing to keep but the fact.
    Checked,
}

impl Kept {
    /// The bytes it really keeps.
    fn bytes(&self) -> u64 {
        match self {
            Kept::Solved(s) => s.resident_bytes(),
            Kept::Advice(a) => a.heap_bytes(),
            Kept::Puzzles(p) => p.heap_bytes(),
            Kept::Checked => 0,
        }
    }
}

/// A computation of the cache, as [`SolutionCache::computations`] lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Computation {
    pub kind: Kind,
    pub variant: String,
    /// Finished (kept, or failed and about to be dropped).
    pub done: bool,
    /// Accounted bytes: the estimate while under way, what is kept once done.
    pub bytes: u64,
    /// Seconds since it started.
    pub seconds: f64,
}

type Key = (Kind, String);

type Cell = Arc<OnceCell<Result<Kept, ApiError>>>;

struct Entry {
    cell: Cell,
    bytes: u64,
    last_used: u64,
    /// When the computation started.
    started: Instant,
}

struct Inner {
    entries: HashMap<Key, Entry>,
    clock: u64,
    /// Bytes reserved by answers being built or sent ([`Reserved`]).
    answers: u64,
}

/// Bytes of the budget held by an answer while it is built and sent; given
/// back when dropped (with the answer's body, once sent or abandoned).
pub struct Reserved {
    cache: Arc<SolutionCache>,
    bytes: u64,
}

impl Drop for Reserved {
    fn drop(&mut self) {
        let mut inner = self.cache.inner.lock().expect("cache lock");
        inner.answers = inner.answers.saturating_sub(self.bytes);
    }
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
                answers: 0,
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
        let mut emptied = Vec::new();
        if requests.1 + size > ANSWER_BYTES {
            emptied.push(std::mem::take(&mut requests.0));
            requests.1 = 0;
        }
        requests.1 += size;
        requests.0.insert(key, (Arc::downgrade(solved), bytes));
        drop(requests);
        // Thousands of answers freed away from the runtime's threads.
        crate::background::discard(emptied);
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

    /// The variants served from saved files, sorted.
    pub fn saved_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .saved
            .lock()
            .expect("cache lock")
            .keys()
            .cloned()
            .collect();
        ids.sort();
        ids
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

    /// Bytes accounted now: to the entries, and to the answers being sent.
    pub fn used(&self) -> u64 {
        let inner = self.inner.lock().expect("cache lock");
        inner.entries.values().map(|e| e.bytes).sum::<u64>() + inner.answers
    }

    /// Every computation kept or under way, least recently used first: what it
    /// is, of which variant, whether it is done, its bytes, and for how long it
    /// has run (or ran) since it started.
    pub fn computations(&self) -> Vec<Computation> {
        let inner = self.inner.lock().expect("cache lock");
        let mut list: Vec<(u64, Computation)> = inner
            .entries
            .iter()
            .map(|((kind, id), e)| {
                (
                    e.last_used,
                    Computation {
                        kind: *kind,
                        variant: id.clone(),
                        done: e.cell.initialized(),
                        bytes: e.bytes,
                        seconds: e.started.elapsed().as_secs_f64(),
                    },
                )
            })
            .collect();
        list.sort_by_key(|(used, _)| *used);
        list.into_iter().map(|(_, c)| c).collect()
    }

    /// Bytes reserved by answers being built or sent.
    pub fn answers(&self) -> u64 {
        self.inner.lock().expect("cache lock").answers
    }

    /// The canonical ids of the variants cached or being solved.
    pub fn ids(&self) -> Vec<String> {
        let inner = self.inner.lock().expect("cache lock");
        let mut ids: Vec<String> = inner
            .entries
            .keys()
            .filter(|(kind, _)| *kind == Kind::Solution)
            .map(|(_, id)| id.clone())
            .collect();
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
            return Err(self.over_budget(&format!("solving {count} positions"), needed));
        }
        Ok((count, needed))
    }

    /// The solution of `rules`: from the cache, by waiting for a solve under way, or
    /// by starting one; waiting at most `wait` (then 503, the solve going on).
    pub async fn get(
        self: &Arc<Self>,
        rules: Ruleset,
        wait: Duration,
    ) -> Result<Arc<Solved>, ApiError> {
        let id = rules.variant_id();
        if let Some(saved) = self.saved.lock().expect("cache lock").get(&id) {
            saved.check_source()?;
            return Ok(Arc::clone(saved));
        }
        let (_, needed) = self.admit(&rules)?;
        match self
            .compute((Kind::Solution, id), needed, wait, move || {
                solve(rules).map(Kept::Solved)
            })
            .await?
        {
            Kept::Solved(solved) => Ok(solved),
            _ => Err(ApiError::internal("internal error: not a solution")),
        }
    }

    /// The strategy of `solved` from its start, computed once (see the module
    /// documentation); waiting at most `wait`.
    pub async fn advice(
        self: &Arc<Self>,
        solved: &Arc<Solved>,
        wait: Duration,
    ) -> Result<Arc<Advice>, ApiError> {
        let needed = chopsticks_solve::strategy::advice_memory(solved.solution.count());
        let solved = Arc::clone(solved);
        let key = (Kind::Strategy, solved.rules.variant_id());
        match self
            .compute(key, needed, wait, move || {
                solved.check_whole(&|_| {})?;
                let graph = solved.graph()?;
                let start = graph.index_of(&Position::start(&solved.rules));
                chopsticks_solve::strategy::advice(graph, &solved.solution, start, || {
                    chopsticks_space::explore(graph, start, &|_| {})
                        .reached
                        .iter()
                        .collect()
                })
                .map(|a| Kept::Advice(Arc::new(a)))
                .map_err(|e| {
                    if solved.solution.has_remoteness() {
                        ApiError::internal(format!("internal error: {e}"))
                    } else {
                        ApiError::unprocessable(e)
                    }
                })
            })
            .await?
        {
            Kept::Advice(advice) => Ok(advice),
            _ => Err(ApiError::internal("internal error: not a strategy")),
        }
    }

    /// Every puzzle of `solved`, found once; waiting at most `wait`.
    pub async fn puzzles(
        self: &Arc<Self>,
        solved: &Arc<Solved>,
        wait: Duration,
    ) -> Result<Arc<PuzzleSet>, ApiError> {
        let needed = chopsticks_learn::puzzles::find_memory(solved.solution.count());
        let solved = Arc::clone(solved);
        let key = (Kind::Puzzles, solved.rules.variant_id());
        match self
            .compute(key, needed, wait, move || {
                // Every reachable position is read: a saved table is
                // checked whole first.
                solved.check_whole(&|_| {})?;
                let graph = solved.graph()?;
                let start = graph.index_of(&Position::start(&solved.rules));
                PuzzleSet::find(graph, &solved.solution, start, &|_| {})
                    .map(|set| Kept::Puzzles(Arc::new(set)))
                    .map_err(crate::error::learn_error)
            })
            .await?
        {
            Kept::Puzzles(set) => Ok(set),
            _ => Err(ApiError::internal("internal error: not puzzles")),
        }
    }

    /// A saved table of `solved` checked whole, once (nothing to do for a table
    /// solved here or checked at start); waiting at most `wait`.
    pub async fn checked(
        self: &Arc<Self>,
        solved: &Arc<Solved>,
        wait: Duration,
    ) -> Result<(), ApiError> {
        if !solved.needs_line_checks() {
            return Ok(());
        }
        let solved = Arc::clone(solved);
        let key = (Kind::Check, solved.rules.variant_id());
        self.compute(key, 1 << 20, wait, move || {
            solved.check_whole(&|_| {}).map(|()| Kept::Checked)
        })
        .await
        .map(|_| ())
    }

    /// The computation under `key` (see the module documentation): kept, under
    /// way (waited for), or started now with `needed` bytes accounted to it.
    async fn compute(
        self: &Arc<Self>,
        key: Key,
        needed: u64,
        wait: Duration,
        work: impl FnOnce() -> Result<Kept, ApiError> + Send + 'static,
    ) -> Result<Kept, ApiError> {
        let (cell, started) = self.reserve(&key, needed)?;
        if let Some(done) = cell.get() {
            return done.clone();
        }
        let what = key.0.describe(&key.1);
        let task = {
            let cache = Arc::clone(self);
            tokio::spawn(async move {
                let result = cell
                    .get_or_init(|| async move {
                        crate::background::run(crate::background::Priority::Computation, work).await
                    })
                    .await
                    .clone();
                cache.settle(&key, &cell, &result);
                result
            })
        };
        match tokio::time::timeout(wait, task).await {
            Ok(joined) => {
                joined.unwrap_or_else(|e| Err(ApiError::internal(format!("the work stopped: {e}"))))
            }
            Err(_) => {
                let so_far = started.elapsed().as_secs();
                let again = so_far.clamp(5, 60);
                Err(ApiError::unavailable(format!(
                    "still computing {what} ({so_far} s so far); it goes on in the \
                     background and is kept: ask again in {again} s"
                ))
                .retry_after(again))
            }
        }
    }

    /// Room for `bytes` in the budget, for an answer built whole before it is
    /// sent (`what` it is, for the refusal): 413 beyond the whole budget, 429
    /// while computations and other answers hold it; least recently used
    /// finished entries are evicted to make room. Held until the returned
    /// [`Reserved`] is dropped.
    pub fn reserve_answer(self: &Arc<Self>, bytes: u64, what: &str) -> Result<Reserved, ApiError> {
        if bytes > self.budget {
            return Err(self.over_budget(what, bytes));
        }
        let evicted = {
            let mut inner = self.inner.lock().expect("cache lock");
            let evicted = Self::make_room(&mut inner, self.budget, bytes)?;
            inner.answers += bytes;
            evicted
        };
        crate::background::discard(evicted);
        Ok(Reserved {
            cache: Arc::clone(self),
            bytes,
        })
    }

    /// The refusal of work (`what`, as a message says it) that needs `bytes`,
    /// more than the whole budget: 413.
    fn over_budget(&self, what: &str, bytes: u64) -> ApiError {
        ApiError::too_large(format!(
            "{what} needs about {} of memory; this server's budget is {}",
            human_bytes(bytes),
            human_bytes(self.budget)
        ))
    }

    /// Evicts least recently used finished entries until `needed` more bytes
    /// fit; evicts nothing when even that would not make room (429). The
    /// evicted entries are returned, to be dropped once the lock is released
    /// and away from the runtime's threads ([`crate::background::discard`]):
    /// freeing a strategy's millions of texts takes long enough to stall every
    /// request that waits for the lock.
    fn make_room(inner: &mut Inner, budget: u64, needed: u64) -> Result<Vec<Entry>, ApiError> {
        let mut used: u64 = inner.entries.values().map(|e| e.bytes).sum::<u64>() + inner.answers;
        let evictable: u64 = inner
            .entries
            .values()
            .filter(|e| e.cell.initialized())
            .map(|e| e.bytes)
            .sum();
        if (used - evictable).saturating_add(needed) > budget {
            return Err(ApiError::busy(format!(
                "work under way fills this server's memory budget ({}); try again shortly",
                human_bytes(budget)
            ))
            .retry_after(5));
        }
        let mut evicted = Vec::new();
        while used + needed > budget {
            // The least recently used entry that is done (or failed).
            let victim = inner
                .entries
                .iter()
                .filter(|(_, e)| e.cell.initialized())
                .min_by_key(|(_, e)| e.last_used)
                .map(|(k, _)| k.clone());
            // The finished entries make room: checked above.
            let victim = victim.expect("a finished entry to evict");
            let removed = inner.entries.remove(&victim).expect("present");
            used -= removed.bytes;
            evicted.push(removed);
        }
        Ok(evicted)
    }

    /// Finds or makes the entry of `key`, making room for `needed` bytes; its
    /// cell and when its computation started.
    fn reserve(&self, key: &Key, needed: u64) -> Result<(Cell, Instant), ApiError> {
        let mut inner = self.inner.lock().expect("cache lock");
        inner.clock += 1;
        let now = inner.clock;
        if let Some(entry) = inner.entries.get_mut(key) {
            entry.last_used = now;
            return Ok((entry.cell.clone(), entry.started));
        }
        if needed > self.budget {
            return Err(self.over_budget(&format!("computing {}", key.0.describe(&key.1)), needed));
        }
        let evicted = Self::make_room(&mut inner, self.budget, needed)?;
        let cell: Cell = Arc::new(OnceCell::new());
        let started = Instant::now();
        inner.entries.insert(
            key.clone(),
            Entry {
                cell: cell.clone(),
                bytes: needed,
                last_used: now,
                started,
            },
        );
        drop(inner);
        crate::background::discard(evicted);
        Ok((cell, started))
    }

    /// After a computation: account what the entry really keeps, or drop a
    /// failed entry (if it is still this cell's).
    fn settle(&self, key: &Key, cell: &Cell, result: &Result<Kept, ApiError>) {
        let mut inner = self.inner.lock().expect("cache lock");
        let Some(entry) = inner.entries.get_mut(key) else {
            return;
        };
        if !Arc::ptr_eq(&entry.cell, cell) {
            return;
        }
        match result {
            Ok(kept) => entry.bytes = kept.bytes(),
            Err(_) => {
                inner.entries.remove(key);
            }
        }
    }
}

fn solve(rules: Ruleset) -> Result<Arc<Solved>, ApiError> {
    let solved = chopsticks_solve::Solved::solve(rules)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    Ok(Arc::new(Solved::new(solved)?))
}
