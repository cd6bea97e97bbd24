//! Parents-first queries from the user's side: `typed_query::<Q>().parents_first::<R>()`
//! visits every entity the query matches after its target, handing it what its target's visit
//! returned, across relinks, despawns (cascading and not), deep chains, several roots, entities
//! without the relation, tables and filters; a one-pass propagation equals a reference computed
//! separately, over random hierarchies (property test). A system's query walks the same way
//! (`query.parents_first::<CHILD_OF>()`), over the whole storage or the columns lent to it.

use std::collections::HashMap;

use archetypal::{Changed, Entity, Mut, Schedule, SystemContext, Target, Without};
use proptest::prelude::*;

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Offset(pub i64);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct WorldPosition(pub i64);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Sprite;

archetypal::ecs! {
    World {
        offset: Offset => OFFSET,
        world_position: WorldPosition => WORLD_POSITION,
        sprite: Sprite => SPRITE,
    }
    Tags {
        frozen => FROZEN,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
        owned_by / belongings => OWNED_BY,
    }
}

/// The game's propagation system: world position = parent's world position + offset, one
/// pass, parents first. A root's parent position is zero.
fn propagate(world: &mut World) {
    world
        .typed_query::<(&Offset, &mut WorldPosition)>()
        .parents_first::<CHILD_OF>()
        .for_each(|parent: Option<&WorldPosition>, (offset, mut position)| {
            *position = WorldPosition(parent.map_or(0, |above| above.0) + offset.0);
            *position
        });
}

/// The same propagation as a game's system: its query, parents first.
fn propagate_system(mut nodes: Query<(&Offset, &mut WorldPosition)>) {
    nodes.parents_first::<CHILD_OF>().for_each(
        |parent: Option<&WorldPosition>, (offset, mut position)| {
            *position = WorldPosition(parent.map_or(0, |above| above.0) + offset.0);
            *position
        },
    );
}

/// The propagation beside a second query of the world (unused: taking it is what lends the
/// system's queries their columns, the storage shared), so the walk goes over lent columns.
fn propagate_beside_sprites(nodes: Query<(&Offset, &mut WorldPosition)>, _sprites: Query<&Sprite>) {
    propagate_system(nodes);
}

/// The reference: each node's offset summed up its chain of ancestors while they hold both
/// components (the propagation's parent is `None` above a node that does not), computed by
/// walking `get_child_of` from every node separately.
fn reference(world: &World) -> HashMap<Entity, i64> {
    let mut expected = HashMap::new();
    for entity in world.query_entities(OFFSET | WORLD_POSITION) {
        let mut sum = 0;
        let mut node = Some(entity);
        while let Some(current) = node {
            if !world.has_components(current, OFFSET | WORLD_POSITION) {
                break;
            }
            sum += world.get_offset(current).unwrap().0;
            node = world.get_child_of(current);
        }
        expected.insert(entity, sum);
    }
    expected
}

/// Every node's world position.
fn positions(world: &World) -> HashMap<Entity, i64> {
    world
        .query_entities(OFFSET | WORLD_POSITION)
        .map(|entity| (entity, world.get_world_position(entity).unwrap().0))
        .collect()
}

/// The order the query visits, and the parent each entity was handed.
fn visits(world: &mut World) -> Vec<(Entity, Option<Entity>)> {
    let mut seen = Vec::new();
    world
        .typed_query::<Entity>()
        .parents_first::<CHILD_OF>()
        .for_each(|parent: Option<&Entity>, entity| {
            seen.push((entity, parent.copied()));
            entity
        });
    seen
}

/// Every entity is visited once, after its target, and handed its target.
fn assert_parents_first(world: &mut World) {
    let seen = visits(world);
    let mut at = HashMap::new();
    for (position, &(entity, parent)) in seen.iter().enumerate() {
        assert!(
            at.insert(entity, position).is_none(),
            "{entity} visited twice"
        );
        assert_eq!(parent, world.get_child_of(entity), "{entity}'s parent");
    }
    assert_eq!(seen.len(), world.entity_count(), "every entity is visited");
    for &(entity, parent) in &seen {
        if let Some(parent) = parent {
            assert!(at[&parent] < at[&entity], "{parent} before {entity}");
        }
    }
}

fn spawn_node(world: &mut World, offset: i64, parent: Option<Entity>) -> Entity {
    let node = world.spawn(OFFSET | WORLD_POSITION);
    world.set_offset(node, Offset(offset));
    if let Some(parent) = parent {
        world.set_child_of(node, parent).unwrap();
    }
    node
}

