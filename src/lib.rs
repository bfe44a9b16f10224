//! `chopsticks`: solve and analyse the hand game Chopsticks in all its
//! generalisations. The command line only parses options and formats results; the
//! work is done by the library crates (see ARCHITECTURE.md).
//!
//! It is a library of its own ([`run`]) beside its binary (`src/main.rs`, which
//! only calls it) so that the Python wheel carries the same command line: the
//! wheel's `chopsticks` script calls [`run`] through the package's native module,
//! naming itself as the program that worker processes start ([`run_as`]).

/// `eprintln!` that ignores a failure to write: an unwritable standard error
/// (`2>/dev/full`, a closed terminal) must not turn a message into a panic (exit
/// 101); the exit status still says what happened. Shadows the standard macro in
/// every module of the binary.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod bench;
mod cluster;
mod commands;
mod errors;
mod interrupt;
mod memory;
mod progress;
mod rules_args;
mod text;
mod workload;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// The version `--version` prints: the package's, and the commit it was built
/// from where the build could ask git (`build.rs`).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("CHOPSTICKS_COMMIT"),
    ")"
);

#[derive(Parser, Debug)]
#[command(
    name = "chopsticks",
    version = VERSION,
    about = "Solve and analyse the hand game Chopsticks in all its generalisations",
    long_about = None
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve every position of a variant: win, loss or draw with remoteness (with
    /// three or more players, every player's value against all the others, or the
    /// mover's team's), in memory, out of core or on workers; summary of the
    /// reachable positions and the start; `--save` keeps it in a file.
    Solve(commands::solve::SolveArgs),
    /// The value of a position and of every move from it, best first.
    Query(commands::query::QueryArgs),
    /// Play against the perfect computer (reads moves from standard input).
    Play(commands::play::PlayArgs),
    /// Review a recorded game: every move's value before and after, its
    /// mistakes with the best moves and the lines that refute them, and each
    /// player's accuracy.
    Review(commands::review::ReviewArgs),
    /// Puzzles: positions reachable from the start where at most half of the
    /// moves win (or keep the draw), played to the end against the solver,
    /// graded by what makes their moves hard to find, chosen by a seed.
    Puzzles(commands::puzzles::PuzzlesArgs),
    /// A winning strategy to remember, or the positions to avoid in a drawn variant.
    Strategy(commands::strategy::StrategyArgs),
    /// Solve a family of variants (ranges of F and of hands) and tabulate who wins.
    Survey(commands::survey::SurveyArgs),
    /// Measure a variant's state space: raw, distinct, reachable and finished
    /// positions, shortest game, eccentricity, branching.
    Stats(commands::stats::StatsArgs),
    /// List the legal moves of a position and where they lead.
    Moves(commands::moves::MovesArgs),
    /// Every position of a solved variant, one line each (JSON lines or CSV), for
    /// other tools.
    Export(commands::export::ExportArgs),
    /// Show a ruleset (or list the presets with --list).
    Rules(commands::rules::RulesCommandArgs),
    /// Benchmarks: exploring, solving, the whole `solve`, exporting, queries, the
    /// server under load, learning, the outcome atlas and loopy values, with peak
    /// memory.
    Bench(bench::BenchArgs),
    /// The canonical game value and outcome of Simple Chopsticks positions, of
    /// sums of them, and of games in CGSuite notation; loopy values under rules
    /// whose play can cycle.
    ///
    /// Under rules whose play can cycle (--rollover, --transfer, --divide,
    /// --even-divide, --suicide, --self-attack, or a preset with them) the value is
    /// a loopy game: a stopper (`over`, `^[on]`), a stopper-sided value
    /// `onside & offside`, or the sides' graphs when the bounded search did not
    /// reduce a side to a stopper. Loopy games can be written in CGSuite's notation
    /// too: `on`, `off`, `over`, `under`, `dud`, `upon`, `pass`, labels `a{0|a}`,
    /// `^[on]`, `^<on>`, `5over`, `Tiny(on)`, `Miny(over)`, `s & t`. Outcome codes
    /// with draws: L, R, N, P as usual; D: a draw whoever starts; N^: Left wins if
    /// she starts, a draw if Right starts; P^: a draw if Left starts, Left wins if
    /// Right starts; Nv: a draw if Left starts, Right wins if he starts; Pv: Right
    /// wins if Left starts, a draw if Right starts.
    Value(commands::value::ValueArgs),
    /// The paper's tables: values with one hand each (one-hand: Table 2; grid: Table 1),
    /// the outcome of every position with many hands (outcomes), and loopy values
    /// with two hands a side (two-hands).
    Table(commands::table::TableArgs),
    /// Serve the page (play, review, puzzles, values) and its JSON API
    /// (GamesmanUni-shaped) on a local port, from solutions in memory or saved.
    Serve(commands::serve::ServeArgs),
    /// Check by exhaustion within bounds the paper's statements (Theorems 3 and 4,
    /// Lemma 1, Propositions 1–4, the conjecture on ±J) and this project's (the
    /// closed forms for n = 3 and 4, the conjectures for every n, Table 1's closed
    /// forms and Conjecture 5).
    Verify(commands::verify::VerifyArgs),
    /// Check a saved solution file against the rules, every position: what proves
    /// a file from elsewhere right (a valid checksum proves only that it was not
    /// damaged by accident).
    Check(commands::check::CheckArgs),
    /// The distributed solver across hosts: one worker process per host of a
    /// hostfile, then the solution file assembled (`solve --workers N` does both
    /// on this machine).
    Cluster(commands::cluster::ClusterArgs),
    /// Print a shell completion script: `chopsticks completions bash >
    /// /etc/bash_completion.d/chopsticks` (bash, zsh, fish, powershell, elvish).
    Completions(commands::docs::CompletionsArgs),
    /// Print the manual page (roff; `chopsticks man | man -l -`), or a command's
    /// (`chopsticks man solve`).
    Man(commands::docs::ManArgs),
}

