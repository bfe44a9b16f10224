//! The options shared by the commands: the ruleset (`--preset NAME` and flags that
//! override it), `--notation`, and the output options `--json` / `--quiet`.

use anyhow::{bail, Result};
use chopsticks_rules::options::Switch;
use chopsticks_rules::{quoted, Notation, Overflow, PassSplits, Preset, Ruleset, MAX_PLAYERS};
use clap::Args;

#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Rules")]
pub struct RulesArgs {
    /// Named ruleset to start from: standard (the default), rollover, rahman, simple
    /// (see `chopsticks rules --list`).
    #[arg(long, conflicts_with = "variant")]
    pub preset: Option<String>,
    /// A whole ruleset as a variant id, e.g. `rollover.h3.f7.suicide.no-transfer` (a
    /// preset and dot-separated overrides; `chopsticks rules` prints a ruleset's id).
    /// The options below still apply on top of it.
    #[arg(long, value_name = "ID")]
    pub variant: Option<String>,
    /// Number of players, numbered from 1 (turns go round in that order).
    #[arg(long)]
    pub players: Option<usize>,
    /// Hands per player: one number for everybody (`2`) or one per player, Player 1
    /// first (`1,3`).
    #[arg(long, value_delimiter = ',')]
    pub hands: Option<Vec<usize>>,
    /// F: a hand dies when it reaches F fingers (5 for human play; the paper's n is F-1).
    #[arg(long)]
    pub fingers: Option<u32>,
    /// Sums wrap around modulo F; a hand dies only at exactly 0.
    #[arg(long, conflicts_with = "cutoff")]
    pub rollover: bool,
    /// A hand reaching F or more dies.
    #[arg(long, conflicts_with = "rollover")]
    pub cutoff: bool,
    /// Every switch of `chopsticks_rules::options`, on (`--transfer`) or off
    /// (`--no-transfer`).
    #[command(flatten)]
    pub switches: SwitchArgs,
    #[arg(
        long,
        help = "Allow a split that leaves your hands as they were (a swap or moving nothing), passing the turn: --pass-splits live (or =live) only between two live hands (13→31), --pass-splits, --pass-splits any (or =any) also with a dead hand (01→10) (--no-pass-splits)",
        conflicts_with = "no_pass_splits",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "any",
        value_name = "live|any"
    )]
    pub pass_splits: Option<String>,
    #[arg(long, hide = true, conflicts_with = "pass_splits")]
    pub no_pass_splits: bool,
}

/// Whether any ruleset option was given on the command line.
impl RulesArgs {
    pub fn any_given(&self) -> bool {
        self.preset.is_some()
            || self.variant.is_some()
            || self.players.is_some()
            || self.hands.is_some()
            || self.fingers.is_some()
            || self.rollover
            || self.cutoff
            || self.pass_splits.is_some()
            || self.no_pass_splits
            || !self.switches.given.is_empty()
    }
}

