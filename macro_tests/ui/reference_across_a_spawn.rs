// A component reference cannot outlive a structural change (the spawn may move the column).
archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
}

fn main() {
    let mut world = World::new();
    let entity = world.spawn(POSITION);
    let position = world.get_position(entity).unwrap();
    world.spawn(POSITION);
    println!("{position}");
}
