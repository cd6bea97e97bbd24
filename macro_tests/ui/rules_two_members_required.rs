archetypal::ecs! {
    World {
        idle: u8 => IDLE,
        moving: u8 => MOVING,
        unit: u8 => UNIT,
    }
    Rules {
        UNIT requires IDLE,
        UNIT requires MOVING,
        exclusive(IDLE, MOVING),
    }
}

fn main() {}
