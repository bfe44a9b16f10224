use chopsticks_values::OneHandSweep;
use std::collections::HashMap;
fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5000);
    let mut sweep = OneHandSweep::new(n).unwrap();
    {
        let s = sweep.store_mut();
        let star = s.star();
        let mut l = s.zero();
        for j in 0..12 {
            println!("L_{j} = {}", s.format(l));
            l = s.simple_game(Some(l), Some(star));
        }
    }
    while sweep.advance().is_some() {}
    let mut all: HashMap<u32, u64> = HashMap::new();
    let mut stored: HashMap<u32, u64> = HashMap::new();
    for b in 2..n {
        for a in 1..b {
            if a + b > n || gcd(a, b) != 1 {
                continue;
            }
            let g = sweep.value(a, b);
            *all.entry(g.index() as u32).or_default() += 1;
            if a + 2 * b <= n {
                *stored.entry(g.index() as u32).or_default() += 1;
            }
        }
    }
    println!(
        "n={n}: distinct among coprime a<b: {}, among stored region: {}, store len {}",
        all.len(),
        stored.len(),
        sweep.store_mut().len()
    );
    let mut v: Vec<_> = stored.into_iter().collect();
    v.sort_by_key(|x| std::cmp::Reverse(x.1));
    for (g, c) in v.iter().take(40) {
        let id = sweep.store_mut().ids().nth(*g as usize).unwrap();
        println!("{c:>10} {}", sweep.store_mut().format(id));
    }
}
