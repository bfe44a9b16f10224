//! The rule options, written once: every switch and choice of the rule space
//! with its word, its field, its label, its help and what it implies. The
//! variant ids ([`Ruleset::from_variant_id`]), the command line's flags, the web page's
//! rule picker (served to it by `GET /api/v1/chopsticks/`) and the tests that
//! the documentation lists every option all read this table, so a new rule is
//! one entry here (and its field, its moves and its prose: see "Adding a rule"
//! in ARCHITECTURE.md).
//!
//! **Switches** are on/off rules (`self-attack`, `no-self-attack`). Some imply
//! others: `even-divide` turns divisions on and near-even ones off; `no-divide`
//! turns even and near-even divisions off. A switch given explicitly is never
//! changed by another's implication, and two given switches whose
//! implications disagree contradict each other (`even-divide` with
//! `no-divide`): [`apply_switches`] refuses them.
//!
//! **Choices** have more than two values, each with its own word: the overflow
//! (`cutoff`, `rollover`) and the pass-splits (`no-pass-splits`,
//! `pass-splits-live`, `pass-splits`).
//!
//! [`RULE_OPTIONS`] lists them all in the canonical order of a variant id.

use crate::ruleset::{Overflow, PassSplits, Ruleset};

/// An on/off rule.
#[derive(Debug)]
pub struct Switch {
    /// Its word: the variant id's token and the command line's flag
    /// (`--self-attack`, off: `--no-self-attack`).
    pub token: &'static str,
    /// The field of [`Ruleset`] (and of its JSON) that holds it.
    pub field: &'static str,
    /// A few words for a check box (`self-attacks`).
    pub label: &'static str,
    /// One sentence for the command line's help.
    pub help: &'static str,
    /// Switched on, it also sets these switches (by token) unless they are given.
    pub on_sets: &'static [(&'static str, bool)],
    /// Switched off, likewise.
    pub off_sets: &'static [(&'static str, bool)],
    get: fn(&Ruleset) -> bool,
    set: fn(&mut Ruleset, bool),
}

impl Switch {
    /// Whether `rules` has it on.
    pub fn get(&self, rules: &Ruleset) -> bool {
        (self.get)(rules)
    }

    /// Sets it in `rules` (nothing else: see [`apply_switches`] for what it
    /// implies).
    pub fn set(&self, rules: &mut Ruleset, on: bool) {
        (self.set)(rules, on)
    }

    /// Its word, switched `on` or off: `transfer`, `no-transfer`.
    pub fn word(&self, on: bool) -> String {
        if on {
            self.token.to_string()
        } else {
            format!("no-{}", self.token)
        }
    }

    /// What it sets besides itself when given `on` or off.
    pub fn implies(&self, on: bool) -> &'static [(&'static str, bool)] {
        if on {
            self.on_sets
        } else {
            self.off_sets
        }
    }
}

/// One value of a [`Choice`].
#[derive(Debug)]
pub struct ChoiceValue {
    /// The value in the ruleset's JSON (`cutoff`, `live`).
    pub value: &'static str,
    /// Its word in a variant id (`cutoff`, `pass-splits-live`).
    pub token: &'static str,
    /// A few words for a menu.
    pub label: &'static str,
}

/// A rule with more than two values.
#[derive(Debug)]
pub struct Choice {
    /// Its name (`overflow`, `pass-splits`).
    pub name: &'static str,
    /// The field of [`Ruleset`] (and of its JSON) that holds it.
    pub field: &'static str,
    /// A word or two for a menu.
    pub label: &'static str,
    /// Its values, each with its word.
    pub values: &'static [ChoiceValue],
    get: fn(&Ruleset) -> usize,
    set: fn(&mut Ruleset, usize),
}

impl Choice {
    /// The value `rules` has (an index into [`Choice::values`]).
    pub fn get(&self, rules: &Ruleset) -> usize {
        (self.get)(rules)
    }

