//! Published game-solving results (docs/REFERENCE.md §4.1-4.3), computed.

use chopsticks_rules::{Overflow, Position, Preset, Ruleset};
use chopsticks_solve::{strategy, Outcome, Solution, Summary, Value};
use chopsticks_space::{explore, Graph};

fn solve(rules: &Ruleset) -> (Graph, Solution, Summary) {
    let graph = Graph::new(rules).unwrap();
    let solution = Solution::solve(&graph, &|_| {}).unwrap();
    let start = graph.index_of(&Position::start(rules));
    let reached = explore(&graph, start, &|_| {}).reached;
    let summary = Summary::new(&graph, &solution, &reached, start).unwrap();
    (graph, solution, summary)
}

#[test]
fn rahman() {
    // 207 reachable positions: 100 drawn, 72 winning, 21 losing, 14 lost; 11-11 drawn.
    let rules = Preset::Rahman.ruleset();
    let (_, solution, s) = solve(&rules);
    assert_eq!(s.reachable, 207);
    assert_eq!(s.draw, 100);
    assert_eq!(s.win, 72);
    assert_eq!(s.lose, 21);
    assert_eq!(s.terminal, 14);
    assert_eq!(s.start, Outcome::DRAW);
    // Observations: merging on the first move (11-11 → 11-02) loses;
    // 23 and 34 hands are never losing; no drawn position contains a 01 hand.
    let p = |t: &str| Position::parse(t, &rules).unwrap();
    assert_eq!(solution.outcome(&p("11-02")).unwrap().value, Value::Win);
    let graph = Graph::new(&rules).unwrap();
    let start = graph.index_of(&Position::start(&rules));
    for i in explore(&graph, start, &|_| {}).reached.iter() {
        let pos = graph.position(i);
        let o = solution.outcome_at(i).unwrap();
        if pos.mover() == [2, 3] || pos.mover() == [3, 4] {
            assert_ne!(o.value, Value::Lose, "{pos:?}");
        }
        if o.value == Value::Draw {
            assert!(pos.players().iter().all(|h| h != &[0, 1]), "{pos:?}");
        }
    }
}

#[test]
fn simple_chopsticks_is_a_second_player_win() {
    let (_, _, s) = solve(&Preset::Simple.ruleset());
    assert_eq!(s.start, Outcome::lose(SIMPLE_REMOTENESS));
    assert_eq!(s.draw, 0, "Simple Chopsticks has no loops");
}

/// Remoteness of the start of the paper's two-hand game (`simple`, F = 5): the first
/// player loses in this many plies against best play.
const SIMPLE_REMOTENESS: u32 = 8;

#[test]
fn strategies_are_complete() {
    let misere = |mut r: Ruleset| {
        r.misere = true;
        r
    };
    let mut checked = 0;
    for rules in [
        Preset::Standard.ruleset(),
        Preset::Simple.ruleset(),
        misere(Preset::Simple.ruleset()),
        misere(with(Preset::Simple, |r| {
            r.divide = true;
            r.suicide = true;
        })),
        misere(with(Preset::Simple, |r| r.hands = vec![1, 2])),
    ] {
        let (graph, solution, s) = solve(&rules);
        if s.start.value == Value::Draw {
            continue;
        }
        checked += 1;
        let start = graph.index_of(&Position::start(&rules));
        let strat = strategy::winning_strategy(&graph, &solution, start)
            .unwrap()
            .unwrap();
        assert_eq!(strat.seat == 0, s.start.value == Value::Win);
        strategy::verify(&graph, start, &strat).unwrap();
        let short = strategy::minimise(&graph, start, &strat);
        strategy::verify(&graph, start, &short).unwrap();
        assert!(short.configurations.len() <= strat.configurations.len());
        for k in 0..short.configurations.len() {
            let mut less = short.clone();
            less.configurations.remove(k);
            assert!(strategy::verify(&graph, start, &less).is_err(), "1-minimal");
        }
        // Dropping any non-finishing configuration breaks the strategy.
        let mut broken = strat.clone();
        let k = broken
            .configurations
            .iter()
            .position(|c| !graph.is_terminal(c.index))
            .unwrap();
        broken.configurations.remove(k);
        assert!(strategy::verify(&graph, start, &broken).is_err());
    }
    assert!(checked >= 4, "{checked}");
}

