//! Positions that name the seat to move, for clients that show seats.
//!
//! A [`Position`] is mover-relative: the player to move comes first, and for
//! symmetric rules nothing records which seat that is. That is what solving needs
//! (a position and its rotation are one game), but a client that draws Player 1 on
//! the left and Player 2 on the right must know whose turn it is. A
//! [`SeatedPosition`] adds the absolute seat to move and writes the players in seat
//! order, behind the seat's number and an underscore:
//!
//! | text | meaning |
//! |---|---|
//! | `1_1112` | Player 1 to move; Player 1 has `11`, Player 2 has `12` |
//! | `2_1112` | the same hands, Player 2 to move |
//! | `3_11-01-12` | three players, Player 3 (`12`) to move |
//! | `1_1,12-3,4` | `F > 10`: hands separated by commas |
//!
//! The hands after the underscore are in the compact or dashed notation, in seat
//! order (Player 1 first), not mover first. The texts use only characters that are
//! safe in a URL unencoded (digits, `_`, `-`, `,`), as GamesmanUni requires of
//! position ids. A text without the prefix is read as the command line reads it,
//! mover first, and seated at the mover's seat class (Player 1 for symmetric rules),
//! so every notation keeps working. The form every command prints beside the id,
//! `P1* [1,3]  P2 [1,2]` (each player's hands in seat order, the mover starred,
//! labels such as `(you)` allowed), is read too, so what is printed can be pasted.

use crate::error::{quoted, Result, RulesError};
use crate::hands::is_alive;
use crate::notation::{as_typed, error, read_compact, read_dashed, recount, Notation};
use crate::player::Player;
use crate::position::{Move, Position};
use crate::ruleset::Ruleset;

/// A position with the absolute seat of the player to move (0 = Player 1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SeatedPosition {
    turn: usize,
    position: Position,
}

/// An error in reading the hands of a seated id, said of the whole id: the id
/// quoted (`2_13x2`, not `13x2`) and characters counted from its first (the
/// hands start after `offset` characters, the seat and its `_`).
fn within_seated(e: RulesError, whole: &str, offset: usize) -> RulesError {
    match e {
        RulesError::Position { message, .. } => {
            error(whole, recount(message, |k| Some(k + offset)))
        }
        other => other,
    }
}

/// A position mistyped in a way that has one likely meaning gets it as a hint:
/// `2-1312` for the seated `2_1312`, `13|12` for the paper's `(1,3|1,2)_4`.
fn with_hint(e: RulesError, compact: &str, rules: &Ruleset) -> RulesError {
    let RulesError::Position { text, message } = e else {
        return e;
    };
    let mut hint = None;
    if let Some((seat, rest)) = compact.split_once('-') {
        let seated = format!("{seat}_{rest}");
        if !seat.is_empty()
            && seat.bytes().all(|b| b.is_ascii_digit())
            && SeatedPosition::parse(&seated, rules).is_ok()
        {
            hint = Some(format!(
                "did you mean `{seated}` (Player {seat} to move; a seated id writes `_` after the player to move)?"
            ));
        }
    }
    if hint.is_none() && compact.contains('|') && !compact.contains('(') {
        // The paper's notation without its parentheses and `_n`: with single
        // digits and no commas (`13|12`), each digit is a hand.
        let sides: Vec<String> = compact
            .split('|')
            .map(|side| {
                if side.contains(',') || rules.fingers > 10 {
                    side.to_string()
                } else {
                    side.chars().map(String::from).collect::<Vec<_>>().join(",")
                }
            })
            .collect();
        let paper = format!("({})_{}", sides.join("|"), rules.fingers - 1);
        if Position::parse(&paper, rules).is_ok() {
            hint = Some(format!("did you mean `{paper}` (the paper's notation)?"));
        }
    }
    match hint {
        Some(h) => RulesError::Position {
            text,
            message: format!("{message}; {h}"),
        },
        None => RulesError::Position { text, message },
    }
}

