//! What one move does to one player's hands.
//!
//! A player's hands are a sorted multiset of values (`0` = dead). Every move of the
//! game changes exactly one player's multiset: an attack changes the tapped
//! opponent's, a self-attack, split or pass changes the mover's. These functions are
//! the single source of truth for those changes: [`crate::Position::moves`] composes
//! them into whole positions, and the dense successor tables of the state-space crate
//! are built from them too.
//!
//! Each function returns every *distinct* result once for the move values it is
//! given. Different moves can still lead to the same multiset in one way only: under
//! cutoff, two taps (attacks, or self-attacks) by different values that both kill a
//! hand of the same value. Under rollover every move has its own result.

use std::collections::HashSet;

use crate::ruleset::{PassSplits, Ruleset};

/// The three kinds of split. They differ in the number of dead hands: a transfer keeps
/// it, a division lowers it by one, a suicide raises it by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SplitKind {
    /// Fingers move between two live hands; both stay alive.
    Transfer,
    /// Fingers move from a live hand onto a dead one, reviving it.
    Division,
    /// A live hand gives all its fingers to another live hand and dies.
    Suicide,
}

impl SplitKind {
    /// Lower-case name: `transfer`, `division`, `suicide`.
    pub fn name(self) -> &'static str {
        match self {
            SplitKind::Transfer => "transfer",
            SplitKind::Division => "division",
            SplitKind::Suicide => "suicide",
        }
    }
}

/// Whether a player with these hands has a live hand.
#[inline]
pub fn is_alive(hands: &[u32]) -> bool {
    hands.iter().any(|&v| v != 0)
}

/// The distinct live values of a sorted multiset, in increasing order.
pub fn live_values(hands: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(hands.len());
    for &v in hands {
        if v != 0 && out.last() != Some(&v) {
            out.push(v);
        }
    }
    out
}

/// The distinct values of a sorted multiset (dead hands included), increasing.
fn distinct_values(hands: &[u32]) -> Vec<u32> {
    let mut out = hands.to_vec();
    out.dedup();
    out
}

/// Replaces one hand of value `from` by `to` and re-sorts.
fn replace_one(hands: &[u32], from: u32, to: u32) -> Vec<u32> {
    let mut out = hands.to_vec();
    let i = out
        .iter()
        .position(|&v| v == from)
        .expect("value present in multiset");
    out[i] = to;
    out.sort_unstable();
    out
}

/// The results of tapping each distinct live hand of `target` with a hand of value
/// `by`: pairs `(tapped value, target's hands afterwards)`.
pub fn attack_results(rules: &Ruleset, target: &[u32], by: u32) -> Vec<(u32, Vec<u32>)> {
    live_values(target)
        .into_iter()
        .map(|y| (y, replace_one(target, y, rules.hit(by, y))))
        .collect()
}

/// The results of the mover tapping one of their own live hands (value `x`) on
/// another of their live hands (value `y`): triples `(x, y, hands afterwards)`.
/// Empty unless [`Ruleset::self_attack`] is on.
pub fn self_attack_results(rules: &Ruleset, hands: &[u32]) -> Vec<(u32, u32, Vec<u32>)> {
    let mut out = Vec::new();
    if !rules.self_attack {
        return out;
    }
    let values = live_values(hands);
    for &x in &values {
        for &y in &values {
            // Two distinct hands are needed: tapping x on y when x == y needs two copies.
            if x == y && hands.iter().filter(|&&v| v == x).count() < 2 {
                continue;
            }
            out.push((x, y, replace_one(hands, y, rules.hit(x, y))));
        }
    }
    out
}

