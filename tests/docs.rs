//! The repository documents itself: no pointer leaves it, the domain reference
//! `docs/REFERENCE.md` is present, and the relative links of the Markdown documents
//! (files and `#section` anchors) and the `docs/REFERENCE.md §N` pointers of the
//! sources all land somewhere that exists.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every Markdown, Rust and TOML file of the repository, build outputs and hidden
/// directories (`.git`, …) excepted.
fn text_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.starts_with('.') && !name.starts_with("target") {
                    walk(&path, out);
                }
            } else if [".md", ".rs", ".toml"].iter().any(|x| name.ends_with(x)) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), &mut out);
    out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The Markdown documents whose links are checked: the top-level documents and
/// everything under `docs/`.
fn documents() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    out.extend(docs);
    out
}

#[test]
fn no_pointer_leaves_the_repository() {
    // Built in pieces so that this file does not match itself.
    let needles = [
        concat!("..", "/shared"),
        concat!("shared", "/REFERENCE"),
        concat!("shared", "/seeds"),
    ];
    let mut found = Vec::new();
    for path in text_files() {
        let text = fs::read_to_string(&path).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            if needles.iter().any(|needle| line.contains(needle)) {
                found.push(format!("{}:{}: {}", relative(&path), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "pointers outside the repository (point to docs/REFERENCE.md instead):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_reference_is_part_of_the_repository() {
    let text =
        fs::read_to_string(root().join("docs/REFERENCE.md")).expect("docs/REFERENCE.md exists");
    for heading in [
        "## 1. The rule space",
        "## 2. Positions and notations",
        "## 3. Solution concepts",
        "## 4. Published numbers",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(heading)),
            "docs/REFERENCE.md has no `{heading}` section"
        );
    }
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains("docs/REFERENCE.md"),
        "the README points to the reference"
    );
}

/// Lines outside fenced code blocks, with inline code spans blanked out, numbered
/// from 1.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence: Option<&str> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => {
                fence = Some(m);
                continue;
            }
            (Some(open), Some(m)) if open == m => {
                fence = None;
                continue;
            }
            (Some(_), _) => continue,
            (None, None) => {}
        }
        out.push((n + 1, blank_code_spans(line)));
    }
    out
}

/// Replaces every inline code span (a run of backticks to the next run of the same
/// length) by spaces.
fn blank_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let mut run = 0;
        while i + run < chars.len() && chars[i + run] == '`' {
            run += 1;
        }
        // Find the closing run of exactly `run` backticks.
        let mut j = i + run;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let mut k = 0;
                while j + k < chars.len() && chars[j + k] == '`' {
                    k += 1;
                }
                if k == run {
                    close = Some(j + k);
                    break;
                }
                j += k;
            } else {
                j += 1;
            }
        }
        match close {
            Some(end) => {
                out.extend(std::iter::repeat_n(' ', end - i));
                i = end;
            }
            None => {
                out.extend(&chars[i..i + run]);
                i += run;
            }
        }
    }
    out
}

/// The link targets of a line: inline links and images `[text](target "title")`
/// and reference definitions `[label]: target`.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    // A definition is the whole line: `[label]: target`, then at most a title.
    let trimmed = line.trim_start();
    if let Some(label_end) = trimmed.strip_prefix('[').and_then(|t| t.find(']')) {
        if let Some(tail) = trimmed[label_end + 2..].strip_prefix(':') {
            let mut words = tail.split_whitespace();
            if let Some(target) = words.next() {
                let title = words.next();
                if title.is_none_or(|t| t.starts_with(['"', '\'', '('])) {
                    out.push(target.to_string());
                }
            }
        }
    }
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let mut depth = 0;
        let mut end = after.len();
        for (k, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = k;
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let inner = after[..end].trim();
        let target = inner
            .strip_prefix('<')
            .and_then(|t| t.split('>').next())
            .unwrap_or_else(|| inner.split_whitespace().next().unwrap_or(""));
        out.push(target.to_string());
        rest = &after[end.min(after.len())..];
    }
    out
}

/// GitHub's anchor for a heading: lower case, letters, digits, `-` and `_` kept,
/// each space a `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings, duplicates numbered as GitHub does.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = HashSet::new();
    let mut fence = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let base = slug(title.trim().trim_end_matches('#').trim());
        let count = seen.entry(base.clone()).or_insert(0);
        let anchor = if *count == 0 {
            base.clone()
        } else {
            format!("{base}-{count}")
        };
        *count += 1;
        out.insert(anchor);
    }
    out
}

