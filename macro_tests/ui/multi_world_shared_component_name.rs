// One entity, one `with_position` on the game's builder: two sub-worlds cannot both declare
// a `position`.
archetypal::ecs! {
    Game {
        Core {
            position: (f32, f32) => POSITION,
        }
        Render {
            position: (f32, f32) => SCREEN_POSITION,
        }
    }
}

fn main() {}