/// Reads the printed form `P1* [1,3]  P2 [1,2]` (spaces removed): every player
/// in seat order, Player 1 first, their hands in brackets, the mover starred; a
/// label in parentheses after a player's hands (`(you)`) is skipped.
fn parse_hands_line(compact: &str, rules: &Ruleset) -> Result<SeatedPosition> {
    let fail = |why: String| error(compact, why);
    let p = rules.players();
    let mut rest = compact;
    let mut players = Vec::new();
    let mut turn = None;
    while !rest.is_empty() {
        let Some(after) = rest.strip_prefix(['P', 'p']) else {
            return Err(fail(format!(
                "expected `P{}` for Player {} and their hands",
                players.len() + 1,
                players.len() + 1
            )));
        };
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let number: usize = after[..digits]
            .parse()
            .map_err(|_| fail("a player's number after `P`".into()))?;
        if number != players.len() + 1 {
            return Err(fail(format!(
                "Player {number} written where Player {} belongs: write every player in order, Player 1 first",
                players.len() + 1
            )));
        }
        rest = &after[digits..];
        if let Some(r) = rest.strip_prefix('*') {
            if turn.replace(number - 1).is_some() {
                return Err(fail(
                    "two players are starred: star the player to move only".into(),
                ));
            }
            rest = r;
        }
        let Some(r) = rest.strip_prefix('[') else {
            return Err(fail(format!(
                "Player {number}'s hands in brackets, `[1,2]`"
            )));
        };
        let Some(close) = r.find(']') else {
            return Err(fail(format!("Player {number}'s hands have no closing `]`")));
        };
        let hands = r[..close]
            .split(',')
            .map(|v| {
                v.parse::<u32>()
                    .map_err(|_| fail(format!("`{}` is not a hand of Player {number}", quoted(v))))
            })
            .collect::<Result<Vec<u32>>>()?;
        players.push(hands);
        rest = &r[close + 1..];
        // A label (`(you)`, `(computer)`).
        if let Some(r) = rest.strip_prefix('(') {
            let Some(close) = r.find(')') else {
                return Err(fail("a label in parentheses has no closing `)`".into()));
            };
            rest = &r[close + 1..];
        }
    }
    if players.len() != p {
        return Err(fail(format!(
            "{} players written, the rules have {p}",
            players.len()
        )));
    }
    let Some(turn) = turn else {
        return Err(fail(
            "no player is starred: mark the player to move with `*` (`P1* [1,1]`)".into(),
        ));
    };
    let id = format!(
        "{}_{}",
        turn + 1,
        players
            .iter()
            .map(|h| {
                h.iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(if rules.fingers > 10 { "," } else { "" })
            })
            .collect::<Vec<_>>()
            .join("-")
    );
    // Errors of the id built here are said of the text given, without the
    // id's character count.
    SeatedPosition::parse(&id, rules).map_err(|e| match e {
        RulesError::Position { message, .. } => fail(recount(message, |_| None)),
        other => other,
    })
}

impl SeatedPosition {
    /// Seats `position` with `turn` (0-based) to move. Fails when the seat is not a
    /// seat of the rules or does not have the mover's number of hands.
    pub fn new(rules: &Ruleset, turn: usize, position: Position) -> Result<SeatedPosition> {
        let p = rules.players();
        if turn >= p {
            return Err(RulesError::Position {
                text: format!("{}_…", turn + 1),
                message: format!(
                    "there is no Player {}: the rules have {p} players",
                    turn + 1
                ),
            });
        }
        if turn % rules.rotation_period() != position.seat() {
            return Err(RulesError::Position {
                text: format!("{}_…", turn + 1),
                message: format!(
                    "Player {} has {} hands, but the player to move has {}",
                    turn + 1,
                    rules.hands[turn],
                    position.mover().len()
                ),
            });
        }
        Ok(SeatedPosition { turn, position })
    }

    /// The start: Player 1 to move, one finger on every hand.
    pub fn start(rules: &Ruleset) -> SeatedPosition {
        SeatedPosition {
            turn: 0,
            position: Position::start(rules),
        }
    }

