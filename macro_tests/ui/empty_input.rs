archetypal::ecs! {}

fn main() {}
