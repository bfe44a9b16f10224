//! Times every input of a folder through one check, slowest first:
//! `cargo run --release -p chopsticks-check --example time_inputs TARGET DIR`.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(target), Some(dir)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: time_inputs TARGET DIR");
        std::process::exit(2);
    };
    let Some((_, check)) = chopsticks_check::TARGETS.iter().find(|(n, _)| n == target) else {
        eprintln!("unknown target {target}");
        std::process::exit(2);
    };
    let mut times = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("an entry").path();
        let data = std::fs::read(&path).expect("readable");
        let clock = Instant::now();
        check(&data);
        times.push((clock.elapsed(), path));
    }
    times.sort();
    times.reverse();
    for (t, p) in times.iter().take(10) {
        println!("{:>10.3} ms  {}", t.as_secs_f64() * 1e3, p.display());
    }
    let total: f64 = times.iter().map(|(t, _)| t.as_secs_f64()).sum();
    println!("{} inputs, {:.3} s in all", times.len(), total);
}
