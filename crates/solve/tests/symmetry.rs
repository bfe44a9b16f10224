//! Symmetry of players: relabelling the seats does not change any outcome.

use chopsticks_rules::{Overflow, PassSplits, Position, Ruleset};
use chopsticks_solve::Solution;
use chopsticks_space::Graph;
use proptest::prelude::*;

fn ruleset() -> impl Strategy<Value = Ruleset> {
    (
        1usize..=3,
        1usize..=3,
        2u32..=5,
        any::<bool>(),
        any::<[bool; 9]>(),
    )
        .prop_map(|(a, b, fingers, rollover, s)| Ruleset {
            hands: vec![a, b],
            fingers,
            overflow: if rollover {
                Overflow::Rollover
            } else {
                Overflow::Cutoff
            },
            self_attack: s[0],
            transfer: s[1],
            divide: s[2],
            even_divide: s[2] && s[3],
            near_even_divide: s[2] && !s[3] && s[7],
            suicide: s[4],
            pass_splits: match (s[5], s[8]) {
                (true, true) if s[1] => PassSplits::Live,
                (true, _) if s[1] || s[2] => PassSplits::Any,
                _ => PassSplits::Off,
            },
            misere: s[6],
            teams: false,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn relabelling_seats_keeps_every_outcome(rules in ruleset()) {
        let swapped = Ruleset {
            hands: vec![rules.hands[1], rules.hands[0]],
            ..rules.clone()
        };
        let g1 = Graph::new(&rules).unwrap();
        let g2 = Graph::new(&swapped).unwrap();
        let s1 = Solution::solve(&g1, &|_| {}).unwrap();
        let s2 = Solution::solve(&g2, &|_| {}).unwrap();
        for i in 0..g1.count() {
            let p = g1.position(i);
            let q = Position::new(&swapped, p.players().to_vec()).unwrap();
            prop_assert_eq!(s1.outcome_at(i).unwrap(), s2.outcome(&q).unwrap(), "{:?}", p);
        }
    }
}
