//! `chopsticks value`: the canonical game value and outcome class of positions of
//! Simple Chopsticks (or another loop-free ruleset), of sums of them, and of games
//! written in CGSuite notation; under rules whose play can cycle (rollover,
//! transfers, divisions, …) the loopy value (a stopper, `s & t`, or the sides'
//! graphs) with who wins when each player starts, draws included.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use chopsticks_report::value::{ValueOptions, ValueProgress, ValueReportError};
use chopsticks_rules::{quoted, Ruleset};
use chopsticks_values::{estimate, Limits, Plan, ValueError, MAX_LOOPY_VERTICES};
use clap::Args;
use serde_json::json;

use crate::progress;
use crate::rules_args::{OutputArgs, RulesArgs};
use crate::workload::announce_if_long;

#[derive(Args, Debug)]
#[command(mut_arg("preset", |a| a
    .default_value("simple")
    .help("Named ruleset to start from: simple (the default here: the paper's attack-only \
           rules), standard, rollover, rahman (see `chopsticks rules --list`)")))]
pub struct ValueArgs {
    /// What to evaluate: a position in the paper's notation, `(1|1)_12`,
    /// `(1,1|2)_4`, `(1^3|2)_3` (its `_n` sets the finger count, F = n + 1; its
    /// hand counts are the hands written unless --hands is given), a sum of
    /// positions `(1|1)_12 + (2|5)_40` (team play: each pair of players a
    /// component), a game in CGSuite notation `{0|^[2]}`, or any mix with `+`,
    /// `-`, `+-`, parentheses and braces. `-` alone reads expressions one a line
    /// from standard input, as --file does.
    #[arg(
        allow_hyphen_values = true,
        required_unless_present = "file",
        conflicts_with = "file"
    )]
    expression: Option<String>,
    /// Evaluate the expressions of a file, one a line (a script): each answered in
    /// order, after a line `> EXPRESSION` (with --json, one JSON object a line);
    /// blank lines and lines starting with `//` or `#` are skipped. A line in error
    /// does not stop the others; the exit status is 1 if any failed. `-` reads
    /// standard input.
    #[arg(long, value_name = "FILE", help_heading = "Input")]
    file: Option<PathBuf>,
    #[command(flatten)]
    rules: RulesArgs,
    /// Also print the uptimal form (McKay's `.d1d2…` digits), when there is one.
    #[arg(long, help_heading = "Analysis")]
    uptimal: bool,
    /// Also print the birthday, the Left and Right stops, the mean and the
    /// temperature (from the thermograph).
    #[arg(long, help_heading = "Analysis")]
    details: bool,
    /// Evaluate at most this many positions per component.
    #[arg(long, default_value_t = Limits::DEFAULT.max_positions, help_heading = "Limits")]
    max_positions: u64,
    /// Take at most this many steps of work per component and for the CGSuite
    /// arithmetic (comparisons, sums and canonical forms of games, and positions
    /// remembered; tens of millions of steps take a few seconds). Under rules
    /// whose play can cycle, the whole loopy evaluation (sides, sums, games
    /// written in loopy notation) shares one such budget.
    #[arg(long, default_value_t = Limits::DEFAULT.max_work, help_heading = "Limits")]
    max_work: u64,
    /// Under rules whose play can cycle: at most this many positions in a
    /// component's game graph.
    #[arg(long, default_value_t = MAX_LOOPY_VERTICES, help_heading = "Limits")]
    max_vertices: usize,
    #[command(flatten)]
    output: OutputArgs,
}

/// A value's text, or a note that it is too long to print.
fn shown(text: Option<&str>) -> &str {
    text.unwrap_or("(too long to print: more than 1,048,576 characters)")
}

/// Stack for the evaluation thread. The game engine does not recurse on game
/// trees and the parser's nesting is bounded; this is a comfortable margin.
const STACK_BYTES: usize = 64 << 20;

/// Positions per second of the one-hand evaluator on the reference machine
/// (`(1|1)_10000`, 30 million positions, in 0.3 s), halved for safety.
const ONE_HAND_RATE: f64 = 5e7;

/// Steps of work per second, the slowest seen on the reference machine (multi-hand
/// positions; sums of large games run about twice as fast).
const WORK_RATE: f64 = 1e7;

/// Bytes of memory per step of work, the most seen (about 4; doubled for safety).
const BYTES_PER_STEP: u64 = 8;

