//! Reading moves as people type them: the one move reader of the toolkit.
//!
//! A move names hands by the **fingers they show** (their values), never by
//! their place, as [`Move::describe`](crate::Move::describe) writes it:
//!
//! | move | forms read | meaning |
//! |---|---|---|
//! | tap | `tap 1→2`, `tap 1->2`, `tap 1 2`, `t12`, `t 1 2`, `1 2`, `1→2` | your hand showing 1 taps the opponent's hand showing 2 |
//! | tap, 3+ players | `tap 1→2@2`, `tap 1 2 @2`, `t12@2`, `1 2 @2`; at a seated position also `tap 1 2 P3`, `t12p3` | `@k`: the player `k` places after you; `P3`: Player 3 |
//! | self-tap | `self 1→2`, `self 1 2`, `s12`, `s 1 2` | your hand showing 1 taps your own hand showing 2 |
//! | split | `split 13→22`, `split 13 22`, `s13 22`, `13 22`, `13→22` | your hands showing 1 and 3 become 2 and 2 |
//! | pass | `pass` | swap two hands (pass-splits) |
//!
//! Case and spaces around `→`, `@` and the words do not matter. A group of
//! digits is one hand per digit when every hand is one digit (`F ≤ 10`), else
//! one number; hands of two or more digits are separated by commas
//! (`split 1,12 6,7`). Digits run together (`t12`, `s12`) are two one-digit
//! values, so they need `F ≤ 10`. Two single values make a tap (or with `s`,
//! `self`, a self-tap); two groups of several hands make a split.
//!
//! [`MOVE_FORMS`] says all this in a sentence (error messages end with it),
//! [`MOVE_FORMS_TABLE`] as a table to print.
//!
//! [`read_move_text`] reads the text without a position; [`Position::find_move`]
//! and [`SeatedPosition::find_move`](crate::SeatedPosition::find_move) find the
//! legal move it names.

use crate::error::{quoted, Result, RulesError};
use crate::position::{write_hands, Position};
use crate::ruleset::Ruleset;

/// How a move may be written, for help texts: every form [`read_move_text`]
/// reads, with what it means.
pub const MOVE_FORMS: &str = "A move names hands by the fingers they show: \
`tap 1 2` (or `t12`, `1 2`, `tap 1→2`) taps the opponent's hand showing 2 with your hand showing 1; \
`self 1 2` (or `s12`) taps your own hand showing 2; \
`split 13 22` (or `s13 22`, `split 13→22`) turns your hands 1 and 3 into 2 and 2; `pass`.";

/// [`MOVE_FORMS`] as a table to print, one kind of move a line, for the help of
/// the terminal game and puzzles.
pub const MOVE_FORMS_TABLE: &str = "\
Moves name hands by the fingers they show (their values, not their places):
  tap 1 2      or t12, 1 2, tap 1→2    your hand showing 1 taps the opponent's hand showing 2
  self 1 2     or s12, self 1→2        your hand showing 1 taps your own hand showing 2
  split 13 22  or s13 22, split 13→22  your hands showing 1 and 3 become 2 and 2
  pass                                 swap two hands (where the rules allow it)";

/// What [`MOVE_FORMS_TABLE`] adds with three or more players.
pub const MOVE_TARGET_TABLE: &str =
    "  tap 1 2 P3   or t12p3, tap 1 2 @1    with three or more players a tap says whom: Player 3,
                                       or @k, the player k places after you";

/// What [`MOVE_FORMS`] adds with three or more players.
pub const MOVE_TARGET_FORMS: &str = "With three or more players a tap also says whom: \
`tap 1 2 P3` (Player 3's hand showing 2) or `tap 1 2 @1` (the player 1 place after you).";

/// Whom a tap is for, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// `@k`: the player `k` places after the mover in turn order.
    After(usize),
    /// `P3`, `player 3`: a player by number, from 1.
    Player(usize),
}

/// A move as written, read without the rules' position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveText {
    Tap {
        from: u32,
        to: u32,
        target: Option<Target>,
    },
    SelfTap {
        from: u32,
        to: u32,
    },
    Split {
        before: Vec<u32>,
        after: Vec<u32>,
    },
    Pass,
}

