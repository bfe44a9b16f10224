//! Number of distinct games born by day n: 1, 4, 22, 1474 (a classic count).

use crate::common;

use chopsticks_cgt::{GameId, GameStore};
use common::next_day as next_day_by_all_subsets;
use std::collections::BTreeSet;

/// All antichains of `games` under `≤` (a set of options is equivalent, as a
/// Left or as a Right option set, to its maximal resp. minimal elements, and
/// both are antichains, so antichains cover every canonical option set).
fn antichains(s: &mut GameStore, games: &[GameId]) -> Vec<Vec<GameId>> {
    let n = games.len();
    let mut comparable = vec![vec![false; n]; n];
    for i in 0..n {
        for j in 0..n {
            comparable[i][j] = i != j && (s.le(games[i], games[j]) || s.le(games[j], games[i]));
        }
    }
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn rec(
        i: usize,
        games: &[GameId],
        comparable: &[Vec<bool>],
        current: &mut Vec<usize>,
        out: &mut Vec<Vec<GameId>>,
    ) {
        if i == games.len() {
            out.push(current.iter().map(|k| games[*k]).collect());
            return;
        }
        rec(i + 1, games, comparable, current, out);
        if current.iter().all(|k| !comparable[*k][i]) {
            current.push(i);
            rec(i + 1, games, comparable, current, out);
            current.pop();
        }
    }
    rec(0, games, &comparable, &mut current, &mut out);
    out
}

fn next_day(s: &mut GameStore, games: &[GameId]) -> Vec<GameId> {
    let sets = antichains(s, games);
    let mut all = BTreeSet::new();
    for l in &sets {
        for r in &sets {
            all.insert(s.game(l, r));
        }
    }
    all.into_iter().collect()
}

#[test]
fn games_born_by_day_two() {
    let mut s = GameStore::new();
    let day0 = vec![s.zero()];
    assert_eq!(day0.len(), 1);
    // Day 1 and day 2 by brute force over all subsets (not just antichains).
    let mut day = day0;
    for expected in [4, 22] {
        day = next_day_by_all_subsets(&mut s, &day);
        assert_eq!(day.len(), expected);
    }
    assert!(day.iter().all(|g| s.birthday(*g) <= 2));
}

#[test]
fn games_born_by_day_three() {
    let mut s = GameStore::new();
    let mut day = vec![s.zero()];
    let mut counts = vec![1];
    for _ in 0..3 {
        day = next_day(&mut s, &day);
        counts.push(day.len());
    }
    assert_eq!(counts, vec![1, 4, 22, 1474]);
    assert!(day.iter().all(|g| s.birthday(*g) <= 3));
}
