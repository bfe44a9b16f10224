//! Pictures of a table of values: a grid of coloured cells (one colour per
//! distinct value), row and column labels, a title and a legend mapping each
//! colour (and its key number, also written in the cells) to its value. Rendered
//! as SVG text or as a PNG image (with the built-in [`chopsticks_draw::font`]).

use chopsticks_draw::{font, hex, text_width, xml};
pub use chopsticks_draw::{Canvas, Rgb};

/// A grid to draw.
#[derive(Clone, Debug)]
pub struct GridPicture {
    /// The line above the grid.
    pub title: String,
    /// Name of the rows (`i`), written at the top left.
    pub row_label: String,
    /// Name of the columns (`j`).
    pub col_label: String,
    /// The label of the first row (`1` for the paper's tables; rows count up from it).
    pub first_row: usize,
    /// The label of the first column.
    pub first_col: usize,
    /// Row labels, when the rows are not numbered from `first_row` (empty:
    /// numbers).
    pub row_names: Vec<String>,
    /// Column labels (empty: numbers from `first_col`).
    pub col_names: Vec<String>,
    /// `cells[r][c]`: the legend entry of row `r + 1`, column `c + 1`.
    pub cells: Vec<Vec<usize>>,
    /// The legend: one text per distinct value.
    pub legend: Vec<String>,
    /// The heading of the legend (`value (outcome)` for tables of values).
    pub legend_title: String,
    /// `cell_titles[r][c]`: the SVG tooltip of a cell (empty: `(row|column):`
    /// and its legend entry).
    pub cell_titles: Vec<Vec<String>>,
}

/// Well-separated colours (Kelly's and Tableau's palettes), then golden-angle hues.
const PALETTE: [Rgb; 22] = [
    [0x4E, 0x79, 0xA7],
    [0xF2, 0x8E, 0x2B],
    [0xE1, 0x57, 0x59],
    [0x76, 0xB7, 0xB2],
    [0x59, 0xA1, 0x4F],
    [0xED, 0xC9, 0x48],
    [0xB0, 0x7A, 0xA1],
    [0xFF, 0x9D, 0xA7],
    [0x9C, 0x75, 0x5F],
    [0xBA, 0xB0, 0xAC],
    [0xA0, 0xCB, 0xE8],
    [0xFF, 0xBE, 0x7D],
    [0x8C, 0xD1, 0x7D],
    [0xB6, 0x99, 0x2D],
    [0x49, 0x98, 0x94],
    [0xD3, 0x72, 0x95],
    [0xFA, 0xBF, 0xD2],
    [0xD4, 0xA6, 0xC8],
    [0x79, 0x70, 0x6E],
    [0xD7, 0xB5, 0xA6],
    [0x2F, 0x4B, 0x7C],
    [0xE6, 0xE6, 0x00],
];

/// The colour of legend entry `k`.
pub fn colour(k: usize) -> Rgb {
    if k < PALETTE.len() {
        return PALETTE[k];
    }
    // Golden-angle hues, alternating lightness.
    let h = (k as f64 * 137.507_764) % 360.0;
    let l = if k.is_multiple_of(2) { 0.55 } else { 0.72 };
    hsl(h, 0.65, l)
}

