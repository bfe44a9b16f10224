//! The SMT solvers the proofs call (`z3` and `cvc5`, Debian's packages of those
//! names), on queries from `chopsticks_atlas::smt`. The package's build script
//! probes them (`cfg(smt)`); a proof test carries
//! `#[cfg_attr(not(smt), ignore = "needs z3 and cvc5 …")]`, so that without them
//! `cargo test` reports it ignored, the programs named, never passed (`.ci/run`,
//! which installs them, fails on that). When it runs, a solver gone since the
//! build fails it.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A solver: its command, and the arguments that make it read SMT-LIB 2 from
/// standard input and give up after five minutes (a proof here takes seconds;
/// a solver that gives up answers `timeout` or `unknown`, and the proof fails).
struct Solver {
    name: &'static str,
    arguments: &'static [&'static str],
}

const SOLVERS: [Solver; 2] = [
    Solver {
        name: "z3",
        arguments: &["-smt2", "-in", "-T:300"],
    },
    Solver {
        name: "cvc5",
        arguments: &["--lang", "smt2", "--produce-models", "--tlimit=300000"],
    },
];

fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// The solvers, which the build found (the tests that call this are ignored
/// otherwise): a panic, not a skip, when one has gone since.
fn solvers() -> Vec<(PathBuf, &'static Solver)> {
    SOLVERS
        .iter()
        .map(|s| {
            let path = on_path(s.name).unwrap_or_else(|| {
                panic!(
                    "{} was on the PATH when the tests were built and is not now \
                     (apt-get install z3 cvc5, then build again)",
                    s.name
                )
            });
            (path, s)
        })
        .collect()
}

/// The solver's output for `query`.
fn solve(path: &PathBuf, solver: &Solver, query: &str) -> String {
    let mut child = Command::new(path)
        .args(solver.arguments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", solver.name));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(query.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// The pair `(mover, other)` of a `sat` answer followed by `(get-value …)` of
/// the counts named `mover_names` and `other_names`.
fn counterexample<const N: usize>(
    mover_names: [&str; N],
    other_names: [&str; N],
    output: &str,
) -> ([i64; N], [i64; N]) {
    let mut mover = [0i64; N];
    let mut other = [0i64; N];
    let mut found = [[false; N]; 2];
    let tokens: Vec<String> = output
        .replace(['(', ')'], " ")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    for w in tokens.windows(2) {
        let Ok(v) = w[1].parse() else { continue };
        for (side, names, values) in [(0, &mover_names, &mut mover), (1, &other_names, &mut other)]
        {
            if let Some(i) = names.iter().position(|n| *n == w[0]) {
                values[i] = v;
                found[side][i] = true;
            }
        }
    }
    assert!(found.iter().flatten().all(|&f| f), "no model in {output}");
    (mover, other)
}

/// A solver's counterexample: its name, the mover's counts, the other side's.
pub type Counterexample<const N: usize> = (&'static str, [i64; N], [i64; N]);

/// Every solver answers `sat` to `query`, a query of `chopsticks_atlas::smt`
/// for a rule that is wrong: the counterexample each returns, as (the solver's
/// name, the mover's counts, the other side's), each a pair of real sides with
/// equal hand counts.
pub fn refute<const N: usize>(
    query: &str,
    mover_names: [&str; N],
    other_names: [&str; N],
) -> Vec<Counterexample<N>> {
    let solvers = solvers();
    let names: Vec<&str> = mover_names.iter().chain(&other_names).copied().collect();
    let query = format!(
        "(set-option :produce-models true)\n{query}(get-value ({}))\n",
        names.join(" ")
    );
    let mut found = Vec::new();
    for (path, solver) in &solvers {
        let answer = solve(path, solver, &query);
        assert!(answer.starts_with("sat"), "{}: {answer}", solver.name);
        let (mover, other) = counterexample(mover_names, other_names, &answer);
        assert!(mover.iter().chain(&other).all(|&v| v >= 0), "{answer}");
        let h: i64 = mover.iter().sum();
        assert!(
            h >= 1 && h == other.iter().sum::<i64>(),
            "{mover:?} {other:?}"
        );
        found.push((solver.name, mover, other));
    }
    found
}

/// Every solver answers `unsat` to `query`: the closed form it states satisfies
/// the level recursion at every pair. The query is kept as `file` beside the
/// build (`CARGO_TARGET_TMPDIR`), for anyone who wants to run another solver on
/// it.
pub fn prove(query: &str, file: &str) {
    let solvers = solvers();
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(file);
    std::fs::write(&path, query).unwrap();
    for (solver_path, solver) in &solvers {
        let answer = solve(solver_path, solver, query);
        assert_eq!(
            answer.trim(),
            "unsat",
            "{} on {}: the closed form breaks the recursion somewhere",
            solver.name,
            path.display()
        );
    }
}

/// Asserts that `docs/proofs/FILE` holds `query`, so that anyone can run a solver
/// on the proof without building anything. With `UPDATE_PROOFS=1` it writes it.
pub fn kept_in_the_docs(query: &str, file: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/proofs")
        .join(file);
    if std::env::var_os("UPDATE_PROOFS").is_some() {
        std::fs::write(&path, query).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == query,
        "{} is not the proof's query: rerun with UPDATE_PROOFS=1",
        path.display()
    );
}
