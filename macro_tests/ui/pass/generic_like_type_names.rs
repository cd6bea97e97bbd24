//! Component types named like the generic parameters and associated items of generated code
//! (`R`, `F`, `T`, `Q`, `Output`, `Value`, `Values`, `Item`, `Mask`, `Tick`, `State`, `Error`)
//! are not captured by them, and components named like methods the world once had
//! (`first_entity`, `all_entities`, `entities_changed`, `entities_changed_since`) work.

macro_rules! types {
    ($($name:ident)*) => {
        $(
            #[derive(Default, Debug, Clone, Copy, PartialEq)]
            pub struct $name(pub u8);
        )*
    };
}

types!(R F T Q Output Value Values Item Mask Tick State Error);

archetypal::ecs! {
    World {
        r: R => LETTER_R,
        f: F => LETTER_F,
        t: T => LETTER_T,
        q: Q => LETTER_Q,
        output: Output => OUTPUT,
        value: Value => VALUE,
        values: Values => VALUES,
        item: Item => ITEM,
        mask_value: Mask => MASK_VALUE,
        tick: Tick => TICK,
        state: State => STATE,
        error: Error => ERROR,
        first_entity: u8 => FIRST_ENTITY,
        all_entities: u8 => ALL_ENTITIES,
        entities_changed: u8 => ENTITIES_CHANGED,
        entities_changed_since: u8 => ENTITIES_CHANGED_SINCE,
    }
}

fn main() {
    let mut world = World::new();
    let entity = world.spawn(LETTER_R | LETTER_F | LETTER_T | OUTPUT | VALUE | TICK);
    assert_eq!(world.get_r_mut(entity).map(|r| r.0 = 1), Some(()));
    assert_eq!(world.get_f_mut(entity).map(|f| f.0 + 2), Some(2));
    assert_eq!(world.get_output_mut(entity).map(|output| *output), Some(Output(0)));
    world.for_each_mut(LETTER_T, 0, |_, table, index| table.t[index] = T(3));
    assert_eq!(world.get_t(entity), Some(&T(3)));
    let spawned = EntityBuilder::new().with_r(R(9)).with_value(Value(4)).spawn(&mut world, 2);
    assert_eq!(world.get_r(spawned[1]), Some(&R(9)));
    assert!(world.set_values(entity, Values(5)));
    assert!(world.set_error(entity, Error(6)));
    world
        .typed_query::<(&mut Value, &Tick)>()
        .for_each(|(mut value, tick)| value.0 += tick.0 + 1);
    assert_eq!(world.get_value(entity), Some(&Value(1)));
    assert!(world.set_first_entity(entity, 1) && world.set_all_entities(entity, 2));
    assert!(world.add_entities_changed(entity) && world.has_entities_changed(entity));
    assert_eq!(world.remove_entities_changed_since(entity), None);
    let mut commands = world.commands();
    commands.queue_set_state(entity, State(7));
    commands.queue_set_item(entity, Item(8));
    commands.queue_set_mask_value(entity, Mask(9));
    commands.queue_set_q(entity, Q(10));
    world.apply_commands();
    assert_eq!(world.get_state(entity), Some(&State(7)));
    assert_eq!(world.get_mask_value(entity), Some(&Mask(9)));
    world.check_invariants().unwrap();
}
