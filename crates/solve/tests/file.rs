//! Saved solutions: round trip, and every kind of damage refused with a message.

use std::path::Path;

use chopsticks_rules::{Preset, Ruleset};
use chopsticks_solve::{file, Concept, Encoding, Outcome, Solution, SolveError};
use chopsticks_space::Graph;

fn solution(rules: &Ruleset) -> Solution {
    Solution::solve(&Graph::new(rules).unwrap(), &|_| {}).unwrap()
}

fn refused(bytes: &[u8], needle: &str) {
    let err = file::decode(bytes, Path::new("x.sol"))
        .unwrap_err()
        .to_string();
    assert!(err.contains(needle), "{err}");
}

#[test]
fn round_trip() {
    let dir = std::env::temp_dir().join(format!("chopsticks-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rahman.sol");
    let three = Ruleset {
        hands: vec![2, 2, 2],
        ..Preset::Rollover.ruleset()
    };
    let teams = Ruleset {
        hands: vec![1, 1, 1, 1],
        teams: true,
        ..Preset::Standard.ruleset()
    };
    for rules in [
        Preset::Rahman.ruleset(),
        Preset::Standard.ruleset(),
        three,
        teams,
    ] {
        let s = solution(&rules);
        file::save(&s, &path).unwrap();
        let leftovers = std::fs::read_dir(&dir)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension() == Some("tmp".as_ref()))
            .count();
        assert_eq!(leftovers, 0);
        let back = file::load(&path).unwrap();
        assert_eq!(back.rules(), s.rules());
        assert_eq!(back.table(), s.table());
        assert_eq!(back.concept(), s.concept());
        assert_eq!(back.concept(), Concept::of(&rules));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damage_is_refused() {
    let bytes = file::encode(&solution(&Preset::Rahman.ruleset()));
    refused(
        b"hello world, not a solution",
        "not a chopsticks solution file",
    );
    refused(&bytes[..10], "truncated");
    refused(&bytes[..bytes.len() - 1], "truncated");
    refused(&bytes[..bytes.len() / 2], "truncated");
    let mut extra = bytes.clone();
    extra.push(0);
    refused(&extra, "unexpected bytes");
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let table_start = 20 + header_len;
    // In the header, its checksum, the table, the block checksums, their checksum.
    for (at, needle) in [
        (30, "corrupted header"),
        (
            16 + header_len + 1,
            "corrupted header: its checksum does not match",
        ),
        (table_start, "block 0 of "),
        (
            bytes.len() - 6,
            "the list of block checksums does not match",
        ),
        (
            bytes.len() - 2,
            "the list of block checksums does not match",
        ),
    ] {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x40;
        let err = file::decode(&flipped, Path::new("x.sol"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(needle), "byte {at}: {err}");
    }
    let mut version = bytes.clone();
    version[8] = 9;
    refused(&version, "format version 9");
}

/// A file of 2 players × 4 hands, F = 10 rollover (511,225 positions, many blocks).
fn eight_blocks() -> (Solution, Ruleset) {
    let rules = Ruleset {
        hands: vec![4, 4],
        fingers: 10,
        ..Preset::Rollover.ruleset()
    };
    (solution(&rules), rules)
}

#[test]
fn a_file_read_in_place_answers_like_the_table_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("four.sol");
    let (s, rules) = eight_blocks();
    file::save(&s, &path).unwrap();
    let mapped = file::open(&path).unwrap();
    assert!(mapped.table().is_paged());
    assert_eq!(mapped.rules(), &rules);
    assert_eq!(mapped.count(), s.count());
    for i in (0..s.count()).step_by(97) {
        assert_eq!(
            mapped.outcome_at(i).unwrap(),
            s.outcome_at(i).unwrap(),
            "#{i}"
        );
    }
    let start = chopsticks_rules::Position::start(&rules);
    let (a, b) = (
        mapped.evaluate_moves(&start).unwrap(),
        s.evaluate_moves(&start).unwrap(),
    );
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!((x.outcome, &x.to), (y.outcome, &y.to));
    }
    // Every byte read back, and the mapped table written again is the same file.
    assert_eq!(mapped.table().to_bytes(), s.table().to_bytes());
    let again = dir.path().join("again.sol");
    file::save(&mapped, &again).unwrap();
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&path).unwrap()
    );
}

