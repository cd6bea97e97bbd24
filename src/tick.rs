//! Change ticks: the world's frame counter and the stamps it writes on changed slots.
//!
//! A tick is a `u32` that wraps around. Two ticks are compared in half-range arithmetic: `a` is
//! newer than `b` when going forward from `b` to `a` takes fewer than 2^31 steps. That comparison
//! is right for any two ticks less than 2^31 apart, whatever side of the wrap they are on.
//!
//! A stamp that is never written again keeps falling behind, and after 2^31 ticks it would look
//! newer than the present. The world prevents that by calling [`Tick::clamp_age`] over every
//! stored stamp at intervals shorter than [`MAX_TICK_AGE`] ticks: a clamped stamp is at most
//! `MAX_TICK_AGE` behind, so no stamp ever gets 2^31 = `2 * MAX_TICK_AGE` behind, and
//! comparisons stay right.

/// How far behind the current tick a stored stamp may fall before [`Tick::clamp_age`] moves it
/// up.
///
/// A quarter of the `u32` range: a clamped stamp is at most this old, so the world may wait
/// almost this many more ticks before clamping again and still never let a stamp reach the 2^31
/// distance where half-range comparison breaks.
pub const MAX_TICK_AGE: u32 = 1 << 30;

/// A point in the world's history: the frame counter, or the stamp of a changed slot.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tick(pub u32);

impl Tick {
    /// The tick a new world starts at.
    pub const ZERO: Tick = Tick(0);

    /// The tick after this one; `u32::MAX` is followed by 0.
    #[inline]
    pub const fn next(self) -> Tick {
        Tick(self.0.wrapping_add(1))
    }

    /// Whether `self` is strictly later than `other`, across wrap-around.
    ///
    /// Right whenever the two are less than 2^31 ticks apart, which [`clamp_age`](Self::clamp_age)
    /// guarantees for stored stamps. Equal ticks are not newer, so a consumer that recorded the
    /// current tick does not see writes made at that same tick again after the world moves on.
    #[inline]
    pub const fn is_newer_than(self, other: Tick) -> bool {
        (self.0.wrapping_sub(other.0) as i32) > 0
    }

    /// How many ticks `self` is behind `now`.
    ///
    /// Stored stamps are never ahead of the world's tick, so the distance is measured backwards,
    /// modulo 2^32: a stamp that seems ahead of `now` has in fact wrapped around, and its age is
    /// large rather than negative.
    #[inline]
    pub const fn age(self, now: Tick) -> u32 {
        now.0.wrapping_sub(self.0)
    }

