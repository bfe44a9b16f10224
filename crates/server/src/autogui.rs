//! GamesmanUni's AutoGUI v3: the board it draws for a position and the buttons it
//! draws for moves, as strings of its grammar (summarised in docs/API.md, "AutoGUI"),
//! and the `imageAutoGUIData` that gives those strings their geometry.
//!
//! The model: a theme lists **centres** (points of a board of `space` units); a
//! position string `T_BOARD~TEXT~TEXT…` names the side to move (`1` or `2`), then one
//! character per centre (an image key such as `f`, `-` for nothing, `.` for a text
//! slot filled by the `~` pieces in order); a move string draws a button in terms
//! of centres: `M_a_b_s` an arrow from centre `a` to centre `b`, `A_t_n_s` a token
//! (the image of key `t`) at centre `n`; any other string is a button beside the
//! board whose text is the move's name. Images are not served by us: GamesmanUni
//! bundles them and fetches none, so only images it ships can be named.
//!
//! Two layouts:
//!
//! - [`Layout::Classic`], for two players with two hands and at most four fingers
//!   up (`F ≤ 5`): GamesCrafters' own theme (background knuckles, foreground palms,
//!   `f` fingers, digit tokens for transfers), with their 42 centres, so the real
//!   client draws our positions exactly as it draws theirs. A hand's fingers are its
//!   value; within a player the smaller hand is the first (upper left for Player 1,
//!   lower right for Player 2), since our positions are multisets. Attacks are
//!   arrows between the hands' arrow ends (straight along a row, diagonal across),
//!   self-attacks arrows between the mover's own two hands, splits (transfers,
//!   divisions, suicides) digit tokens on the mover's side: the amount moved, with a
//!   downward arrow (`1`–`4`, from the upper hand to the lower) or an upward one
//!   (`6`–`9`, showing 10 − the digit). A pass is a button named `pass`.
//! - [`Layout::General`], for every other count of players, hands and fingers:
//!   the seats round the board, Player 1 at the bottom and the others clockwise
//!   in turn order (four or eight seats half a step round, so that none sits on
//!   the middle line); each seat's hands side by side, each hand a palm in the
//!   seat's colour (GamesmanUni's `general/` discs; with teams, the team's) and
//!   its raised fingers (GamesCrafters' finger image, up to ten) stacked away
//!   from the middle, its value as a text entity; the seat's name beyond (`P1`,
//!   with `-to-move` for the seat to move, beside a yellow disc, and `-out` for a
//!   seat with no hand left). Attacks and self-attacks are arrows between the
//!   hands' arrow ends, which lie on one convex curve between the rows of palms,
//!   each straight above or below its palm, so that no arrow runs over another
//!   end; splits and passes are buttons named by the move (`split 13→22`).
//!
//! **Sides.** GamesmanUni knows two players, and reads whose turn it is from the
//! first character of every position string. Two players: the seat to move. Team
//! play: the team to move (Player 1 = seats 1 and 3, Player 2 = seats 2 and 4).
//! Three or more players each for themselves: `1` when Player 1 is to move, `2`
//! for every other seat (Player 1 against all the others, the coalition its value
//! is computed against); the board names the seat to move.

use chopsticks_rules::{Move, Ruleset, SeatedPosition};
use serde_json::{json, Value as Json};

/// The sound of every move: GamesmanUni's `general/remove.mp3`, as GamesCrafters'
/// theme names it.
const SOUND: char = 'x';

/// The theme's name in `imageAutoGUIData`.
pub const THEME: &str = "regular";

/// Which board a variant is drawn on.
#[derive(Clone, Debug, PartialEq)]
pub enum Layout {
    /// GamesCrafters' Chopsticks theme (two players × two hands, `F ≤ 5`).
    Classic,
    /// Our own: seats on a circle, hands as text.
    General(General),
}

