//! `chopsticks table outcomes`: the outcome class of every Simple Chopsticks
//! position `(x | y)_n` with at most `H` hands a side ([`chopsticks_atlas`]), as a
//! summary, one line per position (JSON lines or CSV), or pictures of slices.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use chopsticks_atlas::{Atlas, Counts, LevelAtlas, Summary, OUTCOMES};
use chopsticks_cgt::Outcome;
use chopsticks_values::picture::GridPicture;
use clap::{Args, ValueEnum};
use rayon::prelude::*;

use crate::memory::ensure_fits;
use crate::progress;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OutcomesFormat {
    /// A summary: outcome counts, by difference of hand counts.
    Text,
    /// One JSON object per position: {"position": "(1,1|2)_3", "outcome": "N"}.
    Jsonl,
    /// One line per position: position,outcome (with a header line).
    Csv,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Slice {
    /// Rows: Left's hand count, columns: Right's; each cell coloured by the set
    /// of outcomes among its positions.
    Hands,
    /// Positions whose hands hold only 1s and 2s, at the hand counts of --hands:
    /// rows: Left's number of 1s, columns: Right's number of 1s, coloured by outcome.
    OnesTwos,
    /// Every position with H hands a side (--hands H,H; default: the largest with
    /// at most 400 sides): rows: Left's sides, columns: Right's, each named by its
    /// counts of 1s, 2s, … (`210` = two 1s, one 2), coloured by outcome.
    Level,
}

#[derive(Args, Debug)]
pub(super) struct OutcomesArgs {
    /// The finger count n (the paper's n: a hand holds 1..=n fingers, F = n + 1).
    #[arg(long, default_value_t = 3)]
    n: u32,
    /// The largest number of hands a side [default: the most, up to 30, with at most
    /// 30 million positions: 30 for n ≤ 3, 16 for n = 4, 11 for n = 5, 9 for n = 6].
    #[arg(long, value_name = "H")]
    max_hands: Option<usize>,
    /// Output: a summary, or one line per position.
    #[arg(long, value_enum, default_value_t = OutcomesFormat::Text)]
    format: OutcomesFormat,
    /// The summary as JSON: {"n", "max_hands", "positions", "counts", "by_hands"}.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Write the lines of --format jsonl|csv to this file (atomically) instead of
    /// stdout (`-`: stdout).
    #[arg(long, short, value_name = "FILE")]
    output: Option<String>,
    /// Draw a slice of the atlas as a PNG picture (a file; `-` is not accepted).
    #[arg(long, value_name = "FILE")]
    png: Option<String>,
    /// Draw a slice of the atlas as an SVG picture (a file; `-` is not accepted).
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// Which slice the pictures show [default: hands].
    #[arg(long, value_enum)]
    slice: Option<Slice>,
    /// Hand counts of the ones-twos slice, as LEFT,RIGHT (default: H,H), or of
    /// the level slice (equal).
    #[arg(long, value_name = "L,R")]
    hands: Option<String>,
    /// Solve every position (a bit each) instead of the pairs of sides with
    /// equal hand counts: slower, but it uses neither Theorem 4 nor Lemma 1 (the
    /// per-position formats and the ones-twos slice always do).
    #[arg(long)]
    full: bool,
    /// Print the solving time on stderr.
    #[arg(long)]
    time: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// Parses `L,R` hand counts.
fn hand_counts(text: &str, max: usize) -> Result<(usize, usize)> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [l, r] = parts[..] else {
        bail!("--hands takes two hand counts, LEFT,RIGHT (e.g. 6,6)");
    };
    let parse = |s: &str| -> Result<usize> {
        let v: usize = s.parse().with_context(|| {
            format!(
                "--hands: `{}` is not a hand count",
                chopsticks_rules::quoted(s)
            )
        })?;
        if v > max {
            bail!("--hands: {v} hands is more than --max-hands {max}");
        }
        Ok(v)
    };
    Ok((parse(l)?, parse(r)?))
}

/// Positions the default `--max-hands` stays within.
const DEFAULT_POSITIONS: u64 = 30_000_000;

/// The default `--max-hands` for `n`: the most hands, up to 30, with at most
/// [`DEFAULT_POSITIONS`] positions.
fn default_max_hands(n: u32) -> usize {
    (1..=30)
        .rev()
        .find(|&h| Atlas::positions(n, h).is_some_and(|p| p <= DEFAULT_POSITIONS as u128))
        .unwrap_or(1)
}

pub(super) fn run(args: &OutcomesArgs) -> Result<()> {
    let n = args.n;
    if n == 0 || n > chopsticks_atlas::MAX_N {
        bail!(
            "--n must be between 1 and {} (a hand holds 1..=n fingers)",
            chopsticks_atlas::MAX_N
        );
    }
    let h = args.max_hands.unwrap_or_else(|| default_max_hands(n));
    if h == 0 || h > 255 {
        bail!("--max-hands must be between 1 and 255");
    }
    let drawing = args.png.is_some() || args.svg.is_some();
    if !drawing && (args.slice.is_some() || args.hands.is_some()) {
        bail!("--slice and --hands choose what --png or --svg draw; give one of them");
    }
    let slice = args.slice.unwrap_or(Slice::Hands);
    let slice_hands = match &args.hands {
        Some(text) => Some(hand_counts(text, h)?),
        None => None,
    };
    if slice_hands.is_some() && slice == Slice::Hands {
        bail!("--hands chooses the hand counts of --slice ones-twos or --slice level");
    }
    if let (Slice::Level, Some((l, r))) = (slice, slice_hands) {
        if l != r || l == 0 {
            bail!("--slice level shows equal hand counts: --hands H,H with H ≥ 1, not {l},{r}");
        }
    }
    if args.output.is_some() && args.format == OutcomesFormat::Text {
        bail!("--output writes the lines of --format jsonl or csv");
    }
    super::check_picture_paths(args.png.as_deref(), args.svg.as_deref())?;
    // The summary and the hands slice need only the pairs of equal hand counts
    // (the level atlas); the lines and the ones-twos slice need every position.
    let every_position =
        args.full || args.format != OutcomesFormat::Text || (drawing && slice == Slice::OnesTwos);
    if every_position && drawing && slice == Slice::Level {
        bail!("--slice level is drawn from the pairs of equal hand counts: leave out --full and --format");
    }
    if !every_position {
        return run_levels(args, n, h, slice, slice_hands);
    }
    let size = Atlas::check(n, h).map_err(|e| anyhow::anyhow!("{e}"))?;
    ensure_fits(
        size.bytes,
        &format!(
            "the outcomes of (x|y)_{n} with up to {h} hand{} a side",
            super::super::plural(h as u64)
        ),
    )?;
    if let Some(path) = &args.output {
        if path != "-" {
            chopsticks_files::check_writable(Path::new(path))?;
        }
    }

    let clock = Instant::now();
    let bar = progress::bar(size.positions, "positions", args.quiet);
    let report = |done: u64| bar.set_position(done);
    let atlas = Atlas::solve(n, h, Some(&report))?;
    bar.finish_and_clear();
    if args.time {
        eprintln!(
            "solved {} positions of (x|y)_{n} with up to {h} hand{} a side in {:.3} s",
            crate::text::count(atlas.len()),
            super::super::plural(h as u64),
            clock.elapsed().as_secs_f64()
        );
    }

    if args.png.is_some() || args.svg.is_some() {
        let pic = match slice {
            Slice::Hands | Slice::Level => hands_picture(&atlas.summary()),
            Slice::OnesTwos => {
                let (l, r) = slice_hands.unwrap_or((h, h));
                ones_twos_picture(&atlas, l, r)?
            }
        };
        super::write_pictures(&pic, args.png.as_deref(), args.svg.as_deref(), args.quiet)?;
    }

    match args.format {
        OutcomesFormat::Text => {
            let summary = atlas.summary();
            if args.json {
                super::super::print_json(&chopsticks_report::atlas_summary(&summary));
            } else {
                print_summary(&summary);
            }
        }
        format => {
            let output = args.output.as_deref().filter(|p| *p != "-");
            match output {
                None => {
                    let stdout = std::io::stdout();
                    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
                    write_lines(&atlas, format, &mut out)
                        .and_then(|()| out.flush())
                        .context("cannot write the output (standard output)")?;
                }
                Some(path) => chopsticks_files::write_with(Path::new(path), |file| {
                    let mut out = BufWriter::with_capacity(1 << 20, file);
                    write_lines(&atlas, format, &mut out)?;
                    out.flush()
                })?,
            }
        }
    }
    Ok(())
}

/// The summary (and the hands slice) from the level atlas: the pairs of sides
/// with equal hand counts solved, the rest by Theorem 4 and Lemma 1.
fn run_levels(
    args: &OutcomesArgs,
    n: u32,
    h: usize,
    slice: Slice,
    slice_hands: Option<(usize, usize)>,
) -> Result<()> {
    let size = LevelAtlas::check(n, h).map_err(|e| anyhow::anyhow!("{e}"))?;
    ensure_fits(
        size.bytes.min(u64::MAX as u128) as u64,
        &format!(
            "the outcomes of (x|y)_{n} with up to {h} hand{} a side",
            super::super::plural(h as u64)
        ),
    )?;
    // The level slice's hand count (the largest with at most 400 sides, unless
    // given), refused before any work if its grid is too large.
    let exactly = |k: usize| {
        let at_most = |k: usize| chopsticks_atlas::Sides::count_of(n, k).unwrap_or(u64::MAX);
        at_most(k).saturating_sub(if k == 0 { 0 } else { at_most(k - 1) })
    };
    let level_hands = match slice_hands {
        Some((k, _)) => k,
        None => (1..=h).rev().find(|&k| exactly(k) <= 400).unwrap_or(1),
    };
    if slice == Slice::Level && (args.png.is_some() || args.svg.is_some()) {
        let count = exactly(level_hands);
        if count > MAX_LEVEL_SIDES {
            bail!(
                "--slice level with {level_hands} hands a side would draw {count} × {count} cells (at most {MAX_LEVEL_SIDES} sides); choose fewer hands (--hands H,H)"
            );
        }
    }
    let clock = Instant::now();
    let bar = progress::bar(h as u64 + 1, "hand counts", args.quiet);
    let report = |done: usize| bar.set_position(done as u64);
    let atlas = LevelAtlas::solve(n, h, Some(&report))?;
    bar.finish_and_clear();
    if args.time {
        eprintln!(
            "solved {} positions of (x|y)_{n} with up to {h} hand{} a side in {:.3} s ({} pairs of equal hand counts stored)",
            crate::text::count(size.positions),
            super::super::plural(h as u64),
            clock.elapsed().as_secs_f64(),
            crate::text::count(size.stored)
        );
    }
    let summary = atlas.summary();
    if args.png.is_some() || args.svg.is_some() {
        let pic = match slice {
            Slice::Level => level_picture(&atlas, level_hands),
            _ => hands_picture(&summary),
        };
        super::write_pictures(&pic, args.png.as_deref(), args.svg.as_deref(), args.quiet)?;
    }
    if args.json {
        super::super::print_json(&chopsticks_report::atlas_summary(&summary));
    } else {
        print_summary(&summary);
    }
    Ok(())
}

/// The most sides a level slice draws (a grid of their square).
const MAX_LEVEL_SIDES: u64 = 2000;

/// Bytes of text a piece of work formats (about), and pieces formatted at once.
const PIECE_BYTES: usize = 1 << 20;
const PIECES_AT_ONCE: usize = 16;

/// Every position, Left's sides in order (by hand count, then values), each with
/// every Right side in the same order. The lines are cut into pieces of about
/// [`PIECE_BYTES`], formatted [`PIECES_AT_ONCE`] at a time in parallel and written in
/// order, so the text held at once stays near 16 MiB whatever the atlas.
fn write_lines(atlas: &Atlas, format: OutcomesFormat, out: &mut impl Write) -> std::io::Result<()> {
    let sides = atlas.sides();
    let n = atlas.n();
    let text: Vec<String> = (0..sides.count())
        .map(|r| {
            sides
                .values(r)
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    if format == OutcomesFormat::Csv {
        writeln!(out, "position,outcome")?;
    }
    let order = sides.in_order();
    let longest = text.iter().map(String::len).max().unwrap_or(0);
    // A line: both sides, the notation around them and the outcome.
    let line_bytes = 2 * longest + 48;
    let per_piece = (PIECE_BYTES / line_bytes).max(1);
    let pieces = order
        .iter()
        .flat_map(|&a| order.chunks(per_piece).map(move |right| (a, right)));
    let mut batch: Vec<(u32, &[u32])> = Vec::with_capacity(PIECES_AT_ONCE);
    let mut flush = |batch: &mut Vec<(u32, &[u32])>| -> std::io::Result<()> {
        let parts: Vec<String> = batch
            .par_iter()
            .map(|&(a, right)| {
                let mut s = String::with_capacity(right.len() * line_bytes);
                for &b in right {
                    let o = atlas.outcome_at(a, b);
                    let (l, r) = (&text[a as usize], &text[b as usize]);
                    match format {
                        OutcomesFormat::Jsonl => s.push_str(&format!(
                            "{{\"position\":\"({l}|{r})_{n}\",\"outcome\":\"{o}\"}}\n"
                        )),
                        _ => s.push_str(&format!("\"({l}|{r})_{n}\",{o}\n")),
                    }
                }
                s
            })
            .collect();
        batch.clear();
        for p in parts {
            out.write_all(p.as_bytes())?;
        }
        Ok(())
    };
    for piece in pieces {
        batch.push(piece);
        if batch.len() == PIECES_AT_ONCE {
            flush(&mut batch)?;
        }
    }
    flush(&mut batch)
}

/// Adds `c` into `acc`.
fn add(acc: &mut Counts, c: &Counts) {
    for k in 0..4 {
        acc[k] += c[k];
    }
}

fn print_summary(s: &Summary) {
    let total: u64 = s.total.iter().sum();
    println!(
        "Outcomes of Simple Chopsticks (x|y)_{} with at most {} hand{} a side: {} position{}",
        s.n,
        s.max_hands,
        super::super::plural(s.max_hands as u64),
        crate::text::count(total),
        super::super::plural(total)
    );
    for (k, o) in OUTCOMES.iter().enumerate() {
        println!(
            "  {o}  {:>14}  {:>6.2}%",
            crate::text::count(s.total[k]),
            100.0 * s.total[k] as f64 / total.max(1) as f64
        );
    }
    // By difference of hand counts l - r, positions where both sides have a hand.
    let h = s.max_hands as i64;
    let mut by_diff: Vec<Counts> = vec![[0; 4]; (2 * h + 1) as usize];
    let mut over = [0u64; 4];
    for (l, row) in s.by_hands.iter().enumerate() {
        for (r, c) in row.iter().enumerate() {
            if l == 0 || r == 0 {
                add(&mut over, c);
            } else {
                add(&mut by_diff[(l as i64 - r as i64 + h) as usize], c);
            }
        }
    }
    println!();
    println!("By the difference of hand counts l - r (both sides with a hand):");
    println!(
        "  {:>9}  {:>14} {:>14} {:>14} {:>14}",
        "l - r", "L", "R", "N", "P"
    );
    // Runs of differences whose positions all have one outcome are merged.
    let only = |c: &Counts| -> Option<usize> {
        let nz: Vec<usize> = (0..4).filter(|&k| c[k] > 0).collect();
        (nz.len() == 1).then(|| nz[0])
    };
    let mut d = -h + 1;
    while d < h {
        let c = by_diff[(d + h) as usize];
        let mut end = d;
        let mut sum = c;
        if let Some(k) = only(&c) {
            while end < h - 1 && only(&by_diff[(end + 1 + h) as usize]) == Some(k) {
                end += 1;
                add(&mut sum, &by_diff[(end + h) as usize]);
            }
        }
        let label = if end == d {
            d.to_string()
        } else {
            format!("{d}..{end}")
        };
        println!(
            "  {label:>9}  {:>14} {:>14} {:>14} {:>14}",
            crate::text::count(sum[0]),
            crate::text::count(sum[1]),
            crate::text::count(sum[2]),
            crate::text::count(sum[3])
        );
        d = end + 1;
    }
    println!(
        "  {:>9}  {:>14} {:>14} {:>14} {:>14}   (a side without hands: the game is over, 0)",
        "no hand",
        crate::text::count(over[0]),
        crate::text::count(over[1]),
        crate::text::count(over[2]),
        crate::text::count(over[3])
    );
}

/// Which outcomes occur in `c`, as text (`L`, `L N`, …).
fn occurring(c: &Counts) -> String {
    OUTCOMES
        .iter()
        .enumerate()
        .filter(|&(k, _)| c[k] > 0)
        .map(|(_, o)| o.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Rows: Left's hand count 1..=H, columns: Right's; a cell's colour is the set
/// of outcomes among its positions.
fn hands_picture(s: &Summary) -> GridPicture {
    let h = s.max_hands;
    // The sets of outcomes that occur, as bit masks (L = 1, R = 2, N = 4, P = 8),
    // listed single outcomes first so L and R keep the colours of the other slice.
    let mask = |c: &Counts| (0..4).filter(|&k| c[k] > 0).map(|k| 1u8 << k).sum::<u8>();
    let mut masks: Vec<u8> = (1..=h)
        .flat_map(|l| (1..=h).map(move |r| (l, r)))
        .map(|(l, r)| mask(&s.by_hands[l][r]))
        .collect();
    masks.sort_by_key(|&m| (m.count_ones(), m));
    masks.dedup();
    let legend: Vec<String> = masks
        .iter()
        .map(|&m| {
            let c: Counts = std::array::from_fn(|k| u64::from(m >> k & 1));
            occurring(&c)
        })
        .collect();
    let cells: Vec<Vec<usize>> = (1..=h)
        .map(|l| {
            (1..=h)
                .map(|r| {
                    let m = mask(&s.by_hands[l][r]);
                    masks.iter().position(|&x| x == m).expect("listed")
                })
                .collect()
        })
        .collect();
    GridPicture {
        title: format!(
            "Outcomes of (x|y)_{} by hand counts: the outcomes that occur (rows l: Left's hands, columns r: Right's)",
            s.n
        ),
        row_label: "l".into(),
        col_label: "r".into(),
        first_row: 1,
        first_col: 1,
        row_names: Vec::new(),
        col_names: Vec::new(),
        legend_title: "outcomes among the positions".into(),
        cell_titles: Vec::new(),
        cells,
        legend: legend
            .into_iter()
            .map(|t| format!("outcomes {t}"))
            .collect(),
    }
}

/// Positions `(1^a 2^(l-a) | 1^c 2^(r-c))_n`: rows `a`, columns `c`, by outcome.
/// Every position with `k` hands a side: rows Left's sides, columns Right's, named
/// by their counts of each value, coloured by outcome.
fn level_picture(atlas: &LevelAtlas, k: usize) -> GridPicture {
    let count = atlas.sides_with(k) as usize;
    let n = atlas.n() as usize;
    // Sides by their counts of 1s, 2s, …, most 1s first.
    let mut sides: Vec<(Vec<u64>, Vec<u32>)> = (0..count)
        .map(|i| (atlas.level_counts(k, i), atlas.level_side(k, i)))
        .collect();
    sides.sort_by(|x, y| y.0.cmp(&x.0));
    let name = |c: &[u64]| -> String {
        c.iter()
            .map(|x| {
                if *x < 10 {
                    x.to_string()
                } else {
                    format!("({x})")
                }
            })
            .collect()
    };
    let cells: Vec<Vec<usize>> = sides
        .iter()
        .map(|(_, left)| {
            sides
                .iter()
                .map(|(_, right)| {
                    let o = atlas.outcome(left, right).expect("within the atlas");
                    OUTCOMES.iter().position(|&x| x == o).expect("an outcome")
                })
                .collect()
        })
        .collect();
    let names: Vec<String> = sides.iter().map(|(c, _)| name(c)).collect();
    GridPicture {
        title: format!(
            "Outcomes of (x|y)_{n} with {k} hand{} a side (sides named by their counts of 1s, 2s, ...; rows: Left, columns: Right)",
            super::super::plural(k as u64)
        ),
        row_label: "x".into(),
        col_label: "y".into(),
        first_row: 0,
        first_col: 0,
        row_names: names.clone(),
        col_names: names,
        legend_title: "outcome".into(),
        cell_titles: Vec::new(),
        cells,
        legend: outcome_legend(),
    }
}

fn outcome_legend() -> Vec<String> {
    OUTCOMES
        .iter()
        .map(|o| match o {
            Outcome::L => "L: Left wins".to_string(),
            Outcome::R => "R: Right wins".to_string(),
            Outcome::N => "N: the player to move wins".to_string(),
            Outcome::P => "P: the player to move loses".to_string(),
        })
        .collect()
}

fn ones_twos_picture(atlas: &Atlas, l: usize, r: usize) -> Result<GridPicture> {
    if atlas.n() < 2 {
        bail!("--slice ones-twos needs n ≥ 2 (hands holding 1 or 2 fingers)");
    }
    if l == 0 || r == 0 {
        bail!("--hands: both sides need a hand for --slice ones-twos");
    }
    let side = |ones: usize, hands: usize| -> Vec<u32> {
        let mut v = vec![1u32; ones];
        v.resize(hands, 2);
        v
    };
    let cells: Vec<Vec<usize>> = (0..=l)
        .map(|a| {
            (0..=r)
                .map(|c| {
                    let o = atlas
                        .outcome(&side(a, l), &side(c, r))
                        .expect("within the atlas");
                    OUTCOMES.iter().position(|&x| x == o).expect("an outcome")
                })
                .collect()
        })
        .collect();
    let legend = outcome_legend();
    Ok(GridPicture {
        title: format!(
            "Outcomes of (1^a 2^({l}-a) | 1^c 2^({r}-c))_{} (rows a: Left's 1s, columns c: Right's 1s)",
            atlas.n()
        ),
        row_label: "a".into(),
        col_label: "c".into(),
        first_row: 0,
        first_col: 0,
        row_names: Vec::new(),
        col_names: Vec::new(),
        legend_title: "outcome".into(),
        cell_titles: Vec::new(),
        cells,
        legend,
    })
}
