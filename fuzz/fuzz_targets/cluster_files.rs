#![no_main]
//! Fuzz target `cluster_files`: see `chopsticks_check::cluster_files`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| chopsticks_check::cluster_files(data));
