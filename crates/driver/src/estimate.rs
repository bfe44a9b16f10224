//! Estimates of memory and time, made before work starts: the memory a job
//! needs against what this machine has, and how long it will take.
//!
//! A solve's time and resident memory depend on its family far more than on
//! its size: a rollover table, nearly all draws, solves thirty times faster
//! per position than a cutoff one and leaves most of its zeroed cells
//! untouched (never resident). So a large solve is estimated from a *pilot*:
//! the same ruleset with fewer hands, at most [`PILOT_POSITIONS`] positions,
//! solved on this machine first (a fraction of a second): its rate of positions
//! a second is the estimate's, and its share of decided positions says how much
//! of the cells will be touched. The rates of the reference machine
//! (docs/PERFORMANCE.md) serve where no pilot runs: small jobs, and rulesets
//! with one hand a player. `chopsticks bench estimates` prints what is
//! announced against what is measured over a sample of every family.

use chopsticks_rules::text::{count as counted_text, human_bytes};
use chopsticks_rules::{PositionIndex, Ruleset};
use chopsticks_solve::{Concept, Solution};
use chopsticks_space::Graph;

use crate::{DriverError, Events};

/// Positions explored per second on the reference machine (2 cores; docs/PERFORMANCE.md:
/// 25 M positions in 2.1 s, the 591 M of 2 × 8 hands in 95 s).
const EXPLORE_RATE: f64 = 6.0e6;
/// Positions solved per second on the reference machine: about 120 M/s on the
/// rollover variants (mostly draws), 6 M/s on cutoff ones with more wins and
/// losses (docs/PERFORMANCE.md); a cautious middle figure.
const SOLVE_RATE: f64 = 8.0e6;
/// States (a position and a seat) solved per second by the solver of three or more
/// players on the reference machine (measured: docs/PERFORMANCE.md).
const MULTI_SOLVE_RATE: f64 = 2.0e6;
/// Children checked per second by `chopsticks check` on one thread of the
/// reference machine (the cost of a check is reading each position's children).
/// Calibrated on the tile check in two passes (docs/PERFORMANCE.md, issue 43):
/// at 1.5 × 10^7 the estimate was 6 to 7 times the measured time of 2 × 8
/// hands at F = 8 (2 s), 2 × 8 hands at F = 10 (28 s in memory, 32–35 s in
/// place) and the 8.5 × 10⁹ positions of 2 × 10 hands (271 s in memory, 325 s
/// in place within 1 GiB).
const CHECK_CHILD_RATE: f64 = 8.0e7;
/// [`CHECK_CHILD_RATE`] for three or more players, checked state by state
/// (measured on 2 × 6 hands at F = 10 before the tile check: 1.5 × 10^7
/// children a second a thread, from the user time).
const MULTI_CHECK_CHILD_RATE: f64 = 1.5e7;
/// Work expected to take longer than this many seconds is announced before it
/// starts.
pub const ANNOUNCE_AFTER_SECONDS: f64 = 10.0;
/// The largest index solved as a pilot (a fraction of a second, a few MiB);
/// for three or more players, a quarter of it in states (positions times
/// the players whose values are kept), their solver being slower.
pub const PILOT_POSITIONS: u64 = 4_100_000;
/// Solves of at most this many positions take the reference rates: they are
/// quick whatever their family, and a pilot would cost a share of them.
const PILOT_ABOVE: u64 = 8_000_000;

/// What a pilot solve measured on this machine: see the module's documentation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pilot {
    /// Positions of the pilot's index.
    pub positions: u64,
    /// Its positions solved a second, on this machine's threads.
    pub positions_per_second: f64,
    /// The share of its positions won or lost (two players; `None` for more).
    pub decided: Option<f64>,
}

