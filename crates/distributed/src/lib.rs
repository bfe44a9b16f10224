//! The two-player retrograde solve on a cluster, through timely dataflow.
//!
//! **The model.** The index is cut among the workers (threads of timely
//! processes, on one machine or many) into consecutive ranges of whole rows of
//! tiles ([`chopsticks_space::TileMap`]), of about the same number of positions.
//! A worker holds the 16-bit cells of its range (the encoding of
//! [`chopsticks_solve::retrograde`]) and nothing else of the table. The
//! analysis is the same level by level: a position resolved at level `k`
//! updates its parents (the child was lost: the parent wins; won: the parent
//! counts down), but an update is a message, `parent · 2 + kind`, sent to the
//! parent's worker under timestamp `k`. The messages go round a loop whose
//! edge adds one to the timestamp, so a message arrives at time `k + 1`, the
//! level at which it resolves its parent. A worker keeps what arrives at each
//! time until timely's frontier says no more can come at that time (every
//! worker has sent everything of the level before), applies it, visits its
//! positions of that level and sends their updates. Level 0 is visited at the
//! start. When a level sends nothing, no message is left and the dataflow ends:
//! what is unresolved is a draw. The order in which a level's updates are
//! applied never mattered, so the table is the one-machine solver's, bit for bit
//! (tested with threads and with processes on loopback).
//!
//! Each worker then writes its cells to a file; [`assemble`] turns the files
//! into a solution file ([`chopsticks_solve::file`]).
//!
//! **Surviving a lost process.** With [`RunOptions::checkpoint_every`], the
//! workers write checkpoints of their state at a level boundary every so
//! often, all at the same level (a consistent cut: see [`checkpoint`]). A
//! solve started again with the same rules, workers and directories first
//! agrees, through a small dataflow, on the last level every worker has a
//! checkpoint of, and resumes from there: the table is the same, bit for bit.
//!
//! **Why timely.** It runs the same binary as several processes that connect
//! over TCP from a list of addresses (one per process, the same list for all),
//! with no daemon, no system library and no launcher of its own to install
//! (MPI would need Debian's OpenMPI and `mpirun` on every host); its timestamps
//! and frontiers are exactly the level barrier a retrograde analysis needs, with
//! no barrier code of ours; and it is pure Rust under the MIT licence.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chopsticks_rules::Ruleset;
use chopsticks_solve::retrograde::{
    cell, for_each_level_zero, tiles_to_solve, TwoBytes, LOSE, MAX_LEVEL, UNRESOLVED, WIN,
};
use chopsticks_solve::update::{parent_update, Updated};
use chopsticks_solve::SolveError;
use chopsticks_space::{Graph, TileMap};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use thiserror::Error;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Capability, ConnectLoop, Feedback};

pub use timely::{CommunicationConfig, Config, WorkerConfig};

pub mod checkpoint;
pub use checkpoint::last_common_level;

/// How a distributed solve runs, besides its rules, its cluster and its
/// directory.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// After the solve, explore from this position (an index) and count the
    /// outcomes of the positions reached ([`WorkerReport::reach`]).
    pub explore_from: Option<u64>,
    /// Write a checkpoint at the first level boundary after this much time has
    /// passed since the last one (zero: at every level); `None`: no
    /// checkpoints. A solve resumes from the checkpoints it finds either way.
    pub checkpoint_every: Option<Duration>,
    /// Where this process's workers say how far they are and what they found
    /// on starting, while they run (for a progress line and prompt warnings).
    pub watch: Option<Arc<Watch>>,
}

/// How far this process's workers are, shared with whoever runs them.
#[derive(Debug, Default)]
pub struct Watch {
    /// The highest level one of them has visited.
    pub level: AtomicU32,
    /// Positions they have resolved (won or lost) so far, in all.
    pub resolved: AtomicU64,
    /// The checkpoint files they found and did not resume from, each with
    /// why ([`WorkerReport::ignored_checkpoints`]), as soon as they start:
    /// taken by whoever watches.
    pub ignored: std::sync::Mutex<Vec<String>>,
}

/// The mark of a checkpoint request among the messages (a parent update is
/// `parent · 2 + kind`, far below it): `REQUEST | w` asks worker `w`.
const REQUEST: u64 = 1 << 63;

