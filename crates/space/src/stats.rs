//! Every figure of `chopsticks stats`, in one value.

use crate::explore::{explore, Exploration, Progress};
use crate::graph::Graph;

/// The measurements of a variant's state space from one start position.
#[derive(Clone, Debug)]
pub struct Statistics {
    /// Raw positions: every way of writing the hands digit by digit (`F` to the
    /// number of hands), times the mover's seat classes; `None` beyond 2^128.
    pub raw: Option<u128>,
    /// Functionally distinct positions: canonical positions (sorted hands, mover first).
    pub distinct: u64,
    /// The exploration from the start.
    pub exploration: Exploration,
}

impl Statistics {
    /// Explores the variant from `start` and gathers the figures.
    pub fn compute(graph: &Graph, start: u64, progress: &(dyn Fn(Progress) + Sync)) -> Statistics {
        let rules = graph.rules();
        let total_hands: u32 = rules.hands.iter().map(|&h| h as u32).sum();
        let raw = (rules.fingers as u128)
            .checked_pow(total_hands)
            .and_then(|r| r.checked_mul(graph.index().period() as u128));
        Statistics {
            raw,
            distinct: graph.count(),
            exploration: explore(graph, start, progress),
        }
    }

    /// Positions reachable from the start (the start included).
    pub fn reachable(&self) -> u64 {
        self.exploration.reachable()
    }

    /// Distinct positions not reachable from the start.
    pub fn unreachable(&self) -> u64 {
        self.distinct - self.reachable()
    }

    /// The indices of the unreachable positions, in index order.
    pub fn unreachable_positions(&self) -> impl Iterator<Item = u64> + '_ {
        self.exploration.reached.iter_missing()
    }
}
