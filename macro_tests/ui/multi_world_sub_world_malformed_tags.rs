pub struct Player;

archetypal::ecs! {
    Game {
        Core { position: f32 => POSITION }
        Tags { player: Player }
        Render { sprite: u32 => SPRITE }
    }
}

fn main() {}
