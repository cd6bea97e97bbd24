//! The game of the `rollback_netcode` example, shared with the ggrs tests in
//! `macro_tests/tests/rollback_netcode.rs`: ships steered by each player's input fire bullets
//! (each linked to its shooter by a relation), bullets hit enemy ships (a saved event), damage
//! is applied once per hit, health bars follow health through a "changed since this system last
//! ran" query, dead ships are despawned and respawn later, expired bullets are despawned. It is
//! a `Schedule` of systems of parameters; its whole state is the world.
//!
//! It knows nothing of ggrs: `netcode.rs` fulfils ggrs's requests over it (save =
//! `world.clone()` with `world.snapshot().checksum()`, load = `world.restore(&saved)`, advance =
//! [`advance`]). The benchmarks' `rollback_frame` workload includes this file too.

#![allow(clippy::type_complexity)]

use archetypal::{
    Changed, Entity, EventReader, EventWriter, Res, ResMut, Schedule, Target, With, Without, ecs,
};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub x: i32,
    pub y: i32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Velocity {
    pub x: i32,
    pub y: i32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health(pub i32);

/// What the health bar shows: a tenth of the health, rounded up; kept by a "changed" system.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealthBar(pub u8);

/// The player a ship or a bullet belongs to.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Owner(pub u8);

/// Frames until a bullet expires.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lifetime(pub u32);

/// Frames until a ship may fire again.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cooldown(pub u32);

/// A bullet met an enemy ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    pub ship: Entity,
    pub shooter: Option<Entity>,
    pub damage: i32,
}

/// A ship was destroyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Died {
    pub player: u8,
}

/// The most players a game holds.
pub const MAX_PLAYERS: usize = 4;

/// Every player's input of the frame being simulated (what ggrs hands to `AdvanceFrame`).
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inputs(pub [Input; MAX_PLAYERS]);

/// Running totals, for the example's report and the tests' sanity checks.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub hits: u32,
    pub deaths: u32,
    pub bullets_fired: u32,
    pub bars_redrawn: u32,
}

/// Frames until a dead player's ship comes back, per player (0: alive or not playing).
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Respawns(pub [u32; MAX_PLAYERS]);

ecs! {
    World {
        position: Position => POSITION,
        velocity: Velocity => VELOCITY,
        health: Health => HEALTH,
        health_bar: HealthBar => HEALTH_BAR,
        owner: Owner => OWNER,
        lifetime: Lifetime => LIFETIME,
        cooldown: Cooldown => COOLDOWN,
    }
    Tags {
        ship => SHIP,
    }
    Relations {
        fired_by / shots => FIRED_BY,
    }
    Events {
        hit: Hit [saved],
        died: Died [saved],
    }
    Resources {
        inputs: Inputs,
        /// The frame the world is at (ggrs's frame number: the frames advanced).
        frame: i32,
        players: u8,
        tally: Tally,
        respawns: Respawns,
    }
}

/// One player's input for one frame: the only data the peers send each other.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// -1, 0 or 1 per axis, as bits: see [`Input::new`].
    pub buttons: u8,
}

impl Input {
    const LEFT: u8 = 1;
    const RIGHT: u8 = 2;
    const UP: u8 = 4;
    const DOWN: u8 = 8;
    const FIRE: u8 = 16;

    /// Steering `x` and `y` (each -1, 0 or 1), and the fire button.
    pub fn new(x: i32, y: i32, fire: bool) -> Self {
        let mut buttons = 0;
        buttons |= match x.signum() {
            -1 => Self::LEFT,
            1 => Self::RIGHT,
            _ => 0,
        };
        buttons |= match y.signum() {
            -1 => Self::DOWN,
            1 => Self::UP,
            _ => 0,
        };
        if fire {
            buttons |= Self::FIRE;
        }
        Input { buttons }
    }

    fn axis(self, negative: u8, positive: u8) -> i32 {
        i32::from(self.buttons & positive != 0) - i32::from(self.buttons & negative != 0)
    }

    fn fire(self) -> bool {
        self.buttons & Self::FIRE != 0
    }
}

