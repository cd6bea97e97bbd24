//! A model test of the multi-world form: random sequences of spawns (empty, built, queued),
//! despawns (cascading through the relations of both sub-worlds), links, component writes
//! and queued commands against a plain model of the game, which predicts every handle issued
//! (the game's one entity index: ids recycled last freed first, one generation later), every
//! value, every link and each target's sources in link order. After every step each
//! sub-world agrees with the model and `check_invariants()` passes. The game declares hooks
//! (its own `on_spawn` and `on_despawn`, the render sub-world's `on_add(TINT)` and
//! `on_remove(TINT)`): at each `apply_commands` the model predicts every one that runs, in
//! order (sub-world by sub-world, each one's changes in order; the direct changes', then the
//! queued commands'). The core sub-world's `Rules` block (`VELOCITY requires POSITION`)
//! holds on every path (a velocity brings a default position, removing the position removes
//! the velocity), and the game's `disable` / `enable` and their queued forms park an entity
//! out of both sub-worlds' queries, which count exactly the enabled entities.

use std::collections::{HashMap, HashSet};

use archetypal::{Entity, ecs};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Position(pub i32);

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Velocity(pub i32);

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tint(pub u32);

/// Which hook ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hook {
    Spawned,
    TintAdded,
    TintRemoved,
    Despawned,
}

ecs! {
    Game {
        Core {
            position: Position => POSITION,
            velocity: Velocity => VELOCITY,
        }
        Relations {
            child_of / children => CHILD_OF [cascade],
        }
        Rules {
            VELOCITY requires POSITION,
        }
        Render {
            tint: Tint => TINT,
        }
        Relations {
            owned_by / belongings => OWNED_BY [cascade],
            seen_by / seen => SEEN_BY,
        }
        Hooks {
            on_add(TINT) => tint_added,
            on_remove(TINT) => tint_removed,
        }
    }
    Resources {
        fired: Vec<(Hook, Entity)>,
    }
    Hooks {
        on_spawn => spawned,
        on_despawn => despawned,
    }
}

fn spawned(game: &mut GameParts<'_>, entity: Entity) {
    game.resources.fired.push((Hook::Spawned, entity));
}
fn tint_added(game: &mut GameParts<'_>, entity: Entity) {
    game.resources.fired.push((Hook::TintAdded, entity));
}
fn tint_removed(game: &mut GameParts<'_>, entity: Entity, _removed: &RenderRemoved) {
    game.resources.fired.push((Hook::TintRemoved, entity));
}
fn despawned(game: &mut GameParts<'_>, entity: Entity) {
    game.resources.fired.push((Hook::Despawned, entity));
}

/// The game's relations, in the order a cascade visits them (sub-world by sub-world).
const RELATIONS: usize = 3;
/// Which of them cascade.
const CASCADES: [bool; RELATIONS] = [true, true, false];

#[derive(Clone, Debug)]
enum Operation {
    Spawn,
    SpawnMany(usize),
    /// The builder: `count` entities (`spawn_one` for 1), a position, a tint, and a link in
    /// relation `.3` to the picked target.
    Build(usize, i32, u32, usize, usize),
    /// `queue_spawn` of the same builder.
    QueueBuild(i32, usize, usize),
    QueueSpawn(usize),
    Despawn(usize),
    DespawnMany(Vec<usize>),
    SetPosition(usize, i32),
    /// `set_velocity`: a velocity requires a position (a default one if it has none).
    SetVelocity(usize, i32),
    /// `remove_position`: its velocity goes too.
    RemovePosition(usize),
    /// The game's `disable` (`true`) or `enable`, in every sub-world.
    Disable(usize, bool),
    /// Their queued forms.
    QueueDisable(usize, bool),
    SetTint(usize, u32),
    RemoveTint(usize),
    Link(usize, usize, usize),
    Unlink(usize, usize),
    QueueDespawn(usize),
    QueueSetTint(usize, u32),
    Apply,
    Clear,
    Step,
}

