//! Every item `ecs!` generates is documented, a `///` comment on a component or event reaches
//! its items, and a component or event behind `#[cfg(any())]` disappears from all of them.
//! (A compile-pass case, not a test: rustc does not run `missing_docs` on test harnesses.) The generated
//! code is also free of `unsafe`, so a crate that forbids it can invoke `ecs!`.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

/// Where an entity is.
#[derive(Default, Clone, Copy, Debug, PartialEq)]
pub struct Position {
    /// Horizontal.
    pub x: f32,
    /// Vertical.
    pub y: f32,
}

/// Debug data, compiled out together with its component below.
#[cfg(any())]
#[derive(Default, Clone)]
pub struct DebugInfo;

archetypal::ecs! {
    World {
        /// Where the entity is.
        position: Position => POSITION,
        /// Compiled out: no column, no accessors, no mask bit.
        #[cfg(any())]
        debug_info: DebugInfo => DEBUG_INFO,
        /// Hit points.
        health: u32 => HEALTH,
    }
    Relations {
        /// What an entity is part of.
        child_of / children => CHILD_OF [cascade],
        /// Compiled out: no bit, no methods.
        #[cfg(any())]
        phantom_of / phantoms => PHANTOM_OF,
        /// Who owns an entity.
        owned_by / belongings => OWNED_BY,
    }
    Events {
        /// Hits.
        hit: u32,
        /// Compiled out: it may even name a type that does not exist.
        #[cfg(any())]
        phantom: DoesNotExist,
        /// Misses.
        miss: u8,
    }
    Resources {
        /// Seconds since the last frame.
        delta_time: f32,
    }
}

fn main() {
    assert_eq!(OWNED_BY, CHILD_OF << 1);
    let mut world = World::new();
    let (parent, child) = (world.spawn(HEALTH), world.spawn(HEALTH));
    world.set_owned_by(child, parent).unwrap();
    assert_eq!(world.get_belongings(parent), &[child]);
    assert_eq!(World::COMPONENT_COUNT, 2);
    assert_eq!(COMPONENT_COUNT, 2);
    assert_eq!(POSITION | HEALTH, 0b11);
    let mut world = World::new();
    let entity = world.spawn(POSITION | HEALTH);
    world.set_health(entity, 5);
    world.resources.delta_time = 0.25;
    assert_eq!(world.get_health(entity), Some(&5));
    assert_eq!(world.component_mask(entity), Some(POSITION | HEALTH));
    let _ = EntityBuilder::new()
        .with_position(Position { x: 1.0, y: 0.0 })
        .spawn(&mut world, 1);
    assert_eq!(world.typed_query_ref::<&Position>().count(), 2);
    world.events.hit.send(1);
    world.events.miss.send(2);
    assert_eq!((world.events.hit.len(), world.events.miss.len()), (1, 1));
}
