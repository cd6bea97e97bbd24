archetypal::ecs! {
    Game {
        Core { position: f32 => POSITION }
        Render { sprite: u32 => SPRITE }
    }
    Resources {
        delta_time f32,
    }
}

fn main() {}
