//! Every write that fails says which file and what was being done, the full
//! disk included, and leaves nothing half-written behind. A full disk is
//! stood in for by a file size limit (`ulimit -f`, with SIGXFSZ ignored so
//! the write fails with EFBIG instead of killing the process): the same
//! failure of `write(2)` at the same places, without mounting anything.

#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};

/// Runs the binary in `dir` with files limited to `blocks` blocks of 512 bytes;
/// returns the exit code and standard error.
fn limited(dir: &Path, blocks: u32, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f {blocks}; trap '' XFSZ; exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_chopsticks"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The names in `dir` (hidden ones included), sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_full_disk_names_the_file_and_leaves_nothing_half_written() {
    let cases: &[(&[&str], &str, &str)] = &[
        // (command, the file the message must name, what was being done)
        (
            &[
                "solve",
                "--preset",
                "rollover",
                "--hands",
                "6",
                "--fingers",
                "10",
                "--save",
                "o.sol",
                "-q",
            ],
            "o.sol",
            "cannot save the solution",
        ),
        (
            &[
                "solve",
                "--hands",
                "5",
                "--fingers",
                "9",
                "--memory",
                "20M",
                "--save",
                "m.sol",
                "-q",
            ],
            "m.sol",
            "cannot",
        ),
        (
            &[
                "table",
                "outcomes",
                "--n",
                "3",
                "--max-hands",
                "30",
                "--format",
                "jsonl",
                "-q",
                "-o",
                "a.jsonl",
            ],
            "a.jsonl",
            "cannot write",
        ),
        (
            &["export", "--hands", "4", "--fingers", "10", "-o", "e.jsonl"],
            "e.jsonl",
            "cannot write",
        ),
        (
            &["strategy", "--svg", "s.svg", "-q"],
            "s.svg",
            "cannot write",
        ),
        (
            &["strategy", "--png", "s.png", "-q"],
            "s.png",
            "cannot write",
        ),
    ];
    for (args, file, doing) in cases {
        let dir = tempfile::tempdir().unwrap();
        let (code, err) = limited(dir.path(), 8, args);
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(err.contains(file), "{args:?} does not name {file}: {err}");
        assert!(
            err.contains(doing),
            "{args:?} does not say `{doing}`: {err}"
        );
        assert!(err.contains("File too large"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        // Nothing half-written: no target, no temporary file (a solve's work
        // directory, kept to resume from, is the only thing that may stay).
        let left: Vec<String> = names(dir.path())
            .into_iter()
            .filter(|n| !n.ends_with(".work"))
            .collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
    // A checkpoint: the work file it was writing is named.
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = limited(
        dir.path(),
        64,
        &[
            "solve",
            "--hands",
            "5",
            "--fingers",
            "10",
            "--save",
            "c.sol",
            "--checkpoint-every",
            "0",
            "-q",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("cannot write c.sol.work/"), "{err}");
}
