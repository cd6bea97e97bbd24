use super::*;
use alloc::string::ToString;

fn entity(id: u32) -> Entity {
    Entity::new(id, 0)
}

#[test]
fn link_replace_and_unlink_keep_both_directions() {
    let mut store = RelationStore::new();
    let (a, b, c) = (entity(0), entity(1), entity(2));
    assert_eq!(store.link(a, b), Ok(None));
    assert_eq!(store.link(c, b), Ok(None));
    assert_eq!(store.sources(b), &[a, c]);
    assert_eq!(store.link(a, c), Ok(Some(b)));
    assert_eq!(store.sources(b), &[c]);
    assert_eq!(store.sources(c), &[a]);
    assert_eq!(store.target(a), Some(c));
    assert_eq!(store.link(a, c), Ok(Some(c)), "the same target: no change");
    assert_eq!(store.len(), 2);
    assert_eq!(store.unlink(a), Some(c));
    assert_eq!(store.unlink(a), None);
    assert_eq!(store.sources(c), &[] as &[Entity]);
    store.check(|_| true).unwrap();
}

#[test]
fn common_prefix_stops_at_the_first_difference_in_id_or_generation() {
    for len in 0..20 {
        let a: Vec<Entity> = (0..len).map(entity).collect();
        // Alike to the end, then against a shorter or longer other side.
        assert_eq!(common_prefix(&a, &a), len as usize);
        assert_eq!(common_prefix(&a, &a[..len as usize / 2]), len as usize / 2);
        assert_eq!(common_prefix(&a[..len as usize / 2], &a), len as usize / 2);
        for at in 0..len as usize {
            let mut other_id = a.clone();
            other_id[at] = entity(1000);
            assert_eq!(common_prefix(&a, &other_id), at);
            let mut other_generation = a.clone();
            other_generation[at] = Entity::new(at as u32, 1);
            assert_eq!(common_prefix(&other_generation, &a), at);
        }
    }
}

#[test]
fn shared_target_counts_the_leading_sources_with_the_first_ones_target() {
    let mut store = RelationStore::new();
    let (ship, other) = (entity(0), entity(1));
    let rows: Vec<Entity> = (2..9).map(entity).collect();
    for &turret in &rows[..3] {
        store.link(turret, ship).unwrap();
    }
    store.link(rows[3], other).unwrap();
    // rows[4] and rows[5] have no target; rows[6] is linked under a later generation.
    store.link(rows[6], ship).unwrap();
    let stale = Entity::new(rows[6].id, 1);
    assert_eq!(store.shared_target(&rows), (Some(ship), 3));
    assert_eq!(store.shared_target(&rows[1..]), (Some(ship), 2));
    assert_eq!(store.shared_target(&rows[3..]), (Some(other), 1));
    assert_eq!(store.shared_target(&rows[4..]), (None, 2));
    assert_eq!(store.shared_target(&[rows[5], stale]), (None, 2));
    assert_eq!(store.shared_target(&rows[6..]), (Some(ship), 1));
    assert_eq!(store.shared_target(&[]), (None, 0));
    // The run's end comes with the next source's target.
    assert_eq!(
        store.sharing_target(&rows, Some(ship)),
        (3, Some(Some(other)))
    );
    assert_eq!(
        store.sharing_target(&rows[3..], Some(other)),
        (1, Some(None))
    );
    assert_eq!(
        store.sharing_target(&rows[4..], None),
        (2, Some(Some(ship)))
    );
    assert_eq!(store.sharing_target(&rows[6..], Some(ship)), (1, None));
    assert_eq!(store.sharing_target(&[], None), (0, None));
    // A span step: a carried target is taken as the first source's, the target after the
    // span is carried on, and spans measured so cover every row in order.
    assert_eq!(
        store.target_span(&rows[3..], Some(Some(other))),
        (Some(other), 1, Some(None))
    );
    assert_eq!(
        store.target_span(&rows[4..], Some(None)),
        (None, 2, Some(Some(ship)))
    );
    let (mut start, mut carried, mut spans) = (0, None, Vec::new());
    while start < rows.len() {
        let (target, same, after) = store.target_span(&rows[start..], carried);
        spans.push((target, same));
        (start, carried) = (start + same, after);
    }
    let expected = [
        (Some(ship), 3),
        (Some(other), 1),
        (None, 2),
        (Some(ship), 1),
    ];
    assert_eq!(spans, expected);
}

#[test]
fn shared_target_reads_siblings_in_link_order_and_out_of_it() {
    let mut store = RelationStore::new();
    let (ship, other) = (entity(0), entity(1));
    let turrets: Vec<Entity> = (10..30).map(entity).collect();
    for &turret in &turrets {
        store.link(turret, ship).unwrap();
    }
    store.link(entity(2), other).unwrap();
    // In link order, past a chunk of eight and a tail, then the next row is another's.
    let mut rows = turrets.clone();
    rows.push(entity(2));
    assert_eq!(store.shared_target(&rows), (Some(ship), 20));
    // Out of link order (a despawn's swap, or rows from mid-list): every row still counts.
    rows.swap(3, 15);
    assert_eq!(store.shared_target(&rows), (Some(ship), 20));
    assert_eq!(store.shared_target(&rows[5..]), (Some(ship), 15));
    // The list goes on past the rows, and the rows go on past the list.
    assert_eq!(store.shared_target(&turrets[..9]), (Some(ship), 9));
    let mut more = turrets.clone();
    store.link(entity(40), ship).unwrap();
    more.insert(0, entity(40));
    assert_eq!(store.shared_target(&more), (Some(ship), 21));
    // A stale sibling (its id at a later generation) is not the listed one.
    let mut stale = turrets.clone();
    stale[12] = Entity::new(stale[12].id, 1);
    assert_eq!(store.shared_target(&stale), (Some(ship), 12));
}

