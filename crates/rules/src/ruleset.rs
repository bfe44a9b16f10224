//! The rule space: one [`Ruleset`] value describes any variant of Chopsticks.
//!
//! Hands hold a number of fingers from `0` (dead) to `F - 1`; a hand *dies when it
//! reaches `F`* ([`Ruleset::fingers`]). With [`Overflow::Cutoff`] a hand whose new value
//! would be `F` or more dies; with [`Overflow::Rollover`] the value is taken modulo `F`
//! and the hand dies only when it lands exactly on `0`.
//!
//! Every variant allows attacks (tap one of your live hands on a live hand of an
//! opponent; the tapped hand gains the tapper's value). The other rules are switches:
//! see the fields of [`Ruleset`]. The paper's finger count `n` is `F - 1`.

use serde::{Deserialize, Serialize};

use crate::error::{Result, RulesError};

/// The largest number of players a ruleset may have.
pub const MAX_PLAYERS: usize = 8;
/// The largest number of hands one player may have.
pub const MAX_HANDS: usize = 16;
/// The largest value of `F` (a hand dies when it reaches `F`).
pub const MAX_FINGERS: u32 = 1 << 24;

/// What happens when a hand would reach `F` fingers or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Overflow {
    /// `x + y >= F` kills the hand.
    Cutoff,
    /// `x + y` becomes `(x + y) mod F`; the hand dies only at exactly `0`.
    Rollover,
}

/// Which pass-splits a ruleset allows: splits after which the mover's hands are as
/// they were (a swap, or moving nothing), so that the move only passes the turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PassSplits {
    /// None (every published source).
    #[default]
    Off,
    /// Only between two live hands: `13 → 31`, `22 → 22`. Needs transfers.
    Live,
    /// Also a live hand with a dead one, `01 → 10` (needs free divisions: even-only
    /// and near-even divisions never move a whole hand), as well as the live ones.
    Any,
}

impl PassSplits {
    /// `off`, `live`, `any`.
    pub fn name(self) -> &'static str {
        match self {
            PassSplits::Off => "off",
            PassSplits::Live => "live",
            PassSplits::Any => "any",
        }
    }

    /// Reads `off`, `live` or `any`.
    pub fn from_name(name: &str) -> Option<PassSplits> {
        [PassSplits::Off, PassSplits::Live, PassSplits::Any]
            .into_iter()
            .find(|p| p.name() == name)
    }
}

/// Reads a name, or a boolean as files before the `live` rule wrote it (`true` was
/// today's `any`).
impl<'de> Deserialize<'de> for PassSplits {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Bool(bool),
            Name(String),
        }
        match Repr::deserialize(d)? {
            Repr::Bool(false) => Ok(PassSplits::Off),
            Repr::Bool(true) => Ok(PassSplits::Any),
            Repr::Name(n) => PassSplits::from_name(&n).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "pass_splits must be off, live or any, not `{}`",
                    crate::quoted(&n)
                ))
            }),
        }
    }
}

