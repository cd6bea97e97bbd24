#[derive(Default)]
pub struct Handle(u32);

archetypal::ecs! {
    Game {
        Core {
            position: u8 => POSITION,
        }
        Render {
            handle: Handle => HANDLE,
        }
    }
}

fn loadable<T: serde::de::DeserializeOwned>() {}

fn main() {
    let game = Game::new();
    let _ = game.snapshot();
    loadable::<Game>();
}
