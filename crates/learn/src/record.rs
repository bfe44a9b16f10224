//! Game records: a game as plain text, and its replay.
//!
//! ```text
//! # Any text after a `#` is a comment; blank lines are ignored.
//! variant standard
//! start 1_1111
//! 1. tap 1→1
//! 2. tap 2→1
//! 3. split 13→22; 4. tap 2→2
//! ```
//!
//! - `variant ID`: the variant id, as `chopsticks rules` and the page's links
//!   write it (`standard`, `rollover.h3.f7`). It may be left out when the
//!   reader is given a variant otherwise (the command line's rule flags).
//! - `start POSITION`: optional, before the first move; a seated position
//!   (`2_1213`: Player 2 to move, then every seat's hands, Player 1 first) or
//!   any notation the command line reads (mover first). Without it the game
//!   starts at the variant's start.
//! - Then the moves, in order, by the names `chopsticks moves` and the page
//!   print (`tap 1→2`, `self 2→1`, `split 13→22`, `tap 1→2 P3` with three or more
//!   players, `pass`; `tap 1→2@2`, two places after the mover, is read too); `->` may stand for `→` and spaces do not matter. One move
//!   per line, or several separated by `;`. A move may carry its number
//!   (`12.` or `12...`), which must then be its ply number, counted from 1.
//!
//! **By rounds, on one line.** `1. t11 s21 2. tap 1→2 s33 24 3. t12`: a number
//! for each round (1, 2, 3, …) followed by its moves, as in chess; several
//! rounds may share a line. The moves of a part are told apart by their
//! shapes (a keyword and its hands, a short form, bare hands). A record read
//! this way is written back this way ([`GameRecord::rounds`]).
//!
//! Moves may also be written in the short forms people type (`tap 1 2`, `t12`,
//! `1 2`, `self 2 1`, `split 13 22`: see `chopsticks_rules::read_move_text`);
//! records are written with the names above.
//!
//! **Threefold repetition.** A game that comes back to the same position (the
//! same hands, the same player to move) a third time ends there, a draw, as in
//! chess ([`REPETITIONS`]); a move after it is refused, as a move after the end
//! of a finished game is.
//!
//! [`GameRecord::parse`] reads the text without the rules; [`GameRecord::replay`]
//! plays it, and refuses a move that is not legal with the line, the move, the
//! position and the legal moves. [`GameRecord::write`] writes the form above,
//! which reads back to the same record.

use std::collections::HashMap;

use chopsticks_rules::{Move, RulesError, Ruleset, SeatedPosition};

use crate::LearnError;

/// A game that comes back to the same position (the same hands, the same
/// player to move) this many times is a draw, as in chess: threefold repetition.
pub const REPETITIONS: usize = 3;

/// The longest record read, in bytes (a record of 100,000 moves fits).
pub const MAX_RECORD_BYTES: usize = 4 << 20;

/// A move as written in a record, with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// The move's text, as written (trimmed, its number removed).
    pub text: String,
    /// The line it is on (1-based).
    pub line: usize,
}

/// A game record read from text, not yet checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameRecord {
    /// The variant id, when the record names one.
    pub variant: Option<String>,
    /// The start position as written, when the record gives one.
    pub start: Option<String>,
    /// The line of the `start` entry.
    pub start_line: usize,
    /// The moves, in order.
    pub moves: Vec<WrittenMove>,
    /// Written by rounds, several moves to a number (`1. t11 s21 2. t12 t21`),
    /// rather than one numbered move a line; [`GameRecord::write`] writes the
    /// form read.
    pub rounds: bool,
}

/// One move of a replayed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The position the move is made in.
    pub from: SeatedPosition,
    /// The move.
    pub mv: Move,
    /// Its name, as `chopsticks moves` prints it.
    pub name: String,
    /// The position it leads to.
    pub to: SeatedPosition,
    /// The record's line the move was on (0 for moves not read from a record).
    pub line: usize,
}