/// The same ruleset with fewer hands (the widest players' one fewer at a
/// time) until its index holds at most [`PILOT_POSITIONS`]; `None` when
/// `rules` is that small already or cannot be made so.
pub fn pilot_ruleset(rules: &Ruleset) -> Option<Ruleset> {
    let mut small = rules.clone();
    let (width, limit) = match Concept::of(rules) {
        Concept::TwoPlayer => (1, PILOT_POSITIONS),
        concept => (concept.width(rules.players()) as u64, PILOT_POSITIONS / 4),
    };
    loop {
        let count = PositionIndex::new(&small).ok()?.count();
        if count.saturating_mul(width) <= limit {
            return (small != *rules).then_some(small);
        }
        let widest = small.hands.iter().copied().max()?;
        if widest <= 1 {
            return None;
        }
        for hands in small.hands.iter_mut().filter(|h| **h == widest) {
            *hands -= 1;
        }
        small.validate().ok()?;
    }
}

/// The pilot of `rules` (solved once a process, then remembered), or `None`
/// where the job is small enough for the reference rates or no smaller member
/// of its family exists.
pub fn pilot(rules: &Ruleset) -> Option<Pilot> {
    use std::sync::Mutex;
    static SEEN: Mutex<Vec<(Ruleset, Option<Pilot>)>> = Mutex::new(Vec::new());
    if PositionIndex::new(rules).ok()?.count() <= PILOT_ABOVE {
        return None;
    }
    if let Some((_, seen)) = SEEN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(r, _)| r == rules)
    {
        return *seen;
    }
    let measured = pilot_ruleset(rules).and_then(|small| {
        let graph = Graph::new(&small).ok()?;
        let clock = std::time::Instant::now();
        let solution = Solution::solve(&graph, &|_| {}).ok()?;
        let seconds = clock.elapsed().as_secs_f64().max(1e-4);
        Some(Pilot {
            positions: graph.count(),
            positions_per_second: graph.count() as f64 / seconds,
            decided: decided_share(&solution),
        })
    });
    // A stopped pilot is not remembered: the solve after it stops too.
    if !chopsticks_solve::stop::requested() {
        SEEN.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((rules.clone(), measured));
    }
    measured
}

/// The resident memory a solve of `rules` is expected to reach, of the
/// `bytes` it may take at most ([`solving_bytes`]): a two-player solve's cells
/// start zeroed and untouched, and a table mostly of draws leaves most of them
/// so (measured: four tenths of them resident for a rollover table with one
/// position in a thousand decided, all of them from a quarter decided on; the
/// share from the pilot). The program's own memory on top.
pub fn expected_resident_bytes(rules: &Ruleset, bytes: u64) -> u64 {
    let share = match pilot(rules).and_then(|p| p.decided) {
        Some(decided) => 0.4 + 0.6 * (4.0 * decided).min(1.0),
        None => 1.0,
    };
    (bytes as f64 * share) as u64 + crate::plan::program_bytes()
}

/// Bytes of memory available to this process: what the kernel estimates
/// (`MemAvailable`), less where the process is held to less, by its address
/// space limit (`ulimit -v`, less what it maps already) or its control group's
/// memory limit (`memory.max`, less what the group uses); `None` where none of
/// them can be read. An allocation past such a limit would abort the process
/// (a Python interpreter with it), so it is refused before, with the estimate.
pub fn available_bytes() -> Option<u64> {
    [meminfo_available(), address_space_left(), cgroup_left()]
        .into_iter()
        .flatten()
        .min()
}

