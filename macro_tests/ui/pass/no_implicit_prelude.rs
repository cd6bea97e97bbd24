//! Every path `ecs!` generates is fully qualified: the world compiles and works in a module
//! with no implicit prelude (no `Option`, `Vec`, `Default`, `Clone`, ... in scope).

#![no_implicit_prelude]

mod game {
    #[derive(
        ::core::default::Default, ::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq,
    )]
    pub struct Position {
        pub x: f32,
        pub y: f32,
    }

    #[derive(
        ::core::default::Default, ::core::clone::Clone, ::core::fmt::Debug, ::core::cmp::PartialEq,
    )]
    pub struct Velocity {
        pub x: f32,
        pub y: f32,
    }

    ::archetypal::ecs! {
        World {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
            health: u32 => HEALTH,
        }
        Tags {
            player => PLAYER,
        }
        Relations {
            child_of / children => CHILD_OF [cascade],
        }
        Events {
            landed: Position,
        }
        Resources {
            delta_time: f32,
            names: ::std::vec::Vec<::std::string::String>,
            hooked: u32,
        }
        Hooks {
            on_add(POSITION) => counted,
            on_unlink(CHILD_OF) => unlinked,
            on_despawn => gone,
        }
        Rules {
            VELOCITY requires POSITION,
        }
    }

    pub fn counted(world: &mut WorldParts<'_>, _entity: ::archetypal::Entity) {
        world.resources.hooked += 1;
    }

    pub fn gone(world: &mut WorldParts<'_>, _entity: ::archetypal::Entity, _dead: &WorldRemoved) {
        world.resources.hooked += 1;
    }

    pub fn unlinked(world: &mut WorldParts<'_>, _child: ::archetypal::Entity, _parent: ::archetypal::Entity) {
        world.resources.hooked += 1;
    }
}

fn main() {
    // The test's own code needs these; the generated code must not.
    use ::core::assert;
    use ::core::assert_eq;
    use ::core::convert::From;
    use ::core::iter::Iterator;
    use ::core::option::Option::Some;

    use game::{CHILD_OF, EntityBuilder, HEALTH, POSITION, Position, VELOCITY, Velocity, World};

    let mut world = World::new();
    world.resources.delta_time = 0.5;
    world
        .resources
        .names
        .push(::std::string::String::from("player"));

    let entity = world.spawn(POSITION | VELOCITY);
    let parent = world.spawn(POSITION);
    assert_eq!(world.set_child_of(entity, parent), ::core::result::Result::Ok(::core::option::Option::None));
    assert_eq!(world.get_children(parent), &[entity]);
    assert_eq!(world.descendants_child_of(parent).count(), 1);
    world.commands().queue_set_child_of(entity, parent);
    world.apply_commands();
    assert_eq!(world.resources.hooked, 2, "two positions added");
    assert!(world.has_components(entity, CHILD_OF));
    assert_eq!(world.remove_child_of(entity), Some(parent));
    world.despawn(parent);
    assert!(world.set_velocity(entity, Velocity { x: 2.0, y: 4.0 }));
    let delta_time = world.resources.delta_time;
    world.for_each_mut(POSITION | VELOCITY, 0, |_, table, index| {
        table.position[index].x += table.velocity[index].x * delta_time;
        table.position[index].y += table.velocity[index].y * delta_time;
    });
    assert_eq!(
        world.get_position(entity),
        Some(&Position { x: 1.0, y: 2.0 })
    );

    assert!(world.add_health(entity));
    assert_eq!(
        world.get_health_mut(entity).map(|health| {
            *health += 3;
            *health
        }),
        Some(3)
    );
    assert_eq!(
        world.remove_velocity(entity),
        Some(Velocity { x: 2.0, y: 4.0 })
    );
    assert!(!world.has_velocity(entity));

    let built = EntityBuilder::new()
        .with_position(Position { x: 1.0, y: 1.0 })
        .with_health(7)
        .spawn(&mut world, 3);
    assert_eq!(built.len(), 3);
    let one = EntityBuilder::new().with_health(1).spawn_one(&mut world);
    assert!(world.is_alive(one));

    assert_eq!(world.query_entities(HEALTH).count(), 5);
    assert_eq!(world.typed_query_ref::<&u32>().iter().copied().sum::<u32>(), 3 + 3 * 7 + 1);
    assert_eq!(world.entity_count(), 5);
    assert!(world.despawn(entity));
    assert!(world.check_invariants().is_ok());

    // Tags, events, commands and ticks, generated as hygienically.
    let tagged = world.spawn(game::POSITION | game::PLAYER);
    assert!(world.has_player(tagged));
    assert_eq!(world.query_entities(game::PLAYER).count(), 1);
    world.events.landed.send(game::Position { x: 1.0, y: 2.0 });
    let mut cursor = ::archetypal::EventCursor::new();
    assert_eq!(world.events.landed.consume(&mut cursor).len(), 1);
    assert_eq!(world.events.landed.collect().len(), 1);
    let queued = world.commands().queue_spawn_entities(game::HEALTH, 2);
    world.commands().queue_set_health(queued[0], 3);
    world.commands().queue_remove_player(tagged);
    assert_eq!(world.apply_commands().applied, 3);
    assert!(!world.has_player(tagged));
    world.step();
    assert!(world.current_tick().is_newer_than(world.last_tick()));
}
