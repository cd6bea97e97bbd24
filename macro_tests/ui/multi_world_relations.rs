archetypal::ecs! {
    Game {
        Core { position: f32 => POSITION }
        Render { sprite: u32 => SPRITE }
    }
    Relations { child_of / children => CHILD_OF [cascade] }
}

fn main() {}
