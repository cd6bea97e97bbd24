//! `hierarchy_*`: a forest of 10,000 roots, each with 10 children, each child with 4
//! grandchildren (510,000 entities with `Offset` and `WorldPosition`), against bevy_ecs's
//! built-in hierarchy (`ChildOf` / `Children`).
//!
//! - `hierarchy_build`: a new world and the whole forest, every link made as the entities are
//!   spawned (archetypal: a builder's `with_child_of(parent)`; bevy: `ChildOf` in the spawned
//!   bundle, its hooks fill `Children`).
//! - `hierarchy_propagate`: the roots move (`offset += 1`), then world position = parent's
//!   world position + offset, every parent before its children (archetypal: one
//!   `parents_first` typed query, each node handed its parent's world position; bevy: the
//!   roots through `Without<ChildOf>`, then a stack walk over `Children`; flecs: a cached query
//!   whose parent term is `cascade`; hecs: a hand-kept `Parent` / `Children` pair and a
//!   recursive function, as a user of a crate without hierarchies writes it).
//! - `hierarchy_despawn`: despawn a tenth of the roots with their trees (51,000 entities:
//!   archetypal's `[cascade]` policy, bevy's recursive `despawn`), then spawn those trees
//!   again so that every pass starts from a forest of the same size. Both halves are timed:
//!   the despawn half is about half of the pass (the rebuild is `hierarchy_build`'s work on a
//!   tenth of the forest). Each pass despawns the next tenth and gives the new roots an offset
//!   that counts the passes, so a pass that did nothing shows in the checksum.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity as BevyEntity;
use bevy_ecs::hierarchy::{ChildOf, Children};
use bevy_ecs::query::Without;
use bevy_ecs::world::World as BevyWorld;
use flecs_ecs::macros::Component as FlecsComponent;

use crate::{Checksum, Contender, Kind, Pass, Workload};

/// Roots of the forest.
const ROOTS: usize = 10_000;
/// Children of each root.
const CHILDREN: usize = 10;
/// Children of each child.
const GRANDCHILDREN: usize = 4;

/// Where a node sits relative to its parent (a root: in the world).
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct Offset(pub f32);

/// Where a node is in the world: computed by propagation.
#[derive(Component, FlecsComponent, Clone, Copy, Debug, Default, PartialEq)]
pub struct WorldPosition(pub f32);

/// The offset of the root of tree `index`, built at pass `pass` (0: the first forest).
fn root_offset(index: usize, pass: u32) -> Offset {
    Offset(index as f32 + pass as f32 * 0.5)
}

/// The offset of a child or grandchild, by its index among its siblings.
fn node_offset(index: usize) -> Offset {
    Offset(index as f32 + 1.0)
}

/// Digest of the forest: how many nodes, their offsets and world positions, and how many are
/// linked to a parent.
fn checksum(nodes: impl Iterator<Item = (Offset, WorldPosition)>, linked: usize) -> u64 {
    let mut sum = Checksum::new();
    let mut count = 0;
    for (offset, position) in nodes {
        sum.f32(0, offset.0);
        sum.f32(1, position.0);
        count += 1;
    }
    sum.count(2, count);
    sum.count(3, linked as u64);
    sum.finish()
}

/// The three workloads.
pub fn workloads() -> Vec<Workload> {
    vec![
        Workload {
            name: "hierarchy_build",
            description: "new world + 10,000 roots x 10 children x 4 grandchildren, linked",
            contenders: vec![
                contender::<Archetypal>(
                    "EntityBuilder::with_child_of(parent).spawn_one per node",
                    Stage::Build,
                ),
                contender::<Bevy>("spawn((.., ChildOf(parent)))", Stage::Build),
                contender::<Flecs>(
                    "entity_bulk(n).add_id((ChildOf, parent)) per family, offsets in place",
                    Stage::Build,
                ),
                contender::<Hecs>(
                    "spawn_batch per family, hand-kept Parent / Children",
                    Stage::Build,
                ),
            ],
        },
        Workload {
            name: "hierarchy_propagate",
            description: "roots move, then world position = parent's + offset over 510,000 nodes",
            contenders: vec![
                contender::<Archetypal>(
                    "typed_query::<(&mut Offset, &mut WorldPosition)>().parents_first::<CHILD_OF>()",
                    Stage::Propagate,
                ),
                contender::<Bevy>(
                    "Without<ChildOf> roots + Children stack walk",
                    Stage::Propagate,
                ),
                contender::<Flecs>(
                    "cached query, parent().cascade() term, each",
                    Stage::Propagate,
                ),
                contender::<Hecs>(
                    "hand-kept Parent / Children, roots by Without<&Parent>, recursion with query_one",
                    Stage::Propagate,
                ),
            ],
        },
        Workload {
            name: "hierarchy_despawn",
            description: "despawn 10% of the roots with their trees (51,000 entities), then rebuild them",
            contenders: vec![
                contender::<Archetypal>("despawn(root), [cascade] policy", Stage::Despawn),
                contender::<Bevy>("despawn(root), recursive", Stage::Despawn),
                contender::<Flecs>("destruct(root), ChildOf deletes children", Stage::Despawn),
                contender::<Hecs>(
                    "despawn(root), hand-written recursion over Children",
                    Stage::Despawn,
                ),
            ],
        },
    ]
}

