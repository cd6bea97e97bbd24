//! Typed tuple queries: `world.typed_query::<(&mut Position, &Velocity)>()`, filtered with
//! `with` / `without` (components and tags), with `Entity` and `Option` elements, stamping the
//! components they borrow mutably.

use std::collections::BTreeSet;

use archetypal::Entity;

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
pub struct Name(pub String);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Scratch(pub i32);

archetypal::ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        name: Name => NAME,
        health: Health => HEALTH,
        scratch: Scratch => SCRATCH [untracked],
    }
    Tags {
        player => PLAYER,
        frozen => FROZEN,
    }
}

/// Several archetypes, each entity's values derived from its index so tests can check them.
fn populated() -> (World, Vec<Entity>) {
    let mut world = World::new();
    let masks = [
        POSITION,
        POSITION | VELOCITY,
        POSITION | VELOCITY | NAME,
        POSITION | VELOCITY | HEALTH,
        VELOCITY | HEALTH,
        NAME,
    ];
    let mut entities = Vec::new();
    for (group, &mask) in masks.iter().enumerate() {
        for _ in 0..4 {
            let entity = world.spawn(mask);
            let n = entities.len() as f32;
            if let Some(p) = world.get_position_mut(entity) {
                *p = Position { x: n, y: -n };
            }
            if let Some(v) = world.get_velocity_mut(entity) {
                *v = Velocity {
                    x: 1.0,
                    y: group as f32,
                };
            }
            if let Some(h) = world.get_health_mut(entity) {
                h.0 = entities.len() as i32;
            }
            if let Some(name) = world.get_name_mut(entity) {
                name.0 = format!("e{}", entities.len());
            }
            entities.push(entity);
        }
    }
    world.step();
    (world, entities)
}

fn set(entities: impl IntoIterator<Item = Entity>) -> BTreeSet<Entity> {
    entities.into_iter().collect()
}

fn having(world: &World, entities: &[Entity], mask: WorldMask) -> BTreeSet<Entity> {
    set(entities
        .iter()
        .copied()
        .filter(|&e| world.has_components(e, mask)))
}

#[test]
fn writes_and_reads_reach_every_matching_archetype() {
    let (mut world, entities) = populated();
    let before: Vec<_> = entities
        .iter()
        .map(|&e| {
            (
                world.get_position(e).copied(),
                world.get_velocity(e).copied(),
            )
        })
        .collect();
    let mut visited = Vec::new();
    world
        .typed_query::<(Entity, &mut Position, &Velocity)>()
        .for_each(|(entity, mut position, velocity)| {
            position.x += velocity.x;
            position.y += velocity.y;
            visited.push(entity);
        });
    assert_eq!(
        set(visited.iter().copied()),
        having(&world, &entities, POSITION | VELOCITY)
    );
    assert_eq!(visited.len(), 12, "each entity once");
    for (index, &entity) in entities.iter().enumerate() {
        let (position, velocity) = before[index];
        let expected = match (position, velocity) {
            (Some(p), Some(v)) => Some(Position {
                x: p.x + v.x,
                y: p.y + v.y,
            }),
            (p, _) => p,
        };
        assert_eq!(world.get_position(entity).copied(), expected, "{entity}");
    }
    world.check_invariants().unwrap();
}

#[test]
fn single_elements_and_nested_tuples() {
    let (mut world, entities) = populated();
    let mut count = 0;
    world.typed_query::<&mut Health>().for_each(|mut health| {
        health.0 *= 2;
        count += 1;
    });
    assert_eq!(count, 8, "groups 3 and 4");
    for (index, &entity) in entities.iter().enumerate() {
        if let Some(health) = world.get_health(entity) {
            assert_eq!(health.0, 2 * index as i32);
        }
    }
    let mut sum = 0;
    world
        .typed_query::<(&Health, (Entity, &Velocity))>()
        .for_each(|(health, (entity, velocity))| {
            assert_eq!(world_index(&entities, entity) as i32 * 2, health.0);
            sum += velocity.y as i32;
        });
    assert_eq!(sum, 4 * 3 + 4 * 4, "groups 3 and 4 hold both");
    let entity_count = world.entity_count();
    let mut everyone = 0;
    world.typed_query::<Entity>().for_each(|_| everyone += 1);
    assert_eq!(
        everyone, entity_count,
        "an Entity query matches every entity"
    );
}

