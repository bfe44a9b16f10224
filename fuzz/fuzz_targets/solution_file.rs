#![no_main]
//! Fuzz target `solution_file`: see `chopsticks_check::solution_file`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| chopsticks_check::solution_file(data));
