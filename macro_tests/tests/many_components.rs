//! Wide worlds: 100 components need a `u128` mask, 63 still fit a `u64` (its top bit marks
//! disabled entities). The component types
//! come from a local macro; the `ecs!` invocations list every entry explicitly, as a game would.

use archetypal::edges::Change;
use archetypal::{Entity, ecs};

macro_rules! components {
    ($($name:ident)*) => {
        $(
            #[derive(Default, Debug, Clone, Copy, PartialEq)]
            pub struct $name(pub u32);
        )*
    };
}

components!(Comp0 Comp1 Comp2 Comp3 Comp4 Comp5 Comp6 Comp7 Comp8 Comp9 Comp10 Comp11 Comp12 Comp13 Comp14 Comp15 Comp16 Comp17 Comp18 Comp19 Comp20 Comp21 Comp22 Comp23 Comp24 Comp25 Comp26 Comp27 Comp28 Comp29 Comp30 Comp31 Comp32 Comp33 Comp34 Comp35 Comp36 Comp37 Comp38 Comp39 Comp40 Comp41 Comp42 Comp43 Comp44 Comp45 Comp46 Comp47 Comp48 Comp49 Comp50 Comp51 Comp52 Comp53 Comp54 Comp55 Comp56 Comp57 Comp58 Comp59 Comp60 Comp61 Comp62 Comp63 Comp64 Comp65 Comp66 Comp67 Comp68 Comp69 Comp70 Comp71 Comp72 Comp73 Comp74 Comp75 Comp76 Comp77 Comp78 Comp79 Comp80 Comp81 Comp82 Comp83 Comp84 Comp85 Comp86 Comp87 Comp88 Comp89 Comp90 Comp91 Comp92 Comp93 Comp94 Comp95 Comp96 Comp97 Comp98 Comp99);

ecs! {
    World {
        c0: Comp0 => C0,
        c1: Comp1 => C1,
        c2: Comp2 => C2,
        c3: Comp3 => C3,
        c4: Comp4 => C4,
        c5: Comp5 => C5,
        c6: Comp6 => C6,
        c7: Comp7 => C7,
        c8: Comp8 => C8,
        c9: Comp9 => C9,
        c10: Comp10 => C10,
        c11: Comp11 => C11,
        c12: Comp12 => C12,
        c13: Comp13 => C13,
        c14: Comp14 => C14,
        c15: Comp15 => C15,
        c16: Comp16 => C16,
        c17: Comp17 => C17,
        c18: Comp18 => C18,
        c19: Comp19 => C19,
        c20: Comp20 => C20,
        c21: Comp21 => C21,
        c22: Comp22 => C22,
        c23: Comp23 => C23,
        c24: Comp24 => C24,
        c25: Comp25 => C25,
        c26: Comp26 => C26,
        c27: Comp27 => C27,
        c28: Comp28 => C28,
        c29: Comp29 => C29,
        c30: Comp30 => C30,
        c31: Comp31 => C31,
        c32: Comp32 => C32,
        c33: Comp33 => C33,
        c34: Comp34 => C34,
        c35: Comp35 => C35,
        c36: Comp36 => C36,
        c37: Comp37 => C37,
        c38: Comp38 => C38,
        c39: Comp39 => C39,
        c40: Comp40 => C40,
        c41: Comp41 => C41,
        c42: Comp42 => C42,
        c43: Comp43 => C43,
        c44: Comp44 => C44,
        c45: Comp45 => C45,
        c46: Comp46 => C46,
        c47: Comp47 => C47,
        c48: Comp48 => C48,
        c49: Comp49 => C49,
        c50: Comp50 => C50,
        c51: Comp51 => C51,
        c52: Comp52 => C52,
        c53: Comp53 => C53,
        c54: Comp54 => C54,
        c55: Comp55 => C55,
        c56: Comp56 => C56,
        c57: Comp57 => C57,
        c58: Comp58 => C58,
        c59: Comp59 => C59,
        c60: Comp60 => C60,
        c61: Comp61 => C61,
        c62: Comp62 => C62,
        c63: Comp63 => C63,
        c64: Comp64 => C64,
        c65: Comp65 => C65,
        c66: Comp66 => C66,
        c67: Comp67 => C67,
        c68: Comp68 => C68,
        c69: Comp69 => C69,
        c70: Comp70 => C70,
        c71: Comp71 => C71,
        c72: Comp72 => C72,
        c73: Comp73 => C73,
        c74: Comp74 => C74,
        c75: Comp75 => C75,
        c76: Comp76 => C76,
        c77: Comp77 => C77,
        c78: Comp78 => C78,
        c79: Comp79 => C79,
        c80: Comp80 => C80,
        c81: Comp81 => C81,
        c82: Comp82 => C82,
        c83: Comp83 => C83,
        c84: Comp84 => C84,
        c85: Comp85 => C85,
        c86: Comp86 => C86,
        c87: Comp87 => C87,
        c88: Comp88 => C88,
        c89: Comp89 => C89,
        c90: Comp90 => C90,
        c91: Comp91 => C91,
        c92: Comp92 => C92,
        c93: Comp93 => C93,
        c94: Comp94 => C94,
        c95: Comp95 => C95,
        c96: Comp96 => C96,
        c97: Comp97 => C97,
        c98: Comp98 => C98,
        c99: Comp99 => C99,
    }
}

