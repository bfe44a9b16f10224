//! `chopsticks bench query --db FILE`: how fast a saved solution answers `query`
//! from a cold start.
//!
//! Each run starts a new `chopsticks query` process on one position of the file
//! (positions spread over the whole index), so what is timed is what a person
//! waits for: starting the program, opening and mapping the file, reading and
//! checking the blocks the answer needs. With `--cold` the operating system's page
//! cache is emptied before each run (root only), so the file's blocks come from
//! the disk; the program itself is read once before, so that the timing is the
//! file's, not the binary's.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use chopsticks_rules::{Notation, PositionIndex};
use serde_json::json;

/// Empties the page cache (needs root).
fn drop_caches() -> Result<()> {
    let synced = Command::new("sync").status();
    if !synced.is_ok_and(|s| s.success()) {
        bail!("--cold: `sync` failed");
    }
    std::fs::write("/proc/sys/vm/drop_caches", "3\n")
        .context("--cold empties the page cache through /proc/sys/vm/drop_caches, which needs root")
}

pub fn run(db: &Path, runs: u32, cold: bool, json_out: bool) -> Result<()> {
    let solution = chopsticks_solve::file::open(db)?;
    let rules = solution.rules().clone();
    let index = PositionIndex::new(&rules)?;
    let notation = Notation::default_for(&rules);
    let exe = chopsticks_driver::loopback::this_program()?;
    let count = index.count();
    let mut times = Vec::new();
    for run in 0..runs as u64 {
        // Spread over the index: a multiplicative step coprime with most counts.
        let i = (run.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ run) % count;
        let text = index.unrank(i).to_notation(&rules, notation)?;
        if cold {
            drop_caches()?;
            // The program is read back into memory; the file stays out.
            Command::new(&exe)
                .arg("--version")
                .stdout(Stdio::null())
                .status()?;
        }
        let clock = Instant::now();
        let out = Command::new(&exe)
            .args(["query", &text, "--json", "--quiet", "--db"])
            .arg(db)
            .output()
            .context("starting `chopsticks query`")?;
        let seconds = clock.elapsed().as_secs_f64();
        if !out.status.success() {
            bail!(
                "`chopsticks query {text} --db {}` failed: {}",
                db.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        times.push(seconds);
    }
    times.sort_by(f64::total_cmp);
    let ms = |s: f64| s * 1000.0;
    let (best, median, worst) = (times[0], times[times.len() / 2], times[times.len() - 1]);
    let size = std::fs::metadata(db)?.len();
    if json_out {
        crate::commands::print_json(&json!({
            "workload": "query",
            "file": db.display().to_string(),
            "file_bytes": size,
            "positions": count,
            "runs": runs,
            "cold": cold,
            "best_seconds": best,
            "median_seconds": median,
            "worst_seconds": worst,
        }));
        return Ok(());
    }
    println!("workload:   query a saved solution, a new process each time");
    println!(
        "file:       {} ({} positions, {})",
        db.display(),
        count,
        crate::memory::human_bytes(size)
    );
    println!(
        "page cache: {}",
        if cold {
            "emptied before each query (--cold)"
        } else {
            "as it is (the file may be in memory already)"
        }
    );
    println!(
        "query:      best {:.1} ms, median {:.1} ms, worst {:.1} ms over {runs} run{}",
        ms(best),
        ms(median),
        ms(worst),
        if runs == 1 { "" } else { "s" }
    );
    Ok(())
}
