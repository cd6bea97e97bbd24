//! Snapshots from the user's side: a world saved with serde_json (text) and postcard (binary)
//! loads back exactly (entities and their handles, components, tags, resources, ticks, table and
//! row order, the next spawned id); a truncated, corrupted or inconsistent snapshot is an error
//! that says what is wrong, never a panic and never a half-loaded world.

use archetypal::{Entity, EventCursor, SnapshotData, SnapshotError, Tick, ecs};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Velocity {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Name(pub String);

/// A component holding a handle: it must still point at the same entity after loading.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target(pub Entity);

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health(pub u32);

/// Compiled out with its component and its resource: it must not matter.
#[cfg(any())]
pub struct DebugInfo;

/// An event type that is not `Serialize`: events are not saved, so it does not matter.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub entity: Entity,
    pub damage: u32,
}

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        /// Documented components are fine.
        name: Name => NAME,
        target: Target => TARGET,
        health: Health => HEALTH [untracked],
        #[cfg(any())]
        debug_info: DebugInfo => DEBUG_INFO,
    }
    Tags {
        player => PLAYER,
        frozen => FROZEN,
    }
    Events {
        hit: Hit,
    }
    Resources {
        delta_time: f32,
        frame: u64,
        names: Vec<String>,
        cursor: EventCursor,
        focus: Option<Entity>,
        #[cfg(any())]
        hidden: DebugInfo,
    }
}

/// Movers and named entities over several tables (one emptied), ids recycled and freed, tags,
/// resources, an event, and a few frames of ticks.
fn populated_world() -> World {
    let mut world = World::new();
    let movers = world.spawn_batch(POSITION | VELOCITY, 8, |table, index| {
        table.position[index] = Position {
            x: index as f32,
            y: -(index as f32),
        };
        table.velocity[index] = Velocity { x: 1.0, y: 0.5 };
    });
    world.step();
    let named = world.spawn_batch(NAME | TARGET | PLAYER, 3, |table, index| {
        table.name[index] = Name(format!("hero {index}"));
    });
    for (index, &entity) in named.iter().enumerate() {
        world.set_target(entity, Target(movers[index * 2]));
    }
    let tough = world.spawn_entities(POSITION | HEALTH, 2);
    world.set_health(tough[0], Health(90));
    world.set_health(tough[1], Health(7));
    world.spawn(0);
    let short_lived = world.spawn(NAME);
    world.despawn(short_lived);
    world.despawn(movers[3]);
    world.despawn(movers[5]);
    let recycled = world.spawn(POSITION);
    assert_eq!(recycled.id, movers[5].id, "the last freed id comes back");
    world.remove_velocity(movers[1]);
    world.add_velocity(tough[1]);
    world.add_frozen(movers[0]);
    world.add_frozen(tough[0]);
    world.resources.delta_time = 0.25;
    world.resources.frame = 42;
    world.resources.names = vec![String::from("north"), String::from("south")];
    world.resources.focus = Some(named[1]);
    world.events.hit.send(Hit {
        entity: movers[0],
        damage: 3,
    });
    world.step();
    world.set_position(movers[2], Position { x: 9.0, y: 9.0 });
    world.check_invariants().unwrap();
    world
}

/// Every observable part of two worlds agrees, down to table and row order.
#[track_caller]
fn assert_same_world(expected: &World, loaded: &World) {
    loaded.check_invariants().unwrap();
    assert_eq!(
        loaded.entities().collect::<Vec<_>>(),
        expected.entities().collect::<Vec<_>>()
    );
    assert_eq!(loaded.entity_count(), expected.entity_count());
    let masks = |world: &World| world.tables().iter().map(|t| t.mask).collect::<Vec<_>>();
    assert_eq!(masks(loaded), masks(expected), "same tables, same order");
    for (loaded_table, expected_table) in loaded.tables().iter().zip(expected.tables()) {
        assert_eq!(loaded_table.entities, expected_table.entities, "same rows");
        assert_eq!(loaded_table.position, expected_table.position);
        assert_eq!(loaded_table.velocity, expected_table.velocity);
        assert_eq!(loaded_table.name, expected_table.name);
        assert_eq!(loaded_table.target, expected_table.target);
        assert_eq!(loaded_table.health, expected_table.health);
    }
    for entity in expected.entities().collect::<Vec<_>>() {
        assert_eq!(
            loaded.component_mask(entity),
            expected.component_mask(entity)
        );
        assert_eq!(loaded.get_position(entity), expected.get_position(entity));
        assert_eq!(loaded.get_name(entity), expected.get_name(entity));
        assert_eq!(loaded.get_target(entity), expected.get_target(entity));
    }
    assert_eq!(
        loaded.query_entities(PLAYER).collect::<Vec<_>>(),
        expected.query_entities(PLAYER).collect::<Vec<_>>()
    );
    assert_eq!(
        loaded.query_entities(FROZEN).collect::<Vec<_>>(),
        expected.query_entities(FROZEN).collect::<Vec<_>>()
    );
    assert_eq!(loaded.resources.delta_time, expected.resources.delta_time);
    assert_eq!(loaded.resources.frame, expected.resources.frame);
    assert_eq!(loaded.resources.names, expected.resources.names);
    assert_eq!(loaded.resources.cursor, expected.resources.cursor);
    assert_eq!(loaded.resources.focus, expected.resources.focus);
    assert_eq!(loaded.current_tick(), expected.current_tick());
    assert_eq!(loaded.last_tick(), expected.last_tick());
    let ids = |world: &World| {
        let (index, records) = (world.entity_index(), world.records());
        (records.len(), index.id_count(records), index.free_count())
    };
    assert_eq!(ids(loaded), ids(expected));
}

