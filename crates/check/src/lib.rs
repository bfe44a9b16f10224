//! Invariant checks on arbitrary input: the bodies of the fuzz targets in `fuzz/`,
//! and of the regression test that replays, under plain `cargo test`, every input a
//! fuzzer ever found (`fuzz/regressions/<target>/`) and a seed corpus
//! (`fuzz/seeds/<target>/`).
//!
//! Each function takes bytes, feeds them to one of the parsers or readers that face
//! users, and **panics only when an invariant is broken**: a parser that accepts a
//! text must print something it reads back as the same thing; a reader must refuse
//! bad input with an error, never a panic. Mere bad input is not a failure. Work is
//! kept small per input (small rulesets, bounded game sizes) so that a fuzzer runs
//! thousands of inputs a second and an input slower than a second is a finding.

use std::path::Path;

use chopsticks_cgt::{Answer, Expression, GameStore};
use chopsticks_rules::{Notation, Overflow, PassSplits, Position, PositionIndex, Ruleset};
use chopsticks_solve::{file, Solution};
use chopsticks_space::Graph;

/// A check: runs on arbitrary bytes, panics only on a broken invariant.
pub type Check = fn(&[u8]);

/// The fuzz targets, by name: each name is a function below, a file in
/// `fuzz/fuzz_targets/` and a folder in `fuzz/regressions/` and `fuzz/seeds/`.
pub const TARGETS: [(&str, Check); 8] = [
    ("position", position),
    ("rules", rules),
    ("cgt_expression", cgt_expression),
    ("loopy_expression", loopy_expression),
    ("solution_file", solution_file),
    ("solution_file_checksummed", solution_file_checksummed),
    ("cluster_files", cluster_files),
    ("game_record", game_record),
];

/// The most positions of a ruleset [`game_record`] solves to review a game.
const REVIEW_POSITIONS: u64 = 20_000;

