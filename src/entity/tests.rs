use super::*;
use alloc::string::ToString;

#[test]
fn fresh_ids_count_up_from_zero_at_generation_zero() {
    let mut allocator = EntityAllocator::new();
    assert_eq!(allocator.allocate(), Entity::new(0, 0));
    assert_eq!(allocator.allocate(), Entity::new(1, 0));
    assert_eq!(allocator.len(), 2);
    assert_eq!(allocator.id_count(), 2);
}

#[test]
fn allocate_many_issues_what_repeated_allocate_would() {
    let mut one_by_one = EntityAllocator::new();
    let handles: Vec<Entity> = (0..6).map(|_| one_by_one.allocate()).collect();
    for &entity in &handles[1..4] {
        assert!(one_by_one.free(entity));
    }
    let mut batched = one_by_one.clone();
    let expected: Vec<Entity> = (0..5).map(|_| one_by_one.allocate()).collect();
    assert_eq!(batched.allocate_many(5), expected);
    assert_eq!(batched.len(), one_by_one.len());
    assert_eq!(batched.id_count(), one_by_one.id_count());
    assert!(expected.iter().all(|&entity| batched.is_alive(entity)));
    assert!(batched.allocate_many(0).is_empty());
    assert_eq!(batched.allocate(), one_by_one.allocate());
}

#[test]
fn allocate_many_at_issues_the_same_handles_alive_at_consecutive_rows() {
    let mut plain = EntityAllocator::new();
    let handles: Vec<Entity> = (0..6).map(|_| plain.allocate()).collect();
    for &entity in &handles[1..4] {
        assert!(plain.free(entity));
    }
    let mut located = plain.clone();
    let expected = plain.allocate_many(5);
    let first = EntityLocation::new(7, 40);
    let issued = located
        .index
        .allocate_many_at(5, &mut located.records, first);
    // Three recycled ids, then two fresh ones, as `allocate_many` issues them.
    assert_eq!(issued, expected);
    assert_eq!(located.len(), plain.len());
    assert_eq!(located.id_count(), plain.id_count());
    for (k, &entity) in issued.iter().enumerate() {
        assert!(located.is_alive(entity));
        assert_eq!(
            located.records.location(entity),
            Some(EntityLocation::new(7, 40 + k))
        );
    }
    // A stale handle of a recycled id finds nothing.
    assert_eq!(located.records.location(handles[1]), None);
}

#[test]
fn a_freed_id_comes_back_one_generation_later() {
    let mut allocator = EntityAllocator::new();
    let first = allocator.allocate();
    assert!(allocator.free(first));
    let recycled = allocator.allocate();
    assert_eq!(recycled.id, first.id);
    assert_eq!(recycled.generation, 1);
    assert!(!allocator.is_alive(first));
    assert!(allocator.is_alive(recycled));
}

#[test]
fn double_and_stale_frees_are_refused() {
    let mut allocator = EntityAllocator::new();
    let first = allocator.allocate();
    assert!(allocator.free(first));
    assert!(!allocator.free(first), "double free");
    let recycled = allocator.allocate();
    assert!(
        !allocator.free(first),
        "stale free must not free the recycled id"
    );
    assert!(allocator.is_alive(recycled));
    assert_eq!(allocator.len(), 1);
    assert_eq!(allocator.free_count(), 0);
}

#[test]
fn never_issued_handles_are_not_alive_and_cannot_be_freed() {
    let mut allocator = EntityAllocator::new();
    assert!(!allocator.is_alive(Entity::new(0, 0)));
    assert!(!allocator.free(Entity::new(5, 0)));
    allocator.allocate();
    assert!(!allocator.is_alive(Entity::new(0, 1)), "future generation");
    assert!(!allocator.is_alive(Entity::new(9_999, 0)));
    assert!(!allocator.is_alive(Entity::PLACEHOLDER));
    assert!(!allocator.free(Entity::PLACEHOLDER));
}

#[test]
fn default_entity_is_the_placeholder_and_never_alive() {
    let mut allocator = EntityAllocator::new();
    assert_eq!(Entity::default(), Entity::PLACEHOLDER);
    assert!(!allocator.is_alive(Entity::default()));
    for _ in 0..10 {
        allocator.allocate();
    }
    assert!(!allocator.is_alive(Entity::default()));
}

