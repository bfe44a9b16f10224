//! Reviews, lines and puzzles checked against a separate search written here:
//! a plain retrograde analysis over the positions reachable from the start,
//! from `Position::moves_with_steps` and the rules of finished games alone
//! (no move graph, no dense index, no table of `chopsticks-solve`).

use std::collections::{HashMap, HashSet, VecDeque};

use chopsticks_learn::history::{evaluate, History, Repetitions, DEFAULT_BOUND};
use chopsticks_learn::puzzles::{puzzle_at, view, PuzzleSet};
use chopsticks_learn::record::{GameRecord, WrittenMove};
use chopsticks_learn::{optimal_line, review, Checker, LineEnd, PuzzleKind, Verdict};
use chopsticks_rules::{hands::is_alive, Position, Ruleset, SeatedPosition};
use chopsticks_solve::{Outcome, Solution, Value};
use chopsticks_space::Graph;

/// Values of every reachable position, for its mover, by the separate search.
struct Search {
    rules: Ruleset,
    values: HashMap<Position, Outcome>,
}

impl Search {
    fn new(rules: &Ruleset) -> Search {
        assert_eq!(rules.players(), 2);
        let start = Position::start(rules);
        let mut children: HashMap<Position, Vec<Position>> = HashMap::new();
        let mut queue = VecDeque::from([start.clone()]);
        let mut seen = HashSet::from([start]);
        while let Some(p) = queue.pop_front() {
            let kids: Vec<Position> = p.moves(rules).into_iter().map(|(_, c)| c).collect();
            for c in &kids {
                if seen.insert(c.clone()) {
                    queue.push_back(c.clone());
                }
            }
            children.insert(p, kids);
        }
        let mut values: HashMap<Position, Outcome> = HashMap::new();
        for (p, kids) in &children {
            if kids.is_empty() {
                let finished = p.is_terminal(rules);
                let alive = is_alive(&p.players()[0]);
                let wins = if finished {
                    alive != rules.misere
                } else {
                    rules.misere
                };
                values.insert(
                    p.clone(),
                    if wins {
                        Outcome::win(0)
                    } else {
                        Outcome::lose(0)
                    },
                );
            }
        }
        // Level k: a win if some child is a loss in k - 1; a loss if every
        // child is a win and the slowest is in k - 1.
        for k in 1..10_000u32 {
            let mut found = Vec::new();
            for (p, kids) in &children {
                if values.contains_key(p) {
                    continue;
                }
                let child = |c: &Position| values.get(c).copied();
                if kids.iter().any(|c| child(c) == Some(Outcome::lose(k - 1))) {
                    found.push((p.clone(), Outcome::win(k)));
                } else if kids
                    .iter()
                    .all(|c| child(c).is_some_and(|o| o.value == Value::Win))
                    && kids.iter().any(|c| child(c) == Some(Outcome::win(k - 1)))
                    && kids
                        .iter()
                        .all(|c| child(c).is_some_and(|o| o.remoteness <= Some(k - 1)))
                {
                    found.push((p.clone(), Outcome::lose(k)));
                }
            }
            if found.is_empty() {
                // Nothing resolves at this level; no later level can either.
                break;
            }
            values.extend(found);
        }
        for p in children.keys() {
            values.entry(p.clone()).or_insert(Outcome::DRAW);
        }
        Search {
            rules: rules.clone(),
            values,
        }
    }

    fn value(&self, p: &Position) -> Outcome {
        self.values[p]
    }

    /// The mover's value of each move.
    fn moves(&self, p: &Position) -> Vec<(String, Outcome)> {
        p.moves(&self.rules)
            .into_iter()
            .map(|(m, c)| (m.describe(&self.rules), self.value(&c).through_move()))
            .collect()
    }

    fn best(&self, p: &Position) -> Outcome {
        self.value(p)
    }
}

fn solve(rules: &Ruleset) -> Solution {
    let graph = Graph::new(rules).unwrap();
    Solution::solve(&graph, &|_| {}).unwrap()
}

