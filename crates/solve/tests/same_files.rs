//! The saved solution of every preset at small sizes, pinned by its CRC-32 and
//! length as the solver wrote it before the frontier bit sets and the batched
//! parent updates of issue 43 (commit a3b523f): a faster solver must write the
//! same files byte for byte. The out-of-core solver (`parts`) is held to the
//! in-memory one elsewhere (`tests/parts.rs`), so both are pinned.

use chopsticks_rules::Ruleset;
use chopsticks_solve::{file, Solution};
use chopsticks_space::Graph;

/// Variant id, CRC-32 of the saved file, its length.
const PINNED: &[(&str, u32, u64)] = &[
    ("standard", 0x804a_f231, 549),
    ("rollover", 0xcc83_3333, 552),
    ("rahman", 0xcd78_2800, 551),
    ("simple", 0x2618_5db2, 552),
    ("standard.h3.f7", 0xbac7_7e3a, 7385),
    ("rollover.h3.f7", 0x983f_3a18, 7388),
    ("rahman.h3.f7", 0x4eda_2628, 7387),
    ("simple.h3.f7", 0x6c8d_344a, 7388),
    ("standard.h4.f8.misere", 0xe2ef_db9d, 109_330),
    ("rollover.h4.f8", 0xc262_140d, 109_334),
];

#[test]
fn every_preset_saves_the_same_bytes_as_before() {
    let dir = tempfile::tempdir().unwrap();
    for &(id, crc, len) in PINNED {
        let rules = Ruleset::from_variant_id(id).unwrap();
        let graph = Graph::new(&rules).unwrap();
        let solution = Solution::solve(&graph, &|_| {}).unwrap();
        let path = dir.path().join(format!("{id}.sol"));
        file::save(&solution, &path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len() as u64, len, "{id}: length");
        assert_eq!(crc32fast::hash(&bytes), crc, "{id}: CRC-32");
    }
}
