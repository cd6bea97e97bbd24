//! `observer_add_remove` (issue 25): `add_remove` with code reacting to it. 10,000 entities
//! with `A`; a pass adds `B` to every one and lets the reactions run, then removes `B` from
//! every one and lets them run again. One reaction is declared on `B`'s addition and one on
//! its removal, each counting what it saw: the checksum holds both counts (10,000 each per
//! pass), so a contender whose reactions did not fire once per entity would not match.
//!
//! archetypal's hooks run at the world's sync point, not inside the operation, so its pass
//! calls `apply_commands()` after each half, inside the timed region. `archetypal [no hooks]`
//! runs the same operations on the same world declared without its `Hooks` block: the plain
//! add/remove cost, which a world pays whether or not it could have hooks. It has no reaction
//! to count with, so it counts from table lengths after each half (entities holding `B`), the
//! way `add_remove` does.
//!
//! bevy_ecs runs its reactions inside the operation: component hooks (`on_add` / `on_remove`,
//! registered with `World::register_component_hooks`, a plain function given a
//! `DeferredWorld`) and observers (`On<Add<B>>` / `On<Remove<B>>` systems, each an entity of
//! the world). Both bevy rows add `B` with `World::insert_batch`, which bevy documents as
//! faster than inserting one by one (it keeps one `BundleInserter` while the entities share an
//! archetype; the hooks row measured 10-20% faster with it than with `entity_mut(e).insert(B)`
//! per entity, timed in the same rounds); bevy has no batch removal, so `B` goes with
//! `entity_mut(e).remove::<B>()`. flecs has `OnAdd` / `OnRemove` observers. hecs and freecs
//! have neither hooks nor observers: no row.

use std::cell::Cell;
use std::rc::Rc;

use bevy_ecs::resource::Resource;