fn with(base: Preset, change: impl FnOnce(&mut Ruleset)) -> Ruleset {
    let mut r = base.ruleset();
    change(&mut r);
    r
}

/// Wikipedia's first text: "For the specific variation described above [cutoff, self-
/// attacks, transfers, divisions], the first player has a winning strategy".
#[test]
fn standard_is_a_first_player_win() {
    let (_, _, s) = solve(&Preset::Standard.ruleset());
    assert_eq!(s.start, Outcome::win(23));
}

/// "If tapping one's own hand is not allowed but splitting two live hands into one is
/// allowed, then the second player has a winning strategy": true (cutoff, transfers,
/// divisions, suicide, no self-attack); the second player wins in 26 plies.
#[test]
fn no_self_attack_with_merges_is_a_second_player_win() {
    let rules = with(Preset::Standard, |r| {
        r.self_attack = false;
        r.suicide = true;
    });
    let (_, _, s) = solve(&rules);
    assert_eq!(s.start, Outcome::lose(26));
}

/// Wikipedia's second text: "in the Division and Suicide only variation, the second
/// player has a winning strategy". Divisions and suicides without ordinary transfers
/// give a draw under cutoff and rollover, with or without self-attacks (and with
/// even-only divisions too). No variant of the rule space with F = 5 makes it true in
/// normal play; see docs/FINDINGS.md.
#[test]
fn division_and_suicide_only_is_a_draw() {
    for overflow in [
        chopsticks_rules::Overflow::Cutoff,
        chopsticks_rules::Overflow::Rollover,
    ] {
        for self_attack in [false, true] {
            for even in [false, true] {
                let rules = with(Preset::Simple, |r| {
                    r.overflow = overflow;
                    r.self_attack = self_attack;
                    r.divide = true;
                    r.even_divide = even;
                    r.suicide = true;
                });
                let (_, _, s) = solve(&rules);
                assert_eq!(s.start, Outcome::DRAW, "{}", rules.describe());
            }
        }
    }
}

/// Wikipedia's strategy list for the standard game, checked against every defence.
#[test]
fn wikipedia_strategy_list() {
    let rules = Preset::Standard.ruleset();
    let (graph, _, _) = solve(&rules);
    let listed = [
        "[2,1],[1,1]",
        "[?,?],[0,0]",
        "[2,1],[4,1]",
        "[2,1],[2,0]",
        "[3,1],[1,1]",
        "[3,2],[1,1]",
        "[3,2],[4,1]",
        "[3,2],[3,0]",
        "[3,3],[4,1]",
        "[3,3],[3,0]",
        "[3,1],[1,0]",
        "[3,2],[1,0]",
        "[3,3],[1,0]",
        "[1,0],[1,0]",
        "[2,0],[1,0]",
        "[3,0],[1,0]",
        "[2,1],[1,0]",
        "[2,2],[1,0]",
        "[4,2],[1,0]",
        "[4,4],[1,0]",
        "[1,1],[1,0]",
    ];
    let mut configurations = Vec::new();
    for entry in listed {
        let digits: Vec<u32> = entry.chars().filter_map(|c| c.to_digit(10)).collect();
        if entry.starts_with("[?,?]") {
            // Win immediately: every position where the opponent has no hand left.
            for i in 0..graph.count() {
                let p = graph.position(i);
                if p.players()[0] == [0, 0] && graph.is_terminal(i) && p.players()[1] != [0, 0] {
                    configurations.push(strategy::Seated { index: i, seat: 1 });
                }
            }
            continue;
        }
        // [mine],[theirs] with the opponent to move: theirs first in mover-first form.
        let p = Position::new(&rules, vec![digits[2..].to_vec(), digits[..2].to_vec()]).unwrap();
        configurations.push(strategy::Seated {
            index: graph.index_of(&p),
            seat: 1,
        });
    }
    let strat = strategy::Strategy {
        seat: 0,
        configurations,
        decisions: 0,
    };
    // Every configuration listed is a loss for the opponent...
    let (_, solution, _) = solve(&rules);
    for &c in &strat.configurations {
        assert_eq!(
            solution.outcome_at(c.index).unwrap().value,
            Value::Lose,
            "{:?}",
            graph.position(c.index)
        );
    }
    // ...but followed literally ("preferentially choosing the first one in the list")
    // the list lets the opponent loop for ever: at [2,3] v [1,2] the list says reach
    // [3,2],[4,1] (tap 2→2); the opponent splits 14→23; the list says [3,2],[3,0]
    // (tap 3→2); the opponent divides 03→12, and [2,3] v [1,2] is back.
    let start = graph.index_of(&Position::start(&rules));
    let err = strategy::verify(&graph, start, &strat).unwrap_err();
    let faced = |mine: [u32; 2], theirs: [u32; 2]| {
        let p = Position::new(&rules, vec![mine.to_vec(), theirs.to_vec()]).unwrap();
        graph.index_of(&p).to_string()
    };
    let cycle = format!("{} → {}", faced([2, 3], [1, 2]), faced([2, 3], [2, 3]));
    assert!(err.contains(&cycle), "{err}");
}

