//! Support for generated code. Not part of the public API: reached only as
//! `$crate::__private` from inside `ecs!`.

// Generated code names `alloc`'s and `core`'s items through these, never `::std`, so it
// compiles in a `#![no_std]` crate (which may not have `alloc` in its own extern prelude).
pub extern crate alloc;
pub extern crate core;
pub use paste;
/// serde, for the snapshot code `ecs!` generates (users derive on their own types only).
#[cfg(feature = "serde")]
pub use serde;

/// Names a component or tag cannot take: the tables' own fields (`mask`, `entities`) and
/// names whose generated methods would be the world's own (`add_components`,
/// `query_first_entity`).
const RESERVED_NAMES: [&str; 4] = ["mask", "entities", "components", "first_entity"];

/// Longest message `check_world` builds.
const MESSAGE_CAPACITY: usize = 256;

/// Fails compilation (when called in a `const`) if a world's input is invalid: a name used
/// twice in `fields` (components and tags) or in `masks`, a reserved field name, or more bits
/// than a mask holds. The panic message is the
/// compile error the user reads, so it names the offending item.
pub const fn check_world(world: &str, fields: &[&str], masks: &[&str], bits: usize) {
    let mut index = 0;
    while index < fields.len() {
        let name = fields[index];
        let mut reserved = 0;
        while reserved < RESERVED_NAMES.len() {
            if str_eq(name, RESERVED_NAMES[reserved]) {
                fail(&[
                    "ecs!: `",
                    name,
                    "` cannot name a component or tag: it would clash with a generated field or method",
                ]);
            }
            reserved += 1;
        }
        index += 1;
    }
    if let Some(name) = first_duplicate(fields) {
        fail(&[
            "ecs!: `",
            name,
            "` names more than one component, tag or relation in `",
            world,
            "`",
        ]);
    }
    if let Some(name) = first_duplicate(masks) {
        fail(&[
            "ecs!: the mask constant `",
            name,
            "` is used more than once in `",
            world,
            "`",
        ]);
    }
    if bits > crate::MAX_MASK_BITS {
        fail(&[
            "ecs!: `",
            world,
            "` declares more components and tags than its mask can hold (at most 128); split them into sub-worlds: `Game { Core { ... } Render { ... } }`",
        ]);
    }
}

/// Field names of a multi-world that a sub-world cannot take.
const RESERVED_SUB_WORLD_FIELDS: [&str; 3] = ["resources", "events", "commands"];

/// Fails compilation (when called in a `const`) if a multi-world's sub-worlds are invalid: a
/// sub-world named twice, or one whose field name (`fields`, the snake-case names) would
/// clash with the multi-world's own fields.
pub const fn check_sub_worlds(game: &str, sub_worlds: &[&str], fields: &[&str]) {
    if let Some(name) = first_duplicate(sub_worlds) {
        fail(&[
            "ecs!: the sub-world `",
            name,
            "` is declared more than once in `",
            game,
            "`",
        ]);
    }
    let mut index = 0;
    while index < fields.len() {
        let mut reserved = 0;
        while reserved < RESERVED_SUB_WORLD_FIELDS.len() {
            if str_eq(fields[index], RESERVED_SUB_WORLD_FIELDS[reserved]) {
                fail(&[
                    "ecs!: the sub-world `",
                    sub_worlds[index],
                    "` would become the field `",
                    fields[index],
                    "` of `",
                    game,
                    "`, which the multi-world uses itself; rename the sub-world",
                ]);
            }
            reserved += 1;
        }
        index += 1;
    }
}

/// Slots of the hash table `first_duplicate` fills: a power of two, at least twice the names
/// of the largest valid world (128 mask bits, a name each, plus the relations' reverse names).
const NAME_SLOTS: usize = 512;

/// The first name (in `names` order) that occurs again later, if any. Runs in the const
/// evaluator at every `ecs!` invocation, where each step is costly: a hash table keeps it
/// linear in the names (comparing every pair made a 128-component world's check take a
/// quarter of its build).
const fn first_duplicate<'a>(names: &[&'a str]) -> Option<&'a str> {
    if names.len() > NAME_SLOTS / 2 {
        // Too many names for a valid world (`check_world` rejects the bit count next):
        // pairwise, the table would fill up.
        return first_duplicate_pairwise(names);
    }
    // Each slot holds 1 + the index of the first name hashed there, 0 when empty. Later
    // occurrences are never stored, so a match is always against a first occurrence.
    let mut slots = [0usize; NAME_SLOTS];
    let mut earliest = usize::MAX;
    let mut index = 0;
    while index < names.len() {
        let mut slot = name_hash(names[index]) & (NAME_SLOTS - 1);
        loop {
            let occupant = slots[slot];
            if occupant == 0 {
                slots[slot] = index + 1;
                break;
            }
            if str_eq(names[occupant - 1], names[index]) {
                if occupant - 1 < earliest {
                    earliest = occupant - 1;
                }
                break;
            }
            slot = (slot + 1) & (NAME_SLOTS - 1);
        }
        index += 1;
    }
    if earliest == usize::MAX {
        None
    } else {
        Some(names[earliest])
    }
}

