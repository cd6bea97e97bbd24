// A table view lives as long as the call that hands it out: it cannot be kept for later.
archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
}

fn main() {
    let mut world = World::new();
    world.spawn(POSITION);
    let mut kept: Option<&mut [u8]> = None;
    world.for_each_table_mut(POSITION, 0, |table| {
        kept = Some(&mut *table.position);
    });
    world.spawn(POSITION);
    kept.unwrap()[0] = 1;
}
