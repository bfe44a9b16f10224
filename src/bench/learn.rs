//! `chopsticks bench learn`: what the learning features cost once a variant is
//! solved: a review of a 200-move game, a hint and the computer's move at the
//! end of a 200-ply game (values of the game so far), and every puzzle of standard
//! Chopsticks and of the 25-million-position rollover variant.

use std::time::Instant;

use anyhow::{bail, Result};
use chopsticks_learn::record::GameRecord;
use chopsticks_learn::{review, Checker, PuzzleSet};
use chopsticks_rules::{Position, Ruleset, SeatedPosition};
use chopsticks_solve::Solution;
use serde_json::json;

use crate::workload::graph_for_solving;

/// The number of moves of the reviewed game.
pub const GAME_PLIES: usize = 200;

/// A game of `plies` moves that does not end: at each ply a move chosen by a
/// fixed pseudo-random sequence among those whose position is not finished,
/// so it is full of mistakes (each with its lines to compute). No position
/// comes up a third time (that would end the game, a draw by threefold
/// repetition): a move into a dead end is taken back and another tried.
fn long_game(rules: &Ruleset, plies: usize) -> Result<String> {
    use chopsticks_learn::record::REPETITIONS;
    let mut state = 0x5EED_u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    // The moves still to try at each ply of the path (in a pseudo-random
    // order), and how often each position is on the path.
    let start = SeatedPosition::start(rules);
    let mut seen = std::collections::HashMap::from([(start.clone(), 1usize)]);
    let mut path: Vec<(SeatedPosition, String)> = Vec::new();
    let mut options: Vec<Vec<(String, SeatedPosition)>> = Vec::new();
    let children = |at: &SeatedPosition, next: &mut dyn FnMut() -> usize| {
        let mut list: Vec<(String, SeatedPosition)> = at
            .position()
            .moves_with_steps(rules)
            .into_iter()
            .filter(|(_, to, _)| !to.is_terminal(rules))
            .map(|(m, to, step)| (at.move_name(rules, &m), at.after(to, step)))
            .collect();
        for k in (1..list.len()).rev() {
            list.swap(k, next() % (k + 1));
        }
        list
    };
    options.push(children(&start, &mut next));
    let mut tries = 0u64;
    while path.len() < plies {
        tries += 1;
        if tries > 10_000_000 {
            bail!("the game generator found no game of {plies} plies");
        }
        let Some(choices) = options.last_mut() else {
            bail!("the game generator found no game of {plies} plies");
        };
        match choices.pop() {
            Some((name, to)) => {
                let count = seen.entry(to.clone()).or_insert(0);
                if *count + 1 >= REPETITIONS {
                    continue;
                }
                *count += 1;
                let more = children(&to, &mut next);
                path.push((to, name));
                options.push(more);
            }
            None => {
                // A dead end: take the last move back.
                options.pop();
                let Some((to, _)) = path.pop() else {
                    bail!("the game generator found no game of {plies} plies");
                };
                *seen.get_mut(&to).expect("on the path") -= 1;
            }
        }
    }
    let mut record = format!("variant {}\n", rules.variant_id());
    for (ply, (_, name)) in path.iter().enumerate() {
        record.push_str(&format!("{}. {name}\n", ply + 1));
    }
    Ok(record)
}

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Times finding every puzzle of `rules` (after solving it, not timed).
fn puzzles(rules: &Ruleset, runs: u32) -> Result<serde_json::Value> {
    let graph = graph_for_solving(rules, true)?;
    let clock = Instant::now();
    let solution = Solution::solve(&graph, &|_| {})?;
    let solve = clock.elapsed().as_secs_f64();
    let start = graph.index_of(&Position::start(rules));
    let mut times = Vec::new();
    let mut explore_times = Vec::new();
    let mut found = None;
    for _ in 0..runs {
        let clock = Instant::now();
        let reached = chopsticks_space::explore(&graph, start, &|_| {}).reached;
        explore_times.push(clock.elapsed().as_secs_f64());
        let set = PuzzleSet::among(&graph, &solution, &reached)?;
        times.push(clock.elapsed().as_secs_f64());
        found = Some(set);
    }
    let set = found.expect("at least one run");
    let counts = set.counts();
    Ok(json!({
        "variant": rules.variant_id(),
        "positions": graph.count(),
        "reachable": set.reachable,
        "puzzles": set.puzzles.len(),
        "win_by_grade": counts[0],
        "hold_by_grade": counts[1],
        "solve_seconds": solve,
        "seconds": times,
        "median_seconds": median(times.clone()),
        "explore_seconds": explore_times,
    }))
}

