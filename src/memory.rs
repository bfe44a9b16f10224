//! Refusing work that cannot fit in memory, before starting it.

use anyhow::{bail, Result};
pub use chopsticks_space::human_bytes;

/// Bytes of memory available to this process, as the kernel estimates it
/// (`MemAvailable`), or `None` where that cannot be read.
pub fn available_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

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

/// Refuses a job that needs `needed` bytes when the machine has fewer available
/// (keeping a margin of a quarter for everything else).
pub fn ensure_fits(needed: u64, what: &str) -> Result<()> {
    if let Some(available) = available_bytes() {
        if needed > available / 4 * 3 {
            bail!(
                "{what} needs about {} of memory, more than three quarters of the {} available (the rest is kept for everything else)",
                human_bytes(needed),
                human_bytes(available)
            );
        }
    }
    Ok(())
}
