//! How the command line reports an error: a line `error: …` on stderr, or
//! under `--json` one JSON object on stdout, `{"error": {"kind", "message",
//! "status"}}` (docs/JSON.md), with the same exit status either way.
//!
//! The kind says what went wrong, for a script to branch on without reading
//! the message: `usage` (the command line itself: an unknown option, a
//! missing or malformed argument; status 2), `rules` (an impossible ruleset,
//! variant, position, move, notation or game record), `refused` (work refused
//! before it starts, with its estimate: too large for the memory, the disk or
//! the limits), `file` (a file that cannot be read or written, is not what it
//! should be, is damaged or contradicts the rules), `error` (anything else).

use chopsticks_driver::DriverError;
use chopsticks_rules::RulesError;
use chopsticks_solve::SolveError;

/// An error whose every part the output has already given as JSON (the
/// failed lines of `value --file`, each with its own document): said on
/// stderr as any other, but under `--json` no document of its own.
#[derive(Debug)]
pub struct Reported(pub String);

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Reported {}

/// The kind of an error of a command (not a usage error).
pub fn kind(error: &anyhow::Error) -> &'static str {
    for cause in error.chain() {
        if let Some(e) = cause.downcast_ref::<DriverError>() {
            return match e {
                DriverError::Refused(_) => "refused",
                DriverError::Rules(r) => rules_kind(r),
                DriverError::Solve(s) => solve_kind(s),
                DriverError::Io { .. } => "file",
                _ => "error",
            };
        }
        if let Some(e) = cause.downcast_ref::<SolveError>() {
            return solve_kind(e);
        }
        if let Some(e) = cause.downcast_ref::<RulesError>() {
            return rules_kind(e);
        }
        if let Some(e) = cause.downcast_ref::<chopsticks_report::ReportError>() {
            use chopsticks_report::ReportError;
            return match e {
                ReportError::Rules(r) => rules_kind(r),
                ReportError::Solve(s) => solve_kind(s),
                ReportError::TooManyMoves { .. } => "refused",
                _ => "rules",
            };
        }
        if let Some(e) = cause.downcast_ref::<chopsticks_report::value::ValueReportError>() {
            use chopsticks_report::value::ValueReportError;
            return match e {
                ValueReportError::Short(v) | ValueReportError::Loopy(v) => value_kind(v),
                ValueReportError::Players(_) => "rules",
                ValueReportError::Unwritable(_) => "error",
            };
        }
        if let Some(e) = cause.downcast_ref::<chopsticks_values::ValueError>() {
            return value_kind(e);
        }
        if cause.downcast_ref::<std::io::Error>().is_some()
            || cause
                .downcast_ref::<chopsticks_files::WriteError>()
                .is_some()
            || cause
                .downcast_ref::<chopsticks_files::ReadError>()
                .is_some()
        {
            return "file";
        }
    }
    "error"
}

fn rules_kind(e: &RulesError) -> &'static str {
    match e {
        RulesError::TooLarge(_) => "refused",
        _ => "rules",
    }
}

fn value_kind(e: &chopsticks_values::ValueError) -> &'static str {
    use chopsticks_values::ValueError;
    match e {
        ValueError::Rules(r) => rules_kind(r),
        ValueError::TooLarge { .. }
        | ValueError::Estimated { .. }
        | ValueError::Memory { .. }
        | ValueError::Work(_) => "refused",
        _ => "rules",
    }
}

fn solve_kind(e: &SolveError) -> &'static str {
    match e {
        SolveError::Rules(r) => rules_kind(r),
        SolveError::Players(_) | SolveError::NoRemoteness => "rules",
        SolveError::TooManyMoves(_) | SolveError::Remoteness(_) => "refused",
        SolveError::Stopped => "error",
        _ => "file",
    }
}

/// Writes the error document of `kind` and `message` with the exit status
/// `status` on stdout (one line).
pub fn print_json(kind: &str, message: &str, status: i32) {
    use std::io::Write;
    let document = serde_json::json!({
        "error": {"kind": kind, "message": message, "status": status}
    });
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{document}");
    let _ = out.flush();
}

/// Whether the arguments ask for JSON: `--json` as an argument before any
/// `--` (what decides how a usage error is written, when the arguments could
/// not be parsed).
pub fn asks_for_json(args: &[std::ffi::OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| a.as_os_str() != "--")
        .any(|a| a.as_os_str() == "--json")
}

/// Whether the parsed command asked for JSON: its `--json` flag, at any
/// level of subcommands.
pub fn wants_json(matches: &clap::ArgMatches) -> bool {
    let mut m = matches;
    loop {
        if matches!(m.try_get_one::<bool>("json"), Ok(Some(true))) {
            return true;
        }
        match m.subcommand() {
            Some((_, sub)) => m = sub,
            None => return false,
        }
    }
}
