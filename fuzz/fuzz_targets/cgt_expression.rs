#![no_main]
//! Fuzz target `cgt_expression`: see `chopsticks_check::cgt_expression`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| chopsticks_check::cgt_expression(data));