fn meminfo_available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The address space this process may still map under `RLIMIT_AS`.
fn address_space_left() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` writes one `rlimit` through a valid pointer to a
    // local of that type, and reads nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmSize:"))?;
    let mapped: u64 = line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024;
    Some(limit.rlim_cur.saturating_sub(mapped))
}

/// What this process's control group (cgroup v2) may still use.
fn cgroup_left() -> Option<u64> {
    let group = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = group.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = std::path::Path::new("/sys/fs/cgroup").join(path.trim_start_matches('/'));
    let max: u64 = std::fs::read_to_string(dir.join("memory.max"))
        .ok()?
        .trim()
        .parse()
        .ok()?; // `max` (no limit) does not parse
    let current: u64 = std::fs::read_to_string(dir.join("memory.current"))
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(max.saturating_sub(current))
}

#[cfg(test)]
mod limits {
    #[test]
    fn what_is_available_is_at_most_what_the_kernel_says() {
        let all = super::available_bytes();
        let kernel = super::meminfo_available();
        if let (Some(all), Some(kernel)) = (all, kernel) {
            assert!(all <= kernel && all > 0);
        }
        // Without a limit on the address space there is nothing to subtract.
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: as in `address_space_left`.
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) }, 0);
        assert_eq!(
            super::address_space_left().is_none(),
            limit.rlim_cur == libc::RLIM_INFINITY
        );
    }
}

/// Reads a memory size: `512M`, `1.5G`, `2GiB`, `800MB`, `4096K` or plain bytes
/// (units are binary: `M` = MiB). For `--memory`, and Python's `memory=`.
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

/// The budget where the machine does not say what it has available.
pub const UNKNOWN_BUDGET: u64 = 1 << 30;

/// The one default memory budget, of every command that takes `--memory`
/// (`solve`, `check`, `serve`) and of Python's `memory=`: three quarters of
/// the memory available to this process when it is asked ([`available_bytes`]:
/// the kernel's estimate, less under an address-space or control-group limit),
/// the rest kept for everything else; [`UNKNOWN_BUDGET`] where that is not
/// known. What a command already holds (its move tables) is counted within
/// it. Documented once, in docs/RELIABILITY.md ("The memory budget").
pub fn default_budget() -> u64 {
    available_bytes().map_or(UNKNOWN_BUDGET, |a| a / 4 * 3)
}

/// Refuses a job that needs `needed` bytes when the machine has fewer available
/// (keeping a margin of a quarter for everything else).
pub fn ensure_fits(needed: u64, what: &str) -> Result<(), DriverError> {
    if let Some(available) = available_bytes() {
        if needed > available / 4 * 3 {
            return Err(DriverError::Refused(format!(
                "{what} needs about {} of memory, more than three quarters of the {} available (the rest is kept for everything else)",
                human_bytes(needed),
                human_bytes(available)
            )));
        }
    }
    Ok(())
}

/// The rates above scaled to this machine's worker threads (measured with two).
fn scaled(rate: f64) -> f64 {
    rate * rayon::current_num_threads().max(1) as f64 / 2.0
}

/// `40 s`, `17 min`, `3.2 h`.
pub fn human_duration(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// Announces work estimated to take longer than [`ANNOUNCE_AFTER_SECONDS`],
/// with its memory and time estimate.
pub fn announce_if_long(what: &str, bytes: u64, seconds: f64, events: &dyn Events) {
    if seconds > ANNOUNCE_AFTER_SECONDS {
        events.announce(&format!(
            "{what}: about {} of memory and roughly {} on this machine (an estimate); \
             progress follows on stderr (--quiet hides it)",
            human_bytes(bytes),
            human_duration(seconds)
        ));
    }
}

/// The time left of work estimated to take `estimate` seconds, `elapsed` into
/// it, for a progress message. Solves do not know their number of levels in
/// advance, so the estimate is a rate's, not the work's; the estimates are held
/// within a factor of two (`chopsticks bench estimates`), so what is shown is
/// the most that may be left, from twice the estimate: `at most about 40 s
/// left (estimated)`, which does not run out before the end; once past it,
/// `longer than estimated`.
pub fn time_left(estimate: f64, elapsed: f64) -> String {
    let left = 2.0 * estimate - elapsed;
    if left >= 1.0 {
        format!("at most about {left:.0} s left (estimated)")
    } else {
        "longer than estimated".to_string()
    }
}

/// The memory an exploration of `count` positions from a start reaches: its
/// three bits a position and the program itself.
pub fn exploring_resident_bytes(count: u64) -> u64 {
    chopsticks_space::explore_bytes(count) + crate::plan::program_bytes()
}

/// Seconds to explore `count` positions from a start.
pub fn exploring_seconds(count: u64) -> f64 {
    count as f64 / scaled(EXPLORE_RATE)
}

/// Seconds to solve `count` positions of a two-player variant and explore
/// them from a start, estimated.
pub fn solving_seconds(count: u64) -> f64 {
    count as f64 / scaled(SOLVE_RATE) + exploring_seconds(count)
}

