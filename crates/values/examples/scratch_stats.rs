use chopsticks_values::CoprimeSweep;
use std::time::Instant;
fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5000);
    let t = Instant::now();
    let mut s = CoprimeSweep::new(n).unwrap();
    let mut last = s.stats();
    while let Some(k) = s.advance() {
        if k % (n / 10) == 0 {
            let st = s.stats();
            eprintln!(
                "n={k} batches={} slots={}",
                s.stats().batches,
                s.slots_len()
            );
            eprintln!("n={k} t={:.1}s events/step={:.0} recomputed/step={:.0} changed/step={:.0} palette={} overflow={}",
                t.elapsed().as_secs_f64(), (st.events - last.events) as f64 / (n/10) as f64,
                (st.recomputed - last.recomputed) as f64 / (n/10) as f64, (st.changed - last.changed) as f64 / (n/10) as f64, s.palette_len(), s.overflow_len());
            last = st;
        }
    }
}
