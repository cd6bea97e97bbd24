//! The world's rules declared in `ecs!`'s `Rules` block, from the user's side: every path that
//! adds or removes components (spawns with a mask, in batch, with values, builders, `set_*`,
//! `add_*`, `add_components`, `remove_*`, `remove_components`, their queued forms, a snapshot's
//! load) leaves every entity holding what its components require, transitively, and one
//! member of each exclusive group at most, checked by `check_invariants` after each; a
//! switch within a group is one migration whose hooks and change detection see exactly what
//! happened.

use archetypal::{Entity, Tick};

#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Position(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Velocity(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Acceleration(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Idle(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Moving(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Attacking(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Team(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Turret(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Health(pub i32);

/// What a hook saw: the component added (with its value then), or removed (with the value
/// that went).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Fired {
    Added(Hooked, Entity, Option<i32>),
    Removed(Hooked, Entity, Option<i32>),
}

/// The components the hooks watch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Hooked {
    Idle,
    Moving,
    Velocity,
}

archetypal::ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        acceleration: Acceleration => ACCELERATION,
        idle: Idle => IDLE,
        moving: Moving => MOVING,
        attacking: Attacking => ATTACKING,
        team: Team => TEAM,
        turret: Turret => TURRET,
        health: Health => HEALTH,
    }
    Tags {
        player => PLAYER,
    }
    Resources {
        log: Vec<Fired>,
    }
    Hooks {
        on_add(IDLE) => idle_added,
        on_remove(IDLE) => idle_removed,
        on_add(MOVING) => moving_added,
        on_remove(MOVING) => moving_removed,
        on_remove(VELOCITY) => velocity_removed,
    }
    Rules {
        VELOCITY requires POSITION,
        ACCELERATION requires VELOCITY,
        TURRET requires TEAM [refuse],
        exclusive(IDLE, MOVING, ATTACKING),
    }
}

fn idle_added(world: &mut WorldParts<'_>, entity: Entity) {
    assert_eq!(world.components.check_invariants(), Ok(()));
    let value = world.components.get_idle(entity).map(|idle| idle.0);
    world
        .resources
        .log
        .push(Fired::Added(Hooked::Idle, entity, value));
}

fn idle_removed(world: &mut WorldParts<'_>, entity: Entity, removed: &WorldRemoved) {
    let value = removed.idle.map(|idle| idle.0);
    world
        .resources
        .log
        .push(Fired::Removed(Hooked::Idle, entity, value));
}

fn moving_added(world: &mut WorldParts<'_>, entity: Entity) {
    assert_eq!(world.components.check_invariants(), Ok(()));
    let value = world.components.get_moving(entity).map(|moving| moving.0);
    world
        .resources
        .log
        .push(Fired::Added(Hooked::Moving, entity, value));
}

fn moving_removed(world: &mut WorldParts<'_>, entity: Entity, removed: &WorldRemoved) {
    let value = removed.moving.map(|moving| moving.0);
    world
        .resources
        .log
        .push(Fired::Removed(Hooked::Moving, entity, value));
}

fn velocity_removed(world: &mut WorldParts<'_>, entity: Entity, removed: &WorldRemoved) {
    let value = removed.velocity.map(|velocity| velocity.0);
    world
        .resources
        .log
        .push(Fired::Removed(Hooked::Velocity, entity, value));
}

/// The same world without rules: it makes the snapshots a world with rules refuses.
mod free {
    use super::*;
    archetypal::ecs! {
        FreeWorld {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
            acceleration: Acceleration => ACCELERATION,
            idle: Idle => IDLE,
            moving: Moving => MOVING,
            attacking: Attacking => ATTACKING,
            team: Team => TEAM,
            turret: Turret => TURRET,
            health: Health => HEALTH,
        }
        Tags {
            player => PLAYER,
        }
        Resources {
            log: Vec<u8>,
        }
    }
}

/// The rules hold for every entity (`check_invariants` checks them) and `entity` has exactly
/// `mask`.
#[track_caller]
fn holds(world: &World, entity: Entity, mask: WorldMask) {
    assert_eq!(world.check_invariants(), Ok(()));
    assert_eq!(world.component_mask(entity), Some(mask));
}

/// Runs the hooks and takes what they saw.
fn sync(world: &mut World) -> Vec<Fired> {
    world.apply_commands();
    std::mem::take(&mut world.resources.log)
}

const MOTION: WorldMask = POSITION | VELOCITY | ACCELERATION;

