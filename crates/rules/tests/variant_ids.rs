//! Property tests: variant ids name every valid ruleset, one canonical way.

use chopsticks_rules::{Overflow, PassSplits, Ruleset, MAX_FINGERS};
use proptest::prelude::*;

fn any_ruleset() -> impl Strategy<Value = Ruleset> {
    (
        prop_oneof![
            (1usize..=16, 2usize..=8).prop_map(|(h, p)| vec![h; p]),
            prop::collection::vec(1usize..=16, 2..=8),
        ],
        prop_oneof![2u32..=20, 2u32..=MAX_FINGERS],
        any::<bool>(),
        prop::array::uniform8(any::<bool>()),
        (any::<bool>(), 0u8..3),
    )
        .prop_map(|(hands, fingers, rollover, s, (near, pass))| Ruleset {
            teams: s[7] && hands.len() % 2 == 0,
            hands,
            fingers,
            overflow: if rollover {
                Overflow::Rollover
            } else {
                Overflow::Cutoff
            },
            self_attack: s[0],
            transfer: s[1],
            divide: s[2],
            even_divide: s[3],
            near_even_divide: near && s[2] && !s[3],
            suicide: s[4],
            pass_splits: match pass {
                1 if s[1] => PassSplits::Live,
                2 => PassSplits::Any,
                _ => PassSplits::Off,
            },
            misere: s[6],
        })
}

/// Ids built from real tokens, valid or not, and some noise.
fn id_text() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("standard".to_string()),
        Just("simple".to_string()),
        Just("rollover".to_string()),
        Just("cutoff".to_string()),
        Just("no-transfer".to_string()),
        Just("transfer".to_string()),
        Just("divide".to_string()),
        Just("no-divide".to_string()),
        Just("even-divide".to_string()),
        Just("suicide".to_string()),
        Just("pass-splits".to_string()),
        Just("pass-splits-live".to_string()),
        Just("no-pass-splits".to_string()),
        Just("near-even-divide".to_string()),
        Just("no-near-even-divide".to_string()),
        Just("misere".to_string()),
        Just("teams".to_string()),
        Just("no-teams".to_string()),
        Just("self-attack".to_string()),
        (0u32..20).prop_map(|n| format!("p{n}")),
        (0u32..20).prop_map(|n| format!("h{n}")),
        (0u32..5, 0u32..5).prop_map(|(a, b)| format!("h{a}-{b}")),
        (0u32..40).prop_map(|n| format!("f{n}")),
        "[a-z0-9.+-]{0,6}",
    ];
    prop::collection::vec(token, 1..8).prop_map(|t| t.join("."))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn canonical_ids_round_trip(rules in any_ruleset()) {
        prop_assume!(rules.validate().is_ok());
        let id = rules.variant_id();
        prop_assert_eq!(Ruleset::from_variant_id(&id).unwrap(), rules);
    }

    #[test]
    fn every_id_read_has_the_same_canonical_id(text in id_text()) {
        if let Ok(rules) = Ruleset::from_variant_id(&text) {
            let id = rules.variant_id();
            let again = Ruleset::from_variant_id(&id).unwrap();
            prop_assert_eq!(&again, &rules);
            prop_assert_eq!(again.variant_id(), id);
        }
    }
}