/// Times a hint (every move valued by the game so far) and the computer's
/// choice at the end of a 200-ply game of standard Chopsticks: its history
/// full of positions seen twice, so that the blocked positions' game is solved
/// again.
fn game_values(runs: u32) -> Result<serde_json::Value> {
    use chopsticks_learn::history::{evaluate, History, Repetitions, DEFAULT_BOUND};
    use chopsticks_learn::{Level, Rng};
    let rules = Ruleset::from_variant_id("standard")?;
    let graph = graph_for_solving(&rules, true)?;
    let solution = Solution::solve(&graph, &|_| {})?;
    let text = long_game(&rules, GAME_PLIES)?;
    let replay = GameRecord::parse(&text)?.replay(&rules)?;
    let mut history = History::new(replay.start.clone(), Repetitions::default());
    for ply in &replay.plies {
        history.push(ply.to.clone());
    }
    let twice = history
        .positions()
        .iter()
        .collect::<std::collections::HashSet<_>>()
        .into_iter()
        .filter(|p| history.times_seen(p) >= 2)
        .count();
    let mut hint_times = Vec::new();
    let mut choice_times = Vec::new();
    let mut solved_again = 0;
    let mut differs = false;
    let mut rng = Rng::new(1);
    for _ in 0..runs.max(20) {
        let clock = Instant::now();
        let values = evaluate(&solution, &history, DEFAULT_BOUND)?;
        hint_times.push(clock.elapsed().as_secs_f64());
        solved_again = values.solved_again;
        differs = values.differs_from_table();
        let clock = Instant::now();
        let values = evaluate(&solution, &history, DEFAULT_BOUND)?;
        let k = Level::Strong.choose(values.moves.len(), &mut rng);
        std::hint::black_box(&values.moves[k]);
        choice_times.push(clock.elapsed().as_secs_f64());
    }
    // A hint at every ply of the game, each timed `runs` times (its fastest
    // kept): the slowest ply, and the most positions any ply solves again.
    let positions = history.positions().to_vec();
    let mut slowest = (0usize, 0.0f64);
    let mut most_solved_again = 0;
    for len in 1..=positions.len() {
        let prefix = History::from_positions(positions[..len].to_vec(), Repetitions::default())
            .expect("at least the start");
        let mut best = f64::INFINITY;
        for _ in 0..runs.max(3) {
            let clock = Instant::now();
            let values = evaluate(&solution, &prefix, DEFAULT_BOUND)?;
            best = best.min(clock.elapsed().as_secs_f64());
            most_solved_again = most_solved_again.max(values.solved_again);
        }
        if best > slowest.1 {
            slowest = (len - 1, best);
        }
    }
    Ok(json!({
        "variant": rules.variant_id(),
        "plies": replay.plies.len(),
        "slowest_ply": slowest.0,
        "slowest_hint_seconds": slowest.1,
        "most_solved_again": most_solved_again,
        "positions_seen_twice": twice,
        "solved_again": solved_again,
        "differs_from_table": differs,
        "hint_seconds": hint_times,
        "median_hint_seconds": median(hint_times.clone()),
        "median_choice_seconds": median(choice_times),
    }))
}

pub fn run(runs: u32, json_out: bool) -> Result<()> {
    // The review: a 200-move game of rollover Chopsticks (a draw with best play,
    // so a game can go on), reviewed with its lines.
    let rollover = Ruleset::from_variant_id("rollover")?;
    let graph = graph_for_solving(&rollover, true)?;
    let solution = Solution::solve(&graph, &|_| {})?;
    let text = long_game(&rollover, GAME_PLIES)?;
    let replay = GameRecord::parse(&text)?.replay(&rollover)?;
    let mut times = Vec::new();
    let mut mistakes = 0;
    let mut line_plies = 0;
    for _ in 0..runs.max(5) {
        let clock = Instant::now();
        let r = review(&solution, &replay, &mut Checker::trusted())?;
        times.push(clock.elapsed().as_secs_f64());
        mistakes = r.moves.iter().filter(|m| m.best_line.is_some()).count();
        line_plies = r
            .moves
            .iter()
            .flat_map(|m| m.best_line.iter().chain(m.refutation.iter()))
            .map(|l| l.steps.len())
            .sum::<usize>();
    }
    let review_row = json!({
        "variant": rollover.variant_id(),
        "moves": replay.plies.len(),
        "mistakes": mistakes,
        "line_plies": line_plies,
        "seconds": times,
        "median_seconds": median(times.clone()),
    });
    let game = game_values(runs)?;
    let standard = puzzles(&Ruleset::from_variant_id("standard")?, runs)?;
    let large = puzzles(&super::large_variant(), runs)?;
    if json_out {
        crate::commands::print_json(&json!({
            "workload": "learn",
            "threads": rayon::current_num_threads(),
            "review": review_row,
            "game_values": game,
            "puzzles": [standard, large],
        }));
        return Ok(());
    }
    println!(
        "review:   a {}-move game of {} ({} moves not best, {} plies of lines): median {:.2} ms of {} runs",
        review_row["moves"],
        review_row["variant"].as_str().unwrap_or_default(),
        mistakes,
        line_plies,
        review_row["median_seconds"].as_f64().unwrap_or(0.0) * 1e3,
        times.len()
    );
    println!(
        "hint:     after a {}-ply game of {} ({} positions seen twice, {} solved again): median {:.2} ms; the computer's move {:.2} ms; the slowest ply's hint (ply {}) {:.2} ms, at most {} positions solved again",
        game["plies"],
        game["variant"].as_str().unwrap_or_default(),
        game["positions_seen_twice"],
        game["solved_again"],
        game["median_hint_seconds"].as_f64().unwrap_or(0.0) * 1e3,
        game["median_choice_seconds"].as_f64().unwrap_or(0.0) * 1e3,
        game["slowest_ply"],
        game["slowest_hint_seconds"].as_f64().unwrap_or(0.0) * 1e3,
        game["most_solved_again"],
    );
    for row in [&standard, &large] {
        println!(
            "puzzles:  {} ({} positions, {} reachable): {} puzzles in {:.3} s (median of {}; exploring {:.3} s of it; solve {:.1} s, not counted)",
            row["variant"].as_str().unwrap_or_default(),
            row["positions"],
            row["reachable"],
            row["puzzles"],
            row["median_seconds"].as_f64().unwrap_or(0.0),
            runs,
            median(
                row["explore_seconds"]
                    .as_array()
                    .map(|a| a.iter().filter_map(|v| v.as_f64()).collect())
                    .unwrap_or_else(|| vec![0.0])
            ),
            row["solve_seconds"].as_f64().unwrap_or(0.0),
        );
    }
    Ok(())
}
