//! Several queries in one system: a written one beside read ones, allowed where their filters
//! keep them apart (parents read while their children are written), each writing only its
//! own columns, the storage whole again afterwards.

use archetypal::{Changed, Entity, Has, Res, ResMut, Schedule, SystemContext, With, Without, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Position(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Offset(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub f32);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub i32);
#[derive(Default, Debug, Clone, PartialEq)]
pub struct Log(pub Vec<String>);

ecs! {
    World {
        position: Position => POSITION,
        offset: Offset => OFFSET,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
    }
    Tags {
        turret => TURRET,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
    }
    Resources {
        log: Log,
        speed: f32,
    }
}

/// Turrets follow their ship: the turrets' positions written, the ships' read, in one loop.
fn follow(
    mut turrets: Query<(Entity, &mut Position, &Offset)>,
    ships: Query<&Position, Without<Offset>>,
) {
    turrets.for_each(|(turret, mut position, offset)| {
        let ship = ships.target::<CHILD_OF, _>(turret);
        if let Some(ship_position) = ship.and_then(|ship| ships.get(ship)) {
            position.0 = ship_position.0 + offset.0;
        }
    });
}

/// Two written queries over tables no entity shares, and a third reading what neither writes.
fn disjoint(
    mut ships: Query<&mut Position, Without<Offset>>,
    mut turrets: Query<&mut Position, With<Offset>>,
    healths: Query<&Health>,
    speed: Res<f32>,
    mut log: ResMut<Log>,
) {
    ships.for_each(|mut position| position.0 += *speed);
    let turret_count = turrets.iter_mut().count();
    let total: i32 = healths.iter().map(|health| health.0).sum();
    log.0.push(format!("turrets {turret_count} health {total}"));
}

fn spawn_fleet(world: &mut World) -> (Entity, [Entity; 2]) {
    let ship = EntityBuilder::new()
        .with_position(Position(100.0))
        .with_velocity(Velocity(1.0))
        .with_health(Health(10))
        .spawn_one(world);
    let turrets = [-1.0, 1.0].map(|offset| {
        EntityBuilder::new()
            .with_position(Position(0.0))
            .with_offset(Offset(offset))
            .with_health(Health(3))
            .with_child_of(ship)
            .with_mask(TURRET)
            .spawn_one(world)
    });
    (ship, turrets)
}

#[test]
fn a_child_reads_its_parent_while_children_are_written() {
    let mut world = World::new();
    let (ship, turrets) = spawn_fleet(&mut world);
    world.resources.speed = 5.0;
    let mut schedule = Schedule::new();
    schedule.add((disjoint, follow));
    schedule.run(&mut world);
    assert_eq!(world.get_position(ship), Some(&Position(105.0)));
    assert_eq!(world.get_position(turrets[0]), Some(&Position(104.0)));
    assert_eq!(world.get_position(turrets[1]), Some(&Position(106.0)));
    assert_eq!(world.resources.log.0, ["turrets 2 health 16"]);
    // Every column is back where it was, and the world is whole.
    world.check_invariants().unwrap();
    assert_eq!(world.get_offset(turrets[1]), Some(&Offset(1.0)));
    schedule.run(&mut world);
    assert_eq!(world.get_position(turrets[1]), Some(&Position(111.0)));
    world.check_invariants().unwrap();
}

#[test]
fn lent_queries_stamp_only_what_they_write() {
    fn watch(moved: Query<Entity, Changed<Position>>, mut log: ResMut<Log>) {
        let mut entities: Vec<Entity> = moved.iter().collect();
        entities.sort();
        log.0.push(format!("{entities:?}"));
    }
    fn move_ships_only(
        mut ships: Query<&mut Position, Without<Offset>>,
        turrets: Query<&Position, With<Offset>>,
    ) {
        ships.for_each(|mut position| position.0 += 1.0);
        assert_eq!(turrets.count(), 2);
    }
    let mut world = World::new();
    let (ship, _) = spawn_fleet(&mut world);
    let mut watcher = SystemContext::new();
    watcher.run(&mut world, watch); // a first run: everything
    SystemContext::new().run(&mut world, move_ships_only);
    world.resources.log.0.clear();
    watcher.run(&mut world, watch);
    assert_eq!(world.resources.log.0, [format!("{:?}", [ship])]);
}

#[test]
fn a_query_gets_counts_and_filters_over_lent_columns() {
    fn inspect(
        mut turrets: Query<(Entity, &mut Health), With<TURRET>>,
        ships: Query<(&Position, &Velocity), Without<TURRET>>,
        mut log: ResMut<Log>,
    ) {
        let first = turrets.iter_mut().map(|(entity, _)| entity).next().unwrap();
        if let Some((_, mut health)) = turrets.get_mut(first) {
            health.0 -= 1;
        }
        let ship = turrets.target::<CHILD_OF, _>(first).unwrap();
        let (turret_count, ship_count) = (turrets.count(), ships.count());
        let (position, velocity) = ships.get(ship).unwrap();
        log.0.push(format!(
            "{turret_count} {ship_count} {} {}",
            position.0, velocity.0
        ));
        assert!(
            ships.get(first).is_none(),
            "a turret is not on the ships' side"
        );
        assert!(turrets.get_mut(ship).is_none());
        assert_eq!(turrets.sources::<CHILD_OF, _>(ship).len(), 2);
    }
    let mut world = World::new();
    let (_, turrets) = spawn_fleet(&mut world);
    SystemContext::new().run(&mut world, inspect);
    assert_eq!(world.resources.log.0, ["2 1 100 1"]);
    assert_eq!(world.get_health(turrets[0]), Some(&Health(2)));
    assert_eq!(world.get_health(turrets[1]), Some(&Health(3)));
    world.check_invariants().unwrap();
}

#[test]
fn a_read_only_query_nests_its_loops_and_looks_up_while_it_iterates() {
    /// Every pair of units within 3 of each other, by two loops over one query, and each
    /// turret's ship looked up in the query being iterated.
    fn pairs(
        units: Query<(Entity, &Position)>,
        turrets: Query<Entity, With<Offset>>,
        mut log: ResMut<Log>,
    ) {
        let mut close = 0;
        for (first, a) in units.iter() {
            for (second, b) in units.iter() {
                if first < second && (a.0 - b.0).abs() <= 3.0 {
                    close += 1;
                }
            }
        }
        let ships_seen = turrets
            .iter()
            .filter_map(|turret| turrets.target::<CHILD_OF, _>(turret))
            .filter(|&ship| units.get(ship).is_some())
            .count();
        log.0
            .push(format!("{close} {ships_seen} {}", units.count()));
    }
    let mut world = World::new();
    spawn_fleet(&mut world);
    EntityBuilder::new()
        .with_position(Position(2.0))
        .spawn_one(&mut world);
    SystemContext::new().run(&mut world, pairs);
    // Turrets at 0 and 0, the loner at 2: three pairs within 3; both turrets find their ship.
    assert_eq!(world.resources.log.0, ["3 2 4"]);
}

#[test]
fn a_read_only_query_beside_a_writer_reads_its_lent_change_ticks() {
    /// Reads ships whose velocity changed since its last run, beside a query writing turrets'
    /// health: lent apart, the reader's change ticks among its lent columns.
    #[allow(clippy::type_complexity)] // a system's parameters say all it touches
    fn watch(
        mut turrets: Query<&mut Health, With<Offset>>,
        moved: Query<(Entity, &Position), (Changed<Velocity>, Without<Offset>)>,
        mut log: ResMut<Log>,
    ) {
        turrets.for_each(|mut health| health.0 += 1);
        let seen: Vec<Entity> = moved.iter().map(|(entity, _)| entity).collect();
        let by_get = seen
            .iter()
            .filter(|&&ship| moved.get(ship).is_some())
            .count();
        log.0
            .push(format!("{} {} {}", seen.len(), by_get, moved.count()));
    }
    let mut world = World::new();
    let (ship, turrets) = spawn_fleet(&mut world);
    let mut context = SystemContext::new();
    context.run(&mut world, watch);
    context.run(&mut world, watch);
    world.set_velocity(ship, Velocity(2.0));
    context.run(&mut world, watch);
    assert_eq!(world.resources.log.0, ["1 1 1", "0 0 0", "1 1 1"]);
    assert_eq!(world.get_health(turrets[0]), Some(&Health(6)));
    world.check_invariants().unwrap();
}

#[test]
fn has_gives_a_bool_per_row_and_filters_nothing() {
    /// Every entity with health, and whether it moves: the turrets are there too, with `false`.
    fn movers(query: Query<(Entity, Has<Velocity>), With<Health>>, mut log: ResMut<Log>) {
        let mut rows: Vec<(Entity, bool)> = query.iter().collect();
        rows.sort();
        log.0.push(format!("{rows:?}"));
        let ship = rows.iter().find(|(_, moves)| *moves).map(|(ship, _)| *ship);
        log.0
            .push(format!("{:?}", ship.and_then(|ship| query.get(ship))));
    }
    let mut world = World::new();
    let (ship, turrets) = spawn_fleet(&mut world);
    SystemContext::new().run(&mut world, movers);
    let mut expected = vec![(ship, true), (turrets[0], false), (turrets[1], false)];
    expected.sort();
    assert_eq!(
        world.resources.log.0,
        [format!("{expected:?}"), format!("{:?}", Some((ship, true)))]
    );
    // The same term in a world's typed query, through `for_each` and an iterator.
    let mut seen = Vec::new();
    world
        .typed_query::<(Entity, Has<Velocity>, &Health)>()
        .for_each(|(entity, moves, _)| seen.push((entity, moves)));
    seen.sort();
    assert_eq!(seen, expected);
    let count = world
        .typed_query::<Has<Offset>>()
        .iter()
        .filter(|&has| has)
        .count();
    assert_eq!(count, 2);
}

/// `Has<Velocity>` reads no column: a query may write `Velocity` beside it in one system, and a
/// system writing `Velocity` runs in one batch with a system asking `Has<Velocity>`.
#[test]
fn has_takes_no_access_to_its_component() {
    fn accelerate(mut velocities: Query<&mut Velocity>, moving: Query<(Entity, Has<Velocity>)>) {
        velocities.for_each(|mut velocity| velocity.0 *= 2.0);
        assert_eq!(moving.iter().filter(|(_, moves)| *moves).count(), 1);
    }
    fn count_movers(query: Query<Has<Velocity>>, mut log: ResMut<Log>) {
        log.0
            .push(format!("{}", query.iter().filter(|&moves| moves).count()));
    }
    let mut world = World::new();
    let (ship, _) = spawn_fleet(&mut world);
    let mut schedule = Schedule::new();
    schedule.add(archetypal::together((accelerate, count_movers)));
    schedule.set_parallel(true);
    assert_eq!(schedule.batches(), [["accelerate", "count_movers"]]);
    schedule.run(&mut world);
    assert_eq!(world.get_velocity(ship), Some(&Velocity(2.0)));
    assert_eq!(world.resources.log.0, ["1"]);
}

/// `Changed<(A, B)>` is one change filter: the entities holding both, either written since the
/// system last ran.
#[test]
fn changed_of_a_tuple_is_any_of_them() {
    fn watch(query: Query<Entity, Changed<(Velocity, Health)>>, mut log: ResMut<Log>) {
        log.0.push(format!("{}", query.iter().count()));
    }
    fn added(query: Query<Entity, archetypal::Added<(Offset, Velocity)>>, mut log: ResMut<Log>) {
        log.0.push(format!("added {}", query.iter().count()));
    }
    let mut world = World::new();
    let (ship, turrets) = spawn_fleet(&mut world);
    let mut context = SystemContext::new();
    let mut added_context = SystemContext::new();
    context.run(&mut world, watch); // a first run: the ship (the turrets have no velocity)
    added_context.run(&mut world, added);
    context.run(&mut world, watch);
    world.set_health(ship, Health(4)); // one of the two
    context.run(&mut world, watch);
    world.set_velocity(ship, Velocity(3.0)); // the other
    context.run(&mut world, watch);
    world.set_health(turrets[0], Health(1)); // no velocity: not matched
    context.run(&mut world, watch);
    world.set_velocity(turrets[1], Velocity(1.0)); // added: both now, both new
    added_context.run(&mut world, added);
    assert_eq!(
        world.resources.log.0,
        ["1", "added 0", "0", "1", "1", "0", "added 1"]
    );
}
