//! `docs/JSON.md` is the one reference of every command's `--json`: this test
//! holds the commands to it, both ways.
//!
//! The document has one section per command (`## \`solve\``, `## \`table grid\``,
//! `## \`rules --list\``), each with a table `| key | type | meaning |`, and shared
//! sections (`## Every variant`, `## Every outcome`, `## Every line`) whose rows
//! describe an object named by its first row (`ruleset`, `outcome`, `line`). A
//! command's row whose type names a shared object (`| \`start\` | outcome | … |`)
//! stands for an object with that section's keys under it (`start.value`,
//! `start.remoteness`): the shared rows are merged into the command's table there.
//!
//! For each section the test runs the invocations of [`invocations`] (chosen so
//! that every optional key shows up in at least one of them), collects every key
//! path of their output (nested keys joined with `.`, keys of objects inside
//! arrays written `key[].sub`, those of a top-level array `[].key`; each line of
//! JSON lines) with the JSON type of each value, and asserts that
//!
//! - every key path printed is documented in its section, with a type that allows
//!   the value (`number` allows integers too);
//! - every key path documented is printed by at least one of its invocations (no
//!   stale rows);
//! - every section has invocations and every invocation a section.
//!
//! Every problem is listed at once, naming the section, the key path, the
//! invocation and what is wrong.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// The JSON types a row may name.
const PRIMITIVES: [&str; 7] = [
    "string", "integer", "number", "boolean", "array", "object", "null",
];

fn reference_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/JSON.md")
}

/// One row of a table: its types and the document's line it is on.
#[derive(Clone, Debug)]
struct Row {
    types: Vec<String>,
    line: usize,
}

/// A table: key path → row.
type Table = BTreeMap<String, Row>;

/// The parsed reference.
#[derive(Debug, Default)]
struct Reference {
    /// Command sections, by name (`solve`, `table grid`, `rules --list`).
    commands: BTreeMap<String, Table>,
    /// Shared objects, by the key of their first row (`ruleset`, `line`), with
    /// their rows (the root row included).
    shared: BTreeMap<String, Table>,
}

/// Splits a table row into its cells on the `|` not escaped as `\|`.
fn cells(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cell = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cell.push('|');
                chars.next();
            }
            '|' => out.push(std::mem::take(&mut cell)),
            _ => cell.push(c),
        }
    }
    out.push(cell);
    // A row `| a | b | c |` splits into "", a, b, c, "".
    out.into_iter()
        .map(|c| c.trim().to_string())
        .collect::<Vec<_>>()
}