/// Rahman: "most 01-XY positions are losing": 12 of the 14 with a live opponent are
/// (01-04 and 01-14 are wins).
#[test]
fn rahman_01_positions() {
    let rules = Preset::Rahman.ruleset();
    let (_, solution, _) = solve(&rules);
    let mut wins = Vec::new();
    let mut losses = 0;
    for xy in [
        "01", "02", "03", "04", "11", "12", "13", "14", "22", "23", "24", "33", "34", "44",
    ] {
        let p = Position::parse(&format!("01-{xy}"), &rules).unwrap();
        match solution.outcome(&p).unwrap().value {
            Value::Lose => losses += 1,
            Value::Win => wins.push(xy),
            Value::Draw => panic!("01-{xy} is drawn"),
        }
    }
    assert_eq!(losses, 12);
    assert_eq!(wins, vec!["04", "14"]);
}

/// Wikipedia's second text: "two perfect players will play indefinitely" (true: the
/// start is a draw) and "even very inexperienced players can avoid losing by simply
/// looking one move ahead" (false: from drawn positions some moves lose in 3 plies,
/// which a one-move look-ahead does not see).
#[test]
fn rollover_draw_and_look_ahead() {
    let rules = Preset::Rollover.ruleset();
    let (graph, solution, s) = solve(&rules);
    assert_eq!(s.start, Outcome::DRAW);
    let start = graph.index_of(&Position::start(&rules));
    let reached = explore(&graph, start, &|_| {}).reached;
    let traps = strategy::traps(&graph, &solution, reached.iter()).unwrap();
    let deep: Vec<String> = traps
        .iter()
        .filter(|t| solution.outcome_at(t.index).unwrap().remoteness > Some(1))
        .map(|t| format!("{:?}", graph.position(t.index).players()))
        .collect();
    assert_eq!(traps.len(), 24);
    assert_eq!(deep.len(), 5, "{deep:?}");
    assert!(traps
        .iter()
        .all(|t| solution.outcome_at(t.index).unwrap().remoteness <= Some(3)));
}

/// Divisions and suicide without transfers, across cutoff/rollover, self-attack,
/// free/even divisions, pass-splits and misère (32 variants): the only forced wins
/// are three misère variants under cutoff without self-attacks, all first-player wins
/// in 10 plies. No variant is a second-player win.
#[test]
fn division_and_suicide_only_never_favours_the_second_player() {
    let mut wins = Vec::new();
    let variants: Vec<Ruleset> = Preset::Simple
        .ruleset()
        .variants()
        .into_iter()
        .filter(|r| !r.transfer && r.divide && r.suicide)
        .collect();
    assert_eq!(variants.len(), 32);
    for rules in variants {
        let (_, _, s) = solve(&rules);
        assert_ne!(s.start.value, Value::Lose, "{}", rules.describe());
        if s.start.value == Value::Win {
            assert!(rules.misere && !rules.self_attack);
            assert_eq!(rules.overflow, chopsticks_rules::Overflow::Cutoff);
            wins.push(s.start);
        }
    }
    assert_eq!(wins, vec![Outcome::win(10); 3]);
}

