//! The page in a real browser: headless Chromium, driven over WebDriver
//! (`chromedriver` and the `fantoccini` client), loads the page from a server this
//! test starts, plays a whole game against the perfect computer by clicking hands and
//! moves, checks after every move that the value text and the colour of every listed
//! move are the API's, uses undo and redo (buttons and keys), changes the variant
//! through the rule picker, opens a link to a Simple Chopsticks position to see its
//! canonical value, checks that a phone-sized window needs no sideways scrolling and
//! that the browser logged no error, and takes screenshots. The rule picker names the
//! variant played (four players are not "2 players"), and a game that comes back to a
//! position a third time ends as a draw (a loaded record, three computers).
//!
//! Needs Debian's `chromium` and `chromium-driver`. Without them, when the tests are
//! built, `cargo test` reports each test here ignored, the programs named
//! (`build.rs` probes them); `.ci/run`, which installs them, fails on that.

use crate::common;

use std::time::{Duration, Instant};

use common::browser::{browser_programs, screenshot, session, BrowserLog, Driver};
use common::server::{encode, Server};
use fantoccini::{Client, Locator};
use serde_json::{json, Value};

/// Chromium's media emulation through chromedriver's DevTools passthrough
/// (`POST /session/{id}/goog/cdp/execute`): `print` renders the page as printed.
#[derive(Debug)]
struct EmulateMedia(&'static str);

impl fantoccini::wd::WebDriverCompatibleCommand for EmulateMedia {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(
                json!({"cmd": "Emulation.setEmulatedMedia", "params": {"media": self.0}})
                    .to_string(),
            ),
        )
    }
}

