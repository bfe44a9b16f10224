//! Helpers shared by the end-to-end tests: run the `chopsticks` binary.

#![allow(dead_code)] // each test file uses its own subset

pub mod browser;
pub mod forge;
pub mod server;

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// A path as a command-line argument (the temporary directories are UTF-8).
pub fn text(path: &std::path::Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Runs the binary with these arguments.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chopsticks"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs the binary, which must succeed, and returns its standard output.
pub fn stdout(args: &[&str]) -> String {
    let out = run(args);
    let shown: Vec<String> = args.iter().map(|a| a.chars().take(60).collect()).collect();
    assert!(
        out.status.success(),
        "{shown:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs the binary, which must succeed, and parses its JSON output.
pub fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(args)).expect("valid JSON")
}

/// Runs the binary, which must fail with a message containing `needle` and no panic.
pub fn fails_with(args: &[&str], needle: &str) {
    let out = run(args);
    let shown: Vec<String> = args.iter().map(|a| a.chars().take(60).collect()).collect();
    assert!(!out.status.success(), "{shown:?} should fail");
    // Under --json the message is in the error document on stdout.
    let err = said(&out);
    assert!(err.contains(needle), "{shown:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Runs the binary with `input` on standard input, whatever its exit status.
pub fn run_input(args: &[&str], input: &str) -> Output {
    run_input_with_env(args, input, &[])
}

/// [`run_input`] with these environment variables set.
pub fn run_input_with_env(args: &[&str], input: &str, env: &[(&str, &std::path::Path)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chopsticks"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, *v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    child.wait_with_output().expect("the binary ends")
}

/// Runs the binary with `input` on standard input; it must succeed. Returns stdout.
pub fn run_with_input(args: &[&str], input: &str) -> String {
    let out = run_input(args, input);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// What a command said about its error: its stderr, and under `--json` the
/// `error.message` of the error document on its stdout.
pub fn said(out: &Output) -> String {
    let mut text = String::from_utf8_lossy(&out.stderr).into_owned();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
            if let Some(m) = v["error"]["message"].as_str() {
                text.push_str(m);
                text.push('\n');
            }
        }
    }
    text
}