#[test]
fn recycling_is_last_in_first_out() {
    let mut allocator = EntityAllocator::new();
    let entities: Vec<Entity> = (0..3).map(|_| allocator.allocate()).collect();
    allocator.free(entities[0]);
    allocator.free(entities[2]);
    assert_eq!(allocator.allocate(), Entity::new(2, 1));
    assert_eq!(allocator.allocate(), Entity::new(0, 1));
    assert_eq!(allocator.allocate(), Entity::new(3, 0));
}

#[test]
fn an_id_at_the_last_generation_is_retired_not_recycled() {
    let mut allocator = EntityAllocator::new();
    let entity = allocator.allocate();
    allocator.records.slots[0].generation = u32::MAX;
    let last = Entity::new(entity.id, u32::MAX);
    assert!(allocator.is_alive(last));
    assert!(allocator.free(last));
    assert_eq!(allocator.free_count(), 0);
    let next = allocator.allocate();
    assert_eq!(next, Entity::new(1, 0), "id 0 is retired");
    assert!(!allocator.is_alive(last));
    assert!(!allocator.is_alive(Entity::new(0, 0)), "no wrap-around");
}

#[test]
fn iter_alive_and_live_entity_follow_the_allocator() {
    let mut allocator = EntityAllocator::new();
    let entities: Vec<Entity> = (0..4).map(|_| allocator.allocate()).collect();
    allocator.free(entities[1]);
    let alive: Vec<Entity> = allocator.iter_alive().collect();
    assert_eq!(alive, vec![entities[0], entities[2], entities[3]]);
    assert_eq!(allocator.live_entity(1), None);
    assert_eq!(allocator.live_entity(2), Some(entities[2]));
    assert_eq!(allocator.live_entity(77), None);
}

#[test]
fn reserved_handles_are_not_alive_until_activated() {
    let mut allocator = EntityAllocator::new();
    let reserved = allocator.reserve();
    assert!(!allocator.is_alive(reserved));
    assert!(allocator.is_reserved(reserved));
    assert_eq!(allocator.len(), 0);
    assert!(
        !allocator.free(reserved),
        "a reserved handle is not freed, it is released"
    );
    let other = allocator.allocate();
    assert_ne!(
        other.id, reserved.id,
        "a reserved id is not handed out again"
    );
    assert!(allocator.activate(reserved));
    assert!(!allocator.activate(reserved), "only once");
    assert!(allocator.is_alive(reserved));
    assert_eq!(allocator.len(), 2);
}

#[test]
fn a_released_reservation_never_becomes_alive() {
    let mut allocator = EntityAllocator::new();
    let reserved = allocator.reserve();
    assert!(allocator.release(reserved));
    assert!(!allocator.release(reserved));
    assert!(!allocator.activate(reserved));
    let recycled = allocator.allocate();
    assert_eq!(recycled, Entity::new(reserved.id, 1));
    assert!(!allocator.is_alive(reserved));
    assert!(!allocator.activate(Entity::new(40, 0)), "never issued");
    assert!(!allocator.release(recycled), "alive, not reserved");
}

/// Two parts' records, written together as a game's index writes them.
#[derive(Default)]
struct TwoParts(EntityRecords, EntityRecords);

impl IdRecords for TwoParts {
    fn reference(&self) -> &EntityRecords {
        &self.0
    }

    fn write_each(&mut self, mut write: impl FnMut(&mut EntityRecords)) {
        write(&mut self.0);
        write(&mut self.1);
    }
}

#[test]
fn an_index_writes_every_part_s_records_and_each_part_its_own_locations() {
    let mut index = EntityIndex::default();
    let mut parts = TwoParts::default();
    let first = index.allocate(&mut parts);
    assert!(index.free(first, &mut parts));
    let [recycled, fresh] = [index.allocate(&mut parts), index.allocate(&mut parts)];
    assert_eq!((recycled.id, recycled.generation), (0, 1));
    let reserved = index.reserve(&mut parts);
    for part in [&parts.0, &parts.1] {
        assert!(part.is_alive(recycled) && part.is_alive(fresh));
        assert!(
            !part.is_alive(first),
            "a stale handle is refused in every part"
        );
        assert!(index.is_reserved(reserved, part));
        assert_eq!(part.len(), 2);
    }
    parts.0.set_location(fresh.id, EntityLocation::new(1, 0));
    parts.1.set_location(fresh.id, EntityLocation::new(3, 7));
    assert!(
        parts.0.same_ids(&parts.1),
        "locations aside, the parts agree"
    );
    assert_eq!(parts.1.location(fresh), Some(EntityLocation::new(3, 7)));
    assert!(index.activate(reserved, &mut parts));
    assert!(index.free(recycled, &mut parts));
    assert!(!index.free(recycled, &mut parts), "already freed");
    assert!(parts.0.same_ids(&parts.1));
    assert!(!parts.1.is_alive(recycled) && parts.1.is_alive(reserved));
    assert_eq!(index.allocate(&mut parts), Entity::new(0, 2));
    assert_eq!(index.id_count(&parts.0), 3);
}

