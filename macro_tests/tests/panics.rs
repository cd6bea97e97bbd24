//! Panic safety: a panic in user code called by the world (a closure given to an iterating
//! method, `spawn_batch`'s initialiser, a system run by a `Schedule`, and a component's own
//! `Default`, `Clone` or `Drop`) propagates to the caller, and leaves the world consistent:
//! `check_invariants` holds, every value written before the panic is there, no entity reads
//! another's data, and the world goes on spawning, migrating and despawning as usual.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

use archetypal::{Entity, Schedule, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, PartialEq)]
pub struct Name(pub String);

/// A component whose `Default`, `Clone` and `Drop` panic on demand (see [`arm`]).
#[derive(Debug, PartialEq)]
pub struct Fragile(pub u32);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Trap {
    Default,
    Clone,
    Drop,
}

thread_local! {
    /// The armed trap and how many more calls of that kind succeed before it fires.
    static FUSE: Cell<Option<(Trap, u32)>> = const { Cell::new(None) };
}

/// Arms `trap`: the call after `after` more successful calls of that kind panics, once.
fn arm(trap: Trap, after: u32) {
    FUSE.with(|fuse| fuse.set(Some((trap, after))));
}

fn disarm() {
    FUSE.with(|fuse| fuse.set(None));
}

/// Fires the trap if it is armed for `kind` and its count ran out.
fn spring(kind: Trap) {
    FUSE.with(|fuse| match fuse.get() {
        Some((trap, 0)) if trap == kind => {
            fuse.set(None);
            panic!("trap: {kind:?}");
        }
        Some((trap, after)) if trap == kind => fuse.set(Some((trap, after - 1))),
        _ => {}
    });
}

impl Default for Fragile {
    fn default() -> Self {
        spring(Trap::Default);
        Fragile(0)
    }
}

impl Clone for Fragile {
    fn clone(&self) -> Self {
        spring(Trap::Clone);
        Fragile(self.0)
    }
}

impl Drop for Fragile {
    fn drop(&mut self) {
        // A second panic while unwinding would abort the test binary.
        if !std::thread::panicking() {
            spring(Trap::Drop);
        }
    }
}

ecs! {
    World {
        position: Position => POSITION,
        fragile: Fragile => FRAGILE,
        name: Name => NAME,
    }
    Tags {
        marked => MARKED,
    }
    Events {
        ping: u32,
        crack: Fragile,
    }
}

/// The message of a panic payload (`panic!` with a literal or with a format).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

/// The panics this test raises itself: its traps and its closures.
const OWN_PANICS: [&str; 2] = ["trap: ", "user closure"];

/// Runs `f`, which must panic with one of this test's own panics (a trap or a closure's), so
/// an internal bug cannot pass for the expected panic. Expected panics print nothing.
fn must_panic(f: impl FnOnce()) {
    must_panic_with(&OWN_PANICS, f);
}

/// Runs `f`, which must panic with a message starting with one of `expected`.
fn must_panic_with(expected: &[&str], f: impl FnOnce()) {
    static QUIET: Once = Once::new();
    QUIET.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let message = panic_message(info.payload());
            let quiet = [
                "trap: ",
                "user closure",
                "capacity overflow",
                "archetypal: all u32",
            ];
            if !quiet.iter().any(|start| message.starts_with(start)) {
                default(info);
            }
        }));
    });
    let result = catch_unwind(AssertUnwindSafe(f));
    disarm();
    let Err(payload) = result else {
        panic!("the call was expected to panic");
    };
    let message = panic_message(&*payload);
    assert!(
        expected.iter().any(|start| message.starts_with(start)),
        "expected a panic starting with one of {expected:?}, got {message:?}"
    );
}

/// A world of a few tables: `POSITION | FRAGILE | NAME` (3 rows), `POSITION | NAME` (2 rows),
/// `POSITION` (2 rows), one entity tagged.
fn populated() -> (World, Vec<Entity>) {
    let mut world = World::new();
    let mut entities = Vec::new();
    for i in 0..3 {
        let entity = world.spawn(POSITION | FRAGILE | NAME);
        world.set_position(
            entity,
            Position {
                x: i as f32,
                y: 0.0,
            },
        );
        world.set_fragile(entity, Fragile(i));
        world.set_name(entity, Name(format!("f{i}")));
        entities.push(entity);
    }
    for i in 0..2 {
        let entity = world.spawn(POSITION | NAME);
        world.set_position(
            entity,
            Position {
                x: 10.0 + i as f32,
                y: 0.0,
            },
        );
        world.set_name(entity, Name(format!("n{i}")));
        entities.push(entity);
    }
    for i in 0..2 {
        let entity = world.spawn(POSITION);
        world.set_position(
            entity,
            Position {
                x: 20.0 + i as f32,
                y: 0.0,
            },
        );
        entities.push(entity);
    }
    world.add_marked(entities[1]);
    world.check_invariants().unwrap();
    (world, entities)
}

