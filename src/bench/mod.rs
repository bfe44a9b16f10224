//! `chopsticks bench`: time the exploration and solving of large variants with their
//! memory, and load-test the server.

use std::time::{Duration, Instant};

use anyhow::Result;
use chopsticks_rules::{Notation, Position, Preset, Ruleset};
use chopsticks_server::load::LoadPlan;
use clap::{Args, ValueEnum};
use serde_json::json;

use chopsticks_solve::Solution;

mod cluster;
mod estimates;
mod learn;
mod query;
mod scaling;
mod two_hands;
mod whole;

use crate::memory::{human_bytes, peak_resident_bytes, reset_peak};
use crate::workload::{explore_with_progress, graph_for_exploring, graph_for_solving};

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Workload {
    /// Reachable positions of 2 players × 6 hands, rollover at 10, transfers and
    /// divisions (25,050,025 positions in the index).
    Explore,
    /// Solve the same ruleset with 4, 5 and 6 hands per player (511,225, 4,008,004
    /// and 25,050,025 positions), to show how the cost grows.
    Solve,
    /// Load-test `chopsticks serve` on loopback: many connections asking for the
    /// positions of a solved variant (every reachable one in turn).
    Serve,
    /// Solve 4 players × 2 hands, rollover at 10, transfers and divisions
    /// (9,150,625 positions): every seat's coalition value, then team play (2 against 2).
    Players,
    /// Export the 25,050,025 positions of the explore workload's variant as JSON
    /// lines (and CSV) to a sink, after solving and exploring it.
    Export,
    /// The outcome atlas of Simple Chopsticks: every position with up to 30 hands
    /// a side at n = 3 (29,767,936 positions), 40 at n = 3 and 20 at n = 4.
    Outcomes,
    /// The level atlas at the largest sizes that fit its 4 GiB of pairs: n = 5 with
    /// 35 hands a side (432,974,528,064 positions) and n = 6 with 23
    /// (225,644,000,400), each once per run, with peak memory.
    Levels,
    /// Loopy values of rollover Chopsticks: every position with one or two live
    /// hands a side, n = 3 to 6, all together and each alone (slowest and mean).
    Loopy,
    /// `table two-hands` under rollover, splits, revivals and even revivals, each
    /// table timed with its counts, for n from `--min-n` to `--max-n`.
    TwoHands,
    /// `chopsticks query` on a saved solution (`--db FILE`), a new process per
    /// position, positions spread over the index; `--cold` empties the page
    /// cache before each (root only).
    Query,
    /// The distributed solver with 1, 2 and 4 processes on loopback against the
    /// one-process solver, on the 25,050,025-position variant.
    Cluster,
    /// The whole `solve` command against its solve phase, rollover and cutoff,
    /// 2 × `--hands` hands at F = 10 (default 8: 590,976,100 positions), each
    /// run a new process, with its peak memory (`--values-only`: with
    /// `--no-remoteness`).
    Whole,
    /// Reviewing a 200-move game (with its refutation lines), and finding every
    /// puzzle of standard Chopsticks and of the 25,050,025-position variant,
    /// each after its solve.
    Learn,
    /// One variant (`--variant`, default 2 × 6 hands at F = 10, cutoff:
    /// 25,050,025 positions) solved at 1, 2, 4, … threads up to the machine's
    /// count: time, positions/s, speedup and parallel efficiency against one
    /// thread, the table checked the same at every count (`--values-only`:
    /// the one-byte solver).
    Scaling,
    /// What a solve, an exploration and a check announce (time, memory)
    /// against what they take, each a new process, over a sample of every
    /// family: cutoff, rollover, Rahman's, Simple, misère, values alone and
    /// three players (issue 62: within a factor of 2).
    Estimates,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// What to measure.
    #[arg(value_enum, default_value = "explore")]
    workload: Workload,
    /// Number of timed runs (the table build is timed separately, once).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// serve: connections open at once, each with one request in flight.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    connections: u32,
    /// serve: requests in all.
    #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    requests: u64,
    /// serve: stop after this many seconds even if requests remain.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    time_limit: u64,
    /// serve: the variant whose positions are asked for (default: standard);
    /// scaling: the variant solved (default: standard.h6.f10).
    #[arg(long)]
    variant: Option<String>,
    /// query: the saved solution to query.
    #[arg(long, value_name = "FILE")]
    db: Option<std::path::PathBuf>,
    /// query: empty the page cache before each query, so the file is read from
    /// the disk (needs root).
    #[arg(long)]
    cold: bool,
    /// two-hands: the smallest n.
    #[arg(long, default_value_t = 6, value_parser = two_hand_n())]
    min_n: u32,
    /// two-hands: the largest n (up to 10; rollover and revivals at n = 7 take
    /// minutes each).
    #[arg(long, default_value_t = 6, value_parser = two_hand_n())]
    max_n: u32,
    /// explore: with one bit a position in memory and the layers found from
    /// snapshots on disk (`solve --explore-on-disk`).
    #[arg(long)]
    on_disk: bool,
    /// whole: hands a side (F = 10).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=12))]
    hands: u32,
    /// whole: solve with `--no-remoteness` (one-byte cells, values alone);
    /// scaling: time the one-byte solver.
    #[arg(long)]
    values_only: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Reads a two-hands finger count: 1 to [`chopsticks_values::MAX_TWO_HAND_N`].
fn two_hand_n() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=i64::from(chopsticks_values::MAX_TWO_HAND_N))
}

