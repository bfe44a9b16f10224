//! `chopsticks strategy`: a winning strategy a person can remember, or the positions
//! to avoid in a drawn variant.

use anyhow::{anyhow, bail, Context, Result};
use chopsticks_rules::{team_seats, team_text, Player, SeatedPosition};
use chopsticks_solve::strategy::{advice, Advice};
use chopsticks_solve::{Concept, Outcome, Value};
use clap::Args;
use serde_json::json;
use std::path::PathBuf;

use super::solved::{outcome_json, outcome_text, solved, DbArgs, SolvedChecks};
use crate::rules_args::{OutputArgs, RulesArgs};
use crate::workload::explore_with_progress;

#[derive(Args, Debug)]
pub struct StrategyArgs {
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    db: DbArgs,
    /// Start from this position instead of the usual start.
    #[arg(long)]
    #[arg(help_heading = "Analysis")]
    start: Option<String>,
    /// Also draw the list as a printable sheet, each configuration with hands, to
    /// this SVG file.
    #[arg(long, value_name = "FILE")]
    #[arg(help_heading = "Output")]
    svg: Option<PathBuf>,
    /// Also draw the sheet as a PNG image to this file.
    #[arg(long, value_name = "FILE")]
    #[arg(help_heading = "Output")]
    png: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: &StrategyArgs) -> Result<()> {
    args.db.refuse_output(args.svg.as_deref(), "--svg")?;
    args.db.refuse_output(args.png.as_deref(), "--png")?;
    let s = solved(&args.rules, &args.db, args.output.quiet)?;
    if !s.solution.has_remoteness() {
        return Err(chopsticks_solve::SolveError::NoRemoteness.into());
    }
    s.check_all(args.output.quiet)?;
    let start = match &args.start {
        Some(text) => SeatedPosition::parse(text, &s.rules).context("--start")?,
        None => SeatedPosition::start(&s.rules),
    };
    let start_seated = start;
    let start = start_seated.position().clone();
    let graph = s.graph()?;
    let start_index = graph.index_of(&start);
    if start.is_terminal(&s.rules) {
        bail!("the game is already over at the start position: there is nothing to play");
    }
    if !graph.mover_alive(start_index) {
        bail!(
            "the player to move has no live hand in the start position, so the turn passes \
             on: write the position with the next player who has a live hand first"
        );
    }
    let concept = s.solution.concept();
    let players = s.rules.players();
    let start_outcome = s.solution.outcome_at(start_index)?;
    let start_seats = s.solution.seat_outcomes_at(start_index)?;
    let advice = advice(graph, &s.solution, start_index, || {
        explore_with_progress(graph, &start, args.output.quiet)
            .exploration
            .reached
            .iter()
            .collect()
    })
    .map_err(|e| anyhow!("internal error: {e}"))?;
    write_sheets(args, &s.rules, &advice)?;
    // The players, numbered from 1, of the seats counted from the start's mover.
    let player_at = |after: usize| Player::from_seat(start_seated.seat_of(after));
    let mut out = super::with_variant(
        &s.rules,
        json!({
            "concept": concept,
            "start_position": start_seated.to_text(&s.rules)?,
            "start": outcome_json(&start_outcome),
        }),
    );
    if players > 2 {
        let mut list: Vec<(Player, serde_json::Value)> = start_seats
            .iter()
            .enumerate()
            .map(|(after, o)| {
                let mut entry = outcome_json(o);
                entry["player"] = json!(player_at(after).number());
                (player_at(after), entry)
            })
            .collect();
        list.sort_by_key(|(p, _)| *p);
        out["start_players"] = list.into_iter().map(|(_, e)| e).collect();
    }
    // A configuration as JSON: one array of hands a player, `null` for any value.
    let configuration_json = |c: &str| -> Result<serde_json::Value> {
        Ok(json!(chopsticks_learn::sheet::parse_configuration(c)?))
    };
    // What a configuration lists, in words.
    let layout = match (players, concept) {
        (2, _) => "[your hands],[opponent's hands]".to_string(),
        (_, Concept::Teams) => "[your hands], then those of each player after you in turn \
                                order; your partners are every second one"
            .to_string(),
        _ => "[your hands], then those of each player after you in turn order".to_string(),
    };
    // Whose win, in words.
    let side = |seat: usize| match concept {
        Concept::Teams => format!(
            "{}'s team ({})",
            player_at(seat),
            team_text(team_seats(player_at(seat).seat(), players))
        ),
        _ => player_at(seat).to_string(),
    };
    match advice {
        Advice::Win {
            seat,
            win_immediately,
            configurations,
            listed,
            positions_faced,
        } => {
            if args.output.json {
                out["player"] = json!(player_at(seat).number());
                out["win_immediately"] = json!(win_immediately);
                out["configurations"] = configurations
                    .iter()
                    .map(|c| configuration_json(c))
                    .collect::<Result<_>>()?;
                out["listed"] = json!(listed);
                out["positions_faced"] = json!(positions_faced);
                out["verified"] = json!(true);
                super::print_json(&out);
                return Ok(());
            }
            println!("{}", s.rules.describe());
            let (against, whose) = match concept {
                Concept::Coalition => (
                    " against all the others together",
                    format!("{} for that player", outcome_text(&start_seats[seat])),
                ),
                Concept::Teams => (
                    "",
                    format!("{} for that team", outcome_text(&start_seats[seat])),
                ),
                Concept::TwoPlayer => (
                    "",
                    format!("{} for {}", outcome_text(&start_outcome), player_at(0)),
                ),
            };
            println!("{} can force a win{against} ({whose}).", side(seat));
            let who = match concept {
                Concept::Teams => "Both partners: after",
                _ => "After",
            };
            println!(
                "{who} each of your moves, reach the first configuration of this list that you \
                 can ({layout}):"
            );
            if win_immediately {
                let all_hands =
                    |fill: &str, hands: usize| format!("[{}]", vec![fill; hands].join(","));
                let finished = match (players, concept) {
                    // Yours, whatever they are; the other player's all dead.
                    (2, _) => format!(
                        "{},{}",
                        all_hands("?", s.rules.hands[seat]),
                        all_hands("0", s.rules.hands[1 - seat])
                    ),
                    (_, Concept::Teams) => "the other team has no live hand".to_string(),
                    _ => "nobody else has a live hand".to_string(),
                };
                println!("  {finished}  (win immediately if you can)");
            }
            for line in &configurations {
                println!("  {line}");
            }
            println!(
                "Checked: this list wins against every defence ({}{}, {} faced).",
                crate::text::counted(configurations.len() as u64, "configuration"),
                if win_immediately {
                    " besides winning at once"
                } else {
                    ""
                },
                crate::text::counted(positions_faced, "position")
            );
        }
        Advice::Draw { avoid } => {
            if args.output.json {
                out["player"] = serde_json::Value::Null;
                out["avoid"] = avoid
                    .iter()
                    .map(|(c, _)| configuration_json(c))
                    .collect::<Result<_>>()?;
                out["avoid_loses_in"] = avoid.iter().map(|(_, n)| json!(n)).collect();
                super::print_json(&out);
                return Ok(());
            }
            println!("{}", s.rules.describe());
            let loses_in = match (players, concept) {
                (2, _) => "opponent wins in",
                (_, Concept::Teams) => "your team loses in",
                _ => "the others beat you in",
            };
            match concept {
                Concept::Coalition => {
                    println!("No player can force a win against all the others together.");
                    let mut by_player: Vec<(usize, &Outcome)> =
                        start_seats.iter().enumerate().collect();
                    by_player.sort_by_key(|(after, _)| player_at(*after));
                    let values: Vec<String> = by_player
                        .into_iter()
                        .map(|(seat, o)| {
                            let fate = match (o.value, o.remoteness) {
                                (Value::Win, Some(r)) => format!("wins in {r}"),
                                (Value::Lose, Some(r)) => format!("loses in {r}"),
                                _ => "holds out (a draw)".to_string(),
                            };
                            format!("{} {fate}", player_at(seat))
                        })
                        .collect();
                    println!("Against a coalition of the others: {}.", values.join(", "));
                    if avoid.is_empty() {
                        println!(
                            "No position reachable from the start is a draw for its player \
                             to move: whoever can be ganged up on cannot hold out."
                        );
                        return Ok(());
                    }
                    println!(
                        "When you can hold out against everyone (a draw), never leave yourself \
                         in one of these {} ({layout}):",
                        crate::text::counted(avoid.len() as u64, "configuration")
                    );
                }
                Concept::Teams => {
                    println!("Neither team can force a win: with best play the game never ends.");
                    println!(
                        "Never leave yourself in one of these {} ({layout}):",
                        crate::text::counted(avoid.len() as u64, "configuration")
                    );
                }
                Concept::TwoPlayer => {
                    println!("Neither player can force a win: with best play the game never ends.");
                    println!(
                        "Never leave your opponent in one of these {} ({layout}):",
                        crate::text::counted(avoid.len() as u64, "configuration")
                    );
                }
            }
            for (line, n) in &avoid {
                println!("  {line}  ({loses_in} {n})");
            }
        }
    }
    Ok(())
}

/// Writes the strategy sheet (`--svg`, `--png`), each file written whole or
/// not at all.
fn write_sheets(
    args: &StrategyArgs,
    rules: &chopsticks_rules::Ruleset,
    advice: &Advice,
) -> Result<()> {
    if args.svg.is_none() && args.png.is_none() {
        return Ok(());
    }
    let sheet = chopsticks_learn::sheet::Sheet::from_advice(rules, advice)?;
    if let Some(path) = &args.svg {
        chopsticks_files::write_atomically(path, sheet.svg().as_bytes())
            .context("cannot write the sheet")?;
        if !args.output.quiet {
            eprintln!("wrote the strategy sheet to {}", path.display());
        }
    }
    if let Some(path) = &args.png {
        let bytes = sheet.png().context("cannot encode the PNG sheet")?;
        chopsticks_files::write_atomically(path, &bytes).context("cannot write the sheet")?;
        if !args.output.quiet {
            eprintln!("wrote the strategy sheet to {}", path.display());
        }
    }
    Ok(())
}
