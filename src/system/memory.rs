//! What systems remember between runs, kept in the world: per system (by name) the tick its last
//! run ended at, and its parameters' own values (an event reader's cursor, a
//! [`Local`](super::Local)). A clone or a `restore` of the world carries it, so a resimulated frame sees exactly what the original
//! saw (rollback netcode): no event is read twice, no write is missed. A snapshot (feature
//! `serde`) carries it but for the plain locals, whose types need not be serde: each loads as a
//! placeholder the system's next run replaces with a default value (see `crate::snapshot`); a
//! `SavedLocal` (feature `serde`) is saved as postcard's encoding of its value, decoded at the
//! next run.

use alloc::{borrow::Cow, boxed::Box, string::String, vec::Vec};
use core::any::Any;
use core::fmt;

#[cfg(feature = "serde")]
use crate::events::EventCursor;
use crate::tick::{MAX_TICK_AGE, Tick};

/// A value a system keeps between runs: an event cursor, a local. `Clone` (the world is), `Send`
/// and `Sync` (the world is), `'static` (it is kept behind a type-erased box).
pub trait MemoryValue: Any + Send + Sync {
    /// A boxed copy.
    #[doc(hidden)]
    fn boxed_clone(&self) -> Box<dyn MemoryValue>;

    /// The value, to downcast.
    #[doc(hidden)]
    fn as_any(&self) -> &dyn Any;

    /// The value, to downcast mutably.
    #[doc(hidden)]
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any + Clone + Send + Sync> MemoryValue for T {
    fn boxed_clone(&self) -> Box<dyn MemoryValue> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// One kept value, boxed (its type is the parameter's), and, for a saved local, how a snapshot
/// writes it.
struct Kept {
    value: Box<dyn MemoryValue>,
    #[cfg(feature = "serde")]
    save: Option<SaveValue>,
}

/// A saved local's bytes, postcard's encoding of its value, from its boxed value.
#[cfg(feature = "serde")]
type SaveValue = fn(&dyn Any) -> Result<Vec<u8>, postcard::Error>;

/// The `T` whose postcard encoding `bytes` are, all of them (bytes left over mean they are not
/// a `T`'s either); `None` if they are not. postcard refuses bad bytes with an error, never a
/// panic, and a claimed length reserves at most serde's cautious bound before the bytes run out;
/// but a length of zero-sized elements (`Vec<()>`) reads no bytes, so a huge claimed one loops
/// that long (as a component's value would through the snapshot's own format).
#[cfg(feature = "serde")]
fn decode_saved<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    match postcard::take_from_bytes::<T>(bytes) {
        Ok((value, [])) => Some(value),
        _ => None,
    }
}

impl Kept {
    /// A value no snapshot saves as itself (an event cursor, a [`Local`](super::Local)).
    fn unsaved(value: Box<dyn MemoryValue>) -> Self {
        Kept {
            value,
            #[cfg(feature = "serde")]
            save: None,
        }
    }
}

impl Clone for Kept {
    fn clone(&self) -> Self {
        Kept {
            value: self.value.boxed_clone(),
            #[cfg(feature = "serde")]
            save: self.save,
        }
    }
}

/// One system's memory: which function it was, the tick its last run ended at, and its
/// parameters' kept values, in parameter order.
#[derive(Clone)]
pub struct SystemMemory {
    /// The name the schedule runs the system under: the key.
    name: String,
    /// The function's type name: a system replaced by another function under the same name
    /// starts afresh. Borrowed from `type_name`, or owned when loaded from a snapshot.
    function: Cow<'static, str>,
    /// The tick the system's previous run ended at; `None` before its first run.
    ended_at: Option<Tick>,
    /// What the running system compares stamps against: `ended_at`, or, on a first run, a
    /// tick older than every stamp.
    since: Tick,
    first_run: bool,
    kept: Vec<Kept>,
}

impl fmt::Debug for SystemMemory {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("SystemMemory")
            .field("name", &self.name)
            .field("ended_at", &self.ended_at)
            .field("kept", &self.kept.len())
            .finish()
    }
}

impl SystemMemory {
    fn new(name: &str, function: &'static str) -> Self {
        SystemMemory {
            name: String::from(name),
            function: Cow::Borrowed(function),
            ended_at: None,
            since: Tick::ZERO,
            first_run: true,
            kept: Vec::new(),
        }
    }

