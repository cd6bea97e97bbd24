//! [`TableTicks`] against a model that keeps every row's stamps: random sequences of what a
//! world does to a table's ticks (batch spawns, despawns, swaps, migrations both ways, row,
//! run and whole-table writes, clamping), after each of which every reader answers as the
//! model does. However the ticks keep a stamp (a row's own, a column's tail, a range or
//! whole-table stamp), readers must not see the difference.

use super::*;
use alloc::vec::Vec;

/// Each row's stamps per component bit (`None`: not tracked by the table).
type Model = Vec<[Option<RowStamps>; 3]>;

/// A table's ticks and the model of them.
struct Modelled {
    ticks: Ticks,
    model: Model,
}

impl Modelled {
    fn new(tracked: u64) -> Self {
        Modelled {
            ticks: ticks(tracked),
            model: Vec::new(),
        }
    }

    fn tracks(&self, bit: usize) -> bool {
        self.ticks.tracked() & (1 << bit) != 0
    }

    fn push_rows(&mut self, count: usize, tick: Tick) {
        self.ticks.push_rows(count, tick);
        let row = core::array::from_fn(|bit| self.tracks(bit).then_some(RowStamps::at(tick)));
        self.model.extend(core::iter::repeat_n(row, count));
    }

    fn swap_remove(&mut self, row: usize) {
        self.ticks.swap_remove(row);
        self.model.swap_remove(row);
    }

    fn swap_rows(&mut self, a: usize, b: usize) {
        self.ticks.swap_rows(a, b);
        self.model.swap(a, b);
    }

    /// `row` moved to the end of `destination` at `tick`.
    fn move_row(&mut self, row: usize, destination: &mut Modelled, tick: Tick) {
        self.ticks.move_row(row, &mut destination.ticks, tick);
        let moved = self.model.swap_remove(row);
        let arrived = core::array::from_fn(|bit| {
            destination
                .tracks(bit)
                .then(|| moved[bit].unwrap_or(RowStamps::at(tick)))
        });
        destination.model.push(arrived);
    }

    /// A write of `rows` of the components of `bits` at `tick` (a row, a run or every row).
    fn write(&mut self, rows: Range<usize>, bits: u64, tick: Tick) {
        let table_rows = self.model.len();
        let written = if rows.len() == 1 {
            Written::Row(rows.start)
        } else {
            Written::Rows {
                rows: rows.clone(),
                table_rows,
            }
        };
        self.ticks.stamp(written, bits, tick);
        for row in &mut self.model[rows] {
            for (bit, stamps) in row.iter_mut().enumerate() {
                if let Some(stamps) = stamps.as_mut().filter(|_| bits & (1 << bit) != 0) {
                    stamps.changed = tick;
                }
            }
        }
    }

    /// Writes through the cells a typed query is handed for `rows` of the components of
    /// `bits`, as its guards do.
    fn write_cells(&mut self, rows: Range<usize>, bits: u64, tick: Tick) {
        self.ticks.note_row_writes(bits, tick);
        let cells = self.ticks.row_cells(bits, 0, rows.clone());
        for bit in 0..3 {
            for cell in cells.column(bit) {
                cell.set(cell.get().written_at(tick));
            }
        }
        for row in &mut self.model[rows] {
            for (bit, stamps) in row.iter_mut().enumerate() {
                if let Some(stamps) = stamps.as_mut().filter(|_| bits & (1 << bit) != 0) {
                    stamps.changed = tick;
                }
            }
        }
    }

    /// Every reader asked about every row, bit and recent tick, against the model.
    fn check(&self, now: Tick, step: usize) {
        let rows = self.model.len();
        assert!(self.ticks.is_aligned(rows), "step {step}: aligned");
        assert_eq!(self.ticks.rows().max(rows), rows, "step {step}: rows");
        for since in (now.0.saturating_sub(6)..=now.0).map(Tick) {
            for bits in [A, B, A | B] {
                let changed_rows = self.ticks.changed_rows(bits, since);
                let added_rows = self.ticks.added_rows(bits, since);
                let mut any_changed = false;
                let mut any_added = false;
                for (row, stamps) in self.model.iter().enumerate() {
                    let newer = |tick: fn(RowStamps) -> Tick| {
                        (0..3).any(|bit| {
                            bits & (1 << bit) != 0
                                && stamps[bit]
                                    .is_some_and(|stamps| tick(stamps).is_newer_than(since))
                        })
                    };
                    let changed = newer(|stamps| stamps.changed);
                    let added = newer(|stamps| stamps.added);
                    any_changed |= changed;
                    any_added |= added;
                    let at = format!("step {step}, row {row}, bits {bits}, since {}", since.0);
                    assert_eq!(self.ticks.changed_since(row, bits, since), changed, "{at}");
                    assert_eq!(changed_rows.contains(row), changed, "changed_rows, {at}");
                    assert_eq!(self.ticks.added_since(row, bits, since), added, "{at}");
                    assert_eq!(added_rows.contains(row), added, "added_rows, {at}");
                }
                // The summaries may say "maybe", never "no" wrongly.
                assert!(!any_changed || self.ticks.may_have_changed_since(bits, since));
                assert!(!any_added || self.ticks.may_have_added_since(bits, since));
            }
        }
    }
}

/// A small deterministic generator (xorshift), so a failure replays.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound.max(1) as u64) as usize
    }
}

#[test]
fn every_reader_answers_as_a_model_of_every_row_does() {
    for seed in 1..=40u64 {
        let mut random = Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        // Two tables, as the two ends of a migration that adds or removes B.
        let mut tables = [Modelled::new(A | B), Modelled::new(A)];
        let mut now = Tick(1);
        for step in 0..120 {
            if random.below(3) == 0 {
                now = Tick(now.0 + 1);
            }
            let which = random.below(2);
            let [first, second] = &mut tables;
            let (table, other) = if which == 0 {
                (first, second)
            } else {
                (second, first)
            };
            let rows = table.model.len();
            let bits = [A, B, A | B][random.below(3)];
            match random.below(9) {
                0 | 1 => table.push_rows(1 + random.below(6), now),
                2 if rows > 0 => table.swap_remove(random.below(rows)),
                3 if rows > 0 => table.move_row(random.below(rows), other, now),
                4 if rows > 1 => table.swap_rows(random.below(rows), random.below(rows)),
                5 if rows > 0 => {
                    let start = random.below(rows);
                    let end = start + 1 + random.below(rows - start);
                    table.write(start..end, bits, now);
                }
                6 if rows > 0 => table.write(0..rows, bits, now),
                7 if rows > 0 => {
                    let start = random.below(rows);
                    table.write_cells(start..rows, bits, now);
                }
                8 => {
                    table.ticks.clamp(now);
                    other.ticks.clamp(now);
                }
                _ => {}
            }
            for table in &tables {
                table.check(now, step);
            }
        }
    }
}
