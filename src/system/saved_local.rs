//! [`SavedLocal`]: a value of the system's own that a snapshot saves and the checksum covers
//! (feature `serde`), beside [`Local`](super::Local), which neither does.

use core::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::access::SystemAccess;
use super::memory::{KeptValues, MemoryValue};
use super::param::{ParamSource, ParamWorld, SystemParam};

/// A value of the system's own, kept between its runs in the world's state, that is part of
/// the game's state: `fn spawner(mut countdown: SavedLocal<u32>, ..)`. As a
/// [`Local`](super::Local) it starts as `T::default()` and a clone or `restore` of the world
/// carries it; besides, a snapshot saves it (under its system's `locals`, as postcard's
/// encoding of the value, in any snapshot format), so a loaded world's system goes on from it,
/// and `world.snapshot().checksum()` covers it, so a desync in it is seen. Its type is serde,
/// in a form postcard takes: it does not ask the format what comes next (no untagged enum, no
/// `serde_json::Value`) and gives its sequences' lengths up front. Feature `serde`.
///
/// The bytes are decoded at the system's next run, when its type is known: bytes that are not
/// a `T`'s (the parameter's type changed) give `T::default()`, as a kept value of another type
/// does, never a panic. (A `T` holding zero-sized values in a sequence, `Vec<()>`, reads no
/// bytes per element: hostile bytes claiming a huge length of them loop that long, as a
/// component's would through the snapshot's own format.)
pub struct SavedLocal<'w, T>(&'w mut T);

impl<T> core::ops::Deref for SavedLocal<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.0
    }
}

impl<T> core::ops::DerefMut for SavedLocal<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.0
    }
}

impl<T: fmt::Debug> fmt::Debug for SavedLocal<'_, T> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(formatter)
    }
}

/// Marks the impl of the saved local parameter.
#[doc(hidden)]
pub enum SavedLocalParam {}

impl<W, T> SystemParam<W, SavedLocalParam> for SavedLocal<'_, T>
where
    W: ParamWorld,
    T: MemoryValue + Default + Serialize + DeserializeOwned,
{
    type Item<'w> = SavedLocal<'w, T>;

    const ACCESS: SystemAccess = SystemAccess::NONE;

    #[inline]
    fn keep(values: &mut KeptValues<'_>) {
        values.keep_saved::<T>();
    }

    #[inline]
    fn fetch<'w>(source: &mut ParamSource<'w, W>) -> SavedLocal<'w, T> {
        SavedLocal(
            source
                .kept
                .take_next()
                .expect("the saved local was kept before the parameters were fetched"),
        )
    }
}
