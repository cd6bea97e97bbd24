pub struct Player;

archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Tags {
        player: Player
    }
}

fn main() {}
