//! Running the distributed solver (`chopsticks_distributed`) as processes of
//! this binary: `solve --workers N` starts N `cluster worker` processes on
//! loopback and assembles their cells; `cluster worker` runs one process of a
//! solve on any host of a hostfile. Shared by `solve` and `cluster`.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use chopsticks_distributed::{CommunicationConfig, Config, WorkerConfig, WorkerReport};
use chopsticks_rules::Ruleset;

/// The addresses of a hostfile: one `host:port` a line, process `i` on line `i`
/// (blank lines and `#` comments skipped).
pub fn read_hostfile(path: &Path) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the hostfile {}", path.display()))?;
    let addresses: Vec<String> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    if addresses.is_empty() {
        bail!("the hostfile {} lists no address", path.display());
    }
    for a in &addresses {
        if !a.contains(':') {
            bail!("{}: `{a}` is not host:port", path.display());
        }
    }
    Ok(addresses)
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
pub fn solve_on_loopback(
    rules: &Ruleset,
    workers: usize,
    dir: &Path,
    out: &Path,
) -> Result<Vec<WorkerReport>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
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
            .arg("--dir")
            .arg(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .context("starting a worker process")?;
        children.0.push(child);
    }
    // Wait for all; the first failure stops the others.
    let clock = Instant::now();
    let mut done = vec![false; workers];
    while done.iter().any(|d| !d) {
        for (k, child) in children.0.iter_mut().enumerate() {
            if done[k] {
                continue;
            }
            if let Some(status) = child.try_wait()? {
                done[k] = true;
                if !status.success() {
                    let mut err = String::new();
                    if let Some(mut e) = child.stderr.take() {
                        use std::io::Read;
                        let _ = e.read_to_string(&mut err);
                    }
                    bail!("worker process {k} failed ({status}): {}", err.trim());
                }
            }
        }
        let _ = clock;
        std::thread::sleep(Duration::from_millis(5));
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

/// Runs `f` with the process's standard output sent to standard error: timely
/// prints its connection messages ("awaiting connections") on standard
/// output, where they would mix with results and break `--json`.
pub fn with_stdout_on_stderr<T>(f: impl FnOnce() -> T) -> T {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    // SAFETY: `dup` and `dup2` only change which open file the process's file
    // descriptor 1 refers to; they touch no Rust memory. Descriptor 1 is not
    // closed at any time (dup2 replaces it atomically), so the `Stdout` handle
    // stays valid; what is written while it points at stderr goes to stderr.
    // The saved descriptor is put back and closed afterwards. A failure of
    // `dup` leaves everything as it was.
    let saved = unsafe { libc::dup(1) };
    if saved < 0 {
        return f();
    }
    unsafe { libc::dup2(2, 1) };
    let result = f();
    let _ = std::io::stdout().flush();
    unsafe {
        libc::dup2(saved, 1);
        libc::close(saved);
    }
    result
}
