//! The parallel portfolio: the engines of a strategy on several threads at once. The last
//! engine of the strategy (the one that gets the time the others leave, trace abstraction by
//! default) runs on a lane of its own with all the time; the others are dealt to the remaining
//! lanes, each lane running its engines in turn with their shares. The first TRUE or FALSE
//! wins and cancels the other lanes; every lane answers as it would alone (a FALSE with a
//! feasible trace, a TRUE with its proof), so the winner needs no other check. Terms are shared
//! between the lanes (hash-consed once for the process); solvers and Z3 contexts are per lane.

use crate::annotation::Proof;
use crate::budget::CancelToken;
use crate::strategy::{Strategy, Task};
use crate::{Config, Stats, Verdict};
use std::sync::mpsc;
use std::time::Duration;

/// Stack size of a lane's thread: Z3 and the term algorithms recurse over formulas.
pub const LANE_STACK: usize = 1 << 30;

/// The strategy's steps dealt to at most `jobs` lanes: the last step alone on lane 0, the
/// others round-robin on the rest (in their order).
pub fn lanes(strategy: &Strategy, jobs: usize) -> Vec<Strategy> {
    let Some((last, others)) = strategy.0.split_last() else { return vec![] };
    let mut lanes = vec![Strategy(vec![*last])];
    let more = jobs.saturating_sub(1).clamp(1, others.len().max(1));
    let mut rest: Vec<Strategy> = (0..more).map(|_| Strategy(vec![])).collect();
    for (i, step) in others.iter().enumerate() {
        rest[i % more].0.push(*step);
    }
    lanes.extend(rest.into_iter().filter(|l| !l.0.is_empty()));
    lanes
}

/// Runs the lanes of `strategy` for `config.jobs` on threads of their own; the first TRUE or
/// FALSE wins. Without one, lane 0's UNKNOWN (the main engine's reason). The statistics are
/// the sum over the lanes.
pub fn run(strategy: &Strategy, task: &Task, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    let lanes = lanes(strategy, config.jobs);
    let cancel = CancelToken::default();
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for (i, lane) in lanes.iter().enumerate() {
            let config = Config { cancel: cancel.clone(), ..config.clone() };
            let tx = tx.clone();
            let spawned = std::thread::Builder::new().name(format!("lane-{i}")).stack_size(LANE_STACK).spawn_scoped(scope, move || {
                let mut stats = Stats::default();
                // The first answer interrupts this lane's solver queries in flight.
                smt::z3backend::interrupt_when(Some(config.cancel.flag()));
                let (verdict, proof) = lane.run_in_turn(task, &config, &mut stats);
                let _ = tx.send((i, verdict, proof, stats));
            });
            if let Err(e) = spawned {
                tracing::warn!("cannot start lane {i}: {e}; it does not run");
            }
        }
        drop(tx);
        let mut winner = None;
        let mut first_lane = None;
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok((i, verdict, proof, lane_stats)) => {
                    stats.absorb(&lane_stats);
                    let decided = !matches!(verdict, Verdict::Unknown(_));
                    if decided && winner.is_none() {
                        tracing::debug!("lane {i} decided; canceling the others");
                        cancel.cancel();
                        stats.engine = lane_stats.engine.clone();
                        winner = Some((verdict, proof));
                    } else if i == 0 {
                        first_lane = Some((verdict, proof));
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if config.cancel.is_cancelled() {
                        cancel.cancel();
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        winner.or(first_lane).unwrap_or_else(|| (Verdict::unknown("no lane of the portfolio answered"), None))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(lanes: &[Strategy]) -> Vec<String> {
        lanes.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn the_last_engine_gets_a_lane_of_its_own() {
        let s = Strategy::default();
        assert_eq!(names(&lanes(&s, 2)), ["automizer", "cells:33.3%,horn:12.5%:10s,art@threads:50%"]);
        assert_eq!(names(&lanes(&s, 3)), ["automizer", "cells:33.3%,art@threads:50%", "horn:12.5%:10s"]);
        assert_eq!(names(&lanes(&s, 8)), ["automizer", "cells:33.3%", "horn:12.5%:10s", "art@threads:50%"]);
        let one: Strategy = "automizer".parse().expect("parses");
        assert_eq!(names(&lanes(&one, 4)), ["automizer"]);
    }
}
