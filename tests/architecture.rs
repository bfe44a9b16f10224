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

/// Each package's integration tests are one binary (ripgrep's layout): its
/// `Cargo.toml` turns off Cargo's one-binary-a-file (`autotests = false`) and
/// names `tests/tests.rs`, which declares every other file of `tests/` as a
/// module. A file it forgot would never be built, so never run: a test that
/// passes by not running, which this refuses.
#[test]
fn integration_tests_are_one_binary_a_package_and_none_is_left_out() {
    let root = root();
    let mut packages = vec![root.clone()];
    for krate in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        packages.push(krate.path());
    }
    let mut problems = Vec::new();
    let mut checked = 0;
    for package in packages {
        let tests = package.join("tests");
        let files: Vec<String> = std::fs::read_dir(&tests)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let module = name.strip_suffix(".rs").map(str::to_string);
                match module {
                    Some(m) => Some(m),
                    // A folder with a `mod.rs` is a module too.
                    None if e.path().join("mod.rs").is_file() => Some(name),
                    None => None,
                }
            })
            .filter(|m| m != "tests")
            .collect();
        if files.is_empty() {
            continue;
        }
        checked += 1;
        let manifest = std::fs::read_to_string(package.join("Cargo.toml")).unwrap();
        let shown = package
            .strip_prefix(&root)
            .unwrap_or(&package)
            .display()
            .to_string();
        if !manifest.lines().any(|l| l.trim() == "autotests = false") {
            problems.push(format!("{shown}/Cargo.toml: no `autotests = false`"));
        }
        if manifest.matches("[[test]]").count() != 1
            || !manifest.contains("path = \"tests/tests.rs\"")
        {
            problems.push(format!(
                "{shown}/Cargo.toml: not one [[test]] at tests/tests.rs"
            ));
        }
        let main = std::fs::read_to_string(tests.join("tests.rs")).unwrap_or_default();
        let declared: Vec<&str> = main
            .lines()
            .filter_map(|l| l.trim().strip_prefix("mod ")?.strip_suffix(';'))
            .collect();
        for m in &files {
            if !declared.contains(&m.as_str()) {
                problems.push(format!(
                    "{shown}/tests/{m}: not a module of tests/tests.rs, so never run"
                ));
            }
        }
    }
    assert!(
        checked >= 13,
        "{checked} packages with integration tests found"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