/// What a player presses at a frame, scripted (so runs repeat): it changes every few frames,
/// differently per player, so a peer that predicts the other's input is often wrong.
pub fn scripted_input(player: usize, frame: i32) -> Input {
    let seed = (frame as u32 / (3 + player as u32))
        .wrapping_mul(0x9e37_79b9)
        .wrapping_add((player as u32).wrapping_mul(0x85eb_ca6b));
    let mixed = (seed ^ (seed >> 15)).wrapping_mul(0x2c1b_3c6d);
    let mixed = mixed ^ (mixed >> 12);
    Input::new(
        (mixed % 3) as i32 - 1,
        ((mixed >> 4) % 3) as i32 - 1,
        (mixed >> 8) & 3 != 0,
    )
}

/// The arena wraps around at this size, in both axes.
const ARENA: i32 = 240;
const SHIP_SPEED: i32 = 3;
const BULLET_SPEED: i32 = 7;
const BULLET_LIFETIME: u32 = 30;
const FIRE_COOLDOWN: u32 = 6;
const HIT_RADIUS: i32 = 12;
const DAMAGE: i32 = 20;
const SHIP_HEALTH: i32 = 100;
const RESPAWN_FRAMES: u32 = 20;

/// Ships steer by their player's input.
fn steer(inputs: Res<Inputs>, mut ships: Query<(&Owner, &mut Velocity), With<SHIP>>) {
    ships.for_each(|(owner, mut velocity)| {
        let input = inputs.0[usize::from(owner.0)];
        let wanted = Velocity {
            x: input.axis(Input::LEFT, Input::RIGHT) * SHIP_SPEED,
            y: input.axis(Input::DOWN, Input::UP) * SHIP_SPEED,
        };
        if *velocity != wanted {
            *velocity = wanted;
        }
    });
}

/// Ships whose player holds fire shoot when their cooldown allows: a bullet spawned by a
/// command, flying the way the ship faces (down for even players, up for odd ones, plus its
/// steering), linked to its shooter.
fn fire(
    inputs: Res<Inputs>,
    mut ships: Query<(Entity, &Owner, &Position, &Velocity, &mut Cooldown), With<SHIP>>,
    mut commands: Commands,
    mut tally: ResMut<Tally>,
) {
    ships.for_each(|(ship, owner, position, velocity, mut cooldown)| {
        if cooldown.0 > 0 {
            cooldown.0 -= 1;
            return;
        }
        if !inputs.0[usize::from(owner.0)].fire() {
            return;
        }
        cooldown.0 = FIRE_COOLDOWN;
        let facing = if owner.0 & 1 == 0 { -1 } else { 1 };
        commands.queue_spawn(
            EntityBuilder::new()
                .with_position(*position)
                .with_velocity(Velocity {
                    x: velocity.x.signum() * BULLET_SPEED / 2,
                    y: facing * BULLET_SPEED,
                })
                .with_owner(*owner)
                .with_lifetime(Lifetime(BULLET_LIFETIME))
                .with_fired_by(ship),
        );
        tally.bullets_fired += 1;
    });
}

/// Everything moves, wrapping around the arena.
fn movement(mut movers: Query<(&mut Position, &Velocity)>) {
    movers.for_each(|(mut position, velocity)| {
        if velocity.x != 0 || velocity.y != 0 {
            position.x = (position.x + velocity.x).rem_euclid(ARENA);
            position.y = (position.y + velocity.y).rem_euclid(ARENA);
        }
    });
}

/// A bullet within reach of an enemy ship hits it (an event, naming the shooter through the
/// bullet's `fired_by` link) and is gone.
fn collide(
    bullets: Query<(Entity, &Position, &Owner, Target<FIRED_BY>), With<Lifetime>>,
    ships: Query<(Entity, &Position, &Owner), (With<SHIP>, Without<Lifetime>)>,
    mut hits: EventWriter<Hit>,
    mut commands: Commands,
) {
    for (bullet, bullet_position, bullet_owner, shooter) in bullets.iter() {
        let target = ships.iter().find(|(_, position, owner)| {
            owner.0 != bullet_owner.0
                && (position.x - bullet_position.x).abs() <= HIT_RADIUS
                && (position.y - bullet_position.y).abs() <= HIT_RADIUS
        });
        if let Some((ship, ..)) = target {
            hits.send(Hit {
                ship,
                shooter,
                damage: DAMAGE,
            });
            commands.queue_despawn(bullet);
        }
    }
}

