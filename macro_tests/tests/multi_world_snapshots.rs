//! Snapshots of a multi-world game from the user's side: a two-sub-world game saved with
//! serde_json (text) and postcard (binary) loads back exactly (the game's entity index and so its
//! next handles, every sub-world's tables, rows, tags, relations and ticks, the resources, where
//! event and change-log numbering stands); a snapshot that is truncated, or whose sub-worlds
//! disagree with the game's entity index, is an error that says what is wrong, never a panic and
//! never a half-loaded game.

use archetypal::{Entity, EventCursor, MultiWorldSnapshotData, ecs};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Name(pub String);

/// A component holding a handle: it must still point at the same entity after loading.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target(pub Entity);

#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sprite(pub String);

/// An event type that is not `Serialize`: events are not saved, so it does not matter.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit(pub u32);

ecs! {
    Game {
        Core {
            position: Position => POSITION,
            name: Name => NAME,
            target: Target => TARGET,
            health: u32 => HEALTH [untracked],
        }
        Tags {
            player => PLAYER,
            frozen => FROZEN,
        }
        Relations {
            child_of / children => CHILD_OF [cascade],
        }
        Render {
            sprite: Sprite => SPRITE,
            tint: u8 => TINT,
        }
        Tags {
            hidden => HIDDEN,
        }
        Relations {
            owned_by / belongings => OWNED_BY,
        }
    }
    Events {
        hit: Hit,
    }
    Resources {
        frame: u64,
        cursor: EventCursor,
        focus: Option<Entity>,
    }
}

/// Entities over several tables of both sub-worlds, ids freed and recycled, tags, links in both
/// sub-worlds, resources, an event, and a few frames of ticks (one sub-world a tick ahead).
fn populated_game() -> Game {
    let mut game = Game::new();
    let entities = game.spawn_entities(8);
    for (index, &entity) in entities.iter().enumerate() {
        if index % 2 == 0 {
            game.core.set_position(
                entity,
                Position {
                    x: index as f32,
                    y: 1.5,
                },
            );
        }
        if index % 3 == 0 {
            game.render
                .set_sprite(entity, Sprite(format!("sprite {index}")));
        }
    }
    game.step();
    game.core.set_name(entities[1], Name("hero".into()));
    game.core.set_target(entities[1], Target(entities[6]));
    game.core.set_health(entities[2], 90);
    game.render.set_tint(entities[2], 7);
    game.core.add_player(entities[1]);
    game.core.add_frozen(entities[4]);
    game.render.add_hidden(entities[3]);
    game.core.set_child_of(entities[5], entities[4]).unwrap();
    game.core.set_child_of(entities[7], entities[4]).unwrap();
    game.render.set_owned_by(entities[2], entities[1]).unwrap();
    game.despawn(entities[0]);
    game.despawn(entities[6]);
    let recycled = game.spawn();
    assert_eq!(recycled.id, entities[6].id, "the last freed id comes back");
    game.render.set_tint(recycled, 3);
    game.resources.frame = 42;
    game.resources.focus = Some(entities[1]);
    game.events.hit.send(Hit(1));
    game.step();
    game.core
        .set_position(entities[2], Position { x: 9.0, y: 9.0 });
    game.render.increment_tick();
    game.check_invariants().unwrap();
    game
}

fn to_json(game: &Game) -> String {
    serde_json::to_string(&game.snapshot()).unwrap()
}

fn to_postcard(game: &Game) -> Vec<u8> {
    postcard::to_allocvec(&game.snapshot()).unwrap()
}