/// The geometry of the general layout.
#[derive(Clone, Debug, PartialEq)]
pub struct General {
    /// Centre index of each seat's first arrow end (one per hand).
    arrows: Vec<usize>,
    /// Every centre: the board's cells seat by seat (as [`Layout::position`]
    /// writes them: the marker of the seat to move, the seat's name, then each
    /// hand's palm, value and finger slots), then the arrow ends.
    centres: Vec<[f64; 2]>,
    /// Finger slots drawn per hand: `F − 1`, or none when `F > MAX_DRAWN + 1`
    /// (a hand is then its palm and its value).
    fingers: usize,
    /// The image key of each seat's palms.
    palms: Vec<char>,
    /// The side of the square a palm and a finger are drawn in.
    palm_scale: f64,
    finger_scale: f64,
}

/// The most fingers a hand is drawn with (`F ≤ 11`).
const MAX_DRAWN: u32 = 10;

/// The palms' colours, one per seat (GamesmanUni's `general/` discs): Player 1
/// blue and Player 2 red as on GamesCrafters' board, then the others.
const PALMS: [(char, &str); 8] = [
    ('b', "blue"),
    ('r', "red"),
    ('g', "green"),
    ('o', "orange"),
    ('p', "purple"),
    ('t', "teal"),
    ('k', "pink"),
    ('n', "brown"),
];

/// The image key of the marker beside the name of the seat to move (a yellow disc).
const MARKER: char = 'm';

/// The image key of a raised finger (GamesCrafters' `chopsticks/finger.svg`).
const FINGER: char = 'f';

/// Gap between a palm and its first finger (board units).
const FIRST_FINGER: f64 = 4.6;

