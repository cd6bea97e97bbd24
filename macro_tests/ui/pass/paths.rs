//! Paths wherever `ecs!` takes a type or a function: component, event and resource types and
//! hooks named by a path of several segments, in a world and in a multi-world (its sub-worlds'
//! hooks and its own), each reaching the generated code whole.

pub mod shapes {
    #[derive(Default, Clone, Copy, Debug, PartialEq)]
    pub struct Position {
        pub x: f32,
        pub y: f32,
    }
}

pub mod hooks {
    pub fn placed(world: &mut crate::WorldParts<'_>, entity: archetypal::Entity) {
        world.resources.placed.push(entity);
    }

    pub fn orphaned(_: &mut crate::WorldParts<'_>, _: archetypal::Entity, _: archetypal::Entity) {}

    pub fn sprite_added(game: &mut crate::GameParts<'_>, entity: archetypal::Entity) {
        game.resources.added.push(entity);
    }

    pub fn gone(game: &mut crate::GameParts<'_>, entity: archetypal::Entity) {
        game.resources.gone.push(entity);
    }
}

archetypal::ecs! {
    World {
        position: self::shapes::Position => POSITION,
        target: ::core::option::Option<archetypal::Entity> => TARGET,
        owner: archetypal::Entity => OWNER [untracked],
    }
    Relations {
        child_of / children => CHILD_OF,
    }
    Events {
        moved: crate::shapes::Position,
    }
    Resources {
        placed: ::std::vec::Vec<archetypal::Entity>,
    }
    Hooks {
        on_add(POSITION) => crate::hooks::placed,
        on_unlink(CHILD_OF) => self::hooks::orphaned,
    }
}

archetypal::ecs! {
    Game {
        Core {
            position: crate::shapes::Position => CORE_POSITION,
            owner: archetypal::Entity => CORE_OWNER,
        }
        Render {
            sprite: ::core::primitive::u32 => SPRITE,
        }
        Hooks {
            on_add(SPRITE) => crate::hooks::sprite_added,
        }
    }
    Resources {
        added: ::std::vec::Vec<archetypal::Entity>,
        gone: ::std::vec::Vec<archetypal::Entity>,
    }
    Hooks {
        on_despawn => hooks::gone,
    }
}

fn main() {
    let mut world = World::new();
    let entity = WorldEntityBuilder::new()
        .with_position(shapes::Position { x: 1.0, y: 2.0 })
        .with_owner(archetypal::Entity::PLACEHOLDER)
        .spawn_one(&mut world);
    world.apply_commands();
    assert_eq!(world.resources.placed, [entity]);

    let mut game = Game::new();
    let entity = GameEntityBuilder::new().with_sprite(7).spawn_one(&mut game);
    game.apply_commands();
    assert_eq!(game.resources.added, [entity]);
    game.despawn(entity);
    game.apply_commands();
    assert_eq!(game.resources.gone, [entity]);
}