/// What a live entity holds: its handle, mask and every value.
type Row = (
    Entity,
    Option<u64>,
    Option<Position>,
    Option<u32>,
    Option<Name>,
);

/// Everything readable about every live entity, in id order.
fn dump(world: &World) -> Vec<Row> {
    world
        .entities()
        .collect::<Vec<_>>()
        .into_iter()
        .map(|e| {
            (
                e,
                world.component_mask(e),
                world.get_position(e).copied(),
                world.get_fragile(e).map(|f| f.0),
                world.get_name(e).cloned(),
            )
        })
        .collect()
}

/// The world is consistent and fully usable: the invariants hold, every live entity's row
/// holds it and reads back through every accessor, each table row agrees with the accessors,
/// and spawning, migrating and despawning still work (checked on a throwaway entity).
fn assert_usable(world: &mut World) {
    if let Err(error) = world.check_invariants() {
        panic!("after the panic: {error}");
    }
    let live = world.entities().collect::<Vec<_>>();
    assert_eq!(live.len(), world.entity_count());
    for table in world.tables() {
        for (row, &entity) in table.entities.iter().enumerate() {
            assert!(world.is_alive(entity));
            if table.mask & POSITION != 0 {
                assert_eq!(world.get_position(entity), Some(&table.position[row]));
            }
            if table.mask & FRAGILE != 0 {
                assert_eq!(world.get_fragile(entity), Some(&table.fragile[row]));
            }
            if table.mask & NAME != 0 {
                assert_eq!(world.get_name(entity), Some(&table.name[row]));
            }
        }
    }
    let probe = world.spawn(POSITION | FRAGILE | NAME | MARKED);
    assert!(world.set_position(probe, Position { x: -1.0, y: -1.0 }));
    assert!(world.remove_components(probe, FRAGILE));
    assert!(world.add_components(probe, FRAGILE));
    assert_eq!(
        world.get_position(probe),
        Some(&Position { x: -1.0, y: -1.0 })
    );
    let before = dump(world);
    assert!(world.despawn(probe));
    assert_eq!(dump(world).len(), before.len() - 1);
    world.check_invariants().unwrap();
}

// ----- user closures --------------------------------------------------------------------------

#[test]
fn panic_in_for_each_mut_keeps_earlier_writes_and_the_world_consistent() {
    let (mut world, _) = populated();
    let mut visited = Vec::new();
    must_panic(|| {
        world.for_each_mut(POSITION, 0, |entity, view, index| {
            if visited.len() == 4 {
                panic!("user closure");
            }
            view.position[index].y = 1.0;
            visited.push(entity);
        })
    });
    assert_eq!(visited.len(), 4);
    for entity in world.entities().collect::<Vec<_>>() {
        let y = world.get_position(entity).unwrap().y;
        assert_eq!(
            y,
            if visited.contains(&entity) { 1.0 } else { 0.0 },
            "{entity}"
        );
    }
    assert_usable(&mut world);
}

#[test]
fn panic_in_for_each_table_mut_and_the_query_builders() {
    let (mut world, _) = populated();
    must_panic(|| {
        world.for_each_table_mut(POSITION, 0, |view| {
            view.position[0].y = 2.0;
            if view.mask & NAME == 0 {
                panic!("user closure");
            }
        })
    });
    assert_usable(&mut world);
    must_panic(|| world.for_each_mut(NAME, FRAGILE, |_, _, _| panic!("user closure")));
    assert_usable(&mut world);
    // Tag filters cut tables into runs of rows: a panic in the middle of one.
    must_panic(|| world.for_each_table_mut(MARKED, 0, |_| panic!("user closure")));
    assert_usable(&mut world);
    must_panic(|| world.for_each(POSITION, 0, |_, _, _| panic!("user closure")));
    assert_usable(&mut world);
}

