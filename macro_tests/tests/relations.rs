//! Relations: `Relations { child_of / children => CHILD_OF [cascade], owned_by / belongings =>
//! OWNED_BY }`, from the user's side.
//!
//! Every per-relation method on live, dead, stale, never-issued and reserved handles; cycles of
//! length 1, 2 and deep; the children's order after removals; the relation bit in
//! `component_mask` and in include / exclude masks; despawn policies (cascade through several
//! levels and across two relations, unlink); the methods on `split_mut().components`; queued
//! links (reserved handles, skip counts); the change log; clone, restore and snapshots.
//! `check_invariants` runs after every mutation.

use archetypal::{CommandReport, Entity, EventCursor, RelationError, StructuralChange, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Offset(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Position(pub i32);

ecs! {
    World {
        offset: Offset => OFFSET,
        position: Position => POSITION,
    }
    Tags {
        player => PLAYER,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
        owned_by / belongings => OWNED_BY,
    }
}

fn report(applied: usize, skipped: usize) -> CommandReport {
    CommandReport { applied, skipped }
}

/// Panics with the broken invariant, if any.
#[track_caller]
fn valid(world: &World) {
    if let Err(error) = world.check_invariants() {
        panic!("{error}");
    }
}

fn spawn(world: &mut World, count: usize) -> Vec<Entity> {
    world.spawn_entities(OFFSET, count)
}

/// A despawned handle, a stale one (its id reused) and one never issued.
fn bad_handles(world: &mut World) -> [Entity; 3] {
    let dead = world.spawn(OFFSET);
    world.despawn(dead);
    let reused = world.spawn(OFFSET);
    assert_eq!(reused.id, dead.id, "the id is recycled");
    let stale = Entity::new(reused.id, reused.generation.wrapping_sub(1));
    world.despawn(reused);
    [dead, stale, Entity::new(9_999, 0)]
}

#[test]
fn set_get_remove_and_replace() {
    let mut world = World::new();
    let [ship, turret, other] = spawn(&mut world, 3)[..] else {
        unreachable!()
    };
    assert_eq!(world.set_child_of(turret, ship), Ok(None));
    valid(&world);
    assert_eq!(world.get_child_of(turret), Some(ship));
    assert_eq!(world.get_children(ship), &[turret]);
    assert_eq!(world.get_child_of(ship), None);
    assert_eq!(
        world.set_child_of(turret, ship),
        Ok(Some(ship)),
        "again: no change"
    );
    assert_eq!(world.get_children(ship), &[turret]);
    assert_eq!(world.set_child_of(turret, other), Ok(Some(ship)));
    valid(&world);
    assert!(world.get_children(ship).is_empty());
    assert_eq!(world.get_children(other), &[turret]);
    assert_eq!(world.remove_child_of(turret), Some(other));
    assert_eq!(world.remove_child_of(turret), None);
    assert_eq!(world.get_child_of(turret), None);
    assert!(world.get_children(other).is_empty());
    // The two relations are independent.
    world.set_child_of(turret, ship).unwrap();
    world.set_owned_by(turret, other).unwrap();
    assert_eq!(world.get_belongings(other), &[turret]);
    assert_eq!(world.get_child_of(turret), Some(ship));
    assert_eq!(world.archetype_count(), 1, "linking never migrates");
    valid(&world);
}

#[test]
fn dead_stale_never_issued_and_reserved_handles() {
    let mut world = World::new();
    let [live, child] = spawn(&mut world, 2)[..] else {
        unreachable!()
    };
    world.set_child_of(child, live).unwrap();
    let reserved = world.commands().queue_spawn_entities(OFFSET, 1)[0];
    let [dead, stale, never] = bad_handles(&mut world);
    for bad in [dead, stale, never, reserved, Entity::default()] {
        if bad == Entity::default() && world.is_alive(bad) {
            continue;
        }
        assert_eq!(
            world.set_child_of(bad, live),
            Err(RelationError::DeadSource)
        );
        assert_eq!(
            world.set_child_of(live, bad),
            Err(RelationError::DeadTarget)
        );
        assert_eq!(world.set_owned_by(bad, bad), Err(RelationError::DeadSource));
        assert_eq!(world.remove_child_of(bad), None);
        assert_eq!(world.get_child_of(bad), None);
        assert!(world.get_children(bad).is_empty());
        assert_eq!(world.ancestors_child_of(bad).count(), 0);
        assert_eq!(world.descendants_child_of(bad).count(), 0);
    }
    assert_eq!(world.get_children(live), &[child]);
    assert_eq!(
        RelationError::DeadSource.to_string(),
        "the source entity is not alive"
    );
    let error: Box<dyn std::error::Error> = Box::new(RelationError::Cycle);
    assert!(error.to_string().contains("descendant"));
    valid(&world);
}

#[test]
fn cycles_of_length_one_two_and_deep_are_refused_and_change_nothing() {
    let mut world = World::new();
    let chain = spawn(&mut world, 50);
    assert_eq!(
        world.set_child_of(chain[0], chain[0]),
        Err(RelationError::SelfLink)
    );
    for pair in chain.windows(2) {
        world.set_child_of(pair[1], pair[0]).unwrap();
    }
    let masks: Vec<_> = chain.iter().map(|&e| world.component_mask(e)).collect();
    assert_eq!(
        world.set_child_of(chain[0], chain[1]),
        Err(RelationError::Cycle)
    );
    assert_eq!(
        world.set_child_of(chain[0], chain[49]),
        Err(RelationError::Cycle)
    );
    assert_eq!(
        world.set_child_of(chain[10], chain[30]),
        Err(RelationError::Cycle)
    );
    // A failed re-link keeps the old target.
    assert_eq!(world.get_child_of(chain[10]), Some(chain[9]));
    assert_eq!(world.get_child_of(chain[0]), None);
    let after: Vec<_> = chain.iter().map(|&e| world.component_mask(e)).collect();
    assert_eq!(masks, after);
    // The other relation is a separate forest: the same pair is no cycle there.
    assert_eq!(world.set_owned_by(chain[0], chain[49]), Ok(None));
    // Moving a subtree under a cousin is fine.
    assert_eq!(world.set_child_of(chain[30], chain[5]), Ok(Some(chain[29])));
    valid(&world);
}

#[test]
fn children_keep_link_order_after_removals() {
    let mut world = World::new();
    let parent = world.spawn(OFFSET);
    let kids = spawn(&mut world, 6);
    for &kid in &kids {
        world.set_child_of(kid, parent).unwrap();
    }
    world.remove_child_of(kids[1]);
    world.despawn(kids[3]);
    world.set_child_of(kids[4], kids[0]).unwrap();
    assert_eq!(world.get_children(parent), &[kids[0], kids[2], kids[5]]);
    world.set_child_of(kids[1], parent).unwrap();
    assert_eq!(
        world.get_children(parent),
        &[kids[0], kids[2], kids[5], kids[1]]
    );
    valid(&world);
}

#[test]
fn ancestors_nearest_first_descendants_depth_first_pre_order() {
    let mut world = World::new();
    let [root, a, b, a1, a2, b1, a1x] = spawn(&mut world, 7)[..] else {
        unreachable!()
    };
    for (child, parent) in [(a, root), (b, root), (a1, a), (a2, a), (b1, b), (a1x, a1)] {
        world.set_child_of(child, parent).unwrap();
    }
    assert_eq!(
        world.ancestors_child_of(a1x).collect::<Vec<_>>(),
        vec![a1, a, root]
    );
    assert_eq!(world.ancestors_child_of(root).count(), 0);
    assert_eq!(
        world.descendants_child_of(root).collect::<Vec<_>>(),
        vec![a, a1, a1x, a2, b, b1]
    );
    assert_eq!(
        world.descendants_child_of(a).collect::<Vec<_>>(),
        vec![a1, a1x, a2]
    );
    assert_eq!(world.descendants_child_of(a1x).count(), 0);
    assert_eq!(world.descendants_owned_by(root).count(), 0);
}

#[test]
fn the_relation_bit_is_a_tag_bit_set_only_by_linking() {
    let mut world = World::new();
    let root = world.spawn(OFFSET | POSITION);
    let child = world.spawn(OFFSET | POSITION | CHILD_OF | PLAYER);
    assert_eq!(
        world.component_mask(child),
        Some(OFFSET | POSITION | PLAYER),
        "a spawn mask cannot set it"
    );
    world.add_player(root);
    assert!(world.add_components(child, CHILD_OF | OWNED_BY));
    assert_eq!(
        world.component_mask(child),
        Some(OFFSET | POSITION | PLAYER)
    );
    world.set_child_of(child, root).unwrap();
    assert_eq!(
        world.component_mask(child),
        Some(OFFSET | POSITION | PLAYER | CHILD_OF)
    );
    assert!(world.has_components(child, CHILD_OF | PLAYER));
    assert!(world.remove_components(child, CHILD_OF | PLAYER));
    assert_eq!(
        world.component_mask(child),
        Some(OFFSET | POSITION | CHILD_OF)
    );
    assert_eq!(world.get_child_of(child), Some(root));
    valid(&world);

    let roots: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .with(POSITION)
        .without(CHILD_OF)
        .iter()
        .collect();
    assert_eq!(roots, vec![root]);
    let mut linked = Vec::new();
    world.for_each(OFFSET | CHILD_OF, 0, |entity, _, _| linked.push(entity));
    assert_eq!(linked, vec![child]);
    let mut unlinked = Vec::new();
    world.for_each_mut(OFFSET, CHILD_OF, |entity, _, _| unlinked.push(entity));
    assert_eq!(unlinked, vec![root]);
    assert_eq!(
        world.query_entities(CHILD_OF).collect::<Vec<_>>(),
        vec![child]
    );
    world.remove_child_of(child);
    assert_eq!(world.component_mask(child), Some(OFFSET | POSITION));
    assert_eq!(world.query_entities(CHILD_OF).count(), 0);
    valid(&world);
}

#[test]
fn cascade_through_several_levels_and_across_two_relations() {
    let mut world = World::new();
    let [ship, turret, barrel, crew, sword, sword_gem] = spawn(&mut world, 6)[..] else {
        unreachable!()
    };
    world.set_child_of(turret, ship).unwrap();
    world.set_child_of(barrel, turret).unwrap();
    // Owned: unlinked when the owner dies, not despawned.
    world.set_owned_by(crew, barrel).unwrap();
    // Cascade from a relation to the other: the sword is the crew's (owned), its gem its child.
    world.set_owned_by(sword, crew).unwrap();
    world.set_child_of(sword_gem, sword).unwrap();
    let survivor = world.spawn(OFFSET);
    world.set_child_of(survivor, crew).unwrap();
    assert!(world.despawn(ship));
    valid(&world);
    for gone in [ship, turret, barrel] {
        assert!(!world.is_alive(gone));
    }
    for kept in [crew, sword, sword_gem, survivor] {
        assert!(world.is_alive(kept));
    }
    assert_eq!(world.get_owned_by(crew), None);
    assert_eq!(world.component_mask(crew), Some(OFFSET));
    // Despawning the crew: its child goes (cascade), its sword is unlinked (owned_by), and the
    // sword keeps its own child.
    assert!(world.despawn(crew));
    valid(&world);
    assert!(!world.is_alive(survivor));
    assert!(world.is_alive(sword) && world.is_alive(sword_gem));
    assert_eq!(world.get_owned_by(sword), None);
    assert_eq!(world.get_children(sword), &[sword_gem]);
    // Both relations cascade into one entity: despawned once.
    let mut world = World::new();
    let [a, b, shared, below] = spawn(&mut world, 4)[..] else {
        unreachable!()
    };
    world.set_child_of(b, a).unwrap();
    world.set_child_of(shared, a).unwrap();
    world.set_owned_by(shared, b).unwrap();
    world.set_child_of(below, shared).unwrap();
    assert_eq!(world.despawn_entities(&[a, shared]), vec![a]);
    assert_eq!(world.entity_count(), 0);
    valid(&world);
}

#[test]
fn the_components_part_has_every_method() {
    let mut world = World::new();
    let [parent, child] = spawn(&mut world, 2)[..] else {
        unreachable!()
    };
    let parts = world.split_mut();
    let components = parts.components;
    let mut commands = parts.commands;
    assert_eq!(components.set_child_of(child, parent), Ok(None));
    assert_eq!(components.get_child_of(child), Some(parent));
    assert_eq!(components.get_children(parent), &[child]);
    assert_eq!(
        components.ancestors_child_of(child).collect::<Vec<_>>(),
        vec![parent]
    );
    assert_eq!(
        components.descendants_child_of(parent).collect::<Vec<_>>(),
        vec![child]
    );
    assert_eq!(components.remove_child_of(child), Some(parent));
    assert_eq!(components.set_owned_by(child, parent), Ok(None));
    // Iterating the components while queueing links.
    components.for_each(OFFSET, OWNED_BY, |entity, _, _| {
        if entity != parent {
            commands.queue_set_child_of(entity, parent);
        }
    });
    commands.queue_set_child_of(child, parent);
    commands.queue_remove_owned_by(child);
    assert_eq!(
        world.apply_commands(),
        CommandReport {
            applied: 2,
            skipped: 0
        }
    );
    assert_eq!(world.get_child_of(child), Some(parent));
    assert_eq!(world.get_owned_by(child), None);
    valid(&world);
}

#[test]
fn queued_links_apply_in_order_with_reserved_handles_and_count_skips() {
    let mut world = World::new();
    let root = world.spawn(OFFSET);
    let doomed = world.spawn(OFFSET);
    let new = world.commands().queue_spawn_entities(OFFSET | POSITION, 3);
    world.commands().queue_set_child_of(new[0], root);
    world.commands().queue_set_child_of(new[1], new[0]);
    world.commands().queue_set_child_of(new[2], new[1]);
    // Becomes a cycle by the time it applies: skipped.
    world.commands().queue_set_child_of(new[0], new[2]);
    world.commands().queue_set_owned_by(new[2], doomed);
    world.commands().queue_despawn(doomed);
    world.commands().queue_set_owned_by(new[1], doomed);
    world.commands().queue_remove_owned_by(doomed);
    world.commands().queue_remove_child_of(new[1]);
    world.commands().queue_set_child_of(new[1], root);
    assert_eq!(world.command_count(), 11);
    // Nothing is linked before applying: reserved handles are not alive.
    assert_eq!(
        world.set_child_of(new[0], root),
        Err(RelationError::DeadSource)
    );
    let report = world.apply_commands();
    assert_eq!(
        report,
        CommandReport {
            applied: 8,
            skipped: 3
        }
    );
    assert_eq!(world.get_children(root), &[new[0], new[1]]);
    assert_eq!(world.get_child_of(new[2]), Some(new[1]));
    assert_eq!(world.get_owned_by(new[2]), None, "unlinked by the despawn");
    assert_eq!(world.get_child_of(new[0]), Some(root));
    valid(&world);
}

#[test]
fn the_change_log_records_links_and_unlinks_of_a_cascade() {
    let mut world = World::new();
    let [root, child, grandchild, owned] = spawn(&mut world, 4)[..] else {
        unreachable!()
    };
    world.enable_change_log(100);
    let mut cursor: EventCursor = world.change_cursor();
    world.set_child_of(child, root).unwrap();
    world.set_child_of(grandchild, child).unwrap();
    world.set_owned_by(owned, grandchild).unwrap();
    world.set_owned_by(owned, root).unwrap();
    world.set_owned_by(owned, grandchild).unwrap();
    assert!(world.set_child_of(root, grandchild).is_err());
    world.despawn(root);
    let changes: Vec<StructuralChange<Mask>> = world
        .consume_changes(&mut cursor)
        .into_iter()
        .copied()
        .collect();
    use StructuralChange::{Despawned, Linked, Unlinked};
    assert_eq!(
        changes,
        vec![
            Linked {
                relation: CHILD_OF,
                source: child,
                target: root
            },
            Linked {
                relation: CHILD_OF,
                source: grandchild,
                target: child
            },
            Linked {
                relation: OWNED_BY,
                source: owned,
                target: grandchild
            },
            Unlinked {
                relation: OWNED_BY,
                source: owned,
                target: grandchild
            },
            Linked {
                relation: OWNED_BY,
                source: owned,
                target: root
            },
            Unlinked {
                relation: OWNED_BY,
                source: owned,
                target: root
            },
            Linked {
                relation: OWNED_BY,
                source: owned,
                target: grandchild
            },
            Unlinked {
                relation: CHILD_OF,
                source: child,
                target: root
            },
            Despawned { entity: root },
            Unlinked {
                relation: CHILD_OF,
                source: grandchild,
                target: child
            },
            Despawned { entity: child },
            Unlinked {
                relation: OWNED_BY,
                source: owned,
                target: grandchild
            },
            Despawned { entity: grandchild },
        ]
    );
    assert_eq!(changes[0].entity(), child);
    valid(&world);
}

/// A world with links in both relations, some removed, some entities despawned.
fn linked_world() -> (World, Vec<Entity>) {
    let mut world = World::new();
    let entities = world.spawn_batch(OFFSET | POSITION, 12, |table, index| {
        table.offset[index] = Offset(index as i32);
    });
    for index in 1..12 {
        world
            .set_child_of(entities[index], entities[(index - 1) / 3])
            .unwrap();
    }
    world.set_owned_by(entities[5], entities[9]).unwrap();
    world.set_owned_by(entities[2], entities[9]).unwrap();
    world.remove_child_of(entities[2]);
    world.add_player(entities[4]);
    world.despawn(entities[3]);
    valid(&world);
    (world, entities)
}

/// One entity's links both ways in both relations, and its mask.
type EntityLinks = (
    Option<Entity>,
    Vec<Entity>,
    Option<Entity>,
    Vec<Entity>,
    Option<Mask>,
);

/// The links of `world` among `entities`, both ways, for comparing two worlds.
fn links(world: &World, entities: &[Entity]) -> Vec<EntityLinks> {
    entities
        .iter()
        .map(|&entity| {
            (
                world.get_child_of(entity),
                world.get_children(entity).to_vec(),
                world.get_owned_by(entity),
                world.get_belongings(entity).to_vec(),
                world.component_mask(entity),
            )
        })
        .collect()
}

#[test]
fn clone_and_restore_keep_relations_exactly() {
    let (mut world, entities) = linked_world();
    let saved = world.clone();
    valid(&saved);
    assert_eq!(links(&saved, &entities), links(&world, &entities));
    world.set_child_of(entities[2], entities[5]).unwrap();
    world.despawn(entities[0]);
    assert!(!world.is_alive(entities[2]) && !world.is_alive(entities[9]));
    assert_ne!(links(&saved, &entities), links(&world, &entities));
    world.restore(&saved);
    valid(&world);
    assert_eq!(links(&saved, &entities), links(&world, &entities));
    // Both go on identically.
    let mut copy = saved.clone();
    world.despawn(entities[1]);
    copy.despawn(entities[1]);
    assert_eq!(links(&copy, &entities), links(&world, &entities));
}

#[test]
fn snapshots_keep_relations_exactly_in_json_and_postcard() {
    let (world, entities) = linked_world();
    let text = serde_json::to_string(&world.snapshot()).unwrap();
    assert!(text.contains(r#""relations":{"child_of":[["#), "{text}");
    let loaded: World = serde_json::from_str(&text).unwrap();
    valid(&loaded);
    assert_eq!(links(&loaded, &entities), links(&world, &entities));
    assert_eq!(serde_json::to_string(&loaded.snapshot()).unwrap(), text);
    let bytes = postcard::to_allocvec(&world.snapshot()).unwrap();
    let loaded: World = postcard::from_bytes(&bytes).unwrap();
    valid(&loaded);
    assert_eq!(links(&loaded, &entities), links(&world, &entities));
    // The loaded world goes on as the original.
    let (mut world, mut loaded) = (world, loaded);
    world.despawn(entities[1]);
    loaded.despawn(entities[1]);
    assert_eq!(links(&loaded, &entities), links(&world, &entities));
}

#[test]
fn snapshots_with_invalid_links_are_refused_whole() {
    let mut world = World::new();
    let [a, b, c] = spawn(&mut world, 3)[..] else {
        unreachable!()
    };
    world.set_child_of(b, a).unwrap();
    world.set_child_of(c, b).unwrap();
    let dead = world.spawn(OFFSET);
    world.despawn(dead);
    let text = serde_json::to_string(&world.snapshot()).unwrap();
    let edited = |links: serde_json::Value| {
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["relations"]["child_of"] = links;
        value.to_string()
    };
    let refused = |text: String, expected: &str| {
        let error = match serde_json::from_str::<World>(&text) {
            Ok(_) => panic!("loaded: {text}"),
            Err(error) => error.to_string(),
        };
        assert!(error.contains(expected), "{error} (expected {expected})");
    };
    let id = |entity: Entity| serde_json::json!(entity.id);
    refused(
        edited(serde_json::json!([[id(b), id(dead)]])),
        "which is not a live entity",
    );
    refused(
        edited(serde_json::json!([[id(b), id(a)], [id(b), id(c)]])),
        "links id 1 twice",
    );
    refused(
        edited(serde_json::json!([[id(a), id(b)], [id(b), id(a)]])),
        "is on a cycle",
    );
    refused(
        edited(serde_json::json!([
            [id(a), id(c)],
            [id(b), id(a)],
            [id(c), id(b)]
        ])),
        "is on a cycle",
    );
    refused(
        edited(serde_json::json!([[id(a), id(a)]])),
        "an entity cannot be linked to itself",
    );
    refused(edited(serde_json::json!([[id(a)]])), "invalid length 1");
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["relations"]["parent_of"] = serde_json::json!([]);
    refused(value.to_string(), "unknown relation `parent_of`");
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["relations"]
        .as_object_mut()
        .unwrap()
        .remove("owned_by");
    refused(value.to_string(), "the snapshot has no `owned_by` relation");
    // Untouched, it loads.
    let loaded: World = serde_json::from_str(&text).unwrap();
    assert_eq!(
        loaded.descendants_child_of(a).collect::<Vec<_>>(),
        vec![b, c]
    );
}

#[test]
fn split_lends_the_links_beside_writable_rows_for_propagation() {
    let mut world = World::new();
    let [ship, turret, barrel, lone] = world.spawn_entities(OFFSET | POSITION, 4)[..] else {
        unreachable!()
    };
    let offsetless = world.spawn(POSITION);
    for (entity, offset) in [(ship, 100), (turret, 10), (barrel, 1), (lone, 5)] {
        world.set_offset(entity, Offset(offset));
    }
    world.set_child_of(turret, ship).unwrap();
    world.set_child_of(barrel, turret).unwrap();
    world.set_child_of(offsetless, ship).unwrap();
    world.step();
    let since = world.last_tick();
    world.for_each_table_mut(OFFSET | POSITION, CHILD_OF, |table| {
        for (position, offset) in table.position.iter_mut().zip(table.offset.iter()) {
            *position = Position(offset.0);
        }
    });
    let (hierarchy, mut rows) = world.split_child_of();
    assert_eq!(hierarchy.roots().collect::<Vec<_>>(), vec![ship]);
    for root in hierarchy.roots() {
        for entity in hierarchy.descendants(root) {
            let parent = hierarchy.target(entity).unwrap();
            let above = rows.get_position(parent).unwrap().0;
            match rows.get_offset(entity) {
                Some(offset) => {
                    let offset = offset.0;
                    *rows.get_position_mut(entity).unwrap() = Position(above + offset);
                }
                None => assert!(rows.get_offset_mut(entity).is_none()),
            }
        }
    }
    let [dead] = bad_handles(&mut world)[..1] else {
        unreachable!()
    };
    let (_, rows) = world.split_child_of();
    assert!(rows.get_position(dead).is_none() && !rows.contains(dead));
    assert!(rows.contains(ship));
    assert_eq!(world.get_position(barrel), Some(&Position(111)));
    assert_eq!(world.get_position(lone), Some(&Position(5)));
    assert_eq!(world.get_position(offsetless), Some(&Position(0)));
    // The writes through the rows are seen by change detection.
    let changed: Vec<Entity> = world
        .typed_query_ref::<Entity>()
        .changed_since(POSITION, since)
        .iter()
        .collect();
    assert!(changed.contains(&barrel) && changed.contains(&turret));
    valid(&world);
}

/// The multi-world form: each sub-world declares its own relations (after its tags); the
/// whole's despawn applies every sub-world's policies, cascading across sub-worlds.
mod multi {
    use archetypal::{CommandReport, RelationError};

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Position(pub i32);

    #[derive(Default, Debug, Clone, Copy, PartialEq)]
    pub struct Sprite(pub u32);

    archetypal::ecs! {
        Game {
            Core {
                position: Position => POSITION,
            }
            Relations {
                child_of / children => CHILD_OF [cascade],
            }
            Render {
                sprite: Sprite => SPRITE,
            }
            Tags {
                visible => VISIBLE,
            }
            Relations {
                owned_by / belongings => OWNED_BY [cascade],
                attached_to / attachments => ATTACHED_TO,
            }
        }
    }

    #[test]
    fn despawn_cascades_across_sub_worlds() {
        let mut game = Game::new();
        let [a, b, c, d, e] = game.spawn_entities(5)[..] else {
            unreachable!()
        };
        for &entity in &[a, b, c, d, e] {
            game.core.set_position(entity, Position(entity.id as i32));
            game.render.set_sprite(entity, Sprite(entity.id));
        }
        assert_eq!(game.core.set_child_of(b, a), Ok(None));
        assert_eq!(game.render.set_owned_by(c, b), Ok(None));
        assert_eq!(game.render.set_attached_to(d, c), Ok(None));
        assert_eq!(game.core.set_child_of(e, d), Ok(None));
        assert_eq!(game.render.set_owned_by(b, c), Err(RelationError::Cycle));
        // Each sub-world's forest is its own: the same pair the other way is no cycle there.
        assert_eq!(game.core.set_child_of(c, e), Ok(None));
        assert_eq!(game.render.component_mask(d), Some(SPRITE | ATTACHED_TO));
        assert_eq!(OWNED_BY, VISIBLE << 1);
        game.check_invariants().unwrap();
        assert!(game.despawn(a));
        game.check_invariants().unwrap();
        // a -> b (Core child_of) -> c (Render owned_by): gone everywhere; d was attached to c
        // (unlinked), e is d's child in Core (kept).
        for gone in [a, b, c] {
            assert!(
                !game.is_alive(gone) && !game.core.is_alive(gone) && !game.render.is_alive(gone)
            );
        }
        assert!(game.is_alive(d) && game.is_alive(e));
        assert_eq!(game.render.get_attached_to(d), None);
        assert_eq!(game.render.component_mask(d), Some(SPRITE));
        assert_eq!(game.core.get_children(d), &[e]);
        assert_eq!(game.core.get_child_of(e), Some(d));
        assert!(!game.despawn(a));
        // Without a cascade the plain despawn unlinks.
        assert!(game.despawn(e));
        assert!(game.core.get_children(d).is_empty());
        game.check_invariants().unwrap();
    }

    #[test]
    fn queued_links_in_a_sub_world_reach_reserved_handles() {
        let mut game = Game::new();
        let root = game.spawn();
        let new = game.commands().queue_spawn_entities(2);
        game.commands().core().queue_set_child_of(new[0], root);
        game.split_mut()
            .commands
            .render()
            .queue_set_owned_by(new[1], new[0]);
        game.commands().render().queue_remove_attached_to(new[1]);
        game.commands().queue_despawn(root);
        let report = game.apply_commands();
        assert_eq!(
            report,
            CommandReport {
                applied: 5,
                skipped: 0
            }
        );
        // The despawn of the root cascaded to both.
        assert_eq!(game.entity_count(), 0);
        game.check_invariants().unwrap();
    }
}

#[test]
fn typed_queries_filter_on_the_relation_bit() {
    let mut world = World::new();
    let [root, child, grandchild] = spawn(&mut world, 3)[..] else {
        unreachable!()
    };
    world.set_child_of(child, root).unwrap();
    world.set_child_of(grandchild, child).unwrap();
    world
        .typed_query::<&mut Offset>()
        .without(CHILD_OF)
        .for_each(|mut offset| offset.0 = 7);
    let mut linked: Vec<Entity> = world
        .typed_query_ref::<(Entity, &Offset)>()
        .with(CHILD_OF)
        .iter()
        .map(|(entity, _)| entity)
        .collect();
    linked.sort();
    assert_eq!(linked, vec![child, grandchild]);
    assert_eq!(world.get_offset(root), Some(&Offset(7)));
    assert_eq!(world.get_offset(child), Some(&Offset(0)));
}

/// A world with relations and no tags: the relation bits are its only tag bits.
mod without_tags {
    use archetypal::Entity;

    archetypal::ecs! {
        Plain {
            value: u8 => VALUE,
        }
        Relations {
            part_of / parts => PART_OF,
        }
    }

    #[test]
    fn relations_work_without_a_tags_block() {
        let mut world = Plain::new();
        let [whole, part] = world.spawn_entities(VALUE, 2)[..] else {
            unreachable!()
        };
        assert_eq!(PART_OF, VALUE << 1);
        world.set_part_of(part, whole).unwrap();
        let roots: Vec<Entity> = world
            .typed_query_ref::<Entity>()
            .with(VALUE)
            .without(PART_OF)
            .iter()
            .collect();
        assert_eq!(roots, vec![whole]);
        let text = serde_json::to_string(&world.snapshot()).unwrap();
        assert!(
            text.contains(r#""tags":{},"relations":{"part_of":[[1,0]]}"#),
            "{text}"
        );
        let loaded: Plain = serde_json::from_str(&text).unwrap();
        assert_eq!(loaded.get_part_of(part), Some(whole));
        loaded.check_invariants().unwrap();
        world.despawn(whole);
        assert!(world.is_alive(part), "unlinked, not cascaded");
        assert_eq!(world.component_mask(part), Some(VALUE));
        world.check_invariants().unwrap();
    }
}

#[test]
fn a_builder_links_its_entities_as_they_spawn_queued_or_not() {
    let mut world = World::new();
    let ship = EntityBuilder::new()
        .with_position(Position(10))
        .spawn_one(&mut world);
    let owner = world.spawn(POSITION);
    // Direct: every entity of a batch is linked, the last set target wins.
    let turrets = EntityBuilder::new()
        .with_offset(Offset(1))
        .with_child_of(owner)
        .with_child_of(ship)
        .with_owned_by(owner)
        .spawn(&mut world, 2);
    for &turret in &turrets {
        assert_eq!(world.get_child_of(turret), Some(ship));
        assert_eq!(world.get_owned_by(turret), Some(owner));
        assert_eq!(
            world.component_mask(turret),
            Some(OFFSET | CHILD_OF | OWNED_BY)
        );
    }
    assert_eq!(world.get_children(ship), turrets.as_slice());
    valid(&world);

    // Queued: a carrier and its escorts, linked to a handle that is not alive yet when
    // queued; a target despawned before the apply leaves its child unlinked.
    let doomed = world.spawn(POSITION);
    let mut commands = world.commands();
    let carrier = commands.queue_spawn(EntityBuilder::new().with_position(Position(0)));
    let escorts: Vec<Entity> = (0..3)
        .map(|x| {
            commands.queue_spawn(
                EntityBuilder::new()
                    .with_offset(Offset(x))
                    .with_child_of(carrier),
            )
        })
        .collect();
    let orphan = commands.queue_spawn(
        EntityBuilder::new()
            .with_offset(Offset(9))
            .with_child_of(doomed),
    );
    commands.queue_despawn(doomed);
    // Linked to a handle queued earlier: alive by the time this one spawns.
    let early = commands.queue_spawn(
        EntityBuilder::new()
            .with_position(Position(5))
            .with_child_of(escorts[0]),
    );
    world.despawn(doomed);
    assert_eq!(
        world.apply_commands(),
        report(6, 1),
        "the despawn of `doomed` is skipped"
    );
    assert_eq!(world.get_children(carrier), escorts.as_slice());
    assert_eq!(
        world.get_child_of(orphan),
        None,
        "its target died before it spawned"
    );
    assert_eq!(world.component_mask(orphan), Some(OFFSET));
    assert_eq!(
        world.get_child_of(early),
        Some(escorts[0]),
        "alive by then: queued earlier"
    );
    valid(&world);

    // A cascade reaches what the builder linked.
    world.despawn(carrier);
    assert!(escorts.iter().all(|&escort| !world.is_alive(escort)));
    assert!(!world.is_alive(early));
    valid(&world);
}

#[test]
fn a_builder_spawn_with_a_dead_target_links_the_rest_and_leaves_that_relation_out() {
    let mut world = World::new();
    let ship = world.spawn(POSITION);
    let [dead, stale, never] = bad_handles(&mut world);
    for target in [dead, stale, never] {
        let builder = EntityBuilder::new()
            .with_offset(Offset(1))
            .with_mask(PLAYER)
            .with_child_of(ship)
            .with_owned_by(target);
        let mut spawned = builder.clone().spawn(&mut world, 3);
        spawned.push(builder.spawn_one(&mut world));
        for &entity in &spawned {
            assert_eq!(world.get_child_of(entity), Some(ship));
            assert_eq!(world.get_owned_by(entity), None, "{target:?} is not alive");
            assert_eq!(
                world.component_mask(entity),
                Some(OFFSET | PLAYER | CHILD_OF)
            );
        }
        valid(&world);
        let owned: Vec<Entity> = world.query_entities(OWNED_BY).collect();
        assert!(owned.is_empty(), "no row sits among the owned");
    }
    let linked: Vec<Entity> = world.query_entities(CHILD_OF | PLAYER).collect();
    assert_eq!(linked.len(), 12);
    assert_eq!(world.get_children(ship).len(), 12);
    // The live relation's rows stay where they are when the other is linked later.
    let owner = world.spawn(POSITION);
    for &entity in &linked {
        assert_eq!(world.set_owned_by(entity, owner), Ok(None));
    }
    valid(&world);
    assert_eq!(world.query_entities(OWNED_BY | CHILD_OF).count(), 12);
}

#[test]
fn queued_spawns_of_one_mask_link_in_place_whether_all_some_or_none_are_linked() {
    let mut world = World::new();
    let carrier = world.spawn(POSITION);
    let escort = |x| EntityBuilder::new().with_offset(Offset(x));
    for linked in [3, 2, 0] {
        let mut commands = world.commands();
        // One run of three rows of mask OFFSET: the first `linked` linked to the carrier.
        let spawned: Vec<Entity> = (0..3)
            .map(|x| {
                let builder = escort(x);
                commands.queue_spawn(if x < linked {
                    builder.with_child_of(carrier)
                } else {
                    builder
                })
            })
            .collect();
        assert_eq!(world.apply_commands(), report(3, 0));
        valid(&world);
        for (x, &entity) in spawned.iter().enumerate() {
            let parent = (x < linked as usize).then_some(carrier);
            assert_eq!(
                world.get_child_of(entity),
                parent,
                "{linked} linked, row {x}"
            );
        }
        assert_eq!(
            world.query_entities(OFFSET | CHILD_OF).count(),
            world.get_children(carrier).len()
        );
    }
    assert_eq!(world.get_children(carrier).len(), 5);
    assert_eq!(world.query_entities(OFFSET).count(), 9);
}

#[test]
fn children_being_written_read_their_parents_through_the_read_side() {
    let mut world = World::new();
    let ships: Vec<Entity> = (0..3)
        .map(|x| {
            EntityBuilder::new()
                .with_position(Position(100 * (x + 1)))
                .spawn_one(&mut world)
        })
        .collect();
    let turret = |world: &mut World, ship: Entity, offset: i32| {
        EntityBuilder::new()
            .with_position(Position(0))
            .with_offset(Offset(offset))
            .with_child_of(ship)
            .spawn_one(world)
    };
    let on_first = turret(&mut world, ships[0], 1);
    let on_second = turret(&mut world, ships[1], 2);
    let relinked = turret(&mut world, ships[0], 3);
    let orphan = turret(&mut world, ships[2], 4);
    let unlinked = world.spawn(POSITION | OFFSET);
    world.set_child_of(relinked, ships[1]).unwrap();
    world.despawn(ships[2]); // a cascade: its turret goes too
    assert!(!world.is_alive(orphan));
    // A stale handle: the id of the despawned ship or of its turret, reused.
    let reused = world.spawn(POSITION);
    assert!(reused.id == ships[2].id || reused.id == orphan.id);

    /// Turret position = its ship's position + its offset, in one loop over the turrets.
    fn follow(world: &mut World) -> usize {
        let (mut turrets, ships) = world
            .split_tables(POSITION | OFFSET, 0, POSITION, OFFSET)
            .expect("OFFSET separates the sides");
        let mut moved = 0;
        turrets.for_each_mut(|turret, table, row| {
            let ship = ships.get_child_of(turret);
            if let Some(ship_position) = ship.and_then(|ship| ships.get_position(ship)) {
                table.position[row] = Position(ship_position.0 + table.offset[row].0);
                moved += 1;
            }
        });
        moved
    }
    assert_eq!(follow(&mut world), 3, "the unlinked turret has no ship");
    assert_eq!(world.get_position(on_first), Some(&Position(101)));
    assert_eq!(world.get_position(on_second), Some(&Position(202)));
    assert_eq!(
        world.get_position(relinked),
        Some(&Position(203)),
        "its new ship"
    );
    assert_eq!(world.get_position(unlinked), Some(&Position(0)));

    // The read side answers for dead, stale and never-issued handles with `None`.
    let (_, ships_side) = world
        .split_tables(POSITION | OFFSET, 0, POSITION, OFFSET)
        .unwrap();
    assert_eq!(ships_side.get_child_of(orphan), None, "dead or stale");
    assert_eq!(ships_side.get_child_of(ships[2]), None, "dead or stale");
    assert_eq!(
        ships_side.get_child_of(Entity::new(9_999, 0)),
        None,
        "never issued"
    );
    assert_eq!(ships_side.get_child_of(ships[0]), None, "a root");
    assert_eq!(
        ships_side.get_child_of(on_first),
        Some(ships[0]),
        "from the other side"
    );
    assert_eq!(ships_side.get_owned_by(on_first), None);
    assert_eq!(
        ships_side.get_children(ships[1]),
        [on_second, relinked],
        "link order"
    );
    assert!(
        ships_side.get_children(ships[2]).is_empty(),
        "dead or stale"
    );

    // The other way: each ship, written, sums the offsets of its turrets, read.
    let (mut ships_side, turrets) = world.split_tables(POSITION, OFFSET, OFFSET, 0).unwrap();
    ships_side.for_each_mut(|ship, table, row| {
        let offsets = turrets.get_children(ship).iter();
        table.position[row].0 = offsets
            .filter_map(|&turret| turrets.get_offset(turret))
            .map(|offset| offset.0)
            .sum();
    });
    assert_eq!(world.get_position(ships[0]), Some(&Position(1)));
    assert_eq!(world.get_position(ships[1]), Some(&Position(5)), "2 + 3");
    valid(&world);
}
