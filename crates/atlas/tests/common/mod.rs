//! Helpers shared by the proof tests (modules of the one test binary, each
//! using a part of them).
#![allow(dead_code)]

pub mod smt;
