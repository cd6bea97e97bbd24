use super::*;
use alloc::string::String;
use alloc::vec::Vec;

const fn components<'a>(components: &'a [&'a str]) -> WorldNames<'a> {
    WorldNames {
        components,
        tags: &[],
        relations: &[],
        reverses: &[],
    }
}

#[test]
fn valid_worlds_pass() {
    check_world(
        "World",
        components(&["position", "velocity"]),
        &["POSITION", "VELOCITY"],
        2,
    );
    check_world("World", components(&[]), &[], 127);
    // Names that once clashed with removed methods (`query_first_entity`,
    // `get_all_entities`, `query_entities_changed`) are free.
    check_world(
        "World",
        WorldNames {
            components: &[
                "first_entity",
                "all_entities",
                "entities_changed",
                "mut_x",
                "x_mutable",
            ],
            tags: &["entities", "mask"],
            relations: &["child_of"],
            reverses: &["children"],
        },
        &["A", "B", "C", "D", "E", "F", "G", "H"],
        8,
    );
}

#[test]
#[should_panic(
    expected = "ecs!: `position` names more than one component, tag or relation in `World`"
)]
fn duplicate_fields_fail() {
    check_world(
        "World",
        components(&["position", "velocity", "position"]),
        &["A", "B", "C"],
        3,
    );
}

#[test]
#[should_panic(expected = "ecs!: `player` names more than one component, tag or relation")]
fn a_name_shared_by_two_kinds_fails() {
    let names = WorldNames {
        components: &["position"],
        tags: &[],
        relations: &["child_of"],
        reverses: &["player"],
    };
    check_world(
        "World",
        WorldNames {
            tags: &["player"],
            ..names
        },
        &["A", "B", "C"],
        3,
    );
}

#[test]
#[should_panic(expected = "ecs!: the mask constant `A` is used more than once")]
fn duplicate_masks_fail() {
    check_world("World", components(&["a", "b"]), &["A", "A"], 2);
}

#[test]
#[should_panic(
    expected = "ecs!: a component cannot be named `entities`: it would clash with the tables' own `entities` field"
)]
fn reserved_component_names_fail() {
    check_world(
        "World",
        components(&["position", "entities"]),
        &["A", "B"],
        2,
    );
}

#[test]
#[should_panic(expected = "ecs!: a tag cannot be named `components`")]
fn reserved_tag_names_fail() {
    let names = WorldNames {
        tags: &["components"],
        ..components(&["a"])
    };
    check_world("World", names, &["A", "B"], 2);
}

#[test]
#[should_panic(
    expected = "ecs!: a relation cannot be named `tables`: it would clash with the world's `split_tables`"
)]
fn reserved_relation_names_fail() {
    let names = WorldNames {
        relations: &["tables"],
        reverses: &["tabled"],
        ..components(&["a"])
    };
    check_world("World", names, &["A", "B"], 2);
}

#[test]
#[should_panic(
    expected = "ecs!: the component `x` and `x_mut` would both generate the method `get_x_mut`"
)]
fn a_name_ending_in_mut_fails_beside_its_stem() {
    check_world("World", components(&["x", "x_mut"]), &["A", "B"], 2);
}

#[test]
#[should_panic(
    expected = "ecs!: the component `x` and `disjoint_x` would both generate the method `get_disjoint_x_mut`"
)]
fn a_disjoint_prefix_fails_beside_its_stem() {
    check_world("World", components(&["disjoint_x", "x"]), &["A", "B"], 2);
}

#[test]
#[should_panic(
    expected = "ecs!: the component `x` and `disjoint_x_mut` would both generate the method `get_disjoint_x_mut`"
)]
fn a_reverse_name_can_clash_with_a_getter() {
    let names = WorldNames {
        relations: &["owned_by"],
        reverses: &["disjoint_x_mut"],
        ..components(&["x"])
    };
    check_world("World", names, &["A", "B"], 2);
}

#[test]
#[should_panic(expected = "at most 127")]
fn too_many_bits_fail() {
    // The top bit of a mask marks disabled entities: 128 declared bits do not fit.
    check_world("World", components(&["a"]), &["A"], 128);
}

