//! A storage's change ticks in its snapshot (`change_ticks`, since format 6): one entry per
//! table, in the order of `tables`, a map from each component the table tracks (by name) to its
//! rows' stamps: `changed`, the tick each row was last written at, and `added`, the tick the
//! component was added to it (spawned with it, or added by a migration). Each is a list of runs
//! `[tick, count]` over the rows in order, as the generations are: a column whose rows were all
//! written at one tick is one run, however long, so a world that was spawned in a batch, or
//! whose systems write whole tables every frame, pays a few numbers per table, not per row.
//! `[untracked]` components have no stamps and no entry.
//!
//! The stamps saved are the ones readers see (a pending range or whole-table stamp folded into
//! the rows it covers), not how the storage keeps them, so two worlds that answer every change
//! query alike save alike, and a loaded world answers every `Changed` and `Added` query, with
//! any tick, as the saving world does. The columns' summaries (the newest stamp of a column, by
//! which a changed-only query skips a table nobody wrote) are not saved: a load recomputes them
//! from the rows, which only ever lets a query skip a table none of whose rows matches.
//!
//! Reading refuses an unknown component or one given twice in a table. Checking, against the
//! decoded tables, refuses a list of another length than `tables`, a tracked column with no
//! entry and an entry for a column the table does not track, runs not as a snapshot writes them
//! (an empty run, two neighbours of one tick), runs that do not cover the table's rows exactly,
//! and a tick after the snapshot's `tick` or older than a world keeps a stamp. A run's count is
//! only a claim: the runs are checked against the table's rows (its ids, read) before the stamps
//! are built, so no declared count sizes an allocation.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::SnapshotTables;
use super::sequence::Sequence;
use crate::archetype::{Archetype, TicksOf};
use crate::change_ticks::RowStamps;
use crate::mask::Bitmask;
use crate::storage::Storage;
use crate::tick::{MAX_TICK_AGE, Tick};

/// The oldest a stamp a world keeps can be, in ticks behind the current tick: the world clamps
/// every stamp to at most [`MAX_TICK_AGE`] behind each time the tick crosses a multiple of half
/// of it, so between two clamps a stamp falls at most that half further behind. An older stamp
/// would come around and look newer than the present before the next clamp.
const OLDEST_STAMP_AGE: u32 = MAX_TICK_AGE + MAX_TICK_AGE / 2;

/// The mask type of world or sub-world `W`'s tables.
type MaskOf<W> = <<W as SnapshotTables>::Table as Archetype>::Mask;

/// A storage's change ticks as written: one entry per table, in order.
pub(crate) struct ChangeTicksOut<'a, W: SnapshotTables>(pub(crate) &'a Storage<W::Table>);

impl<W: SnapshotTables> Serialize for ChangeTicksOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.table_ticks().iter().map(TableTicksOut::<W>))
    }
}

/// One table's change ticks: each tracked column's runs, by component name, in declaration
/// order.
struct TableTicksOut<'a, W: SnapshotTables>(&'a TicksOf<W::Table>);

impl<W: SnapshotTables> Serialize for TableTicksOut<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let ticks = self.0;
        let tracked = ticks.tracked();
        let columns: Vec<_> = W::COMPONENTS
            .iter()
            .filter(|(_, bit)| tracked.contains(*bit))
            .collect();
        let mut map = serializer.serialize_map(Some(columns.len()))?;
        for &&(name, bit) in &columns {
            let stamps = || ticks.effective_stamps(bit.trailing_zeros());
            let column = ColumnTicksOut {
                changed: runs(stamps().map(|stamps| stamps.changed)),
                added: runs(stamps().map(|stamps| stamps.added)),
            };
            map.serialize_entry(name, &column)?;
        }
        map.end()
    }
}

/// `ticks` as runs `(tick, count)` of equal ticks, in order, each as long as it can be.
fn runs(ticks: impl Iterator<Item = Tick>) -> Vec<(u32, u32)> {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for tick in ticks {
        match runs.last_mut() {
            Some((last, count)) if *last == tick.0 => *count += 1,
            _ => runs.push((tick.0, 1)),
        }
    }
    runs
}