/// Polls `check` every 50 ms until it gives a value, for at most 20 seconds.
async fn until<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn text(client: &Client, id: &str) -> String {
    match client.find(Locator::Id(id)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

async fn input_value(client: &Client, id: &str) -> String {
    let e = client.find(Locator::Id(id)).await.unwrap();
    e.prop("value").await.unwrap().unwrap_or_default()
}

/// Types a record into the record box, as a person would: the box has the
/// focus while it is typed in, so a redraw of the page (which refills the
/// box when it is not being edited) cannot replace it before it is loaded.
async fn type_record(client: &Client, record: &str) {
    let box_ = client.find(Locator::Id("record-text")).await.unwrap();
    box_.clear().await.unwrap();
    box_.send_keys(record).await.unwrap();
    let typed = input_value(client, "record-text").await;
    assert_eq!(typed, record, "the record box after typing");
}

/// Clicks the element `css` selects; an element not yet interactable (still
/// being laid out on a loaded machine) is tried again for up to 5 seconds.
async fn click(client: &Client, css: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let element = client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"));
        match element.click().await {
            Ok(_) => return,
            Err(e) if e.to_string().contains("not interactable") && Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("clicking {css}: {e}"),
        }
    }
}

/// Waits until the computer has answered and it is the human's turn, or the game is
/// over; returns the status text.
async fn settled(client: &Client) -> String {
    until("the human's turn", || async {
        let s = text(client, "status").await;
        let ready = (s.starts_with("Player 1 (you) to move") && !s.contains("thinking"))
            || s.starts_with("Game over");
        ready.then_some(s)
    })
    .await
}

/// Waits until the page has left the position `here`.
async fn moved_from(client: &Client, here: &str) {
    until("the move to be played", || async {
        (input_value(client, "position-input").await != here).then_some(())
    })
    .await;
}

fn words(value: &str, remoteness: i64) -> String {
    if value == "draw" {
        "draw".to_string()
    } else {
        format!("{value} in {remoteness}")
    }
}

/// The page shows what the API says of the position in its position box: the value
/// words and colour of the status, and every move in the API's order with the colour
/// of its value.
async fn check_against_api(client: &Client, server: &Server, variant: &str) -> Value {
    let p = input_value(client, "position-input").await;
    let (status, data) = server.get(&format!(
        "/api/v1/chopsticks/{variant}/positions/?p={}",
        encode(&p)
    ));
    assert_eq!(status, 200, "{p}: {data}");
    let shown = text(client, "status").await;
    if data["terminal"] == true {
        assert!(shown.starts_with("Game over"), "{p}: {shown}");
    } else {
        let expected = words(
            data["positionValue"].as_str().unwrap(),
            data["remoteness"].as_i64().unwrap(),
        );
        assert!(
            shown.contains(&expected),
            "{p}: `{shown}` lacks `{expected}`"
        );
        let class = client
            .find(Locator::Id("status"))
            .await
            .unwrap()
            .attr("class")
            .await
            .unwrap()
            .unwrap_or_default();
        assert!(
            class.contains(data["positionValue"].as_str().unwrap()),
            "{p}: status class `{class}`"
        );
    }
    let buttons = client
        .find_all(Locator::Css("#moves button.move"))
        .await
        .unwrap();
    let moves = data["moves"].as_array().unwrap();
    assert_eq!(buttons.len(), moves.len(), "{p}");
    for (button, m) in buttons.iter().zip(moves) {
        let name = button.attr("data-move").await.unwrap().unwrap_or_default();
        let class = button.attr("class").await.unwrap().unwrap_or_default();
        let value = m["moveValue"].as_str().unwrap();
        assert_eq!(name, m["move"].as_str().unwrap(), "{p}: move order");
        assert!(
            class.split(' ').any(|c| c == value),
            "{p}: `{name}` is {value} but coloured `{class}`"
        );
        let label = button.text().await.unwrap();
        let remoteness = m["remoteness"].as_i64().unwrap() + 1;
        assert!(
            label.ends_with(&words(value, remoteness)),
            "{p}: `{label}` for a move that is {value}"
        );
    }
    data
}

/// Plays the best move as Player 1: attacks by clicking the two hands on the board,
/// anything else by clicking it in the list.
async fn play_best(client: &Client, best: &Value) {
    let detail = &best["detail"];
    if detail["type"] == "tap" {
        let from = detail["from"].as_u64().unwrap();
        let to = detail["to"].as_u64().unwrap();
        click(
            client,
            &format!("g.hand[data-player='0'][data-value='{from}']"),
        )
        .await;
        click(
            client,
            &format!("g.hand[data-player='1'][data-value='{to}']"),
        )
        .await;
    } else {
        let name = best["move"].as_str().unwrap();
        click(client, &format!("#moves button.move[data-move='{name}']")).await;
    }
}

#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver)"
)]
fn play_a_whole_game_in_a_real_browser() {
    let (chromium, chromedriver) = browser_programs();
    let server = Server::start();
    let driver = Driver::start(&chromedriver);
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session(&driver, &chromium, profile.path()).await;
        let base = format!("http://{}", server.address);
        client.goto(&format!("{base}/")).await.unwrap();
        let status = settled(&client).await;
        assert!(status.contains("win in 23"), "{status}");

        // A whole game as Player 1 against the perfect computer, best moves only.
        let mut faced = Vec::new();
        loop {
            let status = settled(&client).await;
            let data = check_against_api(&client, &server, "standard").await;
            if status.starts_with("Game over") {
                assert_eq!(status, "Game over: Player 1 wins.");
                break;
            }
            assert!(faced.len() < 40, "the game should end within 23 moves");
            if faced.len() == 5 {
                screenshot(&client, "browser-mid-game.png").await;
            }
            let here = data["position"].as_str().unwrap().to_string();
            faced.push(here.clone());
            play_best(&client, &data["moves"][0]).await;
            moved_from(&client, &here).await;
        }
        assert_eq!(faced.len(), 12, "win in 23 plies is 12 moves of Player 1");
        let end = screenshot(&client, "browser-game-over.png").await;

        // Undo goes back to Player 1's last decision; redo (the `r` key) comes back.
        click(&client, "#undo").await;
        let status = settled(&client).await;
        assert!(status.contains("win in 1"), "{status}");
        assert_eq!(
            input_value(&client, "position-input").await,
            *faced.last().unwrap()
        );
        check_against_api(&client, &server, "standard").await;
        client
            .find(Locator::Css("body"))
            .await
            .unwrap()
            .send_keys("r")
            .await
            .unwrap();
        assert_eq!(settled(&client).await, "Game over: Player 1 wins.");
        // Undo twice more, then a new game.
        click(&client, "#undo").await;
        click(&client, "#undo").await;
        let status = settled(&client).await;
        assert!(status.contains("win in 3"), "{status}");
        assert_eq!(
            input_value(&client, "position-input").await,
            faced[faced.len() - 2]
        );
        click(&client, "#new-game").await;
        assert!(settled(&client).await.contains("win in 23"));

        // The link in the address bar reproduces the position.
        let url = client.current_url().await.unwrap();
        assert!(url.as_str().contains("variant=standard"), "{url}");
        assert!(url.as_str().contains("p=1_1111"), "{url}");

        // Another variant through the rule picker: rollover.
        click(&client, "#preset option[value='rollover']").await;
        until("the picker to show rollover", || async {
            (input_value(&client, "overflow").await == "rollover").then_some(())
        })
        .await;
        click(&client, "#rules-form button").await;
        until("the rollover variant", || async {
            text(&client, "variant-line")
                .await
                .ends_with("variant rollover")
                .then_some(())
        })
        .await;
        settled(&client).await;
        check_against_api(&client, &server, "rollover").await;
        // One move there, checked too.
        let data = check_against_api(&client, &server, "rollover").await;
        play_best(&client, &data["moves"][0]).await;
        moved_from(&client, data["position"].as_str().unwrap()).await;
        settled(&client).await;
        check_against_api(&client, &server, "rollover").await;

        // A variant too large for the server's memory budget is refused with the
        // estimate, and the page stays where it was.
        for (id, value) in [("hands", "4"), ("fingers", "100")] {
            let field = client.find(Locator::Id(id)).await.unwrap();
            field.clear().await.unwrap();
            field.send_keys(value).await.unwrap();
        }
        click(&client, "#rules-form button").await;
        let error = until("the rules error", || async {
            let t = text(&client, "rules-error").await;
            (!t.is_empty()).then_some(t)
        })
        .await;
        assert!(error.contains("budget"), "{error}");
        assert!(text(&client, "variant-line")
            .await
            .ends_with("variant rollover"));

        // A link to a Simple Chopsticks position shows its canonical value.
        client
            .goto(&format!("{base}/?variant=simple&p=1111"))
            .await
            .unwrap();
        let value = until("the game value", || async {
            let t = text(&client, "cgt-value").await;
            (!t.is_empty()).then_some(t)
        })
        .await;
        assert!(value.starts_with("(1,1|1,1)_4 = 0 (P"), "{value}");
        let main = screenshot(&client, "browser-simple.png").await;

        // A phone-sized window: nothing wider than the screen.
        client.set_window_size(390, 844).await.unwrap();
        client
            .goto(&format!("{base}/?variant=standard&p=1111"))
            .await
            .unwrap();
        settled(&client).await;
        let widths = client
            .execute(
                "return [document.documentElement.scrollWidth, window.innerWidth];",
                vec![],
            )
            .await
            .unwrap();
        assert!(
            widths[0].as_f64().unwrap() <= widths[1].as_f64().unwrap(),
            "sideways scrolling on a phone: {widths}"
        );
        let phone = screenshot(&client, "browser-phone.png").await;

        // No errors in the browser's console.
        let log = client.issue_cmd(BrowserLog).await.unwrap();
        let severe: Vec<&Value> = log
            .as_array()
            .map(|a| a.iter().filter(|e| e["level"] == "SEVERE").collect())
            .unwrap_or_default();
        assert!(severe.is_empty(), "console errors: {severe:?}");
        eprintln!(
            "screenshots: {}, {}, {}",
            end.display(),
            main.display(),
            phone.display()
        );
        client.close().await.unwrap();
    });
}

