//! What systems remember, through a snapshot (format version 6), from the user's side: a world
//! run by a schedule of parameter systems, saved in JSON and in postcard and loaded, runs on
//! under a fresh schedule exactly as the original does, frame for frame and byte for byte (its
//! last runs, its event cursors and every row's change ticks are in the snapshot, so each
//! `Changed` and `Added` filter sees after the load exactly what it would have seen); what the
//! snapshot does not carry is pinned as documented (a `Local` restarts at its default; events
//! pending at the save are not in it, and a reader behind counts them as lost); an older version
//! and hostile memory entries are refused.

use archetypal::{
    Added, Changed, Entity, EventReader, EventWriter, Local, Res, ResMut, SavedLocal, Schedule,
    SnapshotData, SystemTicks, ecs,
};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Velocity(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health(pub i32);

/// Which cell of 4 a position is in, kept by a `Changed<Position>` system. (Its field is `zone`,
/// not `cell`: the tests edit snapshots through `serde_json::Value`, whose maps sort their keys,
/// and a table's `entities` must come before its columns.)
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell(pub i32);

/// Events are not saved: their type need not be serde.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub target: Entity,
    pub damage: i32,
}

#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub hits_read: u32,
    pub hits_lost: u64,
    pub kills: u32,
}

#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Log(pub Vec<String>);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
        zone: Cell => ZONE,
    }
    Events {
        hit: Hit,
    }
    Resources {
        score: Score,
        log: Log,
        wave: u32,
    }
}

fn movement(mut query: Query<(&mut Position, &Velocity)>) {
    query.for_each(|(mut position, velocity)| position.0 += velocity.0);
}

/// Every entity with health at or past 10 is hit once per frame.
fn collide(mut query: Query<(Entity, &Position, &Health)>, mut hits: EventWriter<Hit>) {
    query.for_each(|(target, position, _)| {
        if position.0 >= 10 {
            hits.send(Hit { target, damage: 3 });
        }
    });
}

fn damage(
    mut hits: EventReader<Hit>,
    mut query: Query<&mut Health>,
    mut score: ResMut<Score>,
    mut commands: Commands,
) {
    let hits = hits.read();
    score.hits_lost += hits.lost();
    for hit in hits {
        score.hits_read += 1;
        if let Some(mut health) = query.get_mut(hit.target) {
            health.0 -= hit.damage;
            if health.0 <= 0 {
                commands.queue_despawn(hit.target);
                score.kills += 1;
            }
        }
    }
}

/// Keeps each moved entity's cell; its local is scratch space, emptied each run, so what it
/// held before a load does not matter.
fn cells(
    mut query: Query<(Entity, &Position, &mut Cell), Changed<Position>>,
    mut moved: Local<Vec<Entity>>,
) {
    moved.clear();
    query.for_each(|(entity, position, mut cell)| {
        cell.0 = position.0.div_euclid(4);
        moved.push(entity);
    });
}

/// Whether each run is the system's first: a loaded world remembers it ran.
fn runs(ticks: SystemTicks, mut log: ResMut<Log>) {
    log.0.push(format!("first={}", ticks.is_first_run()));
}

fn schedule() -> Schedule<World> {
    let mut schedule = Schedule::new();
    schedule.add((movement, collide, damage, cells, runs));
    schedule
}

fn spawn_world() -> World {
    let mut world = World::new();
    for (start, speed, health) in [(0, 2, 9), (6, 1, 7), (9, 0, 4), (-3, 3, 20)] {
        EntityBuilder::new()
            .with_position(Position(start))
            .with_velocity(Velocity(speed))
            .with_health(Health(health))
            .with_zone(Cell(start.div_euclid(4)))
            .spawn_one(&mut world);
    }
    world
}

fn to_json(world: &World) -> String {
    serde_json::to_string(&world.snapshot()).unwrap()
}

/// One frame: the schedule, then the frame's end.
fn frame(schedule: &mut Schedule<World>, world: &mut World) {
    schedule.run(world);
    world.step();
}

