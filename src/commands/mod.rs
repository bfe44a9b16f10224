//! One module per subcommand.

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

/// Writes a position reached by one move from `parent`, a `step` of seats on: as
/// its seated id by default (`printed` is `None`), else in the mover-first notation
/// asked for, the child's mover first as in every notation (in the paper's, its
/// mover is Left), so that the text reads back as the child.
pub fn child_text(
    rules: &chopsticks_rules::Ruleset,
    printed: Option<chopsticks_rules::Notation>,
    parent: &chopsticks_rules::SeatedPosition,
    child: &chopsticks_rules::Position,
    step: usize,
) -> anyhow::Result<String> {
    let Some(notation) = printed else {
        return Ok(parent.after(child.clone(), step).to_text(rules)?);
    };
    Ok(child.to_notation(rules, notation)?)
}

/// The keys every JSON output that concerns one variant carries: `variant` (its
/// id, as `--variant` reads it), `description` (the ruleset in words) and
/// `ruleset` (every rule as a field), added to `value` (an object).
pub fn with_variant(
    rules: &chopsticks_rules::Ruleset,
    mut value: serde_json::Value,
) -> serde_json::Value {
    if let Some(map) = value.as_object_mut() {
        map.insert("variant".into(), rules.variant_id().into());
        map.insert("description".into(), rules.describe().into());
        map.insert(
            "ruleset".into(),
            serde_json::to_value(rules).expect("rulesets serialise"),
        );
    }
    value
}

pub use crate::text::plural;

/// Prints a value as pretty JSON on stdout.
pub fn print_json(value: &serde_json::Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).expect("JSON values serialise")
    );
}
