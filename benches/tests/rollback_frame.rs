//! What one saved frame of the `rollback_frame` workload's arena keeps (the example's game at
//! 10,000 entities): the bytes a copy of the world holds, counted by the allocator.

use benches::workloads::rollback_frame::{Frames, ROLLBACK_FRAME_ENTITIES};

#[test]
fn a_saved_frame_of_the_crowded_arena_keeps_its_bytes() {
    let frames = Frames::new(true);
    let mut saved = None;
    let info = allocation_counter::measure(|| saved = Some(frames.world().clone()));
    let saved = saved.expect("a copy");
    assert_eq!(saved.entity_count(), ROLLBACK_FRAME_ENTITIES);
    let per_entity = info.bytes_current as f64 / ROLLBACK_FRAME_ENTITIES as f64;
    println!(
        "a saved frame keeps {} bytes: {per_entity:.1} bytes per entity",
        info.bytes_current
    );
    // Its components (position, velocity, owner, lifetime: 21 bytes), handle, link and change
    // ticks: well under a few hundred bytes an entity.
    assert!((21.0..200.0).contains(&per_entity), "{per_entity}");
}
