//! Table 1 for every finger count: the values of `(i|j)_n`, `1 ≤ i, j ≤ n`, for
//! every `n ≤ MAX` (default 200), in one shared `GameStore`, with
//!
//! * the closed forms of bands 0–2 and of band 3's first two layers
//!   (`families::closed_form`) checked on every cell;
//! * the scaling `(i|j)_n = (i/g | j/g)_{⌊n/g⌋}`, `g = gcd(i, j)`, checked on every
//!   cell (so the diagonal `(i|i)_n = (1|1)_{⌊n/i⌋}`);
//! * the antisymmetry `(j|i)_n = -(i|j)_n` on every cell;
//! * the table against the from-scratch evaluator (`grid`) for `n ≤ 60`;
//! * statistics: distinct values per `n`, the families met, in which band, and
//!   every value outside the families `0, *, ±↑^[k], ±(k·↑ + [k even]·*)` with its
//!   first occurrence, count, outcome and whether it is an uptimal;
//! * the observations stated in `docs/TABLE1.md` (Observations 1–5) re-checked.
//!
//! Pictures (PNG, built-in font) go to DIR (default `docs/img`):
//! `table1_families_<MAX>.png` (cells coloured by family), its top-left third
//! `table1_families_<MAX>_zoom_<MAX/3>.png`, and
//! `table1_bands_<MAX>.png` (cells coloured by band).
//!
//! Run: `cargo run --release -p chopsticks-values --example table1_survey [MAX] [DIR]`

use chopsticks_cgt::{GameId, GameStore, Outcome};
use chopsticks_values::families::{band, closed_form, gcd, table, Class, Classifier, Form};
use chopsticks_values::font;
use chopsticks_values::grid;
use chopsticks_values::picture::Canvas;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

/// A value outside the families, with where it was met.
struct Seen {
    first: (u32, u32, u32),
    last_n: u32,
    cells: u64,
    ns: u32,
}