/// `base/target` with `.` and `..` resolved lexically; `None` if it climbs out of
/// the repository.
fn resolve(base: &Path, target: &str) -> Option<PathBuf> {
    let mut parts: Vec<String> = base
        .strip_prefix(root())
        .ok()?
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    for component in Path::new(target).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.iter().fold(root(), |acc, p| acc.join(p)))
}

#[test]
fn relative_links_point_into_the_repository() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = fs::read_to_string(&doc).unwrap();
        let dir = doc.parent().unwrap();
        for (n, line) in prose_lines(&text) {
            for target in link_targets(&line) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (path, fragment) = match target.split_once('#') {
                    Some((p, f)) => (p, Some(f)),
                    None => (target.as_str(), None),
                };
                let where_ = format!("{}:{n}: `{target}`", relative(&doc));
                let file = if path.is_empty() {
                    doc.clone()
                } else {
                    match resolve(dir, path) {
                        Some(file) if file.exists() => file,
                        Some(_) => {
                            broken.push(format!("{where_}: no such file"));
                            continue;
                        }
                        None => {
                            broken.push(format!("{where_}: outside the repository"));
                            continue;
                        }
                    }
                };
                if let Some(fragment) = fragment {
                    if file.extension().is_some_and(|x| x == "md") {
                        let anchors = anchors(&fs::read_to_string(&file).unwrap());
                        if !anchors.contains(fragment) {
                            broken.push(format!(
                                "{where_}: no heading with anchor #{fragment} in {}",
                                relative(&file)
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked > 0, "no relative link found at all");
}

/// Pointers like `docs/REFERENCE.md §4.2` in the sources and documents name a
/// numbered section that exists; a pointer must name the file.
#[test]
fn reference_section_pointers_exist() {
    let reference = fs::read_to_string(root().join("docs/REFERENCE.md")).unwrap();
    let sections: HashSet<String> = reference
        .lines()
        .filter(|l| l.starts_with("## ") || l.starts_with("### "))
        .filter_map(|l| {
            let number = l.trim_start_matches('#').split_whitespace().next()?;
            let number = number.trim_end_matches('.');
            number
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.')
                .then(|| number.to_string())
        })
        .collect();
    let mut bad = Vec::new();
    for path in text_files() {
        if path.ends_with("tests/docs.rs") {
            continue; // this file spells the patterns out
        }
        let text = fs::read_to_string(&path).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let where_ = format!("{}:{}", relative(&path), n + 1);
            // A bare "REFERENCE §" does not say which file.
            if line.contains(concat!("REFERENCE", " §")) {
                bad.push(format!("{where_}: write `docs/REFERENCE.md §N`"));
            }
            let mut rest = line;
            while let Some(at) = rest.find("REFERENCE.md §") {
                rest = &rest[at + "REFERENCE.md §".len()..];
                // `§4`, `§4.2` or a range `§4.1-4.3`: check every number named.
                let spec: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-' || *c == '–')
                    .collect();
                let spec = spec.trim_end_matches('.');
                if spec.is_empty() {
                    bad.push(format!("{where_}: `§` without a section number"));
                }
                for number in spec.split(['-', '–']) {
                    if !sections.contains(number) {
                        bad.push(format!(
                            "{where_}: docs/REFERENCE.md has no section {number}"
                        ));
                    }
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "bad pointers to the reference:\n{}",
        bad.join("\n")
    );
}

/// The README, docs/API.md and docs/REFERENCE.md name every rule option of the
/// rules crate's table (`chopsticks_rules::options`): each switch by its word
/// or its flag, and each value of each choice by its word in a variant id.
#[test]
fn every_rule_option_is_documented() {
    use chopsticks_rules::options::{choices, switches};
    let mut words: Vec<&str> = switches().map(|s| s.token).collect();
    for c in choices() {
        words.extend(c.values.iter().map(|v| v.token));
    }
    for doc in ["README.md", "docs/API.md", "docs/REFERENCE.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        let missing: Vec<&&str> = words
            .iter()
            .filter(|w| {
                !text.contains(&format!("`{w}`"))
                    && !text.contains(&format!("`--{w}`"))
                    && !text.contains(&format!("`--{w}["))
                    && !text.contains(&format!("/{w}`"))
                    && !text.contains(&format!("`{w}/"))
            })
            .collect();
        assert!(missing.is_empty(), "{doc} does not name {missing:?}");
    }
}
