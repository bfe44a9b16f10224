//! A strategy sheet to print: the configurations of a winning strategy (or the
//! traps of a drawn variant) drawn with hands, numbered in the order to try
//! them.
//!
//! The sheet is laid out once in whole pixels ([`Sheet::layout`]): a title,
//! the instructions wrapped to the page, then one card per configuration in
//! rows, each card a row of hands per player (the player the list is for
//! first, then the others in turn order), each hand a palm with its raised
//! fingers (up to five drawn; more are written only as the number) and its
//! number. The same layout is drawn as SVG ([`Sheet::svg`]) and as PNG
//! ([`Sheet::png`], with the built-in bitmap font).

use chopsticks_draw::{font, hex, text_width, xml, Canvas, Rgb};
use chopsticks_rules::Ruleset;
use chopsticks_solve::strategy::{seat_name, Advice};

use crate::LearnError;

/// One hand on a card: its value, or `None` for "any" (the `?` of an
/// immediate win).
pub type Hand = Option<u32>;

/// One configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    /// Its number in the list (1 first).
    pub number: usize,
    /// Each player's hands, the player the list is for first.
    pub players: Vec<Vec<Hand>>,
    /// A line under the hands (`win at once`, `they win in 5`), or empty.
    pub note: String,
}

/// The most cards [`Sheet::svg_estimate`] draws to estimate a sheet's size.
pub const SAMPLE_CARDS: usize = 64;

/// A sheet: title, instructions, cards.
#[derive(Clone, Debug)]
pub struct Sheet {
    pub title: String,
    pub instructions: String,
    /// The names of the rows of a card (`you`, `them`).
    pub row_names: Vec<String>,
    pub cards: Vec<Card>,
    pub fingers: u32,
}

/// Reads a configuration as `configuration_text` writes it: `[3,1],[1,0]`,
/// `[?,?],[0,0]`.
pub fn parse_configuration(text: &str) -> Result<Vec<Vec<Hand>>, LearnError> {
    let bad = || LearnError::Sheet(format!("cannot read the configuration `{text}`"));
    let mut players = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let inner = rest.strip_prefix('[').ok_or_else(bad)?;
        let close = inner.find(']').ok_or_else(bad)?;
        let hands = inner[..close]
            .split(',')
            .map(|h| match h.trim() {
                "?" => Ok(None),
                v => v.parse::<u32>().map(Some).map_err(|_| bad()),
            })
            .collect::<Result<Vec<Hand>, LearnError>>()?;
        players.push(hands);
        rest = inner[close + 1..].trim_start_matches(',').trim();
    }
    if players.is_empty() {
        return Err(bad());
    }
    Ok(players)
}

impl Sheet {
    /// The sheet of `advice` (from `chopsticks_solve::strategy::advice`) for a
    /// variant of these rules.
    pub fn from_advice(rules: &Ruleset, advice: &Advice) -> Result<Sheet, LearnError> {
        let players = rules.players();
        let row_names: Vec<String> = if players == 2 {
            vec!["you".into(), "them".into()]
        } else {
            std::iter::once("you".to_string())
                .chain((1..players).map(|k| format!("+{k}")))
                .collect()
        };
        let title = format!("Chopsticks, {}", rules.variant_id());
        let (instructions, cards) = match advice {
            Advice::Win {
                seat,
                win_immediately,
                configurations,
                positions_faced,
                ..
            } => {
                let mut cards = Vec::new();
                if *win_immediately {
                    // Two players: any hands of yours, none left to the other
                    // (misère: none left to you). More: written in the note.
                    let (players_hands, note): (Vec<Vec<Hand>>, &str) = if players == 2 {
                        let (h0, h1) = (rules.hands[0], rules.hands[1]);
                        if rules.misere {
                            (vec![vec![Some(0); h0], vec![None; h1]], "win at once")
                        } else {
                            (vec![vec![None; h0], vec![Some(0); h1]], "win at once")
                        }
                    } else {
                        (
                            rules.hands.iter().map(|&h| vec![None; h]).collect(),
                            "win at once when you can",
                        )
                    };
                    cards.push(Card {
                        number: 1,
                        players: players_hands,
                        note: note.into(),
                    });
                }
                for c in configurations {
                    cards.push(Card {
                        number: cards.len() + 1,
                        players: parse_configuration(c)?,
                        note: String::new(),
                    });
                }
                let whose = if players == 2 {
                    "your hands on top, your opponent's below".to_string()
                } else {
                    "your hands on top, then the next players' in turn order".to_string()
                };
                (
                    format!(
                        "{}. The {} player can force a win. After each of your moves, reach the first configuration of this list that you can ({whose}; left to right, rows down). Checked against every defence ({positions_faced} positions faced).",
                        rules.describe(),
                        seat_name(*seat)
                    ),
                    cards,
                )
            }
            Advice::Draw { avoid } => {
                let cards = avoid
                    .iter()
                    .enumerate()
                    .map(|(k, (c, n))| {
                        Ok(Card {
                            number: k + 1,
                            players: parse_configuration(c)?,
                            note: format!("they win in {n}"),
                        })
                    })
                    .collect::<Result<Vec<Card>, LearnError>>()?;
                (
                    format!("{}. Nobody can force a win. Never move into one of these configurations (your hands on top): from there the next player can force a win, as fast as the note says.", rules.describe()),
                    cards,
                )
            }
        };
        Ok(Sheet {
            title,
            instructions,
            row_names,
            cards,
            fingers: rules.fingers,
        })
    }

