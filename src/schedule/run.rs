//! Running a schedule: its systems in order, or, in a parallel schedule, neighbouring systems
//! of disjoint access side by side in batches planned once after the last edit, with the
//! commands applied at each sync point.

use super::batch::Member;
use super::timing::Stopwatch;
use super::{Entry, Schedule, ScheduleError, SystemWorld};
use crate::commands::CommandReport;
use crate::system::BatchMember;
use crate::system::BatchSystem;
use alloc::vec::Vec;

impl<W: SystemWorld> Schedule<W> {
    /// Runs the systems of the stage `stage` once, in order, on `world`, with the stage's
    /// sync points (see [`run`](Self::run)). Returns what applying the commands did.
    pub fn run_stage(
        &mut self,
        stage: &str,
        world: &mut W,
    ) -> Result<CommandReport, ScheduleError> {
        // From the stage's own mark, which sets its sync rule.
        let range = self.stage_range(stage)?;
        Ok(self.run_range(range.start - 1..range.end, world))
    }

    /// The systems that run side by side, batch by batch, in run order, when the schedule runs
    /// in parallel on a world with nothing pending (see [`set_parallel`](Self::set_parallel));
    /// a system that runs alone is a batch of one. A system with a run condition starts a batch.
    pub fn batches(&self) -> Vec<Vec<&str>> {
        let mut batches = Vec::new();
        let mut index = 0;
        while index < self.entries.len() {
            let end = Self::batch_end(&self.entries, index);
            let batch: Vec<&str> = self.entries[index..end]
                .iter()
                .filter_map(Entry::system_name)
                .collect();
            if !batch.is_empty() {
                batches.push(batch);
            }
            index = end;
        }
        batches
    }

    /// Runs every system once, in order, on `world`. Each system sees what changed since its
    /// own previous run through its context; after each system the tick advances, and the
    /// commands it queued are applied before the next one runs (in a deferred stage, at the
    /// stage's end). Returns what applying the commands did, summed.
    ///
    /// If a system panics, the ones after it do not run; its commands stay queued.
    pub fn run(&mut self, world: &mut W) -> CommandReport {
        self.run_range(0..self.entries.len(), world)
    }

    /// Runs the entries in `range` (planning the batches first, if the schedule is parallel
    /// and was edited since they were planned).
    fn run_range(&mut self, range: core::ops::Range<usize>, world: &mut W) -> CommandReport {
        if self.parallel && self.plan.len() != self.entries.len() {
            let entries = &self.entries;
            self.plan = (0..entries.len())
                .map(|start| Self::batch_end(entries, start) - start)
                .collect();
        }
        let plan = self.parallel.then(|| &self.plan[range.clone()]);
        Self::run_entries(&mut self.entries[range], plan, self.timing, world)
    }

    /// Runs the systems among `entries` in order. A stage mark starts its stage's sync rule:
    /// commands applied after each system (after each batch, when systems run side by side:
    /// a batch's one system with commands is its last), or, in a deferred stage, once at its
    /// end. `plan` holds each entry's batch length when the systems run side by side.
    fn run_entries(
        entries: &mut [Entry<W>],
        plan: Option<&[usize]>,
        timed: bool,
        world: &mut W,
    ) -> CommandReport {
        let mut report = CommandReport::default();
        let mut deferred = false;
        // Work pending from before the run (queued commands, hooks) is applied at the first
        // sync point: until then, systems run alone.
        let mut batching = plan.is_some() && world.is_settled();
        let mut index = 0;
        while index < entries.len() {
            let end = match plan {
                Some(plan) if batching => index + plan[index],
                _ => index + 1,
            };
            match &mut entries[index] {
                Entry::Stage {
                    deferred: stage_deferred,
                    ..
                } => {
                    if deferred {
                        // The end of the previous, deferred, stage.
                        report.absorb(world.apply_commands());
                    }
                    deferred = *stage_deferred;
                }
                Entry::System {
                    run,
                    context,
                    condition,
                    timing,
                    ..
                } => {
                    if condition
                        .as_mut()
                        .is_some_and(|condition| !condition(world))
                    {
                        index += 1;
                        continue;
                    }
                    if end - index == 1 {
                        let stopwatch = Stopwatch::start(timed);
                        context.run_deferred(world, &mut |world, context| run.call(world, context));
                        stopwatch.stop(timing);
                    } else {
                        let mut held: Vec<Member<'_, W>> = entries[index..end]
                            .iter_mut()
                            .filter_map(|entry| match entry {
                                Entry::System {
                                    run,
                                    context,
                                    timing,
                                    ..
                                } => Some(Member {
                                    context,
                                    system: &mut **run,
                                    timing: timed.then_some(timing),
                                }),
                                Entry::Stage { .. } => None,
                            })
                            .collect();
                        let mut members: Vec<BatchMember<'_, W>> = held
                            .iter_mut()
                            .map(|member| BatchMember(member as &mut dyn BatchSystem<W>))
                            .collect();
                        world.run_batch(&mut members);
                    }
                    if !deferred {
                        report.absorb(world.apply_commands());
                        batching = plan.is_some();
                    }
                }
            }
            index = end;
        }
        if deferred {
            report.absorb(world.apply_commands());
        }
        report
    }

    /// The end of the batch starting at `start`: the systems of parameters after it, up to a
    /// stage mark, a whole-world system, a system with a run condition (its condition reads the
    /// world as the systems before it leave it) or one whose access conflicts with the batch's;
    /// a system that queues commands is a batch's last.
    fn batch_end(entries: &[Entry<W>], start: usize) -> usize {
        let Some(Entry::System {
            access: Some(first),
            ..
        }) = entries.get(start)
        else {
            return start + 1;
        };
        if first.commands {
            return start + 1;
        }
        // The batch's access together: a system conflicts with one of its members exactly
        // when it conflicts with their union (every conflict is an overlap of bit sets).
        let mut batch = *first;
        let mut end = start + 1;
        while let Some(Entry::System {
            access: Some(access),
            condition: None,
            group_start: false,
            ..
        }) = entries.get(end)
        {
            if batch.conflicts_with_system(*access) {
                break;
            }
            batch = batch.and(*access);
            end += 1;
            if access.commands {
                break;
            }
        }
        end
    }
}