#[test]
fn panic_in_par_for_each_mut_propagates_and_keeps_the_world_consistent() {
    let (mut world, _) = populated();
    world.spawn_batch(POSITION, 5_000, |view, index| {
        view.position[index].x = index as f32
    });
    must_panic(|| {
        world.par_for_each_mut(POSITION, 0, |_, view, index| {
            view.position[index].y += 1.0;
            if view.position[index].x == 2_500.0 {
                panic!("user closure");
            }
        })
    });
    assert_usable(&mut world);
}

#[test]
fn panic_in_changed_passes() {
    let (mut world, entities) = populated();
    world.step();
    world.set_position(entities[3], Position { x: 3.0, y: 3.0 });
    let since = world.last_tick();
    must_panic(|| {
        world
            .typed_query::<&mut Position>()
            .changed_since(POSITION, since)
            .for_each(|_| panic!("user closure"))
    });
    assert_usable(&mut world);
    must_panic(|| {
        world
            .typed_query_ref::<Entity>()
            .changed_since(POSITION, since)
            .for_each(|_| panic!("user closure"))
    });
    assert_usable(&mut world);
    // The change was not lost: it is still reported.
    let changed: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .changed_since(POSITION, since)
        .iter()
        .collect();
    assert!(changed.contains(&entities[3]));
}

#[test]
fn panic_while_writing_through_get_mut_keeps_the_partial_write() {
    let (mut world, entities) = populated();
    must_panic(|| {
        if let Some(name) = world.get_name_mut(entities[0]) {
            name.0.push('!');
            panic!("user closure");
        }
    });
    assert_eq!(world.get_name(entities[0]), Some(&Name("f0!".into())));
    must_panic(|| {
        if world.get_position_mut(entities[5]).is_some() {
            panic!("user closure");
        }
    });
    assert_usable(&mut world);
}

#[test]
fn panic_in_spawn_batch_init_leaves_every_new_row_spawned() {
    let (mut world, _) = populated();
    let before = world.entity_count();
    must_panic(|| {
        world.spawn_batch(POSITION | NAME, 4, |view, index| {
            view.name[index] = Name(format!("batch{index}"));
            if view
                .name
                .iter()
                .filter(|n| n.0.starts_with("batch"))
                .count()
                == 2
            {
                panic!("user closure");
            }
        });
    });
    // The rows were placed before `init` ran: all four exist, two initialised, two default.
    assert_eq!(world.entity_count(), before + 4);
    let names: Vec<String> = world
        .typed_query_ref::<&Name>()
        .iter()
        .filter(|n| n.0.starts_with("batch") || n.0.is_empty())
        .map(|n| n.0.clone())
        .collect();
    assert_eq!(names.len(), 4, "{names:?}");
    assert_usable(&mut world);
}

#[test]
fn panic_in_a_scheduled_system_stops_the_run_and_keeps_the_world_consistent() {
    let (mut world, _) = populated();
    let mut schedule: Schedule<World> = Schedule::new();
    schedule
        .push("move", |world: &mut World| {
            world.for_each_mut(POSITION, 0, |_, view, index| view.position[index].y += 1.0)
        })
        .unwrap()
        .push("explode", |world: &mut World| {
            world.spawn(NAME);
            panic!("user closure");
        })
        .unwrap()
        .push("never", |world: &mut World| {
            world.spawn(POSITION);
        })
        .unwrap();
    let before = world.entity_count();
    must_panic(|| {
        schedule.run(&mut world);
    });
    assert_eq!(world.entity_count(), before + 1, "`never` did not run");
    assert!(
        world
            .typed_query_ref::<&Position>()
            .iter()
            .all(|p| p.y == 1.0)
    );
    assert_usable(&mut world);
    // The schedule itself is intact and runs again.
    assert_eq!(schedule.len(), 3);
    assert!(schedule.remove("explode"));
    schedule.run(&mut world);
    assert_usable(&mut world);
}