fn main() {
    let max: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let dir = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "docs/img".to_string());
    let start = Instant::now();
    let mut store = GameStore::new();
    let mut classifier = Classifier::new(&mut store, max + 2);
    let mut forms: HashMap<Form, GameId> = HashMap::new();
    let mut tables: Vec<Vec<Vec<GameId>>> = vec![Vec::new()]; // tables[n]
    let mut failures: Vec<String> = Vec::new();
    let mut others: HashMap<GameId, Seen> = HashMap::new();
    // (band, family) -> cells, family = class with k dropped.
    let mut by_band: BTreeMap<(u32, &'static str), u64> = BTreeMap::new();
    let mut per_n: Vec<String> = Vec::new();
    let mut pm_j_off_diagonal = 0u64;
    let mut pm_j_cells = 0u64;
    let pm_j = {
        let jj = chopsticks_values::families::j(&mut store);
        let nj = store.neg(jj);
        store.simple_game(Some(jj), Some(nj))
    };

    for n in 1..=max {
        let t = table(&mut store, n);
        let mut distinct: HashSet<GameId> = HashSet::new();
        let mut other_distinct: HashSet<GameId> = HashSet::new();
        let mut other_cells = 0u64;
        let mut band3_cells = 0u64;
        for i in 1..=n {
            for jj in 1..=n {
                let g = t[i as usize - 1][jj as usize - 1];
                distinct.insert(g);
                let b = band(i, jj, n);
                if b == 3 {
                    band3_cells += 1;
                }
                // Closed forms of bands 0-2 and of band 3's first two layers.
                if let Some(f) = closed_form(i, jj, n) {
                    let want = *forms.entry(f).or_insert_with(|| f.game(&mut store));
                    if want != g {
                        failures.push(format!("closed form ({i}|{jj})_{n}: {f:?}"));
                    }
                }
                // Scaling by the gcd.
                let d = gcd(i, jj);
                if d > 1 {
                    let m = (n / d) as usize;
                    let h = tables[m][(i / d) as usize - 1][(jj / d) as usize - 1];
                    if h != g {
                        failures.push(format!("scaling ({i}|{jj})_{n}"));
                    }
                }
                // Antisymmetry.
                let mirror = t[jj as usize - 1][i as usize - 1];
                if store.neg(g) != mirror {
                    failures.push(format!("antisymmetry ({i}|{jj})_{n}"));
                }
                let class = classifier.class(g);
                let family = match class {
                    Class::Star => "*",
                    Class::Zero => "0",
                    Class::Up(_) => "+^[k]",
                    Class::Down(_) => "-^[k]",
                    Class::Q(_) => "+Q_k",
                    Class::NegQ(_) => "-Q_k",
                    Class::Other => "other",
                };
                *by_band.entry((b, family)).or_insert(0) += 1;
                if g == pm_j {
                    pm_j_cells += 1;
                    if i != jj {
                        pm_j_off_diagonal += 1;
                    }
                }
                if class == Class::Other {
                    other_cells += 1;
                    other_distinct.insert(g);
                    let e = others.entry(g).or_insert(Seen {
                        first: (n, i, jj),
                        last_n: 0,
                        cells: 0,
                        ns: 0,
                    });
                    e.cells += 1;
                    if e.last_n != n {
                        e.ns += 1;
                    }
                    e.last_n = n;
                }
            }
        }
        if n <= 60 {
            let scratch = grid(&mut store, n);
            if scratch != t {
                failures.push(format!("from-scratch grid differs at n = {n}"));
            }
        }
        per_n.push(format!(
            "{n:>4} {:>5} {:>7} {:>6} {:>7}",
            distinct.len(),
            band3_cells,
            other_distinct.len(),
            other_cells
        ));
        tables.push(t);
    }
    let computed = start.elapsed();

    println!("# Table 1 for every n <= {max}: (i|j)_n, 1 <= i, j <= n");
    println!();
    println!(
        "computed and checked in {:.2?}; {} canonical games in the store",
        computed,
        store.len()
    );
    println!(
        "checks (closed forms of bands 0-2 and of band 3's first two layers, scaling by the gcd, antisymmetry, \
         from-scratch grid for n <= 60): {} failures",
        failures.len()
    );
    for f in failures.iter().take(20) {
        println!("  FAIL {f}");
    }
    let all: HashSet<GameId> = tables.iter().flatten().flatten().copied().collect();
    println!("distinct values over all n <= {max}: {}", all.len());
    let mut family_ks: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    for &g in &all {
        let (name, k) = match classifier.class(g) {
            Class::Up(k) => ("^[k]", k),
            Class::Down(k) => ("v[k]", k),
            Class::Q(k) => ("Q_k", k),
            Class::NegQ(k) => ("-Q_k", k),
            _ => continue,
        };
        let e = family_ks.entry(name).or_insert((u32::MAX, 0));
        e.0 = e.0.min(k);
        e.1 = e.1.max(k);
    }
    for (name, (lo, hi)) in &family_ks {
        let missing: Vec<u32> = (*lo..=*hi)
            .filter(|&k| {
                !all.iter().any(|&g| {
                    matches!(
                        (classifier.class(g), *name),
                        (Class::Up(x), "^[k]") | (Class::Down(x), "v[k]")
                            | (Class::Q(x), "Q_k") | (Class::NegQ(x), "-Q_k") if x == k
                    )
                })
            })
            .collect();
        println!("  {name}: k in {lo}..={hi}, missing: {missing:?}");
    }
    println!(
        "other values (not 0, *, ±^[k], ±Q_k): {}; cells: {}",
        others.len(),
        others.values().map(|s| s.cells).sum::<u64>()
    );

    println!();
    println!("## Cells by band and family (all n <= {max})");
    println!();
    println!("| band | family | cells |");
    println!("|---|---|---|");
    for ((b, fam), c) in &by_band {
        println!("| {b} | {fam} | {c} |");
    }

    // Observations.
    println!();
    println!("## Observations");
    let mut other_without_j = 0;
    let mut uptimal_others = Vec::new();
    let mut not_decided = 0;
    let mut rows: Vec<(GameId, &Seen)> = others.iter().map(|(g, s)| (*g, s)).collect();
    rows.sort_by_key(|(_, s)| s.first);
    for &(g, _) in &rows {
        if !classifier.involves_j(&mut store, g) {
            other_without_j += 1;
        }
    }
    println!(
        "1. values outside the families that do not involve J: {other_without_j} (of {})",
        others.len()
    );
    println!("2. cells equal to +-J: {pm_j_cells}, of which off the diagonal: {pm_j_off_diagonal}");
    let band3_families: Vec<String> = by_band
        .iter()
        .filter(|((b, _), _)| *b == 3)
        .map(|((_, f), c)| format!("{f}: {c}"))
        .collect();
    println!("3. band 3 cells by family: {}", band3_families.join(", "));
    let mut lines = Vec::new();
    for &(g, s) in &rows {
        let name = classifier.name(&mut store, g);
        let outcome = store.outcome(g);
        let uptimal = store.with_work_limit(50_000_000, |st| st.try_to_uptimal(g));
        let up = match uptimal {
            Ok(Some(u)) => {
                uptimal_others.push(name.clone());
                u
            }
            Ok(None) => "no".to_string(),
            Err(_) => {
                not_decided += 1;
                "?".to_string()
            }
        };
        let (n, i, jj) = s.first;
        lines.push(format!(
            "| `{}` | ({i}\\|{jj})_{n} | {} | {} | {} | {} |",
            name.replace('|', "\\|"),
            s.ns,
            s.cells,
            outcome_text(outcome),
            up
        ));
    }
    println!(
        "4. values outside the families that are uptimals: {} {:?}; undecided within the work limit: {not_decided}",
        uptimal_others.len(),
        uptimal_others
    );

    println!();
    println!("## Values outside the families, by first occurrence");
    println!();
    println!("| value | first at | finger counts n <= {max} | cells | outcome | uptimal |");
    println!("|---|---|---|---|---|---|");
    for l in &lines {
        println!("{l}");
    }

    println!();
    println!("## Per n");
    println!();
    println!("   n  dist  band-3  other  other-cells");
    for l in &per_n {
        println!("{l}");
    }

    // +-J along (k|k+1)_n: Observation 5.
    println!();
    println!("## +-J on (k|k+1)_n, k <= 60, k < n <= 250k (Conjecture 5)");
    println!();
    let mut obs5_failures = 0;
    for k in 1..=60u32 {
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for n in (k + 1)..=250 * k {
            if chopsticks_values::one_hand(&mut store, k, k + 1, n) == pm_j {
                match ranges.last_mut() {
                    Some(r) if r.1 + 1 == n => r.1 = n,
                    _ => ranges.push((n, n)),
                }
            }
        }
        let predicted = chopsticks_values::families::pm_j_adjacent(k, 250 * k);
        let ok = ranges == predicted;
        if !ok {
            obs5_failures += 1;
        }
        if k <= 8 || k % 10 == 0 || !ok {
            println!(
                "k = {k:>2}: {ranges:?}{}",
                if ok { "" } else { "  PREDICTION DIFFERS" }
            );
        }
    }
    println!("predictions differing: {obs5_failures}");
    if obs5_failures > 0 {
        failures.push(format!("Observation 5: {obs5_failures} values of k"));
    }

    // Pictures.
    std::fs::create_dir_all(&dir).expect("create the picture directory");
    let n = max;
    let t = &tables[n as usize];
    for size in [n, (n / 3).max(1)] {
        let path = if size == n {
            format!("{dir}/table1_families_{n}.png")
        } else {
            format!("{dir}/table1_families_{n}_zoom_{size}.png")
        };
        let families = families_picture(&mut store, &mut classifier, t, n, size);
        std::fs::write(&path, families).expect("write png");
        println!("wrote {path}");
    }
    let path = format!("{dir}/table1_bands_{n}.png");
    std::fs::write(&path, bands_picture(n)).expect("write png");
    println!("wrote {path}");
    println!("total {:.2?}", start.elapsed());
    if !failures.is_empty() {
        std::process::exit(1);
    }
}

