//! Two components of one type: the world compiles, but a typed query cannot tell which
//! column `&u32` means.

archetypal::ecs! {
    World {
        strength: u32 => STRENGTH,
        agility: u32 => AGILITY,
    }
}

fn main() {
    let mut world = World::new();
    world.spawn(STRENGTH | AGILITY);
    world.typed_query::<&u32>().for_each(|value| {
        let _ = value;
    });
}
