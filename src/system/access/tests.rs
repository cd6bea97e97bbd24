use super::*;

const READ_A: SystemAccess = SystemAccess {
    resources_read: 1,
    ..SystemAccess::NONE
};
const WRITE_A: SystemAccess = SystemAccess {
    resources_written: 1,
    ..SystemAccess::NONE
};
const WRITE_B: SystemAccess = SystemAccess {
    resources_written: 2,
    ..SystemAccess::NONE
};
const QUERY: SystemAccess = SystemAccess {
    components_read: PartBits::of(0, 4),
    query: true,
    ..SystemAccess::NONE
};
const WRITES_4_WITH_8: SystemAccess = SystemAccess {
    components_written: PartBits::of(0, 4),
    ticks: PartBits::of(0, 4),
    query: true,
    query_include: 4 | 8,
    ..SystemAccess::NONE
};
const READS_4_WITHOUT_8: SystemAccess = SystemAccess {
    components_read: PartBits::of(0, 4),
    query: true,
    query_include: 4,
    query_exclude: 8,
    ..SystemAccess::NONE
};

#[test]
fn two_reads_share_and_a_write_conflicts() {
    assert!(!READ_A.conflicts_with(READ_A));
    assert!(READ_A.conflicts_with(WRITE_A));
    assert!(WRITE_A.conflicts_with(READ_A));
    assert!(!WRITE_A.conflicts_with(WRITE_B));
    assert!(!QUERY.conflicts_with(QUERY), "two queries that read");
    assert!(
        QUERY.conflicts_with(WRITES_4_WITH_8),
        "one writes what the other reads"
    );
    assert!(
        !WRITES_4_WITH_8.conflicts_with(READS_4_WITHOUT_8),
        "their tables are disjoint"
    );
    assert!(
        WRITES_4_WITH_8.conflicts_with_system(READS_4_WITHOUT_8),
        "systems are compared by component"
    );
    let watches_4 = SystemAccess {
        components_read: PartBits::of(0, 4),
        ticks: PartBits::of(0, 4),
        query: true,
        ..SystemAccess::NONE
    };
    assert!(
        watches_4.conflicts_with(watches_4),
        "one component's change ticks"
    );
    assert!(!QUERY.conflicts_with(WRITE_A));
    let events = SystemAccess {
        events_written: 8,
        ..SystemAccess::NONE
    };
    let reader = SystemAccess {
        events_read: 8,
        ..SystemAccess::NONE
    };
    assert!(events.conflicts_with(reader));
    assert!(!reader.conflicts_with(reader), "two readers of one channel");
    let commands = SystemAccess {
        commands: true,
        ..SystemAccess::NONE
    };
    assert!(commands.conflicts_with(commands));
}

#[test]
fn a_target_terms_reads_meet_writes_by_its_own_filter() {
    // Reads 4 from targets without 8; the query itself matches tables with 16.
    let reads_targets = SystemAccess {
        query: true,
        query_include: 16,
        targets: Some(TargetAccess {
            reads: 4,
            include: 4,
            exclude: 8,
        }),
        ..SystemAccess::NONE
    };
    assert!(
        !reads_targets.conflicts_with(WRITES_4_WITH_8),
        "the term's filter keeps the targets out of the writer's tables"
    );
    let writes_4 = SystemAccess {
        components_written: PartBits::of(0, 4),
        query: true,
        query_include: 4 | 16,
        ..SystemAccess::NONE
    };
    assert!(
        reads_targets.conflicts_with(writes_4),
        "the writer's tables hold targets the term reads, whatever the term's own query"
    );
    assert!(writes_4.conflicts_with(reads_targets), "either way round");
    let writes_and_reads_targets = SystemAccess {
        components_written: PartBits::of(0, 4),
        ..reads_targets
    };
    assert!(
        writes_and_reads_targets.targets_meet_writes_of(writes_and_reads_targets),
        "its own rows (with 16) may lack 8: the term may read what the query writes"
    );
    let writes_with_8 = SystemAccess {
        query_include: 4 | 8,
        ..writes_and_reads_targets
    };
    assert!(!writes_with_8.targets_meet_writes_of(writes_with_8));
    let system = SystemAccess::NONE.and(reads_targets);
    assert_eq!(
        system.components_read,
        PartBits::of(0, 4),
        "a system's union reads the targets' too"
    );
    assert!(system.conflicts_with_system(WRITES_4_WITH_8));
    let both = TargetAccess::either(
        reads_targets.targets,
        Some(TargetAccess {
            reads: 32,
            include: 4 | 64,
            exclude: 8 | 128,
        }),
    );
    assert_eq!(
        both,
        Some(TargetAccess {
            reads: 4 | 32,
            include: 4,
            exclude: 8
        }),
        "two terms: what both filters hold"
    );
}

#[test]
fn queries_of_two_parts_never_meet() {
    let writes_4_in_core = WRITES_4_WITH_8;
    let reads_4_in_render = SystemAccess {
        components_read: PartBits::of(1, 4),
        query_part: 1,
        query_include: 4,
        ..QUERY
    };
    assert!(!writes_4_in_core.conflicts_with(reads_4_in_render));
    assert!(!reads_4_in_render.conflicts_with(writes_4_in_core));
    assert!(!writes_4_in_core.conflicts_with_system(reads_4_in_render));
    let writes_4_in_render = SystemAccess {
        components_written: PartBits::of(1, 4),
        ..reads_4_in_render
    };
    assert!(writes_4_in_render.conflicts_with(reads_4_in_render));
    let system = writes_4_in_core.and(reads_4_in_render);
    assert_eq!(
        (
            system.components_read.part(1),
            system.components_written.part(0)
        ),
        (4, 4)
    );
    assert!(system.conflicts_with_system(writes_4_in_render));
    let targets_in_render = SystemAccess {
        targets: Some(TargetAccess {
            reads: 4,
            include: 0,
            exclude: 0,
        }),
        ..reads_4_in_render
    };
    assert!(
        !targets_in_render.targets_meet_writes_of(writes_4_in_core),
        "a term reads its own part"
    );
    assert!(targets_in_render.targets_meet_writes_of(writes_4_in_render));
    assert_eq!(
        lent_parts(&[writes_4_in_core, reads_4_in_render, READ_A]),
        [false; MAX_PARTS]
    );
    let mut core_lent = [false; MAX_PARTS];
    core_lent[0] = true;
    assert_eq!(
        lent_parts(&[writes_4_in_core, READS_4_WITHOUT_8, reads_4_in_render]),
        core_lent
    );
    core_lent[1] = true;
    assert_eq!(
        lent_parts(&[writes_4_in_core, READS_4_WITHOUT_8, targets_in_render]),
        core_lent
    );
}

#[test]
fn the_first_conflict_names_its_parameters() {
    assert_eq!(first_conflict(&[READ_A, WRITE_B, QUERY, QUERY]), None);
    let (first, second) = first_conflict(&[WRITE_B, READ_A, QUERY, WRITE_A]).unwrap();
    assert_eq!((first, second), (2, 4));
    assert!(conflict_message(first, second).starts_with("parameters 2 and 4 of this system"));
    assert!(conflict_message(7, 8).starts_with("parameters 7 and 8 "));
    let combined = READ_A.and(WRITE_B).and(QUERY);
    assert_eq!(
        (
            combined.resources_read,
            combined.resources_written,
            combined.query
        ),
        (1, 2, true)
    );
}
