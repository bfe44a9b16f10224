//! Symmetry of players: exchanging Left and Right negates the value.

use chopsticks_cgt::GameStore;
use chopsticks_rules::{Preset, Ruleset};
use chopsticks_values::{value, CgtPosition};
use proptest::prelude::*;

/// A finger count `n` (so `F = n + 1`) and live hands for Left and Right below it.
fn position() -> impl Strategy<Value = (u32, Vec<u32>, Vec<u32>)> {
    (1u32..=7).prop_flat_map(|n| {
        (
            Just(n),
            prop::collection::vec(1..=n, 1..=3),
            prop::collection::vec(1..=n, 1..=3),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn swapping_players_negates_the_value(
        (n, left, right) in position(),
        self_attack in any::<bool>(),
    ) {
        let rules = Ruleset {
            hands: vec![left.len(), right.len()],
            fingers: n + 1,
            self_attack,
            ..Preset::Simple.ruleset()
        };
        let swapped = Ruleset {
            hands: vec![right.len(), left.len()],
            ..rules.clone()
        };
        let mut store = GameStore::new();
        let g = value(&mut store, &rules, &CgtPosition::new(left.clone(), right.clone())).unwrap();
        let h = value(&mut store, &swapped, &CgtPosition::new(right, left)).unwrap();
        prop_assert_eq!(store.neg(g), h);
    }
}
