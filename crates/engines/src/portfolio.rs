//! The parallel portfolio: the engines of a strategy on several threads at once. The main
//! engine of the strategy (the last that answers both TRUE and FALSE, trace abstraction by
//! default) runs on a lane of its own with all the time; the others are dealt to the remaining
//! lanes, each lane running its engines in turn with their shares. The first TRUE or FALSE
//! wins and cancels the other lanes; every lane answers as it would alone (a FALSE with a
//! feasible trace, a TRUE with its proof), so the winner needs no other check. Terms are shared
//! between the lanes (hash-consed once for the process); solvers and Z3 contexts are per lane.

use crate::annotation::Proof;
use crate::budget::CancelToken;
use crate::strategy::{Share, Step, Strategy, Task};
use crate::{Config, Stats, Verdict};
use std::sync::mpsc;
use std::time::Duration;

/// Stack size of a lane's thread: Z3 and the term algorithms recurse over formulas.
pub const LANE_STACK: usize = 1 << 30;

/// The strategy's steps dealt to at most `jobs` lanes: the main step (the last whose engine
/// decides both ways) alone on lane 0 with all the time, the others round-robin on the rest
/// (in their order).
pub fn lanes(strategy: &Strategy, jobs: usize) -> Vec<Strategy> {
    let Some(main) = strategy.0.iter().rposition(|s| s.engine.decides_both()).or(strategy.0.len().checked_sub(1)) else { return vec![] };
    let mut lanes = vec![Strategy(vec![Step { share: Share::REST, ..strategy.0[main] }])];
    let others: Vec<Step> = strategy.0.iter().enumerate().filter(|(i, _)| *i != main).map(|(_, s)| *s).collect();
    let more = jobs.saturating_sub(1).clamp(1, others.len().max(1));
    let mut rest: Vec<Strategy> = (0..more).map(|_| Strategy(vec![])).collect();
    for (i, step) in others.iter().enumerate() {
        rest[i % more].0.push(*step);
    }
    lanes.extend(rest.into_iter().filter(|l| !l.0.is_empty()));
    lanes
}

/// What the lanes answered for one task so far.
#[derive(Default)]
struct Answers {
    /// The first TRUE or FALSE.
    winner: Option<(Verdict, Option<Proof>)>,
    /// Lane 0's answer (the main engine's reason for UNKNOWN).
    first_lane: Option<(Verdict, Option<Proof>)>,
    lanes: usize,
}

impl Answers {
    fn answer(self) -> (Verdict, Option<Proof>) {
        self.winner.or(self.first_lane).unwrap_or_else(|| (Verdict::unknown("no lane of the portfolio answered"), None))
    }
}

/// Runs the lanes of `strategy` for `config.jobs` on threads of their own, through `tasks` in
/// order, giving each task's answer to `answer` until it returns `false`. For each task the
/// first TRUE or FALSE wins and cancels the other lanes' work on it; without one, lane 0's
/// UNKNOWN (the main engine's reason). A lane keeps its thread, and so its Z3 context, from
/// one task to the next. The statistics are the sum over the lanes.
pub fn run(
    strategy: &Strategy,
    tasks: &[Task],
    config: &Config,
    stats: &mut Stats,
    answer: &mut dyn FnMut((Verdict, Option<Proof>)) -> bool,
) {
    let lanes = lanes(strategy, config.jobs);
    let cancels: Vec<CancelToken> = tasks.iter().map(|_| CancelToken::default()).collect();
    let cancel_all = || cancels.iter().for_each(CancelToken::cancel);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        let mut running = 0;
        for (i, lane) in lanes.iter().enumerate() {
            let (tx, cancels) = (tx.clone(), &cancels);
            let spawned = std::thread::Builder::new().name(format!("lane-{i}")).stack_size(LANE_STACK).spawn_scoped(scope, move || {
                for (k, task) in tasks.iter().enumerate() {
                    let config = Config { cancel: cancels[k].clone(), ..config.clone() };
                    let mut stats = Stats::default();
                    // The first answer interrupts this lane's solver queries in flight.
                    smt::z3backend::interrupt_when(Some(config.cancel.flag()));
                    let (verdict, proof) = match config.cancel.is_cancelled() {
                        true => (Verdict::unknown("canceled"), None),
                        false => lane.run_in_turn(task, &config, &mut stats),
                    };
                    if tx.send((k, i, verdict, proof, stats)).is_err() {
                        break;
                    }
                }
                smt::z3backend::interrupt_when(None);
            });
            match spawned {
                Ok(_) => running += 1,
                Err(e) => tracing::warn!("cannot start lane {i}: {e}; it does not run"),
            }
        }
        drop(tx);
        let mut answers: Vec<Answers> = tasks.iter().map(|_| Answers::default()).collect();
        let (mut next, mut stopped) = (0, false);
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok((k, i, verdict, proof, lane_stats)) => {
                    stats.absorb(&lane_stats);
                    let a = &mut answers[k];
                    a.lanes += 1;
                    if !matches!(verdict, Verdict::Unknown(_)) && a.winner.is_none() {
                        tracing::debug!("lane {i} decided {}; canceling the others", tasks[k].entry);
                        cancels[k].cancel();
                        stats.engine = lane_stats.engine.clone();
                        a.winner = Some((verdict, proof));
                    } else if i == 0 {
                        if verdict.awaits_retry() {
                            cancels[k].cancel();
                        }
                        a.first_lane = Some((verdict, proof));
                    }
                    // every task all lanes answered goes out, in order
                    while !stopped && next < tasks.len() && answers[next].lanes == running {
                        stopped = !answer(std::mem::take(&mut answers[next]).answer());
                        next += 1;
                    }
                    if stopped {
                        cancel_all();
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if config.cancel.is_cancelled() {
                        cancel_all();
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(lanes: &[Strategy]) -> Vec<String> {
        lanes.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn the_main_engine_gets_a_lane_of_its_own() {
        let s = Strategy::default();
        assert_eq!(
            names(&lanes(&s, 2)),
            [
                "automizer",
                "exec-finite:5%:0.5s,bmc@polynomial:5%:1s,cells:33.3%,horn:12.5%:10s,exec@threads:25%,art@threads:50%,bmc:50%,exec"
            ]
        );
        assert_eq!(
            names(&lanes(&s, 3)),
            [
                "automizer",
                "exec-finite:5%:0.5s,cells:33.3%,exec@threads:25%,bmc:50%",
                "bmc@polynomial:5%:1s,horn:12.5%:10s,art@threads:50%,exec"
            ]
        );
        assert_eq!(
            names(&lanes(&s, 8)),
            [
                "automizer",
                "exec-finite:5%:0.5s,exec",
                "bmc@polynomial:5%:1s",
                "cells:33.3%",
                "horn:12.5%:10s",
                "exec@threads:25%",
                "art@threads:50%",
                "bmc:50%"
            ]
        );
        // without an engine that decides both ways, the last step is the main one
        let refuters: Strategy = "bmc:50%,exec".parse().expect("parses");
        assert_eq!(names(&lanes(&refuters, 2)), ["exec", "bmc:50%"]);
        let one: Strategy = "automizer".parse().expect("parses");
        assert_eq!(names(&lanes(&one, 4)), ["automizer"]);
    }
}