#[test]
fn a_propagation_is_one_pass_even_when_children_sit_before_their_parents() {
    let mut world = World::new();
    // Children spawned first, parents after them, then linked: rows and ids run backwards.
    let leaf = spawn_node(&mut world, 1, None);
    let middle = spawn_node(&mut world, 10, None);
    let top = spawn_node(&mut world, 100, None);
    world.set_child_of(leaf, middle).unwrap();
    world.set_child_of(middle, top).unwrap();
    propagate(&mut world);
    assert_eq!(world.get_world_position(leaf), Some(&WorldPosition(111)));
    assert_eq!(world.get_world_position(middle), Some(&WorldPosition(110)));
    assert_eq!(world.get_world_position(top), Some(&WorldPosition(100)));
    assert_parents_first(&mut world);
}

#[test]
fn trees_go_depth_first_in_link_order_from_every_root() {
    let mut world = World::new();
    let first = spawn_node(&mut world, 1, None);
    let second = spawn_node(&mut world, 2, None);
    let a = spawn_node(&mut world, 3, Some(first));
    let b = spawn_node(&mut world, 4, Some(first));
    let a1 = spawn_node(&mut world, 5, Some(a));
    let lone = spawn_node(&mut world, 6, None);
    let c = spawn_node(&mut world, 7, Some(second));
    let order: Vec<Entity> = visits(&mut world)
        .into_iter()
        .map(|(entity, _)| entity)
        .collect();
    // The tops in row order (the rows without the relation's bit), each followed by its tree.
    assert_eq!(order, vec![first, a, a1, b, second, c, lone]);
    assert_eq!(
        world.descendants_child_of(first).collect::<Vec<_>>(),
        vec![a, a1, b],
        "the order of descendants_child_of"
    );
}

#[test]
fn relinks_move_whole_subtrees_and_the_order_follows() {
    let mut world = World::new();
    let left = spawn_node(&mut world, 1_000, None);
    let right = spawn_node(&mut world, 2_000, None);
    let branch = spawn_node(&mut world, 10, Some(left));
    let leaves: Vec<Entity> = (0..5)
        .map(|i| spawn_node(&mut world, i, Some(branch)))
        .collect();
    propagate(&mut world);
    assert_eq!(positions(&world), reference(&world));
    assert_eq!(
        world.get_world_position(leaves[3]),
        Some(&WorldPosition(1_013))
    );

    // The branch moves under the other root: its leaves follow at the next pass.
    world.set_child_of(branch, right).unwrap();
    propagate(&mut world);
    assert_eq!(positions(&world), reference(&world));
    assert_eq!(
        world.get_world_position(leaves[3]),
        Some(&WorldPosition(2_013))
    );

    // The old root now goes under a leaf of the branch: deeper than its old children.
    world.set_child_of(left, leaves[4]).unwrap();
    propagate(&mut world);
    assert_eq!(world.get_world_position(left), Some(&WorldPosition(3_014)));
    assert_parents_first(&mut world);

    // Unlinked, the branch is a root again.
    world.remove_child_of(branch);
    propagate(&mut world);
    assert_eq!(
        world.get_world_position(leaves[0]),
        Some(&WorldPosition(10))
    );
    assert_eq!(positions(&world), reference(&world));
    assert_parents_first(&mut world);
    world.check_invariants().unwrap();
}

#[test]
fn despawns_cascade_or_unlink_and_the_walk_sees_what_is_left() {
    let mut world = World::new();
    let ship = spawn_node(&mut world, 100, None);
    let turret = spawn_node(&mut world, 5, Some(ship));
    let barrel = spawn_node(&mut world, 1, Some(turret));
    let owner = spawn_node(&mut world, 50, None);
    // `owned_by` does not cascade: a despawned owner leaves its belongings alive, unlinked.
    let crate_ = spawn_node(&mut world, 7, None);
    world.set_owned_by(crate_, owner).unwrap();
    let sub = spawn_node(&mut world, 3, Some(crate_));

    world.despawn(turret);
    assert!(!world.is_alive(barrel));
    world.despawn(owner);
    assert!(world.is_alive(crate_));
    propagate(&mut world);
    assert_eq!(world.get_world_position(ship), Some(&WorldPosition(100)));
    assert_eq!(world.get_world_position(sub), Some(&WorldPosition(10)));
    assert_eq!(positions(&world), reference(&world));
    assert_parents_first(&mut world);

    // The other relation orders its own trees.
    let keeper = spawn_node(&mut world, 1, None);
    world.set_owned_by(ship, keeper).unwrap();
    let mut seen = Vec::new();
    world
        .typed_query::<Entity>()
        .parents_first::<OWNED_BY>()
        .for_each(|owner: Option<&Entity>, entity| {
            seen.push((entity, owner.copied()));
            entity
        });
    let at = |entity| seen.iter().position(|&(seen, _)| seen == entity).unwrap();
    assert!(at(keeper) < at(ship));
    assert!(seen.contains(&(ship, Some(keeper))));
    assert!(seen.contains(&(crate_, None)), "{seen:?}");
}

