//! The wheel, installed as a user without Rust installs it, and the Python
//! package's own tests (pytest, `crates/python/tests`) run against it.
//!
//! `maturin build --release` (maturin from PyPI, in a tools environment under
//! `target/python-tools`) makes the wheel of `crates/python` into
//! `target/wheels`; `auditwheel show` must give it a `manylinux` tag. A fresh
//! virtual environment (`target/wheel-venv`, made anew each run) installs it
//! with `[test,notebook]` (pytest, numpy, pandas, matplotlib from PyPI), and
//! everything after runs with a `PATH` that holds no `cargo` nor `rustc`:
//! `import chopsticks_toolkit` and its `__version__`, the wheel's `chopsticks`
//! command (`--version`, every subcommand's `--help`, a solve, the page served
//! over a real socket), then pytest, whose comparisons with the command line's
//! `--json` use the wheel's `chopsticks` (`CHOPSTICKS_BIN`). Last, `maturin
//! sdist` makes the source distribution, which `pip install` builds (with
//! Rust, as a source distribution needs) and installs in another fresh
//! environment.
//!
//! Needs `python3` with its `venv` module (Debian's `python3-venv`) and access
//! to PyPI. Without the first, when the tests are built, `cargo test` reports
//! the test ignored, the program named (`build.rs` probes it); `.ci/run`,
//! which installs it, fails on that. Without PyPI the test fails, saying that
//! the index could not be reached (a mirror can be named by `PIP_INDEX_URL`).

