// The world is borrowed by its parts until their last use: calling the world meanwhile is an
// error. Fix: finish with the parts first (their borrow ends at their last use), then call
// `world.apply_commands()`.
archetypal::ecs! {
    World {
        health: i32 => HEALTH,
    }
}

fn main() {
    let mut world = World::new();
    let mut parts = world.split_mut();
    parts.components.for_each(HEALTH, 0, |entity, _, _| {
        parts.commands.queue_despawn(entity);
    });
    world.apply_commands();
    parts.commands.queue_despawn(archetypal::Entity::PLACEHOLDER);
}
