// A component `x` has `get_x_mut`: no other component, relation or reverse name may be
// `x_mut`, since its own `get_x_mut` would be the same method.
archetypal::ecs! {
    World {
        speed: u8 => SPEED,
        speed_mut: u8 => SPEED_MUT,
    }
}

fn main() {}
