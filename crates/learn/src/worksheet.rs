//! A worksheet of puzzles for a class: pages of A4 (794 × 1123 px, 96 px to
//! the inch) with each puzzle's hands drawn, its goal and room to write the
//! moves, then the answers on pages of their own.
//!
//! A puzzle page holds [`PER_PAGE`] puzzles, two columns of three; each shows
//! its number, grade and rating, its goal, every player's hands (Player 1
//! first, the player to move marked) drawn as the strategy sheet draws them
//! ([`crate::sheet`]), and ruled lines. The answer pages list, for each
//! puzzle, the moves accepted first and the whole solution with the other
//! moves accepted at each step, as `puzzles` prints it (left out with
//! `--hide-answers`). [`Worksheet::pages`] gives each page as its own SVG document
//! (the page's print view prints one per sheet of paper);
//! [`Worksheet::svg`] stacks them in one document, page under page.

use chopsticks_draw::{hex, xml};
use chopsticks_rules::{Ruleset, SeatedPosition};

use crate::puzzles::PuzzleView;
use crate::sheet::{hand_parts, wrap, HAND_W, ROW_H};
use crate::LearnError;

/// A4 at 96 px to the inch.
pub const PAGE_W: usize = 794;
pub const PAGE_H: usize = 1123;

/// Puzzles on a page.
pub const PER_PAGE: usize = 6;

/// Answers on a page.
const ANSWERS_PER_PAGE: usize = 12;

const MARGIN: usize = 40;
const COLS: usize = 2;
const CELL_GAP: usize = 16;
const CELL_H: usize = 320;
const TOP: usize = 96;
/// Characters to a line of a cell's text, at 12 px monospace.
const CELL_CHARS: usize = 48;
const PAGE_CHARS: usize = 100;

const INK: [u8; 3] = [0x20, 0x24, 0x2a];
const MUTED: [u8; 3] = [0x5a, 0x60, 0x6a];
const EDGE: [u8; 3] = [0xb8, 0xbc, 0xc4];
const RULE: [u8; 3] = [0xd0, 0xd4, 0xdc];

/// One puzzle on the worksheet.
#[derive(Clone, Debug)]
pub struct Item {
    pub number: usize,
    /// `grade 3 (medium), rated 2038`.
    pub grade: String,
    pub goal: String,
    /// Each player's label (`P1 to move`) and hands, Player 1 first.
    pub players: Vec<(String, Vec<u32>)>,
    /// The position's seated id, printed small under the hands.
    pub position: String,
    /// The answer: the accepted first moves, then the solution.
    pub answer: String,
}

/// A worksheet: a title, the puzzles, the fingers of the variant.
#[derive(Clone, Debug)]
pub struct Worksheet {
    pub title: String,
    pub items: Vec<Item>,
    pub fingers: u32,
    /// Whether the answer pages are drawn.
    pub answers: bool,
}

impl Worksheet {
    /// The worksheet of these puzzles of a variant of `rules`, with the answer
    /// pages or without (`answers`). No puzzle is refused: an empty worksheet
    /// teaches nothing.
    pub fn new(
        rules: &Ruleset,
        puzzles: &[PuzzleView],
        answers: bool,
    ) -> Result<Worksheet, LearnError> {
        if puzzles.is_empty() {
            return Err(LearnError::Sheet("no puzzle to draw on a worksheet".into()));
        }
        let mut items = Vec::with_capacity(puzzles.len());
        for (k, v) in puzzles.iter().enumerate() {
            let seated = SeatedPosition::parse(&v.position, rules)?;
            let players = seated
                .hands_by_seat()
                .into_iter()
                .enumerate()
                .map(|(seat, hands)| {
                    let mover = if seat == seated.turn() {
                        " to move"
                    } else {
                        ""
                    };
                    (format!("P{}{mover}", seat + 1), hands)
                })
                .collect();
            let solution = v
                .solution
                .steps
                .iter()
                .map(|s| match &s.accepted[..] {
                    [_, others @ ..] if !others.is_empty() => {
                        format!("P{} {} (or {})", s.player, s.name, others.join(", "))
                    }
                    _ => format!("P{} {}", s.player, s.name),
                })
                .collect::<Vec<_>>()
                .join(", ");
            items.push(Item {
                number: k + 1,
                grade: format!("grade {} ({}), rated {}", v.difficulty.0, v.grade, v.rating),
                goal: v.goal.clone(),
                players,
                position: v.position.clone(),
                answer: format!(
                    "{}: {solution} ({}).",
                    v.accepted.join(" or "),
                    v.solution.text
                ),
            });
        }
        Ok(Worksheet {
            title: format!("Chopsticks puzzles: {}", rules.variant_id()),
            items,
            fingers: rules.fingers,
            answers,
        })
    }

    /// How many pages: the puzzles', then the answers'.
    pub fn page_count(&self) -> usize {
        let answers = if self.answers {
            self.items.len().div_ceil(ANSWERS_PER_PAGE)
        } else {
            0
        };
        self.items.len().div_ceil(PER_PAGE) + answers
    }