    /// Whether the memory is `function`'s. The same function hands the same static string at
    /// every run, so equal pointers answer without comparing the (long) type names; a memory
    /// loaded from a snapshot owns its name and is compared in full.
    #[inline]
    fn is_of(&self, function: &'static str) -> bool {
        match &self.function {
            Cow::Borrowed(own) if core::ptr::eq(*own, function) => true,
            own => **own == *function,
        }
    }

    /// The system's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tick the system's last run ended at (`None` before its first run).
    pub fn last_run(&self) -> Option<Tick> {
        self.ended_at
    }

    /// Starts a run at tick `now`: decides what "since this system last ran" means, and records
    /// `now` as the tick this run ends at (parameters cannot advance the tick).
    pub(crate) fn begin(&mut self, now: Tick) {
        (self.since, self.first_run) = since_last_run(self.ended_at, now);
        self.ended_at = Some(now);
    }

    /// The ticks of the run [`begin`](Self::begin) started.
    pub(crate) fn ticks(&self) -> SystemTicks {
        SystemTicks {
            last_run: self.since,
            this_run: self.ended_at.unwrap_or(Tick::ZERO),
            first_run: self.first_run,
        }
    }

    /// The kept values, set up for parameters that keep the given types in this order: a value
    /// of the wrong type (the system's parameters changed) starts afresh.
    pub(crate) fn prepare(&mut self) -> KeptValues<'_> {
        KeptValues {
            kept: &mut self.kept,
            next: 0,
        }
    }

    /// The kept values, in parameter order, for the parameters to take.
    pub(crate) fn lend(&mut self) -> LentValues<'_> {
        LentValues {
            kept: self.kept.iter_mut(),
        }
    }
}

/// What a snapshot saves of a system's memory, and the memory it loads (feature `serde`).
#[cfg(feature = "serde")]
impl SystemMemory {
    /// The function's type name.
    pub(crate) fn function(&self) -> &str {
        &self.function
    }

    /// Each kept value, in parameter order, as a snapshot's `kept` saves it: an event cursor as
    /// itself, any other value (a [`Local`](super::Local), a saved local) as `None`, since its
    /// type need not be serde.
    pub(crate) fn saved_values(&self) -> impl Iterator<Item = Option<EventCursor>> + '_ {
        self.kept.iter().map(|kept| match kept.save {
            Some(_) => None,
            None => kept.value.as_any().downcast_ref::<EventCursor>().copied(),
        })
    }

    /// The saved locals ([`SavedLocal`](super::SavedLocal)), as a snapshot's `locals` saves
    /// them: each one's place among the kept values and its bytes (postcard's encoding of it).
    pub(crate) fn saved_locals(
        &self,
    ) -> impl Iterator<Item = Result<(usize, Vec<u8>), postcard::Error>> + '_ {
        let kept = self.kept.iter().enumerate();
        kept.filter_map(|(place, kept)| {
            let save = kept.save?;
            Some(save(kept.value.as_any()).map(|bytes| (place, bytes)))
        })
    }

    /// A memory as a snapshot saved it: a value saved as `None` is a placeholder of no
    /// parameter's type, so [`KeptValues::keep`] replaces it with a default one at the system's
    /// next run (a [`Local`](super::Local) restarts at `T::default()`); a saved local's bytes
    /// (`locals`, each at a place whose value was saved as `None`, checked by the caller) wait
    /// for the next run to decode them as its parameter's type.
    pub(crate) fn loaded(
        name: String,
        function: String,
        ended_at: Option<Tick>,
        kept: impl IntoIterator<Item = Option<EventCursor>>,
        locals: impl IntoIterator<Item = (usize, Vec<u8>)>,
    ) -> Self {
        let mut kept: Vec<Kept> = kept
            .into_iter()
            .map(|value| match value {
                Some(cursor) => Kept::unsaved(Box::new(cursor)),
                None => Kept::unsaved(Box::new(NotSaved)),
            })
            .collect();
        for (place, bytes) in locals {
            if let Some(slot) = kept.get_mut(place) {
                *slot = Kept {
                    value: Box::new(SavedBytes(bytes)),
                    save: Some(|value| Ok(SavedBytes::of(value).to_vec())),
                };
            }
        }
        SystemMemory {
            name,
            function: Cow::Owned(function),
            ended_at,
            since: Tick::ZERO,
            first_run: true,
            kept,
        }
    }
}

