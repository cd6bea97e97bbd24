//! The `rollback_netcode` example's game checked by ggrs itself: its `SyncTestSession` rolls
//! back and resimulates every frame over a check distance of 7 and compares the crate's
//! checksums (1,200 frames, changing inputs, no mismatch); and two `P2PSession`s in this process,
//! over UDP on 127.0.0.1, mispredict each other's inputs and roll back, and end on the same
//! checksum for every confirmed frame (ggrs's own desync detection on, every frame). A load that
//! forgets to restore is caught, so the checks can fail.

#![allow(clippy::type_complexity)]

#[path = "../../examples/rollback_netcode/game.rs"]
mod game;
#[path = "../../examples/rollback_netcode/netcode.rs"]
mod netcode;

use std::io::ErrorKind;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use game::{World, new_schedule, new_world, scripted_input};
use ggrs::{
    DesyncDetection, GgrsError, GgrsEvent, GgrsRequest, Message, NonBlockingSocket, P2PSession,
    PlayerType, SessionBuilder, SessionState,
};
use netcode::{GameConfig, Requests, frame_inputs, handle_requests};

const CHECK_DISTANCE: usize = 7;

#[test]
fn a_sync_test_of_1200_frames_finds_no_mismatch() {
    const PLAYERS: usize = 3;
    const FRAMES: i32 = 1200;
    let mut session = SessionBuilder::<GameConfig>::new()
        .with_num_players(PLAYERS)
        .unwrap()
        .with_check_distance(CHECK_DISTANCE)
        .start_synctest_session()
        .unwrap();
    let mut world = new_world(PLAYERS);
    let mut schedule = new_schedule();
    let mut done = Requests::default();
    for frame in 0..FRAMES {
        for player in 0..PLAYERS {
            session
                .add_local_input(player, scripted_input(player, frame))
                .unwrap();
        }
        let requests = session
            .advance_frame()
            .unwrap_or_else(|error| panic!("frame {frame}: {error}"));
        handle_requests(&mut world, &mut schedule, requests, &mut done);
    }
    assert_eq!(world.resources.frame, FRAMES);
    assert_eq!(
        done.loads as i32,
        FRAMES - CHECK_DISTANCE as i32 - 1,
        "a rollback per frame"
    );
    let tally = world.resources.tally;
    assert!(tally.hits > 20 && tally.deaths > 2, "{tally:?}");
    println!(
        "sync test: {FRAMES} frames, {} rollbacks, {} frames advanced, 0 mismatches; {tally:?}",
        done.loads, done.advances
    );
}

/// The check can fail: a game whose load does not restore the world (its frames resimulated on
/// top of the present) is reported by the sync test at once.
#[test]
fn a_sync_test_catches_a_load_that_does_not_restore() {
    let mut session = SessionBuilder::<GameConfig>::new()
        .with_num_players(2)
        .unwrap()
        .with_check_distance(CHECK_DISTANCE)
        .start_synctest_session()
        .unwrap();
    let mut world = new_world(2);
    let mut schedule = new_schedule();
    let mut done = Requests::default();
    for frame in 0..100 {
        for player in 0..2 {
            session
                .add_local_input(player, scripted_input(player, frame))
                .unwrap();
        }
        match session.advance_frame() {
            Ok(requests) => {
                // Loads dropped: the world is not put back.
                let requests = requests
                    .into_iter()
                    .filter(|request| !matches!(request, GgrsRequest::LoadGameState { .. }))
                    .collect();
                // The frame check in `handle_requests` would fire first: keep the count true.
                let frame_before = world.resources.frame;
                handle_requests_unchecked(&mut world, &mut schedule, requests, &mut done);
                assert!(world.resources.frame >= frame_before);
            }
            Err(GgrsError::MismatchedChecksum { .. }) => return,
            Err(error) => panic!("{error}"),
        }
    }
    panic!("the sync test did not notice the world was never restored");
}

