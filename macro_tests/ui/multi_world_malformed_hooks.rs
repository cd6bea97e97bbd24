archetypal::ecs! {
    Game {
        Core { position: f32 => POSITION }
        Render { sprite: u32 => SPRITE }
    }
    Hooks {
        on_despawn gone,
    }
}

fn gone(_: &mut GameParts<'_>, _: archetypal::Entity) {}

fn main() {}
