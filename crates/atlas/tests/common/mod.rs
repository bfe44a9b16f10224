//! Helpers shared by the proof tests. Each test binary uses a part of them.
#![allow(dead_code)]

pub mod smt;
