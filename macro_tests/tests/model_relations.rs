//! Model-based property test of relations: random sequences of operations run against a
//! `World` with `child_of / children => CHILD_OF [cascade]` and `owned_by / belongings =>
//! OWNED_BY` and, side by side, against a plain reference model (a set of live entities, and
//! per relation a `HashMap` source -> target and target -> sources in link order).
//!
//! Operations: spawns (with tag and relation bits in the mask, which must not set a relation),
//! links and unlinks in both relations (directly, through `split_mut().components`, and
//! queued), despawns of one entity and of lists (cascading by `child_of`, unlinking by
//! `owned_by`), `add_components` / `remove_components` with relation bits (ignored), queued
//! spawns whose reserved handles later links target, `apply_commands` (the report's applied and
//! skipped counts are the model's), `clear_commands`, a clone kept and restored, and a snapshot
//! round trip (JSON or postcard). Handles are drawn from every handle ever issued (live, dead,
//! reserved, released) plus a never-issued one.
//!
//! After every step: `check_invariants`; for every handle, `is_alive`, `component_mask` (the
//! relation bits exactly when linked), `get_child_of` / `get_owned_by`, `get_children` /
//! `get_belongings` (in link order), `ancestors_*` and `descendants_*` (depth first,
//! pre-order); the roots through a query excluding `CHILD_OF`; every entity's targets through
//! `Target` terms (a typed query's loop and iterator); the structural change log
//! since the last step against the model's (spawns, despawns, every link and unlink, those of a
//! cascade included); and whether hooks wait. The world declares a hook on every kind of change:
//! at each `apply_commands` the hooks that ran, in order, with their entities, are the model's
//! prediction (derived from its log, a despawn's components and tags removed before it).

use std::collections::{HashMap, HashSet};

use archetypal::{CommandReport, Entity, EventCursor, RelationError, StructuralChange, Target};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

#[derive(Default, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Offset(pub i32);

/// Which declared hook ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Hook {
    Spawned,
    OffsetAdded,
    PlayerAdded,
    PlayerRemoved,
    OffsetRemoved,
    ChildLinked,
    ChildUnlinked,
    OwnerUnlinked,
    OwnerLinked,
    Despawned,
}

/// A hook's run: the hook, its entity (a link's source) and a link's target.
pub type Fired = (Hook, Entity, Option<Entity>);

archetypal::ecs! {
    World {
        offset: Offset => OFFSET,
    }
    Tags {
        player => PLAYER,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
        owned_by / belongings => OWNED_BY,
    }
    Resources {
        fired: Vec<Fired>,
    }
    Hooks {
        on_spawn => spawned,
        on_add(OFFSET) => offset_added,
        on_add(PLAYER) => player_added,
        on_remove(PLAYER) => player_removed,
        on_remove(OFFSET) => offset_removed,
        on_link(CHILD_OF) => child_linked,
        on_unlink(CHILD_OF) => child_unlinked,
        on_unlink(OWNED_BY) => owner_unlinked,
        on_link(OWNED_BY) => owner_linked,
        on_despawn => despawned,
    }
}

