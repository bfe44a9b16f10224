//! One module per subcommand.

pub mod bench;
pub mod check;
pub mod cluster;
pub mod docs;
pub mod export;
pub mod moves;
pub mod play;
pub mod puzzles;
pub mod query;
pub mod review;
pub mod rules;
pub mod serve;
pub mod solve;
pub mod solved;
pub mod stats;
pub mod strategy;
pub mod survey;
pub mod table;
pub mod value;
pub mod verify;

/// Writes a position reached by one move from a position written with its mover on
/// the left. In the paper's notation Left and Right keep their sides, so the child
/// (whose mover is the parent's opponent) is written with the parent's mover as Left
/// and marked "Right to move"; other notations list the mover first as usual.
pub fn child_text(
    rules: &chopsticks_rules::Ruleset,
    notation: chopsticks_rules::Notation,
    child: &chopsticks_rules::Position,
) -> anyhow::Result<String> {
    if notation == chopsticks_rules::Notation::Paper && rules.players() == 2 {
        let players = vec![child.players()[1].clone(), child.players()[0].clone()];
        let left_view = chopsticks_rules::Position::new(rules, players)?;
        return Ok(format!(
            "{} (Right to move)",
            left_view.to_notation(rules, notation)?
        ));
    }
    Ok(child.to_notation(rules, notation)?)
}

/// Prints a value as pretty JSON on stdout.
/// The plural ending of a count's noun: "" for 1, "s" otherwise.
pub fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

pub fn print_json(value: &serde_json::Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).expect("JSON values serialise")
    );
}
