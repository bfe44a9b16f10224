#![no_main]
//! Fuzz target `game_record`: see `chopsticks_check::game_record`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| chopsticks_check::game_record(data));
