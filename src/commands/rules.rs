//! `chopsticks rules`: show the ruleset the options describe, or list the presets.

use anyhow::Result;
use chopsticks_rules::Preset;
use clap::Args;
use serde_json::json;

use crate::rules_args::RulesArgs;

#[derive(Args, Debug)]
pub struct RulesCommandArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// List the presets instead.
    #[arg(long)]
    #[arg(help_heading = "Output")]
    list: bool,
    /// Print JSON.
    #[arg(long)]
    #[arg(help_heading = "Output")]
    json: bool,
}

pub fn run(args: &RulesCommandArgs) -> Result<()> {
    if args.list {
        if args.rules.any_given() {
            anyhow::bail!(
                "--list prints every preset, whatever the rule options: drop them, or drop --list to see the ruleset they describe"
            );
        }
        if args.json {
            let presets: Vec<_> = Preset::ALL
                .iter()
                .map(|p| json!({"variant": p.name(), "description": p.description(), "ruleset": p.ruleset()}))
                .collect();
            super::print_json(&json!(presets));
        } else {
            for p in Preset::ALL {
                println!("{:<10} {}", p.name(), p.description());
            }
        }
        return Ok(());
    }
    let rules = args.rules.ruleset()?;
    if args.json {
        super::print_json(&json!({
            "description": rules.describe(),
            "variant": rules.variant_id(),
            "ruleset": rules
        }));
    } else {
        println!("{}", rules.describe());
        println!("variant id: {}", rules.variant_id());
    }
    Ok(())
}
