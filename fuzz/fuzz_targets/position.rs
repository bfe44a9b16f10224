#![no_main]
//! Fuzz target `position`: see `chopsticks_check::position`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| chopsticks_check::position(data));