/// Every component value of `entity`, by bit (`None`: absent or not alive).
fn values(world: &World, entity: Entity) -> Vec<Option<u32>> {
    vec![
        world.get_c0(entity).map(|c| c.0),
        world.get_c1(entity).map(|c| c.0),
        world.get_c2(entity).map(|c| c.0),
        world.get_c3(entity).map(|c| c.0),
        world.get_c4(entity).map(|c| c.0),
        world.get_c5(entity).map(|c| c.0),
        world.get_c6(entity).map(|c| c.0),
        world.get_c7(entity).map(|c| c.0),
        world.get_c8(entity).map(|c| c.0),
        world.get_c9(entity).map(|c| c.0),
        world.get_c10(entity).map(|c| c.0),
        world.get_c11(entity).map(|c| c.0),
        world.get_c12(entity).map(|c| c.0),
        world.get_c13(entity).map(|c| c.0),
        world.get_c14(entity).map(|c| c.0),
        world.get_c15(entity).map(|c| c.0),
        world.get_c16(entity).map(|c| c.0),
        world.get_c17(entity).map(|c| c.0),
        world.get_c18(entity).map(|c| c.0),
        world.get_c19(entity).map(|c| c.0),
        world.get_c20(entity).map(|c| c.0),
        world.get_c21(entity).map(|c| c.0),
        world.get_c22(entity).map(|c| c.0),
        world.get_c23(entity).map(|c| c.0),
        world.get_c24(entity).map(|c| c.0),
        world.get_c25(entity).map(|c| c.0),
        world.get_c26(entity).map(|c| c.0),
        world.get_c27(entity).map(|c| c.0),
        world.get_c28(entity).map(|c| c.0),
        world.get_c29(entity).map(|c| c.0),
        world.get_c30(entity).map(|c| c.0),
        world.get_c31(entity).map(|c| c.0),
        world.get_c32(entity).map(|c| c.0),
        world.get_c33(entity).map(|c| c.0),
        world.get_c34(entity).map(|c| c.0),
        world.get_c35(entity).map(|c| c.0),
        world.get_c36(entity).map(|c| c.0),
        world.get_c37(entity).map(|c| c.0),
        world.get_c38(entity).map(|c| c.0),
        world.get_c39(entity).map(|c| c.0),
        world.get_c40(entity).map(|c| c.0),
        world.get_c41(entity).map(|c| c.0),
        world.get_c42(entity).map(|c| c.0),
        world.get_c43(entity).map(|c| c.0),
        world.get_c44(entity).map(|c| c.0),
        world.get_c45(entity).map(|c| c.0),
        world.get_c46(entity).map(|c| c.0),
        world.get_c47(entity).map(|c| c.0),
        world.get_c48(entity).map(|c| c.0),
        world.get_c49(entity).map(|c| c.0),
        world.get_c50(entity).map(|c| c.0),
        world.get_c51(entity).map(|c| c.0),
        world.get_c52(entity).map(|c| c.0),
        world.get_c53(entity).map(|c| c.0),
        world.get_c54(entity).map(|c| c.0),
        world.get_c55(entity).map(|c| c.0),
        world.get_c56(entity).map(|c| c.0),
        world.get_c57(entity).map(|c| c.0),
        world.get_c58(entity).map(|c| c.0),
        world.get_c59(entity).map(|c| c.0),
        world.get_c60(entity).map(|c| c.0),
        world.get_c61(entity).map(|c| c.0),
        world.get_c62(entity).map(|c| c.0),
        world.get_c63(entity).map(|c| c.0),
        world.get_c64(entity).map(|c| c.0),
        world.get_c65(entity).map(|c| c.0),
        world.get_c66(entity).map(|c| c.0),
        world.get_c67(entity).map(|c| c.0),
        world.get_c68(entity).map(|c| c.0),
        world.get_c69(entity).map(|c| c.0),
        world.get_c70(entity).map(|c| c.0),
        world.get_c71(entity).map(|c| c.0),
        world.get_c72(entity).map(|c| c.0),
        world.get_c73(entity).map(|c| c.0),
        world.get_c74(entity).map(|c| c.0),
        world.get_c75(entity).map(|c| c.0),
        world.get_c76(entity).map(|c| c.0),
        world.get_c77(entity).map(|c| c.0),
        world.get_c78(entity).map(|c| c.0),
        world.get_c79(entity).map(|c| c.0),
        world.get_c80(entity).map(|c| c.0),
        world.get_c81(entity).map(|c| c.0),
        world.get_c82(entity).map(|c| c.0),
        world.get_c83(entity).map(|c| c.0),
        world.get_c84(entity).map(|c| c.0),
        world.get_c85(entity).map(|c| c.0),
        world.get_c86(entity).map(|c| c.0),
        world.get_c87(entity).map(|c| c.0),
        world.get_c88(entity).map(|c| c.0),
        world.get_c89(entity).map(|c| c.0),
        world.get_c90(entity).map(|c| c.0),
        world.get_c91(entity).map(|c| c.0),
        world.get_c92(entity).map(|c| c.0),
        world.get_c93(entity).map(|c| c.0),
        world.get_c94(entity).map(|c| c.0),
        world.get_c95(entity).map(|c| c.0),
        world.get_c96(entity).map(|c| c.0),
        world.get_c97(entity).map(|c| c.0),
        world.get_c98(entity).map(|c| c.0),
        world.get_c99(entity).map(|c| c.0),
    ]
}

