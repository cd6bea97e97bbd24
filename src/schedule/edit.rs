//! Editing a schedule by name: stages, systems pushed to a stage, inserted next to another,
//! replaced, given a run condition or removed. A mistake in a name is a [`ScheduleError`], and the
//! schedule is left as it was.

use super::{BoxedCondition, Entry, Schedule, ScheduleError, System, SystemContext, SystemWorld};
use alloc::{borrow::ToOwned, boxed::Box, string::String, vec::Vec};

impl<W: SystemWorld> Schedule<W> {
    /// Appends a stage named `name`: systems pushed from now on (with [`push`](Self::push)) or
    /// pushed to it (with [`push_to_stage`](Self::push_to_stage)) run in it, after the
    /// systems of earlier stages.
    pub fn add_stage(&mut self, name: impl Into<String>) -> Result<&mut Self, ScheduleError> {
        self.push_stage(name.into(), false)
    }

    /// Appends a deferred stage named `name`: like [`add_stage`](Self::add_stage), but the
    /// commands its systems queue are applied together at the stage's end, not after each
    /// system. Faster for many systems that queue little, but a system of the stage does not
    /// see what an earlier one of the same stage queued.
    pub fn add_deferred_stage(
        &mut self,
        name: impl Into<String>,
    ) -> Result<&mut Self, ScheduleError> {
        self.push_stage(name.into(), true)
    }

    fn push_stage(&mut self, name: String, deferred: bool) -> Result<&mut Self, ScheduleError> {
        if self.stage_position(&name).is_ok() {
            return Err(ScheduleError::DuplicateStage(name));
        }
        self.edit().push(Entry::Stage { name, deferred });
        Ok(self)
    }

    /// Appends `system` under `name` at the end of the stage `stage`, before the systems of
    /// later stages.
    ///
    /// A taken `name` is reported before a missing `stage`.
    pub fn push_to_stage<Marker: 'static>(
        &mut self,
        stage: &str,
        name: impl Into<String>,
        system: impl System<W, Marker> + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let name = self.unused(name.into())?;
        let end = self.stage_range(stage)?.end;
        self.edit().insert(end, Entry::system(name, system));
        Ok(self)
    }

    /// The stage names, in run order.
    pub fn stage_names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().filter_map(|entry| match entry {
            Entry::Stage { name, .. } => Some(name.as_str()),
            Entry::System { .. } => None,
        })
    }

    /// Inserts `system` under `name`, to run right before the system named `anchor`.
    ///
    /// A taken `name` is reported before a missing `anchor`.
    pub fn insert_before<Marker: 'static>(
        &mut self,
        anchor: &str,
        name: impl Into<String>,
        system: impl System<W, Marker> + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let name = self.unused(name.into())?;
        self.insert_next_to(anchor, 0, Entry::system(name, system))
    }

    /// Inserts `system` under `name`, to run right after the system named `anchor`.
    ///
    /// A taken `name` is reported before a missing `anchor`.
    pub fn insert_after<Marker: 'static>(
        &mut self,
        anchor: &str,
        name: impl Into<String>,
        system: impl System<W, Marker> + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let name = self.unused(name.into())?;
        self.insert_next_to(anchor, 1, Entry::system(name, system))
    }

    /// Inserts `system` (whose name the caller checked is free) at `anchor`'s index plus
    /// `offset` (0: before it, 1: after it).
    fn insert_next_to(
        &mut self,
        anchor: &str,
        offset: usize,
        system: Entry<W>,
    ) -> Result<&mut Self, ScheduleError> {
        let index = self.position(anchor)?;
        self.edit().insert(index + offset, system);
        Ok(self)
    }

    /// Swaps the system named `name` for `system`, keeping its place in the order. The old
    /// system, and any state it held (its closure's and its context), is dropped: the new one
    /// starts with a first run.
    pub fn replace<Marker: 'static>(
        &mut self,
        name: &str,
        system: impl System<W, Marker> + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let index = self.position(name)?;
        let mut entry = Entry::system(name.to_owned(), system);
        if let Entry::System { context, .. } = &mut entry {
            *context = SystemContext::replacing(name.to_owned());
        }
        self.edit()[index] = entry;
        Ok(self)
    }

    /// Runs the system named `name` only when `condition` returns `true` (every `n`th frame,
    /// while a resource says the game is not paused). A skipped system does not run at all:
    /// its memory stays at its last real run, so when it runs again it sees everything since.
    /// Replaces the condition set before; [`replace`](Self::replace) clears it.
    pub fn run_if(
        &mut self,
        name: &str,
        condition: impl FnMut(&W) -> bool + 'static,
    ) -> Result<&mut Self, ScheduleError> {
        let index = self.position(name)?;
        self.set_condition(index, Box::new(condition));
        Ok(self)
    }

    /// Sets the run condition of the system at `index` (a stage mark has none).
    pub(super) fn set_condition(&mut self, index: usize, condition: BoxedCondition<W>) {
        if let Some(Entry::System {
            condition: slot, ..
        }) = self.edit().get_mut(index)
        {
            *slot = Some(condition);
        }
    }

    /// Removes the system named `name`. Returns `false` if there is none.
    pub fn remove(&mut self, name: &str) -> bool {
        match self.position(name) {
            Ok(index) => {
                // Dropping the system drops whatever state it held.
                drop(self.edit().remove(index));
                true
            }
            Err(_) => false,
        }
    }

    /// The entries, for an edit: the batches planned from them are stale. (Appending a system
    /// clears the plan itself: its `self.entries.push(Entry::system(..))` is the line a
    /// conflict's compile error names, pinned in `macro_tests/ui`.)
    pub(super) fn edit(&mut self) -> &mut Vec<Entry<W>> {
        self.plan.clear();
        &mut self.entries
    }

    /// The entries of the stage `stage`: after its mark, up to the next mark.
    pub(super) fn stage_range(
        &self,
        stage: &str,
    ) -> Result<core::ops::Range<usize>, ScheduleError> {
        let start = self.stage_position(stage)? + 1;
        let length = self.entries[start..]
            .iter()
            .position(|entry| matches!(entry, Entry::Stage { .. }))
            .unwrap_or(self.entries.len() - start);
        Ok(start..start + length)
    }

    fn stage_position(&self, stage: &str) -> Result<usize, ScheduleError> {
        self.entries
            .iter()
            .position(|entry| matches!(entry, Entry::Stage { name, .. } if name == stage))
            .ok_or_else(|| ScheduleError::UnknownStage(stage.to_owned()))
    }

    pub(super) fn position(&self, name: &str) -> Result<usize, ScheduleError> {
        // A linear scan: schedules hold tens of systems and are edited rarely, so a name index
        // would cost more to keep in step than it saves.
        self.entries
            .iter()
            .position(|entry| entry.system_name() == Some(name))
            .ok_or_else(|| ScheduleError::UnknownName(name.to_owned()))
    }

    /// `name`, if no system has it yet.
    pub(super) fn unused(&self, name: String) -> Result<String, ScheduleError> {
        if self.contains(&name) {
            Err(ScheduleError::DuplicateName(name))
        } else {
            Ok(name)
        }
    }
}
