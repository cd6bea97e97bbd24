//! Every generated method of an `ecs!` world, through its public names only.
//!
//! Each method taking an entity is also called with handles that must resolve to nothing: a
//! despawned handle, a stale handle whose id was recycled, a never-issued handle,
//! `Entity::default()` and a handle from a generation that has not happened yet. They give
//! `None` / `false` / nothing, never panic, and never another entity's data.

use archetypal::{Entity, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub u32);

#[derive(Default, Debug, Clone, PartialEq)]
pub struct Name(pub String);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
        name: Name => NAME,
    }
    Resources {
        delta_time: f32,
    }
}

const ALL: Mask = POSITION | VELOCITY | HEALTH | NAME;

fn pos(x: f32, y: f32) -> Position {
    Position { x, y }
}

fn vel(x: f32, y: f32) -> Velocity {
    Velocity { x, y }
}

fn name(text: &str) -> Name {
    Name(text.to_string())
}

/// A world with live entities of known values and handles that must not resolve.
struct Fixture {
    world: World,
    /// `POSITION | VELOCITY | HEALTH | NAME`, holding id 0 at generation 1.
    recycled: Entity,
    /// `POSITION | HEALTH`; moved into the row `despawned` left.
    statue: Entity,
    /// `POSITION | VELOCITY`.
    mover: Entity,
    /// `VELOCITY | HEALTH | NAME`.
    ghost: Entity,
    /// Id 0 at generation 0: its id now belongs to `recycled`.
    stale: Entity,
    /// Id 1 at generation 0: despawned, its id not reused yet.
    despawned: Entity,
}

impl Fixture {
    fn new() -> Self {
        let mut world = World::new();
        let stale = world.spawn(ALL);
        world.set_position(stale, pos(-1.0, -1.0));
        world.set_velocity(stale, vel(-2.0, -2.0));
        world.set_health(stale, Health(999));
        world.set_name(stale, name("stale"));
        let despawned = world.spawn(POSITION | HEALTH);
        world.set_position(despawned, pos(-3.0, -3.0));
        world.set_health(despawned, Health(998));
        let statue = world.spawn(POSITION | HEALTH);
        world.set_position(statue, pos(5.0, 6.0));
        world.set_health(statue, Health(7));
        let mover = world.spawn(POSITION | VELOCITY);
        world.set_position(mover, pos(1.0, 2.0));
        world.set_velocity(mover, vel(3.0, 4.0));
        let ghost = world.spawn(VELOCITY | HEALTH | NAME);
        world.set_velocity(ghost, vel(8.0, 9.0));
        world.set_health(ghost, Health(10));
        world.set_name(ghost, name("ghost"));

        assert!(world.despawn(stale));
        let recycled = world.spawn(ALL);
        assert_eq!(recycled, Entity::new(stale.id, stale.generation + 1));
        world.set_position(recycled, pos(11.0, 12.0));
        world.set_velocity(recycled, vel(13.0, 14.0));
        world.set_health(recycled, Health(15));
        world.set_name(recycled, name("recycled"));

        // `statue` is swapped into the row `despawned` held.
        assert!(world.despawn(despawned));
        world.check_invariants().unwrap();
        Fixture {
            world,
            recycled,
            statue,
            mover,
            ghost,
            stale,
            despawned,
        }
    }

    /// Handles that must resolve to nothing.
    fn bad_handles(&self) -> Vec<(&'static str, Entity)> {
        vec![
            ("despawned", self.despawned),
            ("stale (id recycled)", self.stale),
            ("never issued", Entity::new(9999, 0)),
            ("Entity::default()", Entity::default()),
            (
                "future generation of a live id",
                Entity::new(self.statue.id, self.statue.generation + 1),
            ),
        ]
    }

    fn live(&self) -> Vec<Entity> {
        vec![self.recycled, self.statue, self.mover, self.ghost]
    }
}

/// Everything observable about one live entity.
#[derive(Debug, PartialEq)]
struct Row {
    entity: Entity,
    mask: Mask,
    position: Option<Position>,
    velocity: Option<Velocity>,
    health: Option<Health>,
    name: Option<Name>,
}

/// Everything observable about the world's entities, plus its table count.
fn snapshot(world: &World) -> (Vec<Row>, usize) {
    let rows = world
        .entities()
        .collect::<Vec<_>>()
        .into_iter()
        .map(|entity| Row {
            entity,
            mask: world.component_mask(entity).unwrap(),
            position: world.get_position(entity).copied(),
            velocity: world.get_velocity(entity).copied(),
            health: world.get_health(entity).copied(),
            name: world.get_name(entity).cloned(),
        })
        .collect();
    (rows, world.archetype_count())
}

/// Every read of `handles` gives nothing, and no query yields them.
fn assert_resolve_to_nothing(world: &World, handles: &[(&str, Entity)]) {
    let listed = world.entities().collect::<Vec<_>>();
    let queried: Vec<Entity> = world.query_entities(0).collect();
    for &(label, bad) in handles {
        assert!(!world.is_alive(bad), "{label}");
        assert_eq!(world.component_mask(bad), None, "{label}");
        assert!(!world.has_components(bad, 0), "{label}");
        assert_eq!(world.get_position(bad), None, "{label}");
        assert_eq!(world.get_velocity(bad), None, "{label}");
        assert_eq!(world.get_health(bad), None, "{label}");
        assert_eq!(world.get_name(bad), None, "{label}");
        assert!(!listed.contains(&bad), "{label}");
        assert!(!queried.contains(&bad), "{label}");
    }
}

fn sorted(mut entities: Vec<Entity>) -> Vec<Entity> {
    entities.sort();
    entities
}

// ----- the fixture's own expectations ---------------------------------------------------------

#[test]
fn fixture_values_are_as_set() {
    let f = Fixture::new();
    let w = &f.world;
    assert_eq!(w.get_position(f.recycled), Some(&pos(11.0, 12.0)));
    assert_eq!(w.get_velocity(f.recycled), Some(&vel(13.0, 14.0)));
    assert_eq!(w.get_health(f.recycled), Some(&Health(15)));
    assert_eq!(w.get_name(f.recycled), Some(&name("recycled")));
    assert_eq!(w.get_position(f.statue), Some(&pos(5.0, 6.0)));
    assert_eq!(w.get_health(f.statue), Some(&Health(7)));
    assert_eq!(w.get_position(f.mover), Some(&pos(1.0, 2.0)));
    assert_eq!(w.get_velocity(f.mover), Some(&vel(3.0, 4.0)));
    assert_eq!(w.get_velocity(f.ghost), Some(&vel(8.0, 9.0)));
    assert_eq!(w.get_health(f.ghost), Some(&Health(10)));
    assert_eq!(w.get_name(f.ghost), Some(&name("ghost")));
    assert_eq!(f.stale, Entity::new(0, 0));
    assert_eq!(f.recycled, Entity::new(0, 1));
    assert_eq!(f.despawned, Entity::new(1, 0));
}

