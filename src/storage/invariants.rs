//! The storage's invariants, checked whole ([`Storage::check_invariants`]): for tests, the
//! fuzz targets and debugging.

use alloc::string::String;
use core::fmt;

use super::Storage;
use crate::archetype::Archetype;
use crate::entity::EntityLocation;
use crate::mask::Bitmask;

impl<T: Archetype> Storage<T> {
    /// Checks every structural invariant of the world; the first violation found is returned.
    /// O(the whole world): meant for tests and debugging.
    ///
    /// Columns are aligned with their table's entity column; every live entity's location
    /// points at a row holding it; every row holds a live entity located there; table masks
    /// are unique and indexed; edges lead to tables of the right mask; every cached query
    /// lists exactly the matching tables; in a world with tags, each table's tag partition
    /// covers its rows in non-empty segments of distinct signatures; every relation holds
    /// only live entities, both ways (each source listed once by its target, each listed
    /// source pointing back), without a cycle, and a live entity carries a relation's bit
    /// exactly when it is linked in it; no entity breaks the world's rules (a component
    /// without one it requires, two members of one exclusive group).
    pub fn check_invariants(&self) -> Result<(), InvariantError> {
        let fail = |message: String| Err(InvariantError { message });
        if self.ticks.len() != self.tables.len() {
            return fail(format!(
                "{} tables but change ticks for {}",
                self.tables.len(),
                self.ticks.len()
            ));
        }
        let mut rows = 0;
        for (table_index, table) in self.tables.iter().enumerate() {
            let mask = table.mask();
            if mask & !(T::COMPONENTS | T::Mask::DISABLED) != T::Mask::EMPTY {
                return fail(format!(
                    "table {table_index} has bits outside the world: {mask:?}"
                ));
            }
            if self.find_table(mask) != Some(table_index) {
                return fail(format!(
                    "table {table_index} ({mask:?}) is not indexed by its mask"
                ));
            }
            if !self.ticks[table_index].is_aligned(table.len()) {
                return fail(format!(
                    "table {table_index} has change ticks of the wrong length"
                ));
            }
            if table.misaligned_columns() != 0 {
                return fail(format!(
                    "table {table_index} has columns of the wrong length"
                ));
            }
            if !table.is_empty() {
                if let Some(broken) = T::RULES.broken_by(mask) {
                    return fail(format!("table {table_index} holds {broken}"));
                }
            }
            for (row, &entity) in table.entities().iter().enumerate() {
                if self.locate(entity) != Some(EntityLocation::new(table_index, row)) {
                    return fail(format!(
                        "{entity} at table {table_index} row {row} is dead or located elsewhere"
                    ));
                }
            }
            rows += table.len();
            let edges = self.edges.edges(table_index);
            for bit in 0..T::COMPONENT_COUNT {
                let bit_mask = T::Mask::bit(bit as u32);
                for (edge, expected) in [
                    (edges.add[bit], mask | bit_mask),
                    (edges.remove[bit], mask & !bit_mask),
                ] {
                    if let Some(destination) = edge {
                        if self.tables[destination as usize].mask() != expected {
                            return fail(format!(
                                "edge of bit {bit} from table {table_index} leads to the wrong table"
                            ));
                        }
                    }
                }
            }
            for &(change, destination) in &edges.multi_bit {
                if self.tables[destination as usize].mask() != change.apply(mask) {
                    return fail(format!(
                        "multi-bit edge {change:?} from table {table_index} leads to the wrong table"
                    ));
                }
            }
        }
        if !T::TAGS.is_empty() && self.partitions.len() != self.tables.len() {
            return fail(format!(
                "{} tag partitions for {} tables",
                self.partitions.len(),
                self.tables.len()
            ));
        }
        for (table_index, (table, partition)) in self
            .tables
            .iter()
            .zip(&self.partitions)
            .enumerate()
            .filter(|_| !T::TAGS.is_empty())
        {
            if let Err(message) = partition.check(table.len(), T::TAGS) {
                return fail(format!("table {table_index}: {message}"));
            }
        }
        if let Err(message) = self.check_relations() {
            return fail(message);
        }
        if rows != self.records.len() {
            return fail(format!(
                "{rows} rows for {} live entities",
                self.records.len()
            ));
        }
        for (include, cached) in self.queries.entries() {
            let expected = self
                .tables
                .iter()
                .enumerate()
                .filter(|(_, table)| table.mask().contains(include));
            if !expected.map(|(index, _)| index).eq(cached.iter().copied()) {
                return fail(format!(
                    "query cache entry {include:?} does not list exactly the matching tables"
                ));
            }
        }
        Ok(())
    }
}

/// A broken storage invariant, found by [`Storage::check_invariants`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantError {
    /// What is wrong, and where.
    pub message: String,
}

impl fmt::Display for InvariantError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "world invariant broken: {}", self.message)
    }
}

impl core::error::Error for InvariantError {}
