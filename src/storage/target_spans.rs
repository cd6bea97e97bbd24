//! The spans of siblings a `Target` term reads, kept between passes.
//!
//! A `Target` term hands out one item per span of rows that share their relation target (a
//! ship's turrets, spawned together, sit side by side), and measuring a span (the first row's
//! target, its list of sources compared with the rows that follow) costs more than the rows'
//! own loop. Between two passes over a world whose rows and links did not move, the spans are
//! the same: the storage keeps each long run's spans, under the versions of its records and of
//! its relation stores (see [`Versioned`](crate::versioned::Versioned)), and a pass over an
//! unchanged world reads them instead of measuring again. Any change of a row or a link gives a
//! new version, and the next pass measures again.

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::num::NonZeroU64;
use core::ops::Range;

use crate::entity::{Entity, EntityLocation, EntityRecords};
use crate::relation::RelationStore;

/// Runs shorter than this are measured as they are visited: fetching kept spans (a lock and a
/// search) costs more than measuring a few.
pub(crate) const KEPT_RUN_LEN: usize = 32;

/// Rows of a run that share one target: the rows from the previous span's `end` (0 for the
/// first) up to `end`, and their target and its location (`None`: not linked, or linked to an
/// entity that is not alive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetSpan {
    pub end: usize,
    pub target: Option<Located>,
}

/// An entity and where its row is.
pub type Located = (Entity, EntityLocation);

/// What a run's spans are kept under: the relation (its store's index) and the run's first
/// entity and length. While the records keep their version, an entity stays at its row, so its
/// first entity says which table and rows a run is.
#[derive(Clone, Copy, PartialEq, Eq)]
struct RunKey {
    relation: usize,
    first: Entity,
    len: usize,
}

/// The kept spans, and the versions of the records and relation stores they were measured in.
#[derive(Default)]
struct Kept {
    versions: Option<(NonZeroU64, NonZeroU64)>,
    runs: Vec<(RunKey, Arc<[TargetSpan]>)>,
}

/// A storage's kept spans. Behind a lock, because the queries of systems that run at the same
/// time share the storage; a query that finds it taken measures its spans itself.
#[derive(Default)]
pub(crate) struct TargetSpans(spin::Mutex<Kept>);

impl TargetSpans {
    /// The spans of `entities` (a run of rows, at least [`KEPT_RUN_LEN`] long) in the relation
    /// whose store is `links` (index `relation`), the targets located in `records`, in a
    /// storage whose records and relation stores have the versions `versions`: kept ones if
    /// they were measured under the same versions, measured and kept otherwise. `None` while
    /// another query holds the lock.
    pub(crate) fn spans(
        &self,
        versions: (NonZeroU64, NonZeroU64),
        relation: usize,
        entities: &[Entity],
        (links, records): (&RelationStore, &EntityRecords),
    ) -> Option<Arc<[TargetSpan]>> {
        let key = RunKey {
            relation,
            first: *entities.first()?,
            len: entities.len(),
        };
        let mut kept = self.0.try_lock()?;
        if kept.versions != Some(versions) {
            kept.runs.clear();
            kept.versions = Some(versions);
        }
        if let Some((_, spans)) = kept.runs.iter().find(|(kept_key, _)| *kept_key == key) {
            return Some(spans.clone());
        }
        let spans: Arc<[TargetSpan]> = measure(entities, links, records).into();
        kept.runs.push((key, spans.clone()));
        Some(spans)
    }

    /// Forgets every kept span (a storage copied over this one).
    pub(crate) fn clear(&mut self) {
        *self.0.get_mut() = Kept::default();
    }
}

/// The spans of `entities` that share their target in `links`, in order, each target located
/// in `records`.
fn measure(entities: &[Entity], links: &RelationStore, records: &EntityRecords) -> Vec<TargetSpan> {
    let mut spans = Vec::new();
    let (mut start, mut carried) = (0, None);
    while start < entities.len() {
        let (target, same, after) = links.target_span(&entities[start..], carried);
        spans.push(TargetSpan {
            end: start + same,
            target: target.and_then(|target| Some((target, records.location(target)?))),
        });
        start += same;
        carried = after;
    }
    spans
}

