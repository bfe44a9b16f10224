//! The options shared by the commands: the ruleset (`--preset NAME` and flags that
//! override it), `--notation`, and the output options `--json` / `--quiet`.

use anyhow::{bail, Result};
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
    // `--no-…` forms are accepted for every switch below.
    #[arg(
        long,
        help = "Allow moving fingers between two live hands (--no-transfer to forbid)",
        conflicts_with = "no_transfer"
    )]
    pub transfer: bool,
    #[arg(long, hide = true, conflicts_with = "transfer")]
    pub no_transfer: bool,
    #[arg(
        long,
        help = "Allow reviving a dead hand with fingers from a live one (--no-divide)",
        conflicts_with = "no_divide"
    )]
    pub divide: bool,
    #[arg(long, hide = true, conflicts_with = "divide")]
    pub no_divide: bool,
    #[arg(
        long,
        help = "Divisions only into two equal halves (turns divisions on; --no-even-divide)",
        conflicts_with_all = ["no_even_divide", "no_divide"]
    )]
    pub even_divide: bool,
    #[arg(long, hide = true, conflicts_with = "even_divide")]
    pub no_even_divide: bool,
    #[arg(
        long,
        help = "Divisions only into two halves that differ by at most one, 3 → 1+2 (turns divisions on; --no-near-even-divide)",
        conflicts_with_all = ["no_near_even_divide", "no_divide", "even_divide"]
    )]
    pub near_even_divide: bool,
    #[arg(long, hide = true, conflicts_with = "near_even_divide")]
    pub no_near_even_divide: bool,
    #[arg(
        long,
        help = "Allow a transfer that empties (kills) one of your hands (--no-suicide)",
        conflicts_with = "no_suicide"
    )]
    pub suicide: bool,
    #[arg(long, hide = true, conflicts_with = "suicide")]
    pub no_suicide: bool,
    #[arg(
        long,
        help = "Allow tapping your own other hand (--no-self-attack)",
        conflicts_with = "no_self_attack"
    )]
    pub self_attack: bool,
    #[arg(long, hide = true, conflicts_with = "self_attack")]
    pub no_self_attack: bool,
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
    #[arg(
        long,
        help = "Misère play: a player whose hands all die wins (--no-misere)",
        conflicts_with = "no_misere"
    )]
    pub misere: bool,
    #[arg(long, hide = true, conflicts_with = "misere")]
    pub no_misere: bool,
    #[arg(
        long,
        help = "Team play (an even number of players): Players 1, 3, 5, … against 2, 4, 6, …; attacks only on the other team; a team with no live hand has lost (--no-teams)",
        conflicts_with = "no_teams"
    )]
    pub teams: bool,
    #[arg(long, hide = true, conflicts_with = "teams")]
    pub no_teams: bool,
}

/// Whether any ruleset option was given on the command line.
impl RulesArgs {
    pub fn any_given(&self) -> bool {
        self.preset.is_some()
            || self.variant.is_some()
            || self.players.is_some()
            || self.hands.is_some()
            || self.fingers.is_some()
            || [
                self.rollover,
                self.cutoff,
                self.transfer,
                self.no_transfer,
                self.divide,
                self.no_divide,
                self.even_divide,
                self.no_even_divide,
                self.near_even_divide,
                self.no_near_even_divide,
                self.suicide,
                self.no_suicide,
                self.self_attack,
                self.no_self_attack,
                self.pass_splits.is_some(),
                self.no_pass_splits,
                self.misere,
                self.no_misere,
                self.teams,
                self.no_teams,
            ]
            .iter()
            .any(|&b| b)
    }
}

fn pick(yes: bool, no: bool, current: bool) -> bool {
    if yes {
        true
    } else if no {
        false
    } else {
        current
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
        r.transfer = pick(self.transfer, self.no_transfer, r.transfer);
        r.divide = pick(self.divide, self.no_divide, r.divide);
        r.even_divide = pick(self.even_divide, self.no_even_divide, r.even_divide);
        r.near_even_divide = pick(
            self.near_even_divide,
            self.no_near_even_divide,
            r.near_even_divide,
        );
        if self.even_divide || self.near_even_divide {
            r.divide = true;
        }
        if self.even_divide {
            // A variant's near-even divisions give way to the even-only ones asked for.
            r.near_even_divide = false;
        }
        if self.near_even_divide {
            r.even_divide = false;
        }
        if self.no_divide {
            // A preset's restricted divisions go with its divisions.
            r.even_divide = false;
            r.near_even_divide = false;
        }
        r.suicide = pick(self.suicide, self.no_suicide, r.suicide);
        r.self_attack = pick(self.self_attack, self.no_self_attack, r.self_attack);
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
        r.misere = pick(self.misere, self.no_misere, r.misere);
        r.teams = pick(self.teams, self.no_teams, r.teams);
        r.validate()?;
        Ok(r)
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
        let Some(name) = &self.notation else {
            return Ok(None);
        };
        if name.eq_ignore_ascii_case("seated") {
            return Ok(None);
        }
        let Some(notation) = Notation::from_name(name) else {
            bail!(
                "unknown notation `{}`; use seated, compact, dashed or paper",
                quoted(name)
            );
        };
        // Whether a notation can write a ruleset's positions depends on the rules
        // only, so the start tells.
        chopsticks_rules::Position::start(rules).to_notation(rules, notation)?;
        Ok(Some(notation))
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