fn hsl(h: f64, s: f64, l: f64) -> Rgb {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match (h / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let to = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    [to(r), to(g), to(b)]
}

/// Black or white, whichever reads better on `bg`.
fn ink(bg: Rgb) -> Rgb {
    let lum = 0.299 * bg[0] as f64 + 0.587 * bg[1] as f64 + 0.114 * bg[2] as f64;
    if lum > 140.0 {
        [0, 0, 0]
    } else {
        [255, 255, 255]
    }
}

/// Pixel geometry shared by the PNG and SVG renderings.
struct Layout {
    /// Font scale for labels (pixels per font pixel).
    scale: usize,
    cell: usize,
    margin: usize,
    title_h: usize,
    grid_x: usize,
    grid_y: usize,
    legend_x: usize,
    legend_row: usize,
    width: usize,
    height: usize,
}

impl GridPicture {
    /// The tooltip of the cell at row `r`, column `c`, showing legend entry `k`.
    fn cell_title(&self, r: usize, c: usize, k: usize) -> String {
        match self.cell_titles.get(r).and_then(|row| row.get(c)) {
            Some(t) => t.clone(),
            None => format!(
                "({}|{}): {}",
                self.row_name(r),
                self.col_name(c),
                self.legend[k]
            ),
        }
    }

    /// The label of row `r` (from 0).
    fn row_name(&self, r: usize) -> String {
        self.row_names
            .get(r)
            .cloned()
            .unwrap_or_else(|| (r + self.first_row).to_string())
    }

    /// The label of column `c` (from 0).
    fn col_name(&self, c: usize) -> String {
        self.col_names
            .get(c)
            .cloned()
            .unwrap_or_else(|| (c + self.first_col).to_string())
    }
}

impl Layout {
    fn new(p: &GridPicture) -> Layout {
        let rows = p.cells.len();
        let cols = p.cells.first().map_or(0, Vec::len);
        let scale = 2;
        let char_h = (font::HEIGHT + 1) * scale;
        let key_w = text_width(&p.legend.len().to_string(), 1);
        let cell = (key_w + 8).max(if rows > 40 { 12 } else { 34 });
        let margin = 16;
        let title_h = char_h + 12;
        let widest = (0..rows)
            .map(|r| p.row_name(r))
            .chain((0..cols).map(|c| p.col_name(c)))
            .map(|t| t.chars().count())
            .max()
            .unwrap_or(1);
        let label_w = text_width(&"0".repeat(widest), scale) + 10;
        let label_h = char_h + 6;
        let grid_x = margin + label_w;
        let grid_y = margin + title_h + label_h;
        let legend_x = grid_x + cols * cell + 30;
        let legend_row = char_h + 10;
        let legend_w = p
            .legend
            .iter()
            .enumerate()
            .map(|(k, t)| text_width(&format!("{:>3}  {t}", k + 1), scale))
            .max()
            .unwrap_or(0)
            .max(text_width(&format!("key  {}", p.legend_title), scale))
            + 40;
        let title_w = margin + text_width(&p.title, scale) + margin;
        let width = (legend_x + legend_w + margin).max(title_w);
        let grid_bottom = grid_y + rows * cell;
        let legend_bottom = grid_y + p.legend.len() * legend_row;
        let height = grid_bottom.max(legend_bottom) + margin;
        Layout {
            scale,
            cell,
            margin,
            title_h,
            grid_x,
            grid_y,
            legend_x,
            legend_row,
            width,
            height,
        }
    }
}

const GRID_LINE: Rgb = [255, 255, 255];
const DARK: Rgb = [30, 30, 30];

/// The most pixels [`fn@png`] draws (the canvas takes 3 bytes per pixel).
pub const MAX_PNG_PIXELS: usize = 64 << 20;

/// The picture's size in pixels, `(width, height)`.
pub fn dimensions(p: &GridPicture) -> (usize, usize) {
    let l = Layout::new(p);
    (l.width, l.height)
}

/// The picture as a PNG file's bytes. Pictures larger than [`MAX_PNG_PIXELS`] are
/// refused (an `InvalidInput` error saying the size).
pub fn png(p: &GridPicture) -> std::io::Result<Vec<u8>> {
    let l = Layout::new(p);
    if l.width.saturating_mul(l.height) > MAX_PNG_PIXELS {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "the picture would be {} × {} pixels, more than the {} million drawn at most; \
                 draw a smaller table or use --svg",
                l.width,
                l.height,
                MAX_PNG_PIXELS >> 20
            ),
        ));
    }
    let mut cv = Canvas::new(l.width, l.height);
    let s = l.scale;
    let char_w = (font::WIDTH + 1) * s;
    cv.text(l.margin, l.margin, &p.title, s, DARK);
    // Axis names and labels.
    let corner = format!("{}\\{}", p.row_label, p.col_label);
    let corner_x = (l.grid_x).saturating_sub(text_width(&corner, s) + 4);
    cv.text(corner_x, l.margin + l.title_h, &corner, s, DARK);
    let cols = p.cells.first().map_or(0, Vec::len);
    let step = if l.cell < char_w * 2 + 2 { 5 } else { 1 };
    for c in 0..cols {
        let label = p.col_name(c);
        if (c + 1) % step != 0 && c != 0 {
            continue;
        }
        let w = text_width(&label, s);
        let x = (l.grid_x + c * l.cell + l.cell / 2).saturating_sub(w / 2);
        cv.text(x, l.margin + l.title_h, &label, s, DARK);
    }
    for (r, row) in p.cells.iter().enumerate() {
        let label = p.row_name(r);
        let y = l.grid_y + r * l.cell + l.cell / 2 - (font::HEIGHT * s) / 2;
        if (r + 1) % step == 0 || r == 0 {
            let w = text_width(&label, s);
            cv.text(l.grid_x - 8 - w, y, &label, s, DARK);
        }
        for (c, &k) in row.iter().enumerate() {
            let bg = colour(k);
            let (x0, y0) = (l.grid_x + c * l.cell, l.grid_y + r * l.cell);
            cv.rect(x0, y0, l.cell, l.cell, GRID_LINE);
            cv.rect(x0 + 1, y0 + 1, l.cell - 1, l.cell - 1, bg);
            let key = (k + 1).to_string();
            let kw = text_width(&key, 1);
            if kw + 4 <= l.cell && l.cell >= 12 {
                cv.text(
                    x0 + (l.cell - kw) / 2 + 1,
                    y0 + (l.cell - font::HEIGHT) / 2,
                    &key,
                    1,
                    ink(bg),
                );
            }
        }
    }
    // Legend.
    cv.text(
        l.legend_x,
        l.margin + l.title_h,
        &format!("key  {}", p.legend_title),
        s,
        DARK,
    );
    for (k, text) in p.legend.iter().enumerate() {
        let y = l.grid_y + k * l.legend_row;
        let sw = font::HEIGHT * s + 4;
        let key = format!("{:>3}", k + 1);
        cv.text(l.legend_x, y + 2, &key, s, DARK);
        let sx = l.legend_x + text_width(&key, s) + 6;
        cv.rect(sx, y, sw, sw, DARK);
        cv.rect(sx + 1, y + 1, sw - 2, sw - 2, colour(k));
        cv.text(sx + sw + 10, y + 2, text, s, DARK);
    }
    cv.png()
}

