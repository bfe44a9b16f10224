//! Three things:
//!
//! - `cfg(gamesmanuni_dist)` when the environment names a build of the
//!   GamesmanUni client (`GAMESMANUNI_DIST`, its `dist` folder), so that
//!   `tests/gamesmanuni.rs` runs then and is reported ignored otherwise (in CI
//!   too: no client is kept with this project);
//! - the programs some tests need, probed (`chopsticks-probe`):
//!   `cfg(browser)` with Chromium and its driver (`tests/browser.rs`,
//!   `tests/gamesmanuni.rs`), `cfg(python3)` with `python3`
//!   (`tests/gamesmanuni.rs`, which serves the client with it),
//!   `cfg(python_venv)` with `python3` able to make a virtual environment
//!   (`tests/python.rs`); each test without them is reported ignored;
//! - the commit the command line is built from, for `--version`
//!   (`CHOPSTICKS_COMMIT`): given in the environment (a release or a source
//!   archive without git), else asked of git, else `unknown`.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(gamesmanuni_dist)");
    println!("cargo:rerun-if-env-changed=GAMESMANUNI_DIST");
    if std::env::var_os("GAMESMANUNI_DIST").is_some_and(|d| !d.is_empty()) {
        println!("cargo:rustc-cfg=gamesmanuni_dist");
    }
    let mut probe = chopsticks_probe::Probe::new();
    probe.programs("browser", &["chromium", "chromedriver"]);
    probe.programs("python3", &["python3"]);
    probe.python_venv("python_venv");
    for line in probe.lines() {
        println!("{line}");
    }
    println!("cargo:rerun-if-env-changed=CHOPSTICKS_COMMIT");
    let commit = std::env::var("CHOPSTICKS_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(git_commit)
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=CHOPSTICKS_COMMIT={}", commit.trim());
    // Built again when the checkout's commit moves: HEAD, and the branch it
    // names. Only paths that exist are named (a missing one would make every
    // build run this again).
    let git = Path::new(".git");
    let mut watched = vec![git.join("HEAD"), git.join("packed-refs")];
    if let Ok(head) = std::fs::read_to_string(git.join("HEAD")) {
        if let Some(branch) = head.trim().strip_prefix("ref: ") {
            watched.push(git.join(branch));
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
    for path in watched.iter().filter(|p| p.is_file()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The short hash of `HEAD`, with `-modified` when the work tree has changes
/// to tracked files; `None` outside a git checkout.
fn git_commit() -> Option<String> {
    let out = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let hash = String::from_utf8(out.stdout).ok()?.trim().to_string();
    if hash.is_empty() {
        return None;
    }
    let clean = Command::new("git")
        .args(["diff", "--quiet", "HEAD", "--"])
        .status()
        .is_ok_and(|s| s.success());
    Some(if clean {
        hash
    } else {
        format!("{hash}-modified")
    })
}
