//! The proptest strategies generating operation sequences.

use super::*;

pub(crate) fn comp_strategy() -> impl Strategy<Value = Comp> {
    prop::sample::select(COMPS.to_vec())
}

pub(crate) fn tag_strategy() -> impl Strategy<Value = Tag> {
    prop::sample::select(TAG_LIST.to_vec())
}

/// Components and tags: spawns, structural changes and queries all take tag bits too.
/// A mask of the world's bits, now and then with a bit the world does not have: spawns and
/// migrations ignore it, it matches nothing in an include mask and excludes nothing.
pub(crate) fn mask_strategy() -> impl Strategy<Value = u64> {
    prop_oneof![
        9 => 0..=EVERY,
        // Never bit 63: that is `WorldMask::DISABLED`, which asks for disabled entities (its own
        // model is `model_disabled.rs`), not a component the world lacks.
        1 => (0..=EVERY, EVERY.count_ones()..63).prop_map(|(mask, bit)| mask | 1 << bit),
    ]
}

pub(crate) fn value_strategy() -> impl Strategy<Value = Value> {
    prop_oneof![
        (-3i32..4).prop_map(|v| Value::Health(Health(v))),
        (0u8..4).prop_map(|v| Value::Level(Level(v))),
        prop::sample::select(vec!["", "a", "b", "ab", "ba", "abc"])
            .prop_map(|v| Value::Name(Name(v.to_owned()))),
        (-2i32..3, -2i32..3).prop_map(|(x, y)| Value::Pos(Pos { x, y })),
        prop::collection::vec(0u8..3, 0..3).prop_map(|v| Value::Flags(Flags(v))),
        (0u32..3).prop_map(|v| Value::Scratch(Scratch(v))),
    ]
}

/// Indices are taken modulo the number of candidates; a small range shrinks to readable values.
pub(crate) fn target_strategy() -> impl Strategy<Value = Target> {
    prop_oneof![
        5 => (0usize..256).prop_map(Target::Any),
        4 => (0usize..256).prop_map(Target::Live),
        1 => (0usize..64).prop_map(Target::Never),
        2 => (0usize..64).prop_map(Target::Reserved),
    ]
}

pub(crate) fn via_strategy() -> impl Strategy<Value = Via> {
    prop_oneof![
        Just(Via::ForEachMut),
        Just(Via::ForEachTableMut),
        Just(Via::ParForEachMut),
        Just(Via::TypedQuery),
    ]
}