/// A small pseudo-random generator for the games.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

const VARIANTS: [&str; 5] = [
    "standard",
    "rollover",
    "simple",
    "standard.misere",
    "simple.f4.transfer.h3",
];

#[test]
fn the_separate_search_agrees_with_the_solver_where_both_reach() {
    for id in VARIANTS {
        let rules = Ruleset::from_variant_id(id).unwrap();
        let search = Search::new(&rules);
        let solution = solve(&rules);
        for (p, o) in &search.values {
            assert_eq!(solution.outcome(p).unwrap(), *o, "{id} {p:?}");
        }
    }
}

/// Counts `at` as met once more; true when that is its third time: the game is
/// a draw by threefold repetition there, and a record ends (a replay refuses
/// a move after it).
fn third_time(seen: &mut HashMap<SeatedPosition, usize>, at: &SeatedPosition) -> bool {
    let count = seen.entry(at.clone()).or_insert(0);
    *count += 1;
    *count >= chopsticks_learn::record::REPETITIONS
}

/// Plays a game: best moves by the separate search, except at the plies in
/// `mistakes`, where the worst move is played; returns the record and the
/// verdict expected at each ply.
fn game_with_mistakes(
    search: &Search,
    rng: &mut Rng,
    length: usize,
    mistakes: &HashSet<usize>,
) -> (GameRecord, Vec<Verdict>) {
    let rules = &search.rules;
    let mut at = SeatedPosition::start(rules);
    let mut seen = HashMap::new();
    third_time(&mut seen, &at);
    let mut moves = Vec::new();
    let mut expected = Vec::new();
    for ply in 0..length {
        let p = at.position().clone();
        if p.is_terminal(rules) {
            break;
        }
        let mut list = search.moves(&p);
        list.sort_by(|a, b| a.1.preference(&b.1));
        let before = search.best(&p);
        let (name, after) = if mistakes.contains(&ply) {
            list.last().unwrap().clone()
        } else {
            // Any of the best moves.
            let best: Vec<_> = list.iter().filter(|m| m.1 == before).cloned().collect();
            best[rng.below(best.len())].clone()
        };
        // The verdict from the separate search's values.
        let verdict = match (before.value, after.value) {
            (Value::Win, Value::Win) if after.remoteness > before.remoteness => {
                Verdict::SlowerWin {
                    plies: after.remoteness.unwrap() - before.remoteness.unwrap(),
                }
            }
            (Value::Lose, Value::Lose) if after.remoteness < before.remoteness => {
                Verdict::FasterLoss {
                    plies: before.remoteness.unwrap() - after.remoteness.unwrap(),
                }
            }
            (Value::Win, Value::Draw) => Verdict::WinToDraw,
            (Value::Win, Value::Lose) => Verdict::WinToLoss,
            (Value::Draw, Value::Lose) => Verdict::DrawToLoss,
            _ => Verdict::Best,
        };
        expected.push(verdict);
        let (_, to, step) = p
            .moves_with_steps(rules)
            .into_iter()
            .find(|(m, _, _)| m.describe(rules) == name)
            .unwrap();
        at = at.after(to, step);
        moves.push(WrittenMove {
            text: name,
            line: 0,
        });
        if third_time(&mut seen, &at) {
            break;
        }
    }
    let record = GameRecord {
        variant: Some(rules.variant_id()),
        start: None,
        start_line: 0,
        moves,
        rounds: false,
    };
    (record, expected)
}