fn spawned(world: &mut WorldParts<'_>, entity: Entity) {
    world.resources.fired.push((Hook::Spawned, entity, None));
}
fn offset_added(world: &mut WorldParts<'_>, entity: Entity) {
    world
        .resources
        .fired
        .push((Hook::OffsetAdded, entity, None));
}
fn player_added(world: &mut WorldParts<'_>, entity: Entity) {
    world
        .resources
        .fired
        .push((Hook::PlayerAdded, entity, None));
}
fn player_removed(world: &mut WorldParts<'_>, entity: Entity, _removed: &WorldRemoved) {
    world
        .resources
        .fired
        .push((Hook::PlayerRemoved, entity, None));
}
fn offset_removed(world: &mut WorldParts<'_>, entity: Entity, _removed: &WorldRemoved) {
    world
        .resources
        .fired
        .push((Hook::OffsetRemoved, entity, None));
}
fn child_linked(world: &mut WorldParts<'_>, source: Entity, target: Entity) {
    world
        .resources
        .fired
        .push((Hook::ChildLinked, source, Some(target)));
}
fn child_unlinked(world: &mut WorldParts<'_>, source: Entity, target: Entity) {
    world
        .resources
        .fired
        .push((Hook::ChildUnlinked, source, Some(target)));
}
fn owner_unlinked(world: &mut WorldParts<'_>, source: Entity, target: Entity) {
    world
        .resources
        .fired
        .push((Hook::OwnerUnlinked, source, Some(target)));
}
fn owner_linked(world: &mut WorldParts<'_>, source: Entity, target: Entity) {
    world
        .resources
        .fired
        .push((Hook::OwnerLinked, source, Some(target)));
}
fn despawned(world: &mut WorldParts<'_>, entity: Entity, _dead: &WorldRemoved) {
    world.resources.fired.push((Hook::Despawned, entity, None));
}

const RELATIONS: [Mask; 2] = [CHILD_OF, OWNED_BY];
const LOG_CAPACITY: usize = 1 << 20;

#[derive(Clone, Debug)]
enum Op {
    Spawn(Mask),
    Link(usize, usize, usize),
    LinkThroughParts(usize, usize, usize),
    Unlink(usize, usize),
    Despawn(usize),
    DespawnMany(Vec<usize>),
    AddComponents(usize, Mask),
    RemoveComponents(usize, Mask),
    QueueSpawn(usize),
    QueueLink(usize, usize, usize),
    QueueUnlink(usize, usize),
    QueueDespawn(usize),
    Apply,
    Clear,
    SaveClone,
    Restore,
    Snapshot(bool),
}

#[derive(Clone, Debug)]
enum Queued {
    Spawn(Vec<Entity>),
    Link(usize, Entity, Entity),
    Unlink(usize, Entity),
    Despawn(Entity),
}

#[derive(Clone, Default)]
struct Model {
    alive: HashSet<Entity>,
    player: HashSet<Entity>,
    targets: [HashMap<Entity, Entity>; 2],
    sources: [HashMap<Entity, Vec<Entity>>; 2],
    queue: Vec<Queued>,
    log: Vec<StructuralChange<Mask>>,
    /// The hooks the changes since the last `apply_commands` wait for, in the order they run.
    hooks: Vec<Fired>,
}

impl Model {
    /// Logs `change`, and the hooks it wakes, in declaration order.
    fn record(&mut self, change: StructuralChange<Mask>) {
        self.log.push(change);
        self.wake_hooks(change);
    }

    fn wake_hooks(&mut self, change: StructuralChange<Mask>) {
        use StructuralChange::*;
        let fired: Vec<Fired> = match change {
            Spawned { entity, mask } | Added { entity, mask } => {
                let spawned = matches!(change, Spawned { .. }).then_some(Hook::Spawned);
                let added = [(OFFSET, Hook::OffsetAdded), (PLAYER, Hook::PlayerAdded)]
                    .into_iter()
                    .filter(|&(bit, _)| mask & bit != 0)
                    .map(|(_, hook)| hook);
                spawned
                    .into_iter()
                    .chain(added)
                    .map(|hook| (hook, entity, None))
                    .collect()
            }
            Removed { entity, mask } => {
                [(PLAYER, Hook::PlayerRemoved), (OFFSET, Hook::OffsetRemoved)]
                    .into_iter()
                    .filter(|&(bit, _)| mask & bit != 0)
                    .map(|(_, hook)| (hook, entity, None))
                    .collect()
            }
            Linked {
                relation,
                source,
                target,
            } => {
                let hook = if relation == CHILD_OF {
                    Hook::ChildLinked
                } else {
                    Hook::OwnerLinked
                };
                vec![(hook, source, Some(target))]
            }
            Unlinked {
                relation,
                source,
                target,
            } => {
                let hook = if relation == CHILD_OF {
                    Hook::ChildUnlinked
                } else {
                    Hook::OwnerUnlinked
                };
                vec![(hook, source, Some(target))]
            }
            Despawned { entity } => vec![(Hook::Despawned, entity, None)],
        };
        self.hooks.extend(fired);
    }

