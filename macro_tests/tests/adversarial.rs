//! Adversarial handles against every generated method that takes an `Entity`: handles from
//! another world, `Entity::default()` before and after anything was spawned, ids far past the
//! end, generations the world never reached. None panics, none reaches an entity's data, none
//! changes the world (every value, mask, tag, tick-stamped change and table is compared before
//! and after), and queued commands aimed at them are skipped.
//!
//! A handle is a plain `(id, generation)` pair with no world identity in it: a handle from
//! another world that happens to equal a live handle of this one *is* that handle here. The
//! last test pins that limitation down; everything distinguishable is refused.

use archetypal::{CommandReport, Entity, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, PartialEq)]
pub struct Name(pub String);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub i32);

// The world under test, and a second world of the same shape whose handles are thrown at it.
ecs! {
    Home {
        position: Position => POSITION,
        name: Name => NAME,
        health: Health => HEALTH,
    }
    Tags {
        marked => MARKED,
    }
}

ecs! {
    Away {
        away_position: Position => AWAY_POSITION,
        away_name: Name => AWAY_NAME,
    }
}

/// Everything observable about a world: per live entity its mask and values, the tag query,
/// the tables' masks and lengths, the entities changed since the last step, and the count.
fn snapshot(world: &Home) -> impl PartialEq + std::fmt::Debug + use<> {
    let entities: Vec<_> = world
        .entities()
        .collect::<Vec<_>>()
        .into_iter()
        .map(|e| {
            (
                e,
                world.component_mask(e),
                world.get_position(e).copied(),
                world.get_name(e).cloned(),
                world.get_health(e).copied(),
                world.has_marked(e),
            )
        })
        .collect();
    let tables: Vec<(u64, usize)> = world
        .tables()
        .iter()
        .map(|t| (t.mask, t.entities.len()))
        .collect();
    let mut marked: Vec<Entity> = world.query_entities(MARKED).collect();
    marked.sort();
    let changed: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .changed_since(0, world.last_tick())
        .iter()
        .chain(
            world
                .typed_query_ref::<Entity>()
                .changed_since(POSITION, world.last_tick())
                .iter(),
        )
        .chain(
            world
                .typed_query_ref::<Entity>()
                .changed_since(NAME, world.last_tick())
                .iter(),
        )
        .chain(
            world
                .typed_query_ref::<Entity>()
                .changed_since(HEALTH, world.last_tick())
                .iter(),
        )
        .collect();
    (entities, tables, marked, changed, world.entity_count())
}

