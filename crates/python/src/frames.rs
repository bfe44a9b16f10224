//! Whole tables as columns: the rows of a solved table from one index to
//! another, for `Solution.to_numpy`, `Solution.to_pandas` and
//! `Solution.chunks`.
//!
//! A row is a position of the ruleset's dense index (`PositionIndex`), in
//! index order: the player to move (numbered from 1, the seat the position's
//! seat class gives, Player 1 for symmetric rules, as a position typed
//! without its seat is read), every player's hands in seat order (Player 1's
//! first, each player's sorted), the value for the player to move as a code
//! into `VALUES` (0 win, 1 lose, 2 draw), its remoteness (-1 where there is
//! none: a draw, or a table solved without remoteness), and with three or
//! more players every player's own value by player number. Rows are computed
//! in blocks on every core, with the interpreter lock released, then handed
//! to numpy without a copy.

use rayon::prelude::*;

use chopsticks_rules::{PositionIndex, Ruleset, SeatedPosition, MAX_HANDS, MAX_PLAYERS};
use chopsticks_solve::{Solution, SolveError, Value};

/// The code of a value in `VALUES`.
pub fn value_code(value: Value) -> u8 {
    match value {
        Value::Win => 0,
        Value::Lose => 1,
        Value::Draw => 2,
    }
}

/// The bytes a row takes as arrays (index, player, value, remoteness, the
/// hands, every player's value), for refusing what does not fit.
pub fn row_bytes(rules: &Ruleset) -> u64 {
    let players = rules.players() as u64;
    let hands: u64 = rules.hands.iter().map(|&h| h as u64).sum();
    8 + 1 + 1 + 4 + 4 * hands + if players > 2 { players } else { 0 }
}

/// The rows `start..stop` of a table, column by column.
#[derive(Default)]
pub struct Columns {
    pub index: Vec<u64>,
    pub player: Vec<u8>,
    pub value: Vec<u8>,
    pub remoteness: Vec<i32>,
    /// Every hand of every row, Player 1's first, `hands` a row: one byte a
    /// hand up to 256 fingers (then `wide_hands` is empty)…
    pub hands: Vec<u8>,
    /// …four past them (then `hands` is empty).
    pub wide_hands: Vec<u32>,
    /// Every player's value of every row by player number (three or more
    /// players, else empty): `players` a row.
    pub values: Vec<u8>,
    /// The seated id of every row, when asked for.
    pub positions: Vec<String>,
}

/// Rows computed by one thread at a time.
const BLOCK: usize = 1 << 14;

/// One block's share of every column.
struct Block<'a> {
    first: u64,
    index: &'a mut [u64],
    player: &'a mut [u8],
    value: &'a mut [u8],
    remoteness: &'a mut [i32],
    hands: &'a mut [u8],
    wide_hands: &'a mut [u32],
    values: &'a mut [u8],
}

/// `v` cut into `n` pieces of `per` (the last shorter), or `n` empty ones
/// when `v` is empty.
fn pieces<T>(v: &mut [T], per: usize, n: usize) -> std::collections::VecDeque<&mut [T]> {
    if v.is_empty() {
        (0..n).map(|_| <&mut [T]>::default()).collect()
    } else {
        v.chunks_mut(per).collect()
    }
}

