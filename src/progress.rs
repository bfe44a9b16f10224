//! Progress bars on stderr: shown only when stderr is a terminal and `--quiet` is off.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar over `total` units, or a hidden one.
pub fn bar(total: u64, what: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({eta})",
        )
        .expect("a valid template"),
    );
    bar.set_message(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A counter without a known end (a spinner with the count), or a hidden one.
pub fn counter(what: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} [{elapsed_precise}] {human_pos}")
            .expect("a valid template"),
    );
    bar.set_message(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