fn operation() -> impl Strategy<Value = Operation> {
    let pick = any::<usize>();
    let relation = 0..RELATIONS;
    prop_oneof![
        3 => Just(Operation::Spawn),
        1 => (0..4usize).prop_map(Operation::SpawnMany),
        3 => (0..4usize, -9..9i32, 0..9u32, relation.clone(), pick)
            .prop_map(|(count, x, tint, relation, target)| Operation::Build(count, x, tint, relation, target)),
        2 => (-9..9i32, relation.clone(), pick)
            .prop_map(|(x, relation, target)| Operation::QueueBuild(x, relation, target)),
        1 => (0..3usize).prop_map(Operation::QueueSpawn),
        3 => pick.prop_map(Operation::Despawn),
        1 => prop::collection::vec(pick, 0..4).prop_map(Operation::DespawnMany),
        2 => (pick, -9..9i32).prop_map(|(entity, x)| Operation::SetPosition(entity, x)),
        2 => (pick, -9..9i32).prop_map(|(entity, x)| Operation::SetVelocity(entity, x)),
        1 => pick.prop_map(Operation::RemovePosition),
        2 => (pick, any::<bool>()).prop_map(|(entity, disabled)| Operation::Disable(entity, disabled)),
        1 => (pick, any::<bool>()).prop_map(|(entity, disabled)| Operation::QueueDisable(entity, disabled)),
        2 => (pick, 0..9u32).prop_map(|(entity, tint)| Operation::SetTint(entity, tint)),
        1 => pick.prop_map(Operation::RemoveTint),
        5 => (relation.clone(), pick, pick)
            .prop_map(|(relation, source, target)| Operation::Link(relation, source, target)),
        1 => (relation, pick).prop_map(|(relation, source)| Operation::Unlink(relation, source)),
        1 => pick.prop_map(Operation::QueueDespawn),
        1 => (pick, 0..9u32).prop_map(|(entity, tint)| Operation::QueueSetTint(entity, tint)),
        2 => Just(Operation::Apply),
        1 => Just(Operation::Clear),
        1 => Just(Operation::Step),
    ]
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Free,
    Alive,
    Reserved,
}

/// What a builder holds, as the model sees it.
#[derive(Clone, Copy, Debug)]
struct Built {
    position: i32,
    tint: Option<u32>,
    link: (usize, Entity),
}

#[derive(Debug)]
enum Queued {
    Spawn(Entity, Built),
    SpawnEntities(Vec<Entity>),
    Despawn(Entity),
    Tint(Entity, u32),
    Disable(Entity, bool),
}

#[derive(Default)]
struct Model {
    /// Per id: its current generation and state.
    slots: Vec<(u32, State)>,
    /// Freed ids, reused last freed first.
    free: Vec<u32>,
    /// Every handle ever issued, to pick from (stale and reserved ones included).
    seen: Vec<Entity>,
    positions: HashMap<Entity, i32>,
    velocities: HashMap<Entity, i32>,
    tints: HashMap<Entity, u32>,
    /// The entities the game disabled (alive ones only).
    disabled: HashSet<Entity>,
    /// Per relation: each source's target, and each target's sources in link order.
    targets: [HashMap<Entity, Entity>; RELATIONS],
    sources: [HashMap<Entity, Vec<Entity>>; RELATIONS],
    /// The game's queue, in order: its own commands and the render sub-world's.
    queue: Vec<Queued>,
    /// The hooks waiting for the sync point, per sub-world: the first records spawns (for
    /// the game's `on_spawn`), the last (render) its tints and the despawns.
    core_hooks: Vec<(Hook, Entity)>,
    render_hooks: Vec<(Hook, Entity)>,
}

impl Model {
    fn pick(&self, pick: usize) -> Option<Entity> {
        (!self.seen.is_empty()).then(|| self.seen[pick % self.seen.len()])
    }

    fn is_alive(&self, entity: Entity) -> bool {
        self.slots.get(entity.id as usize) == Some(&(entity.generation, State::Alive))
    }

