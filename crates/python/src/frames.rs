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

use chopsticks_rules::{Ruleset, SeatedPosition};
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
    /// Every hand of every row, Player 1's first: `hands` a row.
    pub hands: Vec<u32>,
    /// Every player's value of every row by player number (three or more
    /// players, else empty): `players` a row.
    pub values: Vec<u8>,
    /// The seated id of every row, when asked for.
    pub positions: Vec<String>,
}

/// Rows computed by one thread at a time.
const BLOCK: u64 = 1 << 14;

impl Columns {
    /// The rows `start..stop` of `solution`, with their seated ids when
    /// `positions`. Fails only for a table read from a damaged file.
    pub fn of(
        solution: &Solution,
        start: u64,
        stop: u64,
        positions: bool,
    ) -> Result<Columns, SolveError> {
        let blocks: Vec<u64> = (start..stop).step_by(BLOCK as usize).collect();
        let parts: Vec<Columns> = blocks
            .into_par_iter()
            .map(|first| Columns::block(solution, first, (first + BLOCK).min(stop), positions))
            .collect::<Result<_, _>>()?;
        let mut all = Columns::default();
        for part in parts {
            all.index.extend(part.index);
            all.player.extend(part.player);
            all.value.extend(part.value);
            all.remoteness.extend(part.remoteness);
            all.hands.extend(part.hands);
            all.values.extend(part.values);
            all.positions.extend(part.positions);
        }
        Ok(all)
    }

    fn block(
        solution: &Solution,
        start: u64,
        stop: u64,
        positions: bool,
    ) -> Result<Columns, SolveError> {
        let rules = solution.rules();
        let index = chopsticks_rules::PositionIndex::new(rules)?;
        let players = rules.players();
        let mut c = Columns::default();
        for i in start..stop {
            let position = index.unrank(i);
            let turn = position.seat();
            let seated = SeatedPosition::new(rules, turn, position)?;
            let outcome = solution.outcome_at(i)?;
            c.index.push(i);
            c.player.push(turn as u8 + 1);
            c.value.push(value_code(outcome.value));
            c.remoteness
                .push(outcome.remoteness.map_or(-1, |r| r as i32));
            for hands in seated.hands_by_seat() {
                c.hands.extend(hands.iter().copied());
            }
            if players > 2 {
                let seats = solution.seat_outcomes_at(i)?;
                // Mover first in `seats`: player `turn + k` is seat `k`.
                for player in 0..players {
                    let k = (player + players - turn) % players;
                    c.values.push(value_code(seats[k].value));
                }
            }
            if positions {
                c.positions.push(seated.to_text(rules)?);
            }
        }
        Ok(c)
    }
}

/// What a row adds as a DataFrame beyond its arrays: the position's text as
/// a Python string (about 60 bytes) and pandas' own copies, counted as 100.
pub const PANDAS_ROW_BYTES: u64 = 100;