/// What can stop a distributed solve.
#[derive(Debug, Error)]
pub enum DistributedError {
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Rules(#[from] chopsticks_rules::RulesError),
    #[error("the cluster: {0}")]
    Cluster(String),
    #[error("{path}: {message}")]
    File { path: String, message: String },
}

/// A worker report from the bytes of its file (JSON), or why it is not one.
pub fn parse_report(bytes: &[u8]) -> Result<WorkerReport, String> {
    let report: WorkerReport =
        serde_json::from_slice(bytes).map_err(|e| format!("not a worker report: {e}"))?;
    if report.workers == 0 || report.worker >= report.workers {
        return Err(format!(
            "not a worker report: worker {} of {}",
            report.worker, report.workers
        ));
    }
    Ok(report)
}

/// The addresses of a hostfile from its bytes: one `host:port` a line, process
/// `i` on line `i` (blank lines and `#` comments skipped), or why it is not
/// one (not text, no address, a line that is not `host:port`).
pub fn parse_hostfile(bytes: &[u8]) -> Result<Vec<String>, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "it is not text (UTF-8)".to_string())?;
    let addresses: Vec<String> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    if addresses.is_empty() {
        return Err("it lists no address".into());
    }
    if let Some(a) = addresses.iter().find(|a| !a.contains(':')) {
        return Err(format!(
            "`{}` is not host:port",
            chopsticks_rules::quoted(a)
        ));
    }
    Ok(addresses)
}

/// What one worker solved: its range of the index and where its cells are.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct WorkerReport {
    /// The worker's index among all workers.
    pub worker: usize,
    /// Workers in all.
    pub workers: usize,
    /// The first index of its range, and its number of positions.
    pub first: u64,
    pub len: u64,
    /// The largest remoteness among its positions (0 when none is resolved).
    pub max_remoteness: u32,
    /// Levels it visited, and the updates it sent.
    pub levels: u32,
    pub messages: u64,
    /// Seconds from its set-up to the end of the dataflow (the cluster's start-up
    /// and the writing of its cells not included).
    pub seconds: f64,
    /// The CRC-32 of its cells file.
    pub cells_crc: u32,
    /// What the exploration from the start found in its range (absent in the
    /// reports of earlier versions).
    #[serde(default)]
    pub reach: Option<ReachCounts>,
    /// The ruleset (checked by [`assemble`]).
    pub ruleset: Ruleset,
    /// The level the solve resumed from (after a lost process), if it did.
    #[serde(default)]
    pub resumed_from: Option<u32>,
    /// Checkpoints written, the seconds they took and their bytes.
    #[serde(default)]
    pub checkpoints: u32,
    #[serde(default)]
    pub checkpoint_seconds: f64,
    #[serde(default)]
    pub checkpoint_bytes: u64,
    /// The checkpoint files found on starting and not resumed from, each
    /// named with why (damaged, of another solve, of a level another worker
    /// lacks): the work they held is done again.
    #[serde(default)]
    pub ignored_checkpoints: Vec<String>,
}

/// The positions of a worker's range reachable from the start, by their value
/// for the mover (finished games apart), found by the distributed exploration.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct ReachCounts {
    pub reachable: u64,
    pub win: u64,
    pub lose: u64,
    pub draw: u64,
    pub terminal: u64,
    /// The won position of largest remoteness (the smallest index among ties).
    pub longest_win: Option<(u64, u32)>,
    /// Children sent to the workers that own them.
    pub messages: u64,
}

impl ReachCounts {
    /// Counts position `i` with its working cell.
    fn add(&mut self, i: u64, cell: u16, finished: bool) {
        self.reachable += 1;
        if finished {
            self.terminal += 1;
            return;
        }
        match cell & 3 {
            WIN => {
                self.win += 1;
                let r = (cell >> 2) as u32;
                if self
                    .longest_win
                    .is_none_or(|(at, best)| (r, u64::MAX - i) > (best, u64::MAX - at))
                {
                    self.longest_win = Some((i, r));
                }
            }
            LOSE => self.lose += 1,
            _ => self.draw += 1,
        }
    }

    /// The counts of every worker together.
    pub fn sum<'a>(all: impl IntoIterator<Item = &'a ReachCounts>) -> ReachCounts {
        let mut total = ReachCounts::default();
        for c in all {
            total.reachable += c.reachable;
            total.win += c.win;
            total.lose += c.lose;
            total.draw += c.draw;
            total.terminal += c.terminal;
            total.messages += c.messages;
            if let Some((i, r)) = c.longest_win {
                if total
                    .longest_win
                    .is_none_or(|(at, best)| (r, u64::MAX - i) > (best, u64::MAX - at))
                {
                    total.longest_win = Some((i, r));
                }
            }
        }
        total
    }
}