#[test]
fn removal_keeps_the_order_of_the_rest() {
    let mut store = RelationStore::new();
    let parent = entity(9);
    let children: Vec<Entity> = (0..5).map(entity).collect();
    for &child in &children {
        store.link(child, parent).unwrap();
    }
    store.unlink(children[1]);
    store.unlink(children[3]);
    assert_eq!(
        store.sources(parent),
        &[children[0], children[2], children[4]]
    );
    store.link(children[1], parent).unwrap();
    assert_eq!(
        store.sources(parent),
        &[children[0], children[2], children[4], children[1]]
    );
}

#[test]
fn cycles_of_every_length_are_refused_and_change_nothing() {
    let mut store = RelationStore::new();
    let chain: Vec<Entity> = (0..6).map(entity).collect();
    assert_eq!(store.link(chain[0], chain[0]), Err(RelationError::SelfLink));
    for pair in chain.windows(2) {
        store.link(pair[1], pair[0]).unwrap();
    }
    let before = store.clone();
    assert_eq!(store.link(chain[0], chain[1]), Err(RelationError::Cycle));
    assert_eq!(store.link(chain[0], chain[5]), Err(RelationError::Cycle));
    assert_eq!(store.link(chain[2], chain[4]), Err(RelationError::Cycle));
    assert_eq!(store, before);
    // Moving a subtree sideways is no cycle.
    assert_eq!(store.link(chain[4], chain[1]), Ok(Some(chain[3])));
    store.check(|_| true).unwrap();
}

#[test]
fn ancestors_nearest_first_and_descendants_in_pre_order() {
    let mut store = RelationStore::new();
    let [root, a, b, a1, a2, b1, a1x] = [0, 1, 2, 3, 4, 5, 6].map(entity);
    for (source, target) in [(a, root), (b, root), (a1, a), (a2, a), (b1, b), (a1x, a1)] {
        store.link(source, target).unwrap();
    }
    assert_eq!(store.ancestors(a1x).collect::<Vec<_>>(), vec![a1, a, root]);
    assert_eq!(store.ancestors(root).count(), 0);
    assert_eq!(
        store.descendants(root).collect::<Vec<_>>(),
        vec![a, a1, a1x, a2, b, b1]
    );
    assert_eq!(store.descendants(b1).count(), 0);
    assert_eq!(store.links().count(), 6);
    assert_eq!(store.roots().collect::<Vec<_>>(), vec![root]);
    store.unlink(b);
    assert_eq!(store.roots().collect::<Vec<_>>(), vec![root, b]);
}

#[test]
fn take_sources_unlinks_them_all_and_generations_guard_reused_ids() {
    let mut store = RelationStore::new();
    let target = entity(0);
    let sources = [entity(1), entity(2)];
    for source in sources {
        store.link(source, target).unwrap();
    }
    assert_eq!(store.take_sources(target), sources.to_vec());
    assert!(store.is_empty());
    assert_eq!(store.target(sources[0]), None);
    store.link(sources[0], target).unwrap();
    // A later entity with the same id has neither the link nor the list.
    assert_eq!(store.target(Entity::new(1, 1)), None);
    assert_eq!(store.sources(Entity::new(0, 1)), &[] as &[Entity]);
    assert_eq!(store.take_sources(Entity::new(0, 1)), Vec::new());
    store.check(|_| true).unwrap();
}

#[test]
fn check_finds_cycles_and_double_listings_in_linear_time() {
    let mut store = RelationStore::new();
    let chain: Vec<Entity> = (0..200_000).map(entity).collect();
    for pair in chain.windows(2).rev() {
        store.link_unchecked(pair[0], pair[1]).unwrap();
    }
    store.check(|_| true).unwrap();
    let mut cyclic = store.clone();
    cyclic.link_unchecked(chain[199_999], chain[0]).unwrap();
    let error = cyclic.check(|_| true).unwrap_err();
    assert!(error.contains("cycle"), "{error}");
    let mut doubled = store.clone();
    doubled.sources[1].list.push(chain[0]);
    doubled.len += 1;
    doubled.targets.push(None);
    let error = doubled.check(|_| true).unwrap_err();
    assert!(error.contains("listed twice"), "{error}");
    assert_eq!(
        store.link_unchecked(chain[5], chain[5]),
        Err(RelationError::SelfLink)
    );
}

#[test]
fn check_reports_dead_entities() {
    let mut store = RelationStore::new();
    store.link(entity(1), entity(2)).unwrap();
    let error = store.check(|entity| entity.id != 2).unwrap_err();
    assert!(error.contains("not alive"), "{error}");
}

#[test]
fn errors_display_their_reason() {
    assert_eq!(
        RelationError::Cycle.to_string(),
        "the link would make the target its own descendant"
    );
}
