//! Helpers shared by the engine's tests.

#![allow(dead_code)] // each test file uses its own subset

use std::collections::BTreeSet;

use chopsticks_cgt::{GameId, GameStore};

/// The games born by the next day: every game whose Left and Right options are
/// subsets of `day` (all subsets, not just antichains), distinct, in id order.
pub fn next_day(s: &mut GameStore, day: &[GameId]) -> Vec<GameId> {
    let k = day.len();
    let mut all = BTreeSet::new();
    for lm in 0u32..(1 << k) {
        for rm in 0u32..(1 << k) {
            let pick = |m: u32| -> Vec<GameId> {
                (0..k).filter(|i| m >> i & 1 == 1).map(|i| day[i]).collect()
            };
            all.insert(s.game(&pick(lm), &pick(rm)));
        }
    }
    all.into_iter().collect()
}