/// The ranges of the index of each of `workers` workers: consecutive rows of
/// tiles, about `count / workers` positions each.
pub fn ranges(map: &TileMap, count: u64, workers: usize) -> Vec<(u64, u64)> {
    let rows = map.rows();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(workers);
    let mut row = 0;
    for w in 0..workers {
        let start = out.last().map_or(0, |&(f, l)| f + l);
        let target = count * (w as u64 + 1) / workers as u64;
        let mut end = start;
        while row < rows.len() && (end < target || w + 1 == workers) {
            end = rows[row].0 + rows[row].1;
            row += 1;
        }
        out.push((start, end - start));
    }
    out
}

/// The state of one worker: its range's cells and its tiles' marks.
struct Part {
    graph: Arc<Graph>,
    map: Arc<TileMap>,
    first: u64,
    cells: Vec<u16>,
    /// Its tiles (indices into `map.tiles()`).
    tiles: std::ops::Range<usize>,
    /// The last level at which each of its tiles had a position resolved.
    marks: Vec<u32>,
    messages: u64,
    levels: u32,
    /// Positions of its range resolved (won or lost).
    resolved: u64,
}

impl Part {
    fn new(graph: Arc<Graph>, map: Arc<TileMap>, first: u64, len: u64) -> Part {
        let tiles = map.tiles_in(first, len);
        // Level 0 (few positions), found by the tiles in parallel.
        let ends: Vec<Vec<(u64, u16)>> = map.tiles()[tiles.clone()]
            .par_iter()
            .map(|tile| {
                let mut found = Vec::new();
                for_each_level_zero(&graph, tile, |i, c| found.push((i, c)));
                found
            })
            .collect();
        let mut cells = vec![0u16; len as usize];
        let mut resolved = 0;
        for (i, c) in ends.into_iter().flatten() {
            cells[(i - first) as usize] = c;
            resolved += u64::from(c & 3 != UNRESOLVED);
        }
        Part {
            resolved,
            marks: vec![0; tiles.len()],
            graph,
            map,
            first,
            cells,
            tiles,
            messages: 0,
            levels: 0,
        }
    }

    /// A worker's state restored from its checkpoint.
    fn restored(
        graph: Arc<Graph>,
        map: Arc<TileMap>,
        first: u64,
        state: checkpoint::State,
    ) -> Part {
        let tiles = map.tiles_in(first, state.header.len);
        let resolved = state
            .cells
            .par_iter()
            .filter(|&&c| c & 3 != UNRESOLVED)
            .count() as u64;
        Part {
            resolved,
            graph,
            map,
            first,
            cells: state.cells,
            tiles,
            marks: state.marks,
            messages: state.header.messages,
            levels: state.header.levels,
        }
    }

    /// Applies an update that resolves at `level` ([`parent_update`]).
    fn apply(&mut self, message: u64, level: u32) {
        let (p, won) = (message >> 1, message & 1 == 1);
        let c = &mut self.cells[(p - self.first) as usize];
        let graph = &self.graph;
        let Some((new, what)) = parent_update::<TwoBytes>(*c, !won, level, || graph.child_count(p))
        else {
            return;
        };
        *c = new;
        if what == Updated::Resolved {
            self.resolved += 1;
            let t = self.map.tile_of(p) - self.tiles.start;
            self.marks[t] = self.marks[t].max(level);
        }
    }

    /// The updates of the positions resolved at `level`.
    fn visit(&mut self, level: u32, send: &mut impl FnMut(u64)) {
        let (win_here, lose_here) = (cell(WIN, level), cell(LOSE, level));
        self.levels = self.levels.max(level + 1);
        let tiles = &self.map.tiles()[self.tiles.clone()];
        for (tile, &mark) in tiles.iter().zip(&self.marks) {
            if mark != level {
                continue;
            }
            tile.for_each(|i| {
                let v = self.cells[(i - self.first) as usize];
                let kind = if v == lose_here {
                    0
                } else if v == win_here {
                    1
                } else {
                    return;
                };
                self.graph.for_each_parent(i, |p| {
                    self.messages += 1;
                    send(p << 1 | kind);
                });
            });
        }
    }

    fn max_remoteness(&self) -> u32 {
        self.cells
            .iter()
            .filter(|&&c| c & 3 != UNRESOLVED)
            .map(|&c| (c >> 2) as u32)
            .max()
            .unwrap_or(0)
    }
}

