//! Rollback netcode under ggrs: a small real-time game (ships steered by each player's input,
//! bullets, hits, deaths and respawns, a relation, saved events, a "changed" system) driven by
//! ggrs's requests, with nothing saved but the world: save = `world.clone()` and
//! `world.snapshot().checksum()`, load = `world.restore(&saved)`, advance = one schedule run
//! with the frame's inputs in a resource.
//!
//! ggrs's `SyncTestSession` is the judge: every frame it rolls back `CHECK_DISTANCE` frames,
//! resimulates them and compares the checksums with the first run's; a single difference (an
//! event applied twice, a handle issued differently, a "changed" query seeing other rows) is an
//! error. The game is in `rollback_netcode/game.rs`, its ggrs side (the requests fulfilled) in
//! `rollback_netcode/netcode.rs`; `macro_tests/tests/rollback_netcode.rs`
//! runs it longer, and between two peers over UDP.
//!
//! `cargo run --example rollback_netcode --features serde`

#[path = "rollback_netcode/game.rs"]
mod game;
#[path = "rollback_netcode/netcode.rs"]
mod netcode;

use game::{Inputs, new_schedule, new_world, scripted_input};
use ggrs::SessionBuilder;
use netcode::{GameConfig, Requests, handle_requests};

const PLAYERS: usize = 2;
const FRAMES: i32 = 300;
const CHECK_DISTANCE: usize = 7;

fn main() {
    let mut session = SessionBuilder::<GameConfig>::new()
        .with_num_players(PLAYERS)
        .expect("a valid player count")
        .with_check_distance(CHECK_DISTANCE)
        .start_synctest_session()
        .expect("a valid sync test");
    let mut world = new_world(PLAYERS);
    let mut schedule = new_schedule();
    let mut done = Requests::default();
    for frame in 0..FRAMES {
        for player in 0..PLAYERS {
            session
                .add_local_input(player, scripted_input(player, frame))
                .expect("a valid player");
        }
        // A resimulated frame whose checksum differs from the first run's is an error here.
        let requests = session
            .advance_frame()
            .unwrap_or_else(|error| panic!("frame {frame}: {error}"));
        handle_requests(&mut world, &mut schedule, requests, &mut done);
    }

    let tally = world.resources.tally;
    println!(
        "{FRAMES} frames under ggrs's sync test (check distance {CHECK_DISTANCE}): {} loads \
         (rollbacks), {} frames advanced, {} saves, 0 checksum mismatches",
        done.loads, done.advances, done.saves
    );
    println!(
        "the game: {} bullets fired, {} hits, {} deaths, {} health bars redrawn; {} entities now, \
         checksum {:#018x}",
        tally.bullets_fired,
        tally.hits,
        tally.deaths,
        tally.bars_redrawn,
        world.entity_count(),
        world.snapshot().checksum()
    );
    assert_eq!(world.resources.frame, FRAMES);
    // Every frame past the first CHECK_DISTANCE was rolled back and resimulated.
    assert_eq!(done.loads as i32, FRAMES - CHECK_DISTANCE as i32 - 1);
    assert!(done.advances as i32 > FRAMES * CHECK_DISTANCE as i32 / 2);
    assert!(
        tally.hits > 0 && tally.deaths > 0,
        "the script makes ships fight"
    );

    // The same inputs, no rollback at all: the same world, checksum for checksum.
    let mut straight = new_world(PLAYERS);
    let mut straight_schedule = new_schedule();
    for frame in 0..FRAMES {
        let mut inputs = Inputs::default();
        for (player, input) in inputs.0.iter_mut().enumerate().take(PLAYERS) {
            *input = scripted_input(player, frame);
        }
        game::advance(&mut straight, &mut straight_schedule, inputs);
    }
    assert_eq!(
        straight.snapshot().checksum(),
        world.snapshot().checksum(),
        "the rolled-back world is the world simulated once"
    );
    println!("the world simulated once, without rollbacks, has the same checksum");
}