/// One column's stamps as written.
#[derive(Serialize)]
#[serde(rename = "ColumnTicks")]
struct ColumnTicksOut {
    changed: Vec<(u32, u32)>,
    added: Vec<(u32, u32)>,
}

/// One column's stamps as read (the fields of [`ColumnTicksOut`]), not yet checked.
#[derive(Deserialize)]
#[serde(rename = "ColumnTicks", deny_unknown_fields)]
struct ColumnTicksIn {
    changed: Sequence<(u32, u32)>,
    added: Sequence<(u32, u32)>,
}

/// One table's change ticks as read: each column's name, mask bit and stamps, not yet checked.
pub(crate) struct TableTicksData<W: SnapshotTables> {
    columns: Vec<(&'static str, MaskOf<W>, ColumnTicksIn)>,
}

impl<'de, W: SnapshotTables> Deserialize<'de> for TableTicksData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(TableTicksVisitor::<W>(PhantomData))
    }
}

/// The visitor of a table's change ticks, for world or sub-world `W`.
struct TableTicksVisitor<W>(PhantomData<fn() -> W>);

impl<'de, W: SnapshotTables> Visitor<'de> for TableTicksVisitor<W> {
    type Value = TableTicksData<W>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a table's change ticks: a map of each tracked column's runs")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut columns = Vec::new();
        let mut seen = MaskOf::<W>::EMPTY;
        while let Some(key) = map.next_key::<String>()? {
            let Some(&(name, bit)) = W::COMPONENTS.iter().find(|(name, _)| *name == key) else {
                let names: Vec<&str> = W::COMPONENTS.iter().map(|(name, _)| *name).collect();
                return Err(de::Error::custom(format_args!(
                    "change ticks of an unknown component `{key}` (this world's components: {})",
                    names.join(", ")
                )));
            };
            if seen.contains(bit) {
                return Err(de::Error::custom(format_args!(
                    "the change ticks of `{name}` appear twice in one table"
                )));
            }
            seen |= bit;
            columns.push((name, bit, map.next_value()?));
        }
        Ok(TableTicksData { columns })
    }
}

impl<W: SnapshotTables> TableTicksData<W> {
    /// The change ticks of a table holding the components of `mask` in `rows` rows, in a
    /// storage whose current tick is `now`: every column the table tracks given, none other,
    /// each covering the rows exactly with ticks a world keeps. The error says what is wrong
    /// (the caller says of which table).
    pub(crate) fn into_ticks(
        self,
        mask: MaskOf<W>,
        rows: usize,
        now: Tick,
    ) -> Result<TicksOf<W::Table>, String> {
        let tracked = mask & <W::Table as Archetype>::TRACKED;
        let mut ticks = TicksOf::<W::Table>::new(tracked, now);
        let mut given = MaskOf::<W>::EMPTY;
        for (name, bit, column) in self.columns {
            if !tracked.contains(bit) {
                let why = match mask.contains(bit) {
                    true => "is `[untracked]`",
                    false => "the table does not hold",
                };
                return Err(format!("change ticks of `{name}`, which {why}"));
            }
            given |= bit;
            let stamps = column_stamps(&column, rows, now)
                .map_err(|error| format!("the change ticks of `{name}`: {error}"))?;
            ticks.load_column(bit.trailing_zeros(), stamps);
        }
        if let Some(&(name, _)) = W::COMPONENTS
            .iter()
            .find(|(_, bit)| tracked.contains(*bit) && !given.contains(*bit))
        {
            return Err(format!("the `{name}` column has no change ticks"));
        }
        Ok(ticks)
    }
}

/// The stamps of a column of `rows` rows, from its runs, checked first (so the stamps built are
/// at most `rows`, the rows the table was read with).
fn column_stamps(column: &ColumnTicksIn, rows: usize, now: Tick) -> Result<Vec<RowStamps>, String> {
    let (changed, added) = (&column.changed.0, &column.added.0);
    check_runs(changed, rows, now).map_err(|error| format!("`changed`: {error}"))?;
    check_runs(added, rows, now).map_err(|error| format!("`added`: {error}"))?;
    let mut stamps = Vec::with_capacity(rows);
    for &(tick, count) in added {
        let count = count as usize;
        stamps.extend(core::iter::repeat_n(RowStamps::at(Tick(tick)), count));
    }
    let mut start = 0;
    for &(tick, count) in changed {
        let end = start + count as usize;
        for stamps in &mut stamps[start..end] {
            stamps.changed = Tick(tick);
        }
        start = end;
    }
    Ok(stamps)
}

