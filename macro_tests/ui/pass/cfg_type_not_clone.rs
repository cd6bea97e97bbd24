//! A component disabled by `#[cfg]` whose type still exists but is not `Clone`: the disabled
//! component is not part of the world, so it must not take `EntityBuilder::spawn` away.

use archetypal::ecs;

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub i32);

#[allow(dead_code)]
#[derive(Default, Debug)]
pub struct DebugInfo(pub String);

ecs! {
    World {
        position: Position => POSITION,
        #[cfg(any())]
        debug_info: DebugInfo => DEBUG_INFO,
    }
}

fn main() {
    let mut world = World::new();
    let built = EntityBuilder::new()
        .with_position(Position(7))
        .spawn(&mut world, 2);
    assert_eq!(world.get_position(built[0]), Some(&Position(7)));
    assert_eq!(COMPONENT_COUNT, 1);
}