#[test]
fn reviews_find_the_mistakes_the_separate_search_knows() {
    let mut rng = Rng(7);
    let mut flagged = 0;
    for id in VARIANTS {
        let rules = Ruleset::from_variant_id(id).unwrap();
        let search = Search::new(&rules);
        let solution = solve(&rules);
        for game in 0..20 {
            let mistakes: HashSet<usize> = (0..3).map(|_| rng.below(12)).collect();
            let (record, expected) = game_with_mistakes(&search, &mut rng, 40, &mistakes);
            // Through the text form, as a person would give it.
            let text = record.write();
            let replay = GameRecord::parse(&text).unwrap().replay(&rules).unwrap();
            let r = review(&solution, &replay, &mut Checker::trusted()).unwrap();
            assert_eq!(r.moves.len(), expected.len(), "{id} game {game}");
            // The game so far: where its history changes the values, the
            // review gives the game's (checked against a brute force in
            // tests/history_search.rs), not the position's alone.
            let mut so_far = History::new(replay.start.clone(), Repetitions::default());
            for (m, want) in r.moves.iter().zip(&expected) {
                let values = evaluate(&solution, &so_far, DEFAULT_BOUND).unwrap();
                so_far.push(SeatedPosition::parse(&m.to, &rules).unwrap());
                if values.differs_from_table() {
                    let from = SeatedPosition::parse(&m.from, &rules).unwrap();
                    assert_eq!(m.before, values.mover(from.turn()));
                    continue;
                }
                if m.refutation
                    .as_ref()
                    .is_some_and(|l| matches!(l.end, LineEnd::Repetition { .. }))
                {
                    continue;
                }
                assert_eq!(m.verdict, *want, "{id} game {game} ply {}", m.ply);
                let from = SeatedPosition::parse(&m.from, &rules).unwrap();
                assert_eq!(m.before, search.value(from.position()));
                if m.verdict == Verdict::Best {
                    assert!(m.refutation.is_none() && m.best.is_empty());
                    continue;
                }
                flagged += 1;
                // The best moves are exactly those of the best value.
                let mut best: Vec<String> = search
                    .moves(from.position())
                    .into_iter()
                    .filter(|(_, o)| *o == m.before)
                    .map(|(n, _)| n)
                    .collect();
                best.sort();
                let mut listed = m.best.clone();
                listed.sort();
                assert_eq!(listed, best);
                // The refutation: optimal moves from the position after the
                // mistake, to the end (or a repetition for a draw).
                let line = m.refutation.as_ref().unwrap();
                assert_eq!(line.start, m.to);
                check_line_is_optimal(&search, &rules, line);
                assert_eq!(line.value, m.after.flipped_for_next());
            }
        }
    }
    assert!(flagged > 50, "only {flagged} mistakes were made");
}

trait Next {
    fn flipped_for_next(self) -> Outcome;
}
impl Next for Outcome {
    /// The value of the position after a move of this value, for its mover.
    fn flipped_for_next(self) -> Outcome {
        Outcome {
            value: self.value.flip(),
            remoteness: self.remoteness.map(|r| r - 1),
        }
    }
}

fn check_line_is_optimal(search: &Search, rules: &Ruleset, line: &chopsticks_learn::Line) {
    let mut at = SeatedPosition::parse(&line.start, rules).unwrap();
    let mut seen = vec![at.clone()];
    for step in &line.steps {
        let p = at.position().clone();
        let best = search.best(&p);
        let played = search
            .moves(&p)
            .into_iter()
            .find(|(n, _)| *n == step.name)
            .unwrap();
        assert_eq!(played.1, best, "{} at {:?}", step.name, p);
        at = SeatedPosition::parse(&step.position, rules).unwrap();
        seen.push(at.clone());
    }
    match line.end {
        LineEnd::Finished => assert!(at.position().is_terminal(rules)),
        LineEnd::Repeated { ply } => {
            assert_eq!(search.best(at.position()), Outcome::DRAW);
            assert_eq!(seen[ply], at);
            assert!(!seen[..seen.len() - 1][ply + 1..].contains(&at));
        }
        LineEnd::Limit => panic!("a line of a small variant reached the limit"),
        LineEnd::Repetition { .. } => {
            panic!("a line from a position alone never ends by repetition")
        }
    }
}