    /// The seat to move, 0-based (0 = Player 1).
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// The mover-relative position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The absolute seat of the player `relative` places after the mover.
    pub fn seat_of(&self, relative: usize) -> usize {
        (self.turn + relative) % self.position.players().len()
    }

    /// Every seat's sorted hands, Player 1 first.
    pub fn hands_by_seat(&self) -> Vec<Vec<u32>> {
        let players = self.position.players();
        let p = players.len();
        (0..p)
            .map(|seat| players[(seat + p - self.turn) % p].clone())
            .collect()
    }

    /// The position a move leads to: `to`, reached with the turn moving `step` seats
    /// on (as [`Position::moves_with_steps`] gives them).
    pub fn after(&self, to: Position, step: usize) -> SeatedPosition {
        let p = to.players().len();
        SeatedPosition {
            turn: (self.turn + step) % p,
            position: to,
        }
    }

    /// Reads `N_HANDS` (Player `N` to move, hands in seat order, see the module
    /// documentation) or any notation [`Position::parse`] reads (mover first).
    pub fn parse(text: &str, rules: &Ruleset) -> Result<SeatedPosition> {
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        Self::parse_compact(text, &compact, rules).map_err(|e| as_typed(e, &compact, text))
    }

    /// [`parse`](Self::parse) of `compact`, `text` without its white space.
    fn parse_compact(text: &str, compact: &str, rules: &Ruleset) -> Result<SeatedPosition> {
        let compact = compact.to_string();
        if compact.len() > 1
            && compact.starts_with(['P', 'p'])
            && compact.as_bytes()[1].is_ascii_digit()
        {
            return parse_hands_line(&compact, rules);
        }
        let prefix_end = compact
            .find('_')
            .filter(|&i| i > 0 && compact[..i].bytes().all(|b| b.is_ascii_digit()));
        let Some(at) = prefix_end else {
            let position =
                Position::parse(text, rules).map_err(|e| with_hint(e, &compact, rules))?;
            return Ok(SeatedPosition {
                turn: position.seat(),
                position,
            });
        };
        let p = rules.players();
        let turn = compact[..at]
            .parse::<usize>()
            .ok()
            .filter(|t| (1..=p).contains(t))
            .ok_or_else(|| {
                error(
                    &compact,
                    format!(
                        "`{}_` names no player: the player to move is numbered 1 to {p}",
                        &compact[..at]
                    ),
                )
            })?
            - 1;
        let hands = &compact[at + 1..];
        if hands.is_empty() {
            return Err(error(&compact, "no hands after the seat to move"));
        }
        let mut players = if hands.starts_with('(') {
            return Err(error(
                &compact,
                "after the seat to move write the hands in compact or dashed notation (`1_1112`, `1_11-12`), Player 1 first",
            ));
        } else if hands.contains('-') {
            read_dashed(hands, rules)
        } else {
            read_compact(hands, rules)
        }
        .map_err(|e| within_seated(e, &compact, at + 1))?;
        if players.len() != p {
            return Err(error(
                &compact,
                format!("{} players written, the rules have {p}", players.len()),
            ));
        }
        for (seat, h) in players.iter().enumerate() {
            if h.len() != rules.hands[seat] {
                return Err(error(
                    &compact,
                    format!(
                        "Player {} has {} hands, {} written",
                        seat + 1,
                        rules.hands[seat],
                        h.len()
                    ),
                ));
            }
        }
        players.rotate_left(turn);
        let position = Position::new(rules, players)?;
        if !position.is_terminal(rules) && !is_alive(position.mover()) {
            return Err(error(
                &compact,
                format!(
                    "Player {} is to move but has no live hand, and the game is not over (a player without hands is skipped)",
                    turn + 1
                ),
            ));
        }
        SeatedPosition::new(rules, turn, position)
    }

    /// The mover-relative position, giving up the seat.
    pub fn into_position(self) -> Position {
        self.position
    }

