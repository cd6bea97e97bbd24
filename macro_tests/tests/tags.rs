//! Tags: `Tags { player => PLAYER, ... }` markers kept beside the tables.
//!
//! Every per-tag method (`add_<tag>`, `remove_<tag>`, `has_<tag>`, `query_<tag>`) on live and
//! on dead handles (despawned, stale with a recycled id, never issued, `Entity::default()`, a
//! future generation); tag bits in spawn masks, in `add_components` / `remove_components`, in
//! `component_mask` and in the include and exclude masks of every query form; tagging never
//! migrates; despawning and recycling never leave a tag behind. `check_invariants` runs after
//! every mutation.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use archetypal::{Entity, ecs};

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

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub u32);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
    }
    Tags {
        player => PLAYER,
        selected => SELECTED,
        enemy => ENEMY,
    }
}

const COMPONENTS: Mask = POSITION | VELOCITY | HEALTH;
const TAGS: Mask = PLAYER | SELECTED | ENEMY;

fn pos(x: f32, y: f32) -> Position {
    Position { x, y }
}

/// Panics with the broken invariant, if any.
#[track_caller]
fn valid(world: &World) {
    if let Err(error) = world.check_invariants() {
        panic!("{error}");
    }
}

fn sorted<T: Ord>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut items: Vec<T> = items.into_iter().collect();
    items.sort();
    items
}

/// The tags of `entity`, read through the three `has_<tag>` methods.
fn tags_of(world: &World, entity: Entity) -> Mask {
    [
        (PLAYER, world.has_player(entity)),
        (SELECTED, world.has_selected(entity)),
        (ENEMY, world.has_enemy(entity)),
    ]
    .iter()
    .filter(|(_, has)| *has)
    .fold(0, |mask, (bit, _)| mask | bit)
}

/// The entities of every `query_<tag>()` at once, each sorted.
fn tag_lists(world: &World) -> [Vec<Entity>; 3] {
    [
        sorted(world.query_entities(PLAYER)),
        sorted(world.query_entities(SELECTED)),
        sorted(world.query_entities(ENEMY)),
    ]
}

/// The table index of `entity`, found through the read-only tables.
fn place(world: &World, entity: Entity) -> Option<usize> {
    world
        .tables()
        .iter()
        .position(|table| table.entities.contains(&entity))
}

/// Every table's mask and its entities, sorted: what a tag change must leave as it was (it
/// may move a row within its table, to its tag segment, never to another table).
fn table_members(world: &World) -> Vec<(Mask, Vec<Entity>)> {
    world
        .tables()
        .iter()
        .map(|table| (table.mask, sorted(table.entities.iter().copied())))
        .collect()
}

fn matches(mask: Mask, include: Mask, exclude: Mask) -> bool {
    mask & include == include && mask & exclude == 0
}

// ----- constants ------------------------------------------------------------------------------

#[test]
fn tag_bits_follow_the_component_bits() {
    assert_eq!(COMPONENT_COUNT, 3);
    assert_eq!(World::COMPONENT_COUNT, 3, "tags are not components");
    assert_eq!(
        [POSITION, VELOCITY, HEALTH, PLAYER, SELECTED, ENEMY],
        [1, 2, 4, 8, 16, 32]
    );
    let mask: u64 = PLAYER | SELECTED;
    assert_eq!(mask, 24, "the mask type is u64 for six bits");
}

// ----- the per-tag methods --------------------------------------------------------------------

#[test]
fn add_remove_has_and_query_on_live_entities() {
    let mut world = World::new();
    let hero = world.spawn(POSITION);
    let villager = world.spawn(POSITION);
    world.set_position(hero, pos(1.0, 2.0));
    world.set_position(villager, pos(3.0, 4.0));
    assert_eq!(tags_of(&world, hero), 0);
    assert_eq!(tag_lists(&world), [vec![], vec![], vec![]]);

    assert!(world.add_player(hero));
    valid(&world);
    assert!(world.has_player(hero));
    assert!(!world.has_player(villager));
    assert!(!world.has_selected(hero) && !world.has_enemy(hero));
    assert_eq!(sorted(world.query_entities(PLAYER)), vec![hero]);

    assert!(
        world.add_player(hero),
        "true for a live entity already tagged"
    );
    valid(&world);
    assert_eq!(
        world.query_entities(PLAYER).count(),
        1,
        "tagging twice lists once"
    );

    assert!(world.add_selected(hero));
    assert!(world.add_selected(villager));
    assert!(world.add_enemy(villager));
    valid(&world);
    assert_eq!(tags_of(&world, hero), PLAYER | SELECTED);
    assert_eq!(tags_of(&world, villager), SELECTED | ENEMY);
    assert_eq!(
        tag_lists(&world),
        [vec![hero], sorted([hero, villager]), vec![villager]]
    );

    assert!(world.remove_player(hero));
    valid(&world);
    assert!(!world.has_player(hero));
    assert!(world.has_selected(hero), "other tags stay");
    assert_eq!(world.query_entities(PLAYER).count(), 0);
    assert!(
        world.remove_player(hero),
        "true for a live entity without the tag"
    );
    assert!(world.remove_player(villager), "never had it: still true");
    valid(&world);

    assert!(world.remove_selected(villager));
    assert_eq!(sorted(world.query_entities(SELECTED)), vec![hero]);
    assert_eq!(tags_of(&world, villager), ENEMY);

    // Components are untouched by all of this.
    assert_eq!(world.get_position(hero), Some(&pos(1.0, 2.0)));
    assert_eq!(world.get_position(villager), Some(&pos(3.0, 4.0)));
    assert_eq!(world.entity_count(), 2);
    valid(&world);
}

#[test]
fn a_tag_only_entity_lives_in_the_empty_table() {
    let mut world = World::new();
    let marker = world.spawn(0);
    assert!(world.add_enemy(marker));
    valid(&world);
    assert_eq!(world.component_mask(marker), Some(ENEMY));
    assert_eq!(world.tables()[0].mask, 0);
    assert_eq!(sorted(world.query_entities(ENEMY)), vec![marker]);
    assert_eq!(sorted(world.query_entities(ENEMY)), vec![marker]);
    let spawned = world.spawn(PLAYER | SELECTED);
    valid(&world);
    assert_eq!(world.archetype_count(), 1, "both in the table of mask 0");
    assert_eq!(world.component_mask(spawned), Some(PLAYER | SELECTED));
}