    /// Sets value `k` (an index into [`Choice::values`]).
    pub fn set(&self, rules: &mut Ruleset, k: usize) {
        (self.set)(rules, k)
    }

    /// The value whose word is `token`, if one is.
    pub fn find(&self, token: &str) -> Option<usize> {
        self.values.iter().position(|v| v.token == token)
    }
}

/// A rule option: a switch or a choice.
#[derive(Debug)]
pub enum RuleOption {
    Switch(Switch),
    Choice(Choice),
}

/// The overflow: what a hand that would reach `F` or more becomes.
pub const OVERFLOW: Choice = Choice {
    name: "overflow",
    field: "overflow",
    label: "Overflow",
    values: &[
        ChoiceValue {
            value: "cutoff",
            token: "cutoff",
            label: "cutoff (reach F or more: dead)",
        },
        ChoiceValue {
            value: "rollover",
            token: "rollover",
            label: "rollover (count modulo F)",
        },
    ],
    get: |r| match r.overflow {
        Overflow::Cutoff => 0,
        Overflow::Rollover => 1,
    },
    set: |r, k| {
        r.overflow = if k == 0 {
            Overflow::Cutoff
        } else {
            Overflow::Rollover
        }
    },
};

/// The pass-splits: splits that leave the hands as they were.
pub const PASS_SPLITS: Choice = Choice {
    name: "pass-splits",
    field: "pass_splits",
    label: "pass-splits",
    values: &[
        ChoiceValue {
            value: "off",
            token: "no-pass-splits",
            label: "none",
        },
        ChoiceValue {
            value: "live",
            token: "pass-splits-live",
            label: "between live hands (13 → 31)",
        },
        ChoiceValue {
            value: "any",
            token: "pass-splits",
            label: "also with a dead hand (01 → 10)",
        },
    ],
    get: |r| match r.pass_splits {
        PassSplits::Off => 0,
        PassSplits::Live => 1,
        PassSplits::Any => 2,
    },
    set: |r, k| r.pass_splits = [PassSplits::Off, PassSplits::Live, PassSplits::Any][k],
};

/// Every rule option, in the canonical order of a variant id.
pub const RULE_OPTIONS: [RuleOption; 10] = [
    RuleOption::Choice(OVERFLOW),
    RuleOption::Switch(Switch {
        token: "self-attack",
        field: "self_attack",
        label: "self-attacks",
        help: "Allow tapping your own other hand",
        on_sets: &[],
        off_sets: &[],
        get: |r| r.self_attack,
        set: |r, on| r.self_attack = on,
    }),
    RuleOption::Switch(Switch {
        token: "transfer",
        field: "transfer",
        label: "transfers",
        help: "Allow moving fingers between two live hands",
        on_sets: &[],
        off_sets: &[],
        get: |r| r.transfer,
        set: |r, on| r.transfer = on,
    }),
    RuleOption::Switch(Switch {
        token: "divide",
        field: "divide",
        label: "divisions (revive a hand)",
        help: "Allow reviving a dead hand with fingers from a live one; off, even-only and near-even divisions go too",
        on_sets: &[],
        off_sets: &[("even-divide", false), ("near-even-divide", false)],
        get: |r| r.divide,
        set: |r, on| r.divide = on,
    }),
    RuleOption::Switch(Switch {
        token: "even-divide",
        field: "even_divide",
        label: "even divisions only",
        help: "Divisions only into two equal halves (turns divisions on)",
        on_sets: &[("divide", true), ("near-even-divide", false)],
        off_sets: &[],
        get: |r| r.even_divide,
        set: |r, on| r.even_divide = on,
    }),
    RuleOption::Switch(Switch {
        token: "near-even-divide",
        field: "near_even_divide",
        label: "near-even divisions only (3 → 1+2)",
        help: "Divisions only into two halves that differ by at most one, 3 → 1+2 (turns divisions on)",
        on_sets: &[("divide", true), ("even-divide", false)],
        off_sets: &[],
        get: |r| r.near_even_divide,
        set: |r, on| r.near_even_divide = on,
    }),
    RuleOption::Switch(Switch {
        token: "suicide",
        field: "suicide",
        label: "suicide",
        help: "Allow a split that empties a live hand onto another (a merge: the emptied hand dies); with or without transfers",
        on_sets: &[],
        off_sets: &[],
        get: |r| r.suicide,
        set: |r, on| r.suicide = on,
    }),
    RuleOption::Choice(PASS_SPLITS),
    RuleOption::Switch(Switch {
        token: "misere",
        field: "misere",
        label: "misère (lose all hands to win)",
        help: "Misère play: a player whose hands all die wins",
        on_sets: &[],
        off_sets: &[],
        get: |r| r.misere,
        set: |r, on| r.misere = on,
    }),
    RuleOption::Switch(Switch {
        token: "teams",
        field: "teams",
        label: "teams (odd against even players)",
        help: "Team play (an even number of players): Players 1, 3, 5, … against 2, 4, 6, …; attacks only on the other team; a team with no live hand has lost",
        on_sets: &[],
        off_sets: &[],
        get: |r| r.teams,
        set: |r, on| r.teams = on,
    }),
];

