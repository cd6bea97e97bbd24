// Entities of a multi-world are spawned and despawned by the whole, which keeps every sub-world
// in step: a sub-world dereferences to its storage but has no `spawn`, `despawn` or queued
// spawn of its own.
archetypal::ecs! {
    Game {
        Core {
            position: u8 => POSITION,
        }
        Render {
            sprite: u8 => SPRITE,
        }
    }
}

fn main() {
    let mut game = Game::new();
    let entity = game.core.spawn(POSITION);
    game.render.despawn(entity);
    game.commands().core().queue_despawn(entity);
}
