//! [`Slot`]: one borrow of the world lent to a system's parameters, handed out once mutably or
//! any number of times shared. A system's parameters never ask for both (that is a conflict,
//! refused when the program is built), so the world is split among them without `unsafe`.

/// A borrow of one part of the world (a resource, an event channel, the storage) waiting for the
/// parameter that takes it.
#[derive(Debug)]
pub enum Slot<'w, T: ?Sized> {
    /// Not taken yet.
    Free(&'w mut T),
    /// Handed out shared (to any number of readers).
    Shared(&'w T),
    /// Handed out mutably.
    Taken,
}

impl<'w, T: ?Sized> Slot<'w, T> {
    /// A slot over `value`, not taken yet.
    #[inline]
    pub fn new(value: &'w mut T) -> Self {
        Slot::Free(value)
    }

    /// The part, mutably: `None` if a parameter took it before, shared or not.
    #[inline]
    pub fn take_mut(&mut self) -> Option<&'w mut T> {
        match core::mem::replace(self, Slot::Taken) {
            Slot::Free(value) => Some(value),
            other => {
                *self = other;
                None
            }
        }
    }

    /// The part, shared: `None` if a parameter took it mutably.
    #[inline]
    pub fn take_ref(&mut self) -> Option<&'w T> {
        let shared: &'w T = match core::mem::replace(self, Slot::Taken) {
            Slot::Free(value) => value,
            Slot::Shared(value) => value,
            Slot::Taken => return None,
        };
        *self = Slot::Shared(shared);
        Some(shared)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readers_share_and_a_writer_takes_alone() {
        let mut value = 5;
        let mut slot = Slot::new(&mut value);
        let first = slot.take_ref().unwrap();
        let second = slot.take_ref().unwrap();
        assert_eq!((*first, *second), (5, 5));
        assert!(slot.take_mut().is_none(), "shared already");

        let mut other = 1;
        let mut slot = Slot::new(&mut other);
        *slot.take_mut().unwrap() += 1;
        assert!(slot.take_mut().is_none() && slot.take_ref().is_none());
        assert_eq!(other, 2);
    }
}