/// The loaded world goes on exactly as the original: the same handles come out of spawns.
#[track_caller]
fn assert_same_future(mut expected: World, mut loaded: World) {
    for mask in [POSITION, NAME | PLAYER, POSITION | VELOCITY, 0] {
        assert_eq!(loaded.spawn(mask), expected.spawn(mask));
    }
    assert_same_world(&expected, &loaded);
}

fn to_json(world: &World) -> String {
    serde_json::to_string(&world.snapshot()).unwrap()
}

fn to_postcard(world: &World) -> Vec<u8> {
    postcard::to_allocvec(&world.snapshot()).unwrap()
}

#[test]
fn a_world_round_trips_through_json() {
    let world = populated_world();
    let text = to_json(&world);
    let loaded: World = serde_json::from_str(&text).unwrap();
    assert_same_world(&world, &loaded);
    assert_eq!(
        to_json(&loaded),
        text,
        "saving the loaded world gives the same text"
    );
    assert_same_future(world, loaded);
}

#[test]
fn a_world_round_trips_through_postcard() {
    let world = populated_world();
    let bytes = to_postcard(&world);
    let loaded: World = postcard::from_bytes(&bytes).unwrap();
    assert_same_world(&world, &loaded);
    assert_eq!(to_postcard(&loaded), bytes);
    assert_same_future(world, loaded);
}

#[test]
fn the_world_itself_is_serialize_and_deserialize() {
    let world = populated_world();
    assert_eq!(serde_json::to_string(&world).unwrap(), to_json(&world));
    /// A save file holding a world among other things.
    #[derive(Serialize, Deserialize)]
    struct SaveGame {
        slot: u8,
        world: World,
    }
    let save = SaveGame { slot: 2, world };
    let bytes = postcard::to_allocvec(&save).unwrap();
    let loaded: SaveGame = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(loaded.slot, 2);
    assert_same_world(&save.world, &loaded.world);
}

#[test]
fn handles_taken_before_saving_still_resolve_and_stale_ones_stay_stale() {
    let mut world = World::new();
    let entities = world.spawn_entities(POSITION, 4);
    world.despawn(entities[1]);
    let recycled = world.spawn(POSITION | VELOCITY);
    assert_eq!((recycled.id, recycled.generation), (entities[1].id, 1));
    world.set_position(recycled, Position { x: 5.0, y: 6.0 });
    let loaded = World::from_snapshot(serde_json::from_str(&to_json(&world)).unwrap()).unwrap();
    assert!(loaded.is_alive(recycled));
    assert!(
        !loaded.is_alive(entities[1]),
        "the stale handle is still stale"
    );
    assert_eq!(loaded.get_position(entities[1]), None);
    assert_eq!(
        loaded.get_position(recycled),
        Some(&Position { x: 5.0, y: 6.0 })
    );
    assert_eq!(loaded.component_mask(entities[0]), Some(POSITION));
}

#[test]
fn the_json_names_every_column_and_tag() {
    let mut world = World::new();
    let player = world.spawn(POSITION | PLAYER);
    world.set_position(player, Position { x: 1.0, y: 2.0 });
    let text = to_json(&world);
    assert_eq!(
        text,
        concat!(
            r#"{"version":7,"tick":1,"last_tick":0,"generations":[[0,1]],"free":[],"#,
            r#""tables":[{"entities":[0],"position":[[1.0,2.0]]}],"#,
            r#""change_ticks":[{"position":{"changed":[[1,1]],"added":[[1,1]]}}],"#,
            r#""tags":{"player":[0],"frozen":[]},"relations":{},"#,
            r#""resources":{"delta_time":0.0,"frame":0,"names":[],"cursor":{"next":0},"focus":null},"#,
            r#""change_log_sequence":1,"event_sequences":[["hit",1]],"events":{},"systems":[]}"#
        )
    );
}

#[test]
fn snapshot_data_is_checked_by_from_snapshot() {
    let world = populated_world();
    let data: SnapshotData<World> = serde_json::from_str(&to_json(&world)).unwrap();
    assert_eq!(data.entity_count(), world.entity_count());
    let loaded = World::from_snapshot(data).unwrap();
    assert_same_world(&world, &loaded);
}