#[test]
fn a_loaded_world_runs_on_exactly_like_the_original_in_json_and_postcard() {
    const SAVED_AT: usize = 4;
    const FRAMES: usize = 12;
    let mut world = spawn_world();
    let mut original = schedule();
    let mut saved = None;
    let mut frames = Vec::new();
    for index in 0..FRAMES {
        if index == SAVED_AT {
            saved = Some((
                to_json(&world),
                postcard::to_allocvec(&world.snapshot()).unwrap(),
            ));
        }
        frame(&mut original, &mut world);
        frames.push(to_json(&world));
    }
    let (text, bytes) = saved.expect("saved");
    assert!(
        text.contains(r#""systems":[{"name":"movement","function":"#),
        "{text}"
    );
    assert!(world.resources.score.kills > 0 && world.resources.score.hits_read > 3);
    assert_eq!(world.resources.score.hits_lost, 0);

    let from_json: World = serde_json::from_str(&text).unwrap();
    let from_postcard: World = postcard::from_bytes(&bytes).unwrap();
    for (format, mut loaded) in [("json", from_json), ("postcard", from_postcard)] {
        assert_eq!(
            to_json(&loaded),
            text,
            "{format}: the load saves back the same"
        );
        // A fresh schedule finds each system's memory under its name, with no extra call.
        let mut fresh = schedule();
        for (index, expected) in frames.iter().enumerate().skip(SAVED_AT) {
            frame(&mut fresh, &mut loaded);
            assert_eq!(&to_json(&loaded), expected, "{format}: frame {index}");
        }
        assert_eq!(loaded.resources.score, world.resources.score, "{format}");
        assert!(
            loaded
                .resources
                .log
                .0
                .iter()
                .filter(|line| *line == "first=true")
                .count()
                == 1,
            "{format}: only the very first run was a first run: {:?}",
            loaded.resources.log.0
        );
    }
}

#[test]
fn an_event_reader_s_cursor_is_carried_and_pending_events_count_as_lost() {
    fn tally(mut hits: EventReader<Hit>, mut score: ResMut<Score>) {
        let hits = hits.read();
        score.hits_lost += hits.lost();
        score.hits_read += hits.len() as u32;
    }
    let mut world = World::new();
    let target = world.spawn(HEALTH);
    let mut schedule = Schedule::new();
    schedule.add(tally);
    world.events.hit.send(Hit { target, damage: 1 });
    schedule.run(&mut world);
    // Sent after the reader ran: pending at the save, and not in the snapshot.
    world.events.hit.send(Hit { target, damage: 2 });
    world.events.hit.send(Hit { target, damage: 3 });
    let text = to_json(&world);
    assert!(
        text.contains(r#""kept":[2]"#),
        "the cursor reads #2 next: {text}"
    );

    let mut loaded: World = serde_json::from_str(&text).unwrap();
    assert!(loaded.events.hit.is_empty(), "events are not saved");
    loaded.events.hit.send(Hit { target, damage: 4 });
    Schedule::new().add(tally).run(&mut loaded);
    // The two pending events are reported lost (exactly, by the carried cursor), the one sent
    // after the load is read once; a fresh cursor would have missed the two silently.
    assert_eq!(
        loaded.resources.score,
        Score {
            hits_read: 2,
            hits_lost: 2,
            kills: 0
        }
    );
    schedule.run(&mut world);
    assert_eq!(world.resources.score.hits_read, 3, "the original read them");
}

#[test]
fn a_loaded_world_s_locals_restart_at_their_default() {
    fn count(mut runs: Local<u32>, mut hits: EventReader<Hit>, mut log: ResMut<Log>) {
        *runs += 1;
        log.0
            .push(format!("run {} read {}", *runs, hits.read().len()));
    }
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add(count);
    schedule.run(&mut world);
    schedule.run(&mut world);
    let text = to_json(&world);
    assert!(
        text.contains(r#""last_run":2,"kept":[null,1]"#),
        "a local is saved as null, the cursor as the number it reads next: {text}"
    );

    let mut loaded: World = serde_json::from_str(&text).unwrap();
    let target = loaded.spawn(HEALTH);
    loaded.events.hit.send(Hit { target, damage: 1 });
    Schedule::new().add(count).run(&mut loaded);
    assert_eq!(
        loaded.resources.log.0,
        ["run 1 read 0", "run 2 read 0", "run 1 read 1"],
        "the local starts again at 0 (not saved); the reader goes on"
    );
    // A clone, unlike a snapshot, carries the local.
    let mut copy = world.clone();
    schedule.run(&mut copy);
    assert_eq!(copy.resources.log.0[2], "run 3 read 0");
}

/// A `SavedLocal` is saved (under its system's `locals`) and so goes on after a load, where a
/// plain `Local` restarts; both survive a clone.
#[test]
fn a_saved_local_goes_on_after_a_load_where_a_local_restarts() {
    fn waves(mut countdown: SavedLocal<u32>, mut runs: Local<u32>, mut wave: ResMut<u32>) {
        if *countdown == 0 {
            *countdown = 3;
            *wave += 1;
        }
        *countdown -= 1;
        *runs += 1;
    }
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add(waves);
    for _ in 0..2 {
        frame(&mut schedule, &mut world);
    }
    let text = to_json(&world);
    // The countdown, 1, as postcard encodes a u32 (a varint: one byte below 128).
    assert!(
        text.contains(r#""kept":[null,null],"locals":[[0,[1]]]"#),
        "{text}"
    );
    // A saved local only at a place among the kept values saved as `null`, once each.
    for bad in [r#""locals":[[2,[1]]]"#, r#""locals":[[0,[1]],[0,[1]]]"#] {
        let edited = text.replace(r#""locals":[[0,[1]]]"#, bad);
        let Err(error) = serde_json::from_str::<World>(&edited) else {
            panic!("{bad} loaded");
        };
        let error = error.to_string();
        assert!(
            error.contains("a saved local of the system `waves`"),
            "{error}"
        );
    }
    // Bytes that are not a u32's (a varint cut short, one left over: the parameter changed
    // type) load, and the next run starts the countdown at its default, 0: a wave at once.
    for not_a_u32 in [r#""locals":[[0,[128]]]"#, r#""locals":[[0,[1,0]]]"#] {
        let edited = text.replace(r#""locals":[[0,[1]]]"#, not_a_u32);
        let mut loaded: World = serde_json::from_str(&edited).unwrap();
        let mut fresh = Schedule::new();
        fresh.add(waves);
        frame(&mut fresh, &mut loaded);
        assert_eq!(loaded.resources.wave, 2, "{not_a_u32}");
    }
    let bytes = postcard::to_allocvec(&world.snapshot()).unwrap();
    let from_json: World = serde_json::from_str(&text).unwrap();
    let from_postcard: World = postcard::from_bytes(&bytes).unwrap();
    for (format, mut loaded) in [("json", from_json), ("postcard", from_postcard)] {
        assert_eq!(to_json(&loaded), text, "{format}: saved back as loaded");
        let mut copy = world.clone();
        let mut fresh = Schedule::new();
        fresh.add(waves);
        for index in 3..8 {
            frame(&mut fresh, &mut loaded);
            frame(&mut schedule, &mut copy);
            assert_eq!(to_json(&loaded), to_json(&copy), "{format}: run {index}");
            assert_eq!(loaded.snapshot().checksum(), copy.snapshot().checksum());
            // Waves start at runs 1, 4 and 7: the countdown went on from the save (restarted,
            // it would have started one at run 3).
            assert_eq!(
                loaded.resources.wave,
                1 + u32::from(index >= 4) + u32::from(index >= 7)
            );
        }
    }
}

/// The checksum covers a `SavedLocal` and leaves a `Local` out: two worlds that differ only in
/// one hash apart with the first and alike with the second.
#[test]
fn the_checksum_sees_a_saved_local_and_not_a_local() {
    fn remember_saved(wave: Res<u32>, mut seen: SavedLocal<u32>) {
        *seen = *wave;
    }
    fn remember(wave: Res<u32>, mut seen: Local<u32>) {
        *seen = *wave;
    }
    let checksums = |with_saved: bool| {
        [5, 7].map(|wave| {
            let mut world = World::new();
            world.resources.wave = wave;
            let mut schedule = Schedule::new();
            match with_saved {
                true => schedule.add(remember_saved),
                false => schedule.add(remember),
            };
            schedule.run(&mut world);
            world.resources.wave = 0; // the worlds differ in the local alone
            world.snapshot().checksum()
        })
    };
    let [five, seven] = checksums(true);
    assert_ne!(five, seven, "a saved local is in the checksum");
    let [five, seven] = checksums(false);
    assert_eq!(five, seven, "a plain local is not");
}

#[test]
fn a_changed_query_s_first_run_after_a_load_sees_what_it_would_have_seen() {
    fn watch(query: Query<Entity, Changed<Health>>, mut log: ResMut<Log>, ticks: SystemTicks) {
        log.0.push(format!(
            "first={} changed={}",
            ticks.is_first_run(),
            query.iter().count()
        ));
    }
    let mut world = World::new();
    let entities = world.spawn_entities(HEALTH, 3);
    let mut schedule = Schedule::new();
    schedule.add(watch);
    schedule.run(&mut world);
    schedule.run(&mut world);
    // Written after the system's last run, before the save: its next run sees this row alone.
    world.set_health(entities[1], Health(5));
    let mut loaded: World = serde_json::from_str(&to_json(&world)).unwrap();
    schedule.run(&mut world);
    schedule.run(&mut world);
    let mut fresh = Schedule::new();
    fresh.add(watch);
    fresh.run(&mut loaded);
    fresh.run(&mut loaded);
    assert_eq!(
        world.resources.log.0,
        [
            "first=true changed=3",
            "first=false changed=0",
            "first=false changed=1",
            "first=false changed=0"
        ]
    );
    // Every row's change ticks are saved: the loaded world's system sees the one row written
    // since its last run, not every row.
    assert_eq!(loaded.resources.log.0, world.resources.log.0);
}

/// Every third frame a queued spawn brings an entity that moves at a speed by its wave (some
/// do not move), with health.
fn arrive(mut wave: ResMut<u32>, mut commands: Commands) {
    *wave += 1;
    if *wave % 3 == 1 {
        let speed = (*wave / 3 % 3) as i32;
        commands.queue_spawn(
            EntityBuilder::new()
                .with_position(Position(speed * 2))
                .with_velocity(Velocity(speed))
                .with_health(Health(10))
                .with_zone(Cell(0)),
        );
    }
}

/// Moves what has a speed: a row whose position is not written is not stamped.
fn drift(mut query: Query<(&mut Position, &Velocity)>) {
    query.for_each(|(mut position, velocity)| {
        if velocity.0 != 0 {
            position.0 += velocity.0;
        }
    });
}

/// What a system's filters see: the moved, the hurt and the arrived.
fn watched(
    moved: &Query<Entity, Changed<Position>>,
    hurt: &Query<Entity, Changed<Health>>,
    arrived: &Query<Entity, Added<Velocity>>,
) -> String {
    format!(
        "moved={} hurt={} arrived={}",
        moved.iter().count(),
        hurt.iter().count(),
        arrived.iter().count()
    )
}

/// First in the frame: what the systems after it wrote in the frame before. (It reads no
/// events: events are not saved, and a reader before the writer has not read at the frame's end
/// what the writer sent, so after a load it would count them as lost.)
fn watch_first(
    moved: Query<Entity, Changed<Position>>,
    hurt: Query<Entity, Changed<Health>>,
    arrived: Query<Entity, Added<Velocity>>,
    mut log: ResMut<Log>,
) {
    let seen = watched(&moved, &hurt, &arrived);
    log.0.push(format!("first: {seen}"));
}

/// Last in the frame, after the writer: the hits sent this frame too.
fn watch_last(
    moved: Query<Entity, Changed<Position>>,
    hurt: Query<Entity, Changed<Health>>,
    arrived: Query<Entity, Added<Velocity>>,
    mut hits: EventReader<Hit>,
    mut log: ResMut<Log>,
) {
    let seen = watched(&moved, &hurt, &arrived);
    let hits = hits.read();
    log.0.push(format!(
        "last: {seen} hits={} lost={}",
        hits.len(),
        hits.lost()
    ));
}

fn watched_schedule() -> Schedule<World> {
    let mut schedule = Schedule::new();
    schedule.add((watch_first, arrive, drift, collide, damage, watch_last));
    schedule
}

/// A world run by systems with `Changed`, `Added` and `EventReader` filters, saved at several
/// frames and loaded into a fresh world under a fresh schedule, runs on exactly like the
/// original: after every frame both save the same bytes, in JSON and in postcard, and with them
/// the counts every filter saw (kept in the `log` resource).
#[test]
fn change_filters_after_a_load_see_exactly_what_they_would_have_seen() {
    const FRAMES: usize = 16;
    let mut world = spawn_world();
    let mut original = watched_schedule();
    let mut saves = Vec::new();
    let mut frames = Vec::new();
    for _ in 0..FRAMES {
        saves.push((
            to_json(&world),
            postcard::to_allocvec(&world.snapshot()).unwrap(),
        ));
        frame(&mut original, &mut world);
        frames.push((
            to_json(&world),
            postcard::to_allocvec(&world.snapshot()).unwrap(),
        ));
    }
    let log = &world.resources.log.0;
    assert_eq!(log.len(), 2 * FRAMES);
    // The filters see more and fewer rows from frame to frame: a load seeing every row, or
    // none, once would show.
    for seen in [
        "moved=1",
        "moved=4",
        "hurt=0",
        "hurt=3",
        "arrived=0",
        "arrived=1",
        "hits=0",
        "hits=3",
        "lost=0",
    ] {
        assert!(
            log.iter().any(|line| line.contains(seen)),
            "{seen}: {log:?}"
        );
    }
    assert!(world.resources.score.kills > 0 && world.resources.wave == FRAMES as u32);
    assert!(!log.iter().any(|line| line.contains("lost=1")), "{log:?}");

    for saved_at in [1, 4, 7, 10] {
        let (text, bytes) = &saves[saved_at];
        let from_json: World = serde_json::from_str(text).unwrap();
        let from_postcard: World = postcard::from_bytes(bytes).unwrap();
        for (format, mut loaded) in [("json", from_json), ("postcard", from_postcard)] {
            let mut fresh = watched_schedule();
            for (index, (text, bytes)) in frames.iter().enumerate().skip(saved_at) {
                frame(&mut fresh, &mut loaded);
                let at = format!("{format}, saved before frame {saved_at}: frame {index}");
                assert_eq!(&to_json(&loaded), text, "{at}");
                assert_eq!(
                    &postcard::to_allocvec(&loaded.snapshot()).unwrap(),
                    bytes,
                    "{at}"
                );
            }
            assert_eq!(loaded.resources.log.0, world.resources.log.0, "{format}");
        }
    }
}

/// A saved world with memory, edited as JSON, then loaded.
fn load_edited(edit: impl FnOnce(&mut serde_json::Value)) -> Result<World, String> {
    let mut world = spawn_world();
    frame(&mut schedule(), &mut world);
    let mut value = serde_json::to_value(world.snapshot()).unwrap();
    edit(&mut value);
    serde_json::from_str::<SnapshotData<World>>(&value.to_string())
        .map_err(|error| error.to_string())?
        .into_world()
        .map_err(|error| error.to_string())
}

fn refused(edit: impl FnOnce(&mut serde_json::Value), expected: &str) {
    match load_edited(edit) {
        Ok(_) => panic!("loaded a bad snapshot (expected `{expected}`)"),
        Err(message) => assert!(
            message.contains(expected),
            "`{message}` does not mention `{expected}`"
        ),
    }
}

#[test]
fn a_version_5_snapshot_is_refused() {
    assert!(load_edited(|_| {}).is_ok());
    refused(
        |value| {
            value["version"] = 5.into();
            value.as_object_mut().unwrap().remove("change_ticks");
        },
        "snapshot version 5 is not supported (this build reads version 7)",
    );
}

#[test]
fn hostile_memory_entries_are_refused() {
    refused(
        |value| {
            let systems = value["systems"].as_array_mut().unwrap();
            let twice = systems[2].clone();
            systems.push(twice);
        },
        "the system `damage` is remembered twice",
    );
    refused(
        |value| {
            value.as_object_mut().unwrap().remove("systems");
        },
        "missing field `systems`",
    );
    refused(
        |value| value["systems"][0]["speed"] = 1.into(),
        "unknown field `speed`",
    );
    refused(
        |value| value["systems"][0]["kept"] = serde_json::json!(["north"]),
        "invalid type",
    );
    refused(
        |value| value["systems"][0]["last_run"] = (-1).into(),
        "invalid value",
    );
    // Any tick and any cursor loads: the next run treats them as the saving world would.
    assert!(
        load_edited(|value| {
            value["systems"][2]["last_run"] = u32::MAX.into();
            value["systems"][2]["kept"] = serde_json::json!([u64::MAX, null, 0]);
        })
        .is_ok()
    );
}

/// In postcard, the memory is the snapshot's last field: a system count, a name's length or a
/// kept-value count declared huge is refused without allocating for it (the declared length is
/// only a claim; the bytes run out).
#[test]
fn huge_declared_memory_lengths_are_refused() {
    let mut world = World::new();
    let mut schedule = Schedule::new();
    fn reader(_hits: EventReader<Hit>, _scratch: Local<u8>) {}
    schedule.add(reader);
    schedule.run(&mut world);
    let bytes = postcard::to_allocvec(&world.snapshot()).unwrap();
    // ..., 1 system, "reader" (6 bytes), its function's name, last run Some(1), 2 kept values:
    // the cursor Some(0) (it never read) and the local None; no saved local.
    let function = std::any::type_name_of_val(&reader);
    let mut tail = vec![1, 6];
    tail.extend_from_slice(b"reader");
    tail.push(function.len() as u8);
    tail.extend_from_slice(function.as_bytes());
    tail.extend_from_slice(&[1, 1, 2, 1, 0, 0, 0]);
    assert!(bytes.ends_with(&tail), "{bytes:?}");
    let start = bytes.len() - tail.len();
    let huge = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    for offset in [0, 1, 2 + 6, tail.len() - 5, tail.len() - 1] {
        let mut mutant = bytes.clone();
        mutant.splice(start + offset..start + offset + 1, huge);
        assert!(
            postcard::from_bytes::<World>(&mutant).is_err(),
            "a huge length at byte {offset} of the memory"
        );
    }
    assert!(postcard::from_bytes::<World>(&bytes).is_ok());
}

/// The same through a multi-world game's snapshot: what its systems remember is saved at its end,
/// so a game saved mid-run and loaded runs on under a fresh schedule exactly as the original.
mod game {
    use archetypal::{
        Changed, Entity, EventReader, EventWriter, ResMut, Schedule, SystemTicks, ecs,
    };
    use serde::{Deserialize, Serialize};

    use super::{Health, Log, Position, Velocity};

    #[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
    pub struct Sprite(pub i32);

    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Hit(pub Entity);

    ecs! {
        Game {
            Core {
                position: Position => POSITION,
                velocity: Velocity => VELOCITY,
                health: Health => HEALTH,
            }
            Render {
                sprite: Sprite => SPRITE,
            }
        }
        Events {
            hit: Hit,
        }
        Resources {
            hits_read: u32,
            log: Log,
        }
    }

    fn movement(mut query: CoreQuery<(&mut Position, &Velocity)>) {
        query.for_each(|(mut position, velocity)| position.0 += velocity.0);
    }

    fn collide(query: CoreQuery<(Entity, &Position)>, mut hits: EventWriter<Hit>) {
        for (entity, position) in query.iter() {
            if position.0 >= 10 {
                hits.send(Hit(entity));
            }
        }
    }

    /// Each hit read once: after the load, the cursor reads exactly what it had not.
    fn damage(
        mut hits: EventReader<Hit>,
        mut read: ResMut<u32>,
        mut query: CoreQuery<&mut Health>,
    ) {
        let hits = hits.read();
        assert_eq!(hits.lost(), 0, "saved at a frame's end: nothing unread");
        for hit in hits {
            *read += 1;
            if let Some(mut health) = query.get_mut(hit.0) {
                health.0 -= 1;
            }
        }
    }

    /// Draws what moved since this system last ran, and logs how many.
    fn draw(
        moved: CoreQuery<(Entity, &Position), Changed<Position>>,
        mut sprites: RenderQuery<&mut Sprite>,
        ticks: SystemTicks,
        mut log: ResMut<Log>,
    ) {
        let mut count = 0;
        for (entity, position) in moved.iter() {
            if let Some(mut sprite) = sprites.get_mut(entity) {
                sprite.0 = position.0;
            }
            count += 1;
        }
        log.0
            .push(format!("first={} moved={count}", ticks.is_first_run()));
    }

    fn schedule() -> Schedule<Game> {
        let mut schedule = Schedule::new();
        schedule.add((movement, collide, damage, draw));
        schedule
    }

    fn to_json(game: &Game) -> String {
        serde_json::to_string(&game.snapshot()).unwrap()
    }

    #[test]
    fn a_loaded_game_runs_on_exactly_like_the_original_in_json_and_postcard() {
        const SAVED_AT: usize = 4;
        const FRAMES: usize = 10;
        let mut game = Game::new();
        for (start, speed) in [(0, 2), (6, 1), (9, 0), (-3, 3)] {
            GameEntityBuilder::new()
                .with_position(Position(start))
                .with_velocity(Velocity(speed))
                .with_health(Health(20))
                .with_sprite(Sprite(start))
                .spawn_one(&mut game);
        }
        // Never moved: only a first run counts it (as one after a load would, wrongly).
        GameEntityBuilder::new()
            .with_position(Position(0))
            .spawn_one(&mut game);
        let mut original = schedule();
        let mut saved = None;
        let mut frames = Vec::new();
        for index in 0..FRAMES {
            if index == SAVED_AT {
                saved = Some((
                    to_json(&game),
                    postcard::to_allocvec(&game.snapshot()).unwrap(),
                ));
            }
            original.run(&mut game);
            game.step();
            frames.push(to_json(&game));
        }
        let (text, bytes) = saved.expect("saved");
        assert!(
            text.contains(r#""systems":[{"name":"movement","function":"#),
            "{text}"
        );
        assert!(game.resources.hits_read > 3);

        let from_json: Game = serde_json::from_str(&text).unwrap();
        let from_postcard: Game = postcard::from_bytes(&bytes).unwrap();
        for (format, mut loaded) in [("json", from_json), ("postcard", from_postcard)] {
            assert_eq!(
                to_json(&loaded),
                text,
                "{format}: the load saves back the same"
            );
            let mut fresh = schedule();
            for (index, expected) in frames.iter().enumerate().skip(SAVED_AT) {
                fresh.run(&mut loaded);
                loaded.step();
                assert_eq!(&to_json(&loaded), expected, "{format}: frame {index}");
            }
            assert_eq!(
                loaded.resources.hits_read, game.resources.hits_read,
                "{format}"
            );
            // Only the very first run was a first run: it alone drew the entity that never moved.
            assert_eq!(loaded.resources.log, game.resources.log, "{format}");
            assert_eq!(game.resources.log.0[0], "first=true moved=5");
            assert_eq!(
                game.resources
                    .log
                    .0
                    .iter()
                    .filter(|line| line.starts_with("first=true"))
                    .count(),
                1
            );
        }
    }
}
