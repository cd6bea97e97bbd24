//! Model-based property test of disabled entities: random sequences of spawns (some as
//! children through `child_of`, which cascades), despawns, structural changes, `disable` /
//! `enable`, their subtree and queued forms, clones and snapshot round trips, run against a
//! `World` and, side by side, a plain reference (per live entity: its components and tags, its
//! parent, whether it is disabled). Handles are drawn from every handle ever issued plus a
//! never-issued one.
//!
//! After every step: `check_invariants`; for every handle, `is_alive`, `is_disabled` and
//! `component_mask`; and for a grid of include / exclude masks, the entities `for_each`,
//! `query_entities` and typed queries find (the enabled matching ones), and those a query
//! asking for `WorldMask::DISABLED` finds (the disabled matching ones).

use std::collections::HashMap;

use archetypal::{Bitmask, Entity, ecs};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Position(pub i32);
#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Velocity(pub i32);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
    }
    Tags {
        frozen => FROZEN,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
    }
}

const DISABLED: WorldMask = WorldMask::DISABLED;
const USER_BITS: WorldMask = POSITION | VELOCITY | FROZEN;

#[derive(Clone, Debug)]
enum Op {
    Spawn(WorldMask),
    SpawnChild(usize, WorldMask),
    Despawn(usize),
    Add(usize, WorldMask),
    Remove(usize, WorldMask),
    Disable(usize),
    Enable(usize),
    DisableTree(usize),
    EnableTree(usize),
    Queue(Vec<(usize, bool)>),
    CloneWorld,
    Snapshot,
}

fn op_strategy() -> impl Strategy<Value = Op> {
    let mask = (0..8u64).prop_map(|bits| bits & USER_BITS);
    let handle = 0..40usize;
    prop_oneof![
        3 => mask.clone().prop_map(Op::Spawn),
        3 => (handle.clone(), mask.clone()).prop_map(|(h, m)| Op::SpawnChild(h, m)),
        1 => handle.clone().prop_map(Op::Despawn),
        2 => (handle.clone(), mask.clone()).prop_map(|(h, m)| Op::Add(h, m)),
        2 => (handle.clone(), mask).prop_map(|(h, m)| Op::Remove(h, m)),
        3 => handle.clone().prop_map(Op::Disable),
        2 => handle.clone().prop_map(Op::Enable),
        1 => handle.clone().prop_map(Op::DisableTree),
        1 => handle.clone().prop_map(Op::EnableTree),
        1 => prop::collection::vec((handle, any::<bool>()), 0..4).prop_map(Op::Queue),
        1 => Just(Op::CloneWorld),
        1 => Just(Op::Snapshot),
    ]
}

#[derive(Clone, Debug)]
struct ModelEntity {
    /// Components and tags.
    mask: WorldMask,
    parent: Option<Entity>,
    disabled: bool,
}

#[derive(Default)]
struct Model {
    live: HashMap<Entity, ModelEntity>,
    handles: Vec<Entity>,
}

impl Model {
    fn handle(&self, index: usize) -> Entity {
        self.handles.get(index).copied().unwrap_or(Entity {
            id: 10_000,
            generation: 0,
        })
    }

    /// `entity` and every live entity below it, `entity` first.
    fn subtree(&self, entity: Entity) -> Vec<Entity> {
        let mut found = vec![entity];
        let mut next = 0;
        while next < found.len() {
            let parent = found[next];
            let mut children: Vec<Entity> = self
                .live
                .iter()
                .filter(|(_, m)| m.parent == Some(parent))
                .map(|(&e, _)| e)
                .collect();
            children.sort();
            found.extend(children);
            next += 1;
        }
        found
    }

    fn set_disabled(&mut self, entity: Entity, disabled: bool) -> bool {
        match self.live.get_mut(&entity) {
            Some(model) => {
                model.disabled = disabled;
                true
            }
            None => false,
        }
    }

    fn set_tree(&mut self, entity: Entity, disabled: bool) -> usize {
        if !self.live.contains_key(&entity) {
            return 0;
        }
        let subtree = self.subtree(entity);
        for &member in &subtree {
            self.set_disabled(member, disabled);
        }
        subtree.len()
    }

    fn matching(&self, include: WorldMask, exclude: WorldMask, disabled: bool) -> Vec<Entity> {
        let mut found: Vec<Entity> = self
            .live
            .iter()
            .filter(|(_, m)| {
                let mask = m.mask | if m.parent.is_some() { CHILD_OF } else { 0 };
                m.disabled == disabled && mask & include == include && mask & exclude == 0
            })
            .map(|(&e, _)| e)
            .collect();
        found.sort();
        found
    }
}

fn sorted(mut entities: Vec<Entity>) -> Vec<Entity> {
    entities.sort();
    entities
}