fn world_index(entities: &[Entity], entity: Entity) -> usize {
    entities.iter().position(|&e| e == entity).unwrap()
}

#[test]
fn with_and_without_filter_by_components() {
    let (mut world, entities) = populated();
    let mut seen = Vec::new();
    world
        .typed_query::<(Entity, &Position)>()
        .with(VELOCITY)
        .without(NAME | HEALTH)
        .for_each(|(entity, _)| seen.push(entity));
    assert_eq!(seen, entities[4..8].to_vec(), "only POSITION | VELOCITY");
    assert_eq!(
        world
            .typed_query::<&Position>()
            .with(VELOCITY)
            .without(NAME | HEALTH)
            .count(),
        4
    );
    let mut none = 0;
    world
        .typed_query::<&mut Position>()
        .without(POSITION)
        .for_each(|_| none += 1);
    assert_eq!(none, 0);
}

#[test]
fn tag_filters_pick_single_rows() {
    let (mut world, entities) = populated();
    // Players scattered over tables, some frozen, including the first and last row of a table.
    let players = [
        entities[0],
        entities[3],
        entities[5],
        entities[6],
        entities[12],
        entities[15],
    ];
    for &player in &players {
        world.add_player(player);
    }
    world.add_frozen(entities[5]);
    world.add_frozen(entities[1]);

    let mut moved = Vec::new();
    world
        .typed_query::<(Entity, &mut Position)>()
        .with(PLAYER)
        .without(FROZEN)
        .for_each(|(entity, mut position)| {
            position.x += 1000.0;
            moved.push(entity);
        });
    let expected: Vec<Entity> = players
        .iter()
        .copied()
        .filter(|&e| e != entities[5])
        .collect();
    // Within a table, tagging regroups rows by tag signature: compare as sets.
    assert_eq!(
        sorted(moved),
        sorted(expected.clone()),
        "exactly the players not frozen"
    );
    for (index, &entity) in entities.iter().enumerate() {
        if let Some(position) = world.get_position(entity) {
            let bonus = if expected.contains(&entity) {
                1000.0
            } else {
                0.0
            };
            assert_eq!(position.x, index as f32 + bonus, "{entity}");
        }
    }
    // Only the rows handed out are stamped, not their whole tables.
    let changed = set(world
        .typed_query_ref::<Entity>()
        .changed_since(POSITION, world.last_tick())
        .iter());
    assert_eq!(changed, set(expected));
    world.check_invariants().unwrap();
}

#[test]
fn option_elements_see_tables_lacking_the_column() {
    let (mut world, entities) = populated();
    let mut seen = Vec::new();
    world
        .typed_query::<(Entity, &Position, Option<&Velocity>, Option<&Name>)>()
        .for_each(|(entity, _, velocity, name)| {
            seen.push((entity, velocity.copied(), name.cloned()));
        });
    assert_eq!(seen.len(), 16);
    for (entity, velocity, name) in seen {
        assert_eq!(velocity, world.get_velocity(entity).copied(), "{entity}");
        assert_eq!(name, world.get_name(entity).cloned(), "{entity}");
    }

    // An optional mutable element writes where the column exists, and stamps only those tables.
    world
        .typed_query::<(&Position, Option<&mut Health>)>()
        .for_each(|(position, health)| {
            if let Some(mut health) = health {
                health.0 = position.x as i32 + 1000;
            }
        });
    for (index, &entity) in entities.iter().enumerate() {
        match (index / 4, world.get_health(entity)) {
            (3, Some(health)) => assert_eq!(health.0, index as i32 + 1000),
            (4, Some(health)) => assert_eq!(health.0, index as i32, "no position: not visited"),
            (_, health) => assert_eq!(health, None),
        }
    }
    let changed = set(world
        .typed_query_ref::<Entity>()
        .changed_since(HEALTH, world.last_tick())
        .iter());
    assert_eq!(changed, set(entities[12..16].iter().copied()));

    // Only optional elements: every entity, the right length per table.
    let mut rows = 0;
    world
        .typed_query::<(Option<&Name>, Option<&mut Scratch>)>()
        .for_each(|_| rows += 1);
    assert_eq!(rows, world.entity_count());
}

