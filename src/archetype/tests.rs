//! Unit tests of a generated table's row operations: migrations both ways, the rollback of
//! pushed defaults, and the parked values' drop, with a `Default` or `Drop` that panics.

use super::*;
use crate::column::push_defaults;

mod migrating {
    #![allow(dead_code)]
    use alloc::string::String;
    use std::cell::Cell;
    use std::thread_local;

    thread_local! {
        pub static PANIC_ON_DEFAULT: Cell<bool> = const { Cell::new(false) };
        pub static PANIC_ON_DROP: Cell<bool> = const { Cell::new(false) };
    }

    /// A component whose `Default` and `Drop` panic on demand.
    #[derive(Debug, PartialEq)]
    pub struct Touchy(pub u32);

    impl Default for Touchy {
        fn default() -> Self {
            if PANIC_ON_DEFAULT.get() {
                panic!("Default");
            }
            Touchy(0)
        }
    }

    impl Drop for Touchy {
        fn drop(&mut self) {
            if PANIC_ON_DROP.get() && !std::thread::panicking() {
                panic!("Drop");
            }
        }
    }

    crate::ecs! {
        Migrating {
            number: u32 => NUMBER,
            name: String => NAME,
            touchy: Touchy => TOUCHY,
            other: Touchy => OTHER,
        }
    }
}

use migrating::*;

fn table(mask: MigratingMask, rows: u32) -> MigratingComponentArrays {
    let mut table = MigratingComponentArrays::new(mask);
    let entities: Vec<Entity> = (0..rows).map(|id| Entity::new(id, 0)).collect();
    table.push_defaults(&entities);
    for row in 0..rows as usize {
        if mask & NUMBER != 0 {
            table.number[row] = row as u32;
        }
        if mask & NAME != 0 {
            table.name[row] = format!("n{row}");
        }
        if mask & TOUCHY != 0 {
            table.touchy[row] = Touchy(row as u32);
        }
    }
    table
}

type Migration =
    fn(&mut MigratingComponentArrays, usize, &mut MigratingComponentArrays) -> MigratingMask;

/// Both ways a table migrates a row: the narrow world's test per column (the generated
/// `move_row` of this 4-component world) and the jump per column of the row ([`move_row_wide`],
/// what worlds wider than [`UNROLLED_MIGRATION_COLUMNS`] use), each with the entity.
fn migrations() -> [Migration; 2] {
    [
        |source, row, destination| source.move_row(row, destination),
        |source, row, destination| {
            let parked = move_row_wide(source, row, destination);
            destination.entities.push(source.entities.swap_remove(row));
            parked
        },
    ]
}

#[test]
fn move_row_moves_shared_values_adds_defaults_and_parks_removed_ones() {
    for migrate in migrations() {
        let mut source = table(NUMBER | NAME | TOUCHY, 3);
        let mut destination = table(NUMBER | OTHER, 1);
        let parked = migrate(&mut source, 0, &mut destination);
        assert_eq!(parked, NAME | TOUCHY);
        assert_eq!(destination.number, [0, 0]);
        assert_eq!(destination.other, [Touchy(0), Touchy(0)], "added: default");
        assert!(destination.name.is_empty() && destination.touchy.is_empty());
        assert_eq!(destination.entities, [Entity::new(0, 0), Entity::new(0, 0)]);
        assert_eq!(source.entities, [Entity::new(2, 0), Entity::new(1, 0)]);
        assert_eq!(source.number, [2, 1], "the last row filled the hole");
        assert_eq!(source.name, ["n2", "n1", "n0"], "parked past the last row");
        assert_eq!(source.touchy, [Touchy(2), Touchy(1), Touchy(0)]);
        assert_eq!(source.misaligned_columns(), 2);
        drop_parked(&mut source, parked);
        assert_eq!(source.name, ["n2", "n1"]);
        assert_eq!(source.touchy, [Touchy(2), Touchy(1)]);
        assert_eq!(
            source.misaligned_columns() + destination.misaligned_columns(),
            0
        );
    }
}

#[test]
fn table_rollback_cuts_every_present_column_back_unless_committed() {
    let mut table = table(NUMBER | NAME | TOUCHY, 2);
    let mut pushed = TableRollback::new(&mut table);
    push_defaults(&mut pushed.table().number, true, 3);
    push_defaults(&mut pushed.table().name, true, 3);
    drop(pushed);
    assert_eq!(table.number, [0, 1], "dropped armed: cut back");
    assert_eq!(table.name, ["n0", "n1"]);
    assert!(table.other.is_empty(), "an absent column stays empty");
    let mut pushed = TableRollback::new(&mut table);
    push_defaults(&mut pushed.table().number, true, 1);
    pushed.commit();
    assert_eq!(table.number, [0, 1, 0], "committed: kept");
    assert_eq!(table.name.len(), 2);
}

#[test]
fn push_defaults_with_a_default_that_panics_leaves_the_table_as_it_was() {
    let mut table = table(NUMBER | NAME | TOUCHY | OTHER, 2);
    PANIC_ON_DEFAULT.set(true);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        table.push_defaults(&[Entity::new(7, 0)])
    }));
    PANIC_ON_DEFAULT.set(false);
    assert!(result.is_err());
    assert_eq!(table.number, [0, 1], "pushed before the panic, cut back");
    assert_eq!(table.name, ["n0", "n1"]);
    assert_eq!(
        (table.touchy.len(), table.other.len(), table.len()),
        (2, 2, 2)
    );
    assert_eq!(table.misaligned_columns(), 0);
}

#[test]
fn a_default_that_panics_moves_nothing() {
    for migrate in migrations() {
        let mut source = table(NUMBER, 2);
        let mut destination = table(NUMBER | NAME | TOUCHY, 1);
        PANIC_ON_DEFAULT.set(true);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            migrate(&mut source, 1, &mut destination)
        }));
        PANIC_ON_DEFAULT.set(false);
        assert!(result.is_err());
        assert_eq!(
            destination.name.len(),
            1,
            "the default pushed before the panic, cut back"
        );
        assert_eq!(destination.touchy.len(), 1);
        assert_eq!(source.number, [0, 1]);
        assert_eq!(
            source.misaligned_columns() + destination.misaligned_columns(),
            0
        );
    }
}

#[test]
fn a_drop_that_panics_still_cuts_every_parked_column_back() {
    for migrate in migrations() {
        let mut source = table(NUMBER | NAME | TOUCHY | OTHER, 2);
        let mut destination = table(NUMBER, 0);
        let parked = migrate(&mut source, 0, &mut destination);
        assert_eq!(parked, NAME | TOUCHY | OTHER);
        PANIC_ON_DROP.set(true);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            drop_parked(&mut source, parked)
        }));
        PANIC_ON_DROP.set(false);
        assert!(result.is_err());
        assert_eq!(source.name, ["n1"], "cut back on the way out");
        assert_eq!(source.touchy, [Touchy(1)]);
        assert_eq!(
            source.other.len(),
            1,
            "the column after the panicking one too"
        );
        assert_eq!(
            source.misaligned_columns() + destination.misaligned_columns(),
            0
        );
    }
}