#[test]
fn spawning_with_a_mask_adds_what_it_requires_transitively() {
    let mut world = World::new();
    let one = world.spawn(ACCELERATION);
    holds(&world, one, MOTION);
    assert_eq!(world.get_position(one), Some(&Position(0)));
    let many = world.spawn_entities(ACCELERATION | PLAYER, 3);
    for &entity in &many {
        holds(&world, entity, MOTION | PLAYER);
    }
    let batch = world.spawn_batch(VELOCITY, 2, |table, row| table.velocity[row] = Velocity(7));
    holds(&world, batch[1], POSITION | VELOCITY);
    assert_eq!(world.get_velocity(batch[1]), Some(&Velocity(7)));
    // A mask without requirements is what it was.
    let plain = world.spawn(HEALTH);
    holds(&world, plain, HEALTH);
}

#[test]
fn a_spawn_keeps_one_member_of_a_group_the_first_declared() {
    let mut world = World::new();
    let entity = world.spawn(MOVING | IDLE | ATTACKING);
    holds(&world, entity, IDLE);
    let batch = world.spawn_batch(ATTACKING | MOVING, 2, |table, row| {
        table.moving[row] = Moving(3)
    });
    holds(&world, batch[0], MOVING);
    assert_eq!(world.get_moving(batch[0]), Some(&Moving(3)));
}

#[test]
fn builders_keep_the_values_given_and_default_the_rest() {
    let mut world = World::new();
    let one = EntityBuilder::new()
        .with_acceleration(Acceleration(3))
        .with_position(Position(9))
        .spawn_one(&mut world);
    holds(&world, one, MOTION);
    assert_eq!(world.get_position(one), Some(&Position(9)));
    assert_eq!(world.get_velocity(one), Some(&Velocity(0)));
    assert_eq!(world.get_acceleration(one), Some(&Acceleration(3)));
    let many = EntityBuilder::new()
        .with_turret(Turret(1))
        .with_moving(Moving(2))
        .with_attacking(Attacking(5))
        .spawn(&mut world, 2);
    for &entity in &many {
        holds(&world, entity, TURRET | TEAM | MOVING);
        assert_eq!(world.get_moving(entity), Some(&Moving(2)));
    }
}

#[test]
fn spawn_values_default_the_required_columns() {
    let mut world = World::new();
    let entities = world.spawn_values((0..3).map(|i| (Velocity(i), Health(i))));
    for (i, &entity) in entities.iter().enumerate() {
        holds(&world, entity, POSITION | VELOCITY | HEALTH);
        assert_eq!(world.get_velocity(entity), Some(&Velocity(i as i32)));
        assert_eq!(world.get_position(entity), Some(&Position(0)));
    }
    // The table of the tuple's mask with its requirements is the one the builder fills.
    let built = EntityBuilder::new()
        .with_velocity(Velocity(5))
        .with_health(Health(1))
        .spawn_one(&mut world);
    holds(&world, built, POSITION | VELOCITY | HEALTH);
}

#[test]
#[should_panic(expected = "two members of one exclusive group")]
fn spawn_values_refuse_a_tuple_of_two_members_of_a_group() {
    let mut world = World::new();
    world.spawn_values([(Idle(1), Moving(2))]);
}

#[test]
fn adding_brings_requirements_in_one_migration() {
    let mut world = World::new();
    let entity = world.spawn(HEALTH);
    assert!(world.add_components(entity, ACCELERATION));
    holds(&world, entity, MOTION | HEALTH);
    let other = world.spawn(HEALTH);
    world.set_velocity(other, Velocity(4));
    holds(&world, other, POSITION | VELOCITY | HEALTH);
    assert_eq!(world.get_velocity(other), Some(&Velocity(4)));
    let third = world.spawn(0);
    assert!(world.add_acceleration(third));
    holds(&world, third, MOTION);
    // Values present stay.
    world.set_position(third, Position(8));
    world.add_components(third, VELOCITY);
    assert_eq!(world.get_position(third), Some(&Position(8)));
    // One table per mask reached: the requirement added no intermediate table.
    let tables = world.archetype_count();
    let fourth = world.spawn(HEALTH);
    world.add_components(fourth, ACCELERATION);
    assert_eq!(world.archetype_count(), tables);
}

