// The command part is a value of its own: binding it without `mut` leaves its `queue_*`
// methods unreachable. Fix: `let WorldParts { mut commands, .. } = world.split_mut();` (or
// `let mut parts = world.split_mut();`).
archetypal::ecs! {
    World {
        health: i32 => HEALTH,
    }
}

fn main() {
    let mut world = World::new();
    let WorldParts { components, commands, .. } = world.split_mut();
    components.for_each(HEALTH, 0, |entity, _, _| {
        commands.queue_despawn(entity);
    });
}
