//! The Python package's own tests (pytest, `crates/python/tests`), run by
//! `cargo test` as a user would install the package: a virtual environment
//! under `target/python-venv`, `pip install ./crates/python[test,notebook]`
//! (maturin builds the extension from this checkout; pip fetches maturin,
//! pytest, numpy, pandas and matplotlib from PyPI), then pytest, against the
//! command line this build made (`CHOPSTICKS_BIN`).
//!
//! Needs `python3` with its `venv` module and access to PyPI. Without them the
//! test fails when the environment variable `CI` is set (`.ci/run` installs
//! Python) and is skipped with a message otherwise (pip's own words when the
//! index cannot be reached; any other failure of pip fails the test).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `command`, panicking with its output when it fails.
fn run(mut command: Command, what: &str) {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What pip says when it cannot reach the package index.
const OFFLINE: [&str; 5] = [
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Could not find a version that satisfies the requirement",
    "No matching distribution found",
    "Network is unreachable",
];

/// Whether `python3 -m venv` can be used here.
fn python_with_venv() -> bool {
    Command::new("python3")
        .args(["-c", "import venv, ensurepip"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn the_python_package_installs_and_passes_its_tests() {
    if !python_with_venv() {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 with its venv module is needed for the Python package's tests \
             (.ci/run installs it)"
        );
        eprintln!("skipped: python3 with its venv module is not installed");
        return;
    }
    let root = root();
    let venv = root.join("target").join("python-venv");
    let python = venv.join("bin").join("python");
    if !python.exists() {
        let mut c = Command::new("python3");
        c.args(["-m", "venv"]).arg(&venv);
        run(c, "python3 -m venv");
    }
    let mut pip = Command::new(&python);
    pip.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "./crates/python[test,notebook]",
    ])
    .current_dir(&root);
    let out = pip.output().expect("pip starts");
    if !out.status.success() {
        let said = String::from_utf8_lossy(&out.stderr);
        // Without the package index (maturin, pytest, numpy…), outside CI: skipped.
        if std::env::var_os("CI").is_none() && OFFLINE.iter().any(|m| said.contains(m)) {
            eprintln!("skipped: pip cannot reach the package index:\n{said}");
            return;
        }
        panic!(
            "pip install ./crates/python[test,notebook] failed ({}):\n{}\n{said}",
            out.status,
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let mut pytest = Command::new(&python);
    pytest
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(Path::new("crates").join("python").join("tests"))
        .env("CHOPSTICKS_BIN", env!("CARGO_BIN_EXE_chopsticks"))
        .current_dir(&root);
    run(pytest, "pytest crates/python/tests");
}