#[test]
fn lines_from_every_position_are_optimal() {
    for id in VARIANTS {
        let rules = Ruleset::from_variant_id(id).unwrap();
        let search = Search::new(&rules);
        let solution = solve(&rules);
        let graph = Graph::new(&rules).unwrap();
        let mut checker = Checker::against_rules(Some(&graph));
        for p in search.values.keys() {
            let seated = SeatedPosition::new(&rules, p.seat(), p.clone()).unwrap();
            let line = optimal_line(&solution, &seated, &mut checker).unwrap();
            check_line_is_optimal(&search, &rules, &line);
            if let Some(r) = search.value(p).remoteness {
                assert_eq!(line.steps.len() as u32, r, "{id} {p:?}");
            }
        }
    }
}

#[test]
fn puzzles_are_exactly_the_positions_with_few_good_moves_and_play_out_by_the_search() {
    for id in VARIANTS {
        let rules = Ruleset::from_variant_id(id).unwrap();
        let search = Search::new(&rules);
        let solution = solve(&rules);
        let graph = Graph::new(&rules).unwrap();
        let start = graph.index_of(&Position::start(&rules));
        let set = PuzzleSet::find(&graph, &solution, start, &|_| {}).unwrap();
        assert_eq!(set.reachable as usize, search.values.len());
        let mut expected = 0;
        for p in search.values.keys() {
            let value = search.value(p);
            let moves = search.moves(p);
            let keeping: Vec<&String> = moves
                .iter()
                .filter(|(_, o)| o.value == value.value)
                .map(|(n, _)| n)
                .collect();
            let is_puzzle = value.value != Value::Lose
                && moves.len() >= 2
                && !keeping.is_empty()
                && 2 * keeping.len() <= moves.len();
            let index = graph.index_of(p);
            assert_eq!(set.get(index).is_some(), is_puzzle, "{id} {p:?}");
            assert_eq!(puzzle_at(&solution, p).is_ok(), is_puzzle, "{id} {p:?}");
            if !is_puzzle {
                continue;
            }
            expected += 1;
            let puzzle = set.get(index).unwrap();
            let kind = if value.value == Value::Win {
                PuzzleKind::Win
            } else {
                PuzzleKind::Hold
            };
            assert_eq!(puzzle.kind, kind);
            // Every move tried: exactly the moves keeping the value are
            // accepted, in the rules' order.
            let shown = view(&solution, puzzle, p, &mut Checker::trusted()).unwrap();
            let mut accepted = shown.accepted.clone();
            accepted.sort();
            let mut keeping_sorted: Vec<String> = keeping.iter().map(|k| k.to_string()).collect();
            keeping_sorted.sort();
            assert_eq!(accepted, keeping_sorted, "{id} {p:?}");
            assert!(keeping.contains(&&shown.answer));
            let order: Vec<String> = p
                .moves(&rules)
                .iter()
                .map(|(m, _)| m.describe(&rules))
                .collect();
            let names: Vec<String> = shown.moves.iter().map(|m| m.name.clone()).collect();
            assert_eq!(names, order, "{id} {p:?}: the rules' order");
            for m in &shown.moves {
                let (_, o) = moves.iter().find(|(n, _)| *n == m.name).unwrap();
                assert_eq!(m.value, *o);
                assert_eq!(m.answer, keeping.contains(&&m.name));
                check_line_is_optimal(&search, &rules, &m.line);
            }
            if kind == PuzzleKind::Win {
                assert_eq!(u32::from(puzzle.depth), value.remoteness.unwrap());
            }
            check_solution_by_the_search(&search, &rules, kind, &shown.solution);
            assert_eq!(shown.steps as u8, puzzle.steps);
            assert_eq!(shown.score, u32::from(puzzle.score));
            assert_eq!(shown.difficulty, puzzle.difficulty);
        }
        assert_eq!(set.puzzles.len(), expected, "{id}");
        assert!(expected > 0, "{id} has no puzzle");
    }
}

