//! Checking loaded tables against the rules: every solved table passes, and every
//! change of one position's stored outcome, or of the header's ruleset, is caught,
//! also when the file's checksum has been made valid again.

use std::path::Path;

use chopsticks_rules::{Preset, Ruleset};
use chopsticks_solve::{file, Outcome, Solution, SolveError};
use chopsticks_space::Graph;

fn solved(rules: &Ruleset) -> (Graph, Solution) {
    let graph = Graph::new(rules).unwrap();
    let solution = Solution::solve(&graph, &|_| {}).unwrap();
    (graph, solution)
}

/// Where the table starts in an encoded file: magic, version, header length,
/// header, the header's checksum.
fn table_start(bytes: &[u8]) -> usize {
    20 + u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize
}

/// Recomputes every checksum, as a forger would.
fn reseal(bytes: &mut [u8]) {
    assert!(file::reseal(bytes));
}

fn decode(bytes: &[u8]) -> Solution {
    file::decode(bytes, Path::new("forged.sol")).expect("the forged file decodes")
}

#[test]
fn every_solved_table_passes() {
    let base = Preset::Standard.ruleset();
    let mut small = base.clone();
    small.fingers = 4;
    for rules in small
        .variants()
        .into_iter()
        .chain(Preset::ALL.map(Preset::ruleset))
    {
        if rules.players() != 2 {
            continue;
        }
        let (graph, solution) = solved(&rules);
        solution.verify(&graph).unwrap();
        let back = decode(&file::encode(&solution));
        back.verify(&graph).unwrap();
        for i in 0..solution.count() {
            back.check_at(&graph, i).unwrap();
        }
    }
}

#[test]
fn every_change_of_one_outcome_is_caught() {
    for preset in [Preset::Rahman, Preset::Standard, Preset::Simple] {
        let rules = preset.ruleset();
        let (graph, solution) = solved(&rules);
        let bytes = file::encode(&solution);
        assert_eq!(
            solution.table().encoding(),
            chopsticks_solve::Encoding::Narrow
        );
        let start = table_start(&bytes);
        let mut caught = 0;
        for i in 0..solution.count() {
            let stored = solution.outcome_at(i).unwrap();
            let r = stored.remoteness.unwrap_or(3);
            let others = [
                Outcome::DRAW,
                Outcome::win(0),
                Outcome::lose(0),
                Outcome::win(r + 1),
                Outcome::lose(r + 1),
                Outcome::win(r.saturating_sub(1)),
                Outcome::lose(r.saturating_sub(1)),
            ];
            for other in others.into_iter().filter(|o| *o != stored) {
                let mut forged = bytes.clone();
                forged[start + i as usize] = match (other.value, other.remoteness) {
                    (chopsticks_solve::Value::Win, Some(r)) => r as u8,
                    (chopsticks_solve::Value::Lose, Some(r)) => 0x80 | r as u8,
                    _ => 0xFF,
                };
                reseal(&mut forged);
                let loaded = decode(&forged);
                assert_eq!(loaded.outcome_at(i).unwrap(), other);
                let err = loaded.check_at(&graph, i).unwrap_err();
                assert!(matches!(err, SolveError::Inconsistent(_)), "{err}");
                assert!(loaded.verify(&graph).is_err(), "{preset:?} #{i} as {other}");
                caught += 1;
            }
        }
        assert!(caught >= 4 * solution.count() as usize);
    }
}

#[test]
fn a_header_edited_to_another_ruleset_is_caught() {
    // The same index (so the same size) under misère rules: the file decodes, but its
    // table is not the solution of the ruleset its header now names.
    let rules = Preset::Rahman.ruleset();
    let (_, solution) = solved(&rules);
    let bytes = file::encode(&solution);
    let start = table_start(&bytes);
    let header = std::str::from_utf8(&bytes[16..start - 4]).unwrap();
    assert!(header.contains("\"misere\":false"), "{header}");
    let edited = header.replace("\"misere\":false", "\"misere\":true ");
    let mut forged = bytes.clone();
    forged[16..start - 4].copy_from_slice(edited.as_bytes());
    reseal(&mut forged);
    let loaded = decode(&forged);
    assert!(loaded.rules().misere);
    let (graph, _) = solved(loaded.rules());
    let err = loaded.verify(&graph).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("inconsistent solution: the table says"),
        "{err}"
    );
}

#[test]
fn a_graph_of_other_rules_is_refused() {
    let (_, solution) = solved(&Preset::Rahman.ruleset());
    let (other, _) = solved(&Preset::Simple.ruleset());
    assert!(solution.check_at(&other, 0).is_err());
    assert!(solution.verify(&other).is_err());
    let (graph, _) = solved(&Preset::Rahman.ruleset());
    assert!(solution.check_at(&graph, solution.count()).is_err());
}