/// Handles that must resolve to nothing, next to live entities they must never reach.
struct DeadHandles {
    world: World,
    /// Holds the id `stale` had, at the next generation; tagged `player`.
    recycled: Entity,
    /// Tagged `player | enemy`.
    live: Entity,
    /// Handles that are not alive, with a label.
    bad: Vec<(&'static str, Entity)>,
}

impl DeadHandles {
    fn new() -> Self {
        let mut world = World::new();
        let stale = world.spawn(POSITION | PLAYER | SELECTED | ENEMY);
        assert!(world.despawn(stale));
        let recycled = world.spawn(POSITION);
        assert_eq!(recycled.id, stale.id, "the freed id is reused");
        assert_ne!(recycled.generation, stale.generation);
        assert_eq!(tags_of(&world, recycled), 0, "no tag carried over");
        assert!(world.add_player(recycled));
        let live = world.spawn(VELOCITY | PLAYER | ENEMY);
        let despawned = world.spawn(POSITION | SELECTED);
        assert!(world.despawn(despawned));
        valid(&world);
        let bad = vec![
            ("despawned", despawned),
            ("stale (id recycled)", stale),
            ("never issued", Entity::new(9_999, 0)),
            ("never issued, huge id", Entity::new(u32::MAX - 1, 0)),
            ("Entity::default()", Entity::default()),
            (
                "future generation of a live id",
                Entity::new(live.id, live.generation + 1),
            ),
        ];
        DeadHandles {
            world,
            recycled,
            live,
            bad,
        }
    }

