//! Saved solutions: round trip, and every kind of damage refused with a message.

use std::path::Path;

use chopsticks_rules::{Preset, Ruleset};
use chopsticks_solve::{file, Solution};
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
    for rules in [Preset::Rahman.ruleset(), Preset::Standard.ruleset()] {
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
