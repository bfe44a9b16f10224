//! Times the values of the Simple Chopsticks positions `(1|1)_n` (one hand
//! each, attack-only cutoff) for every finger count n = 1..=606, each table
//! computed from scratch by a plain recursion over the positions `(a|b)_n`.
//!
//! Run: `cargo run --release --example one_hand_bench`

use chopsticks_cgt::{GameId, GameStore};
use std::time::Instant;

/// Value of `(a|b)_n`: Left's option is `(a|a+b)_n`, Right's `(a+b|b)_n`,
/// both replaced by 0 when `a + b > n`. The positions reachable from
/// `(1|1)` form a tree (the Calkin–Wilf tree), so no memo is needed.
fn value(store: &mut GameStore, a: u32, b: u32, n: u32, star: GameId) -> GameId {
    if a + b > n {
        return star; // {0 | 0}
    }
    let left = value(store, a, a + b, n, star);
    let right = value(store, a + b, b, n, star);
    store.simple_game(Some(left), Some(right))
}

fn one_hand(store: &mut GameStore, n: u32) -> GameId {
    let star = store.star();
    value(store, 1, 1, n, star)
}

fn main() {
    const MAX_N: u32 = 606;

    let start = Instant::now();
    let mut fresh_results = Vec::new();
    for n in 1..=MAX_N {
        let mut store = GameStore::new();
        let g = one_hand(&mut store, n);
        fresh_results.push(store.format(g));
    }
    let fresh = start.elapsed();

    let start = Instant::now();
    let mut store = GameStore::new();
    let mut shared_results = Vec::new();
    for n in 1..=MAX_N {
        let g = one_hand(&mut store, n);
        shared_results.push(g);
    }
    let shared = start.elapsed();
    let shared_text: Vec<String> = shared_results.iter().map(|g| store.format(*g)).collect();
    assert_eq!(fresh_results, shared_text);

    // Fresh store per n, the finger counts split over two threads.
    let start = Instant::now();
    let mut threaded: Vec<(u32, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2u32)
            .map(|w| {
                scope.spawn(move || {
                    (1..=MAX_N)
                        .filter(|n| n % 2 == w)
                        .map(|n| {
                            let mut store = GameStore::new();
                            let g = one_hand(&mut store, n);
                            (n, store.format(g))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|h| h.join().expect("worker panicked"))
            .collect()
    });
    let two_threads = start.elapsed();
    threaded.sort();
    let threaded: Vec<String> = threaded.into_iter().map(|(_, t)| t).collect();
    assert_eq!(fresh_results, threaded);

    // Print the runs of equal values.
    let mut i = 0;
    while i < fresh_results.len() {
        let mut j = i;
        while j + 1 < fresh_results.len() && fresh_results[j + 1] == fresh_results[i] {
            j += 1;
        }
        println!("n = {}..={}: {}", i + 1, j + 1, fresh_results[i]);
        i = j + 1;
    }
    println!(
        "n = 1..={MAX_N}, fresh store per n: {:.3} s",
        fresh.as_secs_f64()
    );
    println!(
        "n = 1..={MAX_N}, one shared store:  {:.3} s",
        shared.as_secs_f64()
    );
    println!(
        "n = 1..={MAX_N}, fresh store per n, 2 threads: {:.3} s",
        two_threads.as_secs_f64()
    );
    println!("canonical games in the shared store: {}", store.len());
}
