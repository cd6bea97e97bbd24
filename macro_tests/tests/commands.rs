//! Command buffers: structural changes queued now, applied later in order; commands whose
//! entity died in between are skipped and counted, never a panic.

use archetypal::{CommandReport, Entity, LifecycleCommand, StructuralCommand};

#[derive(Default, Debug, Clone, PartialEq)]
pub struct Position {
    pub x: i32,
}

#[derive(Default, Debug, Clone, PartialEq)]
pub struct Name(pub String);

archetypal::ecs! {
    World {
        position: Position => POSITION,
        name: Name => NAME,
    }
    Tags {
        enemy => ENEMY,
    }
}

fn report(applied: usize, skipped: usize) -> CommandReport {
    CommandReport { applied, skipped }
}

#[test]
fn commands_wait_for_apply_and_run_in_order() {
    let mut world = World::new();
    let entity = world.spawn(POSITION);
    world
        .commands()
        .queue_set_position(entity, Position { x: 1 });
    world
        .commands()
        .queue_set_position(entity, Position { x: 2 });
    world
        .commands()
        .queue_set_name(entity, Name("second".into()));
    world.commands().queue_add_enemy(entity);
    assert_eq!(world.command_count(), 4);
    assert_eq!(
        world.get_position(entity),
        Some(&Position { x: 0 }),
        "nothing applied yet"
    );
    assert!(!world.has_enemy(entity));

    assert_eq!(world.apply_commands(), report(4, 0));
    assert_eq!(world.command_count(), 0);
    assert_eq!(
        world.get_position(entity),
        Some(&Position { x: 2 }),
        "the later set wins"
    );
    assert_eq!(
        world.get_name(entity),
        Some(&Name("second".into())),
        "set adds the component"
    );
    assert!(world.has_enemy(entity));
    assert_eq!(
        world.apply_commands(),
        report(0, 0),
        "the queue was emptied"
    );
    world.check_invariants().unwrap();
}

#[test]
fn commands_on_entities_despawned_before_apply_are_skipped() {
    let mut world = World::new();
    let doomed = world.spawn(POSITION);
    let survivor = world.spawn(POSITION);
    world
        .commands()
        .queue_set_position(doomed, Position { x: 5 });
    world.commands().queue_add_components(doomed, NAME | ENEMY);
    world.commands().queue_despawn(doomed);
    world
        .commands()
        .queue_set_position(doomed, Position { x: 6 });
    world.commands().queue_despawn(doomed);
    world.commands().queue_remove_components(survivor, POSITION);
    world.despawn(survivor);
    // The id of `survivor` is recycled: its stale handle must not reach the newcomer.
    let newcomer = world.spawn(POSITION);
    assert_eq!(newcomer.id, survivor.id);

    assert_eq!(world.apply_commands(), report(3, 3));
    assert!(!world.is_alive(doomed));
    assert_eq!(world.get_position(newcomer), Some(&Position { x: 0 }));
    assert_eq!(world.component_mask(newcomer), Some(POSITION));
    world.check_invariants().unwrap();
}

#[test]
fn queued_spawns_hand_out_handles_that_later_commands_can_target() {
    let mut world = World::new();
    let spawned = world.commands().queue_spawn_entities(POSITION | ENEMY, 3);
    assert_eq!(spawned.len(), 3);
    for &entity in &spawned {
        assert!(!world.is_alive(entity), "not alive before apply");
        assert_eq!(world.get_position(entity), None);
        world.commands().queue_set_position(
            entity,
            Position {
                x: entity.id as i32 + 10,
            },
        );
    }
    // A spawn made meanwhile does not take a reserved id.
    let direct = world.spawn(NAME);
    assert!(spawned.iter().all(|entity| entity.id != direct.id));
    assert_eq!(world.entity_count(), 1);

    assert_eq!(world.apply_commands(), report(4, 0));
    assert_eq!(world.entity_count(), 4);
    for &entity in &spawned {
        assert!(world.has_enemy(entity));
        assert_eq!(
            world.get_position(entity),
            Some(&Position {
                x: entity.id as i32 + 10
            })
        );
    }
    world.check_invariants().unwrap();
}

