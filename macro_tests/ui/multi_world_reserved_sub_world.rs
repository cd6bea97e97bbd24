use archetypal::ecs;

ecs! {
    Game {
        Core { position: f32 => POSITION }
        Resources { sprite: u32 => SPRITE }
    }
}

fn main() {}
