//! The worker side of the distributed solver (`chopsticks_distributed`):
//! `cluster worker` runs one process of a solve on any host of a hostfile, or
//! as one of the processes `solve --workers N` starts on loopback
//! (`chopsticks_driver::loopback`, which also holds the protocol between the
//! two).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use chopsticks_distributed::{CommunicationConfig, Config, Watch, WorkerConfig};

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
        let listed = match addresses.len() {
            0 => "no process".to_string(),
            1 => "1 process (process 0 only)".to_string(),
            n => format!("{n} processes (0 to {})", n - 1),
        };
        bail!("--process {process}, but the hostfile lists {listed}");
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
    chopsticks_driver::loopback::progress_line(level, resolved)
}

/// Prints the checkpoint files this process's workers found and did not
/// resume from, not printed yet.
pub fn warn_ignored(watch: &Watch) {
    let found: Vec<String> =
        std::mem::take(&mut *watch.ignored.lock().unwrap_or_else(|e| e.into_inner()));
    for line in found {
        eprintln!("{} {line}", chopsticks_driver::loopback::IGNORED);
    }
}

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
