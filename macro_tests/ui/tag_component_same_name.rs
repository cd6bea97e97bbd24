archetypal::ecs! {
    World {
        position: u8 => POSITION,
        player: u8 => PLAYER_DATA,
    }
    Tags {
        player => PLAYER,
    }
}

fn main() {}