#[test]
fn default_entity_is_the_placeholder() {
    assert_eq!(Entity::default(), Entity::PLACEHOLDER);
    let mut world = World::new();
    let spawned = world.spawn_entities(POSITION, 100);
    assert!(!spawned.contains(&Entity::default()));
    assert!(!world.is_alive(Entity::default()));
}

// ----- world-level methods --------------------------------------------------------------------

#[test]
fn new_and_default_worlds_are_empty() {
    for world in [World::new(), World::default()] {
        assert_eq!(world.entity_count(), 0);
        assert_eq!(world.archetype_count(), 0);
        assert!(world.tables().is_empty());
        assert!(world.entities().collect::<Vec<_>>().is_empty());
        assert_eq!(world.resources.delta_time, 0.0);
        assert_eq!(world.query_entities(0).next(), None);
        assert_eq!(world.query_entities(POSITION).count(), 0);
        assert_eq!(world.records().len(), 0);
        assert!(world.query_cache().is_empty());
        world.check_invariants().unwrap();
    }
}

#[test]
fn resources_are_writable() {
    let mut world = World::new();
    world.resources.delta_time = 0.25;
    assert_eq!(world.resources.delta_time, 0.25);
    let resources: &WorldResources = &world.resources;
    assert_eq!(resources.delta_time, 0.25);
}

#[test]
fn tables_and_archetype_count_follow_spawns() {
    let f = Fixture::new();
    let w = &f.world;
    // ALL, POSITION|HEALTH, POSITION|VELOCITY, VELOCITY|HEALTH|NAME, in creation order.
    assert_eq!(w.archetype_count(), 4);
    let masks: Vec<Mask> = w.tables().iter().map(|table| table.mask).collect();
    assert_eq!(
        masks,
        vec![
            ALL,
            POSITION | HEALTH,
            POSITION | VELOCITY,
            VELOCITY | HEALTH | NAME
        ]
    );
    let tables: &[WorldComponentArrays] = w.tables();
    assert_eq!(tables[0].entities, vec![f.recycled]);
    assert_eq!(tables[1].entities, vec![f.statue]);
    assert_eq!(tables[1].position, vec![pos(5.0, 6.0)]);
    assert_eq!(tables[1].health, vec![Health(7)]);
    assert!(
        tables[1].velocity.is_empty() && tables[1].name.is_empty(),
        "absent columns stay empty"
    );
    assert_eq!(tables[2].entities, vec![f.mover]);
    assert_eq!(tables[3].entities, vec![f.ghost]);
    assert_eq!(tables[3].name, vec![name("ghost")]);

    // A spawn into an existing mask creates no table; a new mask creates one.
    let mut world = f.world;
    world.spawn(POSITION | HEALTH);
    assert_eq!(world.archetype_count(), 4);
    world.spawn(HEALTH);
    assert_eq!(world.archetype_count(), 5);
    assert_eq!(world.tables()[4].mask, HEALTH);
    assert_eq!(world.tables()[1].entities.len(), 2);
}

#[test]
fn storage_exposes_records_and_tables_read_only() {
    let f = Fixture::new();
    let storage = &**f.world;
    assert_eq!(storage.records().len(), 4);
    assert_eq!(f.world.entity_index().id_count(storage.records()), 5);
    assert_eq!(
        f.world.entity_index().free_count(),
        1,
        "only id 1 awaits reuse"
    );
    assert_eq!(storage.find_table(POSITION | HEALTH), Some(1));
    assert_eq!(storage.find_table(HEALTH), None);
    assert_eq!(storage.tables().len(), f.world.archetype_count());
    for (_, bad) in f.bad_handles() {
        assert_eq!(storage.locate(bad), None);
    }
    let location = storage.locate(f.statue).unwrap();
    assert_eq!((location.table(), location.row()), (1, 0));
}

#[test]
fn check_invariants_holds_through_the_fixture() {
    let mut f = Fixture::new();
    f.world.check_invariants().unwrap();
    for (_, bad) in f.bad_handles() {
        f.world.despawn(bad);
        f.world.add_components(bad, ALL);
        f.world.remove_components(bad, ALL);
        f.world.set_position(bad, pos(0.0, 0.0));
        f.world.remove_name(bad);
        f.world.check_invariants().unwrap();
    }
}

// ----- spawning -------------------------------------------------------------------------------

#[test]
fn spawn_default_initialises_and_recycles_the_latest_freed_id() {
    let mut f = Fixture::new();
    let fresh = f.world.spawn(POSITION | NAME);
    assert_eq!(
        fresh,
        Entity::new(f.despawned.id, 1),
        "id 1 is reused at generation 1"
    );
    assert!(f.world.is_alive(fresh));
    assert!(!f.world.is_alive(f.despawned), "the old handle stays dead");
    assert_eq!(f.world.get_position(fresh), Some(&Position::default()));
    assert_eq!(f.world.get_name(fresh), Some(&Name::default()));
    assert_eq!(f.world.get_velocity(fresh), None);
    assert_eq!(f.world.component_mask(fresh), Some(POSITION | NAME));
    assert_eq!(f.world.get_position(f.despawned), None);
    assert_eq!(f.world.get_name(f.despawned), None);
    let next = f.world.spawn(0);
    assert_eq!(next, Entity::new(5, 0), "no free id left: a fresh one");
    assert_eq!(f.world.component_mask(next), Some(0));
    assert_eq!(f.world.entity_count(), 6);
    f.world.check_invariants().unwrap();
    assert_resolve_to_nothing(&f.world, &f.bad_handles());
}

#[test]
fn spawn_entities_spawns_count_distinct_live_entities() {
    let mut world = World::new();
    let entities = world.spawn_entities(POSITION | VELOCITY, 50);
    assert_eq!(entities.len(), 50);
    let ids: Vec<u32> = entities.iter().map(|entity| entity.id).collect();
    assert_eq!(ids, (0..50).collect::<Vec<u32>>());
    for &entity in &entities {
        assert!(world.is_alive(entity));
        assert_eq!(world.component_mask(entity), Some(POSITION | VELOCITY));
        assert_eq!(world.get_position(entity), Some(&Position::default()));
    }
    assert_eq!(world.entity_count(), 50);
    assert!(world.spawn_entities(HEALTH, 0).is_empty());
    assert_eq!(world.entity_count(), 50);
    world.check_invariants().unwrap();
}

