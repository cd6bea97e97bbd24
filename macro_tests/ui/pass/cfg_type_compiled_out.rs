//! A component disabled by `#[cfg]` whose type is disabled with it, as a
//! `#[cfg(feature = "debug")]` debug component usually is: the world must compile without the
//! type, and `EntityBuilder::spawn` must work for the remaining (Clone) components.

use archetypal::ecs;

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub i32);

#[cfg(any())]
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct DebugInfo(pub u32);

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
    assert_eq!(world.get_position(built[1]), Some(&Position(7)));
    assert_eq!(COMPONENT_COUNT, 1);
}