/// A game record (`chopsticks_learn::record`): the first four bytes choose a
/// small ruleset, the rest is the record's text. A record that reads writes
/// and reads back as the same record; one that replays (under its own variant
/// when it names a readable one, else the small ruleset) writes a record that
/// replays to the same positions; and when the ruleset is small enough to
/// solve here, its review and the optimal line from its last position come
/// out without error and agree with the table.
pub fn game_record(data: &[u8]) {
    use chopsticks_learn::record::GameRecord;
    let Some((head, rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(record) = GameRecord::parse(text) else {
        return;
    };
    let written = record.write();
    let again = GameRecord::parse(&written)
        .unwrap_or_else(|e| panic!("{text:?} reads but its record {written:?} does not: {e}"));
    assert_eq!(again.variant, record.variant, "{text:?}");
    assert_eq!(again.start, record.start, "{text:?}");
    let names = |r: &GameRecord| r.moves.iter().map(|m| m.text.clone()).collect::<Vec<_>>();
    assert_eq!(names(&again), names(&record), "{text:?}");
    let small = small_ruleset(head);
    let rules = match record.rules(None) {
        Ok(r) if r.validate().is_ok() => r,
        _ if small.validate().is_ok() => small,
        _ => return,
    };
    let Ok(replay) = record.replay(&rules) else {
        return;
    };
    let rewritten = replay
        .record()
        .unwrap_or_else(|e| panic!("{text:?} replays but does not write: {e}"))
        .write();
    let replayed = GameRecord::parse(&rewritten)
        .and_then(|r| r.replay(&rules))
        .unwrap_or_else(|e| panic!("{text:?} replays, but its record {rewritten:?} does not: {e}"));
    assert_eq!(replayed.start, replay.start, "{text:?}");
    assert_eq!(replayed.last(), replay.last(), "{text:?}");
    assert_eq!(replayed.plies.len(), replay.plies.len(), "{text:?}");
    let Ok(index) = PositionIndex::new(&rules) else {
        return;
    };
    if index.count() > REVIEW_POSITIONS || replay.plies.len() > 200 {
        return;
    }
    let Ok(graph) = Graph::new(&rules) else {
        return;
    };
    let Ok(solution) = Solution::solve(&graph, &|_| {}) else {
        return;
    };
    let mut checker = chopsticks_learn::Checker::trusted();
    let review = chopsticks_learn::review(&solution, &replay, &mut checker)
        .unwrap_or_else(|e| panic!("{text:?}: the review fails: {e}"));
    assert_eq!(review.moves.len(), replay.plies.len());
    for m in &review.moves {
        assert_eq!(
            m.verdict,
            chopsticks_learn::Verdict::of(m.before, m.after),
            "{text:?}"
        );
        assert_eq!(
            m.refutation.is_some(),
            m.verdict != chopsticks_learn::Verdict::Best
        );
    }
    let line = chopsticks_learn::optimal_line(&solution, replay.last(), &mut checker)
        .unwrap_or_else(|e| panic!("{text:?}: the line fails: {e}"));
    // Two sides: a won or lost line ends in its remoteness. A coalition value
    // is the mover's against all the others together; each of them playing
    // for itself, a win comes no later.
    let steps = line.steps.len() as u32;
    match (solution.concept(), line.value.value, line.value.remoteness) {
        (_, chopsticks_solve::Value::Draw, _) | (_, _, None) => {}
        (chopsticks_solve::Concept::Coalition, chopsticks_solve::Value::Win, Some(r)) => {
            assert!(steps <= r, "{text:?}: {steps} plies to a win in {r}")
        }
        (chopsticks_solve::Concept::Coalition, _, _) => {}
        (_, _, Some(r)) => assert_eq!(steps, r, "{text:?}"),
    }
}

/// A small ruleset from the first bytes: 2 or 3 players, 1 to 4 hands each, `F` from 2
/// to 12 (or 100), cutoff or rollover, every switch.
fn small_ruleset(head: &[u8; 4]) -> Ruleset {
    let [a, b, c, d] = *head;
    // 2, 3 or 4 players; bit 6 of `a` asks for team play (kept only when even).
    let players = 2 + usize::from(a % 3);
    let hands = if a & 0x80 != 0 {
        (0..players)
            .map(|k| 1 + usize::from((b >> (2 * k)) % 4))
            .collect()
    } else {
        vec![1 + usize::from(b % 4); players]
    };
    Ruleset {
        hands,
        fingers: if c & 0x80 != 0 {
            100
        } else {
            2 + u32::from(c % 11)
        },
        overflow: if c & 0x40 != 0 {
            Overflow::Rollover
        } else {
            Overflow::Cutoff
        },
        self_attack: d & 1 != 0,
        transfer: d & 2 != 0,
        divide: d & 4 != 0,
        even_divide: d & 8 != 0,
        // Bit 5 of `a`: near-even divisions (refused by `validate` with even ones).
        near_even_divide: a & 0x20 != 0,
        suicide: d & 16 != 0,
        // Bit 4 of `a`: pass-splits between live hands only.
        pass_splits: match (d & 32 != 0, a & 0x10 != 0) {
            (false, _) => PassSplits::Off,
            (true, false) => PassSplits::Any,
            (true, true) => PassSplits::Live,
        },
        misere: d & 64 != 0,
        teams: a & 0x40 != 0 && players % 2 == 0,
    }
}

/// The live hands of each seat, sorted (what the paper's notation records).
fn live_by_seat(p: &Position, rules: &Ruleset) -> Vec<Vec<u32>> {
    let n = rules.players();
    let mut seats = vec![Vec::new(); n];
    for (k, hands) in p.players().iter().enumerate() {
        let seat = (p.seat() + k) % n;
        let mut live: Vec<u32> = hands.iter().copied().filter(|&v| v != 0).collect();
        live.sort_unstable();
        seats[seat] = live;
    }
    seats
}

/// Positions in every notation: a text that reads must write in every notation that
/// can hold it, and read back as the same position (compact, dashed) or with the
/// same live hands per seat (paper, which records no mover). Its moves must lead to
/// positions that are themselves written and read back.
pub fn position(data: &[u8]) {
    let Some((head, rest)) = data.split_first_chunk::<4>() else {
        return;
    };
    let rules = small_ruleset(head);
    if rules.validate().is_err() {
        return;
    }
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    // The seated form (`2_1112`) reads the same text too: whatever it accepts
    // writes and reads back as the same seat and position.
    if let Ok(seated) = chopsticks_rules::SeatedPosition::parse(text, &rules) {
        let written = seated
            .to_text(&rules)
            .unwrap_or_else(|e| panic!("{text:?} reads but does not write: {e}"));
        let back = chopsticks_rules::SeatedPosition::parse(&written, &rules)
            .unwrap_or_else(|e| panic!("{written:?} (from {text:?}) does not read back: {e}"));
        assert_eq!(back, seated, "{text:?} → {written:?}");
    }
    let Ok(p) = Position::parse(text, &rules) else {
        return;
    };
    round_trip(&p, &rules);
    if p.move_count_bound(&rules) <= 300 {
        for (mv, child) in p.moves(&rules) {
            let described = mv.describe(&rules);
            let (again, to) = p
                .find_move(&rules, &described)
                .unwrap_or_else(|e| panic!("`{described}` is listed but not found: {e}"));
            assert_eq!(again, mv);
            assert_eq!(to, child);
            round_trip(&child, &rules);
        }
    }
}

fn round_trip(p: &Position, rules: &Ruleset) {
    for notation in [Notation::Compact, Notation::Dashed, Notation::Paper] {
        let Ok(written) = p.to_notation(rules, notation) else {
            continue;
        };
        let back = match Position::parse(&written, rules) {
            Ok(back) => back,
            // The paper's notation puts Left to move: a position whose seat-0 player
            // has no live hand, but where the game goes on, has no paper reading.
            Err(_) if notation == Notation::Paper && !p.is_terminal(rules) => continue,
            Err(e) => panic!("{p:?} writes as `{written}` in {notation:?}, which reads as {e}"),
        };
        if notation == Notation::Paper {
            assert_eq!(
                live_by_seat(&back, rules),
                live_by_seat(p, rules),
                "`{written}`"
            );
        } else {
            assert_eq!(&back, p, "`{written}` in {notation:?}");
        }
    }
}

/// Rule options: rulesets from structured bytes, from JSON (as a solution file's
/// header holds them) and from variant ids. A valid ruleset's canonical variant id
/// reads back as itself; its index counts positions or refuses at once; a small one
/// ranks and unranks its positions and its move graph lists `Position::moves`.
pub fn rules(data: &[u8]) {
    let mut candidates = Vec::new();
    if let Some((head, rest)) = data.split_first_chunk::<8>() {
        let mut r = small_ruleset(&[head[0], head[1], head[2], head[3]]);
        // Any size: up to 10 players, 20 hands, F anywhere in u32.
        r.hands = (0..2 + usize::from(head[4] % 9))
            .map(|k| usize::from(rest.get(k).copied().unwrap_or(head[5]) % 21))
            .collect();
        r.fingers = u32::from_le_bytes([head[5], head[6], head[7], head[4]]) >> (head[6] % 32);
        candidates.push(r);
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(r) = serde_json::from_str::<Ruleset>(text) {
            candidates.push(r);
        }
        if let Ok(r) = Ruleset::from_variant_id(text) {
            candidates.push(r);
        }
    }
    for r in candidates {
        if r.validate().is_err() {
            continue;
        }
        let id = r.variant_id();
        let back = Ruleset::from_variant_id(&id)
            .unwrap_or_else(|e| panic!("canonical id `{id}` does not read: {e}"));
        assert_eq!(back, r, "`{id}`");
        // Counting is cheap; tables are built only for what can be indexed, and
        // only a small index is built here.
        let small = r
            .hands
            .iter()
            .try_fold(1u64, |acc, &h| {
                acc.checked_mul(chopsticks_rules::MultisetIndex::count_of(h, r.fingers).ok()?)
            })
            .is_some_and(|c| c <= 300);
        if !small {
            continue;
        }
        let index = PositionIndex::new(&r).expect("a small valid ruleset indexes");
        let graph = Graph::new(&r).expect("a small valid ruleset has a move graph");
        let step = (index.count() / 50).max(1);
        for i in (0..index.count()).step_by(step as usize) {
            let p = index.unrank(i);
            assert_eq!(index.rank(&p), i);
            let mut children = Vec::new();
            graph.for_each_child(i, |c| children.push(c));
            let mut expected: Vec<u64> = Vec::new();
            for (_, q) in p.moves(&r) {
                let k = index.rank(&q);
                if !expected.contains(&k) {
                    expected.push(k);
                }
            }
            assert_eq!(children, expected, "{p:?} under `{id}`");
        }
    }
}

/// The longest game text printed and read back (games can print exponentially long).
const MAX_PRINTED: u64 = 100_000;

/// Work allowed for the first reading of a fuzzed expression (tens of milliseconds),
/// so that the fuzzer spends its time on many inputs, not on a few large games.
const FIRST_READING_WORK: u64 = 1 << 16;

/// Work allowed for reading the printed form back: more, since a canonical form can
/// take more work to read than the text that made it, but still well under a second.
const SECOND_READING_WORK: u64 = 1 << 20;

/// CGSuite expressions: a text that parses prints as a text that parses to the same
/// game (the same id in the same store), and its negative, written `-(text)`, is the
/// negative of the game.
pub fn cgt_expression(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(expression) = Expression::parse(text) else {
        return;
    };
    let mut store = GameStore::new();
    let Ok(answer) = store.evaluate_answer(&expression, &[], FIRST_READING_WORK) else {
        return;
    };
    // A comparison is true or false; the arena game, if any, keeps to its id.
    let Answer::Game(v) = answer else {
        return;
    };
    if let Some(g) = v.in_arena() {
        if let Ok(again) = store.evaluate_within(&expression, &[], FIRST_READING_WORK) {
            assert_eq!(again, g, "`{text}` evaluates to two games");
        }
    }
    let Some(printed) = store.format_value_within(&v, MAX_PRINTED) else {
        return;
    };
    // The canonical form may take more work to read than the text that made it
    // (`.(4096)` is short); only running out of work is excused.
    let again = Expression::parse(&printed)
        .and_then(|e| store.evaluate_answer(&e, &[], SECOND_READING_WORK));
    match again {
        Ok(Answer::Game(again)) => {
            if let Ok(order) = store.compare_values(&again, &v, SECOND_READING_WORK) {
                assert_eq!(
                    order,
                    (true, true),
                    "`{text}` prints as `{printed}`, which is another game"
                );
            }
            if let (Some(a), Some(b)) = (again.in_arena(), v.in_arena()) {
                assert_eq!(a, b, "`{text}` prints as `{printed}`, another id");
            }
        }
        Ok(Answer::Truth(_)) => panic!("`{text}` prints as `{printed}`, a comparison"),
        Ok(Answer::Rational(_)) => panic!("`{text}` prints as `{printed}`, not a dyadic number"),
        Err(e) if e.work_limit.is_some() => {}
        Err(e) => panic!("`{text}` prints as `{printed}`, which does not parse: {e}"),
    }
    if let Ok(negative) = Expression::parse(&format!("-({text})")) {
        if let Ok(Answer::Game(n)) = store.evaluate_answer(&negative, &[], FIRST_READING_WORK) {
            let expected = store.negate_value(&v);
            if let Ok(order) = store.compare_values(&n, &expected, SECOND_READING_WORK) {
                assert_eq!(order, (true, true), "-({text})");
            }
        }
    }
}

/// Whether two loopy values are the same: by representation when both are
/// canonical (stoppers and stopper-sided values), else by comparison of sides.
fn same_loopy(a: &chopsticks_loopy::Value, b: &chopsticks_loopy::Value) -> bool {
    if a.is_stopper_sided() && b.is_stopper_sided() {
        a == b
    } else {
        // A comparison that runs past its bounds proves nothing either way.
        a.equivalent(b).unwrap_or(true)
    }
}

/// CGSuite's loopy notation (`chopsticks_loopy::parse`): never a panic; a text
/// that reads prints as a text that reads back as the same value (unless it was
/// printed as equations, which are not CGSuite syntax), and `-(text)` reads as its
/// negative.
pub fn loopy_expression(data: &[u8]) {
    // Every input gets a work budget, as `value` gives one (`--max-work`): the
    // arithmetic of a text within the parser's size bounds can still be long.
    chopsticks_loopy::with_work_limit(LOOPY_WORK, || loopy_expression_within(data));
}

/// Steps of loopy work allowed for one input of [`loopy_expression`] (a few
/// hundredths of a second in a release build).
const LOOPY_WORK: u64 = 1 << 18;

fn loopy_expression_within(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // A comparison: both sides read, and the order is an order (a value is
    // equal to itself; `G >= H` and `H >= G` agree with `G == H`).
    if let Some((a, _, b)) = chopsticks_loopy::notation::split_relation(text) {
        if let (Ok(g), Ok(h)) = (chopsticks_loopy::parse(a), chopsticks_loopy::parse(b)) {
            if let (Ok(gh), Ok(hg), Ok(gg)) = (g.ge(&h), h.ge(&g), g.ge(&g)) {
                assert!(gg, "`{a}` is not >= itself");
                if gh && hg {
                    assert!(
                        same_loopy(&g, &h),
                        "`{a}` and `{b}` compare equal but differ"
                    );
                }
            }
        }
        return;
    }
    let Ok(value) = chopsticks_loopy::parse(text) else {
        return;
    };
    let printed = value.to_string();
    // Equations (`[a = {…}; …]`) are printed for graphs too large for a tree.
    // Printed text longer than the parser takes is not read back.
    if printed.len() <= chopsticks_loopy::notation::MAX_INPUT && !printed.contains(" = {") {
        match chopsticks_loopy::parse(&printed) {
            Ok(again) => assert!(
                same_loopy(&again, &value),
                "`{text}` prints as `{printed}`, which is another value: `{again}`"
            ),
            // Only a bound (the printed text can be longer or deeper than the
            // input) excuses a failure to read it back.
            Err(e)
                if e.message.contains("too large")
                    || e.message.contains("deep")
                    || e.message.contains("steps of work") => {}
            Err(e) => panic!("`{text}` prints as `{printed}`, which does not parse: {e}"),
        }
    }
    if let Ok(negative) = chopsticks_loopy::parse(&format!("-({text})")) {
        assert!(
            same_loopy(&negative, &value.neg()),
            "-({text}) = {negative}, but the negative of {value} is {}",
            value.neg()
        );
    }
}

/// Solution files as they are: refused with an error or read; a file that reads
/// answers queries without panicking, and its consistency check answers too.
pub fn solution_file(data: &[u8]) {
    let Ok(solution) = file::decode(data, Path::new("fuzz.sol")) else {
        return;
    };
    exercise(&solution);
}

/// Solution files with their checksum made valid (the last four bytes replaced by the
/// CRC-32 of the others), so that the header and table checks behind it are reached.
pub fn solution_file_checksummed(data: &[u8]) {
    if data.len() < 4 {
        return solution_file(data);
    }
    let mut bytes = data.to_vec();
    // A version 3 file gets every checksum made valid; anything else the
    // trailing one (the whole-file checksum of versions 1 and 2).
    if !file::reseal(&mut bytes) {
        let body = bytes.len() - 4;
        let crc = crc32fast::hash(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
    }
    solution_file(&bytes);
}

/// The readers of the files a solve and a cluster take from outside: the first
/// byte chooses one, the rest is the file's bytes. A hostfile
/// ([`chopsticks_distributed::parse_hostfile`]): every address read is
/// trimmed, has no comment and is `host:port`, and the addresses written one a
/// line read back as themselves. A worker report
/// ([`chopsticks_distributed::parse_report`]): a report read is written as JSON
/// that reads back as the same report. A checkpoint's manifest
/// ([`chopsticks_solve::parts::check_manifest`], against a small ruleset from
/// the next four bytes): an answer, never a panic (sums of forged numbers
/// included).
pub fn cluster_files(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    match which % 3 {
        0 => {
            if let Ok(addresses) = chopsticks_distributed::parse_hostfile(rest) {
                assert!(!addresses.is_empty());
                for a in &addresses {
                    assert!(
                        a.contains(':') && !a.contains('#') && a.trim() == a,
                        "{a:?}"
                    );
                }
                let again = chopsticks_distributed::parse_hostfile(addresses.join("\n").as_bytes());
                assert_eq!(again.as_ref(), Ok(&addresses));
            }
        }
        1 => {
            if let Ok(report) = chopsticks_distributed::parse_report(rest) {
                let text = serde_json::to_vec(&report).expect("a report is JSON");
                let again = chopsticks_distributed::parse_report(&text).expect("reads back");
                assert_eq!(again, report);
            }
        }
        _ => {
            if rest.len() < 4 {
                return;
            }
            let rules = small_ruleset(rest[..4].try_into().expect("4 bytes"));
            let Ok(count) = PositionIndex::new(&rules).map(|i| i.count()) else {
                return;
            };
            let _ = chopsticks_solve::parts::check_manifest(&rest[4..], &rules, count);
        }
    }
}

fn exercise(solution: &Solution) {
    let rules = solution.rules();
    if solution.count() > 1 << 20 {
        return;
    }
    let Ok(graph) = Graph::new(rules) else {
        return;
    };
    assert_eq!(graph.count(), solution.count());
    let start = graph.index_of(&Position::start(rules));
    let _ = solution.outcome_at(start);
    if let Ok(moves) = solution.evaluate_moves(&Position::start(rules)) {
        assert!(!moves.is_empty() || Position::start(rules).is_terminal(rules));
    }
    let _ = solution.check_at(&graph, start);
    let verified = solution.verify(&graph);
    // A table with remoteness that passes the whole check is the solver's (one
    // without can be consistent and wrong: see chopsticks_solve's verify module).
    if verified.is_ok() && rules.players() == 2 && solution.has_remoteness() {
        let Ok(solved) = Solution::solve(&graph, &|_| {}) else {
            return;
        };
        for i in 0..solved.count() {
            let stored = solution.outcome_at(i).expect("a verified table reads");
            assert_eq!(solved.outcome_at(i).expect("in memory"), stored, "#{i}");
        }
    }
}