#[test]
fn events_queued_commands_and_the_change_log_are_not_saved() {
    let mut world = populated_world();
    world.enable_change_log(16);
    world.events.hit.send(Hit {
        entity: Entity::new(0, 0),
        damage: 1,
    });
    let queued = world.commands().queue_spawn_entities(POSITION, 2);
    let loaded: World = serde_json::from_str(&to_json(&world)).unwrap();
    assert_eq!(loaded.events.hit.len(), 0, "events are not saved");
    assert_eq!(loaded.command_count(), 0, "neither are queued commands");
    assert!(queued.iter().all(|&entity| !loaded.is_alive(entity)));
    assert_eq!(
        loaded
            .consume_changes(&mut EventCursor::new())
            .into_iter()
            .count(),
        0,
        "the change log starts empty"
    );
    // The reservations were given back, as `clear_commands` would.
    world.clear_commands();
    assert_same_future(world, loaded);
}

#[test]
fn reservations_made_through_split_parts_are_saved_as_released() {
    // Saved right after the parts are dropped, before any `&mut` call on the world: the
    // reservations are still held by the entity index's loan to the command part.
    let mut world = populated_world();
    let victim = world.query_entities(POSITION).next().unwrap();
    let queued = {
        let mut parts = world.split_mut();
        parts.components.despawn(victim);
        parts.commands.queue_spawn_entities(POSITION, 3)
    };
    let loaded: World = serde_json::from_str(&to_json(&world)).unwrap();
    assert!(queued.iter().all(|&entity| !loaded.is_alive(entity)));
    world.clear_commands();
    assert_same_future(world, loaded);
}

/// The entities each of `Changed<C>` and `Added<C>` (for the tracked components) reports after
/// each tick up to the world's: what a system's filters see, whatever its last run.
fn change_answers(world: &World) -> Vec<Vec<Entity>> {
    let mut answers = Vec::new();
    for since in 0..=world.current_tick().0 {
        for mask in [POSITION, VELOCITY, NAME, TARGET, POSITION | VELOCITY] {
            let query = || world.typed_query_ref::<Entity>();
            answers.push(query().changed_since(mask, Tick(since)).iter().collect());
            answers.push(query().added_since(mask, Tick(since)).iter().collect());
        }
    }
    answers
}

/// Every row's change ticks are saved (format 6): a loaded world reports exactly the rows the
/// saved one reports as changed or added since any tick, then goes on stamping from there.
#[test]
fn every_row_s_change_ticks_are_saved_and_loaded() {
    let mut world = populated_world();
    // A write through a view (a whole-table stamp) and one of a run of rows (a range stamp),
    // kept pending by the storage: saved as the stamps readers see.
    world.step();
    world.for_each_mut(POSITION | VELOCITY, 0, |_, table, row| {
        table.velocity[row].x += 1.0
    });
    world.step();
    world.for_each_table_mut(POSITION | FROZEN, 0, |table| {
        for position in table.position.iter_mut() {
            position.y += 1.0;
        }
    });
    world.step();
    let named = world.query_entities(NAME).next().unwrap();
    world.set_name(named, Name(String::from("renamed")));
    let expected = change_answers(&world);
    assert!(
        expected.iter().any(|rows| !rows.is_empty())
            && expected.iter().any(Vec::is_empty)
            && expected[..4] != expected[expected.len() - 4..],
        "the answers differ by tick: {expected:?}"
    );
    for (format, mut loaded) in [
        (
            "json",
            serde_json::from_str::<World>(&to_json(&world)).unwrap(),
        ),
        (
            "postcard",
            postcard::from_bytes::<World>(&to_postcard(&world)).unwrap(),
        ),
    ] {
        assert_eq!(change_answers(&loaded), expected, "{format}");
        assert_eq!(loaded.current_tick(), world.current_tick());
        let mut original = world.clone();
        for world in [&mut loaded, &mut original] {
            world.step();
            let mover = world.query_entities(POSITION | VELOCITY).nth(1).unwrap();
            world.set_position(mover, Position { x: 0.5, y: 0.5 });
            world.spawn(POSITION | NAME);
        }
        assert_eq!(
            change_answers(&loaded),
            change_answers(&original),
            "{format}"
        );
        assert_eq!(to_json(&loaded), to_json(&original), "{format}");
    }
}

#[test]
fn an_empty_world_round_trips() {
    let world = World::new();
    let loaded: World = postcard::from_bytes(&to_postcard(&world)).unwrap();
    assert_same_future(world, loaded);
}