/// A record played through: every position of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub rules: Ruleset,
    pub start: SeatedPosition,
    pub plies: Vec<Ply>,
    /// The move (counted from 1) after which a position came up the third
    /// time: the game ended there, a draw by threefold repetition.
    pub repetition: Option<usize>,
    /// The record was written by rounds ([`GameRecord::rounds`]).
    pub rounds: bool,
}

impl Replay {
    /// The position after the last move (the start for a game without moves).
    pub fn last(&self) -> &SeatedPosition {
        self.plies.last().map_or(&self.start, |p| &p.to)
    }

    /// Whether the game is over: finished by the rules, or a draw by threefold
    /// repetition.
    pub fn is_over(&self) -> bool {
        self.repetition.is_some() || self.last().position().is_terminal(&self.rules)
    }

    /// The record of this game: its variant, its start when it is not the
    /// variant's, its moves by name.
    pub fn record(&self) -> Result<GameRecord, LearnError> {
        let start = if self.start == SeatedPosition::start(&self.rules) {
            None
        } else {
            Some(self.start.to_text(&self.rules)?)
        };
        Ok(GameRecord {
            variant: Some(self.rules.variant_id()),
            start,
            start_line: 0,
            moves: self
                .plies
                .iter()
                .map(|p| WrittenMove {
                    text: p.name.clone(),
                    line: 0,
                })
                .collect(),
            rounds: self.rounds,
        })
    }
}

fn error(line: usize, message: impl Into<String>) -> LearnError {
    LearnError::Record {
        line,
        message: message.into(),
    }
}

/// Removes a move number (`12.`, `12...`) from the front of a move's text;
/// returns the number when there was one.
fn split_number(text: &str) -> (Option<&str>, &str) {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !text[digits..].starts_with('.') {
        return (None, text);
    }
    let rest = text[digits..].trim_start_matches('.');
    (Some(&text[..digits]), rest.trim())
}

/// The parts of a line of moves: separated by `;`, and each numbered part
/// (`12.`, `12...`) starting a part of its own, so that `1. t11 s21 2. t12`
/// is two parts.
fn numbered_parts(content: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    for piece in content.split(';') {
        // Where the part being read starts.
        let mut start = 0;
        let bytes = piece.as_bytes();
        let mut k = 0;
        while k < bytes.len() {
            // A number at the start of a word, followed by a dot.
            let at_word = k == 0 || bytes[k - 1].is_ascii_whitespace();
            if at_word && bytes[k].is_ascii_digit() {
                let digits = bytes[k..].iter().take_while(|b| b.is_ascii_digit()).count();
                if bytes.get(k + digits) == Some(&b'.') {
                    parts.push(piece[start..k].trim());
                    start = k;
                    k += digits + 1;
                    continue;
                }
            }
            k += 1;
        }
        parts.push(piece[start..].trim());
    }
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// The moves of a part written on one line (`t11 s21`, `tap 1→1 tap 2→1`,
/// `s13 22 t12`), by the shapes of the move forms: a keyword (`tap`, `self`,
/// `split`) and its hands, a short form (`t12`, `s12`, `s13 22`), bare hands
/// (`1 2`), `pass`, each with a target (`P3`, `@2`) after a tap. A part that
/// is not made of these is one move, as written (the move reader names what
/// is wrong with it).
fn split_moves(text: &str) -> Vec<String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.is_empty() {
        return Vec::new();
    }
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let arrow = |t: &str| t.contains('→') || t.contains("->");
    let target = |t: &str| {
        (t.starts_with(['P', 'p']) || t.starts_with('@')) && t.len() > 1 && digits(&t[1..])
    };
    let mut moves = Vec::new();
    let mut k = 0;
    while k < tokens.len() {
        let t = tokens[k];
        let lower = t.to_ascii_lowercase();
        let mut taken = 1;
        let mut tap = false;
        if matches!(lower.as_str(), "tap" | "self" | "split") {
            tap = lower == "tap";
            match tokens.get(k + 1) {
                Some(a) if arrow(a) => taken = 2,
                Some(a) if digits(a) && tokens.get(k + 2).is_some_and(|b| digits(b)) => taken = 3,
                _ => return vec![text.to_string()],
            }
        } else if lower == "pass" {
        } else if (lower.starts_with('t') || lower.starts_with('s')) && digits(&lower[1..]) {
            tap = lower.starts_with('t');
            // `s13 22`: a split, its second hands a number of two digits or more.
            if lower.starts_with('s') && lower.len() >= 3 {
                if let Some(b) = tokens.get(k + 1) {
                    if digits(b) && b.len() >= 2 {
                        taken = 2;
                    }
                }
            }
        } else if digits(t) && tokens.get(k + 1).is_some_and(|b| digits(b)) {
            tap = true;
            taken = 2;
        } else if arrow(t) {
        } else {
            return vec![text.to_string()];
        }
        if tap && tokens.get(k + taken).is_some_and(|x| target(x)) {
            taken += 1;
        }
        moves.push(tokens[k..k + taken].join(" "));
        k += taken;
    }
    moves
}

