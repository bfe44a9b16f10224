//! `chopsticks value`: the canonical game value and outcome class of positions of
//! Simple Chopsticks (or another loop-free ruleset), of sums of them, and of games
//! written in CGSuite notation; under rules whose play can cycle (rollover,
//! transfers, divisions, …) the loopy value (a stopper, `s & t`, or the sides'
//! graphs) with who wins when each player starts, draws included.

use anyhow::{anyhow, bail, Result};
use chopsticks_cgt::{Answer, GameStore, Outcome};
use chopsticks_rules::quoted;
use chopsticks_values::{estimate, Limits, LoopyEvaluation, Plan, ValueError, MAX_LOOPY_VERTICES};
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
    /// `-`, `+-`, parentheses and braces.
    #[arg(allow_hyphen_values = true)]
    expression: String,
    #[command(flatten)]
    rules: RulesArgs,
    /// Also print the uptimal form (McKay's `.d1d2…` digits), when there is one.
    #[arg(long)]
    uptimal: bool,
    /// Also print the birthday, the Left and Right stops, the mean and the
    /// temperature (from the thermograph).
    #[arg(long)]
    details: bool,
    /// Evaluate at most this many positions per component.
    #[arg(long, default_value_t = Limits::DEFAULT.max_positions)]
    max_positions: u64,
    /// Take at most this many steps of work per component and for the CGSuite
    /// arithmetic (comparisons, sums and canonical forms of games, and positions
    /// remembered; tens of millions of steps take a few seconds). Under rules
    /// whose play can cycle, the whole loopy evaluation (sides, sums, games
    /// written in loopy notation) shares one such budget.
    #[arg(long, default_value_t = Limits::DEFAULT.max_work)]
    max_work: u64,
    /// Under rules whose play can cycle: at most this many positions in a
    /// component's game graph.
    #[arg(long, default_value_t = MAX_LOOPY_VERTICES)]
    max_vertices: usize,
    #[command(flatten)]
    output: OutputArgs,
}

/// The longest value printed; longer ones (sums of many switches print
/// exponentially long) are reported as too large, and as `null` in JSON.
const MAX_PRINTED: u64 = 1 << 20;

/// A value's text, or a note that it is too long to print.
fn shown(text: &Option<String>) -> &str {
    text.as_deref()
        .unwrap_or("(too long to print: more than 1,048,576 characters)")
}

/// The `--details` figures of a value.
struct Details {
    birthday: num_bigint::BigInt,
    left_stop: String,
    right_stop: String,
    mean: String,
    temperature: String,
}

/// The outcome class in words.
pub fn outcome_words(o: Outcome) -> &'static str {
    match o {
        Outcome::L => "Left wins",
        Outcome::R => "Right wins",
        Outcome::N => "first player wins",
        Outcome::P => "second player wins",
    }
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
            .spawn_scoped(scope, || evaluate_and_print(args))
            .map_err(|e| anyhow!("cannot start the evaluation thread: {e}"))?
            .join()
            .map_err(|_| anyhow!("the evaluation failed unexpectedly"))?
    })
}