/// A complete description of one variant of Chopsticks.
///
/// Players move in cyclic seat order `0, 1, …`. Seat `i` has `hands[i]` hands.
/// A player with no live hand has lost (two players) or is out (three or more).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ruleset {
    /// Hands per player, one entry per seat (its length is the number of players).
    pub hands: Vec<usize>,
    /// `F`: a hand dies when it reaches `F` fingers. Live hands hold `1..F`.
    pub fingers: u32,
    /// Cutoff or rollover.
    pub overflow: Overflow,
    /// A player may also tap one of their live hands on their own other live hand.
    pub self_attack: bool,
    /// Move fingers between two of your live hands; both stay alive.
    pub transfer: bool,
    /// Move fingers from a live hand onto a dead one, reviving it.
    pub divide: bool,
    /// Divisions must split the giving hand into two equal halves.
    /// Only meaningful (and only allowed) together with [`Ruleset::divide`].
    pub even_divide: bool,
    /// Divisions must split the giving hand into two halves that differ by at most
    /// one (`4 → 2+2`, `3 → 1+2`; a hand of 1 cannot divide). Wikipedia's "related
    /// variation" of even-only divisions. Only with [`Ruleset::divide`], never with
    /// [`Ruleset::even_divide`].
    #[serde(default)]
    pub near_even_divide: bool,
    /// A transfer may empty one of your live hands, killing it ("merge").
    pub suicide: bool,
    /// Which splits that leave the hands as they were (a swap or moving nothing,
    /// passing the turn) are allowed: none, only between two live hands (`13→31`,
    /// `22→22`), or also a live hand with a dead one (`01→10`). Off in every
    /// published source.
    pub pass_splits: PassSplits,
    /// Misère play: a player whose hands all die **wins** (and the game ends there).
    /// With [`Ruleset::teams`], a team whose hands all die wins.
    pub misere: bool,
    /// Team play (an even number of players): seats alternate between two teams
    /// (0, 2, 4, … against 1, 3, 5, …); a player attacks only the other team's hands;
    /// the game ends when one team has no live hand, and that team has lost (misère:
    /// won). With two players it is the ordinary game.
    #[serde(default)]
    pub teams: bool,
}

/// The named rulesets. Every preset has two players with two hands each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// Wikipedia's first text: cutoff at 5, self-attacks, transfers and divisions,
    /// no suicide. (The rules of its first-player-wins strategy list.)
    Standard,
    /// Wikipedia's second text: rollover at 5, transfers and divisions, attacks on the
    /// opponent only, no suicide. (625 raw / 225 distinct / 204 reachable positions.)
    Rollover,
    /// Rahman (2022): rollover at 5 with transfers, divisions and suicide (merges).
    Rahman,
    /// The paper's Simple Chopsticks: attacks only, cutoff at 5 (paper's `n = 4`).
    Simple,
}

impl Preset {
    /// Every preset, in the order they are documented.
    pub const ALL: [Preset; 4] = [
        Preset::Standard,
        Preset::Rollover,
        Preset::Rahman,
        Preset::Simple,
    ];

    /// The preset's name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Standard => "standard",
            Preset::Rollover => "rollover",
            Preset::Rahman => "rahman",
            Preset::Simple => "simple",
        }
    }

    /// One line saying what the preset is and where it comes from.
    pub fn description(self) -> &'static str {
        match self {
            Preset::Standard => {
                "cutoff at 5, self-attacks, transfers and divisions, no suicide (Wikipedia's first text)"
            }
            Preset::Rollover => {
                "rollover at 5, transfers and divisions, no self-attack, no suicide (Wikipedia's second text)"
            }
            Preset::Rahman => {
                "rollover at 5, transfers, divisions and suicide (merges) (Rahman 2022)"
            }
            Preset::Simple => "attacks only, cutoff at 5 (Simple Chopsticks, paper's n = 4)",
        }
    }

    /// Looks a preset up by name.
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
    }

    /// The ruleset this preset names.
    pub fn ruleset(self) -> Ruleset {
        let base = Ruleset {
            hands: vec![2, 2],
            fingers: 5,
            overflow: Overflow::Cutoff,
            self_attack: false,
            transfer: false,
            divide: false,
            even_divide: false,
            near_even_divide: false,
            suicide: false,
            pass_splits: PassSplits::Off,
            misere: false,
            teams: false,
        };
        match self {
            Preset::Standard => Ruleset {
                self_attack: true,
                transfer: true,
                divide: true,
                ..base
            },
            Preset::Rollover => Ruleset {
                overflow: Overflow::Rollover,
                transfer: true,
                divide: true,
                ..base
            },
            Preset::Rahman => Ruleset {
                overflow: Overflow::Rollover,
                transfer: true,
                divide: true,
                suicide: true,
                ..base
            },
            Preset::Simple => base,
        }
    }
}