#[test]
fn clearing_commands_releases_reserved_handles() {
    let mut world = World::new();
    let entity = world.spawn(POSITION);
    let reserved = world.commands().queue_spawn_entities(POSITION, 2);
    world.commands().queue_despawn(entity);
    world.clear_commands();
    assert_eq!(world.command_count(), 0);
    assert_eq!(world.apply_commands(), report(0, 0));
    assert!(world.is_alive(entity), "the despawn was dropped");
    let recycled = world.spawn(POSITION);
    assert!(
        reserved.iter().any(|old| old.id == recycled.id),
        "released ids are recycled"
    );
    for &old in &reserved {
        assert!(
            !world.is_alive(old),
            "a released reservation never becomes alive"
        );
        assert!(!world.set_position(old, Position { x: 1 }));
    }
    world.check_invariants().unwrap();
}

#[test]
fn commands_with_bad_handles_never_panic() {
    let mut world = World::new();
    let handles = [
        Entity::default(),
        Entity::new(9_999, 0),
        Entity::PLACEHOLDER,
    ];
    for entity in handles {
        world
            .commands()
            .queue_set_position(entity, Position { x: 1 });
        world.commands().queue_add_components(entity, NAME);
        world.commands().queue_remove_components(entity, POSITION);
        world.commands().queue_add_enemy(entity);
        world.commands().queue_remove_enemy(entity);
        world.commands().queue_despawn(entity);
    }
    assert_eq!(world.apply_commands(), report(0, 18));
    assert_eq!(world.entity_count(), 0);
    assert_eq!(
        world.archetype_count(),
        0,
        "no table was created for a dead handle"
    );
}

#[test]
fn queued_commands_are_visible_in_order() {
    let mut world = World::new();
    let entity = world.spawn(POSITION);
    world.commands().queue_despawn(entity);
    world.commands().queue_add_components(entity, NAME);
    match &world.queued_commands()[..] {
        [
            Command::Lifecycle(LifecycleCommand::Despawn(first)),
            Command::Structural(StructuralCommand::AddComponents(second, mask)),
        ] => {
            assert_eq!((*first, *second, *mask), (entity, entity, NAME));
        }
        _ => panic!("unexpected queue"),
    }
    assert_eq!(world.apply_commands(), report(1, 1));
}

#[test]
fn a_queued_spawn_with_values_comes_alive_with_them_and_can_be_targeted() {
    let mut world = World::new();
    let first = world.commands().queue_spawn(
        EntityBuilder::new()
            .with_position(Position { x: 1 })
            .with_name(Name("first".into())),
    );
    assert!(!world.is_alive(first), "not alive before apply");
    assert_eq!(world.get_position(first), None);
    // Commands on the reserved handle, queued after it, land after it.
    world.commands().queue_add_enemy(first);
    world
        .commands()
        .queue_set_position(first, Position { x: 5 });
    // A spawn made meanwhile does not take the reserved id.
    let direct = world.spawn(NAME);
    assert_ne!(direct.id, first.id);

    assert_eq!(world.apply_commands(), report(3, 0));
    assert!(world.has_enemy(first));
    assert_eq!(world.get_position(first), Some(&Position { x: 5 }));
    assert_eq!(world.get_name(first), Some(&Name("first".into())));
    assert_eq!(world.component_mask(first), Some(POSITION | NAME | ENEMY));
    world.check_invariants().unwrap();
}

