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
    world.send_token(Token(Box::new(1)));
    assert_eq!(world.len_token(), 1);
    let _tokens = world.collect_token();
}
