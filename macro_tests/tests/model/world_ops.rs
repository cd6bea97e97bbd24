//! The world, generically: each operation of the model as a call on the generated API, by
//! component.

use super::*;

pub(crate) fn w_get(world: &World, comp: Comp, entity: Entity) -> Option<Value> {
    match comp {
        Comp::Health => world.get_health(entity).cloned().map(Value::Health),
        Comp::Level => world.get_level(entity).cloned().map(Value::Level),
        Comp::Name => world.get_name(entity).cloned().map(Value::Name),
        Comp::Pos => world.get_pos(entity).cloned().map(Value::Pos),
        Comp::Flags => world.get_flags(entity).cloned().map(Value::Flags),
        Comp::Scratch => world.get_scratch(entity).cloned().map(Value::Scratch),
    }
}

pub(crate) fn w_has(world: &World, comp: Comp, entity: Entity) -> bool {
    match comp {
        Comp::Health => world.has_health(entity),
        Comp::Level => world.has_level(entity),
        Comp::Name => world.has_name(entity),
        Comp::Pos => world.has_pos(entity),
        Comp::Flags => world.has_flags(entity),
        Comp::Scratch => world.has_scratch(entity),
    }
}

pub(crate) fn w_set(world: &mut World, entity: Entity, value: Value) -> bool {
    match value {
        Value::Health(value) => world.set_health(entity, value),
        Value::Level(value) => world.set_level(entity, value),
        Value::Name(value) => world.set_name(entity, value),
        Value::Pos(value) => world.set_pos(entity, value),
        Value::Flags(value) => world.set_flags(entity, value),
        Value::Scratch(value) => world.set_scratch(entity, value),
    }
}

pub(crate) fn w_add(world: &mut World, entity: Entity, comp: Comp) -> bool {
    match comp {
        Comp::Health => world.add_health(entity),
        Comp::Level => world.add_level(entity),
        Comp::Name => world.add_name(entity),
        Comp::Pos => world.add_pos(entity),
        Comp::Flags => world.add_flags(entity),
        Comp::Scratch => world.add_scratch(entity),
    }
}

pub(crate) fn w_remove(world: &mut World, entity: Entity, comp: Comp) -> Option<Value> {
    match comp {
        Comp::Health => world.remove_health(entity).map(Value::Health),
        Comp::Level => world.remove_level(entity).map(Value::Level),
        Comp::Name => world.remove_name(entity).map(Value::Name),
        Comp::Pos => world.remove_pos(entity).map(Value::Pos),
        Comp::Flags => world.remove_flags(entity).map(Value::Flags),
        Comp::Scratch => world.remove_scratch(entity).map(Value::Scratch),
    }
}

pub(crate) fn w_add_tag(world: &mut World, entity: Entity, tag: Tag) -> bool {
    match tag {
        Tag::Hero => world.add_hero(entity),
        Tag::Marked => world.add_marked(entity),
    }
}

pub(crate) fn w_remove_tag(world: &mut World, entity: Entity, tag: Tag) -> bool {
    match tag {
        Tag::Hero => world.remove_hero(entity),
        Tag::Marked => world.remove_marked(entity),
    }
}

pub(crate) fn w_has_tag(world: &World, tag: Tag, entity: Entity) -> bool {
    match tag {
        Tag::Hero => world.has_hero(entity),
        Tag::Marked => world.has_marked(entity),
    }
}

/// `query_<tag>()`, sorted.
pub(crate) fn w_query_tag(world: &World, tag: Tag) -> Vec<Entity> {
    let mut entities: Vec<Entity> = match tag {
        Tag::Hero => world.query_entities(HERO).collect(),
        Tag::Marked => world.query_entities(MARKED).collect(),
    };
    entities.sort_unstable();
    entities
}

