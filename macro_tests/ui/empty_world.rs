archetypal::ecs! {
    World {}
}

fn main() {}