#[test]
fn a_deep_chain_goes_without_recursion() {
    let mut world = World::new();
    let mut parent = None;
    let mut chain = Vec::new();
    for _ in 0..50_000 {
        let node = spawn_node(&mut world, 1, parent);
        chain.push(node);
        parent = Some(node);
    }
    propagate(&mut world);
    assert_eq!(world.get_world_position(chain[0]), Some(&WorldPosition(1)));
    assert_eq!(
        world.get_world_position(chain[49_999]),
        Some(&WorldPosition(50_000))
    );
    // Relinked bottom-up: the last node's id is the chain's top now.
    world.remove_child_of(chain[49_999]);
    world.set_child_of(chain[0], chain[49_999]).unwrap();
    propagate(&mut world);
    assert_eq!(
        world.get_world_position(chain[49_999]),
        Some(&WorldPosition(1))
    );
    assert_eq!(world.get_world_position(chain[0]), Some(&WorldPosition(2)));
    assert_eq!(world.get_world_position(chain[1]), Some(&WorldPosition(3)));
}

#[test]
fn entities_the_query_does_not_match_are_walked_through_not_visited() {
    let mut world = World::new();
    // A root without a world position (another table), with children that have one.
    let group = world.spawn(OFFSET | SPRITE);
    world.set_offset(group, Offset(1_000));
    let child = spawn_node(&mut world, 5, Some(group));
    let grandchild = spawn_node(&mut world, 1, Some(child));
    // A frozen node in the middle of a tree: filtered out, its children start over.
    let root = spawn_node(&mut world, 100, None);
    let frozen = spawn_node(&mut world, 10, Some(root));
    world.add_frozen(frozen);
    let below_frozen = spawn_node(&mut world, 2, Some(frozen));
    // A node in a third table (with a sprite) is a node like any other.
    let sprite = world.spawn(OFFSET | WORLD_POSITION | SPRITE);
    world.set_offset(sprite, Offset(3));
    world.set_child_of(sprite, below_frozen).unwrap();
    // An entity with none of the components at all.
    let bare = world.spawn(0);
    world.set_child_of(bare, root).unwrap();

    let mut seen = Vec::new();
    world
        .typed_query::<(Entity, &Offset, &mut WorldPosition)>()
        .without(FROZEN)
        .parents_first::<CHILD_OF>()
        .for_each(|parent: Option<&i64>, (entity, offset, mut position)| {
            seen.push(entity);
            position.0 = parent.copied().unwrap_or(0) + offset.0;
            position.0
        });
    assert_eq!(world.get_world_position(child), Some(&WorldPosition(5)));
    assert_eq!(
        world.get_world_position(grandchild),
        Some(&WorldPosition(6))
    );
    assert_eq!(
        world.get_world_position(frozen),
        Some(&WorldPosition(0)),
        "not visited"
    );
    assert_eq!(
        world.get_world_position(below_frozen),
        Some(&WorldPosition(2))
    );
    assert_eq!(world.get_world_position(sprite), Some(&WorldPosition(5)));
    seen.sort();
    let mut expected = vec![child, grandchild, root, below_frozen, sprite];
    expected.sort();
    assert_eq!(seen, expected);

    // `with` narrows to a table; the tags of the relation itself select roots or children.
    let mut roots = Vec::new();
    world
        .typed_query::<Entity>()
        .with(OFFSET)
        .without(CHILD_OF)
        .parents_first::<CHILD_OF>()
        .for_each(|_: Option<&()>, entity| roots.push(entity));
    assert_eq!(roots, vec![group, root]);
}

