archetypal::ecs! {
    World {
        position: u8 => POSITION,
    }
    Relations {
        child_of / children => CHILD_OF,
    }
    Hooks {
        on_link(POSITION) => linked,
    }
}

fn linked(_: &mut WorldParts<'_>, _: archetypal::Entity, _: archetypal::Entity) {}

fn main() {}