const ALL: Mask = (1 << 100) - 1;

fn sorted(mut entities: Vec<Entity>) -> Vec<Entity> {
    entities.sort();
    entities
}

#[test]
fn a_hundred_components_use_a_u128_mask() {
    assert_eq!(COMPONENT_COUNT, 100);
    assert_eq!(World::COMPONENT_COUNT, 100);
    let _: u128 = C99;
    let _: WorldMask = 0u128;
    assert_eq!(size_of::<Mask>(), 16);
    assert_eq!(C0, 1);
    assert_eq!(C63, 1 << 63);
    assert_eq!(C64, 1 << 64);
    assert_eq!(C99, 1 << 99);
    let _: u128 = EntityBuilder::new().with_c99(Comp99(1)).mask();
}

#[test]
fn bit_99_spawns_gets_sets_and_queries() {
    let mut world = World::new();
    let high = world.spawn(C99);
    let low = world.spawn(C0);
    let both = world.spawn(C0 | C64 | C99);
    assert!(world.set_c99(high, Comp99(99)));
    assert!(world.set_c99(both, Comp99(199)));
    assert_eq!(world.get_c99(high), Some(&Comp99(99)));
    assert_eq!(world.get_c99(both), Some(&Comp99(199)));
    assert_eq!(world.get_c99(low), None);
    assert_eq!(world.component_mask(high), Some(C99));
    assert_eq!(world.component_mask(both), Some(C0 | C64 | C99));
    assert!(world.has_c99(both) && !world.has_c99(low));
    assert!(world.has_components(both, C64 | C99));

    assert_eq!(
        sorted(world.query_entities(C99).collect()),
        sorted(vec![high, both])
    );
    assert_eq!(
        world.query_entities(C0 | C99).collect::<Vec<_>>(),
        vec![both]
    );
    assert_eq!(world.query_entities(C64).next(), Some(both));
    let mut visited = Vec::new();
    world.for_each(C99, C0, |entity, _, _| visited.push(entity));
    assert_eq!(visited, vec![high]);
    world.for_each_mut(C99, 0, |_, table, index| table.c99[index].0 += 1);
    assert_eq!(world.get_c99(high), Some(&Comp99(100)));
    assert_eq!(world.get_c99(both), Some(&Comp99(200)));
    assert_eq!(
        world
            .typed_query_ref::<Entity>()
            .with(C64)
            .without(C0)
            .count(),
        0
    );
    assert_eq!(
        world
            .typed_query_ref::<Entity>()
            .with(C0)
            .without(C99)
            .count(),
        1
    );
    let mut values: Vec<u32> = world
        .typed_query_ref::<&Comp99>()
        .iter()
        .map(|c| c.0)
        .collect();
    values.sort();
    assert_eq!(values, vec![100, 200]);
    assert_eq!(
        world.tables().iter().filter(|t| !t.c99.is_empty()).count(),
        2
    );
    world.for_each_table_mut(C99, 0, |table| table.c99[0].0 *= 2);
    assert_eq!(world.get_c99(high), Some(&Comp99(200)));
    assert_eq!(world.remove_c99(both), Some(Comp99(400)));
    assert_eq!(world.get_c99(both), None);
    world.check_invariants().unwrap();

    let built = EntityBuilder::new()
        .with_c0(Comp0(1))
        .with_c99(Comp99(9))
        .spawn(&mut world, 3);
    for entity in built {
        assert_eq!(world.component_mask(entity), Some(C0 | C99));
        assert_eq!(world.get_c99(entity), Some(&Comp99(9)));
    }
    world.check_invariants().unwrap();
}

