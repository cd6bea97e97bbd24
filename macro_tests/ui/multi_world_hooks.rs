archetypal::ecs! {
    Game {
        Core { position: f32 => POSITION }
        Render { sprite: u32 => SPRITE }
    }
    Hooks {
        on_add(POSITION) => placed,
    }
}

fn placed(_: &mut GameParts<'_>, _: archetypal::Entity) {}

fn main() {}