/// Systems of one parallel batch: two that write disjoint columns, one of which panics. Where
/// it runs (the calling thread takes the batch's first system, rayon's threads the others)
/// must not matter: the panic reaches the caller after the batch, every column lent to the
/// batch is back, and the other system's writes are there.
#[test]
fn panic_in_a_system_of_a_parallel_batch_keeps_the_world_consistent() {
    fn lift(mut positions: Query<&mut Position>) {
        positions.for_each(|mut position| position.y += 1.0);
    }
    fn explode(names: Query<&Name>) {
        if names.count() > 0 {
            panic!("user system");
        }
    }
    for explode_first in [true, false] {
        let (mut world, _) = populated();
        let mut schedule: Schedule<World> = Schedule::new();
        schedule.set_parallel(true);
        if explode_first {
            schedule.add(archetypal::together((explode, lift)));
        } else {
            schedule.add(archetypal::together((lift, explode)));
        }
        let caught = catch_unwind(AssertUnwindSafe(|| schedule.run(&mut world)));
        assert_eq!(schedule.batches().len(), 1, "one batch of two");
        let payload = caught.expect_err("the panic reaches the caller");
        assert_eq!(panic_message(&*payload), "user system");
        assert!(
            world
                .typed_query_ref::<&Position>()
                .iter()
                .all(|p| p.y == 1.0),
            "the other system of the batch ran (explode first: {explode_first})"
        );
        assert_usable(&mut world);
    }
}

#[test]
fn panic_while_reading_events_or_slices() {
    let (mut world, _) = populated();
    world.events.ping.send(1);
    world.events.ping.send(2);
    let mut cursor = archetypal::EventCursor::new();
    must_panic(|| {
        if let Some(ping) = world.events.ping.consume(&mut cursor).iter().next() {
            panic!("user closure: {ping}");
        }
    });
    // `consume` moved the cursor before the events were iterated.
    assert!(world.events.ping.consume(&mut cursor).is_empty());
    must_panic(|| {
        world.for_each_table_mut(NAME, 0, |table| {
            table.name[0].0.push('?');
            panic!("user closure");
        });
    });
    assert_usable(&mut world);
}

// ----- component impls ------------------------------------------------------------------------

#[test]
fn panic_in_component_clone_during_builder_spawn() {
    let (mut world, _) = populated();
    let before = world.entity_count();
    arm(Trap::Clone, 2);
    must_panic(|| {
        EntityBuilder::new()
            .with_fragile(Fragile(7))
            .with_name(Name("built".into()))
            .spawn(&mut world, 5);
    });
    // The rows are pushed whole, one copy each: a copy that panics spawns none of them.
    assert_eq!(world.entity_count(), before);
    assert_eq!(
        world
            .typed_query_ref::<&Fragile>()
            .iter()
            .filter(|f| f.0 == 7)
            .count(),
        0
    );
    assert_usable(&mut world);
}

#[test]
fn panic_in_component_default_during_spawn_leaves_no_half_row() {
    for after in 0..3 {
        let (mut world, entities) = populated();
        let before = dump(&world);
        arm(Trap::Default, after);
        must_panic(|| {
            world.spawn_entities(POSITION | FRAGILE | NAME, 3);
        });
        assert_usable(&mut world);
        // Nothing was spawned, and the old entities are untouched.
        assert_eq!(
            dump(&world),
            before,
            "a spawn that panicked spawned nothing"
        );
        assert_eq!(world.entities().collect::<Vec<_>>().len(), entities.len());
        let mut world2 = World::new();
        arm(Trap::Default, after);
        must_panic(|| {
            world2.spawn(FRAGILE);
            world2.spawn(FRAGILE);
            world2.spawn(FRAGILE);
        });
        assert_usable(&mut world2);
    }
}

#[test]
fn panic_in_component_default_during_a_migration_leaves_the_entity_where_it_was() {
    let (mut world, entities) = populated();
    let before = dump(&world);
    // entities[3] is `POSITION | NAME`; adding FRAGILE needs a default value.
    arm(Trap::Default, 0);
    must_panic(|| {
        world.add_components(entities[3], FRAGILE | MARKED);
    });
    assert_usable(&mut world);
    assert_eq!(dump(&world), before, "nothing changed");
    arm(Trap::Default, 0);
    must_panic(|| {
        world.add_fragile(entities[5]);
    });
    assert_usable(&mut world);
    assert_eq!(dump(&world), before, "nothing changed");
    // `set_fragile` on an entity without one migrates first (the default is overwritten).
    arm(Trap::Default, 0);
    must_panic(|| {
        world.set_fragile(entities[6], Fragile(9));
    });
    assert_usable(&mut world);
    assert_eq!(dump(&world), before, "nothing changed");
}