/// A world past 64 bits (2 components and 64 tags): its mask is a `u128`.
mod wide {
    archetypal::ecs! {
        Wide {
            a: u32 => A,
            b: u32 => B,
        }
        Tags {
            t0 => T0,
            t1 => T1,
            t2 => T2,
            t3 => T3,
            t4 => T4,
            t5 => T5,
            t6 => T6,
            t7 => T7,
            t8 => T8,
            t9 => T9,
            t10 => T10,
            t11 => T11,
            t12 => T12,
            t13 => T13,
            t14 => T14,
            t15 => T15,
            t16 => T16,
            t17 => T17,
            t18 => T18,
            t19 => T19,
            t20 => T20,
            t21 => T21,
            t22 => T22,
            t23 => T23,
            t24 => T24,
            t25 => T25,
            t26 => T26,
            t27 => T27,
            t28 => T28,
            t29 => T29,
            t30 => T30,
            t31 => T31,
            t32 => T32,
            t33 => T33,
            t34 => T34,
            t35 => T35,
            t36 => T36,
            t37 => T37,
            t38 => T38,
            t39 => T39,
            t40 => T40,
            t41 => T41,
            t42 => T42,
            t43 => T43,
            t44 => T44,
            t45 => T45,
            t46 => T46,
            t47 => T47,
            t48 => T48,
            t49 => T49,
            t50 => T50,
            t51 => T51,
            t52 => T52,
            t53 => T53,
            t54 => T54,
            t55 => T55,
            t56 => T56,
            t57 => T57,
            t58 => T58,
            t59 => T59,
            t60 => T60,
            t61 => T61,
            t62 => T62,
            t63 => T63,
        }
    }
}

