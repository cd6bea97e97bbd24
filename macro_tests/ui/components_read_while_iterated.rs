// Inside an iteration over the components, the same part cannot be read by handle (a turret
// reading its target's position). Fix: `split_tables` splits the tables into a written side
// and a disjoint read side.
archetypal::ecs! {
    World {
        position: f32 => POSITION,
        target: archetypal::Entity => TARGET,
    }
}

fn main() {
    let mut world = World::new();
    let parts = world.split_mut();
    parts.components.for_each_mut(TARGET | POSITION, 0, |_, table, row| {
        if let Some(target) = parts.components.get_position(table.target[row]) {
            table.position[row] = *target;
        }
    });
}
