use archetypal::ecs;

// `GameCommands` has a method per sub-world (`core()`) beside its own `queue_*` methods, and
// `GameCommand` a variant per sub-world beside `Lifecycle`.
ecs! {
    Game {
        Core { position: f32 => POSITION }
        QueueSpawn { sprite: u32 => SPRITE }
    }
}

fn main() {}