/// The span of `spans` that holds `row` (its rows and its target's), looked for from `*next`
/// on (a loop visits the rows in order) and then from the start; `next` is left after it.
/// `None` past the last span.
#[inline]
pub(crate) fn span_at(
    spans: &[TargetSpan],
    next: &mut usize,
    row: usize,
) -> Option<(Range<usize>, Option<Located>)> {
    let start_of = |index: usize| if index == 0 { 0 } else { spans[index - 1].end };
    let index = match spans.get(*next) {
        Some(span) if start_of(*next) <= row && row < span.end => *next,
        _ => spans.partition_point(|span| span.end <= row),
    };
    let span = spans.get(index)?;
    *next = index + 1;
    Some((start_of(index)..span.end, span.target))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::EntityIndex;

    /// Ships (ids 0..3, at rows 5, 6, 7 of table 2), then the rows: three turrets of ship 0,
    /// one unlinked row, two of ship 1 (the first linked last, so not in list order), one of
    /// ship 2, which is despawned.
    fn fleet() -> (RelationStore, EntityRecords, Vec<Entity>, Vec<Entity>) {
        let (mut index, mut records) = (EntityIndex::default(), EntityRecords::default());
        let entities = index.allocate_many(10, &mut records);
        let (ships, rows) = (entities[..3].to_vec(), entities[3..].to_vec());
        for (row, ship) in ships.iter().enumerate() {
            records.set_location(ship.id, EntityLocation::new(2, 5 + row));
        }
        let mut links = RelationStore::new();
        for &turret in &rows[..3] {
            links.link(turret, ships[0]).unwrap();
        }
        links.link(rows[5], ships[1]).unwrap();
        links.link(rows[4], ships[1]).unwrap();
        links.link(rows[6], ships[2]).unwrap();
        assert!(index.free(ships[2], &mut records));
        (links, records, ships, rows)
    }

    #[test]
    fn measure_gives_each_span_of_one_target_in_order_with_its_location() {
        let (links, records, ships, rows) = fleet();
        let spans = measure(&rows, &links, &records);
        let at = |ship: usize| Some((ships[ship], EntityLocation::new(2, 5 + ship)));
        let expected = [(3, at(0)), (4, None), (6, at(1)), (7, None)]
            .map(|(end, target)| TargetSpan { end, target });
        assert_eq!(spans, expected, "the despawned ship's turret: no target");
        assert!(measure(&[], &links, &records).is_empty());
    }

    #[test]
    fn span_at_finds_a_row_in_order_and_out_of_order() {
        let (links, records, _, rows) = fleet();
        let spans = measure(&rows, &links, &records);
        let mut next = 0;
        for (row, &source) in rows.iter().enumerate() {
            let (range, target) = span_at(&spans, &mut next, row).unwrap();
            assert!(range.contains(&row));
            let live_target = links.target(source).filter(|&ship| records.is_alive(ship));
            assert_eq!(target.map(|(ship, _)| ship), live_target);
        }
        assert_eq!(span_at(&spans, &mut next, rows.len()), None);
        // Backwards, from a stale hint.
        let mut next = spans.len();
        for row in (0..rows.len()).rev() {
            let (range, _) = span_at(&spans, &mut next, row).unwrap();
            assert!(range.contains(&row));
        }
    }

    #[test]
    fn kept_spans_are_returned_while_the_versions_hold() {
        let (links, records, _, rows) = fleet();
        let stores = (&links, &records);
        let kept = TargetSpans::default();
        let one = NonZeroU64::new(1).unwrap();
        let two = NonZeroU64::new(2).unwrap();
        let first = kept.spans((one, one), 0, &rows, stores).unwrap();
        let again = kept.spans((one, one), 0, &rows, stores).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        // Another relation, another run, or new versions: measured again.
        assert!(!Arc::ptr_eq(
            &first,
            &kept.spans((one, one), 1, &rows, stores).unwrap()
        ));
        assert!(!Arc::ptr_eq(
            &first,
            &kept.spans((one, one), 0, &rows[1..], stores).unwrap()
        ));
        let moved = kept.spans((one, two), 0, &rows, stores).unwrap();
        assert!(!Arc::ptr_eq(&first, &moved));
        assert_eq!(*first, *moved);
        // Taken by another query: none.
        let held = kept.0.lock();
        assert!(kept.spans((one, two), 0, &rows, stores).is_none());
        drop(held);
        assert!(kept.spans((one, one), 0, &[], stores).is_none());
    }
}
