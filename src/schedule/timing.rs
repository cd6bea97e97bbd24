//! Timing a schedule's systems (feature `std`, which has a clock): with
//! [`set_timing(true)`](super::Schedule::set_timing) the schedule sums each system's time and
//! counts its runs, read back with [`timings`](super::Schedule::timings). Off, the cost is one
//! branch per system run.
//!
//! What is timed is the system's call: fetching its parameters and running its function, not
//! the sync point after it (the commands it queued are applied outside the timed span). In a
//! batch run side by side, each system's call is timed on the thread that runs it (the batch's
//! parameters are fetched together, before the calls, untimed), so a batch's systems overlap
//! and their times can sum to more than the frame took.

use core::time::Duration;

/// What a schedule measured of one system while timing was on (see
/// [`Schedule::set_timing`](super::Schedule::set_timing)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
// Without `std` there is no clock: the schedule keeps one per system, never filled or read.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
pub struct SystemTiming {
    /// Time spent in the system's runs, summed.
    pub total: Duration,
    /// The runs timed (a run its condition skipped is none).
    pub runs: u64,
}

/// Started before a system's call when timing is on; stopped after it into the system's
/// [`SystemTiming`]. Off (or without a clock, no `std`), it holds nothing and does nothing.
pub(crate) struct Stopwatch {
    #[cfg(feature = "std")]
    started: Option<std::time::Instant>,
}

impl Stopwatch {
    /// Starts timing if `on`.
    #[inline]
    pub(crate) fn start(on: bool) -> Self {
        #[cfg(feature = "std")]
        {
            Stopwatch {
                started: on.then(std::time::Instant::now),
            }
        }
        #[cfg(not(feature = "std"))]
        {
            let _ = on;
            Stopwatch {}
        }
    }

    /// Adds the time since the start to `timing`, if started.
    #[inline]
    pub(crate) fn stop(self, timing: &mut SystemTiming) {
        #[cfg(feature = "std")]
        if let Some(started) = self.started {
            timing.total += started.elapsed();
            timing.runs += 1;
        }
        #[cfg(not(feature = "std"))]
        let _ = timing;
    }
}