/// Every observable part of two games agrees, down to table and row order in each sub-world.
#[track_caller]
fn assert_same_game(expected: &Game, loaded: &Game) {
    loaded.check_invariants().unwrap();
    let live = |game: &Game| game.entities().collect::<Vec<_>>();
    assert_eq!(live(loaded), live(expected));
    let ids = |game: &Game| (game.core.records().len(), game.entity_count());
    assert_eq!(ids(loaded), ids(expected));

    let core_tables = |game: &Game| {
        game.core
            .tables()
            .iter()
            .map(|table| {
                (
                    table.mask,
                    table.entities.clone(),
                    table.position.clone(),
                    table.name.clone(),
                    table.target.clone(),
                    table.health.clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(core_tables(loaded), core_tables(expected));
    let render_tables = |game: &Game| {
        game.render
            .tables()
            .iter()
            .map(|table| {
                (
                    table.mask,
                    table.entities.clone(),
                    table.sprite.clone(),
                    table.tint.clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(render_tables(loaded), render_tables(expected));
    for entity in live(expected) {
        assert_eq!(
            loaded.core.get_child_of(entity),
            expected.core.get_child_of(entity)
        );
        assert_eq!(
            loaded.core.get_children(entity),
            expected.core.get_children(entity)
        );
        assert_eq!(
            loaded.render.get_owned_by(entity),
            expected.render.get_owned_by(entity)
        );
        assert_eq!(
            loaded.render.get_belongings(entity),
            expected.render.get_belongings(entity)
        );
        assert_eq!(
            loaded.core.has_player(entity),
            expected.core.has_player(entity)
        );
        assert_eq!(
            loaded.core.has_frozen(entity),
            expected.core.has_frozen(entity)
        );
        assert_eq!(
            loaded.render.has_hidden(entity),
            expected.render.has_hidden(entity)
        );
    }
    assert_eq!(loaded.resources.frame, expected.resources.frame);
    assert_eq!(loaded.resources.cursor, expected.resources.cursor);
    assert_eq!(loaded.resources.focus, expected.resources.focus);
    assert_eq!(loaded.core.current_tick(), expected.core.current_tick());
    assert_eq!(loaded.core.last_tick(), expected.core.last_tick());
    assert_eq!(loaded.render.current_tick(), expected.render.current_tick());
    assert_eq!(loaded.render.last_tick(), expected.render.last_tick());
}

/// The loaded game goes on exactly as the original: the same handles come out of spawns, and
/// a despawn cascades alike.
#[track_caller]
fn assert_same_future(mut expected: Game, mut loaded: Game) {
    assert_eq!(loaded.spawn_entities(3), expected.spawn_entities(3));
    assert_eq!(loaded.spawn(), expected.spawn());
    let root = expected.core.query_entities(FROZEN).next();
    if let Some(root) = root {
        assert_eq!(
            loaded.despawn_entities(&[root]),
            expected.despawn_entities(&[root])
        );
    }
    assert_eq!(loaded.spawn_entities(4), expected.spawn_entities(4));
    assert_same_game(&expected, &loaded);
}

#[test]
fn a_game_round_trips_through_json() {
    let game = populated_game();
    let text = to_json(&game);
    let data: MultiWorldSnapshotData<Game> = serde_json::from_str(&text).unwrap();
    let loaded = Game::from_snapshot(data).unwrap();
    assert_same_game(&game, &loaded);
    assert_eq!(to_json(&loaded), text, "it saves back to the same text");
    assert_same_future(game, loaded);
}

#[test]
fn a_game_round_trips_through_postcard() {
    let game = populated_game();
    let bytes = to_postcard(&game);
    let loaded: Game = postcard::from_bytes(&bytes).unwrap();
    assert_same_game(&game, &loaded);
    assert_eq!(
        to_postcard(&loaded),
        bytes,
        "it saves back to the same bytes"
    );
    assert_same_future(game, loaded);
}

#[test]
fn the_game_itself_is_serialize_and_deserialize() {
    let game = populated_game();
    let text = serde_json::to_string(&game).unwrap();
    assert_eq!(text, to_json(&game));
    let loaded: Game = serde_json::from_str(&text).unwrap();
    assert_same_game(&game, &loaded);
}

#[test]
fn an_empty_game_round_trips() {
    let game = Game::new();
    let loaded: Game = serde_json::from_str(&to_json(&game)).unwrap();
    assert_same_game(&game, &loaded);
    let loaded: Game = postcard::from_bytes(&to_postcard(&game)).unwrap();
    assert_same_future(game, loaded);
}

#[test]
fn the_json_holds_the_entity_index_once_and_each_sub_world_by_name() {
    let mut game = Game::new();
    let [first, second] = [(); 2].map(|()| game.spawn());
    game.core.set_health(first, 5);
    game.render.add_hidden(second);
    game.core.set_child_of(second, first).unwrap();
    let freed = game.spawn();
    game.despawn(freed);
    assert_eq!(
        to_json(&game),
        concat!(
            r#"{"version":7,"generations":[[0,2],[1,1]],"free":[2],"sub_worlds":{"#,
            r#""Core":{"tick":1,"last_tick":0,"tables":[{"entities":[1]},{"entities":[0],"health":[5]}],"#,
            r#""change_ticks":[{},{}],"#,
            r#""tags":{"player":[],"frozen":[]},"relations":{"child_of":[[1,0]]},"change_log_sequence":1},"#,
            r#""Render":{"tick":1,"last_tick":0,"tables":[{"entities":[0,1]}],"change_ticks":[{}],"#,
            r#""tags":{"hidden":[1]},"relations":{"owned_by":[]},"change_log_sequence":1}},"#,
            r#""resources":{"frame":0,"cursor":{"next":0},"focus":null},"event_sequences":[["hit",1]],"events":{},"systems":[]}"#
        )
    );
}

#[test]
fn handles_taken_before_saving_still_resolve_and_stale_ones_stay_stale() {
    let mut game = Game::new();
    let [kept, gone] = [(); 2].map(|()| game.spawn());
    game.core.set_target(kept, Target(gone));
    game.despawn(gone);
    let reused = game.spawn();
    assert_eq!(reused.id, gone.id);
    game.render.set_tint(reused, 1);
    let mut loaded: Game = postcard::from_bytes(&to_postcard(&game)).unwrap();
    assert_eq!(loaded.core.get_target(kept), Some(&Target(gone)));
    assert!(!loaded.is_alive(gone));
    assert!(!loaded.core.is_alive(gone) && !loaded.render.is_alive(gone));
    assert_eq!(
        loaded.render.get_tint(gone),
        None,
        "stale in every sub-world"
    );
    assert_eq!(loaded.render.get_tint(reused), Some(&1));
    assert!(!loaded.despawn(gone));
    assert!(loaded.despawn(reused));
    loaded.check_invariants().unwrap();
}

#[test]
fn queued_commands_are_not_saved_and_their_reservations_come_back_in_order() {
    let mut game = populated_game();
    let reserved = game.commands().queue_spawn_entities(3);
    let some = game.entities().next().unwrap();
    game.commands().core().queue_set_health(some, 1);
    game.commands().queue_despawn(some);
    let mut loaded: Game = serde_json::from_str(&to_json(&game)).unwrap();
    assert_eq!(loaded.command_count(), 0);
    assert!(reserved.iter().all(|&entity| !loaded.is_alive(entity)));
    loaded.check_invariants().unwrap();
    game.clear_commands();
    assert_same_game(&game, &loaded);
    assert_eq!(loaded.spawn_entities(5), game.spawn_entities(5));
}

#[test]
fn cursors_kept_across_a_load_read_what_the_loaded_game_sends_and_logs() {
    let mut game = populated_game();
    // A system's cursor, saved with the resources, that had read every event.
    let mut cursor = game.resources.cursor;
    assert_eq!(game.events.hit.consume(&mut cursor).len(), 1);
    game.resources.cursor = cursor;
    // A change-log reader of one sub-world, kept outside the game.
    game.render.enable_change_log(64);
    let mut changes = EventCursor::new();
    let entity = game.spawn();
    game.render.set_tint(entity, 2);
    assert_eq!(game.render.consume_changes(&mut changes).len(), 2);
    let since = game.render.current_tick();

    let mut loaded: Game = serde_json::from_str(&to_json(&game)).unwrap();
    // The channels start numbering where they stood: the kept cursors read what comes next.
    loaded.events.hit.send(Hit(7));
    let mut cursor = loaded.resources.cursor;
    let hits: Vec<u32> = loaded
        .events
        .hit
        .consume(&mut cursor)
        .iter()
        .map(|hit| hit.0)
        .collect();
    assert_eq!(hits, [7]);
    loaded.render.enable_change_log(64);
    loaded.render.increment_tick();
    loaded.render.set_sprite(entity, Sprite("new".into()));
    let logged = loaded.render.consume_changes(&mut changes);
    assert_eq!(logged.len(), 1, "the migration, not skipped");
    assert_eq!(logged.lost(), 0);
    // A tick kept from before the save: only what is written after the load is newer.
    let changed: Vec<Entity> = loaded
        .render
        .typed_query::<(Entity, &Sprite)>()
        .changed_since(SPRITE, since)
        .iter()
        .map(|(entity, _)| entity)
        .collect();
    assert_eq!(changed, [entity]);
}

/// The JSON of the populated game, edited as a value (keys keep their order: the loader needs a
/// table's `entities` first).
fn edited_json(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut value: serde_json::Value = serde_json::from_str(&to_json(&populated_game())).unwrap();
    edit(&mut value);
    value.to_string()
}

/// Loads `text` through `from_snapshot`, which must refuse it with a message containing
/// `expected`; decoding the game directly must refuse it too.
#[track_caller]
fn refused(text: &str, expected: &str) {
    let message = match serde_json::from_str::<MultiWorldSnapshotData<Game>>(text) {
        Err(error) => error.to_string(),
        Ok(data) => match Game::from_snapshot(data) {
            Ok(_) => panic!("loaded: {text}"),
            Err(error) => error.to_string(),
        },
    };
    assert!(
        message.contains(expected),
        "{message}\n(expected: {expected})"
    );
    assert!(serde_json::from_str::<Game>(text).is_err());
}

#[test]
fn the_edit_helper_starts_from_a_sound_snapshot() {
    let loaded: Game = serde_json::from_str(&edited_json(|_| {})).unwrap();
    assert_same_game(&populated_game(), &loaded);
}

#[test]
fn missing_unknown_and_repeated_sub_worlds_are_refused() {
    let text = edited_json(|value| {
        value["sub_worlds"]
            .as_object_mut()
            .unwrap()
            .remove("Render");
    });
    refused(&text, "the snapshot has no sub-world `Render`");
    let text = edited_json(|value| {
        let sub_worlds = value["sub_worlds"].as_object_mut().unwrap();
        let core = sub_worlds["Core"].clone();
        sub_worlds.insert("Physics".into(), core);
    });
    refused(
        &text,
        "unknown sub-world `Physics` (this game's sub-worlds: Core, Render)",
    );
    let text = to_json(&populated_game());
    let render_at = text.find(r#""Render":"#).unwrap();
    let end = text.find(r#"},"resources""#).unwrap();
    let render = &text[render_at..end];
    let twice = format!("{},{render}{}", &text[..end], &text[end..]);
    refused(&twice, "the sub-world `Render` appears twice");
}

#[test]
fn an_entity_missing_from_one_sub_world_is_refused() {
    // The last row of Render's first table, gone from Render only.
    let text = edited_json(|value| {
        let table = &mut value["sub_worlds"]["Render"]["tables"][0];
        let id = table["entities"].as_array_mut().unwrap().pop().unwrap();
        assert_eq!(table.as_object().unwrap().len(), 1, "a table of no column");
        let _ = id;
    });
    refused(&text, "the sub-world `Render`: the game's entity");
    refused(&text, "has no row");
    // From the first sub-world, whose rows the game's ids are checked against.
    let text = edited_json(|value| {
        let table = &mut value["sub_worlds"]["Core"]["tables"][0];
        table["entities"].as_array_mut().unwrap().pop().unwrap();
    });
    refused(
        &text,
        "the game's ids, against the rows of the sub-world `Core`",
    );
}

#[test]
fn an_entity_alive_in_a_sub_world_but_not_in_the_game_is_refused() {
    // The game's free id (recycled last) given a row in Render.
    let mut game = populated_game();
    let freed = game.spawn();
    game.despawn(freed);
    let mut value: serde_json::Value = serde_json::from_str(&to_json(&game)).unwrap();
    assert_eq!(
        value["free"].as_array().unwrap().last(),
        Some(&freed.id.into())
    );
    value["sub_worlds"]["Render"]["tables"][0]["entities"]
        .as_array_mut()
        .unwrap()
        .push(freed.id.into());
    refused(
        &value.to_string(),
        &format!(
            "the sub-world `Render`: a table holds entity id {}, which is not alive in the game",
            freed.id
        ),
    );
    // An id the game never issued.
    let text = edited_json(|value| {
        value["sub_worlds"]["Render"]["tables"][0]["entities"]
            .as_array_mut()
            .unwrap()
            .push(500.into());
    });
    refused(
        &text,
        "a table holds entity id 500, which is not alive in the game",
    );
    // One id on two rows of a sub-world.
    let text = edited_json(|value| {
        let entities = value["sub_worlds"]["Render"]["tables"][0]["entities"]
            .as_array_mut()
            .unwrap();
        let first = entities[0].clone();
        entities.push(first);
    });
    refused(&text, "has more than one row");
}

/// Generations are the game's alone: a sub-world lists ids, so it cannot hold an entity at a
/// generation of its own. One that tries is refused by name.
#[test]
fn a_sub_world_cannot_carry_generations_of_its_own() {
    let text = edited_json(|value| {
        value["sub_worlds"]["Render"]["generations"] = serde_json::json!([[1, 9]]);
    });
    refused(&text, "unknown field `generations`");
    // A generation changed in the game changes it in every sub-world: the old handle is stale
    // in each, the new one alive in each.
    let mut game = Game::new();
    let entity = game.spawn();
    game.render.set_tint(entity, 4);
    let text = to_json(&game).replace(r#""generations":[[0,1]]"#, r#""generations":[[5,1]]"#);
    let loaded: Game = serde_json::from_str(&text).unwrap();
    loaded.check_invariants().unwrap();
    let moved = Entity {
        id: entity.id,
        generation: 5,
    };
    assert!(!loaded.core.is_alive(entity) && !loaded.render.is_alive(entity));
    assert_eq!(loaded.render.get_tint(moved), Some(&4));
    assert!(loaded.core.is_alive(moved));
}

#[test]
fn a_sub_world_s_own_parts_are_checked_as_a_world_s_and_named() {
    let text = edited_json(|value| {
        value["sub_worlds"]["Render"]["last_tick"] = value["sub_worlds"]["Render"]["tick"].clone();
    });
    refused(&text, "the sub-world `Render`: last_tick");
    let text = edited_json(|value| {
        value["sub_worlds"]["Render"]["tags"]["hidden"] = serde_json::json!([4000]);
    });
    refused(
        &text,
        "the sub-world `Render`: the tag `hidden` holds id 4000",
    );
    let text = edited_json(|value| {
        value["sub_worlds"]["Core"]["relations"]["child_of"] = serde_json::json!([[1, 1]]);
    });
    refused(
        &text,
        "the sub-world `Core`: the relation `child_of` cannot link id 1 to id 1",
    );
    let text = edited_json(|value| {
        value["sub_worlds"]["Core"]["tables"][1]["position"] = serde_json::json!([]);
    });
    refused(
        &text,
        "the sub-world `Core`: table 1: the `position` column holds 0 values",
    );
}

/// Each sub-world's change ticks are saved as a world's are (format 6): a loaded game reports
/// exactly the rows the saved one reports as changed or added since any tick, in each
/// sub-world (one a tick ahead of the other).
#[test]
fn every_sub_world_s_change_ticks_are_saved_and_loaded() {
    fn answers(game: &Game) -> Vec<Vec<Entity>> {
        let mut answers = Vec::new();
        for since in 0..=game.render.current_tick().0 {
            let since = archetypal::Tick(since);
            for mask in [POSITION, NAME, TARGET] {
                let query = || game.core.typed_query_ref::<Entity>();
                answers.push(query().changed_since(mask, since).iter().collect());
                answers.push(query().added_since(mask, since).iter().collect());
            }
            for mask in [SPRITE, TINT] {
                let query = || game.render.typed_query_ref::<Entity>();
                answers.push(query().changed_since(mask, since).iter().collect());
                answers.push(query().added_since(mask, since).iter().collect());
            }
        }
        answers
    }
    let game = populated_game();
    let expected = answers(&game);
    assert!(expected.iter().any(|rows| !rows.is_empty()) && expected.iter().any(Vec::is_empty));
    let from_json: Game = serde_json::from_str(&to_json(&game)).unwrap();
    let from_postcard: Game = postcard::from_bytes(&to_postcard(&game)).unwrap();
    assert_eq!(answers(&from_json), expected);
    assert_eq!(answers(&from_postcard), expected);
    assert!(to_json(&game).contains(r#""change_ticks":[{},{"position":{"changed":"#));
}

/// A sub-world's change ticks are checked as a world's, and a refusal names the sub-world.
#[test]
fn a_sub_world_s_bad_change_ticks_are_refused_by_name() {
    let text = edited_json(|value| {
        value["sub_worlds"]["Render"]["change_ticks"]
            .as_array_mut()
            .unwrap()
            .pop();
    });
    refused(&text, "the sub-world `Render`: change_ticks holds");
    let text = edited_json(|value| {
        let ticks = &mut value["sub_worlds"]["Core"]["change_ticks"][1]["position"];
        ticks["changed"] = serde_json::json!([[4, 1]]);
    });
    refused(
        &text,
        "the sub-world `Core`: table 1: the change ticks of `position`: `changed`: run 0's tick 4 is after the snapshot's tick 3",
    );
}

#[test]
fn the_game_s_own_parts_are_checked() {
    let text = edited_json(|value| value["version"] = 4.into());
    refused(&text, "snapshot version 4 is not supported");
    let text = edited_json(|value| {
        value["resources"].as_object_mut().unwrap().remove("frame");
    });
    refused(&text, "the snapshot has no `frame` resource");
    let text = edited_json(|value| value["event_sequences"] = serde_json::json!([]));
    refused(&text, "the event channel `hit` has no sequence");
    let text = edited_json(|value| value["generations"] = serde_json::json!([[0, 4294967295u32]]));
    refused(&text, "the generations cover 4294967295 ids");
}

#[test]
fn every_truncation_of_a_json_snapshot_is_an_error() {
    let text = to_json(&populated_game());
    for end in 0..text.len() {
        assert!(
            serde_json::from_str::<Game>(&text[..end]).is_err(),
            "{end} characters loaded"
        );
    }
}

#[test]
fn every_truncation_of_a_postcard_snapshot_is_an_error() {
    let bytes = to_postcard(&populated_game());
    for end in 0..bytes.len() {
        assert!(
            postcard::from_bytes::<Game>(&bytes[..end]).is_err(),
            "{end} bytes loaded"
        );
    }
}
