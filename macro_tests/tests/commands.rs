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
    match world.queued_commands() {
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
