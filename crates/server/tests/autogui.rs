//! Every AutoGUI string the server emits, read back by a parser written from
//! GamesmanUni's grammar (its renderer's patterns, summarised below), for every
//! reachable position of several variants: the position string matches the
//! renderer's pattern, its board has a centre for every character and an image
//! for every image key, every move string is one of the renderer's forms (or a
//! listed button whose text is the move's name), unique in its position, and
//! **doing what the move string draws** (tapping the hand an arrow starts from on
//! the hand it points at, moving the digit token's fingers, the split a button
//! names) to the board gives the board of the child position the API names, with
//! the side to move of that child.

use std::collections::{HashMap, HashSet, VecDeque};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use chopsticks_rules::{Overflow, Ruleset, SeatedPosition};
use chopsticks_server::{router, state, AppState};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

async fn get(state: &AppState, uri: &str) -> Value {
    let response = router(state.clone())
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(status, StatusCode::OK, "{uri}: {body}");
    body
}

/// The images of GamesmanUni v5.0.35 (`src/models/images/svg/`) this server may
/// name: the client bundles its images and fetches none, so any other path breaks
/// its board.
const SHIPPED: &[&str] = &[
    "chopsticks/0.svg",
    "chopsticks/1.svg",
    "chopsticks/2.svg",
    "chopsticks/3.svg",
    "chopsticks/4.svg",
    "chopsticks/6.svg",
    "chopsticks/7.svg",
    "chopsticks/8.svg",
    "chopsticks/9.svg",
    "chopsticks/finger.svg",
    "chopsticks/foreground.svg",
    "chopsticks/knuckles.svg",
    "general/blue_circle.svg",
    "general/brown_circle.svg",
    "general/green_circle.svg",
    "general/orange_circle.svg",
    "general/pink_circle.svg",
    "general/purple_circle.svg",
    "general/red_circle.svg",
    "general/teal_circle.svg",
    "general/yellow_circle.svg",
];

/// A theme as the renderer reads it.
struct Theme {
    centres: Vec<[f64; 2]>,
    images: HashSet<char>,
}

fn theme(variant: &Value) -> Theme {
    let data = &variant["imageAutoGUIData"];
    let name = data["defaultTheme"].as_str().expect("defaultTheme");
    let theme = &data["themes"][name];
    assert!(theme.is_object(), "defaultTheme names a theme");
    let space = theme["space"].as_array().expect("space");
    assert_eq!(space.len(), 2);
    let centres: Vec<[f64; 2]> = theme["centers"]
        .as_array()
        .expect("centers")
        .iter()
        .map(|c| [c[0].as_f64().unwrap(), c[1].as_f64().unwrap()])
        .collect();
    let images: HashSet<char> = theme["charImages"]
        .as_object()
        .expect("charImages")
        .iter()
        .map(|(k, v)| {
            assert_eq!(k.chars().count(), 1, "image keys are characters");
            let image = v["image"].as_str().unwrap();
            assert!(
                SHIPPED.contains(&image),
                "{image}: GamesmanUni draws only the images it ships"
            );
            k.chars().next().unwrap()
        })
        .collect();
    for key in ["background", "foreground"] {
        if let Some(v) = theme.get(key) {
            assert!(
                !v.as_str().unwrap().is_empty(),
                "{key}: omit rather than \"\""
            );
        }
    }
    Theme { centres, images }
}

/// A position string read with `^(1|2)_([a-zA-Z0-9-.~]+)`, the whole string.
struct Board {
    side: u8,
    /// The board characters.
    cells: Vec<char>,
    /// The text of each `.` cell, by cell index.
    texts: HashMap<usize, String>,
}

fn parse_position(s: &str, theme: &Theme) -> Board {
    let bytes = s.as_bytes();
    assert!(bytes.len() >= 3, "{s}");
    assert!(
        matches!(bytes[0], b'1' | b'2') && bytes[1] == b'_',
        "turn prefix: {s}"
    );
    let rest = &s[2..];
    assert!(
        rest.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.~".contains(&b)),
        "characters outside [a-zA-Z0-9-.~]: {s}"
    );
    let mut pieces = rest.split('~');
    let cells: Vec<char> = pieces.next().unwrap().chars().collect();
    assert!(cells.len() <= theme.centres.len(), "a centre per cell: {s}");
    let slots: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == '.').collect();
    let texts: Vec<String> = pieces.map(str::to_string).collect();
    assert_eq!(slots.len(), texts.len(), "a text per `.`: {s}");
    for &c in &cells {
        assert!(
            c == '.' || c == '-' || theme.images.contains(&c),
            "`{c}` is neither an image key, `-` nor `.`: {s}"
        );
    }
    Board {
        side: bytes[0] - b'0',
        cells,
        texts: slots.into_iter().zip(texts).collect(),
    }
}

