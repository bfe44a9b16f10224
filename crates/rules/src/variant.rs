//! Variant ids: a whole ruleset as one short word, for URLs, file names and APIs.
//!
//! An id is a preset's name followed by dot-separated overrides, read left to right
//! as the command line's options are:
//!
//! ```text
//! rollover.h3.f7.suicide.no-transfer
//! standard.p3
//! simple.h1-3            (per-seat hands: seat 0 has 1 hand, seat 1 has 3)
//! ```
//!
//! | token | meaning |
//! |---|---|
//! | `pN` | `N` players (each with the preset's hand count unless `h` says otherwise) |
//! | `hN`, `hA-B-…` | `N` hands for everybody, or one count per seat |
//! | `fN` | `F = N` (a hand dies when it reaches `N`) |
//! | `cutoff`, `rollover` | the overflow rule |
//! | `self-attack`, `transfer`, `divide`, `even-divide`, `near-even-divide`, `suicide`, `pass-splits`, `misere`, `teams` | switch a rule on; `no-…` switches it off |
//! | `pass-splits-live` | pass-splits between two live hands only (`pass-splits` allows them with a dead hand too) |
//!
//! As on the command line, `even-divide` and `near-even-divide` turn divisions on and
//! `no-divide` turns them off, and contradictions are errors: a token with its `no-`
//! form, `cutoff` with `rollover`, `even-divide` or `near-even-divide` with
//! `no-divide`, `pass-splits` with `pass-splits-live`, or any token twice. The result
//! must pass [`Ruleset::validate`].
//!
//! **Canonical ids.** [`Ruleset::variant_id`] writes every ruleset one way: of the
//! presets, the one that needs the fewest overrides (the first in [`Preset::ALL`] on
//! a tie), then the overrides that differ from it, in the order of the table above.
//! Reading a canonical id gives the ruleset back, and every id of a ruleset has the
//! same canonical id.

use crate::error::{quoted, Result, RulesError};
use crate::options::{
    self, apply_switches, choices, switches, Choice, RuleOption, Switch, RULE_OPTIONS,
};
use crate::ruleset::{Preset, Ruleset, MAX_HANDS, MAX_PLAYERS};

/// The longest variant id read (the longest canonical id is far shorter).
pub const MAX_VARIANT_ID: usize = 256;

fn error(id: &str, message: impl std::fmt::Display) -> RulesError {
    RulesError::Ruleset(format!("variant `{}`: {message}", quoted(id)))
}

/// Reads a number of at most 9 digits (no sign, no leading `+`).
fn number(id: &str, token: &str, digits: &str) -> Result<u64> {
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(error(id, format!("`{}`: expected a number", quoted(token))));
    }
    Ok(digits.parse().expect("at most 9 digits"))
}

/// The token of a variant id that sets `key` (`'p'` players, `'h'` hands, `'f'`
/// fingers), as [`Ruleset::from_variant_id`] reads it: `h3` or `h1-3` in
/// `standard.h3.f7`. For commands that must know whether an id names a size
/// that another option would replace.
pub fn variant_size_token(id: &str, key: char) -> Option<&str> {
    id.split('.').skip(1).find(|token| {
        token.starts_with(key) && token.as_bytes().get(1).is_some_and(u8::is_ascii_digit)
    })
}

