//! Commands and events: systems that talk to each other and change the world's structure
//! while they iterate it.
//!
//! Goblins are poisoned. Each frame, a `Schedule` runs five systems in order:
//!
//! 1. `clear_corpses`: queues the despawn of last frame's corpses;
//! 2. `poison`: hurts every poisoned goblin and sends a `Damaged` event per hit;
//! 3. `deaths`: reads `Damaged`; a goblin at zero health becomes a corpse (queued commands:
//!    stop the poison, add the `corpse` tag) and a `Died` event is sent;
//! 4. `loot` and `scoreboard`: two readers of `Died`; `loot` queues the spawn of a coin with
//!    its value (`queue_spawn` of a builder).
//!
//! Each system is a plain function whose parameters say what it touches: a query, an
//! `EventWriter` to send, an `EventReader` to read (with the system's own cursor, kept in the
//! world, so each reader reads each event once), the `Commands` queue. One loop sends events
//! and queues commands, with nothing collected in between. The schedule applies the commands a
//! system queued before the next system runs (`deaths` sees no corpse `poison` made,
//! `clear_corpses` sees the ones of the frame before); `step()` then ends the frame, and events
//! older than the frame before expire.
//!
//! `cargo run --example commands_and_events`

use archetypal::{CommandReport, Entity, EventReader, EventWriter, ResMut, Schedule, With, ecs};

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Health(pub i32);

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Poisoned {
    pub damage_per_frame: i32,
}

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Coin {
    pub value: u32,
}

/// Event: `entity` lost `amount` health.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Damaged {
    pub entity: Entity,
    pub amount: i32,
}

/// Event: `entity` died.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Died {
    pub entity: Entity,
}

ecs! {
    World {
        health: Health => HEALTH,
        poisoned: Poisoned => POISONED,
        coin: Coin => COIN,
    }
    Tags {
        goblin => GOBLIN,
        corpse => CORPSE,
    }
    Events {
        damaged: Damaged,
        died: Died,
    }
    Resources {
        kills: u32,
    }
}

fn poison(
    mut poisoned: Query<(Entity, &mut Health, &Poisoned)>,
    mut damaged: EventWriter<Damaged>,
) {
    poisoned.for_each(|(entity, mut health, poisoned)| {
        let amount = poisoned.damage_per_frame;
        health.0 -= amount;
        damaged.send(Damaged { entity, amount });
    });
}

fn deaths(
    mut damaged: EventReader<Damaged>,
    goblins: Query<&Health>,
    mut commands: Commands,
    mut died: EventWriter<Died>,
) {
    for hit in damaged.read() {
        if goblins.get(hit.entity).is_some_and(|health| health.0 <= 0) {
            commands.queue_remove_components(hit.entity, POISONED);
            commands.queue_add_corpse(hit.entity);
            died.send(Died { entity: hit.entity });
        }
    }
}

fn loot(mut died: EventReader<Died>, mut commands: Commands) {
    for _death in died.read() {
        // The coin's handle exists now; the coin itself once the system returns.
        commands.queue_spawn(EntityBuilder::new().with_coin(Coin { value: 5 }));
    }
}

fn scoreboard(mut died: EventReader<Died>, mut kills: ResMut<u32>) {
    let deaths = died.read();
    assert_eq!(deaths.lost(), 0, "read every frame: nothing expires unread");
    *kills += deaths.len() as u32;
}

fn clear_corpses(mut corpses: Query<Entity, With<CORPSE>>, mut commands: Commands) {
    corpses.for_each(|corpse| commands.queue_despawn(corpse));
}

fn main() {
    let mut world = World::new();
    let goblins = world.spawn_batch(HEALTH | POISONED | GOBLIN, 3, |table, row| {
        table.health[row] = Health(30 - 5 * row as i32); // 30, 25, 20
        table.poisoned[row] = Poisoned {
            damage_per_frame: 10,
        };
    });
    // A reader that will look only at the end: the deaths will have expired by then.
    let mut late_reader = world.events.died.cursor_at_end();

    let mut schedule = Schedule::new();
    schedule.add((clear_corpses, poison, deaths, loot, scoreboard));

    let mut total = CommandReport::default();
    for frame in 0..5 {
        let report = schedule.run(&mut world);
        total.absorb(report);
        println!(
            "frame {frame}: {} goblins alive, {} corpses, {} coins; {} commands applied; \
             events held (this frame's and the last): {} damaged, {} died",
            world
                .typed_query_ref::<Entity>()
                .with(GOBLIN)
                .without(CORPSE)
                .count(),
            world.query_entities(CORPSE).count(),
            world.query_entities(COIN).count(),
            report.applied,
            world.events.damaged.len(),
            world.events.died.len(),
        );
        world.step();
    }

    // Every goblin died, was looted, counted and cleared away; the coins remain.
    assert!(goblins.iter().all(|&goblin| !world.is_alive(goblin)));
    assert_eq!(world.resources.kills, 3);
    let coins: u32 = world
        .typed_query_ref::<&Coin>()
        .iter()
        .map(|coin| coin.value)
        .sum();
    assert_eq!((world.entity_count(), coins), (3, 15));
    assert_eq!(
        total.skipped, 0,
        "no command targeted an entity gone by then"
    );
    println!(
        "{} commands applied in all, {} skipped; {} kills, {coins} gold",
        total.applied, total.skipped, world.resources.kills
    );

    // Events live for the frame they are sent in and the next: a reader that waited longer
    // is told how many it missed, never silently.
    let missed = world.events.died.consume(&mut late_reader);
    assert_eq!((missed.len(), missed.lost()), (0, 3));
    println!(
        "a reader that waited too long lost {} deaths",
        missed.lost()
    );
}