fn apply(world: &mut World, model: &mut Model, op: &Op) -> Result<(), TestCaseError> {
    match *op {
        Op::Spawn(mask) => {
            let entity = world.spawn(mask);
            model.handles.push(entity);
            let state = ModelEntity {
                mask,
                parent: None,
                disabled: false,
            };
            model.live.insert(entity, state);
        }
        Op::SpawnChild(parent, mask) => {
            let parent = model.handle(parent);
            let entity = EntityBuilder::new()
                .with_mask(mask)
                .with_child_of(parent)
                .spawn_one(world);
            model.handles.push(entity);
            let alive = model.live.contains_key(&parent);
            let state = ModelEntity {
                mask,
                parent: alive.then_some(parent),
                disabled: false,
            };
            model.live.insert(entity, state);
        }
        Op::Despawn(index) => {
            let entity = model.handle(index);
            let alive = model.live.contains_key(&entity);
            prop_assert_eq!(world.despawn(entity), alive);
            if alive {
                for member in model.subtree(entity) {
                    model.live.remove(&member);
                }
            }
        }
        Op::Add(index, mask) => {
            let entity = model.handle(index);
            let alive = model
                .live
                .get_mut(&entity)
                .map(|m| m.mask |= mask)
                .is_some();
            prop_assert_eq!(world.add_components(entity, mask), alive);
        }
        Op::Remove(index, mask) => {
            let entity = model.handle(index);
            let alive = model
                .live
                .get_mut(&entity)
                .map(|m| m.mask &= !mask)
                .is_some();
            prop_assert_eq!(world.remove_components(entity, mask), alive);
        }
        Op::Disable(index) => {
            let entity = model.handle(index);
            prop_assert_eq!(world.disable(entity), model.set_disabled(entity, true));
        }
        Op::Enable(index) => {
            let entity = model.handle(index);
            prop_assert_eq!(world.enable(entity), model.set_disabled(entity, false));
        }
        Op::DisableTree(index) => {
            let entity = model.handle(index);
            prop_assert_eq!(
                world.disable_tree(CHILD_OF, entity),
                model.set_tree(entity, true)
            );
        }
        Op::EnableTree(index) => {
            let entity = model.handle(index);
            prop_assert_eq!(
                world.enable_tree(CHILD_OF, entity),
                model.set_tree(entity, false)
            );
        }
        Op::Queue(ref commands) => {
            let mut applied = 0;
            for &(index, disable) in commands {
                let entity = model.handle(index);
                if disable {
                    world.commands().queue_disable(entity);
                } else {
                    world.commands().queue_enable(entity);
                }
                applied += usize::from(model.set_disabled(entity, disable));
            }
            let report = world.apply_commands();
            prop_assert_eq!(report.applied, applied);
            prop_assert_eq!(report.skipped, commands.len() - applied);
        }
        Op::CloneWorld => *world = world.clone(),
        Op::Snapshot => {
            let text = serde_json::to_string(&world.snapshot()).unwrap();
            *world = serde_json::from_str(&text).unwrap();
        }
    }
    Ok(())
}

fn check(world: &mut World, model: &Model) -> Result<(), TestCaseError> {
    prop_assert_eq!(world.check_invariants(), Ok(()));
    for &entity in &model.handles {
        let state = model.live.get(&entity);
        prop_assert_eq!(world.is_alive(entity), state.is_some());
        prop_assert_eq!(world.is_disabled(entity), state.is_some_and(|m| m.disabled));
        let mask = state.map(|m| m.mask | if m.parent.is_some() { CHILD_OF } else { 0 });
        prop_assert_eq!(world.component_mask(entity), mask);
    }
    for include in [0, POSITION, VELOCITY, POSITION | VELOCITY, FROZEN, CHILD_OF] {
        for exclude in [0, VELOCITY, FROZEN] {
            let mut seen = Vec::new();
            world.for_each(include, exclude, |entity, _, _| seen.push(entity));
            prop_assert_eq!(sorted(seen), model.matching(include, exclude, false));
            let mut seen = Vec::new();
            world.for_each_mut(include | DISABLED, exclude, |entity, _, _| {
                seen.push(entity)
            });
            prop_assert_eq!(sorted(seen), model.matching(include, exclude, true));
            if exclude == 0 {
                let found = sorted(world.query_entities(include).collect());
                prop_assert_eq!(found, model.matching(include, 0, false));
                let count = world.typed_query::<Entity>().with(include).count();
                prop_assert_eq!(count, model.matching(include, 0, false).len());
                let count = world
                    .typed_query::<Entity>()
                    .with(include | DISABLED)
                    .count();
                prop_assert_eq!(count, model.matching(include, 0, true).len());
            }
        }
    }
    Ok(())
}

#[test]
fn disabled_entities_follow_the_model() {
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    let ops = prop::collection::vec(op_strategy(), 1..60);
    runner
        .run(&ops, |ops| {
            let mut world = World::new();
            let mut model = Model::default();
            for op in &ops {
                apply(&mut world, &mut model, op)?;
                check(&mut world, &model)?;
            }
            Ok(())
        })
        .unwrap();
}
