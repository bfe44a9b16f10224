//! The distributed solver (`chopsticks_distributed`) as worker processes on
//! loopback: [`solve_on_loopback`] starts N processes of a program that runs
//! one worker of a cluster (the command line's `cluster worker`), waits for
//! them, and assembles their cells into a solution file.
//!
//! The protocol between the two sides, written here once: the worker is
//! started with the arguments of [`worker_arguments`]; on stderr it reports
//! [`progress_line`]s, which [`parse_progress`] reads, and warnings that begin
//! with [`IGNORED`], which are passed on as they come; what else it says is
//! kept to tell why it failed.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

use chopsticks_distributed::WorkerReport;
use chopsticks_rules::Ruleset;

use crate::{DriverError, Events};

/// The start of a progress line of a worker process (`progress LEVEL RESOLVED`).
const PROGRESS: &str = "progress";

/// The start of a worker's line about a checkpoint it does not resume from.
pub const IGNORED: &str = "warning: not resuming from";

/// `progress LEVEL RESOLVED`: a worker process's level and the positions its
/// workers have resolved.
pub fn progress_line(level: u32, resolved: u64) -> String {
    format!("{PROGRESS} {level} {resolved}")
}

/// The level and positions resolved of a worker's progress line.
pub fn parse_progress(line: &str) -> Option<(u32, u64)> {
    let mut words = line.strip_prefix(PROGRESS)?.split_whitespace();
    let level = words.next()?.parse().ok()?;
    let resolved = words.next()?.parse().ok()?;
    words.next().is_none().then_some((level, resolved))
}

/// Kills the children still running when dropped (a worker that failed leaves
/// the others waiting for it for ever).
struct Children(Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A solve by worker processes on loopback.
#[derive(Clone, Debug)]
pub struct Loopback<'a> {
    /// The program to start: it runs one worker process of a cluster with the
    /// arguments of [`worker_arguments`] (the command line's `cluster worker`).
    pub program: &'a Path,
    /// Worker processes.
    pub workers: usize,
    /// Their cells and checkpoints.
    pub dir: &'a Path,
    /// The solution file written.
    pub out: &'a Path,
    /// Whether the workers then explore from the start and count the outcomes
    /// of the positions reached (`WorkerReport::reach`).
    pub explore: bool,
    /// Seconds between the workers' checkpoints (`None`: none; nothing to
    /// resume from).
    pub checkpoint_every: Option<u64>,
}

/// The arguments of worker process `process` of a solve of `rules`: after
/// `cluster worker`, the variant, the hostfile, the process, and the options
/// of `solve`.
pub fn worker_arguments(
    rules: &Ruleset,
    solve: &Loopback<'_>,
    hostfile: &Path,
    process: usize,
) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = ["cluster", "worker", "--quiet", "--variant"]
        .iter()
        .map(Into::into)
        .collect();
    args.push(rules.variant_id().into());
    args.push("--hostfile".into());
    args.push(hostfile.into());
    args.push("--process".into());
    args.push(process.to_string().into());
    // A worker ends with this process, however this one ends (a signal to
    // it alone, a kill -9): no worker solves on unseen.
    args.push("--exit-with-parent".into());
    args.push("--progress-lines".into());
    if solve.explore {
        args.push("--explore".into());
    }
    match solve.checkpoint_every {
        Some(s) => {
            args.push("--checkpoint-every".into());
            args.push(s.to_string().into());
        }
        None => args.push("--no-checkpoints".into()),
    }
    args.push("--dir".into());
    args.push(solve.dir.into());
    args
}

