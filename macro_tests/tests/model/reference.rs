//! The reference model: plain maps and vectors the world is compared with.

use super::*;

/// One live entity of the model: an `Option` per component, and its tags.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ModelEntity {
    pub(crate) health: Option<Health>,
    pub(crate) level: Option<Level>,
    pub(crate) name: Option<Name>,
    pub(crate) pos: Option<Pos>,
    pub(crate) flags: Option<Flags>,
    pub(crate) scratch: Option<Scratch>,
    /// The tag bits the entity has.
    pub(crate) tags: u64,
    /// Per component (by [`Comp::index`]), the tick of its last write; meaningful only for a
    /// tracked component the entity has.
    pub(crate) stamps: [ModelTick; 6],
}

/// The model's own clock. Ticks count up from the world's first one and never wrap (a run is
/// far below 2^32 ticks), so "changed since" is a plain comparison here, independent of
/// archetypal's wrapping `Tick` arithmetic; [`world`](Self::world) is the tick the world must
/// show for it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct ModelTick(pub(crate) u64);

impl ModelTick {
    pub(crate) fn from_world(tick: Tick) -> Self {
        ModelTick(u64::from(tick.0))
    }

    pub(crate) fn next(self) -> Self {
        ModelTick(self.0 + 1)
    }

    /// The world's tick for this one: the count modulo 2^32.
    pub(crate) fn world(self) -> Tick {
        Tick(self.0 as u32)
    }
}

impl ModelEntity {
    /// What `spawn(mask)` makes: default components and the tags of `mask`.
    pub(crate) fn with_mask(mask: u64) -> Self {
        let mut entity = ModelEntity::default();
        entity.add_defaults(mask, ModelTick(0));
        entity
    }

    pub(crate) fn get(&self, comp: Comp) -> Option<Value> {
        match comp {
            Comp::Health => self.health.clone().map(Value::Health),
            Comp::Level => self.level.clone().map(Value::Level),
            Comp::Name => self.name.clone().map(Value::Name),
            Comp::Pos => self.pos.clone().map(Value::Pos),
            Comp::Flags => self.flags.clone().map(Value::Flags),
            Comp::Scratch => self.scratch.clone().map(Value::Scratch),
        }
    }

    pub(crate) fn put(&mut self, value: Value) {
        match value {
            Value::Health(value) => self.health = Some(value),
            Value::Level(value) => self.level = Some(value),
            Value::Name(value) => self.name = Some(value),
            Value::Pos(value) => self.pos = Some(value),
            Value::Flags(value) => self.flags = Some(value),
            Value::Scratch(value) => self.scratch = Some(value),
        }
    }

    pub(crate) fn take(&mut self, comp: Comp) -> Option<Value> {
        match comp {
            Comp::Health => self.health.take().map(Value::Health),
            Comp::Level => self.level.take().map(Value::Level),
            Comp::Name => self.name.take().map(Value::Name),
            Comp::Pos => self.pos.take().map(Value::Pos),
            Comp::Flags => self.flags.take().map(Value::Flags),
            Comp::Scratch => self.scratch.take().map(Value::Scratch),
        }
    }

    /// Adds a default value for every component of `mask` the entity lacks, and the tags of
    /// `mask`.
    /// Stamps the added components with `now` (a migration that adds a component).
    pub(crate) fn add_defaults(&mut self, mask: u64, now: ModelTick) {
        for comp in COMPS {
            if mask & comp.bit() != 0 && self.get(comp).is_none() {
                self.put(Value::default_of(comp));
                self.stamps[comp.index()] = now;
            }
        }
        self.tags |= mask & TAGS;
    }

    /// Removes the components and the tags of `mask`.
    pub(crate) fn remove_all(&mut self, mask: u64) {
        for comp in COMPS {
            if mask & comp.bit() != 0 {
                self.take(comp);
            }
        }
        self.tags &= !mask;
    }

    /// Stamps the components of `bits` the entity has with `now`.
    pub(crate) fn stamp(&mut self, bits: u64, now: ModelTick) {
        let present = self.mask();
        for comp in COMPS {
            if bits & present & comp.bit() != 0 {
                self.stamps[comp.index()] = now;
            }
        }
    }

    /// Stamps every component with `now` (a spawn).
    pub(crate) fn stamp_all(&mut self, now: ModelTick) {
        self.stamps = [now; 6];
    }

    /// Whether a tracked component of `include` the entity has was written after `since`.
    pub(crate) fn changed_since(&self, include: u64, since: ModelTick) -> bool {
        let bits = include & TRACKED & self.mask();
        COMPS
            .iter()
            .any(|comp| bits & comp.bit() != 0 && self.stamps[comp.index()] > since)
    }

    pub(crate) fn bump(&mut self, comp: Comp) {
        if let Some(mut value) = self.get(comp) {
            value.bump();
            self.put(value);
        }
    }