fn outcome_text(o: Outcome) -> &'static str {
    match o {
        Outcome::L => "L",
        Outcome::R => "R",
        Outcome::N => "N",
        Outcome::P => "P",
    }
}

/// An RGB raster with the built-in 5×7 font.
type Rgb = [u8; 3];

/// Draws an `n × n` grid of colours (`colour(i, j)`, 1-based, `i, j ≤ n`) with
/// axis ticks, a title and a legend; returns the PNG bytes.
fn grid_png(
    n: u32,
    title: &str,
    legend: &[(Rgb, String)],
    colour: impl Fn(u32, u32) -> Rgb,
) -> Vec<u8> {
    let s = 2; // font scale
    let cw = (font::WIDTH + 1) * s;
    let ch = (font::HEIGHT + 1) * s;
    let cell = (800 / n as usize).clamp(3, 20);
    let margin = 16;
    let gx = margin + 4 * cw + 8;
    let gy = margin + 2 * ch + 20;
    let side = cell * n as usize;
    let lx = gx + side + 30;
    let legend_w = legend
        .iter()
        .map(|(_, t)| t.chars().count())
        .max()
        .unwrap_or(0)
        * cw
        + 40;
    let width = (lx + legend_w + margin).max(margin + title.chars().count() * cw + margin);
    let height = (gy + side + margin).max(gy + legend.len() * (ch + 10) + margin);
    let mut r = Canvas::new(width, height);
    let dark = [30, 30, 30];
    r.text(margin, margin, title, s, dark);
    let step = if n <= 40 { 5 } else { 20 };
    for k in (0..=n)
        .step_by(step as usize)
        .skip(1)
        .chain(std::iter::once(1))
    {
        let label = k.to_string();
        let off = (k as usize - 1) * cell + cell / 2;
        let w = label.len() * cw;
        r.text(
            (gx + off).saturating_sub(w / 2),
            gy - ch - 6,
            &label,
            s,
            dark,
        );
        r.rect(gx + off, gy - 5, 1, 4, dark);
        r.text(gx - 8 - w, gy + off - ch / 2 + 1, &label, s, dark);
        r.rect(gx - 5, gy + off, 4, 1, dark);
    }
    r.text(margin, gy - ch - 6, "i\\j", s, dark);
    for i in 1..=n {
        for j in 1..=n {
            let c = colour(i, j);
            r.rect(
                gx + (j as usize - 1) * cell,
                gy + (i as usize - 1) * cell,
                cell,
                cell,
                c,
            );
        }
    }
    for (k, (c, text)) in legend.iter().enumerate() {
        let y = gy + k * (ch + 10);
        r.rect(lx, y, ch + 2, ch + 2, dark);
        r.rect(lx + 1, y + 1, ch, ch, *c);
        r.text(lx + ch + 12, y + 2, text, s, dark);
    }
    r.png().expect("an in-memory PNG")
}