impl RulesArgs {
    /// The ruleset these options describe, checked.
    pub fn ruleset(&self) -> Result<Ruleset> {
        let name = self.preset.as_deref().unwrap_or("standard");
        let Some(preset) = Preset::from_name(name) else {
            let names: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
            bail!(
                "unknown preset `{}`; the presets are {}",
                quoted(name),
                names.join(", ")
            );
        };
        let mut r = match &self.variant {
            Some(id) => Ruleset::from_variant_id(id)?,
            None => preset.ruleset(),
        };
        // Refuse absurd sizes before building per-player vectors from them.
        let players = self.players.or(self.hands.as_ref().map(Vec::len));
        if let Some(p) = players.filter(|&p| p > MAX_PLAYERS) {
            bail!("impossible ruleset: at most {MAX_PLAYERS} players are supported, got {p}");
        }
        match (&self.hands, self.players) {
            (Some(h), Some(p)) if h.len() == 1 => r.hands = vec![h[0]; p],
            (Some(h), Some(p)) if h.len() != p => {
                bail!("--hands lists {} players but --players says {p}", h.len())
            }
            (Some(h), _) if h.len() == 1 => r.hands = vec![h[0]; r.players()],
            (Some(h), _) => r.hands = h.clone(),
            (None, Some(p)) if r.is_symmetric() => r.hands = vec![r.hands[0]; p],
            (None, Some(p)) if r.players() == p => {}
            (None, Some(p)) => bail!(
                "--players {p} cannot keep the variant's hands per seat ({}): give --hands too",
                r.hands
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            (None, None) => {}
        }
        if let Some(f) = self.fingers {
            r.fingers = f;
        }
        if self.rollover {
            r.overflow = Overflow::Rollover;
        }
        if self.cutoff {
            r.overflow = Overflow::Cutoff;
        }
        chopsticks_rules::options::apply_switches(&mut r, &self.switches.given, "--")
            .map_err(|e| anyhow::anyhow!("impossible ruleset: {e}"))?;
        if let Some(which) = &self.pass_splits {
            r.pass_splits = match PassSplits::from_name(which) {
                Some(PassSplits::Off) | None => bail!(
                    "--pass-splits takes `live` or `any` (or nothing, meaning any), not `{}`",
                    quoted(which)
                ),
                Some(p) => p,
            };
        }
        if self.no_pass_splits {
            r.pass_splits = PassSplits::Off;
        }
        r.validate()?;
        Ok(r)
    }
}

/// The rule switches on the command line, one flag each way from
/// `chopsticks_rules::options` (`--self-attack`, `--no-self-attack`): the
/// switches given, in the order of the table.
#[derive(Debug, Clone, Default)]
pub struct SwitchArgs {
    pub given: Vec<(&'static Switch, bool)>,
}

impl clap::FromArgMatches for SwitchArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut args = SwitchArgs::default();
        args.update_from_arg_matches(matches)?;
        Ok(args)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        for s in chopsticks_rules::options::switches() {
            for on in [true, false] {
                if matches.get_flag(&s.word(on)) {
                    self.given.retain(|(g, _)| g.token != s.token);
                    self.given.push((s, on));
                }
            }
        }
        Ok(())
    }
}

impl clap::Args for SwitchArgs {
    fn augment_args(mut cmd: clap::Command) -> clap::Command {
        for s in chopsticks_rules::options::switches() {
            // Each way conflicts with the other, and with the switches its
            // implications contradict (`--even-divide` with `--no-divide`).
            let conflicts = |on: bool| -> Vec<String> {
                let mut ids = vec![s.word(!on)];
                ids.extend(s.implies(on).iter().map(|&(other, value)| {
                    chopsticks_rules::options::switch(other)
                        .expect("implications name switches")
                        .word(!value)
                }));
                ids
            };
            let on = clap::Arg::new(s.word(true))
                .long(s.word(true))
                .action(clap::ArgAction::SetTrue)
                .help(format!("{} (--{})", s.help, s.word(false)))
                .help_heading("Rules")
                .conflicts_with_all(conflicts(true));
            let off = clap::Arg::new(s.word(false))
                .long(s.word(false))
                .action(clap::ArgAction::SetTrue)
                .hide(true)
                .conflicts_with_all(conflicts(false));
            cmd = cmd.arg(on).arg(off);
        }
        cmd
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// The `--notation` option.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Output")]
pub struct NotationArgs {
    /// How to write positions: seated (`2_1312`: the player to move, then every
    /// player's hands, Player 1 first; the default), compact (Wikipedia, `1211`,
    /// the player to move first), dashed (Rahman, `12-11`) or paper
    /// (`(1,2|1,1)_4`). Positions that name no seat (`solve`'s longest win,
    /// `stats`, `export`) are written compact when seated is chosen, dashed when a
    /// hand needs two digits.
    #[arg(long, value_name = "NOTATION")]
    pub notation: Option<String>,
}

impl NotationArgs {
    /// The mover-first notation chosen, for the positions the solver keeps (the
    /// player to move first, no seat): refused at once (before any long work)
    /// when it cannot write positions of these rules; `seated` (or nothing) writes
    /// them in the default notation, compact when every hand is one digit.
    pub fn notation(&self, rules: &Ruleset) -> Result<Notation> {
        Ok(self
            .printed(rules)?
            .unwrap_or_else(|| Notation::default_for(rules)))
    }

    /// The printing of commands that know whose turn it is: `None` for the seated
    /// id (the default), `Some(notation)` for a mover-first notation.
    pub fn printed(&self, rules: &Ruleset) -> Result<Option<Notation>> {
        Ok(chopsticks_report::printed_notation(
            self.notation.as_deref(),
            rules,
        )?)
    }
}

/// `--json` and `--quiet`, shared by the commands that compute and print results.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Output")]
pub struct OutputArgs {
    /// Print JSON (for scripts) instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar on stderr (it is also hidden when stderr is not a terminal).
    #[arg(long, short)]
    pub quiet: bool,
}
