//! `chopsticks bench whole`: the whole `solve` command against its solve phase,
//! each run a new process, with its peak memory.
//!
//! Issue 29 asks that the whole command (setting up, solving, summarising,
//! saving) take at most twice its solve on the 591-million-position variants,
//! and that 2 × 10 hands at F = 10 be solved within an hour and 16 GiB. This
//! runs `chopsticks solve … --json` for the rollover and the cutoff (standard)
//! preset with `--hands H --fingers 10`, and reads from each its own figures
//! (`seconds`, `solve_seconds`, `mode`) and from the operating system its peak
//! resident memory (`wait4`).

use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

/// One run of `chopsticks solve` as a child process.
struct Run {
    preset: &'static str,
    report: Value,
    wall: f64,
    peak_bytes: u64,
}

/// Runs `chopsticks solve` with `args`, returning its JSON, its wall time and
/// its peak resident memory.
fn solve_child(args: &[String]) -> Result<(Value, f64, u64)> {
    let all: Vec<String> = std::iter::once("solve".to_string())
        .chain(args.iter().cloned())
        .collect();
    command_child(&all)
}

/// Runs `chopsticks` with `args` (the subcommand first, `--json` among them),
/// returning its JSON, its wall time and its peak resident memory.
pub(super) fn command_child(args: &[String]) -> Result<(Value, f64, u64)> {
    let exe = chopsticks_driver::loopback::this_program()?;
    let clock = std::time::Instant::now();
    let child = Command::new(exe)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("starting `chopsticks {}`", args.join(" ")))?;
    let pid = child.id() as libc::pid_t;
    let mut stdout = child.stdout.context("the child's output")?;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut text)?;
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value of that plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet waited for (the `Child` was consumed
    // without waiting); `status` and `usage` are valid for writes for the call.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = clock.elapsed().as_secs_f64();
    if waited != pid {
        bail!(
            "waiting for `chopsticks {}`: {}",
            args.join(" "),
            std::io::Error::last_os_error()
        );
    }
    if !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        bail!("`chopsticks {}` failed", args.join(" "));
    }
    let report: Value = serde_json::from_str(&text)
        .with_context(|| format!("reading the JSON of `chopsticks {}`", args.join(" ")))?;
    // ru_maxrss is in KiB on Linux.
    Ok((report, wall, usage.ru_maxrss as u64 * 1024))
}

pub fn run(hands: u32, values_only: bool, runs: u32, json_out: bool) -> Result<()> {
    let mut results = Vec::new();
    for preset in ["rollover", "standard"] {
        for _ in 0..runs {
            let mut args: Vec<String> = [
                "--preset",
                preset,
                "--hands",
                &hands.to_string(),
                "--fingers",
                "10",
                "--json",
                "--quiet",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            if values_only {
                args.push("--no-remoteness".into());
            }
            let (report, wall, peak_bytes) = solve_child(&args)?;
            results.push(Run {
                preset,
                report,
                wall,
                peak_bytes,
            });
        }
    }
    let ratio = |r: &Run| {
        r.report["seconds"].as_f64().unwrap_or(0.0)
            / r.report["solve_seconds"].as_f64().unwrap_or(1.0)
    };
    if json_out {
        let list: Vec<Value> = results
            .iter()
            .map(|r| {
                json!({
                    "preset": r.preset,
                    "positions": r.report["positions"],
                    "mode": r.report["mode"],
                    "cell_bytes": r.report["cell_bytes"],
                    "seconds": r.report["seconds"],
                    "solve_seconds": r.report["solve_seconds"],
                    "ratio": ratio(r),
                    "wall_seconds": r.wall,
                    "peak_bytes": r.peak_bytes,
                    "start": r.report["start"],
                })
            })
            .collect();
        crate::commands::print_json(&json!({
            "workload": "whole",
            "hands": hands,
            "fingers": 10,
            "values_only": values_only,
            "runs": list,
        }));
        return Ok(());
    }
    println!(
        "workload: the whole `solve` against its solve phase, 2 × {hands} hands, F = 10{}",
        if values_only { ", --no-remoteness" } else { "" }
    );
    println!(
        "{:<9} {:>14} {:<12} {:>10} {:>10} {:>6} {:>11}",
        "preset", "positions", "mode", "whole", "solve", "ratio", "peak memory"
    );
    for r in &results {
        println!(
            "{:<9} {:>14} {:<12} {:>9.2}s {:>9.2}s {:>5.2}× {:>11}",
            r.preset,
            r.report["positions"].as_u64().unwrap_or(0),
            r.report["mode"].as_str().unwrap_or("?"),
            r.report["seconds"].as_f64().unwrap_or(0.0),
            r.report["solve_seconds"].as_f64().unwrap_or(0.0),
            ratio(r),
            crate::memory::human_bytes(r.peak_bytes)
        );
    }
    Ok(())
}