    fn mask(&self, entity: Entity) -> Option<Mask> {
        self.alive.contains(&entity).then(|| {
            let mut mask = OFFSET;
            if self.player.contains(&entity) {
                mask |= PLAYER;
            }
            for (relation, targets) in self.targets.iter().enumerate() {
                if targets.contains_key(&entity) {
                    mask |= RELATIONS[relation];
                }
            }
            mask
        })
    }

    fn sources(&self, relation: usize, target: Entity) -> Vec<Entity> {
        self.sources[relation]
            .get(&target)
            .cloned()
            .unwrap_or_default()
    }

    fn ancestors(&self, relation: usize, entity: Entity) -> Vec<Entity> {
        let mut ancestors = Vec::new();
        let mut next = self.targets[relation].get(&entity).copied();
        while let Some(current) = next {
            ancestors.push(current);
            next = self.targets[relation].get(&current).copied();
        }
        ancestors
    }

    fn descendants(&self, relation: usize, entity: Entity, into: &mut Vec<Entity>) {
        for source in self.sources(relation, entity) {
            into.push(source);
            self.descendants(relation, source, into);
        }
    }

    fn spawn(&mut self, entity: Entity, mask: Mask) {
        self.alive.insert(entity);
        if mask & PLAYER != 0 {
            self.player.insert(entity);
        }
        self.record(StructuralChange::Spawned {
            entity,
            mask: mask & (OFFSET | PLAYER),
        });
    }

    fn link(
        &mut self,
        relation: usize,
        source: Entity,
        target: Entity,
    ) -> Result<Option<Entity>, RelationError> {
        if !self.alive.contains(&source) {
            return Err(RelationError::DeadSource);
        }
        if !self.alive.contains(&target) {
            return Err(RelationError::DeadTarget);
        }
        if source == target {
            return Err(RelationError::SelfLink);
        }
        let previous = self.targets[relation].get(&source).copied();
        if previous == Some(target) {
            return Ok(previous);
        }
        if self.ancestors(relation, target).contains(&source) {
            return Err(RelationError::Cycle);
        }
        if previous.is_some() {
            self.unlink(relation, source);
        }
        self.targets[relation].insert(source, target);
        self.sources[relation]
            .entry(target)
            .or_default()
            .push(source);
        self.record(StructuralChange::Linked {
            relation: RELATIONS[relation],
            source,
            target,
        });
        Ok(previous)
    }

    fn unlink(&mut self, relation: usize, source: Entity) -> Option<Entity> {
        let target = self.targets[relation].remove(&source)?;
        let list = self.sources[relation].get_mut(&target).unwrap();
        list.retain(|&other| other != source);
        self.record(StructuralChange::Unlinked {
            relation: RELATIONS[relation],
            source,
            target,
        });
        Some(target)
    }

    /// Despawns by the policies: `child_of` sources go too (depth first, pre-order), the
    /// `owned_by` ones are unlinked.
    fn despawn(&mut self, entity: Entity) -> bool {
        if !self.alive.contains(&entity) {
            return false;
        }
        let mut stack = vec![entity];
        while let Some(next) = stack.pop() {
            if !self.alive.contains(&next) {
                continue;
            }
            stack.extend(self.sources(0, next).into_iter().rev());
            // Its own links first, relation by relation; then its sources', relation by
            // relation, each in link order.
            for relation in 0..RELATIONS.len() {
                self.unlink(relation, next);
            }
            for (relation, bit) in RELATIONS.into_iter().enumerate() {
                for source in self.sources[relation].remove(&next).unwrap_or_default() {
                    self.targets[relation].remove(&source);
                    self.record(StructuralChange::Unlinked {
                        relation: bit,
                        source,
                        target: next,
                    });
                }
            }
            // Its hooks see its components and tags go, then the despawn (the log holds
            // the despawn alone).
            let mask = self.mask(next).unwrap() & (OFFSET | PLAYER);
            self.wake_hooks(StructuralChange::Removed { entity: next, mask });
            self.alive.remove(&next);
            self.player.remove(&next);
            self.record(StructuralChange::Despawned { entity: next });
        }
        true
    }
}

