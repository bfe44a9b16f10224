//! Refusing work that cannot fit in memory, before starting it.

pub use chopsticks_space::human_bytes;

pub use chopsticks_driver::ensure_fits;
pub use chopsticks_driver::estimate::default_budget;

/// Peak resident memory of this process so far (`VmHWM`), in bytes.
pub fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Resets the peak resident memory (`VmHWM`) to the current resident memory, so the
/// next [`peak_resident_bytes`] measures from here (Linux ≥ 4.0; ignored elsewhere).
pub fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

pub use chopsticks_driver::estimate::parse_size;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size(" 64 kb "), Ok(64 << 10));
        for bad in ["", "M", "12X", "-5M", "0", "1e99G", "1.2.3M"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
