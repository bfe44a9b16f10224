//! Times the value of every rollover position with one or two live hands a side
//! (the paper's game, `x + y` modulo `n + 1`), for each `n` given.
//!
//! `cargo run --release -p chopsticks-values --example rollover_values -- 4 5 6`

use std::time::Instant;

use chopsticks_values::{
    loopy_value, loopy_values, rollover_rules, CgtPosition, MAX_LOOPY_VERTICES,
};

fn multisets(k: usize, n: u32) -> Vec<Vec<u32>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for m in multisets(k - 1, n) {
        for v in m.last().copied().unwrap_or(1)..=n {
            let mut m2 = m.clone();
            m2.push(v);
            out.push(m2);
        }
    }
    out
}

fn main() {
    for arg in std::env::args().skip(1) {
        let n: u32 = arg.parse().expect("n");
        let rules = rollover_rules(n, 2);
        let mut sides = Vec::new();
        for k in 1..=2 {
            sides.extend(multisets(k, n));
        }
        let positions: Vec<CgtPosition> = sides
            .iter()
            .flat_map(|l| sides.iter().map(|r| CgtPosition::new(l.clone(), r.clone())))
            .collect();
        let t = Instant::now();
        let together = loopy_values(&rules, &positions, MAX_LOOPY_VERTICES).expect("values");
        let unsided: Vec<String> = positions
            .iter()
            .zip(&together)
            .filter(|(_, v)| !v.is_stopper_sided())
            .map(|(p, _)| format!("{:?}|{:?}", p.left, p.right))
            .collect();
        println!(
            "n = {n}: all {} positions together: {:.2} s; not found stopper-sided: {} {:?}",
            positions.len(),
            t.elapsed().as_secs_f64(),
            unsided.len(),
            unsided
        );
        if std::env::var("TOGETHER_ONLY").is_ok() {
            continue;
        }
        let mut k = 0;
        let (mut total, mut worst, mut worst_at) = (0.0f64, 0.0f64, String::new());
        let (mut stoppers, mut sided, mut other) = (0, 0, 0);
        let all = Instant::now();
        for l in &sides {
            for r in &sides {
                let p = CgtPosition::new(l.clone(), r.clone());
                let t = Instant::now();
                let (v, _) = loopy_value(&rules, &p, MAX_LOOPY_VERTICES).expect("value");
                let s = t.elapsed().as_secs_f64();
                if v.is_stopper_sided() {
                    assert_eq!(v, together[k], "{l:?}|{r:?}");
                }
                k += 1;
                total += s;
                if s > worst {
                    worst = s;
                    worst_at = format!("{:?}|{:?}", l, r);
                }
                if v.is_stopper() {
                    stoppers += 1;
                } else if v.is_stopper_sided() {
                    sided += 1;
                } else {
                    other += 1;
                }
            }
        }
        println!(
            "n = {n}: {} positions, {:.2} s (sum {total:.2} s), slowest {worst_at} {worst:.3} s; \
             {stoppers} stoppers, {sided} sided, {other} not found stopper-sided",
            sides.len() * sides.len(),
            all.elapsed().as_secs_f64()
        );
    }
}
