//! The checks `ecs!` runs on its input at compile time (in a `const`): a panic here is the
//! compile error the user reads, in ecs!'s own words, so each message names the item at
//! fault. They run in the const evaluator at every invocation, where each step is costly:
//! lookups go through a small hash table, never through every pair of names.

/// The names a world declares, by kind (each list in declaration order).
#[derive(Clone, Copy)]
pub struct WorldNames<'a> {
    /// The components' field names.
    pub components: &'a [&'a str],
    /// The tags' names.
    pub tags: &'a [&'a str],
    /// The relations' forward names (`child_of`).
    pub relations: &'a [&'a str],
    /// The relations' reverse names (`children`), in the order of `relations`.
    pub reverses: &'a [&'a str],
}

/// Names a kind of item cannot take, and what the name would clash with: the tables' own
/// fields, or a method the world has whatever it declares.
const RESERVED: [(Kind, &str, &str); 5] = [
    (Kind::Component, "mask", "the tables' own `mask` field"),
    (
        Kind::Component,
        "entities",
        "the tables' own `entities` field",
    ),
    (
        Kind::Component,
        "components",
        "the world's `add_components`, `remove_components` and `has_components`",
    ),
    (
        Kind::Tag,
        "components",
        "the world's `add_components`, `remove_components` and `has_components`",
    ),
    (Kind::Relation, "tables", "the world's `split_tables`"),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Component,
    Tag,
    Relation,
}

impl Kind {
    const fn name(self) -> &'static str {
        match self {
            Kind::Component => "a component",
            Kind::Tag => "a tag",
            Kind::Relation => "a relation",
        }
    }
}

/// Longest message a check builds.
const MESSAGE_CAPACITY: usize = 256;

/// Fails compilation (when called in a `const`) if a world's input is invalid: a name used
/// twice (components, tags, relations and their reverse names share one namespace: they name
/// methods side by side) or a mask constant used twice, a reserved name, two names whose
/// `get_` methods would coincide (a component `x` has `get_x_mut` and `get_disjoint_x_mut`, so
/// nothing else may be named `x_mut`, `disjoint_x_mut` or, for a component, `disjoint_x`), or
/// more bits than a mask holds.
pub const fn check_world(world: &str, names: WorldNames<'_>, masks: &[&str], bits: usize) {
    check_reserved(names.components, Kind::Component);
    check_reserved(names.tags, Kind::Tag);
    check_reserved(names.relations, Kind::Relation);
    if let Some(name) = first_duplicate(&[
        names.components,
        names.tags,
        names.relations,
        names.reverses,
    ]) {
        fail(&[
            "ecs!: `",
            name,
            "` names more than one component, tag or relation in `",
            world,
            "`",
        ]);
    }
    check_getters(names);
    if let Some(name) = first_duplicate(&[masks]) {
        fail(&[
            "ecs!: the mask constant `",
            name,
            "` is used more than once in `",
            world,
            "`",
        ]);
    }
    if bits >= crate::MAX_MASK_BITS {
        fail(&[
            "ecs!: `",
            world,
            "` declares more components and tags than its mask can hold (at most 127: the top bit marks disabled entities); split them into sub-worlds: `Game { Core { ... } Render { ... } }`",
        ]);
    }
}

const fn check_reserved(names: &[&str], kind: Kind) {
    let mut index = 0;
    while index < names.len() {
        let mut reserved = 0;
        while reserved < RESERVED.len() {
            let (reserved_kind, name, clash) = RESERVED[reserved];
            if reserved_kind as u8 == kind as u8 && str_eq(names[index], name) {
                fail(&[
                    "ecs!: ",
                    kind.name(),
                    " cannot be named `",
                    name,
                    "`: it would clash with ",
                    clash,
                    "; rename it",
                ]);
            }
            reserved += 1;
        }
        index += 1;
    }
}

/// The `get_` methods: `get_<c>`, `get_<c>_mut` and `get_disjoint_<c>_mut` per component,
/// `get_<r>` and `get_<reverse>` per relation. Distinct names can still give one method name
/// through the affixes; this finds such a pair.
const fn check_getters(names: WorldNames<'_>) {
    let getters = [names.components, names.relations, names.reverses];
    let table = NameTable::new(&getters);
    let mut index = 0;
    while index < names.components.len() {
        let component = names.components[index];
        // `get_<component>_mut` against another's `get_<name>`.
        if let Some(other) = table.find(&getters, &[component, "_mut"]) {
            clash(component, other, &["get_", component, "_mut"]);
        }
        // `get_disjoint_<component>_mut` against another's `get_<name>`.
        if let Some(other) = table.find(&getters, &["disjoint_", component, "_mut"]) {
            clash(component, other, &["get_disjoint_", component, "_mut"]);
        }
        // ... and against another component's `get_<name>_mut`.
        if let Some(other) = table.find(&[names.components], &["disjoint_", component]) {
            clash(component, other, &["get_disjoint_", component, "_mut"]);
        }
        index += 1;
    }
}