/// What a pass does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Build,
    Propagate,
    Despawn,
}

/// One contender's forest: building, moving and propagating, despawning trees.
trait Forest: Sized + 'static {
    const NAME: &'static str;
    const KIND: Kind;
    /// An empty world.
    fn new() -> Self;
    /// Spawns tree `index` built at pass `pass`; returns its root.
    fn spawn_tree(&mut self, index: usize, pass: u32) -> TreeRoot;
    /// `offset += 1` on every root, then world positions, parents before children.
    fn propagate(&mut self);
    /// Despawns `root` and its tree.
    fn despawn_tree(&mut self, root: TreeRoot);
    fn checksum(&mut self) -> u64;
}

/// A root, in either crate's handle type.
#[derive(Clone, Copy, Debug)]
enum TreeRoot {
    Archetypal(archetypal::Entity),
    Bevy(BevyEntity),
    Flecs(flecs_ecs::prelude::Entity),
    Hecs(hecs::Entity),
}

/// A forest and its roots, by tree index.
struct Trees<F> {
    forest: F,
    roots: Vec<TreeRoot>,
    stage: Stage,
    passes: u32,
}

impl<F: Forest> Trees<F> {
    fn build(stage: Stage) -> Self {
        let mut forest = F::new();
        let roots = (0..ROOTS)
            .map(|index| forest.spawn_tree(index, 0))
            .collect();
        Trees {
            forest,
            roots,
            stage,
            passes: 0,
        }
    }
}

impl<F: Forest> Pass for Trees<F> {
    fn run(&mut self) {
        self.passes += 1;
        match self.stage {
            Stage::Build => *self = Trees::build(Stage::Build),
            Stage::Propagate => self.forest.propagate(),
            Stage::Despawn => {
                // The next tenth of the trees: indices congruent to the pass number.
                let first = self.passes as usize % 10;
                for index in (first..ROOTS).step_by(10) {
                    self.forest.despawn_tree(self.roots[index]);
                }
                for index in (first..ROOTS).step_by(10) {
                    self.roots[index] = self.forest.spawn_tree(index, self.passes);
                }
            }
        }
    }

    fn checksum(&mut self) -> u64 {
        self.forest.checksum()
    }
}

fn contender<F: Forest>(api: &'static str, stage: Stage) -> Contender {
    let setup: fn() -> Box<dyn Pass> = match stage {
        Stage::Build => || Box::new(Trees::<F>::build(Stage::Build)),
        Stage::Propagate => || Box::new(Trees::<F>::build(Stage::Propagate)),
        Stage::Despawn => || Box::new(Trees::<F>::build(Stage::Despawn)),
    };
    Contender {
        name: F::NAME,
        api,
        kind: F::KIND,
        setup,
    }
}

// ----- archetypal ---------------------------------------------------------------------------

/// archetypal's world.
pub mod archetypal_world {
    pub use super::{Offset, WorldPosition};

    archetypal::ecs! {
        World {
            offset: Offset => OFFSET,
            world_position: WorldPosition => WORLD_POSITION,
        }
        Relations {
            child_of / children => CHILD_OF [cascade],
        }
    }
}

struct Archetypal(archetypal_world::World);

impl Forest for Archetypal {
    const NAME: &'static str = "archetypal";
    const KIND: Kind = Kind::Archetypal;

    fn new() -> Self {
        Archetypal(archetypal_world::World::new())
    }

