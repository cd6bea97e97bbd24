archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Hooks {
        on_add(POSITION) placed,
    }
}

fn placed(_: &mut WorldParts<'_>, _: archetypal::Entity) {}

fn main() {}