#[test]
fn same_ids_compares_handles_not_locations() {
    let mut first = EntityAllocator::new();
    let mut second = EntityAllocator::new();
    for allocator in [&mut first, &mut second] {
        let entities: Vec<Entity> = (0..3).map(|_| allocator.allocate()).collect();
        allocator.free(entities[1]);
        allocator.reserve();
    }
    first.set_location(0, EntityLocation::new(4, 2));
    assert!(first.same_ids(&second), "locations differ, handles agree");
    let extra = second.allocate();
    assert!(!first.same_ids(&second), "one more live id");
    second.free(extra);
    assert!(
        !first.same_ids(&second),
        "an id issued and freed stays issued"
    );
}

#[test]
fn display_shows_id_and_generation() {
    assert_eq!(Entity::new(7, 2).to_string(), "7v2");
}

#[test]
fn relocate_moves_a_live_entity_like_set_location() {
    let mut allocator = EntityAllocator::new();
    let entity = allocator.allocate();
    allocator.relocate(entity.id, EntityLocation::new(2, 9));
    assert_eq!(allocator.location(entity), Some(EntityLocation::new(2, 9)));
    allocator.relocate(entity.id, EntityLocation::new(0, 1));
    assert_eq!(allocator.location(entity), Some(EntityLocation::new(0, 1)));
    allocator.relocate(55, EntityLocation::new(0, 0));
    assert_eq!(allocator.id_count(), 1, "a never-issued id is ignored");
    assert!(allocator.free(entity));
    assert_eq!(allocator.location(entity), None);
}

#[test]
fn an_id_record_is_twelve_bytes() {
    assert_eq!(core::mem::size_of::<IdSlot>(), 12);
}

#[test]
fn claimed_locations_of_dead_ids_point_past_every_table() {
    let mut allocator = EntityAllocator::new();
    let alive = allocator.allocate();
    let freed = allocator.allocate();
    let reserved = allocator.reserve();
    allocator.set_location(alive.id, EntityLocation::new(3, 4));
    allocator.set_location(freed.id, EntityLocation::new(5, 6));
    assert!(allocator.free(freed));
    assert_eq!(
        allocator.claimed_location(alive),
        Some(EntityLocation::new(3, 4))
    );
    // The free id's record is at the generation its next holder gets.
    let next = Entity::new(freed.id, freed.generation + 1);
    for dead in [next, reserved] {
        let claimed = allocator
            .claimed_location(dead)
            .expect("generation matches");
        assert!(claimed.table_index >= u32::MAX - 1, "{dead}: {claimed:?}");
        assert_eq!(allocator.location(dead), None, "{dead}");
    }
    assert_eq!(allocator.claimed_location(freed), None, "old generation");
    assert_eq!(allocator.claimed_location(Entity::new(9, 0)), None);
    // Setting a dead id's location does not make it alive.
    allocator.set_location(reserved.id, EntityLocation::new(0, 0));
    allocator.set_location(freed.id, EntityLocation::new(0, 0));
    assert_eq!(allocator.location(reserved), None);
    assert_eq!(allocator.location(next), None);
    assert!(allocator.activate(reserved));
    allocator.set_location(reserved.id, EntityLocation::new(1, 1));
    assert_eq!(
        allocator.location(reserved),
        Some(EntityLocation::new(1, 1))
    );
}

#[test]
fn locations_are_given_for_live_handles_only() {
    let mut allocator = EntityAllocator::new();
    let entity = allocator.allocate();
    allocator.set_location(entity.id, EntityLocation::new(1, 2));
    assert_eq!(allocator.location(entity), Some(EntityLocation::new(1, 2)));
    let location = allocator.location(entity).unwrap();
    assert_eq!((location.table(), location.row()), (1, 2));
    assert_eq!(
        allocator.location(Entity::new(entity.id, 1)),
        None,
        "future generation"
    );
    allocator.free(entity);
    assert_eq!(allocator.location(entity), None, "freed");
    let reserved = allocator.reserve();
    assert_eq!(allocator.location(reserved), None, "reserved");
    allocator.set_location(77, EntityLocation::new(0, 0));
    assert_eq!(allocator.location(Entity::new(77, 0)), None, "never issued");
}