/// Checks every value of every entity against `expected`, and the invariants.
fn check(world: &World, entities: &[Entity], expected: &[Vec<Option<u32>>]) {
    world.check_invariants().unwrap();
    for (entity, expected) in entities.iter().zip(expected) {
        assert_eq!(&values(world, *entity), expected, "{entity}");
    }
}

#[test]
fn bit_99_migrations_keep_every_value() {
    let mut world = World::new();
    let start = C0 | C50 | C98;
    let entities = world.spawn_batch(start, 5, |table, index| {
        table.c0[index] = Comp0(index as u32);
        table.c50[index] = Comp50(1000 + index as u32);
        table.c98[index] = Comp98(2000 + index as u32);
    });
    let mut expected: Vec<Vec<Option<u32>>> = (0..5)
        .map(|index| {
            let mut row = vec![None; 100];
            row[0] = Some(index);
            row[50] = Some(1000 + index);
            row[98] = Some(2000 + index);
            row
        })
        .collect();
    check(&world, &entities, &expected);

    // set on an entity lacking bit 99: a migration keeping the other values.
    assert!(world.set_c99(entities[1], Comp99(77)));
    expected[1][99] = Some(77);
    check(&world, &entities, &expected);
    let from = world.find_table(start).unwrap();
    let to = world.find_table(start | C99).unwrap();
    let edges = world.edges();
    assert_eq!(edges.destination(from, Change::Add(C99)), Some(to));
    assert_eq!(edges.destination(to, Change::Remove(C99)), Some(from));
    assert_eq!(edges.edges(from).add[99], Some(to as u32));

    // add keeps defaults / existing values; remove returns the value.
    assert!(world.add_c99(entities[2]));
    expected[2][99] = Some(0);
    check(&world, &entities, &expected);
    assert!(world.add_c99(entities[1]));
    check(&world, &entities, &expected);
    assert_eq!(world.remove_c0(entities[3]), Some(Comp0(3)));
    expected[3][0] = None;
    check(&world, &entities, &expected);

    // One migration for several high and low bits.
    let tables = world.archetype_count();
    assert!(world.add_components(entities[4], C1 | C64 | C99));
    assert_eq!(
        world.archetype_count(),
        tables + 1,
        "no intermediate tables"
    );
    for bit in [1, 64, 99] {
        expected[4][bit] = Some(0);
    }
    check(&world, &entities, &expected);
    assert!(world.remove_components(entities[4], C50 | C98 | C0));
    for bit in [0, 50, 98] {
        expected[4][bit] = None;
    }
    check(&world, &entities, &expected);
    assert_eq!(world.component_mask(entities[4]), Some(C1 | C64 | C99));

    // Everyone moves off bit 98, then the first entity is despawned.
    for (index, &entity) in entities.iter().enumerate() {
        world.remove_c98(entity);
        expected[index][98] = None;
        check(&world, &entities, &expected);
    }
    assert!(world.despawn(entities[0]));
    expected[0] = vec![None; 100];
    check(&world, &entities, &expected);
}