/// The foundation issue's large variant.
pub fn large_variant() -> Ruleset {
    Ruleset {
        hands: vec![6, 6],
        fingers: 10,
        ..Preset::Rollover.ruleset()
    }
}

pub fn run(args: &BenchArgs) -> Result<()> {
    // An option no workload but another reads is refused, not ignored.
    if args.variant.is_some() && !matches!(args.workload, Workload::Serve | Workload::Scaling) {
        anyhow::bail!("--variant is for the serve and scaling workloads; the others measure variants of their own");
    }
    if args.db.is_some() && !matches!(args.workload, Workload::Query) {
        anyhow::bail!("--db is for the query workload");
    }
    match args.workload {
        Workload::Explore => explore(args),
        Workload::Solve => solve(args),
        Workload::Serve => serve(args),
        Workload::Players => players(args),
        Workload::Export => export(args),
        Workload::Outcomes => outcomes(
            args,
            "outcomes",
            &[
                ("full", 3u32, 30usize),
                ("full", 3, 40),
                ("full", 4, 20),
                ("levels", 3, 60),
                ("levels", 4, 30),
                ("levels", 4, 60),
                ("levels", 5, 30),
                ("levels", 6, 20),
            ],
        ),
        Workload::Levels => outcomes(args, "levels", &[("levels", 5, 35), ("levels", 6, 23)]),
        Workload::Loopy => loopy(args),
        Workload::TwoHands => two_hands::run(args.min_n, args.max_n, args.runs, args.json),
        Workload::Cluster => cluster::run(args.runs, args.json),
        Workload::Learn => learn::run(args.runs, args.json),
        Workload::Scaling => scaling::run(
            args.variant.as_deref(),
            args.values_only,
            args.runs,
            args.json,
        ),
        Workload::Estimates => estimates::run(args.json),
        Workload::Whole => whole::run(args.hands, args.values_only, args.runs, args.json),
        Workload::Query => match &args.db {
            Some(db) => query::run(db, args.runs, args.cold, args.json),
            None => anyhow::bail!("bench query needs --db FILE (a file written by `solve --save`)"),
        },
    }
}

/// Every side of one or two live hands (multisets of 1..=n).
fn small_sides(n: u32) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = (1..=n).map(|a| vec![a]).collect();
    for a in 1..=n {
        for b in a..=n {
            out.push(vec![a, b]);
        }
    }
    out
}