#[test]
fn valid_sub_worlds_pass() {
    check_sub_worlds(
        "Game",
        &["Core", "Render"],
        &["core", "render"],
        &[&["position", "child_of"], &["sprite", "mask_of"]],
    );
}

#[test]
#[should_panic(expected = "ecs!: the sub-world `Core` is declared more than once in `Game`")]
fn duplicate_sub_worlds_fail() {
    check_sub_worlds("Game", &["Core", "Core"], &["core", "core"], &[&[], &[]]);
}

#[test]
#[should_panic(expected = "ecs!: the sub-world `Events` would become the field `events`")]
fn sub_worlds_named_like_the_multi_worlds_fields_fail() {
    check_sub_worlds(
        "Game",
        &["Core", "Events"],
        &["core", "events"],
        &[&[], &[]],
    );
}

#[test]
#[should_panic(
    expected = "ecs!: `position` names a component or relation in more than one sub-world of `Game`, whose `GameEntityBuilder` has one `with_position`; rename one of them"
)]
fn a_name_in_two_sub_worlds_fails() {
    check_sub_worlds(
        "Game",
        &["Core", "Render"],
        &["core", "render"],
        &[&["position"], &["sprite", "position"]],
    );
}

#[test]
#[should_panic(
    expected = "ecs!: `render_mask` of the sub-world `Core` would clash with `GameEntityBuilder::with_render_mask`, which gives the sub-world `Render` its tags; rename it"
)]
fn a_name_like_a_sub_world_s_tag_method_fails() {
    check_sub_worlds(
        "Game",
        &["Core", "Render"],
        &["core", "render"],
        &[&["position", "render_mask"], &["sprite"]],
    );
}

#[test]
fn string_helpers() {
    assert!(str_eq("abc", "abc"));
    assert!(!str_eq("abc", "abd"));
    assert!(!str_eq("ab", "abc"));
    assert!(parts_eq(&["get_", "x", "_mut"], "get_x_mut"));
    assert!(!parts_eq(&["get_", "x"], "get_x_mut"));
    assert!(!parts_eq(&["get_", "x", "_mut", "s"], "get_x_mut"));
    assert_eq!(hash_parts(&["ab", "c"]), hash_parts(&["abc"]));
    assert_eq!(first_duplicate(&[&["x", "y", "z", "y"]]), Some("y"));
    assert_eq!(first_duplicate(&[&["x"], &["y"], &["x"]]), Some("x"));
    assert_eq!(first_duplicate(&[&["x"]]), None);
    // The earliest name that repeats, not the earliest repeat.
    assert_eq!(first_duplicate(&[&["x", "y", "y", "x"]]), Some("x"));
    assert_eq!(first_duplicate(&[]), None);
}

#[test]
fn hashed_duplicates_agree_with_pairwise() {
    // 150 distinct names, then the same again: the prefixes cover lists without a
    // duplicate (up to 150 names, enough to collide in the table) and with several.
    let distinct: Vec<String> = (0..150).map(|index| format!("c{index}")).collect();
    let names: Vec<&str> = distinct
        .iter()
        .chain(&distinct)
        .map(String::as_str)
        .collect();
    for length in 0..=names.len() {
        let prefix = &names[..length];
        assert_eq!(
            first_duplicate(&[prefix]),
            first_duplicate_pairwise(&[prefix])
        );
    }
    assert_eq!(first_duplicate(&[&names[..150]]), None);
    assert_eq!(first_duplicate(&[&names[..151]]), Some("c0"));
    // Past the table's capacity, the pairwise search answers.
    let many: Vec<&str> = names.iter().cycle().take(NAME_SLOTS).copied().collect();
    assert_eq!(first_duplicate(&[&many]), Some("c0"));
}

#[test]
fn the_table_finds_composed_names() {
    let lists: [&[&str]; 2] = [&["position", "x_mut"], &["children"]];
    let table = NameTable::new(&lists);
    assert_eq!(table.find(&lists, &["x", "_mut"]), Some("x_mut"));
    assert_eq!(table.find(&lists, &["child", "ren"]), Some("children"));
    assert_eq!(table.find(&lists, &["position", "_mut"]), None);
}
