//! Thermographs: walls as continuous piecewise-linear functions of the
//! temperature `t` on `[-1, ∞)` with dyadic breakpoints.

use crate::dyadic::Dyadic;

/// A continuous piecewise-linear function of `t` on `[-1, ∞)`.
///
/// Stored as segments `(start, value at start, slope)`, sorted by start; the
/// first starts at `t = -1` and the last extends to infinity. Slopes are
/// small integers (thermograph walls have slopes 0 and ±1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trajectory {
    segments: Vec<(Dyadic, Dyadic, i64)>,
}

const MINUS_ONE: Dyadic = Dyadic::integer(-1);

fn div_small(d: Dyadic, k: i64) -> Dyadic {
    assert!(
        k != 0 && (k.unsigned_abs()).is_power_of_two(),
        "thermograph crossing is not dyadic (slope difference {k})"
    );
    let r = d.div_pow2(k.unsigned_abs().trailing_zeros());
    if k < 0 {
        -r
    } else {
        r
    }
}

impl Trajectory {
    /// The constant function `x` (the thermograph wall of a number's mast).
    pub fn constant(x: Dyadic) -> Trajectory {
        Trajectory {
            segments: vec![(MINUS_ONE, x, 0)],
        }
    }

    /// Segments `(start t, value at start, slope)`.
    pub fn segments(&self) -> &[(Dyadic, Dyadic, i64)] {
        &self.segments
    }

    /// Value at `t >= -1`.
    pub fn eval(&self, t: Dyadic) -> Dyadic {
        let i = self.segments.partition_point(|s| s.0 <= t).max(1) - 1;
        let (start, v, slope) = self.segments[i];
        v + (t - start).mul_int(slope)
    }

    fn slope_at(&self, t: Dyadic) -> i64 {
        let i = self.segments.partition_point(|s| s.0 <= t).max(1) - 1;
        self.segments[i].2
    }

    /// `t ↦ f(t) + s·t`.
    pub fn tilt(&self, s: i64) -> Trajectory {
        let segments = self
            .segments
            .iter()
            .map(|&(t, v, slope)| (t, v + t.mul_int(s), slope + s))
            .collect();
        Trajectory { segments }
    }

    fn breakpoints(a: &Trajectory, b: &Trajectory) -> Vec<Dyadic> {
        let mut ts: Vec<Dyadic> = a.segments.iter().chain(&b.segments).map(|s| s.0).collect();
        ts.sort_unstable();
        ts.dedup();
        ts
    }

    /// Pointwise maximum (`take_max`) or minimum.
    fn extremum(a: &Trajectory, b: &Trajectory, take_max: bool) -> Trajectory {
        let ts = Self::breakpoints(a, b);
        let mut out: Vec<(Dyadic, Dyadic, i64)> = Vec::new();
        let pick = |fa: Dyadic, fb: Dyadic, sa: i64, sb: i64| -> bool {
            // true: choose a just after this point
            if fa != fb {
                (fa > fb) == take_max
            } else {
                (sa >= sb) == take_max
            }
        };
        for (i, &t0) in ts.iter().enumerate() {
            let end = ts.get(i + 1).copied();
            let (fa, fb) = (a.eval(t0), b.eval(t0));
            let (sa, sb) = (a.slope_at(t0), b.slope_at(t0));
            let choose_a = pick(fa, fb, sa, sb);
            out.push(if choose_a { (t0, fa, sa) } else { (t0, fb, sb) });
            // Crossing inside (t0, end)?
            let d = fa - fb;
            if sa != sb && d != Dyadic::ZERO {
                let cross = t0 + div_small(-d, sa - sb);
                if cross > t0 && end.is_none_or(|e| cross < e) {
                    let v = a.eval(cross);
                    out.push(if choose_a {
                        (cross, v, sb)
                    } else {
                        (cross, v, sa)
                    });
                }
            }
        }
        let mut t = Trajectory { segments: out };
        t.simplify();
        t
    }

    /// Pointwise maximum.
    pub fn max(a: &Trajectory, b: &Trajectory) -> Trajectory {
        Self::extremum(a, b, true)
    }

    /// Pointwise minimum.
    pub fn min(a: &Trajectory, b: &Trajectory) -> Trajectory {
        Self::extremum(a, b, false)
    }

    /// The smallest `t >= -1` with `a(t) <= b(t)`, if any.
    pub fn first_at_most(a: &Trajectory, b: &Trajectory) -> Option<Dyadic> {
        let ts = Self::breakpoints(a, b);
        for (i, &t0) in ts.iter().enumerate() {
            let d = a.eval(t0) - b.eval(t0);
            if d <= Dyadic::ZERO {
                return Some(t0);
            }
            let slope = a.slope_at(t0) - b.slope_at(t0);
            if slope < 0 {
                let cross = t0 + div_small(d, -slope);
                if ts.get(i + 1).is_none_or(|e| cross < *e) {
                    return Some(cross);
                }
            }
        }
        None
    }

    /// The function equal to `self` on `[-1, t]` and constant `self(t)` after.
    pub fn mast_from(&self, t: Dyadic) -> Trajectory {
        let x = self.eval(t);
        let mut segments: Vec<_> = self.segments.iter().copied().filter(|s| s.0 < t).collect();
        segments.push((t, x, 0));
        let mut tr = Trajectory { segments };
        tr.simplify();
        tr
    }

    fn simplify(&mut self) {
        let mut out: Vec<(Dyadic, Dyadic, i64)> = Vec::with_capacity(self.segments.len());
        for &s in &self.segments {
            if let Some(last) = out.last() {
                if last.2 == s.2 {
                    continue;
                }
                if last.0 == s.0 {
                    out.pop();
                }
            }
            out.push(s);
        }
        self.segments = out;
    }
}

/// The thermograph of a game: its two walls, temperature and mast value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thermograph {
    /// Left wall (the value Left can secure when moving first in `G` cooled by `t`).
    pub left_wall: Trajectory,
    /// Right wall.
    pub right_wall: Trajectory,
    /// Temperature: where the walls join into the mast.
    pub temperature: Dyadic,
    /// Mean value (the mast position).
    pub mast: Dyadic,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_min_crossing() {
        let a = Trajectory::constant(Dyadic::ONE).tilt(-1); // 1 - t
        let b = Trajectory::constant(Dyadic::ZERO).tilt(1); // t
        let m = Trajectory::max(&a, &b);
        assert_eq!(m.eval(Dyadic::ZERO), Dyadic::ONE);
        assert_eq!(m.eval(Dyadic::new(1, 1)), Dyadic::new(1, 1));
        assert_eq!(m.eval(Dyadic::integer(3)), Dyadic::integer(3));
        assert_eq!(m.segments().len(), 2);
        let n = Trajectory::min(&a, &b);
        assert_eq!(n.eval(Dyadic::integer(3)), Dyadic::integer(-2));
        assert_eq!(Trajectory::first_at_most(&a, &b), Some(Dyadic::new(1, 1)));
    }
}