/// [`handle_requests`] without its frame checks (for the broken game above).
fn handle_requests_unchecked(
    world: &mut World,
    schedule: &mut archetypal::Schedule<World>,
    requests: Vec<GgrsRequest<GameConfig>>,
    done: &mut Requests,
) {
    for request in requests {
        match request {
            GgrsRequest::SaveGameState { cell, frame } => {
                let checksum = u128::from(world.snapshot().checksum());
                cell.save(frame, Some(world.clone()), Some(checksum));
                done.saves += 1;
            }
            GgrsRequest::LoadGameState { .. } => unreachable!("filtered out"),
            GgrsRequest::AdvanceFrame { inputs } => {
                game::advance(world, schedule, frame_inputs(&inputs))
            }
        }
    }
}

/// A UDP socket bound to 127.0.0.1 (an ephemeral port the system picks), sending ggrs's messages
/// as postcard bytes. ggrs's own `UdpNonBlockingSocket` binds every interface (0.0.0.0).
struct LoopbackSocket {
    socket: UdpSocket,
    buffer: Vec<u8>,
}

impl LoopbackSocket {
    fn bind() -> Self {
        let socket = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).expect("a loopback port");
        socket.set_nonblocking(true).unwrap();
        LoopbackSocket {
            socket,
            buffer: vec![0; 4096],
        }
    }

    fn address(&self) -> SocketAddr {
        self.socket.local_addr().unwrap()
    }
}

impl NonBlockingSocket<SocketAddr> for LoopbackSocket {
    fn send_to(&mut self, message: &Message, address: &SocketAddr) {
        assert!(
            address.ip().is_loopback(),
            "this test talks to 127.0.0.1 only"
        );
        let bytes = postcard::to_allocvec(message).expect("a message postcard can write");
        // UDP: a lost datagram is ggrs's to resend.
        let _ = self.socket.send_to(&bytes, address);
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let mut received = Vec::new();
        loop {
            match self.socket.recv_from(&mut self.buffer) {
                Ok((length, from)) => {
                    if let Ok(message) = postcard::from_bytes(&self.buffer[..length]) {
                        received.push((from, message));
                    }
                }
                Err(error) if error.kind() == ErrorKind::WouldBlock => return received,
                Err(error) if error.kind() == ErrorKind::ConnectionReset => continue,
                Err(error) => panic!("loopback UDP: {error}"),
            }
        }
    }
}

/// One peer: its session, its world and schedule, what it did.
struct Peer {
    session: P2PSession<GameConfig>,
    world: World,
    schedule: archetypal::Schedule<World>,
    done: Requests,
    local: usize,
    /// ggrs's desync reports: frame, local and remote checksum.
    desyncs: Vec<(ggrs::Frame, u128, u128)>,
    /// The confirmed frame after the last advance: the states saved up to it were simulated
    /// from confirmed inputs only (a later input is only applied by a later advance).
    settled: ggrs::Frame,
}

impl Peer {
    fn new(local: usize, socket: LoopbackSocket, remote: SocketAddr) -> Self {
        let mut builder = SessionBuilder::<GameConfig>::new()
            .with_num_players(2)
            .unwrap()
            // ggrs compares the peers' checksums itself, every confirmed frame.
            .with_desync_detection_mode(DesyncDetection::On { interval: 1 })
            .with_max_prediction_window(8);
        for player in 0..2 {
            let kind = match player == local {
                true => PlayerType::Local,
                false => PlayerType::Remote(remote),
            };
            builder = builder.add_player(kind, player).unwrap();
        }
        Peer {
            session: builder.start_p2p_session(socket).unwrap(),
            world: new_world(2),
            schedule: new_schedule(),
            done: Requests::default(),
            local,
            desyncs: Vec::new(),
            settled: -1,
        }
    }