struct Harness {
    world: World,
    model: Model,
    /// Every handle ever issued or reserved.
    issued: Vec<Entity>,
    saved: Option<(World, Model)>,
    cursor: EventCursor,
}

impl Harness {
    fn new() -> Self {
        let mut world = World::new();
        world.enable_change_log(LOG_CAPACITY);
        let cursor = world.change_cursor();
        Harness {
            world,
            model: Model::default(),
            issued: Vec::new(),
            saved: None,
            cursor,
        }
    }

    /// A handle: one ever issued, or (past the end) one never issued.
    fn handle(&self, choice: usize) -> Entity {
        match self.issued.get(choice % (self.issued.len() + 1)) {
            Some(&entity) => entity,
            None => Entity::new(1_000_000, 0),
        }
    }

    fn restart_log(&mut self) {
        self.world.enable_change_log(LOG_CAPACITY);
        self.cursor = self.world.change_cursor();
        self.model.log.clear();
    }

    fn apply(&mut self, op: &Op) -> Result<(), String> {
        match *op {
            Op::Spawn(mask) => {
                let entity = self.world.spawn(mask);
                // (A restore rolls the entity index back: a handle may come again.)
                if self.model.alive.contains(&entity) {
                    return Err(format!("{entity} issued while alive"));
                }
                if !self.issued.contains(&entity) {
                    self.issued.push(entity);
                }
                self.model.spawn(entity, mask);
            }
            Op::Link(relation, source, target) | Op::LinkThroughParts(relation, source, target) => {
                let (source, target) = (self.handle(source), self.handle(target));
                let expected = self.model.link(relation, source, target);
                let got = match (op, relation) {
                    (Op::Link(..), 0) => self.world.set_child_of(source, target),
                    (Op::Link(..), _) => self.world.set_owned_by(source, target),
                    (_, 0) => self
                        .world
                        .split_mut()
                        .components
                        .set_child_of(source, target),
                    (_, _) => self
                        .world
                        .split_mut()
                        .components
                        .set_owned_by(source, target),
                };
                if got != expected {
                    return Err(format!("link returned {got:?}, the model {expected:?}"));
                }
            }
            Op::Unlink(relation, source) => {
                let source = self.handle(source);
                let expected = self.model.unlink(relation, source);
                let got = match relation {
                    0 => self.world.remove_child_of(source),
                    _ => self.world.remove_owned_by(source),
                };
                if got != expected {
                    return Err(format!("unlink returned {got:?}, the model {expected:?}"));
                }
            }
            Op::Despawn(entity) => {
                let entity = self.handle(entity);
                let expected = self.model.despawn(entity);
                if self.world.despawn(entity) != expected {
                    return Err(format!("despawn of {entity} did not return {expected}"));
                }
            }
            Op::DespawnMany(ref choices) => {
                let entities: Vec<Entity> = choices.iter().map(|&c| self.handle(c)).collect();
                let expected: Vec<Entity> = entities
                    .iter()
                    .copied()
                    .filter(|&entity| self.model.despawn(entity))
                    .collect();
                let got = self.world.despawn_entities(&entities);
                if got != expected {
                    return Err(format!(
                        "despawn_entities returned {got:?}, the model {expected:?}"
                    ));
                }
            }
            Op::AddComponents(entity, mask) => {
                let entity = self.handle(entity);
                let alive = self.model.alive.contains(&entity);
                if alive && mask & PLAYER != 0 && self.model.player.insert(entity) {
                    self.model.record(StructuralChange::Added {
                        entity,
                        mask: PLAYER,
                    });
                }
                if self.world.add_components(entity, mask) != alive {
                    return Err("add_components disagrees on liveness".into());
                }
            }
            Op::RemoveComponents(entity, mask) => {
                let entity = self.handle(entity);
                let alive = self.model.alive.contains(&entity);
                if alive && mask & PLAYER != 0 && self.model.player.remove(&entity) {
                    self.model.record(StructuralChange::Removed {
                        entity,
                        mask: PLAYER,
                    });
                }
                if self.world.remove_components(entity, mask & !OFFSET) != alive {
                    return Err("remove_components disagrees on liveness".into());
                }
            }
            Op::QueueSpawn(count) => {
                let entities = self
                    .world
                    .commands()
                    .queue_spawn_entities(OFFSET | CHILD_OF, count);
                for &entity in &entities {
                    if !self.issued.contains(&entity) {
                        self.issued.push(entity);
                    }
                }
                self.model.queue.push(Queued::Spawn(entities));
            }
            Op::QueueLink(relation, source, target) => {
                let (source, target) = (self.handle(source), self.handle(target));
                match relation {
                    0 => self.world.commands().queue_set_child_of(source, target),
                    _ => self
                        .world
                        .split_mut()
                        .commands
                        .queue_set_owned_by(source, target),
                }
                self.model
                    .queue
                    .push(Queued::Link(relation, source, target));
            }
            Op::QueueUnlink(relation, source) => {
                let source = self.handle(source);
                match relation {
                    0 => self
                        .world
                        .split_mut()
                        .commands
                        .queue_remove_child_of(source),
                    _ => self.world.commands().queue_remove_owned_by(source),
                }
                self.model.queue.push(Queued::Unlink(relation, source));
            }
            Op::QueueDespawn(entity) => {
                let entity = self.handle(entity);
                self.world.commands().queue_despawn(entity);
                self.model.queue.push(Queued::Despawn(entity));
            }
            Op::Apply => {
                let mut expected = CommandReport::default();
                for command in std::mem::take(&mut self.model.queue) {
                    let applied = match command {
                        Queued::Spawn(entities) => {
                            for &entity in &entities {
                                self.model.spawn(entity, OFFSET);
                            }
                            true
                        }
                        Queued::Link(relation, source, target) => {
                            self.model.link(relation, source, target).is_ok()
                        }
                        Queued::Unlink(relation, source) => {
                            let alive = self.model.alive.contains(&source);
                            self.model.unlink(relation, source);
                            alive
                        }
                        Queued::Despawn(entity) => self.model.despawn(entity),
                    };
                    expected.record(applied);
                }
                let got = self.world.apply_commands();
                if got != expected {
                    return Err(format!(
                        "apply_commands reported {got:?}, the model {expected:?}"
                    ));
                }
                let fired = std::mem::take(&mut self.world.resources.fired);
                let expected = std::mem::take(&mut self.model.hooks);
                if fired != expected {
                    return Err(format!("the hooks ran {fired:?}, the model {expected:?}"));
                }
            }
            Op::Clear => {
                self.world.clear_commands();
                self.model.queue.clear();
            }
            Op::SaveClone => {
                // A clone starts with no queued command (their reservations given back) and
                // no change waiting for its hooks.
                let mut model = self.model.clone();
                model.queue.clear();
                model.hooks.clear();
                self.saved = Some((self.world.clone(), model));
            }
            Op::Restore => {
                if let Some((world, model)) = &self.saved {
                    self.world.restore(world);
                    self.model = model.clone();
                    self.restart_log();
                }
            }
            Op::Snapshot(json) => {
                let loaded: World = if json {
                    let text =
                        serde_json::to_string(&self.world.snapshot()).map_err(|e| e.to_string())?;
                    serde_json::from_str(&text).map_err(|e| e.to_string())?
                } else {
                    let bytes =
                        postcard::to_allocvec(&self.world.snapshot()).map_err(|e| e.to_string())?;
                    postcard::from_bytes(&bytes).map_err(|e| e.to_string())?
                };
                self.world = loaded;
                self.model.queue.clear();
                self.model.hooks.clear();
                self.restart_log();
            }
        }
        Ok(())
    }

