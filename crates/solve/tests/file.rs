//! Saved solutions: round trip, and every kind of damage refused with a message.

use std::path::Path;

use chopsticks_rules::{Preset, Ruleset};
use chopsticks_solve::{file, Concept, Solution};
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
    for at in [bytes.len() - 10, bytes.len() - 100, 30, bytes.len() - 2] {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x40;
        let err = file::decode(&flipped, Path::new("x.sol"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("corrupted") || err.contains("truncated"),
            "byte {at}: {err}"
        );
    }
    let mut version = bytes.clone();
    version[8] = 9;
    refused(&version, "format version 9");
}

#[test]
fn missing_file_is_an_error() {
    let err = file::load(Path::new("/nonexistent/x.sol"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot read"), "{err}");
}

/// Rewrites the JSON header of a solution file (and its checksum), so that only
/// what the header says is wrong.
fn with_header(bytes: &[u8], edit: impl Fn(&mut serde_json::Value)) -> Vec<u8> {
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut header: serde_json::Value = serde_json::from_slice(&bytes[16..16 + len]).unwrap();
    edit(&mut header);
    let header = serde_json::to_vec(&header).unwrap();
    let mut out = bytes[..12].to_vec();
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(&bytes[16 + len..bytes.len() - 4]);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
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
    // Version 1 files (no concept) of two players are still read.
    let two = file::encode(&solution(&Preset::Rahman.ruleset()));
    let mut old = with_header(&two, |h| {
        h.as_object_mut().unwrap().remove("concept");
    });
    old[8] = 1;
    let n = old.len();
    let crc = crc32fast::hash(&old[..n - 4]);
    old[n - 4..].copy_from_slice(&crc.to_le_bytes());
    let back = file::decode(&old, Path::new("old.sol")).unwrap();
    assert_eq!(back.concept(), Concept::TwoPlayer);
}
