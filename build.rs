//! One thing only: `cfg(gamesmanuni_dist)` when the environment names a build
//! of the GamesmanUni client (`GAMESMANUNI_DIST`, its `dist` folder), so that
//! `tests/gamesmanuni.rs` runs then and is reported ignored otherwise (in CI
//! too: no client is kept with this project).

fn main() {
    println!("cargo:rustc-check-cfg=cfg(gamesmanuni_dist)");
    println!("cargo:rerun-if-env-changed=GAMESMANUNI_DIST");
    if std::env::var_os("GAMESMANUNI_DIST").is_some_and(|d| !d.is_empty()) {
        println!("cargo:rustc-cfg=gamesmanuni_dist");
    }
}
