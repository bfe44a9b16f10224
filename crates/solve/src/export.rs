//! Exports of a whole solution, one line per position, for other tools: JSON lines
//! or CSV, streamed to any writer.
//!
//! Every position of the dense index in index order (or only those reachable from
//! a start), with its value for the mover (team play: the mover's team) and, with
//! coalition values, every player's, counted from the one to move (`by_turn`: the
//! mover, the next player, …; the solver's positions name no seat). A JSON line:
//!
//! ```text
//! {"position":"1111","reachable":true,"value":"win","remoteness":23}
//! {"position":"111111","reachable":true,"value":"lose","remoteness":9,"by_turn":[{"value":"lose","remoteness":9},…]}
//! ```
//!
//! and CSV has the header `position,reachable,value,remoteness` (then
//! `mover_value,mover_remoteness,next_value,next_remoteness,after2_value,…` for
//! coalition values), an empty remoteness for a
//! draw, and a position quoted when its text holds a comma.
//!
//! **Streaming.** Positions are formatted in blocks of [`BLOCK`] in parallel, a few
//! blocks at a time, and written in order, so memory stays at a few megabytes
//! whatever the size. In the compact and dashed notations a position's text is the
//! texts of its players' multisets, looked up in a table built once per hand count
//! (no position is built); the paper's notation goes through [`Position`].

use std::io::{self, Write};

use chopsticks_rules::{hands_text, Notation, Position, PositionIndex, Ruleset, MAX_PLAYERS};
use chopsticks_space::BitSet;
use rayon::prelude::*;

use crate::{Concept, Outcome, Solution, Value};

/// Positions formatted per task.
pub const BLOCK: u64 = 1 << 15;
/// Blocks formatted at once before they are written.
const BLOCKS_IN_FLIGHT: u64 = 16;

/// Line formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Jsonl,
    Csv,
}

impl ExportFormat {
    /// Reads `jsonl` or `csv`.
    pub fn from_name(name: &str) -> Option<ExportFormat> {
        match name.to_ascii_lowercase().as_str() {
            "jsonl" | "json-lines" | "ndjson" => Some(ExportFormat::Jsonl),
            "csv" => Some(ExportFormat::Csv),
            _ => None,
        }
    }
}

/// Which positions to write.
pub enum Selection<'a> {
    /// Every position of the index; `reached` says which are reachable.
    All { reached: &'a BitSet },
    /// Only the reachable ones.
    Reachable { reached: &'a BitSet },
}

impl Selection<'_> {
    fn reached(&self) -> &BitSet {
        match self {
            Selection::All { reached } | Selection::Reachable { reached } => reached,
        }
    }
}

/// Writes positions' texts fast: per hand count, the text of every multiset rank.
struct Texts {
    index: PositionIndex,
    /// `Some` for the compact (empty separator) and dashed (`-`) notations.
    fast: Option<(Vec<Vec<String>>, &'static str)>,
    rules: Ruleset,
    notation: Notation,
}

impl Texts {
    fn new(rules: &Ruleset, notation: Notation) -> Result<Texts, chopsticks_rules::RulesError> {
        let index = PositionIndex::new(rules)?;
        // Refuse a notation that cannot write this ruleset, before any output.
        Position::start(rules).to_notation(rules, notation)?;
        let separator = match notation {
            Notation::Compact => Some(""),
            Notation::Dashed => Some("-"),
            Notation::Paper => None,
        };
        let fast = separator.map(|sep| {
            let max = rules.hands.iter().copied().max().unwrap_or(0);
            let tables = (0..=max)
                .map(|h| {
                    if !rules.hands.contains(&h) {
                        return Vec::new();
                    }
                    let m = index.multiset(h);
                    let mut hands = vec![0u32; h];
                    (0..m.count())
                        .map(|r| {
                            m.unrank(r, &mut hands);
                            hands_text(&hands, rules.fingers)
                        })
                        .collect()
                })
                .collect();
            (tables, sep)
        });
        Ok(Texts {
            index,
            fast,
            rules: rules.clone(),
            notation,
        })
    }

    fn write(&self, out: &mut Vec<u8>, i: u64) {
        match &self.fast {
            Some((tables, sep)) => {
                let p = self.index.players();
                let mut ranks = [0u64; MAX_PLAYERS];
                let seat = self.index.split(i, &mut ranks[..p]);
                for (k, &r) in ranks[..p].iter().enumerate() {
                    if k > 0 {
                        out.extend_from_slice(sep.as_bytes());
                    }
                    let h = self.index.hands_of(seat, k);
                    out.extend_from_slice(tables[h][r as usize].as_bytes());
                }
            }
            None => {
                let text = self
                    .index
                    .unrank(i)
                    .to_notation(&self.rules, self.notation)
                    .expect("the notation was checked on the start");
                out.extend_from_slice(text.as_bytes());
            }
        }
    }
}

fn push_number(out: &mut Vec<u8>, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[k..]);
}