/// The hands a board shows, by seat, and the centre of each hand's cells.
struct Hands {
    /// Per seat, per hand: (value, the board cells of that hand).
    seats: Vec<Vec<(u32, Vec<usize>)>>,
}

/// Reads the hands off a board. Classic board (finger images): sixteen cells, four
/// per hand, hands 0–1 Player 1's and 2–3 Player 2's, a hand's value the number of
/// fingers shown. General board: seats named `P1`… (with `-to-move` or `-out`),
/// each followed by its hands' values, every hand's value its raised fingers
/// (`f` cells after it) where fingers are drawn, and a marker just before the
/// name of the seat to move and nowhere else.
fn read_hands(board: &Board) -> Hands {
    if board.texts.is_empty() {
        assert_eq!(board.cells.len(), 16);
        let hand = |k: usize| -> (u32, Vec<usize>) {
            let cells: Vec<usize> = (4 * k..4 * k + 4).collect();
            let up = cells.iter().filter(|&&i| board.cells[i] == 'f').count() as u32;
            // Fingers are raised from the first slot on.
            assert!(cells[..up as usize].iter().all(|&i| board.cells[i] == 'f'));
            (up, cells)
        };
        return Hands {
            seats: vec![vec![hand(0), hand(1)], vec![hand(2), hand(3)]],
        };
    }
    let mut seats: Vec<Vec<(u32, Vec<usize>)>> = Vec::new();
    let mut slots: Vec<usize> = board.texts.keys().copied().collect();
    slots.sort_unstable();
    for i in slots {
        let text = &board.texts[&i];
        if let Some(name) = text.strip_prefix('P') {
            let number: usize = name.split('-').next().unwrap().parse().unwrap();
            assert_eq!(number, seats.len() + 1, "seats in order");
            let marked = i > 0 && board.cells[i - 1] == 'm';
            assert_eq!(marked, name.ends_with("-to-move"), "the marker: {text}");
            seats.push(Vec::new());
        } else {
            let value: u32 = text.parse().unwrap_or_else(|_| panic!("a hand: {text}"));
            // The hand's finger slots follow its value; its palm precedes it.
            assert!(
                !matches!(board.cells[i - 1], '.' | '-' | 'f' | 'm'),
                "a palm before the hand's value"
            );
            let slots: Vec<char> = board.cells[i + 1..]
                .iter()
                .take_while(|c| matches!(c, 'f' | '-'))
                .copied()
                .collect();
            if board.cells.contains(&'f') || slots.len() > 1 {
                let raised = slots.iter().filter(|&&c| c == 'f').count() as u32;
                assert_eq!(raised, value, "fingers shown for the value {value}");
            }
            seats
                .last_mut()
                .expect("a seat's name first")
                .push((value, vec![i]));
        }
    }
    Hands { seats }
}

fn sorted(hands: &Hands) -> Vec<Vec<u32>> {
    hands
        .seats
        .iter()
        .map(|h| {
            let mut v: Vec<u32> = h.iter().map(|x| x.0).collect();
            v.sort_unstable();
            v
        })
        .collect()
}

/// The hand (seat, index) whose cells lie nearest to centre `n`.
fn hand_at(hands: &Hands, theme: &Theme, n: usize) -> (usize, usize) {
    let [x, y] = theme.centres[n];
    let mut best = (f64::MAX, (0, 0));
    for (s, seat) in hands.seats.iter().enumerate() {
        for (h, (_, cells)) in seat.iter().enumerate() {
            for &c in cells {
                let [cx, cy] = theme.centres[c];
                let d = (cx - x).powi(2) + (cy - y).powi(2);
                if d < best.0 {
                    best = (d, (s, h));
                }
            }
        }
    }
    best.1
}