/// The exploration from `start` after the solve, on the same workers: each
/// holds one bit a position of its range (seen), and a child is a message to
/// the worker owning it, under the timestamp of its depth (the loop adds one).
/// A worker applies what arrived at depth `d` once timely's frontier has
/// passed `d`: a child not seen before is counted with its solved cell and,
/// unless its game is over, its own children are sent. The positions reached
/// are those of [`chopsticks_space::explore`], each counted once, by its owner.
fn explore(
    worker: &mut timely::worker::Worker,
    graph: &Arc<Graph>,
    part: &Rc<RefCell<Part>>,
    starts: Vec<u64>,
    start: u64,
) -> ReachCounts {
    let (first, len) = {
        let p = part.borrow();
        (p.first, p.cells.len() as u64)
    };
    let counts = Rc::new(RefCell::new(ReachCounts::default()));
    let result = Rc::clone(&counts);
    let part = Rc::clone(part);
    let graph = Arc::clone(graph);
    let mut seen = vec![0u64; len.div_ceil(64) as usize];
    worker.dataflow::<u32, _, _>(move |scope| {
        let (handle, stream) = scope.feedback::<Vec<u64>>(1u32);
        let owner = move |c: &u64| (starts.partition_point(|&s| s <= *c) - 1) as u64;
        stream
            .unary_frontier(Exchange::new(owner), "Explore", move |cap, _info| {
                let mut cap = Some(cap);
                // The children received for each depth, one bit a position of
                // the range (a depth and the next are in flight at most), so a
                // worker holds three bits a position of its range at most,
                // however many messages a layer brings.
                let mut pending: BTreeMap<u32, (Capability<u32>, Vec<u64>)> = BTreeMap::new();
                let words = len.div_ceil(64) as usize;
                move |(input, frontier), output| {
                    // Visits `c` (of this worker's range) the first time it is
                    // reached: counts it and collects its children in `out`,
                    // but those of this range already seen.
                    let mut reach = |c: u64, out: &mut Vec<u64>| {
                        let k = (c - first) as usize;
                        if seen[k / 64] >> (k % 64) & 1 == 1 {
                            return;
                        }
                        seen[k / 64] |= 1 << (k % 64);
                        let finished = graph.is_terminal(c);
                        counts.borrow_mut().add(c, part.borrow().cells[k], finished);
                        if !finished {
                            graph.for_each_child(c, |d| {
                                let j = d.wrapping_sub(first) as usize;
                                let mine = d >= first && d < first + len;
                                if !mine || seen[j / 64] >> (j % 64) & 1 == 0 {
                                    out.push(d);
                                }
                            });
                        }
                    };
                    // Sends the children collected, each once.
                    let send = |out: &mut Vec<u64>, give: &mut dyn FnMut(u64)| {
                        out.sort_unstable();
                        out.dedup();
                        counts.borrow_mut().messages += out.len() as u64;
                        for d in out.drain(..) {
                            give(d);
                        }
                    };
                    let mut out = Vec::new();
                    if let Some(cap) = cap.take() {
                        if (first..first + len).contains(&start) {
                            let mut session = output.session(&cap);
                            reach(start, &mut out);
                            send(&mut out, &mut |d| session.give(d));
                        }
                    }
                    input.for_each_stamp(|cap, data| {
                        let Some(cap) = cap.retain_least(0) else {
                            return;
                        };
                        let entry = pending
                            .entry(*cap.time())
                            .or_insert_with(|| (cap, vec![0u64; words]));
                        for batch in data {
                            for c in batch.drain(..) {
                                let k = c - first;
                                entry.1[(k / 64) as usize] |= 1 << (k % 64);
                            }
                        }
                    });
                    while let Some(&depth) = pending.keys().next() {
                        if frontier.less_equal(&depth) {
                            break;
                        }
                        let (cap, children) = pending.remove(&depth).expect("present");
                        let mut session = output.session(&cap);
                        for (w, &word) in children.iter().enumerate() {
                            let mut bits = word;
                            while bits != 0 {
                                let c = first + w as u64 * 64 + bits.trailing_zeros() as u64;
                                bits &= bits - 1;
                                reach(c, &mut out);
                                if out.len() >= SEND_BATCH {
                                    send(&mut out, &mut |d| session.give(d));
                                }
                            }
                        }
                        send(&mut out, &mut |d| session.give(d));
                    }
                }
            })
            .connect_loop(handle);
    });
    while worker.step_or_park(None) {}
    let counts = result.borrow().clone();
    counts
}

/// Children collected before they are sorted, deduplicated and sent.
const SEND_BATCH: usize = 1 << 20;

/// The cell file of worker `w` in `dir`.
pub fn cells_path(dir: &Path, worker: usize) -> PathBuf {
    dir.join(format!("cells-{worker}.bin"))
}

/// The report file of worker `w` in `dir`.
pub fn report_path(dir: &Path, worker: usize) -> PathBuf {
    dir.join(format!("worker-{worker}.json"))
}