/// Every switch, in canonical order.
pub fn switches() -> impl Iterator<Item = &'static Switch> {
    RULE_OPTIONS.iter().filter_map(|o| match o {
        RuleOption::Switch(s) => Some(s),
        RuleOption::Choice(_) => None,
    })
}

/// Every choice, in canonical order.
pub fn choices() -> impl Iterator<Item = &'static Choice> {
    RULE_OPTIONS.iter().filter_map(|o| match o {
        RuleOption::Choice(c) => Some(c),
        RuleOption::Switch(_) => None,
    })
}

/// The switch whose token is `token` (without `no-`).
pub fn switch(token: &str) -> Option<&'static Switch> {
    switches().find(|s| s.token == token)
}

/// Every word a variant id may hold besides sizes: each switch on and off, and
/// each value of each choice.
pub fn words() -> Vec<String> {
    let mut out = Vec::new();
    for option in &RULE_OPTIONS {
        match option {
            RuleOption::Switch(s) => out.extend([s.word(true), s.word(false)]),
            RuleOption::Choice(c) => out.extend(c.values.iter().map(|v| v.token.to_string())),
        }
    }
    out
}

/// Sets the switches `given` (tokens, each on or off) in `rules`, each with
/// what it implies for the switches not given. Refuses two given switches
/// whose implications disagree, naming them as `prefix` + their words
/// (`--even-divide` and `--no-divide` on the command line); the same switch
/// given twice is the caller's to refuse.
pub fn apply_switches(
    rules: &mut Ruleset,
    given: &[(&'static Switch, bool)],
    prefix: &str,
) -> Result<(), String> {
    let given_value = |token: &str| given.iter().find(|(s, _)| s.token == token).map(|g| g.1);
    for &(s, on) in given {
        for &(other, value) in s.implies(on) {
            if given_value(other).is_some_and(|v| v != value) {
                let other = switch(other).expect("implications name switches");
                return Err(format!(
                    "`{prefix}{}` and `{prefix}{}` contradict each other",
                    s.word(on),
                    other.word(!value)
                ));
            }
        }
    }
    for &(s, on) in given {
        s.set(rules, on);
    }
    for &(s, on) in given {
        for &(other, value) in s.implies(on) {
            if given_value(other).is_none() {
                switch(other)
                    .expect("implications name switches")
                    .set(rules, value);
            }
        }
    }
    Ok(())
}

/// For each switch, and each two values of each choice, two valid rulesets
/// that differ in it alone (with what it implies), and its word: what a text
/// written from the rules (a description, the instructions) must tell apart,
/// so that a test can check that no option is forgotten there.
pub fn contrasts() -> Vec<(String, Ruleset, Ruleset)> {
    let bases: Vec<Ruleset> = ["standard", "standard.p4", "rahman", "rollover.pass-splits"]
        .iter()
        .map(|id| Ruleset::from_variant_id(id).expect("a valid id"))
        .collect();
    let mut out = Vec::new();
    for s in switches() {
        let pair = bases.iter().find_map(|base| {
            let [mut on, mut off] = [base.clone(), base.clone()];
            apply_switches(&mut on, &[(s, true)], "").ok()?;
            apply_switches(&mut off, &[(s, false)], "").ok()?;
            (on.validate().is_ok() && off.validate().is_ok()).then_some((on, off))
        });
        let (on, off) = pair.expect("every switch can be turned on and off in a base");
        out.push((s.token.to_string(), on, off));
    }
    for c in choices() {
        for a in 0..c.values.len() {
            for b in a + 1..c.values.len() {
                let pair = bases.iter().find_map(|base| {
                    let [mut x, mut y] = [base.clone(), base.clone()];
                    c.set(&mut x, a);
                    c.set(&mut y, b);
                    (x.validate().is_ok() && y.validate().is_ok()).then_some((x, y))
                });
                let (x, y) = pair.expect("every two values of a choice are valid in a base");
                out.push((format!("{}/{}", c.values[a].token, c.values[b].token), x, y));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Preset;

    #[test]
    fn every_option_reads_and_writes_its_own_field() {
        let base = Preset::Simple.ruleset();
        let json = |r: &Ruleset| serde_json::to_value(r).unwrap();
        for s in switches() {
            let mut r = base.clone();
            s.set(&mut r, !s.get(&base));
            assert_ne!(s.get(&r), s.get(&base), "{}", s.token);
            // The field named is the one that changed, and the only one.
            let (a, b) = (json(&base), json(&r));
            let changed: Vec<&String> = a
                .as_object()
                .unwrap()
                .keys()
                .filter(|k| a[*k] != b[*k])
                .collect();
            assert_eq!(changed, [s.field], "{}", s.token);
        }
        for c in choices() {
            for (k, v) in c.values.iter().enumerate() {
                let mut r = base.clone();
                c.set(&mut r, k);
                assert_eq!(c.get(&r), k);
                assert_eq!(json(&r)[c.field], v.value, "{}", v.token);
            }
        }
    }

    #[test]
    fn the_description_names_every_option() {
        for (word, a, b) in contrasts() {
            assert_ne!(a.describe(), b.describe(), "{word}");
        }
    }

    #[test]
    fn words_are_unique_and_implications_name_switches() {
        let mut all = words();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
        for s in switches() {
            for on in [true, false] {
                for (other, _) in s.implies(on) {
                    assert!(switch(other).is_some(), "{other}");
                }
            }
        }
    }

    #[test]
    fn implications_apply_to_what_is_not_given_and_contradictions_are_refused() {
        let sw = |t: &str| switch(t).unwrap();
        let mut r = Preset::Simple.ruleset();
        apply_switches(&mut r, &[(sw("even-divide"), true)], "").unwrap();
        assert!(r.divide && r.even_divide && !r.near_even_divide);
        apply_switches(&mut r, &[(sw("near-even-divide"), true)], "").unwrap();
        assert!(r.divide && !r.even_divide && r.near_even_divide);
        apply_switches(&mut r, &[(sw("divide"), false)], "").unwrap();
        assert!(!r.divide && !r.even_divide && !r.near_even_divide);
        let err = apply_switches(
            &mut r,
            &[(sw("divide"), false), (sw("even-divide"), true)],
            "--",
        )
        .unwrap_err();
        assert_eq!(
            err,
            "`--no-divide` and `--even-divide` contradict each other"
        );
        let err = apply_switches(
            &mut r,
            &[(sw("even-divide"), true), (sw("near-even-divide"), true)],
            "",
        )
        .unwrap_err();
        assert!(err.contains("contradict"), "{err}");
    }
}