/// Writes `value` through `get_<c>_mut(..).map(..)`; returns the value it replaced.
pub(crate) fn w_modify(world: &mut World, entity: Entity, value: Value) -> Option<Value> {
    use std::mem::replace;
    match value {
        Value::Health(new) => world
            .get_health_mut(entity)
            .map(|slot| replace(slot, new))
            .map(Value::Health),
        Value::Level(new) => world
            .get_level_mut(entity)
            .map(|slot| replace(slot, new))
            .map(Value::Level),
        Value::Name(new) => world
            .get_name_mut(entity)
            .map(|slot| replace(slot, new))
            .map(Value::Name),
        Value::Pos(new) => world
            .get_pos_mut(entity)
            .map(|slot| replace(slot, new))
            .map(Value::Pos),
        Value::Flags(new) => world
            .get_flags_mut(entity)
            .map(|slot| replace(slot, new))
            .map(Value::Flags),
        Value::Scratch(new) => world
            .get_scratch_mut(entity)
            .map(|slot| replace(slot, new))
            .map(Value::Scratch),
    }
}

/// Writes `value` through `get_<c>_mut`; returns the value it replaced.
pub(crate) fn w_get_mut_write(world: &mut World, entity: Entity, value: Value) -> Option<Value> {
    use std::mem::replace;
    match value {
        Value::Health(new) => world
            .get_health_mut(entity)
            .map(|slot| Value::Health(replace(slot, new))),
        Value::Level(new) => world
            .get_level_mut(entity)
            .map(|slot| Value::Level(replace(slot, new))),
        Value::Name(new) => world
            .get_name_mut(entity)
            .map(|slot| Value::Name(replace(slot, new))),
        Value::Pos(new) => world
            .get_pos_mut(entity)
            .map(|slot| Value::Pos(replace(slot, new))),
        Value::Flags(new) => world
            .get_flags_mut(entity)
            .map(|slot| Value::Flags(replace(slot, new))),
        Value::Scratch(new) => world
            .get_scratch_mut(entity)
            .map(|slot| Value::Scratch(replace(slot, new))),
    }
}

/// Bumps row `index` of the `comp` column of a mutable table view.
pub(crate) fn view_bump(view: &mut ComponentArraysMut<'_>, comp: Comp, index: usize) {
    match comp {
        Comp::Health => view.health[index].bump(),
        Comp::Level => view.level[index].bump(),
        Comp::Name => view.name[index].bump(),
        Comp::Pos => view.pos[index].bump(),
        Comp::Flags => view.flags[index].bump(),
        Comp::Scratch => view.scratch[index].bump(),
    }
}

/// Writes `value` into row `index` of a mutable table view (the table must hold its column).
pub(crate) fn view_write(view: &mut ComponentArraysMut<'_>, value: Value, index: usize) {
    match value {
        Value::Health(value) => view.health[index] = value,
        Value::Level(value) => view.level[index] = value,
        Value::Name(value) => view.name[index] = value,
        Value::Pos(value) => view.pos[index] = value,
        Value::Flags(value) => view.flags[index] = value,
        Value::Scratch(value) => view.scratch[index] = value,
    }
}

/// Row `index` of the `comp` column of a table, if the table holds that column.
pub(crate) fn table_value(table: &ComponentArrays, comp: Comp, index: usize) -> Option<Value> {
    if table.mask & comp.bit() == 0 {
        return None;
    }
    Some(match comp {
        Comp::Health => Value::Health(table.health[index].clone()),
        Comp::Level => Value::Level(table.level[index].clone()),
        Comp::Name => Value::Name(table.name[index].clone()),
        Comp::Pos => Value::Pos(table.pos[index].clone()),
        Comp::Flags => Value::Flags(table.flags[index].clone()),
        Comp::Scratch => Value::Scratch(table.scratch[index].clone()),
    })
}

/// `typed_query::<(Entity, &mut $ty)>()` with the masks, bumping every value; the entities
/// visited, in the world's order.
macro_rules! typed_write {
    ($world:expr, $ty:ty, $include:expr, $exclude:expr) => {{
        let mut visited = Vec::new();
        $world
            .typed_query::<(Entity, &mut $ty)>()
            .with($include)
            .without($exclude)
            .for_each(|(entity, mut value)| {
                value.bump();
                visited.push(entity);
            });
        visited
    }};
}

