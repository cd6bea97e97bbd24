//! The structural change log: off by default; once enabled, every spawn, despawn and effective
//! component or tag change is recorded in order, read with cursors, bounded without silent loss.

use archetypal::{EventCursor, StructuralChange};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub i32);

archetypal::ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
    }
    Tags {
        player => PLAYER,
    }
}

fn drain(world: &World, cursor: &mut EventCursor) -> Vec<StructuralChange<WorldMask>> {
    world.consume_changes(cursor).into_iter().copied().collect()
}

#[test]
fn nothing_is_logged_until_enabled() {
    let mut world = World::new();
    let mut cursor = EventCursor::default();
    world.spawn(POSITION);
    assert!(drain(&world, &mut cursor).is_empty());
}

#[test]
fn every_structural_change_is_logged_once_in_order() {
    let mut world = World::new();
    world.enable_change_log(1_000);
    let mut cursor = EventCursor::default();
    let entity = world.spawn(POSITION | PLAYER);
    world.add_components(entity, VELOCITY | POSITION); // POSITION is already there
    world.set_position(entity, Position(3)); // a write, not a structural change
    world.remove_player(entity);
    world.remove_player(entity); // no effect, not logged
    world.remove_velocity(entity);
    let batch = world.spawn_entities(VELOCITY, 2);
    world.despawn(entity);
    world.despawn(entity); // refused, not logged
    use StructuralChange::*;
    assert_eq!(
        drain(&world, &mut cursor),
        vec![
            Spawned {
                entity,
                mask: POSITION | PLAYER
            },
            Added {
                entity,
                mask: VELOCITY
            },
            Removed {
                entity,
                mask: PLAYER
            },
            Removed {
                entity,
                mask: VELOCITY
            },
            Spawned {
                entity: batch[0],
                mask: VELOCITY
            },
            Spawned {
                entity: batch[1],
                mask: VELOCITY
            },
            Despawned { entity },
        ]
    );
    assert!(
        drain(&world, &mut cursor).is_empty(),
        "exactly once per cursor"
    );
    let mut late = EventCursor::default();
    assert_eq!(
        drain(&world, &mut late).len(),
        7,
        "another cursor sees everything"
    );
}

#[test]
fn queued_commands_are_logged_when_applied() {
    let mut world = World::new();
    world.enable_change_log(100);
    let mut cursor = EventCursor::default();
    let spawned = world.commands().queue_spawn_entities(POSITION, 1);
    world.commands().queue_add_player(spawned[0]);
    assert!(
        drain(&world, &mut cursor).is_empty(),
        "nothing happened yet"
    );
    world.apply_commands();
    assert_eq!(
        drain(&world, &mut cursor),
        vec![
            StructuralChange::Spawned {
                entity: spawned[0],
                mask: POSITION
            },
            StructuralChange::Added {
                entity: spawned[0],
                mask: PLAYER
            },
        ]
    );
}

#[test]
fn a_bounded_log_tells_a_lagging_reader_what_it_lost() {
    let mut world = World::new();
    world.enable_change_log(4);
    let mut cursor = world.change_cursor();
    let entities = world.spawn_entities(POSITION, 6);
    let consumed = world.consume_changes(&mut cursor);
    assert_eq!(consumed.lost(), 2);
    let kept: Vec<_> = consumed.into_iter().map(|change| change.entity()).collect();
    assert_eq!(kept, entities[2..].to_vec());

    world.trim_changes(0);
    world.despawn(entities[0]);
    let consumed = world.consume_changes(&mut cursor);
    assert_eq!(
        consumed.lost(),
        0,
        "trimmed entries it had read are not losses"
    );
    assert_eq!(consumed.len(), 1);
}

#[test]
fn disabling_keeps_what_was_logged() {
    let mut world = World::new();
    world.enable_change_log(10);
    let mut cursor = EventCursor::default();
    world.spawn(POSITION);
    world.disable_change_log();
    world.spawn(POSITION);
    assert_eq!(drain(&world, &mut cursor).len(), 1);
}

/// Enabling the log again, while it is on or after disabling it, goes on with the same
/// sequence: a cursor taken before reads every entry recorded after, and entries a smaller
/// capacity trims are counted as lost, never skipped silently.
#[test]
fn re_enabling_the_log_never_hides_entries_from_an_existing_cursor() {
    use StructuralChange::*;
    let mut world = World::new();
    world.enable_change_log(100);
    let mut cursor = world.change_cursor();
    let first = world.spawn(POSITION);
    world.enable_change_log(100);
    let second = world.spawn(VELOCITY);
    let consumed = world.consume_changes(&mut cursor);
    assert_eq!(consumed.lost(), 0);
    assert_eq!(
        consumed.into_iter().copied().collect::<Vec<_>>(),
        vec![
            Spawned {
                entity: first,
                mask: POSITION
            },
            Spawned {
                entity: second,
                mask: VELOCITY
            },
        ]
    );

    world.disable_change_log();
    world.spawn(POSITION); // not recorded: the log is off
    world.enable_change_log(100);
    let third = world.spawn(VELOCITY);
    let consumed = world.consume_changes(&mut cursor);
    assert_eq!(consumed.lost(), 0);
    assert_eq!(
        consumed.into_iter().copied().collect::<Vec<_>>(),
        vec![Spawned {
            entity: third,
            mask: VELOCITY
        }]
    );

    let dropped = world.spawn(POSITION);
    let kept = world.spawn(POSITION);
    world.enable_change_log(1);
    let consumed = world.consume_changes(&mut cursor);
    assert_eq!(
        consumed.lost(),
        1,
        "the entry of {dropped} was trimmed unread"
    );
    assert_eq!(
        consumed.into_iter().copied().collect::<Vec<_>>(),
        vec![Spawned {
            entity: kept,
            mask: POSITION
        }]
    );
}
