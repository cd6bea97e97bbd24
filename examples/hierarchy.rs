//! A hierarchy: ships carry turrets, turrets carry barrels, and each part's place in the world
//! is its parent's place plus its own offset (transform propagation).
//!
//! - `child_of / children => CHILD_OF [cascade]`: despawning a ship despawns its turrets and
//!   their barrels; `owned_by / belongings => OWNED_BY`: despawning a ship only sets its pilot
//!   free.
//! - Propagation runs every frame in one pass without collecting anything: a system whose
//!   query walks parents first hands each part its parent's place; turning the turrets walks
//!   the links lent by `split_child_of()` beside every entity's components.
//! - Moving and propagating are systems (plain functions whose parameters say what they
//!   touch), run by a `Schedule` once per frame.
//! - Turrets turn: their offsets change, and the barrels follow on the next propagation.
//!
//! `cargo run --example hierarchy`

use archetypal::{Entity, RelationError, Schedule, Without, ecs};

/// Where a part sits relative to its parent (or in the world, for a ship).
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Offset {
    pub x: f32,
    pub y: f32,
}

/// Where a part is in the world: computed by propagation.
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Place {
    pub x: f32,
    pub y: f32,
}

/// How fast a ship moves, per frame.
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Velocity {
    pub x: f32,
    pub y: f32,
}

ecs! {
    World {
        offset: Offset => OFFSET,
        place: Place => PLACE,
        velocity: Velocity => VELOCITY,
    }
    Tags {
        pilot => PILOT,
    }
    Relations {
        child_of / children => CHILD_OF [cascade],
        owned_by / belongings => OWNED_BY,
    }
}

/// Spawns a ship at `(x, y)` with `turrets` turrets, each carrying one barrel, and a pilot.
fn spawn_ship(world: &mut World, x: f32, y: f32, turrets: usize) -> Entity {
    let ship = world.spawn(OFFSET | PLACE | VELOCITY);
    world.set_offset(ship, Offset { x, y });
    world.set_velocity(ship, Velocity { x: 1.0, y: 0.0 });
    for index in 0..turrets {
        let turret = world.spawn(OFFSET | PLACE);
        world.set_offset(
            turret,
            Offset {
                x: index as f32 * 2.0 - 1.0,
                y: 1.0,
            },
        );
        world
            .set_child_of(turret, ship)
            .expect("both alive, no cycle");
        let barrel = world.spawn(OFFSET | PLACE);
        world.set_offset(barrel, Offset { x: 0.0, y: 0.5 });
        world
            .set_child_of(barrel, turret)
            .expect("both alive, no cycle");
    }
    let pilot = world.spawn(PLACE | PILOT);
    world.set_owned_by(pilot, ship).expect("both alive");
    ship
}

/// Moves the ships (the roots: no `CHILD_OF` link).
fn movement(mut ships: Query<(&mut Offset, &Velocity), Without<CHILD_OF>>) {
    ships.for_each(|(mut offset, velocity)| {
        offset.x += velocity.x;
        offset.y += velocity.y;
    });
}

/// Turns every turret a quarter turn: its offset rotates around its ship.
fn turn_turrets(world: &mut World) {
    // A turret is a part whose children are barrels and whose parent is a root: here, the
    // direct children of every ship.
    let (hierarchy, mut rows) = world.split_child_of();
    for ship in hierarchy.roots() {
        for &turret in hierarchy.sources(ship) {
            if let Some(offset) = rows.get_offset_mut(turret) {
                *offset = Offset {
                    x: -offset.y,
                    y: offset.x,
                };
            }
        }
    }
}

/// World places from offsets, one pass: every part after its parent (parents first), each
/// handed its parent's place; a ship (no parent) sits at its offset.
fn propagate(mut parts: Query<(&Offset, &mut Place)>) {
    parts
        .parents_first::<CHILD_OF>()
        .for_each(|parent: Option<&Place>, (offset, mut place)| {
            let above = parent.copied().unwrap_or_default();
            *place = Place {
                x: above.x + offset.x,
                y: above.y + offset.y,
            };
            *place
        });
}

fn main() {
    let mut world = World::new();
    let flagship = spawn_ship(&mut world, 0.0, 0.0, 2);
    let escort = spawn_ship(&mut world, 10.0, 5.0, 1);
    let turrets: Vec<Entity> = world.get_children(flagship).to_vec();
    let barrel = world.get_children(turrets[0])[0];
    println!(
        "flagship {flagship:?}: turrets {turrets:?}, barrel {barrel:?} (ancestors {:?})",
        world.ancestors_child_of(barrel).collect::<Vec<_>>()
    );
    assert_eq!(
        world.ancestors_child_of(barrel).collect::<Vec<_>>(),
        [turrets[0], flagship]
    );
    assert_eq!(
        world.descendants_child_of(flagship).count(),
        4,
        "two turrets and their barrels"
    );

    // A ship cannot become part of its own barrel.
    assert_eq!(
        world.set_child_of(flagship, barrel),
        Err(RelationError::Cycle)
    );

    let mut frame_systems = Schedule::new();
    frame_systems.add(movement).add(propagate);
    for frame in 1..=3 {
        // Turning moves turrets only, movement ships only: the order between them is free.
        if frame == 2 {
            turn_turrets(&mut world);
        }
        frame_systems.run(&mut world);
        let place = world.get_place(barrel).copied().unwrap_or_default();
        println!(
            "frame {frame}: the flagship's first barrel is at ({}, {})",
            place.x, place.y
        );
        world.step();
    }
    // The flagship moved 3 along x; its first turret sat at (-1, 1), turned to (-1, -1); the
    // barrel sits 0.5 above its turret.
    assert_eq!(world.get_place(barrel), Some(&Place { x: 2.0, y: -0.5 }));

    // Despawning the flagship cascades through its turrets and barrels; its pilot is only
    // unlinked. The escort is untouched.
    let pilots: Vec<Entity> = world.query_entities(PILOT).collect();
    let flagship_pilot = pilots
        .iter()
        .copied()
        .find(|&pilot| world.get_owned_by(pilot) == Some(flagship))
        .expect("the flagship has a pilot");
    assert!(world.despawn(flagship));
    assert!(turrets.iter().all(|&turret| !world.is_alive(turret)));
    assert!(!world.is_alive(barrel));
    assert!(world.is_alive(flagship_pilot));
    assert_eq!(world.get_owned_by(flagship_pilot), None);
    assert_eq!(world.descendants_child_of(escort).count(), 2);
    world
        .check_invariants()
        .expect("links consistent both ways");
    println!(
        "despawned the flagship: {} entities left (the escort, its turret and barrel, two pilots)",
        world.entity_count()
    );
    assert_eq!(world.entity_count(), 5);
}
