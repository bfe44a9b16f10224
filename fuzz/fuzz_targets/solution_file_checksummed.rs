#![no_main]
//! Fuzz target `solution_file_checksummed`: see `chopsticks_check::solution_file_checksummed`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| chopsticks_check::solution_file_checksummed(data));