/// Waits until a person's seat is to move (the computer has answered), or the game
/// is over; returns the status text.
async fn settled_for(client: &Client, people: &[usize]) -> String {
    until("a person's turn", || async {
        let s = text(client, "status").await;
        let person = people.iter().any(|seat| {
            s.starts_with(&format!("Player {seat} ")) || s.starts_with(&format!("Player {seat},"))
        });
        let ready = (person && s.contains("to move") && !s.contains("thinking"))
            || s.starts_with("Game over");
        ready.then_some(s)
    })
    .await
}

/// The page shows every seat's value as the API gives it, and the moves in the
/// API's order coloured by their value for the mover; returns the API's answer.
async fn check_seats_against_api(client: &Client, server: &Server, variant: &str) -> Value {
    let p = input_value(client, "position-input").await;
    let (status, data) = server.get(&format!(
        "/api/v1/chopsticks/{variant}/positions/?p={}",
        encode(&p)
    ));
    assert_eq!(status, 200, "{p}: {data}");
    let chips = client
        .find_all(Locator::Css("#seat-values li"))
        .await
        .unwrap();
    let seats = data["players"].as_array().unwrap();
    assert_eq!(chips.len(), seats.len(), "{p}: a value per seat");
    for (chip, seat) in chips.iter().zip(seats) {
        let shown = chip.text().await.unwrap();
        let value = seat["value"].as_str().unwrap();
        let expected = if seat["alive"] == true {
            words(value, seat["remoteness"].as_i64().unwrap_or(-200))
        } else {
            "out".to_string()
        };
        assert!(
            shown.starts_with(&format!("Player {}", seat["player"])) && shown.ends_with(&expected),
            "{p}: `{shown}` for {seat}"
        );
        let class = chip.attr("class").await.unwrap().unwrap_or_default();
        assert_eq!(
            class, value,
            "{p}: Player {} coloured `{class}`",
            seat["player"]
        );
    }
    let buttons = client
        .find_all(Locator::Css("#moves button.move"))
        .await
        .unwrap();
    let moves = data["moves"].as_array().unwrap();
    assert_eq!(buttons.len(), moves.len(), "{p}");
    for (button, m) in buttons.iter().zip(moves) {
        let name = button.attr("data-move").await.unwrap().unwrap_or_default();
        let class = button.attr("class").await.unwrap().unwrap_or_default();
        let value = m["moveValue"].as_str().unwrap();
        assert_eq!(name, m["move"].as_str().unwrap(), "{p}: move order");
        assert!(
            class.split(' ').any(|c| c == value),
            "{p}: `{name}` is {value} but coloured `{class}`"
        );
        let label = button.text().await.unwrap();
        let expected = words(value, m["moveRemoteness"].as_i64().unwrap_or(-200));
        assert!(
            label.ends_with(&expected),
            "{p}: `{label}` for a move that is {expected}"
        );
    }
    data
}

