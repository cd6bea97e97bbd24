//! What `apply_commands` reports. The command type itself depends on the component list and
//! is generated (`WorldCommand`); applying a command is a call to the world's own methods.

/// How many queued commands `apply_commands` applied and how many it skipped because their
/// entity was no longer alive (or never spawned).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CommandReport {
    /// Commands that took effect.
    pub applied: usize,
    /// Commands skipped, never a panic: their target died before they were applied.
    pub skipped: usize,
}

impl CommandReport {
    /// Counts one command.
    pub fn record(&mut self, applied: bool) {
        if applied {
            self.applied += 1;
        } else {
            self.skipped += 1;
        }
    }

    /// Adds another report's counts to this one (a multi-world sums its sub-worlds').
    pub fn absorb(&mut self, other: CommandReport) {
        self.applied += other.applied;
        self.skipped += other.skipped;
    }

    /// Number of commands counted.
    pub fn total(&self) -> usize {
        self.applied + self.skipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_applied_and_skipped() {
        let mut report = CommandReport::default();
        report.record(true);
        report.record(false);
        report.record(true);
        assert_eq!(
            report,
            CommandReport {
                applied: 2,
                skipped: 1
            }
        );
        assert_eq!(report.total(), 3);
    }

    #[test]
    fn absorb_adds_both_counts() {
        let mut report = CommandReport {
            applied: 2,
            skipped: 1,
        };
        report.absorb(CommandReport {
            applied: 3,
            skipped: 4,
        });
        assert_eq!(report.applied, 5);
        assert_eq!(report.skipped, 5);
    }
}
