//! Simple Chopsticks with four-fingered hands (`n = 4`): the closed form of the
//! pairs of equal-sized sides in which the player to move loses, as far as it is
//! known (docs/FOUR-FINGERS.md).
//!
//! By Theorem 4 and Lemma 1 (see [`crate::levels`]) every outcome follows from
//! these pairs. Write the mover's side as `1^a 2^b 3^c 4^d` and the opponent's as
//! `1^p 2^q 3^r 4^s`, both with `h ≥ 1` hands. The mover **loses moving first**
//! exactly when:
//!
//! * the opponent is `1^h`: unless `c = 0` and (`a ≥ 1` and `b` odd, or `a = 1`
//!   and `b = 0`), or `a = b = 0` and `c` is even;
//! * the opponent is `2^h`: `b ≥ 1` and `a + b` is odd;
//! * the opponent is `3^h`: `a` is odd;
//! * the opponent holds only 1s and 2s, both (`p, q ≥ 1`), and
//!   - the mover only 1s and 2s too (`c = d = 0`): `b > q` and (`b` odd, or
//!     `a ≥ 1` and `q ≥ 3`); or `b = 1` and `q` odd;
//!   - the mover no 1 but a 3 or a 4 (`a = 0`, `c + d ≥ 1`): `b` odd, and `d ≥ 1`
//!     or `c < q`;
//!   - the mover a 1 and a 3 but no 4 (`a, c ≥ 1`, `d = 0`): `q > c` and the mover
//!     without the 3s loses against `1^p 2^(q − c)` (the 3s cancel as many 2s);
//! * the opponent holds a 4, or a 3 beside another value: never.
//!
//! Left open: the opponent holding only 1s and 2s, both, and the mover a 1 and a
//! 4 (`a, d ≥ 1`; [`loses_moving_first`] returns `None` there). These rules are checked,
//! not proved: against the level atlas on every pair with at most 60 hands a
//! side (`chopsticks verify --only four-fingers --hands-n4 60`).

/// Counts of the values 1, 2, 3 and 4 on one side.
pub type Counts4 = [u64; 4];

/// Whether the side `mover` loses moving first against `other`, which has as many
/// hands (at least one), where the closed form is known; `None` in the open case.
pub fn loses_moving_first(mover: Counts4, other: Counts4) -> Option<bool> {
    let [a, b, c, d] = mover;
    let [p, q, r, s] = other;
    let h = p + q + r + s;
    if p == h {
        let wins = (c == 0 && ((a >= 1 && b % 2 == 1) || (a == 1 && b == 0)))
            || (a == 0 && b == 0 && c % 2 == 0);
        Some(!wins)
    } else if q == h {
        Some(b >= 1 && (a + b) % 2 == 1)
    } else if r == h {
        Some(a % 2 == 1)
    } else if r > 0 || s > 0 {
        Some(false)
    } else if c == 0 && d == 0 {
        Some((b > q && (b % 2 == 1 || (a >= 1 && q >= 3))) || (b == 1 && q % 2 == 1))
    } else if a == 0 {
        Some(b % 2 == 1 && (d >= 1 || c < q))
    } else if d == 0 {
        // The 3s cancel as many of the opponent's 2s.
        if q <= c {
            Some(false)
        } else {
            loses_moving_first([a, b, 0, 0], [p, q - c, 0, 0])
        }
    } else {
        None
    }
}