    /// Each node spawned by a builder that links it as it spawns (`with_child_of`), as bevy's
    /// spawns it with its `ChildOf`: the row goes straight into its table's segment of linked
    /// rows, and the tree's rows lie in the order they were spawned.
    fn spawn_tree(&mut self, index: usize, pass: u32) -> TreeRoot {
        use archetypal_world::EntityBuilder;
        let world = &mut self.0;
        let node = |offset| {
            EntityBuilder::new()
                .with_offset(offset)
                .with_world_position(WorldPosition::default())
        };
        let root = node(root_offset(index, pass)).spawn_one(world);
        for child_index in 0..CHILDREN {
            let child = node(node_offset(child_index))
                .with_child_of(root)
                .spawn_one(world);
            for grandchild_index in 0..GRANDCHILDREN {
                node(node_offset(grandchild_index))
                    .with_child_of(child)
                    .spawn_one(world);
            }
        }
        TreeRoot::Archetypal(root)
    }

    /// One parents-first pass: a root (no parent) moves and takes its offset, every other node
    /// its parent's world position (handed down by the walk) plus its offset.
    fn propagate(&mut self) {
        use archetypal_world::CHILD_OF;
        self.0
            .typed_query::<(&mut Offset, &mut WorldPosition)>()
            .parents_first::<CHILD_OF>()
            .for_each(|parent: Option<&f32>, (mut offset, mut position)| {
                position.0 = match parent {
                    None => {
                        offset.0 += 1.0;
                        offset.0
                    }
                    Some(above) => above + offset.0,
                };
                position.0
            });
    }

    fn despawn_tree(&mut self, root: TreeRoot) {
        if let TreeRoot::Archetypal(root) = root {
            self.0.despawn(root);
        }
    }

    fn checksum(&mut self) -> u64 {
        use archetypal_world::{CHILD_OF, OFFSET, WORLD_POSITION};
        let world = &self.0;
        let mut nodes = Vec::new();
        world.for_each(OFFSET | WORLD_POSITION, 0, |_, table, row| {
            nodes.push((table.offset[row], table.world_position[row]))
        });
        checksum(nodes.into_iter(), world.query_entities(CHILD_OF).count())
    }
}

// ----- bevy_ecs -----------------------------------------------------------------------------

struct Bevy {
    world: BevyWorld,
    /// The propagation walk's stack, kept between passes (no allocation per pass).
    stack: Vec<(BevyEntity, f32)>,
}

impl Forest for Bevy {
    const NAME: &'static str = "bevy_ecs";
    const KIND: Kind = Kind::Peer;

    fn new() -> Self {
        Bevy {
            world: BevyWorld::new(),
            stack: Vec::new(),
        }
    }

    fn spawn_tree(&mut self, index: usize, pass: u32) -> TreeRoot {
        let world = &mut self.world;
        let root = world
            .spawn((root_offset(index, pass), WorldPosition::default()))
            .id();
        for child_index in 0..CHILDREN {
            let child = world
                .spawn((
                    node_offset(child_index),
                    WorldPosition::default(),
                    ChildOf(root),
                ))
                .id();
            for grandchild_index in 0..GRANDCHILDREN {
                world.spawn((
                    node_offset(grandchild_index),
                    WorldPosition::default(),
                    ChildOf(child),
                ));
            }
        }
        TreeRoot::Bevy(root)
    }

    fn propagate(&mut self) {
        let Bevy { world, stack } = self;
        let mut roots = world
            .query_filtered::<(BevyEntity, &mut Offset, &mut WorldPosition), Without<ChildOf>>();
        for (entity, mut offset, mut position) in roots.iter_mut(world) {
            offset.0 += 1.0;
            position.0 = offset.0;
            stack.push((entity, position.0));
        }
        let mut children = world.query::<&Children>();
        let mut nodes = world.query::<(&Offset, &mut WorldPosition)>();
        while let Some((entity, above)) = stack.pop() {
            let start = stack.len();
            if let Ok(children) = children.get(world, entity) {
                stack.extend(children.iter().map(|&child| (child, above)));
            }
            // Each child's entry turns from its parent's position into its own.
            for (child, position_above) in &mut stack[start..] {
                if let Ok((offset, mut position)) = nodes.get_mut(world, *child) {
                    position.0 = *position_above + offset.0;
                    *position_above = position.0;
                }
            }
        }
    }

