pub struct CollisionEvent;

archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Events {
        collision
    }
}

fn main() {}