/// Solves `rules` with worker processes on loopback as `solve` says, and
/// writes the solution file. Progress: the positions the workers have
/// resolved, summed, and their level; their warnings are passed on as they
/// come.
pub fn solve_on_loopback(
    rules: &Ruleset,
    solve: &Loopback<'_>,
    events: &dyn Events,
) -> Result<Vec<WorkerReport>, DriverError> {
    let (workers, dir) = (solve.workers, solve.dir);
    if dir.exists() && !dir.is_dir() {
        return Err(DriverError::Refused(format!(
            "{} (the work directory of the workers) exists and is not a directory: remove it, or save elsewhere",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(DriverError::io(format!("cannot create {}", dir.display())))?;
    // One solve at a time in a work directory (the lock goes with this process).
    let _lock = chopsticks_solve::parts::lock_work_dir(dir)?;
    // Free ports: bound, noted, released just before the workers bind them.
    let listeners: Vec<TcpListener> = (0..workers)
        .map(|_| TcpListener::bind("127.0.0.1:0"))
        .collect::<std::io::Result<_>>()
        .map_err(DriverError::io("finding free ports on loopback"))?;
    let addresses: Vec<String> = listeners
        .iter()
        .map(|l| l.local_addr().map(|a| a.to_string()))
        .collect::<std::io::Result<_>>()
        .map_err(DriverError::io("finding free ports on loopback"))?;
    drop(listeners);
    let hostfile = dir.join("hostfile");
    std::fs::write(&hostfile, addresses.join("\n") + "\n").map_err(DriverError::io(format!(
        "cannot write {}",
        hostfile.display()
    )))?;
    let mut children = Children(Vec::new());
    for process in 0..workers {
        let child = Command::new(solve.program)
            .args(worker_arguments(rules, solve, &hostfile, process))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(DriverError::io("starting a worker process"))?;
        children.0.push(child);
    }
    events.begin(&format!("solving with {workers} workers"), None);
    let waited = wait_for_workers(&mut children, solve, events);
    events.end();
    waited?;
    Ok(chopsticks_distributed::assemble(rules, dir, solve.out)?)
}

/// Waits for every worker while reading their stderr: their progress lines
/// move the count, their warnings are passed on, the rest is kept to say why
/// one failed. The first failure stops the others.
fn wait_for_workers(
    children: &mut Children,
    solve: &Loopback<'_>,
    events: &dyn Events,
) -> Result<(), DriverError> {
    let workers = solve.workers;
    let progress = Mutex::new(vec![(0u32, 0u64); workers]);
    let stderrs: Vec<_> = children
        .0
        .iter_mut()
        .map(|child| child.stderr.take().expect("piped"))
        .collect();
    std::thread::scope(|scope| {
        let readers: Vec<_> = stderrs
            .into_iter()
            .enumerate()
            .map(|(k, stderr)| {
                let progress = &progress;
                scope.spawn(move || {
                    let mut kept = Vec::new();
                    for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)) {
                        let Ok(line) = line else { break };
                        if let Some(moved) = parse_progress(&line) {
                            let mut all = progress.lock().unwrap_or_else(|e| e.into_inner());
                            all[k] = moved;
                            let level = all.iter().map(|p| p.0).max().unwrap_or(0);
                            events.advance(
                                all.iter().map(|p| p.1).sum(),
                                &format!(
                                    "solving with {workers} workers: level {level}, positions resolved"
                                ),
                            );
                        } else if line.starts_with(IGNORED) {
                            events.warn(&line);
                        } else {
                            kept.push(line);
                        }
                    }
                    kept
                })
            })
            .collect();
        let mut readers: Vec<Option<_>> = readers.into_iter().map(Some).collect();
        // What worker `j` said on stderr, once it has ended.
        let mut said_by = |j: usize| -> String {
            readers[j]
                .take()
                .and_then(|r| r.join().ok())
                .unwrap_or_default()
                .join("\n")
        };
        let mut done = vec![false; workers];
        while done.iter().any(|d| !d) {
            for (k, finished) in done.iter_mut().enumerate() {
                if *finished {
                    continue;
                }
                let status = match children.0[k].try_wait() {
                    Ok(status) => status,
                    Err(e) => {
                        // The readers end only when the workers do: stop them
                        // before the scope waits for the readers.
                        for child in children.0.iter_mut() {
                            let _ = child.kill();
                            let _ = child.wait();
                        }
                        return Err(DriverError::io("waiting for a worker process")(e));
                    }
                };
                let Some(status) = status else { continue };
                *finished = true;
                if !status.success() {
                    return Err(failure(children, k, status, solve, &mut said_by));
                }
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Every warning passed on before the results.
        for j in 0..workers {
            said_by(j);
        }
        Ok(())
    })
}

/// The error of a solve whose worker `k` ended with `status`: the worker that
/// caused it, what it said, and what to run next.
fn failure(
    children: &mut Children,
    k: usize,
    status: std::process::ExitStatus,
    solve: &Loopback<'_>,
    said_by: &mut dyn FnMut(usize) -> String,
) -> DriverError {
    // The first to end may only have lost its connection to the one that
    // failed: give the others a moment to end too, and name the one that did
    // not end for that.
    std::thread::sleep(Duration::from_millis(300));
    let mut failed: Vec<(usize, std::process::ExitStatus)> = Vec::new();
    for (j, other) in children.0.iter_mut().enumerate() {
        let status = if j == k {
            Some(status)
        } else {
            other.try_wait().ok().flatten()
        };
        if let Some(status) = status.filter(|s| !s.success()) {
            failed.push((j, status));
        }
    }
    // Stop the others before saying what to run next.
    for other in children.0.iter_mut() {
        let _ = other.kill();
        let _ = other.wait();
    }
    let ended: Vec<(usize, std::process::ExitStatus, String)> = failed
        .into_iter()
        .map(|(j, status)| (j, status, said_by(j)))
        .collect();
    let lost = |err: &str| err.contains("lost the connection");
    let (k, status, err) = ended
        .iter()
        .find(|(_, s, err)| s.code().is_none() || !lost(err))
        .or(ended.first())
        .cloned()
        .expect("the worker that failed");
    // Timely's own connection chatter is not the cause.
    let err: Vec<&str> = err
        .lines()
        .filter(|l| !l.starts_with("awaiting connections") && !l.contains("retrying"))
        .collect();
    let next = match (
        solve.checkpoint_every,
        chopsticks_distributed::last_common_level(solve.dir, solve.workers),
    ) {
        (Some(_), Some(level)) => format!(
            "; run the same command again: it resumes from level {level} (every worker's checkpoint, in {})",
            solve.dir.display()
        ),
        (Some(_), None) => {
            "; no level was checkpointed yet: run the same command again to start over".to_string()
        }
        (None, _) => "; without --save nothing is kept to resume from: run it again with --save FILE to make it resumable".to_string(),
    };
    let said = err.join(" ");
    let said = match said.trim() {
        "" => String::new(),
        text => format!(": {text}"),
    };
    DriverError::Worker(format!("worker process {k} failed ({status}){said}{next}"))
}

/// The program named by [`set_this_program`], if any.
static THIS_PROGRAM: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Names the program that [`this_program`] gives, where it is not this
/// process's executable: the Python wheel's `chopsticks` script, which the
/// interpreter runs. Only the first call counts.
pub fn set_this_program(program: PathBuf) {
    let _ = THIS_PROGRAM.set(program);
}

/// The program to start as workers by default: this one (the one named by
/// [`set_this_program`], else this process's executable).
pub fn this_program() -> Result<PathBuf, DriverError> {
    match THIS_PROGRAM.get() {
        Some(program) => Ok(program.clone()),
        None => std::env::current_exe().map_err(DriverError::io("finding this program")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines_round_trip() {
        assert_eq!(
            parse_progress(&progress_line(41, 1_685_062)),
            Some((41, 1_685_062))
        );
        assert_eq!(parse_progress("progress 4"), None);
        assert_eq!(parse_progress("progress 4 5 6"), None);
        assert_eq!(parse_progress("warning: progress 4 5"), None);
    }

    #[test]
    fn worker_arguments_name_everything_the_worker_needs() {
        let rules = Ruleset::default();
        let solve = Loopback {
            program: Path::new("chopsticks"),
            workers: 2,
            dir: Path::new("/w.sol.cluster"),
            out: Path::new("/w.sol"),
            explore: true,
            checkpoint_every: None,
        };
        let args: Vec<String> = worker_arguments(&rules, &solve, Path::new("/h"), 1)
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect();
        assert_eq!(
            args.join(" "),
            "cluster worker --quiet --variant standard --hostfile /h --process 1 \
             --exit-with-parent --progress-lines --explore --no-checkpoints --dir /w.sol.cluster"
        );
    }

    #[test]
    fn a_program_that_is_not_a_worker_fails_with_what_it_said() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("w.cluster");
        let out = tmp.path().join("w.sol");
        let solve = Loopback {
            program: Path::new("/bin/sh"),
            workers: 2,
            dir: &dir,
            out: &out,
            explore: false,
            checkpoint_every: None,
        };
        let err = solve_on_loopback(&Ruleset::default(), &solve, &crate::Silent).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("worker process "), "{text}");
        assert!(text.contains("without --save nothing is kept"), "{text}");
        assert!(!out.exists());
    }
}
