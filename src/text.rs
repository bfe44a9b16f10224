//! How counts are written in text: `chopsticks_rules::text`, the one place for
//! every crate.

pub use chopsticks_rules::text::{count, counted, plies, plural};
