//! `change_parent`: re-linking children to other parents (issue 27).
//!
//! 1,000 parents and 100,000 children, child `i` linked to parent `i % 1,000` at setup. A pass
//! re-links a tenth of the children, a subset that rotates with the pass number (children `i`
//! with `(i + pass) % 10 == 0`), each to parent `(i + 37 * pass) % 1,000`: 10,000 re-links,
//! the same ones for every contender. Parents carry a `ParentIndex`, children a `ChildIndex`;
//! the checksum walks every child's link to its parent and hashes each (child index, parent
//! index) pair, so it sees every re-link, and a second pass changes it.
//!
//! - archetypal: a `child_of / children` relation, `set_child_of(child, parent)` (the old
//!   parent's `children` list loses the child, in order, the new one's gains it).
//! - bevy_ecs: its built-in `ChildOf`, one `World::insert_batch` of `(child, ChildOf(parent))`
//!   per pass (documented as faster than inserting one by one, and it measured so here against
//!   `entity_mut(child).insert(..)`), whose hooks move each child from the old parent's
//!   `Children` to the new one's.
//! - flecs: its built-in `ChildOf` pair, `child_of(parent)` (an exclusive relationship: the new
//!   pair replaces the old). Pairs fragment, so each parent's children are a table of their
//!   own and a re-link moves the child's row to the new parent's table.
//! - hecs has no relations: its rows are the hand-kept forms. `hecs`: a `Parent(Entity)`
//!   component rewritten in place (`view_mut` once, `get_mut(child)` per child), one direction
//!   only. `hecs, two-way`: also a `Children(Vec<Entity>)` on every parent, kept as
//!   archetypal's list is (the old parent's loses the child in order, the new one's gains
//!   it): what a game that walks children writes.
//! - `Vec`: the floor of a link kept both ways, as archetypal's is: a parent index per child
//!   and a list of children per parent, re-linking removing the child from the old list (the
//!   others keep their order) and pushing it on the new one.
//!
//! freecs's `ecs!` tier has no relations: no row.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity as BevyEntity;
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::world::World as BevyWorld;
use flecs_ecs::macros::Component as FlecsComponent;

use super::parent_propagate::Parent;
use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Parents.
pub const PARENTS: usize = 1_000;
/// Children, spread evenly over the parents at setup.
pub const CHILDREN: usize = 100_000;

/// A parent's index among the parents.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct ParentIndex(pub u32);

/// A child's index among the children.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct ChildIndex(pub u32);

/// The parent of child `child` at setup.
fn first_parent(child: usize) -> usize {
    child % PARENTS
}

/// The children pass `pass` re-links: those with `(child + pass) % 10 == 0`.
fn moved_children(pass: u32) -> impl Iterator<Item = usize> {
    let first = (10 - pass as usize % 10) % 10;
    (first..CHILDREN).step_by(10)
}

/// The parent child `child` is re-linked to by pass `pass`.
fn new_parent(child: usize, pass: u32) -> usize {
    (child + 37 * pass as usize) % PARENTS
}

/// The checksum: one (child index, parent index) pair per linked child.
#[derive(Default)]
struct Sum {
    sum: Checksum,
    linked: u64,
}

impl Sum {
    fn link(&mut self, child: ChildIndex, parent: ParentIndex) {
        let pair = u64::from(child.0) * PARENTS as u64 + u64::from(parent.0);
        self.sum.count(0, pair);
        self.linked += 1;
    }

    fn finish(mut self) -> u64 {
        self.sum.count(1, self.linked);
        self.sum.finish()
    }
}

/// The workload and its contenders.
pub fn workload() -> Workload {
    Workload {
        name: "change_parent",
        description: "re-link 10,000 of 100,000 children (a rotating tenth) to another of 1,000 parents",
        contenders: vec![
            contender::<Archetypal>(
                "archetypal",
                "set_child_of(child, parent) (relation child_of / children)",
                Kind::Archetypal,
            ),
            contender::<Hecs>(
                "hecs",
                "hand-kept Parent(Entity), one way: view_mut::<&mut Parent>() once, get_mut(child)",
                Kind::Peer,
            ),
            contender::<HecsTwoWay>(
                "hecs, two-way",
                "hand-kept Parent(Entity) and Children(Vec<Entity>): the old parent's list loses the child (in order), the new one's gains it",
                Kind::Peer,
            ),
            contender::<Bevy>(
                "bevy_ecs",
                "World::insert_batch((child, ChildOf(parent)) per child) (hooks update Children)",
                Kind::Peer,
            ),
            contender::<Flecs>(
                "flecs",
                "entity_from_id(child).child_of(parent) (built-in ChildOf pair: a table move)",
                Kind::Peer,
            ),
            contender::<VecFloor>(
                "Vec",
                "parent index per child + Vec of children per parent: remove, push",
                Kind::Baseline,
            ),
        ],
    }
}