/// The text a panic was raised with (empty when it is not text).
pub fn panic_message<'a>(info: &'a std::panic::PanicHookInfo<'_>) -> &'a str {
    info.payload()
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| info.payload().downcast_ref::<&str>().copied())
        .unwrap_or("")
}

/// Options whose value is optional, with the words that are their values.
const OPTIONAL_VALUES: [(&str, &[&str]); 1] = [("--pass-splits", &["live", "any"])];

/// `--pass-splits live` as `--pass-splits=live`. An option whose value is optional
/// takes a value only after `=` (so that `--pass-splits 1111` leaves the position
/// alone); a following word that can only be its value is joined to it here, as a
/// user expects of `--option value`.
fn join_option_values(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Vec<std::ffi::OsString> {
    let mut out: Vec<std::ffi::OsString> = Vec::new();
    let mut args = args.into_iter().peekable();
    while let Some(arg) = args.next() {
        if arg == "--" {
            out.push(arg);
            out.extend(args);
            break;
        }
        let joined = OPTIONAL_VALUES.iter().find_map(|(option, values)| {
            let next = args.peek()?.to_str()?;
            (arg == *option && values.contains(&next)).then(|| format!("{option}={next}"))
        });
        match joined {
            Some(j) => {
                args.next();
                out.push(j.into());
            }
            None => out.push(arg),
        }
    }
    out
}

/// Ends the process quietly when stdout is a closed pipe (`chopsticks … | head`),
/// as command-line tools do, instead of reporting `println!`'s panic; any other
/// failure to write stdout (a full disk) is one line of error and status 1.
fn exit_quietly_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = panic_message(info);
        if message.contains("Broken pipe") {
            // 128 + SIGPIPE, the status of a process killed by a closed pipe.
            std::process::exit(141);
        }
        // Any other failure to write the results (a full disk, `> /dev/full`):
        // one line and a failure status, not a panic report.
        if let Some(cause) = message.strip_prefix("failed printing to stdout: ") {
            eprintln!("error: cannot write the output (standard output): {cause}");
            std::process::exit(1);
        }
        default(info);
    }));
}