#[test]
fn the_inconsistency_of_smallest_index_is_reported_as_a_scan_in_order_finds_it() {
    // Several rows of 64 × 64 tiles, checked a tile at a time: the error must
    // still be the one at the smallest inconsistent index.
    let rules = Ruleset::from_variant_id("standard.h4.f8").unwrap();
    let (graph, solution) = solved(&rules);
    let bytes = file::encode(&solution);
    let start = table_start(&bytes);
    let count = solution.count() as usize;
    for (a, b) in [
        (count / 3, count - 5),
        (7, count / 2),
        (count - 70, count - 3),
    ] {
        let mut forged = bytes.clone();
        for i in [a, b] {
            // A draw stored as a win at 0, or anything else as a draw.
            forged[start + i] = if forged[start + i] == 0xFF { 0 } else { 0xFF };
        }
        reseal(&mut forged);
        let loaded = decode(&forged);
        let first = (0..solution.count())
            .find(|&i| loaded.check_at(&graph, i).is_err())
            .expect("an inconsistency");
        let want = loaded.check_at(&graph, first).unwrap_err().to_string();
        let got = loaded.verify(&graph).unwrap_err().to_string();
        assert_eq!(got, want, "forged at {a} and {b}");
    }
}

/// The tile-by-tile check reads each encoding through its own reader: a
/// values-only table, and a file read in place (block by block), pass when
/// right and report the same first inconsistency as the table in memory.
#[test]
fn every_encoding_and_a_file_read_in_place_are_checked_alike() {
    let rules = Ruleset::from_variant_id("standard.h4.f8").unwrap();
    let (graph, solution) = solved(&rules);
    let (values, _) = Solution::solve_values(&graph, None, None, &|_| {}).unwrap();
    assert_eq!(
        values.table().encoding(),
        chopsticks_solve::Encoding::Values
    );
    values.verify(&graph).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sol");
    file::save(&solution, &path).unwrap();
    let in_place = file::open(&path).unwrap();
    assert!(in_place.table().is_paged());
    in_place.verify(&graph).unwrap();

    let mut forged = file::encode(&solution);
    let start = table_start(&forged);
    let i = solution.count() as usize / 2 + 17;
    forged[start + i] = if forged[start + i] == 0xFF { 0 } else { 0xFF };
    reseal(&mut forged);
    let forged_path = dir.path().join("forged.sol");
    std::fs::write(&forged_path, &forged).unwrap();
    let want = decode(&forged).verify(&graph).unwrap_err().to_string();
    let in_place = file::open(&forged_path).unwrap();
    assert!(in_place.table().is_paged());
    assert_eq!(in_place.verify(&graph).unwrap_err().to_string(), want);
}

/// Tables without remoteness (two bits a position), in normal play and misère:
/// every change of one value that makes the table inconsistent is caught, and
/// the inconsistency reported is the first a scan in index order finds. (A
/// change that leaves the table consistent cannot be caught without
/// remoteness: see `chopsticks_solve::verify`.) The check of such a table
/// stops at a draw's first drawn child and a win's first lost child, and
/// finds a draw's lost child from the lost side, so a finished game's win in 0
/// (no child at all) and a draw with a lost child after its drawn one are the
/// cases this covers.
#[test]
fn every_change_of_a_values_only_table_is_caught_as_a_scan_finds_it() {
    let mut caught = 0;
    for id in ["standard", "standard.misere", "rahman", "standard.h3.f4"] {
        let rules = Ruleset::from_variant_id(id).unwrap();
        let graph = Graph::new(&rules).unwrap();
        let (values, _) = Solution::solve_values(&graph, None, None, &|_| {}).unwrap();
        assert_eq!(
            values.table().encoding(),
            chopsticks_solve::Encoding::Values
        );
        values.verify(&graph).unwrap();
        let bytes = file::encode(&values);
        let start = table_start(&bytes);
        let step = (values.count() / 400).max(1) as usize;
        for i in (0..values.count()).step_by(step) {
            let (byte, shift) = (start + (i / 4) as usize, 2 * (i % 4));
            let code = (bytes[byte] >> shift) & 3;
            // 0: draw, 1: win, 2: loss.
            for other in (0..3u8).filter(|&c| c != code) {
                let mut forged = bytes.clone();
                forged[byte] = (forged[byte] & !(3 << shift)) | (other << shift);
                reseal(&mut forged);
                let loaded = decode(&forged);
                let first = (0..loaded.count()).find(|&k| loaded.check_at(&graph, k).is_err());
                match first {
                    None => loaded.verify(&graph).unwrap(),
                    Some(k) => {
                        let want = loaded.check_at(&graph, k).unwrap_err().to_string();
                        let got = loaded.verify(&graph).unwrap_err().to_string();
                        assert_eq!(got, want, "{id}: #{i} forged to code {other}");
                        caught += 1;
                    }
                }
            }
        }
    }
    assert!(caught > 500, "{caught}");
}