    /// The next handle the game's entity index gives, in `state`.
    fn issue(&mut self, state: State) -> Entity {
        let id = self.free.pop().unwrap_or_else(|| {
            self.slots.push((0, State::Free));
            self.slots.len() as u32 - 1
        });
        let slot = &mut self.slots[id as usize];
        slot.1 = state;
        let entity = Entity::new(id, slot.0);
        self.seen.push(entity);
        if state == State::Alive {
            self.core_hooks.push((Hook::Spawned, entity));
        }
        entity
    }

    /// Tints `entity` (alive): its hook runs if it had no tint.
    fn tint(&mut self, entity: Entity, tint: u32) {
        if self.tints.insert(entity, tint).is_none() {
            self.render_hooks.push((Hook::TintAdded, entity));
        }
    }

    /// The hooks the sync point runs now, in order, taken: the first sub-world's, then the
    /// render sub-world's.
    fn take_hooks(&mut self) -> Vec<(Hook, Entity)> {
        let mut hooks = std::mem::take(&mut self.core_hooks);
        hooks.append(&mut self.render_hooks);
        hooks
    }

    fn free_id(&mut self, id: u32) {
        let slot = &mut self.slots[id as usize];
        slot.0 += 1;
        slot.1 = State::Free;
        self.free.push(id);
    }

    fn ancestors_include(&self, relation: usize, mut entity: Entity, wanted: Entity) -> bool {
        while let Some(&target) = self.targets[relation].get(&entity) {
            if target == wanted {
                return true;
            }
            entity = target;
        }
        false
    }

    fn unlink(&mut self, relation: usize, source: Entity) -> Option<Entity> {
        let target = self.targets[relation].remove(&source)?;
        let list = self.sources[relation].get_mut(&target).unwrap();
        list.retain(|&other| other != source);
        Some(target)
    }

    /// `set_<relation>`: whether it succeeded.
    fn link(&mut self, relation: usize, source: Entity, target: Entity) -> bool {
        if !self.is_alive(source) || !self.is_alive(target) || source == target {
            return false;
        }
        if self.targets[relation].get(&source) == Some(&target) {
            return true;
        }
        if self.ancestors_include(relation, target, source) {
            return false;
        }
        self.unlink(relation, source);
        self.targets[relation].insert(source, target);
        self.sources[relation]
            .entry(target)
            .or_default()
            .push(source);
        true
    }

    /// Takes `entity` out: its links, its sources' links (a cascade's sources are about to
    /// go too), its values, its id.
    fn detach(&mut self, entity: Entity) {
        for relation in 0..RELATIONS {
            self.unlink(relation, entity);
            for source in self.sources[relation].remove(&entity).unwrap_or_default() {
                self.targets[relation].remove(&source);
            }
        }
        self.positions.remove(&entity);
        self.velocities.remove(&entity);
        self.disabled.remove(&entity);
        if self.tints.remove(&entity).is_some() {
            self.render_hooks.push((Hook::TintRemoved, entity));
        }
        self.render_hooks.push((Hook::Despawned, entity));
        self.free_id(entity.id);
    }

    /// `despawn`: the entity and, depth first in pre-order, its sources in the cascading
    /// relations (relation by relation, each in link order).
    fn despawn(&mut self, entity: Entity) -> bool {
        if !self.is_alive(entity) {
            return false;
        }
        let mut stack = vec![entity];
        while let Some(next) = stack.pop() {
            if !self.is_alive(next) {
                continue;
            }
            let first = stack.len();
            for (sources, cascades) in self.sources.iter().zip(CASCADES) {
                if cascades {
                    stack.extend(sources.get(&next).into_iter().flatten());
                }
            }
            stack[first..].reverse();
            self.detach(next);
        }
        true
    }

    /// Gives spawned `entities` a built entity's values, linked in order.
    fn place_built(&mut self, entities: &[Entity], built: Built) {
        for &entity in entities {
            self.positions.insert(entity, built.position);
            if let Some(tint) = built.tint {
                self.tint(entity, tint);
            }
        }
        for &entity in entities {
            let (relation, target) = built.link;
            self.link(relation, entity, target);
        }
    }

