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

archetypal::ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
    }
    Resources { delta_time: f32 }
}

#[test]
fn smoke() {
    let mut world = World::new();
    let e = world.spawn(POSITION | VELOCITY);
    world.set_velocity(e, Velocity { x: 1.0, y: 2.0 });
    world.for_each_mut(POSITION | VELOCITY, 0, |_, table, index| {
        table.position[index].x += table.velocity[index].x;
    });
    world
        .query_mut()
        .with(POSITION)
        .iter(|_, table, index| table.position[index].y += 1.0);
    assert_eq!(world.get_position(e), Some(&Position { x: 1.0, y: 1.0 }));
    let built = EntityBuilder::new()
        .with_position(Position { x: 3.0, y: 0.0 })
        .spawn(&mut world, 2);
    assert_eq!(built.len(), 2);
    world.check_invariants().unwrap();
    let _: Mask = POSITION;
    let _: u64 = COMPONENT_COUNT as u64;
}
