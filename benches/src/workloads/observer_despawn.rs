//! `observer_despawn` (issue 25): despawning with code reacting to it. A pass is one frame, as
//! in `entity_cycle`: despawn the 10,000 entities with `A` the previous frame spawned, letting
//! one on-despawn reaction count each, then batch-spawn the next 10,000 (the harness has no
//! untimed step between passes, so the spawn is timed too, alike for every contender). The
//! `A` values depend on the frame, so the checksum (every `A` alive and the despawns counted,
//! 10,000 per pass) sees the latest frame, and a contender whose reaction did not fire once
//! per entity would not match.
//!
//! archetypal's `on_despawn` hook runs at the world's sync point, so its pass calls
//! `apply_commands()` after the despawn, inside the timed region. `archetypal [no hooks]` is
//! the same world without its `Hooks` block, counting from what `despawn_entities` returns.
//! bevy_ecs: an `on_despawn` component hook on `A` (bevy runs it per component of a despawned
//! entity; `A` is the only one) and an `On<Despawn<A>>` observer. flecs: an `OnRemove`
//! observer on `A` (flecs v4 has no despawn event: deleting an entity removes its
//! components). hecs and freecs have neither hooks nor observers: no row.

use std::cell::Cell;
use std::rc::Rc;

use bevy_ecs::resource::Resource;

use crate::workloads::add_remove::A;
use crate::workloads::entity_cycle::{CycleWorld, contender};
use crate::{Checksum, Kind, Workload};

/// Entities despawned, and spawned, per frame.
pub const PER_FRAME: usize = 10_000;

/// The `A` of the `index`-th entity spawned in frame `frame`.
#[inline]
fn a_value(index: usize, frame: u32) -> A {
    A(index as f32 + 0.5 * frame as f32)
}