    /// The game's `disable` (`true`) or `enable`: whether `entity` is alive.
    fn set_disabled(&mut self, entity: Entity, disabled: bool) -> bool {
        let alive = self.is_alive(entity);
        if alive && disabled {
            self.disabled.insert(entity);
        } else {
            self.disabled.remove(&entity);
        }
        alive
    }

    fn activate(&mut self, entity: Entity) {
        self.slots[entity.id as usize].1 = State::Alive;
        self.core_hooks.push((Hook::Spawned, entity));
    }
}

fn builder(built: Built) -> GameEntityBuilder {
    let builder = GameEntityBuilder::new().with_position(Position(built.position));
    let builder = match built.tint {
        Some(tint) => builder.with_tint(Tint(tint)),
        None => builder,
    };
    let (relation, target) = built.link;
    match relation {
        0 => builder.with_child_of(target),
        1 => builder.with_owned_by(target),
        _ => builder.with_seen_by(target),
    }
}

fn set_link(game: &mut Game, relation: usize, source: Entity, target: Entity) -> bool {
    match relation {
        0 => game.core.set_child_of(source, target).is_ok(),
        1 => game.render.set_owned_by(source, target).is_ok(),
        _ => game.render.set_seen_by(source, target).is_ok(),
    }
}

fn remove_link(game: &mut Game, relation: usize, source: Entity) -> Option<Entity> {
    match relation {
        0 => game.core.remove_child_of(source),
        1 => game.render.remove_owned_by(source),
        _ => game.render.remove_seen_by(source),
    }
}

fn target_of(game: &Game, relation: usize, source: Entity) -> Option<Entity> {
    match relation {
        0 => game.core.get_child_of(source),
        1 => game.render.get_owned_by(source),
        _ => game.render.get_seen_by(source),
    }
}

fn sources_of(game: &Game, relation: usize, target: Entity) -> Vec<Entity> {
    match relation {
        0 => game.core.get_children(target).to_vec(),
        1 => game.render.get_belongings(target).to_vec(),
        _ => game.render.get_seen(target).to_vec(),
    }
}