    fn despawn_tree(&mut self, root: TreeRoot) {
        if let TreeRoot::Bevy(root) = root {
            self.world.despawn(root);
        }
    }

    fn checksum(&mut self) -> u64 {
        let world = &mut self.world;
        let linked = world.query::<&ChildOf>().iter(world).count();
        let mut nodes = world.query::<(&Offset, &WorldPosition)>();
        let nodes: Vec<(Offset, WorldPosition)> = nodes
            .iter(world)
            .map(|(offset, position)| (*offset, *position))
            .collect();
        checksum(nodes.into_iter(), linked)
    }
}

// ----- flecs --------------------------------------------------------------------------------

/// The propagation query: each node's offset and world position, and its parent's world
/// position (`None` for a root), parents' tables first (`cascade`).
type FlecsPropagate = flecs_ecs::prelude::Query<(
    &'static mut Offset,
    Option<&'static WorldPosition>,
    &'static mut WorldPosition,
)>;

struct Flecs {
    // Declared before the world, so it is dropped first: a query must not outlive its world.
    /// Built by the first propagation (not by `new`, so `hierarchy_build` does not pay for
    /// matching every new table against it).
    propagate: Option<FlecsPropagate>,
    world: flecs_ecs::prelude::World,
}

impl Flecs {
    /// `count` new entities with `Offset`, `WorldPosition` and `(ChildOf, parent)`, each
    /// family in one bulk (a table of its own: ChildOf pairs fragment by parent), their
    /// offsets written in place.
    fn spawn_children(
        &self,
        parent: flecs_ecs::prelude::Entity,
        count: usize,
    ) -> Vec<flecs_ecs::prelude::Entity> {
        use flecs_ecs::prelude::{TableOperations, flecs};
        let children = self
            .world
            .entity_bulk(count as u32)
            .add::<Offset>()
            .add::<WorldPosition>()
            .add_id((flecs::ChildOf, parent))
            .build();
        let mut rows = crate::worlds::flecs_new_rows(&self.world, &children).expect("children");
        for (index, offset) in rows
            .get_mut::<Offset>()
            .expect("an Offset column")
            .iter_mut()
            .enumerate()
        {
            *offset = node_offset(index);
        }
        children
    }
}

impl Forest for Flecs {
    const NAME: &'static str = "flecs";
    const KIND: Kind = Kind::Peer;

    fn new() -> Self {
        Flecs {
            propagate: None,
            world: flecs_ecs::prelude::World::new(),
        }
    }

    fn spawn_tree(&mut self, index: usize, pass: u32) -> TreeRoot {
        use flecs_ecs::prelude::IdOperations;
        let root = self
            .world
            .entity()
            .set(root_offset(index, pass))
            .set(WorldPosition::default())
            .id();
        for child in self.spawn_children(root, CHILDREN) {
            self.spawn_children(child, GRANDCHILDREN);
        }
        TreeRoot::Flecs(root)
    }

    /// One `each` over the cascade query (families are tables of 4 to 10 rows, short tables as
    /// in fragmented_iter, where `each` measured ahead of `run`): a root moves and takes its offset, every other node its parent's world
    /// position plus its offset, parents first.
    fn propagate(&mut self) {
        use flecs_ecs::prelude::{Builder, QueryAPI, QueryBuilderImpl, TermBuilderImpl};
        let world = &self.world;
        let query = self.propagate.get_or_insert_with(|| {
            world
                .query::<(&mut Offset, Option<&WorldPosition>, &mut WorldPosition)>()
                .term_at(1)
                .parent()
                .cascade()
                .set_cached()
                .build()
        });
        query.each(|(offset, parent, position)| match parent {
            None => {
                offset.0 += 1.0;
                position.0 = offset.0;
            }
            Some(parent) => position.0 = parent.0 + offset.0,
        });
    }

    fn despawn_tree(&mut self, root: TreeRoot) {
        if let TreeRoot::Flecs(root) = root {
            self.world.entity_from_id(root).destruct();
        }
    }