#[test]
fn batch_spawns_recycle_ids_without_reviving_old_handles() {
    let mut f = Fixture::new();
    assert!(f.world.despawn(f.mover));
    assert!(f.world.despawn(f.ghost));
    // Free ids, most recently freed first: 4, 3, 1.
    let healthy = f.world.spawn_entities(HEALTH, 2);
    assert_eq!(healthy, vec![Entity::new(4, 1), Entity::new(3, 1)]);
    let named = f.world.spawn_batch(NAME, 2, |table, index| {
        table.name[index] = Name(format!("batch {index}"));
    });
    assert_eq!(named, vec![Entity::new(1, 1), Entity::new(5, 0)]);
    assert_eq!(f.world.get_health(healthy[0]), Some(&Health(0)));
    assert_eq!(f.world.get_name(named[0]), Some(&name("batch 0")));
    let mut bad = f.bad_handles();
    bad.push(("despawned mover", f.mover));
    bad.push(("despawned ghost", f.ghost));
    assert_resolve_to_nothing(&f.world, &bad);
    assert_eq!(f.world.entity_count(), 6);
    f.world.check_invariants().unwrap();
}

#[test]
fn spawn_batch_init_gets_the_row_index_of_each_new_entity() {
    let mut world = World::new();
    let first = world.spawn_entities(POSITION | HEALTH, 2);
    let mut seen = Vec::new();
    let batch = world.spawn_batch(POSITION | HEALTH, 3, |table, index| {
        seen.push(index);
        table.position[index] = pos(index as f32, 0.0);
        table.health[index] = Health(100 + index as u32);
    });
    assert_eq!(seen, vec![2, 3, 4], "rows after the two existing ones");
    assert_eq!(batch.len(), 3);
    for (offset, &entity) in batch.iter().enumerate() {
        let row = 2 + offset;
        assert_eq!(world.tables()[0].entities[row], entity);
        assert_eq!(world.get_position(entity), Some(&pos(row as f32, 0.0)));
        assert_eq!(world.get_health(entity), Some(&Health(100 + row as u32)));
    }
    for &entity in &first {
        assert_eq!(world.get_position(entity), Some(&Position::default()));
        assert_eq!(world.get_health(entity), Some(&Health(0)));
    }
    let mut calls = 0;
    assert!(world.spawn_batch(HEALTH, 0, |_, _| calls += 1).is_empty());
    assert_eq!(calls, 0);
    world.check_invariants().unwrap();
}

#[test]
fn spawn_batch_view_exposes_entities_and_mask() {
    let mut world = World::new();
    world.spawn(NAME);
    let mut views = Vec::new();
    let batch = world.spawn_batch(NAME, 2, |table: &mut WorldComponentArraysMut<'_>, index| {
        views.push((table.mask, table.entities.len(), index));
        table.name[index] = Name(format!("row {index}"));
    });
    assert_eq!(views, vec![(NAME, 3, 1), (NAME, 3, 2)]);
    assert_eq!(world.get_name(batch[0]), Some(&name("row 1")));
    assert_eq!(world.get_name(batch[1]), Some(&name("row 2")));
}

// ----- despawning -----------------------------------------------------------------------------

#[test]
fn despawn_refuses_bad_handles_and_touches_no_one_else() {
    let mut f = Fixture::new();
    let before = snapshot(&f.world);
    for (label, bad) in f.bad_handles() {
        assert!(!f.world.despawn(bad), "{label}");
        assert_eq!(snapshot(&f.world), before, "{label}");
    }
    assert!(
        f.world.is_alive(f.recycled),
        "a stale despawn spares the id's new holder"
    );
    assert_resolve_to_nothing(&f.world, &f.bad_handles());
}

#[test]
fn despawn_once_then_refuse() {
    let mut f = Fixture::new();
    assert!(f.world.despawn(f.statue));
    assert!(!f.world.despawn(f.statue), "double despawn");
    assert!(!f.world.is_alive(f.statue));
    assert_eq!(f.world.entity_count(), 3);
    assert_eq!(f.world.get_position(f.statue), None);
    assert_eq!(f.world.get_position(f.mover), Some(&pos(1.0, 2.0)));
    assert_eq!(f.world.get_name(f.recycled), Some(&name("recycled")));
    f.world.check_invariants().unwrap();
}

#[test]
fn despawn_keeps_the_swapped_row_reachable() {
    let mut world = World::new();
    let entities = world.spawn_batch(POSITION, 5, |table, index| {
        table.position[index] = pos(index as f32, 0.0);
    });
    assert!(world.despawn(entities[1]));
    for (index, &entity) in entities.iter().enumerate() {
        if index == 1 {
            assert_eq!(world.get_position(entity), None);
        } else {
            assert_eq!(world.get_position(entity), Some(&pos(index as f32, 0.0)));
        }
    }
    world.check_invariants().unwrap();
}

#[test]
fn despawn_entities_returns_only_those_despawned() {
    let mut f = Fixture::new();
    let mut request = vec![f.mover];
    request.extend(f.bad_handles().into_iter().map(|(_, bad)| bad));
    request.push(f.mover); // a duplicate: despawned by its first occurrence only
    request.push(f.ghost);
    let despawned = f.world.despawn_entities(&request);
    assert_eq!(despawned, vec![f.mover, f.ghost]);
    assert_eq!(f.world.entity_count(), 2);
    assert_eq!(
        sorted(f.world.entities().collect::<Vec<_>>()),
        sorted(vec![f.recycled, f.statue])
    );
    assert!(f.world.despawn_entities(&[]).is_empty());
    assert!(f.world.despawn_entities(&[f.mover, f.ghost]).is_empty());
    assert_eq!(f.world.get_position(f.statue), Some(&pos(5.0, 6.0)));
    f.world.check_invariants().unwrap();
    assert_resolve_to_nothing(&f.world, &f.bad_handles());
}

// ----- liveness and masks ---------------------------------------------------------------------

#[test]
fn is_alive_only_for_live_handles() {
    let f = Fixture::new();
    for entity in f.live() {
        assert!(f.world.is_alive(entity), "{entity}");
    }
    for (label, bad) in f.bad_handles() {
        assert!(!f.world.is_alive(bad), "{label}");
    }
}

#[test]
fn entity_count_and_get_all_entities_in_id_order() {
    let mut f = Fixture::new();
    assert_eq!(f.world.entity_count(), 4);
    assert_eq!(
        f.world.entities().collect::<Vec<_>>(),
        vec![f.recycled, f.statue, f.mover, f.ghost],
        "ids 0, 2, 3, 4"
    );
    let late = f.world.spawn(HEALTH);
    assert_eq!(late.id, 1);
    assert_eq!(
        f.world.entities().collect::<Vec<_>>(),
        vec![f.recycled, late, f.statue, f.mover, f.ghost]
    );
    assert_eq!(f.world.entity_count(), 5);
}

#[test]
fn component_mask_of_live_and_bad_handles() {
    let f = Fixture::new();
    assert_eq!(f.world.component_mask(f.recycled), Some(ALL));
    assert_eq!(f.world.component_mask(f.statue), Some(POSITION | HEALTH));
    assert_eq!(f.world.component_mask(f.mover), Some(POSITION | VELOCITY));
    assert_eq!(
        f.world.component_mask(f.ghost),
        Some(VELOCITY | HEALTH | NAME)
    );
    for (label, bad) in f.bad_handles() {
        assert_eq!(f.world.component_mask(bad), None, "{label}");
    }
}