use crate::workloads::add_remove::{A, B, ENTITIES, a_value, flecs_spawn_a};
use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Checksum of every `A`, how many entities still hold `B` (0 after a pass), and how many
/// additions and removals of `B` were counted over every pass so far.
pub fn checksum<'a>(
    a_values: impl IntoIterator<Item = &'a A>,
    with_b: usize,
    added: u64,
    removed: u64,
) -> u64 {
    let mut sum = Checksum::new();
    a_values.into_iter().for_each(|a| sum.f32(0, a.0));
    sum.count(1, with_b as u64);
    sum.count(2, added);
    sum.count(3, removed);
    sum.finish()
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "observer_add_remove",
        description: "add B to 10,000 entities with A, then remove it, one reaction counting each",
        contenders: vec![
            archetypal(),
            archetypal_no_hooks(),
            bevy_hooks(),
            bevy_observers(),
            flecs_observers(),
        ],
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world with a hook on `B`'s addition and one on its removal.
pub mod archetypal_hooked {
    pub use crate::workloads::add_remove::{A, B};

    archetypal::ecs! {
        World {
            a: A => A_BIT,
            b: B => B_BIT,
        }
        Resources {
            added: u64,
            removed: u64,
        }
        Hooks {
            on_add(B_BIT) => b_added,
            on_remove(B_BIT) => b_removed,
        }
    }

    fn b_added(world: &mut WorldParts<'_>, _entity: archetypal::Entity) {
        world.resources.added += 1;
    }

    fn b_removed(world: &mut WorldParts<'_>, _entity: archetypal::Entity, _removed: &WorldRemoved) {
        world.resources.removed += 1;
    }
}

/// The same world without the `Hooks` block.
pub mod archetypal_plain {
    pub use crate::workloads::add_remove::{A, B};

    archetypal::ecs! {
        World {
            a: A => A_BIT,
            b: B => B_BIT,
        }
        Resources {
            added: u64,
            removed: u64,
        }
    }
}

/// Spawns the 10,000 entities with `A` into either archetypal world (the two types differ
/// only in their hooks).
macro_rules! archetypal_setup {
    ($world:path, $a_bit:path) => {{
        let mut world = <$world>::new();
        let mut next = 0;
        let entities = world.spawn_batch($a_bit, ENTITIES, |table, row| {
            table.a[row] = a_value(next);
            next += 1;
        });
        (world, entities)
    }};
}

/// How many entities of an archetypal world hold `B`: the length of every table's `B` column.
macro_rules! archetypal_with_b {
    ($world:expr) => {
        $world
            .tables()
            .iter()
            .map(|table| table.b.len())
            .sum::<usize>()
    };
}

struct Archetypal {
    world: archetypal_hooked::World,
    entities: Vec<archetypal::Entity>,
}

impl Pass for Archetypal {
    fn run(&mut self) {
        for &entity in &self.entities {
            self.world.add_components(entity, archetypal_hooked::B_BIT);
        }
        self.world.apply_commands();
        for &entity in &self.entities {
            self.world
                .remove_components(entity, archetypal_hooked::B_BIT);
        }
        self.world.apply_commands();
    }
    fn checksum(&mut self) -> u64 {
        let tables = self.world.tables();
        checksum(
            tables.iter().flat_map(|table| &table.a),
            archetypal_with_b!(self.world),
            self.world.resources.added,
            self.world.resources.removed,
        )
    }
}

fn archetypal() -> Contender {
    Contender {
        name: "archetypal",
        api: "Hooks { on_add(B) => .., on_remove(B) => .. }; add_components(e, B) / remove_components(e, B), apply_commands() after each half",
        kind: Kind::Archetypal,
        setup: || {
            let (world, entities) =
                archetypal_setup!(archetypal_hooked::World, archetypal_hooked::A_BIT);
            Box::new(Archetypal { world, entities })
        },
    }
}

struct ArchetypalPlain {
    world: archetypal_plain::World,
    entities: Vec<archetypal::Entity>,
}

impl Pass for ArchetypalPlain {
    fn run(&mut self) {
        for &entity in &self.entities {
            self.world.add_components(entity, archetypal_plain::B_BIT);
        }
        // The same sync point as the hooked world's (an empty queue here), so the two rows
        // differ only by the hooks.
        self.world.apply_commands();
        let with_b = archetypal_with_b!(self.world);
        self.world.resources.added += with_b as u64;
        for &entity in &self.entities {
            self.world
                .remove_components(entity, archetypal_plain::B_BIT);
        }
        self.world.apply_commands();
        self.world.resources.removed += (with_b - archetypal_with_b!(self.world)) as u64;
    }
    fn checksum(&mut self) -> u64 {
        let tables = self.world.tables();
        checksum(
            tables.iter().flat_map(|table| &table.a),
            archetypal_with_b!(self.world),
            self.world.resources.added,
            self.world.resources.removed,
        )
    }
}

fn archetypal_no_hooks() -> Contender {
    Contender {
        name: "archetypal [no hooks]",
        api: "the same world without a Hooks block: add_components / remove_components, apply_commands(), counts from table lengths",
        kind: Kind::ArchetypalVariant,
        setup: || {
            let (world, entities) =
                archetypal_setup!(archetypal_plain::World, archetypal_plain::A_BIT);
            Box::new(ArchetypalPlain { world, entities })
        },
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

/// What bevy_ecs's hooks and observers count.
#[derive(Resource, Default)]
struct Counts {
    added: u64,
    removed: u64,
}

fn bevy_b_added(
    mut world: bevy_ecs::world::DeferredWorld<'_>,
    _: bevy_ecs::lifecycle::HookContext,
) {
    world.resource_mut::<Counts>().added += 1;
}

fn bevy_b_removed(
    mut world: bevy_ecs::world::DeferredWorld<'_>,
    _: bevy_ecs::lifecycle::HookContext,
) {
    world.resource_mut::<Counts>().removed += 1;
}

struct Bevy {
    world: bevy_ecs::world::World,
    entities: Vec<bevy_ecs::entity::Entity>,
}

impl Bevy {
    /// A world of the 10,000 entities with `A`, its `Counts` resource, and the reactions
    /// `register` declares (before any `B` exists, as bevy requires of hooks).
    fn new(register: fn(&mut bevy_ecs::world::World)) -> Self {
        let mut world = bevy_ecs::world::World::new();
        world.init_resource::<Counts>();
        register(&mut world);
        let entities = world.spawn_batch((0..ENTITIES).map(a_value)).collect();
        Bevy { world, entities }
    }
}

impl Pass for Bevy {
    fn run(&mut self) {
        self.world
            .insert_batch(self.entities.iter().map(|&entity| (entity, B(0.0))));
        for &entity in &self.entities {
            self.world.entity_mut(entity).remove::<B>();
        }
    }
    fn checksum(&mut self) -> u64 {
        let a_values: Vec<A> = self
            .world
            .query::<&A>()
            .iter(&self.world)
            .copied()
            .collect();
        let with_b = self.world.query::<&B>().iter(&self.world).count();
        let counts = self.world.resource::<Counts>();
        checksum(&a_values, with_b, counts.added, counts.removed)
    }
}

fn bevy_hooks() -> Contender {
    Contender {
        name: "bevy_ecs [hooks]",
        api: "register_component_hooks::<B>().on_add(fn).on_remove(fn); insert_batch((e, B) per entity) / entity_mut(e).remove::<B>()",
        kind: Kind::Peer,
        setup: || {
            Box::new(Bevy::new(|world| {
                world
                    .register_component_hooks::<B>()
                    .on_add(bevy_b_added)
                    .on_remove(bevy_b_removed);
            }))
        },
    }
}

fn bevy_observers() -> Contender {
    Contender {
        name: "bevy_ecs [observers]",
        api: "add_observer(|_: On<Add<B>>, ResMut<..>| ..) and On<Remove<B>>; insert_batch((e, B) per entity) / entity_mut(e).remove::<B>()",
        kind: Kind::Peer,
        setup: || {
            Box::new(Bevy::new(|world| {
                use bevy_ecs::lifecycle::{Add, Remove};
                use bevy_ecs::observer::On;
                use bevy_ecs::system::ResMut;
                world.add_observer(|_: On<Add<B>>, mut counts: ResMut<Counts>| {
                    counts.added += 1;
                });
                world.add_observer(|_: On<Remove<B>>, mut counts: ResMut<Counts>| {
                    counts.removed += 1;
                });
            }))
        },
    }
}

// ----- flecs --------------------------------------------------------------------------------

struct Flecs {
    world: flecs_ecs::prelude::World,
    entities: Vec<flecs_ecs::prelude::Entity>,
    /// Shared with the observers' closures, which flecs requires to be `'static`.
    added: Rc<Cell<u64>>,
    removed: Rc<Cell<u64>>,
}

impl Pass for Flecs {
    fn run(&mut self) {
        use flecs_ecs::prelude::ComponentId;
        for &entity in &self.entities {
            self.world.entity_from_id(entity).add(B::id());
        }
        for &entity in &self.entities {
            self.world.entity_from_id(entity).remove(B::id());
        }
    }
    fn checksum(&mut self) -> u64 {
        use flecs_ecs::prelude::{ComponentId, QueryAPI};
        let mut a_values = Vec::new();
        self.world.new_query::<&A>().each(|a| a_values.push(*a));
        let with_b = self.world.count(B::id()) as usize;
        checksum(&a_values, with_b, self.added.get(), self.removed.get())
    }
}

/// An observer of `Event` on `B` bumping `count` once per entity.
fn flecs_count_b<Event: flecs_ecs::prelude::ComponentId>(
    world: &flecs_ecs::prelude::World,
    count: &Rc<Cell<u64>>,
) {
    use flecs_ecs::prelude::{ComponentId, QueryBuilderImpl, SystemAPI};
    let count = Rc::clone(count);
    world
        .observer::<Event, ()>()
        .with(B::id())
        .each(move |()| count.set(count.get() + 1));
}

fn flecs_observers() -> Contender {
    Contender {
        name: "flecs [observers]",
        api: "observer::<flecs::OnAdd, ()>().with(B::id()).each(..) and flecs::OnRemove; entity_from_id(e).add(B::id()) / .remove(B::id())",
        kind: Kind::Peer,
        setup: || {
            use flecs_ecs::prelude::flecs;
            let world = flecs_ecs::prelude::World::new();
            let (added, removed) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
            flecs_count_b::<flecs::OnAdd>(&world, &added);
            flecs_count_b::<flecs::OnRemove>(&world, &removed);
            let entities = flecs_spawn_a(&world);
            Box::new(Flecs {
                world,
                entities,
                added,
                removed,
            })
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each reaction fires once per entity per pass, and a pass leaves no `B` behind.
    #[test]
    fn every_reaction_counts_each_entity_once_per_pass() {
        let (world, entities) =
            archetypal_setup!(archetypal_hooked::World, archetypal_hooked::A_BIT);
        let mut hooked = Archetypal { world, entities };
        hooked.run();
        hooked.run();
        let resources = &hooked.world.resources;
        assert_eq!((resources.added, resources.removed), (20_000, 20_000));
        assert_eq!(archetypal_with_b!(hooked.world), 0);
        hooked.world.check_invariants().expect("consistent");

        for register in [bevy_hooks(), bevy_observers()].map(|contender| contender.setup) {
            let mut bevy = register();
            bevy.run();
            bevy.run();
            assert_eq!(bevy.checksum(), hooked.checksum());
        }
    }
}