#[test]
fn panic_in_component_drop_during_despawn_still_despawns() {
    let (mut world, entities) = populated();
    arm(Trap::Drop, 0);
    must_panic(|| {
        world.despawn(entities[0]);
    });
    assert_usable(&mut world);
    assert!(!world.is_alive(entities[0]));
    // The entity swapped into its row reads its own values.
    assert_eq!(world.get_fragile(entities[2]), Some(&Fragile(2)));
    assert_eq!(world.get_name(entities[2]), Some(&Name("f2".into())));
    assert_eq!(world.get_fragile(entities[1]), Some(&Fragile(1)));
}

#[test]
fn panic_in_component_drop_during_a_migration_still_migrates() {
    let (mut world, entities) = populated();
    arm(Trap::Drop, 0);
    must_panic(|| {
        world.remove_components(entities[0], FRAGILE);
    });
    assert_usable(&mut world);
    assert_eq!(world.component_mask(entities[0]), Some(POSITION | NAME));
    assert_eq!(world.get_name(entities[0]), Some(&Name("f0".into())));
    assert_eq!(world.get_fragile(entities[2]), Some(&Fragile(2)));
    // `remove_fragile` hands the value out; dropping it is the caller's business.
    arm(Trap::Drop, 0);
    must_panic(|| {
        world.remove_fragile(entities[1]);
    });
    assert_usable(&mut world);
    assert_eq!(
        world.component_mask(entities[1]),
        Some(POSITION | NAME | MARKED)
    );
    // `set_fragile` on an entity that has one drops the old value after writing the new.
    arm(Trap::Drop, 0);
    must_panic(|| {
        world.set_fragile(entities[2], Fragile(22));
    });
    assert_usable(&mut world);
    assert_eq!(world.get_fragile(entities[2]), Some(&Fragile(22)));
}

#[test]
fn panic_in_apply_commands_keeps_the_world_consistent() {
    let (mut world, entities) = populated();
    world
        .commands()
        .queue_set_name(entities[0], Name("queued".into()));
    world.commands().queue_add_components(entities[4], FRAGILE); // its default panics
    world.commands().queue_despawn(entities[5]);
    let reserved = world.commands().queue_spawn_entities(POSITION, 1);
    arm(Trap::Default, 0);
    must_panic(|| {
        world.apply_commands();
    });
    assert_usable(&mut world);
    // The commands before the panic were applied, the one that panicked did nothing, the ones
    // after it stay queued (their reservation still held) and apply next time.
    assert_eq!(world.get_name(entities[0]), Some(&Name("queued".into())));
    assert_eq!(world.component_mask(entities[4]), Some(POSITION | NAME));
    assert!(world.is_alive(entities[5]));
    assert!(!world.is_alive(reserved[0]));
    assert_eq!(world.command_count(), 2);
    let report = world.apply_commands();
    assert_eq!((report.applied, report.skipped), (2, 0));
    assert!(!world.is_alive(entities[5]));
    assert!(world.is_alive(reserved[0]));
    assert_usable(&mut world);
}

#[test]
fn commands_queued_before_a_restore_that_panics_reach_no_later_entity() {
    let (source, _) = populated();
    let (mut world, entities) = populated();
    // Queued against this world's entities, whose ids a fresh world would issue again.
    world
        .commands()
        .queue_set_name(entities[0], Name("stale".into()));
    world.commands().queue_despawn(entities[1]);
    world.commands().queue_add_components(entities[2], MARKED);
    arm(Trap::Clone, 1);
    must_panic(|| world.restore(&source));
    assert_usable(&mut world);
    assert_eq!(world.entity_count(), 0, "emptied, as documented");
    assert_eq!(world.command_count(), 0, "the queue went with the world");
    // New entities, and neither an old queued command nor an old handle reaches them.
    let fresh = world.spawn_entities(POSITION | NAME, 10);
    let report = world.apply_commands();
    assert_eq!(report.total(), 0);
    for &old in entities
        .iter()
        .chain(&source.entities().collect::<Vec<_>>())
    {
        assert!(!world.is_alive(old), "{old} was issued before the restore");
        assert!(!fresh.contains(&old), "{old} issued again");
    }
    for &entity in &fresh {
        assert_eq!(world.get_name(entity), Some(&Name::default()));
        assert_eq!(world.component_mask(entity), Some(POSITION | NAME));
    }
    assert_usable(&mut world);
}