    /// The live entities still hold exactly their tags, and nothing else is tagged.
    fn assert_live_untouched(&self) {
        let world = &self.world;
        assert_eq!(tags_of(world, self.recycled), PLAYER);
        assert_eq!(tags_of(world, self.live), PLAYER | ENEMY);
        assert_eq!(
            tag_lists(world),
            [sorted([self.recycled, self.live]), vec![], vec![self.live]]
        );
        assert_eq!(world.component_mask(self.recycled), Some(POSITION | PLAYER));
        assert_eq!(
            world.component_mask(self.live),
            Some(VELOCITY | PLAYER | ENEMY)
        );
        valid(world);
    }
}

#[test]
fn dead_handles_give_false_and_never_reach_a_live_entity() {
    let mut f = DeadHandles::new();
    f.assert_live_untouched();
    for (label, bad) in f.bad.clone() {
        let world = &mut f.world;
        assert!(!world.has_player(bad), "{label}");
        assert!(!world.has_selected(bad), "{label}");
        assert!(!world.has_enemy(bad), "{label}");
        assert_eq!(world.component_mask(bad), None, "{label}");
        assert!(!world.has_components(bad, PLAYER), "{label}");
        assert!(!world.has_components(bad, 0), "{label}");

        assert!(!world.add_player(bad), "{label}");
        assert!(!world.add_selected(bad), "{label}");
        assert!(!world.add_enemy(bad), "{label}");
        valid(world);
        assert!(!world.remove_player(bad), "{label}");
        assert!(!world.remove_selected(bad), "{label}");
        assert!(!world.remove_enemy(bad), "{label}");
        valid(world);
        assert!(!world.add_components(bad, POSITION | TAGS), "{label}");
        valid(world);
        assert!(!world.remove_components(bad, COMPONENTS | TAGS), "{label}");
        valid(world);
        assert!(!world.despawn(bad), "{label}");
        valid(world);

        assert!(!world.has_player(bad), "{label}: still not tagged");
        assert!(!world.query_entities(PLAYER).any(|e| e == bad), "{label}");
        assert!(!world.query_entities(SELECTED).any(|e| e == bad), "{label}");
        assert!(!world.query_entities(ENEMY).any(|e| e == bad), "{label}");
        assert!(!world.query_entities(PLAYER).any(|e| e == bad), "{label}");
        f.assert_live_untouched();
    }
}

#[test]
fn a_stale_handle_cannot_untag_or_tag_the_entity_that_reuses_its_id() {
    let mut world = World::new();
    let old = world.spawn(HEALTH);
    assert!(world.add_selected(old));
    assert!(world.despawn(old));
    let new = world.spawn(HEALTH);
    assert_eq!(new.id, old.id);
    assert!(world.add_player(new));
    valid(&world);

    assert!(!world.remove_player(old), "the stale handle is dead");
    assert!(world.has_player(new), "and did not untag the new entity");
    assert!(!world.add_enemy(old));
    assert!(!world.has_enemy(new), "nor tag it");
    assert!(!world.has_player(old));
    assert!(!world.has_selected(new), "the old entity's tag is gone");
    assert!(!world.remove_components(old, PLAYER));
    assert!(world.has_player(new));
    assert!(!world.add_components(old, SELECTED));
    assert!(!world.has_selected(new));
    assert_eq!(world.component_mask(new), Some(HEALTH | PLAYER));
    valid(&world);
}

#[test]
fn tags_do_not_carry_over_to_a_recycled_id() {
    let mut world = World::new();
    // Tagged by spawn, by add_<tag> and by add_components.
    let first = world.spawn(POSITION | PLAYER);
    assert!(world.add_selected(first));
    valid(&world);
    assert!(world.add_components(first, ENEMY));
    valid(&world);
    assert_eq!(tags_of(&world, first), TAGS);
    assert!(world.despawn(first));
    valid(&world);
    assert_eq!(tag_lists(&world), [vec![], vec![], vec![]]);

    let second = world.spawn(POSITION);
    assert_eq!(second.id, first.id);
    valid(&world);
    assert_eq!(tags_of(&world, second), 0);
    assert_eq!(world.component_mask(second), Some(POSITION));
    assert_eq!(tag_lists(&world), [vec![], vec![], vec![]]);
    assert_eq!(world.query_entities(PLAYER).count(), 0);
    assert_eq!(world.typed_query_ref::<Entity>().with(SELECTED).count(), 0);
    assert_eq!(world.typed_query_ref::<Entity>().without(ENEMY).count(), 1);
    let mut seen = Vec::new();
    world.for_each(ENEMY, 0, |entity, _, _| seen.push(entity));
    assert!(seen.is_empty());

    // The same through batches and despawn_entities.
    let batch = world.spawn_entities(VELOCITY | SELECTED, 3);
    assert_eq!(
        sorted(world.query_entities(SELECTED)),
        sorted(batch.clone())
    );
    assert_eq!(world.despawn_entities(&batch), batch);
    valid(&world);
    let reused = world.spawn_entities(VELOCITY, 3);
    assert_eq!(
        sorted(reused.iter().map(|e| e.id)),
        sorted(batch.iter().map(|e| e.id)),
        "every id recycled"
    );
    valid(&world);
    assert_eq!(world.query_entities(SELECTED).count(), 0);
    for &entity in &reused {
        assert_eq!(tags_of(&world, entity), 0);
        assert_eq!(world.component_mask(entity), Some(VELOCITY));
    }
    let batch_reused = world.spawn_batch(VELOCITY | ENEMY, 1, |_, _| {});
    valid(&world);
    assert_eq!(sorted(world.query_entities(ENEMY)), batch_reused);
}

// ----- spawning, structural change and component_mask ----------------------------------------

#[test]
fn spawning_with_tag_bits_tags_without_splitting_tables() {
    let mut world = World::new();
    let hero = world.spawn(POSITION | PLAYER);
    let rock = world.spawn(POSITION);
    valid(&world);
    assert_eq!(world.archetype_count(), 1, "one table for both");
    assert_eq!(world.tables()[0].mask, POSITION);
    assert_eq!(world.component_mask(hero), Some(POSITION | PLAYER));
    assert_eq!(world.component_mask(rock), Some(POSITION));
    assert_eq!(world.get_position(hero), Some(&Position::default()));

    let squad = world.spawn_entities(POSITION | VELOCITY | SELECTED | ENEMY, 4);
    valid(&world);
    assert_eq!(world.archetype_count(), 2);
    for &member in &squad {
        assert_eq!(tags_of(&world, member), SELECTED | ENEMY);
        assert_eq!(
            world.component_mask(member),
            Some(POSITION | VELOCITY | SELECTED | ENEMY)
        );
    }

    let mut initialised = Vec::new();
    let built = world.spawn_batch(VELOCITY | PLAYER, 3, |table, index| {
        assert_eq!(table.mask, VELOCITY, "tables hold component bits only");
        table.velocity[index] = Velocity {
            x: initialised.len() as f32,
            y: 1.0,
        };
        initialised.push(table.entities[index]);
    });
    valid(&world);
    assert_eq!(initialised, built);
    assert_eq!(world.archetype_count(), 3);
    for (k, &entity) in built.iter().enumerate() {
        assert_eq!(tags_of(&world, entity), PLAYER);
        assert_eq!(
            world.get_velocity(entity),
            Some(&Velocity {
                x: k as f32,
                y: 1.0
            })
        );
    }

    let marker = world.spawn(PLAYER | ENEMY);
    valid(&world);
    assert_eq!(world.component_mask(marker), Some(PLAYER | ENEMY));
    assert_eq!(world.archetype_count(), 4);
    assert!(
        world.tables().iter().all(|table| table.mask & TAGS == 0),
        "no table mask holds a tag bit: {:?}",
        world.tables().iter().map(|t| t.mask).collect::<Vec<_>>()
    );
    let mut players = vec![hero, marker];
    players.extend(&built);
    assert_eq!(sorted(world.query_entities(PLAYER)), sorted(players));
    let mut enemies = squad.clone();
    enemies.push(marker);
    assert_eq!(sorted(world.query_entities(ENEMY)), sorted(enemies));
    assert_eq!(sorted(world.query_entities(SELECTED)), sorted(squad));
}

#[test]
fn bits_beyond_the_last_tag_are_ignored_by_spawns_and_match_nothing() {
    let mut world = World::new();
    let outside: Mask = 1 << 6;
    let entity = world.spawn(POSITION | PLAYER | outside);
    valid(&world);
    assert_eq!(world.component_mask(entity), Some(POSITION | PLAYER));
    assert!(world.add_components(entity, outside | SELECTED));
    valid(&world);
    assert_eq!(
        world.component_mask(entity),
        Some(POSITION | PLAYER | SELECTED)
    );
    assert!(!world.has_components(entity, outside));
    assert_eq!(world.query_entities(PLAYER | outside).count(), 0);
    assert_eq!(world.typed_query_ref::<Entity>().with(outside).count(), 0);
    assert_eq!(world.query_entities(PLAYER).count(), 1);
}

/// A named edit of the world that returns what the method returned.
type Edit<'a> = (&'static str, Box<dyn Fn(&mut World) -> bool + 'a>);

#[test]
fn adding_and_removing_tags_never_migrates() {
    let mut world = World::new();
    let movers = world.spawn_batch(POSITION | VELOCITY, 5, |table, index| {
        table.position[index] = pos(index as f32, 0.0);
        table.velocity[index] = Velocity {
            x: 0.0,
            y: index as f32,
        };
    });
    let statues = world.spawn_entities(POSITION, 3);
    world.warm_query(POSITION);
    valid(&world);
    let members = table_members(&world);
    let places: Vec<_> = movers.iter().map(|&e| place(&world, e)).collect();
    let edits: Vec<Edit<'_>> = vec![
        (
            "add_player",
            Box::new(|w: &mut World| w.add_player(movers[1])),
        ),
        (
            "add_selected",
            Box::new(|w: &mut World| w.add_selected(movers[1])),
        ),
        (
            "add_enemy",
            Box::new(|w: &mut World| w.add_enemy(statues[0])),
        ),
        (
            "add_components(tags only)",
            Box::new(|w: &mut World| w.add_components(movers[3], PLAYER | ENEMY)),
        ),
        (
            "add_components(a tag the entity has)",
            Box::new(|w: &mut World| w.add_components(movers[3], PLAYER)),
        ),
        (
            "remove_player",
            Box::new(|w: &mut World| w.remove_player(movers[1])),
        ),
        (
            "remove_components(tags only)",
            Box::new(|w: &mut World| w.remove_components(movers[3], ENEMY | SELECTED)),
        ),
        (
            "remove_components(components it lacks, and a tag)",
            Box::new(|w: &mut World| w.remove_components(statues[0], HEALTH | ENEMY)),
        ),
        (
            "add_components(components it has, and a tag)",
            Box::new(|w: &mut World| w.add_components(statues[1], POSITION | SELECTED)),
        ),
    ];
    for (what, edit) in &edits {
        assert!(edit(&mut world), "{what}");
        valid(&world);
        assert_eq!(
            table_members(&world),
            members,
            "{what} moved a row to another table"
        );
        assert_eq!(world.archetype_count(), 2, "{what} created a table");
        let now: Vec<_> = movers.iter().map(|&e| place(&world, e)).collect();
        assert_eq!(now, places, "{what}");
    }
    assert_eq!(tags_of(&world, movers[1]), SELECTED);
    assert_eq!(tags_of(&world, movers[3]), PLAYER);
    assert_eq!(tags_of(&world, statues[0]), 0);
    assert_eq!(tags_of(&world, statues[1]), SELECTED);
    for (index, &mover) in movers.iter().enumerate() {
        assert_eq!(world.get_position(mover), Some(&pos(index as f32, 0.0)));
        assert_eq!(
            world.get_velocity(mover),
            Some(&Velocity {
                x: 0.0,
                y: index as f32
            })
        );
    }
}