impl Ruleset {
    /// Reads a variant id (see the module documentation).
    pub fn from_variant_id(id: &str) -> Result<Ruleset> {
        if id.len() > MAX_VARIANT_ID {
            return Err(error(id, format!("longer than {MAX_VARIANT_ID} bytes")));
        }
        let mut tokens = id.split('.');
        let name = tokens.next().unwrap_or("");
        let preset = Preset::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
            error(
                id,
                format!(
                    "it starts with `{}`, not a preset ({})",
                    quoted(name),
                    names.join(", ")
                ),
            )
        })?;
        let mut rules = preset.ruleset();
        let mut seen: Vec<&str> = Vec::new();
        let mut players: Option<usize> = None;
        let mut hands: Option<Vec<usize>> = None;
        let mut switches: Vec<(&'static Switch, bool)> = Vec::new();
        let mut choices: Vec<(&'static Choice, usize, &str)> = Vec::new();
        for token in tokens {
            let size = match token.as_bytes().first() {
                Some(b'p' | b'h' | b'f')
                    if token.len() == 1
                        || token.as_bytes().get(1).is_some_and(u8::is_ascii_digit) =>
                {
                    Some(&token[..1])
                }
                _ => None,
            };
            let choice = choices_of(token);
            if let Some((c, _)) = choice {
                if let Some(&(_, _, before)) = choices.iter().find(|(d, _, _)| d.name == c.name) {
                    return Err(error(
                        id,
                        if before == token {
                            format!("`{}` is given twice", quoted(token))
                        } else {
                            format!(
                                "`{}` and `{}` contradict each other",
                                quoted(before),
                                quoted(token)
                            )
                        },
                    ));
                }
            } else {
                // A size or a switch (on or off).
                let key = size.unwrap_or_else(|| token.strip_prefix("no-").unwrap_or(token));
                if seen.contains(&key) {
                    return Err(error(id, format!("`{}` is given twice", quoted(key))));
                }
                seen.push(key);
            }
            match (size, choice) {
                (Some("p"), _) => {
                    let p = number(id, token, &token[1..])?;
                    if p > MAX_PLAYERS as u64 {
                        return Err(error(id, format!("at most {MAX_PLAYERS} players, got {p}")));
                    }
                    players = Some(p as usize);
                }
                (Some("h"), _) => {
                    let counts = token[1..]
                        .split('-')
                        .map(|d| number(id, token, d))
                        .collect::<Result<Vec<u64>>>()?;
                    if counts.len() > MAX_PLAYERS {
                        return Err(error(id, format!("at most {MAX_PLAYERS} players")));
                    }
                    if let Some(&h) = counts.iter().find(|&&h| h > MAX_HANDS as u64) {
                        return Err(error(id, format!("at most {MAX_HANDS} hands, got {h}")));
                    }
                    hands = Some(counts.into_iter().map(|h| h as usize).collect());
                }
                (Some(_), _) => rules.fingers = number(id, token, &token[1..])? as u32,
                (None, Some((c, k))) => choices.push((c, k, token)),
                (None, None) => {
                    let Some(s) = options::switch(token.strip_prefix("no-").unwrap_or(token))
                    else {
                        return Err(error(id, format!("unknown option `{}`", quoted(token))));
                    };
                    switches.push((s, !token.starts_with("no-")));
                }
            }
        }
        apply_switches(&mut rules, &switches, "").map_err(|e| error(id, e))?;
        for (c, k, _) in choices {
            c.set(&mut rules, k);
        }
        match (hands, players) {
            (Some(h), Some(p)) if h.len() == 1 => rules.hands = vec![h[0]; p],
            (Some(h), Some(p)) if h.len() != p => {
                return Err(error(
                    id,
                    format!("`h` lists {} players but `p` says {p}", h.len()),
                ))
            }
            (Some(h), _) if h.len() == 1 => rules.hands = vec![h[0]; rules.players()],
            (Some(h), _) => rules.hands = h,
            (None, Some(p)) => rules.hands = vec![rules.hands[0]; p],
            (None, None) => {}
        }
        rules
            .validate()
            .map_err(|e| error(id, e.to_string().trim_start_matches("impossible ruleset: ")))?;
        Ok(rules)
    }

    /// The canonical variant id of this ruleset (see the module documentation).
    pub fn variant_id(&self) -> String {
        Preset::ALL
            .iter()
            .map(|&preset| overrides(preset, self))
            .min_by_key(|tokens| tokens.len() - 1)
            .expect("there are presets")
            .join(".")
    }
}

/// The preset's name and the overrides that turn it into `rules`.
fn overrides(preset: Preset, rules: &Ruleset) -> Vec<String> {
    let base = preset.ruleset();
    let mut tokens = vec![preset.name().to_string()];
    if rules.hands != base.hands {
        if rules.is_symmetric() {
            if rules.players() != base.players() {
                tokens.push(format!("p{}", rules.players()));
            }
            if rules.hands[0] != base.hands[0] {
                tokens.push(format!("h{}", rules.hands[0]));
            }
        } else {
            let counts: Vec<String> = rules.hands.iter().map(usize::to_string).collect();
            tokens.push(format!("h{}", counts.join("-")));
        }
    }
    if rules.fingers != base.fingers {
        tokens.push(format!("f{}", rules.fingers));
    }
    for option in &RULE_OPTIONS {
        match option {
            RuleOption::Choice(c) => {
                let k = c.get(rules);
                if k != c.get(&base) {
                    tokens.push(c.values[k].token.to_string());
                }
            }
            RuleOption::Switch(s) => {
                let is = s.get(rules);
                if is == s.get(&base) {
                    continue;
                }
                // Not said when another switch that differs implies it
                // (`even-divide` implies `divide`, `no-divide` implies
                // `no-even-divide`).
                let implied = switches().any(|other| {
                    let on = other.get(rules);
                    on != other.get(&base) && other.implies(on).contains(&(s.token, is))
                });
                if !implied {
                    tokens.push(s.word(is));
                }
            }
        }
    }
    tokens
}