#[test]
fn removing_a_required_component_removes_its_requirers() {
    let mut world = World::new();
    let entity = world.spawn(ACCELERATION | HEALTH);
    sync(&mut world);
    world.set_velocity(entity, Velocity(6));
    assert!(world.remove_components(entity, POSITION));
    holds(&world, entity, HEALTH);
    // The requirer's removal hook reads its value.
    assert_eq!(
        sync(&mut world),
        [Fired::Removed(Hooked::Velocity, entity, Some(6))]
    );
    let other = world.spawn(ACCELERATION);
    assert_eq!(world.remove_velocity(other), Some(Velocity(0)));
    holds(&world, other, POSITION);
    // Removing a requirer leaves what it requires.
    let third = world.spawn(ACCELERATION);
    assert_eq!(world.remove_acceleration(third), Some(Acceleration(0)));
    holds(&world, third, POSITION | VELOCITY);
}

#[test]
fn a_refuse_requirement_refuses_the_removal() {
    let mut world = World::new();
    let entity = world.spawn(TURRET);
    world.set_team(entity, Team(2));
    holds(&world, entity, TURRET | TEAM);
    assert!(!world.remove_components(entity, TEAM | HEALTH));
    assert_eq!(world.remove_team(entity), None);
    holds(&world, entity, TURRET | TEAM);
    assert_eq!(world.get_team(entity), Some(&Team(2)));
    // Removing both together, or the requirer first, is fine.
    assert!(world.remove_components(entity, TEAM | TURRET));
    holds(&world, entity, 0);
    let other = world.spawn(TURRET);
    assert_eq!(world.remove_turret(other), Some(Turret(0)));
    assert_eq!(world.remove_team(other), Some(Team(0)));
    holds(&world, other, 0);
}

#[test]
fn an_exclusive_switch_is_one_migration_whose_hooks_see_it() {
    let mut world = World::new();
    let entity = world.spawn(POSITION);
    world.set_idle(entity, Idle(4));
    sync(&mut world);
    holds(&world, entity, POSITION | IDLE);
    world.step();
    let before = world.last_tick();
    world.set_moving(entity, Moving(7));
    holds(&world, entity, POSITION | MOVING);
    assert_eq!(world.get_moving(entity), Some(&Moving(7)));
    // The removed value went to its hook, then the addition's hook read the new one.
    assert_eq!(
        sync(&mut world),
        [
            Fired::Removed(Hooked::Idle, entity, Some(4)),
            Fired::Added(Hooked::Moving, entity, Some(7)),
        ]
    );
    let query = |mask| {
        let added: Vec<Entity> = world
            .typed_query_ref::<Entity>()
            .added_since(mask, before)
            .iter()
            .collect();
        let changed: Vec<Entity> = world
            .typed_query_ref::<Entity>()
            .changed_since(mask, before)
            .iter()
            .collect();
        (added, changed)
    };
    assert_eq!(query(MOVING), (vec![entity], vec![entity]));
    assert_eq!(query(IDLE), (vec![], vec![]));
    assert_eq!(query(POSITION), (vec![], vec![]), "moved, not written");
    // `add_components` and `add_*` switch the same way; adding the member held does nothing.
    assert!(world.add_attacking(entity));
    holds(&world, entity, POSITION | ATTACKING);
    assert!(world.add_components(entity, ATTACKING | HEALTH));
    holds(&world, entity, POSITION | ATTACKING | HEALTH);
    assert!(world.add_components(entity, IDLE));
    holds(&world, entity, POSITION | IDLE | HEALTH);
    assert_eq!(
        sync(&mut world),
        [
            Fired::Removed(Hooked::Moving, entity, Some(7)),
            Fired::Added(Hooked::Idle, entity, Some(0)),
        ]
    );
}

#[test]
fn queued_forms_follow_the_rules() {
    let mut world = World::new();
    let spawned = world.commands().queue_spawn_entities(ACCELERATION, 2);
    let built = world.commands().queue_spawn(
        EntityBuilder::new()
            .with_velocity(Velocity(3))
            .with_idle(Idle(1))
            .with_moving(Moving(2)),
    );
    let valued = world
        .commands()
        .queue_spawn_values([(Acceleration(1), Health(2))]);
    world.apply_commands();
    holds(&world, spawned[1], MOTION);
    holds(&world, built, POSITION | VELOCITY | IDLE);
    assert_eq!(world.get_velocity(built), Some(&Velocity(3)));
    holds(&world, valued[0], MOTION | HEALTH);
    assert_eq!(world.get_acceleration(valued[0]), Some(&Acceleration(1)));
    // The next queued spawn of the builder's mask finds its staging clean.
    let again = world.commands().queue_spawn(
        EntityBuilder::new()
            .with_idle(Idle(5))
            .with_moving(Moving(6)),
    );
    world.apply_commands();
    holds(&world, again, IDLE);
    assert_eq!(world.get_idle(again), Some(&Idle(5)));
    sync(&mut world);

    let entity = world.spawn(HEALTH);
    world.commands().queue_set_moving(entity, Moving(1));
    world.commands().queue_add_components(entity, ACCELERATION);
    world.apply_commands();
    holds(&world, entity, HEALTH | MOVING | MOTION);
    world.commands().queue_set_idle(entity, Idle(2));
    world.commands().queue_remove_components(entity, POSITION);
    world.apply_commands();
    holds(&world, entity, HEALTH | IDLE);
    let turret = world.spawn(TURRET);
    world.commands().queue_remove_components(turret, TEAM);
    world.apply_commands();
    holds(&world, turret, TURRET | TEAM);
}

