#![no_main]
//! Fuzz target `loopy_expression`: see `chopsticks_check::loopy_expression`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| chopsticks_check::loopy_expression(data));
