archetypal::ecs! {
    Game {
        Core { position: f32 => POSITION }
        Render { sprite u32 => SPRITE }
    }
}

fn main() {}