impl Ruleset {
    /// The number of players.
    pub fn players(&self) -> usize {
        self.hands.len()
    }

    /// Whether relative seats `a` and `b` (or absolute ones) are on the same side:
    /// with team play, seats of the same parity; otherwise only a seat with itself.
    #[inline]
    pub fn same_side(&self, a: usize, b: usize) -> bool {
        if self.teams {
            a % 2 == b % 2
        } else {
            a == b
        }
    }

    /// Whether the game is over when exactly the players marked in `alive` (in seat
    /// order, any rotation) have a live hand: normal play, at most one player (with
    /// teams: one team) is left; misère, some player (with teams: some team) has none.
    #[inline]
    pub fn is_over(&self, alive: &[bool]) -> bool {
        if self.teams {
            let side = |parity: usize| alive.iter().enumerate().any(|(k, &a)| a && k % 2 == parity);
            !side(0) || !side(1)
        } else {
            let living = alive.iter().filter(|&&a| a).count();
            if self.misere {
                living < alive.len()
            } else {
                living <= 1
            }
        }
    }

    /// Whether any kind of split (transfer, division, suicide) is allowed.
    pub fn has_splits(&self) -> bool {
        self.transfer || self.divide || self.suicide
    }

    /// Whether every player has the same number of hands.
    pub fn is_symmetric(&self) -> bool {
        self.hands.windows(2).all(|w| w[0] == w[1])
    }

    /// The smallest `d ≥ 1` such that seat `i` and seat `i + d` always have the same
    /// number of hands. Positions whose movers sit `d` seats apart are the same game,
    /// so canonical positions record the mover's seat modulo `d` (0 for symmetric rules).
    pub fn rotation_period(&self) -> usize {
        let p = self.players();
        (1..=p)
            .find(|&d| {
                p.is_multiple_of(d) && (0..p).all(|i| self.hands[i] == self.hands[(i + d) % p])
            })
            .unwrap_or(p)
    }

    /// The value of hand `y` after it is tapped by a hand of value `x`
    /// (0 when it dies).
    #[inline]
    pub fn hit(&self, x: u32, y: u32) -> u32 {
        let s = x + y;
        match self.overflow {
            Overflow::Cutoff => {
                if s >= self.fingers {
                    0
                } else {
                    s
                }
            }
            Overflow::Rollover => s % self.fingers,
        }
    }

    /// Whether attacks by different values may give the same child: under
    /// cutoff every attack that reaches `F` kills the hand, so a move
    /// generator must merge them (under rollover the results differ). A
    /// property of the move graph that follows from the rules, computed here
    /// for every solver.
    pub fn attacks_may_repeat(&self) -> bool {
        self.overflow == Overflow::Cutoff
    }

    /// Whether this is the paper's Simple Chopsticks rule (attacks only, cutoff,
    /// normal play, any numbers of hands and fingers), where dead hands never
    /// matter: every switch of [`crate::options`] off but teams (which changes
    /// who may be attacked, not what an attack does), no pass-splits. A switch
    /// added to the table is outside it until said otherwise here.
    pub fn is_attack_only(&self) -> bool {
        self.overflow == Overflow::Cutoff
            && self.pass_splits == PassSplits::Off
            && crate::options::switches().all(|s| s.token == "teams" || !s.get(self))
    }