/// The standard game's only winning first move is the self-attack `1111 → 1112`;
/// without self-attacks the standard start is a draw; the even-split variation
/// (even-only divisions, no transfers, no suicide) is a draw with or without
/// self-attacks, under cutoff and rollover.
#[test]
fn standard_first_move_and_variations() {
    let rules = Preset::Standard.ruleset();
    let (_, solution, _) = solve(&rules);
    let winning: Vec<String> = solution
        .evaluate_moves(&Position::start(&rules))
        .unwrap()
        .iter()
        .filter(|m| m.outcome.value == Value::Win)
        .map(|m| m.mv.describe(&rules))
        .collect();
    assert_eq!(winning, vec!["self 1→1"]);
    let (_, _, s) = solve(&with(Preset::Standard, |r| r.self_attack = false));
    assert_eq!(s.start, Outcome::DRAW);
    for overflow in [
        chopsticks_rules::Overflow::Cutoff,
        chopsticks_rules::Overflow::Rollover,
    ] {
        for self_attack in [false, true] {
            let rules = with(Preset::Simple, |r| {
                r.overflow = overflow;
                r.self_attack = self_attack;
                r.divide = true;
                r.even_divide = true;
            });
            let (_, _, s) = solve(&rules);
            assert_eq!(s.start, Outcome::DRAW, "{}", rules.describe());
        }
    }
}

