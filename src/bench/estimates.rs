//! `chopsticks bench estimates`: what a solve, an exploration and a check
//! announce before they start, against what they take, over a sample of every
//! family (cutoff, rollover, Rahman's, Simple, misère, values alone, three
//! players).
//!
//! The announcement is computed here by the very functions the commands call
//! (`chopsticks_driver::plan::solve_announcement`, the exploration's and the
//! check's estimates), for the command's default plan; the command then runs
//! as a child process, which gives its own seconds under `--json` and, from
//! the operating system (`wait4`), its peak resident memory. Issue 62 asks that
//! both be within a factor of two of the announcement.

use anyhow::{Context, Result};
use chopsticks_driver::estimate::{exploring_resident_bytes, exploring_seconds};
use chopsticks_driver::{check_announcement, plan_solve, solve_announcement};
use chopsticks_rules::{PositionIndex, Preset, Ruleset};
use chopsticks_space::Graph;
use serde_json::{json, Value};

use super::whole::command_child;

/// One job of the sample: announced against measured.
struct Row {
    job: &'static str,
    variant: String,
    positions: u64,
    announced_seconds: f64,
    seconds: f64,
    announced_bytes: u64,
    peak_bytes: u64,
}

impl Row {
    fn time_ratio(&self) -> f64 {
        ratio(self.seconds, self.announced_seconds)
    }
    fn memory_ratio(&self) -> f64 {
        ratio(self.peak_bytes as f64, self.announced_bytes as f64)
    }
    /// Both within a factor of two, either way.
    fn within(&self) -> bool {
        [self.time_ratio(), self.memory_ratio()]
            .iter()
            .all(|r| (0.5..=2.0).contains(r))
    }
}

/// Measured over announced.
fn ratio(measured: f64, announced: f64) -> f64 {
    measured / announced.max(1e-9)
}

/// The sample: every preset's family at sizes that take seconds, and the
/// variations that change the solver's work.
fn sample() -> Vec<(&'static str, Ruleset)> {
    let at = |preset: Preset, hands: usize, fingers: u32| Ruleset {
        hands: vec![hands, hands],
        fingers,
        ..preset.ruleset()
    };
    let players = |preset: Preset, n: usize| Ruleset {
        hands: vec![3; n],
        fingers: 10,
        ..preset.ruleset()
    };
    vec![
        ("solve", at(Preset::Standard, 6, 10)),
        ("solve", at(Preset::Standard, 7, 10)),
        ("solve", at(Preset::Standard, 5, 12)),
        (
            "solve",
            Ruleset {
                misere: true,
                ..at(Preset::Standard, 6, 10)
            },
        ),
        ("solve", at(Preset::Rollover, 6, 10)),
        ("solve", at(Preset::Rollover, 8, 10)),
        ("solve", at(Preset::Rahman, 6, 10)),
        ("solve", at(Preset::Simple, 6, 10)),
        ("solve", at(Preset::Simple, 7, 10)),
        ("solve --no-remoteness", at(Preset::Standard, 7, 10)),
        ("solve", players(Preset::Standard, 3)),
        ("solve", players(Preset::Rollover, 3)),
        ("stats", at(Preset::Standard, 6, 10)),
        ("stats", at(Preset::Rollover, 6, 10)),
        ("check", at(Preset::Standard, 6, 10)),
        ("check", at(Preset::Rollover, 6, 10)),
    ]
}

fn measure(job: &'static str, rules: &Ruleset, dir: &std::path::Path) -> Result<Row> {
    let variant = rules.variant_id();
    let count = PositionIndex::new(rules)?.count();
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (announced_seconds, announced_bytes, report, wall, peak_bytes) = match job {
        "solve" | "solve --no-remoteness" => {
            let values_only = job != "solve";
            let plan = plan_solve(rules, count, None, false, values_only, None)?;
            let said = solve_announcement(rules, &plan)?;
            let mut args = strings(&["solve", "--variant", &variant, "--no-reachable"]);
            if values_only {
                args.push("--no-remoteness".into());
            }
            args.extend(strings(&["--json", "--quiet"]));
            let (report, wall, peak) = command_child(&args)?;
            (said.seconds, said.bytes, report, wall, peak)
        }
        "stats" => {
            let args = strings(&["stats", "--variant", &variant, "--json", "--quiet"]);
            let (report, wall, peak) = command_child(&args)?;
            (
                exploring_seconds(count),
                exploring_resident_bytes(count),
                report,
                wall,
                peak,
            )
        }
        _ => {
            let file = dir.join(format!("{variant}.sol"));
            let file_text = file.to_str().context("a UTF-8 temporary path")?;
            let save = strings(&["solve", "--variant", &variant, "--no-reachable"]);
            let save = [save, strings(&["--save", file_text, "--json", "--quiet"])].concat();
            command_child(&save)?;
            let solution = chopsticks_solve::file::open(&file)?;
            let graph = Graph::new(rules)?;
            let said = check_announcement(&solution, &graph);
            drop((solution, graph));
            let args = strings(&["check", file_text, "--json", "--quiet"]);
            let (report, wall, peak) = command_child(&args)?;
            (said.seconds, said.bytes, report, wall, peak)
        }
    };
    // A solve's own seconds where it gives them (its summary after is
    // announced by itself), else the whole command's.
    let seconds = report["solve_seconds"].as_f64().unwrap_or(wall);
    Ok(Row {
        job,
        variant,
        positions: count,
        announced_seconds,
        seconds,
        announced_bytes,
        peak_bytes,
    })
}

pub fn run(json_out: bool) -> Result<()> {
    let dir =
        std::env::temp_dir().join(format!("chopsticks-bench-estimates-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let measured: Result<Vec<Row>> = sample()
        .into_iter()
        .map(|(job, rules)| measure(job, &rules, &dir))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    let rows = measured?;
    let outside = rows.iter().filter(|r| !r.within()).count();
    if json_out {
        let list: Vec<Value> = rows
            .iter()
            .map(|r| {
                json!({
                    "job": r.job,
                    "variant": r.variant,
                    "positions": r.positions,
                    "announced_seconds": r.announced_seconds,
                    "seconds": r.seconds,
                    "time_ratio": r.time_ratio(),
                    "announced_bytes": r.announced_bytes,
                    "peak_bytes": r.peak_bytes,
                    "memory_ratio": r.memory_ratio(),
                    "within_2x": r.within(),
                })
            })
            .collect();
        crate::commands::print_json(&json!({
            "workload": "estimates",
            "threads": rayon::current_num_threads(),
            "jobs": list,
            "outside_2x": outside,
        }));
        return Ok(());
    }
    println!("workload: announced estimates against what the jobs take (measured / announced)");
    println!(
        "{:<22} {:<34} {:>12} {:>9} {:>9} {:>6} {:>10} {:>10} {:>6}",
        "job", "variant", "positions", "said", "took", "×", "said", "peak", "×"
    );
    let human = crate::memory::human_bytes;
    for r in &rows {
        println!(
            "{:<22} {:<34} {:>12} {:>8.2}s {:>8.2}s {:>6.2} {:>10} {:>10} {:>6.2}{}",
            r.job,
            r.variant,
            r.positions,
            r.announced_seconds,
            r.seconds,
            r.time_ratio(),
            human(r.announced_bytes),
            human(r.peak_bytes),
            r.memory_ratio(),
            if r.within() { "" } else { "  outside 2×" }
        );
    }
    println!(
        "{} of {} jobs within a factor of 2 in time and memory",
        rows.len() - outside,
        rows.len()
    );
    Ok(())
}
