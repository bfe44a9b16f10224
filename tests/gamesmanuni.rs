//! The real GamesmanUni client (as GamesCrafters build it, only its API
//! address changed) pointed at this server, in headless Chromium. For each
//! kind of board (GamesCrafters' own for two hands, ours for three hands, three
//! players, teams of four, ten fingers) it checks that the client draws what
//! the API says (every image entity, every text, the side to move, an arrow for
//! each attack and a button for each split), plays a move by clicking an arrow
//! and a split by clicking its button, each leading to the position the API
//! names, and that its "Customize Starting Position" box takes one of our
//! positions. Screenshots are left in the tests' target folder.
//!
//! No client is kept with this project. The test runs when the environment
//! variable `GAMESMANUNI_DIST` names a build of the client (its `dist` folder,
//! built from a fetched snapshot), served by the workplace's `serve-uni` beside
//! the repository (`shared/gamesmanuni/serve-uni --dist DIR`); without it
//! `cargo test` reports the test ignored, in CI too (`build.rs` sets
//! `cfg(gamesmanuni_dist)`). With a client named, it also needs Debian's
//! `chromium` and `chromium-driver` and `python3`, and is reported ignored
//! without them, the programs named (`build.rs` probes them).

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::browser::{browser_programs, on_path, screenshot, session, BrowserLog, Driver};
use common::server::Server;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};

/// `serve-uni`, the script that serves the built client, beside the project.
fn client_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
        .join("gamesmanuni")
        .join("serve-uni")
}

/// The client served on a free port, stopped (and its unpacked copy removed)
/// when dropped.
struct Uni {
    child: Child,
    /// `http://127.0.0.1:PORT/uni`
    base: String,
    _unpacked: tempfile::TempDir,
}

/// The client's build, as `GAMESMANUNI_DIST` names it.
fn client_dist() -> PathBuf {
    PathBuf::from(std::env::var_os("GAMESMANUNI_DIST").unwrap_or_default())
}

