archetypal::ecs! {
    World {
        idle: u8 => IDLE,
        moving: u8 => MOVING,
        attacking: u8 => ATTACKING,
        target: u8 => TARGET,
    }
    Rules {
        ATTACKING requires TARGET,
        TARGET requires MOVING,
        exclusive(IDLE, MOVING, ATTACKING),
    }
}

fn main() {}
