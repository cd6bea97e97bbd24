//! Relations: exclusive, acyclic links from a source entity to a target entity (`child_of`,
//! `owned_by`), one [`RelationStore`] per declared relation.
//!
//! The store knows nothing of liveness or tables: the [`Storage`](crate::Storage) checks the
//! handles, sets the relation's mask bit on linked sources and applies the despawn policies.
//! Both directions are dense vectors indexed by entity id (no hashing on the hot path): the
//! forward link of each source, and the ordered list of each target's sources.

use alloc::{string::String, vec::Vec};
use core::fmt;
use core::mem::ManuallyDrop;

use crate::dropped::{DropHere, drop_value};
use crate::entity::Entity;

/// Why a link was refused. An error changes nothing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RelationError {
    /// The source is dead, stale or was never spawned.
    DeadSource,
    /// The target is dead, stale or was never spawned.
    DeadTarget,
    /// The source and the target are the same entity.
    SelfLink,
    /// The target is a descendant of the source: the link would close a cycle.
    Cycle,
    /// The mask given is not one relation's bit (only possible through `Storage` directly).
    UnknownRelation,
}

impl fmt::Display for RelationError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            RelationError::DeadSource => "the source entity is not alive",
            RelationError::DeadTarget => "the target entity is not alive",
            RelationError::SelfLink => "an entity cannot be linked to itself",
            RelationError::Cycle => "the link would make the target its own descendant",
            RelationError::UnknownRelation => "the mask is not a declared relation's bit",
        })
    }
}

impl core::error::Error for RelationError {}

/// The forward link of one source: its target, and the source's generation when it was linked
/// (so a later entity reusing the id never inherits it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Link {
    generation: u32,
    target: Entity,
}

/// The sources of one target, in the order they were linked; `generation` is the target's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Sources {
    generation: u32,
    list: Vec<Entity>,
}

/// One relation's links, both ways. Every source has at most one target; the links form a
/// forest (no cycle). The caller checks that the entities it passes are alive.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RelationStore {
    /// Indexed by source id.
    targets: Vec<Option<Link>>,
    /// Indexed by target id.
    sources: Vec<Sources>,
    /// Number of links.
    len: usize,
}

/// A storage holds its relation stores `Dropped`: dropped by code compiled here, not by glue
/// in every game's crate.
impl DropHere for Vec<RelationStore> {
    fn drop_here(value: &mut ManuallyDrop<Self>) {
        drop_value(value);
    }
}

impl RelationStore {
    /// An empty store, as a constant.
    pub const EMPTY: RelationStore = RelationStore {
        targets: Vec::new(),
        sources: Vec::new(),
        len: 0,
    };

    /// An empty store.
    pub const fn new() -> Self {
        Self::EMPTY
    }

    /// Number of links.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no link.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The target of `source`, if it is linked.
    #[inline]
    pub fn target(&self, source: Entity) -> Option<Entity> {
        match self.targets.get(source.id as usize) {
            Some(Some(link)) if link.generation == source.generation => Some(link.target),
            _ => None,
        }
    }

    /// The target of the first of `sources` (`None` if it has none, or `sources` is empty) and
    /// how many of `sources`, from the first, have that same target (or none): the siblings
    /// that sit side by side in a table share one lookup of their target.
    #[inline]
    pub fn shared_target(&self, sources: &[Entity]) -> (Option<Entity>, usize) {
        let (target, same, _) = self.target_span(sources, None);
        (target, same)
    }

    /// [`shared_target`](Self::shared_target) and what comes after: the target of the first
    /// of `sources` (`carried`, when a caller already looked it up as the last span's `after`),
    /// how many of `sources` share it, and the target of the source after them, if there is
    /// one (carried into the next span). The one span step of a `Target` term, whether it
    /// measures a whole run at once (the kept spans) or one span as its loop reaches it.
    #[inline(always)]
    pub(crate) fn target_span(
        &self,
        sources: &[Entity],
        carried: Option<Option<Entity>>,
    ) -> (Option<Entity>, usize, Option<Option<Entity>>) {
        let target = match (carried, sources.first()) {
            (Some(target), _) => target,
            (None, Some(&first)) => self.target(first),
            (None, None) => None,
        };
        let (same, after) = self.sharing_target(sources, target);
        (target, same, after)
    }

