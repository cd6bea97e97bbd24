//! Reading the maps under a snapshot's structs, each entry by name and checked as it is read: a
//! table (its entity ids first, then one column per component it holds), the tags, the
//! relations and the resources. An unknown name, or one given twice, is an error naming it; a
//! missing tag, relation or resource too.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::ids::IdsIn;
use super::layout::{DISABLED, ENTITIES};
use super::sequence::{ColumnSeed, Sequence};
use super::{
    DeserializeColumns, DeserializeResources, DeserializeSingletons, DeserializeTables,
    SnapshotSingletons, SnapshotTables,
};
use crate::archetype::Archetype;
use crate::mask::Bitmask;

/// One decoded table: its ids, the table (mask and columns, no entities yet), and the name and
/// length of each column read.
pub(crate) struct TableData<W: SnapshotTables> {
    /// The ids of the table's rows, in order.
    pub(crate) ids: Vec<u32>,
    /// The table, its entity column still empty.
    pub(crate) table: W::Table,
    /// Each column read: its component's name and its length.
    pub(crate) columns: Vec<(&'static str, usize)>,
}

impl<'de, W: DeserializeTables> Deserialize<'de> for TableData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(TableVisitor::<W>(PhantomData))
    }
}

/// The visitor of a table's map, for world or sub-world `W`.
struct TableVisitor<W>(PhantomData<fn() -> W>);

impl<'de, W: DeserializeTables> Visitor<'de> for TableVisitor<W> {
    type Value = TableData<W>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a table: a map of its `entities` ids and one column per component")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut table = <W::Table as Archetype>::new(Bitmask::EMPTY);
        let mut ids = None;
        let mut columns = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == ENTITIES {
                if ids.is_some() {
                    return Err(de::Error::duplicate_field(ENTITIES));
                }
                ids = Some(map.next_value::<IdsIn>()?.0);
                continue;
            }
            if key == DISABLED {
                // Before any column: the table is made again with the bit, and empty.
                if !columns.is_empty() || table.mask().contains(Bitmask::DISABLED) {
                    return Err(de::Error::custom(format_args!(
                        "the `{DISABLED}` entry of a table comes once, before its columns"
                    )));
                }
                if map.next_value::<bool>()? {
                    table = <W::Table as Archetype>::new(Bitmask::DISABLED);
                }
                continue;
            }
            // The column is read against the table's length, so `entities` must come first
            // (as `snapshot()` writes it): a column can then never outgrow its table.
            let Some(rows) = ids.as_ref().map(Vec::len) else {
                return Err(de::Error::custom(format_args!(
                    "the `{key}` entry of a table comes before its `entities`"
                )));
            };
            let Some(&(name, bit)) = W::COMPONENTS.iter().find(|(name, _)| *name == key) else {
                let names: Vec<&str> = W::COMPONENTS.iter().map(|(name, _)| *name).collect();
                return Err(de::Error::custom(format_args!(
                    "unknown component `{key}` (this world's components: {})",
                    names.join(", ")
                )));
            };
            if table.mask().contains(bit) {
                return Err(de::Error::custom(format_args!(
                    "the `{name}` column appears twice in one table"
                )));
            }
            let column = ColumnIn {
                map: &mut map,
                bit,
                name,
                rows,
                lengths: &mut columns,
            };
            <W as DeserializeColumns<'de>>::deserialize_column(&mut table, column)?;
        }
        let ids = ids.ok_or_else(|| de::Error::missing_field(ENTITIES))?;
        Ok(TableData {
            ids,
            table,
            columns,
        })
    }
}

/// A column of a table being read, as handed to the generated `deserialize_column`, which
/// picks the table's column by the component's mask bit (`bit()`) and reads it (`read`).
pub struct ColumnIn<'a, A, K> {
    map: &'a mut A,
    bit: K,
    name: &'static str,
    rows: usize,
    lengths: &'a mut Vec<(&'static str, usize)>,
}

impl<A, K: Copy> ColumnIn<'_, A, K> {
    /// The component's mask bit.
    #[inline]
    pub fn bit(&self) -> K {
        self.bit
    }

    /// Reads the column into `values`: refused as soon as it holds more values than its
    /// table's entities (a declared length beyond them is refused before any value is read),
    /// its allocation growing with the values read, never with a declared length.
    #[inline]
    pub fn read<'de, C: Deserialize<'de>>(self, values: &mut Vec<C>) -> Result<(), A::Error>
    where
        A: MapAccess<'de>,
    {
        *values = self.map.next_value_seed(ColumnSeed {
            rows: self.rows,
            name: self.name,
            marker: PhantomData,
        })?;
        self.lengths.push((self.name, values.len()));
        Ok(())
    }
}