    /// Sends this frame's input and advances, if ggrs lets it (it refuses while the other
    /// peer is too far behind); `true` if it advanced.
    fn step(&mut self) -> bool {
        self.session.poll_remote_clients();
        let frame = self.session.current_frame();
        let input = scripted_input(self.local, frame);
        self.session.add_local_input(self.local, input).unwrap();
        let advanced = match self.session.advance_frame() {
            Ok(requests) => {
                handle_requests(
                    &mut self.world,
                    &mut self.schedule,
                    requests,
                    &mut self.done,
                );
                self.settled = self.session.confirmed_frame();
                true
            }
            Err(GgrsError::PredictionThreshold) => false,
            Err(error) => panic!("peer {}: {error}", self.local),
        };
        for event in self.session.events() {
            if let GgrsEvent::DesyncDetected {
                frame,
                local_checksum,
                remote_checksum,
                ..
            } = event
            {
                self.desyncs.push((frame, local_checksum, remote_checksum));
            }
        }
        advanced
    }
}

/// Two peers, one per player, over UDP on 127.0.0.1. They take turns in this one thread, the
/// first to move alternating: the one that moves first advances its frame before the other's
/// input for that frame exists, so it predicts it (repeating the last input) and, the scripted
/// inputs changing every few frames, is often wrong: ggrs rolls back and resimulates. So both
/// roll back whatever the timing of the loopback. The test stops by itself: a bounded number of frames
/// and a bounded wall time (30 s, far more than it takes).
#[test]
fn two_peers_over_loopback_udp_roll_back_and_agree_on_every_confirmed_frame() {
    const FRAMES: i32 = 600;
    let deadline = Instant::now() + Duration::from_secs(30);
    let (first_socket, second_socket) = (LoopbackSocket::bind(), LoopbackSocket::bind());
    let (first_address, second_address) = (first_socket.address(), second_socket.address());
    let mut peers = [
        Peer::new(0, first_socket, second_address),
        Peer::new(1, second_socket, first_address),
    ];

    // Synchronize: a few round trips.
    while peers
        .iter()
        .any(|peer| peer.session.current_state() != SessionState::Running)
    {
        assert!(Instant::now() < deadline, "the peers did not synchronize");
        for peer in &mut peers {
            peer.session.poll_remote_clients();
        }
        std::thread::sleep(Duration::from_millis(1));
    }

    // Play.
    let mut turn = 0;
    while peers
        .iter()
        .any(|peer| peer.session.current_frame() < FRAMES)
    {
        assert!(
            Instant::now() < deadline,
            "the peers did not reach frame {FRAMES}"
        );
        for index in [turn % 2, 1 - turn % 2] {
            let peer = &mut peers[index];
            if peer.session.current_frame() < FRAMES {
                peer.step();
            }
        }
        turn += 1;
    }

    let confirmed = peers.iter().map(|peer| peer.settled).min().unwrap();
    assert!(confirmed > FRAMES - 20, "confirmed up to {confirmed}");
    let [first, second] = &peers;
    let mut compared = 0;
    for frame in 0..=confirmed {
        let mine = first.done.checksums.get(&frame);
        let theirs = second.done.checksums.get(&frame);
        assert!(
            mine.is_some() && theirs.is_some(),
            "frame {frame} saved by both"
        );
        assert_eq!(
            mine, theirs,
            "the peers' checksums of confirmed frame {frame}"
        );
        compared += 1;
    }
    for peer in &peers {
        assert!(
            peer.desyncs.is_empty(),
            "ggrs saw a desync: {:?}",
            peer.desyncs
        );
        assert_eq!(peer.world.resources.frame, FRAMES);
    }
    let rollbacks: Vec<u32> = peers.iter().map(|peer| peer.done.loads).collect();
    assert!(
        rollbacks.iter().all(|&loads| loads > 10),
        "mispredictions force rollbacks on both peers: {rollbacks:?}"
    );
    let tally = first.world.resources.tally;
    assert!(tally.hits > 0, "{tally:?}");
    println!(
        "P2P: {FRAMES} frames on each peer, {compared} confirmed frames compared, rollbacks \
         {rollbacks:?}, frames advanced {:?}, 0 mismatches, 0 desyncs; {tally:?}",
        peers
            .iter()
            .map(|peer| peer.done.advances)
            .collect::<Vec<_>>()
    );
}
