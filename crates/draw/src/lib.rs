//! Drawing for the project's pictures (tables of values, strategy sheets), with no
//! system library: a plain RGB raster ([`Canvas`]) written as PNG, a 5×7 bitmap
//! [`font`] drawn for this project, and the escaping and colour helpers that SVG
//! documents written as text need.
//!
//! The model is deliberately small: every picture is laid out in whole pixels by
//! its own module, then drawn twice from the same layout, once as filled
//! rectangles and glyphs on a [`Canvas`] (PNG) and once as SVG elements, so the
//! two files show the same thing.

pub mod font;

/// A colour as red, green, blue.
pub type Rgb = [u8; 3];

/// A plain RGB raster with the built-in font.
pub struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    /// A white canvas.
    pub fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            width,
            height,
            pixels: vec![255; width * height * 3],
        }
    }

    /// The size in pixels, `(width, height)`.
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// The colour of the pixel at (x, y), `None` outside the canvas.
    pub fn pixel(&self, x: usize, y: usize) -> Option<Rgb> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y * self.width + x) * 3;
        Some([self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]])
    }

    /// A filled rectangle, clipped to the canvas.
    pub fn rect(&mut self, x: usize, y: usize, w: usize, h: usize, c: Rgb) {
        for yy in y..(y + h).min(self.height) {
            for xx in x..(x + w).min(self.width) {
                let i = (yy * self.width + xx) * 3;
                self.pixels[i..i + 3].copy_from_slice(&c);
            }
        }
    }

    /// The outline of a rectangle, `t` pixels thick, inside its bounds.
    pub fn frame(&mut self, x: usize, y: usize, w: usize, h: usize, t: usize, c: Rgb) {
        self.rect(x, y, w, t.min(h), c);
        self.rect(x, (y + h).saturating_sub(t), w, t.min(h), c);
        self.rect(x, y, t.min(w), h, c);
        self.rect((x + w).saturating_sub(t), y, t.min(w), h, c);
    }

    /// Text with its top-left corner at (x, y), each font pixel `scale` pixels.
    pub fn text(&mut self, x: usize, y: usize, text: &str, scale: usize, c: Rgb) {
        for (k, ch) in text.chars().enumerate() {
            let g = font::glyph(ch);
            let ox = x + k * (font::WIDTH + 1) * scale;
            for (row, bits) in g.iter().enumerate() {
                for col in 0..font::WIDTH {
                    if bits & (1 << (font::WIDTH - 1 - col)) != 0 {
                        self.rect(ox + col * scale, y + row * scale, scale, scale, c);
                    }
                }
            }
        }
    }

    /// The canvas as a PNG file's bytes.
    pub fn png(&self) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, self.width as u32, self.height as u32);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            let mut w = enc.write_header().map_err(std::io::Error::other)?;
            w.write_image_data(&self.pixels)
                .map_err(std::io::Error::other)?;
        }
        Ok(out)
    }
}

/// The width in pixels of `text` drawn by [`Canvas::text`] at `scale`.
pub fn text_width(text: &str, scale: usize) -> usize {
    text.chars().count() * (font::WIDTH + 1) * scale
}

/// Text escaped for SVG (XML) content and attribute values.
pub fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `#rrggbb`.
pub fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_rectangles_land_where_asked() {
        let mut c = Canvas::new(40, 20);
        c.rect(2, 3, 4, 5, [10, 20, 30]);
        assert_eq!(c.pixel(2, 3), Some([10, 20, 30]));
        assert_eq!(c.pixel(5, 7), Some([10, 20, 30]));
        assert_eq!(c.pixel(6, 7), Some([255, 255, 255]));
        assert_eq!(c.pixel(40, 0), None);
        // "1" has its top row's middle pixel set in the font.
        c.text(20, 0, "1", 1, [0, 0, 0]);
        let inked = (0..font::WIDTH).any(|x| c.pixel(20 + x, 0) == Some([0, 0, 0]));
        assert!(inked);
        c.frame(0, 0, 40, 20, 1, [1, 1, 1]);
        assert_eq!(c.pixel(39, 19), Some([1, 1, 1]));
        let png = c.png().unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }

    #[test]
    fn svg_text_is_escaped() {
        assert_eq!(xml("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
        assert_eq!(hex([255, 0, 16]), "#ff0010");
        assert_eq!(text_width("abc", 2), 36);
    }
}