#[test]
fn a_drop_that_panics_in_remove_components_still_removes_the_tags() {
    let (mut world, entities) = populated();
    world.add_marked(entities[0]);
    arm(Trap::Drop, 0);
    must_panic(|| {
        world.remove_components(entities[0], FRAGILE | MARKED);
    });
    assert_usable(&mut world);
    assert_eq!(world.component_mask(entities[0]), Some(POSITION | NAME));
    assert!(!world.has_marked(entities[0]));
}

#[test]
fn a_drop_that_panics_while_removing_several_components_drops_them_all_and_migrates() {
    let (mut world, entities) = populated();
    // Fragile's bit comes before Name's: its `Drop` panics first, Name is dropped on the way
    // out, and the rows left behind keep their own values.
    arm(Trap::Drop, 0);
    must_panic(|| {
        world.remove_components(entities[0], FRAGILE | NAME);
    });
    assert_usable(&mut world);
    assert_eq!(world.component_mask(entities[0]), Some(POSITION));
    assert_eq!(
        world.get_position(entities[0]),
        Some(&Position { x: 0.0, y: 0.0 })
    );
    assert_eq!(world.get_name(entities[0]), None);
    for index in [1, 2] {
        assert_eq!(
            world.get_fragile(entities[index]),
            Some(&Fragile(index as u32))
        );
        assert_eq!(
            world.get_name(entities[index]),
            Some(&Name(format!("f{index}")))
        );
    }
    let table = world.find_table(POSITION | FRAGILE | NAME).unwrap();
    let table = &world.tables()[table];
    assert_eq!(
        (table.entities.len(), table.fragile.len(), table.name.len()),
        (2, 2, 2),
        "both removed values were dropped, none of the others"
    );
}

mod multi {
    use super::{Fragile, Name};

    archetypal::ecs! {
        Game {
            Core {
                fragile: Fragile => FRAGILE,
            }
            Render {
                name: Name => NAME,
            }
        }
    }
}

#[test]
fn a_drop_that_panics_in_a_multi_world_despawn_despawns_everywhere() {
    use multi::*;
    let mut game = Game::new();
    let entities: Vec<Entity> = (0..4).map(|_| game.spawn()).collect();
    for (i, &entity) in entities.iter().enumerate() {
        game.core.set_fragile(entity, Fragile(i as u32));
        game.render.set_name(entity, Name(format!("n{i}")));
    }
    arm(Trap::Drop, 0);
    must_panic(|| {
        game.despawn(entities[1]);
    });
    game.check_invariants().unwrap();
    assert!(!game.is_alive(entities[1]));
    assert_eq!(game.render.get_name(entities[1]), None);
    assert_eq!(game.render.entity_count(), 3);
    // `despawn_entities`: the panicking entity is despawned everywhere, and so are the others.
    arm(Trap::Drop, 0);
    must_panic(|| {
        game.despawn_entities(&[entities[0], entities[2]]);
    });
    game.check_invariants().unwrap();
    for entity in [entities[0], entities[2]] {
        assert!(!game.is_alive(entity));
        assert_eq!(game.render.get_name(entity), None);
    }
    assert_eq!(game.render.get_name(entities[3]), Some(&Name("n3".into())));
    // The game goes on, every sub-world in step.
    let next = game.spawn();
    game.render.set_name(next, Name("next".into()));
    game.check_invariants().unwrap();
    assert_eq!(game.render.get_name(next), Some(&Name("next".into())));
}

#[test]
fn panic_in_an_event_drop_while_events_expire_loses_no_later_event() {
    let mut world = World::new();
    world.events.crack.send(Fragile(1));
    world.events.crack.send(Fragile(2));
    let mut cursor = archetypal::EventCursor::new();
    assert_eq!(world.events.crack.consume(&mut cursor).len(), 2);
    world.step();
    arm(Trap::Drop, 0);
    // The second step expires the first frame's events; dropping one panics.
    must_panic(|| world.step());
    assert!(world.events.crack.is_empty());
    // Later events are numbered after the expired ones: the cursor that read those gets them.
    world.events.crack.send(Fragile(3));
    let consumed = world.events.crack.consume(&mut cursor);
    let got: Vec<u32> = consumed.iter().map(|event| event.0).collect();
    assert_eq!((got, consumed.lost()), (vec![3], 0));
    assert_usable(&mut world);
}