/// Each hit once (the reader's cursor is part of the world: a resimulated frame reads it again
/// only because the restore put the cursor back).
fn damage(mut hits: EventReader<Hit>, mut ships: Query<&mut Health>, mut tally: ResMut<Tally>) {
    for hit in hits.read() {
        if let Some(mut health) = ships.get_mut(hit.ship) {
            health.0 -= hit.damage;
            tally.hits += 1;
        }
    }
}

/// Only the bars of the ships whose health changed since this system last ran.
fn health_bars(
    mut changed: Query<(&Health, &mut HealthBar), Changed<Health>>,
    mut tally: ResMut<Tally>,
) {
    changed.for_each(|(health, mut bar)| {
        bar.0 = (health.0.max(0) as u32).div_ceil(10) as u8;
        tally.bars_redrawn += 1;
    });
}

/// Dead ships go (their bullets stay, unlinked), and say so.
fn deaths(
    ships: Query<(Entity, &Health, &Owner), With<SHIP>>,
    mut died: EventWriter<Died>,
    mut commands: Commands,
) {
    for (ship, health, owner) in ships.iter() {
        if health.0 <= 0 {
            commands.queue_despawn(ship);
            died.send(Died { player: owner.0 });
        }
    }
}

/// A dead player's ship comes back after a while.
fn respawn(
    mut died: EventReader<Died>,
    mut respawns: ResMut<Respawns>,
    mut tally: ResMut<Tally>,
    mut commands: Commands,
) {
    for death in died.read() {
        respawns.0[usize::from(death.player)] = RESPAWN_FRAMES;
        tally.deaths += 1;
    }
    for player in 0..MAX_PLAYERS {
        if respawns.0[player] == 0 {
            continue;
        }
        respawns.0[player] -= 1;
        if respawns.0[player] == 0 {
            let ship = commands.queue_spawn(ship_builder(player));
            commands.queue_add_ship(ship);
        }
    }
}

/// Bullets age, and expire.
fn expire(mut bullets: Query<(Entity, &mut Lifetime)>, mut commands: Commands) {
    bullets.for_each(|(bullet, mut lifetime)| {
        lifetime.0 -= 1;
        if lifetime.0 == 0 {
            commands.queue_despawn(bullet);
        }
    });
}

fn count_frame(mut frame: ResMut<i32>) {
    *frame += 1;
}

/// Player `player`'s ship, at its start.
fn ship_builder(player: usize) -> EntityBuilder {
    let spread = ARENA / MAX_PLAYERS as i32;
    EntityBuilder::new()
        .with_position(Position {
            x: spread * player as i32 + spread / 2,
            y: if player & 1 == 0 { ARENA - 40 } else { 40 },
        })
        .with_velocity(Velocity::default())
        .with_health(Health(SHIP_HEALTH))
        .with_health_bar(HealthBar::default())
        .with_owner(Owner(player as u8))
        .with_cooldown(Cooldown::default())
}

/// A new game of `players` players (at most [`MAX_PLAYERS`]), one ship each.
pub fn new_world(players: usize) -> World {
    assert!(players <= MAX_PLAYERS);
    let mut world = World::new();
    world.resources.players = players as u8;
    for player in 0..players {
        let ship = ship_builder(player).spawn_one(&mut world);
        world.add_ship(ship);
    }
    world
}

/// The game's systems, in order.
pub fn new_schedule() -> Schedule<World> {
    let mut schedule = Schedule::new();
    schedule.add((
        steer,
        fire,
        movement,
        collide,
        damage,
        health_bars,
        deaths,
        respawn,
        expire,
        count_frame,
    ));
    schedule
}

/// One frame: the players' inputs in their resource, the schedule, the frame's end.
pub fn advance(world: &mut World, schedule: &mut Schedule<World>, inputs: Inputs) {
    world.resources.inputs = inputs;
    schedule.run(world);
    world.step();
}
