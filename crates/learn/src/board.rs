//! A position drawn as a small board: one row per player, Player 1 first,
//! each hand drawn as the strategy sheet draws it ([`crate::sheet`]: a palm
//! with its raised fingers and its number), the player to move marked, the
//! position's seated id and a caption beneath. What a notebook shows inline
//! for a position (`chopsticks_toolkit.Position._repr_svg_`).

use chopsticks_draw::{hex, xml};
use chopsticks_rules::{Ruleset, SeatedPosition};

use crate::sheet::{hand_parts, HAND_W, ROW_H};

const PAD: usize = 10;
const LABEL_W: usize = 128;
const FOOT_H: usize = 22;
const INK: [u8; 3] = [0x20, 0x24, 0x2a];
const MUTED: [u8; 3] = [0x5a, 0x60, 0x6a];
const MOVER: [u8; 3] = [0xfd, 0xf3, 0xd8];
const EDGE: [u8; 3] = [0xb8, 0xbc, 0xc4];

/// The board of `seated` under `rules` as an SVG document, with `caption`
/// (a value, say) beside its id.
pub fn board_svg(rules: &Ruleset, seated: &SeatedPosition, caption: Option<&str>) -> String {
    let hands = seated.hands_by_seat();
    let widest = hands.iter().map(Vec::len).max().unwrap_or(0);
    let over = seated.position().is_terminal(rules);
    let mut foot = seated.to_text(rules).unwrap_or_default();
    if over {
        foot.push_str(" · game over");
    }
    if let Some(c) = caption {
        foot.push_str(" · ");
        foot.push_str(c);
    }
    // Wide enough for the hands and for the caption (11 px monospace: about
    // 7 px a character).
    let w = (2 * PAD + LABEL_W + widest * HAND_W).max(2 * PAD + 7 * foot.chars().count());
    let h = 2 * PAD + hands.len() * ROW_H + FOOT_H;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" role=\"img\">\n<rect width=\"{w}\" height=\"{h}\" rx=\"8\" fill=\"#ffffff\" stroke=\"{}\"/>\n",
        hex(EDGE)
    );
    let turn = seated.turn();
    for (seat, row) in hands.iter().enumerate() {
        let y = PAD + seat * ROW_H;
        let mover = seat == turn && !over;
        if mover {
            s.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{ROW_H}\" rx=\"6\" fill=\"{}\"/>\n",
                PAD / 2,
                y,
                w - PAD,
                hex(MOVER)
            ));
        }
        let label = if mover {
            format!("Player {} ▶", seat + 1)
        } else {
            format!("Player {}", seat + 1)
        };
        s.push_str(&format!(
            "<text x=\"{PAD}\" y=\"{}\" font-size=\"13\"{} fill=\"{}\">{}</text>\n",
            y + 27,
            if mover { " font-weight=\"bold\"" } else { "" },
            hex(if mover { INK } else { MUTED }),
            xml(&label)
        ));
        for (k, &v) in row.iter().enumerate() {
            for part in hand_parts(Some(v), rules.fingers) {
                s.push_str(&part.svg(PAD + LABEL_W + k * HAND_W, y));
            }
        }
    }
    s.push_str(&format!(
        "<text x=\"{PAD}\" y=\"{}\" font-size=\"11\" fill=\"{}\">{}</text>\n</svg>\n",
        h - PAD,
        hex(MUTED),
        xml(&foot)
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hand_and_the_mover_are_drawn() {
        let rules = Ruleset::default();
        let seated = SeatedPosition::parse("2_1213", &rules).unwrap();
        let svg = board_svg(&rules, &seated, Some("win in 5"));
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("Player 2 ▶"), "{svg}");
        assert!(svg.contains(">Player 1<"), "{svg}");
        assert!(svg.contains("2_1213 · win in 5"), "{svg}");
        // Four palms, each with its number.
        for n in ["1", "2", "3"] {
            assert!(svg.contains(&format!(">{n}</text>")), "{svg}");
        }
        let over = SeatedPosition::parse("1_0012", &rules).unwrap();
        let svg = board_svg(&rules, &over, Some("Player 1: has lost"));
        assert!(svg.contains("game over · Player 1: has lost"), "{svg}");
        // Wide enough for its caption.
        let width: usize = svg
            .split("width=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            width >= 7 * "1_0012 · game over · Player 1: has lost".chars().count(),
            "{width}"
        );
        assert!(!svg.contains("▶"), "{svg}");
    }
}
