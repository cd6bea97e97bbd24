// Two queries of one game system over one sub-world that may match one entity, one writing what
// the other reads: refused when the program is built, as in a world. (A query of `Render`
// beside them would not conflict: `SPRITE` is bit 0 too, of another sub-world.)
use archetypal::{Schedule, With, ecs};

#[derive(Default)]
pub struct Position(pub f32);
#[derive(Default)]
pub struct Offset(pub f32);
#[derive(Default)]
pub struct Sprite(pub f32);

ecs! {
    Game {
        Core {
            position: Position => POSITION,
            offset: Offset => OFFSET,
        }
        Render {
            sprite: Sprite => SPRITE,
        }
    }
}

fn follow(
    mut turrets: CoreQuery<&mut Position, With<Offset>>,
    mut ships: CoreQuery<&Position>,
    mut sprites: RenderQuery<&mut Sprite>,
) {
    turrets.for_each(|mut position| position.0 += 1.0);
    ships.for_each(|_| ());
    sprites.for_each(|mut sprite| sprite.0 = 1.0);
}

fn main() {
    let mut game = Game::new();
    let mut schedule = Schedule::new();
    schedule.add(follow);
    schedule.run(&mut game);
}