#[test]
fn a_snapshot_breaking_the_rules_is_refused() {
    let load = |text: &str| {
        let data: archetypal::SnapshotData<World> = serde_json::from_str(text).unwrap();
        World::from_snapshot(data)
    };
    let mut free = free::FreeWorld::new();
    free.spawn(free::POSITION | free::VELOCITY | free::MOVING);
    let text = serde_json::to_string(&free.snapshot()).unwrap();
    let loaded = load(&text).unwrap();
    assert_eq!(loaded.check_invariants(), Ok(()));
    free.spawn(free::VELOCITY);
    let text = serde_json::to_string(&free.snapshot()).unwrap();
    let error = load(&text).err().map(|error| error.to_string()).unwrap();
    assert!(error.contains("`VELOCITY` without `POSITION`"), "{error}");
    let mut free = free::FreeWorld::new();
    free.spawn(free::IDLE | free::MOVING);
    let text = serde_json::to_string(&free.snapshot()).unwrap();
    let error = load(&text).err().map(|error| error.to_string()).unwrap();
    assert!(error.contains("exclusive"), "{error}");
}

#[test]
fn a_world_copied_keeps_its_rules() {
    let mut world = World::new();
    let entity = world.spawn(IDLE | ACCELERATION);
    let mut copy = world.clone();
    copy.set_moving(entity, Moving(1));
    holds(&copy, entity, MOTION | MOVING);
    holds(&world, entity, MOTION | IDLE);
    let _ = Tick::ZERO;
}

/// A reference of the rules above, written the slow way (fixpoints over the declared pairs),
/// for the property test below: the mask an operation leaves, or `None` if refused.
mod reference {
    use super::*;

    /// `(requirer, required, refuse)`, as declared.
    const PAIRS: [(WorldMask, WorldMask, bool); 3] = [
        (VELOCITY, POSITION, false),
        (ACCELERATION, VELOCITY, false),
        (TURRET, TEAM, true),
    ];
    const GROUP: [WorldMask; 3] = [IDLE, MOVING, ATTACKING];

    /// What requires something of `gone` within `mask`, directly or not, removed.
    fn without_requirers_of(mut mask: WorldMask, gone: WorldMask) -> WorldMask {
        let mut gone = gone;
        loop {
            let before = mask;
            for (requirer, required, _) in PAIRS {
                if mask & requirer != 0 && gone & required != 0 {
                    mask &= !requirer;
                    gone |= requirer;
                }
            }
            if mask == before {
                return mask;
            }
        }
    }

    pub fn spawned(asked: WorldMask) -> WorldMask {
        let mut mask = asked;
        loop {
            let before = mask;
            for (requirer, required, _) in PAIRS {
                if mask & requirer != 0 {
                    mask |= required;
                }
            }
            if mask == before {
                break;
            }
        }
        let mut left_out = 0;
        let mut kept = false;
        for member in GROUP {
            if mask & member != 0 {
                if kept {
                    left_out |= member;
                }
                kept = true;
            }
        }
        without_requirers_of(mask & !left_out, left_out)
    }

    pub fn removed(current: WorldMask, asked: WorldMask) -> Option<WorldMask> {
        let mut gone = asked & current;
        loop {
            let before = gone;
            for (requirer, required, refuse) in PAIRS {
                if !refuse && current & requirer != 0 && gone & required != 0 {
                    gone |= requirer;
                }
            }
            if gone == before {
                break;
            }
        }
        for (requirer, required, refuse) in PAIRS {
            if refuse && current & !gone & requirer != 0 && gone & required != 0 {
                return None;
            }
        }
        Some(current & !gone)
    }

