//! Several worlds and the less common shapes of input: two worlds side by side in one module,
//! attributes on components (`#[cfg]`, doc comments) and a `Resources` block of several types.

use archetypal::{Entity, ecs};

// ----- two worlds in one module ---------------------------------------------------------------

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, PartialEq)]
pub struct Label(pub String);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub width: u16,
    pub height: u16,
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Visible(pub bool);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
    }
    Resources {
        delta_time: f32,
    }
}

ecs! {
    UiWorld {
        label: Label => LABEL,
        rect: Rect => RECT,
        visible: Visible => VISIBLE,
    }
    Resources {
        focus: Option<Entity>,
    }
}

#[test]
fn two_worlds_have_their_own_prefixed_types() {
    assert_eq!(World::COMPONENT_COUNT, 2);
    assert_eq!(UiWorld::COMPONENT_COUNT, 3);
    let _: WorldMask = POSITION | VELOCITY;
    let _: UiWorldMask = LABEL | RECT | VISIBLE;
    assert_eq!([POSITION, VELOCITY], [1, 2]);
    assert_eq!(
        [LABEL, RECT, VISIBLE],
        [1, 2, 4],
        "each world counts its own bits"
    );

    let mut world = World::new();
    let mut ui = UiWorld::new();
    world.resources.delta_time = 0.5;
    let _: &WorldResources = &world.resources;
    let _: &UiWorldResources = &ui.resources;

    let mover = WorldEntityBuilder::new()
        .with_position(Position { x: 1.0, y: 1.0 })
        .with_velocity(Velocity { x: 2.0, y: 0.0 })
        .spawn_one(&mut world);
    let button = UiWorldEntityBuilder::new()
        .with_label(Label("OK".to_string()))
        .with_rect(Rect {
            width: 80,
            height: 20,
        })
        .spawn_one(&mut ui);
    ui.resources.focus = Some(button);
    let hidden = ui.spawn(LABEL | VISIBLE);

    // The two worlds issue handles independently: both start at id 0.
    assert_eq!(mover, Entity::new(0, 0));
    assert_eq!(button, Entity::new(0, 0));
    assert_eq!(world.entity_count(), 1);
    assert_eq!(ui.entity_count(), 2);

    let delta_time = world.resources.delta_time;
    world.for_each_mut(
        POSITION | VELOCITY,
        0,
        |_, table: &mut WorldComponentArraysMut<'_>, index| {
            table.position[index].x += table.velocity[index].x * delta_time;
        },
    );
    ui.for_each_mut(
        LABEL,
        VISIBLE,
        |_, table: &mut UiWorldComponentArraysMut<'_>, index| {
            table.label[index].0.push('!');
        },
    );
    assert_eq!(
        world.get_position(mover),
        Some(&Position { x: 2.0, y: 1.0 })
    );
    assert_eq!(ui.get_label(button), Some(&Label("OK!".to_string())));
    assert_eq!(ui.get_label(hidden), Some(&Label::default()));
    assert_eq!(ui.resources.focus, Some(button));

    let world_tables: &[WorldComponentArrays] = world.tables();
    let ui_tables: &[UiWorldComponentArrays] = ui.tables();
    assert_eq!(world_tables.len(), 1);
    assert_eq!(ui_tables.len(), 2);
    assert_eq!(ui_tables[0].mask, LABEL | RECT);
    assert_eq!(
        ui_tables[0].rect,
        vec![Rect {
            width: 80,
            height: 20
        }]
    );

    // Structural change in one world leaves the other alone.
    assert!(ui.set_visible(button, Visible(true)));
    assert_eq!(ui.component_mask(button), Some(LABEL | RECT | VISIBLE));
    assert_eq!(world.component_mask(mover), Some(POSITION | VELOCITY));
    assert!(world.despawn(mover));
    assert!(ui.is_alive(button));
    assert_eq!(ui.get_rect(button).map(|rect| rect.width), Some(80));
    world.check_invariants().unwrap();
    ui.check_invariants().unwrap();
}

#[test]
fn two_worlds_builders_and_spawn_batches() {
    let mut world = World::new();
    let mut ui = UiWorld::new();
    let movers = WorldEntityBuilder::new()
        .with_velocity(Velocity { x: 0.0, y: -1.0 })
        .spawn(&mut world, 4);
    let labels = UiWorldEntityBuilder::new()
        .with_label(Label("item".to_string()))
        .spawn(&mut ui, 3);
    let rects = ui.spawn_batch(RECT, 2, |table, index| {
        table.rect[index].width = 10 * index as u16 + 10;
    });
    assert_eq!(movers.len(), 4);
    assert_eq!(labels.len(), 3);
    assert_eq!(
        world
            .typed_query_ref::<&Velocity>()
            .iter()
            .filter(|v| v.y == -1.0)
            .count(),
        4
    );
    assert_eq!(ui.typed_query_ref::<&Label>().count(), 3);
    assert_eq!(ui.get_rect(rects[1]).map(|rect| rect.width), Some(20));
    assert_eq!(
        WorldEntityBuilder::new()
            .with_position(Position::default())
            .mask(),
        POSITION
    );
    assert_eq!(
        UiWorldEntityBuilder::new()
            .with_visible(Visible(false))
            .mask(),
        VISIBLE
    );
}

