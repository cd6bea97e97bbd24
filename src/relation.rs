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
mod tests;