fn value_name(o: &Outcome) -> &'static [u8] {
    match o.value {
        Value::Win => b"win",
        Value::Lose => b"lose",
        Value::Draw => b"draw",
    }
}

fn push_json_outcome(out: &mut Vec<u8>, o: &Outcome) {
    out.extend_from_slice(b"\"value\":\"");
    out.extend_from_slice(value_name(o));
    out.extend_from_slice(b"\",\"remoteness\":");
    match o.remoteness {
        Some(r) => push_number(out, r),
        None => out.extend_from_slice(b"null"),
    }
}

fn push_csv_outcome(out: &mut Vec<u8>, o: &Outcome) {
    out.extend_from_slice(value_name(o));
    out.push(b',');
    if let Some(r) = o.remoteness {
        push_number(out, r);
    }
}

/// The CSV header line (with its newline).
pub fn csv_header(solution: &Solution) -> String {
    let mut header = String::from("position,reachable,value,remoteness");
    if solution.concept() == Concept::Coalition {
        for after in 0..solution.rules().players() {
            let name = match after {
                0 => "mover".to_string(),
                1 => "next".to_string(),
                k => format!("after{k}"),
            };
            header.push_str(&format!(",{name}_value,{name}_remoteness"));
        }
    }
    header.push('\n');
    header
}

/// Writes the lines of the selected positions to `out` (the CSV header first),
/// calling `progress` with the number of positions looked at so far. Returns the
/// number of lines written (the header not counted).
pub fn export(
    solution: &Solution,
    selection: Selection<'_>,
    notation: Notation,
    format: ExportFormat,
    out: &mut dyn Write,
    progress: &(dyn Fn(u64) + Sync),
) -> io::Result<u64> {
    let rules = solution.rules();
    let texts = Texts::new(rules, notation).map_err(|e| io::Error::other(e.to_string()))?;
    let seats = solution.concept() == Concept::Coalition;
    let players = rules.players();
    let only_reachable = matches!(selection, Selection::Reachable { .. });
    let reached = selection.reached();
    let n = solution.count();
    if format == ExportFormat::Csv {
        out.write_all(csv_header(solution).as_bytes())?;
    }
    let blocks = n.div_ceil(BLOCK);
    let mut written = 0u64;
    let mut first = 0u64;
    while first < blocks {
        let last = (first + BLOCKS_IN_FLIGHT).min(blocks);
        // A damaged block of a file stops the export with its error.
        let damaged = |e: crate::SolveError| io::Error::other(e.to_string());
        let chunks: Vec<(Vec<u8>, u64)> = (first..last)
            .into_par_iter()
            .map(|b| {
                let mut buf = Vec::with_capacity(BLOCK as usize * 48);
                let mut lines = 0u64;
                let mut text = Vec::with_capacity(64);
                for i in b * BLOCK..((b + 1) * BLOCK).min(n) {
                    let reachable = reached.contains(i);
                    if only_reachable && !reachable {
                        continue;
                    }
                    lines += 1;
                    text.clear();
                    texts.write(&mut text, i);
                    let o = solution.outcome_at(i).map_err(damaged)?;
                    match format {
                        ExportFormat::Jsonl => {
                            buf.extend_from_slice(b"{\"position\":\"");
                            buf.extend_from_slice(&text);
                            buf.extend_from_slice(b"\",\"reachable\":");
                            buf.extend_from_slice(if reachable { b"true," } else { b"false," });
                            push_json_outcome(&mut buf, &o);
                            if seats {
                                buf.extend_from_slice(b",\"by_turn\":[");
                                for seat in 0..players {
                                    if seat > 0 {
                                        buf.push(b',');
                                    }
                                    buf.push(b'{');
                                    push_json_outcome(
                                        &mut buf,
                                        &solution.seat_outcome_at(i, seat).map_err(damaged)?,
                                    );
                                    buf.push(b'}');
                                }
                                buf.push(b']');
                            }
                            buf.extend_from_slice(b"}\n");
                        }
                        ExportFormat::Csv => {
                            if text.contains(&b',') {
                                buf.push(b'"');
                                buf.extend_from_slice(&text);
                                buf.push(b'"');
                            } else {
                                buf.extend_from_slice(&text);
                            }
                            buf.extend_from_slice(if reachable { b",true," } else { b",false," });
                            push_csv_outcome(&mut buf, &o);
                            if seats {
                                for seat in 0..players {
                                    buf.push(b',');
                                    push_csv_outcome(
                                        &mut buf,
                                        &solution.seat_outcome_at(i, seat).map_err(damaged)?,
                                    );
                                }
                            }
                            buf.push(b'\n');
                        }
                    }
                }
                Ok((buf, lines))
            })
            .collect::<io::Result<_>>()?;
        for (buf, lines) in chunks {
            out.write_all(&buf)?;
            written += lines;
        }
        progress((last * BLOCK).min(n));
        first = last;
    }
    out.flush()?;
    Ok(written)
}
