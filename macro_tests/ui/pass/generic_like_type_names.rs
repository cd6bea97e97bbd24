//! Component types named like the generic parameters of generated methods (`R`, `F`, `T`,
//! `Output`) are not captured by them.

#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct R(pub u8);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct F(pub u8);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct T(pub u8);
#[derive(Default, Debug, Clone, Copy, PartialEq)]
pub struct Output(pub u8);

archetypal::ecs! {
    World {
        r: R => LETTER_R,
        f: F => LETTER_F,
        t: T => LETTER_T,
        output: Output => OUTPUT,
    }
}

fn main() {
    let mut world = World::new();
    let entity = world.spawn(LETTER_R | LETTER_F | LETTER_T | OUTPUT);
    assert_eq!(world.modify_r(entity, |r| r.0 = 1), Some(()));
    assert_eq!(world.modify_f(entity, |f| f.0 + 2), Some(2));
    assert_eq!(world.modify_output(entity, |output| *output), Some(Output(0)));
    world.for_each_mut(LETTER_T, 0, |_, table, index| table.t[index] = T(3));
    assert_eq!(world.get_t(entity), Some(&T(3)));
    let spawned = EntityBuilder::new().with_r(R(9)).spawn(&mut world, 2);
    assert_eq!(world.get_r(spawned[1]), Some(&R(9)));
}