    /// Writes the position as the toolkit prints it: `None` is the seated id
    /// ([`to_text`](Self::to_text), `2_1312`, Player 1 first), the default of
    /// every command that knows whose turn it is; `Some(notation)` the mover-first
    /// notation asked for with `--notation`.
    pub fn write(&self, rules: &Ruleset, notation: Option<Notation>) -> Result<String> {
        match notation {
            None => self.to_text(rules),
            Some(n) => self.position.to_notation(rules, n),
        }
    }

    /// Reads a move as people type it (see [`Position::find_move`]; here a tap may
    /// also name its target by number, `tap 1 2 P3`) and returns it with the
    /// position it leads to.
    pub fn find_move(&self, rules: &Ruleset, text: &str) -> Result<(Move, SeatedPosition)> {
        let (m, to, step) = self.position.find_move_step(rules, text, Some(self.turn))?;
        Ok((m, self.after(to, step)))
    }

    /// A move's name at this position, as every command, record and the API
    /// print it: [`Move::describe`], except that with three or more players a
    /// tap names its target by number (`tap 2→3 P3`: on Player 3's hand showing
    /// 3) instead of by places after the mover (`tap 2→3@2`).
    /// [`find_move`](Self::find_move) reads both back.
    pub fn move_name(&self, rules: &Ruleset, m: &Move) -> String {
        match m {
            Move::Tap { from, target, to } if rules.players() > 2 => {
                format!(
                    "tap {from}→{to} {}",
                    Player::from_seat(self.seat_of(*target)).short()
                )
            }
            _ => m.describe(rules),
        }
    }

    /// The player to move.
    pub fn mover(&self) -> Player {
        Player::from_seat(self.turn)
    }

    /// Every player's hands for people, the one form every command, the API and
    /// the page print: Player 1 first, in seat order, each player's hands ascending,
    /// the player to move starred: `P1* [1,1]  P2 [1,2]`.
    pub fn hands_line(&self) -> String {
        self.hands_line_with(|_| None)
    }

    /// [`hands_line`](Self::hands_line) with a label after some players' hands
    /// (`P1* [1,1] (you)  P2 [1,2] (computer)`).
    pub fn hands_line_with(&self, label: impl Fn(Player) -> Option<String>) -> String {
        self.hands_by_seat()
            .iter()
            .enumerate()
            .map(|(seat, hands)| {
                let player = Player::from_seat(seat);
                let star = if seat == self.turn { "*" } else { "" };
                let values: Vec<String> = hands.iter().map(u32::to_string).collect();
                let mut text = format!("{}{star} [{}]", player.short(), values.join(","));
                if let Some(label) = label(player) {
                    text.push_str(&format!(" ({label})"));
                }
                text
            })
            .collect::<Vec<_>>()
            .join("  ")
    }

