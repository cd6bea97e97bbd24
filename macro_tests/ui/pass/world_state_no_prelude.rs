//! Cloning, restoring and snapshots use fully qualified paths only: they compile and work in a
//! module with no implicit prelude.

#![no_implicit_prelude]

mod game {
    #[derive(
        ::core::default::Default,
        ::core::clone::Clone,
        ::core::fmt::Debug,
        ::core::cmp::PartialEq,
        ::serde::Serialize,
        ::serde::Deserialize,
    )]
    pub struct Position {
        pub x: f32,
        pub y: f32,
    }

    ::archetypal::ecs! {
        World {
            position: Position => POSITION,
            health: u32 => HEALTH [untracked],
        }
        Tags {
            player => PLAYER,
        }
        Events {
            landed: Position,
        }
        Resources {
            delta_time: f32,
            names: ::std::vec::Vec<::std::string::String>,
        }
    }
}

fn main() {
    use ::core::assert_eq;
    use ::core::clone::Clone;
    use ::core::option::Option::Some;

    use game::{HEALTH, PLAYER, POSITION, Position, World};

    let mut world = World::new();
    let entity = world.spawn(POSITION | HEALTH | PLAYER);
    world.set_position(entity, Position { x: 1.0, y: 2.0 });
    world.events.landed.send(Position { x: 0.0, y: 0.0 });
    let copy = world.clone();
    world.despawn(entity);
    world.restore(&copy);
    assert_eq!(world.events.landed.len(), 1);
    let bytes = ::postcard::to_allocvec(&world.snapshot()).unwrap();
    let loaded: World = ::postcard::from_bytes(&bytes).unwrap();
    assert_eq!(
        loaded.get_position(entity),
        Some(&Position { x: 1.0, y: 2.0 })
    );
    assert_eq!(loaded.has_player(entity), true);
}