#[test]
fn mutable_elements_stamp_the_rows_written_through_them() {
    let (mut world, entities) = populated();
    let since = world.last_tick();
    let changed = world
        .typed_query_ref::<Entity>()
        .changed_since(POSITION | VELOCITY | HEALTH, since)
        .count();
    assert_eq!(changed, 0, "settled by step()");

    world
        .typed_query::<(&mut Velocity, &Position, Option<&mut Scratch>)>()
        .without(NAME)
        .for_each(|(mut velocity, _, _)| velocity.x += 1.0);
    let stamped = set(world
        .typed_query_ref::<Entity>()
        .changed_since(VELOCITY, world.last_tick())
        .iter());
    assert_eq!(
        stamped,
        set(entities[4..8].iter().chain(&entities[12..16]).copied())
    );
    assert!(
        world
            .typed_query_ref::<Entity>()
            .changed_since(POSITION, world.last_tick())
            .iter()
            .next()
            .is_none(),
        "a shared element does not stamp"
    );
    let mut seen = BTreeSet::new();
    world
        .typed_query::<(Entity, &mut Velocity)>()
        .changed_since(VELOCITY, since)
        .for_each(|(entity, _)| {
            seen.insert(entity);
        });
    assert_eq!(seen, stamped);

    // A later consumer's cursor: only writes after it count.
    let cursor = world.current_tick();
    world.increment_tick();
    assert!(
        world
            .typed_query_ref::<Entity>()
            .changed_since(VELOCITY, cursor)
            .iter()
            .next()
            .is_none()
    );
    world
        .typed_query::<&mut Velocity>()
        .with(HEALTH)
        .without(POSITION)
        .for_each(|velocity| assert!(velocity.x >= 0.0));
    assert!(
        world
            .typed_query_ref::<Entity>()
            .changed_since(VELOCITY, cursor)
            .iter()
            .next()
            .is_none(),
        "visiting a row through `&mut` without writing it is not a change"
    );
    world
        .typed_query::<&mut Velocity>()
        .with(HEALTH)
        .without(POSITION)
        .for_each(|mut velocity| velocity.x += 0.5);
    assert_eq!(
        set(world
            .typed_query_ref::<Entity>()
            .changed_since(VELOCITY, cursor)
            .iter()),
        set(entities[16..20].iter().copied())
    );
    world.check_invariants().unwrap();
}

#[test]
fn entities_follow_their_rows_after_migrations_and_despawns() {
    let (mut world, entities) = populated();
    world.despawn(entities[4]);
    world.remove_velocity(entities[8]);
    world.add_components(entities[0], VELOCITY);
    world
        .typed_query::<(Entity, &mut Position)>()
        .for_each(|(entity, mut position)| {
            position.y = (entity.id * 10) as f32;
        });
    world
        .typed_query::<(Entity, &Position, &Health)>()
        .for_each(|(entity, position, health)| {
            assert_eq!(position.y, (entity.id * 10) as f32);
            assert_eq!(health.0, world_index(&entities, entity) as i32);
        });
    for &entity in &entities[1..] {
        if let Some(position) = world.get_position(entity) {
            assert_eq!(position.y, (entity.id * 10) as f32);
        }
    }
    world.check_invariants().unwrap();
}

mod shared_type {
    //! Two components of one type: the world compiles, and the components with a type of
    //! their own stay queryable by type.

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Label(pub &'static str);

    archetypal::ecs! {
        Stats {
            strength: u32 => STRENGTH,
            agility: u32 => AGILITY,
            label: Label => LABEL,
        }
    }

    #[test]
    fn unambiguous_components_stay_queryable() {
        let mut stats = Stats::new();
        let hero = stats.spawn(STRENGTH | AGILITY | LABEL);
        stats.set_strength(hero, 3);
        stats.set_agility(hero, 5);
        stats.set_label(hero, Label("hero"));
        let mut labels = Vec::new();
        stats
            .typed_query::<(archetypal::Entity, &mut Label)>()
            .with(STRENGTH)
            .for_each(|(entity, mut label)| {
                labels.push((entity, *label));
                *label = Label("champion");
            });
        assert_eq!(labels, vec![(hero, Label("hero"))]);
        assert_eq!(stats.get_label(hero), Some(&Label("champion")));
        // The u32 columns, through the untyped slice view.
        stats.for_each_table_mut(STRENGTH | AGILITY, 0, |table| {
            for (strength, agility) in table.strength.iter_mut().zip(table.agility.iter()) {
                *strength += agility;
            }
        });
        assert_eq!(stats.get_strength(hero), Some(&8));
    }
}

mod wide {
    //! A world past 64 bits (a `u128` mask) with tags above bit 64.

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Last(pub u8);