    /// The length in bytes of [`Sheet::svg`] for `advice`, estimated without
    /// laying out the whole sheet: the sheet of at most [`SAMPLE_CARDS`] of its
    /// cards, evenly spaced, is drawn and its cards' bytes scaled to all of
    /// them. What a server weighs before it draws a sheet.
    pub fn svg_estimate(rules: &Ruleset, advice: &Advice) -> Result<u64, LearnError> {
        fn sample<T: Clone>(list: &[T]) -> Vec<T> {
            let n = list.len();
            let k = n.min(SAMPLE_CARDS);
            (0..k).map(|i| list[i * n / k].clone()).collect()
        }
        let (sampled, total) = match advice {
            Advice::Win {
                seat,
                win_immediately,
                configurations,
                listed,
                positions_faced,
            } => (
                Advice::Win {
                    seat: *seat,
                    win_immediately: false,
                    configurations: sample(configurations),
                    listed: *listed,
                    positions_faced: *positions_faced,
                },
                configurations.len() + usize::from(*win_immediately),
            ),
            Advice::Draw { avoid } => (
                Advice::Draw {
                    avoid: sample(avoid),
                },
                avoid.len(),
            ),
        };
        let mut drawn = Sheet::from_advice(rules, &sampled)?;
        let cards = drawn.cards.len().max(1) as u64;
        let with_cards = drawn.svg().len() as u64;
        // The same sheet without its cards: the title and the instructions.
        drawn.cards.clear();
        let head = drawn.svg().len() as u64;
        let per_card = with_cards.saturating_sub(head).div_ceil(cards);
        Ok(head + per_card * total as u64)
    }

    /// Where everything goes.
    pub fn layout(&self) -> Layout {
        let hands = self
            .cards
            .iter()
            .flat_map(|c| c.players.iter().map(Vec::len))
            .max()
            .unwrap_or(2);
        let rows = self
            .cards
            .iter()
            .map(|c| c.players.len())
            .max()
            .unwrap_or(2);
        let label_w = self
            .row_names
            .iter()
            .map(|n| text_width(n, 1))
            .max()
            .unwrap_or(0)
            + 6;
        let card_w = PAD * 2 + label_w + hands * HAND_W;
        let card_h = NUMBER_H + rows * ROW_H + NOTE_H + PAD;
        let page_w = PAGE_W.max(card_w + 2 * MARGIN);
        let cols = ((page_w - 2 * MARGIN + GAP) / (card_w + GAP)).max(1);
        let chars = (page_w - 2 * MARGIN) / ((font::WIDTH + 1) * TEXT_SCALE);
        let lines = wrap(&self.instructions, chars);
        let title_h = (font::HEIGHT + 3) * TITLE_SCALE;
        let text_top = MARGIN + title_h + 6;
        let line_h = (font::HEIGHT + 3) * TEXT_SCALE;
        let cards_top = text_top + lines.len() * line_h + 12;
        let card_rows = self.cards.len().div_ceil(cols);
        let height = cards_top + card_rows * (card_h + GAP) + MARGIN;
        Layout {
            width: page_w,
            height,
            lines,
            text_top,
            line_h,
            cards_top,
            cols,
            card_w,
            card_h,
            label_w,
        }
    }