/// A coordinate rounded to a tenth, to keep the theme short.
fn tenth(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

impl General {
    fn new(rules: &Ruleset) -> General {
        use std::f64::consts::PI;
        let p = rules.players();
        let radius = 34.0;
        let fingers = if rules.fingers <= MAX_DRAWN + 1 {
            rules.fingers.saturating_sub(1) as usize
        } else {
            0
        };
        // The seats' centres: Player 1 at the bottom, then clockwise.
        let seats: Vec<[f64; 2]> = (0..p)
            .map(|s| {
                // Four or eight seats start half a step round, so that no
                // seat sits on the middle line, its hands' row along a radius
                // (with two, six or an odd number none does).
                let first = if p.is_multiple_of(4) {
                    PI / p as f64
                } else {
                    0.0
                };
                let angle = PI / 2.0 + first + 2.0 * PI * s as f64 / p as f64;
                [50.0 + radius * angle.cos(), 50.0 + radius * angle.sin()]
            })
            .collect();
        // A seat's hands stand side by side, in a row no wider than the room
        // between its neighbours and the board's edges; one spacing for all.
        let between = if p == 2 {
            60.0
        } else {
            2.0 * radius * (PI / p as f64).sin() * 0.85
        };
        let step = seats
            .iter()
            .zip(&rules.hands)
            .map(|(c, &h)| {
                let room = between.min(2.0 * (c[0] - 3.0).min(97.0 - c[0]));
                (room / h.max(1) as f64).min(10.0)
            })
            .fold(10.0, f64::min);
        // Between fingers: at most 2.4, the column of fingers at most 13 long.
        let finger_step = if fingers > 1 {
            (13.0 / (fingers - 1) as f64).min(2.4)
        } else {
            2.4
        };
        let length = if fingers > 0 {
            FIRST_FINGER + (fingers - 1) as f64 * finger_step
        } else {
            0.0
        };
        // Outward from the board's middle line, each hand is: its arrow end,
        // its palm, its fingers, its value; the seat's name beyond. Fingers
        // point away from the middle line: up on the upper half (and on it),
        // down on the lower. The stretch is centred on the seat, within the board.
        let value = if fingers > 0 { length + 3.5 } else { 5.5 };
        let name = value + 4.5;
        let rows: Vec<(f64, f64)> = seats
            .iter()
            .map(|c| {
                let d = if c[1] <= 50.0 + 1e-9 { -1.0 } else { 1.0 };
                let palm_y = c[1] - d * (name - 13.0) / 2.0;
                let palm_y = if d < 0.0 {
                    palm_y.max(2.0 + name)
                } else {
                    palm_y.min(98.0 - name)
                };
                (d, palm_y)
            })
            .collect();
        // The arrow ends lie on one closed curve (two parabolas, back to back)
        // between the upper and the lower rows of palms, each straight above or
        // below its palm: the ends are then in convex position, so no arrow
        // between two of them runs over a third, and the arrows stay told apart.
        let upper = rows
            .iter()
            .filter(|r| r.0 < 0.0)
            .map(|r| r.1)
            .fold(0.0, f64::max);
        let lower = rows
            .iter()
            .filter(|r| r.0 > 0.0)
            .map(|r| r.1)
            .fold(100.0, f64::min);
        let middle = (upper + lower) / 2.0;
        let half_height = ((lower - upper) / 2.0 - 5.0).max(2.0);
        let mut cells: Vec<[f64; 2]> = Vec::new();
        let mut ends: Vec<[f64; 2]> = Vec::new();
        let mut arrows = Vec::with_capacity(p);
        let board_length: usize = rules.hands.iter().map(|h| 2 + h * (2 + fingers)).sum();
        for ((c, &h), &(d, palm_y)) in seats.iter().zip(&rules.hands).zip(&rows) {
            let name_y = palm_y + d * name;
            // Beside the name "Pn-to-move", on its left.
            cells.push([tenth((c[0] - 16.0).max(3.0)), tenth(name_y)]);
            cells.push([tenth(c[0]), tenth(name_y)]);
            arrows.push(board_length + ends.len());
            for i in 0..h {
                let x = c[0] + (i as f64 - (h as f64 - 1.0) / 2.0) * step;
                cells.push([tenth(x), tenth(palm_y)]);
                cells.push([tenth(x), tenth(palm_y + d * value)]);
                for k in 0..fingers {
                    let y = palm_y + d * (FIRST_FINGER + k as f64 * finger_step);
                    cells.push([tenth(x), tenth(y)]);
                }
                let across = (1.0 - ((x - 50.0) / 50.0).powi(2)).max(0.0);
                ends.push([tenth(x), tenth(middle + d * half_height * across)]);
            }
        }
        debug_assert_eq!(cells.len(), board_length);
        let palms = (0..p)
            .map(|s| PALMS[if rules.teams { s % 2 } else { s % PALMS.len() }].0)
            .collect();
        General {
            arrows,
            centres: cells.into_iter().chain(ends).collect(),
            fingers,
            palms,
            // A palm a little narrower than the room of a hand; a finger (a bar
            // 0.17 of its square wide and 0.04 high) as wide as the palm, and
            // thinner than the step between fingers.
            palm_scale: tenth((0.75 * step).min(8.0)),
            finger_scale: tenth((4.0 * step).min(36.0).min(18.75 * finger_step)),
        }
    }
}

/// GamesCrafters' 42 centres: fingers (0–15, four per hand, hands in the order
/// Player 1 upper, Player 1 lower, Player 2 lower, Player 2 upper), straight arrow
/// ends (16–19), diagonal arrow ends (20–23), then the transfer tokens of Player 1
/// (24–28: a row of five, 29–32: a row of four) and of Player 2 (33–37, 38–41).
fn classic_centres() -> Vec<[f64; 2]> {
    let upper_left = [[25.5, 22.5], [28.5, 18.5], [27.0, 14.5], [24.5, 10.5]];
    let mut centres = Vec::with_capacity(42);
    // Hand k: mirrored to its corner.
    for (mirror_x, mirror_y) in [(false, false), (false, true), (true, true), (true, false)] {
        for [x, y] in upper_left {
            centres.push([
                if mirror_x { 100.0 - x } else { x },
                if mirror_y { 100.0 - y } else { y },
            ]);
        }
    }
    centres.extend([[42.0, 17.0], [42.0, 83.0], [58.0, 83.0], [58.0, 17.0]]);
    centres.extend([[39.0, 28.0], [39.0, 72.0], [61.0, 72.0], [61.0, 28.0]]);
    for xs in [
        &[5.0, 12.0, 19.0, 26.0, 33.0][..],
        &[8.5, 15.5, 22.5, 29.5][..],
        &[95.0, 88.0, 81.0, 74.0, 67.0][..],
        &[91.5, 84.5, 77.5, 70.5][..],
    ] {
        centres.extend(xs.iter().map(|&x| [x, 50.0]));
    }
    centres
}

/// Whether the classic hand `k` (0–3) is in the upper row.
fn classic_upper(k: usize) -> bool {
    k == 0 || k == 3
}

/// The board index of a hand: seat `seat`'s `i`-th (sorted) hand. Player 2's hands
/// run from the lower (index 2) to the upper (index 3), as GamesCrafters order them.
fn classic_hand(seat: usize, i: usize) -> usize {
    2 * seat + i
}

/// Whether a variant is drawn on GamesCrafters' own board.
pub fn is_classic(rules: &Ruleset) -> bool {
    rules.players() == 2 && rules.hands.iter().all(|&h| h == 2) && rules.fingers <= 5
}

impl Layout {
    /// The layout of a variant.
    pub fn of(rules: &Ruleset) -> Layout {
        if is_classic(rules) {
            Layout::Classic
        } else {
            Layout::General(General::new(rules))
        }
    }

    /// `imageAutoGUIData`: the theme GamesmanUni draws the strings with.
    pub fn image_data(&self) -> Json {
        let theme = match self {
            Layout::Classic => {
                let mut images = serde_json::Map::new();
                for d in ['0', '1', '2', '3', '4', '6', '7', '8', '9'] {
                    images.insert(
                        d.to_string(),
                        json!({"image": format!("chopsticks/{d}.svg"), "scale": 100}),
                    );
                }
                images.insert(
                    "f".to_string(),
                    json!({"image": "chopsticks/finger.svg", "scale": 100}),
                );
                json!({
                    "space": [100, 100],
                    "centers": classic_centres(),
                    "background": "chopsticks/knuckles.svg",
                    "foreground": "chopsticks/foreground.svg",
                    "charImages": images,
                    "arrowWidth": 1,
                    "sounds": {SOUND.to_string(): "general/remove.mp3"},
                    "animationType": "entityFade",
                })
            }
            Layout::General(g) => {
                let mut images = serde_json::Map::new();
                images.insert(
                    FINGER.to_string(),
                    json!({"image": "chopsticks/finger.svg", "scale": g.finger_scale}),
                );
                for &key in &g.palms {
                    let colour = PALMS.iter().find(|(k, _)| *k == key).expect("a palm").1;
                    images.insert(
                        key.to_string(),
                        json!({"image": format!("general/{colour}_circle.svg"), "scale": g.palm_scale}),
                    );
                }
                images.insert(
                    MARKER.to_string(),
                    json!({"image": "general/yellow_circle.svg", "scale": 5}),
                );
                json!({
                    "space": [100, 100],
                    "centers": g.centres,
                    "charImages": images,
                    "arrowWidth": 1.2,
                    "textEntityFontSize": 4.5,
                    "textButtonFontSize": 4.5,
                    "sounds": {SOUND.to_string(): "general/remove.mp3"},
                    "animationType": "entityFade",
                })
            }
        };
        json!({"defaultTheme": THEME, "themes": {THEME: theme}})
    }

    /// The position string: the side to move, `_`, the board and its texts.
    pub fn position(&self, rules: &Ruleset, seated: &SeatedPosition) -> String {
        let side = gamesman_side(rules, seated.turn());
        let by_seat = seated.hands_by_seat();
        let mut out = format!("{side}_");
        match self {
            Layout::Classic => {
                for hands in &by_seat {
                    for &v in hands {
                        for slot in 0..4 {
                            out.push(if slot < v { 'f' } else { '-' });
                        }
                    }
                }
            }
            Layout::General(g) => {
                let mut texts = Vec::new();
                for (seat, hands) in by_seat.iter().enumerate() {
                    let mut name = format!("P{}", seat + 1);
                    let mut marker = '-';
                    if hands.iter().all(|&v| v == 0) {
                        name.push_str("-out");
                    } else if seat == seated.turn() && !seated.position().is_terminal(rules) {
                        name.push_str("-to-move");
                        marker = MARKER;
                    }
                    out.push(marker);
                    out.push('.');
                    texts.push(name);
                    for &v in hands {
                        out.push(g.palms[seat]);
                        out.push('.');
                        texts.push(v.to_string());
                        for k in 0..g.fingers {
                            out.push(if k < v as usize { FINGER } else { '-' });
                        }
                    }
                }
                for t in texts {
                    out.push('~');
                    out.push_str(&t);
                }
            }
        }
        out
    }

    /// The move strings of a position's moves, in the same order. Unique within
    /// the position (the moves are distinct).
    pub fn moves(&self, seated: &SeatedPosition, moves: &[&Move], rules: &Ruleset) -> Vec<String> {
        let mover = seated.turn();
        let by_seat = seated.hands_by_seat();
        // The i-th hand of `seat` holding `value`, skipping the hand `except`.
        let find = |seat: usize, value: u32, except: Option<usize>| -> usize {
            by_seat[seat]
                .iter()
                .enumerate()
                .position(|(i, &v)| v == value && Some(i) != except)
                .expect("a move names hands the position has")
        };
        let splits = moves
            .iter()
            .filter(|m| matches!(m, Move::Split { .. }))
            .count();
        let mut split_number = 0;
        moves
            .iter()
            .map(|m| match (self, m) {
                (_, Move::Pass) => m.describe(rules),
                (Layout::Classic, Move::Tap { from, target, to }) => {
                    let a = classic_hand(mover, find(mover, *from, None));
                    let t = seated.seat_of(*target);
                    let b = classic_hand(t, find(t, *to, None));
                    let base = if classic_upper(a) == classic_upper(b) {
                        16
                    } else {
                        20
                    };
                    format!("M_{}_{}_{SOUND}", base + a, base + b)
                }
                (Layout::Classic, Move::SelfTap { from, to }) => {
                    let i = find(mover, *from, None);
                    let j = find(mover, *to, Some(i));
                    let (a, b) = (classic_hand(mover, i), classic_hand(mover, j));
                    format!("M_{}_{}_{SOUND}", 20 + a, 20 + b)
                }
                (Layout::Classic, Move::Split { before, after, .. }) => {
                    let digit = classic_token(mover, before, after);
                    // An odd number of splits on the row of five, an even one on the
                    // row of four, centred.
                    let (first, row) = if splits % 2 == 1 { (24, 5) } else { (29, 4) };
                    let first = first + 9 * mover + (row - splits.min(row)) / 2;
                    let slot = first + split_number;
                    split_number += 1;
                    format!("A_{digit}_{slot}_{SOUND}")
                }
                (Layout::General(g), Move::Tap { from, target, to }) => {
                    let t = seated.seat_of(*target);
                    let a = g.arrows[mover] + find(mover, *from, None);
                    let b = g.arrows[t] + find(t, *to, None);
                    format!("M_{a}_{b}_{SOUND}")
                }
                (Layout::General(g), Move::SelfTap { from, to }) => {
                    let i = find(mover, *from, None);
                    let j = find(mover, *to, Some(i));
                    format!("M_{}_{}_{SOUND}", g.arrows[mover] + i, g.arrows[mover] + j)
                }
                (Layout::General(_), Move::Split { .. }) => m.describe(rules),
            })
            .collect()
    }
}

/// The digit token of a split of two hands, `before → after` (both sorted): the
/// amount moved, `1`–`4` when the upper hand gives it (a downward arrow), `10 −` the
/// amount when the lower hand does (an upward one). Of the two ways to read a split
/// of a multiset, the one moving fewer fingers.
fn classic_token(seat: usize, before: &[u32], after: &[u32]) -> u32 {
    // The upper hand: Player 1's first, Player 2's second (board index 3).
    let (upper, lower) = if seat == 0 { (0, 1) } else { (1, 0) };
    let (u, l) = (before[upper] as i64, before[lower] as i64);
    // The upper hand becomes after[upper] or after[lower].
    let a = after[upper] as i64 - u;
    let b = after[lower] as i64 - u;
    debug_assert_eq!(u + l, after[0] as i64 + after[1] as i64);
    let gain = if a.abs() <= b.abs() && a != 0 { a } else { b };
    if gain < 0 {
        (-gain) as u32
    } else {
        10 - gain as u32
    }
}

/// GamesmanUni's side to move (1 or 2) for the absolute seat `turn` (0-based):
/// see the module documentation.
pub fn gamesman_side(rules: &Ruleset, turn: usize) -> usize {
    if rules.players() == 2 {
        turn + 1
    } else if rules.teams {
        turn % 2 + 1
    } else if turn == 0 {
        1
    } else {
        2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chopsticks_rules::Position;

    fn seated(rules: &Ruleset, text: &str) -> SeatedPosition {
        SeatedPosition::parse(text, rules).unwrap()
    }

    /// GamesCrafters' own strings for Chopsticks, in our rules' terms.
    #[test]
    fn classic_strings_are_gamescrafters() {
        let rules = Ruleset::from_variant_id("simple").unwrap();
        let layout = Layout::of(&rules);
        assert_eq!(layout, Layout::Classic);
        let start = SeatedPosition::start(&rules);
        assert_eq!(layout.position(&rules, &start), "1_f---f---f---f---");
        let after = start.after(Position::parse("1211", &rules).unwrap(), 1);
        assert_eq!(layout.position(&rules, &after), "2_f---f---f---ff--");
        // Player 1's smaller hand (upper left) taps Player 2's larger hand (upper
        // right): a straight arrow along the upper row.
        let p = seated(&rules, "1_1112");
        let moves: Vec<Move> = p
            .position()
            .moves(&rules)
            .into_iter()
            .map(|m| m.0)
            .collect();
        let refs: Vec<&Move> = moves.iter().collect();
        let strings = layout.moves(&p, &refs, &rules);
        let tap_1_2 = moves
            .iter()
            .position(|m| {
                *m == Move::Tap {
                    from: 1,
                    target: 1,
                    to: 2,
                }
            })
            .unwrap();
        assert_eq!(strings[tap_1_2], "M_16_19_x");
        let tap_1_1 = moves
            .iter()
            .position(|m| {
                *m == Move::Tap {
                    from: 1,
                    target: 1,
                    to: 1,
                }
            })
            .unwrap();
        // Onto Player 2's smaller hand (lower right): a diagonal arrow.
        assert_eq!(strings[tap_1_1], "M_20_22_x");
    }

    #[test]
    fn classic_transfer_tokens() {
        let rules = Ruleset::from_variant_id("standard").unwrap();
        let layout = Layout::of(&rules);
        // Player 1 holds 1 (upper) and 3 (lower): giving one up is token 9.
        let p = seated(&rules, "1_1311");
        let moves: Vec<Move> = p
            .position()
            .moves(&rules)
            .into_iter()
            .map(|m| m.0)
            .collect();
        let refs: Vec<&Move> = moves.iter().collect();
        let strings = layout.moves(&p, &refs, &rules);
        let split = moves
            .iter()
            .position(|m| matches!(m, Move::Split { after, .. } if after == &vec![2, 2]))
            .unwrap();
        assert!(strings[split].starts_with("A_9_"), "{}", strings[split]);
        // Player 2 holds 1 (lower) and 3 (upper): giving one down is token 1.
        let p = seated(&rules, "2_2213");
        let moves: Vec<Move> = p
            .position()
            .moves(&rules)
            .into_iter()
            .map(|m| m.0)
            .collect();
        let refs: Vec<&Move> = moves.iter().collect();
        let strings = layout.moves(&p, &refs, &rules);
        let split = moves
            .iter()
            .position(|m| matches!(m, Move::Split { after, .. } if after == &vec![2, 2]))
            .unwrap();
        assert!(strings[split].starts_with("A_1_"), "{}", strings[split]);
        let slot: usize = strings[split].split('_').nth(2).unwrap().parse().unwrap();
        assert!((33..42).contains(&slot), "{slot}");
    }

    #[test]
    fn sides() {
        let two = Ruleset::from_variant_id("standard").unwrap();
        let three = Ruleset::from_variant_id("standard.p3").unwrap();
        let teams = Ruleset::from_variant_id("standard.p4.teams").unwrap();
        assert_eq!((gamesman_side(&two, 0), gamesman_side(&two, 1)), (1, 2));
        assert_eq!(
            (0..3).map(|t| gamesman_side(&three, t)).collect::<Vec<_>>(),
            [1, 2, 2]
        );
        assert_eq!(
            (0..4).map(|t| gamesman_side(&teams, t)).collect::<Vec<_>>(),
            [1, 2, 1, 2]
        );
    }

    /// The general board's geometry for many shapes (two to eight players):
    /// every centre on the board, no two image cells on one spot, no two arrow
    /// ends together, and up to four players no arrow between two seats' hands
    /// passing over a third hand's arrow end (the arrows stay told apart).
    #[test]
    fn general_boards_keep_arrows_apart() {
        for players in 2..=8 {
            for hands in 1..=3 {
                for fingers in [3, 5, 10, 12] {
                    let id = format!("rollover.p{players}.h{hands}.f{fingers}");
                    let rules = Ruleset::from_variant_id(&id).unwrap();
                    let Layout::General(g) = Layout::of(&rules) else {
                        assert!(is_classic(&rules), "{id}");
                        continue;
                    };
                    for &[x, y] in &g.centres {
                        assert!(
                            (0.0..=100.0).contains(&x) && (0.0..=100.0).contains(&y),
                            "{id}"
                        );
                    }
                    let board = g.arrows[0];
                    for a in 0..board {
                        for b in a + 1..board {
                            assert_ne!(g.centres[a], g.centres[b], "{id}: cells {a} and {b}");
                        }
                    }
                    let ends: Vec<(usize, [f64; 2])> = (0..players)
                        .flat_map(|s| (0..hands).map(move |i| (s, i)))
                        .map(|(s, i)| (s, g.centres[g.arrows[s] + i]))
                        .collect();
                    for (k, &(_, a)) in ends.iter().enumerate() {
                        for &(_, b) in &ends[k + 1..] {
                            assert!(
                                (a[0] - b[0]).abs() + (a[1] - b[1]).abs() > 1.0,
                                "{id}: two arrow ends at {a:?}"
                            );
                        }
                    }
                    // Up to four players (five and more are crowded: an arrow
                    // may pass within a unit of a far seat's other end).
                    for &(s, a) in ends.iter().filter(|_| players <= 4) {
                        for &(t, b) in &ends {
                            if s == t {
                                continue;
                            }
                            for &(_, c) in &ends {
                                if c == a || c == b {
                                    continue;
                                }
                                let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
                                let along =
                                    ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / (dx * dx + dy * dy);
                                let (px, py) = (a[0] + along * dx, a[1] + along * dy);
                                let off = ((c[0] - px).powi(2) + (c[1] - py).powi(2)).sqrt();
                                assert!(
                                    !(0.0..=1.0).contains(&along) || off > 1.0,
                                    "{id}: the arrow {a:?} → {b:?} runs over the end {c:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
