//! Winning strategies for three or more players (one seat against a coalition of
//! all the others) and for team play: for every position of small rulesets where
//! some seat can force a win, the extracted list passes `strategy::verify`, which
//! replays it against every defence from the move graph and the rules alone;
//! shortened lists stay winning and 1-minimal; a list claimed for a seat that
//! cannot force a win is refused.

use chopsticks_rules::{Preset, Ruleset};
use chopsticks_solve::strategy::{self, Seated};
use chopsticks_solve::{Solution, Value};
use chopsticks_space::Graph;
use rayon::prelude::*;

/// Checks the strategies of (a sample of) the positions of `rules` where some seat
/// wins; returns how many were checked.
fn check(rules: &Ruleset) -> usize {
    let graph = Graph::new(rules).unwrap();
    let solution = Solution::solve(&graph, &|_| {}).unwrap();
    let players = rules.players();
    let mut checked = 0;
    let mut minimised = 0;
    for i in 0..graph.count() {
        if graph.is_terminal(i) || !graph.mover_alive(i) {
            continue;
        }
        let seats = solution.seat_outcomes_at(i).unwrap();
        let winner = strategy::winning_seat(&graph, &solution, i).unwrap();
        let Some(seat) = winner else {
            if rules.teams || players == 2 {
                assert!(seats[0].value == Value::Draw, "{:?}", graph.position(i));
            } else {
                assert!(seats.iter().all(|o| o.value != Value::Win));
            }
            assert!(strategy::winning_strategy(&graph, &solution, i)
                .unwrap()
                .is_none());
            continue;
        };
        assert_eq!(seats[seat].value, Value::Win);
        let strat = strategy::winning_strategy(&graph, &solution, i)
            .unwrap()
            .unwrap();
        assert_eq!(strat.seat, seat);
        let faced = strategy::verify(&graph, i, &strat)
            .unwrap_or_else(|e| panic!("{rules:?} {:?}: {e}", graph.position(i)));
        assert!(faced >= 1);
        // The same list claimed for every other seat fails.
        for other in (0..players).filter(|&s| s != seat) {
            let wrong = strategy::Strategy {
                seat: other,
                ..strat.clone()
            };
            if seats[other].value != Value::Win {
                assert!(strategy::verify(&graph, i, &wrong).is_err());
            }
        }
        if minimised < 3 && strat.configurations.len() > 1 {
            minimised += 1;
            let short = strategy::minimise(&graph, i, &strat);
            strategy::verify(&graph, i, &short).unwrap();
            for k in 0..short.configurations.len() {
                let mut less = short.clone();
                less.configurations.remove(k);
                assert!(strategy::verify(&graph, i, &less).is_err(), "1-minimal");
            }
        }
        checked += 1;
    }
    checked
}

fn variants(hands: Vec<usize>, fingers: u32, teams: bool) -> Vec<Ruleset> {
    Ruleset {
        hands,
        fingers,
        teams,
        ..Preset::Simple.ruleset()
    }
    .variants()
}

#[test]
fn three_player_strategies_win_against_every_defence() {
    let mut rules = variants(vec![2, 2, 2], 3, false);
    rules.extend(variants(vec![2, 2, 2], 4, false));
    let checked: usize = rules.par_iter().map(check).sum();
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn four_player_coalition_strategies_win_against_every_defence() {
    let rules = variants(vec![2, 2, 2, 2], 3, false);
    let checked: usize = rules.par_iter().map(check).sum();
    assert!(checked > 2_000, "{checked}");
}

#[test]
fn team_strategies_win_against_every_defence() {
    let checked: usize = variants(vec![2, 2, 2, 2], 3, true)
        .par_iter()
        .map(check)
        .sum();
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn two_player_strategies_are_unchanged_in_form() {
    // With two players the configurations are the opponent's turn (seat 1).
    let rules = Preset::Standard.ruleset();
    let graph = Graph::new(&rules).unwrap();
    let solution = Solution::solve(&graph, &|_| {}).unwrap();
    let start = graph.index_of(&chopsticks_rules::Position::start(&rules));
    let strat = strategy::winning_strategy(&graph, &solution, start)
        .unwrap()
        .unwrap();
    assert_eq!(strat.seat, 0);
    assert!(strat.configurations.iter().all(|c: &Seated| c.seat == 1));
    assert!(check(&rules) > 20);
}

#[test]
fn team_configurations_are_written_from_the_player_who_moved() {
    // simple rules, F = 3, 2 against 2: the first team wins in 13; its list starts
    // with finished games and then positions the opponents must face.
    let rules = Ruleset {
        hands: vec![2; 4],
        fingers: 3,
        teams: true,
        ..Preset::Simple.ruleset()
    };
    let graph = Graph::new(&rules).unwrap();
    let solution = Solution::solve(&graph, &|_| {}).unwrap();
    let start = graph.index_of(&chopsticks_rules::Position::start(&rules));
    let advice = strategy::advice(&graph, &solution, start, Vec::new).unwrap();
    let strategy::Advice::Win {
        seat,
        win_immediately,
        configurations,
        ..
    } = advice
    else {
        panic!("a win");
    };
    assert_eq!(seat, 0);
    assert!(win_immediately);
    // Four players' hands, yours first.
    assert!(configurations
        .iter()
        .all(|c| c.matches('[').count() == 4 && c.starts_with('[')));
}
