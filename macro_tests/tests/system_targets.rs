//! `Target` terms: a query reads what its rows' relation targets hold (a turret's ship's
//! position) in the same loop that writes the rows, with no handle juggling; a target that
//! is missing, lacks the data or fails the term's filter gives `None`.

// A system's parameter types say all it touches, so they are long (bevy's users allow this
// lint for the same reason).
#![allow(clippy::type_complexity)]

use archetypal::{Changed, Entity, ResMut, Schedule, SystemContext, Target, With, Without, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Offset(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Team(pub u8);
#[derive(Default, Debug, Clone, PartialEq)]
pub struct Log(pub Vec<String>);

ecs! {
    World {
        position: Position => POSITION,
        offset: Offset => OFFSET,
        velocity: Velocity => VELOCITY,
        team: Team => TEAM,
    }
    Tags {
        docked => DOCKED,
    }
    Relations {
        child_of / children => CHILD_OF,
        owned_by / owns => OWNED_BY,
    }
    Resources {
        log: Log,
    }
}

/// Every turret takes its ship's position plus its offset: the turrets' positions written,
/// their ships' read through the term, kept apart by `Without<Offset>`.
fn mount(
    mut turrets: Query<(
        &mut Position,
        &Offset,
        Target<CHILD_OF, &Position, Without<Offset>>,
    )>,
) {
    turrets.for_each(|(mut position, offset, ship)| {
        if let Some(ship) = ship {
            position.0 = ship.0 + offset.0;
        }
    });
}

/// Ships move.
fn fly(mut ships: Query<(&mut Position, &Velocity)>) {
    ships.for_each(|(mut position, velocity)| position.0 += velocity.0);
}

fn ship(world: &mut World, at: f32) -> Entity {
    EntityBuilder::new()
        .with_position(Position(at))
        .with_velocity(Velocity(1.0))
        .with_team(Team(7))
        .spawn_one(world)
}

fn turret(world: &mut World, ship: Option<Entity>, offset: f32) -> Entity {
    let turret = EntityBuilder::new()
        .with_position(Position(0.0))
        .with_offset(Offset(offset))
        .spawn_one(world);
    if let Some(ship) = ship {
        world.set_child_of(turret, ship).unwrap();
    }
    turret
}

#[test]
fn a_turret_reads_its_ships_position_in_the_loop_that_writes_its_own() {
    let mut world = World::new();
    let first = ship(&mut world, 100.0);
    let second = ship(&mut world, -50.0);
    let turrets = [
        turret(&mut world, Some(first), 1.0),
        turret(&mut world, Some(first), -1.0),
        turret(&mut world, Some(second), 2.0),
    ];
    let loose = turret(&mut world, None, 3.0);
    SystemContext::new().run(&mut world, mount);
    assert_eq!(world.get_position(turrets[0]), Some(&Position(101.0)));
    assert_eq!(world.get_position(turrets[1]), Some(&Position(99.0)));
    assert_eq!(world.get_position(turrets[2]), Some(&Position(-48.0)));
    assert_eq!(
        world.get_position(loose),
        Some(&Position(0.0)),
        "no target: None"
    );
    world.check_invariants().unwrap();
}

#[test]
fn a_target_outside_the_terms_filter_or_without_the_data_gives_none() {
    fn report(
        turrets: Query<(
            Entity,
            Target<CHILD_OF>,
            Target<CHILD_OF, &Team, With<DOCKED>>,
            Target<CHILD_OF, Option<&Velocity>>,
        )>,
        mut log: ResMut<Log>,
    ) {
        let mut lines: Vec<String> = turrets
            .iter()
            .map(|(entity, ship, team, velocity)| {
                format!(
                    "{} {:?} {:?} {:?}",
                    entity.id,
                    ship.map(|ship| ship.id),
                    team,
                    velocity
                )
            })
            .collect();
        lines.sort();
        log.0.extend(lines);
    }
    let mut world = World::new();
    let docked = ship(&mut world, 0.0);
    world.add_docked(docked);
    let flying = ship(&mut world, 0.0);
    let bare = world.spawn(POSITION);
    let on_docked = turret(&mut world, Some(docked), 0.0);
    let on_flying = turret(&mut world, Some(flying), 0.0);
    let on_bare = turret(&mut world, Some(bare), 0.0);
    let loose = turret(&mut world, None, 0.0);
    SystemContext::new().run(&mut world, report);
    let mut expected = vec![
        format!(
            "{} Some({}) Some(Team(7)) Some(Some(Velocity(1.0)))",
            on_docked.id, docked.id
        ),
        format!(
            "{} Some({}) None Some(Some(Velocity(1.0)))",
            on_flying.id, flying.id
        ),
        format!("{} Some({}) None Some(None)", on_bare.id, bare.id),
        format!("{} None None None", loose.id),
    ];
    // Every entity but the turrets lacks nothing the query requires: the ships and `bare`
    // answer too, with no target.
    for entity in [docked, flying, bare] {
        expected.push(format!("{} None None None", entity.id));
    }
    expected.sort();
    assert_eq!(world.resources.log.0, expected);
}

#[test]
fn a_target_of_a_target_reads_the_grandparent() {
    fn grandparents(
        rows: Query<(Entity, Target<CHILD_OF, Target<CHILD_OF, &Team>>), With<Offset>>,
        mut log: ResMut<Log>,
    ) {
        for (entity, team) in rows.iter() {
            log.0.push(format!("{} {:?}", entity.id, team));
        }
    }
    let mut world = World::new();
    let carrier = ship(&mut world, 0.0);
    let fighter = turret(&mut world, Some(carrier), 0.0);
    let gun = turret(&mut world, Some(fighter), 0.0);
    SystemContext::new().run(&mut world, grandparents);
    let mut lines = world.resources.log.0.clone();
    lines.sort();
    let mut expected = vec![
        format!("{} Some(None)", fighter.id),
        format!("{} Some(Some(Team(7)))", gun.id),
    ];
    expected.sort();
    assert_eq!(lines, expected);
}

#[test]
fn a_term_beside_other_queries_and_a_change_filter() {
    /// Turrets whose offset changed are re-mounted; the ships' velocities are written by a
    /// second query the term's reads do not meet (it reads positions).
    fn remount(
        mut turrets: Query<
            (
                &mut Position,
                &Offset,
                Target<CHILD_OF, &Position, Without<Offset>>,
            ),
            Changed<Offset>,
        >,
        mut ships: Query<&mut Velocity, Without<Offset>>,
    ) {
        turrets.for_each(|(mut position, offset, ship)| {
            if let Some(ship) = ship {
                position.0 = ship.0 + offset.0;
            }
        });
        ships.for_each(|mut velocity| velocity.0 *= 2.0);
    }
    let mut world = World::new();
    let carrier = ship(&mut world, 10.0);
    let turrets = [
        turret(&mut world, Some(carrier), 1.0),
        turret(&mut world, Some(carrier), 2.0),
    ];
    let mut context = SystemContext::new();
    context.run(&mut world, remount);
    assert_eq!(world.get_position(turrets[0]), Some(&Position(11.0)));
    world.set_position(carrier, Position(20.0));
    world.set_offset(turrets[1], Offset(5.0));
    context.run(&mut world, remount);
    assert_eq!(
        world.get_position(turrets[0]),
        Some(&Position(11.0)),
        "offset unchanged: not re-mounted"
    );
    assert_eq!(world.get_position(turrets[1]), Some(&Position(25.0)));
    assert_eq!(world.get_velocity(carrier), Some(&Velocity(4.0)));
    world.check_invariants().unwrap();
}

#[test]
fn a_schedule_orders_a_term_after_the_writer_of_what_it_reads() {
    let mut world = World::new();
    let carrier = ship(&mut world, 0.0);
    let gun = turret(&mut world, Some(carrier), 0.5);
    let mut schedule = Schedule::new();
    schedule.set_parallel(true);
    schedule.add((fly, mount));
    assert_eq!(
        schedule.batches().len(),
        2,
        "the term reads the positions `fly` writes: not side by side"
    );
    schedule.run(&mut world);
    assert_eq!(world.get_position(gun), Some(&Position(1.5)));
    schedule.run(&mut world);
    assert_eq!(world.get_position(gun), Some(&Position(2.5)));
}

#[test]
fn typed_query_ref_takes_a_term_too() {
    let mut world = World::new();
    let carrier = ship(&mut world, 3.0);
    let gun = turret(&mut world, Some(carrier), 0.0);
    let ships: Vec<(Entity, Option<&Position>)> = world
        .typed_query_ref::<(Entity, Target<CHILD_OF, &Position>)>()
        .with(OFFSET)
        .iter()
        .collect();
    assert_eq!(ships, [(gun, Some(&Position(3.0)))]);
    assert_eq!(
        world.typed_query_ref::<Target<CHILD_OF, &Team>>().get(gun),
        Some(Some(&Team(7)))
    );
}

#[test]
#[should_panic(expected = "use it in a system's `Query` or in `typed_query_ref`")]
fn typed_query_refuses_a_term_with_a_message() {
    let mut world = World::new();
    let carrier = ship(&mut world, 3.0);
    turret(&mut world, Some(carrier), 0.0);
    world
        .typed_query::<(&mut Offset, Target<CHILD_OF, &Position>)>()
        .for_each(|_| {});
}

/// Siblings side by side share one lookup of their target: the rows of a span read the same
/// item, in link order or not, with unlinked rows, relinked and despawned siblings, a target
/// that fails the filter, and a change filter that visits only some rows of a span; the loop
/// and the iterator agree with a lookup per row.
#[test]
fn siblings_side_by_side_read_their_own_targets_whatever_the_order() {
    fn mount_changed(
        mut turrets: Query<
            (
                &mut Position,
                &Offset,
                Target<CHILD_OF, &Position, Without<Offset>>,
            ),
            Changed<Offset>,
        >,
    ) {
        turrets.for_each(|(mut position, offset, ship)| {
            position.0 = ship.map_or(-1.0, |ship| ship.0 + offset.0);
        });
    }
    fn expected(world: &World, turret: Entity) -> f32 {
        match world.get_child_of(turret) {
            Some(ship) if world.get_offset(ship).is_none() => {
                world.get_position(ship).unwrap().0 + world.get_offset(turret).unwrap().0
            }
            _ => -1.0,
        }
    }
    let mut world = World::new();
    let ships: Vec<Entity> = (0..4)
        .map(|index| ship(&mut world, 100.0 * index as f32))
        .collect();
    // A ship that is itself a turret: its own turrets' term filter (`Without<Offset>`) fails.
    let mounted_ship = turret(&mut world, Some(ships[0]), 0.5);
    let mut turrets = Vec::new();
    for (index, &ship) in ships.iter().enumerate() {
        for offset in 0..12 {
            turrets.push(turret(&mut world, Some(ship), offset as f32));
        }
        // An unlinked turret between two ships' spans.
        turrets.push(turret(&mut world, (index % 2 == 0).then_some(ship), -5.0));
    }
    turrets.push(turret(&mut world, Some(mounted_ship), 1.0));
    // Out of link order: relink some turrets elsewhere and back (their list positions move),
    // and despawn a few (the last row fills each hole).
    world.set_child_of(turrets[3], ships[2]).unwrap();
    world.set_child_of(turrets[3], ships[0]).unwrap();
    world.set_child_of(turrets[20], ships[3]).unwrap();
    world.remove_child_of(turrets[30]);
    for gone in [turrets[5], turrets[27]] {
        world.despawn(gone);
    }
    turrets.retain(|&turret| world.is_alive(turret));
    let mut context = SystemContext::new();
    context.run(&mut world, mount);
    context.run(&mut world, mount_changed);
    for &turret in &turrets {
        assert_eq!(
            world.get_position(turret).unwrap().0,
            expected(&world, turret),
            "turret {turret:?}"
        );
    }
    // A change filter that visits every other row: each visited row still reads its own
    // target, wherever its span starts.
    for ship in &ships {
        let at = world.get_position(*ship).unwrap().0;
        world.set_position(*ship, Position(at + 7.0));
    }
    for &turret in turrets.iter().step_by(2) {
        let offset = world.get_offset(turret).unwrap().0;
        world.set_offset(turret, Offset(offset + 1.0));
    }
    let before: Vec<f32> = turrets
        .iter()
        .map(|&turret| world.get_position(turret).unwrap().0)
        .collect();
    context.run(&mut world, mount_changed);
    for (index, &turret) in turrets.iter().enumerate() {
        let position = world.get_position(turret).unwrap().0;
        if index % 2 == 0 {
            assert_eq!(position, expected(&world, turret), "turret {turret:?}");
        } else {
            assert_eq!(position, before[index], "unchanged offset: not visited");
        }
    }
    // The iterator hands out the same items as the loop.
    let read: Vec<(Entity, Option<f32>)> = world
        .typed_query_ref::<(Entity, Target<CHILD_OF, &Position, Without<Offset>>)>()
        .with(OFFSET)
        .iter()
        .map(|(turret, ship)| (turret, ship.map(|ship| ship.0)))
        .collect();
    assert_eq!(
        read.len(),
        turrets.len() + 1,
        "the turrets and the mounted ship"
    );
    for (turret, ship) in read {
        let looked_up = world
            .get_child_of(turret)
            .filter(|&ship| world.get_offset(ship).is_none())
            .map(|ship| world.get_position(ship).unwrap().0);
        assert_eq!(ship, looked_up, "turret {turret:?}");
    }
    world.check_invariants().unwrap();
}

/// A pass over rows and links that did not move reads the spans the storage kept from the
/// last one (runs of 32 rows and more): every change between two passes (a relink, an unlink,
/// a despawn of a ship or a turret, a spawn, a tag that moves rows, a disabled ship, a restore,
/// a copy overwritten in place) must show in the next pass, in each of two copies of a world
/// that go their own ways.
#[test]
fn spans_kept_between_passes_follow_every_change() {
    fn expected(world: &World, turret: Entity) -> Option<f32> {
        let ship = world.get_child_of(turret)?;
        if world.get_offset(ship).is_some() || world.is_disabled(ship) {
            return None;
        }
        Some(world.get_position(ship)?.0 + world.get_offset(turret)?.0)
    }
    /// Runs `mount_or_mark` twice (the second pass reads kept spans) and compares each turret
    /// with its ship looked up by hand (-1: no ship).
    fn check(world: &mut World, turrets: &[Entity], after: &str) {
        for _ in 0..2 {
            SystemContext::new().run(world, mount_or_mark);
            for &turret in turrets {
                assert_eq!(
                    world.get_position(turret).unwrap().0,
                    expected(world, turret).unwrap_or(-1.0),
                    "turret {turret:?} after {after}"
                );
            }
        }
        world.check_invariants().unwrap();
    }
    let mut world = World::new();
    let ships: Vec<Entity> = (0..6)
        .map(|index| ship(&mut world, 1000.0 * index as f32))
        .collect();
    let mut turrets = Vec::new();
    for &ship in &ships {
        for offset in 0..10 {
            turrets.push(turret(&mut world, Some(ship), offset as f32));
        }
    }
    check(&mut world, &turrets, "spawning");
    let earlier = world.clone();

    world.set_child_of(turrets[4], ships[5]).unwrap();
    check(&mut world, &turrets, "a relink");
    world.remove_child_of(turrets[15]);
    check(&mut world, &turrets, "an unlink");
    world.despawn(turrets[0]);
    turrets.remove(0);
    check(
        &mut world,
        &turrets,
        "a turret despawned (the last row moved into its place)",
    );
    world.despawn(ships[1]);
    check(
        &mut world,
        &turrets,
        "a ship despawned (its turrets unlinked)",
    );
    turrets.retain(|&turret| world.is_alive(turret));
    let late_ship = ship(&mut world, -300.0);
    for offset in 0..3 {
        turrets.push(turret(&mut world, Some(late_ship), offset as f32));
    }
    check(&mut world, &turrets, "a ship and turrets spawned");
    world.add_docked(turrets[7]);
    world.add_docked(turrets[30]);
    check(&mut world, &turrets, "tags moving rows inside the table");
    world.disable(ships[2]);
    check(&mut world, &turrets, "a disabled ship");
    world.set_offset(ships[3], Offset(0.0));
    check(
        &mut world,
        &turrets,
        "a ship that became a turret (out of the term's filter)",
    );

    // Two copies that go their own ways, checked one after the other.
    let mut copy = world.clone();
    world.set_child_of(turrets[10], ships[4]).unwrap();
    copy.set_child_of(turrets[10], ships[5]).unwrap();
    for _ in 0..2 {
        check(&mut world, &turrets, "a relink in the original");
        check(&mut copy, &turrets, "another relink in the copy");
    }
    assert_ne!(
        world.get_child_of(turrets[10]),
        copy.get_child_of(turrets[10])
    );
    copy.clone_from(&world);
    check(&mut copy, &turrets, "a copy overwritten in place");

    // Back to the world before every change.
    world.restore(&earlier);
    let first_turrets: Vec<Entity> = earlier
        .typed_query_ref::<Entity>()
        .with(OFFSET)
        .iter()
        .collect();
    assert_eq!(first_turrets.len(), 60);
    check(&mut world, &first_turrets, "a restore");
}

/// A change between two passes over turrets and their ships.
#[derive(Clone, Debug)]
enum Change {
    Relink(usize, usize),
    Unlink(usize),
    DespawnTurret(usize),
    DespawnShip(usize),
    SpawnTurrets(usize, usize),
    SpawnShip,
    Dock(usize, bool),
    Disable(usize, bool),
    ShipBecomesTurret(usize),
    Restore,
    Nothing,
}

fn change() -> impl proptest::strategy::Strategy<Value = Change> {
    use proptest::prelude::*;
    let index = 0usize..1000;
    prop_oneof![
        (index.clone(), index.clone()).prop_map(|(a, b)| Change::Relink(a, b)),
        index.clone().prop_map(Change::Unlink),
        index.clone().prop_map(Change::DespawnTurret),
        index.clone().prop_map(Change::DespawnShip),
        (index.clone(), 1usize..20).prop_map(|(ship, count)| Change::SpawnTurrets(ship, count)),
        Just(Change::SpawnShip),
        (index.clone(), any::<bool>()).prop_map(|(turret, on)| Change::Dock(turret, on)),
        (index.clone(), any::<bool>()).prop_map(|(ship, on)| Change::Disable(ship, on)),
        index.prop_map(Change::ShipBecomesTurret),
        Just(Change::Restore),
        Just(Change::Nothing),
    ]
}

/// Random changes between passes of a system with a `Target` term over runs long enough for
/// the storage to keep their spans: after each, every turret's answer is its ship's, looked up
/// by hand, in the loop (twice: the second pass reads kept spans) and through the iterator.
#[test]
fn kept_spans_answer_like_a_lookup_after_random_changes() {
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config {
        cases: 64,
        ..Config::default()
    });
    let result = runner.run(&proptest::collection::vec(change(), 1..40), |changes| {
        let mut world = World::new();
        let mut ships: Vec<Entity> = (0..5).map(|index| ship(&mut world, index as f32)).collect();
        for (index, &one) in ships.iter().enumerate() {
            for offset in 0..(8 + 3 * index) {
                turret(&mut world, Some(one), offset as f32);
            }
        }
        let earlier = world.clone();
        let pick = |list: &[Entity], index: usize| list.get(index % list.len().max(1)).copied();
        for change in changes {
            let turrets: Vec<Entity> = world
                .typed_query_ref::<Entity>()
                .with(OFFSET)
                .allow_disabled()
                .iter()
                .collect();
            ships.retain(|&one| world.is_alive(one) && world.get_offset(one).is_none());
            match change {
                Change::Relink(turret, ship) => {
                    if let (Some(turret), Some(ship)) = (pick(&turrets, turret), pick(&ships, ship))
                    {
                        world.set_child_of(turret, ship).unwrap();
                    }
                }
                Change::Unlink(turret) => {
                    if let Some(turret) = pick(&turrets, turret) {
                        world.remove_child_of(turret);
                    }
                }
                Change::DespawnTurret(turret) => {
                    if let Some(turret) = pick(&turrets, turret) {
                        world.despawn(turret);
                    }
                }
                Change::DespawnShip(ship) => {
                    if let Some(ship) = pick(&ships, ship) {
                        world.despawn(ship);
                    }
                }
                Change::SpawnTurrets(ship, count) => {
                    let ship = pick(&ships, ship);
                    for offset in 0..count {
                        turret(&mut world, ship, offset as f32);
                    }
                }
                Change::SpawnShip => ships.push(ship(&mut world, -7.0)),
                Change::Dock(turret, on) => {
                    if let Some(turret) = pick(&turrets, turret) {
                        if on {
                            world.add_docked(turret);
                        } else {
                            world.remove_docked(turret);
                        }
                    }
                }
                Change::Disable(ship, on) => {
                    if let Some(ship) = pick(&ships, ship) {
                        if on {
                            world.disable(ship);
                        } else {
                            world.enable(ship);
                        }
                    }
                }
                Change::ShipBecomesTurret(ship) => {
                    if let Some(ship) = pick(&ships, ship) {
                        world.set_offset(ship, Offset(0.5));
                    }
                }
                Change::Restore => world.restore(&earlier),
                Change::Nothing => {}
            }
            for pass in 0..2 {
                SystemContext::new().run(&mut world, mount_or_mark);
                let read: Vec<(Entity, Option<f32>)> = world
                    .typed_query_ref::<(Entity, Target<CHILD_OF, &Position, Without<Offset>>)>()
                    .with(OFFSET)
                    .iter()
                    .map(|(turret, ship)| (turret, ship.map(|ship| ship.0)))
                    .collect();
                for (turret, ship) in read {
                    let expected = world
                        .get_child_of(turret)
                        .filter(|&ship| {
                            world.get_offset(ship).is_none() && !world.is_disabled(ship)
                        })
                        .map(|ship| world.get_position(ship).unwrap().0);
                    proptest::prop_assert_eq!(ship, expected, "iter, {} pass {}", turret, pass);
                    let offset = world.get_offset(turret).unwrap().0;
                    let position = world.get_position(turret).unwrap().0;
                    proptest::prop_assert_eq!(
                        position,
                        expected.map_or(-1.0, |ship| ship + offset),
                        "for_each, {} pass {}",
                        turret,
                        pass
                    );
                }
            }
            world.check_invariants().unwrap();
        }
        Ok(())
    });
    if let Err(error) = result {
        panic!("{error}");
    }
}

/// Every turret takes its ship's position plus its offset, or -1 without a ship.
fn mount_or_mark(
    mut turrets: Query<(
        &mut Position,
        &Offset,
        Target<CHILD_OF, &Position, Without<Offset>>,
    )>,
) {
    turrets.for_each(|(mut position, offset, ship)| {
        position.0 = ship.map_or(-1.0, |ship| ship.0 + offset.0);
    });
}