/// A puzzle's solution by the search: each of the player's steps accepts
/// exactly the moves its rule allows (any winning move first, then the
/// fastest; in a hold every drawing move), each reply is a best move for the
/// replier, and the puzzle ends as its kind says.
fn check_solution_by_the_search(
    search: &Search,
    rules: &Ruleset,
    kind: PuzzleKind,
    solution: &chopsticks_learn::playout::PuzzleSolution,
) {
    use chopsticks_learn::playout::PuzzleEnd;
    let player = solution.steps[0].player;
    let mut seen: Vec<String> = Vec::new();
    for (k, step) in solution.steps.iter().enumerate() {
        let at = SeatedPosition::parse(&step.position, rules).unwrap();
        let p = at.position();
        let value = search.value(p);
        let moves = search.moves(p);
        if let Some(next) = solution.steps.get(k + 1) {
            assert_eq!(step.to, next.position);
        }
        if !step.expected {
            // A reply: the best for the replier.
            assert_ne!(step.player, player);
            let (_, o) = moves.iter().find(|(n, _)| *n == step.name).unwrap();
            assert_eq!(*o, value, "{} {}", step.position, step.name);
            continue;
        }
        assert_eq!(step.player, player);
        let first = k == 0;
        let mut right: Vec<String> = moves
            .iter()
            .filter(|(_, o)| match kind {
                PuzzleKind::Win => o.value == Value::Win && (first || *o == value),
                PuzzleKind::Hold => o.value != Value::Lose,
            })
            .map(|(n, _)| n.clone())
            .collect();
        right.sort();
        let mut accepted = step.accepted.clone();
        assert_eq!(accepted[0], step.name, "the expected move first");
        accepted.sort();
        assert_eq!(accepted, right, "{}", step.position);
        // The expected move is the solver's: the fastest win, or a draw.
        let (_, o) = moves.iter().find(|(n, _)| *n == step.name).unwrap();
        assert_eq!(*o, value, "{} {}", step.position, step.name);
        if kind == PuzzleKind::Hold {
            assert!(
                !seen.contains(&step.position),
                "a hold ends when a position comes round"
            );
            seen.push(step.position.clone());
        }
    }
    let last = SeatedPosition::parse(&solution.steps.last().unwrap().to, rules).unwrap();
    match (&kind, &solution.end) {
        (PuzzleKind::Win, PuzzleEnd::Finished) => assert!(last.position().is_terminal(rules)),
        (PuzzleKind::Hold, PuzzleEnd::Safe) => {
            // Every move of the player's keeps the draw there (after replies).
            let p = last.position();
            assert_eq!(last.turn() + 1, player);
            assert!(search.moves(p).iter().all(|(_, o)| o.value != Value::Lose));
        }
        (PuzzleKind::Hold, PuzzleEnd::Repeated) => {
            assert!(seen.contains(&solution.steps.last().unwrap().to));
        }
        (PuzzleKind::Hold, PuzzleEnd::Held { moves }) => {
            assert_eq!(*moves, chopsticks_learn::playout::HOLD_MOVES);
        }
        (k, e) => panic!("a {k:?} puzzle ended by {e:?}"),
    }
}

#[test]
fn choosing_is_fixed_by_the_seed() {
    let rules = Ruleset::from_variant_id("standard").unwrap();
    let solution = solve(&rules);
    let graph = Graph::new(&rules).unwrap();
    let start = graph.index_of(&Position::start(&rules));
    let set = PuzzleSet::find(&graph, &solution, start, &|_| {}).unwrap();
    let filter = chopsticks_learn::puzzles::Filter::default();
    let a = set.choose(&filter, 5, 42);
    assert_eq!(a, set.choose(&filter, 5, 42));
    assert_ne!(a, set.choose(&filter, 5, 43));
    assert_eq!(a.len(), 5);
    let all = set.choose(&filter, usize::MAX, 1);
    assert_eq!(all.len(), set.puzzles.len());
    let hard = chopsticks_learn::puzzles::Filter {
        kind: Some(PuzzleKind::Win),
        difficulty: Some((
            chopsticks_learn::Difficulty(4),
            chopsticks_learn::Difficulty(5),
        )),
    };
    for p in set.choose(&hard, 100, 3) {
        assert!(p.difficulty.0 >= 4 && p.kind == PuzzleKind::Win);
    }
}