/// Checksum of every `A` alive and of the despawns counted over every frame so far.
pub fn checksum<'a>(a_values: impl IntoIterator<Item = &'a A>, despawned: u64) -> u64 {
    let mut sum = Checksum::new();
    a_values.into_iter().for_each(|a| sum.f32(0, a.0));
    sum.count(1, despawned);
    sum.finish()
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "observer_despawn",
        description: "one frame: despawn the last frame's 10,000 entities (one on-despawn reaction counting each), spawn 10,000 new ones",
        contenders: vec![
            contender::<Archetypal>(
                "archetypal",
                "Hooks { on_despawn => .. }; despawn_entities(&handles), apply_commands(), spawn_batch(mask, n, ..)",
                Kind::Archetypal,
            ),
            contender::<ArchetypalPlain>(
                "archetypal [no hooks]",
                "the same world without a Hooks block: despawn_entities(&handles) (counting what it returns), apply_commands(), spawn_batch",
                Kind::ArchetypalVariant,
            ),
            contender::<BevyHooks>(
                "bevy_ecs [hooks]",
                "register_component_hooks::<A>().on_despawn(fn); World::despawn(e) per handle, World::spawn_batch",
                Kind::Peer,
            ),
            contender::<BevyObservers>(
                "bevy_ecs [observers]",
                "add_observer(|_: On<Despawn<A>>, ResMut<..>| ..); World::despawn(e) per handle, World::spawn_batch",
                Kind::Peer,
            ),
            contender::<Flecs>(
                "flecs [observers]",
                "observer::<flecs::OnRemove, ()>().with(A::id()).each(..); destruct(e) per handle, entity_bulk(n) + column slices",
                Kind::Peer,
            ),
        ],
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world with an `on_despawn` hook.
pub mod archetypal_hooked {
    pub use crate::workloads::add_remove::A;

    archetypal::ecs! {
        World {
            a: A => A_BIT,
        }
        Resources {
            despawned: u64,
        }
        Hooks {
            on_despawn => despawned,
        }
    }

    fn despawned(world: &mut WorldParts<'_>, _entity: archetypal::Entity, _dead: &WorldRemoved) {
        world.resources.despawned += 1;
    }
}

/// The same world without the `Hooks` block.
pub mod archetypal_plain {
    pub use crate::workloads::add_remove::A;

    archetypal::ecs! {
        World {
            a: A => A_BIT,
        }
        Resources {
            despawned: u64,
        }
    }
}

/// The two archetypal worlds' `CycleWorld`: the same code on both, except where the count of
/// despawns comes from (the hook, or what `despawn_entities` returns).
macro_rules! archetypal_cycle {
    ($cycle:ident, $world:ident, $count:expr) => {
        struct $cycle {
            world: $world::World,
            spawned: Vec<archetypal::Entity>,
        }

        impl $cycle {
            fn spawn(&mut self, frame: u32) {
                let mut next = 0;
                self.spawned = self
                    .world
                    .spawn_batch($world::A_BIT, PER_FRAME, |table, row| {
                        table.a[row] = a_value(next, frame);
                        next += 1;
                    });
            }
        }

        impl CycleWorld for $cycle {
            fn new() -> Self {
                let mut cycle = $cycle {
                    world: $world::World::new(),
                    spawned: Vec::new(),
                };
                cycle.spawn(0);
                cycle
            }

            fn frame(&mut self, frame: u32) {
                let despawned = self.world.despawn_entities(&self.spawned);
                let count: fn(&mut $world::World, Vec<archetypal::Entity>) = $count;
                count(&mut self.world, despawned);
                self.world.apply_commands();
                self.spawn(frame);
            }

            fn checksum(&mut self) -> u64 {
                checksum(
                    self.world.tables().iter().flat_map(|table| &table.a),
                    self.world.resources.despawned,
                )
            }
        }
    };
}

// The hook counts.
archetypal_cycle!(Archetypal, archetypal_hooked, |_, _| {});
archetypal_cycle!(ArchetypalPlain, archetypal_plain, |world, despawned| {
    world.resources.despawned += despawned.len() as u64
});

// ----- bevy_ecs -----------------------------------------------------------------------------

/// What bevy_ecs's hook and observer count.
#[derive(Resource, Default)]
struct Despawned(u64);

fn bevy_despawned(
    mut world: bevy_ecs::world::DeferredWorld<'_>,
    _: bevy_ecs::lifecycle::HookContext,
) {
    world.resource_mut::<Despawned>().0 += 1;
}

struct Bevy {
    world: bevy_ecs::world::World,
    spawned: Vec<bevy_ecs::entity::Entity>,
}

impl Bevy {
    /// A world with its `Despawned` count, the reaction `register` declares (before any `A`
    /// exists, as bevy requires of hooks) and frame 0's entities.
    fn new(register: fn(&mut bevy_ecs::world::World)) -> Self {
        let mut world = bevy_ecs::world::World::new();
        world.init_resource::<Despawned>();
        register(&mut world);
        let mut bevy = Bevy {
            world,
            spawned: Vec::with_capacity(PER_FRAME),
        };
        bevy.spawn(0);
        bevy
    }

    fn spawn(&mut self, frame: u32) {
        self.spawned.clear();
        self.spawned.extend(
            self.world
                .spawn_batch((0..PER_FRAME).map(|index| a_value(index, frame))),
        );
    }

    fn frame(&mut self, frame: u32) {
        for &entity in &self.spawned {
            self.world.despawn(entity);
        }
        self.spawn(frame);
    }

    fn checksum(&mut self) -> u64 {
        let a_values: Vec<A> = self
            .world
            .query::<&A>()
            .iter(&self.world)
            .copied()
            .collect();
        checksum(&a_values, self.world.resource::<Despawned>().0)
    }
}

/// bevy_ecs with an `on_despawn` component hook on `A`.
struct BevyHooks(Bevy);

impl CycleWorld for BevyHooks {
    fn new() -> Self {
        BevyHooks(Bevy::new(|world| {
            world
                .register_component_hooks::<A>()
                .on_despawn(bevy_despawned);
        }))
    }
    fn frame(&mut self, frame: u32) {
        self.0.frame(frame);
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

/// bevy_ecs with an `On<Despawn<A>>` observer.
struct BevyObservers(Bevy);

impl CycleWorld for BevyObservers {
    fn new() -> Self {
        BevyObservers(Bevy::new(|world| {
            use bevy_ecs::lifecycle::Despawn;
            use bevy_ecs::observer::On;
            use bevy_ecs::system::ResMut;
            world.add_observer(|_: On<Despawn<A>>, mut despawned: ResMut<Despawned>| {
                despawned.0 += 1;
            });
        }))
    }
    fn frame(&mut self, frame: u32) {
        self.0.frame(frame);
    }
    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

// ----- flecs --------------------------------------------------------------------------------

struct Flecs {
    world: flecs_ecs::prelude::World,
    spawned: Vec<flecs_ecs::prelude::Entity>,
    /// Shared with the observer's closure, which flecs requires to be `'static`.
    despawned: Rc<Cell<u64>>,
}

impl Flecs {
    fn spawn(&mut self, frame: u32) {
        self.spawned = self.world.entity_bulk(PER_FRAME as u32).add::<A>().build();
        let mut rows = crate::worlds::flecs_new_rows(&self.world, &self.spawned).expect("a frame");
        use flecs_ecs::prelude::TableOperations;
        for (index, a) in rows
            .get_mut::<A>()
            .expect("an A column")
            .iter_mut()
            .enumerate()
        {
            *a = a_value(index, frame);
        }
    }
}

impl CycleWorld for Flecs {
    fn new() -> Self {
        use flecs_ecs::prelude::{ComponentId, QueryBuilderImpl, SystemAPI, flecs};
        let world = flecs_ecs::prelude::World::new();
        let despawned = Rc::new(Cell::new(0));
        let count = Rc::clone(&despawned);
        world
            .observer::<flecs::OnRemove, ()>()
            .with(A::id())
            .each(move |()| count.set(count.get() + 1));
        let mut cycle = Flecs {
            world,
            spawned: Vec::new(),
            despawned,
        };
        cycle.spawn(0);
        cycle
    }

    fn frame(&mut self, frame: u32) {
        for &entity in &self.spawned {
            self.world.entity_from_id(entity).destruct();
        }
        self.spawn(frame);
    }

    fn checksum(&mut self) -> u64 {
        use flecs_ecs::prelude::QueryAPI;
        let mut a_values = Vec::new();
        self.world.new_query::<&A>().each(|a| a_values.push(*a));
        checksum(&a_values, self.despawned.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hook counts each despawned entity once, and a frame leaves one frame's entities.
    #[test]
    fn the_hook_counts_every_despawn_once() {
        let mut cycle = Archetypal::new();
        cycle.frame(1);
        cycle.frame(2);
        assert_eq!(cycle.world.resources.despawned, 2 * PER_FRAME as u64);
        assert_eq!(cycle.world.entity_count(), PER_FRAME);
        cycle.world.check_invariants().expect("consistent");

        let mut observed = BevyObservers::new();
        observed.frame(1);
        observed.frame(2);
        assert_eq!(
            observed.0.world.resource::<Despawned>().0,
            2 * PER_FRAME as u64
        );
    }
}