#[test]
fn has_components_checks_every_bit() {
    let f = Fixture::new();
    let w = &f.world;
    assert!(w.has_components(f.statue, POSITION));
    assert!(w.has_components(f.statue, POSITION | HEALTH));
    assert!(!w.has_components(f.statue, POSITION | VELOCITY));
    assert!(!w.has_components(f.statue, NAME));
    assert!(w.has_components(f.statue, 0), "the empty set");
    assert!(w.has_components(f.recycled, ALL));
    for (label, bad) in f.bad_handles() {
        assert!(!w.has_components(bad, 0), "{label}");
        assert!(!w.has_components(bad, POSITION), "{label}");
    }
}

// ----- structural change ----------------------------------------------------------------------

#[test]
fn add_components_keeps_values_and_defaults_the_new_ones() {
    let mut f = Fixture::new();
    assert!(f.world.add_components(f.statue, VELOCITY | NAME | POSITION));
    assert_eq!(f.world.component_mask(f.statue), Some(ALL));
    assert_eq!(f.world.get_position(f.statue), Some(&pos(5.0, 6.0)));
    assert_eq!(f.world.get_health(f.statue), Some(&Health(7)));
    assert_eq!(f.world.get_velocity(f.statue), Some(&Velocity::default()));
    assert_eq!(f.world.get_name(f.statue), Some(&Name::default()));
    // Already present: true, no change.
    let before = snapshot(&f.world);
    assert!(f.world.add_components(f.mover, POSITION));
    assert!(f.world.add_components(f.mover, 0));
    assert_eq!(snapshot(&f.world), before);
    f.world.check_invariants().unwrap();
}

#[test]
fn add_components_refuses_bad_handles() {
    let mut f = Fixture::new();
    let before = snapshot(&f.world);
    for (label, bad) in f.bad_handles() {
        assert!(!f.world.add_components(bad, NAME), "{label}");
        assert!(!f.world.add_components(bad, ALL), "{label}");
        assert_eq!(snapshot(&f.world), before, "{label}: no table, no entity");
    }
    assert_resolve_to_nothing(&f.world, &f.bad_handles());
}

#[test]
fn remove_components_drops_values_and_keeps_the_rest() {
    let mut f = Fixture::new();
    assert!(f.world.remove_components(f.recycled, VELOCITY | NAME));
    assert_eq!(f.world.component_mask(f.recycled), Some(POSITION | HEALTH));
    assert_eq!(f.world.get_position(f.recycled), Some(&pos(11.0, 12.0)));
    assert_eq!(f.world.get_health(f.recycled), Some(&Health(15)));
    assert_eq!(f.world.get_velocity(f.recycled), None);
    assert_eq!(f.world.get_name(f.recycled), None);
    // Absent bits: true, no change.
    let before = snapshot(&f.world);
    assert!(f.world.remove_components(f.mover, NAME | HEALTH));
    assert_eq!(snapshot(&f.world), before);
    // Removing everything leaves a live entity with the empty mask.
    assert!(f.world.remove_components(f.mover, ALL));
    assert!(f.world.is_alive(f.mover));
    assert_eq!(f.world.component_mask(f.mover), Some(0));
    // Putting a component back gives a default, not the old value.
    assert!(f.world.add_components(f.recycled, NAME));
    assert_eq!(f.world.get_name(f.recycled), Some(&Name::default()));
    f.world.check_invariants().unwrap();
}

#[test]
fn remove_components_refuses_bad_handles() {
    let mut f = Fixture::new();
    let before = snapshot(&f.world);
    for (label, bad) in f.bad_handles() {
        assert!(!f.world.remove_components(bad, POSITION), "{label}");
        assert!(!f.world.remove_components(bad, ALL), "{label}");
        assert_eq!(snapshot(&f.world), before, "{label}");
    }
    assert_resolve_to_nothing(&f.world, &f.bad_handles());
}

// ----- queries --------------------------------------------------------------------------------

#[test]
fn warm_query_caches_the_matching_tables() {
    let mut f = Fixture::new();
    assert_eq!(f.world.query_cache().get(HEALTH), None);
    f.world.warm_query(HEALTH);
    // ALL (0), POSITION|HEALTH (1), VELOCITY|HEALTH|NAME (3).
    assert_eq!(f.world.query_cache().get(HEALTH), Some(&[0usize, 1, 3][..]));
    f.world.warm_query(HEALTH);
    assert_eq!(f.world.query_cache().len(), 1);
    f.world.check_invariants().unwrap();
}

#[test]
fn query_entities_lists_exactly_the_matching_live_entities() {
    let mut f = Fixture::new();
    let w = &f.world;
    let query = |mask: Mask| sorted(w.query_entities(mask).collect());
    assert_eq!(query(POSITION), sorted(vec![f.recycled, f.statue, f.mover]));
    assert_eq!(query(VELOCITY | HEALTH), sorted(vec![f.recycled, f.ghost]));
    assert_eq!(query(ALL), vec![f.recycled]);
    assert_eq!(query(0), sorted(f.live()));
    for (label, bad) in f.bad_handles() {
        assert!(!query(0).contains(&bad), "{label}");
    }
    // Same answers once the query is cached.
    f.world.warm_query(POSITION);
    let cached: Vec<Entity> = sorted(f.world.query_entities(POSITION).collect());
    assert_eq!(cached, sorted(vec![f.recycled, f.statue, f.mover]));
    assert!(f.world.despawn(f.mover));
    let cached: Vec<Entity> = sorted(f.world.query_entities(POSITION).collect());
    assert_eq!(cached, sorted(vec![f.recycled, f.statue]));
    assert_resolve_to_nothing(&f.world, &f.bad_handles());
}

#[test]
fn query_first_entity_finds_a_match_or_none() {
    let mut f = Fixture::new();
    assert_eq!(f.world.query_entities(ALL).next(), Some(f.recycled));
    assert_eq!(
        f.world.query_entities(POSITION | HEALTH).next(),
        Some(f.recycled)
    );
    assert_eq!(
        f.world.query_entities(VELOCITY | NAME).next(),
        Some(f.recycled),
        "table 0 comes first"
    );
    assert_eq!(f.world.query_entities(0).next(), Some(f.recycled));
    assert!(f.world.despawn(f.recycled));
    assert_eq!(
        f.world.query_entities(ALL).next(),
        None,
        "its table is empty"
    );
    assert_eq!(
        f.world.query_entities(VELOCITY | NAME).next(),
        Some(f.ghost)
    );
    assert_eq!(
        f.world.query_entities(POSITION | HEALTH).next(),
        Some(f.statue)
    );
    assert!(f.world.despawn(f.statue));
    assert_eq!(f.world.query_entities(POSITION | HEALTH).next(), None);
    assert_eq!(f.world.query_entities(POSITION).next(), Some(f.mover));
}