fn loopy(args: &BenchArgs) -> Result<()> {
    use chopsticks_values::{loopy_value, loopy_values, rollover_rules, CgtPosition};
    let limit = chopsticks_values::MAX_LOOPY_VERTICES;
    let mut rows = Vec::new();
    if !args.json {
        println!("workload:  loopy values of rollover Chopsticks, one or two live hands a side");
    }
    for n in 3u32..=6 {
        let rules = rollover_rules(n, 2);
        let sides = small_sides(n);
        let positions: Vec<CgtPosition> = sides
            .iter()
            .flat_map(|l| sides.iter().map(|r| CgtPosition::new(l.clone(), r.clone())))
            .collect();
        let mut together = Vec::new();
        let mut values = Vec::new();
        for _ in 0..args.runs {
            let clock = Instant::now();
            values = loopy_values(&rules, &positions, limit)?;
            together.push(clock.elapsed().as_secs_f64());
        }
        together.sort_by(f64::total_cmp);
        let (mut sum, mut worst, mut worst_at) = (0.0f64, 0.0f64, String::new());
        for p in &positions {
            let clock = Instant::now();
            loopy_value(&rules, p, limit)?;
            let t = clock.elapsed().as_secs_f64();
            sum += t;
            if t > worst {
                worst = t;
                worst_at = p.paper(n + 1);
            }
        }
        let stoppers = values.iter().filter(|v| v.is_stopper()).count();
        let sided = values.iter().filter(|v| v.is_stopper_sided()).count();
        let row = json!({
            "n": n,
            "positions": positions.len(),
            "together_seconds": together,
            "together_best_seconds": together[0],
            "alone_mean_seconds": sum / positions.len() as f64,
            "alone_slowest_seconds": worst,
            "alone_slowest_position": worst_at,
            "stoppers": stoppers,
            "sided": sided - stoppers,
            "stopper_sided": sided,
            "not_reduced": values.len() - sided,
        });
        if !args.json {
            // Each size as soon as it is measured.
            print_loopy_row(&row, args.runs);
        }
        rows.push(row);
    }
    if args.json {
        crate::commands::print_json(&json!({"workload": "loopy", "runs": rows}));
    }
    Ok(())
}

/// One line of `bench loopy`: a finger count's timings (milliseconds, so that
/// the small sizes do not print as 0.00 s).
fn print_loopy_row(r: &serde_json::Value, runs: u32) {
    let f = |k: &str| 1000.0 * r[k].as_f64().unwrap_or(0.0);
    println!(
            "  n = {}: {} positions; together best {:.1} ms of {} run{}; alone mean {:.2} ms, slowest {:.1} ms ({}); {} stoppers, {} sided, {} not found stopper-sided",
            r["n"],
            r["positions"],
            f("together_best_seconds"),
            runs,
            crate::text::plural(runs as u64),
            f("alone_mean_seconds"),
            f("alone_slowest_seconds"),
            r["alone_slowest_position"].as_str().unwrap_or(""),
            r["stoppers"],
            r["sided"],
            r["not_reduced"],
        );
}

/// Times the full atlas (a bit per position) and the level atlas (equal hand
/// counts stored, the rest by Theorem 4 and Lemma 1) at each `(method, n, H)`.
fn outcomes(args: &BenchArgs, workload: &str, cases: &[(&str, u32, usize)]) -> Result<()> {
    let mut rows = Vec::new();
    for &(method, n, h) in cases {
        reset_peak();
        let mut times = Vec::new();
        let mut summary = None;
        let mut stored = 0u128;
        for _ in 0..args.runs {
            let clock = Instant::now();
            summary = Some(if method == "full" {
                let atlas = chopsticks_atlas::Atlas::solve(n, h, None)?;
                times.push(clock.elapsed().as_secs_f64());
                atlas.summary()
            } else {
                stored = chopsticks_atlas::LevelAtlas::check(n, h)?.stored;
                let atlas = chopsticks_atlas::LevelAtlas::solve(n, h, None)?;
                times.push(clock.elapsed().as_secs_f64());
                atlas.summary()
            });
        }
        times.sort_by(f64::total_cmp);
        let best = times[0];
        let positions = chopsticks_atlas::LevelAtlas::check(n, h)?.positions as u64;
        let peak = peak_resident_bytes().unwrap_or(0);
        let total = summary.map(|s| s.total).unwrap_or_default();
        rows.push(json!({
            "method": method,
            "n": n,
            "max_hands": h,
            "positions": positions,
            "stored_pairs": if method == "full" { positions as u128 } else { stored },
            "seconds": times,
            "best_seconds": best,
            "positions_per_second": positions as f64 / best,
            "peak_resident_bytes": peak,
            "counts": {"L": total[0], "R": total[1], "N": total[2], "P": total[3]},
        }));
    }
    if args.json {
        crate::commands::print_json(&json!({
            "workload": workload,
            "threads": rayon::current_num_threads(),
            "runs": rows,
        }));
        return Ok(());
    }
    println!(
        "workload:  the outcome atlas of Simple Chopsticks ({} threads)",
        rayon::current_num_threads()
    );
    for r in &rows {
        println!(
            "  {} atlas, n = {}, up to {} hand{} a side: {} positions ({} stored), best {:.2} s of {} run{}; peak {}",
            r["method"].as_str().unwrap_or(""),
            r["n"],
            r["max_hands"],
            crate::text::plural(r["max_hands"].as_u64().unwrap_or(0)),
            r["positions"],
            r["stored_pairs"],
            r["best_seconds"].as_f64().unwrap_or(0.0),
            args.runs,
            crate::text::plural(args.runs as u64),
            human_bytes(r["peak_resident_bytes"].as_u64().unwrap_or(0)),
        );
    }
    Ok(())
}