    pub fn added(current: WorldMask, asked: WorldMask) -> Option<WorldMask> {
        let added = spawned(asked);
        let mut displaced = 0;
        if GROUP.iter().any(|&member| added & member != 0) {
            for member in GROUP {
                if added & member == 0 {
                    displaced |= current & member;
                }
            }
        }
        Some(removed(current, displaced)? | added)
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    const EVERY: WorldMask =
        POSITION | VELOCITY | ACCELERATION | IDLE | MOVING | ATTACKING | TEAM | TURRET | HEALTH;

    #[derive(Debug, Clone)]
    enum Op {
        Spawn(WorldMask),
        Add(usize, WorldMask),
        Remove(usize, WorldMask),
        SetMoving(usize),
        RemoveTeam(usize),
        QueuedAdd(usize, WorldMask),
        Build(WorldMask),
    }

    fn op() -> impl Strategy<Value = Op> {
        let mask = (0..=EVERY).prop_map(|mask| mask & EVERY);
        prop_oneof![
            mask.clone().prop_map(Op::Spawn),
            (0usize..8, mask.clone()).prop_map(|(e, m)| Op::Add(e, m)),
            (0usize..8, mask.clone()).prop_map(|(e, m)| Op::Remove(e, m)),
            (0usize..8).prop_map(Op::SetMoving),
            (0usize..8).prop_map(Op::RemoveTeam),
            (0usize..8, mask.clone()).prop_map(|(e, m)| Op::QueuedAdd(e, m)),
            mask.prop_map(Op::Build),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Every operation leaves exactly the mask the reference computes, and the world's
        /// invariants (the rules among them) hold after each.
        #[test]
        fn every_operation_matches_the_reference(ops in proptest::collection::vec(op(), 1..60)) {
            let mut world = World::new();
            let mut entities: Vec<(Entity, WorldMask)> = Vec::new();
            for op in ops {
                let count = entities.len().max(1);
                let pick = |index: usize| index % count;
                match op {
                    Op::Spawn(mask) => {
                        let entity = world.spawn(mask);
                        entities.push((entity, reference::spawned(mask)));
                    }
                    Op::Build(mask) => {
                        let mut builder = EntityBuilder::new().with_mask(mask);
                        if mask & MOVING != 0 {
                            builder = builder.with_moving(Moving(3));
                        }
                        let entity = builder.spawn_one(&mut world);
                        entities.push((entity, reference::spawned(mask)));
                    }
                    Op::Add(index, mask) | Op::QueuedAdd(index, mask) if !entities.is_empty() => {
                        let (entity, current) = entities[pick(index)];
                        let expected = reference::added(current, mask);
                        if let Op::Add(..) = op {
                            prop_assert_eq!(world.add_components(entity, mask), expected.is_some());
                        } else {
                            world.commands().queue_add_components(entity, mask);
                            world.apply_commands();
                        }
                        entities[pick(index)].1 = expected.unwrap_or(current);
                    }
                    Op::Remove(index, mask) if !entities.is_empty() => {
                        let (entity, current) = entities[pick(index)];
                        let expected = reference::removed(current, mask);
                        prop_assert_eq!(world.remove_components(entity, mask), expected.is_some());
                        entities[pick(index)].1 = expected.unwrap_or(current);
                    }
                    Op::SetMoving(index) if !entities.is_empty() => {
                        let (entity, current) = entities[pick(index)];
                        let expected = reference::added(current, MOVING);
                        prop_assert_eq!(world.set_moving(entity, Moving(9)), expected.is_some());
                        if expected.is_some() {
                            prop_assert_eq!(world.get_moving(entity), Some(&Moving(9)));
                        }
                        entities[pick(index)].1 = expected.unwrap_or(current);
                    }
                    Op::RemoveTeam(index) if !entities.is_empty() => {
                        let (entity, current) = entities[pick(index)];
                        let expected = if current & TEAM != 0 {
                            reference::removed(current, TEAM)
                        } else {
                            None
                        };
                        prop_assert_eq!(world.remove_team(entity).is_some(), expected.is_some());
                        entities[pick(index)].1 = expected.unwrap_or(current);
                    }
                    _ => {}
                }
                prop_assert_eq!(world.check_invariants(), Ok(()));
                for &(entity, mask) in &entities {
                    prop_assert_eq!(world.component_mask(entity), Some(mask));
                }
            }
        }
    }
}