#[test]
fn add_and_remove_components_mix_one_migration_with_tags() {
    let mut world = World::new();
    let entity = world.spawn(POSITION);
    let neighbour = world.spawn(POSITION | ENEMY);
    world.set_position(entity, pos(7.0, 8.0));
    assert!(world.add_components(entity, HEALTH | SELECTED | PLAYER));
    valid(&world);
    assert_eq!(
        world.component_mask(entity),
        Some(POSITION | HEALTH | SELECTED | PLAYER)
    );
    assert_eq!(
        world.archetype_count(),
        2,
        "one new table: POSITION | HEALTH"
    );
    assert_eq!(world.tables()[1].mask, POSITION | HEALTH);
    assert_eq!(world.get_position(entity), Some(&pos(7.0, 8.0)), "moved");
    assert_eq!(world.get_health(entity), Some(&Health(0)));
    assert_eq!(
        world.component_mask(neighbour),
        Some(POSITION | ENEMY),
        "the row swapped into the hole keeps its tags"
    );

    assert!(world.remove_components(entity, HEALTH | PLAYER));
    valid(&world);
    assert_eq!(world.component_mask(entity), Some(POSITION | SELECTED));
    assert_eq!(world.get_position(entity), Some(&pos(7.0, 8.0)));
    assert_eq!(world.archetype_count(), 2);

    // Components added one by one do not touch tags either.
    assert!(world.set_velocity(entity, Velocity { x: 1.0, y: 1.0 }));
    valid(&world);
    assert_eq!(world.remove_position(entity), Some(pos(7.0, 8.0)));
    valid(&world);
    assert_eq!(world.component_mask(entity), Some(VELOCITY | SELECTED));
    assert_eq!(world.component_mask(neighbour), Some(POSITION | ENEMY));
}

#[test]
fn component_mask_and_has_components_include_tags() {
    let mut world = World::new();
    let entity = world.spawn(POSITION | VELOCITY);
    assert!(world.add_player(entity));
    valid(&world);
    assert!(world.add_enemy(entity));
    valid(&world);
    assert_eq!(
        world.component_mask(entity),
        Some(POSITION | VELOCITY | PLAYER | ENEMY)
    );
    for (mask, expected) in [
        (0, true),
        (PLAYER, true),
        (POSITION | PLAYER, true),
        (PLAYER | ENEMY, true),
        (POSITION | VELOCITY | PLAYER | ENEMY, true),
        (SELECTED, false),
        (PLAYER | SELECTED, false),
        (HEALTH | PLAYER, false),
        (TAGS, false),
        (COMPONENTS | PLAYER, false),
    ] {
        assert_eq!(
            world.has_components(entity, mask),
            expected,
            "has_components({mask:#b})"
        );
    }
    assert!(world.remove_enemy(entity));
    valid(&world);
    assert_eq!(
        world.component_mask(entity),
        Some(POSITION | VELOCITY | PLAYER)
    );
    assert!(!world.has_components(entity, PLAYER | ENEMY));
    assert!(world.remove_player(entity));
    assert_eq!(world.component_mask(entity), Some(POSITION | VELOCITY));
    valid(&world);
}

#[test]
fn despawn_removes_every_tag_and_spares_the_others() {
    let mut world = World::new();
    let entities = world.spawn_entities(POSITION | PLAYER | SELECTED, 6);
    assert!(world.add_enemy(entities[0]));
    assert!(world.add_enemy(entities[5]));
    valid(&world);
    // The first row goes: the last row moves into it, and the tag sets lose a member each.
    assert!(world.despawn(entities[0]));
    valid(&world);
    assert!(!world.despawn(entities[0]), "double despawn refused");
    assert_eq!(tags_of(&world, entities[0]), 0);
    let rest = &entities[1..];
    assert_eq!(sorted(world.query_entities(PLAYER)), sorted(rest.to_vec()));
    assert_eq!(
        sorted(world.query_entities(SELECTED)),
        sorted(rest.to_vec())
    );
    assert_eq!(sorted(world.query_entities(ENEMY)), vec![entities[5]]);
    for &entity in rest {
        assert!(world.has_player(entity) && world.has_selected(entity));
    }

    let gone = world.despawn_entities(&[entities[5], entities[2], entities[0]]);
    assert_eq!(gone, vec![entities[5], entities[2]]);
    valid(&world);
    assert_eq!(world.query_entities(ENEMY).count(), 0);
    assert_eq!(
        sorted(world.query_entities(PLAYER)),
        sorted([entities[1], entities[3], entities[4]])
    );
    assert_eq!(
        sorted(world.query_entities(PLAYER | SELECTED)),
        sorted([entities[1], entities[3], entities[4]])
    );
    for entity in [entities[1], entities[3], entities[4]] {
        assert!(world.despawn(entity));
        valid(&world);
    }
    assert_eq!(tag_lists(&world), [vec![], vec![], vec![]]);
    assert_eq!(world.entity_count(), 0);
}

// ----- queries --------------------------------------------------------------------------------

