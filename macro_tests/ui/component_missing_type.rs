archetypal::ecs! {
    World {
        position: => POSITION,
    }
}

fn main() {}
