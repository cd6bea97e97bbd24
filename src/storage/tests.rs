use super::*;
use crate::entity::EntityIndex;
use alloc::string::String;
use test_world::*;

/// A storage with its own entity index, the two halves of a world, for the storage's unit
/// tests (here and in the submodules): `spawn` and `despawn` issue and free through the
/// index, everything else is the storage's.
pub(crate) struct TestStorage<T: Archetype> {
    pub(crate) index: EntityIndex,
    pub(crate) storage: Storage<T>,
}

impl<T: Archetype> TestStorage<T> {
    pub(crate) fn new() -> Self {
        TestStorage {
            index: EntityIndex::default(),
            storage: Storage::new(),
        }
    }

    pub(crate) fn spawn(&mut self, mask: T::Mask) -> Entity {
        self.storage.spawn(&mut self.index, mask)
    }

    pub(crate) fn spawn_batch(
        &mut self,
        mask: T::Mask,
        count: usize,
        init: impl FnMut(&mut T::ViewMut<'_>, usize),
    ) -> Vec<Entity> {
        self.storage.spawn_batch(&mut self.index, mask, count, init)
    }

    pub(crate) fn despawn(&mut self, entity: Entity) -> bool {
        self.storage.despawn(&mut self.index, entity)
    }

    pub(crate) fn despawn_entities(&mut self, entities: &[Entity]) -> Vec<Entity> {
        self.storage.despawn_entities(&mut self.index, entities)
    }
}

impl<T: Archetype> core::ops::Deref for TestStorage<T> {
    type Target = Storage<T>;

