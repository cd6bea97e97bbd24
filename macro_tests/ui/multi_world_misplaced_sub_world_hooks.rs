archetypal::ecs! {
    Game {
        Core { position: f32 => POSITION }
        Hooks { on_add(POSITION) => placed }
        Hooks { on_remove(POSITION) => placed }
        Render { sprite: u32 => SPRITE }
    }
}

fn main() {}
