//! Which outside programs a test needs are installed, asked when a package is
//! built, so that a test without them is reported by `cargo test` as
//! *ignored*, with the program named, never as passed.
//!
//! The model: a package's build script calls [`Probe::programs`] (every
//! program on `PATH`) or [`Probe::python_venv`] (`python3` that can make a
//! virtual environment) once per need, each under a `cfg` name; the `cfg` is
//! set when the need is met. A test then carries
//! `#[cfg_attr(not(NAME), ignore = "needs …")]`, and, when it runs, may take
//! the programs as given (it fails, not skips, if one went missing since).
//!
//! The probe is asked again when what it found changes: the program's file
//! when found, or, when not, every folder of `PATH` (installing a program adds
//! a name to one of them, which changes the folder's time), and when `PATH`
//! changes. Each reason given to `ignore` starts with `needs` and the program's
//! name, so that CI (`.ci/run`), which installs every such program, fails when
//! its test output shows one of them ignored.
//!
//! This crate is for build scripts: what it finds comes back as the lines a
//! build script prints ([`Probe::lines`]), and the crate prints nothing itself.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The probes of one build script and the lines they ask it to print.
#[derive(Debug, Default)]
pub struct Probe {
    lines: Vec<String>,
}

impl Probe {
    /// No probe asked yet.
    pub fn new() -> Probe {
        Probe {
            lines: vec!["cargo:rerun-if-env-changed=PATH".to_string()],
        }
    }

    /// Sets `cfg` when every one of `programs` is on `PATH`.
    pub fn programs(&mut self, cfg: &str, programs: &[&str]) -> bool {
        self.declare(cfg);
        let mut met = true;
        for program in programs {
            match on_path(program) {
                Some(path) => self.watch(&path),
                None => {
                    met = false;
                    self.watch_path_folders();
                }
            }
        }
        self.conclude(cfg, met)
    }

    /// Sets `cfg` when `python3` is on `PATH` and has the `venv` and
    /// `ensurepip` modules (Debian's `python3-venv`), which a test needs to
    /// make a virtual environment.
    pub fn python_venv(&mut self, cfg: &str) -> bool {
        self.declare(cfg);
        let met = match on_path("python3") {
            None => {
                self.watch_path_folders();
                false
            }
            Some(python) => {
                self.watch(&python);
                // Where the standard library lies: installing `python3-venv`
                // adds `ensurepip` there.
                let stdlib = Command::new(&python)
                    .args([
                        "-c",
                        "import sysconfig; print(sysconfig.get_path('stdlib'))",
                    ])
                    .output()
                    .ok()
                    .filter(|o| o.status.success())
                    .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
                if let Some(stdlib) = stdlib.filter(|s| !s.is_empty()) {
                    self.watch(Path::new(&stdlib));
                }
                Command::new(&python)
                    .args(["-c", "import venv, ensurepip"])
                    .output()
                    .is_ok_and(|o| o.status.success())
            }
        };
        self.conclude(cfg, met)
    }

    /// What the build script prints: `cfg` declarations and settings, and
    /// what to watch.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = self.lines.clone();
        lines.sort();
        lines.dedup();
        lines
    }

    fn declare(&mut self, cfg: &str) {
        self.lines.push(format!("cargo:rustc-check-cfg=cfg({cfg})"));
    }

    fn conclude(&mut self, cfg: &str, met: bool) -> bool {
        if met {
            self.lines.push(format!("cargo:rustc-cfg={cfg}"));
        }
        met
    }

    fn watch(&mut self, path: &Path) {
        self.lines
            .push(format!("cargo:rerun-if-changed={}", path.display()));
    }

    fn watch_path_folders(&mut self) {
        for dir in path_folders() {
            if dir.is_dir() {
                self.watch(&dir);
            }
        }
    }
}

/// The folders of `PATH`, in order.
fn path_folders() -> Vec<PathBuf> {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default()
}

/// Where `program` is on `PATH`, if it is: the first folder of `PATH` that
/// holds a file of that name.
pub fn on_path(program: &str) -> Option<PathBuf> {
    path_folders()
        .into_iter()
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_found_sets_its_cfg_and_is_watched() {
        // `sh` is on every PATH these tests run with.
        let mut probe = Probe::new();
        assert!(probe.programs("have_sh", &["sh"]));
        let lines = probe.lines();
        assert!(
            lines.contains(&"cargo:rustc-cfg=have_sh".to_string()),
            "{lines:?}"
        );
        assert!(lines.contains(&"cargo:rustc-check-cfg=cfg(have_sh)".to_string()));
        let sh = on_path("sh").unwrap();
        assert!(lines.contains(&format!("cargo:rerun-if-changed={}", sh.display())));
    }

    #[test]
    fn a_program_missing_leaves_its_cfg_unset_and_watches_path() {
        let mut probe = Probe::new();
        let name = "chopsticks-no-such-program-anywhere";
        assert!(!probe.programs("have_none", &["sh", name]));
        let lines = probe.lines();
        assert!(
            !lines.iter().any(|l| l == "cargo:rustc-cfg=have_none"),
            "{lines:?}"
        );
        // Declared all the same, so `cfg(not(have_none))` is not a lint.
        assert!(lines.contains(&"cargo:rustc-check-cfg=cfg(have_none)".to_string()));
        for dir in path_folders().iter().filter(|d| d.is_dir()) {
            assert!(lines.contains(&format!("cargo:rerun-if-changed={}", dir.display())));
        }
    }
}
