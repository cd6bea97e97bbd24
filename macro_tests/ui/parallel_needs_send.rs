// A component holding an `Rc` makes the world not `Send`: it compiles with the `parallel`
// feature, but `par_for_each_mut` is not callable.
use std::rc::Rc;

#[derive(Default)]
pub struct Shared(pub Rc<u32>);

archetypal::ecs! {
    World {
        shared: Shared => SHARED,
    }
}

fn main() {
    let mut world = World::new();
    world.par_for_each_mut(SHARED, 0, |_, _, _| {});
}