fn hit(rules: &Ruleset, x: u32, y: u32) -> u32 {
    match rules.overflow {
        Overflow::Cutoff if x + y >= rules.fingers => 0,
        Overflow::Cutoff => x + y,
        Overflow::Rollover => (x + y) % rules.fingers,
    }
}

/// Plays a move string on the board's hands; `mover` is the seat to move
/// (0-based). Returns each seat's sorted hands afterwards.
fn apply(
    rules: &Ruleset,
    theme: &Theme,
    hands: &Hands,
    mover: usize,
    autogui: &str,
    name: &str,
) -> Vec<Vec<u32>> {
    let mut values: Vec<Vec<u32>> = hands
        .seats
        .iter()
        .map(|s| s.iter().map(|h| h.0).collect())
        .collect();
    let parts: Vec<&str> = autogui.split('_').collect();
    let number = |s: &str| -> usize { s.parse().unwrap_or_else(|_| panic!("{autogui}")) };
    match parts[0] {
        "M" if parts.len() == 4 => {
            let (from, to) = (number(parts[1]), number(parts[2]));
            assert!(from < theme.centres.len() && to < theme.centres.len());
            let (s, a) = hand_at(hands, theme, from);
            let (t, b) = hand_at(hands, theme, to);
            assert_eq!(s, mover, "{autogui}: the arrow starts at the mover's hand");
            assert_ne!((s, a), (t, b), "{autogui}");
            assert!(
                values[s][a] > 0 && values[t][b] > 0,
                "{autogui}: live hands"
            );
            if s == t {
                assert!(rules.self_attack, "{autogui}: a self-attack");
            } else if rules.teams {
                assert_ne!(s % 2, t % 2, "{autogui}: never a partner");
            }
            values[t][b] = hit(rules, values[s][a], values[t][b]);
        }
        "A" if parts.len() == 4 => {
            let digit: u32 = parts[1].parse().unwrap_or_else(|_| panic!("{autogui}"));
            let slot = number(parts[2]);
            assert!(theme.images.contains(&parts[1].chars().next().unwrap()));
            // GamesCrafters' rows: 24–32 Player 1's, 33–41 Player 2's; the upper
            // hand is Player 1's first and Player 2's second.
            let seat = if (24..33).contains(&slot) {
                0
            } else {
                assert!((33..42).contains(&slot), "{autogui}");
                1
            };
            assert_eq!(seat, mover, "{autogui}: a token on the mover's side");
            let (upper, lower) = if seat == 0 { (0, 1) } else { (1, 0) };
            let (giver, receiver, amount) = match digit {
                1..=4 => (upper, lower, digit),
                6..=9 => (lower, upper, 10 - digit),
                _ => panic!("{autogui}: no such token"),
            };
            let h = &mut values[seat];
            assert!(h[giver] >= amount, "{autogui}: gives what it has");
            h[giver] -= amount;
            h[receiver] += amount;
            assert!(h[receiver] < rules.fingers, "{autogui}: within F");
        }
        "L" | "T" | "LQ" | "LC" | "LA" => panic!("{autogui}: a form this server never draws"),
        _ => {
            // A listed button: its text is the move's name.
            assert_eq!(autogui, name, "a listed move's autoguiMove is its name");
            if name == "pass" {
                assert!(rules.pass_splits != chopsticks_rules::PassSplits::Off);
            } else {
                let rest = name
                    .strip_prefix("split ")
                    .unwrap_or_else(|| panic!("{name}"));
                let (before, after) = rest.split_once('→').unwrap();
                let read = |t: &str| -> Vec<u32> {
                    if t.contains(',') {
                        t.split(',').map(|x| x.parse().unwrap()).collect()
                    } else {
                        t.chars().map(|c| c.to_digit(10).unwrap()).collect()
                    }
                };
                let mut mine = values[mover].clone();
                mine.sort_unstable();
                assert_eq!(mine, read(before), "{name}: the mover's hands");
                let after = read(after);
                assert_eq!(
                    after.iter().sum::<u32>(),
                    mine.iter().sum::<u32>(),
                    "{name}: a split keeps the fingers"
                );
                values[mover] = after;
            }
        }
    }
    for h in &mut values {
        h.sort_unstable();
    }
    values
}