/// Calls every method of `Home` that takes an entity with `bad`, which must resolve to
/// nothing: each returns `None` / `false` / nothing, the world is unchanged, and commands
/// queued against `bad` are all skipped.
fn assert_refused(world: &mut Home, bad: Entity, label: &str) {
    let before = snapshot(world);
    // Reads.
    assert!(!world.is_alive(bad), "{label}: is_alive");
    assert_eq!(world.component_mask(bad), None, "{label}: component_mask");
    assert!(!world.has_components(bad, 0), "{label}");
    assert!(!world.has_components(bad, POSITION | MARKED), "{label}");
    assert_eq!(world.get_position(bad), None, "{label}: get_position");
    assert_eq!(world.get_name(bad), None, "{label}: get_name");
    assert_eq!(world.get_health(bad), None, "{label}: get_health");
    assert!(!world.has_position(bad), "{label}");
    assert!(!world.has_name(bad), "{label}");
    assert!(!world.has_health(bad), "{label}");
    assert!(!world.has_marked(bad), "{label}: has_marked");
    assert_eq!(world.locate(bad), None, "{label}: locate");
    assert!(
        !world.entities().collect::<Vec<_>>().contains(&bad),
        "{label}"
    );
    assert!(!world.query_entities(0).any(|e| e == bad), "{label}");
    // Writes.
    assert_eq!(
        world.get_position_mut(bad),
        None,
        "{label}: get_position_mut"
    );
    assert_eq!(world.get_name_mut(bad), None, "{label}: get_name_mut");
    assert_eq!(world.get_health_mut(bad), None, "{label}: get_health_mut");
    assert_eq!(
        world.get_position_mut(bad).map(|p| p.x = 99.0),
        None,
        "{label}"
    );
    assert_eq!(
        world.get_name_mut(bad).map(|n| n.0.push('!')),
        None,
        "{label}"
    );
    assert_eq!(world.get_health_mut(bad).map(|h| h.0 += 1), None, "{label}");
    assert!(
        !world.set_position(bad, Position { x: 9.0, y: 9.0 }),
        "{label}: set"
    );
    assert!(
        !world.set_name(bad, Name("intruder".into())),
        "{label}: set_name"
    );
    assert!(!world.set_health(bad, Health(-9)), "{label}: set_health");
    assert!(!world.add_position(bad), "{label}: add_position");
    assert!(!world.add_name(bad), "{label}: add_name");
    assert!(!world.add_health(bad), "{label}: add_health");
    assert_eq!(world.remove_position(bad), None, "{label}: remove_position");
    assert_eq!(world.remove_name(bad), None, "{label}: remove_name");
    assert_eq!(world.remove_health(bad), None, "{label}: remove_health");
    assert!(
        !world.add_components(bad, POSITION | NAME | MARKED),
        "{label}"
    );
    assert!(
        !world.remove_components(bad, POSITION | NAME | MARKED),
        "{label}"
    );
    assert!(!world.add_marked(bad), "{label}: add_marked");
    assert!(!world.remove_marked(bad), "{label}: remove_marked");
    assert!(
        !world.mark_changed(bad, POSITION | NAME | HEALTH),
        "{label}: mark_changed"
    );
    assert!(!world.despawn(bad), "{label}: despawn");
    assert_eq!(
        world.despawn_entities(&[bad, bad]),
        Vec::<Entity>::new(),
        "{label}"
    );
    assert_eq!(snapshot(world), before, "{label}: the world changed");
    // Queued, then applied: every command is skipped.
    world
        .commands()
        .queue_set_position(bad, Position { x: 7.0, y: 7.0 });
    world.commands().queue_set_name(bad, Name("queued".into()));
    world.commands().queue_set_health(bad, Health(7));
    world.commands().queue_add_components(bad, HEALTH | MARKED);
    world
        .commands()
        .queue_remove_components(bad, POSITION | MARKED);
    world.commands().queue_add_marked(bad);
    world.commands().queue_remove_marked(bad);
    world.commands().queue_despawn(bad);
    assert_eq!(
        world.apply_commands(),
        CommandReport {
            applied: 0,
            skipped: 8
        },
        "{label}: apply_commands"
    );
    assert_eq!(snapshot(world), before, "{label}: the world changed");
    world.check_invariants().unwrap();
}

/// A `Home` with entities in three tables, one tagged, one despawned, one id recycled, and a
/// step taken and a write made after it (so change detection has something to report).
fn populated() -> (Home, Vec<Entity>) {
    let mut world = Home::new();
    let mut live = Vec::new();
    for i in 0..4 {
        let e = world.spawn(POSITION | NAME);
        world.set_position(
            e,
            Position {
                x: i as f32,
                y: 0.0,
            },
        );
        world.set_name(e, Name(format!("home{i}")));
        live.push(e);
    }
    live.push(world.spawn(HEALTH | MARKED));
    live.push(world.spawn(POSITION));
    let gone = live.remove(1);
    assert!(world.despawn(gone));
    live.push(world.spawn(NAME | HEALTH)); // recycles `gone`'s id
    world.step();
    world.set_health(live[3], Health(5));
    world.check_invariants().unwrap();
    (world, live)
}

#[test]
fn entity_default_is_refused_by_an_empty_world() {
    let mut world = Home::new();
    assert_refused(
        &mut world,
        Entity::default(),
        "Entity::default() before any spawn",
    );
    assert_refused(
        &mut world,
        Entity::PLACEHOLDER,
        "PLACEHOLDER before any spawn",
    );
    // Nor does id 0 exist before anything is spawned.
    assert_refused(&mut world, Entity::new(0, 0), "id 0 before any spawn");
    // The first spawn is not the placeholder, and the placeholder still resolves to nothing.
    let first = world.spawn(POSITION | MARKED);
    assert_ne!(first, Entity::default());
    assert_refused(
        &mut world,
        Entity::default(),
        "Entity::default() after a spawn",
    );
}

#[test]
fn entity_default_is_refused_by_a_populated_world() {
    let (mut world, _) = populated();
    assert_refused(&mut world, Entity::default(), "Entity::default()");
    // Every id and generation at the edges of `u32`.
    for (id, generation) in [
        (u32::MAX, 0),
        (u32::MAX - 1, 0),
        (0, u32::MAX),
        (1, u32::MAX - 1),
        (u32::MAX, 1),
    ] {
        let label = format!("({id}, {generation})");
        assert_refused(&mut world, Entity::new(id, generation), &label);
    }
}

