//! The story of the seed articles, step by step: a mover gains a velocity, moves, loses the
//! velocity (keeping where it got to), is despawned, and its id comes back one generation
//! later while the old handle resolves to nothing. A static landmark watches, untouched.

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

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
    }
    Resources {
        delta_time: f32,
    }
}

/// The physics system: every entity with a position and a velocity moves by `velocity * dt`.
fn physics(world: &mut World) -> usize {
    let delta_time = world.resources.delta_time;
    let mut moved = 0;
    world.for_each_mut(POSITION | VELOCITY, 0, |_, table, index| {
        table.position[index].x += table.velocity[index].x * delta_time;
        table.position[index].y += table.velocity[index].y * delta_time;
        moved += 1;
    });
    moved
}

#[test]
fn the_mover_and_the_landmark() {
    let mut world = World::new();
    world.resources.delta_time = 0.5;

    // A mover and a landmark, both with just a position.
    let mover = world.spawn(POSITION);
    let landmark = world.spawn(POSITION);
    assert_eq!(mover, Entity::new(0, 0));
    assert_eq!(landmark, Entity::new(1, 0));
    assert!(world.set_position(landmark, Position { x: 10.0, y: -4.0 }));
    assert!(world.set_position(mover, Position { x: 1.0, y: 1.0 }));
    assert_eq!(world.archetype_count(), 1);

    // Giving the mover a velocity migrates it to the POSITION | VELOCITY table.
    assert!(world.add_velocity(mover));
    assert_eq!(world.get_velocity(mover), Some(&Velocity::default()));
    assert!(world.set_velocity(mover, Velocity { x: 2.0, y: -1.0 }));
    assert_eq!(world.component_mask(mover), Some(POSITION | VELOCITY));
    assert_eq!(
        world.get_position(mover),
        Some(&Position { x: 1.0, y: 1.0 })
    );
    assert_eq!(world.archetype_count(), 2);
    world.check_invariants().unwrap();

    // Three physics steps: only the mover moves.
    for step in 1..=3 {
        assert_eq!(physics(&mut world), 1, "step {step} moves the mover only");
        let expected = Position {
            x: 1.0 + 2.0 * 0.5 * step as f32,
            y: 1.0 - 0.5 * step as f32,
        };
        assert_eq!(world.get_position(mover), Some(&expected), "step {step}");
        assert_eq!(
            world.get_position(landmark),
            Some(&Position { x: 10.0, y: -4.0 })
        );
    }
    assert_eq!(
        world.get_position(mover),
        Some(&Position { x: 4.0, y: -0.5 })
    );

    // Removing the velocity hands it back; the position stays where the mover got to.
    assert_eq!(
        world.remove_velocity(mover),
        Some(Velocity { x: 2.0, y: -1.0 })
    );
    assert!(!world.has_velocity(mover));
    assert_eq!(world.component_mask(mover), Some(POSITION));
    assert_eq!(
        world.get_position(mover),
        Some(&Position { x: 4.0, y: -0.5 })
    );
    world.check_invariants().unwrap();

    // Without a velocity, physics leaves it alone.
    assert_eq!(physics(&mut world), 0);
    assert_eq!(
        world.get_position(mover),
        Some(&Position { x: 4.0, y: -0.5 })
    );

    // The landmark never changed, and shares the POSITION table with the mover again.
    assert_eq!(
        world.get_position(landmark),
        Some(&Position { x: 10.0, y: -4.0 })
    );
    assert_eq!(world.component_mask(landmark), Some(POSITION));
    let mut position_only: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .with(POSITION)
        .without(VELOCITY)
        .iter()
        .collect();
    position_only.sort();
    assert_eq!(position_only, vec![mover, landmark]);

    // The mover is despawned; its handle dies with it.
    assert!(world.despawn(mover));
    assert!(!world.is_alive(mover));
    assert!(!world.despawn(mover), "a second despawn is refused");
    assert_eq!(world.entity_count(), 1);

    // A new entity recycles the id one generation later.
    let newcomer = world.spawn(POSITION | VELOCITY);
    assert_eq!(newcomer.id, mover.id);
    assert_eq!(newcomer.generation, 1);
    assert!(world.is_alive(newcomer));
    assert!(world.set_position(newcomer, Position { x: -9.0, y: -9.0 }));

    // The old handle resolves to nothing, not to the newcomer.
    assert!(!world.is_alive(mover));
    assert_eq!(world.get_position(mover), None);
    assert_eq!(world.get_velocity(mover), None);
    assert_eq!(world.component_mask(mover), None);
    assert!(!world.set_position(mover, Position { x: 0.0, y: 0.0 }));
    assert!(!world.despawn(mover));
    assert_eq!(
        world.get_position(newcomer),
        Some(&Position { x: -9.0, y: -9.0 })
    );
    assert!(world.is_alive(newcomer));
    assert_eq!(
        world.get_position(landmark),
        Some(&Position { x: 10.0, y: -4.0 })
    );
    assert_eq!(world.entity_count(), 2);
    world.check_invariants().unwrap();
}

#[test]
fn every_recycling_bumps_the_generation_and_kills_older_handles() {
    let mut world = World::new();
    let landmark = world.spawn(POSITION);
    world.set_position(landmark, Position { x: 3.0, y: 3.0 });
    let mut handles = vec![world.spawn(POSITION | VELOCITY)];
    for generation in 1..=5 {
        assert!(world.despawn(*handles.last().unwrap()));
        let next = world.spawn(POSITION | VELOCITY);
        assert_eq!(next, Entity::new(handles[0].id, generation));
        world.set_position(
            next,
            Position {
                x: generation as f32,
                y: 0.0,
            },
        );
        handles.push(next);
        for old in &handles[..handles.len() - 1] {
            assert!(!world.is_alive(*old));
            assert_eq!(world.get_position(*old), None);
        }
        assert_eq!(
            world.get_position(next),
            Some(&Position {
                x: generation as f32,
                y: 0.0
            })
        );
        assert_eq!(
            world.get_position(landmark),
            Some(&Position { x: 3.0, y: 3.0 })
        );
        world.check_invariants().unwrap();
    }
}