// ----- attributes on components, and the Resources block --------------------------------------

mod attributes {
    use archetypal::ecs;

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Position(pub i32);

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Velocity(pub i32);

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Mass(pub u32);

    /// Compiled out with its component, as a `#[cfg(feature = "...")]` debug component is.
    #[cfg(any())]
    #[derive(Default, Debug)]
    pub struct DebugInfo(pub String);

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Settings {
        pub volume: u8,
    }

    ecs! {
        GameWorld {
            /// Where the entity is, in world units.
            position: Position => POSITION,
            #[cfg(any())]
            debug_info: DebugInfo => DEBUG_INFO,
            /// How fast it moves.
            ///
            /// A second paragraph, to pass more than one doc attribute through.
            velocity: Velocity => VELOCITY,
            #[cfg(all())]
            mass: Mass => MASS,
        }
        Resources {
            /// Seconds per frame.
            delta_time: f32,
            names: Vec<String>,
            #[cfg(all())]
            frame: u64,
            #[cfg(any())]
            hidden: u8,
            settings: Settings,
            paused: bool,
        }
    }

    #[test]
    fn a_cfg_disabled_component_vanishes() {
        assert_eq!(COMPONENT_COUNT, 3);
        assert_eq!(GameWorld::COMPONENT_COUNT, 3);
        assert_eq!(
            [POSITION, VELOCITY, MASS],
            [1, 2, 4],
            "no bit is spent on the disabled component"
        );
        let mut world = GameWorld::new();
        let entity = world.spawn(POSITION | VELOCITY | MASS);
        assert!(world.set_velocity(entity, Velocity(3)));
        assert!(world.set_mass(entity, Mass(70)));
        assert_eq!(world.component_mask(entity), Some(0b111));
        assert_eq!(world.get_velocity(entity), Some(&Velocity(3)));
        assert_eq!(world.remove_mass(entity), Some(Mass(70)));
        assert_eq!(world.component_mask(entity), Some(POSITION | VELOCITY));
        world.check_invariants().unwrap();
    }

    #[test]
    fn doc_commented_components_work_like_any_other() {
        let mut world = GameWorld::new();
        let built = EntityBuilder::new()
            .with_position(Position(5))
            .with_velocity(Velocity(-1))
            .spawn(&mut world, 2);
        world.for_each_mut(POSITION | VELOCITY, 0, |_, table, index| {
            table.position[index].0 += table.velocity[index].0;
        });
        for entity in built {
            assert_eq!(world.get_position(entity), Some(&Position(4)));
            assert!(world.has_velocity(entity));
            assert!(!world.has_mass(entity));
        }
    }

    #[test]
    fn resources_are_default_initialised_and_writable() {
        let mut world = GameWorld::new();
        assert_eq!(world.resources.delta_time, 0.0);
        assert!(world.resources.names.is_empty());
        assert_eq!(world.resources.frame, 0);
        assert_eq!(world.resources.settings, Settings::default());
        assert!(!world.resources.paused);

        world.resources.delta_time = 1.0 / 60.0;
        world.resources.names.push("alice".to_string());
        world.resources.names.push("bob".to_string());
        world.resources.frame += 1;
        world.resources.settings.volume = 7;
        world.resources.paused = true;

        assert_eq!(world.resources.delta_time, 1.0 / 60.0);
        assert_eq!(world.resources.names, vec!["alice", "bob"]);
        assert_eq!(world.resources.frame, 1);
        assert_eq!(world.resources.settings.volume, 7);
        assert!(world.resources.paused);

        // The Resources struct is a plain, default-constructible value.
        let fresh = GameWorldResources::default();
        assert!(fresh.names.is_empty());
        world.resources = fresh;
        assert_eq!(world.resources.frame, 0);
        let _: &Resources = &world.resources;
    }
}

// The `#[cfg]`-disabled component *types* (compiled out, or not `Clone`) are compile-pass
// cases in `ui/pass/cfg_type_*.rs`.

// ----- a world without a Resources block ------------------------------------------------------

mod no_resources {
    use archetypal::ecs;

    #[derive(Default, Debug, PartialEq)]
    pub struct Counter(pub u64);

    ecs! {
        Tiny {
            counter: Counter => COUNTER,
        }
    }

    #[test]
    fn a_world_without_resources_has_an_empty_resources_struct() {
        let mut world = Tiny::new();
        let _: &TinyResources = &world.resources;
        let entities = world.spawn_entities(COUNTER, 3);
        for (index, &entity) in entities.iter().enumerate() {
            if let Some(counter) = world.get_counter_mut(entity) {
                counter.0 = index as u64 * 2;
            }
        }
        assert_eq!(
            world
                .typed_query_ref::<&Counter>()
                .iter()
                .map(|c| c.0)
                .sum::<u64>(),
            6
        );
        assert_eq!(COMPONENT_COUNT, 1);
        assert_eq!(COUNTER, 1);
    }
}