#[test]
fn a_damaged_block_is_found_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("four.sol");
    let (s, _) = eight_blocks();
    file::save(&s, &path).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let table_start = 20 + header_len;
    // One byte of block 3: one byte per position, so positions 3 · B to 4 · B - 1.
    let block = file::BLOCK_BYTES as usize;
    bytes[table_start + 3 * block + 1234 % block] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let blocks = s.count().div_ceil(block as u64);
    let named = format!(
        "block 3 of {blocks} of the table (positions {} to {}) is damaged",
        3 * block,
        4 * block - 1
    );
    // Loaded whole: refused.
    let err = file::load(&path).unwrap_err().to_string();
    assert!(err.contains(&named), "{err}");
    // Read in place: opening reads no block; the damaged one is refused when read,
    // and again the next time, the others answer.
    let mapped = file::open(&path).unwrap();
    let inside = 3 * block as u64 + 17;
    for _ in 0..2 {
        let err = mapped.outcome_at(inside).unwrap_err();
        assert!(matches!(err, SolveError::Damaged { block: 3, .. }), "{err}");
        assert!(err.to_string().contains(&named), "{err}");
    }
    assert_eq!(mapped.outcome_at(5).unwrap(), s.outcome_at(5).unwrap());
    assert_eq!(
        mapped.outcome_at(300_000).unwrap(),
        s.outcome_at(300_000).unwrap()
    );
    let chopsticks_solve::Table::Paged(table) = mapped.table() else {
        panic!("read in place");
    };
    assert_eq!(table.blocks_checked(), 3);
    assert!(table.check_all().unwrap_err().to_string().contains(&named));
}

#[test]
fn a_file_truncated_or_rewritten_under_an_open_table_is_an_error_never_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("four.sol");
    let (s, _) = eight_blocks();
    file::save(&s, &path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let table_start = 20 + header_len;
    let block = file::BLOCK_BYTES as usize;
    let open = file::open(&path).unwrap();
    // Block 0 read once, block 4 twice (so it is kept), before the file changes.
    assert_eq!(open.outcome_at(5).unwrap(), s.outcome_at(5).unwrap());
    let in_4 = 4 * block as u64 + 7;
    for _ in 0..2 {
        assert_eq!(open.outcome_at(in_4).unwrap(), s.outcome_at(in_4).unwrap());
    }
    // Rewritten in place (same size) in blocks 0, 4 and 6: a block read from
    // the file afterwards fails its checksum; the block kept keeps the bytes
    // that were checked. Never a changed value believed.
    let mut changed = bytes.clone();
    for b in [0, 4, 6] {
        for x in &mut changed[table_start + b * block..table_start + (b + 1) * block] {
            *x = x.wrapping_add(1);
        }
    }
    std::fs::write(&path, &changed).unwrap();
    assert_eq!(open.outcome_at(in_4).unwrap(), s.outcome_at(in_4).unwrap());
    for (b, k) in [(6, 6 * block as u64 + 1), (0, 5)] {
        let err = open.outcome_at(k).unwrap_err();
        assert!(
            matches!(err, SolveError::Damaged { block, .. } if block == b),
            "{err}"
        );
    }
    // Written back as it was: block 6 stays refused (found damaged once, it is
    // never read again), block 1 reads.
    std::fs::write(&path, &bytes).unwrap();
    assert!(open.outcome_at(6 * block as u64 + 1).is_err());
    assert_eq!(
        open.outcome_at(block as u64 + 3).unwrap(),
        s.outcome_at(block as u64 + 3).unwrap()
    );
    // Truncated to two blocks of its table: reading past the end is an error
    // naming the file (a memory-mapped reader died of SIGBUS here).
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len((table_start + 2 * block) as u64).unwrap();
    drop(file);
    for k in [10 * block as u64, s.count() - 1] {
        let err = open.outcome_at(k).unwrap_err().to_string();
        assert!(err.contains("four.sol"), "{err}");
        assert!(err.contains("the file changed while it was read"), "{err}");
    }
    let chopsticks_solve::Table::Paged(table) = open.table() else {
        panic!("read in place");
    };
    assert!(table.check_all().is_err());
    assert!(file::save(&open, &dir.path().join("copy.sol")).is_err());
    // Within the two blocks left, block 1 is read as it is now (unchanged).
    assert_eq!(
        open.outcome_at(block as u64 + 2).unwrap(),
        s.outcome_at(block as u64 + 2).unwrap()
    );
}

#[test]
fn tables_without_remoteness_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("values.sol");
    let (s, _) = eight_blocks();
    let values = s.clone().without_remoteness().unwrap();
    assert!(!values.has_remoteness());
    assert_eq!(values.table().bits_per_entry(), 2);
    file::save(&values, &path).unwrap();
    // A quarter of the narrow table's size, plus header and checksums.
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size < s.count() / 4 + 2000, "{size}");
    for back in [file::load(&path).unwrap(), file::open(&path).unwrap()] {
        assert_eq!(back.table().encoding(), Encoding::Values);
        for i in (0..s.count()).step_by(89) {
            let (got, want) = (back.outcome_at(i).unwrap(), s.outcome_at(i).unwrap());
            assert_eq!(got, Outcome::unknown(want.value), "#{i}");
        }
    }
}