/// `first_duplicate` by comparing every pair: for lists too long for its table.
const fn first_duplicate_pairwise<'a>(names: &[&'a str]) -> Option<&'a str> {
    let mut first = 0;
    while first < names.len() {
        let mut second = first + 1;
        while second < names.len() {
            if str_eq(names[first], names[second]) {
                return Some(names[first]);
            }
            second += 1;
        }
        first += 1;
    }
    None
}

/// FNV-1a of the name's bytes (const-evaluable).
const fn name_hash(name: &str) -> usize {
    let bytes = name.as_bytes();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut index = 0;
    while index < bytes.len() {
        hash ^= bytes[index] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        index += 1;
    }
    hash as usize
}

const fn str_eq(left: &str, right: &str) -> bool {
    let (left, right) = (left.as_bytes(), right.as_bytes());
    if left.len() != right.len() {
        return false;
    }
    let mut index = 0;
    while index < left.len() {
        if left[index] != right[index] {
            return false;
        }
        index += 1;
    }
    true
}

/// Panics with the concatenation of `parts` (const-evaluable).
const fn fail(parts: &[&str]) -> ! {
    let mut buffer = [0u8; MESSAGE_CAPACITY];
    let mut length = 0;
    let mut part = 0;
    while part < parts.len() {
        let bytes = parts[part].as_bytes();
        let mut index = 0;
        while index < bytes.len() && length < MESSAGE_CAPACITY {
            buffer[length] = bytes[index];
            length += 1;
            index += 1;
        }
        part += 1;
    }
    match core::str::from_utf8(buffer.split_at(length).0) {
        Ok(message) => panic!("{}", message),
        Err(_) => panic!("ecs!: invalid world declaration"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;

    #[test]
    fn valid_worlds_pass() {
        check_world(
            "World",
            &["position", "velocity"],
            &["POSITION", "VELOCITY"],
            2,
        );
        check_world("World", &[], &[], 128);
    }

    #[test]
    #[should_panic(
        expected = "ecs!: `position` names more than one component, tag or relation in `World`"
    )]
    fn duplicate_fields_fail() {
        check_world(
            "World",
            &["position", "velocity", "position"],
            &["A", "B", "C"],
            3,
        );
    }

    #[test]
    #[should_panic(expected = "ecs!: the mask constant `A` is used more than once")]
    fn duplicate_masks_fail() {
        check_world("World", &["a", "b"], &["A", "A"], 2);
    }

    #[test]
    #[should_panic(expected = "ecs!: `entities` cannot name a component or tag")]
    fn reserved_names_fail() {
        check_world("World", &["position", "entities"], &["A", "B"], 2);
    }

    #[test]
    #[should_panic(expected = "at most 128")]
    fn too_many_bits_fail() {
        check_world("World", &["a"], &["A"], 129);
    }

    #[test]
    fn valid_sub_worlds_pass() {
        check_sub_worlds("Game", &["Core", "Render"], &["core", "render"]);
    }

    #[test]
    #[should_panic(expected = "ecs!: the sub-world `Core` is declared more than once in `Game`")]
    fn duplicate_sub_worlds_fail() {
        check_sub_worlds("Game", &["Core", "Core"], &["core", "core"]);
    }

    #[test]
    #[should_panic(expected = "ecs!: the sub-world `Events` would become the field `events`")]
    fn sub_worlds_named_like_the_multi_worlds_fields_fail() {
        check_sub_worlds("Game", &["Core", "Events"], &["core", "events"]);
    }

    #[test]
    fn string_helpers() {
        assert!(str_eq("abc", "abc"));
        assert!(!str_eq("abc", "abd"));
        assert!(!str_eq("ab", "abc"));
        assert_eq!(first_duplicate(&["x", "y", "z", "y"]), Some("y"));
        assert_eq!(first_duplicate(&["x"]), None);
        // The earliest name that repeats, not the earliest repeat.
        assert_eq!(first_duplicate(&["x", "y", "y", "x"]), Some("x"));
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
            assert_eq!(first_duplicate(prefix), first_duplicate_pairwise(prefix));
        }
        assert_eq!(first_duplicate(&names[..150]), None);
        assert_eq!(first_duplicate(&names[..151]), Some("c0"));
        // Past the table's capacity, the pairwise search answers.
        let many: Vec<&str> = names.iter().cycle().take(NAME_SLOTS).copied().collect();
        assert_eq!(first_duplicate(&many), Some("c0"));
    }
}
