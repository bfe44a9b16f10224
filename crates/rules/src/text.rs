//! How counts are written in text, for every crate's messages and the command
//! line's output (never in JSON, where numbers stay numbers): digits grouped by
//! thousands with commas (`25,050,025`), nouns with true plurals (`1 puzzle`,
//! `2 puzzles`), byte counts in binary units (`916.6 MiB`).

/// `n` with its digits grouped by thousands: `25,050,025`.
pub fn count(n: impl Into<u128>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The plural ending of a count's noun: "" for 1, "s" otherwise.
pub fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `n` and its noun: `1 puzzle`, `2,000 puzzles` (nouns whose plural adds `s`).
pub fn counted(n: u64, noun: &str) -> String {
    format!("{} {noun}{}", count(n), plural(n))
}

/// `1 ply`, `23 plies`.
pub fn plies(n: u64) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{} plies", count(n))
    }
}

/// Human form of a byte count for messages: `916.6 MiB`, `23.1 GiB`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_and_plurals() {
        assert_eq!(count(0u64), "0");
        assert_eq!(count(999u64), "999");
        assert_eq!(count(1000u64), "1,000");
        assert_eq!(count(25_050_025u64), "25,050,025");
        assert_eq!(count(u64::MAX), "18,446,744,073,709,551,615");
        assert_eq!(count(u128::MAX).len(), 39 + 12);
        assert_eq!(counted(1, "puzzle"), "1 puzzle");
        assert_eq!(counted(0, "puzzle"), "0 puzzles");
        assert_eq!(counted(1234, "position"), "1,234 positions");
        assert_eq!(plies(1), "1 ply");
        assert_eq!(plies(23), "23 plies");
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(3 << 29), "1.5 GiB");
    }
}