const fn clash(component: &str, other: &str, method: &[&str]) -> ! {
    let mut parts = [""; 10];
    let prefix = [
        "ecs!: the component `",
        component,
        "` and `",
        other,
        "` would both generate the method `",
    ];
    let mut length = 0;
    while length < prefix.len() {
        parts[length] = prefix[length];
        length += 1;
    }
    let mut index = 0;
    while index < method.len() {
        parts[length] = method[index];
        length += 1;
        index += 1;
    }
    parts[length] = "`; rename one of them";
    fail(parts.split_at(length + 1).0)
}

/// Names a sub-world cannot take in snake case: the multi-world's own fields, and what its
/// command queue names after each sub-world (a method `<GameCommands>::core()` beside its own
/// `queue_*`, a variant `<GameCommand>::Core` beside its `Lifecycle`).
const RESERVED_SUB_WORLD_FIELDS: [&str; 9] = [
    "resources",
    "events",
    "commands",
    "entities",
    "lifecycle",
    "queue_spawn",
    "queue_spawn_entities",
    "queue_despawn",
    "queue_despawn_entities",
];

/// Fails compilation (when called in a `const`) if a multi-world's sub-worlds are invalid: a
/// sub-world named twice, one whose field name (`fields`, the snake-case names) would clash
/// with the multi-world's own fields, or two that would give the game's `EntityBuilder` the
/// same method. `builder_names` are each sub-world's components' and relations' names (each
/// a `with_<name>` of the builder); each sub-world also gives it `with_<field>_mask`.
pub const fn check_sub_worlds(
    game: &str,
    sub_worlds: &[&str],
    fields: &[&str],
    builder_names: &[&[&str]],
) {
    if let Some(name) = first_duplicate(&[sub_worlds]) {
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
                    "`, a name the multi-world uses itself (a field, or a method or variant of its command queue); rename the sub-world",
                ]);
            }
            reserved += 1;
        }
        index += 1;
    }
    if let Some(name) = first_duplicate(builder_names) {
        fail(&[
            "ecs!: `",
            name,
            "` names a component or relation in more than one sub-world of `",
            game,
            "`, whose `",
            game,
            "EntityBuilder` has one `with_",
            name,
            "`; rename one of them",
        ]);
    }
    let mut tagged = 0;
    while tagged < fields.len() {
        let mut list = 0;
        while list < builder_names.len() {
            let mut name = 0;
            while name < builder_names[list].len() {
                if parts_eq(&[fields[tagged], "_mask"], builder_names[list][name]) {
                    fail(&[
                        "ecs!: `",
                        builder_names[list][name],
                        "` of the sub-world `",
                        sub_worlds[list],
                        "` would clash with `",
                        game,
                        "EntityBuilder::with_",
                        builder_names[list][name],
                        "`, which gives the sub-world `",
                        sub_worlds[tagged],
                        "` its tags; rename it",
                    ]);
                }
                name += 1;
            }
            list += 1;
        }
        tagged += 1;
    }
}

/// Slots of a `NameTable`: a power of two, at least twice the names of the largest valid
/// world (128 mask bits, a name each, plus the relations' reverse names).
const NAME_SLOTS: usize = 512;

/// An open-addressing hash table of the names of several lists (each slot: 0 when empty,
/// else 1 + the name's position across the lists, first occurrence only).
struct NameTable {
    slots: [usize; NAME_SLOTS],
}

impl NameTable {
    /// The table of `lists`' names; `None` past its capacity (too many names for a valid
    /// world: `check_world` rejects the bit count then).
    const fn new(lists: &[&[&str]]) -> Self {
        let mut table = NameTable {
            slots: [0; NAME_SLOTS],
        };
        let total = total_names(lists);
        let mut position = 0;
        while position < total && position < NAME_SLOTS / 2 {
            let name = name_at(lists, position);
            let mut slot = hash_parts(&[name]) & (NAME_SLOTS - 1);
            loop {
                let occupant = table.slots[slot];
                if occupant == 0 {
                    table.slots[slot] = position + 1;
                    break;
                }
                if str_eq(name_at(lists, occupant - 1), name) {
                    break;
                }
                slot = (slot + 1) & (NAME_SLOTS - 1);
            }
            position += 1;
        }
        table
    }