fn not_a_move(text: &str, why: impl std::fmt::Display) -> RulesError {
    RulesError::Move(format!(
        "`{}` is not a move ({why}). {MOVE_FORMS}",
        quoted(text.trim())
    ))
}

/// Splits `s` into its trailing target (`@2`, `@p3`, `p3`, `player 3`) and the
/// rest. `s` is lower case, `->` already `→`.
fn split_target(s: &str) -> std::result::Result<(&str, Option<Target>), String> {
    let number = |t: &str| -> std::result::Result<usize, String> {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{}` is not a player", quoted(t.trim())))
    };
    fn by_number(t: &str) -> Option<&str> {
        let t = t.trim();
        t.strip_prefix("player")
            .or_else(|| t.strip_prefix('p'))
            .map(str::trim)
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    }
    if let Some(at) = s.rfind('@') {
        let (head, tail) = (&s[..at], &s[at + 1..]);
        let target = match by_number(tail) {
            Some(d) => Target::Player(number(d)?),
            None => Target::After(number(tail)?),
        };
        return Ok((head, Some(target)));
    }
    // A trailing `p3` or `player 3`, after a digit or a space.
    let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return Ok((s, None));
    }
    let before = s[..s.len() - digits].trim_end();
    for word in ["player", "p"] {
        if let Some(head) = before.strip_suffix(word) {
            if head.is_empty() || head.ends_with(|c: char| c.is_ascii_digit() || c == ' ') {
                let target = Target::Player(number(&s[s.len() - digits..])?);
                return Ok((head, Some(target)));
            }
        }
    }
    Ok((s, None))
}

/// Reads one group of hands: digits one hand each when `F ≤ 10` and no comma,
/// else numbers separated by commas.
fn read_group(group: &str, rules: &Ruleset) -> std::result::Result<Vec<u32>, String> {
    let value = |t: &str| -> std::result::Result<u32, String> {
        t.parse::<u32>()
            .map_err(|_| format!("`{}` is not a number of fingers", quoted(t)))
    };
    if group.contains(',') || rules.fingers > 10 {
        group.split(',').map(value).collect()
    } else {
        group
            .chars()
            .map(|c| {
                c.to_digit(10)
                    .ok_or_else(|| format!("`{}` is not a number of fingers", c.escape_default()))
            })
            .collect()
    }
}

/// Reads a move in any form of the module documentation, without a position.
/// Fails with what is wrong and every form a move can take.
pub fn read_move_text(text: &str, rules: &Ruleset) -> Result<MoveText> {
    let lower = text.trim().to_lowercase().replace("->", "→");
    if lower.is_empty() {
        return Err(not_a_move(text, "nothing written"));
    }
    let (head, target) = split_target(&lower).map_err(|why| not_a_move(text, why))?;
    let head = head.trim();
    let word_end = head
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(head.len());
    let (word, rest) = head.split_at(word_end);
    let groups: Vec<&str> = rest
        .split(|c: char| c.is_whitespace() || c == '→')
        .filter(|g| !g.is_empty())
        .collect();
    #[derive(PartialEq)]
    enum Word {
        Tap,
        SelfOrSplit,
        SelfTap,
        Split,
        Bare,
    }
    let kind = match word {
        "tap" | "t" => Word::Tap,
        "s" => Word::SelfOrSplit,
        "self" => Word::SelfTap,
        "split" => Word::Split,
        "pass" if groups.is_empty() && target.is_none() => return Ok(MoveText::Pass),
        "" => Word::Bare,
        _ => {
            return Err(not_a_move(
                text,
                format!(
                    "`{}` is not a kind of move: tap, self, split or pass",
                    quoted(word)
                ),
            ))
        }
    };
    if target.is_some() && !matches!(kind, Word::Tap | Word::Bare) {
        return Err(not_a_move(text, "only a tap names another player"));
    }
    let values: Vec<Vec<u32>> = match groups[..] {
        // `t12`, `s12`: two one-digit values run together.
        [one] if kind != Word::Bare
            && kind != Word::Split
            && (one.len() == 2 || rules.fingers > 10) =>
        {
            if rules.fingers > 10 {
                return Err(not_a_move(
                    text,
                    "hands may show 10 or more fingers here: separate the two values with a space",
                ));
            }
            let v = read_group(one, rules).map_err(|why| not_a_move(text, why))?;
            vec![vec![v[0]], vec![v[1]]]
        }
        [a, b] => vec![
            read_group(a, rules).map_err(|why| not_a_move(text, why))?,
            read_group(b, rules).map_err(|why| not_a_move(text, why))?,
        ],
        _ => {
            return Err(not_a_move(
                text,
                "a move names two things: the hand that taps and the hand tapped, or your hands before and after a split",
            ))
        }
    };
    let single = values.iter().all(|g| g.len() == 1);
    let several = values.iter().all(|g| g.len() > 1);
    match kind {
        Word::Tap | Word::Bare if single => Ok(MoveText::Tap {
            from: values[0][0],
            to: values[1][0],
            target,
        }),
        Word::SelfTap | Word::SelfOrSplit if single => Ok(MoveText::SelfTap {
            from: values[0][0],
            to: values[1][0],
        }),
        Word::Split | Word::SelfOrSplit | Word::Bare if several => Ok(MoveText::Split {
            before: values[0].clone(),
            after: values[1].clone(),
        }),
        Word::Tap | Word::SelfTap => Err(not_a_move(
            text,
            "a tap names one hand that taps and one hand tapped",
        )),
        _ => Err(not_a_move(
            text,
            "a split names all your hands before and after it",
        )),
    }
}

impl MoveText {
    /// The move as [`Move::describe`](crate::Move::describe) writes it, the
    /// tap's target as `@k` (`turn`: the mover's seat, from 0, needed to read a
    /// player named by number).
    pub(crate) fn canonical(
        &self,
        rules: &Ruleset,
        position: &Position,
        turn: Option<usize>,
        text: &str,
    ) -> Result<String> {
        let p = position.players().len();
        Ok(match self {
            MoveText::Tap { from, to, target } => {
                let after = match *target {
                    None if p == 2 => 1,
                    None => {
                        return Err(RulesError::Move(format!(
                            "`{}`: with {p} players say whom you tap. {MOVE_TARGET_FORMS}",
                            quoted(text.trim())
                        )))
                    }
                    Some(Target::After(k)) => k,
                    Some(Target::Player(n)) => {
                        let number = crate::Player::from_number(n, p)?;
                        let Some(turn) = turn else {
                            return Err(RulesError::Move(format!(
                                "`{}`: a player named by number needs the seat to move; write `@k` (the player k places after you)",
                                quoted(text.trim())
                            )));
                        };
                        if number.seat() == turn {
                            return Err(RulesError::Move(format!(
                                "`{}`: Player {n} is you; tap your own hands with `self`",
                                quoted(text.trim())
                            )));
                        }
                        (number.seat() + p - turn) % p
                    }
                };
                if after == 0 || after >= p {
                    return Err(RulesError::Move(format!(
                        "`{}`: there is no player {after} places after you; `@k` counts the other players in turn order, @1 … @{} ({p} players)",
                        quoted(text.trim()),
                        p - 1
                    )));
                }
                if rules.same_side(0, after) {
                    return Err(RulesError::Move(format!(
                        "`{}`: the player {after} places after you is your teammate; attacks go to the other team",
                        quoted(text.trim())
                    )));
                }
                if p > 2 {
                    format!("tap{from}→{to}@{after}")
                } else {
                    format!("tap{from}→{to}")
                }
            }
            MoveText::SelfTap { from, to } => format!("self{from}→{to}"),
            MoveText::Split { before, after } => {
                let (mut before, mut after) = (before.clone(), after.clone());
                before.sort_unstable();
                after.sort_unstable();
                let mut s = String::from("split");
                write_hands(&mut s, &before, rules.fingers);
                s.push('→');
                write_hands(&mut s, &after, rules.fingers);
                s
            }
            MoveText::Pass => "pass".to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Preset;

    fn read(text: &str) -> MoveText {
        read_move_text(text, &Preset::Standard.ruleset()).unwrap()
    }

    #[test]
    fn every_form_of_a_tap_names_values() {
        let tap = MoveText::Tap {
            from: 1,
            to: 2,
            target: None,
        };
        for text in [
            "tap 1→2",
            "tap 1->2",
            "TAP 1 -> 2",
            "tap1→2",
            "tap 1 2",
            "t12",
            "t 1 2",
            "T12",
            "1 2",
            "1→2",
            "1->2",
            " 1  2 ",
        ] {
            assert_eq!(read(text), tap, "{text}");
        }
        let at = |target| MoveText::Tap {
            from: 1,
            to: 2,
            target: Some(target),
        };
        for text in ["tap 1→2@2", "tap 1 2 @2", "t12@2", "1 2 @ 2"] {
            assert_eq!(read(text), at(Target::After(2)), "{text}");
        }
        for text in [
            "tap 1 2 P3",
            "t12p3",
            "1 2 player 3",
            "tap 1→2@p3",
            "t 1 2 p 3",
        ] {
            assert_eq!(read(text), at(Target::Player(3)), "{text}");
        }
    }

    #[test]
    fn self_taps_splits_and_pass() {
        let own = MoveText::SelfTap { from: 2, to: 1 };
        for text in ["self 2→1", "self2->1", "self 2 1", "s21", "s 2 1", "S 2 1"] {
            assert_eq!(read(text), own, "{text}");
        }
        let split = MoveText::Split {
            before: vec![1, 3],
            after: vec![2, 2],
        };
        for text in [
            "split 13→22",
            "split 13 22",
            "s13 22",
            "s 13 22",
            "13 22",
            "13→22",
        ] {
            assert_eq!(read(text), split, "{text}");
        }
        assert_eq!(read("pass"), MoveText::Pass);
        assert_eq!(read(" PASS "), MoveText::Pass);
        // Hands of two digits: commas, or one number a group.
        let wide = Ruleset::from_variant_id("standard.f12").unwrap();
        assert_eq!(
            read_move_text("tap 11 3", &wide).unwrap(),
            MoveText::Tap {
                from: 11,
                to: 3,
                target: None
            }
        );
        assert_eq!(
            read_move_text("split 1,11 6,6", &wide).unwrap(),
            MoveText::Split {
                before: vec![1, 11],
                after: vec![6, 6]
            }
        );
        let e = read_move_text("t113", &wide).unwrap_err().to_string();
        assert!(e.contains("separate the two values"), "{e}");
    }

    #[test]
    fn the_tables_line_up() {
        for table in [MOVE_FORMS_TABLE, MOVE_TARGET_TABLE] {
            for line in table
                .lines()
                .filter(|l| l.trim_start().starts_with(['t', 's', 'p']))
            {
                assert!(line.starts_with("  "), "{line:?}");
                assert!(line.chars().count() <= 100, "{line:?}");
            }
        }
    }

    #[test]
    fn text_that_is_no_move_lists_the_forms() {
        let r = Preset::Standard.ruleset();
        for (text, why) in [
            ("", "nothing written"),
            ("hello", "`hello` is not a kind of move"),
            ("tap", "names two things"),
            ("1 2 3", "names two things"),
            ("tap 12 22", "a tap names one hand"),
            ("split 1 2", "a split names all your hands"),
            ("self 1 2 @1", "only a tap names another player"),
            ("t1x", "not a number of fingers"),
            ("1 2 @x", "`x` is not a player"),
        ] {
            let e = read_move_text(text, &r).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
            assert!(e.contains("`tap 1 2` (or `t12`, `1 2`"), "{text}: {e}");
        }
        // Huge input is quoted shortened, never whole.
        let long = "x".repeat(10_000);
        assert!(read_move_text(&long, &r).unwrap_err().to_string().len() < 1000);
        assert!(read_move_text("t 99999999999 1", &r).is_err());
    }
}