#[test]
fn consecutive_queued_spawns_of_one_mask_are_one_batch_and_each_is_counted() {
    let mut world = World::new();
    let mut commands = world.commands();
    let at = |x| EntityBuilder::new().with_position(Position { x });
    let spawned: Vec<Entity> = (0..4).map(|x| commands.queue_spawn(at(x))).collect();
    let named = commands.queue_spawn(at(9).with_name(Name("n".into())));
    let last = commands.queue_spawn(at(10));
    let queued = world.queued_commands();
    match &queued[..] {
        [
            Command::Lifecycle(LifecycleCommand::SpawnBuilt { mask: a, count: 4 }),
            Command::Lifecycle(LifecycleCommand::SpawnBuilt { mask: b, count: 1 }),
            Command::Lifecycle(LifecycleCommand::SpawnBuilt { mask: c, count: 1 }),
        ] => assert_eq!((*a, *b, *c), (POSITION, POSITION | NAME, POSITION)),
        queue => panic!("unexpected queue of {} entries", queue.len()),
    }
    let staged: Vec<(Entity, Mask)> = queued.spawns().collect();
    let mut expected: Vec<(Entity, Mask)> = spawned.iter().map(|&e| (e, POSITION)).collect();
    expected.extend([(last, POSITION), (named, POSITION | NAME)]);
    assert_eq!(
        staged, expected,
        "each handle with its builder's mask, grouped by mask, in the order queued within each"
    );
    assert_eq!(world.command_count(), 3, "entries, not spawns");
    assert_eq!(world.apply_commands(), report(6, 0), "each spawn counts");
    let xs: Vec<i32> = spawned
        .iter()
        .map(|&entity| world.get_position(entity).unwrap().x)
        .collect();
    assert_eq!(xs, [0, 1, 2, 3]);
    assert_eq!(world.get_name(named), Some(&Name("n".into())));
    assert_eq!(world.get_position(last), Some(&Position { x: 10 }));
    world.check_invariants().unwrap();
}

#[test]
fn queued_spawns_with_values_from_inside_loops() {
    let mut world = World::new();
    let parents = world.spawn_batch(POSITION, 3, |table, row| {
        table.position[row] = Position { x: row as i32 };
    });
    // From a typed query's loop: one child per parent, each targeted by a later command.
    let mut parts = world.split_mut();
    parts
        .components
        .typed_query::<(Entity, &mut Position)>()
        .for_each(|(entity, mut position)| {
            position.x += 100;
            let child = parts.commands.queue_spawn(
                EntityBuilder::new()
                    .with_position(Position { x: position.x })
                    .with_name(Name(format!("child of {}", entity.id))),
            );
            parts.commands.queue_add_enemy(child);
        });
    // From a row loop over the written tables.
    parts
        .components
        .for_each_mut(POSITION, NAME, |_, table, row| {
            table.position[row].x += 1;
            parts
                .commands
                .queue_spawn(EntityBuilder::new().with_name(Name("loner".into())));
        });
    assert_eq!(world.apply_commands(), report(9, 0));
    assert_eq!(world.entity_count(), 9);
    let mut children: Vec<(i32, String)> = world
        .typed_query_ref::<(&Position, &Name)>()
        .with(ENEMY)
        .iter()
        .map(|(position, name)| (position.x, name.0.clone()))
        .collect();
    children.sort();
    let expected: Vec<(i32, String)> = parents
        .iter()
        .enumerate()
        .map(|(x, parent)| (x as i32 + 100, format!("child of {}", parent.id)))
        .collect();
    assert_eq!(children, expected);
    assert_eq!(
        world
            .typed_query_ref::<&Name>()
            .iter()
            .filter(|name| name.0 == "loner")
            .count(),
        3
    );
    world.check_invariants().unwrap();
}

#[test]
fn clearing_queued_spawns_with_values_gives_their_handles_back_and_drops_the_values() {
    let mut world = World::new();
    let name = Name("held".into());
    let reserved: Vec<Entity> = (0..3)
        .map(|_| {
            world
                .commands()
                .queue_spawn(EntityBuilder::new().with_name(name.clone()))
        })
        .collect();
    world.clear_commands();
    assert_eq!(world.apply_commands(), report(0, 0));
    let recycled = world.spawn(POSITION);
    assert!(reserved.iter().any(|old| old.id == recycled.id));
    for &old in &reserved {
        assert!(
            !world.is_alive(old),
            "a released reservation never comes alive"
        );
    }
    assert_eq!(world.entity_count(), 1);
    world.check_invariants().unwrap();
}