/// A colour darkened (`f < 1`) or lightened towards white (`f > 1`).
fn shade(c: Rgb, f: f64) -> Rgb {
    c.map(|v| {
        let v = f64::from(v);
        let out = if f <= 1.0 {
            v * f
        } else {
            v + (255.0 - v) * (f - 1.0)
        };
        out.round().clamp(0.0, 255.0) as u8
    })
}

/// Alternate shades by `k` so that the stripes of constant `k` show.
fn striped(c: Rgb, k: u32) -> Rgb {
    if k.is_multiple_of(2) {
        c
    } else {
        shade(c, 1.35)
    }
}

const STAR: Rgb = [0xC8, 0xCE, 0xD6];
const ZERO: Rgb = [0xFF, 0xFF, 0xFF];
const UP: Rgb = [0xD6, 0x45, 0x45];
const DOWN: Rgb = [0x35, 0x6F, 0xC4];
const QPOS: Rgb = [0xE8, 0x9A, 0x1E];
const QNEG: Rgb = [0x2E, 0xA8, 0x9A];
const PMJ: Rgb = [0x00, 0x00, 0x00];
const JPOS: Rgb = [0x1E, 0x7A, 0x1E];
const JNEG: Rgb = [0x8E, 0x2A, 0x8E];
const JNEXT: Rgb = [0xF2, 0xD0, 0x18];
const JZERO: Rgb = [0x80, 0x50, 0x20];