/// The place of a kept value a snapshot did not save: no parameter keeps this type (it is
/// private), so the first run after the load replaces it with the parameter's default.
#[cfg(feature = "serde")]
#[derive(Clone)]
struct NotSaved;

/// A saved local as a snapshot loaded it: its bytes, decoded by its parameter at the system's
/// next run ([`KeptValues::keep_saved`]); saved again as they are until then.
#[cfg(feature = "serde")]
#[derive(Clone)]
struct SavedBytes(Vec<u8>);

#[cfg(feature = "serde")]
impl SavedBytes {
    /// The bytes of a kept value that is a `SavedBytes` (none for another type).
    fn of(value: &dyn Any) -> &[u8] {
        value
            .downcast_ref::<SavedBytes>()
            .map_or(&[], |saved| saved.0.as_slice())
    }
}

/// What a run starting at `now` compares stamps against, for a system whose previous run
/// ended at `ended_at`, and whether the run counts as a first one.
pub(crate) fn since_last_run(ended_at: Option<Tick>, now: Tick) -> (Tick, bool) {
    match ended_at {
        // The usual case: the world moved on since the previous run, by less than the age past
        // which stamps are clamped.
        Some(ended_at) if now.is_newer_than(ended_at) && ended_at.age(now) <= MAX_TICK_AGE => {
            (ended_at, false)
        }
        // A first run, a world whose tick went back (a whole-world system's context, kept by
        // the schedule, over a restored world), or a system idle for so long its tick may have
        // been overtaken by the stamp clamp: see everything.
        _ => (older_than_every_stamp(now), true),
    }
}

/// A tick every stored stamp is newer than: stamps are clamped to at most 1.5 x
/// `MAX_TICK_AGE` behind the present, and half-range comparison reaches back `2^31 - 1`.
fn older_than_every_stamp(now: Tick) -> Tick {
    Tick(now.0.wrapping_sub(i32::MAX as u32))
}

/// A system's kept values while its parameters set them up, in order.
pub struct KeptValues<'a> {
    kept: &'a mut Vec<Kept>,
    next: usize,
}

impl KeptValues<'_> {
    /// Makes the next value one of type `T`, keeping the one there if it is a `T`. A snapshot
    /// does not save it (but as a cursor, if it is one).
    pub fn keep<T: MemoryValue + Default>(&mut self) {
        let fresh = || Kept::unsaved(Box::new(T::default()));
        match self.kept.get_mut(self.next) {
            Some(kept) if kept.value.as_any().is::<T>() => {
                #[cfg(feature = "serde")]
                {
                    kept.save = None;
                }
            }
            Some(kept) => *kept = fresh(),
            None => self.kept.push(fresh()),
        }
        self.next += 1;
    }

    /// Makes the next value one of type `T` that a snapshot saves (a
    /// [`SavedLocal`](super::SavedLocal)), keeping the one there if it is a `T`, decoding it if
    /// a snapshot loaded it (its default if the bytes are not a `T`'s: the parameter's type
    /// changed).
    #[cfg(feature = "serde")]
    pub fn keep_saved<T>(&mut self)
    where
        T: MemoryValue + Default + serde::Serialize + serde::de::DeserializeOwned,
    {
        let save: SaveValue = |value| match value.downcast_ref::<T>() {
            Some(value) => postcard::to_allocvec(value),
            None => Ok(Vec::new()),
        };
        let fresh = |value: T| Kept {
            value: Box::new(value),
            save: Some(save),
        };
        match self.kept.get_mut(self.next) {
            Some(kept) if kept.value.as_any().is::<T>() => kept.save = Some(save),
            Some(kept) => {
                let loaded = kept.value.as_any().downcast_ref::<SavedBytes>();
                let loaded = loaded.and_then(|saved| decode_saved::<T>(&saved.0));
                *kept = fresh(loaded.unwrap_or_default());
            }
            None => self.kept.push(fresh(T::default())),
        }
        self.next += 1;
    }
}

/// A system's kept values, lent to its parameters in order.
pub struct LentValues<'a> {
    kept: core::slice::IterMut<'a, Kept>,
}

impl<'a> LentValues<'a> {
    /// No value (before a system's own are lent).
    pub(crate) fn none() -> Self {
        LentValues {
            kept: [].iter_mut(),
        }
    }

