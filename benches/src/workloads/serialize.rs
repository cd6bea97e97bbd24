//! `serialize_text` and `serialize_binary` (ecs_bench_suite's serialize workloads): 1,000
//! entities with Transform, Position, Rotation and Velocity, serialized, then deserialized into a
//! new world. Text is JSON (serde_json), binary is postcard (the suite used RON and bincode;
//! the shape of the work is the same). The world that is saved is built in setup; the timed
//! pass is saving it and loading the copy, and the checksum reads the loaded world.
//!
//! archetypal saves `world.snapshot()` (its tables as columns, with the allocator state) and
//! loads with `World: Deserialize` (which checks the whole snapshot). hecs has two serializers,
//! both shown: row-major (`serialize::row`, an entity at a time, a map of its components) and
//! column-major (`serialize::column`, an archetype at a time). The `Vec` row serializes the four
//! columns of the plain-`Vec` baseline: the cost of the data alone.
//!
//! In JSON the shapes differ: archetypal's snapshot (since format 4) writes each struct in a column
//! as its fields' values in order (`[1.0,2.0,3.0]`), while hecs and the `Vec` row write serde's
//! named form (`{"x":1.0,"y":2.0,"z":3.0}`), so archetypal's lead in serialize_text is mostly
//! that shape: the same values with no field names to write, scan and match.

use hecs::serialize::{column, row};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::components::{Position, Rotation, Transform, Velocity};
use crate::worlds::{SimpleVecs, archetypal_simple, simple_checksum, spawn_simple};
use crate::{Contender, Kind, Pass, Workload};

/// Number of entities saved and loaded (ecs_bench_suite's size).
pub const SERIALIZE_ENTITIES: usize = 1_000;

/// `serialize_text`: JSON.
pub fn text_workload() -> Workload {
    Workload {
        name: "serialize_text",
        description: "save 1,000 entities (Transform, Position, Rotation, Velocity) as JSON, load them into a new world",
        contenders: contenders::<Json>(),
    }
}

/// `serialize_binary`: postcard.
pub fn binary_workload() -> Workload {
    Workload {
        name: "serialize_binary",
        description: "save 1,000 entities (Transform, Position, Rotation, Velocity) with postcard, load them into a new world",
        contenders: contenders::<Postcard>(),
    }
}

fn contenders<F: Format>() -> Vec<Contender> {
    vec![
        Contender {
            name: "archetypal",
            api: "world.snapshot(); World: Deserialize",
            kind: Kind::Archetypal,
            setup: || Box::new(RoundTrip::<F, archetypal_simple::World>::new()),
        },
        Contender {
            name: "hecs row",
            api: "serialize::row (feature row-serialize)",
            kind: Kind::Peer,
            setup: || Box::new(RoundTrip::<F, HecsRow>::new()),
        },
        Contender {
            name: "hecs column",
            api: "serialize::column (feature column-serialize)",
            kind: Kind::Peer,
            setup: || Box::new(RoundTrip::<F, HecsColumn>::new()),
        },
        Contender {
            name: "Vec",
            api: "serde on 4 Vecs",
            kind: Kind::Baseline,
            setup: || Box::new(RoundTrip::<F, Columns>::new()),
        },
    ]
}

/// A serde format: encode a value, decode one.
trait Format: 'static {
    type Encoded;
    fn encode<T: Serialize>(value: &T) -> Self::Encoded;
    fn decode<T: for<'de> Deserialize<'de>>(encoded: &Self::Encoded) -> T;
}

/// serde_json, to a `String`.
struct Json;

impl Format for Json {
    type Encoded = String;
    fn encode<T: Serialize>(value: &T) -> String {
        serde_json::to_string(value).expect("JSON encoding")
    }
    fn decode<T: for<'de> Deserialize<'de>>(encoded: &String) -> T {
        serde_json::from_str(encoded).expect("JSON decoding")
    }
}

/// postcard, to a `Vec<u8>`.
struct Postcard;

impl Format for Postcard {
    type Encoded = Vec<u8>;
    fn encode<T: Serialize>(value: &T) -> Vec<u8> {
        postcard::to_allocvec(value).expect("postcard encoding")
    }
    fn decode<T: for<'de> Deserialize<'de>>(encoded: &Vec<u8>) -> T {
        postcard::from_bytes(encoded).expect("postcard decoding")
    }
}

/// A contender's world: built with the simple values, saved, loaded, checksummed.
trait Saved: Serialize + for<'de> Deserialize<'de> + 'static {
    fn build() -> Self;
    fn checksum(&self) -> u64;
}

