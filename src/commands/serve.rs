//! `chopsticks serve`: the page and the web API on a local port.

use anyhow::{Context, Result};
use clap::Args;

use crate::memory::human_bytes;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (127.0.0.1: this machine only; 0.0.0.0: every network).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port to listen on (0: any free port; the URL printed names it).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Memory for cached solutions and the documents computed from them
    /// (strategies, puzzles), as `solve --memory` takes it: 512M, 2G, 1.5GiB.
    /// Default: three quarters of the memory available, as for every command
    /// (docs/RELIABILITY.md), asked when the server starts.
    #[arg(long, value_name = "SIZE", value_parser = budget)]
    memory: Option<u64>,
    /// Serve a saved solution (written by `solve --save`) for its variant instead
    /// of solving it; repeat for several, one per variant. Version 3 files are
    /// read a block at a time, so a file larger than memory is served without
    /// loading it.
    #[arg(long, value_name = "FILE")]
    db: Vec<std::path::PathBuf>,
    /// Check every position of each --db file against the rules before serving
    /// (with progress), instead of checking the optimal lines of each position
    /// asked for: slower to start, then every answer is read straight from the
    /// table.
    #[arg(long, requires = "db")]
    check: bool,
    /// No progress on stderr (for --check).
    #[arg(long, short)]
    quiet: bool,
    /// Seconds a client has to send a request's head (request line and headers)
    /// once the server waits for it; then the connection is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout: u64,
    /// Seconds a connection may stay open with no traffic and no request being
    /// answered (an idle keep-alive connection); then it is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86400))]
    idle_timeout: u64,
    /// Seconds a request is answered within: one waiting longer for a solve or
    /// another computation is answered 503, saying what is being computed and
    /// when to ask again (the computation goes on, and is kept).
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    request_timeout: u64,
    /// Connections served at once; more are answered 503 and closed (default: the
    /// descriptor limit, raised to its hard maximum, less 64 for everything else,
    /// and at most 16384).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections: Option<u64>,
}

/// Raises the soft limit on open descriptors to the hard one; returns the soft
/// limit in force afterwards.
fn raise_descriptor_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the one rlimit struct we pass,
    // which lives on this stack frame for the duration of each call.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit.rlim_cur = limit.rlim_max;
            }
        }
    }
    limit.rlim_cur
}

/// The smallest budget: one variant of Chopsticks needs more than this.
const MIN_BUDGET: u64 = 1 << 20;

/// A `--memory` size, at least [`MIN_BUDGET`].
fn budget(text: &str) -> Result<u64, String> {
    let bytes = crate::memory::parse_size(text)?;
    if bytes < MIN_BUDGET {
        let hint = if text.trim().bytes().all(|b| b.is_ascii_digit()) {
            format!(" (a number alone is bytes: did you mean {}M?)", text.trim())
        } else {
            String::new()
        };
        return Err(format!(
            "{bytes} bytes is too little for cached solutions: give at least 1M{hint}"
        ));
    }
    Ok(bytes)
}

pub fn run(args: &ServeArgs) -> Result<()> {
    // Before any parallel loop (a saved table's check below): the solver's
    // threads then run below the threads that answer requests.
    chopsticks_server::background::init();
    let budget = args.memory.unwrap_or_else(crate::memory::default_budget);
    let descriptors = raise_descriptor_limit();
    let max_connections = args
        .max_connections
        .unwrap_or_else(|| descriptors.saturating_sub(64).clamp(1, 16384));
    if max_connections + 16 > descriptors {
        anyhow::bail!(
            "--max-connections {max_connections} leaves too few of the {descriptors} descriptors this process may open (keep it at most {})",
            descriptors.saturating_sub(16).max(1)
        );
    }
    let limits = chopsticks_server::Limits {
        header_timeout: std::time::Duration::from_secs(args.header_timeout),
        idle_timeout: std::time::Duration::from_secs(args.idle_timeout),
        max_connections: max_connections as usize,
    };
    let mut state = chopsticks_server::state(budget);
    state.time_limit = std::time::Duration::from_secs(args.request_timeout);
    let mut saved = Vec::new();
    let mut served: std::collections::HashMap<String, &std::path::Path> = Default::default();
    for path in &args.db {
        let solution = chopsticks_solve::file::open(path)?;
        let id = state
            .cache
            .add_saved(solution, path)
            .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.message))?;
        if let Some(first) = served.insert(id.clone(), path) {
            anyhow::bail!(
                "{} and {} are both solutions of {id}: give one --db per variant",
                first.display(),
                path.display()
            );
        }
        if args.check {
            let bar = crate::progress::bar(
                state.cache.saved_count(&id),
                &format!("checking {} against the rules", path.display()),
                args.quiet,
            );
            let checked = state.cache.check_saved(&id, &|done| bar.set_position(done));
            bar.finish_and_clear();
            checked.map_err(|e| anyhow::anyhow!("{}", e.message))?;
        }
        saved.push(format!("{id} from {}", path.display()));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the server's runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
            .await
            .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
        let address = listener.local_addr()?;
        println!("Serving chopsticks on http://{address}/ (open it in a browser; the API is under /api/v1/)");
        println!(
            "Cached solutions may use up to {}. Ctrl-C stops the server.",
            human_bytes(budget)
        );
        for line in &saved {
            println!("Saved solution: {line}");
        }
        println!(
            "Connections: at most {}; {} s to send a request's head, closed after {} s idle; requests answered within {} s.",
            limits.max_connections,
            limits.header_timeout.as_secs(),
            limits.idle_timeout.as_secs(),
            args.request_timeout
        );
        use std::io::Write;
        std::io::stdout().flush()?;
        let shutdown = async {
            // Ctrl-C, or SIGTERM (a service manager's stop).
            let mut terminate =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = async {
                    match terminate.as_mut() {
                        Some(t) => { t.recv().await; }
                        None => std::future::pending::<()>().await,
                    }
                } => {}
            }
        };
        chopsticks_server::serve_within(listener, state, limits, shutdown)
            .await
            .context("serving")?;
        Ok::<(), anyhow::Error>(())
    })?;
    // Work still under way (a solve, a strategy nobody waits for any more) is
    // not waited for: the threads end with the process.
    runtime.shutdown_background();
    println!("Stopped.");
    Ok(())
}