pub fn run(args: &ValueArgs) -> Result<()> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("value".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || match (&args.expression, &args.file) {
                (Some(e), _) if e == "-" => batch(args, std::io::stdin().lock(), "standard input"),
                (Some(e), _) => print_reply(args, e),
                (None, Some(path)) if path.as_os_str() == "-" => {
                    batch(args, std::io::stdin().lock(), "standard input")
                }
                (None, Some(path)) => {
                    let file = super::open_input(path)?;
                    batch(
                        args,
                        std::io::BufReader::new(file),
                        &path.display().to_string(),
                    )
                }
                (None, None) => bail!("give an expression, `-` (standard input) or --file FILE"),
            })
            .map_err(|e| anyhow!("cannot start the evaluation thread: {e}"))?
            .join()
            .map_err(|_| anyhow!("the evaluation failed unexpectedly"))?
    })
}

/// What `value` prints for one expression: text, or one JSON object.
enum Reply {
    Text(String),
    Json(serde_json::Value),
}

/// Evaluates one expression and prints its answer.
fn print_reply(args: &ValueArgs, expression: &str) -> Result<()> {
    match reply(args, expression)? {
        Reply::Text(text) => print!("{text}"),
        Reply::Json(v) => super::print_json(&v),
    }
    Ok(())
}

/// The longest line of a batch read (a longer one is an error for that line).
const MAX_LINE_BYTES: usize = 1 << 20;