/// The saved world and the last pass's loaded copy.
struct RoundTrip<F, W> {
    world: W,
    loaded: Option<W>,
    format: std::marker::PhantomData<F>,
}

impl<F: Format, W: Saved> RoundTrip<F, W> {
    fn new() -> Self {
        RoundTrip {
            world: W::build(),
            loaded: None,
            format: std::marker::PhantomData,
        }
    }
}

impl<F: Format, W: Saved> Pass for RoundTrip<F, W> {
    fn run(&mut self) {
        // Drop the previous copy first, so every pass allocates alike.
        self.loaded = None;
        let encoded = F::encode(&self.world);
        self.loaded = Some(F::decode(&encoded));
    }
    fn checksum(&mut self) -> u64 {
        self.loaded.as_ref().expect("run first").checksum()
    }
}

impl Saved for archetypal_simple::World {
    fn build() -> Self {
        let mut world = archetypal_simple::World::new();
        spawn_simple::archetypal(&mut world, SERIALIZE_ENTITIES);
        world
    }
    fn checksum(&self) -> u64 {
        simple_checksum::archetypal(self)
    }
}

/// The id of each component in hecs's serialized forms.
#[derive(Clone, Copy, Serialize, Deserialize)]
enum ComponentId {
    Transform,
    Position,
    Rotation,
    Velocity,
}

/// hecs's world, saved row by row.
struct HecsRow(hecs::World);

/// hecs's world, saved column by column.
struct HecsColumn(hecs::World);

fn hecs_world() -> hecs::World {
    let mut world = hecs::World::new();
    spawn_simple::hecs(&mut world, SERIALIZE_ENTITIES);
    world
}

/// hecs's serialization contexts (both formats): the four components, by [`ComponentId`].
#[derive(Default)]
struct HecsContext {
    /// The component ids of the archetype being loaded (column format).
    components: Vec<ComponentId>,
}

impl row::SerializeContext for HecsContext {
    fn serialize_entity<S: serde::ser::SerializeMap>(
        &mut self,
        entity: hecs::EntityRef<'_>,
        mut map: S,
    ) -> Result<S::Ok, S::Error> {
        row::try_serialize::<Transform, _, _>(&entity, &ComponentId::Transform, &mut map)?;
        row::try_serialize::<Position, _, _>(&entity, &ComponentId::Position, &mut map)?;
        row::try_serialize::<Rotation, _, _>(&entity, &ComponentId::Rotation, &mut map)?;
        row::try_serialize::<Velocity, _, _>(&entity, &ComponentId::Velocity, &mut map)?;
        map.end()
    }

    // postcard needs every map's length up front.
    fn component_count(&self, entity: hecs::EntityRef<'_>) -> Option<usize> {
        let present = [
            entity.has::<Transform>(),
            entity.has::<Position>(),
            entity.has::<Rotation>(),
            entity.has::<Velocity>(),
        ];
        Some(present.into_iter().filter(|&has| has).count())
    }
}

impl row::DeserializeContext for HecsContext {
    fn deserialize_entity<'de, M: serde::de::MapAccess<'de>>(
        &mut self,
        mut map: M,
        entity: &mut hecs::EntityBuilder,
    ) -> Result<(), M::Error> {
        while let Some(id) = map.next_key()? {
            match id {
                ComponentId::Transform => entity.add::<Transform>(map.next_value()?),
                ComponentId::Position => entity.add::<Position>(map.next_value()?),
                ComponentId::Rotation => entity.add::<Rotation>(map.next_value()?),
                ComponentId::Velocity => entity.add::<Velocity>(map.next_value()?),
            };
        }
        Ok(())
    }
}

impl HecsContext {
    /// The ids of the four components `archetype` holds, in a fixed order.
    fn ids(archetype: &hecs::Archetype) -> Vec<ComponentId> {
        let mut ids = Vec::with_capacity(4);
        if archetype.has::<Transform>() {
            ids.push(ComponentId::Transform);
        }
        if archetype.has::<Position>() {
            ids.push(ComponentId::Position);
        }
        if archetype.has::<Rotation>() {
            ids.push(ComponentId::Rotation);
        }
        if archetype.has::<Velocity>() {
            ids.push(ComponentId::Velocity);
        }
        ids
    }
}

impl column::SerializeContext for HecsContext {
    fn component_count(&self, archetype: &hecs::Archetype) -> usize {
        Self::ids(archetype).len()
    }

