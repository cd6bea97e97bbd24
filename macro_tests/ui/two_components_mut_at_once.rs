// Two `get_*_mut` borrows of one world cannot be held at once. Fix:
// `get_disjoint_health_mut([a, b])` hands out both, `None` if a handle is dead or repeated.
archetypal::ecs! {
    World {
        health: i32 => HEALTH,
    }
}

fn main() {
    let mut world = World::new();
    let a = world.spawn(HEALTH);
    let b = world.spawn(HEALTH);
    let first = world.get_health_mut(a).unwrap();
    let second = world.get_health_mut(b).unwrap();
    std::mem::swap(first, second);
}
