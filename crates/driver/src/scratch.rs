//! Where a solve's scratch files go.
//!
//! A solve that saves its solution to `FILE` keeps its work beside it:
//! `FILE.work` (the checkpoints and parts of the one-machine solvers),
//! `FILE.cluster` (the cells and checkpoints of worker processes) and
//! `FILE.explore` (the snapshots of an exploration on disk). A solve started
//! again with the same file resumes from them; each is removed when its work
//! has ended.
//!
//! A solve that saves nothing works in the temporary directory under names
//! with the variant id and this process's id (`chopsticks-VARIANT-PID.work`,
//! `.cluster`, `.explore`, and the solution `chopsticks-VARIANT-PID.sol`, read
//! in place and removed at once). Nothing there is resumed from, so before
//! naming its own, a solve removes what killed solves left
//! ([`remove_scratch_of_dead_runs`]).

use std::path::{Path, PathBuf};

use chopsticks_rules::Ruleset;

/// The kinds of scratch directory, by the suffix of their names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Checkpoints and parts of the one-machine solvers (`.work`).
    Work,
    /// Cells and checkpoints of worker processes (`.cluster`).
    Cluster,
    /// Snapshots of an exploration on disk (`.explore`).
    Explore,
}

impl Kind {
    fn suffix(self) -> &'static str {
        match self {
            Kind::Work => "work",
            Kind::Cluster => "cluster",
            Kind::Explore => "explore",
        }
    }
}

/// Where one solve writes: its scratch directory and its solution file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scratch {
    /// The scratch directory.
    pub dir: PathBuf,
    /// The solution file the solve writes: the file to save, or a temporary
    /// one.
    pub out: PathBuf,
    /// Whether `out` is temporary (nothing is saved, so nothing resumes): it is
    /// removed as soon as it is opened. The directory of worker processes is
    /// removed when their solve fails; another kind is left to the sweep of a
    /// later solve ([`remove_scratch_of_dead_runs`]).
    pub temporary: bool,
}

impl Scratch {
    /// The scratch of a solve of `rules` saving to `save` (or to nothing).
    /// Without `save`, what killed solves left in the temporary directory is
    /// removed first.
    pub fn of(rules: &Ruleset, save: Option<&Path>, kind: Kind) -> Scratch {
        match save {
            Some(path) => Scratch {
                dir: PathBuf::from(format!("{}.{}", path.display(), kind.suffix())),
                out: path.to_path_buf(),
                temporary: false,
            },
            None => {
                let tmp = std::env::temp_dir();
                remove_scratch_of_dead_runs(&tmp);
                let id = format!("chopsticks-{}-{}", rules.variant_id(), std::process::id());
                Scratch {
                    dir: tmp.join(format!("{id}.{}", kind.suffix())),
                    out: tmp.join(format!("{id}.sol")),
                    temporary: true,
                }
            }
        }
    }
}

/// Removes what solves without a saved file killed outright (`kill -9`, a
/// power cut) left in the temporary directory `tmp`, which kept nothing to
/// resume from: work and cluster directories `chopsticks-VARIANT-PID.work`,
/// `.cluster` whose lock no process holds (a live solve holds its lock),
/// exploration directories `.explore` and solution files `.sol` whose process
/// `PID` no longer exists. Only this user's entries of that form, never a link.
pub fn remove_scratch_of_dead_runs(tmp: &Path) {
    use std::os::unix::fs::MetadataExt;
    let Ok(me) = std::fs::metadata("/proc/self").map(|m| m.uid()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(stem) = name.to_str().and_then(|n| n.strip_prefix("chopsticks-")) else {
            continue;
        };
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if meta.uid() != me {
            continue;
        }
        let pid = |rest: &str| rest.rsplit('-').next().and_then(|p| p.parse::<u32>().ok());
        let locked = stem
            .strip_suffix(".work")
            .or_else(|| stem.strip_suffix(".cluster"));
        if let Some(rest) = locked {
            if pid(rest).is_none() || !meta.is_dir() {
                continue;
            }
            let unused = std::fs::File::open(entry.path().join("lock"))
                .is_ok_and(|lock| lock.try_lock().is_ok());
            if unused {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        } else if let Some(rest) = stem.strip_suffix(".explore") {
            if meta.is_dir() && pid(rest).is_some_and(chopsticks_files::process_is_gone) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        } else if let Some(rest) = stem.strip_suffix(".sol") {
            if meta.is_file() && pid(rest).is_some_and(chopsticks_files::process_is_gone) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_beside_the_saved_file() {
        let rules = Ruleset::default();
        let s = Scratch::of(&rules, Some(Path::new("/data/w.sol")), Kind::Cluster);
        assert_eq!(s.dir, PathBuf::from("/data/w.sol.cluster"));
        assert_eq!(s.out, PathBuf::from("/data/w.sol"));
        assert!(!s.temporary);
        let s = Scratch::of(&rules, None, Kind::Work);
        let pid = std::process::id();
        assert!(s.temporary);
        assert!(s.dir.ends_with(format!("chopsticks-standard-{pid}.work")));
        assert!(s.out.ends_with(format!("chopsticks-standard-{pid}.sol")));
    }

    #[test]
    fn only_what_dead_runs_left_is_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path();
        // A process id no process has (beyond the kernel's largest).
        let dead = 4_194_305u32;
        let live = std::process::id();
        for dir in [
            format!("chopsticks-standard-{dead}.explore"),
            format!("chopsticks-standard-{live}.explore"),
            format!("chopsticks-standard-{dead}.work"),
            format!("chopsticks-standard-{live}.cluster"),
            "chopsticks-notes".to_string(),
        ] {
            std::fs::create_dir(t.join(dir)).unwrap();
        }
        std::fs::write(t.join(format!("chopsticks-standard-{dead}.sol")), b"x").unwrap();
        std::fs::write(t.join(format!("chopsticks-standard-{live}.sol")), b"x").unwrap();
        // The live cluster directory's lock is held, as a running solve holds it.
        let lock =
            std::fs::File::create(t.join(format!("chopsticks-standard-{live}.cluster/lock")))
                .unwrap();
        lock.try_lock().unwrap();
        std::fs::File::create(t.join(format!("chopsticks-standard-{dead}.work/lock"))).unwrap();
        remove_scratch_of_dead_runs(t);
        let mut left: Vec<String> = std::fs::read_dir(t)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            vec![
                "chopsticks-notes".to_string(),
                format!("chopsticks-standard-{live}.cluster"),
                format!("chopsticks-standard-{live}.explore"),
                format!("chopsticks-standard-{live}.sol"),
            ]
        );
    }
}