impl Uni {
    fn start(api: &str) -> Uni {
        let unpacked = tempfile::tempdir().unwrap();
        let mut child = Command::new("python3")
            .arg(client_script())
            .arg("--dist")
            .arg(client_dist())
            .args(["--api", api, "--port", "0"])
            .env("TMPDIR", unpacked.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("python3 runs serve-uni");
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        let base = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        Uni {
            child,
            base,
            _unpacked: unpacked,
        }
    }
}

impl Drop for Uni {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the client shows: its board (`#image-autogui`: the side to move, the
/// image entities, the texts, the arrows), the moves listed beside it, and the
/// current position (the "Customize Starting Position" tab's box).
const SHOWN: &str = r#"
const svg = document.querySelector('#image-autogui');
const current = document.querySelector('#app-game-menu-currPos-display');
return {
  drawn: !!svg,
  turn: svg ? svg.getAttribute('data-turn') : null,
  images: svg ? svg.querySelectorAll('image.entity').length : 0,
  texts: svg ? Array.from(svg.querySelectorAll('text.entity')).map(t => t.textContent.trim()) : [],
  arrows: svg ? svg.querySelectorAll('path.iag-button-arrow').length : 0,
  tokens: svg ? svg.querySelectorAll('.iag-button-point').length : 0,
  listed: Array.from(document.querySelectorAll('#listed-moves .move')).map(m => m.textContent.trim()),
  position: current ? current.value : null,
};
"#;

/// What the client should show for an answer of `positions/?p=`.
fn expected(answer: &Value) -> Value {
    let autogui = answer["autoguiPosition"].as_str().unwrap();
    let mut pieces = autogui[2..].split('~');
    let board = pieces.next().unwrap();
    let moves = answer["moves"].as_array().unwrap();
    let key = |m: &Value| m["autoguiMove"].as_str().unwrap().to_string();
    json!({
        "drawn": true,
        "turn": &autogui[..1],
        "images": board.chars().filter(|c| !matches!(c, '-' | '.')).count(),
        "texts": pieces.collect::<Vec<_>>(),
        "arrows": moves.iter().filter(|m| key(m).starts_with("M_")).count(),
        "tokens": moves.iter().filter(|m| key(m).starts_with("A_")).count(),
        "listed": moves
            .iter()
            .filter(|m| !key(m).starts_with("M_") && !key(m).starts_with("A_"))
            .map(|m| m["move"].clone())
            .collect::<Vec<_>>(),
        "position": answer["position"],
    })
}

/// Waits until the client shows what the API says of the position it shows;
/// returns the API's answer for it.
async fn shows_the_api(client: &Client, server: &Server, variant: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = Value::Null;
    loop {
        let shown = client.execute(SHOWN, vec![]).await.unwrap();
        if let Some(position) = shown["position"].as_str().filter(|p| !p.is_empty()) {
            let (status, answer) = server.get(&format!(
                "/api/v1/chopsticks/{variant}/positions/?p={position}"
            ));
            assert_eq!(status, 200, "{answer}");
            let want = expected(&answer);
            if shown == want {
                return answer;
            }
            last = json!({"shown": shown, "expected": want});
        }
        assert!(
            Instant::now() < deadline,
            "{variant}: the client does not show what the API says: {last}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Waits until the position shown is no longer `here`; returns it.
async fn moved_from(client: &Client, here: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let shown = client.execute(SHOWN, vec![]).await.unwrap();
        let now = shown["position"].as_str().unwrap_or_default().to_string();
        if !now.is_empty() && now != here {
            return now;
        }
        assert!(Instant::now() < deadline, "no move was played from {here}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Clicks the first element matching `css` (SVG elements through a dispatched
/// click, as WebDriver's own may refuse an SVG path).
async fn click(client: &Client, css: &str) {
    let done = client
        .execute(
            "const e = document.querySelector(arguments[0]); if (!e) return false; \
             e.dispatchEvent(new MouseEvent('click', {bubbles: true})); return true;",
            vec![json!(css)],
        )
        .await
        .unwrap();
    assert_eq!(done, true, "nothing to click: {css}");
}

/// Plays the move the click of `css` makes and checks it led to a child of `from`
/// by a move of one of the kinds `kinds` (`detail.type`, as the API says);
/// returns the API's answer for the child.
async fn play(
    client: &Client,
    server: &Server,
    (variant, from): (&str, &Value),
    css: &str,
    kinds: &[&str],
) -> Value {
    let here = from["position"].as_str().unwrap();
    click(client, css).await;
    let now = moved_from(client, here).await;
    let answer = shows_the_api(client, server, variant).await;
    let played = from["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["position"] == now.as_str())
        .unwrap_or_else(|| panic!("{variant}: {now} is no child of {here}"));
    let kind = played["detail"]["type"].as_str().unwrap();
    assert!(kinds.contains(&kind), "{variant}: {played}");
    answer
}

#[test]
#[cfg_attr(
    not(gamesmanuni_dist),
    ignore = "needs a build of the GamesmanUni client: set GAMESMANUNI_DIST to its dist folder"
)]
#[cfg_attr(
    all(gamesmanuni_dist, not(all(browser, python3))),
    ignore = "needs chromium, chromium-driver and python3 (apt-get install chromium chromium-driver python3)"
)]
fn gamesmanuni_draws_and_plays_every_kind_of_board() {
    let script = client_script();
    let (chromium, chromedriver) = browser_programs();
    assert!(
        on_path("python3").is_some(),
        "python3 was on the PATH when the tests were built and is not now"
    );
    // A client was named: what serves it must be there.
    assert!(
        script.is_file() && client_dist().is_dir(),
        "GAMESMANUNI_DIST names {}, served by {}: one of them is missing",
        client_dist().display(),
        script.display()
    );
    let server = Server::start();
    let uni = Uni::start(&format!("http://{}/api/v1/", server.address));
    let driver = Driver::start(&chromedriver);
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session(&driver, &chromium, profile.path()).await;
        // Each board: a variant, a position with a split to play (seated id).
        for (variant, with_split) in [
            ("standard", "1_1311"),
            ("standard.h3", "2_123113"),
            ("standard.p3", "2_12-13-11"),
            ("standard.p4.teams", "3_11-12-13-11"),
            ("standard.f10", "2_1516"),
        ] {
            client
                .goto(&format!("{}/games/chopsticks/variants/{variant}", uni.base))
                .await
                .unwrap();
            let start = shows_the_api(&client, &server, variant).await;
            assert_eq!(start["autoguiPosition"].as_str().unwrap()[..2], *"1_");
            screenshot(&client, &format!("gamesmanuni-{variant}.png")).await;
            // An attack, by its arrow.
            let arrow = "path.iag-button-arrow";
            let after = play(
                &client,
                &server,
                (variant, &start),
                arrow,
                &["tap", "self-tap"],
            )
            .await;
            assert_ne!(after["autoguiPosition"], start["autoguiPosition"]);

            // A start position of ours, typed into the client's box.
            let tab = client
                .find(Locator::XPath(
                    "//button[contains(., 'Customize Starting Position')]",
                ))
                .await
                .unwrap();
            tab.click().await.unwrap();
            let input = client
                .find(Locator::Css("#app-game-menu-customPos-input-input"))
                .await
                .unwrap();
            input.send_keys(with_split).await.unwrap();
            client
                .find(Locator::Css("#app-game-menu-customPos-input-submit"))
                .await
                .unwrap()
                .click()
                .await
                .unwrap();
            moved_from(&client, after["position"].as_str().unwrap()).await;
            let custom = shows_the_api(&client, &server, variant).await;
            assert_eq!(custom["position"], with_split, "{variant}");
            let start_box = client
                .find(Locator::Css("#app-game-menu-customPos-currStartPos"))
                .await
                .unwrap()
                .prop("value")
                .await
                .unwrap();
            assert_eq!(start_box.as_deref(), Some(with_split));
            screenshot(&client, &format!("gamesmanuni-{variant}-{with_split}.png")).await;
            // A split: GamesCrafters' digit token on their board, a listed button
            // on ours.
            let split = if variant == "standard" {
                "#image-autogui .iag-button-point"
            } else {
                "#listed-moves .move"
            };
            play(&client, &server, (variant, &custom), split, &["split"]).await;
        }
        // The client asked this server for nothing that failed.
        let log = client.issue_cmd(BrowserLog).await.unwrap();
        let api = format!("http://{}/", server.address);
        for entry in log.as_array().unwrap() {
            let message = entry["message"].as_str().unwrap_or_default();
            assert!(
                !(entry["level"] == "SEVERE" && message.contains(&api)),
                "the client logged a failure of the API: {message}"
            );
        }
        client.close().await.unwrap();
    });
}
