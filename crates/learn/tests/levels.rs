//! Each level's choices follow its definition (`chopsticks_learn::level`)
//! over every position of standard Chopsticks reachable from the start: the
//! best move with probability `p + (1 - p) / n`, each other with `(1 - p) / n`.

use std::collections::{HashSet, VecDeque};

use chopsticks_learn::history::{evaluate, History, Repetitions, DEFAULT_BOUND};
use chopsticks_learn::{Level, Rng};
use chopsticks_rules::{Ruleset, SeatedPosition};
use chopsticks_solve::Solution;
use chopsticks_space::Graph;

#[test]
fn every_level_plays_by_its_definition() {
    let rules = Ruleset::from_variant_id("standard").unwrap();
    let graph = Graph::new(&rules).unwrap();
    let solution = Solution::solve(&graph, &|_| {}).unwrap();
    let start = SeatedPosition::start(&rules);
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    let mut positions = Vec::new();
    while let Some(p) = queue.pop_front() {
        for (_, c, step) in p.position().moves_with_steps(&rules) {
            let c = p.after(c, step);
            if seen.insert(c.clone()) {
                queue.push_back(c);
            }
        }
        positions.push(p);
    }
    const DRAWS: usize = 400;
    for level in Level::ALL {
        let mut rng = Rng::new(0xC0FFEE);
        // Expected and observed plays of the best move, and of the others.
        let (mut expected_best, mut best) = (0.0f64, 0usize);
        let mut total = 0usize;
        for p in &positions {
            let values = evaluate(
                &solution,
                &History::new(p.clone(), Repetitions::default()),
                DEFAULT_BOUND,
            )
            .unwrap();
            let n = values.moves.len();
            if n == 0 {
                continue;
            }
            let q = level.best_probability();
            for _ in 0..DRAWS {
                let k = level.choose(n, &mut rng);
                assert!(k < n);
                if level == Level::Perfect {
                    assert_eq!(k, 0);
                    assert_eq!(values.moves[k].outcome, values.mover(p.turn()));
                }
                best += usize::from(k == 0);
            }
            expected_best += DRAWS as f64 * (q + (1.0 - q) / n as f64);
            total += DRAWS;
        }
        // A binomial count within five standard deviations of its mean.
        let mean = expected_best;
        let share = mean / total as f64;
        let sd = (total as f64 * share * (1.0 - share)).sqrt().max(1.0);
        assert!(
            (best as f64 - mean).abs() <= 5.0 * sd,
            "{}: the best move {best} times of {total}, {mean:.0} expected",
            level.name()
        );
    }
}