/// Wikipedia's first text: "splitting is allowed only from a single live hand with
/// even number of points into two equal halves. A related variation also allows
/// splitting a hand with odd number of points into two nearly equal halves … In this
/// variation the second player has a winning strategy." Not reproduced at `F = 5`:
/// with even-only or near-even divisions, whatever the other rules (overflow,
/// self-attacks, transfers, suicide, pass-splits live or any, misère), the start is
/// never a second-player win. With near-even divisions in normal play it never is
/// for `F = 3..9`; with even-only divisions it is at `F = 4` and `F = 6`
/// (docs/FINDINGS.md).
#[test]
fn restricted_divisions_never_favour_the_second_player_at_five() {
    use chopsticks_rules::PassSplits;
    let mut even_normal = Vec::new();
    let mut checked = 0;
    for fingers in 3..=9 {
        let base = Ruleset {
            fingers,
            ..Preset::Simple.ruleset()
        };
        let mut rulesets: Vec<Ruleset> = Vec::new();
        for r in base.variants().into_iter().filter(|r| r.divide) {
            for near in [false, true] {
                for pass in [PassSplits::Off, PassSplits::Live, PassSplits::Any] {
                    let rules = Ruleset {
                        even_divide: !near,
                        near_even_divide: near,
                        pass_splits: pass,
                        ..r.clone()
                    };
                    if rules.validate().is_ok() && !rulesets.contains(&rules) {
                        rulesets.push(rules);
                    }
                }
            }
        }
        for rules in rulesets {
            checked += 1;
            let (_, _, s) = solve(&rules);
            if s.start.value != Value::Lose {
                continue;
            }
            assert_ne!(fingers, 5, "{}", rules.describe());
            if !rules.misere {
                assert!(!rules.near_even_divide, "{}", rules.describe());
                if rules.pass_splits == PassSplits::Off {
                    even_normal.push((rules.describe(), s.start));
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
    let f4 = "2 players × 2 hands, F = 4 cutoff; attack, even division".to_string();
    let f6 = "2 players × 2 hands, F = 6 cutoff; attack, even division".to_string();
    assert!(
        even_normal.contains(&(f4, Outcome::lose(10))),
        "{even_normal:?}"
    );
    assert!(
        even_normal.contains(&(f6, Outcome::lose(14))),
        "{even_normal:?}"
    );
    assert_eq!(even_normal.len(), 13, "{even_normal:?}");
}

/// Wikipedia's second text, "Degenerate cases", whose formulas are lost from the copy:
/// with one hand each, "each position after k moves … can be represented by the
/// tuple" of Fibonacci numbers, and "the number of positions is given by [the] least
/// positive number [m] such that [F] divides [Fib(m)]". Recovered and checked for
/// every `F ≤ 100` (docs/FINDINGS.md): the position after `k` moves is
/// `(Fib(k+2) mod F, Fib(k+1) mod F)` (mover first, `Fib(1) = Fib(2) = 1`); with
/// rollover the game lasts `α(F) − 2` plies, where `α(F)` is that least `m` (the
/// Fibonacci entry point), and reaches `α(F) − 1` positions (one fewer than the
/// text's count: it counts `Fib(0)`'s position too, or the finished game twice); the
/// first player wins exactly when `α(F)` is odd. With cutoff the same holds with
/// `α` replaced by the least `m` with `Fib(m) ≥ F`. Misère play swaps the winner.
#[test]
fn degenerate_one_hand_fibonacci() {
    let fib = |m: u64| -> Vec<u64> {
        let mut f = vec![0u64, 1];
        while f.len() <= m as usize {
            let n = f.len();
            f.push(f[n - 1] + f[n - 2]);
        }
        f
    };
    for fingers in 2..=100u32 {
        let f = u64::from(fingers);
        // Fibonacci numbers mod F up to the entry point (at most 2F + 1 terms in).
        let mut a = (0u64, 1u64);
        let mut entry = 1;
        while !a.1.is_multiple_of(f) {
            a = (a.1, (a.0 + a.1) % f);
            entry += 1;
        }
        let table = fib(20);
        let cutoff_m = (1..).find(|&m| table[m] >= f).unwrap() as u64;
        for (overflow, m) in [(Overflow::Rollover, entry), (Overflow::Cutoff, cutoff_m)] {
            for misere in [false, true] {
                let rules = Ruleset {
                    hands: vec![1, 1],
                    fingers,
                    overflow,
                    misere,
                    ..Preset::Rollover.ruleset()
                };
                let (graph, _, s) = solve(&rules);
                let what = rules.describe();
                assert_eq!(s.reachable, m - 1, "{what}");
                assert_eq!(s.start.remoteness, Some((m - 2) as u32), "{what}");
                let first_wins = (m - 2) % 2 == 1;
                let want = if first_wins != misere {
                    Value::Win
                } else {
                    Value::Lose
                };
                assert_eq!(s.start.value, want, "{what}");
                // The positions along the game are the Fibonacci pairs.
                if overflow == Overflow::Rollover && !misere {
                    let mut p = Position::start(&rules);
                    // (Fib(k+1), Fib(k+2)) mod F, from k = 0.
                    let mut pair = (1u64, 1u64);
                    for _ in 0..(m - 2) {
                        assert_eq!(
                            [p.players()[0][0] as u64, p.players()[1][0] as u64],
                            [pair.1, pair.0]
                        );
                        pair = (pair.1, (pair.0 + pair.1) % f);
                        let children = graph.children(graph.index_of(&p));
                        assert_eq!(children.len(), 1, "one move each time");
                        p = graph.position(children[0]);
                    }
                }
            }
        }
    }
}

/// "A game with a rollover amount of 2 is degenerate … There are a total of [ ]
/// reachable positions in the game, and a game length of [ ]. The two player game is
/// strongly solved as a first person win." Recovered: with `h` hands each (Wikipedia's
/// rules: transfers, divisions; rollover or cutoff, the same game), `2h` reachable
/// positions and a game of `2h − 1` plies, won by the first player; checked for
/// `h ≤ 8`.
#[test]
fn degenerate_two_fingers() {
    for hands in 1..=8usize {
        for overflow in [Overflow::Rollover, Overflow::Cutoff] {
            let rules = Ruleset {
                hands: vec![hands, hands],
                fingers: 2,
                overflow,
                ..Preset::Rollover.ruleset()
            };
            let (_, _, s) = solve(&rules);
            assert_eq!(s.reachable, 2 * hands as u64, "{}", rules.describe());
            assert_eq!(s.start, Outcome::win(2 * hands as u32 - 1));
        }
    }
}