impl Columns {
    /// The rows `start..stop` of `solution`, with their seated ids when
    /// `positions`: the columns allocated once, each block of rows written in
    /// place by a thread of its own. Fails only for a table read from a
    /// damaged file.
    pub fn of(
        solution: &Solution,
        start: u64,
        stop: u64,
        positions: bool,
    ) -> Result<Columns, SolveError> {
        let rules = solution.rules();
        let rows = (stop - start) as usize;
        let per_row: usize = rules.hands.iter().sum();
        let players = rules.players();
        let small = rules.fingers <= 256;
        let mut c = Columns {
            index: vec![0; rows],
            player: vec![0; rows],
            value: vec![0; rows],
            remoteness: vec![0; rows],
            hands: vec![0; if small { rows * per_row } else { 0 }],
            wide_hands: vec![0; if small { 0 } else { rows * per_row }],
            values: vec![0; if players > 2 { rows * players } else { 0 }],
            positions: Vec::new(),
        };
        let n = rows.div_ceil(BLOCK);
        let mut index = pieces(&mut c.index, BLOCK, n);
        let mut player = pieces(&mut c.player, BLOCK, n);
        let mut value = pieces(&mut c.value, BLOCK, n);
        let mut remoteness = pieces(&mut c.remoteness, BLOCK, n);
        let mut hands = pieces(&mut c.hands, BLOCK * per_row, n);
        let mut wide_hands = pieces(&mut c.wide_hands, BLOCK * per_row, n);
        let mut values = pieces(&mut c.values, BLOCK * players, n);
        let blocks: Vec<Block> = (0..n)
            .map(|k| Block {
                first: start + (k * BLOCK) as u64,
                index: index.pop_front().unwrap_or_default(),
                player: player.pop_front().unwrap_or_default(),
                value: value.pop_front().unwrap_or_default(),
                remoteness: remoteness.pop_front().unwrap_or_default(),
                hands: hands.pop_front().unwrap_or_default(),
                wide_hands: wide_hands.pop_front().unwrap_or_default(),
                values: values.pop_front().unwrap_or_default(),
            })
            .collect();
        // A stop asked for (Ctrl-C from Python) ends the work at the next
        // block.
        let stopped = || match chopsticks_solve::stop::requested() {
            true => Err(SolveError::Stopped),
            false => Ok(()),
        };
        blocks
            .into_par_iter()
            .try_for_each(|block| stopped().and_then(|()| Columns::fill(solution, block)))?;
        if positions {
            let texts: Vec<Vec<String>> = (0..n)
                .into_par_iter()
                .map(|k| {
                    stopped()?;
                    let first = start + (k * BLOCK) as u64;
                    let last = (first + BLOCK as u64).min(stop);
                    let index = PositionIndex::new(rules)?;
                    (first..last)
                        .map(|i| {
                            let position = index.unrank(i);
                            let seated = SeatedPosition::new(rules, position.seat(), position)?;
                            Ok(seated.to_text(rules)?)
                        })
                        .collect::<Result<Vec<String>, SolveError>>()
                })
                .collect::<Result<_, _>>()?;
            c.positions = texts.into_iter().flatten().collect();
        }
        Ok(c)
    }

    /// Writes one block's rows.
    fn fill(solution: &Solution, b: Block<'_>) -> Result<(), SolveError> {
        let rules = solution.rules();
        let index = PositionIndex::new(rules)?;
        let players = rules.players();
        let per_row: usize = rules.hands.iter().sum();
        // Each player's multiset rank, mover first, then their hands: the
        // index split without building a position.
        let mut ranks = [0u64; MAX_PLAYERS];
        let mut row = [0u32; MAX_PLAYERS * MAX_HANDS];
        for r in 0..b.index.len() {
            let i = b.first + r as u64;
            let turn = index.split(i, &mut ranks[..players]);
            let outcome = solution.outcome_at(i)?;
            b.index[r] = i;
            b.player[r] = turn as u8 + 1;
            b.value[r] = value_code(outcome.value);
            b.remoteness[r] = outcome.remoteness.map_or(-1, |x| x as i32);
            // Player 1 first: player `a` is `(a - turn) mod players` after the mover.
            let mut at = 0;
            for a in 0..players {
                let k = (a + players - turn) % players;
                let multiset = index.multiset(index.hands_of(turn, k));
                multiset.unrank(ranks[k], &mut row[at..at + multiset.size()]);
                at += multiset.size();
            }
            if b.hands.is_empty() {
                b.wide_hands[r * per_row..(r + 1) * per_row].copy_from_slice(&row[..per_row]);
            } else {
                for (out, &h) in b.hands[r * per_row..(r + 1) * per_row].iter_mut().zip(&row) {
                    *out = h as u8;
                }
            }
            if players > 2 {
                let seats = solution.seat_outcomes_at(i)?;
                for a in 0..players {
                    let k = (a + players - turn) % players;
                    b.values[r * players + a] = value_code(seats[k].value);
                }
            }
        }
        Ok(())
    }
}

/// What a row adds as a DataFrame beyond its arrays: the position's text as
/// a Python string (about 60 bytes) and pandas' own copies, counted as 100.
pub const PANDAS_ROW_BYTES: u64 = 100;