/// The file of `solution` in format version 1 or 2: header, table and one
/// checksum over everything.
fn old_format(solution: &Solution, version: u32) -> Vec<u8> {
    let mut header = serde_json::json!({
        "ruleset": solution.rules(),
        "positions": solution.count(),
        "encoding": solution.table().encoding().name(),
        "concept": solution.concept(),
    });
    if version == 1 {
        header.as_object_mut().unwrap().remove("concept");
    }
    let header = serde_json::to_vec(&header).unwrap();
    let mut out = file::MAGIC.to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(&solution.table().to_bytes());
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

#[test]
fn files_of_versions_1_and_2_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let three = Ruleset {
        hands: vec![1, 1, 1],
        ..Preset::Rollover.ruleset()
    };
    for (rules, version) in [
        (Preset::Rahman.ruleset(), 1),
        (Preset::Standard.ruleset(), 2),
        (three, 2),
    ] {
        let s = solution(&rules);
        let bytes = old_format(&s, version);
        let back = file::decode(&bytes, Path::new("old.sol")).unwrap();
        assert_eq!(back.table(), s.table());
        assert_eq!(back.concept(), s.concept());
        let path = dir.path().join(format!("v{version}.sol"));
        std::fs::write(&path, &bytes).unwrap();
        // `open` reads old files whole.
        let opened = file::open(&path).unwrap();
        assert!(!opened.table().is_paged());
        assert_eq!(opened.table(), s.table());
        let mut damaged = bytes.clone();
        let last = damaged.len() - 10;
        damaged[last] ^= 1;
        refused(&damaged, "corrupted: the checksum does not match");
    }
}

#[test]
fn missing_file_is_an_error() {
    let err = file::load(Path::new("/nonexistent/x.sol"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot read"), "{err}");
}

/// Rewrites the JSON header of a solution file (and the header's checksum), so
/// that only what the header says is wrong.
fn with_header(bytes: &[u8], edit: impl Fn(&mut serde_json::Value)) -> Vec<u8> {
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut header: serde_json::Value = serde_json::from_slice(&bytes[16..16 + len]).unwrap();
    edit(&mut header);
    let header = serde_json::to_vec(&header).unwrap();
    let mut out = bytes[..12].to_vec();
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(&header);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(&bytes[20 + len..]);
    out
}

#[test]
fn the_header_names_the_concept_and_must_match_the_rules() {
    let three = Ruleset {
        hands: vec![1, 1, 1],
        ..Preset::Rollover.ruleset()
    };
    let bytes = file::encode(&solution(&three));
    let text = String::from_utf8_lossy(&bytes[..400]).to_string();
    assert!(text.contains("\"concept\":\"coalition\""), "{text}");
    // A coalition table relabelled as a team table, or as a two-player one.
    refused(
        &with_header(&bytes, |h| h["concept"] = "teams".into()),
        "a table of teams values, but its ruleset is solved as coalition",
    );
    refused(
        &with_header(&bytes, |h| {
            h.as_object_mut().unwrap().remove("concept");
        }),
        "a table of two-player values",
    );
    refused(
        &with_header(&bytes, |h| h["block_bytes"] = 3.into()),
        "impossible block size",
    );
    refused(
        &with_header(&bytes, |h| h["encoding"] = "values2".into()),
        "unknown encoding `values2`",
    );
}

/// The summary over a table read in place (a slice at a time into memory, its
/// blocks checked) is the summary over the table in memory, for every encoding
/// and concept, counted over the reachable positions and over the whole index;
/// a damaged block is refused, not counted.
#[test]
fn summaries_of_a_file_read_in_place_are_those_in_memory() {
    use chopsticks_solve::Summary;
    use chopsticks_space::BitSet;
    let dir = tempfile::tempdir().unwrap();
    let three = Ruleset {
        hands: vec![2, 2, 2],
        ..Preset::Rollover.ruleset()
    };
    let teams = Ruleset {
        hands: vec![1, 1, 1, 1],
        teams: true,
        ..Preset::Standard.ruleset()
    };
    let big = Ruleset {
        hands: vec![4, 4],
        fingers: 8,
        ..Preset::Standard.ruleset()
    };
    for rules in [Preset::Rahman.ruleset(), big, three, teams] {
        let graph = Graph::new(&rules).unwrap();
        let solved = Solution::solve(&graph, &|_| {}).unwrap();
        let values = solved.clone().without_remoteness().unwrap();
        for s in [solved, values] {
            let path = dir.path().join("s.sol");
            file::save(&s, &path).unwrap();
            let paged = file::open(&path).unwrap();
            assert!(paged.table().is_paged());
            let start = graph.index_of(&chopsticks_rules::Position::start(&rules));
            let reached = chopsticks_space::explore(&graph, start, &|_| {}).reached;
            for set in [reached, BitSet::full(graph.count())] {
                let want = Summary::new(&graph, &s, &set, start).unwrap();
                let got = Summary::new(&graph, &paged, &set, start).unwrap();
                assert_eq!(got, want, "{}", rules.describe());
            }
            // A block damaged (its checksum kept): the summary fails.
            if s.concept() == Concept::TwoPlayer && s.count() > 100_000 {
                let mut bytes = std::fs::read(&path).unwrap();
                let at = bytes.len() / 2;
                bytes[at] ^= 0x40;
                std::fs::write(&path, &bytes).unwrap();
                let damaged = file::open(&path).unwrap();
                let err = Summary::new(&graph, &damaged, &BitSet::full(graph.count()), start)
                    .unwrap_err()
                    .to_string();
                assert!(err.contains("damaged"), "{err}");
            }
        }
    }
}