    /// Writes `N_HANDS`: the seat to move, then every seat's hands, Player 1 first,
    /// in the compact notation for two players when it applies (`1_1112`, as
    /// GamesCrafters writes Chopsticks positions), else the dashed one.
    pub fn to_text(&self, rules: &Ruleset) -> Result<String> {
        let notation = match Notation::default_for(rules) {
            Notation::Compact if rules.players() == 2 => Notation::Compact,
            _ => Notation::Dashed,
        };
        let by_seat = Position::from_canonical(0, self.hands_by_seat());
        Ok(format!(
            "{}_{}",
            self.turn + 1,
            by_seat.to_notation(rules, notation)?
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Preset;

    fn rules(id: &str) -> Ruleset {
        Ruleset::from_variant_id(id).unwrap()
    }

    #[test]
    fn move_names_number_the_target_and_read_back() {
        let r = rules("standard.p3");
        for text in ["1_11-12-13", "2_11-12-13", "3_01-12-13"] {
            let at = SeatedPosition::parse(text, &r).unwrap();
            for (m, to, step) in at.position().moves_with_steps(&r) {
                let name = at.move_name(&r, &m);
                if let Move::Tap { target, .. } = m {
                    let player = at.seat_of(target) + 1;
                    assert!(name.ends_with(&format!(" P{player}")), "{name}");
                    assert_ne!(player, at.turn() + 1, "{name}");
                }
                let (back, after) = at.find_move(&r, &name).unwrap();
                assert_eq!(back, m, "{text}: {name}");
                assert_eq!(after, at.after(to, step), "{text}: {name}");
            }
        }
        let two = Preset::Standard.ruleset();
        let at = SeatedPosition::parse("2_1312", &two).unwrap();
        let (m, _) = at.find_move(&two, "t11").unwrap();
        assert_eq!(at.move_name(&two, &m), "tap 1→1");
    }

    #[test]
    fn the_printed_form_reads_back_and_mistypes_get_a_hint() {
        let r = Preset::Standard.ruleset();
        let three = rules("standard.p3");
        for (text, rules) in [("2_1312", &r), ("1_0013", &r), ("3_11-12-04", &three)] {
            let at = SeatedPosition::parse(text, rules).unwrap();
            let printed = at.hands_line();
            assert_eq!(
                SeatedPosition::parse(&printed, rules).unwrap(),
                at,
                "{printed}"
            );
            let labelled = at.hands_line_with(|p| Some(format!("label of {p}")));
            assert_eq!(
                SeatedPosition::parse(&labelled, rules).unwrap(),
                at,
                "{labelled}"
            );
        }
        let message = |text: &str| SeatedPosition::parse(text, &r).unwrap_err().to_string();
        assert!(message("P1 [1,3] P2 [1,2]").contains("no player is starred"));
        assert!(message("P1* [1,3] P2* [1,2]").contains("two players are starred"));
        assert!(message("P2* [1,3] P1 [1,2]").contains("Player 1 first"));
        assert!(message("P1* [1,9] P2 [1,2]").contains("a hand of 9 is out of range"));
        assert!(message("2-1312").contains("did you mean `2_1312`"));
        assert!(message("13|12").contains("did you mean `(1,3|1,2)_4`"));
        assert!(message("1,3|1,2").contains("did you mean `(1,3|1,2)_4`"));
    }

    #[test]
    fn errors_in_the_hands_quote_the_whole_id_and_count_from_its_start() {
        let r = Preset::Standard.ruleset();
        let message = |text: &str| SeatedPosition::parse(text, &r).unwrap_err().to_string();
        let m = message("2_13x2");
        assert!(m.contains("`2_13x2`"), "{m}");
        assert!(m.contains("at character 5: `x`"), "{m}");
        let m = message("12_1392");
        assert!(m.contains("`12_1392`"), "{m}");
        let m = message("1_13-92");
        assert!(
            m.contains("`1_13-92`") && m.contains("at character 6"),
            "{m}"
        );
        // The compact reading counts the same way.
        let m = message("13x2");
        assert!(m.contains("at character 3: `x`"), "{m}");
        // Characters are counted in the text as typed, spaces included.
        let m = message("13 1x");
        assert!(m.contains("`13 1x`: at character 5: `x`"), "{m}");
        let m = message("2_13 1x");
        assert!(m.contains("`2_13 1x`: at character 7: `x`"), "{m}");
    }

    #[test]
    fn seat_order_and_mover_first() {
        let r = rules("standard");
        let s = SeatedPosition::parse("2_1112", &r).unwrap();
        assert_eq!(s.turn(), 1);
        // Player 2 moves: mover first, Player 2's hands lead.
        assert_eq!(s.position().players(), &[vec![1, 2], vec![1, 1]]);
        assert_eq!(s.hands_by_seat(), vec![vec![1, 1], vec![1, 2]]);
        assert_eq!(s.to_text(&r).unwrap(), "2_1112");
        let plain = SeatedPosition::parse("1211", &r).unwrap();
        assert_eq!(plain.turn(), 0);
        assert_eq!(plain.to_text(&r).unwrap(), "1_1211");
        assert_eq!(SeatedPosition::start(&r).to_text(&r).unwrap(), "1_1111");
        assert_eq!(s.hands_line(), "P1 [1,1]  P2* [1,2]");
        let puzzle = SeatedPosition::parse("1_2202", &r).unwrap();
        assert_eq!(puzzle.hands_line(), "P1* [2,2]  P2 [0,2]");
        assert_eq!(
            puzzle.hands_line_with(|p| (p.seat() == 0).then(|| "you".to_string())),
            "P1* [2,2] (you)  P2 [0,2]"
        );
    }

    #[test]
    fn three_players_and_wide_hands() {
        let r = rules("standard.p3");
        let s = SeatedPosition::parse("3_11-01-12", &r).unwrap();
        assert_eq!(
            s.position().players(),
            &[vec![1, 2], vec![1, 1], vec![0, 1]]
        );
        assert_eq!(s.to_text(&r).unwrap(), "3_11-01-12");
        assert_eq!(s.seat_of(1), 0);
        let wide = rules("standard.f12");
        let s = SeatedPosition::parse("2_1,11-3,4", &wide).unwrap();
        assert_eq!(s.to_text(&wide).unwrap(), "2_1,11-3,4");
    }

    #[test]
    fn moves_carry_the_seat() {
        let r = Preset::Standard.ruleset();
        let s = SeatedPosition::start(&r);
        for (_, to, step) in s.position().moves_with_steps(&r) {
            let child = s.after(to, step);
            assert_eq!(child.turn(), 1);
            let text = child.to_text(&r).unwrap();
            assert_eq!(SeatedPosition::parse(&text, &r).unwrap(), child);
        }
    }

    #[test]
    fn moves_name_a_target_by_number() {
        let r = rules("standard.p3");
        // Player 2 to move; Player 3 is 1 place after, Player 1 2 places after.
        let s = SeatedPosition::parse("2_11-12-13", &r).unwrap();
        for text in [
            "tap 1 3 P3",
            "t13p3",
            "tap 1→3@1",
            "1 3 @p3",
            "tap 1 3 player 3",
        ] {
            let (m, to) = s.find_move(&r, text).unwrap();
            assert_eq!(m.describe(&r), "tap 1→3@1", "{text}");
            assert_eq!(to.turn(), 2, "{text}");
        }
        let (m, _) = s.find_move(&r, "t11p1").unwrap();
        assert_eq!(m.describe(&r), "tap 1→1@2");
        for (text, needle) in [
            ("tap 1 1 P2", "Player 2 is you"),
            ("tap 1 1 P4", "`4` names no player"),
            ("tap 1 1", "with 3 players say whom you tap"),
            ("tap 1 4 P3", "is not a legal move here"),
        ] {
            let e = s.find_move(&r, text).unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
        // Two players: no target needed; `P2` is allowed too.
        let two = rules("standard");
        let s = SeatedPosition::parse("2_1112", &two).unwrap();
        let (m, to) = s.find_move(&two, "t21p1").unwrap();
        assert_eq!(m.describe(&two), "tap 2→1");
        assert_eq!(to.turn(), 0);
    }

    #[test]
    fn refusals_say_why() {
        let r = rules("standard");
        for (text, needle) in [
            ("3_1111", "names no player"),
            ("0_1111", "names no player"),
            ("1_", "no hands"),
            ("1_(1|1)_4", "compact or dashed"),
            ("1_111", "digits written"),
            ("1_1-111", "Player 1 has 2 hands"),
            ("1_11-11-11", "3 players written"),
            ("1_1x11", "not a digit"),
        ] {
            let e = SeatedPosition::parse(text, &r).unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
        let three = rules("standard.p3");
        let e = SeatedPosition::parse("1_00-11-11", &three)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no live hand"), "{e}");
        // A finished game: Player 2 has no hand left, and it is Player 2's turn.
        assert!(SeatedPosition::parse("2_1100", &r).is_ok());
        let uneven = rules("standard.h2-3");
        let e = SeatedPosition::parse("2_11-11", &uneven)
            .unwrap_err()
            .to_string();
        assert!(e.contains("Player 2 has 3 hands"), "{e}");
        assert!(SeatedPosition::parse("2_11-111", &uneven).is_ok());
    }
}