fn run(operations: Vec<Operation>) {
    let mut game = Game::new();
    let mut model = Model::default();
    for (step, operation) in operations.into_iter().enumerate() {
        let label = format!("step {step}: {operation:?}");
        match operation {
            Operation::Spawn => {
                let expected = model.issue(State::Alive);
                assert_eq!(game.spawn(), expected, "{label}");
            }
            Operation::SpawnMany(count) => {
                let expected: Vec<Entity> = (0..count).map(|_| model.issue(State::Alive)).collect();
                assert_eq!(game.spawn_entities(count), expected, "{label}");
            }
            Operation::Build(count, position, tint, relation, target) => {
                let Some(target) = model.pick(target) else {
                    continue;
                };
                let built = Built {
                    position,
                    tint: (tint % 3 != 0).then_some(tint),
                    link: (relation, target),
                };
                let expected: Vec<Entity> = (0..count).map(|_| model.issue(State::Alive)).collect();
                model.place_built(&expected, built);
                let spawned = match count {
                    1 => vec![builder(built).spawn_one(&mut game)],
                    _ => builder(built).spawn(&mut game, count),
                };
                assert_eq!(spawned, expected, "{label}");
            }
            Operation::QueueBuild(position, relation, target) => {
                let Some(target) = model.pick(target) else {
                    continue;
                };
                let built = Built {
                    position,
                    tint: None,
                    link: (relation, target),
                };
                let expected = model.issue(State::Reserved);
                assert_eq!(game.commands().queue_spawn(builder(built)), expected);
                model.queue.push(Queued::Spawn(expected, built));
            }
            Operation::QueueSpawn(count) => {
                let expected: Vec<Entity> =
                    (0..count).map(|_| model.issue(State::Reserved)).collect();
                assert_eq!(game.commands().queue_spawn_entities(count), expected);
                model.queue.push(Queued::SpawnEntities(expected));
            }
            Operation::Despawn(pick) => {
                if let Some(entity) = model.pick(pick) {
                    assert_eq!(game.despawn(entity), model.despawn(entity), "{label}");
                }
            }
            Operation::DespawnMany(picks) => {
                let entities: Vec<Entity> =
                    picks.iter().filter_map(|&pick| model.pick(pick)).collect();
                let expected: Vec<Entity> = entities
                    .iter()
                    .copied()
                    .filter(|&entity| model.despawn(entity))
                    .collect();
                assert_eq!(game.despawn_entities(&entities), expected, "{label}");
            }
            Operation::SetPosition(pick, x) => {
                if let Some(entity) = model.pick(pick) {
                    let alive = model.is_alive(entity);
                    assert_eq!(game.core.set_position(entity, Position(x)), alive);
                    if alive {
                        model.positions.insert(entity, x);
                    }
                }
            }
            Operation::SetVelocity(pick, x) => {
                if let Some(entity) = model.pick(pick) {
                    let alive = model.is_alive(entity);
                    assert_eq!(game.core.set_velocity(entity, Velocity(x)), alive);
                    if alive {
                        model.velocities.insert(entity, x);
                        model.positions.entry(entity).or_insert(0);
                    }
                }
            }
            Operation::RemovePosition(pick) => {
                if let Some(entity) = model.pick(pick) {
                    let expected = if model.is_alive(entity) {
                        model.velocities.remove(&entity);
                        model.positions.remove(&entity)
                    } else {
                        None
                    };
                    assert_eq!(
                        game.core.remove_position(entity).map(|position| position.0),
                        expected,
                        "{label}"
                    );
                }
            }
            Operation::Disable(pick, disabled) => {
                if let Some(entity) = model.pick(pick) {
                    let expected = model.set_disabled(entity, disabled);
                    let done = if disabled {
                        game.disable(entity)
                    } else {
                        game.enable(entity)
                    };
                    assert_eq!(done, expected, "{label}");
                }
            }
            Operation::QueueDisable(pick, disabled) => {
                if let Some(entity) = model.pick(pick) {
                    let mut commands = game.commands();
                    if disabled {
                        commands.queue_disable(entity);
                    } else {
                        commands.queue_enable(entity);
                    }
                    model.queue.push(Queued::Disable(entity, disabled));
                }
            }
            Operation::SetTint(pick, tint) => {
                if let Some(entity) = model.pick(pick) {
                    let alive = model.is_alive(entity);
                    assert_eq!(game.render.set_tint(entity, Tint(tint)), alive);
                    if alive {
                        model.tint(entity, tint);
                    }
                }
            }
            Operation::RemoveTint(pick) => {
                if let Some(entity) = model.pick(pick) {
                    let expected = if model.is_alive(entity) {
                        model.tints.remove(&entity)
                    } else {
                        None
                    };
                    if expected.is_some() {
                        model.render_hooks.push((Hook::TintRemoved, entity));
                    }
                    assert_eq!(game.render.remove_tint(entity).map(|tint| tint.0), expected);
                }
            }
            Operation::Link(relation, source, target) => {
                if let (Some(source), Some(target)) = (model.pick(source), model.pick(target)) {
                    let expected = model.link(relation, source, target);
                    assert_eq!(
                        set_link(&mut game, relation, source, target),
                        expected,
                        "{label}"
                    );
                }
            }
            Operation::Unlink(relation, source) => {
                if let Some(source) = model.pick(source) {
                    let expected = if model.is_alive(source) {
                        model.unlink(relation, source)
                    } else {
                        None
                    };
                    assert_eq!(
                        remove_link(&mut game, relation, source),
                        expected,
                        "{label}"
                    );
                }
            }
            Operation::QueueDespawn(pick) => {
                if let Some(entity) = model.pick(pick) {
                    game.commands().queue_despawn(entity);
                    model.queue.push(Queued::Despawn(entity));
                }
            }
            Operation::QueueSetTint(pick, tint) => {
                if let Some(entity) = model.pick(pick) {
                    game.commands().render().queue_set_tint(entity, Tint(tint));
                    model.queue.push(Queued::Tint(entity, tint));
                }
            }
            Operation::Apply => {
                let report = game.apply_commands();
                // The hooks of the changes made directly run first, then the commands are
                // applied, then their changes' hooks run.
                let mut hooks = model.take_hooks();
                // Every command in the order queued, the game's and the sub-world's alike.
                let (mut applied, mut skipped) = (0, 0);
                for queued in std::mem::take(&mut model.queue) {
                    let done = match queued {
                        Queued::Spawn(entity, built) => {
                            model.activate(entity);
                            model.place_built(&[entity], built);
                            true
                        }
                        Queued::SpawnEntities(entities) => {
                            for &entity in &entities {
                                model.activate(entity);
                            }
                            true
                        }
                        Queued::Despawn(entity) => model.despawn(entity),
                        Queued::Disable(entity, disabled) => model.set_disabled(entity, disabled),
                        Queued::Tint(entity, tint) => {
                            let alive = model.is_alive(entity);
                            if alive {
                                model.tint(entity, tint);
                            }
                            alive
                        }
                    };
                    if done {
                        applied += 1;
                    } else {
                        skipped += 1;
                    }
                }
                assert_eq!(
                    (report.applied, report.skipped),
                    (applied, skipped),
                    "{label}"
                );
                hooks.append(&mut model.take_hooks());
                let fired = std::mem::take(&mut game.resources.fired);
                assert_eq!(fired, hooks, "{label}: the hooks that ran");
            }
            Operation::Clear => {
                game.clear_commands();
                model.queue.clear();
                // Every reservation comes back, in ascending id order.
                for id in 0..model.slots.len() as u32 {
                    if model.slots[id as usize].1 == State::Reserved {
                        model.free_id(id);
                    }
                }
            }
            Operation::Step => game.step(),
        }
        agree(&game, &model, &label);
    }
}