/// Large blocks (1 MiB and more: a part's cells, a table's slice) are mapped
/// for themselves and given back to the system when freed. glibc otherwise
/// raises its threshold for that to the size of the last such block freed (up
/// to 32 MiB), and a solve out of core, which frees and allocates a part at a
/// time, then kept the freed parts' memory on its heap: 64 MiB resident under
/// `--memory 56M` (docs/PERFORMANCE.md). Setting the threshold keeps it fixed.
fn return_large_blocks_at_once() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` changes a parameter of glibc's allocator; it is
    // called here, at the start of the command line, before any thread of
    // this program allocates, and `M_MMAP_THRESHOLD` with a value within
    // glibc's bounds (at most 32 MiB on 64 bits) is always accepted (a refusal
    // returns 0 and changes nothing).
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Whether an error comes from writing to a closed pipe.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Ctrl-C, `kill` or a closed terminal clean up before the process ends (see
/// [`interrupt`]).
fn remove_temporary_files_on_interrupt() {
    if let Err(e) = interrupt::clean_up_on_interrupt() {
        eprintln!(
            "warning: cannot watch for Ctrl-C ({e}); an interrupted write may leave a temporary file"
        );
    }
}

/// Prints what clap answers instead of a command (help, the version, a usage
/// error) and exits with its status; help or a version that cannot be written
/// (`--help > /dev/full`) is an error, not a success.
/// A usage error's message without clap's `error: ` and its advice on
/// `--help`: what is wrong, then the usage line.
fn usage_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let text = text.trim_end();
    let text = text.strip_prefix("error: ").unwrap_or(text);
    text.lines()
        .filter(|l| !l.starts_with("For more information, try"))
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_string()
}

fn exit_with_usage(e: clap::Error) -> ! {
    use std::io::Write;
    let printed = e.print().and_then(|()| std::io::stdout().flush());
    match printed {
        Ok(()) => std::process::exit(e.exit_code()),
        Err(io) if io.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(141),
        // A usage error that cannot be shown keeps its status.
        Err(_) if e.use_stderr() => std::process::exit(e.exit_code()),
        Err(io) => {
            eprintln!("error: cannot write the output (standard output): {io}");
            std::process::exit(1);
        }
    }
}

/// Runs the command line on `args` (the program's name first, as
/// `std::env::args_os` gives them) as `program`: the path worker processes are
/// started from (`solve --workers`, the benchmarks), where that is not this
/// process's executable (the Python wheel's script, run by the interpreter).
/// Never returns: the process ends with the command's exit status.
pub fn run_as(
    program: std::path::PathBuf,
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> ! {
    chopsticks_driver::loopback::set_this_program(program);
    run(args)
}

/// Runs the command line on `args` (the program's name first, as
/// `std::env::args_os` gives them). Never returns: the process ends with the
/// command's exit status (0, 1 for an error, 2 for a usage error, 141 for a
/// closed pipe).
pub fn run(args: impl IntoIterator<Item = std::ffi::OsString>) -> ! {
    return_large_blocks_at_once();
    exit_quietly_on_broken_pipe();
    let args = join_option_values(args);
    let parsed = Cli::command()
        .try_get_matches_from(&args)
        .and_then(|m| Ok((Cli::from_arg_matches(&m)?, errors::wants_json(&m))));
    let (cli, json) = match parsed {
        Ok(parsed) => parsed,
        // Help and the version are answers, not errors: as they are.
        Err(e) if errors::asks_for_json(&args) && e.use_stderr() => {
            errors::print_json("usage", &usage_message(&e), e.exit_code());
            std::process::exit(e.exit_code())
        }
        Err(e) => exit_with_usage(e),
    };
    if !matches!(cli.command, Command::Serve(_)) {
        remove_temporary_files_on_interrupt();
    }
    let result = match cli.command {
        Command::Solve(args) => commands::solve::run(&args),
        Command::Query(args) => commands::query::run(&args),
        Command::Play(args) => commands::play::run(&args),
        Command::Strategy(args) => commands::strategy::run(&args),
        Command::Review(args) => commands::review::run(&args),
        Command::Puzzles(args) => commands::puzzles::run(&args),
        Command::Survey(args) => commands::survey::run(&args),
        Command::Stats(args) => commands::stats::run(&args),
        Command::Moves(args) => commands::moves::run(&args),
        Command::Export(args) => commands::export::run(&args),
        Command::Rules(args) => commands::rules::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Value(args) => commands::value::run(&args),
        Command::Table(args) => commands::table::run(&args),
        Command::Serve(args) => commands::serve::run(&args),
        Command::Verify(args) => commands::verify::run(&args),
        Command::Check(args) => commands::check::run(&args),
        Command::Cluster(args) => commands::cluster::run(&args),
        Command::Completions(args) => commands::docs::completions(&args, Cli::command()),
        Command::Man(args) => commands::docs::man(&args, Cli::command()),
    };
    // An interrupt under way removes the work's files, and the work may fail
    // for want of them: the interrupt's handler ends the process, with the
    // signal's status, once its clean-up is done; nothing else is said.
    if chopsticks_files::interrupted() {
        loop {
            std::thread::park();
        }
    }
    if let Err(error) = result {
        if is_broken_pipe(&error) {
            // The reader went away (`chopsticks play … | head`): nothing to report.
            std::process::exit(141);
        }
        // Whatever the message quotes, it never drives the terminal: control
        // characters are escaped (line breaks of multi-line messages kept).
        let message = format!("{error:#}");
        let shown: String = message
            .split('\n')
            .map(chopsticks_rules::escape_controls)
            .collect::<Vec<_>>()
            .join("\n");
        if json {
            if error.downcast_ref::<errors::Reported>().is_none() {
                errors::print_json(errors::kind(&error), &shown, 1);
            }
        } else {
            eprintln!("error: {shown}");
        }
        std::process::exit(1);
    }
    std::process::exit(0)
}
