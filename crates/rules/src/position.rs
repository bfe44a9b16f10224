//! Positions in canonical form, and the moves between them.
//!
//! A [`Position`] lists the players **mover first**, then in turn order, each
//! player's hands as a sorted multiset (`0` = dead). This is the mover-relative form
//! that game solving needs: two positions that differ only by which seat moves but
//! where the seats are interchangeable are the same position. When players have
//! different numbers of hands the mover's seat matters; it is kept modulo the
//! ruleset's [`Ruleset::rotation_period`] (so it is always 0 for symmetric rules).
//!
//! After a move the turn passes to the next player in order who still has a live
//! hand. When the game is over (normal play: at most one player alive; misère: some
//! player has no live hand) it passes to the next player in order, so a finished
//! position is recognised by its rules rather than by the mover alone; in two-player
//! normal play it is exactly "the mover has no live hand", as in Wikipedia's
//! endgames `0001 … 0044`.

use std::fmt::Write as _;

use crate::error::{quoted, Result, RulesError};
use crate::hands::{
    attack_results, can_pass, is_alive, live_values, self_attack_results, split_count_bound,
    split_results, SplitKind,
};
use crate::move_text::read_move_text;
use crate::ruleset::Ruleset;

/// A canonical position: the players' hands, mover first.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// Seat class of the mover (seat modulo the ruleset's rotation period).
    seat: usize,
    /// Hands per player, mover first, each sorted ascending.
    players: Vec<Vec<u32>>,
}

/// A legal move, described by the values involved. As JSON (for clients that draw
/// moves): `{"type": "tap", "from": 2, "target": 1, "to": 3}`, `{"type":
/// "self-tap", …}`, `{"type": "split", "kind": "division", "before": […], "after":
/// […]}`, `{"type": "pass"}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Move {
    /// The mover taps a live hand of value `from` on the opponent `target` places
    /// after them in turn order (1 = the next player), on a live hand of value `to`.
    Tap { from: u32, target: usize, to: u32 },
    /// The mover taps their hand `from` on their own other hand `to`.
    SelfTap { from: u32, to: u32 },
    /// The mover rearranges their hands from `before` to `after` (both sorted).
    Split {
        kind: SplitKind,
        before: Vec<u32>,
        after: Vec<u32>,
    },
    /// A pass-split: the mover swaps two hands, which changes nothing but the turn.
    Pass,
}

/// One player's hands as the compact and dashed notations write them: digits run
/// together when every value is a single digit (`F ≤ 10`), otherwise separated by
/// commas.
pub fn hands_text(hands: &[u32], fingers: u32) -> String {
    let mut out = String::new();
    write_hands(&mut out, hands, fingers);
    out
}

/// Writes one player's hands: digits run together when every value is a single
/// digit (`F ≤ 10`), otherwise separated by commas.
pub(crate) fn write_hands(out: &mut String, hands: &[u32], fingers: u32) {
    for (i, v) in hands.iter().enumerate() {
        if i > 0 && fingers > 10 {
            out.push(',');
        }
        write!(out, "{v}").expect("writing to a String");
    }
}

impl Move {
    /// The move as text, e.g. `tap 2→3`, `tap 2→3@2` (three or more players: `@k`
    /// names the opponent k places after the mover), `self 1→1`, `split 13→22`,
    /// `pass`. [`Position::find_move`] reads the same text back (`->` works for `→`).
    pub fn describe(&self, rules: &Ruleset) -> String {
        match self {
            Move::Tap { from, target, to } => {
                if rules.players() > 2 {
                    format!("tap {from}→{to}@{target}")
                } else {
                    format!("tap {from}→{to}")
                }
            }
            Move::SelfTap { from, to } => format!("self {from}→{to}"),
            Move::Split { before, after, .. } => {
                let mut s = String::from("split ");
                write_hands(&mut s, before, rules.fingers);
                s.push('→');
                write_hands(&mut s, after, rules.fingers);
                s
            }
            Move::Pass => "pass".to_string(),
        }
    }

