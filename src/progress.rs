//! Progress on stderr, and announcements of large work.
//!
//! - On a terminal: an animated bar (or a spinner with a count when the end is not
//!   known).
//! - Not on a terminal (piped, logged): nothing for work that ends within
//!   [`LINE_EVERY`]; longer work gets one plain line every [`LINE_EVERY`] with the
//!   elapsed time, the message and the count, so a log shows that it is moving.
//! - With `--quiet`: nothing.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often a plain progress line is printed when stderr is not a terminal.
pub const LINE_EVERY: Duration = Duration::from_secs(5);

/// A progress bar over `total` units.
pub fn bar(total: u64, what: &str, quiet: bool) -> ProgressBar {
    make(Some(total), what, quiet)
}

/// A counter without a known end (a spinner with the count).
pub fn counter(what: &str, quiet: bool) -> ProgressBar {
    make(None, what, quiet)
}

fn make(total: Option<u64>, what: &str, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    if !std::io::stderr().is_terminal() {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        bar.set_message(what.to_string());
        report_lines(&bar);
        return bar;
    }
    let bar = match total {
        Some(total) => {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} {msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} ({eta})",
                )
                .expect("a valid template"),
            );
            bar
        }
        None => {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg} [{elapsed_precise}] {human_pos}")
                    .expect("a valid template"),
            );
            bar
        }
    };
    bar.set_message(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Sets `bar`'s position from `read` five times a second until the bar is
/// finished or dropped (for work counted elsewhere, such as steps of a search).
pub fn follow(bar: &ProgressBar, read: impl Fn() -> u64 + Send + 'static) {
    let weak = bar.downgrade();
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(200));
        let Some(bar) = weak.upgrade() else { return };
        if bar.is_finished() {
            return;
        }
        bar.set_position(read());
    });
}

/// Prints a line about `bar` every [`LINE_EVERY`] until it is finished or dropped.
/// The reporting thread holds only a weak reference between lines.
fn report_lines(bar: &ProgressBar) {
    let weak = bar.downgrade();
    std::thread::spawn(move || loop {
        std::thread::sleep(LINE_EVERY);
        let Some(bar) = weak.upgrade() else { return };
        if bar.is_finished() {
            return;
        }
        eprintln!("{}", line(&bar));
    });
}

/// `[00:01:05] exploring, depth 12: 1234567 of 2562890625 (0.0%)`.
fn line(bar: &ProgressBar) -> String {
    let seconds = bar.elapsed().as_secs();
    let clock = format!(
        "[{:02}:{:02}:{:02}]",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
    let done = bar.position();
    match bar.length() {
        Some(total) if total > 0 => format!(
            "{clock} {}: {} of {} ({:.1}%)",
            bar.message(),
            crate::text::count(done),
            crate::text::count(total),
            100.0 * done as f64 / total as f64
        ),
        _ => format!("{clock} {}: {}", bar.message(), crate::text::count(done)),
    }
}

/// Says on stderr, before large work starts, what it will take (unless `quiet`).
pub fn announce(text: &str, quiet: bool) {
    if !quiet {
        eprintln!("{text}");
    }
}

/// The library's [`chopsticks_driver::Events`] shown on stderr: announcements
/// as lines, work as a bar (or a counter when its end is not known), warnings
/// as lines above the bar; nothing with `quiet`.
pub struct Shown {
    quiet: bool,
    bar: std::sync::Mutex<Option<ProgressBar>>,
}

impl Shown {
    pub fn new(quiet: bool) -> Shown {
        Shown {
            quiet,
            bar: std::sync::Mutex::new(None),
        }
    }

    fn bar(&self) -> std::sync::MutexGuard<'_, Option<ProgressBar>> {
        self.bar.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl chopsticks_driver::Events for Shown {
    fn announce(&self, text: &str) {
        announce(text, self.quiet);
    }

    fn begin(&self, what: &str, total: Option<u64>) {
        *self.bar() = Some(make(total, what, self.quiet));
    }

    fn advance(&self, done: u64, message: &str) {
        if let Some(bar) = &*self.bar() {
            bar.set_position(done);
            bar.set_message(message.to_string());
        }
    }

    fn end(&self) {
        if let Some(bar) = self.bar().take() {
            bar.finish_and_clear();
        }
    }

    fn warn(&self, line: &str) {
        match &*self.bar() {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }
}