/// A world of several tables whose rows carry mixed tags, and the full mask (components and
/// tags) of every live entity.
struct Scene {
    world: World,
    masks: BTreeMap<Entity, Mask>,
}

impl Scene {
    fn new() -> Self {
        let mut world = World::new();
        let mut masks = BTreeMap::new();
        // POSITION | VELOCITY: 12 rows, player on even rows, selected every third, one enemy.
        let movers = world.spawn_batch(POSITION | VELOCITY, 12, |table, index| {
            table.position[index] = pos(index as f32, 0.0);
        });
        for (row, &entity) in movers.iter().enumerate() {
            let mut tags = 0;
            if row % 2 == 0 {
                assert!(world.add_player(entity));
                valid(&world);
                tags |= PLAYER;
            }
            if row % 3 == 0 {
                assert!(world.add_selected(entity));
                tags |= SELECTED;
            }
            if row == 5 {
                assert!(world.add_enemy(entity));
                valid(&world);
                tags |= ENEMY;
            }
            masks.insert(entity, POSITION | VELOCITY | tags);
            valid(&world);
        }
        // POSITION: 5 rows, tagged at spawn.
        for tags in [0, PLAYER, PLAYER, 0, SELECTED] {
            let entity = world.spawn(POSITION | tags);
            masks.insert(entity, POSITION | tags);
            valid(&world);
        }
        // VELOCITY | HEALTH: all players.
        for entity in world.spawn_entities(VELOCITY | HEALTH | PLAYER, 4) {
            masks.insert(entity, VELOCITY | HEALTH | PLAYER);
            valid(&world);
        }
        // Tag-only entities in the table of mask 0.
        for tags in [PLAYER, ENEMY | SELECTED] {
            let entity = world.spawn(tags);
            masks.insert(entity, tags);
            valid(&world);
        }
        // An empty table.
        let gone = world.spawn(HEALTH | ENEMY);
        assert!(world.despawn(gone));
        valid(&world);
        Scene { world, masks }
    }

    fn expected(&self, include: Mask, exclude: Mask) -> Vec<Entity> {
        self.masks
            .iter()
            .filter(|&(_, &mask)| matches(mask, include, exclude))
            .map(|(&entity, _)| entity)
            .collect()
    }

    fn mask_of(&self, entity: Entity) -> Mask {
        self.masks[&entity]
    }

    /// Every query form over `include` / `exclude` gives exactly the model's entities, and
    /// every row a closure sees is the entity it is told about.
    fn check_every_form(&mut self, include: Mask, exclude: Mask) {
        let expected = self.expected(include, exclude);
        let what = format!("({include:#b}, {exclude:#b})");
        let masks = &self.masks;
        let world = &mut self.world;

        for (&entity, &mask) in masks {
            assert_eq!(world.component_mask(entity), Some(mask), "{entity}");
        }

        let mut seen = Vec::new();
        world.for_each(include, exclude, |entity, table, index| {
            assert_eq!(table.entities[index], entity, "for_each{what}");
            assert!(matches(
                table.mask,
                include & COMPONENTS,
                exclude & COMPONENTS
            ));
            seen.push(entity);
        });
        assert_eq!(sorted(seen), expected, "for_each{what}");

        let mut seen = Vec::new();
        world.for_each_mut(include, exclude, |entity, view, index| {
            assert_eq!(view.entities[index], entity, "for_each_mut{what}");
            seen.push(entity);
        });
        assert_eq!(sorted(seen), expected, "for_each_mut{what}");

        let mut seen = Vec::new();
        world.for_each_table_mut(include, exclude, |view| {
            assert!(
                !view.entities.is_empty(),
                "for_each_table_mut{what}: empty view"
            );
            for &entity in view.entities.iter() {
                assert!(
                    matches(masks[&entity], include, exclude),
                    "for_each_table_mut{what} handed over {entity}, which does not match"
                );
            }
            seen.extend(view.entities.iter().copied());
        });
        assert_eq!(sorted(seen), expected, "for_each_table_mut{what}");

        let seen = Mutex::new(Vec::new());
        world.par_for_each_mut(include, exclude, |entity, view, index| {
            assert_eq!(view.entities[index], entity, "par_for_each_mut{what}");
            seen.lock().unwrap().push(entity);
        });
        assert_eq!(
            sorted(seen.into_inner().unwrap()),
            expected,
            "par_for_each_mut{what}"
        );

        let mut seen = Vec::new();
        world.for_each(include, exclude, |entity, table, index| {
            assert_eq!(table.entities[index], entity);
            seen.push(entity);
        });
        assert_eq!(sorted(seen), expected, "for_each{what}");
        assert_eq!(
            sorted(
                world
                    .typed_query_ref::<Entity>()
                    .with(include)
                    .without(exclude)
                    .iter()
            ),
            expected,
            "typed_query_ref iter{what}"
        );
        assert_eq!(
            world
                .typed_query_ref::<Entity>()
                .with(include)
                .without(exclude)
                .count(),
            expected.len(),
            "typed_query_ref count{what}"
        );
        assert_eq!(
            world
                .typed_query::<Entity>()
                .with(include)
                .without(exclude)
                .count(),
            expected.len(),
            "typed_query count{what}"
        );

        if exclude == 0 {
            assert_eq!(
                sorted(world.query_entities(include)),
                expected,
                "query_entities{what}"
            );
            match world.query_entities(include).next() {
                Some(first) => assert!(expected.contains(&first), "query_entities first{what}"),
                None => assert!(expected.is_empty(), "query_entities first{what}"),
            }
            for (&entity, &mask) in masks {
                assert_eq!(
                    world.has_components(entity, include),
                    mask & include == include,
                    "has_components({entity}, {include:#b})"
                );
            }
        }
        valid(world);
    }
}

const QUERY_PAIRS: [(Mask, Mask); 18] = [
    (0, 0),
    (POSITION, 0),
    (PLAYER, 0),
    (0, PLAYER),
    (SELECTED, PLAYER),
    (PLAYER | SELECTED, 0),
    (0, PLAYER | SELECTED),
    (POSITION | PLAYER, 0),
    (POSITION, PLAYER),
    (POSITION | VELOCITY | PLAYER, SELECTED),
    (VELOCITY, PLAYER | ENEMY),
    (ENEMY, 0),
    (PLAYER, PLAYER),
    (PLAYER | HEALTH, POSITION),
    (TAGS, 0),
    (POSITION | SELECTED, VELOCITY),
    (0, TAGS),
    (SELECTED, HEALTH | ENEMY),
];