impl GameRecord {
    /// Reads a record (see the module documentation). Fails with the line and
    /// the reason; the moves are not checked against the rules here.
    pub fn parse(text: &str) -> Result<GameRecord, LearnError> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(error(
                0,
                format!(
                    "the record is {} bytes long; records are read up to {} bytes",
                    text.len(),
                    MAX_RECORD_BYTES
                ),
            ));
        }
        let mut record = GameRecord::default();
        // The last round number read (records numbered by rounds).
        let mut round = 0usize;
        for (k, raw) in text.lines().enumerate() {
            let line = k + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let (word, rest) = content
                .split_once(char::is_whitespace)
                .map_or((content, ""), |(w, r)| (w, r.trim()));
            let keyword = word.trim_end_matches(':').to_ascii_lowercase();
            match keyword.as_str() {
                "variant" => {
                    if record.variant.is_some() {
                        return Err(error(line, "a second `variant` line"));
                    }
                    if !record.moves.is_empty() || record.start.is_some() {
                        return Err(error(
                            line,
                            "`variant` comes first, before the start and the moves",
                        ));
                    }
                    if rest.is_empty() || rest.contains(char::is_whitespace) {
                        return Err(error(
                            line,
                            format!("`variant` takes one variant id (such as `variant standard`), not `{rest}`"),
                        ));
                    }
                    record.variant = Some(rest.to_string());
                }
                "start" => {
                    if record.start.is_some() {
                        return Err(error(line, "a second `start` line"));
                    }
                    if !record.moves.is_empty() {
                        return Err(error(line, "`start` comes before the first move"));
                    }
                    if rest.is_empty() {
                        return Err(error(
                            line,
                            "`start` takes a position, such as `start 1_1111`",
                        ));
                    }
                    record.start = Some(rest.to_string());
                    record.start_line = line;
                }
                _ => {
                    for part in numbered_parts(content) {
                        let ply = record.moves.len() + 1;
                        let (number, mv) = split_number(part);
                        let moves = split_moves(mv);
                        if moves.len() > 1 {
                            record.rounds = true;
                        }
                        if let Some(number) = number {
                            let n = number.parse::<usize>().ok();
                            if record.rounds {
                                // Rounds: 1. for the first, 2. for the next, …
                                let expected = round + 1;
                                if n != Some(expected) {
                                    return Err(error(
                                        line,
                                        format!("`{part}` is numbered {number}, but it is round {expected} of the game"),
                                    ));
                                }
                                round = expected;
                            } else if n != Some(ply) {
                                if n == Some(round + 1) && round + 1 < ply {
                                    // A later round of one move (the last).
                                    record.rounds = true;
                                    round += 1;
                                } else {
                                    return Err(error(
                                        line,
                                        format!("`{part}` is numbered {number}, but it is move {ply} of the game"),
                                    ));
                                }
                            } else {
                                round = n.unwrap_or(round);
                            }
                        }
                        if moves.is_empty() {
                            return Err(error(
                                line,
                                format!("move {ply} has a number but no move"),
                            ));
                        }
                        for mv in moves {
                            record.moves.push(WrittenMove { text: mv, line });
                        }
                    }
                }
            }
        }
        Ok(record)
    }

    /// The record as text (see the module documentation), one numbered move a
    /// line; [`GameRecord::parse`] reads it back as the same record.
    pub fn write(&self) -> String {
        let mut out =
            String::from("# A game of Chopsticks: `chopsticks review FILE` reviews it.\n");
        if let Some(v) = &self.variant {
            out.push_str(&format!("variant {v}\n"));
        }
        if let Some(s) = &self.start {
            out.push_str(&format!("start {s}\n"));
        }
        if self.rounds {
            // Two moves a round, a round a number, on one line.
            let rounds: Vec<String> = self
                .moves
                .chunks(2)
                .enumerate()
                .map(|(k, pair)| {
                    let moves: Vec<&str> = pair.iter().map(|m| m.text.as_str()).collect();
                    format!("{}. {}", k + 1, moves.join(" "))
                })
                .collect();
            if !rounds.is_empty() {
                out.push_str(&rounds.join(" "));
                out.push('\n');
            }
            return out;
        }
        for (k, m) in self.moves.iter().enumerate() {
            out.push_str(&format!("{}. {}\n", k + 1, m.text));
        }
        out
    }

    /// The ruleset of the record's variant, or `default` when it names none;
    /// a record naming another variant than a given `default` is refused.
    pub fn rules(&self, default: Option<&Ruleset>) -> Result<Ruleset, LearnError> {
        match (&self.variant, default) {
            (None, None) => Err(LearnError::NoVariant),
            (None, Some(rules)) => Ok(rules.clone()),
            (Some(id), given) => {
                let line = 1;
                let rules = Ruleset::from_variant_id(id)
                    .map_err(|e| error(line, format!("variant `{id}`: {e}")))?;
                if let Some(given) = given {
                    if *given != rules {
                        return Err(LearnError::OtherVariant {
                            record: rules.variant_id(),
                            solution: given.variant_id(),
                        });
                    }
                }
                Ok(rules)
            }
        }
    }

    /// Plays the record under `rules`: every move must be legal where it is
    /// made, and none may follow the end of the game.
    pub fn replay(&self, rules: &Ruleset) -> Result<Replay, LearnError> {
        let start = match &self.start {
            None => SeatedPosition::start(rules),
            Some(text) => SeatedPosition::parse(text, rules)
                .map_err(|e| error(self.start_line, format!("start: {e}")))?,
        };
        let mut at = start.clone();
        let mut plies: Vec<Ply> = Vec::with_capacity(self.moves.len());
        // How often each position came up (the same hands, the same player to move).
        let mut seen: HashMap<SeatedPosition, usize> = HashMap::from([(start.clone(), 1)]);
        let mut repetition = None;
        for (k, written) in self.moves.iter().enumerate() {
            let ply = k + 1;
            let here = at.to_text(rules)?;
            if let Some(after) = repetition {
                return Err(error(
                    written.line,
                    format!(
                        "move {ply} `{}`: the game is already over at {here}: a draw by threefold repetition (the position came up a third time after move {after})",
                        written.text
                    ),
                ));
            }
            if at.position().is_terminal(rules) {
                return Err(error(
                    written.line,
                    format!(
                        "move {ply} `{}`: the game is already over at {here}",
                        written.text
                    ),
                ));
            }
            let (mv, next) = at.find_move(rules, &written.text).map_err(|e| match e {
                RulesError::IllegalMove { legal, .. } => error(
                    written.line,
                    format!(
                        "move {ply} `{}` is not a legal move at {here} (Player {} to move; legal: {})",
                        written.text,
                        at.turn() + 1,
                        legal.join(", ")
                    ),
                ),
                other => error(written.line, format!("move {ply} at {here}: {other}")),
            })?;
            plies.push(Ply {
                from: at.clone(),
                name: at.move_name(rules, &mv),
                mv,
                to: next.clone(),
                line: written.line,
            });
            let count = seen.entry(next.clone()).or_insert(0);
            *count += 1;
            if *count >= REPETITIONS {
                repetition = Some(ply);
            }
            at = next;
        }
        Ok(Replay {
            rules: rules.clone(),
            start,
            plies,
            repetition,
            rounds: self.rounds,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> Ruleset {
        Ruleset::from_variant_id("standard").unwrap()
    }

    #[test]
    fn a_record_reads_and_replays() {
        let text =
            "# a game\nvariant standard\n\n1. tap 1->1  # opening\n2. tap 2→1; 3... self 1 → 3\n";
        let r = GameRecord::parse(text).unwrap();
        assert_eq!(r.variant.as_deref(), Some("standard"));
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.moves[1].line, 5);
        let replay = r.replay(&standard()).unwrap();
        assert_eq!(replay.plies.len(), 3);
        assert_eq!(replay.plies[0].name, "tap 1→1");
        assert_eq!(replay.plies[0].to.to_text(&standard()).unwrap(), "2_1112");
    }

    #[test]
    fn bad_records_name_the_line_and_the_reason() {
        let rules = standard();
        let e = GameRecord::parse("variant standard\n1. tap 1→1\n3. tap 1→2\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: `3. tap 1→2` is numbered 3, but it is move 2 of the game"
        );
        let e = GameRecord::parse("variant standard\ntap 1→1\ntap 1→4\n")
            .unwrap()
            .replay(&rules)
            .unwrap_err();
        let text = e.to_string();
        assert_eq!(text, "line 3: move 2 `tap 1→4` is not a legal move at 2_1112 (Player 2 to move; legal: tap 1→1, tap 2→1, self 1→2, self 2→1)");
        let e = GameRecord::parse("tap 1→1\nvariant standard\n").unwrap_err();
        assert!(e.to_string().starts_with("line 2: `variant` comes first"));
        let e = GameRecord::parse("variant standard\nstart 1_1199\n")
            .unwrap()
            .replay(&rules)
            .unwrap_err();
        assert!(e.to_string().starts_with("line 2: start: "), "{e}");
        assert!(matches!(
            GameRecord::parse("tap 1→1").unwrap().rules(None),
            Err(LearnError::NoVariant)
        ));
        let e = GameRecord::parse("variant nonsense\n")
            .unwrap()
            .rules(None)
            .unwrap_err();
        assert!(
            e.to_string().starts_with("line 1: variant `nonsense`: "),
            "{e}"
        );
        // Moves after the end of the game.
        let e = GameRecord::parse("variant standard\nstart 1_1100\ntap 1→1\n")
            .unwrap()
            .replay(&rules);
        assert!(e.is_err());
    }

    /// Both players split back and forth from 1_1313: the start comes back
    /// after moves 4 and 8.
    const ROUND: &str = "split 13→22; split 13→22; split 22→13; split 22→13\n";

    #[test]
    fn a_position_met_a_third_time_is_a_draw() {
        let rules = standard();
        let record = |moves: &str| {
            GameRecord::parse(&format!("variant standard\nstart 1_1313\n{moves}"))
                .unwrap()
                .replay(&rules)
        };
        // Twice: the game goes on.
        let once = record(ROUND).unwrap();
        assert_eq!(once.repetition, None);
        assert!(!once.is_over());
        // A third time, after move 8: a draw, the game is over.
        let twice = record(&ROUND.repeat(2)).unwrap();
        assert_eq!(twice.repetition, Some(8));
        assert!(twice.is_over());
        assert_eq!(twice.last().to_text(&rules).unwrap(), "1_1313");
        // A move after it is refused, with the reason.
        let e = record(&format!("{}tap 1→1\n", ROUND.repeat(2))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 5: move 9 `tap 1→1`: the game is already over at 1_1313: a draw by threefold repetition (the position came up a third time after move 8)"
        );
    }

    #[test]
    fn records_on_one_line_read_and_write_back() {
        let rules = standard();
        let one_line = "variant standard\n1. t11 s21 2. tap 1→2 s33 24 3. t12\n";
        let r = GameRecord::parse(one_line).unwrap();
        assert!(r.rounds);
        let texts: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["t11", "s21", "tap 1→2", "s33 24", "t12"]);
        // The same game one move a line.
        let by_ply =
            GameRecord::parse("variant standard\n1. t11\n2. s21\n3. tap 1→2\n4. s33 24\n5. t12\n")
                .unwrap();
        assert!(!by_ply.rounds);
        let a = r.replay(&rules).unwrap();
        let b = by_ply.replay(&rules).unwrap();
        let names = |r: &Replay| r.plies.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&a), names(&b));
        // Each is written in the form it was read in, and reads back.
        let written = a.record().unwrap().write();
        assert!(
            written.ends_with("1. tap 1→1 self 2→1 2. tap 1→2 split 33→24 3. tap 1→2\n"),
            "{written}"
        );
        assert_eq!(
            names(&GameRecord::parse(&written).unwrap().replay(&rules).unwrap()),
            names(&a)
        );
        assert!(b.record().unwrap().write().contains("\n5. tap 1→2\n"));
        // Rounds numbered out of order are refused.
        let e = GameRecord::parse("variant standard\n1. t11 s21 3. t12 t11\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2: `3. t12 t11` is numbered 3, but it is round 2 of the game"
        );
    }

    #[test]
    fn records_read_the_short_forms() {
        let rules = standard();
        let r = GameRecord::parse("variant standard\nt11\ntap 2 1\n1 2\ns13 22\n")
            .unwrap()
            .replay(&rules)
            .unwrap();
        let names: Vec<&str> = r.plies.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["tap 1→1", "tap 2→1", "tap 1→2", "split 13→22"]);
        let e = GameRecord::parse("variant standard\nhello there\n")
            .unwrap()
            .replay(&rules)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("line 2: move 1 at 1_1111: `hello there` is not a move"),
            "{e}"
        );
    }

    #[test]
    fn a_written_record_reads_back() {
        let rules = Ruleset::from_variant_id("rollover.p3").unwrap();
        let mut at = SeatedPosition::start(&rules);
        let mut moves = Vec::new();
        for _ in 0..12 {
            let list = at.position().moves_with_steps(&rules);
            let Some((mv, to, step)) = list.last().cloned() else {
                break;
            };
            moves.push(WrittenMove {
                text: mv.describe(&rules),
                line: 0,
            });
            at = at.after(to, step);
        }
        let record = GameRecord {
            variant: Some(rules.variant_id()),
            start: None,
            start_line: 0,
            moves,
            rounds: false,
        };
        let replay = record.replay(&rules).unwrap();
        let again = GameRecord::parse(&replay.record().unwrap().write()).unwrap();
        let replayed = again.replay(&rules).unwrap();
        assert_eq!(replayed.start, replay.start);
        let names = |r: &Replay| -> Vec<(String, SeatedPosition)> {
            r.plies
                .iter()
                .map(|p| (p.name.clone(), p.to.clone()))
                .collect()
        };
        assert_eq!(names(&replayed), names(&replay));
        assert_eq!(
            again.replay(&rules).unwrap().record().unwrap().write(),
            replay.record().unwrap().write()
        );
    }
}