    /// The name of `lists` (those the table was built from) equal to the concatenation of
    /// `parts`, if any.
    const fn find<'a>(&self, lists: &[&[&'a str]], parts: &[&str]) -> Option<&'a str> {
        let total = total_names(lists);
        let mut slot = hash_parts(parts) & (NAME_SLOTS - 1);
        loop {
            let occupant = self.slots[slot];
            if occupant == 0 {
                return None;
            }
            if occupant - 1 < total && parts_eq(parts, name_at(lists, occupant - 1)) {
                return Some(name_at(lists, occupant - 1));
            }
            slot = (slot + 1) & (NAME_SLOTS - 1);
        }
    }
}

const fn total_names(lists: &[&[&str]]) -> usize {
    let mut total = 0;
    let mut list = 0;
    while list < lists.len() {
        total += lists[list].len();
        list += 1;
    }
    total
}

/// The name at `position` of the lists laid end to end.
const fn name_at<'a>(lists: &[&[&'a str]], mut position: usize) -> &'a str {
    let mut list = 0;
    while position >= lists[list].len() {
        position -= lists[list].len();
        list += 1;
    }
    lists[list][position]
}

/// The first name (in order, across `lists` laid end to end) that occurs again later, if
/// any: linear in the names through a `NameTable` (comparing every pair made the check a
/// large part of a 128-component world's build).
const fn first_duplicate<'a>(lists: &[&[&'a str]]) -> Option<&'a str> {
    let total = total_names(lists);
    if total > NAME_SLOTS / 2 {
        return first_duplicate_pairwise(lists);
    }
    // Later occurrences are never stored, so a match is always against a first occurrence.
    let mut slots = [0usize; NAME_SLOTS];
    let mut earliest = usize::MAX;
    let mut position = 0;
    while position < total {
        let name = name_at(lists, position);
        let mut slot = hash_parts(&[name]) & (NAME_SLOTS - 1);
        loop {
            let occupant = slots[slot];
            if occupant == 0 {
                slots[slot] = position + 1;
                break;
            }
            if str_eq(name_at(lists, occupant - 1), name) {
                if occupant - 1 < earliest {
                    earliest = occupant - 1;
                }
                break;
            }
            slot = (slot + 1) & (NAME_SLOTS - 1);
        }
        position += 1;
    }
    if earliest == usize::MAX {
        None
    } else {
        Some(name_at(lists, earliest))
    }
}

/// `first_duplicate` by comparing every pair: for lists too long for the table.
const fn first_duplicate_pairwise<'a>(lists: &[&[&'a str]]) -> Option<&'a str> {
    let total = total_names(lists);
    let mut first = 0;
    while first < total {
        let mut second = first + 1;
        while second < total {
            if str_eq(name_at(lists, first), name_at(lists, second)) {
                return Some(name_at(lists, first));
            }
            second += 1;
        }
        first += 1;
    }
    None
}

/// FNV-1a of the bytes of `parts` laid end to end (const-evaluable).
const fn hash_parts(parts: &[&str]) -> usize {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut part = 0;
    while part < parts.len() {
        let bytes = parts[part].as_bytes();
        let mut index = 0;
        while index < bytes.len() {
            hash ^= bytes[index] as u64;
            hash = hash.wrapping_mul(0x0100_0000_01b3);
            index += 1;
        }
        part += 1;
    }
    hash as usize
}

/// Whether `parts` laid end to end spell `name`.
const fn parts_eq(parts: &[&str], name: &str) -> bool {
    let name = name.as_bytes();
    let mut at = 0;
    let mut part = 0;
    while part < parts.len() {
        let bytes = parts[part].as_bytes();
        if at + bytes.len() > name.len() {
            return false;
        }
        let mut index = 0;
        while index < bytes.len() {
            if bytes[index] != name[at + index] {
                return false;
            }
            index += 1;
        }
        at += bytes.len();
        part += 1;
    }
    at == name.len()
}

pub(crate) const fn str_eq(left: &str, right: &str) -> bool {
    parts_eq(&[left], right)
}
/// Panics with the concatenation of `parts` (const-evaluable).
pub(crate) const fn fail(parts: &[&str]) -> ! {
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
mod tests;
