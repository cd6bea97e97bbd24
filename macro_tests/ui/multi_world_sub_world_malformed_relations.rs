archetypal::ecs! {
    Game {
        Core { position: f32 => POSITION }
        Relations { child_of children => CHILD_OF }
        Render { sprite: u32 => SPRITE }
    }
}

fn main() {}