    /// Checks that the ruleset describes a playable game.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(RulesError::Ruleset(m));
        let p = self.players();
        if p < 2 {
            return bad(format!("a game needs at least 2 players, got {p}"));
        }
        if p > MAX_PLAYERS {
            return bad(format!(
                "at most {MAX_PLAYERS} players are supported, got {p}"
            ));
        }
        for (seat, &h) in self.hands.iter().enumerate() {
            if h == 0 {
                return bad(format!("Player {} has 0 hands", seat + 1));
            }
            if h > MAX_HANDS {
                return bad(format!(
                    "Player {} has {h} hands; at most {MAX_HANDS} are supported",
                    seat + 1
                ));
            }
        }
        if self.fingers < 2 {
            return bad(format!(
                "fingers must be at least 2 (a hand dies when it reaches F; with F = {} every hand starts dead)",
                self.fingers
            ));
        }
        if self.fingers > MAX_FINGERS {
            return bad(format!(
                "fingers must be at most {MAX_FINGERS}, got {}",
                self.fingers
            ));
        }
        if self.even_divide && !self.divide {
            return bad(
                "even-only division restricts divisions, but divisions are off (add --divide)"
                    .into(),
            );
        }
        if self.near_even_divide && !self.divide {
            return bad(
                "near-even division restricts divisions, but divisions are off (add --divide)"
                    .into(),
            );
        }
        if self.near_even_divide && self.even_divide {
            return bad("even-only and near-even divisions contradict each other: pick one".into());
        }
        match self.pass_splits {
            PassSplits::Any if !self.transfer && !self.divide => {
                return bad(
                    "pass-splits swap hands by a transfer or a division, but both are off".into(),
                );
            }
            PassSplits::Live if !self.transfer => {
                return bad(
                    "live pass-splits swap two live hands by a transfer, but transfers are off"
                        .into(),
                );
            }
            _ => {}
        }
        if self.teams && !p.is_multiple_of(2) {
            return bad(format!(
                "team play needs an even number of players (Players 1, 3, … against 2, 4, …), got {p}"
            ));
        }
        Ok(())
    }

    /// Every valid ruleset with the same players, hands and `F` as this one and any
    /// setting of the other rules: cutoff or rollover × self-attack × transfer ×
    /// division (none, free, even-only) × suicide × pass-splits × misère, in a fixed
    /// order (192 combinations less those [`Ruleset::validate`] refuses).
    pub fn variants(&self) -> Vec<Ruleset> {
        let mut out = Vec::new();
        for overflow in [Overflow::Cutoff, Overflow::Rollover] {
            for bits in 0u32..32 {
                let b = |k: u32| bits >> k & 1 == 1;
                for (divide, even_divide) in [(false, false), (true, false), (true, true)] {
                    let rules = Ruleset {
                        overflow,
                        self_attack: b(0),
                        transfer: b(1),
                        divide,
                        even_divide,
                        suicide: b(2),
                        pass_splits: if b(3) {
                            PassSplits::Any
                        } else {
                            PassSplits::Off
                        },
                        misere: b(4),
                        ..self.clone()
                    };
                    if rules.validate().is_ok() {
                        out.push(rules);
                    }
                }
            }
        }
        out
    }

    /// A one-line human description, e.g.
    /// `2 players × 2 hands, F = 5 cutoff; self-attack, transfer, division`.
    pub fn describe(&self) -> String {
        let hands = if self.is_symmetric() {
            let h = self.hands[0];
            format!(
                "{} players × {h} hand{}",
                self.players(),
                if h == 1 { "" } else { "s" }
            )
        } else {
            let list: Vec<String> = self.hands.iter().map(|h| h.to_string()).collect();
            format!("{} players, hands {}", self.players(), list.join(","))
        };
        let overflow = match self.overflow {
            Overflow::Cutoff => "cutoff",
            Overflow::Rollover => "rollover",
        };
        let mut rules = vec!["attack"];
        if self.self_attack {
            rules.push("self-attack");
        }
        if self.transfer {
            rules.push("transfer");
        }
        if self.divide {
            rules.push(if self.even_divide {
                "even division"
            } else if self.near_even_divide {
                "near-even division"
            } else {
                "division"
            });
        }
        if self.suicide {
            rules.push("suicide");
        }
        match self.pass_splits {
            PassSplits::Off => {}
            PassSplits::Live => rules.push("live pass-splits"),
            PassSplits::Any => rules.push("pass-splits"),
        }
        if self.misere {
            rules.push("misère");
        }
        if self.teams {
            rules.push("teams");
        }
        format!(
            "{hands}, F = {} {overflow}; {}",
            self.fingers,
            rules.join(", ")
        )
    }
}

