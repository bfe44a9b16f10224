//! ARCHITECTURE.md stays true to the tree: every crate of the workspace is in
//! its map, every file and folder it names exists, and it says where to start.
//! (A renamed file or a new crate fails here, not in a newcomer's first hour.)
//! And the tests stay honest: none skips at run time, every ignored one says
//! why.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The backticked words of `text` that name files or folders: a path with a
/// `/`, or a name ending in `.rs` or `.md` (not Rust paths such as `a::b`, nor
/// commands with spaces).
fn named_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (k, piece) in text.split('`').enumerate() {
        if k % 2 == 0 || piece.contains(char::is_whitespace) || piece.contains("::") {
            continue;
        }
        let piece = piece.trim_end_matches([',', ')', ':']);
        let file_like = piece.ends_with(".rs") || piece.ends_with(".md");
        let path_like = piece.contains('/')
            && piece
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "/_-.".contains(c))
            && !piece.starts_with('/')
            && !piece.contains("//");
        if file_like || path_like {
            out.push(piece.to_string());
        }
    }
    out
}

/// Where a path named in the section of `krate` is looked for.
fn candidates(krate: Option<&str>, named: &str) -> Vec<PathBuf> {
    let root = root();
    let mut v = vec![root.join(named)];
    if let Some(dir) = krate {
        v.push(root.join("crates").join(dir).join("src").join(named));
        v.push(root.join("crates").join(dir).join(named));
    }
    // Files of the binary are named from `src/` or `src/commands/`.
    v.push(root.join("src").join(named));
    v.push(root.join("src/commands").join(named));
    v.push(root.join("docs").join(named));
    v
}

#[test]
fn architecture_names_every_crate_and_only_files_that_exist() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut problems = Vec::new();
    // Every crate folder is in the map.
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !text.contains(&format!("`crates/{name}`")) {
            problems.push(format!("crates/{name} is not in the map of crates"));
        }
        if !text.contains(&format!("### `chopsticks-{name}`"))
            && !text.contains(&format!("`chopsticks-{name}` and"))
        {
            problems.push(format!("crates/{name} has no section"));
        }
    }
    // Every path named exists, looked for from the crate of its section.
    let mut krate: Option<String> = None;
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("### `chopsticks-") {
            krate = h.split('`').next().map(str::to_string);
        } else if line.starts_with("## ") || line.starts_with("### `chopsticks`") {
            krate = None;
        }
        for named in named_paths(line) {
            let found = candidates(krate.as_deref(), &named)
                .iter()
                .any(|p| Path::new(p).exists());
            if !found {
                problems.push(format!(
                    "`{named}` (in the section of {}) does not exist",
                    krate
                        .as_deref()
                        .map_or("the binary or the whole".into(), |k| format!(
                            "chopsticks-{k}"
                        ))
                ));
            }
        }
    }
    // A newcomer's entry points.
    if !text.contains("## Where to start") {
        problems.push("no \"Where to start\" section".into());
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every Rust file of the workspace's tests (`tests/` and `crates/*/tests`).
fn test_sources() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = root();
    let mut out = Vec::new();
    walk(&root.join("tests"), &mut out);
    for krate in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        walk(&krate.path().join("tests"), &mut out);
    }
    out
}

/// No test passes by not running: none asks whether it runs in CI, none
/// announces a skip and returns, and every ignored test says why (the
/// programs it needs are probed by build scripts, and a test without them is
/// reported ignored with a reason that starts `needs`).
#[test]
fn no_test_passes_by_not_running() {
    // Written in pieces, so that this file does not match itself.
    let ci = ["var_os(\"", "CI\")"].concat();
    let skipped = ["eprintln!(\"", "skipped"].concat();
    let bare_ignore = ["#[", "ignore]"].concat();
    let files = test_sources();
    assert!(files.len() > 40, "{} test files found", files.len());
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if [&ci, &skipped, &bare_ignore]
                .iter()
                .any(|bad| line.contains(bad.as_str()))
            {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "tests that skip at run time or are ignored without a reason:\n{}",
        found.join("\n")
    );
}