    /// How many of `sources`, from the first (whose target, looked up by the caller, is
    /// `target`), have the target `target` (or none, for `None`); and the target of the source
    /// after them, if there is one (the start of the next such run, already looked up).
    ///
    /// Siblings that sit in the order they were linked (spawned together) are compared with
    /// the target's list of sources a slice at a time, with no lookup of each one's link; the
    /// rest are looked up one by one.
    ///
    /// Always inlined: called out of line, its answer came back through memory, read with a
    /// load wider than the stores that wrote it, which waits for them to drain (on
    /// `parent_propagate`, perf put 60% of a `Target` term's span lookup just after the call).
    #[inline(always)]
    pub fn sharing_target(
        &self,
        sources: &[Entity],
        target: Option<Entity>,
    ) -> (usize, Option<Option<Entity>>) {
        let Some((&first, rest)) = sources.split_first() else {
            return (0, None);
        };
        let listed = match target.map(|target| self.sources(target).split_first()) {
            Some(Some((&head, siblings))) if head == first => common_prefix(rest, siblings),
            _ => 0,
        };
        let mut same = 1 + listed;
        for &source in &sources[same..] {
            let next = self.target(source);
            if next != target {
                return (same, Some(next));
            }
            same += 1;
        }
        (same, None)
    }

    /// The sources of `target`, in link order (empty if it has none).
    #[inline]
    pub fn sources(&self, target: Entity) -> &[Entity] {
        match self.sources.get(target.id as usize) {
            Some(sources) if sources.generation == target.generation => &sources.list,
            _ => &[],
        }
    }

    /// Whether linking `source` to `target` would close a cycle: `target` is `source` or one
    /// of its descendants, found by walking `target`'s ancestors.
    pub fn would_cycle(&self, source: Entity, target: Entity) -> bool {
        // A leaf has no descendant (the common case: a new child), so no walk.
        if self.sources(source).is_empty() {
            return source == target;
        }
        core::iter::once(target)
            .chain(self.ancestors(target))
            .any(|entity| entity == source)
    }

    /// Links `source` to `target`, replacing (and returning) its previous target; linking to
    /// the target it already has changes nothing (it keeps its place in the list). `SelfLink`
    /// or `Cycle` change nothing.
    pub fn link(
        &mut self,
        source: Entity,
        target: Entity,
    ) -> Result<Option<Entity>, RelationError> {
        if source == target {
            return Err(RelationError::SelfLink);
        }
        let previous = self.target(source);
        if previous == Some(target) {
            return Ok(previous);
        }
        if self.would_cycle(source, target) {
            return Err(RelationError::Cycle);
        }
        if previous.is_some() {
            self.unlink(source);
        }
        self.push_link(source, target);
        Ok(previous)
    }

    /// Links the unlinked `source` to `target` without looking for a cycle (`SelfLink` still
    /// refused): a snapshot load replays its links this way, then [`check`](Self::check)
    /// finds any cycle in one linear pass, where a walk per link could take quadratic time.
    #[cfg(any(feature = "serde", test))]
    pub(crate) fn link_unchecked(
        &mut self,
        source: Entity,
        target: Entity,
    ) -> Result<(), RelationError> {
        if source == target {
            return Err(RelationError::SelfLink);
        }
        debug_assert!(self.target(source).is_none());
        self.push_link(source, target);
        Ok(())
    }

    /// Records the link of the unlinked `source` to `target`, both ways.
    fn push_link(&mut self, source: Entity, target: Entity) {
        let index = source.id as usize;
        if self.targets.len() <= index {
            self.targets.resize(index + 1, None);
        }
        self.targets[index] = Some(Link {
            generation: source.generation,
            target,
        });
        let index = target.id as usize;
        if self.sources.len() <= index {
            self.sources.resize_with(index + 1, Sources::default);
        }
        let sources = &mut self.sources[index];
        if sources.generation != target.generation {
            // A list left by an earlier entity of this id (always empty: the storage takes a
            // target's sources when it dies) now belongs to this one.
            sources.generation = target.generation;
            sources.list.clear();
        }
        sources.list.push(source);
        self.len += 1;
    }