/// Plays the API's best move for the seat to move by clicking its hands on the board
/// (attacks and self-attacks), or its button in the list (splits).
async fn play_best_seated(client: &Client, data: &Value) {
    let best = &data["moves"][0];
    let detail = &best["detail"];
    let mover = data["player"].as_u64().unwrap() as usize - 1;
    let hands: Vec<u64> = data["players"][mover]["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let from = detail["from"].as_u64();
    let to = detail["to"].as_u64();
    match detail["type"].as_str().unwrap() {
        "tap" => {
            let target = best["targetPlayer"].as_u64().unwrap() - 1;
            click(
                client,
                &format!(
                    "g.hand[data-player='{mover}'][data-value='{}']",
                    from.unwrap()
                ),
            )
            .await;
            click(
                client,
                &format!(
                    "g.hand[data-player='{target}'][data-value='{}']",
                    to.unwrap()
                ),
            )
            .await;
        }
        "self-tap" => {
            let i = hands.iter().position(|&v| Some(v) == from).unwrap();
            let j = (0..hands.len())
                .find(|&j| j != i && Some(hands[j]) == to)
                .unwrap();
            click(
                client,
                &format!("g.hand[data-player='{mover}'][data-index='{i}']"),
            )
            .await;
            click(
                client,
                &format!("g.hand[data-player='{mover}'][data-index='{j}']"),
            )
            .await;
        }
        _ => {
            let name = best["move"].as_str().unwrap();
            click(client, &format!("#moves button.move[data-move='{name}']")).await;
        }
    }
}

/// Plays a game of `variant` to its end: the people at `people` (1-based seats)
/// by clicking the best move, the computer the others; checks every position a
/// person faces against the API. Returns the final status and the moves made by
/// people.
async fn play_to_the_end(
    client: &Client,
    server: &Server,
    variant: &str,
    people: &[usize],
    shot: &str,
) -> (String, usize) {
    let mut made = 0;
    loop {
        let status = settled_for(client, people).await;
        let data = check_seats_against_api(client, server, variant).await;
        if status.starts_with("Game over") {
            return (status, made);
        }
        assert!(made < 60, "{variant}: the game should end");
        if made == 2 {
            screenshot(client, shot).await;
        }
        let here = data["position"].as_str().unwrap().to_string();
        play_best_seated(client, &data).await;
        moved_from(client, &here).await;
        made += 1;
    }
}

#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver)"
)]
fn three_players_and_teams_in_a_real_browser() {
    let (chromium, chromedriver) = browser_programs();
    let server = Server::start();
    let driver = Driver::start(&chromedriver);
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session(&driver, &chromium, profile.path()).await;
        let base = format!("http://{}", server.address);

        // Three players, each for themselves: Player 1 a person, 2 and 3 the
        // computer, each playing its own value against the other two.
        client
            .goto(&format!("{base}/?variant=simple.p3"))
            .await
            .unwrap();
        let status = settled_for(&client, &[1]).await;
        assert!(status.starts_with("Player 1 (you) to move"), "{status}");
        let lanes = client
            .find_all(Locator::Css("#history circle.dot"))
            .await
            .unwrap();
        assert_eq!(lanes.len(), 3, "one lane per player");
        let (end, made) =
            play_to_the_end(&client, &server, "simple.p3", &[1], "browser-three-mid.png").await;
        assert!(made >= 3, "{made}");
        assert!(end.starts_with("Game over: Player "), "{end}");
        let wide = screenshot(&client, "browser-three-over.png").await;
        // Undo goes back to Player 1's last decision.
        click(&client, "#undo").await;
        let status = settled_for(&client, &[1]).await;
        assert!(status.starts_with("Player 1 (you) to move"), "{status}");

        // Two against two, Players 1 and 3 people (partners), 2 and 4 the computer.
        client
            .goto(&format!("{base}/?variant=simple.p4.teams"))
            .await
            .unwrap();
        settled_for(&client, &[1]).await;
        click(&client, "#seat-3 option[value='person']").await;
        let status = settled_for(&client, &[1, 3]).await;
        assert!(status.starts_with("Player 1, team 1 to move"), "{status}");
        // The history has one lane per team.
        let lanes = client
            .find_all(Locator::Css("#history circle.dot"))
            .await
            .unwrap();
        assert_eq!(lanes.len(), 2, "one lane per team");
        let (end, made) = play_to_the_end(
            &client,
            &server,
            "simple.p4.teams",
            &[1, 3],
            "browser-teams-mid.png",
        )
        .await;
        assert!(made >= 4, "{made}");
        assert!(end.starts_with("Game over: team "), "{end}");
        let teams = screenshot(&client, "browser-teams-over.png").await;

        // The strategy names the seat that can force a win, or says nobody can.
        client
            .goto(&format!("{base}/?variant=simple.p3"))
            .await
            .unwrap();
        settled_for(&client, &[1]).await;
        click(&client, "#strategy-button").await;
        let strategy = until("the strategy", || async {
            let t = text(&client, "strategy").await;
            (!t.is_empty() && !t.starts_with("Working")).then_some(t)
        })
        .await;
        assert!(
            strategy.contains("can force a win") || strategy.starts_with("Nobody can force a win"),
            "{strategy}"
        );
        assert!(!strategy.starts_with("Error"), "{strategy}");

        // Narrow: a phone-sized window, four players, nothing wider than the screen.
        client.set_window_size(390, 844).await.unwrap();
        client
            .goto(&format!("{base}/?variant=standard.p4"))
            .await
            .unwrap();
        settled_for(&client, &[1]).await;
        let widths = client
            .execute(
                "return [document.documentElement.scrollWidth, window.innerWidth];",
                vec![],
            )
            .await
            .unwrap();
        assert!(
            widths[0].as_f64().unwrap() <= widths[1].as_f64().unwrap(),
            "sideways scrolling on a phone: {widths}"
        );
        let phone = screenshot(&client, "browser-four-phone.png").await;

        let log = client.issue_cmd(BrowserLog).await.unwrap();
        let severe: Vec<&Value> = log
            .as_array()
            .map(|a| a.iter().filter(|e| e["level"] == "SEVERE").collect())
            .unwrap_or_default();
        assert!(severe.is_empty(), "console errors: {severe:?}");
        eprintln!(
            "screenshots: {}, {}, {}",
            wide.display(),
            teams.display(),
            phone.display()
        );
        client.close().await.unwrap();
    });
}

/// The text of the first element matching `css` (empty when there is none).
/// The texts of every element `css` selects, in order.
async fn css_texts(client: &Client, css: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in client.find_all(Locator::Css(css)).await.unwrap_or_default() {
        out.push(e.text().await.unwrap_or_default());
    }
    out
}

