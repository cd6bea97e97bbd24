archetypal::ecs! {
    World {
        position: u8 => POSITION,
        velocity: u8 => VELOCITY,
        position: u8 => OTHER_POSITION,
    }
}

fn main() {}