/// Migrations between tables of a few high and low bits move exactly the row's values: every
/// entity reads its own values after each step, the rows swapped into a hole included, and the
/// columns a table does not hold stay empty (`check_invariants`).
#[test]
fn wide_migrations_move_exactly_the_values_of_the_row() {
    let mut world = World::new();
    let start = C3 | C70 | C99;
    let entities = world.spawn_batch(start, 6, |table, index| {
        table.c3[index] = Comp3(index as u32);
        table.c70[index] = Comp70(100 + index as u32);
        table.c99[index] = Comp99(200 + index as u32);
    });
    let mut expected: Vec<Vec<Option<u32>>> = (0..6)
        .map(|index| {
            let mut row = vec![None; 100];
            row[3] = Some(index);
            row[70] = Some(100 + index);
            row[99] = Some(200 + index);
            row
        })
        .collect();
    // Entities leave from the front, the middle and the back of the table, in both directions.
    for (step, &index) in [0usize, 3, 5, 1].iter().enumerate() {
        assert!(world.add_components(entities[index], C64));
        expected[index][64] = Some(0);
        assert!(world.set_c64(entities[index], Comp64(300 + step as u32)));
        expected[index][64] = Some(300 + step as u32);
        check(&world, &entities, &expected);
        assert!(world.remove_components(entities[index], C70 | C3));
        expected[index][70] = None;
        expected[index][3] = None;
        check(&world, &entities, &expected);
    }
    assert!(world.add_components(entities[3], C70 | C0));
    expected[3][70] = Some(0);
    expected[3][0] = Some(0);
    check(&world, &entities, &expected);
    let moved = world.find_table(C64 | C99).unwrap();
    let table = &world.tables()[moved];
    assert_eq!(table.entities.len(), 3);
    assert_eq!((table.c64.len(), table.c99.len()), (3, 3));
    assert!(table.c3.is_empty() && table.c70.is_empty() && table.c0.is_empty());
}

#[test]
fn every_component_at_once() {
    let mut world = World::new();
    let entity = world.spawn(ALL);
    assert_eq!(world.component_mask(entity), Some(ALL));
    assert_eq!(values(&world, entity), vec![Some(0); 100]);
    let kept = [0usize, 31, 63, 64, 99];
    world.set_c0(entity, Comp0(10));
    world.set_c31(entity, Comp31(31));
    world.set_c63(entity, Comp63(63));
    world.set_c64(entity, Comp64(64));
    world.set_c99(entity, Comp99(99));
    let kept_mask = C0 | C31 | C63 | C64 | C99;
    assert!(world.remove_components(entity, ALL & !kept_mask));
    assert_eq!(world.component_mask(entity), Some(kept_mask));
    let mut expected = vec![None; 100];
    for (bit, value) in kept.into_iter().zip([10, 31, 63, 64, 99]) {
        expected[bit] = Some(value);
    }
    assert_eq!(values(&world, entity), expected);
    assert!(world.add_components(entity, ALL));
    assert_eq!(world.component_mask(entity), Some(ALL));
    assert_eq!(world.get_c99(entity), Some(&Comp99(99)));
    assert_eq!(world.get_c50(entity), Some(&Comp50(0)));
    assert_eq!(world.query_entities(ALL).count(), 1);
    world.check_invariants().unwrap();
}

mod sixty_three {
    use super::*;