#[test]
fn a_world_with_a_u128_mask_round_trips() {
    use wide::*;
    let mut world = Wide::new();
    let first = world.spawn(A | T0 | T63);
    let second = world.spawn(A | B | T40);
    world.set_b(second, 9);
    assert_eq!(world.component_mask(first), Some(A | T0 | T63));
    let bytes = postcard::to_allocvec(&world.snapshot()).unwrap();
    let loaded: Wide = postcard::from_bytes(&bytes).unwrap();
    loaded.check_invariants().unwrap();
    assert_eq!(loaded.component_mask(first), Some(A | T0 | T63));
    assert_eq!(loaded.component_mask(second), Some(A | B | T40));
    assert_eq!(loaded.get_b(second), Some(&9));
    let text = serde_json::to_string(&loaded).unwrap();
    assert!(text.contains(r#""t63":[0]"#), "{text}");
}

// ----- corrupted snapshots --------------------------------------------------------------------

/// Loading `text` fails, and the message contains `expected`.
#[track_caller]
fn json_error(text: &str, expected: &str) {
    match serde_json::from_str::<World>(text) {
        Ok(_) => panic!("loaded a bad snapshot: {text}"),
        Err(error) => {
            let message = error.to_string();
            assert!(
                message.contains(expected),
                "`{message}` does not mention `{expected}`"
            );
        }
    }
}

/// A small world's JSON, with `edit` applied to its `serde_json::Value`.
fn edited_json(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut world = World::new();
    let entities = world.spawn_entities(POSITION | VELOCITY, 3);
    world.spawn(NAME);
    world.despawn(entities[1]);
    world.add_player(entities[0]);
    let mut value = serde_json::to_value(world.snapshot()).unwrap();
    edit(&mut value);
    value.to_string()
}

#[test]
fn the_edit_helper_starts_from_a_sound_snapshot() {
    let text = edited_json(|_| {});
    let world: World = serde_json::from_str(&text).unwrap();
    assert_eq!(world.entity_count(), 3);
}

#[test]
fn a_column_of_the_wrong_length_is_an_error() {
    let text = edited_json(|value| {
        value["tables"][0]["velocity"].as_array_mut().unwrap().pop();
    });
    json_error(
        &text,
        "table 0: the `velocity` column holds 1 values for 2 entities",
    );
}

#[test]
fn unknown_and_repeated_names_are_errors() {
    json_error(
        &edited_json(|value| value["tables"][0]["mass"] = serde_json::json!([1, 2])),
        "unknown component `mass` (this world's components: position, velocity, name, target, health)",
    );
    json_error(
        &edited_json(|value| value["tags"]["boss"] = serde_json::json!([])),
        "unknown tag `boss`",
    );
    json_error(
        &edited_json(|value| value["resources"]["gravity"] = serde_json::json!(9.8)),
        "unknown resource `gravity`",
    );
    json_error(
        &edited_json(|value| value["extra"] = serde_json::json!(0)),
        "unknown field `extra`",
    );
    // `"position":[[`: a column, not the column's change ticks (`"position":{`).
    let text =
        edited_json(|_| {}).replacen(r#""position":[["#, r#""position":[],"position":[["#, 1);
    json_error(&text, "the `position` column appears twice in one table");
}

/// `change_ticks` (format 6) is checked against the tables: one entry per table, every tracked
/// column given once and no other, runs as a snapshot writes them covering the rows exactly, and
/// ticks a world at the snapshot's tick keeps. (The edited world's tables: `position | velocity`
/// with 2 rows, `name` with 1; every stamp is at tick 1, the snapshot's.)
#[test]
fn bad_change_ticks_are_refused() {
    let runs = |runs: serde_json::Value| {
        move |value: &mut serde_json::Value| value["change_ticks"][0]["position"]["changed"] = runs
    };
    type Edit = Box<dyn FnOnce(&mut serde_json::Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|value| {
                value["change_ticks"].as_array_mut().unwrap().pop();
            }),
            "change_ticks holds 1 tables' stamps, tables holds 2 tables",
        ),
        (
            Box::new(runs(serde_json::json!([[1, 3]]))),
            "table 0: the change ticks of `position`: `changed`: the runs cover more than the table's 2 rows",
        ),
        (
            Box::new(runs(serde_json::json!([[1, 1]]))),
            "`changed`: the runs cover 1 of the table's 2 rows",
        ),
        (
            Box::new(runs(serde_json::json!([[1, 0], [0, 2]]))),
            "`changed`: run 0 is empty",
        ),
        (
            Box::new(runs(serde_json::json!([[0, 1], [0, 1]]))),
            "runs 0 and 1 have one tick, 0 (a snapshot writes them as one run)",
        ),
        (
            Box::new(|value| {
                value["change_ticks"][1]["name"]["added"] = serde_json::json!([[2, 1]])
            }),
            "table 1: the change ticks of `name`: `added`: run 0's tick 2 is after the snapshot's tick 1",
        ),
        (
            Box::new(|value| {
                // A stamp older than any a world keeps would soon wrap round and look new.
                let tick = 1 + 3 * (1u32 << 29) + 1;
                value["tick"] = tick.into();
                value["last_tick"] = (tick - 1).into();
            }),
            "run 0's tick 1 is older than a world keeps a stamp",
        ),
        (
            Box::new(|value| {
                let name = value["change_ticks"][1]["name"].clone();
                value["change_ticks"][0]["target"] = name;
            }),
            "table 0: change ticks of `target`, which the table does not hold",
        ),
        (
            Box::new(|value| {
                value["change_ticks"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("velocity");
            }),
            "table 0: the `velocity` column has no change ticks",
        ),
        (
            Box::new(|value| value["change_ticks"][0]["mass"] = serde_json::json!({})),
            "change ticks of an unknown component `mass`",
        ),
        (
            Box::new(|value| value["change_ticks"][0]["position"]["moved"] = 1.into()),
            "unknown field `moved`",
        ),
        (
            Box::new(|value| value["change_ticks"][0]["position"]["added"] = (-1).into()),
            "invalid type",
        ),
        (
            Box::new(|value| {
                value.as_object_mut().unwrap().remove("change_ticks");
            }),
            "missing field `change_ticks`",
        ),
    ];
    for (edit, expected) in cases {
        json_error(&edited_json(edit), expected);
    }
    let text = edited_json(|_| {}).replacen(
        r#""position":{"#,
        r#""position":{"added":[],"changed":[]},"position":{"#,
        1,
    );
    json_error(
        &text,
        "the change ticks of `position` appear twice in one table",
    );
    // An `[untracked]` component has no change ticks.
    let mut world = World::new();
    world.spawn(HEALTH);
    let mut value = serde_json::to_value(world.snapshot()).unwrap();
    assert_eq!(value["change_ticks"], serde_json::json!([{}]));
    value["change_ticks"][0]["health"] =
        serde_json::json!({"changed": [[1, 1]], "added": [[1, 1]]});
    json_error(
        &value.to_string(),
        "table 0: change ticks of `health`, which is `[untracked]`",
    );
}

/// In postcard a run's count and a list's length are varints: declared huge, they are refused
/// without allocating for them (the runs are checked against the table's rows before any stamp
/// is built, and a list grows only with the runs read).
#[test]
fn huge_declared_change_tick_counts_are_refused() {
    let mut world = World::new();
    world.spawn(POSITION);
    let bytes = to_postcard(&world);
    // change_ticks: 1 table, 1 column, "position", `changed`: 1 run (tick 1, 1 row), `added`
    // the same. The key's first occurrence is the table's column.
    let mut entry = vec![1, 1, 8];
    entry.extend_from_slice(b"position");
    entry.extend_from_slice(&[1, 1, 1, 1, 1, 1]);
    let start = bytes
        .windows(entry.len())
        .position(|window| window == entry.as_slice())
        .expect("the change ticks");
    let runs = 3 + 8;
    let huge_u32 = [0xff, 0xff, 0xff, 0xff, 0x0f];
    let huge_usize = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    for (offset, huge, what) in [
        (0, &huge_usize[..], "the table count"),
        (1, &huge_usize[..], "the column count"),
        (runs, &huge_usize[..], "the `changed` run count"),
        (runs + 2, &huge_u32[..], "a `changed` run's rows"),
        (runs + 3, &huge_usize[..], "the `added` run count"),
        (runs + 5, &huge_u32[..], "an `added` run's rows"),
    ] {
        let mut mutant = bytes.clone();
        let at = start + offset;
        mutant.splice(at..at + 1, huge.iter().copied());
        assert!(
            postcard::from_bytes::<World>(&mutant).is_err(),
            "{what} declared huge"
        );
    }
    assert!(postcard::from_bytes::<World>(&bytes).is_ok());
}

/// A table's rows are saved grouped by their tags (one run of rows per set of tags): a table
/// whose rows would have to be regrouped is refused, so a loaded world iterates, and saves its
/// rows and their change ticks, in the snapshot's order.
#[test]
fn rows_not_grouped_by_their_tags_are_refused() {
    let mut world = World::new();
    world.spawn_entities(POSITION, 3);
    let value = serde_json::to_value(world.snapshot()).unwrap();
    let ids = value["tables"][0]["entities"].clone();
    let with_players = |players: serde_json::Value| {
        let mut value = value.clone();
        value["tags"]["player"] = players;
        value.to_string()
    };
    for grouped in [
        serde_json::json!([ids[0]]),
        serde_json::json!([ids[2], ids[1]]),
    ] {
        let text = with_players(grouped);
        let loaded: World = serde_json::from_str(&text).unwrap();
        let saved = serde_json::to_value(loaded.snapshot()).unwrap();
        assert_eq!(saved["tables"], value["tables"], "the rows where they were");
    }
    json_error(
        &with_players(serde_json::json!([ids[0], ids[2]])),
        "table 0: its rows are not grouped by their tags (and relations) as a snapshot writes them",
    );
}

#[test]
fn missing_parts_are_errors() {
    json_error(
        &edited_json(|value| {
            value["resources"].as_object_mut().unwrap().remove("frame");
        }),
        "the snapshot has no `frame` resource",
    );
    json_error(
        &edited_json(|value| {
            value["tags"].as_object_mut().unwrap().remove("frozen");
        }),
        "the snapshot has no `frozen` tag",
    );
    json_error(
        &edited_json(|value| {
            value["tables"][0]
                .as_object_mut()
                .unwrap()
                .remove("entities");
        }),
        "the `position` entry of a table comes before its `entities`",
    );
    json_error(
        &edited_json(|value| {
            value["tables"][1].as_object_mut().unwrap().remove("name");
            value["tables"][1]
                .as_object_mut()
                .unwrap()
                .remove("entities");
        }),
        "missing field `entities`",
    );
    json_error(
        &edited_json(|value| {
            value.as_object_mut().unwrap().remove("free");
        }),
        "missing field `free`",
    );
}

#[test]
fn an_entity_index_that_disagrees_with_the_rows_is_an_error() {
    json_error(
        &edited_json(|value| value["tables"][0]["entities"][0] = serde_json::json!(40)),
        "a table holds entity id 40, which was never issued (4 ids were)",
    );
    json_error(
        // Both rows: which row holds id 0 depends on the table's tag segments.
        &edited_json(|value| value["tables"][0]["entities"] = serde_json::json!([0, 0])),
        "entity id 0 has more than one row",
    );
    json_error(
        &edited_json(|value| value["free"] = serde_json::json!([1, 0])),
        "id 0 is both alive and on the free list",
    );
    json_error(
        &edited_json(|value| value["free"] = serde_json::json!([1, 1])),
        "id 1 is on the free list twice",
    );
    json_error(
        &edited_json(|value| value["free"] = serde_json::json!([])),
        "the generations cover 4 ids, more than the 3 rows, 0 free and 0 retired ids listed",
    );
    json_error(
        &edited_json(|value| {
            value["free"] = serde_json::json!([]);
            // Id 3, alive, at the last generation: the count of ids adds up, id 1 does not.
            value["generations"] = serde_json::json!([[0, 1], [1, 1], [0, 1], [u32::MAX, 1]]);
        }),
        "id 1 is neither alive, free nor retired",
    );
    json_error(
        &edited_json(|value| value["tags"]["player"] = serde_json::json!([1])),
        "the tag `player` holds id 1, which is not a live entity",
    );
    json_error(
        &edited_json(|value| value["tags"]["player"] = serde_json::json!([0, 0])),
        "the tag `player` holds id 0 twice",
    );
}

/// Generations are saved as runs (`[generation, count]`, ids in order), exactly as
/// `snapshot()` writes them: a run covers at least one id, neighbours differ, a retired id is
/// a run of its own; and the runs may not cover more ids than the snapshot lists (rows, free
/// ids, retired runs), which is checked before anything is allocated for them.
#[test]
fn generation_runs_are_refused_unless_as_written() {
    let runs =
        |value: serde_json::Value| edited_json(move |snapshot| snapshot["generations"] = value);
    let saved: serde_json::Value = serde_json::from_str(&edited_json(|_| {})).unwrap();
    assert_eq!(
        saved["generations"],
        serde_json::json!([[0, 1], [1, 1], [0, 2]]),
        "one run per stretch of equal generations"
    );
    json_error(
        &runs(serde_json::json!([[0, 1], [1, 1], [0, 1], [0, 1]])),
        "generation runs 2 and 3 are both at generation 0",
    );
    json_error(
        &runs(serde_json::json!([[0, 1], [1, 1], [0, 0], [0, 2]])),
        "generation run 2 covers no id",
    );
    json_error(
        &runs(serde_json::json!([[0, 1], [1, 1], [u32::MAX, 2]])),
        "generation run 2 retires 2 ids (a retired id is a run of its own)",
    );
    // Four billion ids claimed in a few bytes: refused before any slot is allocated.
    json_error(
        &runs(serde_json::json!([
            [0, 1],
            [1, 1],
            [0, u32::MAX],
            [1, u32::MAX]
        ])),
        "the generations cover 8589934592 ids, more than the 3 rows, 1 free and 0 retired ids listed",
    );
    json_error(
        &runs(serde_json::json!([[0, 1], [1, 1], [0, 2, 5]])),
        "trailing characters",
    );
}

/// In a binary format the ids (rows, free list, tag members) are one byte string of
/// little-endian `u32`s; a string that is not a whole number of ids is refused.
#[test]
fn binary_ids_are_whole_little_endian_u32s() {
    let mut world = World::new();
    let entity = world.spawn(POSITION);
    let bytes = to_postcard(&world);
    // The `entities` key, then the byte string: its length, then id 0.
    let mut key = vec![b"entities".len() as u8];
    key.extend_from_slice(b"entities");
    let start = bytes
        .windows(key.len())
        .position(|window| window == key.as_slice())
        .expect("the entities key")
        + key.len();
    assert_eq!(bytes[start..start + 5], [4, 0, 0, 0, 0], "one 4-byte id");
    let loaded: World = postcard::from_bytes(&bytes).unwrap();
    assert!(loaded.is_alive(entity));
    let mut cut = bytes.clone();
    cut[start] = 3;
    cut.remove(start + 1);
    // postcard keeps no custom message: the refusal is the loader's own (the unit test in
    // `src/snapshot/ids.rs` checks its words), not postcard running out of bytes.
    let error = postcard::from_bytes::<World>(&cut).err().unwrap();
    assert_eq!(error, postcard::Error::SerdeDeCustom);
}

#[test]
fn two_tables_of_the_same_components_are_an_error() {
    let text = edited_json(|value| {
        let tables = value["tables"].as_array_mut().unwrap();
        // Move the NAME entity's row into a second table of the movers' components.
        tables[1] = serde_json::json!({
            "entities": [3],
            "position": [[0.0, 0.0]],
            "velocity": [[0.0, 0.0]],
        });
    });
    json_error(&text, "tables 0 and 1 hold the same components");
}

#[test]
fn a_wrong_version_or_type_is_an_error() {
    json_error(
        &edited_json(|value| value["version"] = serde_json::json!(4)),
        "snapshot version 4 is not supported (this build reads version 7)",
    );
    json_error(
        &edited_json(|value| value["tables"][0]["position"][0] = serde_json::json!("north")),
        "expected struct Position",
    );
    json_error(
        &edited_json(|value| value["tick"] = serde_json::json!(-1)),
        "invalid value: integer `-1`, expected u32",
    );
}

#[test]
fn the_two_step_load_reports_a_snapshot_error() {
    let text = edited_json(|value| value["free"] = serde_json::json!([1, 1]));
    let data: SnapshotData<World> = serde_json::from_str(&text).unwrap();
    let error: SnapshotError = World::from_snapshot(data).err().unwrap();
    assert_eq!(
        error.to_string(),
        "invalid snapshot: id 1 is on the free list twice"
    );
    assert!(error.message().starts_with("id 1"));
}

#[test]
fn every_truncation_of_a_json_snapshot_is_an_error() {
    let text = to_json(&populated_world());
    for length in 0..text.len() {
        assert!(
            serde_json::from_str::<World>(&text[..length]).is_err(),
            "a snapshot cut at {length} loaded"
        );
    }
}

#[test]
fn every_truncation_of_a_postcard_snapshot_is_an_error() {
    let bytes = to_postcard(&populated_world());
    for length in 0..bytes.len() {
        assert!(
            postcard::from_bytes::<World>(&bytes[..length]).is_err(),
            "a snapshot cut at {length} loaded"
        );
    }
}

/// Every byte flipped in turn: loading either fails, or gives a whole, sound world that is
/// what the corrupted bytes say (a flipped byte inside a float is still a float). A load groups
/// each table's rows by their tags, so a flip that moves a tag from one row to another loads
/// with those rows in another order: the world saves back to bytes of the very same length
/// (nothing dropped, clamped or invented; rows and tag members only reordered), and saving is
/// then a fixed point. The JSON test below checks the same rows value by value.
/// (postcard leaves bytes after a complete value unread: a flip that ends the snapshot early,
/// such as `Some` turned into `None`, loads the part before them.) Never a panic.
#[test]
fn flipped_bytes_give_an_error_or_exactly_the_world_they_describe() {
    let bytes = to_postcard(&populated_world());
    for position in 0..bytes.len() {
        for flip in [0x01, 0x80, 0xff] {
            let mut corrupted = bytes.clone();
            corrupted[position] ^= flip;
            if let Ok((world, unread)) = postcard::take_from_bytes::<World>(&corrupted) {
                world.check_invariants().unwrap();
                let read = &corrupted[..corrupted.len() - unread.len()];
                let saved = to_postcard(&world);
                if saved != read {
                    assert_eq!(
                        saved.len(),
                        read.len(),
                        "byte {position} ^ {flip:#x} loaded as another world"
                    );
                    let reloaded: World = postcard::from_bytes(&saved).unwrap();
                    assert_eq!(to_postcard(&reloaded), saved, "byte {position} ^ {flip:#x}");
                }
            }
        }
    }
}

/// Numbers as `f64`, so `690` and `690.0` compare equal.
fn numbers_as_floats(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Number(number) => serde_json::json!(number.as_f64()),
        Value::Array(items) => Value::Array(items.into_iter().map(numbers_as_floats).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .into_iter()
                .map(|(key, value)| (key, numbers_as_floats(value)))
                .collect(),
        ),
        other => other,
    }
}

/// Rows in a canonical order: each table's rows sorted by entity id (every column permuted
/// alike), each tag's members sorted. A load groups rows by their tags, so the order of rows
/// inside a table and of tag members is not part of what a snapshot says.
fn canonical_rows(mut snapshot: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    if let Some(Value::Array(tables)) = snapshot.get_mut("tables") {
        for table in tables {
            let Value::Object(columns) = table else {
                continue;
            };
            let Some(Value::Array(entities)) = columns.get("entities") else {
                continue;
            };
            let mut order: Vec<usize> = (0..entities.len()).collect();
            order.sort_by_key(|&row| entities[row].as_u64());
            for column in columns.values_mut() {
                if let Value::Array(values) = column
                    && values.len() == order.len()
                {
                    *values = order.iter().map(|&row| values[row].clone()).collect();
                }
            }
        }
    }
    if let Some(Value::Object(tags)) = snapshot.get_mut("tags") {
        for members in tags.values_mut() {
            if let Value::Array(members) = members {
                members.sort_by_key(Value::as_u64);
            }
        }
    }
    snapshot
}

/// The same over the JSON text: every character replaced in turn by a few others; a text that
/// loads is exactly the world it describes (it saves back to the same values, rows in a
/// canonical order).
#[test]
fn replaced_characters_give_an_error_or_exactly_the_world_they_describe() {
    let text = to_json(&populated_world());
    for position in 0..text.len() {
        for replacement in ["9", "\"", "]", "-"] {
            let mut corrupted = text.clone();
            corrupted.replace_range(position..position + 1, replacement);
            if let Ok(world) = serde_json::from_str::<World>(&corrupted) {
                world.check_invariants().unwrap();
                let read: serde_json::Value = serde_json::from_str(&corrupted).unwrap();
                let saved: serde_json::Value = serde_json::from_str(&to_json(&world)).unwrap();
                assert_eq!(
                    numbers_as_floats(canonical_rows(saved)),
                    numbers_as_floats(canonical_rows(read)),
                    "character {position} replaced by {replacement} loaded as another world"
                );
            }
        }
    }
}

#[test]
fn cursors_kept_across_a_load_read_what_the_loaded_world_sends_and_logs() {
    let mut world = populated_world();
    // A system's cursor, saved with the resources, that had read every event and change.
    let mut cursor = world.resources.cursor;
    assert_eq!(world.events.hit.consume(&mut cursor).len(), 1);
    world.resources.cursor = cursor;
    world.enable_change_log(64);
    let mut changes = EventCursor::new();
    world.spawn(POSITION);
    world.spawn(POSITION);
    assert_eq!(world.consume_changes(&mut changes).len(), 2);

    let mut loaded = World::from_snapshot(serde_json::from_str(&to_json(&world)).unwrap()).unwrap();
    // The loaded world's channels start numbering again: the old cursors are past their end,
    // and must not skip what is sent or logged from now on.
    let target = loaded.spawn(POSITION);
    loaded.events.hit.send(Hit {
        entity: target,
        damage: 1,
    });
    let mut cursor = loaded.resources.cursor;
    let hits: Vec<u32> = loaded
        .events
        .hit
        .consume(&mut cursor)
        .iter()
        .map(|hit| hit.damage)
        .collect();
    assert_eq!(hits, [1]);
    loaded.enable_change_log(64);
    loaded.despawn(target);
    let logged = loaded.consume_changes(&mut changes);
    assert_eq!(logged.len(), 1, "the despawn, not skipped");
    assert_eq!(logged.lost(), 0);
}

#[test]
fn event_and_change_log_numbering_is_checked_on_load() {
    let text = to_json(&populated_world());
    let refused = |from: &str, to: &str, reason: &str| {
        assert!(text.contains(from), "{from}");
        let edited = text.replace(from, to);
        let error = World::from_snapshot(serde_json::from_str(&edited).unwrap())
            .err()
            .unwrap_or_else(|| panic!("{to} loaded"));
        assert!(error.message().contains(reason), "{to}: {error}");
    };
    let listed = r#""event_sequences":[["hit",2]]"#;
    refused(listed, r#""event_sequences":[]"#, "`hit` has no sequence");
    refused(
        listed,
        r#""event_sequences":[["hit",2],["hit",3]]"#,
        "numbered twice",
    );
    refused(
        listed,
        r#""event_sequences":[["miss",2]]"#,
        "no event channel `miss`",
    );
    refused(
        listed,
        r#""event_sequences":[["hit",0]]"#,
        "no event channel `hit` can start",
    );
    refused(
        r#""change_log_sequence":1"#,
        r#""change_log_sequence":18446744073709551615"#,
        "out of range",
    );
}