    /// The next value, as the `T` [`KeptValues::keep`] made it. `None` only if the parameters
    /// asked in another order than they set up, which the generated tuples never do.
    pub fn take_next<T: MemoryValue>(&mut self) -> Option<&'a mut T> {
        self.kept.next()?.value.as_any_mut().downcast_mut()
    }
}

/// The memory of every system that ran on a world, by name: part of the world's state.
#[derive(Clone, Default)]
pub struct SystemMemories {
    systems: Vec<SystemMemory>,
}

impl fmt::Debug for SystemMemories {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.debug_list().entries(&self.systems).finish()
    }
}

/// Where a system's memory is kept among the world's: its name, where it was last found (a
/// schedule keeps one hint per system, so the lookup is one comparison when nothing moved),
/// and whether it starts afresh (the system was replaced).
pub(crate) struct MemoryKey<'a> {
    pub(crate) name: &'a str,
    pub(crate) hint: &'a mut usize,
    pub(crate) restart: bool,
}

impl SystemMemories {
    /// The memory of the system `key.name`, made afresh if there is none, it was another
    /// function's, or the key says so.
    pub(crate) fn find(&mut self, key: MemoryKey<'_>, function: &'static str) -> &mut SystemMemory {
        let index = self.find_index(key, function);
        &mut self.systems[index]
    }

    /// Where [`find`](Self::find) finds (or makes) the memory of the system `key.name`.
    pub(crate) fn find_index(&mut self, key: MemoryKey<'_>, function: &'static str) -> usize {
        let MemoryKey {
            name,
            hint,
            restart,
        } = key;
        let index = match self.systems.get(*hint) {
            Some(memory) if memory.name == name => *hint,
            _ => match self.systems.iter().position(|memory| memory.name == name) {
                Some(index) => index,
                None => {
                    self.systems.push(SystemMemory::new(name, function));
                    self.systems.len() - 1
                }
            },
        };
        *hint = index;
        let memory = &mut self.systems[index];
        if restart || !memory.is_of(function) {
            *memory = SystemMemory::new(name, function);
        }
        index
    }

    /// The memories at `indices` (distinct, as a batch's systems' are), mutably, in that order.
    pub(crate) fn disjoint_mut(&mut self, indices: &[usize]) -> Vec<&mut SystemMemory> {
        let mut found: Vec<Option<&mut SystemMemory>> = indices.iter().map(|_| None).collect();
        for (index, memory) in self.systems.iter_mut().enumerate() {
            if let Some(place) = indices.iter().position(|&wanted| wanted == index) {
                found[place] = Some(memory);
            }
        }
        found.into_iter().flatten().collect()
    }

    /// The memory of the system `name`, if it ran on this world.
    pub fn get(&self, name: &str) -> Option<&SystemMemory> {
        self.systems.iter().find(|memory| memory.name == name)
    }

    /// Every system's memory, in the order they first ran.
    pub fn iter(&self) -> impl Iterator<Item = &SystemMemory> {
        self.systems.iter()
    }

    /// The memories a snapshot loaded, in the order saved; their names were checked unique.
    #[cfg(feature = "serde")]
    pub(crate) fn loaded(systems: Vec<SystemMemory>) -> Self {
        SystemMemories { systems }
    }

    /// Forgets the system `name`: its next run is a first run. Returns whether it was there.
    pub fn forget(&mut self, name: &str) -> bool {
        let before = self.systems.len();
        self.systems.retain(|memory| memory.name != name);
        self.systems.len() != before
    }
}

/// The ticks of a system's run, as a parameter: `fn system(ticks: SystemTicks, ..)`, for a
/// system that wants them raw (bevy's `SystemChangeTick`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SystemTicks {
    last_run: Tick,
    this_run: Tick,
    first_run: bool,
}

impl SystemTicks {
    /// The tick "changed since this system last ran" compares against: every write after the
    /// system's previous run is newer. On a first run, older than every stamp.
    pub fn last_run(&self) -> Tick {
        self.last_run
    }

    /// The tick this run's writes are stamped with.
    pub fn this_run(&self) -> Tick {
        self.this_run
    }

    /// Whether this is the system's first run on this world (everything counts as changed).
    pub fn is_first_run(&self) -> bool {
        self.first_run
    }
}

#[cfg(test)]
mod tests;