/// Percent-encodes a query parameter.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn serve(args: &BenchArgs) -> Result<()> {
    let rules = Ruleset::from_variant_id(args.variant.as_deref().unwrap_or("standard"))?;
    let variant = rules.variant_id();
    // The paths: every position reachable from the start.
    let graph = graph_for_exploring(&rules, true)?;
    let start = Position::start(&rules);
    let reached = explore_with_progress(&graph, &start, true)
        .exploration
        .reached;
    let notation = Notation::default_for(&rules);
    let mut paths = Vec::new();
    for i in reached.iter() {
        let text = graph.position(i).to_notation(&rules, notation)?;
        paths.push(format!(
            "/api/v1/chopsticks/{variant}/positions/?p={}",
            encode(&text)
        ));
    }
    drop(graph);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let report = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let address = listener.local_addr()?.to_string();
        let state = chopsticks_server::state(1 << 30);
        // Room for every connection of the load test, with the default timeouts.
        let limits = chopsticks_server::Limits {
            max_connections: args.connections as usize + 16,
            ..chopsticks_server::Limits::default()
        };
        let server = tokio::spawn(chopsticks_server::serve_within(
            listener,
            state,
            limits,
            std::future::pending(),
        ));
        // One request first, so that the variant is solved before the clock starts.
        let warm = chopsticks_server::load::run(LoadPlan {
            address: address.clone(),
            paths: paths[..1].to_vec(),
            connections: 1,
            requests: 1,
            time_limit: Duration::from_secs(600),
        })
        .await;
        anyhow::ensure!(
            warm.succeeded == 1,
            "the server did not answer the first request"
        );
        let report = chopsticks_server::load::run(LoadPlan {
            address,
            paths: paths.clone(),
            connections: args.connections as usize,
            requests: args.requests,
            time_limit: Duration::from_secs(args.time_limit),
        })
        .await;
        server.abort();
        Ok::<_, anyhow::Error>(report)
    })?;
    if args.json {
        crate::commands::print_json(&json!({
            "workload": "serve",
            "variant": variant,
            "positions": paths.len(),
            "connections": args.connections,
            "requests": args.requests,
            "succeeded": report.succeeded,
            "failed": report.failed,
            "seconds": report.seconds,
            "requests_per_second": report.throughput(),
            "latency_us": {
                "p50": report.p50_us, "p90": report.p90_us, "p99": report.p99_us,
                "p999": report.p999_us, "max": report.max_us,
            },
            "timed_out": report.timed_out,
            "threads": std::thread::available_parallelism().map_or(1, |n| n.get()),
        }));
    } else {
        println!("workload:     serve positions of a solved variant on loopback");
        println!(
            "variant:      {variant} ({} reachable positions asked in turn)",
            paths.len()
        );
        println!(
            "requests:     {} succeeded, {} failed, {} connections{}",
            report.succeeded,
            report.failed,
            args.connections,
            if report.timed_out {
                " (stopped by the time limit)"
            } else {
                ""
            }
        );
        println!(
            "throughput:   {:.0} requests/s over {:.2} s",
            report.throughput(),
            report.seconds
        );
        println!(
            "latency:      p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
            report.p50_us as f64 / 1e3,
            report.p90_us as f64 / 1e3,
            report.p99_us as f64 / 1e3,
            report.p999_us as f64 / 1e3,
            report.max_us as f64 / 1e3
        );
    }
    anyhow::ensure!(
        report.failed == 0,
        "{} of the requests failed",
        report.failed
    );
    Ok(())
}

/// The many-player variant: 4 players × 2 hands, rollover at 10.
pub fn players_variant(teams: bool) -> Ruleset {
    Ruleset {
        hands: vec![2; 4],
        fingers: 10,
        teams,
        ..Preset::Rollover.ruleset()
    }
}