#[test]
fn a_count_too_large_for_a_vec_panics_before_changing_anything() {
    let (mut world, _) = populated();
    let before = dump(&world);
    // More handles than there are ids: refused before any is issued.
    must_panic_with(&["archetypal: all u32 entity ids are in use"], || {
        world.spawn_entities(POSITION, usize::MAX);
    });
    must_panic_with(&["capacity overflow"], || {
        world.commands().queue_spawn_entities(POSITION, usize::MAX);
    });
    assert_eq!(dump(&world), before);
    assert_eq!(world.command_count(), 0);
    assert_usable(&mut world);
}

// ----- the rest of the README's panic table -------------------------------------------------

#[test]
fn panic_in_a_typed_query_or_the_read_only_query_builder() {
    let (mut world, _) = populated();
    let mut written = 0;
    must_panic(|| {
        world
            .typed_query::<(&mut Position, &Name)>()
            .for_each(|(mut position, _)| {
                if written == 3 {
                    panic!("user closure");
                }
                position.y = 5.0;
                written += 1;
            })
    });
    assert_eq!(written, 3);
    let fives = world
        .typed_query_ref::<&Position>()
        .iter()
        .filter(|p| p.y == 5.0)
        .count();
    assert_eq!(
        fives, 3,
        "the rows written before the panic keep their values"
    );
    assert_usable(&mut world);
    must_panic(|| world.for_each(POSITION, FRAGILE, |_, _, _| panic!("user closure")));
    assert_usable(&mut world);
}

#[test]
fn a_default_that_panics_in_batch_spawns_spawns_nothing() {
    for after in 0..3 {
        let (mut world, _) = populated();
        let before = dump(&world);
        arm(Trap::Default, after);
        must_panic(|| {
            world.spawn_batch(POSITION | FRAGILE, 3, |view, row| {
                view.position[row].x = 99.0;
            });
        });
        assert_eq!(dump(&world), before, "spawn_batch spawned nothing");
        assert_usable(&mut world);
        // The builder pushes a default for a component of its mask it holds no value for.
        arm(Trap::Default, after);
        must_panic(|| {
            EntityBuilder::new()
                .with_name(Name("built".into()))
                .with_mask(FRAGILE)
                .spawn(&mut world, 3);
        });
        assert_eq!(dump(&world), before, "the builder spawned nothing");
        assert_usable(&mut world);
    }
}

#[test]
fn a_default_that_panics_in_remove_leaves_the_entity_where_it_was() {
    let (mut world, entities) = populated();
    let before = dump(&world);
    // `remove_fragile` hands the value out and leaves a default in its place first.
    arm(Trap::Default, 0);
    must_panic(|| {
        world.remove_fragile(entities[0]);
    });
    assert_eq!(dump(&world), before, "nothing changed");
    assert_usable(&mut world);
}

#[test]
fn a_drop_that_panics_in_despawn_entities_despawns_them_all() {
    let (mut world, entities) = populated();
    arm(Trap::Drop, 0);
    must_panic(|| {
        world.despawn_entities(&[entities[0], entities[3], entities[1]]);
    });
    for entity in [entities[0], entities[3], entities[1]] {
        assert!(!world.is_alive(entity), "{entity} despawned");
    }
    assert_eq!(world.get_fragile(entities[2]), Some(&Fragile(2)));
    assert_usable(&mut world);
}

#[test]
fn a_drop_that_panics_in_apply_commands_keeps_the_rest_queued() {
    let (mut world, entities) = populated();
    world.commands().queue_despawn(entities[0]); // its `Fragile` panics when dropped
    world
        .commands()
        .queue_set_name(entities[1], Name("after".into()));
    arm(Trap::Drop, 0);
    must_panic(|| {
        world.apply_commands();
    });
    assert!(!world.is_alive(entities[0]), "the despawn is done");
    assert_eq!(world.command_count(), 1);
    assert_eq!(world.apply_commands().applied, 1);
    assert_eq!(world.get_name(entities[1]), Some(&Name("after".into())));
    assert_usable(&mut world);
}