fn file_error(path: &Path) -> impl Fn(std::io::Error) -> DistributedError + '_ {
    move |e| DistributedError::File {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// Runs this process's workers of a distributed solve of `rules` under
/// `config` (timely's: threads of one process, or one process of a cluster),
/// each writing its cells and report to `dir`. Returns the reports of this
/// process's workers.
/// With `explore_from` (a position index), the workers then explore from that
/// position and count the outcomes of the positions reached
/// ([`WorkerReport::reach`]).
pub fn run(
    rules: &Ruleset,
    config: Config,
    dir: &Path,
    explore_from: Option<u64>,
) -> Result<Vec<WorkerReport>, DistributedError> {
    let options = RunOptions {
        explore_from,
        ..RunOptions::default()
    };
    run_watched(
        rules,
        config,
        dir,
        &options,
        Arc::new(AtomicBool::new(false)),
    )
}

/// The levels after which every worker has a checkpoint, agreed through a
/// dataflow: each worker sends the levels it holds (`mine`) to every worker, and
/// each then finds the same last common one (0: none, start from scratch).
///
/// Each worker also sends `fingerprint` (of the rules it solves): when the
/// workers do not all solve the same rules (a mistyped option on one host),
/// every one of them returns `None` at once, before any message of the solve.
fn agree_on_level(
    worker: &mut timely::worker::Worker,
    mine: &[u32],
    fingerprint: u32,
) -> Option<u32> {
    let (index, peers) = (worker.index() as u64, worker.peers() as u64);
    let received = Rc::new(RefCell::new(Vec::<u64>::new()));
    let sink = Rc::clone(&received);
    let mine = mine.to_vec();
    worker.dataflow::<u32, _, _>(move |scope| {
        let (handle, stream) = scope.feedback::<Vec<u64>>(1u32);
        stream
            .unary_frontier::<CapacityContainerBuilder<Vec<u64>>, _, _, _>(
                // `target · 2^48 + sender · 2^32 + level`, or `target · 2^48 +
                // 2^47 + fingerprint`, to its target.
                Exchange::new(|m: &u64| m >> 48),
                "Agree",
                move |cap, _info| {
                    let mut cap = Some(cap);
                    move |(input, _frontier), output| {
                        if let Some(cap) = cap.take() {
                            let mut session = output.session(&cap);
                            for target in 0..peers {
                                session.give(target << 48 | FINGERPRINT | u64::from(fingerprint));
                                for &level in &mine {
                                    session.give(target << 48 | index << 32 | u64::from(level));
                                }
                            }
                        }
                        input.for_each_stamp(|_, data| {
                            for batch in data {
                                sink.borrow_mut().append(batch);
                            }
                        });
                    }
                },
            )
            .connect_loop(handle);
    });
    while worker.step_or_park(None) {}
    let mut holders: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
    for m in received.borrow().iter() {
        if m & FINGERPRINT != 0 {
            if *m as u32 != fingerprint {
                return None;
            }
            continue;
        }
        let sender = (m >> 32) & 0x7fff;
        holders.entry(*m as u32).or_default().push(sender);
    }
    Some(
        holders
            .into_iter()
            .filter(|(_, senders)| {
                let mut s = senders.clone();
                s.sort_unstable();
                s.dedup();
                s.len() as u64 == peers
            })
            .map(|(level, _)| level)
            .max()
            .unwrap_or(0),
    )
}

/// A checkpoint file not resumed from, for [`WorkerReport::ignored_checkpoints`]:
/// `checkpoint-1-12.bin (worker 1, level 12): damaged (…)`.
fn ignored_line(dir: &Path, worker: usize, level: u32, why: &str) -> String {
    format!(
        "{} (worker {worker}, level {level}): {why}",
        checkpoint::path(dir, worker, level).display()
    )
}

/// The mark of a fingerprint among the messages of [`agree_on_level`].
const FINGERPRINT: u64 = 1 << 47;

/// What a worker's checkpoints cost: how many, the seconds and bytes written.
#[derive(Default)]
struct CheckpointCost {
    count: u32,
    seconds: f64,
    bytes: u64,
}

/// [`run`] with its options, setting `started` once this process's workers are
/// connected to every other process and start (for a watchdog on the
/// connections).
pub fn run_watched(
    rules: &Ruleset,
    config: Config,
    dir: &Path,
    options: &RunOptions,
    started: Arc<AtomicBool>,
) -> Result<Vec<WorkerReport>, DistributedError> {
    if rules.players() != 2 {
        return Err(SolveError::Players(rules.players()).into());
    }
    let graph = Arc::new(Graph::new(rules)?);
    if graph.count() >= REQUEST >> 1 {
        return Err(DistributedError::Cluster(format!(
            "{} positions: more than the messages of the distributed solver can address",
            graph.count()
        )));
    }
    let map = Arc::new(tiles_to_solve(&graph)?);
    if let Some(start) = options.explore_from {
        if start >= graph.count() {
            return Err(DistributedError::Cluster(format!(
                "the start {start} is outside the index ({} positions)",
                graph.count()
            )));
        }
    }
    let start = options.explore_from;
    let every = options.checkpoint_every;
    let watch = options.watch.clone();
    std::fs::create_dir_all(dir).map_err(file_error(dir))?;
    let dir = dir.to_path_buf();
    let rules = rules.clone();
    let guards = timely::execute(config, move |worker| {
        started.store(true, std::sync::atomic::Ordering::Relaxed);
        let index = worker.index();
        let peers = worker.peers();
        let n = graph.count();
        let ranges = ranges(&map, n, peers);
        let starts: Vec<u64> = ranges.iter().map(|r| r.0).collect();
        let starts_again = starts.clone();
        let (first, len) = ranges[index];
        // This worker's results of an earlier run are stale.
        let _ = std::fs::remove_file(cells_path(&dir, index));
        let _ = std::fs::remove_file(report_path(&dir, index));
        // A barrier: a dataflow that ends only when every worker has run it, so
        // that the clocks start together (timely's processes connect one after
        // another, a second apart at worst).
        worker.dataflow::<u32, _, _>(|scope| {
            let (handle, stream) = scope.feedback::<Vec<u64>>(1u32);
            stream
                .unary_frontier::<CapacityContainerBuilder<Vec<u64>>, _, _, _>(
                    Exchange::new(|m: &u64| *m),
                    "Barrier",
                    |start, _info| {
                        drop(start);
                        move |(input, _frontier), _output| input.for_each_stamp(|_, _| {})
                    },
                )
                .connect_loop(handle);
        });
        while worker.step_or_park(None) {}
        let clock = Instant::now();
        // Resume from the last level every worker has a sound checkpoint of.
        let expected = checkpoint::Header {
            ruleset: rules.clone(),
            worker: index,
            workers: peers,
            first,
            len,
            tiles: map.tiles_in(first, len).len() as u64,
            level: 0,
            messages: 0,
            levels: 0,
        };
        // Every checkpoint file of this worker is checked; those that cannot
        // be resumed from are named, with why, in the report (and at once to
        // whoever watches): their work is done again.
        let mut ignored: Vec<String> = Vec::new();
        let mut sound: Vec<u32> = Vec::new();
        for level in checkpoint::levels(&dir, index) {
            match checkpoint::read(&dir, &expected, level) {
                Ok(_) if level > 0 => sound.push(level),
                Ok(_) => {}
                Err(why) => ignored.push(ignored_line(&dir, index, level, &why)),
            }
        }
        // In a directory shared by every worker, worker 0 also names those
        // of workers this solve does not have (an earlier solve with more).
        let stray: Vec<usize> = if index == 0 {
            checkpoint::workers_in(&dir)
                .into_iter()
                .filter(|&w| w >= peers)
                .collect()
        } else {
            Vec::new()
        };
        for &w in &stray {
            for level in checkpoint::levels(&dir, w) {
                let file = checkpoint::path(&dir, w, level);
                let why = match checkpoint::workers_of(&file) {
                    Ok(n) if n != peers => format!("of a solve with {n} workers, not {peers}"),
                    Ok(_) => format!(
                        "named after worker {w}, which a solve of {peers} workers does not have"
                    ),
                    Err(why) => why,
                };
                ignored.push(ignored_line(&dir, w, level, &why));
            }
        }
        if index == 0 {
            for file in checkpoint::misnamed(&dir) {
                ignored.push(format!(
                    "{}: not named as a checkpoint is (checkpoint-WORKER-LEVEL.bin), so never read",
                    file.display()
                ));
            }
        }
        let fingerprint = crc32fast::hash(format!("{} {n}", rules.variant_id()).as_bytes());
        let Some(mut resume) = agree_on_level(worker, &sound, fingerprint) else {
            return Err(format!(
                "worker {index}: the workers do not all solve the same rules (this one: {}): start every worker with the same rule options",
                rules.variant_id()
            ));
        };
        checkpoint::remove(&dir, index, Some(resume));
        let restored = (resume > 0)
            .then(|| checkpoint::read(&dir, &expected, resume).ok())
            .flatten();
        if restored.is_none() {
            // Gone since it was read (every worker then starts over, as a
            // worker without checkpoints would make them).
            resume = 0;
        }
        // Sound checkpoints of a level not every worker holds soundly: the
        // work since the level resumed from is done again.
        for &level in sound.iter().filter(|&&level| level > resume) {
            let from = match resume {
                0 => "starting over".to_string(),
                r => format!("resuming from level {r}"),
            };
            ignored.push(ignored_line(
                &dir,
                index,
                level,
                &format!("sound, but not every worker has a sound checkpoint of level {level}; {from}"),
            ));
        }
        if let Some(watch) = &watch {
            watch
                .ignored
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(ignored.iter().cloned());
        }
        let part = Rc::new(RefCell::new(match restored {
            Some(state) => Part::restored(Arc::clone(&graph), Arc::clone(&map), first, state),
            None => Part::new(Arc::clone(&graph), Arc::clone(&map), first, len),
        }));
        let state = Rc::clone(&part);
        let failed = Rc::new(RefCell::new(None::<String>));
        let failure = Rc::clone(&failed);
        let cost = Rc::new(RefCell::new(CheckpointCost::default()));
        let spent = Rc::clone(&cost);
        let checkpoint_dir = dir.clone();
        let watching = watch.clone();
        // What this worker has told the watch it resolved.
        let mut told = 0u64;
        let mut tell = move |part: &Part, level: u32| {
            if let Some(w) = &watching {
                w.level.fetch_max(level, Ordering::Relaxed);
                w.resolved.fetch_add(part.resolved - told, Ordering::Relaxed);
                told = part.resolved;
            }
        };
        worker.dataflow::<u32, _, _>(move |scope| {
            let (handle, stream) = scope.feedback::<Vec<u64>>(1u32);
            let owner = move |m: &u64| {
                if m & REQUEST != 0 {
                    return m & !REQUEST;
                }
                let p = m >> 1;
                (starts.partition_point(|&s| s <= p) - 1) as u64
            };
            stream
                .unary_frontier(Exchange::new(owner), "Retrograde", move |start, _info| {
                    let mut start = Some(start);
                    // Updates received, by the level they resolve at.
                    let mut pending: BTreeMap<u32, (Capability<u32>, Vec<u64>)> = BTreeMap::new();
                    let mut last_checkpoint = Instant::now();
                    // Visits `level` and sends its updates, then asks every
                    // worker for a checkpoint at the next level when one is due
                    // (and the solve goes on: this level sent something).
                    let visit = move |part: &mut Part,
                                      level: u32,
                                      last: &Instant,
                                      give: &mut dyn FnMut(u64)| {
                        let mut sent = false;
                        part.visit(level, &mut |m| {
                            sent = true;
                            give(m);
                        });
                        if sent && every.is_some_and(|e| last.elapsed() >= e) {
                            for w in 0..peers as u64 {
                                give(REQUEST | w);
                            }
                        }
                    };
                    move |(input, frontier), output| {
                        if let Some(cap) = start.take() {
                            let cap = cap.delayed(&resume);
                            let mut session = output.session(&cap);
                            let mut part = state.borrow_mut();
                            visit(&mut part, resume, &last_checkpoint, &mut |m| {
                                session.give(m)
                            });
                            tell(&part, resume);
                        }
                        input.for_each_stamp(|cap, data| {
                            let Some(cap) = cap.retain_least(0) else {
                                return;
                            };
                            let entry = pending
                                .entry(*cap.time())
                                .or_insert_with(|| (cap, Vec::new()));
                            for batch in data {
                                entry.1.append(batch);
                            }
                        });
                        while let Some(&level) = pending.keys().next() {
                            if frontier.less_equal(&level) {
                                break;
                            }
                            let (cap, updates) = pending.remove(&level).expect("present");
                            if failure.borrow().is_some() {
                                // This worker has failed: it sends nothing more.
                                continue;
                            }
                            if level > MAX_LEVEL {
                                failure
                                    .borrow_mut()
                                    .get_or_insert(SolveError::Remoteness(level).to_string());
                                continue;
                            }
                            let mut part = state.borrow_mut();
                            let mut requested = false;
                            for m in updates {
                                if m & REQUEST != 0 {
                                    requested = true;
                                } else {
                                    part.apply(m, level);
                                }
                            }
                            if requested {
                                let clock = Instant::now();
                                let header = checkpoint::Header {
                                    level,
                                    messages: part.messages,
                                    levels: part.levels,
                                    ..expected.clone()
                                };
                                match checkpoint::write(
                                    &checkpoint_dir,
                                    &header,
                                    &part.cells,
                                    &part.marks,
                                ) {
                                    Ok(bytes) => {
                                        let mut c = spent.borrow_mut();
                                        c.count += 1;
                                        c.bytes += bytes;
                                        c.seconds += clock.elapsed().as_secs_f64();
                                        last_checkpoint = Instant::now();
                                    }
                                    Err(message) => {
                                        failure.borrow_mut().get_or_insert(format!(
                                            "worker {index}, level {level}: {message}"
                                        ));
                                        continue;
                                    }
                                }
                            }
                            let mut session = output.session(&cap);
                            visit(&mut part, level, &last_checkpoint, &mut |m| session.give(m));
                            tell(&part, level);
                        }
                    }
                })
                .connect_loop(handle);
        });
        while worker.step_or_park(None) {}
        let seconds = clock.elapsed().as_secs_f64();
        if let Some(message) = failed.borrow_mut().take() {
            return Err(message);
        }
        let reach = start.map(|start| explore(worker, &graph, &part, starts_again.clone(), start));
        let part = part.borrow();
        let bytes: Vec<u8> = part.cells.iter().flat_map(|c| c.to_le_bytes()).collect();
        let cost = cost.borrow();
        let report = WorkerReport {
            worker: index,
            workers: peers,
            first,
            len,
            max_remoteness: part.max_remoteness(),
            levels: part.levels,
            messages: part.messages,
            seconds,
            cells_crc: crc32fast::hash(&bytes),
            ruleset: rules.clone(),
            reach,
            resumed_from: (resume > 0).then_some(resume),
            checkpoints: cost.count,
            checkpoint_seconds: cost.seconds,
            checkpoint_bytes: cost.bytes,
            ignored_checkpoints: ignored,
        };
        let cells = cells_path(&dir, index);
        let report_file = report_path(&dir, index);
        let write = |path: &Path, bytes: &[u8]| {
            chopsticks_files::write_atomically(path, bytes)
                .map_err(|e| format!("worker {index}: {}", checkpoint::with_cause(&e)))
        };
        write(&cells, &bytes)?;
        write(
            &report_file,
            &serde_json::to_vec_pretty(&report).expect("serialises"),
        )?;
        // Done: the checkpoints are of no more use.
        checkpoint::remove(&dir, index, None);
        for w in stray {
            checkpoint::remove(&dir, w, None);
        }
        Ok(report)
    })
    .map_err(DistributedError::Cluster)?;
    let mut reports = Vec::new();
    for result in guards.join() {
        match result {
            Ok(Ok(report)) => reports.push(report),
            Ok(Err(message)) | Err(message) => return Err(DistributedError::Cluster(message)),
        }
    }
    Ok(reports)
}

/// Reads the reports of every worker in `dir` and writes the solution file
/// `out` from their cells; returns the reports.
/// The largest worker report read (a few hundred bytes per worker, and the
/// report of every level).
const MAX_REPORT: u64 = 16 << 20;

pub fn assemble(
    rules: &Ruleset,
    dir: &Path,
    out: &Path,
) -> Result<Vec<WorkerReport>, DistributedError> {
    let first = report_path(dir, 0);
    if !first.exists() {
        return Err(DistributedError::Cluster(format!(
            "no worker reports in {} (worker-0.json is missing): run `cluster worker` first, and gather every worker's files there",
            dir.display()
        )));
    }
    let read =
        |path: &Path| -> Result<WorkerReport, DistributedError> {
            let text = chopsticks_files::read_bounded(path, MAX_REPORT, "a worker report")
                .map_err(|e| DistributedError::File {
                    path: path.display().to_string(),
                    message: e.reason(),
                })?;
            parse_report(&text).map_err(|message| DistributedError::File {
                path: path.display().to_string(),
                message,
            })
        };
    let workers = read(&first)?.workers;
    let reports: Vec<WorkerReport> = (0..workers)
        .map(|w| read(&report_path(dir, w)))
        .collect::<Result<_, _>>()?;
    let mut next = 0;
    for (w, r) in reports.iter().enumerate() {
        if &r.ruleset != rules {
            return Err(DistributedError::Cluster(format!(
                "{} holds a solve of {}, not of {}",
                report_path(dir, w).display(),
                r.ruleset.describe(),
                rules.describe()
            )));
        }
        if r.worker != w || r.workers != workers || r.first != next {
            return Err(DistributedError::Cluster(format!(
                "{}: not worker {w} of {workers} of this solve",
                report_path(dir, w).display()
            )));
        }
        next += r.len;
    }
    let files: Vec<(PathBuf, u64, u32)> = reports
        .iter()
        .map(|r| (cells_path(dir, r.worker), r.len, r.cells_crc))
        .collect();
    let max = reports.iter().map(|r| r.max_remoteness).max().unwrap_or(0);
    chopsticks_solve::parts::save_from_cell_files(rules, &files, max, out)?;
    Ok(reports)
}