fn players(args: &BenchArgs) -> Result<()> {
    let mut rows = Vec::new();
    for teams in [false, true] {
        let rules = players_variant(teams);
        reset_peak();
        let graph = graph_for_solving(&rules, true)?;
        let mut times = Vec::new();
        let mut start = Vec::new();
        for _ in 0..args.runs {
            let clock = Instant::now();
            let solution = Solution::solve(&graph, &|_| {})?;
            times.push(clock.elapsed().as_secs_f64());
            start = solution.seat_outcomes(&Position::start(&rules))?;
        }
        times.sort_by(f64::total_cmp);
        let best = times[0];
        let peak = peak_resident_bytes().unwrap_or(0);
        let concept = chopsticks_solve::Concept::of(&rules);
        let seats = concept.width(rules.players()) as u64;
        rows.push(json!({
            "ruleset": rules.describe(),
            "concept": concept,
            "positions": graph.count(),
            "states": graph.count() * seats,
            "seconds": times,
            "best_seconds": best,
            "positions_per_second": graph.count() as f64 / best,
            "peak_resident_bytes": peak,
            "peak_bytes_per_position": peak as f64 / graph.count() as f64,
            "start_seats": start.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
        }));
    }
    if args.json {
        crate::commands::print_json(&json!({
            "workload": "players",
            "threads": rayon::current_num_threads(),
            "runs": rows,
        }));
        return Ok(());
    }
    println!(
        "workload:  solve four players ({} threads)",
        rayon::current_num_threads()
    );
    for r in &rows {
        println!("ruleset:   {}", r["ruleset"].as_str().unwrap_or(""));
        println!(
            "  {} positions, {} states ({}): best {:.2} s of {} run{} ({:.2} M positions/s); peak {} ({:.2} bytes/position); start: {}",
            r["positions"],
            r["states"],
            r["concept"].as_str().unwrap_or(""),
            r["best_seconds"].as_f64().unwrap_or(0.0),
            args.runs,
            crate::text::plural(args.runs as u64),
            r["positions_per_second"].as_f64().unwrap_or(0.0) / 1e6,
            human_bytes(r["peak_resident_bytes"].as_u64().unwrap_or(0)),
            r["peak_bytes_per_position"].as_f64().unwrap_or(0.0),
            r["start_seats"]
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str()).collect::<Vec<_>>().join(", "))
                .unwrap_or_default(),
        );
    }
    Ok(())
}

fn export(args: &BenchArgs) -> Result<()> {
    use chopsticks_solve::export::{export, ExportFormat, Selection};
    let rules = large_variant();
    let graph = graph_for_solving(&rules, true)?;
    let solution = Solution::solve(&graph, &|_| {})?;
    let reached = explore_with_progress(&graph, &Position::start(&rules), true)
        .exploration
        .reached;
    let notation = Notation::default_for(&rules);
    let mut rows = Vec::new();
    for (name, format) in [("jsonl", ExportFormat::Jsonl), ("csv", ExportFormat::Csv)] {
        let mut times = Vec::new();
        let mut lines = 0;
        let mut bytes = 0;
        for _ in 0..args.runs {
            let mut sink = Counting(0);
            let clock = Instant::now();
            lines = export(
                &solution,
                Selection::All { reached: &reached },
                notation,
                format,
                &mut sink,
                &|_| {},
            )?;
            times.push(clock.elapsed().as_secs_f64());
            bytes = sink.0;
        }
        times.sort_by(f64::total_cmp);
        rows.push(json!({
            "format": name,
            "lines": lines,
            "bytes": bytes,
            "seconds": times,
            "best_seconds": times[0],
            "lines_per_second": lines as f64 / times[0],
        }));
    }
    if args.json {
        crate::commands::print_json(&json!({
            "workload": "export",
            "ruleset": rules.describe(),
            "threads": rayon::current_num_threads(),
            "runs": rows,
        }));
        return Ok(());
    }
    println!(
        "workload:  export every position to a sink ({} threads)",
        rayon::current_num_threads()
    );
    println!("ruleset:   {}", rules.describe());
    for r in &rows {
        println!(
            "  {:<5}  {} lines, {}: best {:.2} s of {} run{} ({:.1} M lines/s)",
            r["format"].as_str().unwrap_or(""),
            r["lines"],
            human_bytes(r["bytes"].as_u64().unwrap_or(0)),
            r["best_seconds"].as_f64().unwrap_or(0.0),
            args.runs,
            crate::text::plural(args.runs as u64),
            r["lines_per_second"].as_f64().unwrap_or(0.0) / 1e6,
        );
    }
    Ok(())
}

/// A writer that keeps nothing and counts the bytes.
struct Counting(u64);