/// Cells coloured by family (stripes: `k` even / odd), the values outside the
/// families by outcome; only `i, j ≤ size` drawn.
fn families_picture(
    store: &mut GameStore,
    classifier: &mut Classifier,
    t: &[Vec<GameId>],
    n: u32,
    size: u32,
) -> Vec<u8> {
    let jj = chopsticks_values::families::j(store);
    let nj = store.neg(jj);
    let pm = store.simple_game(Some(jj), Some(nj));
    let mut colours = vec![vec![STAR; n as usize]; n as usize];
    for (i, row) in t.iter().enumerate() {
        for (j, &g) in row.iter().enumerate() {
            colours[i][j] = match classifier.class(g) {
                Class::Star => STAR,
                Class::Zero => ZERO,
                Class::Up(k) => striped(UP, k),
                Class::Down(k) => striped(DOWN, k),
                Class::Q(k) => striped(QPOS, k),
                Class::NegQ(k) => striped(QNEG, k),
                Class::Other if g == pm => PMJ,
                Class::Other => match store.outcome(g) {
                    Outcome::L => JPOS,
                    Outcome::R => JNEG,
                    Outcome::N => JNEXT,
                    Outcome::P => JZERO,
                },
            };
        }
    }
    let legend: Vec<(Rgb, String)> = vec![
        (STAR, "*".to_string()),
        (ZERO, "0".to_string()),
        (
            UP,
            "^[k] = {^[k-1] | *}, k>=1 (stripes: k odd lighter)".to_string(),
        ),
        (DOWN, "v[k] = -^[k]".to_string()),
        (QPOS, "Q_k = k.^ + [k even].*, k>=2".to_string()),
        (QNEG, "-Q_k".to_string()),
        (PMJ, "+-J, J = {0 | ^[2]}".to_string()),
        (JPOS, "J and others with J, Left wins".to_string()),
        (JNEG, "-J and others with J, Right wins".to_string()),
        (JNEXT, "others with J, first player wins".to_string()),
    ];
    let title = if size == n {
        format!("Simple Chopsticks: values of (i|j)_{n}, rows i (Left), columns j (Right)")
    } else {
        format!("Simple Chopsticks: values of (i|j)_{n}, i, j <= {size} (band 3 and around)")
    };
    grid_png(size, &title, &legend, |i, j| {
        colours[i as usize - 1][j as usize - 1]
    })
}

/// Cells coloured by band, with the closed form of each band.
fn bands_picture(n: u32) -> Vec<u8> {
    let dark_grey = [0x55, 0x55, 0x55];
    let legend: Vec<(Rgb, String)> = vec![
        (STAR, "band 0: i+j > n:  *".to_string()),
        (ZERO, "band 1: i+2j > n and 2i+j > n:  0".to_string()),
        (UP, "band 1: i+2j > n:  ^[floor((n-j)/i) - 1]".to_string()),
        (DOWN, "band 1: 2i+j > n:  v[floor((n-i)/j) - 1]".to_string()),
        (
            QNEG,
            "band 2: i+3j > n:  -Q_m, m = floor((n-i-2j)/2i)".to_string(),
        ),
        (
            QPOS,
            "band 2: 3i+j > n:  Q_m, m = floor((n-2i-j)/2j)".to_string(),
        ),
        (dark_grey, "band 3: no closed form".to_string()),
    ];
    grid_png(
        n,
        &format!("Simple Chopsticks (i|j)_{n}: bands (stripes: the index k or m odd)"),
        &legend,
        |i, j| {
            let (k, c) = match band(i, j, n) {
                0 => (0, STAR),
                1 if i + 2 * j > n && 2 * i + j > n => (0, ZERO),
                1 if i + 2 * j > n => ((n - j) / i - 1, UP),
                1 => ((n - i) / j - 1, DOWN),
                2 if i + 3 * j > n => ((n - i - 2 * j) / (2 * i), QNEG),
                2 => ((n - 2 * i - j) / (2 * j), QPOS),
                _ => (0, dark_grey),
            };
            striped(c, k)
        },
    )
}
