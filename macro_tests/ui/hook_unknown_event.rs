archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Hooks {
        on_change(POSITION) => moved,
    }
}

fn moved(_: &mut WorldParts<'_>, _: archetypal::Entity) {}

fn main() {}