#[test]
fn a_builder_gives_tags_and_default_components_through_its_mask() {
    let mut world = World::new();
    let builder = EntityBuilder::new()
        .with_position(Position { x: 3 })
        .with_mask(ENEMY | NAME);
    assert_eq!(builder.mask(), POSITION | NAME | ENEMY);
    let queued = world.commands().queue_spawn(builder.clone());
    let direct = builder.spawn_one(&mut world);
    assert_eq!(world.apply_commands(), report(1, 0));
    for entity in [queued, direct] {
        assert!(world.has_enemy(entity));
        assert_eq!(world.get_position(entity), Some(&Position { x: 3 }));
        assert_eq!(
            world.get_name(entity),
            Some(&Name::default()),
            "no value held: a default"
        );
    }
    world.check_invariants().unwrap();
}

#[test]
fn interleaved_runs_of_two_masks_spawn_in_the_order_queued_frame_after_frame() {
    let mut world = World::new();
    for frame in 0..3 {
        let mut commands = world.commands();
        let mut expected_plain = Vec::new();
        let mut expected_named = Vec::new();
        // Runs of 1, 2, 3, .. spawns, the masks alternating: every run but the last of a
        // mask takes only some of its mask's staged rows.
        let mut x = frame * 100;
        for run in 1..=6 {
            for _ in 0..run {
                x += 1;
                let builder = EntityBuilder::new().with_position(Position { x });
                if run % 2 == 0 {
                    let named = builder.with_name(Name(format!("n{x}")));
                    expected_named.push((commands.queue_spawn(named), x));
                } else {
                    expected_plain.push((commands.queue_spawn(builder), x));
                }
            }
        }
        // A command between the runs targets a handle of an earlier one.
        let (target, _) = expected_plain[0];
        world
            .commands()
            .queue_set_position(target, Position { x: -1 });
        assert_eq!(world.command_count(), 7);
        assert_eq!(world.apply_commands(), report(22, 0));
        expected_plain[0].1 = -1;
        for (entity, x) in expected_plain.iter().chain(&expected_named) {
            assert_eq!(world.get_position(*entity), Some(&Position { x: *x }));
        }
        for (entity, x) in &expected_named {
            assert_eq!(world.get_name(*entity), Some(&Name(format!("n{x}"))));
        }
        // Each table's new rows are in spawn order, as if spawned one by one.
        for (mask, expected) in [
            (POSITION, &expected_plain),
            (POSITION | NAME, &expected_named),
        ] {
            let table = world
                .tables()
                .iter()
                .find(|table| table.mask == mask)
                .unwrap();
            let new_rows = &table.entities[table.entities.len() - expected.len()..];
            let spawned: Vec<Entity> = expected.iter().map(|&(entity, _)| entity).collect();
            assert_eq!(new_rows, spawned, "frame {frame}, mask {mask:b}");
        }
        assert_eq!(world.queued_commands().spawns().count(), 0);
        world.check_invariants().unwrap();
    }
}

#[test]
fn a_long_run_of_queued_spawns_is_one_command_applied_whole() {
    let mut world = World::new();
    let count = 600;
    let mut commands = world.commands();
    let spawned: Vec<Entity> = (0..count)
        .map(|x| commands.queue_spawn(EntityBuilder::new().with_position(Position { x: x as i32 })))
        .collect();
    assert_eq!(world.command_count(), 1, "one run of one mask");
    assert_eq!(world.queued_commands().spawns().count(), count);
    assert_eq!(world.apply_commands(), report(count, 0));
    // The staging table is emptied and keeps its memory for the next frame's spawns.
    let staged: Vec<(Mask, usize, usize)> = world
        .queued_commands()
        .staged()
        .tables()
        .map(|(mask, table)| (mask, table.entities.len(), table.position.capacity()))
        .collect();
    assert!(
        matches!(staged[..], [(POSITION, 0, kept)] if kept >= count),
        "{staged:?}"
    );
    for (x, &entity) in spawned.iter().enumerate() {
        assert_eq!(world.get_position(entity), Some(&Position { x: x as i32 }));
    }
    assert_eq!(world.entity_count(), count);
    world.check_invariants().unwrap();
}