/// Evaluates the expressions of `input`, one a line (see `--file`), each within
/// the bounds; an error on one line is that line's answer, and the run fails at
/// the end if any line failed.
fn batch(args: &ValueArgs, mut input: impl std::io::BufRead, name: &str) -> Result<()> {
    use std::io::{BufRead, Read, Write};
    // Rules that cannot be built fail every line: say so once.
    two_players(&args.rules.ruleset()?)?;
    let (mut count, mut failed) = (0usize, Vec::new());
    let mut line_number = 0usize;
    let mut bytes = Vec::new();
    let mut first = true;
    loop {
        bytes.clear();
        let read = input
            .by_ref()
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .with_context(|| format!("cannot read {name}"))?;
        if read == 0 {
            break;
        }
        line_number += 1;
        let too_long = bytes.len() > MAX_LINE_BYTES && bytes.last() != Some(&b'\n');
        if too_long {
            // Skip the rest of the line.
            loop {
                let buffer = input
                    .fill_buf()
                    .with_context(|| format!("cannot read {name}"))?;
                if buffer.is_empty() {
                    break;
                }
                match buffer.iter().position(|&b| b == b'\n') {
                    Some(k) => {
                        input.consume(k + 1);
                        break;
                    }
                    None => {
                        let n = buffer.len();
                        input.consume(n);
                    }
                }
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let expression = text.trim();
        if !too_long
            && (expression.is_empty()
                || expression.starts_with("//")
                || expression.starts_with('#'))
        {
            continue;
        }
        count += 1;
        let answer = if too_long {
            Err(anyhow!("line longer than {MAX_LINE_BYTES} bytes"))
        } else if std::str::from_utf8(&bytes).is_err() {
            Err(anyhow!("not UTF-8 text"))
        } else {
            reply(args, expression)
        };
        // Echoed as the errors quote input: control characters and bidirectional
        // overrides escaped (JSON escapes them again its own way).
        let shown: String = if too_long {
            format!(
                "{}…",
                chopsticks_rules::escape_controls(&expression.chars().take(60).collect::<String>())
            )
        } else {
            chopsticks_rules::escape_controls(expression)
        };
        if answer.is_err() {
            failed.push(line_number);
        }
        let mut out = std::io::stdout().lock();
        if args.output.json {
            let mut v = match answer {
                Ok(Reply::Json(v)) => v,
                Ok(Reply::Text(_)) => unreachable!("--json replies in JSON"),
                Err(e) => json!({ "expression": shown, "error": format!("{e:#}") }),
            };
            if let Some(object) = v.as_object_mut() {
                let mut with_line = serde_json::Map::new();
                with_line.insert("script_line".into(), json!(line_number));
                with_line.extend(std::mem::take(object));
                *object = with_line;
            }
            writeln!(out, "{v}").context("cannot write the output")?;
        } else {
            let body = match answer {
                Ok(Reply::Text(t)) => t,
                Ok(Reply::Json(_)) => unreachable!("text replies in text"),
                Err(e) => format!(
                    "Error:    {}\n",
                    chopsticks_rules::escape_controls(&format!("{e:#}"))
                ),
            };
            let gap = if first { "" } else { "\n" };
            write!(out, "{gap}> {shown}\n{body}").context("cannot write the output")?;
        }
        out.flush().context("cannot write the output")?;
        first = false;
    }
    if !failed.is_empty() {
        let lines: Vec<String> = failed.iter().map(usize::to_string).collect();
        // Under --json each failed line has said so in its own document.
        return Err(crate::errors::Reported(format!(
            "{} of {count} expression{} failed (line{} {} of {name})",
            failed.len(),
            if count == 1 { "" } else { "s" },
            if failed.len() == 1 { "" } else { "s" },
            lines.join(", ")
        ))
        .into());
    }
    Ok(())
}

/// The rules, refused at once when they are not a game of two players (a game
/// value is Left's and Right's), whatever the expression (a CGSuite game would
/// otherwise ignore them).
fn two_players(rules: &Ruleset) -> Result<Ruleset> {
    if rules.players() != 2 {
        bail!(
            "game values need exactly 2 players (Left and Right), the ruleset has {}: drop --players",
            rules.players()
        );
    }
    Ok(rules.clone())
}

/// The answer for one expression, with a note for each number written that is
/// also a position of the rules in force.
fn reply(args: &ValueArgs, expression: &str) -> Result<Reply> {
    let base = two_players(&args.rules.ruleset()?)?;
    let answer = match evaluate(args, expression) {
        Ok(answer) => answer,
        Err(e) => match seated_hint(&base, expression) {
            Some(hint) => bail!("{e:#}\n{hint}"),
            None => return Err(e),
        },
    };
    let notes = position_notes(&base, expression);
    if notes.is_empty() {
        return Ok(answer);
    }
    Ok(match answer {
        Reply::Json(mut v) => {
            v["note"] = json!(notes.join(" "));
            Reply::Json(v)
        }
        Reply::Text(t) => {
            let mut out: String = notes.iter().map(|n| format!("Note:     {n}\n")).collect();
            out.push_str(&t);
            Reply::Text(out)
        }
    })
}

/// For the seated ids (`2_1312`, as `query` and `play` write positions) in an
/// expression that `value` cannot read: each in the paper's notation, which it
/// reads (Player 1 is Left; who moves next does not enter a game value).
fn seated_hint(base: &Ruleset, text: &str) -> Option<String> {
    if base.players() != 2 {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut hints = Vec::new();
    let mut k = 0;
    while k < chars.len() {
        // A seated id: digits, `_`, then digits and dashes, not inside a longer
        // word (`(1|1)_4` is the paper's notation: its `_` follows `)`).
        let starts = chars[k].is_ascii_digit()
            && (k == 0 || !(chars[k - 1].is_alphanumeric() || chars[k - 1] == '_'));
        if !starts {
            k += 1;
            continue;
        }
        let mut end = k;
        while end < chars.len() && chars[end].is_ascii_digit() {
            end += 1;
        }
        if end < chars.len() && chars[end] == '_' {
            end += 1;
            while end < chars.len() && (chars[end].is_ascii_digit() || chars[end] == '-') {
                end += 1;
            }
            let id: String = chars[k..end].iter().collect();
            if let Ok(seated) = chopsticks_rules::SeatedPosition::parse(&id, base) {
                let by_seat = chopsticks_rules::Position::new(base, seated.hands_by_seat()).ok()?;
                let paper = by_seat
                    .to_notation(base, chopsticks_rules::Notation::Paper)
                    .ok()?;
                hints.push(format!(
                    "hint: `{id}` is a seated id ({} to move); `value` reads positions in the paper's notation, Player 1's hands (Left) first: `{paper}`",
                    seated.mover()
                ));
            }
        }
        k = end.max(k + 1);
    }
    (!hints.is_empty()).then(|| hints.join("\n"))
}

/// A note for every number written in `text` that is also a position of `base`
/// in compact (`1211`) or dashed (`12-11`) notation, as the other commands read
/// it: `value` reads CGSuite's language, where it is a number (`12-11` is
/// 12 − 11), and says how the position is written. Positions in the paper's
/// notation (`(1|1)_4`) are skipped.
fn position_notes(base: &Ruleset, text: &str) -> Vec<String> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut notes = Vec::new();
    let whole = text.trim();
    if whole.contains(|c: char| c.is_whitespace())
        && whole
            .chars()
            .all(|c| c.is_ascii_digit() || c == '-' || c.is_whitespace())
        && whole.starts_with(|c: char| c.is_ascii_digit())
    {
        // `12 - 11`: the whole text is a dashed position written with spaces.
        if let Some(note) = position_note(base, whole) {
            return vec![note];
        }
    }
    let mut k = 0;
    while k < chars.len() {
        let (at, c) = chars[k];
        // A position in the paper's notation: `(` up to `)` with a `|` inside,
        // then `_n`.
        if c == '(' {
            let close = chars[k + 1..]
                .iter()
                .position(|&(_, d)| d == '(' || d == ')')
                .map(|p| k + 1 + p);
            if let Some(close) = close.filter(|&e| chars[e].1 == ')') {
                let inner = &text[at..chars[close].0];
                if inner.contains('|') && !inner.contains(['{', '}']) {
                    k = close + 1;
                    while k < chars.len() && (chars[k].1 == '_' || chars[k].1.is_ascii_digit()) {
                        k += 1;
                    }
                    continue;
                }
            }
        }
        let before = k.checked_sub(1).map(|b| chars[b].1);
        let starts = c.is_ascii_digit()
            && !before.is_some_and(|b| b.is_alphanumeric() || "/.*^<[#_\u{305}".contains(b));
        if !starts {
            k += 1;
            continue;
        }
        // Digits, then `-digits` groups written without spaces.
        let mut end = k;
        loop {
            while end < chars.len() && chars[end].1.is_ascii_digit() {
                end += 1;
            }
            if end + 1 < chars.len() && chars[end].1 == '-' && chars[end + 1].1.is_ascii_digit() {
                end += 1;
            } else {
                break;
            }
        }
        let after = chars.get(end).map(|a| a.1);
        let stop = chars.get(end).map_or(text.len(), |a| a.0);
        k = end;
        if after.is_some_and(|a| "/._".contains(a)) {
            continue;
        }
        if let Some(note) = position_note(base, &text[at..stop]) {
            notes.push(note);
        }
    }
    notes
}

/// The note for a number or difference of numbers `written` when it is also a
/// position of `base` (see [`position_notes`]).
fn position_note(base: &Ruleset, written: &str) -> Option<String> {
    let position = chopsticks_rules::Position::parse(written, base).ok()?;
    let groups: Vec<&str> = written.split('-').map(str::trim).collect();
    let reading = if groups.len() == 1 {
        format!("the number {written}")
    } else {
        format!("the difference {}", groups.join(" - "))
    };
    let compact: String = written.chars().filter(|c| !c.is_whitespace()).collect();
    let how = if base.players() != 2 {
        format!(
            "it is also a position of these rules, with {} players: game values are for 2",
            base.players()
        )
    } else {
        let paper = position
            .to_notation(base, chopsticks_rules::Notation::Paper)
            .ok()?;
        // The paper's notation writes live hands only, and `value` gives each side
        // the hands written: say so when the rules have more.
        let live = |h: &[u32]| h.iter().filter(|&&v| v != 0).count().max(1);
        let players = position.players();
        let (left, right) = if position.seat() == 0 {
            (&players[0], &players[1])
        } else {
            (&players[1], &players[0])
        };
        let hands = if live(left) != left.len() || live(right) != right.len() {
            if base.hands[0] == base.hands[1] {
                format!(" with --hands {}", base.hands[0])
            } else {
                format!(" with --hands {},{}", base.hands[0], base.hands[1])
            }
        } else {
            String::new()
        };
        format!(
            "the position {compact} is written `{paper}`{hands} (the paper's notation, the \
             player to move as Left)"
        )
    };
    Some(format!(
        "read `{}` as {reading}, as CGSuite does; {how}",
        quoted(written)
    ))
}

/// The answer for one expression (see [`reply`]).
fn evaluate(args: &ValueArgs, expression: &str) -> Result<Reply> {
    let base = args.rules.ruleset()?;
    let limits = Limits {
        max_positions: args.max_positions,
        max_work: args.max_work,
    };
    // Everything is read and checked before any work starts.
    let plan = Plan::new(&base, args.rules.hands.as_deref(), expression)?;
    // A variant id that names the fingers or hands must agree with the positions
    // (which carry their own `_n` and hands), as --fingers must.
    if let Some(id) = &args.rules.variant {
        use chopsticks_report::value::SizeMismatch;
        match chopsticks_report::value::size_mismatch(&plan, &base, id, args.rules.hands.is_some())
        {
            Some(SizeMismatch::Fingers {
                position,
                fingers,
                said,
            }) => bail!(
                "{} has F = {fingers} (n = {}), but --variant {id} says F = {said}; drop one of them",
                quoted(&position),
                fingers - 1,
            ),
            Some(SizeMismatch::Hands {
                position,
                hands,
                said,
            }) => bail!(
                "{} has {hands:?} hands a side, but --variant {id} says {said:?}; give --hands, or \
                 drop the variant's h part",
                quoted(&position),
            ),
            None => {}
        }
    }
    if let Some(f) = args.rules.fingers {
        if let Some(c) = plan.positions.iter().find(|c| c.rules.fingers != f) {
            bail!(
                "{} has F = {} (n = {}), but --fingers says F = {f}; drop one of them",
                quoted(c.text.trim()),
                c.rules.fingers,
                c.rules.fingers - 1
            );
        }
    }
    if limits.max_work > Limits::DEFAULT.max_work {
        announce_if_long(
            &format!("up to {} steps of work (--max-work)", limits.max_work),
            limits.max_work.saturating_mul(BYTES_PER_STEP),
            limits.max_work as f64 / WORK_RATE,
            args.output.quiet,
        );
    }
    for p in &plan.positions {
        if let Some(e) = estimate(&p.rules, &p.position) {
            if e.positions <= limits.max_positions {
                announce_if_long(
                    &format!("{}: about {} positions", quoted(p.text.trim()), e.positions),
                    e.bytes,
                    e.positions as f64 / ONE_HAND_RATE,
                    args.output.quiet,
                );
            }
        }
    }
    let options = ValueOptions {
        limits,
        max_vertices: args.max_vertices,
        uptimal: args.uptimal,
        details: args.details,
    };
    // A progress bar for the short-game evaluation only (the loopy one counts
    // no positions).
    let bar = progress::counter(
        "positions evaluated",
        args.output.quiet || plan.short_expression().is_err(),
    );
    let report = |count: u64| bar.set_position(count);
    let over = || bar.finish_and_clear();
    let document = chopsticks_report::value::value(
        &plan,
        expression,
        &options,
        ValueProgress {
            positions: Some(&report),
            loopy: Some(&over),
        },
    );
    bar.finish_and_clear();
    let document = document.map_err(|e| match e {
        ValueReportError::Short(e) => short_error(e),
        ValueReportError::Loopy(e) => loopy_error(e),
        e => anyhow!(e),
    })?;
    let cyclic = document["components"]
        .as_array()
        .is_some_and(|c| c.iter().any(|c| c.get("cyclic").is_some()));
    let loopy = plan.short_expression().is_err() || cyclic;
    if document.get("holds").is_some() {
        if (args.uptimal || args.details) && !loopy {
            eprintln!("note: --uptimal and --details are for games; this is a comparison");
        }
    } else if args.uptimal && loopy {
        eprintln!("note: --uptimal is for short games; this value is loopy");
    }
    if args.output.json {
        return Ok(Reply::Json(document));
    }
    // The components are listed unless the expression is one position as written.
    let alone = plan.positions.len() == 1 && plan.positions[0].text.trim() == expression.trim();
    Ok(Reply::Text(text_of(&document, alone, args)))
}

/// A limit passed: refused work (`chopsticks_driver::DriverError::Refused`,
/// the kind `refused` under `--json`), its message with the flag that sets it.
fn refused(message: String) -> anyhow::Error {
    chopsticks_driver::DriverError::Refused(message).into()
}

/// A short evaluation's error, with the flag that sets a bound.
fn short_error(e: ValueError) -> anyhow::Error {
    match e {
        ValueError::Work(_) => refused(format!("{e}; --max-work sets the limit")),
        ValueError::Parse { ref error, .. } if error.work_limit.is_some() => {
            refused(format!("{e}; --max-work sets the limit"))
        }
        ValueError::TooLarge { .. } | ValueError::Estimated { .. } => {
            refused(format!("{e}; --max-positions sets the limit"))
        }
        e => anyhow!(e),
    }
}

/// A loopy evaluation's error, with the flag that sets a bound.
fn loopy_error(e: ValueError) -> anyhow::Error {
    match e {
        ValueError::TooLarge { .. } => refused(format!("{e}; --max-vertices sets the limit")),
        ValueError::Loopy(chopsticks_loopy::LoopyError::Work { .. }) => refused(format!(
            "{e}: this value is too large to compute within the limit; --max-work sets it"
        )),
        e => anyhow!(e),
    }
}

/// The text of a value's document (`chopsticks_report::value`), for people.
fn text_of(d: &serde_json::Value, alone: bool, args: &ValueArgs) -> String {
    let text = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
    let mut out = String::new();
    let components = d["components"].as_array().cloned().unwrap_or_default();
    let loopy = d.get("kind").is_some() || components.iter().any(|c| c.get("cyclic").is_some());
    // A loopy comparison: each position with its value, then the answer.
    if let (Some(holds), true) = (d.get("holds"), loopy) {
        for c in &components {
            let _ = writeln!(out, "{} = {}", text(&c["position"]), text(&c["value"]));
        }
        let _ = writeln!(out, "Answer:   {holds}");
        return out;
    }
    // Each component on a line, unless the expression is that one position.
    if components.len() > 1 || (components.len() == 1 && !alone) {
        for c in &components {
            let _ = writeln!(
                out,
                "{} = {}  ({}, {}; {})",
                text(&c["position"]),
                shown(c["value"].as_str()),
                text(&c["outcome"]),
                text(&c["outcome_words"]),
                text(&c["description"])
            );
        }
    } else if let Some(c) = components.first() {
        let _ = writeln!(out, "Rules:    {}", text(&c["description"]));
        if loopy && d.get("relation").is_none() {
            let _ = writeln!(
                out,
                "Graph:    {} positions reachable{}",
                c["positions"],
                if c["cyclic"] == true {
                    ", play can cycle"
                } else {
                    ""
                }
            );
        }
    }
    if let Some(holds) = d.get("holds") {
        let _ = writeln!(out, "Answer:   {holds}");
        return out;
    }
    let _ = writeln!(out, "Value:    {}", shown(d["value"].as_str()));
    if let Some(kind) = d.get("kind") {
        let _ = writeln!(out, "Kind:     {}", text(kind));
    }
    if let Some(outcome) = d["outcome"].as_str() {
        let _ = writeln!(out, "Outcome:  {outcome} ({})", text(&d["outcome_words"]));
    }
    if args.details {
        if loopy {
            let pair = |v: Option<&serde_json::Value>| match v.and_then(|v| v.as_array()) {
                Some(p) if p.len() == 2 => {
                    format!("{} (Left), {} (Right)", text(&p[0]), text(&p[1]))
                }
                _ => "not a stopper: no stops".to_string(),
            };
            if d["stopper"] == true {
                let stops = d
                    .get("left_stop")
                    .map(|l| serde_json::json!([l, d["right_stop"]]));
                let _ = writeln!(out, "Stops:    {}", pair(stops.as_ref()));
            } else {
                let _ = writeln!(
                    out,
                    "Stops:    onside {}; offside {}",
                    pair(d.get("onside_stops")),
                    pair(d.get("offside_stops"))
                );
            }
        } else if d.get("birthday").is_some() {
            let _ = writeln!(
                out,
                "Birthday: {}",
                d["birthday"].to_string().trim_matches('"')
            );
            let _ = writeln!(
                out,
                "Stops:    {} (Left), {} (Right)",
                text(&d["left_stop"]),
                text(&d["right_stop"])
            );
            let _ = writeln!(out, "Mean:     {}", text(&d["mean"]));
            let _ = writeln!(out, "Temperature: {}", text(&d["temperature"]));
        }
    }
    if args.uptimal && !loopy {
        let _ = match (d.get("uptimal"), d.get("uptimal_note")) {
            (_, Some(note)) => writeln!(out, "Uptimal:  {}", text(note)),
            (Some(u), _) if u.is_string() => writeln!(out, "Uptimal:  {}", text(u)),
            _ => writeln!(out, "Uptimal:  not an uptimal"),
        };
    }
    out
}