/// The side GamesmanUni shows for a seat (0-based): the seat for two players, the
/// team with teams, Player 1 or "the others" with more.
fn side(rules: &Ruleset, seat: usize) -> u8 {
    if rules.players() == 2 {
        seat as u8 + 1
    } else if rules.teams {
        (seat % 2) as u8 + 1
    } else if seat == 0 {
        1
    } else {
        2
    }
}

fn url_safe(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"_-.~,".contains(&b))
}

/// Walks every position reachable from the start through the API's own `position`
/// ids and checks every string on the way; returns the number of positions.
async fn check_variant(state: &AppState, id: &str) -> usize {
    let rules = Ruleset::from_variant_id(id).unwrap();
    let variant = get(state, &format!("/api/v1/chopsticks/{id}/")).await;
    let theme = theme(&variant);
    let start = variant["startPosition"].as_str().unwrap().to_string();
    let start_board = parse_position(variant["autoguiStartPosition"].as_str().unwrap(), &theme);
    assert_eq!(start_board.side, 1);
    let mut seen: HashSet<String> = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    while let Some(p) = queue.pop_front() {
        assert!(url_safe(&p), "{p}");
        let answer = get(state, &format!("/api/v1/chopsticks/{id}/positions/?p={p}")).await;
        assert_eq!(answer["position"], p);
        let seated = SeatedPosition::parse(&p, &rules).unwrap();
        let board = parse_position(answer["autoguiPosition"].as_str().unwrap(), &theme);
        assert_eq!(board.side, side(&rules, seated.turn()), "{p}");
        assert_eq!(answer["player"], seated.turn() + 1);
        let hands = read_hands(&board);
        assert_eq!(
            sorted(&hands),
            seated.hands_by_seat(),
            "{p}: the board shows the hands"
        );
        let moves = answer["moves"].as_array().unwrap();
        let mut keys = HashSet::new();
        for m in moves {
            let autogui = m["autoguiMove"].as_str().unwrap();
            let name = m["move"].as_str().unwrap();
            assert!(keys.insert(autogui.to_string()), "{p}: {autogui} twice");
            let child = m["position"].as_str().unwrap();
            let child_seated = SeatedPosition::parse(child, &rules).unwrap();
            let child_board = parse_position(m["autoguiPosition"].as_str().unwrap(), &theme);
            assert_eq!(
                child_board.side,
                side(&rules, child_seated.turn()),
                "{child}"
            );
            let played = apply(&rules, &theme, &hands, seated.turn(), autogui, name);
            assert_eq!(
                played,
                sorted(&read_hands(&child_board)),
                "{p}: {name} ({autogui}) does not lead to {child}"
            );
            assert_eq!(
                played,
                child_seated.hands_by_seat(),
                "{p}: {name} → {child}"
            );
            for field in [
                "winby",
                "mex",
                "drawLevel",
                "drawRemoteness",
                "deltaRemoteness",
            ] {
                assert!(!m[field].is_null(), "{p}: {name} has no {field}");
            }
            if seen.insert(child.to_string()) {
                queue.push_back(child.to_string());
            }
        }
    }
    seen.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_string_of_nine_variants_follows_the_grammar() {
    let state = state(1 << 30);
    let mut counts = Vec::new();
    for id in [
        "standard",
        "rollover",
        "rahman",
        "standard.h3",
        "standard.p3",
        "standard.p4.teams.f3",
        "rollover.f7.pass-splits",
        "standard.f10",
        "rollover.h1.f12",
    ] {
        let clock = std::time::Instant::now();
        let n = check_variant(&state, id).await;
        eprintln!(
            "{id}: {n} positions in {:.1} s",
            clock.elapsed().as_secs_f64()
        );
        counts.push((id, n));
    }
    // Every reachable position, as `chopsticks stats` counts them.
    for (id, n) in counts {
        let rules = Ruleset::from_variant_id(id).unwrap();
        let graph = chopsticks_space::Graph::new(&rules).unwrap();
        let start = graph.index_of(&chopsticks_rules::Position::start(&rules));
        let reached = chopsticks_space::explore(&graph, start, &|_| {})
            .reached
            .count() as usize;
        // Seated positions: one canonical position can be reached with different
        // seats to move, so there are at least as many.
        assert!(
            n >= reached,
            "{id}: {n} seated positions, {reached} reachable"
        );
    }
}
