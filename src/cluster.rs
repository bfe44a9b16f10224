//! Running the distributed solver (`chopsticks_distributed`) as processes of
//! this binary: `solve --workers N` starts N `cluster worker` processes on
//! loopback and assembles their cells; `cluster worker` runs one process of a
//! solve on any host of a hostfile. Shared by `solve` and `cluster`.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use chopsticks_distributed::{CommunicationConfig, Config, Watch, WorkerConfig, WorkerReport};
use chopsticks_rules::Ruleset;

/// The largest hostfile read: a line per process, far more than any cluster.
const MAX_HOSTFILE: u64 = 1 << 20;

/// The addresses of a hostfile: one `host:port` a line, process `i` on line `i`
/// (blank lines and `#` comments skipped).
pub fn read_hostfile(path: &Path) -> Result<Vec<String>> {
    let bytes = chopsticks_files::read_bounded(path, MAX_HOSTFILE, "a hostfile")
        .context("cannot read the hostfile")?;
    chopsticks_distributed::parse_hostfile(&bytes)
        .map_err(|why| anyhow::anyhow!("the hostfile {}: {why}", path.display()))
}

/// The timely configuration of process `process` of the hostfile's cluster.
pub fn cluster_config(addresses: Vec<String>, process: usize, threads: usize) -> Result<Config> {
    if process >= addresses.len() {
        bail!(
            "--process {process}, but the hostfile lists {} processes (0 to {})",
            addresses.len(),
            addresses.len() - 1
        );
    }
    Ok(Config {
        communication: CommunicationConfig::Cluster {
            threads,
            process,
            addresses,
            report: false,
            zerocopy: false,
        },
        worker: WorkerConfig::default(),
    })
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

/// Solves `rules` with `workers` processes of this binary on loopback, their
/// cells in `dir`, and writes the solution file `out`.
/// With `explore`, the workers then explore from the start and count the
/// outcomes of the positions reached (`WorkerReport::reach`).
/// With `checkpoint_every` the workers write checkpoints (see
/// `chopsticks_distributed::checkpoint`) in `dir`; a solve started again with
/// the same arguments after a lost process resumes from them.
/// `bar` shows the positions the workers have resolved and their level.
pub fn solve_on_loopback(
    rules: &Ruleset,
    workers: usize,
    dir: &Path,
    out: &Path,
    explore: bool,
    checkpoint_every: Option<u64>,
    bar: &indicatif::ProgressBar,
) -> Result<Vec<WorkerReport>> {
    if dir.exists() && !dir.is_dir() {
        bail!(
            "{} (the work directory of the workers) exists and is not a directory: remove it, or save elsewhere",
            dir.display()
        );
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // One solve at a time in a work directory (the lock goes with this process).
    let _lock = chopsticks_solve::parts::lock_work_dir(dir)?;
    // Free ports: bound, noted, released just before the workers bind them.
    let listeners: Vec<TcpListener> = (0..workers)
        .map(|_| TcpListener::bind("127.0.0.1:0"))
        .collect::<std::io::Result<_>>()
        .context("finding free ports on loopback")?;
    let addresses: Vec<String> = listeners
        .iter()
        .map(|l| l.local_addr().map(|a| a.to_string()))
        .collect::<std::io::Result<_>>()?;
    drop(listeners);
    let hostfile = dir.join("hostfile");
    std::fs::write(&hostfile, addresses.join("\n") + "\n")?;
    let exe = std::env::current_exe().context("finding this program")?;
    let mut children = Children(Vec::new());
    for process in 0..workers {
        let child = Command::new(&exe)
            .args([
                "cluster",
                "worker",
                "--quiet",
                "--variant",
                &rules.variant_id(),
            ])
            .arg("--hostfile")
            .arg(&hostfile)
            .args(["--process", &process.to_string()])
            // A worker ends with this process, however this one ends (a
            // signal to it alone, a kill -9): no worker solves on unseen.
            .arg("--exit-with-parent")
            .arg("--progress-lines")
            .args(explore.then_some("--explore"))
            .args(match checkpoint_every {
                Some(s) => vec!["--checkpoint-every".to_string(), s.to_string()],
                None => vec!["--no-checkpoints".to_string()],
            })
            .arg("--dir")
            .arg(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .context("starting a worker process")?;
        children.0.push(child);
    }
    // Each worker's stderr, read as it comes: its progress lines move the
    // bar, its warnings are passed on, the rest is kept to say why it failed.
    let progress = Arc::new(std::sync::Mutex::new(vec![(0u32, 0u64); workers]));
    let readers: Vec<std::thread::JoinHandle<Vec<String>>> = children
        .0
        .iter_mut()
        .enumerate()
        .map(|(k, child)| {
            let stderr = child.stderr.take().expect("piped");
            let (progress, bar) = (Arc::clone(&progress), bar.clone());
            std::thread::spawn(move || {
                let mut kept = Vec::new();
                for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)) {
                    let Ok(line) = line else { break };
                    if let Some(moved) = parse_progress(&line) {
                        let mut all = progress.lock().unwrap_or_else(|e| e.into_inner());
                        all[k] = moved;
                        let level = all.iter().map(|p| p.0).max().unwrap_or(0);
                        bar.set_position(all.iter().map(|p| p.1).sum());
                        bar.set_message(format!(
                            "solving with {workers} workers: level {level}, positions resolved"
                        ));
                    } else if line.starts_with(IGNORED) {
                        bar.suspend(|| eprintln!("{line}"));
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
    // Wait for all; the first failure stops the others.
    let mut done = vec![false; workers];
    while done.iter().any(|d| !d) {
        for (k, child) in children.0.iter_mut().enumerate() {
            if done[k] {
                continue;
            }
            if let Some(status) = child.try_wait()? {
                done[k] = true;
                if !status.success() {
                    // The first to end may only have lost its connection to
                    // the one that failed: give the others a moment to end
                    // too, and name the one that did not end for that.
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
                        .filter(|l| {
                            !l.starts_with("awaiting connections") && !l.contains("retrying")
                        })
                        .collect();
                    let next = match (
                        checkpoint_every,
                        chopsticks_distributed::last_common_level(dir, workers),
                    ) {
                        (Some(_), Some(level)) => format!(
                            "; run the same command again: it resumes from level {level} (every worker's checkpoint, in {})",
                            dir.display()
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
                    bail!("worker process {k} failed ({status}){said}{next}");
                }
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // Every warning passed on before the results.
    for j in 0..workers {
        said_by(j);
    }
    let reports = chopsticks_distributed::assemble(rules, dir, out)?;
    Ok(reports)
}

/// The work directory of a distributed solve saving to `save` (or a temporary
/// one), with the solution file to write.
pub fn dirs_for(rules: &Ruleset, save: Option<&Path>) -> (PathBuf, PathBuf, bool) {
    match save {
        Some(path) => (
            PathBuf::from(format!("{}.cluster", path.display())),
            path.to_path_buf(),
            false,
        ),
        None => {
            let tmp = std::env::temp_dir();
            let id = format!("{}-{}", rules.variant_id(), std::process::id());
            (
                tmp.join(format!("chopsticks-{id}.cluster")),
                tmp.join(format!("chopsticks-{id}.sol")),
                true,
            )
        }
    }
}

/// Runs `f` with the process's standard output sent to standard error (or,
/// `quiet`, to /dev/null): timely prints its connection messages ("awaiting
/// connections") on standard output, where they would mix with results and
/// break `--json`.
pub fn with_stdout_elsewhere<T>(quiet: bool, f: impl FnOnce() -> T) -> T {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let null = if quiet {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/null")
            .ok()
    } else {
        None
    };
    let target = match &null {
        Some(file) => std::os::fd::AsRawFd::as_raw_fd(file),
        None => 2,
    };
    // SAFETY: `dup` and `dup2` only change which open file the process's file
    // descriptor 1 refers to; they touch no Rust memory. Descriptor 1 is not
    // closed at any time (dup2 replaces it atomically), so the `Stdout` handle
    // stays valid; what is written meanwhile goes to `target`, which stays open
    // (`null` lives to the end of this function). The saved descriptor is put
    // back and closed afterwards. A failure of `dup` leaves everything as it was.
    let saved = unsafe { libc::dup(1) };
    if saved < 0 {
        return f();
    }
    unsafe { libc::dup2(target, 1) };
    let result = f();
    let _ = std::io::stdout().flush();
    unsafe {
        libc::dup2(saved, 1);
        libc::close(saved);
    }
    result
}

/// Prints on stderr, as this process's workers find them, the checkpoint
/// files they do not resume from (always: work is lost), and with
/// `progress_lines`, `progress LEVEL RESOLVED` whenever they move on, for the
/// `solve --workers` that started this process.
pub fn report_watch(watch: &Arc<Watch>, progress_lines: bool) {
    let watch = Arc::clone(watch);
    std::thread::spawn(move || {
        let mut said = (0u32, 0u64);
        loop {
            std::thread::sleep(Duration::from_millis(200));
            warn_ignored(&watch);
            let now = progress_of(&watch);
            if progress_lines && now != said {
                eprintln!("{}", progress_line(&watch));
                said = now;
            }
        }
    });
}

/// The start of a progress line of a worker process (`progress LEVEL RESOLVED`).
const PROGRESS: &str = "progress";

/// The level and the positions resolved of this process's workers.
fn progress_of(watch: &Watch) -> (u32, u64) {
    (
        watch.level.load(Ordering::Relaxed),
        watch.resolved.load(Ordering::Relaxed),
    )
}

/// `progress LEVEL RESOLVED`, of this process's workers.
pub fn progress_line(watch: &Watch) -> String {
    let (level, resolved) = progress_of(watch);
    format!("{PROGRESS} {level} {resolved}")
}

/// The level and positions resolved of a worker's progress line.
fn parse_progress(line: &str) -> Option<(u32, u64)> {
    let mut words = line.strip_prefix(PROGRESS)?.split_whitespace();
    let level = words.next()?.parse().ok()?;
    let resolved = words.next()?.parse().ok()?;
    words.next().is_none().then_some((level, resolved))
}

/// Prints the checkpoint files this process's workers found and did not
/// resume from, not printed yet.
pub fn warn_ignored(watch: &Watch) {
    let found: Vec<String> =
        std::mem::take(&mut *watch.ignored.lock().unwrap_or_else(|e| e.into_inner()));
    for line in found {
        eprintln!("{IGNORED} {line}");
    }
}

/// The start of a worker's line about a checkpoint it does not resume from.
const IGNORED: &str = "warning: not resuming from";

/// Refuses a hostfile whose addresses do not resolve (timely would retry them
/// once a second for ever).
pub fn check_addresses(addresses: &[String], hostfile: &Path) -> Result<()> {
    use std::net::ToSocketAddrs;
    for (line, address) in addresses.iter().enumerate() {
        let resolved = address.to_socket_addrs();
        if !resolved.is_ok_and(|mut a| a.next().is_some()) {
            bail!(
                "{}: address {line} `{address}` is not a reachable host:port (it does not resolve)",
                hostfile.display()
            );
        }
    }
    Ok(())
}

/// Turns timely's panic on a lost connection (another worker process ended)
/// into one line and exit status 1, instead of a panic report.
/// `next` says what to run then.
pub fn one_line_on_lost_connection(next: String) {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = crate::panic_message(info);
        if message.contains("timely communication error") || message.contains("poisoned") {
            eprintln!(
                "error: the cluster: lost the connection to another worker process (did it stop?): {message}; {next}"
            );
            std::process::exit(1);
        }
        previous(info);
    }));
}

/// A watchdog: ends the process with an error when `started` is not set within
/// `timeout` (the other processes of the hostfile never all connected), and,
/// with `exit_with_parent`, as soon as the process that started this one ends.
pub fn watch(started: Arc<AtomicBool>, timeout: Duration, exit_with_parent: bool) {
    let parent = std::os::unix::process::parent_id();
    std::thread::spawn(move || {
        let clock = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(100));
            if exit_with_parent && std::os::unix::process::parent_id() != parent {
                eprintln!("error: the process that started this worker ended");
                std::process::exit(1);
            }
            if !started.load(Ordering::Relaxed) && clock.elapsed() > timeout {
                eprintln!(
                    "error: the cluster: the other worker processes were not all connected after {} s (are they started, with the same hostfile?)",
                    timeout.as_secs()
                );
                std::process::exit(1);
            }
            if started.load(Ordering::Relaxed) && !exit_with_parent {
                return;
            }
        }
    });
}