/// Bytes to solve the `count` positions of `rules` (working cells and the
/// reachable set), in the common case: [`chopsticks_solve::solve_memory`], the
/// estimate the server sizes its cache by too. A remoteness past 126 doubles
/// the cells of more than two players; that is not known in advance, so the
/// estimate is of the common case and the refusal of the certain one.
pub fn solving_bytes(rules: &Ruleset, count: u64) -> u64 {
    chopsticks_solve::solve_memory(rules, count).bytes
}

/// Bytes to solve the values alone of `count` positions of a two-player
/// ruleset with one-byte cells (`chopsticks_solve::compact`): the cells and the
/// two-bit result, and the reachable set as in [`solving_bytes`].
pub fn values_solving_bytes(count: u64) -> u64 {
    chopsticks_solve::compact::values_solve_bytes(count) + count / 4
}

/// Seconds to solve (only) the `count` positions of `rules` in memory,
/// estimated from its [`pilot`] where one runs, else from the rates measured
/// on the reference machine. An exploration after the solve is work of its
/// own, announced by itself when long.
pub fn solve_seconds_estimate(rules: &Ruleset, count: u64) -> f64 {
    match pilot(rules) {
        Some(pilot) => {
            let seconds = count as f64 / pilot.positions_per_second;
            match Concept::of(rules) {
                // A larger two-player table has fewer decided positions a
                // position: no slower, measured (docs/PERFORMANCE.md).
                Concept::TwoPlayer => seconds,
                // Three or more players' states leave the caches sooner: the
                // rate falls by the tenth power of the growth (measured at 64×:
                // 1.5 times slower).
                _ => seconds * (count as f64 / pilot.positions as f64).max(1.0).powf(0.1),
            }
        }
        None => reference_solve_seconds(rules, count),
    }
}

/// [`solve_seconds_estimate`] from the reference machine's rates alone, no
/// pilot (an out-of-core solve, whose memory is held to its budget, runs none).
pub fn reference_solve_seconds(rules: &Ruleset, count: u64) -> f64 {
    match Concept::of(rules) {
        Concept::TwoPlayer => count as f64 / scaled(SOLVE_RATE),
        concept => count as f64 * concept.width(rules.players()) as f64 / scaled(MULTI_SOLVE_RATE),
    }
}

/// Seconds to check every position of a saved solution of `graph`'s ruleset
/// against the rules (`chopsticks check`), from the children of a sample of
/// positions: how long a check takes depends on the branching far more than
/// on the count. `decided` is the share of positions stored as wins or losses
/// ([`decided_share`]): a two-player table is checked in two passes that read
/// all the children of those (and the parents of the losses) but only the first
/// drawn child of a draw (`chopsticks_solve::verify`), so a mostly drawn table
/// checks many times faster than its branching says.
pub fn checking_seconds(graph: &Graph, decided: Option<f64>) -> f64 {
    let rules = graph.rules();
    let width = Concept::of(rules).width(rules.players()) as f64;
    let mean = mean_children(graph);
    let per_position = match decided {
        // Children and parents of the decided positions, two children a draw.
        Some(d) if Concept::of(rules) == Concept::TwoPlayer => 1.5 * d * mean + 2.0 * (1.0 - d),
        _ => mean,
    };
    let rate = if Concept::of(rules) == Concept::TwoPlayer {
        CHECK_CHILD_RATE
    } else {
        MULTI_CHECK_CHILD_RATE
    };
    per_position * graph.count() as f64 * width
        / (rate * rayon::current_num_threads().max(1) as f64)
}

/// The share of positions a two-player table stores as won or lost, from
/// 4,096 positions spread evenly over it; `None` for other concepts or when a
/// sampled position cannot be read (the check itself will say why).
pub fn decided_share(solution: &Solution) -> Option<f64> {
    if solution.concept() != Concept::TwoPlayer {
        return None;
    }
    let count = solution.count();
    let samples = count.min(4096);
    if samples == 0 {
        return None;
    }
    let mut decided = 0u64;
    for k in 0..samples {
        let outcome = solution.table().get(k * (count / samples)).ok()?;
        if outcome.value != chopsticks_solve::Value::Draw {
            decided += 1;
        }
    }
    Some(decided as f64 / samples as f64)
}