/// The choice one of whose values `token` is the word of, and that value.
fn choices_of(token: &str) -> Option<(&'static Choice, usize)> {
    choices().find_map(|c| c.find(token).map(|k| (c, k)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Overflow;

    fn id(text: &str) -> Ruleset {
        Ruleset::from_variant_id(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn the_issue_example() {
        let r = id("rollover.h3.f7.suicide.no-transfer");
        assert_eq!(r.hands, vec![3, 3]);
        assert_eq!(r.fingers, 7);
        assert_eq!(r.overflow, Overflow::Rollover);
        assert!(r.suicide && !r.transfer && r.divide);
        // Rahman's rules are rollover's with suicide: one override fewer.
        assert_eq!(r.variant_id(), "rahman.h3.f7.no-transfer");
    }

    #[test]
    fn presets_are_their_own_ids() {
        for preset in Preset::ALL {
            assert_eq!(preset.ruleset().variant_id(), preset.name());
            assert_eq!(id(preset.name()), preset.ruleset());
        }
        // Case does not matter for the preset's name.
        assert_eq!(id("Standard"), Preset::Standard.ruleset());
    }

    #[test]
    fn the_closest_preset_names_a_ruleset() {
        // Standard without self-attacks is closest to rollover with cutoff (two
        // overrides either way: standard wins the tie, being first).
        assert_eq!(
            id("standard.no-self-attack").variant_id(),
            "standard.no-self-attack"
        );
        assert_eq!(
            id("simple.rollover.transfer.divide").variant_id(),
            "rollover"
        );
        assert_eq!(id("simple.p3").variant_id(), "simple.p3");
        assert_eq!(id("simple.h1-3").variant_id(), "simple.h1-3");
        assert_eq!(id("simple.p3.h1").variant_id(), "simple.p3.h1");
        assert_eq!(
            id("standard.even-divide").variant_id(),
            "standard.even-divide"
        );
        assert_eq!(id("simple.even-divide").variant_id(), "simple.even-divide");
        assert_eq!(id("rollover.no-divide").variant_id(), "rollover.no-divide");
    }

    #[test]
    fn contradictions_and_nonsense_are_errors() {
        for (text, needle) in [
            ("", "not a preset"),
            ("nope", "not a preset"),
            ("standard.cutoff.rollover", "contradict"),
            ("standard.transfer.no-transfer", "given twice"),
            ("standard.even-divide.no-divide", "contradict"),
            ("standard.no-divide.even-divide", "contradict"),
            ("standard.f5.f6", "given twice"),
            ("standard.f", "expected a number"),
            ("standard.fx", "unknown option `fx`"),
            ("standard.no-cutoff", "unknown option"),
            ("standard.no-p3", "unknown option"),
            ("standard.f1", "fingers must be at least 2"),
            ("standard.f99999999999", "expected a number"),
            ("standard.h0", "0 hands"),
            ("standard.h17", "at most 16 hands"),
            ("standard.p9", "at most 8 players"),
            ("standard.p1", "at least 2 players"),
            ("standard.h1-2.p3", "lists 2 players"),
            ("standard..transfer", "unknown option"),
            ("standard.transfer.", "unknown option"),
            ("simple.pass-splits", "both are off"),
            ("standard.h1--2", "expected a number"),
            ("standard.h+1", "unknown option"),
        ] {
            let err = Ruleset::from_variant_id(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
        let long = format!("standard{}", ".transfer".repeat(100));
        let err = Ruleset::from_variant_id(&long).unwrap_err().to_string();
        assert!(err.contains("longer than 256") && err.len() < 200, "{err}");
    }

    #[test]
    fn every_variant_round_trips() {
        for base in [
            Preset::Standard.ruleset(),
            Ruleset {
                hands: vec![1, 3, 1, 3],
                fingers: 11,
                ..Preset::Rahman.ruleset()
            },
            Ruleset {
                hands: vec![3; 5],
                ..Preset::Simple.ruleset()
            },
        ] {
            for rules in base.variants() {
                let text = rules.variant_id();
                assert_eq!(id(&text), rules, "{text}");
            }
        }
    }
}
