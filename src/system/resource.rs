//! [`Res`] and [`ResMut`]: a system's read and write of one resource, picked by its type.

use core::fmt;
use core::ops::{Deref, DerefMut};

use super::access::SystemAccess;
use super::param::{ParamSource, ParamWorld, ResourceOf, SystemParam};

/// A system's shared borrow of the resource of type `R`: `fn show(score: Res<Score>)`
/// (bevy's `Res`). Dereferences to `R`.
pub struct Res<'w, R>(&'w R);

/// A system's mutable borrow of the resource of type `R`: `fn tally(mut score: ResMut<Score>)`
/// (bevy's `ResMut`). Dereferences to `R`.
pub struct ResMut<'w, R>(&'w mut R);

impl<R> Deref for Res<'_, R> {
    type Target = R;

    #[inline]
    fn deref(&self) -> &R {
        self.0
    }
}

impl<R> Deref for ResMut<'_, R> {
    type Target = R;

    #[inline]
    fn deref(&self) -> &R {
        self.0
    }
}

impl<R> DerefMut for ResMut<'_, R> {
    #[inline]
    fn deref_mut(&mut self) -> &mut R {
        self.0
    }
}

impl<R: fmt::Debug> fmt::Debug for Res<'_, R> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(formatter)
    }
}

impl<R: fmt::Debug> fmt::Debug for ResMut<'_, R> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(formatter)
    }
}

/// Marks the impls of resource parameters.
#[doc(hidden)]
pub struct ResourceParam<M>(M);

impl<W, R: Sync + 'static, M> SystemParam<W, ResourceParam<M>> for Res<'_, R>
where
    W: ParamWorld,
    W::Resources: ResourceOf<R, M>,
{
    type Item<'w> = Res<'w, R>;

    const ACCESS: SystemAccess = SystemAccess {
        resources_read: <W::Resources as ResourceOf<R, M>>::BIT,
        ..SystemAccess::NONE
    };

    #[inline]
    fn fetch<'w>(source: &mut ParamSource<'w, W>) -> Res<'w, R> {
        let slot = <W::Resources as ResourceOf<R, M>>::slot(&mut source.resources);
        Res(slot
            .take_ref()
            .expect("a resource written by one parameter is read by no other (checked at build)"))
    }
}

impl<W, R: Send + 'static, M> SystemParam<W, ResourceParam<M>> for ResMut<'_, R>
where
    W: ParamWorld,
    W::Resources: ResourceOf<R, M>,
{
    type Item<'w> = ResMut<'w, R>;

    const ACCESS: SystemAccess = SystemAccess {
        resources_written: <W::Resources as ResourceOf<R, M>>::BIT,
        ..SystemAccess::NONE
    };

    #[inline]
    fn fetch<'w>(source: &mut ParamSource<'w, W>) -> ResMut<'w, R> {
        let slot = <W::Resources as ResourceOf<R, M>>::slot(&mut source.resources);
        ResMut(slot.take_mut().expect(
            "a resource written by one parameter is borrowed by no other (checked at build)",
        ))
    }
}