#[test]
fn an_event_drop_that_panics_in_clear_or_a_bounded_send_loses_no_later_event() {
    let mut world = World::new();
    let mut cursor = archetypal::EventCursor::new();
    // Read once: from now on the cursor counts what it misses.
    assert!(world.events.crack.consume(&mut cursor).is_empty());
    for i in 0..3 {
        world.events.crack.send(Fragile(i));
    }
    arm(Trap::Drop, 1);
    must_panic(|| world.events.crack.clear());
    assert!(world.events.crack.is_empty(), "every event is cleared");
    world.events.crack.send(Fragile(10));
    let consumed = world.events.crack.consume(&mut cursor);
    let got: Vec<u32> = consumed.iter().map(|event| event.0).collect();
    assert_eq!((got, consumed.lost()), (vec![10], 3));

    world.events.crack = archetypal::EventChannel::with_capacity_limit(2);
    world.events.crack.send(Fragile(20));
    world.events.crack.send(Fragile(21));
    arm(Trap::Drop, 0);
    // Full: the oldest (20) is trimmed, and its drop panics.
    must_panic(|| {
        world.events.crack.send(Fragile(22));
    });
    let stored: Vec<u32> = world.events.crack.read().map(|event| event.0).collect();
    assert_eq!(stored, vec![21, 22], "the new event is stored");
    assert_usable(&mut world);
}

#[test]
fn a_clone_that_panics_in_collect_or_clone_changes_nothing() {
    let (mut world, entities) = populated();
    world.events.crack.send(Fragile(1));
    world.events.crack.send(Fragile(2));
    arm(Trap::Clone, 1);
    must_panic(|| {
        world.events.crack.collect();
    });
    assert_eq!(world.events.crack.len(), 2);
    let before = dump(&world);
    for after in [0, 2, 4] {
        arm(Trap::Clone, after);
        must_panic(|| {
            let _copy = world.clone();
        });
        assert_eq!(dump(&world), before, "the original is untouched");
    }
    assert_eq!(world.get_fragile(entities[2]), Some(&Fragile(2)));
    assert_usable(&mut world);
}

#[test]
fn a_drop_that_panics_in_clear_commands_still_empties_the_queue() {
    let (mut world, entities) = populated();
    let reserved = world.commands().queue_spawn_entities(POSITION, 2);
    world.commands().queue_set_fragile(entities[3], Fragile(30));
    world.commands().queue_set_fragile(entities[4], Fragile(40));
    let mut twin = world.clone(); // gives the reservations back as `clear_commands` must
    arm(Trap::Drop, 0);
    must_panic(|| world.clear_commands());
    assert_eq!(world.command_count(), 0);
    for entity in reserved {
        assert!(!world.is_alive(entity));
    }
    assert_eq!(world.apply_commands().total(), 0);
    assert_eq!(world.spawn(POSITION), twin.spawn(POSITION));
    assert_usable(&mut world);
}

#[test]
fn a_drop_that_panics_in_a_multi_world_apply_commands_keeps_the_rest_queued() {
    use multi::*;
    let mut game = Game::new();
    let entities: Vec<Entity> = (0..3).map(|_| game.spawn()).collect();
    for (i, &entity) in entities.iter().enumerate() {
        game.core.set_fragile(entity, Fragile(i as u32));
    }
    game.commands().queue_despawn(entities[0]); // its `Fragile` panics when dropped
    game.commands().queue_despawn(entities[1]);
    arm(Trap::Drop, 0);
    must_panic(|| {
        game.apply_commands();
    });
    game.check_invariants().unwrap();
    assert!(!game.is_alive(entities[0]));
    assert!(game.is_alive(entities[1]), "not reached yet");
    assert_eq!(game.command_count(), 1, "the despawn after it stays queued");
    assert_eq!(game.apply_commands().applied, 1);
    assert!(!game.is_alive(entities[1]));
    game.check_invariants().unwrap();
}

#[test]
fn after_a_restore_that_panics_change_consumers_miss_nothing() {
    let (source, _) = populated();
    let (mut world, _) = populated();
    world.enable_change_log(64);
    for _ in 0..5 {
        world.step();
    }
    // A consumer of changed rows and one of the change log, both up to date.
    let seen_at = world.current_tick();
    world.increment_tick();
    let mut changes = world.change_cursor();
    arm(Trap::Clone, 1);
    must_panic(|| world.restore(&source));
    let spawned = world.spawn(POSITION);
    let changed: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .changed_since(POSITION, seen_at)
        .iter()
        .collect();
    assert_eq!(
        changed,
        vec![spawned],
        "a write after the panic is a change"
    );
    let consumed = world.consume_changes(&mut changes);
    let logged: Vec<_> = consumed.iter().copied().collect();
    assert_eq!(
        logged,
        vec![archetypal::StructuralChange::Spawned {
            entity: spawned,
            mask: POSITION
        }],
        "the log goes on recording, after the entries it had"
    );
    assert_usable(&mut world);
}