#[test]
fn every_query_form_honours_tag_bits_in_include_and_exclude() {
    let mut scene = Scene::new();
    // Sanity of the scene itself: the pairs select varied, non-trivial sets.
    assert_eq!(scene.expected(PLAYER, 0).len(), 6 + 2 + 4 + 1);
    assert_eq!(scene.expected(0, PLAYER).len(), 6 + 3 + 1);
    assert!(scene.expected(PLAYER, PLAYER).is_empty());
    for (include, exclude) in QUERY_PAIRS {
        scene.check_every_form(include, exclude);
    }
    // Again once every include is cached (the `&self` forms then use the cache).
    for (include, _) in QUERY_PAIRS {
        scene.world.warm_query(include);
    }
    valid(&scene.world);
    for (include, exclude) in QUERY_PAIRS {
        scene.check_every_form(include, exclude);
    }
}

#[test]
fn queries_follow_tag_changes() {
    let mut scene = Scene::new();
    let entities: Vec<Entity> = scene.masks.keys().copied().collect();
    for (step, &entity) in entities.iter().enumerate() {
        let tags = scene.mask_of(entity) & TAGS;
        let world = &mut scene.world;
        let new_tags = match step % 4 {
            0 => {
                assert!(world.add_enemy(entity));
                tags | ENEMY
            }
            1 => {
                assert!(world.remove_player(entity));
                tags & !PLAYER
            }
            2 => {
                assert!(world.add_components(entity, SELECTED | PLAYER));
                tags | SELECTED | PLAYER
            }
            _ => {
                assert!(world.remove_components(entity, TAGS));
                0
            }
        };
        valid(world);
        let components = scene.masks[&entity] & COMPONENTS;
        scene.masks.insert(entity, components | new_tags);
        if step % 5 == 0 {
            for (include, exclude) in QUERY_PAIRS {
                scene.check_every_form(include, exclude);
            }
        }
    }
    for (include, exclude) in QUERY_PAIRS {
        scene.check_every_form(include, exclude);
    }
    let [players, selected, enemies] = tag_lists(&scene.world);
    assert_eq!(players, scene.expected(PLAYER, 0));
    assert_eq!(selected, scene.expected(SELECTED, 0));
    assert_eq!(enemies, scene.expected(ENEMY, 0));
}

#[test]
fn mutable_query_forms_write_only_the_matching_rows() {
    let mut scene = Scene::new();
    let original: BTreeMap<Entity, Option<Position>> = scene
        .masks
        .keys()
        .map(|&entity| (entity, scene.world.get_position(entity).copied()))
        .collect();
    let pairs = [
        (POSITION | PLAYER, SELECTED),
        (POSITION | SELECTED, 0),
        (POSITION, PLAYER | ENEMY),
    ];
    for (include, exclude) in pairs {
        let expected: BTreeSet<Entity> = scene.expected(include, exclude).into_iter().collect();
        let world = &mut scene.world;
        world.for_each_mut(include, exclude, |_, view, index| {
            view.position[index].y += 1.0
        });
        world.for_each_mut(include, exclude, |_, view, index| {
            view.position[index].y += 10.0
        });
        world.for_each_table_mut(include, exclude, |view| {
            for position in view.position.iter_mut() {
                position.y += 100.0;
            }
        });
        world.for_each_table_mut(include, exclude, |view| {
            view.position.iter_mut().for_each(|p| p.y += 1_000.0)
        });
        world.par_for_each_mut(include, exclude, |_, view, index| {
            view.position[index].y += 10_000.0;
        });
        valid(world);
        for (&entity, before) in &original {
            let now = world.get_position(entity).copied();
            let expected_now = if expected.contains(&entity) {
                before.map(|p| pos(p.x, p.y + 11_111.0))
            } else {
                *before
            };
            assert_eq!(
                now, expected_now,
                "{entity} ({:#b}) after ({include:#b}, {exclude:#b})",
                scene.masks[&entity]
            );
            if let Some(before) = *before {
                assert!(world.set_position(entity, before));
            }
        }
        valid(world);
    }
}

/// The views `for_each_table_mut` hands over for a tag filter over one table whose tagged and
/// untagged rows were interleaved: every row of every view matches, every matching row is in
/// exactly one view, and there are at most as many views per table as tag signatures match
/// (rows of one signature are contiguous), not one per run of the spawn order.
#[test]
fn for_each_table_mut_hands_over_one_view_per_tag_segment() {
    let mut world = World::new();
    let rows = world.spawn_batch(POSITION | VELOCITY, 10, |table, index| {
        table.position[index] = pos(index as f32, 0.0);
    });
    // Rows 0-1, 3-5 and 8-9 are players; 2 and 6-7 are not.
    for row in [0, 1, 3, 4, 5, 8, 9] {
        assert!(world.add_player(rows[row]));
    }
    // Every other row is selected.
    for row in (0..10).step_by(2) {
        assert!(world.add_selected(rows[row]));
    }
    // Another table, fully tagged: one whole-table view.
    let others = world.spawn_entities(POSITION, 3);
    for &other in &others {
        assert!(world.add_player(other));
    }
    valid(&world);
    assert_eq!(sorted(world.tables()[0].entities.clone()), rows);

    let views = |world: &mut World, include: Mask, exclude: Mask| {
        let mut views: Vec<Vec<Entity>> = Vec::new();
        world.for_each_table_mut(include, exclude, |view| {
            assert_eq!(view.position.len(), view.entities.len());
            let velocities = if view.mask & VELOCITY != 0 {
                view.entities.len()
            } else {
                0
            };
            assert_eq!(view.velocity.len(), velocities);
            for (position, entity) in view.position.iter_mut().zip(view.entities.iter()) {
                // Each view's rows line up with its entities.
                position.y = entity.id as f32 + 0.5;
            }
            views.push(view.entities.to_vec());
        });
        views
    };
    let check = |world: &mut World, include: Mask, exclude: Mask, max_views: usize| {
        let got = views(world, include, exclude);
        assert!(
            got.len() <= max_views,
            "({include:#b}, {exclude:#b}): {} views, at most {max_views} expected",
            got.len()
        );
        assert!(got.iter().all(|view| !view.is_empty()), "no empty view");
        let expected: Vec<Entity> = sorted(
            rows.iter()
                .chain(&others)
                .copied()
                .filter(|&e| world.has_components(e, include))
                .filter(|&e| world.component_mask(e).unwrap() & exclude == 0),
        );
        assert_eq!(
            sorted(got.concat()),
            expected,
            "({include:#b}, {exclude:#b})"
        );
        for &entity in rows.iter().chain(&others) {
            let y = world.get_position(entity).unwrap().y;
            if expected.contains(&entity) {
                assert_eq!(
                    y,
                    entity.id as f32 + 0.5,
                    "{entity} written through its view"
                );
            }
            let x = world.get_position(entity).unwrap().x;
            world.set_position(entity, pos(x, 0.0));
        }
    };
    // Table 0 holds four signatures: player, player + selected, selected, none.
    check(&mut world, POSITION | PLAYER, 0, 2 + 1);
    check(&mut world, POSITION | VELOCITY, PLAYER, 2);
    check(&mut world, SELECTED, 0, 2);
    check(&mut world, PLAYER, SELECTED, 1 + 1);
    check(&mut world, POSITION | VELOCITY, ENEMY, 1);
    assert!(
        views(&mut world, ENEMY, 0).is_empty(),
        "no view when no row matches"
    );
    let whole = views(&mut world, POSITION, ENEMY);
    assert_eq!(whole.len(), 2, "no tagged row excluded: whole tables");
    assert_eq!(sorted(whole[0].clone()), rows);
    assert_eq!(sorted(whole[1].clone()), others);
    valid(&world);
}