use crate::common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `command`, panicking with its output when it fails.
fn run(mut command: Command, what: &str) -> Output {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// What pip says when it cannot reach the package index.
const OFFLINE: [&str; 5] = [
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Could not find a version that satisfies the requirement",
    "No matching distribution found",
    "Network is unreachable",
];

/// `pip install ARGS` with `python`; a panic when it fails, which says so
/// when the package index could not be reached.
fn pip_install(python: &Path, args: &[&str]) {
    pip_install_with(python, args, &[])
}

/// [`pip_install`] with more environment variables.
fn pip_install_with(python: &Path, args: &[&str], env: &[(&str, &Path)]) {
    let out = Command::new(python)
        .envs(env.iter().copied())
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(args)
        .output()
        .expect("pip starts");
    if out.status.success() {
        return;
    }
    let said = String::from_utf8_lossy(&out.stderr);
    let offline = if OFFLINE.iter().any(|m| said.contains(m)) {
        "pip could not reach the package index, which this test needs (PyPI, or a \
         mirror named by PIP_INDEX_URL); "
    } else {
        ""
    };
    panic!(
        "{offline}pip install {args:?} failed ({}):\n{}\n{said}",
        out.status,
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A virtual environment at `dir` (made anew when `fresh`); its `python`.
fn venv(dir: &Path, fresh: bool) -> PathBuf {
    if fresh && dir.exists() {
        std::fs::remove_dir_all(dir).unwrap();
    }
    let python = dir.join("bin").join("python");
    if !python.exists() {
        let mut c = Command::new("python3");
        c.args(["-m", "venv"]).arg(dir);
        run(c, "python3 -m venv");
    }
    python
}

/// `PATH` without any folder that holds `cargo` or `rustc`, the environment's
/// `bin` first.
fn path_without_rust(bin: &Path) -> String {
    let mut dirs = vec![bin.to_path_buf()];
    for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
        if !dir.join("cargo").exists() && !dir.join("rustc").exists() {
            dirs.push(dir);
        }
    }
    std::env::join_paths(dirs)
        .unwrap()
        .into_string()
        .expect("a PATH in UTF-8")
}

#[test]
#[cfg_attr(
    not(python_venv),
    ignore = "needs python3 with its venv module (apt-get install python3-venv)"
)]
fn the_wheel_installs_without_rust_and_passes_the_packages_tests() {
    let root = root();
    let target = root.join("target");
    // The build tools: maturin and auditwheel, kept between runs.
    let tools = venv(&target.join("python-tools"), false);
    pip_install(&tools, &["maturin>=1.7,<2", "auditwheel>=6"]);
    let wheels = target.join("wheels");
    if wheels.exists() {
        for entry in std::fs::read_dir(&wheels).unwrap().flatten() {
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with("chopsticks_toolkit-")
            {
                std::fs::remove_file(entry.path()).unwrap();
            }
        }
    }
    let clock = std::time::Instant::now();
    let mut maturin = Command::new(tools.with_file_name("maturin"));
    maturin
        .args([
            "build",
            "--release",
            "--strip",
            "--quiet",
            "--manifest-path",
        ])
        .arg(root.join("crates/python/Cargo.toml"))
        .arg("--out")
        .arg(&wheels)
        .current_dir(&root);
    run(maturin, "maturin build --release");
    eprintln!("the wheel built in {:.0} s", clock.elapsed().as_secs_f64());
    let wheel = std::fs::read_dir(&wheels)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("chopsticks_toolkit-") && name.ends_with(".whl")
        })
        .expect("maturin wrote a wheel");
    // PyPI's platform check: a manylinux tag.
    let mut show = Command::new(tools.with_file_name("auditwheel"));
    show.arg("show").arg(&wheel);
    let shown = run(show, "auditwheel show");
    let said = String::from_utf8_lossy(&shown.stdout).into_owned()
        + &String::from_utf8_lossy(&shown.stderr);
    assert!(
        said.contains("manylinux_"),
        "auditwheel gives no manylinux tag:\n{said}"
    );

    release_archive_runs_from_an_empty_folder(&wheels);

    // A user's environment: the wheel from a file, no Rust on the PATH.
    let env_dir = target.join("wheel-venv");
    let python = venv(&env_dir, true);
    let bin = env_dir.join("bin");
    let with_extras = format!("{}[test,notebook]", wheel.display());
    pip_install(&python, &[&with_extras]);
    let path = path_without_rust(&bin);
    let plain = |program: &Path| {
        let mut c = Command::new(program);
        c.env("PATH", &path)
            .env_remove("CARGO")
            .env_remove("RUSTC")
            .env_remove("CHOPSTICKS_BIN")
            .current_dir(&target);
        c
    };
    let mut which = Command::new("sh");
    which
        .args(["-c", "command -v cargo rustc"])
        .env("PATH", &path);
    assert!(
        !which.output().unwrap().status.success(),
        "cargo or rustc is still on {path}"
    );

    let mut version = plain(&python);
    version.args([
        "-c",
        "import chopsticks_toolkit as ct; print(ct.__version__, ct.COMMAND_LINE_VERSION)",
    ]);
    let out = run(version, "import chopsticks_toolkit");
    let printed = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        printed.starts_with(&format!(
            "{} {}",
            env!("CARGO_PKG_VERSION"),
            env!("CARGO_PKG_VERSION")
        )),
        "{printed}"
    );

    let chopsticks = bin.join("chopsticks");
    let mut v = plain(&chopsticks);
    v.arg("--version");
    let out = run(v, "chopsticks --version");
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        said.starts_with(&format!(
            "chopsticks {} (commit ",
            env!("CARGO_PKG_VERSION")
        )),
        "{said}"
    );
    // Every subcommand answers, as the binary's.
    let mut help = plain(&chopsticks);
    help.arg("--help");
    let listed = String::from_utf8_lossy(&run(help, "chopsticks --help").stdout).into_owned();
    let commands: Vec<&str> = listed
        .split("Commands:")
        .nth(1)
        .expect("a list of commands")
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 20, "{commands:?}");
    for command in &commands {
        let mut c = plain(&chopsticks);
        c.args([command, "--help"]);
        run(c, &format!("chopsticks {command} --help"));
    }
    let mut solve = plain(&chopsticks);
    solve.args(["solve", "--json", "--quiet"]);
    let out = run(solve, "chopsticks solve");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["start"]["remoteness"], 23, "{v}");
    // An error is the binary's: a message and exit status 1.
    let mut bad = plain(&chopsticks);
    bad.args(["query", "9999"]);
    let out = bad.output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "));

    // The page, over a real socket.
    let mut serve = plain(&chopsticks);
    let mut server = serve
        .args(["serve", "--port", "0", "--memory", "256M"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let address = common::server::announced_address(&mut server);
    let get = |path: &str| {
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    };
    let page = get("/");
    let api = get("/api/v1/chopsticks/standard/positions/?p=1_1111");
    let _ = server.kill();
    let _ = server.wait();
    assert!(
        page.starts_with("HTTP/1.1 200"),
        "{}",
        &page[..page.len().min(300)]
    );
    assert!(
        page.contains("<html") || page.contains("<!DOCTYPE"),
        "no page"
    );
    assert!(api.starts_with("HTTP/1.1 200"), "{api}");

    // The package's own tests, against the wheel's command line.
    let mut pytest = plain(&python);
    pytest
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(root.join("crates").join("python").join("tests"))
        .env("CHOPSTICKS_BIN", &chopsticks);
    run(pytest, "pytest crates/python/tests");

    the_source_distribution_installs_with_pip(&tools, &target);
}

/// `maturin sdist`, then `pip install` of it in a fresh environment: pip
/// builds it with maturin from PyPI and this machine's Rust (in this
/// checkout's target folder, so the registry's crates already built are
/// reused), and the package and its command line work from there.
fn the_source_distribution_installs_with_pip(tools: &Path, target: &Path) {
    let root = root();
    let out = tempfile::tempdir().unwrap();
    let mut sdist = Command::new(tools.with_file_name("maturin"));
    sdist
        .args(["sdist", "--manifest-path"])
        .arg(root.join("crates/python/Cargo.toml"))
        .arg("--out")
        .arg(out.path())
        .current_dir(&root);
    run(sdist, "maturin sdist");
    let archive = std::fs::read_dir(out.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .expect("maturin wrote a source distribution");
    let name = archive.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        name,
        format!("chopsticks_toolkit-{}.tar.gz", env!("CARGO_PKG_VERSION"))
    );
    let env_dir = target.join("sdist-venv");
    let python = venv(&env_dir, true);
    let clock = std::time::Instant::now();
    let archive_arg = archive.display().to_string();
    pip_install_with(&python, &[&archive_arg], &[("CARGO_TARGET_DIR", target)]);
    eprintln!(
        "the source distribution built and installed in {:.0} s",
        clock.elapsed().as_secs_f64()
    );
    let mut check = Command::new(&python);
    check.args([
        "-c",
        "import chopsticks_toolkit as ct; print(ct.__version__, ct.solve('standard').query()['remoteness'])",
    ]);
    let said = String::from_utf8_lossy(&run(check, "import from the sdist").stdout).into_owned();
    assert_eq!(said.trim(), format!("{} 23", env!("CARGO_PKG_VERSION")));
    let mut version = Command::new(env_dir.join("bin").join("chopsticks"));
    version.arg("--version");
    let said = String::from_utf8_lossy(&run(version, "the sdist's chopsticks").stdout).into_owned();
    assert!(
        said.starts_with(&format!(
            "chopsticks {} (commit ",
            env!("CARGO_PKG_VERSION")
        )),
        "{said}"
    );
}

/// `scripts/release` with this build's binary and the wheel: the archive and
/// its sums, unpacked into an empty folder, and the binary run from there.
fn release_archive_runs_from_an_empty_folder(wheels: &Path) {
    let out = tempfile::tempdir().unwrap();
    let mut release = Command::new("bash");
    release
        .arg(root().join("scripts/release"))
        .args(["--binary", env!("CARGO_BIN_EXE_chopsticks"), "--wheels"])
        .arg(wheels)
        .arg("--out")
        .arg(out.path());
    run(release, "scripts/release");
    let version = env!("CARGO_PKG_VERSION");
    let name = format!("chopsticks-{version}-x86_64-unknown-linux-gnu");
    let archive = out.path().join(format!("{name}.tar.gz"));
    assert!(archive.is_file(), "no {}", archive.display());
    // The sums hold.
    let mut check = Command::new("sha256sum");
    check
        .args(["-c", "--quiet", &format!("{name}.tar.gz.sha256")])
        .current_dir(out.path());
    run(check, "sha256sum -c");
    let sums = std::fs::read_to_string(out.path().join("SHA256SUMS")).unwrap();
    assert!(sums.contains(&format!("{name}.tar.gz")), "{sums}");
    assert!(sums.contains("chopsticks_toolkit-"), "{sums}");
    // Nothing but the archive's files is left (no scratch).
    let mut left: Vec<String> = std::fs::read_dir(out.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            "SHA256SUMS".to_string(),
            format!("{name}.tar.gz"),
            format!("{name}.tar.gz.sha256")
        ]
    );
    // Unpacked into an empty folder, the binary runs from there.
    let empty = tempfile::tempdir().unwrap();
    let mut untar = Command::new("tar");
    untar.arg("-xzf").arg(&archive).current_dir(empty.path());
    run(untar, "tar -xzf");
    let unpacked = empty.path().join(&name);
    for file in [
        "chopsticks",
        "README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "doc/man/chopsticks.1",
        "doc/man/chopsticks-solve.1",
        "doc/man/chopsticks-serve.1",
        "complete/chopsticks.bash",
        "complete/_chopsticks",
        "complete/chopsticks.fish",
        "complete/_chopsticks.ps1",
        "complete/chopsticks.elv",
    ] {
        assert!(
            unpacked.join(file).is_file(),
            "{file} is not in the archive"
        );
    }
    let wheel_in = std::fs::read_dir(unpacked.join("wheels"))
        .unwrap()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().ends_with(".whl"));
    assert!(wheel_in, "no wheel in the archive");
    let mut version_cmd = Command::new(unpacked.join("chopsticks"));
    version_cmd.arg("--version").current_dir(empty.path());
    let said = run(version_cmd, "./chopsticks --version");
    let said = String::from_utf8_lossy(&said.stdout).into_owned();
    assert!(
        said.starts_with(&format!("chopsticks {version} (commit ")),
        "{said}"
    );
    let mut solve = Command::new(unpacked.join("chopsticks"));
    solve
        .args(["solve", "--json", "--quiet"])
        .current_dir(empty.path());
    let solved = run(solve, "./chopsticks solve");
    let v: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
    assert_eq!(v["start"]["remoteness"], 23, "{v}");
    // Stripped: no symbol table left.
    let mut nm = Command::new("nm");
    nm.arg(unpacked.join("chopsticks"));
    if let Ok(o) = nm.output() {
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("no symbols"),
            "the binary is not stripped"
        );
    }
}
