use super::*;

/// A table modelled as the signature of each row, plus an id per row to follow rows
/// through the swaps.
#[derive(Default)]
struct Model {
    partition: TagPartition<u64>,
    rows: Vec<(u32, u64)>,
    next_id: u32,
}

impl Model {
    fn swap(rows: &mut [(u32, u64)]) -> impl FnMut(usize, usize) + '_ {
        move |a, b| {
            assert_ne!(a, b, "no swap of a row with itself");
            rows.swap(a, b);
        }
    }

    fn push(&mut self, count: usize, tags: u64) -> bool {
        for _ in 0..count {
            self.rows.push((self.next_id, tags));
            self.next_id += 1;
        }
        self.partition
            .push(count, tags, &mut Self::swap(&mut self.rows))
    }

    fn retag(&mut self, row: usize, tags: u64) -> usize {
        self.rows[row].1 = tags;
        let id = self.rows[row].0;
        let moved = self
            .partition
            .retag(row, tags, &mut Self::swap(&mut self.rows));
        assert_eq!(
            self.rows[moved].0, id,
            "the returned row holds the retagged one"
        );
        moved
    }

    fn remove(&mut self, row: usize) -> u32 {
        let id = self.rows[row].0;
        let at = self.partition.remove(row, &mut Self::swap(&mut self.rows));
        assert_eq!(self.rows[at].0, id);
        self.rows.swap_remove(at);
        id
    }

    fn migrate_out(&mut self, row: usize) -> u32 {
        let (id, _) = self.rows.swap_remove(row);
        if row < self.rows.len() {
            self.partition.remove(row, &mut Self::swap(&mut self.rows));
        } else {
            self.partition
                .remove(row, &mut |_, _| panic!("nothing to move"));
        }
        id
    }

    /// The partition agrees with the rows: each row lies in the segment of its tags.
    fn assert_consistent(&self) {
        self.partition.check(self.rows.len(), u64::MAX).unwrap();
        for (tags, range) in self.partition.segments() {
            for row in range {
                assert_eq!(self.rows[row].1, tags, "row {row}");
            }
        }
        for (row, &(_, tags)) in self.rows.iter().enumerate() {
            assert_eq!(self.partition.tags_of(row), tags);
        }
    }

    fn rows_matching(&self, include: u64, exclude: u64) -> Vec<usize> {
        self.partition
            .runs(include, exclude)
            .flatten()
            .collect::<Vec<_>>()
    }
}

#[test]
fn an_untagged_table_is_one_segment_and_never_swaps() {
    let mut model = Model::default();
    assert!(!model.push(3, 0));
    assert!(!model.push(2, 0));
    model.assert_consistent();
    assert_eq!(model.partition.segments().count(), 1);
    // Removing any row needs no swap: it is already in the last segment.
    assert_eq!(model.partition.remove(1, &mut |_, _| panic!("swapped")), 1);
    model.rows.swap_remove(1);
    model.assert_consistent();
    assert_eq!(model.rows_matching(0, 0), vec![0, 1, 2, 3]);
}

#[test]
fn a_new_signature_opens_a_segment_after_the_rows() {
    let mut model = Model::default();
    model.push(4, 0);
    assert!(!model.push(2, 0b1), "appended in place");
    model.assert_consistent();
    assert_eq!(model.rows_matching(0b1, 0), vec![4, 5]);
    assert_eq!(model.rows_matching(0, 0b1), vec![0, 1, 2, 3]);
}

#[test]
fn segment_at_gives_a_rows_tags_and_the_end_of_its_segment() {
    let mut model = Model::default();
    model.push(3, 0);
    model.push(2, 0b1);
    model.push(1, 0b10);
    model.assert_consistent();
    assert_eq!(model.partition.segment_at(0), (0, 3));
    assert_eq!(model.partition.segment_at(2), (0, 3));
    assert_eq!(model.partition.segment_at(3), (0b1, 5));
    assert_eq!(model.partition.segment_at(4), (0b1, 5));
    assert_eq!(model.partition.segment_at(5), (0b10, 6));
    // Past the last row: no tags, one row.
    assert_eq!(model.partition.segment_at(6), (0, 7));
    for row in 0..6 {
        assert_eq!(
            model.partition.segment_at(row).0,
            model.partition.tags_of(row)
        );
    }
}