    fn serialize_component_ids<S: serde::ser::SerializeTuple>(
        &mut self,
        archetype: &hecs::Archetype,
        mut out: S,
    ) -> Result<S::Ok, S::Error> {
        column::try_serialize_id::<Transform, _, _>(archetype, &ComponentId::Transform, &mut out)?;
        column::try_serialize_id::<Position, _, _>(archetype, &ComponentId::Position, &mut out)?;
        column::try_serialize_id::<Rotation, _, _>(archetype, &ComponentId::Rotation, &mut out)?;
        column::try_serialize_id::<Velocity, _, _>(archetype, &ComponentId::Velocity, &mut out)?;
        out.end()
    }

    fn serialize_components<S: serde::ser::SerializeTuple>(
        &mut self,
        archetype: &hecs::Archetype,
        mut out: S,
    ) -> Result<S::Ok, S::Error> {
        column::try_serialize::<Transform, _>(archetype, &mut out)?;
        column::try_serialize::<Position, _>(archetype, &mut out)?;
        column::try_serialize::<Rotation, _>(archetype, &mut out)?;
        column::try_serialize::<Velocity, _>(archetype, &mut out)?;
        out.end()
    }
}

impl column::DeserializeContext for HecsContext {
    fn deserialize_component_ids<'de, A: serde::de::SeqAccess<'de>>(
        &mut self,
        mut seq: A,
    ) -> Result<hecs::ColumnBatchType, A::Error> {
        self.components.clear();
        let mut batch = hecs::ColumnBatchType::new();
        while let Some(id) = seq.next_element()? {
            match id {
                ComponentId::Transform => batch.add::<Transform>(),
                ComponentId::Position => batch.add::<Position>(),
                ComponentId::Rotation => batch.add::<Rotation>(),
                ComponentId::Velocity => batch.add::<Velocity>(),
            };
            self.components.push(id);
        }
        Ok(batch)
    }

    fn deserialize_components<'de, A: serde::de::SeqAccess<'de>>(
        &mut self,
        entity_count: u32,
        mut seq: A,
        batch: &mut hecs::ColumnBatchBuilder,
    ) -> Result<(), A::Error> {
        for &id in &self.components {
            match id {
                ComponentId::Transform => {
                    column::deserialize_column::<Transform, _>(entity_count, &mut seq, batch)?
                }
                ComponentId::Position => {
                    column::deserialize_column::<Position, _>(entity_count, &mut seq, batch)?
                }
                ComponentId::Rotation => {
                    column::deserialize_column::<Rotation, _>(entity_count, &mut seq, batch)?
                }
                ComponentId::Velocity => {
                    column::deserialize_column::<Velocity, _>(entity_count, &mut seq, batch)?
                }
            }
        }
        Ok(())
    }
}

impl Serialize for HecsRow {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        row::serialize(&self.0, &mut HecsContext::default(), serializer)
    }
}

impl<'de> Deserialize<'de> for HecsRow {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        row::deserialize(&mut HecsContext::default(), deserializer).map(HecsRow)
    }
}

impl Saved for HecsRow {
    fn build() -> Self {
        HecsRow(hecs_world())
    }
    fn checksum(&self) -> u64 {
        simple_checksum::hecs(&self.0)
    }
}

impl Serialize for HecsColumn {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        column::serialize(&self.0, &mut HecsContext::default(), serializer)
    }
}

impl<'de> Deserialize<'de> for HecsColumn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        column::deserialize(&mut HecsContext::default(), deserializer).map(HecsColumn)
    }
}

impl Saved for HecsColumn {
    fn build() -> Self {
        HecsColumn(hecs_world())
    }
    fn checksum(&self) -> u64 {
        simple_checksum::hecs(&self.0)
    }
}

/// The plain-`Vec` baseline's four columns, derived `Serialize` / `Deserialize`.
#[derive(Serialize, Deserialize)]
struct Columns {
    transforms: Vec<Transform>,
    positions: Vec<Position>,
    rotations: Vec<Rotation>,
    velocities: Vec<Velocity>,
}

impl Saved for Columns {
    fn build() -> Self {
        let SimpleVecs {
            transforms,
            positions,
            rotations,
            velocities,
        } = SimpleVecs::new(SERIALIZE_ENTITIES);
        Columns {
            transforms,
            positions,
            rotations,
            velocities,
        }
    }
    fn checksum(&self) -> u64 {
        simple_checksum::vecs(&SimpleVecs {
            transforms: self.transforms.clone(),
            positions: self.positions.clone(),
            rotations: self.rotations.clone(),
            velocities: self.velocities.clone(),
        })
    }
}
