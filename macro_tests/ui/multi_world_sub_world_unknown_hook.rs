archetypal::ecs! {
    Game {
        Core { position: f32 => POSITION }
        Hooks { on_change(POSITION) => moved }
        Render { sprite: u32 => SPRITE }
    }
}

fn moved(_: &mut GameParts<'_>, _: archetypal::Entity) {}

fn main() {}