    fn check(&mut self) -> Result<(), String> {
        self.world
            .check_invariants()
            .map_err(|error| error.to_string())?;
        let model = &self.model;
        let world = &self.world;
        if world.hooks_pending() == model.hooks.is_empty() {
            return Err(format!(
                "hooks pending: {}, the model waits for {:?}",
                world.hooks_pending(),
                model.hooks
            ));
        }
        let never = Entity::new(1_000_000, 0);
        for &entity in self.issued.iter().chain([&never]) {
            let alive = model.alive.contains(&entity);
            if world.is_alive(entity) != alive {
                return Err(format!("{entity}: is_alive is not {alive}"));
            }
            if world.component_mask(entity) != model.mask(entity) {
                return Err(format!(
                    "{entity}: component_mask {:?}, the model {:?}",
                    world.component_mask(entity),
                    model.mask(entity)
                ));
            }
            let got = [world.get_child_of(entity), world.get_owned_by(entity)];
            let sources = [world.get_children(entity), world.get_belongings(entity)];
            let ancestors = [
                world.ancestors_child_of(entity).collect::<Vec<_>>(),
                world.ancestors_owned_by(entity).collect(),
            ];
            let descendants = [
                world.descendants_child_of(entity).collect::<Vec<_>>(),
                world.descendants_owned_by(entity).collect(),
            ];
            for relation in 0..2 {
                let target = model.targets[relation].get(&entity).copied();
                if got[relation] != target {
                    return Err(format!(
                        "{entity}: relation {relation} target {:?}, the model {target:?}",
                        got[relation]
                    ));
                }
                let expected = model.sources(relation, entity);
                if sources[relation] != &expected[..] {
                    return Err(format!(
                        "{entity}: relation {relation} sources {:?}, the model {expected:?}",
                        sources[relation]
                    ));
                }
                if ancestors[relation] != model.ancestors(relation, entity) {
                    return Err(format!(
                        "{entity}: relation {relation} ancestors {:?}",
                        ancestors[relation]
                    ));
                }
                let mut expected = Vec::new();
                model.descendants(relation, entity, &mut expected);
                if descendants[relation] != expected {
                    return Err(format!(
                        "{entity}: relation {relation} descendants {:?}, the model {expected:?}",
                        descendants[relation]
                    ));
                }
            }
        }
        let mut roots: Vec<Entity> = world
            .typed_query_ref::<Entity>()
            .with(OFFSET)
            .without(CHILD_OF)
            .iter()
            .collect();
        roots.sort();
        let mut expected: Vec<Entity> = model
            .alive
            .iter()
            .copied()
            .filter(|entity| !model.targets[0].contains_key(entity))
            .collect();
        expected.sort();
        if roots != expected {
            return Err(format!("roots {roots:?}, the model {expected:?}"));
        }
        // Every entity's targets through `Target` terms, in the loop (spans of siblings, kept
        // between steps in a run of 32 rows or more while nothing moves) and the iterator.
        let mut read = Vec::new();
        let terms = world.typed_query_ref::<(Entity, Target<CHILD_OF>, Target<OWNED_BY>)>();
        terms.for_each(|(entity, parent, owner)| read.push((entity, [parent, owner])));
        let iterated: Vec<_> = terms
            .iter()
            .map(|(entity, parent, owner)| (entity, [parent, owner]))
            .collect();
        if iterated != read {
            return Err(format!(
                "Target terms: iter {iterated:?}, for_each {read:?}"
            ));
        }
        if read.len() != model.alive.len() {
            return Err(format!("Target terms visit {} entities", read.len()));
        }
        for (entity, targets) in read {
            for (relation, target) in targets.into_iter().enumerate() {
                let expected = model.targets[relation].get(&entity).copied();
                if target != expected {
                    return Err(format!(
                        "{entity}: relation {relation} Target term {target:?}, the model {expected:?}"
                    ));
                }
            }
        }
        let logged: Vec<StructuralChange<Mask>> = world
            .consume_changes(&mut self.cursor)
            .into_iter()
            .copied()
            .collect();
        let expected = std::mem::take(&mut self.model.log);
        if logged != expected {
            return Err(format!(
                "the change log holds {logged:?}, the model {expected:?}"
            ));
        }
        Ok(())
    }
}