fn visits(world: &World, include: Mask, exclude: Mask) -> Vec<Entity> {
    let mut seen = Vec::new();
    world.for_each(
        include,
        exclude,
        |entity, table: &WorldComponentArrays, index| {
            assert_eq!(table.entities[index], entity, "index is the entity's row");
            assert_eq!(table.mask & include, include);
            assert_eq!(table.mask & exclude, 0);
            seen.push(entity);
        },
    );
    sorted(seen)
}

#[test]
fn for_each_visits_each_match_once_and_honours_exclude() {
    let f = Fixture::new();
    let w = &f.world;
    assert_eq!(
        visits(w, POSITION, 0),
        sorted(vec![f.recycled, f.statue, f.mover])
    );
    assert_eq!(visits(w, POSITION, VELOCITY), vec![f.statue]);
    assert_eq!(visits(w, HEALTH, NAME), vec![f.statue]);
    assert_eq!(visits(w, VELOCITY, POSITION), vec![f.ghost]);
    assert_eq!(visits(w, 0, 0), sorted(f.live()));
    assert_eq!(
        visits(w, 0, NAME),
        sorted(vec![f.statue, f.mover]),
        "exclude only"
    );
    assert!(visits(w, POSITION, POSITION).is_empty());
    assert!(visits(w, 0, ALL).is_empty());

    let mut sum = 0.0;
    w.for_each(POSITION, 0, |_, table, index| {
        sum += table.position[index].x
    });
    assert_eq!(sum, 11.0 + 5.0 + 1.0);
    assert_resolve_to_nothing(&f.world, &f.bad_handles());
}

#[test]
fn for_each_mut_writes_are_visible_and_exclude_is_honoured() {
    let mut f = Fixture::new();
    let mut seen = Vec::new();
    f.world
        .for_each_mut(POSITION, VELOCITY, |entity, table, index| {
            assert_eq!(table.entities[index], entity);
            table.position[index].x += 100.0;
            seen.push(entity);
        });
    assert_eq!(seen, vec![f.statue]);
    assert_eq!(f.world.get_position(f.statue), Some(&pos(105.0, 6.0)));
    assert_eq!(f.world.get_position(f.mover), Some(&pos(1.0, 2.0)));
    assert_eq!(f.world.get_position(f.recycled), Some(&pos(11.0, 12.0)));

    let mut count = 0;
    f.world
        .for_each_mut(POSITION | VELOCITY, 0, |_, table, index| {
            let velocity = table.velocity[index];
            table.position[index].x += velocity.x;
            table.position[index].y += velocity.y;
            count += 1;
        });
    assert_eq!(count, 2);
    assert_eq!(f.world.get_position(f.mover), Some(&pos(4.0, 6.0)));
    assert_eq!(f.world.get_position(f.recycled), Some(&pos(24.0, 26.0)));
    f.world.check_invariants().unwrap();
}

#[test]
fn for_each_table_mut_visits_each_non_empty_matching_table_once() {
    let mut f = Fixture::new();
    let extra = f.world.spawn_entities(POSITION | VELOCITY, 3);
    assert!(f.world.despawn(f.statue)); // table POSITION | HEALTH is now empty
    let mut tables = Vec::new();
    f.world.for_each_table_mut(POSITION, 0, |table| {
        assert!(!table.entities.is_empty());
        assert_eq!(table.position.len(), table.entities.len());
        tables.push((table.mask, table.entities.len()));
        for position in table.position.iter_mut() {
            position.y = -7.0;
        }
    });
    tables.sort();
    let mut expected = vec![(ALL, 1), (POSITION | VELOCITY, 4)];
    expected.sort();
    assert_eq!(tables, expected);
    for entity in extra.into_iter().chain([f.mover, f.recycled]) {
        assert_eq!(f.world.get_position(entity).unwrap().y, -7.0);
    }
    let mut calls = 0;
    f.world
        .for_each_table_mut(POSITION, VELOCITY, |_| calls += 1);
    assert_eq!(calls, 0, "the only such table is empty");
    f.world.for_each_table_mut(VELOCITY, POSITION, |table| {
        calls += 1;
        assert_eq!(table.entities, &[f.ghost][..]);
    });
    assert_eq!(calls, 1);
}

#[test]
fn query_builder_with_without_iter_count_entities() {
    let f = Fixture::new();
    let w = &f.world;
    assert_eq!(w.typed_query_ref::<Entity>().count(), 4);
    assert_eq!(w.typed_query_ref::<Entity>().with(POSITION).count(), 3);
    assert_eq!(
        w.typed_query_ref::<Entity>()
            .with(POSITION | HEALTH)
            .count(),
        2
    );
    assert_eq!(
        w.typed_query_ref::<Entity>()
            .with(POSITION)
            .without(VELOCITY)
            .count(),
        1
    );
    assert_eq!(
        w.typed_query_ref::<Entity>()
            .with(HEALTH)
            .without(POSITION)
            .iter()
            .collect::<Vec<_>>(),
        vec![f.ghost]
    );
    assert_eq!(
        sorted(
            w.typed_query_ref::<Entity>()
                .with(0)
                .without(NAME)
                .iter()
                .collect()
        ),
        sorted(vec![f.statue, f.mover])
    );
    let mut seen = Vec::new();
    w.for_each(VELOCITY, HEALTH, |entity, table, index| {
        seen.push((entity, table.velocity[index]));
    });
    assert_eq!(seen, vec![(f.mover, vel(3.0, 4.0))]);
    assert_eq!(
        w.typed_query_ref::<Entity>()
            .with(POSITION)
            .without(POSITION)
            .count(),
        0
    );
}

#[test]
fn query_mut_builder_with_without_iter_count_tables() {
    let mut f = Fixture::new();
    assert_eq!(f.world.typed_query_ref::<Entity>().count(), 4);
    assert_eq!(
        f.world.typed_query_ref::<Entity>().with(VELOCITY).count(),
        3
    );
    assert_eq!(
        f.world
            .typed_query_ref::<Entity>()
            .with(VELOCITY)
            .without(NAME)
            .count(),
        1
    );
    let mut seen = Vec::new();
    f.world
        .for_each_mut(HEALTH, VELOCITY, |entity, table, index| {
            table.health[index].0 += 1;
            seen.push(entity);
        });
    assert_eq!(seen, vec![f.statue]);
    assert_eq!(f.world.get_health(f.statue), Some(&Health(8)));
    assert_eq!(f.world.get_health(f.ghost), Some(&Health(10)));

    let mut table_masks = Vec::new();
    f.world
        .for_each_table_mut(NAME, 0, |table: &mut WorldComponentArraysMut<'_>| {
            table_masks.push(table.mask);
            for value in table.name.iter_mut() {
                value.0.push('!');
            }
        });
    table_masks.sort();
    assert_eq!(table_masks, vec![VELOCITY | HEALTH | NAME, ALL]);
    assert_eq!(f.world.get_name(f.ghost), Some(&name("ghost!")));
    assert_eq!(f.world.get_name(f.recycled), Some(&name("recycled!")));
}