/// One crate's parents and children.
trait Family: 'static {
    /// Every parent and child, child `i` linked to parent [`first_parent`]`(i)`.
    fn new() -> Self;
    /// Re-links every child of `moved` (by index) to its [`new_parent`] of pass `pass`.
    fn relink(&mut self, moved: impl Iterator<Item = usize>, pass: u32);
    fn checksum(&mut self) -> u64;
}

/// A family and the number of passes run on it.
struct Relinking<F> {
    family: F,
    passes: u32,
}

impl<F: Family> Pass for Relinking<F> {
    fn run(&mut self) {
        self.passes += 1;
        self.family.relink(moved_children(self.passes), self.passes);
    }
    fn checksum(&mut self) -> u64 {
        self.family.checksum()
    }
}

fn contender<F: Family>(name: &'static str, api: &'static str, kind: Kind) -> Contender {
    Contender {
        name,
        api,
        kind,
        setup: || {
            Box::new(Relinking {
                family: F::new(),
                passes: 0,
            })
        },
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world: parents and children, linked by `child_of`.
pub mod archetypal_family {
    pub use super::{ChildIndex, ParentIndex};

    archetypal::ecs! {
        World {
            parent_index: ParentIndex => PARENT_INDEX,
            child_index: ChildIndex => CHILD_INDEX,
        }
        Relations {
            child_of / children => CHILD_OF,
        }
    }
}

struct Archetypal {
    world: archetypal_family::World,
    parents: Vec<archetypal::Entity>,
    children: Vec<archetypal::Entity>,
}

impl Family for Archetypal {
    fn new() -> Self {
        use archetypal_family::{CHILD_INDEX, PARENT_INDEX};
        let mut world = archetypal_family::World::new();
        let parents = world.spawn_batch(PARENT_INDEX, PARENTS, |table, row| {
            table.parent_index[row] = ParentIndex(row as u32);
        });
        let children = world.spawn_batch(CHILD_INDEX, CHILDREN, |table, row| {
            table.child_index[row] = ChildIndex(row as u32);
        });
        for (index, &child) in children.iter().enumerate() {
            world
                .set_child_of(child, parents[first_parent(index)])
                .expect("a child below a parent");
        }
        Archetypal {
            world,
            parents,
            children,
        }
    }

    fn relink(&mut self, moved: impl Iterator<Item = usize>, pass: u32) {
        for child in moved {
            let parent = self.parents[new_parent(child, pass)];
            self.world
                .set_child_of(self.children[child], parent)
                .expect("a child below a parent");
        }
    }

    fn checksum(&mut self) -> u64 {
        use archetypal_family::CHILD_INDEX;
        let world = &self.world;
        let mut sum = Sum::default();
        world.for_each(CHILD_INDEX, 0, |child, table, row| {
            if let Some(parent) = world
                .get_child_of(child)
                .and_then(|parent| world.get_parent_index(parent))
            {
                sum.link(table.child_index[row], *parent);
            }
        });
        sum.finish()
    }
}

// ----- hecs ---------------------------------------------------------------------------------

struct Hecs {
    world: hecs::World,
    parents: Vec<hecs::Entity>,
    children: Vec<hecs::Entity>,
}

impl Family for Hecs {
    fn new() -> Self {
        let mut world = hecs::World::new();
        let parents: Vec<hecs::Entity> = world
            .spawn_batch((0..PARENTS).map(|index| (ParentIndex(index as u32),)))
            .collect();
        let children = world
            .spawn_batch((0..CHILDREN).map(|index| {
                (
                    ChildIndex(index as u32),
                    Parent(parents[first_parent(index)]),
                )
            }))
            .collect();
        Hecs {
            world,
            parents,
            children,
        }
    }

    /// One `view_mut` for the pass, then a lookup per child.
    fn relink(&mut self, moved: impl Iterator<Item = usize>, pass: u32) {
        let Hecs {
            world,
            parents,
            children,
        } = self;
        let mut links = world.view_mut::<&mut Parent>();
        for child in moved {
            links.get_mut(children[child]).expect("a child").0 = parents[new_parent(child, pass)];
        }
    }

    fn checksum(&mut self) -> u64 {
        let world = &self.world;
        let parents = world.view::<&ParentIndex>();
        let mut sum = Sum::default();
        for (child, parent) in world.query::<(&ChildIndex, &Parent)>().iter() {
            if let Some(parent) = parents.get(parent.0) {
                sum.link(*child, *parent);
            }
        }
        sum.finish()
    }
}

/// A parent's children, kept by hand beside each child's [`Parent`] (hecs, two-way).
struct Children(Vec<hecs::Entity>);

/// hecs with the link kept both ways by hand.
struct HecsTwoWay(Hecs);

impl Family for HecsTwoWay {
    fn new() -> Self {
        let mut family = Hecs::new();
        let mut lists: Vec<Vec<hecs::Entity>> = vec![Vec::new(); PARENTS];
        for (index, &child) in family.children.iter().enumerate() {
            lists[first_parent(index)].push(child);
        }
        for (&parent, list) in family.parents.iter().zip(lists) {
            family
                .world
                .insert_one(parent, Children(list))
                .expect("a parent");
        }
        HecsTwoWay(family)
    }

    /// A lookup per child for its link, and one per parent list it changes.
    fn relink(&mut self, moved: impl Iterator<Item = usize>, pass: u32) {
        let Hecs {
            world,
            parents,
            children,
        } = &mut self.0;
        for child_index in moved {
            let child = children[child_index];
            let parent = parents[new_parent(child_index, pass)];
            let old = {
                let mut link = world.get::<&mut Parent>(child).expect("a child");
                core::mem::replace(&mut link.0, parent)
            };
            let mut old_list = world.get::<&mut Children>(old).expect("a parent");
            if let Some(position) = old_list.0.iter().position(|&entity| entity == child) {
                old_list.0.remove(position);
            }
            drop(old_list);
            world
                .get::<&mut Children>(parent)
                .expect("a parent")
                .0
                .push(child);
        }
    }

    fn checksum(&mut self) -> u64 {
        self.0.checksum()
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

struct Bevy {
    world: BevyWorld,
    parents: Vec<BevyEntity>,
    children: Vec<BevyEntity>,
    /// A pass's new links, kept between passes (no allocation per pass).
    batch: Vec<(BevyEntity, ChildOf)>,
}

impl Family for Bevy {
    fn new() -> Self {
        let mut world = BevyWorld::new();
        let parents: Vec<BevyEntity> = world
            .spawn_batch((0..PARENTS).map(|index| ParentIndex(index as u32)))
            .collect();
        let children = world
            .spawn_batch((0..CHILDREN).map(|index| {
                (
                    ChildIndex(index as u32),
                    ChildOf(parents[first_parent(index)]),
                )
            }))
            .collect();
        Bevy {
            world,
            parents,
            children,
            batch: Vec::new(),
        }
    }

    /// One `insert_batch`: faster than `entity_mut(child).insert(..)` per child.
    fn relink(&mut self, moved: impl Iterator<Item = usize>, pass: u32) {
        let Bevy {
            world,
            parents,
            children,
            batch,
        } = self;
        batch.extend(
            moved.map(|child| (children[child], ChildOf(parents[new_parent(child, pass)]))),
        );
        world.insert_batch(batch.drain(..));
    }

    fn checksum(&mut self) -> u64 {
        let world = &mut self.world;
        let mut parents = world.query::<&ParentIndex>();
        let mut children = world.query::<(&ChildIndex, &ChildOf)>();
        let world = &*world;
        let mut sum = Sum::default();
        for (child, child_of) in children.iter(world) {
            if let Ok(parent) = parents.get(world, child_of.parent()) {
                sum.link(*child, *parent);
            }
        }
        sum.finish()
    }
}

// ----- flecs --------------------------------------------------------------------------------

struct Flecs {
    world: flecs_ecs::prelude::World,
    parents: Vec<flecs_ecs::prelude::Entity>,
    children: Vec<flecs_ecs::prelude::Entity>,
}

impl Family for Flecs {
    fn new() -> Self {
        use flecs_ecs::prelude::{TableOperations, flecs};
        let world = flecs_ecs::prelude::World::new();
        let parents = world
            .entity_bulk(PARENTS as u32)
            .add::<ParentIndex>()
            .build();
        let mut rows = crate::worlds::flecs_new_rows(&world, &parents).expect("parents");
        for (index, value) in rows
            .get_mut::<ParentIndex>()
            .expect("a ParentIndex column")
            .iter_mut()
            .enumerate()
        {
            *value = ParentIndex(index as u32);
        }
        // One bulk per parent (its children share a table): the children `parent + k *
        // PARENTS`.
        let mut children = vec![flecs_ecs::prelude::Entity::null(); CHILDREN];
        for (parent_index, &parent) in parents.iter().enumerate() {
            let family = world
                .entity_bulk((CHILDREN / PARENTS) as u32)
                .add::<ChildIndex>()
                .add_id((flecs::ChildOf, parent))
                .build();
            let mut rows = crate::worlds::flecs_new_rows(&world, &family).expect("children");
            let slots = (parent_index..CHILDREN).step_by(PARENTS);
            let columns = rows
                .get_mut::<ChildIndex>()
                .expect("a ChildIndex column")
                .iter_mut()
                .zip(&family);
            for (child_index, (value, &child)) in slots.zip(columns) {
                *value = ChildIndex(child_index as u32);
                children[child_index] = child;
            }
        }
        Flecs {
            world,
            parents,
            children,
        }
    }

    fn relink(&mut self, moved: impl Iterator<Item = usize>, pass: u32) {
        for child in moved {
            self.world
                .entity_from_id(self.children[child])
                .child_of(self.parents[new_parent(child, pass)]);
        }
    }

    fn checksum(&mut self) -> u64 {
        use flecs_ecs::prelude::{Builder, QueryAPI, QueryBuilderImpl, TermBuilderImpl};
        let mut sum = Sum::default();
        self.world
            .query::<(&ChildIndex, &ParentIndex)>()
            .term_at(1)
            .parent()
            .build()
            .each(|(child, parent)| sum.link(*child, *parent));
        sum.finish()
    }
}

// ----- Vec floor ----------------------------------------------------------------------------

struct VecFloor {
    /// Each child's parent.
    parent_of: Vec<u32>,
    /// Each parent's children, in link order.
    children_of: Vec<Vec<u32>>,
}

impl Family for VecFloor {
    fn new() -> Self {
        let mut floor = VecFloor {
            parent_of: Vec::with_capacity(CHILDREN),
            children_of: vec![Vec::new(); PARENTS],
        };
        for child in 0..CHILDREN {
            let parent = first_parent(child);
            floor.parent_of.push(parent as u32);
            floor.children_of[parent].push(child as u32);
        }
        floor
    }

    fn relink(&mut self, moved: impl Iterator<Item = usize>, pass: u32) {
        for child in moved {
            let parent = new_parent(child, pass);
            let old = std::mem::replace(&mut self.parent_of[child], parent as u32);
            let siblings = &mut self.children_of[old as usize];
            if let Some(position) = siblings.iter().position(|&other| other == child as u32) {
                siblings.remove(position);
            }
            self.children_of[parent].push(child as u32);
        }
    }

    fn checksum(&mut self) -> u64 {
        let mut sum = Sum::default();
        for (child, &parent) in self.parent_of.iter().enumerate() {
            sum.link(ChildIndex(child as u32), ParentIndex(parent));
        }
        sum.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After a few passes, archetypal's children lists and the floor's hold the same children
    /// per parent, in the same order, and every link is kept both ways.
    #[test]
    fn both_directions_follow_the_relinks() {
        let (mut archetypal, mut floor) = (Archetypal::new(), VecFloor::new());
        for pass in 1..=12 {
            archetypal.relink(moved_children(pass), pass);
            floor.relink(moved_children(pass), pass);
        }
        archetypal
            .world
            .check_invariants()
            .expect("links both ways");
        for (parent, &handle) in archetypal.parents.iter().enumerate() {
            let children: Vec<u32> = archetypal
                .world
                .get_children(handle)
                .iter()
                .map(|&child| archetypal.world.get_child_index(child).expect("a child").0)
                .collect();
            assert_eq!(children, floor.children_of[parent]);
        }
        assert_eq!(archetypal.checksum(), floor.checksum());
    }
}
