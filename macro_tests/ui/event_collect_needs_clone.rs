/// An event type that is not `Clone`.
pub struct Token(pub Box<u32>);

archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Events {
        token: Token,
    }
}

fn main() {
    let mut world = World::new();
    world.events.token.send(Token(Box::new(1)));
    assert_eq!(world.events.token.len(), 1);
    let _tokens = world.events.token.collect();
}