/// Every tag's name, mask and member ids.
pub(crate) type TagList<M> = Vec<(&'static str, M, Vec<u32>)>;

/// Every relation's name, mask and `(source id, target id)` links.
pub(crate) type RelationList<M> = Vec<(&'static str, M, Vec<(u32, u32)>)>;

/// Every tag's member ids, read by name.
pub(crate) struct TagsData<W: SnapshotTables>(pub(crate) TagList<<W::Table as Archetype>::Mask>);

impl<'de, W: DeserializeTables> Deserialize<'de> for TagsData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let tags = deserializer.deserialize_map(NamedVisitor::<_, IdsIn>::new("tag", W::TAGS))?;
        let tags = tags
            .into_iter()
            .map(|(name, mask, ids)| (name, mask, ids.0));
        Ok(TagsData(tags.collect()))
    }
}

/// Every relation's `[source id, target id]` links, read by name.
pub(crate) struct RelationsData<W: SnapshotTables>(
    pub(crate) RelationList<<W::Table as Archetype>::Mask>,
);

impl<'de, W: DeserializeTables> Deserialize<'de> for RelationsData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let visitor = NamedVisitor::<_, Sequence<(u32, u32)>>::new("relation", W::RELATIONS);
        let relations = deserializer.deserialize_map(visitor)?;
        let relations = relations.into_iter();
        Ok(RelationsData(
            relations
                .map(|(name, mask, links)| (name, mask, links.0))
                .collect(),
        ))
    }
}

/// Reads a map of one `T` per name of `names` (a tag's or a relation's, with its mask), every
/// name exactly once, into a list in the order of `names`.
struct NamedVisitor<M: 'static, T> {
    /// What the names name (`"tag"`), for the errors.
    what: &'static str,
    names: &'static [(&'static str, M)],
    marker: PhantomData<fn() -> T>,
}

impl<M, T> NamedVisitor<M, T> {
    fn new(what: &'static str, names: &'static [(&'static str, M)]) -> Self {
        NamedVisitor {
            what,
            names,
            marker: PhantomData,
        }
    }
}

impl<'de, M: Copy, T: Deserialize<'de>> Visitor<'de> for NamedVisitor<M, T> {
    type Value = Vec<(&'static str, M, T)>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "a map of each {}'s value, by name", self.what)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (what, names) = (self.what, self.names);
        let mut values: Vec<Option<T>> = names.iter().map(|_| None).collect();
        while let Some(key) = map.next_key::<String>()? {
            let Some(index) = names.iter().position(|(name, _)| *name == key) else {
                let names: Vec<&str> = names.iter().map(|(name, _)| *name).collect();
                return Err(de::Error::custom(format_args!(
                    "unknown {what} `{key}` (this world's {what}s: {})",
                    names.join(", ")
                )));
            };
            if values[index].is_some() {
                return Err(de::Error::custom(format_args!(
                    "the {what} `{key}` appears twice"
                )));
            }
            values[index] = Some(map.next_value()?);
        }
        let mut list = Vec::with_capacity(names.len());
        for (&(name, mask), value) in names.iter().zip(values) {
            let value = value.ok_or_else(|| {
                de::Error::custom(format_args!("the snapshot has no `{name}` {what}"))
            })?;
            list.push((name, mask, value));
        }
        Ok(list)
    }
}

/// The resources of a world or game, read by name: every resource exactly once.
pub(crate) struct ResourcesData<W: SnapshotSingletons>(pub(crate) W::Resources);

impl<'de, W: DeserializeSingletons> Deserialize<'de> for ResourcesData<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ResourcesVisitor::<W>(PhantomData))
    }
}

/// The visitor of the resources' map, for world or game `W`.
struct ResourcesVisitor<W>(PhantomData<fn() -> W>);

impl<'de, W: DeserializeSingletons> Visitor<'de> for ResourcesVisitor<W> {
    type Value = ResourcesData<W>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("the resources: a map of each resource's value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let names = W::RESOURCE_NAMES;
        let mut seen = vec![false; names.len()];
        let mut resources = W::Resources::default();
        while let Some(key) = map.next_key::<String>()? {
            let Some(index) = names.iter().position(|name| *name == key) else {
                return Err(de::Error::custom(format_args!(
                    "unknown resource `{key}` (this world's resources: {})",
                    names.join(", ")
                )));
            };
            if core::mem::replace(&mut seen[index], true) {
                return Err(de::Error::custom(format_args!(
                    "the resource `{key}` appears twice"
                )));
            }
            let resource = ResourceIn {
                map: &mut map,
                name: names[index],
            };
            <W as DeserializeResources<'de>>::deserialize_resource(&mut resources, resource)?;
        }
        if let Some(index) = seen.iter().position(|seen| !seen) {
            return Err(de::Error::custom(format_args!(
                "the snapshot has no `{}` resource",
                names[index]
            )));
        }
        Ok(ResourcesData(resources))
    }
}

/// A resource being read, as handed to the generated `deserialize_resource`, which picks it by
/// name (`name()`) and reads its value (`read`).
pub struct ResourceIn<'a, A> {
    map: &'a mut A,
    name: &'static str,
}

impl<A> ResourceIn<'_, A> {
    /// The resource's name.
    #[inline]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Reads the resource's value into `value`.
    #[inline]
    pub fn read<'de, R: Deserialize<'de>>(self, value: &mut R) -> Result<(), A::Error>
    where
        A: MapAccess<'de>,
    {
        *value = self.map.next_value()?;
        Ok(())
    }
}