// ----- per-component methods ------------------------------------------------------------------

#[test]
fn get_returns_own_value_or_none() {
    let f = Fixture::new();
    assert_eq!(f.world.get_velocity(f.statue), None, "lacks the component");
    assert_eq!(f.world.get_name(f.mover), None);
    assert_eq!(f.world.get_position(f.ghost), None);
    for (label, bad) in f.bad_handles() {
        assert_eq!(f.world.get_position(bad), None, "{label}");
        assert_eq!(f.world.get_velocity(bad), None, "{label}");
        assert_eq!(f.world.get_health(bad), None, "{label}");
        assert_eq!(f.world.get_name(bad), None, "{label}");
    }
}

#[test]
fn get_mut_writes_only_the_entity() {
    let mut f = Fixture::new();
    f.world.get_position_mut(f.statue).unwrap().x = 50.0;
    assert_eq!(f.world.get_position(f.statue), Some(&pos(50.0, 6.0)));
    assert_eq!(f.world.get_position(f.recycled), Some(&pos(11.0, 12.0)));
    assert!(f.world.get_name_mut(f.statue).is_none());
    let before = snapshot(&f.world);
    for (label, bad) in f.bad_handles() {
        assert!(f.world.get_position_mut(bad).is_none(), "{label}");
        assert!(f.world.get_velocity_mut(bad).is_none(), "{label}");
        assert!(f.world.get_health_mut(bad).is_none(), "{label}");
        assert!(f.world.get_name_mut(bad).is_none(), "{label}");
    }
    assert_eq!(snapshot(&f.world), before);
}

#[test]
fn modify_returns_the_closure_result() {
    let mut f = Fixture::new();
    let result = f.world.get_health_mut(f.ghost).map(|health| {
        health.0 *= 3;
        health.0
    });
    assert_eq!(result, Some(30));
    assert_eq!(f.world.get_health(f.ghost), Some(&Health(30)));
    let mut called = false;
    assert_eq!(
        f.world.get_name_mut(f.statue).map(|_| called = true),
        None,
        "lacks the component"
    );
    assert!(!called);
    let before = snapshot(&f.world);
    for (label, bad) in f.bad_handles() {
        let mut called = false;
        assert_eq!(
            f.world.get_position_mut(bad).map(|position| {
                called = true;
                position.x = 1e9;
            }),
            None,
            "{label}"
        );
        assert!(!called, "{label}: the closure must not run");
    }
    assert_eq!(snapshot(&f.world), before);
}

#[test]
fn set_overwrites_without_migrating() {
    let mut f = Fixture::new();
    assert!(f.world.set_position(f.mover, pos(-5.0, 5.0)));
    assert_eq!(f.world.get_position(f.mover), Some(&pos(-5.0, 5.0)));
    assert_eq!(f.world.component_mask(f.mover), Some(POSITION | VELOCITY));
    assert_eq!(f.world.archetype_count(), 4);
}

#[test]
fn set_on_a_missing_component_migrates_and_keeps_the_other_values() {
    let mut f = Fixture::new();
    // Two more rows in the ghost's table, so the migration swaps one into its hole.
    let neighbours = f
        .world
        .spawn_batch(VELOCITY | HEALTH | NAME, 2, |table, index| {
            table.name[index] = Name(format!("n{index}"));
            table.health[index] = Health(index as u32);
        });
    assert!(f.world.set_position(f.ghost, pos(0.5, 0.25)));
    assert_eq!(f.world.component_mask(f.ghost), Some(ALL));
    assert_eq!(f.world.get_position(f.ghost), Some(&pos(0.5, 0.25)));
    assert_eq!(f.world.get_velocity(f.ghost), Some(&vel(8.0, 9.0)));
    assert_eq!(f.world.get_health(f.ghost), Some(&Health(10)));
    assert_eq!(f.world.get_name(f.ghost), Some(&name("ghost")));
    assert_eq!(f.world.get_name(neighbours[0]), Some(&name("n1")));
    assert_eq!(f.world.get_name(neighbours[1]), Some(&name("n2")));
    assert_eq!(f.world.get_health(neighbours[1]), Some(&Health(2)));
    assert_eq!(f.world.get_name(f.recycled), Some(&name("recycled")));
    assert_eq!(f.world.archetype_count(), 4, "ALL already existed");

    assert!(f.world.set_name(f.mover, name("mover")));
    assert_eq!(
        f.world.component_mask(f.mover),
        Some(POSITION | VELOCITY | NAME)
    );
    assert_eq!(f.world.get_position(f.mover), Some(&pos(1.0, 2.0)));
    assert_eq!(f.world.get_velocity(f.mover), Some(&vel(3.0, 4.0)));
    assert_eq!(f.world.get_name(f.mover), Some(&name("mover")));
    assert_eq!(f.world.archetype_count(), 5);
    f.world.check_invariants().unwrap();
}

#[test]
fn set_refuses_bad_handles() {
    let mut f = Fixture::new();
    let before = snapshot(&f.world);
    for (label, bad) in f.bad_handles() {
        assert!(!f.world.set_position(bad, pos(1e9, 1e9)), "{label}");
        assert!(!f.world.set_name(bad, name("intruder")), "{label}");
        assert!(!f.world.set_velocity(bad, vel(1e9, 1e9)), "{label}");
        assert!(!f.world.set_health(bad, Health(1)), "{label}");
        assert_eq!(snapshot(&f.world), before, "{label}");
    }
    assert_resolve_to_nothing(&f.world, &f.bad_handles());
}

#[test]
fn add_keeps_an_existing_value_or_adds_a_default() {
    let mut f = Fixture::new();
    assert!(f.world.add_position(f.statue));
    assert_eq!(f.world.get_position(f.statue), Some(&pos(5.0, 6.0)), "kept");
    assert_eq!(f.world.component_mask(f.statue), Some(POSITION | HEALTH));
    assert!(f.world.add_velocity(f.statue));
    assert_eq!(f.world.get_velocity(f.statue), Some(&Velocity::default()));
    assert_eq!(f.world.get_position(f.statue), Some(&pos(5.0, 6.0)));
    assert_eq!(f.world.get_health(f.statue), Some(&Health(7)));
    assert_eq!(
        f.world.component_mask(f.statue),
        Some(POSITION | VELOCITY | HEALTH)
    );
    assert!(f.world.add_name(f.mover));
    assert_eq!(f.world.get_name(f.mover), Some(&Name::default()));
    f.world.check_invariants().unwrap();
}

#[test]
fn add_refuses_bad_handles() {
    let mut f = Fixture::new();
    let before = snapshot(&f.world);
    for (label, bad) in f.bad_handles() {
        assert!(!f.world.add_position(bad), "{label}");
        assert!(!f.world.add_velocity(bad), "{label}");
        assert!(!f.world.add_health(bad), "{label}");
        assert!(!f.world.add_name(bad), "{label}");
        assert_eq!(snapshot(&f.world), before, "{label}");
    }
    assert_resolve_to_nothing(&f.world, &f.bad_handles());
}

