archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Relations {
        child_of / children => CHILD_OF,
    }
    Hooks {
        on_add(CHILD_OF) => adopted,
    }
}

fn adopted(_: &mut WorldParts<'_>, _: archetypal::Entity) {}

fn main() {}