/// Waves of queued spawns replacing the last (as bullets or particles): a run that finds its
/// table emptied since the last trades buffers with the staging rather than copying, one that
/// finds rows appends. Either way every value lands on its own entity, once, and the staging
/// keeps memory for the next wave.
#[test]
fn waves_of_queued_spawns_land_whether_their_table_was_emptied_or_not() {
    let mut world = World::new();
    let mut alive: Vec<(Entity, i32)> = Vec::new();
    // (despawn everything first, how many to queue)
    for (wave, (empty_first, count)) in [(false, 3), (true, 3), (false, 2), (true, 5), (true, 1)]
        .into_iter()
        .enumerate()
    {
        if empty_first {
            let handles: Vec<Entity> = alive.drain(..).map(|(entity, _)| entity).collect();
            assert_eq!(world.despawn_entities(&handles), handles);
        }
        let mut commands = world.commands();
        for x in 0..count {
            let x = 10 * wave as i32 + x;
            let builder = EntityBuilder::new()
                .with_position(Position { x })
                .with_name(Name(format!("n{x}")));
            alive.push((commands.queue_spawn(builder), x));
        }
        assert_eq!(world.apply_commands(), report(count as usize, 0));
        assert_eq!(world.entity_count(), alive.len());
        for &(entity, x) in &alive {
            assert_eq!(
                world.get_position(entity),
                Some(&Position { x }),
                "wave {wave}"
            );
            assert_eq!(world.get_name(entity), Some(&Name(format!("n{x}"))));
        }
        let staged: Vec<(usize, usize)> = world
            .queued_commands()
            .staged()
            .tables()
            .map(|(_, table)| (table.name.len(), table.name.capacity()))
            .collect();
        assert!(
            matches!(staged[..], [(0, room)] if room >= count as usize),
            "wave {wave}: {staged:?}"
        );
        world.check_invariants().unwrap();
    }
}

/// A system's command queue reserves through a reserver the world's index lends (the storage is
/// lent to the system's queries meanwhile): its queued spawns get the handles the world's own
/// queue gives, recycled ids first, frame after frame, and the world after the apply is the
/// same, down to the next handle it issues.
mod system_reservations {
    use super::{Name, Position};
    use archetypal::{Entity, ResMut, SystemContext};

    archetypal::ecs! {
        World {
            position: Position => POSITION,
            name: Name => NAME,
        }
        Resources {
            log: Vec<archetypal::Entity>,
        }
    }

    fn spawn_three(mut commands: Commands, mut log: ResMut<Vec<Entity>>) {
        for x in 0..3 {
            log.push(commands.queue_spawn(EntityBuilder::new().with_position(Position { x })));
        }
        let first = log[log.len() - 3];
        commands.queue_set_name(first, Name("first".into()));
    }

    #[test]
    fn a_systems_queued_spawns_get_the_handles_the_worlds_queue_gives() {
        let (mut through_system, mut through_world) = (World::new(), World::new());
        for world in [&mut through_system, &mut through_world] {
            let entities: Vec<Entity> = (0..4).map(|_| world.spawn(POSITION)).collect();
            world.despawn(entities[1]);
            world.despawn(entities[3]);
        }
        let mut context = SystemContext::new();
        for frame in 0..2 {
            context.run(&mut through_system, spawn_three);
            let mut commands = through_world.commands();
            let spawned: Vec<Entity> = (0..3)
                .map(|x| commands.queue_spawn(EntityBuilder::new().with_position(Position { x })))
                .collect();
            commands.queue_set_name(spawned[0], Name("first".into()));
            through_world.resources.log.extend(spawned);
            through_world.apply_commands();
            assert_eq!(
                through_system.resources.log, through_world.resources.log,
                "frame {frame}"
            );
        }
        assert_eq!(
            through_system.resources.log[0],
            Entity::new(3, 1),
            "last freed first"
        );
        let first = through_system.resources.log[0];
        assert_eq!(through_system.get_name(first), Some(&Name("first".into())));
        assert_eq!(
            through_system.spawn(POSITION),
            through_world.spawn(POSITION)
        );
        through_system.check_invariants().unwrap();
    }
}