fn op() -> impl Strategy<Value = Op> {
    let handle = 0usize..64;
    let relation = 0usize..2;
    let mask = prop_oneof![
        Just(OFFSET),
        Just(OFFSET | PLAYER),
        Just(OFFSET | CHILD_OF),
        Just(OFFSET | PLAYER | OWNED_BY),
    ];
    prop_oneof![
        6 => mask.clone().prop_map(Op::Spawn),
        10 => (relation.clone(), handle.clone(), handle.clone()).prop_map(|(r, s, t)| Op::Link(r, s, t)),
        3 => (relation.clone(), handle.clone(), handle.clone()).prop_map(|(r, s, t)| Op::LinkThroughParts(r, s, t)),
        3 => (relation.clone(), handle.clone()).prop_map(|(r, s)| Op::Unlink(r, s)),
        3 => handle.clone().prop_map(Op::Despawn),
        1 => proptest::collection::vec(handle.clone(), 0..4).prop_map(Op::DespawnMany),
        1 => (handle.clone(), mask.clone()).prop_map(|(e, m)| Op::AddComponents(e, m)),
        1 => (handle.clone(), mask).prop_map(|(e, m)| Op::RemoveComponents(e, m)),
        1 => (0usize..3).prop_map(Op::QueueSpawn),
        3 => (relation.clone(), handle.clone(), handle.clone()).prop_map(|(r, s, t)| Op::QueueLink(r, s, t)),
        1 => (relation, handle.clone()).prop_map(|(r, s)| Op::QueueUnlink(r, s)),
        1 => handle.prop_map(Op::QueueDespawn),
        2 => Just(Op::Apply),
        1 => Just(Op::Clear),
        1 => Just(Op::SaveClone),
        1 => Just(Op::Restore),
        1 => any::<bool>().prop_map(Op::Snapshot),
    ]
}

