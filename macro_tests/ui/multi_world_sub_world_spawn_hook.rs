archetypal::ecs! {
    Game {
        Core { position: f32 => POSITION }
        Hooks { on_spawn => spawned }
        Render { sprite: u32 => SPRITE }
    }
}

fn spawned(_: &mut GameParts<'_>, _: archetypal::Entity) {}

fn main() {}
