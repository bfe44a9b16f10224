//! Helpers shared by the solver's integration tests.

use chopsticks_rules::{Preset, Ruleset};

/// The shapes (hands, fingers) the solvers' tests compare at.
pub const SHAPES: &[(&[usize], u32)] = &[
    (&[2, 2], 5),
    (&[3, 3], 5),
    (&[2, 3], 6),
    (&[4, 4], 6),
    (&[3, 5], 6),
];

/// Every valid ruleset of the four presets at these shapes (hands, fingers),
/// in normal play and misère.
pub fn rulesets(shapes: &[(&[usize], u32)]) -> Vec<Ruleset> {
    let mut out = Vec::new();
    for preset in [
        Preset::Standard,
        Preset::Rollover,
        Preset::Rahman,
        Preset::Simple,
    ] {
        for &(hands, fingers) in shapes {
            let mut rules = Ruleset {
                hands: hands.to_vec(),
                fingers,
                ..preset.ruleset()
            };
            if rules.validate().is_ok() {
                out.push(rules.clone());
                rules.misere = true;
                if rules.validate().is_ok() {
                    out.push(rules);
                }
            }
        }
    }
    out
}
