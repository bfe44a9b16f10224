#![no_main]
//! Fuzz target `rules`: see `chopsticks_check::rules`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| chopsticks_check::rules(data));