#[test]
fn rows_pushed_into_an_earlier_segment_trade_places_with_later_ones() {
    for (early, late, count) in [(3, 1, 2), (3, 5, 2), (1, 1, 3), (2, 2, 2)] {
        let mut model = Model::default();
        model.push(early, 0b1);
        model.push(late, 0b10);
        model.push(1, 0b100);
        assert!(model.push(count, 0b1), "moved");
        model.assert_consistent();
        assert_eq!(model.rows_matching(0b1, 0).len(), early + count);
        // Ids from `first_new` on are the rows of the last push.
        let first_new = (early + late + 1) as u32;
        let mut new_ids: Vec<u32> = model
            .rows_matching(0b1, 0)
            .into_iter()
            .map(|row| model.rows[row].0)
            .filter(|&id| id >= first_new)
            .collect();
        new_ids.sort();
        let expected: Vec<u32> = (first_new..first_new + count as u32).collect();
        assert_eq!(new_ids, expected, "every new row joined the segment");
    }
}

#[test]
fn retag_moves_up_and_down_with_one_swap_per_boundary() {
    let mut model = Model::default();
    model.push(3, 0);
    model.push(3, 0b1);
    model.push(3, 0b10);
    let mut swaps = 0;
    let moved = model.partition.retag(0, 0b10, &mut |a, b| {
        swaps += 1;
        model.rows.swap(a, b);
    });
    model.rows[moved].1 = 0b10;
    assert_eq!(swaps, 2, "two boundaries crossed");
    model.assert_consistent();
    let moved = model.retag(moved, 0);
    assert_eq!(model.rows[moved].1, 0);
    model.assert_consistent();
    assert_eq!(model.rows_matching(0b10, 0).len(), 3);
}

#[test]
fn retag_to_a_new_signature_is_one_swap_and_empties_are_dropped() {
    let mut model = Model::default();
    model.push(3, 0);
    model.push(3, 0b1);
    let moved = model.retag(1, 0b11);
    assert_eq!(model.partition.segments().count(), 3);
    model.assert_consistent();
    // The only row of its signature goes back: its segment disappears.
    model.retag(moved, 0);
    assert_eq!(model.partition.segments().count(), 2);
    model.assert_consistent();
    // Retagging to its own signature does nothing.
    assert_eq!(model.partition.retag(4, 0b1, &mut |_, _| panic!()), 4);
}

#[test]
fn remove_and_migrate_out_keep_the_partition() {
    let mut model = Model::default();
    model.push(2, 0);
    model.push(2, 0b1);
    model.push(2, 0b10);
    model.remove(0);
    model.assert_consistent();
    model.migrate_out(1);
    model.assert_consistent();
    model.migrate_out(model.rows.len() - 1);
    model.assert_consistent();
    while !model.rows.is_empty() {
        model.remove(0);
        model.assert_consistent();
    }
    assert_eq!(model.partition.segments().count(), 0);
    assert!(model.partition.check(0, u64::MAX).is_ok());
}

#[test]
fn runs_merge_adjacent_matching_segments() {
    let mut model = Model::default();
    model.push(2, 0b01);
    model.push(2, 0b11);
    model.push(2, 0b00);
    model.push(2, 0b10);
    let runs: Vec<Range<usize>> = model.partition.runs(0b01, 0).collect();
    assert_eq!(runs, vec![0..4]);
    let runs: Vec<Range<usize>> = model.partition.runs(0b10, 0b01).collect();
    assert_eq!(runs, vec![6..8]);
    let runs: Vec<Range<usize>> = model.partition.runs(0, 0b01).collect();
    assert_eq!(runs, vec![4..8]);
    let runs: Vec<Range<usize>> = model.partition.runs(0b100, 0).collect();
    assert!(runs.is_empty());
    assert_eq!(model.partition.runs(0, 0).collect::<Vec<_>>(), vec![0..8]);
    assert_eq!(Runs::<u64>::whole(8).collect::<Vec<_>>(), vec![0..8]);
    assert_eq!(Runs::<u64>::whole(0).count(), 0, "no run in an empty table");
}

#[test]
fn check_reports_a_miscounted_partition() {
    let mut model = Model::default();
    model.push(2, 0b1);
    assert!(model.partition.check(3, u64::MAX).is_err());
    assert!(
        model.partition.check(2, 0b10).is_err(),
        "bits outside the tags"
    );
    assert!(model.partition.check(2, 0b1).is_ok());
}

#[test]
fn random_operations_keep_the_partition_sound() {
    let mut model = Model::default();
    let mut state = 0x9e37_79b9_u32;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    for _ in 0..3_000 {
        let choice = next();
        let tags = u64::from(next() % 4);
        let len = model.rows.len();
        match choice % 5 {
            0 | 1 => {
                model.push(1 + (next() % 3) as usize, tags);
            }
            2 if len > 0 => {
                model.retag(next() as usize % len, tags);
            }
            3 if len > 0 => {
                model.remove(next() as usize % len);
            }
            4 if len > 0 => {
                model.migrate_out(next() as usize % len);
            }
            _ => {}
        }
        model.assert_consistent();
        let mut ids: Vec<u32> = model.rows.iter().map(|&(id, _)| id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), model.rows.len(), "no row duplicated or lost");
    }
}