/// Three players (coalition values) and two against two (teams): every
/// puzzle's moves tried one by one from the rules and the table's seat values,
/// and every reviewed move's values and verdict recomputed the same way.
#[test]
fn more_players_puzzles_and_reviews_follow_the_seat_values() {
    for id in ["standard.p3.f4", "standard.p4.f3.teams", "rollover.p3.f4"] {
        let rules = Ruleset::from_variant_id(id).unwrap();
        let graph = Graph::new(&rules).unwrap();
        let solution = Solution::solve(&graph, &|_| {}).unwrap();
        let p = rules.players();
        // The mover's value after a move, from the child's stored seat values.
        let after = |from: &Position| -> Vec<(String, Outcome)> {
            from.moves_with_steps(&rules)
                .into_iter()
                .map(|(m, to, step)| {
                    let o = solution.seat_outcomes(&to).unwrap()[(p - step % p) % p];
                    (m.describe(&rules), o.later())
                })
                .collect()
        };
        let start = graph.index_of(&Position::start(&rules));
        let set = PuzzleSet::find(&graph, &solution, start, &|_| {}).unwrap();
        assert!(!set.puzzles.is_empty(), "{id}");
        for puzzle in &set.puzzles {
            let position = graph.position(puzzle.index);
            let value = solution.outcome(&position).unwrap();
            let moves = after(&position);
            let keeping: Vec<_> = moves
                .iter()
                .filter(|(_, o)| o.value == value.value)
                .collect();
            assert!(
                !keeping.is_empty() && 2 * keeping.len() <= moves.len(),
                "{id} {position:?}"
            );
            let shown = view(&solution, puzzle, &position, &mut Checker::trusted()).unwrap();
            // The view names a tap's target by player number; the same moves.
            let seated = SeatedPosition::new(&rules, position.seat(), position.clone()).unwrap();
            let mut accepted: Vec<String> = shown
                .accepted
                .iter()
                .map(|a| seated.find_move(&rules, a).unwrap().0.describe(&rules))
                .collect();
            accepted.sort();
            let mut wanted: Vec<String> = keeping.iter().map(|(n, _)| n.clone()).collect();
            wanted.sort();
            assert_eq!(accepted, wanted, "{id} {position:?}");
            let (answer, _) = seated.find_move(&rules, &shown.answer).unwrap();
            assert_eq!(shown.answer, seated.move_name(&rules, &answer));
            // The solution follows its own steps to an end.
            for w in shown.solution.steps.windows(2) {
                assert_eq!(w[0].to, w[1].position);
            }
            assert!(shown.solution.end.solved());
        }
        // A game of first-listed moves, reviewed: before is the mover's value,
        // after the value of the move played, and the verdict their comparison.
        let mut rng = Rng(11);
        let mut at = SeatedPosition::start(&rules);
        let mut seen = HashMap::new();
        third_time(&mut seen, &at);
        let mut moves = Vec::new();
        for _ in 0..30 {
            let list = at.position().moves_with_steps(&rules);
            if list.is_empty() {
                break;
            }
            let (m, to, step) = list[rng.below(list.len())].clone();
            moves.push(WrittenMove {
                text: m.describe(&rules),
                line: 0,
            });
            at = at.after(to, step);
            if third_time(&mut seen, &at) {
                break;
            }
        }
        let record = GameRecord {
            variant: Some(id.to_string()),
            start: None,
            start_line: 0,
            moves,
            rounds: false,
        };
        let replay = record.replay(&rules).unwrap();
        let r = review(
            &solution,
            &replay,
            &mut Checker::against_rules(Some(&graph)),
        )
        .unwrap();
        let mut so_far = History::new(replay.start.clone(), Repetitions::default());
        for m in &r.moves {
            let from = SeatedPosition::parse(&m.from, &rules).unwrap();
            assert_eq!(m.player, from.turn() + 1);
            let values = evaluate(&solution, &so_far, DEFAULT_BOUND).unwrap();
            so_far.push(SeatedPosition::parse(&m.to, &rules).unwrap());
            if values.differs_from_table()
                || m.refutation
                    .as_ref()
                    .is_some_and(|l| matches!(l.end, LineEnd::Repetition { .. }))
            {
                assert_eq!(m.before, values.mover(from.turn()));
                continue;
            }
            let before = solution.outcome(from.position()).unwrap();
            assert_eq!(m.before, before);
            let (mv, _) = from.find_move(&rules, &m.name).unwrap();
            let (_, played) = after(from.position())
                .into_iter()
                .find(|(n, _)| *n == mv.describe(&rules))
                .unwrap();
            assert_eq!(m.after, played, "{id} ply {}", m.ply);
            assert_eq!(m.verdict, Verdict::of(before, played));
            if let Some(line) = &m.refutation {
                // Each step of a line is its mover's best move.
                let mut here = SeatedPosition::parse(&line.start, &rules).unwrap();
                for step in &line.steps {
                    let best = solution.evaluate_moves(here.position()).unwrap()[0].outcome;
                    assert_eq!(step.value, best);
                    assert_eq!(step.player, here.turn() + 1);
                    here = SeatedPosition::parse(&step.position, &rules).unwrap();
                }
            }
        }
    }
}

