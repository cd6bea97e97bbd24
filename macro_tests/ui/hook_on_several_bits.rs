archetypal::ecs! {
    World {
        position: u8 => POSITION,
        velocity: u8 => VELOCITY,
    }
    Hooks {
        on_remove(MOVING) => stopped,
    }
}

const MOVING: WorldMask = POSITION | VELOCITY;

fn stopped(_: &mut WorldParts<'_>, _: archetypal::Entity, _: &WorldRemoved) {}

fn main() {}