fn run(ops: &[Op]) -> Result<(), String> {
    let mut harness = Harness::new();
    for (step, op) in ops.iter().enumerate() {
        harness
            .apply(op)
            .and_then(|()| harness.check())
            .map_err(|error| format!("step {step} ({op:?}): {error}"))?;
    }
    Ok(())
}

#[test]
fn relations_match_the_model() {
    let mut runner = TestRunner::new(Config {
        cases: 300,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&proptest::collection::vec(op(), 1..150), |ops| {
        run(&ops).map_err(TestCaseError::fail)
    });
    if let Err(error) = result {
        panic!("{error}");
    }
}

/// A fixed sequence through the same harness: a hierarchy built, a cycle refused, a queued
/// link to reserved handles, a cascade, a clone restored, a snapshot.
#[test]
fn fixed_sequence() {
    let ops = vec![
        Op::Spawn(OFFSET),
        Op::Spawn(OFFSET | PLAYER),
        Op::Spawn(OFFSET),
        Op::Link(0, 1, 0),
        Op::Link(0, 2, 1),
        Op::Link(0, 0, 2),
        Op::Link(1, 0, 2),
        Op::SaveClone,
        Op::QueueSpawn(2),
        Op::QueueLink(0, 3, 2),
        Op::QueueLink(1, 4, 3),
        Op::QueueDespawn(1),
        Op::Apply,
        Op::Restore,
        Op::Snapshot(false),
        Op::Despawn(0),
        Op::Snapshot(true),
    ];
    run(&ops).unwrap();
}