#[test]
fn remove_returns_the_removed_value() {
    let mut f = Fixture::new();
    assert_eq!(f.world.remove_name(f.recycled), Some(name("recycled")));
    assert_eq!(f.world.remove_name(f.recycled), None, "already removed");
    assert_eq!(
        f.world.component_mask(f.recycled),
        Some(POSITION | VELOCITY | HEALTH)
    );
    assert_eq!(f.world.get_position(f.recycled), Some(&pos(11.0, 12.0)));
    assert_eq!(f.world.get_velocity(f.recycled), Some(&vel(13.0, 14.0)));
    assert_eq!(f.world.get_health(f.recycled), Some(&Health(15)));
    assert!(f.world.is_alive(f.recycled));

    assert_eq!(f.world.remove_velocity(f.mover), Some(vel(3.0, 4.0)));
    assert_eq!(f.world.component_mask(f.mover), Some(POSITION));
    assert_eq!(f.world.get_position(f.mover), Some(&pos(1.0, 2.0)));

    // Lacking the component: None and no migration.
    let mask = f.world.component_mask(f.statue);
    assert_eq!(f.world.remove_velocity(f.statue), None);
    assert_eq!(f.world.component_mask(f.statue), mask);
    f.world.check_invariants().unwrap();
}

#[test]
fn remove_refuses_bad_handles() {
    let mut f = Fixture::new();
    let before = snapshot(&f.world);
    for (label, bad) in f.bad_handles() {
        assert_eq!(f.world.remove_position(bad), None, "{label}");
        assert_eq!(f.world.remove_velocity(bad), None, "{label}");
        assert_eq!(f.world.remove_health(bad), None, "{label}");
        assert_eq!(f.world.remove_name(bad), None, "{label}");
        assert_eq!(snapshot(&f.world), before, "{label}");
    }
    assert_resolve_to_nothing(&f.world, &f.bad_handles());
}

#[test]
fn has_follows_the_mask() {
    let mut f = Fixture::new();
    assert!(f.world.has_position(f.statue));
    assert!(f.world.has_health(f.statue));
    assert!(!f.world.has_velocity(f.statue));
    assert!(!f.world.has_name(f.statue));
    assert!(f.world.has_name(f.recycled));
    f.world.remove_health(f.statue);
    assert!(!f.world.has_health(f.statue));
    for (label, bad) in f.bad_handles() {
        assert!(!f.world.has_position(bad), "{label}");
        assert!(!f.world.has_velocity(bad), "{label}");
        assert!(!f.world.has_health(bad), "{label}");
        assert!(!f.world.has_name(bad), "{label}");
    }
}

#[test]
fn typed_query_ref_yields_every_value_once() {
    let f = Fixture::new();
    let mut positions: Vec<(i32, i32)> = f
        .world
        .typed_query_ref::<&Position>()
        .iter()
        .map(|p| (p.x as i32, p.y as i32))
        .collect();
    positions.sort();
    assert_eq!(positions, vec![(1, 2), (5, 6), (11, 12)]);
    let mut names: Vec<String> = f
        .world
        .typed_query_ref::<&Name>()
        .iter()
        .map(|n| n.0.clone())
        .collect();
    names.sort();
    assert_eq!(names, vec!["ghost".to_string(), "recycled".to_string()]);
    assert_eq!(World::new().typed_query_ref::<&Health>().count(), 0);
    assert!(
        !f.world
            .typed_query_ref::<&Health>()
            .iter()
            .any(|health| *health == Health(998)),
        "no despawned data"
    );
}

#[test]
fn typed_query_ref_folds_and_steps_to_the_same_values() {
    let mut world = World::new();
    world.spawn_batch(POSITION, 3, |table, index| {
        table.position[index] = pos(index as f32, 0.0);
    });
    world.spawn_batch(POSITION | HEALTH, 2, |table, index| {
        table.position[index] = pos(10.0 + index as f32, 0.0);
    });
    world.spawn_batch(HEALTH, 2, |_, _| {});
    let stepped: Vec<f32> = world
        .typed_query_ref::<&Position>()
        .iter()
        .map(|p| p.x)
        .collect();
    let mut sorted = stepped.clone();
    sorted.sort_by(f32::total_cmp);
    assert_eq!(sorted, [0.0, 1.0, 2.0, 10.0, 11.0]);
    let folded: f32 = world
        .typed_query_ref::<&Position>()
        .iter()
        .map(|p| p.x)
        .sum();
    assert_eq!(folded, 24.0);
    // A fold that starts part-way through a table takes the rest of that table first.
    let mut values = world.typed_query_ref::<&Position>().iter();
    let first = values.next().map(|p| p.x);
    let mut rest = Vec::new();
    values.for_each(|p| rest.push(p.x));
    assert_eq!(rest.len(), 4);
    assert_eq!(first.into_iter().chain(rest).collect::<Vec<_>>(), stepped);
}

#[test]
fn for_each_table_mut_visits_each_non_empty_table_once() {
    let mut f = Fixture::new();
    f.world.spawn_batch(POSITION | HEALTH, 2, |table, index| {
        table.position[index] = pos(20.0 + index as f32, 0.0);
    });
    let mut slices: Vec<Vec<Position>> = Vec::new();
    f.world
        .for_each_table_mut(POSITION, 0, |table| slices.push(table.position.to_vec()));
    assert_eq!(slices.len(), 3);
    let mut lengths: Vec<usize> = slices.iter().map(|slice| slice.len()).collect();
    lengths.sort();
    assert_eq!(lengths, vec![1, 1, 3]);
    assert!(slices.contains(&vec![pos(5.0, 6.0), pos(21.0, 0.0), pos(22.0, 0.0)]));
    assert!(slices.contains(&vec![pos(11.0, 12.0)]));

    // An emptied table yields no slice.
    f.world.despawn(f.mover);
    let count_tables = |world: &mut World, mask| {
        let mut tables = 0;
        world.for_each_table_mut(mask, 0, |_| tables += 1);
        tables
    };
    assert_eq!(count_tables(&mut f.world, POSITION), 2);
    assert_eq!(count_tables(&mut f.world, NAME), 2);
}

