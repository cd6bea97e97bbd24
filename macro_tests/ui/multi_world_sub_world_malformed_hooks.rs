archetypal::ecs! {
    Game {
        Core { position: f32 => POSITION }
        Hooks { on_add(POSITION) placed }
        Render { sprite: u32 => SPRITE }
    }
}

fn placed(_: &mut GameParts<'_>, _: archetypal::Entity) {}

fn main() {}