mod round_trip {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// A game of legal moves under any of these rules, written as a
        /// record, reads back and replays to the same positions.
        #[test]
        fn records_round_trip(
            variant in prop::sample::select(vec![
                "standard", "rollover", "simple", "rahman", "standard.p3",
                "standard.p4.teams", "rollover.h3.f7", "standard.f12.h3",
                "standard.misere", "rollover.pass-splits",
            ]),
            choices in prop::collection::vec(0usize..1000, 0..60),
            from_middle in any::<bool>(),
        ) {
            let rules = Ruleset::from_variant_id(variant).unwrap();
            let mut at = SeatedPosition::start(&rules);
            // Start a few moves in, to give the record a start.
            if from_middle {
                for &c in choices.iter().take(3) {
                    let list = at.position().moves_with_steps(&rules);
                    if list.is_empty() { break; }
                    let (_, to, step) = list[c % list.len()].clone();
                    at = at.after(to, step);
                }
            }
            let start = at.clone();
            let mut seen = HashMap::new();
            third_time(&mut seen, &at);
            let mut moves = Vec::new();
            for &c in &choices {
                let list = at.position().moves_with_steps(&rules);
                if list.is_empty() { break; }
                let (m, to, step) = list[c % list.len()].clone();
                moves.push(WrittenMove { text: m.describe(&rules), line: 0 });
                at = at.after(to, step);
                if third_time(&mut seen, &at) { break; }
            }
            let record = GameRecord {
                variant: Some(rules.variant_id()),
                start: Some(start.to_text(&rules).unwrap()),
                start_line: 0,
                moves,
                rounds: false,
            };
            let replay = record.replay(&rules).unwrap();
            prop_assert_eq!(replay.last(), &at);
            let text = replay.record().unwrap().write();
            let again = GameRecord::parse(&text).unwrap();
            let rules_again = again.rules(None).unwrap();
            prop_assert_eq!(&rules_again, &rules);
            let replayed = again.replay(&rules_again).unwrap();
            prop_assert_eq!(&replayed.start, &replay.start);
            prop_assert_eq!(replayed.last(), replay.last());
            prop_assert_eq!(replayed.plies.len(), replay.plies.len());
            prop_assert_eq!(replayed.record().unwrap().write(), text);
        }
    }
}