    /// The sheet as an SVG document.
    pub fn svg(&self) -> String {
        let l = self.layout();
        let mut s = String::new();
        let font_px = |scale: usize| (font::HEIGHT + 2) * scale;
        s.push_str(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n",
            w = l.width,
            h = l.height
        ));
        s.push_str(&format!(
            "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" fill=\"{}\">{}</text>\n",
            MARGIN + font::HEIGHT * TITLE_SCALE,
            font_px(TITLE_SCALE),
            hex(INK),
            xml(&self.title)
        ));
        for (k, line) in l.lines.iter().enumerate() {
            s.push_str(&format!(
                "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"{}\" fill=\"{}\">{}</text>\n",
                l.text_top + k * l.line_h + font::HEIGHT * TEXT_SCALE,
                font_px(TEXT_SCALE),
                hex(INK),
                xml(line)
            ));
        }
        for (k, card) in self.cards.iter().enumerate() {
            let (x, y) = l.card_origin(k);
            s.push_str(&format!(
                "<g class=\"card\" data-number=\"{}\">\n<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" rx=\"8\" fill=\"{}\" stroke=\"{}\"/>\n<text x=\"{}\" y=\"{}\" font-size=\"14\" font-weight=\"bold\" fill=\"{}\">{}.</text>\n",
                card.number,
                l.card_w,
                l.card_h,
                hex(CARD),
                hex(EDGE),
                x + PAD,
                y + PAD + 11,
                hex(INK),
                card.number
            ));
            for (r, hands) in card.players.iter().enumerate() {
                let ry = y + NUMBER_H + r * ROW_H;
                if let Some(name) = self.row_names.get(r) {
                    s.push_str(&format!(
                        "<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"{}\">{}</text>\n",
                        x + PAD,
                        ry + 27,
                        hex(MUTED),
                        xml(name)
                    ));
                }
                for (h, hand) in hands.iter().enumerate() {
                    let hx = x + PAD + l.label_w + h * HAND_W;
                    for part in hand_parts(*hand, self.fingers) {
                        s.push_str(&part.svg(hx, ry));
                    }
                }
            }
            if !card.note.is_empty() {
                s.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{}\">{}</text>\n",
                    x + PAD,
                    y + l.card_h - PAD - 2,
                    hex(MUTED),
                    xml(&card.note)
                ));
            }
            s.push_str("</g>\n");
        }
        s.push_str("</svg>\n");
        s
    }

    /// The sheet as a PNG file's bytes.
    pub fn png(&self) -> std::io::Result<Vec<u8>> {
        let l = self.layout();
        let mut cv = Canvas::new(l.width, l.height);
        cv.text(MARGIN, MARGIN, &self.title, TITLE_SCALE, INK);
        for (k, line) in l.lines.iter().enumerate() {
            cv.text(MARGIN, l.text_top + k * l.line_h, line, TEXT_SCALE, INK);
        }
        for (k, card) in self.cards.iter().enumerate() {
            let (x, y) = l.card_origin(k);
            cv.rect(x, y, l.card_w, l.card_h, CARD);
            cv.frame(x, y, l.card_w, l.card_h, 1, EDGE);
            cv.text(x + PAD, y + PAD, &format!("{}.", card.number), 2, INK);
            for (r, hands) in card.players.iter().enumerate() {
                let ry = y + NUMBER_H + r * ROW_H;
                if let Some(name) = self.row_names.get(r) {
                    cv.text(x + PAD, ry + 20, name, 1, MUTED);
                }
                for (h, hand) in hands.iter().enumerate() {
                    let hx = x + PAD + l.label_w + h * HAND_W;
                    for part in hand_parts(*hand, self.fingers) {
                        part.draw(&mut cv, hx, ry);
                    }
                }
            }
            if !card.note.is_empty() {
                cv.text(x + PAD, y + l.card_h - PAD - 8, &card.note, 1, MUTED);
            }
        }
        cv.png()
    }
}

/// Where the parts of a sheet go, in pixels.
#[derive(Clone, Debug)]
pub struct Layout {
    pub width: usize,
    pub height: usize,
    /// The instructions, wrapped.
    pub lines: Vec<String>,
    text_top: usize,
    line_h: usize,
    cards_top: usize,
    pub cols: usize,
    pub card_w: usize,
    pub card_h: usize,
    label_w: usize,
}

impl Layout {
    fn card_origin(&self, k: usize) -> (usize, usize) {
        let (row, col) = (k / self.cols, k % self.cols);
        (
            MARGIN + col * (self.card_w + GAP),
            self.cards_top + row * (self.card_h + GAP),
        )
    }
}

const PAGE_W: usize = 820;
const MARGIN: usize = 24;
const GAP: usize = 12;
const PAD: usize = 8;
pub(crate) const HAND_W: usize = 40;
pub(crate) const ROW_H: usize = 44;
const NUMBER_H: usize = 22;
const NOTE_H: usize = 10;
const TITLE_SCALE: usize = 3;
const TEXT_SCALE: usize = 2;