fn evaluate_and_print(args: &ValueArgs) -> Result<()> {
    let base = args.rules.ruleset()?;
    let mut store = GameStore::new();
    let limits = Limits {
        max_positions: args.max_positions,
        max_work: args.max_work,
    };
    // Everything is read and checked before any work starts.
    let plan = Plan::new(&base, args.rules.hands.as_deref(), &args.expression)?;
    // A variant id that names the fingers or hands must agree with the positions
    // (which carry their own `_n` and hands), as --fingers must.
    if let Some(id) = &args.rules.variant {
        let part = |c: char| {
            id.split('.').any(|p| {
                p.strip_prefix(c)
                    .is_some_and(|rest| rest.starts_with(|d: char| d.is_ascii_digit()))
            })
        };
        if part('f') {
            if let Some(c) = plan
                .positions
                .iter()
                .find(|c| c.rules.fingers != base.fingers)
            {
                bail!(
                    "{} has F = {} (n = {}), but --variant {id} says F = {}; drop one of them",
                    quoted(c.text.trim()),
                    c.rules.fingers,
                    c.rules.fingers - 1,
                    base.fingers
                );
            }
        }
        if part('h') && args.rules.hands.is_none() {
            if let Some(c) = plan.positions.iter().find(|c| c.rules.hands != base.hands) {
                bail!(
                    "{} has {:?} hands a side, but --variant {id} says {:?}; give --hands, or \
                     drop the variant's h part",
                    quoted(c.text.trim()),
                    c.rules.hands,
                    base.hands
                );
            }
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
    // The loopy value, within the same work limit.
    let loopy = || -> Result<()> {
        let e = chopsticks_loopy::with_work_limit(limits.max_work, || {
            plan.evaluate_loopy(args.max_vertices)
        })
        .map_err(loopy_error)?;
        print_loopy(args, &e)
    };
    // Loopy games written in CGSuite notation (`over`, `{pass|*}`) are not short
    // games: the loopy engine reads them.
    if plan.short_expression().is_err() {
        return loopy();
    }
    let bar = progress::counter("positions evaluated", args.output.quiet);
    let report = |count: u64| bar.set_position(count);
    let evaluation = plan.evaluate_answer(&mut store, limits, Some(&report));
    bar.finish_and_clear();
    if let Err(ValueError::Loop { .. }) = evaluation {
        // Play can cycle: the value is a loopy game.
        return loopy();
    }
    let (components, answer) = evaluation.map_err(|e| match e {
        ValueError::Work(_) => anyhow!("{e}; --max-work sets the limit"),
        ValueError::Parse { ref error, .. } if error.work_limit.is_some() => {
            anyhow!("{e}; --max-work sets the limit")
        }
        ValueError::TooLarge { .. } | ValueError::Estimated { .. } => {
            anyhow!("{e}; --max-positions sets the limit")
        }
        e => anyhow!(e),
    })?;
    let mut shown_components = Vec::new();
    for c in &components {
        shown_components.push((
            c,
            store.format_within(c.value, MAX_PRINTED),
            store.outcome(c.value),
            c.position.paper(c.rules.fingers),
        ));
    }
    let components_json = || {
        shown_components
            .iter()
            .map(|(c, v, o, p)| {
                json!({
                    "position": p,
                    "n": c.rules.fingers - 1,
                    "fingers": c.rules.fingers,
                    "hands": c.rules.hands,
                    "ruleset": c.rules.describe(),
                    "value": v,
                    "outcome": o.to_string(),
                    "left_first": first_winners(*o).0,
                    "right_first": first_winners(*o).1,
                    "stopper": true,
                    "stopper_sided": true,
                })
            })
            .collect::<Vec<_>>()
    };
    let print_components = || {
        if shown_components.len() > 1
            || (shown_components.len() == 1
                && shown_components[0].0.text.trim() != args.expression.trim())
        {
            for (c, v, o, p) in &shown_components {
                println!(
                    "{p} = {}  ({o}, {}; {})",
                    shown(v),
                    outcome_words(*o),
                    c.rules.describe()
                );
            }
        } else if let Some((c, _, _, _)) = shown_components.first() {
            println!("Rules:    {}", c.rules.describe());
        }
    };
    let g = match answer {
        Answer::Truth(holds) => {
            let relation = plan
                .short_expression()
                .ok()
                .and_then(|e| e.relation())
                .map_or("", |r| r.symbol());
            if args.uptimal || args.details {
                eprintln!("note: --uptimal and --details are for games; this is a comparison");
            }
            if args.output.json {
                super::print_json(&json!({
                    "expression": args.expression,
                    "relation": relation,
                    "holds": holds,
                    "components": components_json(),
                }));
                return Ok(());
            }
            print_components();
            println!("Answer:   {holds}");
            return Ok(());
        }
        Answer::Game(g) => g,
    };
    let value = store.format_value_within(&g, MAX_PRINTED);
    let outcome = store.value_outcome(&g).ok_or_else(|| {
        anyhow!("the outcome cannot be decided: the value's numbers are too large for the engine")
    })?;
    let details = args.details.then(|| {
        let (left_stop, right_stop) = store.value_stops(&g);
        Details {
            birthday: store.value_birthday(&g),
            left_stop: left_stop.to_string(),
            right_stop: right_stop.to_string(),
            mean: store.value_mean(&g).to_string(),
            temperature: store.value_temperature(&g).to_string(),
        }
    });
    // The uptimal search is bounded by the work limit too; `Err` when it ran out.
    let uptimal = if args.uptimal {
        store
            .with_work_limit(limits.max_work, |s| s.try_value_uptimal(&g))
            .map(|u| u.map(|(u, number)| u.text_with_number(&number)))
    } else {
        Ok(None)
    };
    if args.output.json {
        let mut out = json!({
            "expression": args.expression,
            "value": value,
            "outcome": outcome.to_string(),
            "outcome_words": outcome_words(outcome),
            "left_first": first_winners(outcome).0,
            "right_first": first_winners(outcome).1,
            "stopper": true,
            "stopper_sided": true,
            "components": components_json(),
        });
        if args.uptimal {
            out["uptimal"] = json!(uptimal.as_ref().ok().cloned().flatten());
            if uptimal.is_err() {
                out["uptimal_note"] = json!("not found within the work limit");
            }
        }
        if let Some(d) = &details {
            out["birthday"] = match u64::try_from(&d.birthday) {
                Ok(b) => json!(b),
                Err(_) => json!(d.birthday.to_string()),
            };
            out["left_stop"] = json!(d.left_stop);
            out["right_stop"] = json!(d.right_stop);
            out["mean"] = json!(d.mean);
            out["temperature"] = json!(d.temperature);
        }
        super::print_json(&out);
        return Ok(());
    }
    print_components();
    println!("Value:    {}", shown(&value));
    println!("Outcome:  {outcome} ({})", outcome_words(outcome));
    if let Some(d) = &details {
        println!("Birthday: {}", d.birthday);
        println!("Stops:    {} (Left), {} (Right)", d.left_stop, d.right_stop);
        println!("Mean:     {}", d.mean);
        println!("Temperature: {}", d.temperature);
    }
    if args.uptimal {
        match uptimal {
            Ok(Some(u)) => println!("Uptimal:  {u}"),
            Ok(None) => println!("Uptimal:  not an uptimal"),
            Err(e) => println!("Uptimal:  not found within the work limit ({e})"),
        }
    }
    Ok(())
}

/// Who wins a short game when Left starts and when Right starts.
fn first_winners(o: Outcome) -> (&'static str, &'static str) {
    match o {
        Outcome::L => ("left", "left"),
        Outcome::R => ("right", "right"),
        Outcome::N => ("left", "right"),
        Outcome::P => ("right", "left"),
    }
}

/// A loopy evaluation's error, with the flag that sets a bound.
fn loopy_error(e: ValueError) -> anyhow::Error {
    match e {
        ValueError::TooLarge { .. } => anyhow!("{e}; --max-vertices sets the limit"),
        ValueError::Loopy(chopsticks_loopy::LoopyError::Work { .. }) => {
            anyhow!("{e}: this value is too large to compute within the limit; --max-work sets it")
        }
        e => anyhow!(e),
    }
}

/// What kind of loopy value it is, in words.
fn loopy_kind(v: &chopsticks_loopy::Value) -> &'static str {
    if v.is_stopper() {
        "a stopper"
    } else if v.is_stopper_sided() {
        "stopper-sided, not a stopper: onside & offside"
    } else {
        "not a stopper; the bounded search did not reduce a side to a stopper, so the \
         sides are printed as simplified graphs (onside & offside); it may not be \
         stopper-sided"
    }
}

/// The JSON of each position in a loopy expression (the same fields for a
/// value and for a comparison).
fn loopy_components_json(e: &LoopyEvaluation) -> Vec<serde_json::Value> {
    e.components
        .iter()
        .map(|c| {
            let o = c.value.outcome();
            json!({
                "position": c.position.paper(c.rules.fingers),
                "n": c.rules.fingers - 1,
                "fingers": c.rules.fingers,
                "hands": c.rules.hands,
                "ruleset": c.rules.describe(),
                "value": c.value.to_string(),
                "outcome": o.name(),
                "left_first": o.left_starts().as_str(),
                "right_first": o.right_starts().as_str(),
                "stopper": c.value.is_stopper(),
                "stopper_sided": c.value.is_stopper_sided(),
                "positions": c.vertices,
                "cyclic": c.cyclic,
            })
        })
        .collect()
}

fn print_loopy(args: &ValueArgs, e: &LoopyEvaluation) -> Result<()> {
    if let Some((relation, holds)) = e.comparison {
        if args.output.json {
            super::print_json(&json!({
                "expression": args.expression,
                "relation": relation.symbol(),
                "holds": holds,
                "components": loopy_components_json(e),
            }));
            return Ok(());
        }
        for c in &e.components {
            println!("{} = {}", c.position.paper(c.rules.fingers), c.value);
        }
        println!("Answer:   {holds}");
        return Ok(());
    }
    let text = e.value.to_string();
    if text.len() as u64 > MAX_PRINTED {
        bail!("the value is too long to print (more than 1,048,576 characters)");
    }
    let outcome = e.value.outcome();
    if args.uptimal {
        eprintln!("note: --uptimal is for short games; this value is loopy");
    }
    // Stops of the sides that are stoppers: pseudonumbers.
    let stops = |s: Option<&chopsticks_loopy::Stopper>| {
        s.and_then(|s| s.stops().ok())
            .map(|(l, r)| (l.to_string(), r.to_string()))
    };
    let (onside_stops, offside_stops) = (stops(e.value.onside()), stops(e.value.offside()));
    if args.output.json {
        let mut out = json!({
            "expression": args.expression,
            "value": text,
            "outcome": outcome.name(),
            "outcome_words": outcome.describe(),
            "left_first": outcome.left_starts().as_str(),
            "right_first": outcome.right_starts().as_str(),
            "stopper": e.value.is_stopper(),
            "stopper_sided": e.value.is_stopper_sided(),
            "components": loopy_components_json(e),
        });
        if args.details {
            if e.value.is_stopper() {
                if let Some((l, r)) = &onside_stops {
                    out["left_stop"] = json!(l);
                    out["right_stop"] = json!(r);
                }
            } else {
                out["onside_stops"] = json!(onside_stops.as_ref().map(|(l, r)| [l, r]));
                out["offside_stops"] = json!(offside_stops.as_ref().map(|(l, r)| [l, r]));
            }
        }
        super::print_json(&out);
        return Ok(());
    }
    if e.components.len() > 1
        || (e.components.len() == 1 && e.components[0].text.trim() != args.expression.trim())
    {
        for c in &e.components {
            let o = c.value.outcome();
            println!(
                "{} = {}  ({}, {}; {})",
                c.position.paper(c.rules.fingers),
                c.value,
                o.name(),
                o.describe(),
                c.rules.describe()
            );
        }
    } else if let Some(c) = e.components.first() {
        println!("Rules:    {}", c.rules.describe());
        println!(
            "Graph:    {} positions reachable{}",
            c.vertices,
            if c.cyclic { ", play can cycle" } else { "" }
        );
    }
    println!("Value:    {text}");
    println!("Kind:     {}", loopy_kind(&e.value));
    println!("Outcome:  {} ({})", outcome.name(), outcome.describe());
    if args.details {
        let shown = |s: &Option<(String, String)>| match s {
            Some((l, r)) => format!("{l} (Left), {r} (Right)"),
            None => "not a stopper: no stops".to_string(),
        };
        if e.value.is_stopper() {
            println!("Stops:    {}", shown(&onside_stops));
        } else {
            println!(
                "Stops:    onside {}; offside {}",
                shown(&onside_stops),
                shown(&offside_stops)
            );
        }
    }
    Ok(())
}
