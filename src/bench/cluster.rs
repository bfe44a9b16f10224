//! `chopsticks bench cluster`: the distributed solver's rate with 1, 2 and 4
//! processes on loopback against the one-process solver, on the 25-million-
//! position variant (each run a new `chopsticks solve` process).
//!
//! The distributed rate is the positions over the slowest worker's time from
//! its set-up to the end of the dataflow, after a barrier that every worker
//! passes (timely's processes connect up to a second apart); the wall time of
//! the whole distributed solve (processes started, connected, the file
//! assembled) is reported beside it.

use std::process::Command;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

/// Runs `chopsticks solve` on the variant with `extra` options, returning its JSON.
fn solve(extra: &[&str]) -> Result<Value> {
    let exe = chopsticks_driver::loopback::this_program()?;
    let out = Command::new(exe)
        .args([
            "solve",
            "--preset",
            "rollover",
            "--hands",
            "6",
            "--fingers",
            "10",
        ])
        .args(["--json", "--quiet"])
        .args(extra)
        .output()
        .context("starting `chopsticks solve`")?;
    if !out.status.success() {
        bail!(
            "`chopsticks solve {}` failed: {}",
            extra.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(serde_json::from_slice(&out.stdout)?)
}

pub fn run(runs: u32, json_out: bool) -> Result<()> {
    let best = |extra: &[&str]| -> Result<Value> {
        let mut best: Option<Value> = None;
        for _ in 0..runs {
            let v = solve(extra)?;
            if best
                .as_ref()
                .is_none_or(|b| v["solve_seconds"].as_f64() < b["solve_seconds"].as_f64())
            {
                best = Some(v);
            }
        }
        Ok(best.expect("at least one run"))
    };
    let one = best(&[])?;
    let mut rows = vec![json!({
        "workers": null,
        "solve_seconds": one["solve_seconds"],
        "positions_per_second": one["positions_per_second"],
        "wall_seconds": one["solve_seconds"],
        "messages": 0,
    })];
    for workers in ["1", "2", "4"] {
        let v = best(&["--workers", workers])?;
        rows.push(json!({
            "workers": v["workers"],
            "solve_seconds": v["solve_seconds"],
            "positions_per_second": v["positions_per_second"],
            "wall_seconds": v["distributed_seconds"],
            "messages": v["messages"],
        }));
    }
    let rate = |r: &Value| r["positions_per_second"].as_f64().unwrap_or(0.0);
    if json_out {
        crate::commands::print_json(&json!({
            "workload": "cluster",
            "positions": one["positions"],
            "runs": runs,
            "rows": rows,
        }));
        return Ok(());
    }
    println!("workload:  solve the 25,050,025 positions of 2 × 6 hands, F = 10 rollover");
    println!(
        "           with one process, then the distributed solver on loopback (best of {runs})"
    );
    println!("processes  solve time   positions/s   vs one process   wall (start-up, assembly)   messages");
    for r in &rows {
        println!(
            "{:<10} {:>9.3} s {:>10.1} M {:>15.2}× {:>20.2} s {:>14}",
            r["workers"]
                .as_u64()
                .map_or("one".to_string(), |w| w.to_string()),
            r["solve_seconds"].as_f64().unwrap_or(0.0),
            rate(r) / 1e6,
            rate(r) / rate(&rows[0]).max(1.0),
            r["wall_seconds"].as_f64().unwrap_or(0.0),
            r["messages"]
        );
    }
    Ok(())
}