    fn checksum(&mut self) -> u64 {
        use flecs_ecs::prelude::{Builder, QueryAPI, QueryBuilderImpl, flecs};
        let mut nodes = Vec::new();
        self.world
            .new_query::<(&Offset, &WorldPosition)>()
            .each(|(offset, position)| nodes.push((*offset, *position)));
        // flecs's own entities are linked by ChildOf too: count only the forest's nodes.
        let linked = self
            .world
            .query::<&Offset>()
            .with((flecs::ChildOf, flecs::Wildcard))
            .build()
            .count();
        checksum(nodes.into_iter(), linked as usize)
    }
}

// ----- hecs ---------------------------------------------------------------------------------

/// hecs's link from a node to its parent, kept by hand.
#[derive(Clone, Copy, Debug)]
struct HecsParent(hecs::Entity);

/// hecs's list of a node's children, kept by hand.
#[derive(Clone, Debug, Default)]
struct HecsChildren(Vec<hecs::Entity>);

struct Hecs(hecs::World);

impl Hecs {
    /// `count` children of `parent` (offsets by index), recorded in its `HecsChildren`.
    fn spawn_children(&mut self, parent: hecs::Entity, count: usize) -> Vec<hecs::Entity> {
        let children: Vec<hecs::Entity> = self
            .0
            .spawn_batch((0..count).map(|index| {
                (
                    node_offset(index),
                    WorldPosition::default(),
                    HecsParent(parent),
                )
            }))
            .collect();
        let _ = self.0.insert_one(parent, HecsChildren(children.clone()));
        children
    }
}

/// Every node below `children` takes its parent's world position (`above`) plus its offset,
/// depth first: the recursion a hecs user writes.
fn mount_hecs(world: &hecs::World, children: &[hecs::Entity], above: f32) {
    for &child in children {
        let mut node =
            world.query_one::<(&Offset, &mut WorldPosition, Option<&HecsChildren>)>(child);
        if let Ok((offset, position, below)) = node.get() {
            position.0 = above + offset.0;
            if let Some(below) = below {
                mount_hecs(world, &below.0, position.0);
            }
        }
    }
}

/// Despawns `entity` and everything below it.
fn despawn_hecs(world: &mut hecs::World, entity: hecs::Entity) {
    if let Ok(HecsChildren(children)) = world.remove_one::<HecsChildren>(entity) {
        for child in children {
            despawn_hecs(world, child);
        }
    }
    let _ = world.despawn(entity);
}

impl Forest for Hecs {
    const NAME: &'static str = "hecs";
    const KIND: Kind = Kind::Peer;

    fn new() -> Self {
        Hecs(hecs::World::new())
    }

    fn spawn_tree(&mut self, index: usize, pass: u32) -> TreeRoot {
        let root = self
            .0
            .spawn((root_offset(index, pass), WorldPosition::default()));
        for child in self.spawn_children(root, CHILDREN) {
            self.spawn_children(child, GRANDCHILDREN);
        }
        TreeRoot::Hecs(root)
    }

    fn propagate(&mut self) {
        let world = &self.0;
        let mut roots = world
            .query::<hecs::Without<(&mut Offset, &mut WorldPosition, &HecsChildren), &HecsParent>>(
            );
        for (offset, position, children) in roots.iter() {
            offset.0 += 1.0;
            position.0 = offset.0;
            mount_hecs(world, &children.0, position.0);
        }
    }

    fn despawn_tree(&mut self, root: TreeRoot) {
        if let TreeRoot::Hecs(root) = root {
            despawn_hecs(&mut self.0, root);
        }
    }

    fn checksum(&mut self) -> u64 {
        let world = &self.0;
        // Links to a live parent (a despawned tree takes its nodes' links with it).
        let linked = world
            .query::<&HecsParent>()
            .iter()
            .filter(|parent| world.contains(parent.0))
            .count();
        let nodes: Vec<(Offset, WorldPosition)> = world
            .query::<(&Offset, &WorldPosition)>()
            .iter()
            .map(|(offset, position)| (*offset, *position))
            .collect();
        checksum(nodes.into_iter(), linked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entities in one tree.
    const TREE: usize = 1 + CHILDREN * (1 + GRANDCHILDREN);

    #[test]
    fn a_forest_has_the_declared_shape() {
        let mut trees = Trees::<Archetypal>::build(Stage::Despawn);
        assert_eq!(trees.forest.0.entity_count(), ROOTS * TREE);
        trees.run();
        assert_eq!(trees.forest.0.entity_count(), ROOTS * TREE);
        trees.forest.0.check_invariants().expect("links both ways");
    }
}