    /// The components and the tags: what `component_mask` returns.
    pub(crate) fn mask(&self) -> u64 {
        let present = [
            (self.health.is_some(), HEALTH),
            (self.level.is_some(), LEVEL),
            (self.name.is_some(), NAME),
            (self.pos.is_some(), POS),
            (self.flags.is_some(), FLAGS),
            (self.scratch.is_some(), SCRATCH),
        ];
        present
            .iter()
            .filter(|(is_some, _)| *is_some)
            .fold(self.tags, |mask, (_, bit)| mask | bit)
    }
}

pub(crate) fn matches(mask: u64, include: u64, exclude: u64) -> bool {
    mask & include == include && mask & exclude == 0
}

/// A cursor of the model: fresh (reads from the oldest stored item and has lost nothing), or
/// past the first `n` items ever sent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ModelCursor {
    Fresh,
    Past(usize),
}

/// An event channel (or the change log) as the model keeps it: every item ever sent, in order,
/// with whether it is still stored and the frame it was sent in. Nothing here knows about
/// sequence numbers or the channel's deque: what a cursor gets and loses is counted directly.
#[derive(Clone, Debug)]
pub(crate) struct ModelChannel<E> {
    pub(crate) sent: Vec<(E, bool, u64)>,
    /// The capacity limit: sending more un-stores the oldest stored items.
    pub(crate) limit: Option<usize>,
    pub(crate) cursors: [ModelCursor; CURSORS],
}

impl<E: Clone> ModelChannel<E> {
    pub(crate) fn new(limit: Option<usize>) -> Self {
        ModelChannel {
            sent: Vec::new(),
            limit,
            cursors: [ModelCursor::Fresh; CURSORS],
        }
    }

    pub(crate) fn send(&mut self, item: E, frame: u64) {
        self.sent.push((item, true, frame));
        if let Some(limit) = self.limit {
            let stored = self.stored().count();
            for entry in self
                .sent
                .iter_mut()
                .filter(|e| e.1)
                .take(stored.saturating_sub(limit))
            {
                entry.1 = false;
            }
        }
    }

    pub(crate) fn stored(&self) -> impl Iterator<Item = &E> + '_ {
        self.sent.iter().filter(|e| e.1).map(|e| &e.0)
    }

    /// Ends frame `frame`: items sent before it expire (they have lived two frames).
    pub(crate) fn expire_before(&mut self, frame: u64) {
        for entry in self.sent.iter_mut().filter(|e| e.2 < frame) {
            entry.1 = false;
        }
    }

    pub(crate) fn clear(&mut self) {
        for entry in &mut self.sent {
            entry.1 = false;
        }
    }

    /// Keeps the newest `keep` stored items.
    pub(crate) fn trim_to(&mut self, keep: usize) {
        let stored = self.stored().count();
        for entry in self
            .sent
            .iter_mut()
            .filter(|e| e.1)
            .take(stored.saturating_sub(keep))
        {
            entry.1 = false;
        }
    }

    /// The items of `sent` a cursor has not passed.
    pub(crate) fn unread(&self, cursor: ModelCursor) -> &[(E, bool, u64)] {
        match cursor {
            ModelCursor::Fresh => &self.sent,
            ModelCursor::Past(n) => self.sent.get(n..).unwrap_or(&[]),
        }
    }

    /// What consuming through cursor `k` hands out and how many it lost; moves the cursor to
    /// the end.
    pub(crate) fn consume(&mut self, k: usize) -> (Vec<E>, u64) {
        let cursor = self.cursors[k];
        let unread = self.unread(cursor);
        let items = unread.iter().filter(|e| e.1).map(|e| e.0.clone()).collect();
        let lost = match cursor {
            ModelCursor::Fresh => 0,
            ModelCursor::Past(_) => unread.iter().filter(|e| !e.1).count() as u64,
        };
        self.cursors[k] = ModelCursor::Past(self.sent.len());
        (items, lost)
    }

    /// Replaces cursor `k` and the world's `cursor` by fresh ones, or (given the world's
    /// cursor at the end) by cursors past every item sent so far.
    pub(crate) fn reset_cursor(
        &mut self,
        k: usize,
        cursor: &mut EventCursor,
        at_end: Option<EventCursor>,
    ) {
        match at_end {
            Some(end) => {
                *cursor = end;
                self.cursors[k] = ModelCursor::Past(self.sent.len());
            }
            None => {
                *cursor = EventCursor::new();
                self.cursors[k] = ModelCursor::Fresh;
            }
        }
    }

    /// How many stored items cursor `k` has not read.
    pub(crate) fn unread_count(&self, k: usize) -> usize {
        self.unread(self.cursors[k]).iter().filter(|e| e.1).count()
    }
}