/// The mean number of children over 4,096 positions spread evenly over the index.
fn mean_children(graph: &Graph) -> f64 {
    let count = graph.count();
    let samples = count.min(4096);
    if samples == 0 {
        return 0.0;
    }
    let mut children = 0u64;
    for k in 0..samples {
        graph.for_each_child(k * (count / samples), |_| children += 1);
    }
    // Every position costs a visit even without children.
    1.0 + children as f64 / samples as f64
}

/// `solving 1,234 positions`: what a job does, in the words of its messages.
pub(crate) fn positions(verb: &str, count: u64) -> String {
    format!("{verb} {} positions", counted_text(count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_time_left() {
        assert_eq!(human_duration(40.0), "40 s");
        assert_eq!(human_duration(1020.0), "17 min");
        assert_eq!(human_duration(3.2 * 3600.0), "3.2 h");
        assert_eq!(time_left(25.0, 10.0), "at most about 40 s left (estimated)");
        assert_eq!(time_left(25.0, 60.0), "longer than estimated");
    }

    #[test]
    fn a_job_larger_than_any_memory_is_refused_with_its_estimate() {
        if available_bytes().is_none() {
            return;
        }
        let refused = ensure_fits(u64::MAX / 2, "solving everything").unwrap_err();
        let text = refused.to_string();
        assert!(text.starts_with("solving everything needs about"), "{text}");
        assert!(text.contains("available"), "{text}");
        assert!(ensure_fits(1, "nothing").is_ok());
    }

    #[test]
    fn a_pilot_is_a_smaller_member_of_the_same_family() {
        let large = Ruleset {
            hands: vec![8, 7],
            fingers: 10,
            ..chopsticks_rules::Preset::Rollover.ruleset()
        };
        let small = pilot_ruleset(&large).unwrap();
        let count = |r: &Ruleset| PositionIndex::new(r).unwrap().count();
        assert!(count(&small) <= PILOT_POSITIONS, "{small:?}");
        // One fewer hand at a time, the widest first: not smaller than needed.
        assert_eq!(small.hands, vec![5, 5]);
        assert_eq!(
            Ruleset {
                hands: small.hands.clone(),
                ..large.clone()
            },
            small
        );
        // Small jobs run none and keep the reference rates.
        assert_eq!(pilot_ruleset(&Ruleset::default()), None);
        assert_eq!(pilot(&Ruleset::default()), None);
        let measured = pilot(&large).unwrap();
        assert_eq!(measured.positions, count(&small));
        assert!(measured.positions_per_second > 0.0);
        let decided = measured.decided.unwrap();
        assert!((0.0..=1.0).contains(&decided));
        // Remembered: the same pilot, not solved again.
        assert_eq!(pilot(&large), Some(measured));
        // The resident memory expected is between four tenths of the cells
        // and all of them, the program on top.
        let bytes = solving_bytes(&large, count(&large));
        let resident = expected_resident_bytes(&large, bytes);
        assert!(resident >= bytes / 10 * 4 && resident <= bytes + crate::plan::program_bytes());
    }

    #[test]
    fn estimates_grow_with_the_count() {
        let rules = Ruleset::default();
        assert!(solving_bytes(&rules, 2_000) > solving_bytes(&rules, 1_000));
        assert!(values_solving_bytes(1_000) < solving_bytes(&rules, 1_000));
        assert!(solve_seconds_estimate(&rules, 2_000) > solve_seconds_estimate(&rules, 1_000));
        let graph = Graph::new(&rules).unwrap();
        assert!(checking_seconds(&graph, None) > 0.0);
        // A drawn table checks faster than a decided one of the same rules.
        assert!(checking_seconds(&graph, Some(0.05)) < checking_seconds(&graph, Some(0.9)));
    }
}
