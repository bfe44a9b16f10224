//! Chopsticks rollover with two hands a side (attacks only: a tapped hand
//! becomes the sum modulo `n + 1` and dies at 0; removing the opponent's last
//! hand is a move to 0), built here as a game graph: the side search on a real
//! loopy ruleset. The outcome read from the value must agree with a plain
//! retrograde analysis of the graph.

use std::collections::HashMap;

use chopsticks_loopy::{Game, Player, Value};

type Position = ([u8; 2], [u8; 2]);

fn sorted(mut h: [u8; 2]) -> [u8; 2] {
    h.sort_unstable();
    h
}

/// The graph of the rollover game from `11-11`, Left's hands first. Vertex 0
/// is the game 0 (a player with no hand left).
fn rollover(n: u8) -> Game {
    let start: Position = ([1, 1], [1, 1]);
    let mut index: HashMap<Option<Position>, u32> = HashMap::new();
    let mut list: Vec<Option<Position>> = vec![None, Some(start)];
    index.insert(None, 0);
    index.insert(Some(start), 1);
    let mut left = vec![vec![]];
    let mut right = vec![vec![]];
    let mut i = 1;
    while i < list.len() {
        let (a, b) = list[i].expect("not 0");
        let mut options = [vec![], vec![]];
        for (side, opts) in options.iter_mut().enumerate() {
            let (me, them) = if side == 0 { (a, b) } else { (b, a) };
            for &h in me.iter().filter(|&&h| h > 0) {
                for k in 0..2 {
                    if them[k] == 0 {
                        continue;
                    }
                    let mut t = them;
                    t[k] = (t[k] + h) % (n + 1);
                    let t = sorted(t);
                    let p = match (t == [0, 0], side) {
                        (true, _) => None,
                        (false, 0) => Some((a, t)),
                        (false, _) => Some((t, b)),
                    };
                    let id = *index.entry(p).or_insert_with(|| {
                        list.push(p);
                        list.len() as u32 - 1
                    });
                    opts.push(id);
                }
            }
        }
        let [l, r] = options;
        left.push(l);
        right.push(r);
        i += 1;
    }
    Game::new(left, right, 1).expect("valid graph")
}

fn check(n: u8) -> Value {
    let g = rollover(n);
    let v = Value::from_game(&g).expect("within bounds");
    let o = v.outcome();
    assert_eq!(o.left_starts(), g.winner(Player::Left), "n = {n}");
    assert_eq!(o.right_starts(), g.winner(Player::Right), "n = {n}");
    v
}

#[test]
fn rollover_small() {
    assert_eq!(check(1).to_string(), "*");
    assert_eq!(check(2).to_string(), "0");
    assert!(!rollover(3).is_stopper());
    assert!(check(3).is_stopper_sided());
}

/// n = 4 to 6 (up to 725 vertices): a fraction of a second each in a release
/// build (`chopsticks bench loopy` measures them).
#[test]
fn rollover_larger() {
    check(4);
    check(5);
    check(6);
}