async fn css_text(client: &Client, css: &str) -> String {
    match client.find(Locator::Css(css)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// Puzzles, lines, reviews, records and the printable sheet, as a person uses
/// them: a puzzle opened by its link and missed (its refutation played on the
/// board), the next one solved with a hint, the streak kept; the line after a
/// listed move; a game with a mistake reviewed by clicking, its refutation
/// stepped through; a record copied out and a bad one refused; the strategy
/// sheet drawn for printing.
#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver)"
)]
fn puzzles_and_reviews_in_a_real_browser() {
    let (chromium, chromedriver) = browser_programs();
    let server = Server::start();
    let driver = Driver::start(&chromedriver);
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session(&driver, &chromium, profile.path()).await;
        let base = format!("http://{}", server.address);

        // A puzzle by its link: the API's first puzzle for seed 3.
        let (code, set) = server.get("/api/v1/chopsticks/standard/puzzles?count=2&seed=3");
        assert_eq!(code, 200, "{set}");
        let first = &set["puzzles"][0];
        let position = first["position"].as_str().unwrap();
        client
            .goto(&format!("{base}/?variant=standard&puzzle={position}"))
            .await
            .unwrap();
        let goal = first["goal"].as_str().unwrap();
        until("the puzzle's goal", || async {
            (text(&client, "puzzle-goal").await == goal).then_some(())
        })
        .await;
        assert_eq!(input_value(&client, "position-input").await, position);
        let link = client
            .find(Locator::Id("link"))
            .await
            .unwrap()
            .attr("href")
            .await
            .unwrap()
            .unwrap();
        assert!(link.contains(&format!("puzzle={position}")), "{link}");
        // Missed: a wrong move, clicked in the list.
        let wrong = first["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["answer"] == false)
            .unwrap();
        let wrong_name = wrong["move"].as_str().unwrap();
        click(&client, &format!("#moves button.move[data-move='{wrong_name}']")).await;
        let result = until("the verdict", || async {
            let t = text(&client, "puzzle-result").await;
            t.starts_with("Not ").then_some(t)
        })
        .await;
        assert!(result.contains(first["answer"].as_str().unwrap()), "{result}");
        assert!(text(&client, "puzzle-streak").await.starts_with("Streak: 0"));
        // Its refutation, played on the board step by step.
        click(&client, "#puzzle-play-refutation").await;
        let step0 = until("the preview", || async {
            let t = text(&client, "status").await;
            t.starts_with("The refutation of").then_some(t)
        })
        .await;
        assert!(step0.ends_with("the position"), "{step0}");
        click(&client, "#preview-next").await;
        let step1 = text(&client, "status").await;
        assert!(step1.contains(&format!("move 1 of {}", wrong["line"]["steps"].as_array().unwrap().len() + 1)), "{step1}");
        assert!(step1.contains(wrong_name), "{step1}");
        let missed = screenshot(&client, "browser-puzzle-missed.png").await;
        click(&client, "#preview-end").await;

        // The next puzzle, played to its end after a hint: the answer clicked in
        // the list, then each expected move once the solver has replied.
        let after_wrong = input_value(&client, "position-input").await;
        click(&client, "#puzzle-next").await;
        let next_goal = until("the next puzzle", || async {
            let p = input_value(&client, "position-input").await;
            let fresh = text(&client, "puzzle-result").await == "Your move.";
            (fresh && p != position && p != after_wrong).then_some(p)
        })
        .await;
        let (_, view) = server.get(&format!(
            "/api/v1/chopsticks/standard/puzzles?p={}",
            encode(&next_goal)
        ));
        // Unanswered: the moves in the rules' order, no value shown.
        let (_, listed) = server.get(&format!(
            "/api/v1/chopsticks/standard/positions/?p={}",
            encode(&next_goal)
        ));
        let shown = css_texts(&client, "#moves button.move").await;
        assert_eq!(shown.len(), view["moves"].as_array().unwrap().len(), "{shown:?}");
        for (b, m) in shown.iter().zip(view["moves"].as_array().unwrap()) {
            assert_eq!(b, m["move"].as_str().unwrap(), "no value beside a move: {shown:?}");
        }
        assert!(listed["moves"].is_array());
        let unanswered = screenshot(&client, "browser-puzzle-before.png").await;
        click(&client, "#puzzle-hint").await;
        let hint = text(&client, "puzzle-result").await;
        assert_eq!(hint, format!("Hint: {}", view["hint"].as_str().unwrap()));
        let mine: Vec<(String, String)> = view["solution"]["steps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["expected"] == true)
            .map(|s| {
                (
                    s["position"].as_str().unwrap().to_string(),
                    s["move"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        for (at, name) in &mine {
            until("the player's turn in the puzzle", || async {
                (input_value(&client, "position-input").await == *at).then_some(())
            })
            .await;
            click(&client, &format!("#moves button.move[data-move='{name}']")).await;
        }
        let solved_text = until("the puzzle solved", || async {
            let t = text(&client, "puzzle-result").await;
            t.starts_with("Solved").then_some(t)
        })
        .await;
        assert_eq!(
            solved_text,
            format!("Solved with a hint: {}.", view["solution"]["text"].as_str().unwrap())
        );
        assert!(text(&client, "puzzle-streak").await.starts_with("Streak: 0"));
        let rating = text(&client, "puzzle-rating").await;
        assert!(rating.starts_with("Your rating: ") && rating.contains(" → "), "{rating}");
        let why = text(&client, "puzzle-why").await;
        assert!(why.contains(&format!("Score {}:", view["score"])), "{why}");
        let solved = screenshot(&client, "browser-puzzle-solved.png").await;

        // Back to play: the line after a listed move.
        click(&client, "#mode-play").await;
        let status = settled(&client).await;
        assert!(status.contains("win in 23"), "{status}");
        let (_, start) = server.get("/api/v1/chopsticks/standard/positions/?p=1_1111");
        let worst = start["moves"].as_array().unwrap().last().unwrap().clone();
        let worst_name = worst["move"].as_str().unwrap();
        click(&client, &format!(".line-button[data-move='{worst_name}']")).await;
        let (_, line) = server.get(&format!(
            "/api/v1/chopsticks/standard/line?p={}",
            encode(worst["position"].as_str().unwrap())
        ));
        let shown = until("the line", || async {
            let t = css_text(&client, ".line-box .line-text").await;
            t.starts_with("Then:").then_some(t)
        })
        .await;
        let first_step = &line["steps"][0];
        assert!(
            shown.starts_with(&format!("Then: P{} {}", first_step["player"], first_step["move"].as_str().unwrap())),
            "{shown}"
        );

        // A game with a mistake: the worst first move, then best moves.
        // Each move is waited for (the position leaves where it was) before the
        // turn is: the status reads "Player 1 (you) to move" also just before.
        let before = input_value(&client, "position-input").await;
        click(&client, &format!("#moves button.move[data-move='{worst_name}']")).await;
        moved_from(&client, &before).await;
        settled(&client).await;
        let mine = input_value(&client, "position-input").await;
        let (_, here) = server.get(&format!(
            "/api/v1/chopsticks/standard/positions/?p={}",
            encode(&mine)
        ));
        play_best(&client, &here["moves"][0]).await;
        moved_from(&client, &mine).await;
        settled(&client).await;
        click(&client, "#review-button").await;
        until("the review of three moves", || async {
            let found = client
                .find_all(Locator::Css("#review-moves li button"))
                .await
                .unwrap_or_default();
            (found.len() >= 3).then_some(())
        })
        .await;
        let first_reviewed = client
            .find(Locator::Css("#review-moves button[data-ply='1']"))
            .await
            .unwrap();
        assert_eq!(
            first_reviewed.attr("data-verdict").await.unwrap().as_deref(),
            Some("win-to-loss")
        );
        let summary = text(&client, "review-summary").await;
        assert!(summary.contains("Player 1: accuracy 50%"), "{summary}");
        // The mistake is marked in the value history.
        assert!(client.find(Locator::Css("#history .mark.blunder")).await.is_ok());
        first_reviewed.click().await.unwrap();
        let detail = until("the reviewed move", || async {
            let t = text(&client, "review-detail").await;
            t.contains("Refutation").then_some(t)
        })
        .await;
        assert!(detail.contains("a win thrown away: now a loss"), "{detail}");
        assert!(detail.contains("Best: self 1→1"), "{detail}");
        click(&client, "#play-refutation").await;
        click(&client, "#preview-next").await;
        click(&client, "#preview-next").await;
        let stepping = text(&client, "status").await;
        assert!(stepping.contains("move 2 of"), "{stepping}");
        let review = screenshot(&client, "browser-review.png").await;
        client
            .execute(
                "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}));",
                vec![],
            )
            .await
            .unwrap();

        // The record: written out, and a bad one refused with its line.
        click(&client, "#record-box summary").await;
        // The record is written when the box opens: wait for it (read at once,
        // it was once empty in CI while the other browser tests ran).
        let record = until("the record written out", || async {
            let r = input_value(&client, "record-text").await;
            r.contains("variant standard\n1. ").then_some(r)
        })
        .await;
        assert!(record.contains(&format!("1. {worst_name}\n")), "{record}");
        type_record(&client, "variant standard\n1. tap 1→1\n2. tap 3→3\n").await;
        click(&client, "#record-load").await;
        let refused = until("the record refused", || async {
            let t = text(&client, "record-error").await;
            (!t.is_empty()).then_some(t)
        })
        .await;
        assert!(refused.starts_with("line 3: move 2 `tap 3→3` is not a legal move"), "{refused}");

        // The strategy sheet, drawn for printing (the print dialog replaced).
        client
            .execute("window.print = () => { window.printed = true; };", vec![])
            .await
            .unwrap();
        click(&client, "#print-sheet-button").await;
        until("the sheet printed", || async {
            let v = client
                .execute(
                    "const i = document.getElementById('sheet'); return [Boolean(window.printed), i ? i.naturalWidth : 0, document.body.classList.contains('print-sheet')];",
                    vec![],
                )
                .await
                .unwrap();
            (v[0] == true && v[1].as_u64().unwrap_or(0) > 500 && v[2] == true).then_some(())
        })
        .await;

        // As printed: the sheet alone, no control of the page.
        client.issue_cmd(EmulateMedia("print")).await.unwrap();
        let shown = client
            .execute(
                "const seen = (id) => document.getElementById(id).getClientRects().length > 0; return [seen('sheet'), seen('board'), seen('new-game'), seen('rules-form')];",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(shown, json!([true, false, false, false]), "printing the sheet");
        let sheet = screenshot(&client, "browser-print-sheet.png").await;
        // Printing the game (no sheet asked for): the board, without controls.
        client
            .execute("document.body.classList.remove('print-sheet');", vec![])
            .await
            .unwrap();
        let shown = client
            .execute(
                "const seen = (id) => document.getElementById(id).getClientRects().length > 0; return [seen('board'), seen('new-game'), seen('rules-form')];",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(shown, json!([true, false, false]), "printing the game");
        client.issue_cmd(EmulateMedia("screen")).await.unwrap();

        // Three players: a puzzle by its link, solved; the review of a loaded
        // record, with every player's summary.
        let (_, p3) = server.get("/api/v1/chopsticks/standard.p3/puzzles?count=1&seed=2");
        let puzzle = &p3["puzzles"][0];
        client
            .goto(&format!(
                "{base}/?variant=standard.p3&puzzle={}",
                puzzle["position"].as_str().unwrap()
            ))
            .await
            .unwrap();
        let goal = puzzle["goal"].as_str().unwrap();
        until("the three-player puzzle", || async {
            (text(&client, "puzzle-goal").await == goal).then_some(())
        })
        .await;
        // Played to its end: each expected move once the others have replied.
        for step in puzzle["solution"]["steps"].as_array().unwrap() {
            if step["expected"] != true {
                continue;
            }
            let at = step["position"].as_str().unwrap();
            until("the player's turn in the three-player puzzle", || async {
                (input_value(&client, "position-input").await == at).then_some(())
            })
            .await;
            let name = step["move"].as_str().unwrap();
            click(&client, &format!("#moves button.move[data-move='{name}']")).await;
        }
        until("the three-player puzzle solved", || async {
            text(&client, "puzzle-result").await.starts_with("Solved: ").then_some(())
        })
        .await;
        assert!(text(&client, "puzzle-streak").await.starts_with("Streak: 1"));
        // A worksheet for a class, drawn for printing (the print dialog
        // replaced): its pages, each a sheet of paper, the page's controls gone.
        client
            .execute("window.print = () => { window.printed = true; };", vec![])
            .await
            .unwrap();
        click(&client, "#puzzle-worksheet").await;
        let pages = until("the worksheet printed", || async {
            let v = client
                .execute(
                    "const p = [...document.querySelectorAll('#sheet-box img.worksheet-page')]; return [Boolean(window.printed), p.length, p.every((i) => i.naturalWidth === 794)];",
                    vec![],
                )
                .await
                .unwrap();
            (v[0] == true && v[2] == true).then(|| v[1].as_u64().unwrap())
        })
        .await;
        // 12 puzzles: two pages of six, one of answers.
        assert_eq!(pages, 3);
        client.issue_cmd(EmulateMedia("print")).await.unwrap();
        let shown = client
            .execute(
                "const seen = (id) => document.getElementById(id).getClientRects().length > 0; return [seen('sheet-box'), seen('board'), seen('puzzle'), seen('rules-form')];",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(shown, json!([true, false, false, false]), "printing the worksheet");
        let worksheet = screenshot(&client, "browser-print-worksheet.png").await;
        client.issue_cmd(EmulateMedia("screen")).await.unwrap();
        client
            .execute("window.dispatchEvent(new Event('afterprint'));", vec![])
            .await
            .unwrap();
        click(&client, "#mode-play").await;
        click(&client, "#record-box summary").await;
        type_record(
            &client,
            "variant standard.p3\n1. tap 1→1@1\n2. tap 1→1@1\n3. tap 1→1@1\n",
        )
        .await;
        click(&client, "#record-load").await;
        let summary = until("the three-player review", || async {
            let t = text(&client, "review-summary").await;
            let refused = text(&client, "record-error").await;
            assert!(refused.is_empty(), "the record was refused: {refused}");
            // The summary is written in steps: wait for every player's line.
            (t.contains("Player 3") && t.contains("Player 1: accuracy")).then_some(t)
        })
        .await;
        assert!(summary.contains("Player 1: accuracy"), "{summary}");
        let reviewed = client
            .find_all(Locator::Css("#review-moves button"))
            .await
            .unwrap();
        assert_eq!(reviewed.len(), 3);
        let three = screenshot(&client, "browser-review-three.png").await;

        // No errors in the console but the refused record's answer (422).
        let log = client.issue_cmd(BrowserLog).await.unwrap();
        let severe: Vec<&Value> = log
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|e| e["level"] == "SEVERE")
                    .filter(|e| {
                        let m = e["message"].as_str().unwrap_or_default();
                        !(m.contains("/review - ") && m.contains("422"))
                    })
                    .collect()
            })
            .unwrap_or_default();
        assert!(severe.is_empty(), "console errors: {severe:?}");
        eprintln!(
            "screenshots: {}, {}, {}, {}, {}, {}, {}",
            missed.display(),
            unanswered.display(),
            solved.display(),
            worksheet.display(),
            review.display(),
            sheet.display(),
            three.display()
        );
        client.close().await.unwrap();
    });
}

/// The text of the option chosen in the select `id`.
async fn chosen_option(client: &Client, id: &str) -> String {
    client
        .execute(
            "return document.getElementById(arguments[0]).selectedOptions[0].textContent;",
            vec![json!(id)],
        )
        .await
        .unwrap()
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The rule picker names the variant played (four players of Simple Chopsticks
/// are not "2 players"), and a game that comes back to a position a third time
/// ends as a draw: three computers playing standard.p3 (which went round for
/// ever before), and a record whose moves repeat a position.
#[test]
#[cfg_attr(
    not(browser),
    ignore = "needs chromium and chromium-driver (apt-get install chromium chromium-driver)"
)]
fn the_rule_picker_and_threefold_repetition_in_a_real_browser() {
    let (chromium, chromedriver) = browser_programs();
    let server = Server::start();
    let driver = Driver::start(&chromedriver);
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = session(&driver, &chromium, profile.path()).await;
        let base = format!("http://{}", server.address);

        // Four play Simple Chopsticks: the picker says so, from the server's
        // description of the variant; the other presets keep their own.
        client
            .goto(&format!("{base}/?variant=simple.p4"))
            .await
            .unwrap();
        settled_for(&client, &[1]).await;
        let (_, info) = server.get("/api/v1/chopsticks/simple.p4/");
        let name = info["name"].as_str().unwrap();
        assert!(name.starts_with("4 players × 2 hands"), "{name}");
        assert_eq!(chosen_option(&client, "preset").await, format!("simple: {name}"));
        assert_eq!(input_value(&client, "players").await, "4");
        let standard = css_text(&client, "#preset option[value='standard']").await;
        assert!(standard.starts_with("standard: 2 players × 2 hands"), "{standard}");
        let four = screenshot(&client, "browser-rules-four-players.png").await;
        // Teams are named too.
        client
            .goto(&format!("{base}/?variant=standard.p4.teams"))
            .await
            .unwrap();
        settled_for(&client, &[1]).await;
        let teams = chosen_option(&client, "preset").await;
        assert!(teams.starts_with("standard: 4 players × 2 hands") && teams.ends_with("teams"), "{teams}");
        // The preset itself: its own description.
        client.goto(&format!("{base}/?variant=simple")).await.unwrap();
        settled_for(&client, &[1]).await;
        let simple = chosen_option(&client, "preset").await;
        assert!(simple.starts_with("simple: 2 players × 2 hands"), "{simple}");

        // The switches are the server's table (the rules crate's), each a box
        // named by its word; what one implies shows at once.
        let (_, game) = server.get("/api/v1/chopsticks/");
        let switches = game["switches"].as_array().expect("switches");
        assert!(switches.len() >= 8, "{game}");
        let checked = |id: &str| {
            let script = format!("return document.getElementById('{id}').checked;");
            let client = client.clone();
            async move { client.execute(&script, vec![]).await.unwrap() == Value::Bool(true) }
        };
        for s in switches {
            let token = s["token"].as_str().unwrap();
            assert!(!checked(token).await, "{token} is on in simple");
        }
        click(&client, "#near-even-divide").await;
        assert!(checked("divide").await && checked("near-even-divide").await);
        click(&client, "#even-divide").await;
        assert!(checked("even-divide").await && !checked("near-even-divide").await);
        click(&client, "#misere").await;
        click(&client, "#pass-splits option[value='any']").await;
        let picker = screenshot(&client, "browser-rule-switches.png").await;
        click(&client, "#rules-form button").await;
        until("the variant of the switches chosen", || async {
            text(&client, "variant-line")
                .await
                .ends_with("variant simple.even-divide.pass-splits.misere")
                .then_some(())
        })
        .await;
        // Divisions off takes the even ones with it.
        click(&client, "#divide").await;
        assert!(!checked("divide").await && !checked("even-divide").await);

        // A record that comes back to 1_1313 a third time (after move 8).
        click(&client, "#record-box summary").await;
        type_record(
            &client,
            "variant standard\nstart 1_1313\nsplit 13→22; split 13→22; split 22→13; split 22→13\nsplit 13→22; split 13→22; split 22→13; split 22→13\n",
        )
        .await;
        click(&client, "#record-load").await;
        let status = until("the loaded game", || async {
            let s = text(&client, "status").await;
            s.contains("threefold").then_some(s)
        })
        .await;
        assert!(
            status.starts_with("Game over: a draw by threefold repetition"),
            "{status}"
        );
        assert_eq!(input_value(&client, "position-input").await, "1_1313");
        // No move can be played there.
        let live = client
            .find_all(Locator::Css("#moves button.move:not([disabled])"))
            .await
            .unwrap();
        assert!(live.is_empty(), "moves still playable after the draw");
        // A clean state: no move listed, no hint, nobody to move.
        assert_eq!(
            css_texts(&client, "#moves li").await,
            ["No moves: the game is drawn by threefold repetition."]
        );
        assert!(!status.contains("— to move"), "{status}");
        let board = css_texts(&client, "#board text.seat").await;
        assert!(board.len() == 2 && board.iter().all(|t| t.starts_with("Player") && !t.contains("to move")), "{board:?}");
        let hint_enabled = client
            .find(Locator::Id("hint"))
            .await
            .unwrap()
            .is_enabled()
            .await
            .unwrap();
        assert!(!hint_enabled, "a hint after the draw");
        let repetition = screenshot(&client, "browser-repetition-draw.png").await;

        // A link to a variant too large to solve here: the panel shows what was
        // asked, the status why it is refused, and what needs a game is disabled.
        client
            .goto(&format!("{base}/?variant=standard.h4.f100"))
            .await
            .unwrap();
        let refusal = until("the refusal", || async {
            let t = text(&client, "status").await;
            t.starts_with("Refused: ").then_some(t)
        })
        .await;
        assert!(refusal.contains("budget"), "{refusal}");
        assert_eq!(input_value(&client, "hands").await, "4");
        assert_eq!(input_value(&client, "fingers").await, "100");
        assert!(checked("self-attack").await && checked("transfer").await && checked("divide").await);
        assert!(text(&client, "variant-line").await.ends_with("variant standard.h4.f100 (refused)"));
        for id in ["new-game", "undo", "redo", "hint", "review-button", "mode-puzzles", "strategy-button"] {
            let enabled = client.find(Locator::Id(id)).await.unwrap().is_enabled().await.unwrap();
            assert!(!enabled, "#{id} enabled after a refused variant");
        }
        assert!(css_texts(&client, "#moves li").await.is_empty());
        let refused = screenshot(&client, "browser-refused-variant.png").await;
        // Smaller rules from there: a game again.
        let field = client.find(Locator::Id("fingers")).await.unwrap();
        field.clear().await.unwrap();
        field.send_keys("5").await.unwrap();
        let field = client.find(Locator::Id("hands")).await.unwrap();
        field.clear().await.unwrap();
        field.send_keys("2").await.unwrap();
        click(&client, "#rules-form button").await;
        until("a game after the refusal", || async {
            (text(&client, "variant-line").await.ends_with("variant standard")).then_some(())
        })
        .await;
        settled(&client).await;
        let enabled = client.find(Locator::Id("new-game")).await.unwrap().is_enabled().await.unwrap();
        assert!(enabled);
        // A link to no variant at all: the standard game, with the reason.
        client
            .goto(&format!("{base}/?variant=nonsense.zz"))
            .await
            .unwrap();
        let error = until("the bad link's error", || async {
            let t = text(&client, "status").await;
            t.starts_with("Error: ").then_some(t)
        })
        .await;
        assert!(error.contains("not a preset"), "{error}");
        assert!(text(&client, "variant-line").await.ends_with("variant standard"));

        // Three computers of standard.p3 play until a position comes a third time.
        client
            .goto(&format!("{base}/?variant=standard.p3"))
            .await
            .unwrap();
        settled_for(&client, &[1]).await;
        click(&client, "#seat-1 option[value='computer']").await;
        let deadline = Instant::now() + Duration::from_secs(90);
        let end = loop {
            let s = text(&client, "status").await;
            if s.starts_with("Game over") {
                break s;
            }
            assert!(Instant::now() < deadline, "three computers still playing: {s}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        assert!(
            end.starts_with("Game over: a draw by threefold repetition"),
            "{end}"
        );
        let drawn = screenshot(&client, "browser-three-computers-draw.png").await;

        // No errors in the console but the bad link's answer (422).
        let log = client.issue_cmd(BrowserLog).await.unwrap();
        let severe: Vec<&Value> = log
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|e| e["level"] == "SEVERE")
                    .filter(|e| {
                        let m = e["message"].as_str().unwrap_or_default();
                        !(m.contains("/nonsense.zz/ - ") && m.contains("422"))
                    })
                    .collect()
            })
            .unwrap_or_default();
        assert!(severe.is_empty(), "console errors: {severe:?}");
        eprintln!(
            "screenshots: {}, {}, {}, {}, {}",
            four.display(),
            picker.display(),
            repetition.display(),
            refused.display(),
            drawn.display()
        );
        client.close().await.unwrap();
    });
}
