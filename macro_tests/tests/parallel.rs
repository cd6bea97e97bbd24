//! `par_for_each_mut` (feature `parallel`, enabled for this crate): the `for_each_mut` contract,
//! run by rayon; and a world with a component that is not `Send` still compiles.

use std::rc::Rc;

use archetypal::Entity;

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
pub struct Frozen;

archetypal::ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        frozen: Frozen => FROZEN,
        mass: f32 => MASS,
    }
}

mod not_send {
    use std::rc::Rc;

    /// A component holding an `Rc`: the world is not `Send`, so its parallel methods are not
    /// callable, but everything else works with the `parallel` feature on.
    #[derive(Default, Debug, Clone, PartialEq)]
    pub struct Shared(pub Rc<u32>);

    archetypal::ecs! {
        LocalWorld {
            shared: Shared => SHARED,
            count: u32 => COUNT,
        }
    }
}

fn velocity_of(index: usize) -> Velocity {
    Velocity {
        x: index as f32,
        y: 1.0,
    }
}

#[test]
fn every_matching_entity_is_visited_once_with_its_own_row() {
    let mut world = World::new();
    // One large table (split into chunks across threads), a small one, an excluded one and an
    // unmatched one.
    let large = world.spawn_batch(POSITION | VELOCITY, 50_000, |table, index| {
        table.velocity[index] = velocity_of(index);
    });
    let small = world.spawn_batch(POSITION | VELOCITY | MASS, 7, |table, index| {
        table.velocity[index] = velocity_of(index);
    });
    let frozen = world.spawn_batch(POSITION | VELOCITY | FROZEN, 100, |table, index| {
        table.velocity[index] = velocity_of(index);
    });
    let still = world.spawn_entities(POSITION, 10);

    world.par_for_each_mut(POSITION | VELOCITY, FROZEN, |entity, table, index| {
        assert_eq!(table.entities[index], entity);
        let velocity = table.velocity[index];
        let position = &mut table.position[index];
        position.x += velocity.x;
        position.y += velocity.y;
    });

    for (index, &entity) in large.iter().chain(&small).enumerate() {
        let expected_index = if index < large.len() {
            index
        } else {
            index - large.len()
        };
        let velocity = velocity_of(expected_index);
        assert_eq!(
            world.get_position(entity),
            Some(&Position {
                x: velocity.x,
                y: 1.0
            }),
            "{entity} moved exactly once"
        );
    }
    for entity in frozen.iter().chain(&still) {
        assert_eq!(
            world.get_position(*entity),
            Some(&Position::default()),
            "{entity} untouched"
        );
    }
    world.check_invariants().unwrap();
}

#[test]
fn parallel_and_serial_iteration_agree() {
    let mut parallel = World::new();
    let mut serial = World::new();
    for world in [&mut parallel, &mut serial] {
        world.spawn_batch(POSITION | VELOCITY, 3_000, |table, index| {
            table.velocity[index] = velocity_of(index % 17);
        });
        world.spawn_batch(POSITION | VELOCITY | FROZEN, 40, |table, index| {
            table.velocity[index] = velocity_of(index);
        });
    }
    let step = |_: Entity, table: &mut WorldComponentArraysMut<'_>, index: usize| {
        table.position[index].x = table.position[index].x * 0.5 + table.velocity[index].x;
    };
    for _ in 0..3 {
        parallel.par_for_each_mut(POSITION | VELOCITY, 0, step);
        serial.for_each_mut(POSITION | VELOCITY, 0, step);
    }
    let positions = |world: &World| {
        world
            .typed_query_ref::<&Position>()
            .iter()
            .copied()
            .collect::<Vec<_>>()
    };
    assert_eq!(positions(&parallel), positions(&serial));
}

#[test]
fn a_world_with_a_non_send_component_still_works() {
    let mut world = not_send::LocalWorld::new();
    let shared = Rc::new(7);
    let entity = world.spawn(not_send::COUNT);
    assert!(world.set_shared(entity, not_send::Shared(Rc::clone(&shared))));
    world.for_each_mut(not_send::SHARED | not_send::COUNT, 0, |_, table, index| {
        table.count[index] = *table.shared[index].0;
    });
    assert_eq!(world.get_count(entity), Some(&7));
    assert_eq!(Rc::strong_count(&shared), 2);
}