const INK: Rgb = [0x20, 0x24, 0x2a];
const MUTED: Rgb = [0x5a, 0x60, 0x6a];
const CARD: Rgb = [0xfa, 0xfa, 0xf7];
const EDGE: Rgb = [0xb8, 0xbc, 0xc4];
const SKIN: Rgb = [0xf1, 0xc2, 0x7d];
const SKIN_EDGE: Rgb = [0xb0, 0x80, 0x40];
const DEAD: Rgb = [0xd8, 0xd8, 0xd8];
const ANY: Rgb = [0xe8, 0xee, 0xf8];

/// A filled rectangle or a text of a hand, relative to the hand's cell.
pub(crate) enum Part {
    Rect {
        x: usize,
        y: usize,
        w: usize,
        h: usize,
        fill: Rgb,
        edge: Option<Rgb>,
    },
    Text {
        x: usize,
        y: usize,
        text: String,
        fill: Rgb,
    },
}

impl Part {
    pub(crate) fn svg(&self, ox: usize, oy: usize) -> String {
        match self {
            Part::Rect {
                x,
                y,
                w,
                h,
                fill,
                edge,
            } => format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{w}\" height=\"{h}\" rx=\"{}\" fill=\"{}\"{}/>\n",
                ox + x,
                oy + y,
                (*w).min(*h) / 3,
                hex(*fill),
                edge.map_or(String::new(), |e| format!(" stroke=\"{}\"", hex(e)))
            ),
            Part::Text { x, y, text, fill } => format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{}\">{}</text>\n",
                ox + x + text_width(text, 2) / 2,
                oy + y + 14,
                hex(*fill),
                xml(text)
            ),
        }
    }

    fn draw(&self, cv: &mut Canvas, ox: usize, oy: usize) {
        match self {
            Part::Rect {
                x,
                y,
                w,
                h,
                fill,
                edge,
            } => {
                cv.rect(ox + x, oy + y, *w, *h, *fill);
                if let Some(e) = edge {
                    cv.frame(ox + x, oy + y, *w, *h, 1, *e);
                }
            }
            Part::Text { x, y, text, fill } => cv.text(ox + x, oy + y, text, 2, *fill),
        }
    }
}

/// A hand in a cell `HAND_W × ROW_H`: up to five finger slots above a palm,
/// the number on the palm.
pub(crate) fn hand_parts(hand: Hand, fingers: u32) -> Vec<Part> {
    let mut parts = Vec::new();
    let (palm_x, palm_y, palm_w, palm_h) = (4, 18, HAND_W - 8, 22);
    let palm = match hand {
        None => ANY,
        Some(0) => DEAD,
        Some(_) => SKIN,
    };
    if let Some(v) = hand {
        let slots = (fingers.saturating_sub(1) as usize).min(5);
        if fingers <= 6 && slots > 0 {
            let slot_w = palm_w / slots;
            for k in 0..slots {
                let up = (k as u32) < v;
                let h = if up { 14 } else { 4 };
                parts.push(Part::Rect {
                    x: palm_x + k * slot_w + (slot_w.saturating_sub(4)) / 2,
                    y: palm_y - h,
                    w: 4,
                    h,
                    fill: if up { SKIN } else { DEAD },
                    edge: up.then_some(SKIN_EDGE),
                });
            }
        }
    }
    parts.push(Part::Rect {
        x: palm_x,
        y: palm_y,
        w: palm_w,
        h: palm_h,
        fill: palm,
        edge: Some(if hand == Some(0) { EDGE } else { SKIN_EDGE }),
    });
    let text = hand.map_or("?".to_string(), |v| v.to_string());
    let w = text_width(&text, 2);
    parts.push(Part::Text {
        x: palm_x + palm_w.saturating_sub(w) / 2,
        y: palm_y + 4,
        text,
        fill: if hand == Some(0) { MUTED } else { INK },
    });
    parts
}

/// Words wrapped to lines of at most `width` characters.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configurations_read_back() {
        assert_eq!(
            parse_configuration("[3,1],[1,0]").unwrap(),
            vec![vec![Some(3), Some(1)], vec![Some(1), Some(0)]]
        );
        assert_eq!(
            parse_configuration("[?,?],[0,0],[2]").unwrap(),
            vec![vec![None, None], vec![Some(0), Some(0)], vec![Some(2)]]
        );
        assert!(parse_configuration("[3,x]").is_err());
        assert!(parse_configuration("").is_err());
        assert!(parse_configuration("[1,2").is_err());
    }

    #[test]
    fn text_wraps_at_words() {
        assert_eq!(wrap("aa bb cc dd", 5), vec!["aa bb", "cc dd"]);
        assert_eq!(wrap("", 5), Vec::<String>::new());
    }
}
