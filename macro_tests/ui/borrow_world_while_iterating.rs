// A system cannot reach back into the world it is iterating: the closure gets the table's
// slices, and structural changes go through the command queue instead.
archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
}

fn main() {
    let mut world = World::new();
    let first = world.spawn(POSITION);
    world.for_each_mut(POSITION, 0, |entity, _, _| {
        if let Some(position) = world.get_position_mut(first) {
            *position += 1;
        }
        world.despawn(entity);
    });
}