impl Default for Ruleset {
    fn default() -> Self {
        Preset::Standard.ruleset()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid_and_named() {
        for p in Preset::ALL {
            p.ruleset().validate().unwrap();
            assert_eq!(Preset::from_name(p.name()), Some(p));
        }
        assert_eq!(Preset::from_name("nope"), None);
    }

    #[test]
    fn impossible_rulesets_are_refused() {
        let mut r = Preset::Standard.ruleset();
        r.hands = vec![2, 0];
        assert!(r.validate().unwrap_err().to_string().contains("0 hands"));
        let mut r = Preset::Standard.ruleset();
        r.fingers = 1;
        assert!(r.validate().unwrap_err().to_string().contains("at least 2"));
        let mut r = Preset::Standard.ruleset();
        r.hands = vec![2];
        assert!(r.validate().is_err());
        let mut r = Preset::Simple.ruleset();
        r.even_divide = true;
        assert!(r.validate().is_err());
        let mut r = Preset::Simple.ruleset();
        r.pass_splits = PassSplits::Any;
        assert!(r.validate().is_err());
        let mut r = Preset::Simple.ruleset();
        r.divide = true;
        r.pass_splits = PassSplits::Live;
        assert!(r
            .validate()
            .unwrap_err()
            .to_string()
            .contains("transfers are off"));
        let mut r = Preset::Standard.ruleset();
        r.even_divide = true;
        r.near_even_divide = true;
        assert!(r.validate().unwrap_err().to_string().contains("contradict"));
        let mut r = Preset::Simple.ruleset();
        r.near_even_divide = true;
        assert!(r
            .validate()
            .unwrap_err()
            .to_string()
            .contains("divisions are off"));
    }

    #[test]
    fn hit_follows_overflow() {
        let cut = Preset::Standard.ruleset();
        assert_eq!(cut.hit(2, 2), 4);
        assert_eq!(cut.hit(2, 3), 0);
        assert_eq!(cut.hit(4, 4), 0);
        let roll = Preset::Rollover.ruleset();
        assert_eq!(roll.hit(2, 4), 1);
        assert_eq!(roll.hit(2, 3), 0);
    }

    #[test]
    fn variants_are_distinct_and_valid() {
        let all = Preset::Simple.ruleset().variants();
        // 2 × 2^5 × 3 = 192, less pass-splits without transfers or divisions (2 × 2^3).
        assert_eq!(all.len(), 192 - 16);
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), all.len());
        assert!(all
            .iter()
            .all(|r| r.validate().is_ok() && r.hands == vec![2, 2]));
    }

    #[test]
    fn rotation_period() {
        let mut r = Preset::Standard.ruleset();
        assert_eq!(r.rotation_period(), 1);
        r.hands = vec![1, 3];
        assert_eq!(r.rotation_period(), 2);
        r.hands = vec![1, 2, 1, 2];
        assert_eq!(r.rotation_period(), 2);
        r.hands = vec![1, 1, 2];
        assert_eq!(r.rotation_period(), 3);
    }

    #[test]
    fn every_switch_but_teams_leaves_attack_only_play() {
        let simple = Preset::Simple.ruleset();
        assert!(simple.is_attack_only() && simple.attacks_may_repeat());
        for s in crate::options::switches() {
            let mut r = simple.clone();
            s.set(&mut r, true);
            assert_eq!(r.is_attack_only(), s.token == "teams", "{}", s.token);
        }
        let rollover = Ruleset {
            overflow: Overflow::Rollover,
            ..simple
        };
        assert!(!rollover.is_attack_only() && !rollover.attacks_may_repeat());
    }
}
