//! The two caches behind structural change and queries, observed through the storage a world
//! dereferences to: the edge graph (`edges()`) and the query cache (`query_cache()`).

use archetypal::edges::{Change, MULTI_BIT_CACHE_LIMIT};
use archetypal::{Entity, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub u32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Mana(pub u32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Armor(pub u32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Speed(pub u32);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
        mana: Mana => MANA,
        armor: Armor => ARMOR,
        speed: Speed => SPEED,
    }
}

fn table(world: &World, mask: Mask) -> usize {
    world
        .find_table(mask)
        .unwrap_or_else(|| panic!("no table for {mask:#b}"))
}

fn destination(world: &World, from: Mask, change: Change<Mask>) -> Option<usize> {
    world.edges().destination(table(world, from), change)
}

/// The indices of every table whose mask holds all of `include`, in creation order.
fn tables_matching(world: &World, include: Mask) -> Vec<usize> {
    world
        .tables()
        .iter()
        .enumerate()
        .filter(|(_, table)| table.mask & include == include)
        .map(|(index, _)| index)
        .collect()
}

fn cached(world: &World, include: Mask) -> Option<Vec<usize>> {
    world.query_cache().get(include).map(<[usize]>::to_vec)
}

fn sorted(mut entities: Vec<Entity>) -> Vec<Entity> {
    entities.sort();
    entities
}

// ----- edge graph -----------------------------------------------------------------------------

#[test]
fn a_migration_leaves_the_add_edge_and_the_remove_edge_back() {
    let mut world = World::new();
    let entity = world.spawn(POSITION);
    world.set_position(entity, Position(3.0));
    assert!(world.add_velocity(entity));
    let from = table(&world, POSITION);
    let to = table(&world, POSITION | VELOCITY);
    assert_ne!(from, to);
    let edges = world.edges();
    assert_eq!(edges.destination(from, Change::Add(VELOCITY)), Some(to));
    assert_eq!(edges.destination(to, Change::Remove(VELOCITY)), Some(from));
    assert_eq!(
        edges.edges(from).add[1],
        Some(to as u32),
        "bit 1 is VELOCITY"
    );
    assert_eq!(edges.edges(to).remove[1], Some(from as u32));
    assert_eq!(
        edges.destination(from, Change::Add(HEALTH)),
        None,
        "never made"
    );
    assert_eq!(edges.len(), world.archetype_count());

    // The edge back is taken by a removal, and no table is created for it.
    assert_eq!(world.remove_velocity(entity), Some(Velocity(0.0)));
    assert_eq!(world.archetype_count(), 2);
    assert_eq!(world.get_position(entity), Some(&Position(3.0)));
    world.check_invariants().unwrap();
}

#[test]
fn edges_are_filled_both_ways_whichever_table_is_created_first() {
    // Smaller table first.
    let mut small_first = World::new();
    small_first.spawn(POSITION);
    small_first.spawn(POSITION | VELOCITY);
    // Larger table first.
    let mut large_first = World::new();
    large_first.spawn(POSITION | VELOCITY);
    large_first.spawn(POSITION);

    for world in [&small_first, &large_first] {
        let small = table(world, POSITION);
        let large = table(world, POSITION | VELOCITY);
        assert_eq!(
            destination(world, POSITION, Change::Add(VELOCITY)),
            Some(large)
        );
        assert_eq!(
            destination(world, POSITION | VELOCITY, Change::Remove(VELOCITY)),
            Some(small)
        );
        assert_eq!(
            destination(world, POSITION | VELOCITY, Change::Remove(POSITION)),
            None,
            "VELOCITY alone does not exist yet"
        );
        world.check_invariants().unwrap();
    }

    // A third table one bit away from both is wired to both when it appears.
    large_first.spawn(VELOCITY);
    let velocity = table(&large_first, VELOCITY);
    assert_eq!(
        destination(&large_first, POSITION | VELOCITY, Change::Remove(POSITION)),
        Some(velocity)
    );
    assert_eq!(
        destination(&large_first, VELOCITY, Change::Add(POSITION)),
        Some(table(&large_first, POSITION | VELOCITY))
    );
    assert_eq!(
        destination(&large_first, VELOCITY, Change::Add(HEALTH)),
        None
    );
    // The empty table connects to every single-component table.
    large_first.spawn(0);
    assert_eq!(
        destination(&large_first, 0, Change::Add(POSITION)),
        Some(table(&large_first, POSITION))
    );
    assert_eq!(
        destination(&large_first, 0, Change::Add(VELOCITY)),
        Some(velocity)
    );
    assert_eq!(
        destination(&large_first, POSITION, Change::Remove(POSITION)),
        Some(table(&large_first, 0))
    );
    large_first.check_invariants().unwrap();
}

#[test]
fn existing_edges_are_used_without_creating_tables() {
    let mut world = World::new();
    world.spawn(POSITION | VELOCITY);
    let entities = world.spawn_entities(POSITION, 10);
    assert_eq!(world.archetype_count(), 2);
    for (index, &entity) in entities.iter().enumerate() {
        assert!(world.set_velocity(entity, Velocity(index as f32)));
    }
    assert_eq!(world.archetype_count(), 2);
    assert!(world.tables()[table(&world, POSITION)].entities.is_empty());
    for (index, &entity) in entities.iter().enumerate() {
        assert_eq!(world.get_velocity(entity), Some(&Velocity(index as f32)));
    }
    world.check_invariants().unwrap();
}

#[test]
fn a_multi_bit_add_is_one_migration_and_is_remembered() {
    let mut world = World::new();
    let first = world.spawn(POSITION);
    world.set_position(first, Position(1.0));
    assert_eq!(world.archetype_count(), 1);

    assert!(world.add_components(first, HEALTH | MANA | ARMOR));
    assert_eq!(world.archetype_count(), 2, "no intermediate tables");
    for intermediate in [
        POSITION | HEALTH,
        POSITION | MANA,
        POSITION | ARMOR,
        POSITION | HEALTH | MANA,
        POSITION | HEALTH | ARMOR,
        POSITION | MANA | ARMOR,
    ] {
        assert_eq!(world.find_table(intermediate), None);
    }
    let from = table(&world, POSITION);
    let to = table(&world, POSITION | HEALTH | MANA | ARMOR);
    assert_eq!(world.tables()[to].entities, vec![first]);
    assert_eq!(world.get_position(first), Some(&Position(1.0)));
    let change = Change::Add(HEALTH | MANA | ARMOR);
    let edges = world.edges();
    assert_eq!(edges.edges(from).multi_bit, vec![(change, to as u32)]);
    assert_eq!(edges.destination(from, change), Some(to));
    assert_eq!(
        edges.destination(from, Change::Add(HEALTH | MANA)),
        None,
        "only the change taken"
    );

    // The same change again reuses the edge: no new table, no second entry.
    let second = world.spawn(POSITION);
    assert!(world.add_components(second, HEALTH | MANA | ARMOR));
    assert_eq!(world.archetype_count(), 2);
    assert_eq!(world.edges().edges(from).multi_bit.len(), 1);
    assert_eq!(world.tables()[to].entities, vec![first, second]);

    // A multi-bit removal is one migration too, and is remembered on its source table.
    assert!(world.remove_components(first, MANA | ARMOR));
    assert_eq!(world.archetype_count(), 3);
    let health = table(&world, POSITION | HEALTH);
    assert_eq!(
        world.edges().edges(to).multi_bit,
        vec![(Change::Remove(MANA | ARMOR), health as u32)]
    );
    assert_eq!(world.get_position(first), Some(&Position(1.0)));
    assert_eq!(world.component_mask(first), Some(POSITION | HEALTH));
    world.check_invariants().unwrap();
}

#[test]
fn multi_bit_changes_past_the_remembered_limit_stay_correct() {
    let mut world = World::new();
    let others = [VELOCITY, HEALTH, MANA, ARMOR, SPEED];
    // Every combination of two or more of the other five components: 26 distinct changes.
    let changes: Vec<Mask> = (0u32..32)
        .filter(|bits| bits.count_ones() >= 2)
        .map(|bits| {
            (0..5)
                .filter(|&k| bits & (1 << k) != 0)
                .fold(0, |mask, k| mask | others[k])
        })
        .collect();
    assert!(changes.len() > MULTI_BIT_CACHE_LIMIT);
    let entities = world.spawn_batch(POSITION, changes.len(), |table, index| {
        table.position[index] = Position(index as f32);
    });
    for (index, (&entity, &change)) in entities.iter().zip(&changes).enumerate() {
        assert!(world.add_components(entity, change));
        assert_eq!(world.component_mask(entity), Some(POSITION | change));
        assert_eq!(world.get_position(entity), Some(&Position(index as f32)));
        world.check_invariants().unwrap();
    }
    let from = table(&world, POSITION);
    let remembered = &world.edges().edges(from).multi_bit;
    assert!(!remembered.is_empty() && remembered.len() <= MULTI_BIT_CACHE_LIMIT);
    assert_eq!(world.archetype_count(), 1 + changes.len());
}

// ----- query cache ----------------------------------------------------------------------------

/// A world with tables POSITION, POSITION|VELOCITY, VELOCITY|HEALTH, HEALTH, POSITION|HEALTH|MANA.
fn five_tables() -> World {
    let mut world = World::new();
    for mask in [
        POSITION,
        POSITION | VELOCITY,
        VELOCITY | HEALTH,
        HEALTH,
        POSITION | HEALTH | MANA,
    ] {
        world.spawn_entities(mask, 3);
    }
    world
}

#[test]
fn warm_query_caches_exactly_the_matching_tables() {
    let mut world = five_tables();
    for include in [POSITION, HEALTH, POSITION | HEALTH, VELOCITY, SPEED, 0] {
        assert_eq!(cached(&world, include), None);
        world.warm_query(include);
        assert_eq!(
            cached(&world, include),
            Some(tables_matching(&world, include)),
            "{include:#b}"
        );
    }
    assert_eq!(cached(&world, POSITION), Some(vec![0, 1, 4]));
    assert_eq!(cached(&world, HEALTH), Some(vec![2, 3, 4]));
    assert_eq!(cached(&world, SPEED), Some(vec![]));
    assert_eq!(cached(&world, 0), Some(vec![0, 1, 2, 3, 4]));
    assert_eq!(world.query_cache().len(), 6);
    world.check_invariants().unwrap();
}

#[test]
fn mutable_queries_fill_the_cache_for_their_include_mask() {
    let mut world = five_tables();
    world.for_each_mut(POSITION, VELOCITY, |_, _, _| {});
    assert_eq!(cached(&world, POSITION), Some(vec![0, 1, 4]));
    assert_eq!(cached(&world, VELOCITY), None, "keyed by the include mask");

    world.for_each_table_mut(VELOCITY, 0, |_| {});
    assert_eq!(cached(&world, VELOCITY), Some(vec![1, 2]));

    world.for_each_mut(HEALTH | MANA, 0, |_, _, _| {});
    assert_eq!(cached(&world, HEALTH | MANA), Some(vec![4]));

    let mut tables = 0;
    world.for_each_table_mut(HEALTH, 0, |_| tables += 1);
    assert_eq!(tables, 3);
    assert_eq!(cached(&world, HEALTH), Some(vec![2, 3, 4]));
    world.check_invariants().unwrap();
}

#[test]
fn read_only_queries_on_an_uncached_mask_are_correct_and_leave_the_cache_alone() {
    let world = five_tables();
    let expected = |include: Mask| -> Vec<Entity> {
        let mut entities = Vec::new();
        for table in world.tables() {
            if table.mask & include == include {
                entities.extend(&table.entities);
            }
        }
        sorted(entities)
    };
    for include in [
        POSITION,
        HEALTH,
        POSITION | HEALTH,
        VELOCITY | HEALTH,
        SPEED,
        0,
    ] {
        let found = sorted(world.query_entities(include).collect());
        assert_eq!(found, expected(include), "{include:#b}");
        assert_eq!(
            world.typed_query_ref::<Entity>().with(include).count(),
            found.len()
        );
        let mut visited = Vec::new();
        world.for_each(include, 0, |entity, _, _| visited.push(entity));
        assert_eq!(sorted(visited), found);
    }
    assert_eq!(world.query_entities(SPEED).next(), None);
    assert_eq!(world.typed_query_ref::<&Health>().count(), 9);
    assert_eq!(
        world
            .typed_query_ref::<Entity>()
            .with(HEALTH)
            .without(POSITION)
            .count(),
        6
    );
    assert!(world.query_cache().is_empty());
}

#[test]
fn a_table_created_after_caching_joins_the_cached_queries() {
    let mut world = five_tables();
    world.warm_query(POSITION);
    world.for_each_mut(HEALTH, 0, |_, _, _| {});
    world.warm_query(SPEED);
    let old_position = cached(&world, POSITION).unwrap();

    // A spawn creates POSITION | SPEED.
    let newcomer = world.spawn(POSITION | SPEED);
    let new_table = table(&world, POSITION | SPEED);
    assert_eq!(new_table, 5);
    let mut expected = old_position.clone();
    expected.push(new_table);
    assert_eq!(cached(&world, POSITION), Some(expected));
    assert_eq!(cached(&world, SPEED), Some(vec![new_table]));
    assert_eq!(cached(&world, HEALTH), Some(vec![2, 3, 4]), "not a match");
    world.check_invariants().unwrap();

    // Both the &self and the &mut paths see the newcomer.
    assert!(
        world
            .query_entities(POSITION)
            .any(|entity| entity == newcomer)
    );
    assert_eq!(world.query_entities(POSITION).count(), 10);
    assert_eq!(world.query_entities(SPEED).next(), Some(newcomer));
    let mut visited = Vec::new();
    world.for_each_mut(POSITION, 0, |entity, table, index| {
        table.position[index].0 += 1.0;
        visited.push(entity);
    });
    assert_eq!(visited.len(), 10);
    assert!(visited.contains(&newcomer));
    assert_eq!(world.get_position(newcomer), Some(&Position(1.0)));

    // A migration that creates a table extends the entries it matches too.
    let mover = world.query_entities(HEALTH).next().unwrap();
    assert!(world.add_components(mover, SPEED | ARMOR));
    let created = table(&world, world.component_mask(mover).unwrap());
    assert_eq!(created, 6);
    assert_eq!(cached(&world, SPEED), Some(vec![5, 6]));
    assert_eq!(
        cached(&world, HEALTH),
        Some(tables_matching(&world, HEALTH))
    );
    assert!(cached(&world, HEALTH).unwrap().contains(&created));
    let mut visited = Vec::new();
    world.for_each_mut(SPEED, 0, |entity, _, _| visited.push(entity));
    assert_eq!(sorted(visited), sorted(vec![newcomer, mover]));
    assert_eq!(
        sorted(world.query_entities(HEALTH | SPEED).collect()),
        vec![mover]
    );
    world.check_invariants().unwrap();
}

#[test]
fn cached_queries_skip_emptied_tables_and_honour_exclude() {
    let mut world = five_tables();
    world.warm_query(POSITION);
    let position_only: Vec<Entity> = world.tables()[0].entities.clone();
    assert_eq!(world.despawn_entities(&position_only), position_only);
    // The cache still lists the empty table; queries skip it.
    assert_eq!(cached(&world, POSITION), Some(vec![0, 1, 4]));
    let mut tables = Vec::new();
    world.for_each_table_mut(POSITION, 0, |table| tables.push(table.mask));
    assert_eq!(tables, vec![POSITION | VELOCITY, POSITION | HEALTH | MANA]);
    tables.clear();
    world.for_each_table_mut(POSITION, MANA, |table| tables.push(table.mask));
    assert_eq!(tables, vec![POSITION | VELOCITY]);
    assert_eq!(
        world
            .typed_query_ref::<Entity>()
            .with(POSITION)
            .without(VELOCITY)
            .count(),
        3
    );
    assert_eq!(
        world
            .typed_query_ref::<Entity>()
            .with(POSITION)
            .without(VELOCITY)
            .count(),
        3
    );
    assert_eq!(world.query_entities(POSITION).count(), 6);
    world.check_invariants().unwrap();
}

/// A world of five components, for queries carrying bits it does not have.
mod five_components {
    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Part(pub u32);

    archetypal::ecs! {
        World {
            a: Part => A,
            b: Part => B,
            c: Part => C,
            d: Part => D,
            e: Part => E,
        }
    }
}

/// 20,000 queries with distinct stray bits (outside the world's five components) match
/// nothing and leave the query cache holding only the masks the world can have.
#[test]
fn stray_mask_bits_never_grow_the_query_cache() {
    use five_components::{A, B, C, World};
    let mut world = World::new();
    world.spawn_entities(A | B, 3);
    world.spawn_entities(A | C, 2);
    for stray in 1..=20_000u64 {
        let include = A | (stray << 5);
        let mut visited = 0;
        world.for_each_mut(include, 0, |_, _, _| visited += 1);
        world.for_each_table_mut(include, 0, |_| visited += 1);
        world.warm_query(include);
        visited += world.query_entities(include).count();
        assert_eq!(visited, 0, "{include:#b} matches nothing");
    }
    let cache = world.query_cache();
    assert!(
        cache.len() <= 1 << 5,
        "{} entries for a world of 5 components",
        cache.len()
    );
    assert!(cache.entries().all(|(include, _)| include < 1 << 5));
    let mut visited = 0;
    world.for_each_mut(A, 0, |_, _, _| visited += 1);
    assert_eq!(visited, 5, "a valid mask still matches");
    assert_eq!(world.check_invariants(), Ok(()));
}