/// Every sub-world agrees with the model: liveness, values, links and each target's sources
/// in link order.
fn agree(game: &Game, model: &Model, label: &str) {
    if let Err(error) = game.check_invariants() {
        panic!("{label}: {error}");
    }
    let waiting = !(model.core_hooks.is_empty() && model.render_hooks.is_empty());
    assert_eq!(
        game.core.hooks_pending() || game.render.hooks_pending(),
        waiting,
        "{label}: hooks pending"
    );
    let alive = model.seen.iter().filter(|&&e| model.is_alive(e)).count();
    assert_eq!(game.entity_count(), alive, "{label}");
    // Every sub-world's queries skip the disabled entities, and only them.
    let enabled = alive - model.disabled.len();
    assert_eq!(game.core.query_entities(0).count(), enabled, "{label}");
    assert_eq!(game.render.query_entities(0).count(), enabled, "{label}");
    for &entity in &model.seen {
        let alive = model.is_alive(entity);
        assert_eq!(game.is_alive(entity), alive, "{label}: {entity}");
        assert_eq!(game.core.is_alive(entity), alive, "{label}: {entity}");
        assert_eq!(game.render.is_alive(entity), alive, "{label}: {entity}");
        assert_eq!(
            game.core.get_position(entity).map(|position| position.0),
            model.positions.get(&entity).copied(),
            "{label}: {entity}'s position"
        );
        assert_eq!(
            game.core.get_velocity(entity).map(|velocity| velocity.0),
            model.velocities.get(&entity).copied(),
            "{label}: {entity}'s velocity"
        );
        assert_eq!(
            game.is_disabled(entity),
            model.disabled.contains(&entity),
            "{label}: {entity} disabled"
        );
        assert_eq!(
            game.render.get_tint(entity).map(|tint| tint.0),
            model.tints.get(&entity).copied(),
            "{label}: {entity}'s tint"
        );
        for relation in 0..RELATIONS {
            assert_eq!(
                target_of(game, relation, entity),
                model.targets[relation].get(&entity).copied(),
                "{label}: {entity}'s target in relation {relation}"
            );
            let expected = if alive {
                model.sources[relation]
                    .get(&entity)
                    .cloned()
                    .unwrap_or_default()
            } else {
                Vec::new()
            };
            assert_eq!(
                sources_of(game, relation, entity),
                expected,
                "{label}: {entity}'s sources in relation {relation}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn the_game_follows_the_model(operations in prop::collection::vec(operation(), 1..150)) {
        run(operations);
    }
}