    /// Every page, each an SVG document of its own.
    pub fn pages(&self) -> Vec<String> {
        let n = self.page_count();
        (0..n)
            .map(|k| {
                format!(
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{PAGE_W}\" height=\"{PAGE_H}\" viewBox=\"0 0 {PAGE_W} {PAGE_H}\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n{}</svg>\n",
                    self.page_body(k, n)
                )
            })
            .collect()
    }

    /// Every page in one SVG document, page under page.
    pub fn svg(&self) -> String {
        let n = self.page_count();
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{PAGE_W}\" height=\"{}\" viewBox=\"0 0 {PAGE_W} {}\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n",
            PAGE_H * n,
            PAGE_H * n
        );
        for k in 0..n {
            s.push_str(&format!(
                "<g transform=\"translate(0 {})\">\n{}</g>\n",
                k * PAGE_H,
                self.page_body(k, n)
            ));
        }
        s.push_str("</svg>\n");
        s
    }

    fn text(x: usize, y: usize, size: usize, bold: bool, fill: [u8; 3], text: &str) -> String {
        format!(
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\"{} fill=\"{}\">{}</text>\n",
            if bold { " font-weight=\"bold\"" } else { "" },
            hex(fill),
            xml(text)
        )
    }

    /// Page `k` of `n`: a puzzle page, or an answer page.
    fn page_body(&self, k: usize, n: usize) -> String {
        let puzzle_pages = self.items.len().div_ceil(PER_PAGE);
        let mut s = format!(
            "<g class=\"page\" data-page=\"{}\">\n<rect width=\"{PAGE_W}\" height=\"{PAGE_H}\" fill=\"#ffffff\"/>\n",
            k + 1
        );
        s.push_str(&Self::text(MARGIN, MARGIN + 14, 20, true, INK, &self.title));
        s.push_str(&Self::text(
            PAGE_W - MARGIN - 110,
            MARGIN + 14,
            11,
            false,
            MUTED,
            &format!("page {} of {n}", k + 1),
        ));
        if k < puzzle_pages {
            s.push_str(&Self::text(
                MARGIN,
                MARGIN + 40,
                12,
                false,
                INK,
                "Name: ________________________   Write each of your moves, then the reply you expect.",
            ));
            let cell_w = (PAGE_W - 2 * MARGIN - CELL_GAP) / COLS;
            for (j, item) in self
                .items
                .iter()
                .skip(k * PER_PAGE)
                .take(PER_PAGE)
                .enumerate()
            {
                let x = MARGIN + (j % COLS) * (cell_w + CELL_GAP);
                let y = TOP + (j / COLS) * (CELL_H + CELL_GAP);
                s.push_str(&self.cell(item, x, y, cell_w));
            }
        } else {
            s.push_str(&Self::text(MARGIN, MARGIN + 40, 14, true, INK, "Answers"));
            let first = (k - puzzle_pages) * ANSWERS_PER_PAGE;
            let mut y = TOP;
            for item in self.items.iter().skip(first).take(ANSWERS_PER_PAGE) {
                let lines = wrap(&format!("{}. {}", item.number, item.answer), PAGE_CHARS);
                for (m, line) in lines.iter().take(5).enumerate() {
                    s.push_str(&Self::text(MARGIN, y + m * 15, 11, m == 0, INK, line));
                }
                y += 15 * lines.len().min(5) + 12;
            }
        }
        s.push_str("</g>\n");
        s
    }

    /// One puzzle's cell at `(x, y)`, `w` wide.
    fn cell(&self, item: &Item, x: usize, y: usize, w: usize) -> String {
        let mut s = format!(
            "<g class=\"puzzle\" data-number=\"{}\">\n<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{CELL_H}\" rx=\"8\" fill=\"#ffffff\" stroke=\"{}\"/>\n",
            item.number,
            hex(EDGE)
        );
        s.push_str(&Self::text(
            x + 10,
            y + 20,
            14,
            true,
            INK,
            &format!("{}.", item.number),
        ));
        s.push_str(&Self::text(x + 40, y + 20, 10, false, MUTED, &item.grade));
        let mut ty = y + 38;
        for line in wrap(&item.goal, CELL_CHARS).iter().take(3) {
            s.push_str(&Self::text(x + 10, ty, 11, false, INK, line));
            ty += 14;
        }
        let mut hy = ty + 2;
        for (label, hands) in &item.players {
            s.push_str(&Self::text(
                x + 10,
                hy + 27,
                10,
                label.ends_with("to move"),
                MUTED,
                label,
            ));
            for (h, &v) in hands.iter().enumerate() {
                for part in hand_parts(Some(v), self.fingers) {
                    s.push_str(&part.svg(x + 90 + h * HAND_W, hy));
                }
            }
            hy += ROW_H;
        }
        s.push_str(&Self::text(
            x + 10,
            hy + 10,
            9,
            false,
            MUTED,
            &item.position,
        ));
        // Room to write: ruled lines to the cell's foot.
        let mut ly = hy + 34;
        while ly + 8 < y + CELL_H {
            s.push_str(&format!(
                "<line x1=\"{}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{}\"/>\n",
                x + 10,
                x + w - 10,
                hex(RULE)
            ));
            ly += 24;
        }
        s.push_str("</g>\n");
        s
    }
}