#[test]
fn only_the_rows_written_are_reported_changed() {
    let mut world = World::new();
    let root = spawn_node(&mut world, 1, None);
    let moved = spawn_node(&mut world, 2, Some(root));
    let still = spawn_node(&mut world, -1, Some(root)); // 1 - 1: its position already
    world.step();
    let since = world.last_tick();
    world
        .typed_query::<(&Offset, &mut WorldPosition)>()
        .parents_first::<CHILD_OF>()
        .for_each(
            |parent: Option<&WorldPosition>,
             (offset, mut position): (&Offset, Mut<WorldPosition>)| {
                let new = WorldPosition(parent.map_or(0, |above| above.0) + offset.0);
                if *position != new {
                    *position = new;
                }
                *position
            },
        );
    let mut changed: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .changed_since(WORLD_POSITION, since)
        .iter()
        .collect();
    changed.sort();
    assert_eq!(changed, vec![root, moved], "{still} was only read");

    // A change filter leaves out the rows not written since: they are walked through.
    world.step();
    let since = world.last_tick();
    world.set_world_position(still, WorldPosition(40));
    let mut seen = Vec::new();
    world
        .typed_query::<Entity>()
        .changed_since(WORLD_POSITION, since)
        .parents_first::<CHILD_OF>()
        .for_each(|parent: Option<&Entity>, entity| {
            seen.push((entity, parent.copied()));
            entity
        });
    assert_eq!(seen, vec![(still, None)]);
    world.check_invariants().unwrap();
}

#[test]
fn an_empty_world_and_a_world_without_links_visit_what_matches() {
    let mut world = World::new();
    assert!(visits(&mut world).is_empty());
    let nodes: Vec<Entity> = (0..3).map(|i| spawn_node(&mut world, i, None)).collect();
    let seen: Vec<Entity> = visits(&mut world)
        .into_iter()
        .map(|(entity, _)| entity)
        .collect();
    assert_eq!(seen, nodes);
}

/// A system's query walks parents first, run by a schedule (alone, and side by side with
/// another system), whole or lent: the same places as the world's walk, its filter applied,
/// only the rows written stamped, and `Changed` meaning since the system last ran.
#[test]
fn a_systems_query_propagates_parents_first() {
    for parallel in [false, true] {
        let mut world = World::new();
        let leaf = spawn_node(&mut world, 1, None);
        let top = spawn_node(&mut world, 100, None);
        let middle = spawn_node(&mut world, 10, Some(top));
        world.set_child_of(leaf, middle).unwrap();
        let sprite = world.spawn(OFFSET | WORLD_POSITION | SPRITE);
        world.set_offset(sprite, Offset(7));
        world.set_child_of(sprite, leaf).unwrap();

        fn count_sprites(sprites: Query<&Sprite>) {
            assert_eq!(sprites.count(), 1);
        }
        let mut schedule = Schedule::new();
        schedule.set_parallel(parallel);
        schedule.add((propagate_system, count_sprites));
        assert_eq!(schedule.batches().len(), 1, "disjoint: one batch");
        schedule.add(propagate_beside_sprites);
        schedule.run(&mut world);
        assert_eq!(positions(&world), reference(&world), "{parallel}");
        assert_eq!(world.get_world_position(sprite), Some(&WorldPosition(118)));
        assert_parents_first(&mut world);
        world.check_invariants().unwrap();
    }
}

#[test]
fn a_systems_filter_applies_to_its_walk() {
    let mut world = World::new();
    let root = spawn_node(&mut world, 100, None);
    let frozen = spawn_node(&mut world, 10, Some(root));
    world.add_frozen(frozen);
    let below = spawn_node(&mut world, 1, Some(frozen));

    fn thawed(mut nodes: Query<(&Offset, &mut WorldPosition), Without<FROZEN>>) {
        nodes.parents_first::<CHILD_OF>().for_each(
            |parent: Option<&WorldPosition>, (offset, mut position)| {
                *position = WorldPosition(parent.map_or(0, |above| above.0) + offset.0);
                *position
            },
        );
    }
    SystemContext::new().run(&mut world, thawed);
    assert_eq!(world.get_world_position(root), Some(&WorldPosition(100)));
    assert_eq!(world.get_world_position(frozen), Some(&WorldPosition(0)));
    assert_eq!(world.get_world_position(below), Some(&WorldPosition(1)));

    // `Changed` is since this system last ran: the first run sees every spawned row, the
    // next only the one written in between (its parent not among them: `None`).
    #[allow(clippy::type_complexity)]
    fn moved(mut nodes: Query<Entity, Changed<Offset>>, mut log: Query<&mut WorldPosition>) {
        let mut seen = Vec::new();
        nodes
            .parents_first::<CHILD_OF>()
            .for_each(|parent: Option<&Entity>, entity| {
                seen.push((entity, parent.copied()));
                entity
            });
        // The log, through a second query (so the first is lent): ten per entity seen, one
        // per entity handed its parent.
        let handed = seen.iter().filter(|(_, parent)| parent.is_some()).count();
        log.for_each(|mut position| position.0 = (seen.len() * 10 + handed) as i64);
    }
    let mut schedule = Schedule::new();
    schedule.add(moved);
    schedule.run(&mut world);
    assert_eq!(world.get_world_position(below), Some(&WorldPosition(32)));
    world.step();
    world.set_offset(below, Offset(2));
    schedule.run(&mut world);
    assert_eq!(world.get_world_position(below), Some(&WorldPosition(10)));
    world.check_invariants().unwrap();
}