/// Checks `runs` as a snapshot writes them over a column of `rows` rows in a storage at tick
/// `now`: none empty, no two neighbours of one tick, together exactly `rows` rows, every tick
/// one a world at `now` keeps (not after `now`, and at most [`OLDEST_STAMP_AGE`] before it).
fn check_runs(runs: &[(u32, u32)], rows: usize, now: Tick) -> Result<(), String> {
    let mut covered = 0usize;
    let mut previous = None;
    for (index, &(tick, count)) in runs.iter().enumerate() {
        if count == 0 {
            return Err(format!("run {index} is empty"));
        }
        if previous == Some(tick) {
            return Err(format!(
                "runs {} and {index} have one tick, {tick} (a snapshot writes them as one run)",
                index - 1
            ));
        }
        previous = Some(tick);
        if Tick(tick).is_newer_than(now) {
            return Err(format!(
                "run {index}'s tick {tick} is after the snapshot's tick {}",
                now.0
            ));
        }
        if Tick(tick).age(now) > OLDEST_STAMP_AGE {
            return Err(format!(
                "run {index}'s tick {tick} is older than a world keeps a stamp (more than \
                 {OLDEST_STAMP_AGE} ticks before the snapshot's tick {})",
                now.0
            ));
        }
        covered = covered.saturating_add(count as usize);
        if covered > rows {
            return Err(format!("the runs cover more than the table's {rows} rows"));
        }
    }
    if covered != rows {
        return Err(format!(
            "the runs cover {covered} of the table's {rows} rows"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_as_long_as_they_can_be() {
        let ticks = [3, 3, 5, 5, 5, 3, 9].map(Tick);
        assert_eq!(
            runs(ticks.into_iter()),
            vec![(3, 2), (5, 3), (3, 1), (9, 1)]
        );
        assert!(runs(core::iter::empty()).is_empty());
    }

    #[test]
    fn runs_are_checked_against_the_rows_and_the_tick() {
        let now = Tick(10);
        assert_eq!(check_runs(&[(3, 2), (10, 1)], 3, now), Ok(()));
        assert_eq!(check_runs(&[], 0, now), Ok(()));
        let refused = |runs: &[(u32, u32)], rows: usize, expected: &str| {
            let error = check_runs(runs, rows, now).unwrap_err();
            assert!(error.contains(expected), "`{error}` lacks `{expected}`");
        };
        refused(&[(3, 0)], 0, "run 0 is empty");
        refused(&[(3, 1), (3, 1)], 2, "runs 0 and 1 have one tick, 3");
        refused(&[(3, 2)], 3, "cover 2 of the table's 3 rows");
        refused(&[(3, 2), (4, u32::MAX)], 3, "more than the table's 3 rows");
        refused(&[(11, 1)], 1, "tick 11 is after the snapshot's tick 10");
        let too_old = 10u32.wrapping_sub(OLDEST_STAMP_AGE + 1);
        refused(&[(too_old, 1)], 1, "older than a world keeps a stamp");
        let oldest = 10u32.wrapping_sub(OLDEST_STAMP_AGE);
        assert_eq!(check_runs(&[(oldest, 1)], 1, now), Ok(()));
    }

    #[test]
    fn a_column_s_stamps_are_built_from_both_lists_of_runs() {
        let column = ColumnTicksIn {
            changed: Sequence(vec![(4, 1), (7, 2)]),
            added: Sequence(vec![(2, 2), (4, 1)]),
        };
        let stamps = column_stamps(&column, 3, Tick(7)).unwrap();
        let pairs: Vec<(u32, u32)> = stamps
            .iter()
            .map(|stamps| (stamps.changed.0, stamps.added.0))
            .collect();
        assert_eq!(pairs, [(4, 2), (7, 2), (7, 4)]);
        let error = column_stamps(&column, 4, Tick(7)).unwrap_err();
        assert!(error.starts_with("`changed`: the runs cover 3"), "{error}");
    }
}
