//! Forged solution files, as a forger would make them: a value or the header
//! changed, then every checksum recomputed (`chopsticks_solve::file::reseal`), so
//! that only the checks against the rules can tell.

use std::path::Path;

use chopsticks_rules::{Position, Ruleset};
use chopsticks_solve::Solution;
use chopsticks_space::Graph;

/// Where a version 3 file's table starts: after the header and its checksum.
fn table_start(bytes: &[u8]) -> usize {
    20 + u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize
}

/// Rewrites the JSON header of the solution file at `path`, replacing `from` by
/// `to` (of the same length), and reseals it.
pub fn edit_header(path: &Path, from: &str, to: &str) {
    assert_eq!(from.len(), to.len(), "the header keeps its length");
    let mut bytes = std::fs::read(path).unwrap();
    let end = table_start(&bytes) - 4;
    let header = String::from_utf8(bytes[16..end].to_vec()).unwrap();
    let edited = header.replace(from, to);
    assert_ne!(header, edited, "{from} is in the header");
    bytes[16..end].copy_from_slice(edited.as_bytes());
    assert!(chopsticks_solve::file::reseal(&mut bytes));
    std::fs::write(path, &bytes).unwrap();
}

/// Sets the stored byte of `position` in the narrow two-player table of the
/// solution file at `path` (of `rules`) to `code`, and reseals it.
pub fn set_value(path: &Path, rules: &Ruleset, position: &Position, code: u8) {
    let mut bytes = std::fs::read(path).unwrap();
    let start = table_start(&bytes);
    let graph = Graph::new(rules).unwrap();
    bytes[start + graph.index_of(position) as usize] = code;
    assert!(chopsticks_solve::file::reseal(&mut bytes));
    std::fs::write(path, &bytes).unwrap();
}

/// The position `plies` moves along the optimal line from the start of `rules`
/// (each side's first best move), and whether the start's neighbours include it.
pub fn along_the_line(rules: &Ruleset, plies: usize) -> (Position, bool) {
    let graph = Graph::new(rules).unwrap();
    let solution = Solution::solve(&graph, &|_| {}).unwrap();
    let start = Position::start(rules);
    let mut position = start.clone();
    for _ in 0..plies {
        position = solution.evaluate_moves(&position).unwrap()[0].to.clone();
    }
    let near = position == start
        || solution
            .evaluate_moves(&start)
            .unwrap()
            .iter()
            .any(|m| m.to == position);
    (position, near)
}