/// `typed_query::<(Entity, Option<&mut $ty>)>()` with the masks, bumping every value present;
/// the entities visited, with the component or without.
macro_rules! typed_write_optional {
    ($world:expr, $ty:ty, $include:expr, $exclude:expr) => {{
        let mut visited = Vec::new();
        $world
            .typed_query::<(Entity, Option<&mut $ty>)>()
            .with($include)
            .without($exclude)
            .for_each(|(entity, value)| {
                if let Some(mut value) = value {
                    value.bump();
                }
                visited.push(entity);
            });
        visited
    }};
}

/// `typed_query::<(Entity, &$ty, Option<&Name>)>()` with the masks: every row read, and what
/// `count()` says.
macro_rules! typed_read {
    ($world:expr, $ty:ident, $include:expr, $exclude:expr) => {{
        let mut rows = Vec::new();
        $world
            .typed_query::<(Entity, &$ty, Option<&Name>)>()
            .with($include)
            .without($exclude)
            .for_each(|(entity, value, name)| {
                rows.push((entity, Value::$ty(value.clone()), name.cloned()));
            });
        let count = $world
            .typed_query::<&$ty>()
            .with($include)
            .without($exclude)
            .count();
        (rows, count)
    }};
}

/// The first system of `Op::RunSchedule`: every hero's health goes up by one (a typed write),
/// and the counter resource counts the run.
pub(crate) fn regenerate_heroes(world: &mut World) {
    world
        .typed_query::<&mut Health>()
        .with(HERO)
        .for_each(|mut health| health.bump());
    world.resources.counter = world.resources.counter.wrapping_add(1);
}

/// The second system of `Op::RunSchedule`: sends the counter the first one left as a `hit`.
pub(crate) fn announce_counter(world: &mut World) {
    let counter = world.resources.counter;
    world.events.hit.send(Hit(counter as i32));
}

/// The components of each tuple shape `Op::SpawnValues` spawns, in the tuple's order. None
/// holds two members of an exclusive group, named or required (`spawn_values` panics on
/// those); what a shape's components require and it does not name (`FLAGS`'s `POS`) comes
/// with its default value.
pub(crate) const SPAWN_VALUES_SHAPES: [&[Comp]; 4] = [
    &[Comp::Health, Comp::Pos],
    &[Comp::Name, Comp::Flags, Comp::Level],
    &[Comp::Scratch],
    &[Comp::Pos, Comp::Level, Comp::Flags, Comp::Name],
];

/// `Value::batch(comp, seed, k)`, typed.
macro_rules! batch_value {
    ($variant:ident, $seed:expr, $k:expr) => {
        match Value::batch(Comp::$variant, $seed, $k) {
            Value::$variant(value) => value,
            _ => unreachable!(),
        }
    };
}

/// How [`spawn_values`] spawns.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum ValuesSpawn {
    /// `spawn_values`.
    Now,
    /// `spawn_values` through an iterator whose size hint says 0 (a `filter`).
    HintLow,
    /// `queue_spawn_values` on the command part of a split, as a system queues it.
    Queued,
}

/// `spawn_values` (or `queue_spawn_values`, as `how` says) of `count` tuples of shape `shape`
/// ([`SPAWN_VALUES_SHAPES`]), the `k`-th valued `Value::batch(comp, seed, k)`.
pub(crate) fn spawn_values(
    world: &mut World,
    shape: usize,
    count: usize,
    seed: i32,
    how: ValuesSpawn,
) -> Vec<Entity> {
    macro_rules! spawn {
        ($($variant:ident),+) => {{
            let values = (0..count).map(|k| ($(batch_value!($variant, seed, k),)+));
            match how {
                ValuesSpawn::Now => world.spawn_values(values),
                ValuesSpawn::HintLow => world.spawn_values(values.filter(|_| true)),
                ValuesSpawn::Queued => world.split_mut().commands.queue_spawn_values(values),
            }
        }};
    }
    match shape {
        0 => spawn!(Health, Pos),
        1 => spawn!(Name, Flags, Level),
        2 => spawn!(Scratch),
        _ => spawn!(Pos, Level, Flags, Name),
    }
}