#[test]
fn foreign_handles_past_the_end_are_refused() {
    let (mut home, _) = populated();
    let mut away = Away::new();
    let foreign = away.spawn_entities(AWAY_POSITION | AWAY_NAME, 500);
    // Ids past every id `home` issued.
    let issued = home.entity_index().id_count(home.records()) as u32;
    for &handle in foreign.iter().filter(|e| e.id >= issued).step_by(37) {
        assert_refused(&mut home, handle, &format!("foreign {handle}"));
    }
    assert_refused(
        &mut home,
        *foreign.last().unwrap(),
        "the last foreign handle",
    );
}

#[test]
fn foreign_handles_of_other_generations_are_refused() {
    let (mut home, live) = populated();
    let mut away = Away::new();
    // Churn `away`'s low ids so its handles carry generations `home` never reached.
    let mut handles = Vec::new();
    for _ in 0..6 {
        let batch = away.spawn_entities(AWAY_POSITION, 8);
        handles.extend(batch.iter().copied());
        away.despawn_entities(&batch);
    }
    let fresh = away.spawn_entities(AWAY_NAME, 8);
    for &handle in handles.iter().chain(&fresh) {
        let current = home.records().live_entity(handle.id);
        if current == Some(handle) {
            continue; // indistinguishable: see the last test
        }
        assert_refused(&mut home, handle, &format!("foreign {handle}"));
    }
    // `home`'s own entities are untouched by all of it.
    for &entity in &live {
        assert!(home.is_alive(entity));
    }
    assert_eq!(home.get_name(live[0]), Some(&Name("home0".into())));
}

#[test]
fn handles_of_a_foreign_world_never_reach_into_its_entities() {
    // The other direction: `home`'s handles in `away` (ids past its end) are refused there
    // too, by every accessor it has.
    let (home, live) = populated();
    let mut away = Away::new();
    let only = away.spawn(AWAY_POSITION);
    for &handle in live.iter().filter(|e| **e != only) {
        assert!(!away.is_alive(handle));
        assert_eq!(away.get_away_position(handle), None);
        assert_eq!(away.get_away_position_mut(handle), None);
        assert!(!away.set_away_name(handle, Name("x".into())));
        assert!(!away.add_components(handle, AWAY_NAME));
        assert_eq!(away.remove_away_position(handle), None);
        assert!(!away.despawn(handle));
    }
    away.check_invariants().unwrap();
    home.check_invariants().unwrap();
    assert_eq!(away.entity_count(), 1);
}

#[test]
fn despawned_recycled_and_reserved_handles_are_refused() {
    let (mut world, live) = populated();
    // Despawned, not recycled.
    let victim = live[0];
    assert!(world.despawn(victim));
    assert_refused(&mut world, victim, "despawned");
    // Stale: its id recycled at the next generation.
    let heir = world.spawn(POSITION);
    assert_eq!(heir.id, victim.id);
    assert_refused(&mut world, victim, "stale, id recycled");
    // The next generation of a live id, not issued yet.
    let future = Entity::new(heir.id, heir.generation + 1);
    assert_refused(&mut world, future, "future generation");
    // A reserved handle is not alive until its queued spawn is applied...
    let reserved = world.commands().queue_spawn_entities(POSITION, 1)[0];
    let before = snapshot(&world);
    assert!(!world.is_alive(reserved));
    assert_eq!(world.get_position(reserved), None);
    assert!(!world.set_position(reserved, Position { x: 1.0, y: 1.0 }));
    assert!(!world.add_marked(reserved));
    assert!(!world.despawn(reserved));
    assert_eq!(snapshot(&world), before);
    // ...and never, once the queue is cleared.
    world.clear_commands();
    assert_refused(&mut world, reserved, "released reservation");
}

/// The limitation, pinned down: a handle is only `(id, generation)`. `Away`'s first entity and
/// `Home`'s first entity are both `(0, 0)`, and `Home` cannot tell them apart. A game that
/// keeps several worlds keeps each world's handles with that world.
#[test]
fn a_foreign_handle_equal_to_a_live_local_one_is_that_local_entity() {
    let mut home = Home::new();
    let mut away = Away::new();
    let local = home.spawn(POSITION);
    let foreign = away.spawn(AWAY_POSITION | AWAY_NAME);
    let (here, there) = (Position { x: 1.0, y: 1.0 }, Position { x: 2.0, y: 2.0 });
    home.set_position(local, here);
    away.set_away_position(foreign, there);
    assert_eq!(local, foreign);
    assert!(home.is_alive(foreign));
    assert_eq!(
        home.get_position(foreign),
        Some(&here),
        "the handle reads Home's own entity, never Away's data"
    );
    assert_eq!(home.component_mask(foreign), Some(POSITION));
    assert_eq!(away.get_away_position(local), Some(&there));
}