    /// Unlinks `source` from its target, which it returns; the target's other sources keep
    /// their order.
    pub fn unlink(&mut self, source: Entity) -> Option<Entity> {
        let target = self.target(source)?;
        self.targets[source.id as usize] = None;
        if let Some(sources) = self.sources.get_mut(target.id as usize) {
            if let Some(position) = sources.list.iter().position(|&other| other == source) {
                sources.list.remove(position);
            }
        }
        self.len -= 1;
        Some(target)
    }

    /// Unlinks every source of `target` and returns them, in link order.
    pub fn take_sources(&mut self, target: Entity) -> Vec<Entity> {
        let list = match self.sources.get_mut(target.id as usize) {
            Some(sources) if sources.generation == target.generation => {
                core::mem::take(&mut sources.list)
            }
            _ => return Vec::new(),
        };
        for source in &list {
            self.targets[source.id as usize] = None;
        }
        self.len -= list.len();
        list
    }

    /// The targets above `entity`, nearest first (`entity` excluded).
    pub fn ancestors(&self, entity: Entity) -> Ancestors<'_> {
        Ancestors {
            store: self,
            next: self.target(entity),
        }
    }

    /// The sources below `entity`, depth first in pre-order, each list in link order (`entity`
    /// excluded).
    pub fn descendants(&self, entity: Entity) -> Descendants<'_> {
        let first = self.sources(entity);
        Descendants {
            store: self,
            stack: if first.is_empty() {
                Vec::new()
            } else {
                vec![first.iter()]
            },
        }
    }

    /// The entities that have sources but no target: the tops of the trees (an entity with
    /// neither is in no tree), in id order.
    pub fn roots(&self) -> impl Iterator<Item = Entity> + '_ {
        self.sources
            .iter()
            .enumerate()
            .filter(|(_, sources)| !sources.list.is_empty())
            .map(|(id, sources)| Entity::new(id as u32, sources.generation))
            .filter(|&entity| self.target(entity).is_none())
    }

    /// Every link as `(source, target)`: the targets in id order, each one's sources in link
    /// order, so linking them again in this order rebuilds the same lists.
    pub fn links(&self) -> impl Iterator<Item = (Entity, Entity)> + '_ {
        self.sources.iter().enumerate().flat_map(|(id, sources)| {
            let target = Entity::new(id as u32, sources.generation);
            sources.list.iter().map(move |&source| (source, target))
        })
    }

    /// Removes every link.
    pub fn clear(&mut self) {
        self.targets.clear();
        self.sources.clear();
        self.len = 0;
    }

    /// Checks both directions: every source is listed once, by the target it points to; every
    /// listed source points back; every entity is alive by `is_alive`; there is no cycle. The
    /// first violation is described. Linear in the number of ids and links (a snapshot load
    /// runs it on untrusted links).
    pub fn check(&self, is_alive: impl Fn(Entity) -> bool) -> Result<(), String> {
        let mut forward = 0;
        for (id, link) in self.targets.iter().enumerate() {
            let Some(link) = link else { continue };
            forward += 1;
            let source = Entity::new(id as u32, link.generation);
            if !is_alive(source) {
                return Err(format!("{source} is linked but not alive"));
            }
            if !is_alive(link.target) {
                return Err(format!("{source} is linked to {}, not alive", link.target));
            }
        }
        // Every listed source points back to its list's target and is listed once: with as
        // many entries as forward links, each link is listed exactly once.
        let mut listed = vec![false; self.targets.len()];
        let mut backward = 0;
        for (id, sources) in self.sources.iter().enumerate() {
            let target = Entity::new(id as u32, sources.generation);
            for &source in &sources.list {
                backward += 1;
                if self.target(source) != Some(target) {
                    return Err(format!(
                        "{target} lists {source}, which does not point back"
                    ));
                }
                if core::mem::replace(&mut listed[source.id as usize], true) {
                    return Err(format!("{source} is listed twice"));
                }
            }
        }
        // No cycle: each walk up stops at a root, or at an id a finished walk passed; meeting
        // an id of the current walk is a cycle. Every id is walked once.
        const UNSEEN: u8 = 0;
        const ON_WALK: u8 = 1;
        const DONE: u8 = 2;
        let mut state = vec![UNSEEN; self.targets.len().max(self.sources.len())];
        let mut walk = Vec::new();
        for start in 0..self.targets.len() {
            let mut id = start;
            loop {
                match state.get(id) {
                    Some(&UNSEEN) => {}
                    Some(&ON_WALK) => {
                        return Err(format!("{} is on a cycle", link_source(self, id)));
                    }
                    _ => break,
                }
                state[id] = ON_WALK;
                walk.push(id);
                match self.targets.get(id).copied().flatten() {
                    Some(link) => id = link.target.id as usize,
                    None => break,
                }
            }
            for done in walk.drain(..) {
                state[done] = DONE;
            }
        }
        if forward != self.len || backward != self.len {
            return Err(format!(
                "{forward} forward and {backward} listed links for a count of {}",
                self.len
            ));
        }
        Ok(())
    }
}

