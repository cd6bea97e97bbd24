//! The `rollback_netcode` example's ggrs side, over its game (`game.rs`): the game's ggrs
//! types, and the requests fulfilled: save = a copy of the world and its checksum, load =
//! `restore`, advance = one frame with the inputs ggrs hands over. Shared with the ggrs tests in
//! `macro_tests/tests/rollback_netcode.rs`.

use ggrs::{Frame, GgrsRequest, InputStatus, PredictRepeatLast};

use crate::game::{Input, Inputs, World, advance};
use archetypal::Schedule;

/// The game's ggrs types: the input, how a missing input is predicted, the saved state (the
/// world itself) and the peers' addresses.
pub struct GameConfig;

impl ggrs::Config for GameConfig {
    type Input = Input;
    type InputPredictor = PredictRepeatLast;
    type State = World;
    type Address = std::net::SocketAddr;
}

/// What a peer did with ggrs's requests: how many frames it saved, loaded (each load is a
/// rollback) and advanced, and the checksum it saved for each frame (the last one saved).
#[derive(Default, Debug)]
pub struct Requests {
    pub saves: u32,
    pub loads: u32,
    pub advances: u32,
    pub checksums: std::collections::BTreeMap<Frame, u128>,
}

/// The inputs of a frame as ggrs hands them over: a disconnected player's is ggrs's dummy, so
/// nothing pressed.
pub fn frame_inputs(inputs: &[(Input, InputStatus)]) -> Inputs {
    let mut frame_inputs = Inputs::default();
    for (slot, (input, status)) in frame_inputs.0.iter_mut().zip(inputs) {
        *slot = match status {
            InputStatus::Disconnected => Input::default(),
            _ => *input,
        };
    }
    frame_inputs
}

/// Fulfils ggrs's requests, in order: save = a copy of the world and its checksum, load =
/// `restore`, advance = one frame.
pub fn handle_requests(
    world: &mut World,
    schedule: &mut Schedule<World>,
    requests: Vec<GgrsRequest<GameConfig>>,
    done: &mut Requests,
) {
    for request in requests {
        match request {
            GgrsRequest::SaveGameState { cell, frame } => {
                assert_eq!(
                    world.resources.frame, frame,
                    "ggrs saves the frame the world is at"
                );
                let checksum = u128::from(world.snapshot().checksum());
                cell.save(frame, Some(world.clone()), Some(checksum));
                done.checksums.insert(frame, checksum);
                done.saves += 1;
            }
            GgrsRequest::LoadGameState { cell, frame } => {
                let saved = cell.data().expect("ggrs loads only frames it had saved");
                world.restore(&saved);
                assert_eq!(world.resources.frame, frame);
                done.loads += 1;
            }
            GgrsRequest::AdvanceFrame { inputs } => {
                advance(world, schedule, frame_inputs(&inputs));
                done.advances += 1;
            }
        }
    }
}
