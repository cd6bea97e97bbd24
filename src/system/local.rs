//! [`Local`]: a value of the system's own, kept between its runs in the world's state.

use core::fmt;

use super::access::SystemAccess;
use super::memory::{KeptValues, MemoryValue};
use super::param::{ParamSource, ParamWorld, SystemParam};

/// A value of the system's own, kept between its runs in the world's state (bevy's `Local`):
/// `fn collide(mut grid: Local<Grid>, ..)`. Starts as `T::default()`; cloned with the world, so
/// a rollback restores it too. Not in a snapshot nor in the checksum: a loaded world's local
/// starts again at `T::default()`, so keep what must survive a save or be checked in a
/// `SavedLocal` (feature `serde`), a resource or a component.
pub struct Local<'w, T>(&'w mut T);

impl<'w, T> Local<'w, T> {
    /// The local over `value` (what the schedule hands a system).
    pub(crate) fn new(value: &'w mut T) -> Self {
        Local(value)
    }
}

impl<T> core::ops::Deref for Local<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.0
    }
}

impl<T> core::ops::DerefMut for Local<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.0
    }
}

impl<T: fmt::Debug> fmt::Debug for Local<'_, T> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(formatter)
    }
}

/// Marks the impl of the local parameter.
#[doc(hidden)]
pub enum LocalParam {}

impl<W, T> SystemParam<W, LocalParam> for Local<'_, T>
where
    W: ParamWorld,
    T: MemoryValue + Default,
{
    type Item<'w> = Local<'w, T>;

    const ACCESS: SystemAccess = SystemAccess::NONE;

    #[inline]
    fn keep(values: &mut KeptValues<'_>) {
        values.keep::<T>();
    }

    #[inline]
    fn fetch<'w>(source: &mut ParamSource<'w, W>) -> Local<'w, T> {
        Local::new(
            source
                .kept
                .take_next()
                .expect("the local was kept before the parameters were fetched"),
        )
    }
}
