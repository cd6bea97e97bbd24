//! Every contender of a workload ends the same passes from a fresh setup with the same
//! checksum (several passes, so change detection that reports too much shows), and a second
//! pass changes it (the pass does work the checksum sees).

use benches::{Pass, checksum_after_checked_passes, workloads};

#[test]
fn contenders_agree_after_the_checked_passes() {
    for workload in workloads() {
        let checksums: Vec<(&str, u64)> = workload
            .contenders
            .iter()
            .map(|contender| (contender.name, checksum_after_checked_passes(contender)))
            .collect();
        assert!(
            checksums
                .iter()
                .all(|&(_, checksum)| checksum == checksums[0].1),
            "{}: {checksums:#x?}",
            workload.name
        );
    }
}

#[test]
fn a_pass_changes_what_the_checksum_sees() {
    for workload in workloads() {
        // Inserting (simple_insert, memory, hierarchy_build) builds the same world every
        // pass, the serialize passes load the same copy every time, and table_creation and
        // many_archetypes_growth build the same tables every pass. (add_remove and
        // tracking_migrations return their worlds to the start, but count the rows they moved.)
        if matches!(
            workload.name,
            "simple_insert"
                | "memory"
                | "hierarchy_build"
                | "serialize_text"
                | "serialize_binary"
                | "table_creation"
                | "table_creation_128"
                | "many_archetypes_growth"
        ) {
            continue;
        }
        for contender in &workload.contenders {
            let mut pass: Box<dyn Pass> = (contender.setup)();
            pass.run();
            let first = pass.checksum();
            pass.run();
            assert_ne!(
                first,
                pass.checksum(),
                "{} / {}: a second pass left the checksum unchanged",
                workload.name,
                contender.name
            );
        }
    }
}