#[test]
fn par_for_each_mut_with_tags_over_a_large_table() {
    let mut world = World::new();
    let entities = world.spawn_batch(POSITION | VELOCITY, 5_000, |table, index| {
        table.position[index] = pos(index as f32, 0.0);
    });
    for (index, &entity) in entities.iter().enumerate() {
        if index % 7 < 3 {
            assert!(world.add_player(entity));
        }
        if index % 11 == 0 {
            assert!(world.add_enemy(entity));
        }
    }
    valid(&world);
    world.par_for_each_mut(POSITION | PLAYER, ENEMY, |entity, view, index| {
        assert_eq!(view.entities[index], entity);
        view.position[index].y = 1.0;
    });
    valid(&world);
    for (index, &entity) in entities.iter().enumerate() {
        let hit = index % 7 < 3 && index % 11 != 0;
        assert_eq!(
            world.get_position(entity),
            Some(&pos(index as f32, if hit { 1.0 } else { 0.0 })),
            "row {index}"
        );
    }
}

// ----- wide worlds: tag bits at the edge of the mask ------------------------------------------

/// 61 components and 2 tags: the 63 bits a `u64` declares (its top bit marks disabled
/// entities), the last one a tag.
mod full_u64 {
    archetypal::ecs! {
        World {
            c0: u8 => C0,
            c1: u8 => C1,
            c2: u8 => C2,
            c3: u8 => C3,
            c4: u8 => C4,
            c5: u8 => C5,
            c6: u8 => C6,
            c7: u8 => C7,
            c8: u8 => C8,
            c9: u8 => C9,
            c10: u8 => C10,
            c11: u8 => C11,
            c12: u8 => C12,
            c13: u8 => C13,
            c14: u8 => C14,
            c15: u8 => C15,
            c16: u8 => C16,
            c17: u8 => C17,
            c18: u8 => C18,
            c19: u8 => C19,
            c20: u8 => C20,
            c21: u8 => C21,
            c22: u8 => C22,
            c23: u8 => C23,
            c24: u8 => C24,
            c25: u8 => C25,
            c26: u8 => C26,
            c27: u8 => C27,
            c28: u8 => C28,
            c29: u8 => C29,
            c30: u8 => C30,
            c31: u8 => C31,
            c32: u8 => C32,
            c33: u8 => C33,
            c34: u8 => C34,
            c35: u8 => C35,
            c36: u8 => C36,
            c37: u8 => C37,
            c38: u8 => C38,
            c39: u8 => C39,
            c40: u8 => C40,
            c41: u8 => C41,
            c42: u8 => C42,
            c43: u8 => C43,
            c44: u8 => C44,
            c45: u8 => C45,
            c46: u8 => C46,
            c47: u8 => C47,
            c48: u8 => C48,
            c49: u8 => C49,
            c50: u8 => C50,
            c51: u8 => C51,
            c52: u8 => C52,
            c53: u8 => C53,
            c54: u8 => C54,
            c55: u8 => C55,
            c56: u8 => C56,
            c57: u8 => C57,
            c58: u8 => C58,
            c59: u8 => C59,
            c61: u8 => C61,
        }
        Tags {
            first_tag => FIRST_TAG,
            last_tag => LAST_TAG,
        }
    }
}

/// 63 components and 3 tags: 66 bits, so a `u128`, with tags on both sides of bit 64.
mod past_u64 {
    archetypal::ecs! {
        World {
            c0: u8 => C0,
            c1: u8 => C1,
            c2: u8 => C2,
            c3: u8 => C3,
            c4: u8 => C4,
            c5: u8 => C5,
            c6: u8 => C6,
            c7: u8 => C7,
            c8: u8 => C8,
            c9: u8 => C9,
            c10: u8 => C10,
            c11: u8 => C11,
            c12: u8 => C12,
            c13: u8 => C13,
            c14: u8 => C14,
            c15: u8 => C15,
            c16: u8 => C16,
            c17: u8 => C17,
            c18: u8 => C18,
            c19: u8 => C19,
            c20: u8 => C20,
            c21: u8 => C21,
            c22: u8 => C22,
            c23: u8 => C23,
            c24: u8 => C24,
            c25: u8 => C25,
            c26: u8 => C26,
            c27: u8 => C27,
            c28: u8 => C28,
            c29: u8 => C29,
            c30: u8 => C30,
            c31: u8 => C31,
            c32: u8 => C32,
            c33: u8 => C33,
            c34: u8 => C34,
            c35: u8 => C35,
            c36: u8 => C36,
            c37: u8 => C37,
            c38: u8 => C38,
            c39: u8 => C39,
            c40: u8 => C40,
            c41: u8 => C41,
            c42: u8 => C42,
            c43: u8 => C43,
            c44: u8 => C44,
            c45: u8 => C45,
            c46: u8 => C46,
            c47: u8 => C47,
            c48: u8 => C48,
            c49: u8 => C49,
            c50: u8 => C50,
            c51: u8 => C51,
            c52: u8 => C52,
            c53: u8 => C53,
            c54: u8 => C54,
            c55: u8 => C55,
            c56: u8 => C56,
            c57: u8 => C57,
            c58: u8 => C58,
            c59: u8 => C59,
            c60: u8 => C60,
            c61: u8 => C61,
            c62: u8 => C62,
        }
        Tags {
            low_tag => LOW_TAG,
            mid_tag => MID_TAG,
            high_tag => HIGH_TAG,
        }
    }
}