/// Every split the rules allow from `hands`: pairs `(kind, hands afterwards)`, each
/// distinct result once, never the unchanged multiset (see [`can_pass`] for that).
/// A split never makes a hand reach `F`.
pub fn split_results(rules: &Ruleset, hands: &[u32]) -> Vec<(SplitKind, Vec<u32>)> {
    let mut out: Vec<(SplitKind, Vec<u32>)> = Vec::new();
    if !rules.has_splits() {
        return out;
    }
    let f = rules.fingers;
    let values = distinct_values(hands);
    // Results met so far: the first move to reach a multiset names it.
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    for &x in values.iter().filter(|&&x| x != 0) {
        for &y in &values {
            // The receiver must be a different hand from the giver.
            if x == y && hands.iter().filter(|&&v| v == x).count() < 2 {
                continue;
            }
            for k in 1..=x {
                let (nx, ny) = (x - k, y + k);
                if ny >= f {
                    break;
                }
                let kind = if y == 0 {
                    if nx == 0 || !rules.divide {
                        continue; // moving a whole hand onto a dead one is a swap
                    }
                    if rules.even_divide && (x % 2 != 0 || k != x / 2) {
                        continue;
                    }
                    // Halves differing by at most one: `k` is ⌊x/2⌋ or ⌈x/2⌉.
                    if rules.near_even_divide && k != x / 2 && k != x.div_ceil(2) {
                        continue;
                    }
                    SplitKind::Division
                } else if nx == 0 {
                    if !rules.suicide {
                        continue;
                    }
                    SplitKind::Suicide
                } else {
                    if !rules.transfer {
                        continue;
                    }
                    SplitKind::Transfer
                };
                let mut after = replace_one(hands, x, nx);
                let at = after
                    .iter()
                    .rposition(|&v| v == y)
                    .expect("receiver present");
                after[at] = ny;
                after.sort_unstable();
                if after == hands {
                    continue; // a mere swap
                }
                if seen.insert(after.clone()) {
                    out.push((kind, after));
                }
            }
        }
    }
    out
}

/// An upper bound on `split_results(rules, hands).len()`, computed without
/// listing them: for each giver value `x` and receiver value `y`, at most
/// `min(x, F - 1 - y)` amounts can move.
pub fn split_count_bound(rules: &Ruleset, hands: &[u32]) -> u64 {
    if !rules.has_splits() {
        return 0;
    }
    let values = distinct_values(hands);
    let mut bound = 0u64;
    for &x in values.iter().filter(|&&x| x != 0) {
        for &y in &values {
            let room = (rules.fingers - 1).saturating_sub(y);
            bound += u64::from(x.min(room));
        }
    }
    bound
}