    fn deref(&self) -> &Storage<T> {
        &self.storage
    }
}

impl<T: Archetype> core::ops::DerefMut for TestStorage<T> {
    fn deref_mut(&mut self) -> &mut Storage<T> {
        &mut self.storage
    }
}

/// The world the storage's unit tests (here and in the submodules) and the command
/// staging's run on.
pub(crate) mod test_world {
    #![allow(dead_code)]
    use alloc::string::String;
    crate::ecs! {
        TestWorld {
            number: u32 => NUMBER,
            name: String => NAME,
            flag: bool => FLAG,
        }
        Tags {
            marked => MARKED,
        }
    }
}

#[test]
fn pair_mut_returns_both_orders() {
    let mut items = [1, 2, 3];
    let (a, b) = pair_mut(&mut items, 0, 2);
    assert_eq!((*a, *b), (1, 3));
    let (a, b) = pair_mut(&mut items, 2, 1);
    assert_eq!((*a, *b), (3, 2));
}

#[test]
fn mutable_matching_skips_unmatched_and_empty_tables() {
    let mut storage = TestStorage::<TestWorldComponentArrays>::new();
    storage.spawn(NUMBER);
    storage.spawn(NAME);
    let emptied = storage.spawn(NUMBER | NAME);
    storage.spawn(NUMBER | FLAG);
    storage.spawn(NUMBER | NAME | FLAG);
    storage.despawn(emptied);
    let masks: Vec<u64> = storage
        .matching_tables_mut(NUMBER, FLAG)
        .map(|table| table.mask)
        .collect();
    assert_eq!(
        masks,
        vec![NUMBER],
        "NUMBER | NAME is empty, the FLAG tables excluded"
    );
    let masks: Vec<u64> = storage
        .matching_tables_mut(NAME, 0)
        .map(|table| table.mask)
        .collect();
    assert_eq!(masks, vec![NAME, NUMBER | NAME | FLAG]);
    assert_eq!(storage.query_cache().get(NAME), Some(&[1usize, 2, 4][..]));
}

#[test]
fn shared_matching_agrees_with_and_without_the_cache() {
    let mut storage = TestStorage::<TestWorldComponentArrays>::new();
    for mask in [NUMBER, NAME, NUMBER | NAME, FLAG, NUMBER | FLAG] {
        storage.spawn_batch(mask, 3, |_, _| {});
    }
    let scanned: Vec<u64> = storage
        .matching_tables(NUMBER, NAME)
        .map(|t| t.mask)
        .collect();
    storage.warm_query(NUMBER);
    let cached: Vec<u64> = storage
        .matching_tables(NUMBER, NAME)
        .map(|t| t.mask)
        .collect();
    assert_eq!(scanned, vec![NUMBER, NUMBER | FLAG]);
    assert_eq!(scanned, cached);
    storage.check_invariants().unwrap();
}

#[test]
fn set_and_take_migrate_once_and_keep_other_values() {
    let mut storage = TestStorage::<TestWorldComponentArrays>::new();
    let entity = storage.spawn(NUMBER);
    *storage
        .get_mut(entity, NUMBER, |t| &mut t.number[..])
        .unwrap() = 7;
    assert!(storage.set(entity, NAME, String::from("seven"), |t| &mut t.name[..]));
    assert_eq!(storage.component_mask(entity), Some(NUMBER | NAME));
    assert_eq!(storage.get(entity, NUMBER, |t| &t.number[..]), Some(&7));
    let name = storage.take(entity, NAME, |t| &mut t.name[..]);
    assert_eq!(name.as_deref(), Some("seven"));
    assert_eq!(storage.take(entity, NAME, |t| &mut t.name[..]), None);
    assert_eq!(storage.component_mask(entity), Some(NUMBER));
    assert_eq!(storage.tables().len(), 2);
    storage.check_invariants().unwrap();
}

#[test]
fn invariant_checker_reports_a_broken_location() {
    let mut storage = TestStorage::<TestWorldComponentArrays>::new();
    let first = storage.spawn(NUMBER);
    let second = storage.spawn(NUMBER);
    storage.check_invariants().unwrap();
    storage
        .records
        .set_location(first.id, EntityLocation::new(0, 1));
    storage
        .records
        .set_location(second.id, EntityLocation::new(0, 0));
    let error = storage.check_invariants().unwrap_err();
    assert!(error.message.contains("located elsewhere"), "{error}");
}

#[test]
fn invariant_checker_reports_an_alive_id_without_a_row() {
    let mut storage = TestStorage::<TestWorldComponentArrays>::new();
    storage.spawn(NUMBER);
    storage.check_invariants().unwrap();
    // An id made alive behind the storage's back: no row holds it.
    let rowless = storage.index.allocate(&mut storage.storage);
    let error = storage.check_invariants().unwrap_err();
    assert!(error.message.contains("1 rows for 2 live"), "{error}");
    assert!(storage.index.free(rowless, &mut storage.storage));
    storage.check_invariants().unwrap();
}

#[test]
fn invariant_checker_reports_a_misaligned_column() {
    let mut storage = TestStorage::<TestWorldComponentArrays>::new();
    storage.spawn(NUMBER);
    storage.tables[0].number.push(1);
    let error = storage.check_invariants().unwrap_err();
    assert!(error.message.contains("wrong length"), "{error}");
}

#[test]
fn invariant_checker_reports_tables_and_ticks_out_of_step() {
    let mut storage = TestStorage::<TestWorldComponentArrays>::new();
    let entity = storage.spawn(NUMBER);
    assert_eq!(storage.check_invariants(), Ok(()));
    // A tracked write reaches a table and its ticks through one index: a missing entry is
    // reported, and a write to that table answers `None` rather than panicking.
    storage.ticks.pop();
    let error = storage.check_invariants().unwrap_err();
    assert!(error.message.contains("change ticks for 0"), "{error}");
    assert!(
        storage
            .get_mut(entity, NUMBER, |table| &mut table.number)
            .is_none()
    );
}

#[cfg(feature = "parallel")]
#[test]
fn parallel_iteration_visits_every_row_once_with_view_relative_indices() {
    let mut storage = TestStorage::<TestWorldComponentArrays>::new();
    let large = storage.spawn_batch(NUMBER, 10_000, |view, index| {
        view.number[index] = index as u32
    });
    let small = storage.spawn_batch(NUMBER | FLAG, 3, |view, index| {
        view.number[index] = 100_000 + index as u32
    });
    storage.spawn_batch(NAME, 5, |_, _| {});
    storage.par_for_each_mut(NUMBER, 0, |entity, view, index| {
        assert_eq!(view.entities[index], entity);
        view.number[index] += 1;
    });
    for (index, &entity) in large.iter().enumerate() {
        assert_eq!(
            storage.get(entity, NUMBER, |t| &t.number[..]),
            Some(&(index as u32 + 1))
        );
    }
    for (index, &entity) in small.iter().enumerate() {
        assert_eq!(
            storage.get(entity, NUMBER, |t| &t.number[..]),
            Some(&(100_001 + index as u32))
        );
    }
}
