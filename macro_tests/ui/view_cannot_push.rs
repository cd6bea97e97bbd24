archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
}

fn main() {
    let mut world = World::new();
    world.spawn(POSITION);
    world.for_each_mut(POSITION, 0, |_, table, _| {
        table.position.push(1);
    });
}
