//! Property tests: dense indexing and notations are bijections.

use chopsticks_rules::{
    MultisetIndex, Notation, Overflow, Position, PositionIndex, Preset, Ruleset, SeatedPosition,
};
use proptest::prelude::*;

fn ruleset() -> impl Strategy<Value = Ruleset> {
    (
        prop::collection::vec(1usize..=4, 2..=4),
        2u32..=14,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(hands, fingers, rollover, misere)| Ruleset {
            hands,
            fingers,
            overflow: if rollover {
                Overflow::Rollover
            } else {
                Overflow::Cutoff
            },
            misere,
            ..Preset::Rollover.ruleset()
        })
}

proptest! {
    #[test]
    fn multiset_rank_unrank(size in 1usize..=8, fingers in 2u32..=40, seed in any::<u64>()) {
        let m = MultisetIndex::new(size, fingers).unwrap();
        let r = seed % m.count();
        let mut v = vec![0; size];
        m.unrank(r, &mut v);
        prop_assert!(v.windows(2).all(|w| w[0] <= w[1]));
        prop_assert!(v.iter().all(|&x| x < fingers));
        prop_assert_eq!(m.rank(&v), r);
    }

    #[test]
    fn position_rank_unrank(rules in ruleset(), seed in any::<u64>()) {
        let index = PositionIndex::new(&rules).unwrap();
        let i = seed % index.count();
        let p = index.unrank(i);
        prop_assert_eq!(index.rank(&p), i);
        // A position rebuilt from its hands is the same canonical position.
        prop_assert_eq!(Position::new(&rules, p.players().to_vec()).unwrap(), p);
    }

    #[test]
    fn notation_round_trips(rules in ruleset(), seed in any::<u64>()) {
        let index = PositionIndex::new(&rules).unwrap();
        let p = index.unrank(seed % index.count());
        // With three or more players the index also holds positions whose mover has no
        // hand in an unfinished game; they are never played, and reading refuses them.
        let skipped = !p.is_terminal(&rules) && p.mover().iter().all(|&v| v == 0);
        for notation in Notation::ALL {
            let Ok(text) = p.to_notation(&rules, notation) else {
                continue; // e.g. compact notation with F > 10
            };
            if skipped {
                prop_assert!(Position::parse(&text, &rules).is_err());
                continue;
            }
            let back = Position::parse(&text, &rules).unwrap();
            if notation == Notation::Paper && p.seat() != 0 {
                // The paper's notation names no mover: reading puts Left (seat 0) to move.
                prop_assert_eq!(back.seat(), 0);
            } else {
                prop_assert_eq!(&back, &p, "{}", text);
            }
            prop_assert_eq!(back.to_notation(&rules, notation).unwrap(), text);
        }
    }

    #[test]
    fn shuffled_hands_read_the_same(rules in ruleset(), seed in any::<u64>()) {
        let index = PositionIndex::new(&rules).unwrap();
        let p = index.unrank(seed % index.count());
        let reversed: Vec<Vec<u32>> = p
            .players()
            .iter()
            .map(|h| h.iter().rev().copied().collect())
            .collect();
        prop_assert_eq!(Position::new(&rules, reversed).unwrap(), p);
    }

    #[test]
    fn garbage_never_panics(text in "\\PC{0,12}") {
        let rules = Preset::Standard.ruleset();
        let _ = Position::parse(&text, &rules);
        let _ = SeatedPosition::parse(&text, &rules);
    }

    /// A seated text (`2_1112`) reads back to the same seat and position, from every
    /// seat that has the mover's number of hands; it uses URL-safe characters only.
    #[test]
    fn seated_text_round_trips(rules in ruleset(), seed in any::<u64>(), turn in 0usize..4) {
        let index = PositionIndex::new(&rules).unwrap();
        let p = index.unrank(seed % index.count());
        if !p.is_terminal(&rules) && p.mover().iter().all(|&v| v == 0) {
            return Ok(());
        }
        let period = rules.rotation_period();
        let turn = (turn % rules.players()) / period * period + p.seat();
        if turn >= rules.players() {
            return Ok(());
        }
        let seated = SeatedPosition::new(&rules, turn, p.clone()).unwrap();
        let text = seated.to_text(&rules).unwrap();
        prop_assert!(text.bytes().all(|b| b.is_ascii_digit() || b"_-,".contains(&b)), "{}", text);
        let back = SeatedPosition::parse(&text, &rules).unwrap();
        prop_assert_eq!(back.turn(), turn);
        prop_assert_eq!(back.position(), &p);
        prop_assert_eq!(back.to_text(&rules).unwrap(), text);
    }

    #[test]
    fn moves_keep_positions_canonical(rules in ruleset(), seed in any::<u64>()) {
        let index = PositionIndex::new(&rules).unwrap();
        let p = index.unrank(seed % index.count());
        for (m, q) in p.moves(&rules) {
            prop_assert_eq!(index.unrank(index.rank(&q)), q.clone());
            let (m2, q2) = p.find_move(&rules, &m.describe(&rules)).unwrap();
            prop_assert_eq!(m2, m);
            prop_assert_eq!(q2, q);
        }
    }
}