/// A `Target` term works in a system's walk (its query is lent, the storage shared): it
/// reads what the parent holds, as the parent's visit handed it.
#[test]
fn a_target_term_reads_the_parent_in_a_systems_walk() {
    #[allow(clippy::type_complexity)]
    fn check(
        mut nodes: Query<(
            Entity,
            &Offset,
            &mut WorldPosition,
            Target<CHILD_OF, &Offset>,
        )>,
    ) {
        let mut visited = 0;
        nodes.parents_first::<CHILD_OF>().for_each(
            |parent: Option<&i64>, (_, offset, mut position, target)| {
                assert_eq!(target.map(|above| above.0), parent.copied());
                position.0 = parent.copied().unwrap_or(0) * 1000 + offset.0;
                visited += 1;
                offset.0
            },
        );
        assert_eq!(visited, 3);
    }
    let mut world = World::new();
    let top = spawn_node(&mut world, 100, None);
    let middle = spawn_node(&mut world, 10, Some(top));
    let leaf = spawn_node(&mut world, 1, Some(middle));
    SystemContext::new().run(&mut world, check);
    assert_eq!(world.get_world_position(top), Some(&WorldPosition(100)));
    assert_eq!(
        world.get_world_position(middle),
        Some(&WorldPosition(100_010))
    );
    assert_eq!(world.get_world_position(leaf), Some(&WorldPosition(10_001)));
    world.check_invariants().unwrap();
}

/// Only the rows a system's walk writes are stamped, whole or lent.
#[test]
fn a_systems_walk_stamps_only_what_it_writes() {
    fn settle(mut nodes: Query<(&Offset, &mut WorldPosition)>) {
        nodes.parents_first::<CHILD_OF>().for_each(
            |parent: Option<&WorldPosition>,
             (offset, mut position): (&Offset, Mut<WorldPosition>)| {
                let new = WorldPosition(parent.map_or(0, |above| above.0) + offset.0);
                if *position != new {
                    *position = new;
                }
                *position
            },
        );
    }
    fn settle_beside_sprites(nodes: Query<(&Offset, &mut WorldPosition)>, _: Query<&Sprite>) {
        settle(nodes);
    }
    for lent in [false, true] {
        let mut world = World::new();
        let root = spawn_node(&mut world, 1, None);
        let moved = spawn_node(&mut world, 2, Some(root));
        let still = spawn_node(&mut world, -1, Some(root));
        world.step();
        let since = world.last_tick();
        if lent {
            SystemContext::new().run(&mut world, settle_beside_sprites);
        } else {
            SystemContext::new().run(&mut world, settle);
        }
        let mut changed: Vec<Entity> = world
            .typed_query_ref::<Entity>()
            .changed_since(WORLD_POSITION, since)
            .iter()
            .collect();
        changed.sort();
        assert_eq!(changed, vec![root, moved], "{still} was only read ({lent})");
        assert_eq!(world.get_world_position(moved), Some(&WorldPosition(3)));
        world.check_invariants().unwrap();
    }
}