/// Parses docs/JSON.md; the format's own mistakes are returned as problems.
fn parse(text: &str) -> (Reference, Vec<String>) {
    enum Section {
        None,
        Command(String),
        Shared(Option<String>),
    }
    let mut reference = Reference::default();
    let mut problems = Vec::new();
    let mut section = Section::None;
    let mut fence = false;
    for (index, line) in text.lines().enumerate() {
        let n = index + 1;
        if line.starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        if let Some(title) = line.strip_prefix("## ") {
            let title = title.trim();
            section = if title.len() > 2 && title.starts_with('`') && title.ends_with('`') {
                let name = title[1..title.len() - 1].to_string();
                if reference.commands.contains_key(&name) {
                    problems.push(format!("docs/JSON.md:{n}: a second section `## {title}`"));
                }
                reference.commands.entry(name.clone()).or_default();
                Section::Command(name)
            } else if title.starts_with("Every ") {
                Section::Shared(None)
            } else {
                Section::None
            };
            continue;
        }
        if line.starts_with("# ") {
            section = Section::None;
            continue;
        }
        if !line.starts_with("| `") {
            continue;
        }
        let cells = cells(line);
        if cells.len() != 5 {
            problems.push(format!(
                "docs/JSON.md:{n}: a row needs three cells `| key | type | meaning |` (a `|` in the meaning is written `\\|`): {line}"
            ));
            continue;
        }
        let key = cells[1].trim_matches('`').to_string();
        if cells[1].len() < 3 || !cells[1].starts_with('`') || !cells[1].ends_with('`') {
            problems.push(format!(
                "docs/JSON.md:{n}: the key `{}` is not in backticks",
                cells[1]
            ));
            continue;
        }
        let types: Vec<String> = cells[2]
            .split(" or ")
            .map(|t| t.trim().to_string())
            .collect();
        let row = Row { types, line: n };
        let table = match &mut section {
            Section::None => {
                problems.push(format!(
                    "docs/JSON.md:{n}: the row `{key}` is in no command's section (`## \\`cmd\\``) nor in a shared one (`## Every …`)"
                ));
                continue;
            }
            Section::Command(name) => reference.commands.get_mut(name).unwrap(),
            Section::Shared(root) => {
                let root = root.get_or_insert_with(|| key.clone()).clone();
                if key != root && !key.starts_with(&format!("{root}.")) {
                    problems.push(format!(
                        "docs/JSON.md:{n}: the shared row `{key}` is not under `{root}`, the key of its section's first row"
                    ));
                    continue;
                }
                reference.shared.entry(root).or_default()
            }
        };
        if table.insert(key.clone(), row).is_some() {
            problems.push(format!(
                "docs/JSON.md:{n}: the key `{key}` twice in one section"
            ));
        }
    }
    // Every type is a JSON type or a shared object.
    let known = |t: &str| PRIMITIVES.contains(&t) || reference.shared.contains_key(t);
    for table in reference.commands.values().chain(reference.shared.values()) {
        for (key, row) in table {
            for t in &row.types {
                if !known(t) {
                    problems.push(format!(
                        "docs/JSON.md:{}: `{key}` has the type `{t}`, which is neither a JSON type ({}) nor a shared object ({})",
                        row.line,
                        PRIMITIVES.join(", "),
                        reference.shared.keys().cloned().collect::<Vec<_>>().join(", ")
                    ));
                }
            }
        }
    }
    (reference, problems)
}

/// Adds `key` with `types` to `out`, a shared object's type replaced by `object`
/// and that object's rows added under `key` (recursively).
fn expand(reference: &Reference, key: &str, row: &Row, out: &mut Table, depth: usize) {
    assert!(
        depth < 16,
        "docs/JSON.md: shared objects nested in a cycle at `{key}`"
    );
    let mut types = Vec::new();
    for t in &row.types {
        match reference.shared.get(t) {
            Some(rows) => {
                if !types.contains(&"object".to_string()) {
                    types.push("object".to_string());
                }
                for (sub, sub_row) in rows {
                    if sub == t {
                        continue;
                    }
                    let path = format!("{key}{}", &sub[t.len()..]);
                    expand(reference, &path, sub_row, out, depth + 1);
                }
            }
            None => types.push(t.clone()),
        }
    }
    out.insert(
        key.to_string(),
        Row {
            types,
            line: row.line,
        },
    );
}

/// A command's table with the shared objects merged in.
fn expanded(reference: &Reference, command: &str) -> Table {
    let mut out = Table::new();
    for (key, row) in &reference.commands[command] {
        expand(reference, key, row, &mut out, 0);
    }
    out
}

/// The JSON type of a value, as the tables name it.
fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Every key path under `v` (at `path`) with the types of its values.
fn collect(v: &Value, path: &str, out: &mut BTreeMap<String, BTreeSet<&'static str>>) {
    let mut visit = |key: String, x: &Value| {
        out.entry(key.clone()).or_default().insert(type_of(x));
        collect(x, &key, out);
    };
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                let key = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                visit(key, x);
            }
        }
        Value::Array(items) => {
            for item in items {
                if let Value::Object(map) = item {
                    for (k, x) in map {
                        visit(format!("{path}[].{k}"), x);
                    }
                }
            }
        }
        _ => {}
    }
}

/// One run of the binary: the section it is checked against, its arguments,
/// and whether it prints JSON lines.
struct Invocation {
    section: &'static str,
    args: Vec<String>,
    lines: bool,
}