#[test]
fn for_each_table_mut_writes_are_visible_through_get() {
    let mut f = Fixture::new();
    let mut tables = 0;
    f.world.for_each_table_mut(POSITION, 0, |table| {
        tables += 1;
        for position in table.position.iter_mut() {
            position.x *= 10.0;
        }
    });
    assert_eq!(tables, 3);
    assert_eq!(f.world.get_position(f.statue), Some(&pos(50.0, 6.0)));
    assert_eq!(f.world.get_position(f.mover), Some(&pos(10.0, 2.0)));
    assert_eq!(f.world.get_position(f.recycled), Some(&pos(110.0, 12.0)));
    f.world.for_each_table_mut(NAME, 0, |table| {
        for value in table.name.iter_mut() {
            value.0.make_ascii_uppercase();
        }
    });
    assert_eq!(f.world.get_name(f.ghost), Some(&name("GHOST")));
    assert_eq!(f.world.get_name(f.recycled), Some(&name("RECYCLED")));
    f.world.check_invariants().unwrap();
}

// ----- EntityBuilder --------------------------------------------------------------------------

#[test]
fn entity_builder_mask_follows_the_with_calls() {
    assert_eq!(EntityBuilder::new().mask(), 0);
    assert_eq!(
        EntityBuilder::new()
            .with_position(pos(1.0, 1.0))
            .with_name(name("n"))
            .mask(),
        POSITION | NAME
    );
    // `with_*` keeps the builder's type: it grows inside an `if` or a loop.
    let mut builder: WorldEntityBuilder = WorldEntityBuilder::new().with_health(Health(1));
    assert_eq!(builder.mask(), HEALTH);
    for step in 0..3 {
        if step % 2 == 0 {
            builder = builder.with_position(pos(step as f32, 0.0));
        }
    }
    assert_eq!(builder.mask(), HEALTH | POSITION);
    let empty: EntityBuilder = EntityBuilder::new();
    assert_eq!(empty.mask(), 0);
}

#[test]
fn entity_builder_a_later_value_of_a_component_wins() {
    let mut world = World::new();
    let built = EntityBuilder::new()
        .with_health(Health(1))
        .with_name(name("first"))
        .with_health(Health(2))
        .spawn(&mut world, 2);
    for entity in built {
        assert_eq!(world.component_mask(entity), Some(HEALTH | NAME));
        assert_eq!(world.get_health(entity), Some(&Health(2)));
    }
}

#[test]
fn entity_builder_spawn_clones_the_values_into_each_entity() {
    let mut f = Fixture::new();
    let built = EntityBuilder::new()
        .with_position(pos(7.0, 8.0))
        .with_name(name("built"))
        .spawn(&mut f.world, 3);
    assert_eq!(built.len(), 3);
    assert_eq!(built[0], Entity::new(1, 1), "the free id comes first");
    for &entity in &built {
        assert_eq!(f.world.component_mask(entity), Some(POSITION | NAME));
        assert_eq!(f.world.get_position(entity), Some(&pos(7.0, 8.0)));
        assert_eq!(f.world.get_name(entity), Some(&name("built")));
    }
    assert!(EntityBuilder::new().spawn(&mut f.world, 0).is_empty());
    assert_eq!(f.world.entity_count(), 7);
    assert_eq!(
        f.world.get_position(f.despawned),
        None,
        "old handle of id 1"
    );
    f.world.check_invariants().unwrap();
    assert_resolve_to_nothing(&f.world, &f.bad_handles());
}

#[test]
fn entity_builder_spawn_one_moves_the_values_in() {
    let mut world = World::new();
    let empty = EntityBuilder::new().spawn_one(&mut world);
    assert_eq!(world.component_mask(empty), Some(0));
    let entity = EntityBuilder::new()
        .with_velocity(vel(1.0, -1.0))
        .with_health(Health(3))
        .with_name(name("one"))
        .spawn_one(&mut world);
    assert_eq!(world.component_mask(entity), Some(VELOCITY | HEALTH | NAME));
    assert_eq!(world.get_velocity(entity), Some(&vel(1.0, -1.0)));
    assert_eq!(world.get_health(entity), Some(&Health(3)));
    assert_eq!(world.get_name(entity), Some(&name("one")));
    assert_eq!(world.get_position(entity), None);
    assert_eq!(world.entity_count(), 2);
    world.check_invariants().unwrap();
}

#[test]
fn short_names_are_the_prefixed_types() {
    let world = World::new();
    let _: &[ComponentArrays] = world.tables();
    let _: &[WorldComponentArrays] = world.tables();
    let _: &Resources = &world.resources;
    let _: WorldMask = POSITION;
    assert_eq!(COMPONENT_COUNT, 4);
    assert_eq!(World::COMPONENT_COUNT, 4);
    assert_eq!(
        [POSITION, VELOCITY, HEALTH, NAME],
        [1, 2, 4, 8],
        "one bit per component, in order"
    );
}

/// A world with a component that is not `Clone` (a boxed closure) still batch-builds the
/// others: `EntityBuilder::spawn` needs `Clone` only of the values the builder holds.
mod not_clone {
    #[derive(Default)]
    pub struct Callback(pub Option<Box<dyn Fn() -> u32>>);

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Speed(pub u32);

    archetypal::ecs! {
        World {
            speed: Speed => SPEED,
            callback: Callback => CALLBACK,
            tag_line: String => TAG_LINE,
        }
    }

    #[test]
    fn entity_builder_spawn_needs_clone_only_of_the_values_it_holds() {
        let mut world = World::new();
        let built = EntityBuilder::new()
            .with_speed(Speed(4))
            .with_tag_line(String::from("fast"))
            .spawn(&mut world, 3);
        assert_eq!(built.len(), 3);
        for &entity in &built {
            assert_eq!(world.get_speed(entity), Some(&Speed(4)));
            assert_eq!(world.get_tag_line(entity).map(String::as_str), Some("fast"));
            assert_eq!(world.component_mask(entity), Some(SPEED | TAG_LINE));
        }
        // The closure moves into one entity.
        let called = EntityBuilder::new()
            .with_speed(Speed(1))
            .with_callback(Callback(Some(Box::new(|| 42))))
            .spawn_one(&mut world);
        let callback = world.get_callback(called).and_then(|c| c.0.as_ref());
        assert_eq!(callback.map(|f| f()), Some(42));
        world.check_invariants().unwrap();
    }

    #[test]
    fn entity_builder_spawn_refuses_to_clone_a_value_that_is_not_clone() {
        let mut world = World::new();
        let before = world.entity_count();
        let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            EntityBuilder::new()
                .with_speed(Speed(1))
                .with_callback(Callback(Some(Box::new(|| 7))))
                .spawn(&mut world, 2)
        }));
        let message = refused.expect_err("two entities from one closure");
        let message = message
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| message.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        assert!(
            message.contains("`callback`") && message.contains("spawn_one"),
            "{message}"
        );
        assert_eq!(
            world.entity_count(),
            before,
            "refused before spawning anything"
        );
        world.check_invariants().unwrap();
        // One entity takes the values themselves: no clone needed.
        let one = EntityBuilder::new()
            .with_callback(Callback(Some(Box::new(|| 7))))
            .spawn(&mut world, 1);
        assert_eq!(
            world
                .get_callback(one[0])
                .and_then(|c| c.0.as_ref())
                .map(|f| f()),
            Some(7)
        );
    }
}