    ecs! {
        World63 {
            c0: Comp0 => C0,
            c1: Comp1 => C1,
            c2: Comp2 => C2,
            c3: Comp3 => C3,
            c4: Comp4 => C4,
            c5: Comp5 => C5,
            c6: Comp6 => C6,
            c7: Comp7 => C7,
            c8: Comp8 => C8,
            c9: Comp9 => C9,
            c10: Comp10 => C10,
            c11: Comp11 => C11,
            c12: Comp12 => C12,
            c13: Comp13 => C13,
            c14: Comp14 => C14,
            c15: Comp15 => C15,
            c16: Comp16 => C16,
            c17: Comp17 => C17,
            c18: Comp18 => C18,
            c19: Comp19 => C19,
            c20: Comp20 => C20,
            c21: Comp21 => C21,
            c22: Comp22 => C22,
            c23: Comp23 => C23,
            c24: Comp24 => C24,
            c25: Comp25 => C25,
            c26: Comp26 => C26,
            c27: Comp27 => C27,
            c28: Comp28 => C28,
            c29: Comp29 => C29,
            c30: Comp30 => C30,
            c31: Comp31 => C31,
            c32: Comp32 => C32,
            c33: Comp33 => C33,
            c34: Comp34 => C34,
            c35: Comp35 => C35,
            c36: Comp36 => C36,
            c37: Comp37 => C37,
            c38: Comp38 => C38,
            c39: Comp39 => C39,
            c40: Comp40 => C40,
            c41: Comp41 => C41,
            c42: Comp42 => C42,
            c43: Comp43 => C43,
            c44: Comp44 => C44,
            c45: Comp45 => C45,
            c46: Comp46 => C46,
            c47: Comp47 => C47,
            c48: Comp48 => C48,
            c49: Comp49 => C49,
            c50: Comp50 => C50,
            c51: Comp51 => C51,
            c52: Comp52 => C52,
            c53: Comp53 => C53,
            c54: Comp54 => C54,
            c55: Comp55 => C55,
            c56: Comp56 => C56,
            c57: Comp57 => C57,
            c58: Comp58 => C58,
            c59: Comp59 => C59,
            c60: Comp60 => C60,
            c61: Comp61 => C61,
            c62: Comp62 => C62,
        }
    }

    #[test]
    fn sixty_three_components_use_a_u64_mask() {
        // The mask's top bit marks disabled entities' tables: 63 components fill a `u64`.
        assert_eq!(World63::COMPONENT_COUNT, 63);
        let _: u64 = C62;
        let all_bits = u64::MAX >> 1;
        let _: World63Mask = all_bits;
        assert_eq!(size_of::<World63Mask>(), 8);
        assert_eq!(C0, 1);
        assert_eq!(C62, 1 << 62);

        let mut world = World63::new();
        let all = world.spawn(all_bits);
        assert_eq!(world.component_mask(all), Some(all_bits));
        assert!(world.set_c0(all, Comp0(1)));
        assert!(world.set_c62(all, Comp62(62)));
        assert_eq!(world.remove_c62(all), Some(Comp62(62)));
        assert_eq!(world.component_mask(all), Some(all_bits >> 1));
        assert_eq!(world.get_c0(all), Some(&Comp0(1)));
        assert!(world.add_c62(all));
        assert_eq!(world.get_c62(all), Some(&Comp62(0)));
        let from = world.find_table(all_bits >> 1).unwrap();
        let to = world.find_table(all_bits).unwrap();
        assert_eq!(world.edges().destination(from, Change::Add(C62)), Some(to));
        // Disabled, it lives in the table of every bit.
        assert!(world.disable(all));
        assert_eq!(world.component_mask(all), Some(all_bits));
        assert_eq!(world.query_entities(C62).count(), 0);
        assert!(world.enable(all));

        let high = world.spawn(C62);
        world.set_c62(high, Comp62(5));
        assert_eq!(
            sorted(world.query_entities(C62).collect()),
            sorted(vec![all, high])
        );
        let mut visited = Vec::new();
        world.for_each(C62, C0, |entity, _, _| visited.push(entity));
        assert_eq!(visited, vec![high]);
        assert!(world.remove_components(all, !C62));
        assert_eq!(world.component_mask(all), Some(C62));
        assert_eq!(
            world
                .typed_query_ref::<&Comp62>()
                .iter()
                .map(|c| c.0)
                .sum::<u32>(),
            5
        );
        world.check_invariants().unwrap();
    }
}
