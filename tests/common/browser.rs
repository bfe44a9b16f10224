//! A real browser for the end-to-end tests: headless Chromium driven over
//! WebDriver (`chromedriver` and the `fantoccini` client), one test at a time.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use serde_json::json;

/// The first `name` on the `PATH`.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// Chromium and chromedriver, which `build.rs` found when the tests were built
/// (the tests that call this are ignored otherwise): a panic, not a skip, when
/// one has gone since.
pub fn browser_programs() -> (PathBuf, PathBuf) {
    let find = |name: &str| {
        on_path(name).unwrap_or_else(|| {
            panic!(
                "{name} was on the PATH when the tests were built and is not now \
                 (apt-get install chromium chromium-driver, then build again)"
            )
        })
    };
    (find("chromium"), find("chromedriver"))
}

/// One browser test at a time: each starts its own `chromedriver` on a port the
/// system said was free, and two started at once could meet on one port (a test
/// then talks to the other's driver, which goes away when that test ends).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// `chromedriver` on a free port, stopped when dropped; holds the lock that keeps
/// the browser tests one at a time.
pub struct Driver {
    child: Child,
    pub port: u16,
    // Dropped after the driver is stopped (`Drop` runs before the fields).
    _turn: std::sync::MutexGuard<'static, ()>,
}

impl Driver {
    pub fn start(program: &Path) -> Driver {
        // A test that failed while holding the lock poisons it; the next may run.
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        for _ in 0..3 {
            let port = TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            let mut child = Command::new(program)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts");
            let deadline = Instant::now() + Duration::from_secs(20);
            while TcpStream::connect(("127.0.0.1", port)).is_err() {
                assert!(Instant::now() < deadline, "chromedriver did not listen");
                std::thread::sleep(Duration::from_millis(50));
            }
            // Something else may have taken the port first: then our driver
            // could not listen and has exited. Try another port.
            std::thread::sleep(Duration::from_millis(200));
            if child.try_wait().ok().flatten().is_none() {
                return Driver {
                    child,
                    port,
                    _turn: turn,
                };
            }
        }
        panic!("chromedriver exited three times after starting (its port taken?)");
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// chromedriver's log of the browser console (`POST /session/{id}/se/log`).
#[derive(Debug)]
pub struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(r#"{"type": "browser"}"#.to_string()),
        )
    }
}

/// A screenshot, checked to be a picture, saved under the tests' target folder.
pub async fn screenshot(client: &Client, name: &str) -> PathBuf {
    let png = client.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "{name}");
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, png).unwrap();
    path
}

/// A WebDriver session of headless Chromium with its own profile, logging the
/// browser console.
pub async fn session(driver: &Driver, chromium: &Path, profile: &Path) -> Client {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_string(),
        json!({
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                "--window-size=1100,1600",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    capabilities.insert("goog:loggingPrefs".to_string(), json!({"browser": "ALL"}));
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a WebDriver session")
}