    /// This stamp, moved up to `now - MAX_TICK_AGE` if it is older than that.
    ///
    /// Moving an ancient stamp forward loses nothing that matters: it stays older than every
    /// consumer's recent tick, so it still reads as "not changed" to them, but it can no longer
    /// wrap around to look newer than the present. A consumer holding a `since` tick older than
    /// [`MAX_TICK_AGE`] should clamp it the same way before comparing; clamped stamps then read
    /// as changed to it, which errs on the side of reporting.
    #[inline]
    pub const fn clamp_age(self, now: Tick) -> Tick {
        if self.age(now) > MAX_TICK_AGE {
            Tick(now.0.wrapping_sub(MAX_TICK_AGE))
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_the_default_and_next_counts_up() {
        assert_eq!(Tick::default(), Tick::ZERO);
        assert_eq!(Tick::ZERO.0, 0);
        assert_eq!(Tick::ZERO.next(), Tick(1));
        assert_eq!(Tick(41).next(), Tick(42));
    }

    #[test]
    fn next_wraps_from_the_largest_tick_to_zero() {
        assert_eq!(Tick(u32::MAX).next(), Tick::ZERO);
    }

    #[test]
    fn newer_is_strict() {
        assert!(Tick(5).is_newer_than(Tick(4)));
        assert!(!Tick(4).is_newer_than(Tick(5)));
        assert!(!Tick(4).is_newer_than(Tick(4)), "equal is not newer");
        assert!(!Tick::ZERO.is_newer_than(Tick::ZERO));
    }

    #[test]
    fn newer_holds_across_wrap_around() {
        let before_wrap = Tick(u32::MAX - 5);
        let at_wrap = Tick(u32::MAX).next();
        assert_eq!(at_wrap, Tick(0));
        assert!(at_wrap.is_newer_than(before_wrap));
        assert!(!before_wrap.is_newer_than(at_wrap));
        assert!(Tick(3).is_newer_than(Tick(u32::MAX)));
        assert!(!Tick(u32::MAX).is_newer_than(Tick(3)));
    }

    #[test]
    fn newer_is_right_up_to_just_under_half_the_range() {
        let old = Tick(10);
        let furthest = Tick(10u32.wrapping_add((1 << 31) - 1));
        assert!(furthest.is_newer_than(old));
        assert!(!old.is_newer_than(furthest));
        // Exactly half the range apart the difference is i32::MIN either way round, so neither
        // reads as newer: the boundary the clamping interval must stay clear of.
        let half = Tick(10u32.wrapping_add(1 << 31));
        assert!(!half.is_newer_than(old));
        assert!(!old.is_newer_than(half));
    }

    #[test]
    fn an_unclamped_stamp_past_half_the_range_looks_newer() {
        // The failure clamp_age exists to prevent.
        let now = Tick(1 << 31).next().next();
        let ancient = Tick(1);
        assert!(ancient.is_newer_than(now));
        assert!(!ancient.clamp_age(now).is_newer_than(now));
    }

    #[test]
    fn age_counts_backwards_from_now() {
        assert_eq!(Tick(7).age(Tick(10)), 3);
        assert_eq!(Tick(10).age(Tick(10)), 0);
        assert_eq!(Tick(u32::MAX).age(Tick(2)), 3, "across the wrap");
        assert_eq!(Tick(11).age(Tick(10)), u32::MAX, "ahead means wrapped");
    }

    #[test]
    fn clamp_leaves_recent_stamps_alone() {
        // Small enough that the age limit lies before zero.
        let now = Tick(12);
        for stamp in [
            now,
            Tick(11),
            Tick(0),
            Tick(12u32.wrapping_sub(MAX_TICK_AGE)),
        ] {
            assert_eq!(stamp.clamp_age(now), stamp);
        }
    }

    #[test]
    fn clamp_moves_old_stamps_up_to_the_age_limit() {
        let now = Tick(3 * MAX_TICK_AGE);
        let limit = Tick(2 * MAX_TICK_AGE);
        assert_eq!(Tick(limit.0 - 1).clamp_age(now), limit);
        assert_eq!(Tick::ZERO.clamp_age(now), limit);
        assert_eq!(Tick::ZERO.clamp_age(now).age(now), MAX_TICK_AGE);
    }

    #[test]
    fn clamp_wraps_the_limit_below_zero() {
        let now = Tick(100);
        let limit = Tick(100u32.wrapping_sub(MAX_TICK_AGE));
        assert_eq!(limit.0, u32::MAX - MAX_TICK_AGE + 101);
        let ancient = Tick(limit.0 - 1_000);
        assert_eq!(ancient.clamp_age(now), limit);
        assert!(now.is_newer_than(ancient.clamp_age(now)));
    }

    #[test]
    fn clamp_rescues_a_stamp_that_already_seems_ahead() {
        // A stamp more than 2^31 behind reads as ahead of now; its backwards age is still over
        // the limit, so clamping puts it back in the past.
        let now = Tick(10);
        let wrapped = Tick(20);
        assert!(wrapped.is_newer_than(now));
        let clamped = wrapped.clamp_age(now);
        assert_eq!(clamped, Tick(10u32.wrapping_sub(MAX_TICK_AGE)));
        assert!(now.is_newer_than(clamped));
    }

    #[test]
    fn clamped_stamps_stay_ordered_against_recent_consumers() {
        let now = Tick(u32::MAX - 3);
        let consumer = Tick(now.0 - 100);
        let stale = Tick(consumer.0.wrapping_sub(3 * MAX_TICK_AGE));
        assert!(stale.is_newer_than(consumer), "unclamped, it has wrapped");
        let clamped = stale.clamp_age(now);
        assert!(
            !clamped.is_newer_than(consumer),
            "old write is not a change"
        );
        assert!(Tick(now.0 - 50).is_newer_than(consumer));
    }

    #[test]
    fn periodic_clamping_keeps_an_idle_stamp_in_the_past_forever() {
        // Clamp just under every MAX_TICK_AGE ticks, the slowest rate the module docs allow,
        // across several full wraps of the counter.
        let mut stamp = Tick(7);
        let mut now = Tick(7);
        for _ in 0..16 {
            now = Tick(now.0.wrapping_add(MAX_TICK_AGE - 1));
            assert!(!stamp.is_newer_than(now), "stamp {stamp:?} at {now:?}");
            assert!(now.is_newer_than(stamp));
            stamp = stamp.clamp_age(now);
            assert!(stamp.age(now) <= MAX_TICK_AGE);
        }
    }

    #[test]
    fn clamping_exactly_every_max_tick_age_is_too_slow() {
        // The boundary behind "intervals shorter than MAX_TICK_AGE": a clamped stamp waiting a
        // full MAX_TICK_AGE more is 2^31 behind, where the comparison no longer orders it.
        let clamp_time = Tick(3 * MAX_TICK_AGE);
        let clamped = Tick::ZERO.clamp_age(clamp_time);
        let next_clamp_time = Tick(clamp_time.0.wrapping_add(MAX_TICK_AGE));
        let one_tick_sooner = Tick(next_clamp_time.0.wrapping_sub(1));
        assert!(one_tick_sooner.is_newer_than(clamped));
        assert!(!next_clamp_time.is_newer_than(clamped));
    }
}