    macro_rules! wide_world {
        ($($field:ident => $mask:ident),*) => {
            archetypal::ecs! {
                Wide {
                    $($field: u8 => $mask,)*
                    last: Last => LAST,
                }
                Tags {
                    high_tag => HIGH_TAG,
                }
            }
        };
    }

    wide_world!(
        c00 => C00, c01 => C01, c02 => C02, c03 => C03, c04 => C04, c05 => C05, c06 => C06,
        c07 => C07, c08 => C08, c09 => C09, c10 => C10, c11 => C11, c12 => C12, c13 => C13,
        c14 => C14, c15 => C15, c16 => C16, c17 => C17, c18 => C18, c19 => C19, c20 => C20,
        c21 => C21, c22 => C22, c23 => C23, c24 => C24, c25 => C25, c26 => C26, c27 => C27,
        c28 => C28, c29 => C29, c30 => C30, c31 => C31, c32 => C32, c33 => C33, c34 => C34,
        c35 => C35, c36 => C36, c37 => C37, c38 => C38, c39 => C39, c40 => C40, c41 => C41,
        c42 => C42, c43 => C43, c44 => C44, c45 => C45, c46 => C46, c47 => C47, c48 => C48,
        c49 => C49, c50 => C50, c51 => C51, c52 => C52, c53 => C53, c54 => C54, c55 => C55,
        c56 => C56, c57 => C57, c58 => C58, c59 => C59, c60 => C60, c61 => C61, c62 => C62,
        c63 => C63, c64 => C64, c65 => C65
    );

    #[test]
    fn u128_masks_and_high_tags() {
        const { assert!(LAST == 1u128 << 66) };
        let mut wide = Wide::new();
        let tagged = wide.spawn(LAST | C00 | HIGH_TAG);
        let plain = wide.spawn(LAST);
        let mut seen = Vec::new();
        wide.typed_query::<(archetypal::Entity, &mut Last)>()
            .with(HIGH_TAG)
            .for_each(|(entity, mut last)| {
                last.0 = 9;
                seen.push(entity);
            });
        assert_eq!(seen, vec![tagged]);
        assert_eq!(wide.get_last(tagged), Some(&Last(9)));
        assert_eq!(wide.get_last(plain), Some(&Last(0)));
        assert_eq!(wide.typed_query::<&Last>().without(HIGH_TAG).count(), 1);
    }
}

mod multi_world {
    //! Sub-worlds of the multi-world form get typed queries too, over their own tables.

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Position(pub f32);

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Velocity(pub f32);

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Tint(pub u32);

    archetypal::ecs! {
        Game {
            Core {
                position: Position => POSITION,
                velocity: Velocity => VELOCITY,
            }
            Tags {
                player => PLAYER,
            }
            Render {
                tint: Tint => TINT,
            }
        }
    }

    #[test]
    fn sub_worlds_have_typed_queries() {
        let mut game = Game::new();
        let player = game.spawn();
        let other = game.spawn();
        for (entity, speed) in [(player, 2.0), (other, 3.0)] {
            game.core.set_position(entity, Position(1.0));
            game.core.set_velocity(entity, Velocity(speed));
            game.render.set_tint(entity, Tint(7));
        }
        game.core.add_player(player);
        game.core
            .typed_query::<(&mut Position, &Velocity)>()
            .with(PLAYER)
            .for_each(|(mut position, velocity)| position.0 += velocity.0);
        assert_eq!(game.core.get_position(player), Some(&Position(3.0)));
        assert_eq!(game.core.get_position(other), Some(&Position(1.0)));
        let mut tints = Vec::new();
        game.render
            .typed_query::<(archetypal::Entity, &mut Tint)>()
            .for_each(|(entity, mut tint)| {
                tint.0 += 1;
                tints.push(entity);
            });
        assert_eq!(tints, vec![player, other]);
        assert_eq!(game.render.get_tint(other), Some(&Tint(8)));
    }
}

fn sorted<T: Ord>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut items: Vec<T> = items.into_iter().collect();
    items.sort();
    items
}
