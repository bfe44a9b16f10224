//! Refusing work that cannot fit in memory, before starting it.

pub use chopsticks_space::human_bytes;

pub use chopsticks_driver::{available_bytes, ensure_fits};

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

/// Reads a memory size: `512M`, `1.5G`, `2GiB`, `800MB`, `4096K` or plain bytes
/// (units are binary: `M` = MiB). For `--memory`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size (for example 512M, 2G or 1.5GiB)"))?;
    let scale: u64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        "T" | "TB" | "TIB" => 1 << 40,
        other => {
            return Err(format!(
                "unknown unit `{other}` in `{text}` (use K, M, G or T)"
            ))
        }
    };
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 / 2.0 {
        return Err(format!("`{text}` is not a usable amount of memory"));
    }
    Ok(bytes as u64)
}

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