/// Every invocation, in order (the solution files the first ones save are read
/// by later ones): the section it is checked against and its arguments, split
/// on white space, or on tabs when one holds a space (`value`'s expressions);
/// `{d}` stands for the directory of the files (the records are written there
/// first).
fn invocations(dir: &Path) -> Vec<Invocation> {
    let runs: &[(&'static str, &str)] = &[
        ("error", "query 9999"),
        ("error", "solve --bogus"),
        ("solve", "solve"),
        ("solve", "solve --players 3 --hands 1"),
        ("solve", "solve --players 4 --hands 1 --teams"),
        ("solve", "solve --preset rollover --save {d}/rollover.sol"),
        ("solve", "solve --no-remoteness --save {d}/values.sol"),
        ("solve", "solve --part-size 1K --save {d}/parts.sol"),
        ("solve", "solve --workers 2"),
        ("solve", "solve --no-reachable"),
        ("solve", "solve --explore-on-disk --notation dashed"),
        ("query", "query 1_1111"),
        ("query", "query 1_1111 --line"),
        ("query", "query 1_1111 --line --preset rollover"),
        ("query", "query 1_1-1-1 --line --players 3 --hands 1"),
        ("query", "query 1_0011"),
        (
            "query",
            "query 1111 --notation compact --db {d}/rollover.sol",
        ),
        ("query", "query 1_1111 --db {d}/values.sol"),
        (
            "query --history",
            "query 2_1322 --history 1_1313,2_2213,1_2222,2_1322,1_1313,2_2213,1_2222",
        ),
        (
            "query --history",
            "query 1_1313 --history 1_1313,2_2213,1_2222,2_1322,1_1313,2_2213,1_2222,2_1322",
        ),
        (
            "query --history",
            "query 1_2211 --history 1_1111,2_1211 --repetitions none",
        ),
        ("moves", "moves 1_1111"),
        ("moves", "moves 1_1-1-1 --players 3 --hands 1"),
        ("moves", "moves 1_0011"),
        ("stats", "stats"),
        ("stats", "stats --players 3 --hands 1"),
        ("stats", "stats --preset simple --fingers 12"),
        ("strategy", "strategy"),
        ("strategy", "strategy --preset rollover"),
        ("strategy", "strategy --players 3 --hands 1"),
        ("strategy", "strategy --players 4 --hands 1 --teams"),
        ("review", "review {d}/mistakes.txt"),
        ("review", "review {d}/mistakes.txt --mistakes --no-lines"),
        ("review", "review {d}/slower.txt"),
        ("review", "review {d}/to-draw.txt"),
        ("review", "review {d}/to-loss.txt"),
        ("review", "review {d}/finished.txt"),
        ("review", "review {d}/three.txt"),
        ("review", "review {d}/repeated.txt"),
        ("puzzles", "puzzles --count 3"),
        ("puzzles", "puzzles --count 3 --kind hold --preset rollover"),
        ("puzzles", "puzzles --count 2 --players 3 --hands 1"),
        ("puzzles --position", "puzzles --position 1_1111"),
        (
            "puzzles --position",
            "puzzles --position 1_2312 --played t32",
        ),
        (
            "puzzles --position",
            "puzzles --position 1_1134 --preset rollover",
        ),
        ("survey", "survey --fingers-range 3..4 --hands-range 1..2"),
        ("survey", "survey --fingers-range 40 --hands-range 5"),
        ("rules", "rules"),
        ("rules", "rules --players 3 --hands 1,2,1 --pass-splits any"),
        ("rules --list", "rules --list"),
        ("check", "check {d}/rollover.sol"),
        ("check", "check {d}/values.sol"),
        ("check", "check {d}/parts.sol"),
        ("check", "check {d}/values.sol --in-place"),
        ("export", "export"),
        ("export", "export --players 3 --hands 1"),
        ("export", "export --reachable --preset rollover"),
        ("export", "export --db {d}/values.sol"),
        ("value", "value (1|1)_4"),
        ("value", "value (1|1)_4 --details --uptimal"),
        ("value", "value (1|1)_12 --uptimal --max-work 1"),
        ("value", "value {0|^[2]} --details"),
        ("value", "value\t(1|1)_4 + (2|3)_4"),
        ("value", "value\t(1|1)_4 <= *"),
        ("value", "value (1|1)_4 --rollover --details"),
        ("value", "value (1,2|1,2)_4 --divide --details"),
        ("value", "value\t(1|1)_4 < 0\t--rollover"),
        ("value", "value 1211"),
        ("value", "value {3|-1}.Temperature"),
        ("value --file", "value --file {d}/script.txt"),
        (
            "value --file",
            "value --file {d}/script.txt --details --uptimal",
        ),
        // A line in error makes the exit status 1; its object is still printed.
        ("value --file", "value --file {d}/script-errors.txt"),
        ("table one-hand", "table one-hand --n 10"),
        ("table grid", "table grid --n 3"),
        ("table grid", "table grid --n 3 --rollover"),
        ("table outcomes", "table outcomes --n 3 --max-hands 6"),
        ("table two-hands", "table two-hands --n 3 --divide"),
        ("table two-hands", "table two-hands --n 3 --rollover"),
        (
            "verify",
            "verify --only theorem-3,lemma-1 --max-n 50 --atlas-n 3 --max-hands 3",
        ),
    ];
    runs.iter()
        .map(|&(section, line)| {
            let words: Vec<&str> = if line.contains('\t') {
                line.split('\t').collect()
            } else {
                line.split_whitespace().collect()
            };
            let mut args: Vec<String> = words
                .iter()
                .map(|w| w.replace("{d}", common::text(dir)))
                .collect();
            // `--json` for all, `-q` for those that draw progress.
            args.push("--json".into());
            if !matches!(args[0].as_str(), "moves" | "rules" | "value") {
                args.push("-q".into());
            }
            Invocation {
                section,
                lines: matches!(section, "export" | "value --file"),
                args,
            }
        })
        .collect()
}

/// The game records `review` reads.
fn write_records(dir: &Path) {
    let records = [
        // Two mistakes: wins thrown to losses.
        ("mistakes.txt", "variant standard\ntap 1→1\ntap 2→1\n"),
        // A slower win (`verdict.plies`).
        ("slower.txt", "variant standard\nstart 1_1211\nself 1→2\n"),
        // A win thrown to a draw: the refutation is a drawn line (`end.ply`).
        (
            "to-draw.txt",
            "variant rollover\nstart 1_0203\nsplit 02→11\n",
        ),
        // A draw thrown to a loss: the best line is a drawn one.
        ("to-loss.txt", "variant rollover\nstart 1_0113\ntap 1→3\n"),
        // A game played to its end.
        ("finished.txt", "variant standard\nstart 1_0401\ntap 4→1\n"),
        // Three players.
        (
            "three.txt",
            "variant standard.p3.h1\ntap 1→1@1\ntap 2→1@1\n",
        ),
        // A position met a third time: a draw by repetition.
        (
            "repeated.txt",
            "variant standard\nstart 1_1313\nsplit 13→22; split 13→22; split 22→13; split 22→13\nsplit 13→22; split 13→22; split 22→13; split 22→13\n",
        ),
        // A script of expressions for `value --file`.
        (
            "script.txt",
            "// a comment\n{3|-1}.Temperature\n\n(1|1)_4\n1211\n",
        ),
        // A comparison, and a line that cannot be read.
        ("script-errors.txt", "^ + ^ >= ^^\n^ = *\n"),
    ];
    for (name, text) in records {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

/// The invocation as a command line, with the temporary directory left out.
fn shown(args: &[String], dir: &Path) -> String {
    let d = format!("{}/", common::text(dir));
    let words: Vec<String> = args
        .iter()
        .map(|a| {
            let a = a.replace(&d, "");
            if a.contains([' ', '|', '{', '*', '<']) {
                format!("'{a}'")
            } else {
                a
            }
        })
        .collect();
    format!("chopsticks {}", words.join(" "))
}

#[test]
fn every_command_json_is_what_docs_json_md_says() {
    let text = std::fs::read_to_string(reference_path()).expect("docs/JSON.md exists");
    let (reference, mut problems) = parse(&text);
    assert!(
        problems.is_empty(),
        "docs/JSON.md is not in the reference's format:\n{}",
        problems.join("\n")
    );
    for expected in ["ruleset", "outcome", "line"] {
        assert!(
            reference.shared.contains_key(expected),
            "docs/JSON.md has no shared section for `{expected}` (`## Every …` with a first row `{expected}`)"
        );
    }

    let dir = tempfile::tempdir().unwrap();
    write_records(dir.path());
    let runs = invocations(dir.path());

    // Every section has invocations, every invocation a section.
    let run_sections: BTreeSet<&str> = runs.iter().map(|r| r.section).collect();
    for name in reference.commands.keys() {
        if !run_sections.contains(name.as_str()) {
            problems.push(format!(
                "docs/JSON.md documents `{name}`, which tests/json_reference.rs never runs: add invocations for it"
            ));
        }
    }
    for name in &run_sections {
        if !reference.commands.contains_key(*name) {
            problems.push(format!(
                "tests/json_reference.rs runs `{name}`, which docs/JSON.md has no section for (`## \\`{name}\\``)"
            ));
        }
    }

    // For each section, key path → type → the invocations that printed it.
    type Printed<'a> = BTreeMap<&'a str, BTreeMap<String, BTreeMap<&'static str, Vec<String>>>>;
    let mut seen: Printed = BTreeMap::new();
    for run in &runs {
        let args: Vec<&str> = run.args.iter().map(String::as_str).collect();
        let command = shown(&run.args, dir.path());
        let out = common::run(&args);
        let failing_on_purpose = (command.contains("script-errors.txt")
            && out.status.code() == Some(1))
            || (run.section == "error" && !out.status.success());
        if !out.status.success() && !failing_on_purpose {
            problems.push(format!(
                "`{command}` failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
            continue;
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let documents: Vec<Result<Value, serde_json::Error>> = if run.lines {
            stdout
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(serde_json::from_str)
                .collect()
        } else {
            vec![serde_json::from_str(&stdout)]
        };
        let mut paths: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
        for document in documents {
            match document {
                Ok(v) => collect(&v, "", &mut paths),
                Err(e) => {
                    problems.push(format!("`{command}` printed no valid JSON: {e}"));
                    break;
                }
            }
        }
        if paths.is_empty() {
            problems.push(format!("`{command}` printed no key at all"));
        }
        for (path, types) in paths {
            let entry = seen
                .entry(run.section)
                .or_default()
                .entry(path)
                .or_default();
            for t in types {
                entry.entry(t).or_default().push(command.clone());
            }
        }
    }

    let tables: BTreeMap<&str, Table> = reference
        .commands
        .keys()
        .map(|name| (name.as_str(), expanded(&reference, name)))
        .collect();
    // Where a key was printed: the first invocation, and how many more.
    let by = |commands: &[String]| match commands.len() {
        1 => format!("`{}`", commands[0]),
        n => format!("`{}` (and {} more)", commands[0], n - 1),
    };
    // Every key printed is documented, with its type.
    for (section, paths) in &seen {
        let Some(table) = tables.get(section) else {
            continue;
        };
        for (path, types) in paths {
            let Some(row) = table.get(path) else {
                let kinds: Vec<&str> = types.keys().copied().collect();
                let first = types.values().next().unwrap();
                problems.push(format!(
                    "`{section}`: the key `{path}` ({}), printed by {}, is not documented in docs/JSON.md's section `## \\`{section}\\``",
                    kinds.join(" or "),
                    by(first)
                ));
                continue;
            };
            for (t, commands) in types {
                let allowed = row.types.iter().any(|a| a == t)
                    || (*t == "integer" && row.types.iter().any(|a| a == "number"));
                if !allowed {
                    problems.push(format!(
                        "`{section}`: the key `{path}` is {} in {}, but docs/JSON.md:{} gives its type as `{}`",
                        match *t {
                            "null" => "null".to_string(),
                            "integer" | "array" | "object" => format!("an {t}"),
                            _ => format!("a {t}"),
                        },
                        by(commands),
                        row.line,
                        row.types.join(" or ")
                    ));
                }
            }
        }
    }

    // Every shared object is used by some command (else its rows go unchecked).
    for root in reference.shared.keys() {
        let used = reference
            .commands
            .values()
            .flat_map(|t| t.values())
            .any(|row| row.types.contains(root));
        if !used {
            problems.push(format!(
                "docs/JSON.md's shared object `{root}` is the type of no command's key: remove its section"
            ));
        }
    }

    // No stale rows: every documented key is printed by some invocation.
    for (name, table) in &tables {
        let printed = seen.get(name);
        let commands: Vec<String> = runs
            .iter()
            .filter(|r| r.section == *name)
            .map(|r| format!("`{}`", shown(&r.args, dir.path())))
            .collect();
        if commands.is_empty() {
            continue;
        }
        for (key, row) in table {
            if !printed.is_some_and(|p| p.contains_key(key)) {
                problems.push(format!(
                    "`{name}`: the key `{key}` (docs/JSON.md:{}) is printed by none of {}: remove the row, or add an invocation that prints it to tests/json_reference.rs",
                    row.line,
                    commands.join(", ")
                ));
            }
        }
    }

    assert!(
        problems.is_empty(),
        "{} problem(s) between docs/JSON.md and the commands' --json:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_reference_format_is_read_as_documented() {
    let text = "\
## Every outcome

| key | type | meaning |
|---|---|---|
| `outcome` | object | a value |
| `outcome.value` | string | win |
| `outcome.remoteness` | integer or null | plies |

## `demo`

| key | type | meaning |
|---|---|---|
| `start` | outcome or null | the start, `(1\\|1)_4` |
| `moves[].to` | string | where |
";
    let (reference, problems) = parse(text);
    assert!(problems.is_empty(), "{problems:?}");
    let table = expanded(&reference, "demo");
    let keys: Vec<&str> = table.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["moves[].to", "start", "start.remoteness", "start.value"]
    );
    assert_eq!(table["start"].types, ["object", "null"]);
    assert_eq!(table["start.remoteness"].types, ["integer", "null"]);

    let mut paths = BTreeMap::new();
    collect(
        &serde_json::json!([{"a": {"b": [1, 2]}, "c": [{"d": null}], "e": 1.5}]),
        "",
        &mut paths,
    );
    let found: Vec<String> = paths
        .iter()
        .map(|(k, t)| format!("{k}:{}", t.iter().copied().collect::<Vec<_>>().join("|")))
        .collect();
    assert_eq!(
        found,
        [
            "[].a:object",
            "[].a.b:array",
            "[].c:array",
            "[].c[].d:null",
            "[].e:number"
        ]
    );
}

/// Under `--json` an error is one JSON object on stdout, the same for every
/// command: `{"error": {"kind", "message", "status"}}`, nothing on stderr, the
/// exit status the same as without `--json`. One bad invocation for every
/// command (and subcommand) whose help offers `--json`; the list is checked
/// against `--help` so that a new command cannot be left out.
#[test]
fn every_command_answers_an_error_in_json() {
    let bad: &[(&str, &str)] = &[
        ("solve", "solve --variant nonsense"),
        ("query", "query 9999"),
        ("strategy", "strategy --variant nonsense"),
        ("review", "review /nonexistent/game.txt"),
        ("puzzles", "puzzles --position 9999"),
        ("survey", "survey --variant nonsense"),
        ("stats", "stats --variant nonsense"),
        ("moves", "moves 9999"),
        ("export", "export --variant nonsense"),
        ("rules", "rules --variant nonsense"),
        ("bench", "bench query"),
        ("value", "value (("),
        ("verify", "verify --only nonsense"),
        ("check", "check /nonexistent.sol"),
        ("table one-hand", "table one-hand --n 0"),
        ("table grid", "table grid --n 0"),
        ("table outcomes", "table outcomes --n 0"),
        ("table two-hands", "table two-hands --n 0"),
        (
            "cluster worker",
            "cluster worker --hostfile /nonexistent --process 0 --dir /nonexistent",
        ),
        (
            "cluster assemble",
            "cluster assemble --dir /nonexistent --save /nonexistent/x.sol",
        ),
        // Usage errors, status 2.
        ("usage", "solve --bogus"),
        ("usage", "table grid --n"),
    ];
    let kinds = ["usage", "rules", "refused", "file", "error"];
    let mut problems = Vec::new();
    // Every command whose help offers --json has a bad invocation here.
    let help = common::stdout(&["--help"]);
    let mut commands: Vec<String> = Vec::new();
    for name in help
        .split("Commands:")
        .nth(1)
        .unwrap_or("")
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.split_whitespace().next())
        .filter(|c| *c != "help")
    {
        let sub = common::stdout(&[name, "--help"]);
        match sub.split("Commands:").nth(1) {
            Some(list) => {
                for inner in list
                    .lines()
                    .take_while(|l| !l.trim().is_empty())
                    .filter_map(|l| l.strip_prefix("  ")?.split_whitespace().next())
                    .filter(|c| *c != "help")
                {
                    let inner_help = common::stdout(&[name, inner, "--help"]);
                    if inner_help.contains("--json") {
                        commands.push(format!("{name} {inner}"));
                    }
                }
            }
            None if sub.contains("--json") => commands.push(name.to_string()),
            None => {}
        }
    }
    for command in &commands {
        if !bad.iter().any(|(c, _)| c == command) {
            problems.push(format!("`{command}` has --json but no bad invocation here"));
        }
    }
    for (command, line) in bad {
        let mut args: Vec<&str> = line.split(' ').collect();
        let plain = common::run(&args);
        args.push("--json");
        let out = common::run(&args);
        let shown = args.join(" ");
        let status = out.status.code();
        if out.status.success() {
            problems.push(format!(
                "`{shown}` succeeded: pick an invocation that fails"
            ));
            continue;
        }
        if status != plain.status.code() {
            problems.push(format!(
                "`{shown}` exits with {status:?}, without --json {:?}",
                plain.status.code()
            ));
        }
        let expected = if *command == "usage" {
            Some(2)
        } else {
            Some(1)
        };
        if status != expected {
            problems.push(format!("`{shown}` exits with {status:?}, not {expected:?}"));
        }
        if !out.stderr.is_empty() {
            problems.push(format!(
                "`{shown}` wrote to stderr: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = stdout.lines().filter(|l| !l.trim().is_empty()).collect();
        let Some(last) = lines.last() else {
            problems.push(format!("`{shown}` printed nothing on stdout"));
            continue;
        };
        match serde_json::from_str::<Value>(last) {
            Ok(v) => {
                let e = &v["error"];
                let keys: BTreeSet<&str> = e
                    .as_object()
                    .map(|o| o.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                if keys != BTreeSet::from(["kind", "message", "status"]) {
                    problems.push(format!("`{shown}`: not an error document: {v}"));
                    continue;
                }
                let kind = e["kind"].as_str().unwrap_or("");
                if !kinds.contains(&kind) || (*command == "usage") != (kind == "usage") {
                    problems.push(format!("`{shown}`: kind `{kind}`"));
                }
                if e["status"].as_i64().map(|s| s as i32) != status {
                    problems.push(format!(
                        "`{shown}`: status {} but exits {status:?}",
                        e["status"]
                    ));
                }
                let message = e["message"].as_str().unwrap_or("");
                let plain_text = String::from_utf8_lossy(&plain.stderr);
                if message.is_empty() || !plain_text.contains(message.lines().next().unwrap_or(""))
                {
                    problems.push(format!(
                        "`{shown}`: message {message:?} is not what the plain error says: {plain_text:?}"
                    ));
                }
            }
            Err(e) => problems.push(format!(
                "`{shown}`: its last line is not JSON ({e}): {last}"
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