/// One step of a random history of a forest.
#[derive(Clone, Debug)]
enum Op {
    Spawn { offset: i64, sprite: bool },
    Link { source: usize, target: usize },
    Unlink { source: usize },
    Despawn { entity: usize },
    Freeze { entity: usize },
    Strip { entity: usize },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (-50i64..50, any::<bool>()).prop_map(|(offset, sprite)| Op::Spawn { offset, sprite }),
        6 => (any::<usize>(), any::<usize>()).prop_map(|(source, target)| Op::Link { source, target }),
        1 => any::<usize>().prop_map(|source| Op::Unlink { source }),
        1 => any::<usize>().prop_map(|entity| Op::Despawn { entity }),
        1 => any::<usize>().prop_map(|entity| Op::Freeze { entity }),
        1 => any::<usize>().prop_map(|entity| Op::Strip { entity }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Over random forests (links, relinks refused when they would cycle, unlinks, cascading
    /// despawns, entities moved to other tables or out of the query), one pass equals the
    /// reference, every entity comes after its target, and the world stays consistent.
    #[test]
    fn one_pass_equals_the_reference(ops in proptest::collection::vec(op(), 1..120)) {
        let mut world = World::new();
        let mut handles: Vec<Entity> = Vec::new();
        for op in ops {
            let pick = |index: usize| (!handles.is_empty()).then(|| handles[index % handles.len()]);
            match op {
                Op::Spawn { offset, sprite } => {
                    let mask = if sprite { OFFSET | WORLD_POSITION | SPRITE } else { OFFSET | WORLD_POSITION };
                    let node = world.spawn(mask);
                    world.set_offset(node, Offset(offset));
                    handles.push(node);
                }
                Op::Link { source, target } => {
                    if let (Some(source), Some(target)) = (pick(source), pick(target)) {
                        let _ = world.set_child_of(source, target);
                    }
                }
                Op::Unlink { source } => {
                    if let Some(source) = pick(source) {
                        world.remove_child_of(source);
                    }
                }
                Op::Despawn { entity } => {
                    if let Some(entity) = pick(entity) {
                        world.despawn(entity);
                    }
                }
                Op::Freeze { entity } => {
                    if let Some(entity) = pick(entity) {
                        world.add_frozen(entity);
                    }
                }
                Op::Strip { entity } => {
                    if let Some(entity) = pick(entity) {
                        world.remove_components(entity, WORLD_POSITION);
                    }
                }
            }
        }
        // The system forms, whole and lent, on copies: the same positions.
        let mut by_system = world.clone();
        SystemContext::new().run(&mut by_system, propagate_system);
        let mut by_lent_system = world.clone();
        SystemContext::new().run(&mut by_lent_system, propagate_beside_sprites);
        propagate(&mut world);
        prop_assert_eq!(positions(&world), reference(&world));
        prop_assert_eq!(positions(&by_system), positions(&world));
        prop_assert_eq!(positions(&by_lent_system), positions(&world));
        assert_parents_first(&mut world);
        world.check_invariants().unwrap();
        by_lent_system.check_invariants().unwrap();
    }
}

/// The multi-world form: the relation and the query's components in one sub-world.
mod game {
    use super::{Offset, Sprite, WorldPosition};

    archetypal::ecs! {
        Game {
            Core {
                offset: Offset => OFFSET,
                world_position: WorldPosition => WORLD_POSITION,
            }
            Relations {
                child_of / children => CHILD_OF [cascade],
            }
            Render {
                sprite: Sprite => SPRITE,
            }
        }
    }
}

#[test]
fn a_sub_world_propagates_within_itself() {
    use game::{CHILD_OF, Game, OFFSET, WORLD_POSITION};
    let mut game = Game::new();
    let [body, arm, hand] = [(); 3].map(|_| {
        let entity = game.spawn();
        game.core.add_components(entity, OFFSET | WORLD_POSITION);
        entity
    });
    game.core.set_offset(body, Offset(100));
    game.core.set_offset(arm, Offset(10));
    game.core.set_offset(hand, Offset(1));
    game.render.set_sprite(hand, Sprite);
    game.core.set_child_of(hand, arm).unwrap();
    game.core.set_child_of(arm, body).unwrap();
    game.core
        .typed_query::<(&Offset, &mut WorldPosition)>()
        .parents_first::<CHILD_OF>()
        .for_each(|parent: Option<&WorldPosition>, (offset, mut position)| {
            *position = WorldPosition(parent.map_or(0, |above| above.0) + offset.0);
            *position
        });
    assert_eq!(
        game.core.get_world_position(hand),
        Some(&WorldPosition(111))
    );
    assert!(game.despawn(body));
    assert!(!game.is_alive(hand), "cascaded in every sub-world");
    game.check_invariants().unwrap();
}