/// The picture as an SVG document.
pub fn svg(p: &GridPicture) -> String {
    use std::fmt::Write as _;
    let l = Layout::new(p);
    let s = l.scale;
    let fs = (font::HEIGHT + 1) * s; // font size in px
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="monospace" font-size="{fs}">"#,
        w = l.width,
        h = l.height
    );
    let _ = writeln!(o, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}">{}</text>"#,
        l.margin,
        l.margin + fs,
        xml(&p.title)
    );
    let label_y = l.margin + l.title_h + fs - 2;
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" text-anchor="end">{}\{}</text>"#,
        l.grid_x - 4,
        label_y,
        xml(&p.row_label),
        xml(&p.col_label)
    );
    let cols = p.cells.first().map_or(0, Vec::len);
    for c in 0..cols {
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            l.grid_x + c * l.cell + l.cell / 2,
            label_y,
            xml(&p.col_name(c))
        );
    }
    let key_size = (l.cell / 2).clamp(6, 12);
    for (r, row) in p.cells.iter().enumerate() {
        let y = l.grid_y + r * l.cell;
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" text-anchor="end" dominant-baseline="central">{}</text>"#,
            l.grid_x - 8,
            y + l.cell / 2,
            xml(&p.row_name(r))
        );
        for (c, &k) in row.iter().enumerate() {
            let x = l.grid_x + c * l.cell;
            let bg = colour(k);
            let _ = writeln!(
                o,
                r#"<rect x="{x}" y="{y}" width="{cw}" height="{cw}" fill="{}" stroke="white"><title>{}</title></rect>"#,
                hex(bg),
                xml(&p.cell_title(r, c, k)),
                cw = l.cell
            );
            let _ = writeln!(
                o,
                r#"<text x="{}" y="{}" font-size="{key_size}" text-anchor="middle" dominant-baseline="central" fill="{}">{}</text>"#,
                x + l.cell / 2,
                y + l.cell / 2,
                hex(ink(bg)),
                k + 1
            );
        }
    }
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}">key  {}</text>"#,
        l.legend_x,
        label_y,
        xml(&p.legend_title)
    );
    for (k, text) in p.legend.iter().enumerate() {
        let y = l.grid_y + k * l.legend_row;
        let sw = font::HEIGHT * s + 4;
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            l.legend_x + 3 * (font::WIDTH + 1) * s,
            y + fs - 2,
            k + 1
        );
        let sx = l.legend_x + 3 * (font::WIDTH + 1) * s + 6;
        let _ = writeln!(
            o,
            r#"<rect x="{sx}" y="{y}" width="{sw}" height="{sw}" fill="{}" stroke="black"/>"#,
            hex(colour(k))
        );
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}">{}</text>"#,
            sx + sw + 10,
            y + fs - 2,
            xml(text)
        );
    }
    o.push_str("</svg>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GridPicture {
        GridPicture {
            title: "Values of (i|j)_2".into(),
            row_label: "i".into(),
            col_label: "j".into(),
            first_row: 1,
            first_col: 1,
            row_names: Vec::new(),
            col_names: Vec::new(),
            legend_title: "value (outcome)".into(),
            cell_titles: Vec::new(),
            cells: vec![vec![0, 1], vec![2, 1]],
            legend: vec!["0  (P)".into(), "*  (N)".into(), "{0|^[2]} & <x>".into()],
        }
    }

    #[test]
    fn png_is_a_png() {
        let bytes = png(&sample()).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    }

    #[test]
    fn svg_escapes_text() {
        let s = svg(&sample());
        assert!(s.starts_with("<svg"));
        assert!(s.contains("{0|^[2]} &amp; &lt;x&gt;"));
        assert!(s.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn colours_are_distinct() {
        let cs: Vec<Rgb> = (0..60).map(colour).collect();
        for i in 0..cs.len() {
            for j in 0..i {
                assert_ne!(cs[i], cs[j], "{i} {j}");
            }
        }
    }
}