impl std::io::Write for Counting {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn solve(args: &BenchArgs) -> Result<()> {
    let mut rows = Vec::new();
    for hands in [4usize, 5, 6] {
        let rules = Ruleset {
            hands: vec![hands; 2],
            ..large_variant()
        };
        reset_peak();
        let graph = graph_for_solving(&rules, true)?;
        let mut times = Vec::new();
        let mut start = None;
        for _ in 0..args.runs {
            let clock = Instant::now();
            let solution = Solution::solve(&graph, &|_| {})?;
            times.push(clock.elapsed().as_secs_f64());
            start = Some(solution.outcome(&Position::start(&rules))?);
        }
        times.sort_by(f64::total_cmp);
        let best = times[0];
        let peak = peak_resident_bytes().unwrap_or(0);
        rows.push(json!({
            "hands": hands,
            "positions": graph.count(),
            "seconds": times,
            "best_seconds": best,
            "positions_per_second": graph.count() as f64 / best,
            "peak_resident_bytes": peak,
            "peak_bytes_per_position": peak as f64 / graph.count() as f64,
            "start": start.map(|o| o.to_string()),
        }));
    }
    if args.json {
        crate::commands::print_json(&json!({
            "workload": "solve",
            "ruleset": large_variant().describe(),
            "threads": rayon::current_num_threads(),
            "runs": rows,
        }));
        return Ok(());
    }
    println!(
        "workload:  solve every position ({} threads)",
        rayon::current_num_threads()
    );
    println!(
        "ruleset:   {} (hands per player varied)",
        large_variant().describe()
    );
    println!("hands  positions   best time   positions/s   peak memory (this size)");
    for r in &rows {
        println!(
            "{:>5}  {:>10}  {:>8.3} s  {:>10.2} M  {} ({:.2} bytes/position)",
            r["hands"],
            r["positions"],
            r["best_seconds"].as_f64().unwrap_or(0.0),
            r["positions_per_second"].as_f64().unwrap_or(0.0) / 1e6,
            human_bytes(r["peak_resident_bytes"].as_u64().unwrap_or(0)),
            r["peak_bytes_per_position"].as_f64().unwrap_or(0.0),
        );
    }
    Ok(())
}

fn explore(args: &BenchArgs) -> Result<()> {
    let rules = large_variant();
    let build = Instant::now();
    let graph = graph_for_exploring(&rules, true)?;
    let build_seconds = build.elapsed().as_secs_f64();
    let start = Position::start(&rules);
    let mut times = Vec::new();
    let mut reachable = 0;
    let dir = std::env::temp_dir().join(format!("chopsticks-bench-{}.explore", std::process::id()));
    for _ in 0..args.runs {
        let clock = Instant::now();
        reachable = if args.on_disk {
            let found =
                chopsticks_space::explore_on_disk(&graph, graph.index_of(&start), &dir, &|_| {});
            let _ = std::fs::remove_dir(&dir);
            found?.reachable()
        } else {
            explore_with_progress(&graph, &start, true).reachable()
        };
        times.push(clock.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let best = times[0];
    let median = times[times.len() / 2];
    let peak = peak_resident_bytes();
    let per_position = peak.map(|b| b as f64 / graph.count() as f64);
    if args.json {
        crate::commands::print_json(&json!({
            "workload": "explore",
            "on_disk": args.on_disk,
            "ruleset": rules.describe(),
            "positions": graph.count(),
            "reachable": reachable,
            "threads": rayon::current_num_threads(),
            "table_seconds": build_seconds,
            "seconds": times,
            "best_seconds": best,
            "median_seconds": median,
            "peak_resident_bytes": peak,
            "peak_bytes_per_position": per_position,
        }));
        return Ok(());
    }
    println!(
        "workload:        explore reachable positions{}",
        if args.on_disk {
            " (one bit a position in memory, the layers from snapshots on disk)"
        } else {
            ""
        }
    );
    println!("ruleset:         {}", rules.describe());
    println!(
        "positions:       {} in the index, {reachable} reachable",
        graph.count()
    );
    println!("threads:         {}", rayon::current_num_threads());
    println!(
        "move tables:     {build_seconds:.3} s, {}",
        human_bytes(graph.table_bytes())
    );
    println!(
        "exploration:     best {best:.3} s, median {median:.3} s over {} run{} ({:.1} M positions/s)",
        times.len(),
        crate::text::plural(times.len() as u64),
        reachable as f64 / best / 1e6
    );
    if let (Some(peak), Some(per)) = (peak, per_position) {
        println!(
            "peak memory:     {} ({per:.3} bytes per position)",
            human_bytes(peak)
        );
    }
    Ok(())
}