pub(crate) fn op_strategy() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => mask_strategy().prop_map(Op::Spawn),
        2 => (mask_strategy(), 0usize..4).prop_map(|(mask, count)| Op::SpawnEntities(mask, count)),
        2 => (mask_strategy(), 0usize..4, -50i32..50)
            .prop_map(|(mask, count, seed)| Op::SpawnBatch { mask, count, seed }),
        2 => (0..SPAWN_VALUES_SHAPES.len(), 0usize..4, -50i32..50, any::<bool>()).prop_map(
            |(shape, count, seed, hint_low)| Op::SpawnValues {
                shape,
                count,
                seed,
                hint_low
            }
        ),
        1 => (
            prop::collection::vec(value_strategy(), 0..6),
            prop::option::of(0usize..3)
        )
            .prop_map(|(values, count)| Op::Builder { values, count }),
        5 => target_strategy().prop_map(Op::Despawn),
        2 => prop::collection::vec(target_strategy(), 0..4).prop_map(Op::DespawnEntities),
        6 => (target_strategy(), value_strategy()).prop_map(|(t, v)| Op::Set(t, v)),
        4 => (target_strategy(), comp_strategy()).prop_map(|(t, c)| Op::Add(t, c)),
        5 => (target_strategy(), comp_strategy()).prop_map(|(t, c)| Op::Remove(t, c)),
        4 => (target_strategy(), mask_strategy()).prop_map(|(t, m)| Op::AddComponents(t, m)),
        4 => (target_strategy(), mask_strategy()).prop_map(|(t, m)| Op::RemoveComponents(t, m)),
        4 => (target_strategy(), tag_strategy()).prop_map(|(t, tag)| Op::AddTag(t, tag)),
        3 => (target_strategy(), tag_strategy()).prop_map(|(t, tag)| Op::RemoveTag(t, tag)),
        4 => (target_strategy(), value_strategy()).prop_map(|(t, v)| Op::Modify(t, v)),
        3 => (target_strategy(), value_strategy()).prop_map(|(t, v)| Op::GetMutWrite(t, v)),
        3 => (mask_strategy(), mask_strategy(), comp_strategy(), via_strategy()).prop_map(
            |(include, exclude, comp, via)| Op::Mutate { include, exclude, comp, via }
        ),
        1 => mask_strategy().prop_map(Op::WarmQuery),
        2 => (mask_strategy(), mask_strategy())
            .prop_map(|(include, exclude)| Op::Query { include, exclude }),
        2 => (mask_strategy(), 0usize..3).prop_map(|(mask, count)| Op::QueueSpawn(mask, count)),
        2 => (value_strategy(), mask_strategy()).prop_map(|(v, m)| Op::QueueSpawnBuilt(v, m)),
        1 => (0..SPAWN_VALUES_SHAPES.len(), 0usize..4, -50i32..50)
            .prop_map(|(shape, count, seed)| Op::QueueSpawnValues { shape, count, seed }),
        2 => target_strategy().prop_map(Op::QueueDespawn),
        2 => (target_strategy(), mask_strategy()).prop_map(|(t, m)| Op::QueueAddComponents(t, m)),
        2 => (target_strategy(), mask_strategy())
            .prop_map(|(t, m)| Op::QueueRemoveComponents(t, m)),
        2 => (target_strategy(), value_strategy()).prop_map(|(t, v)| Op::QueueSet(t, v)),
        2 => (target_strategy(), tag_strategy(), any::<bool>())
            .prop_map(|(t, tag, add)| Op::QueueTag(t, tag, add)),
        3 => Just(Op::ApplyCommands),
        1 => Just(Op::ClearCommands),
        3 => Just(Op::Step),
        2 => Just(Op::IncrementTick),
        2 => (target_strategy(), mask_strategy()).prop_map(|(t, m)| Op::MarkChanged(t, m)),
        2 => (mask_strategy(), mask_strategy(), prop_oneof![
            Just(Since::LastStep),
            (0usize..16).prop_map(Since::Remembered)
        ])
            .prop_map(|(include, exclude, since)| Op::Changed { include, exclude, since }),
        4 => (channel_strategy(), -5i32..5).prop_map(|(channel, value)| Op::Send(channel, value)),
        3 => (channel_strategy(), 0..CURSORS).prop_map(|(channel, k)| Op::Consume(channel, k)),
        1 => (channel_strategy(), 0..CURSORS, any::<bool>())
            .prop_map(|(channel, k, at_end)| Op::ResetCursor(channel, k, at_end)),
        1 => channel_strategy().prop_map(Op::ClearEvents),
        1 => (0usize..12).prop_map(Op::EnableChangeLog),
        1 => Just(Op::DisableChangeLog),
        2 => (0..CURSORS).prop_map(Op::ConsumeChanges),
        1 => (0..CURSORS, any::<bool>()).prop_map(|(k, at_end)| Op::ResetChangeCursor(k, at_end)),
        1 => (0usize..8).prop_map(Op::TrimChanges),
        3 => (mask_strategy(), mask_strategy(), comp_strategy())
            .prop_map(|(include, exclude, comp)| Op::TypedWrite {
                include,
                exclude,
                comp,
                optional: false
            }),
        1 => (mask_strategy(), mask_strategy(), comp_strategy())
            .prop_map(|(include, exclude, comp)| Op::TypedWrite {
                include,
                exclude,
                comp,
                optional: true
            }),
        2 => (mask_strategy(), mask_strategy(), comp_strategy())
            .prop_map(|(include, exclude, comp)| Op::TypedRead { include, exclude, comp }),
        1 => (-3i64..4).prop_map(Op::AddToCounter),
        1 => mask_strategy().prop_map(Op::SumHealthIntoCounter),
        1 => Just(Op::SaveClone),
        1 => Just(Op::Restore),
        1 => any::<bool>().prop_map(Op::Snapshot),
        1 => Just(Op::RunSchedule),
    ]
}

pub(crate) fn channel_strategy() -> impl Strategy<Value = Channel> {
    prop_oneof![Just(Channel::Hit), Just(Channel::Note)]
}

/// Number of `#[test]`s the random cases are split over.
pub(crate) const SHARES: u32 = 2;

/// The proptest configuration of one share: `ARCHETYPAL_MODEL_CASES` (default
/// [`DEFAULT_CASES`], never less) cases in all, split evenly over the [`SHARES`] tests.
pub(crate) fn config() -> Config {
    let cases = std::env::var("ARCHETYPAL_MODEL_CASES")
        .ok()
        .and_then(|value| value.trim().parse::<u32>().ok())
        .map_or(DEFAULT_CASES, |cases| cases.max(DEFAULT_CASES));
    Config {
        cases: cases.div_ceil(SHARES),
        failure_persistence: None,
        // ChaCha (the default) dominates the run time of an unoptimised test build.
        rng_algorithm: RngAlgorithm::XorShift,
        ..Config::default()
    }
}