    /// The kind of move: `attack`, `self-attack`, `transfer`, `division`, `suicide`, `pass`.
    pub fn kind(&self) -> &'static str {
        match self {
            Move::Tap { .. } => "attack",
            Move::SelfTap { .. } => "self-attack",
            Move::Split { kind, .. } => kind.name(),
            Move::Pass => "pass",
        }
    }
}

/// Normalises move text for comparison: lower case, `->` as `→`, no white space.
/// Two texts name the same move exactly when their normalised forms are equal
/// (what [`Position::find_move`] compares).
pub fn normalise_move_text(s: &str) -> String {
    s.to_lowercase()
        .replace("->", "→")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

impl Position {
    /// Builds a canonical position from already sorted hands (mover first) and the
    /// mover's seat class. Used by the index; no checks beyond debug assertions.
    pub(crate) fn from_canonical(seat: usize, players: Vec<Vec<u32>>) -> Position {
        debug_assert!(players.iter().all(|h| h.windows(2).all(|w| w[0] <= w[1])));
        Position { seat, players }
    }

    /// Builds a position of `rules` from each player's hands, mover first, in any
    /// order within a player. The mover's seat is deduced from the hand counts.
    pub fn new(rules: &Ruleset, players: Vec<Vec<u32>>) -> Result<Position> {
        let text = || {
            players
                .iter()
                .map(|h| {
                    let mut s = String::new();
                    write_hands(&mut s, h, rules.fingers.max(11));
                    s
                })
                .collect::<Vec<_>>()
                .join("-")
        };
        let err = |message: String| RulesError::Position {
            text: text(),
            message,
        };
        let p = rules.players();
        if players.len() != p {
            return Err(err(format!(
                "{} players given, the ruleset has {p}",
                players.len()
            )));
        }
        for (k, hands) in players.iter().enumerate() {
            if let Some(&v) = hands.iter().find(|&&v| v >= rules.fingers) {
                return Err(err(format!(
                    "Player {} has a hand of {v}, but hands hold 0..{} (F = {})",
                    k + 1,
                    rules.fingers - 1,
                    rules.fingers
                )));
            }
        }
        let counts: Vec<usize> = players.iter().map(Vec::len).collect();
        let period = rules.rotation_period();
        let seat = (0..period)
            .find(|&s| (0..p).all(|k| counts[k] == rules.hands[(s + k) % p]))
            .ok_or_else(|| {
                err(format!(
                    "hand counts {counts:?} (mover first) do not match the ruleset's hands {:?} in any turn order",
                    rules.hands
                ))
            })?;
        let players = players
            .into_iter()
            .map(|mut h| {
                h.sort_unstable();
                h
            })
            .collect();
        Ok(Position { seat, players })
    }

    /// The starting position: every hand of every player holds one finger, seat 0 moves.
    pub fn start(rules: &Ruleset) -> Position {
        Position {
            seat: 0,
            players: rules.hands.iter().map(|&h| vec![1; h]).collect(),
        }
    }

    /// The mover's seat class (seat modulo the rotation period; 0 for symmetric rules).
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// Each player's sorted hands, mover first.
    pub fn players(&self) -> &[Vec<u32>] {
        &self.players
    }

    /// The mover's hands.
    pub fn mover(&self) -> &[u32] {
        &self.players[0]
    }

    /// How many players still have a live hand.
    pub fn alive_players(&self) -> usize {
        self.players.iter().filter(|h| is_alive(h)).count()
    }

    /// Whether the game is over: normal play, at most one player has a live hand;
    /// misère, some player has none.
    pub fn is_terminal(&self, rules: &Ruleset) -> bool {
        let alive: Vec<bool> = self.players.iter().map(|h| is_alive(h)).collect();
        rules.is_over(&alive)
    }

    /// Whether each player has a live hand, mover first.
    pub fn alive(&self) -> Vec<bool> {
        self.players.iter().map(|h| is_alive(h)).collect()
    }

    /// Passes the turn after the mover changed `players` (still listed mover first):
    /// the position and the step, how many seats the turn moved on (the mover of
    /// the old position sits at seat `players - step` of the new one).
    fn advance(rules: &Ruleset, seat: usize, players: Vec<Vec<u32>>) -> (Position, usize) {
        let p = players.len();
        let alive: Vec<bool> = players.iter().map(|h| is_alive(h)).collect();
        let step = if rules.is_over(&alive) {
            1
        } else {
            (1..p)
                .find(|&k| alive[k])
                .expect("another live player exists when the game is not over")
        };
        let mut players = players;
        players.rotate_left(step);
        let position = Position {
            seat: (seat + step) % rules.rotation_period(),
            players,
        };
        (position, step)
    }

    /// The position with the turn passed on to the next player with a live hand
    /// (itself if the mover has one or the game is over), and the step. A position
    /// whose mover is out while the game goes on never arises in play; it means the
    /// same as this one.
    pub fn with_live_mover(&self, rules: &Ruleset) -> (Position, usize) {
        let alive = self.alive();
        if alive[0] || rules.is_over(&alive) {
            return (self.clone(), 0);
        }
        let step = (1..alive.len())
            .find(|&k| alive[k])
            .expect("a live player exists when the game is not over");
        let mut players = self.players.clone();
        players.rotate_left(step);
        let position = Position {
            seat: (self.seat + step) % rules.rotation_period(),
            players,
        };
        (position, step)
    }

    /// Every legal move with the position it leads to. Empty when the game is over.
    /// Moves are distinct as moves (different hand values), but under cutoff two taps
    /// that kill hands of the same value lead to the same position. Order: attacks (by
    /// target player, then tapper value, then tapped value), self-attacks, splits, pass.
    pub fn moves(&self, rules: &Ruleset) -> Vec<(Move, Position)> {
        self.moves_with_steps(rules)
            .into_iter()
            .map(|(m, q, _)| (m, q))
            .collect()
    }

    /// [`Position::moves`] with each move's step: how many seats the turn moves on
    /// (1 with two players; more when the players in between are out). The mover
    /// sits at seat `players - step` of the position the move leads to.
    pub fn moves_with_steps(&self, rules: &Ruleset) -> Vec<(Move, Position, usize)> {
        let mut out = Vec::new();
        if self.is_terminal(rules) || !is_alive(self.mover()) {
            return out;
        }
        let p = self.players.len();
        let replaced = |k: usize, hands: Vec<u32>| {
            let mut players = self.players.clone();
            players[k] = hands;
            Position::advance(rules, self.seat, players)
        };
        for target in 1..p {
            if !is_alive(&self.players[target]) || rules.same_side(0, target) {
                continue;
            }
            for from in live_values(self.mover()) {
                for (to, hands) in attack_results(rules, &self.players[target], from) {
                    let (q, step) = replaced(target, hands);
                    out.push((Move::Tap { from, target, to }, q, step));
                }
            }
        }
        for (from, to, hands) in self_attack_results(rules, self.mover()) {
            let (q, step) = replaced(0, hands);
            out.push((Move::SelfTap { from, to }, q, step));
        }
        for (kind, hands) in split_results(rules, self.mover()) {
            let mv = Move::Split {
                kind,
                before: self.mover().to_vec(),
                after: hands.clone(),
            };
            let (q, step) = replaced(0, hands);
            out.push((mv, q, step));
        }
        if can_pass(rules, self.mover()) {
            let (q, step) = replaced(0, self.mover().to_vec());
            out.push((Move::Pass, q, step));
        }
        out
    }

    /// An upper bound on `self.moves(rules).len()`, computed without listing the
    /// moves (with a large `F`, transfers alone can number in the millions).
    pub fn move_count_bound(&self, rules: &Ruleset) -> u64 {
        let own = self.mover().len() as u64;
        let taps: u64 = self.players[1..]
            .iter()
            .map(|hands| own * hands.len() as u64)
            .sum();
        taps + own * own + split_count_bound(rules, self.mover()) + 1
    }

    /// Reads a move in any form people type it (`tap 1→2`, `tap 1 2`, `t12`, `1 2`,
    /// `self 2 1`, `split 13 22`, … see [`read_move_text`]; moves name hands by
    /// their values) and returns it with the position it leads to. Text that names
    /// no move is refused with every form a move can take; a move that is not
    /// legal here with the legal moves ([`RulesError::IllegalMove`]).
    pub fn find_move(&self, rules: &Ruleset, text: &str) -> Result<(Move, Position)> {
        let (m, q, _) = self.find_move_step(rules, text, None)?;
        Ok((m, q))
    }

    /// [`Position::find_move`] with the move's step; `turn`, the mover's seat
    /// (from 0) when known, reads taps that name a player by number (`P3`).
    pub(crate) fn find_move_step(
        &self,
        rules: &Ruleset,
        text: &str,
        turn: Option<usize>,
    ) -> Result<(Move, Position, usize)> {
        let moves = self.moves_with_steps(rules);
        let legal: Vec<String> = moves.iter().map(|(m, _, _)| m.describe(rules)).collect();
        let exact = normalise_move_text(text);
        if let Some(k) = legal.iter().position(|d| normalise_move_text(d) == exact) {
            return Ok(moves[k].clone());
        }
        if legal.is_empty() {
            return Err(RulesError::Move(format!(
                "`{}` is not legal: the game is over",
                quoted(text)
            )));
        }
        let wanted = read_move_text(text, rules)?.canonical(rules, self, turn, text)?;
        if let Some(k) = legal.iter().position(|d| normalise_move_text(d) == wanted) {
            return Ok(moves[k].clone());
        }
        Err(RulesError::IllegalMove {
            text: quoted(text.trim()),
            legal,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Preset;

    fn pos(rules: &Ruleset, players: &[&[u32]]) -> Position {
        Position::new(rules, players.iter().map(|h| h.to_vec()).collect()).unwrap()
    }

    #[test]
    fn wikipedia_example_1312() {
        // "the early position 1312 can become 2213, 1313, 2413, 0113, or 1222."
        let r = Preset::Rollover.ruleset();
        let p = pos(&r, &[&[1, 3], &[1, 2]]);
        let mut got: Vec<Vec<Vec<u32>>> = p.moves(&r).into_iter().map(|(_, q)| q.players).collect();
        got.sort();
        let mut want = vec![
            vec![vec![2, 2], vec![1, 3]],
            vec![vec![1, 3], vec![1, 3]],
            vec![vec![2, 4], vec![1, 3]],
            vec![vec![0, 1], vec![1, 3]],
            vec![vec![1, 2], vec![2, 2]],
        ];
        want.sort();
        assert_eq!(got, want);
    }

    #[test]
    fn start_moves() {
        // "The starting position is 1111. The next position must be 1211."
        let r = Preset::Rollover.ruleset();
        let next: Vec<Position> = Position::start(&r)
            .moves(&r)
            .into_iter()
            .map(|(_, q)| q)
            .collect();
        assert_eq!(next, vec![pos(&r, &[&[1, 2], &[1, 1]])]);
    }

    #[test]
    fn find_move_reads_descriptions() {
        let r = Preset::Standard.ruleset();
        let p = Position::start(&r);
        for (m, q) in p.moves(&r) {
            let (m2, q2) = p.find_move(&r, &m.describe(&r)).unwrap();
            assert_eq!((m, q), (m2, q2));
        }
        assert!(p.find_move(&r, "TAP 1 -> 1").is_ok());
        let e = p.find_move(&r, "tap 3→1").unwrap_err().to_string();
        assert!(e.contains("legal moves"), "{e}");
    }

    #[test]
    fn find_move_reads_the_short_forms_by_values() {
        let r = Preset::Standard.ruleset();
        // Mover 1,3 against 1,2: `tap 1 2` is the mover's 1 on the opponent's 2.
        let p = pos(&r, &[&[1, 3], &[1, 2]]);
        let named = |text: &str| p.find_move(&r, text).unwrap().0.describe(&r);
        for text in [
            "tap 1→2",
            "tap 1->2",
            "tap 1 2",
            "t12",
            "1 2",
            "T 1 2",
            "1→2",
        ] {
            assert_eq!(named(text), "tap 1→2", "{text}");
        }
        assert_eq!(named("3 1"), "tap 3→1");
        for text in ["self 1→3", "self 1 3", "s13", "s 1 3"] {
            assert_eq!(named(text), "self 1→3", "{text}");
        }
        for text in [
            "split 13→22",
            "split 13 22",
            "s13 22",
            "13 22",
            "split 31 22",
        ] {
            assert_eq!(named(text), "split 13→22", "{text}");
        }
        // Legal text, no such move here; text that names no move.
        let e = p.find_move(&r, "t22").unwrap_err();
        assert!(matches!(e, RulesError::IllegalMove { .. }), "{e}");
        assert!(
            e.to_string()
                .contains("is not a legal move here; legal moves: tap 1→1, tap 1→2"),
            "{e}"
        );
        let e = p.find_move(&r, "moves please").unwrap_err().to_string();
        assert!(e.contains("is not a move"), "{e}");
        assert!(e.contains("`tap 1 2` (or `t12`, `1 2`"), "{e}");
        // A finished game has no move, whatever is typed.
        let over = pos(&r, &[&[0, 0], &[1, 2]]);
        let e = over.find_move(&r, "t12").unwrap_err().to_string();
        assert!(e.contains("the game is over"), "{e}");
        // Three players: a tap says whom, `@k` here (a position without its seat).
        let mut three = Preset::Standard.ruleset();
        three.hands = vec![2, 2, 2];
        let q = pos(&three, &[&[1, 1], &[1, 2], &[1, 3]]);
        assert_eq!(
            q.find_move(&three, "t13@2").unwrap().0.describe(&three),
            "tap 1→3@2"
        );
        let e = q.find_move(&three, "t13").unwrap_err().to_string();
        assert!(e.contains("say whom you tap"), "{e}");
        let e = q.find_move(&three, "t13 p3").unwrap_err().to_string();
        assert!(e.contains("needs the seat to move"), "{e}");
        let e = q.find_move(&three, "t11@3").unwrap_err().to_string();
        assert!(e.contains("there is no player 3 places after you"), "{e}");
    }

    #[test]
    fn terminal_positions() {
        let r = Preset::Standard.ruleset();
        assert!(pos(&r, &[&[0, 0], &[1, 2]]).is_terminal(&r));
        assert!(pos(&r, &[&[0, 0], &[1, 2]]).moves(&r).is_empty());
        assert!(!Position::start(&r).is_terminal(&r));
    }

    #[test]
    fn three_players_skip_the_dead() {
        let mut r = Preset::Rollover.ruleset();
        r.hands = vec![2, 2, 2];
        // Mover 11, next player 01 (will die), last player 11.
        let p = pos(&r, &[&[1, 1], &[0, 4], &[1, 1]]);
        let (_, q) = p.find_move(&r, "tap 1→4@1").unwrap();
        // Player 1 is out, so the last player moves next; the mover is last in order.
        assert_eq!(q.players, vec![vec![1, 1], vec![1, 1], vec![0, 0]]);
        assert!(!q.is_terminal(&r));
    }

    #[test]
    fn asymmetric_hands_keep_the_seat() {
        let mut r = Preset::Simple.ruleset();
        r.hands = vec![1, 3];
        let p = Position::start(&r);
        assert_eq!(p.seat(), 0);
        let (_, q) = p.moves(&r).into_iter().next().unwrap();
        assert_eq!(q.seat(), 1);
        assert_eq!(q.players, vec![vec![1, 1, 2], vec![1]]);
    }
}