#[test]
fn tags_in_a_full_u64_mask() {
    use full_u64::*;
    let _: u64 = LAST_TAG;
    // 61 components and 2 tags: the 63 bits a `u64` mask declares (its top bit marks
    // disabled entities).
    assert_eq!(COMPONENT_COUNT, 61);
    assert_eq!((FIRST_TAG, LAST_TAG), (1 << 61, 1 << 62));
    let mut world = World::new();
    let a = world.spawn(C0 | C61 | LAST_TAG);
    let b = world.spawn(C0 | C61);
    assert!(world.add_first_tag(b));
    world.check_invariants().unwrap();
    assert_eq!(world.archetype_count(), 1);
    assert_eq!(world.component_mask(a), Some(C0 | C61 | LAST_TAG));
    assert_eq!(world.component_mask(b), Some(C0 | C61 | FIRST_TAG));
    assert_eq!(world.query_entities(LAST_TAG).collect::<Vec<_>>(), vec![a]);
    assert_eq!(
        world.query_entities(C61 | LAST_TAG).collect::<Vec<_>>(),
        vec![a]
    );
    assert_eq!(
        world
            .typed_query_ref::<Entity>()
            .with(C0)
            .without(LAST_TAG)
            .iter()
            .collect::<Vec<_>>(),
        vec![b]
    );
    let mut runs = Vec::new();
    world.for_each_table_mut(C61, FIRST_TAG, |view| runs.push(view.entities.to_vec()));
    assert_eq!(runs, vec![vec![a]]);
    assert!(world.remove_components(a, LAST_TAG | C61));
    world.check_invariants().unwrap();
    assert_eq!(world.component_mask(a), Some(C0));
    assert!(!world.has_last_tag(a));
}

#[test]
fn tags_on_both_sides_of_bit_64() {
    use past_u64::*;
    let _: u128 = HIGH_TAG;
    assert_eq!(COMPONENT_COUNT, 63);
    assert_eq!((LOW_TAG, MID_TAG, HIGH_TAG), (1 << 63, 1 << 64, 1 << 65));
    let mut world = World::new();
    let a = world.spawn(C62 | LOW_TAG | HIGH_TAG);
    let b = world.spawn(C62 | MID_TAG);
    let c = world.spawn(C62);
    world.check_invariants().unwrap();
    assert_eq!(world.archetype_count(), 1);
    assert_eq!(world.component_mask(a), Some(C62 | LOW_TAG | HIGH_TAG));
    assert_eq!(world.component_mask(b), Some(C62 | MID_TAG));
    assert_eq!(world.query_entities(HIGH_TAG).collect::<Vec<_>>(), vec![a]);
    assert_eq!(world.query_entities(MID_TAG).collect::<Vec<_>>(), vec![b]);
    assert!(world.has_components(a, LOW_TAG | HIGH_TAG));
    assert!(!world.has_components(a, MID_TAG));
    let mut seen = Vec::new();
    world.for_each(C62, LOW_TAG | MID_TAG, |entity, _, _| seen.push(entity));
    assert_eq!(seen, vec![c]);
    let mut seen = Vec::new();
    world.for_each_mut(HIGH_TAG, 0, |entity, view, index| {
        view.c62[index] = 9;
        seen.push(entity);
    });
    assert_eq!(seen, vec![a]);
    assert_eq!(world.get_c62(a), Some(&9));
    assert_eq!(world.get_c62(b), Some(&0));
    assert!(world.add_components(c, MID_TAG | HIGH_TAG | C0));
    assert!(world.remove_high_tag(a));
    world.check_invariants().unwrap();
    assert_eq!(world.component_mask(c), Some(C0 | C62 | MID_TAG | HIGH_TAG));
    assert_eq!(world.query_entities(HIGH_TAG).collect::<Vec<_>>(), vec![c]);
    assert_eq!(
        world
            .query_entities(MID_TAG)
            .collect::<std::collections::BTreeSet<_>>(),
        [b, c].into_iter().collect()
    );
    assert!(world.despawn(c));
    world.check_invariants().unwrap();
    assert_eq!(world.query_entities(HIGH_TAG).count(), 0);
    assert_eq!(world.query_entities(MID_TAG).collect::<Vec<_>>(), vec![b]);
}

// ----- attributes -----------------------------------------------------------------------------

/// Doc comments and `#[cfg]` on tags pass through to what is generated for them.
mod attributed {
    #![warn(missing_docs)]
    archetypal::ecs! {
        World {
            position: u8 => POSITION,
        }
        Tags {
            /// The one the camera follows.
            hero => HERO,
            #[cfg(any())]
            ghost => GHOST,
            /// Under the cursor.
            selected => SELECTED,
        }
    }
}

#[test]
fn a_tag_compiled_out_takes_no_bit_and_has_no_methods() {
    use attributed::*;
    assert_eq!((POSITION, HERO, SELECTED), (1, 2, 4));
    let mut world = World::new();
    let entity = world.spawn(POSITION | SELECTED);
    assert!(world.add_hero(entity));
    world.check_invariants().unwrap();
    assert_eq!(
        world.component_mask(entity),
        Some(POSITION | HERO | SELECTED)
    );
    assert_eq!(
        world.query_entities(SELECTED).collect::<Vec<_>>(),
        vec![entity]
    );
}