/// How many entities `a` and `b` have alike from their start: eight at a time, compared
/// without a branch per entity, then one by one. Always inlined into `sharing_target`, which
/// runs once per span of a `Target` term: a call costs as much as its comparisons.
#[inline(always)]
fn common_prefix(a: &[Entity], b: &[Entity]) -> usize {
    const STEP: usize = 8;
    // Indexing within `len` (not iterator adapters over both slices): a ship's other nine
    // turrets are one step of eight and one compare, less than the adapters cost to set up.
    let len = a.len().min(b.len());
    let (a, b) = (&a[..len], &b[..len]);
    let mut same = 0;
    while len - same >= STEP {
        let (a, b) = (&a[same..same + STEP], &b[same..same + STEP]);
        let differ = a.iter().zip(b).fold(0, |differ, (a, b)| {
            differ | (a.id ^ b.id) | (a.generation ^ b.generation)
        });
        if differ != 0 {
            break;
        }
        same += STEP;
    }
    while same < len && a[same] == b[same] {
        same += 1;
    }
    same
}

/// The entity of id `id` as a source (for messages).
fn link_source(store: &RelationStore, id: usize) -> Entity {
    let generation = store.targets[id].map_or(0, |link| link.generation);
    Entity::new(id as u32, generation)
}

/// The ancestors of an entity, nearest first: see [`RelationStore::ancestors`].
#[derive(Clone, Debug)]
pub struct Ancestors<'a> {
    store: &'a RelationStore,
    next: Option<Entity>,
}

impl Ancestors<'_> {
    /// An iterator that yields nothing (the ancestors of a dead entity).
    pub fn empty(store: &RelationStore) -> Ancestors<'_> {
        Ancestors { store, next: None }
    }
}

impl Iterator for Ancestors<'_> {
    type Item = Entity;

    #[inline]
    fn next(&mut self) -> Option<Entity> {
        let current = self.next?;
        self.next = self.store.target(current);
        Some(current)
    }
}

/// The descendants of an entity, depth first in pre-order: see [`RelationStore::descendants`].
#[derive(Clone, Debug)]
pub struct Descendants<'a> {
    store: &'a RelationStore,
    stack: Vec<core::slice::Iter<'a, Entity>>,
}

impl Descendants<'_> {
    /// An iterator that yields nothing (the descendants of a dead entity).
    pub fn empty(store: &RelationStore) -> Descendants<'_> {
        Descendants {
            store,
            stack: Vec::new(),
        }
    }
}

impl Iterator for Descendants<'_> {
    type Item = Entity;

    fn next(&mut self) -> Option<Entity> {
        loop {
            let level = self.stack.last_mut()?;
            match level.next() {
                Some(&entity) => {
                    let below = self.store.sources(entity);
                    if !below.is_empty() {
                        self.stack.push(below.iter());
                    }
                    return Some(entity);
                }
                None => {
                    self.stack.pop();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
}
