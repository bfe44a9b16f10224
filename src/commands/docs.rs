//! `chopsticks completions SHELL` and `chopsticks man [COMMAND]`: shell completions
//! and manual pages generated from the option definitions themselves (clap), so
//! they never drift from what the binary accepts.

use std::io::Write;

use anyhow::{bail, Result};
use clap::Args;

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// A subcommand's own page (`chopsticks man solve`); the whole program's by
    /// default.
    command: Option<String>,
}

/// Prints the completion script of `shell` for `command` on stdout.
pub fn completions(args: &CompletionsArgs, mut command: clap::Command) -> Result<()> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "chopsticks", &mut out);
    std::io::stdout().write_all(&out)?;
    Ok(())
}

/// Prints a manual page (roff) on stdout: `man -l -` reads it.
pub fn man(args: &ManArgs, command: clap::Command) -> Result<()> {
    let command = command.version(env!("CARGO_PKG_VERSION"));
    let page = match &args.command {
        None => command,
        Some(name) => {
            let Some(sub) = command.find_subcommand(name) else {
                let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
                bail!(
                    "no command `{}`; the commands are {}",
                    chopsticks_rules::quoted(name),
                    names.join(", ")
                );
            };
            sub.clone()
                .name(format!("chopsticks-{name}"))
                .version(env!("CARGO_PKG_VERSION"))
        }
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(page).render(&mut out)?;
    std::io::stdout().write_all(&out)?;
    Ok(())
}