/// Whether the mover may make a pass-split: a split that leaves their hands as they
/// were, by swapping two hands or moving nothing. It needs two hands that a split
/// could join: two live hands with transfers on ([`PassSplits::Live`] and
/// [`PassSplits::Any`]), or, with [`PassSplits::Any`] only, a live hand and a dead
/// one with free divisions on (moving the whole hand across, `01 → 10`; neither an
/// even nor a near-even division, so not under those). See docs/REFERENCE.md §1.3.
pub fn can_pass(rules: &Ruleset, hands: &[u32]) -> bool {
    let live = hands.iter().filter(|&&v| v != 0).count();
    let dead = hands.len() - live;
    let between_live = rules.transfer && live >= 2;
    let with_dead =
        rules.divide && !rules.even_divide && !rules.near_even_divide && live >= 1 && dead >= 1;
    match rules.pass_splits {
        PassSplits::Off => false,
        PassSplits::Live => between_live,
        PassSplits::Any => between_live || with_dead,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Preset;

    fn afters(r: &Ruleset, h: &[u32]) -> Vec<Vec<u32>> {
        let mut v: Vec<Vec<u32>> = split_results(r, h).into_iter().map(|(_, a)| a).collect();
        v.sort();
        v
    }

    #[test]
    fn wikipedia_split_examples() {
        let r = Preset::Rollover.ruleset();
        // [3,1] can be split into [2,2] but not into [1,3]; [0,4] into [1,3], [2,2].
        assert_eq!(afters(&r, &[1, 3]), vec![vec![2, 2]]);
        assert_eq!(afters(&r, &[0, 4]), vec![vec![1, 3], vec![2, 2]]);
        assert_eq!(afters(&r, &[1, 1]), Vec::<Vec<u32>>::new());
        let rahman = Preset::Rahman.ruleset();
        assert_eq!(afters(&rahman, &[1, 1]), vec![vec![0, 2]]);
        assert_eq!(afters(&rahman, &[1, 3]), vec![vec![0, 4], vec![2, 2]]);
    }

    #[test]
    fn even_division_only_halves() {
        let mut r = Preset::Simple.ruleset();
        r.divide = true;
        r.even_divide = true;
        assert_eq!(afters(&r, &[0, 4]), vec![vec![2, 2]]);
        assert_eq!(afters(&r, &[0, 3]), Vec::<Vec<u32>>::new());
    }

    #[test]
    fn kinds_are_classified() {
        let mut r = Preset::Rahman.ruleset();
        r.hands = vec![3, 3];
        let res = split_results(&r, &[0, 1, 2]);
        for (kind, after) in res {
            let zeros = after.iter().filter(|&&v| v == 0).count();
            match kind {
                SplitKind::Transfer => assert_eq!(zeros, 1),
                SplitKind::Division => assert_eq!(zeros, 0),
                SplitKind::Suicide => assert_eq!(zeros, 2),
            }
        }
    }

    #[test]
    fn self_attack_needs_two_hands() {
        let r = Preset::Standard.ruleset();
        assert!(self_attack_results(&r, &[0, 1]).is_empty());
        let res = self_attack_results(&r, &[1, 1]);
        assert_eq!(res, vec![(1, 1, vec![1, 2])]);
        let res = self_attack_results(&r, &[2, 3]);
        assert_eq!(res.len(), 2);
        assert!(res.contains(&(2, 3, vec![0, 2])));
        assert!(res.contains(&(3, 2, vec![0, 3])));
    }

    #[test]
    fn pass_split_availability() {
        let mut r = Preset::Rollover.ruleset();
        r.pass_splits = PassSplits::Any;
        assert!(can_pass(&r, &[1, 3]));
        assert!(can_pass(&r, &[2, 2])); // moving nothing
        assert!(can_pass(&r, &[0, 1]));
        assert!(!can_pass(&r, &[0, 0]));
        r.divide = false;
        assert!(!can_pass(&r, &[0, 1]));
        r.transfer = false;
        r.divide = true;
        r.even_divide = true;
        assert!(!can_pass(&r, &[0, 4]));
    }

    #[test]
    fn live_pass_splits_need_two_live_hands() {
        let mut r = Preset::Rollover.ruleset();
        r.pass_splits = PassSplits::Live;
        assert!(can_pass(&r, &[1, 3]));
        assert!(can_pass(&r, &[2, 2]));
        assert!(!can_pass(&r, &[0, 1]), "a dead hand is not enough");
        assert!(!can_pass(&r, &[0, 4]));
        assert!(!can_pass(&r, &[0, 0]));
        r.hands = vec![3, 3];
        assert!(can_pass(&r, &[0, 1, 2]));
        assert!(!can_pass(&r, &[0, 0, 3]));
        r.pass_splits = PassSplits::Any;
        assert!(can_pass(&r, &[0, 0, 3]));
        r.near_even_divide = true;
        assert!(
            !can_pass(&r, &[0, 0, 3]),
            "near-even divisions never move a whole hand"
        );
        assert!(can_pass(&r, &[0, 1, 2]));
    }

    #[test]
    fn near_even_division_halves_within_one() {
        let mut r = Preset::Simple.ruleset();
        r.divide = true;
        r.near_even_divide = true;
        assert_eq!(afters(&r, &[0, 4]), vec![vec![2, 2]]);
        assert_eq!(afters(&r, &[0, 3]), vec![vec![1, 2]]);
        assert_eq!(afters(&r, &[0, 1]), Vec::<Vec<u32>>::new());
        r.fingers = 10;
        assert_eq!(afters(&r, &[0, 7]), vec![vec![3, 4]]);
        // Transfers, when on, are not restricted.
        r.transfer = true;
        assert_eq!(afters(&r, &[1, 3]), vec![vec![2, 2]]);
    }
}
