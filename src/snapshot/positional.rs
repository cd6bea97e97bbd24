//! The positional form of component values in a human-readable snapshot: every struct (and
//! struct variant) inside a column is written as the sequence of its fields' values, in
//! declaration order, as a binary format such as postcard already writes it.
//!
//! Why: a column repeats its component's field names once per row (`{"x":1.0,"y":2.0}` for
//! every entity), and writing, scanning and matching those names was a large share of a
//! snapshot's round trip through serde_json (`benches/`: `serialize_text`). A column is a
//! sequence of values of one type, so the names carry nothing its position does not
//! (`[1.0,2.0]`).
//!
//! How: the column is serialized through [`PositionalSerializer`], a serializer that forwards
//! everything to the format's own and turns `serialize_struct` into `serialize_tuple` (and
//! struct variants into tuple variants), wrapping every nested value alike; it is read through
//! [`PositionalDeserializer`], which turns `deserialize_struct` into `deserialize_tuple` the
//! same way. Derived `Deserialize` impls read a struct from a sequence, which is what
//! non-self-describing formats rely on.
//!
//! What it asks of a component type, as postcard does: its fields are not skipped at save time
//! (`#[serde(skip_serializing_if)]` is refused with an error naming the field, since a missing
//! value would shift every later one), and a hand-written `Deserialize` that reads a struct
//! accepts a sequence (`visit_seq`), as derived ones do.

use core::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, Visitor};
use serde::ser::{self, Serialize, Serializer};

/// A value to serialize in the positional form.
pub(super) struct Positional<'a, T: ?Sized>(pub(super) &'a T);

impl<T: Serialize + ?Sized> Serialize for Positional<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(PositionalSerializer(serializer))
    }
}

/// A format's serializer writing structs as sequences (see the module documentation).
pub(super) struct PositionalSerializer<S>(S);

/// One of the format's compound serializers, wrapping each element in [`Positional`].
pub(super) struct Compound<C>(C);

macro_rules! forward_serialize {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            #[inline]
            fn $method(self, $($arg: $ty),*) -> Result<S::Ok, S::Error> {
                self.0.$method($($arg),*)
            }
        )*
    };
}

impl<S: Serializer> Serializer for PositionalSerializer<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Compound<S::SerializeSeq>;
    type SerializeTuple = Compound<S::SerializeTuple>;
    type SerializeTupleStruct = Compound<S::SerializeTupleStruct>;
    type SerializeTupleVariant = Compound<S::SerializeTupleVariant>;
    type SerializeMap = Compound<S::SerializeMap>;
    type SerializeStruct = Compound<S::SerializeTuple>;
    type SerializeStructVariant = Compound<S::SerializeTupleVariant>;

    forward_serialize! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&Positional(value))
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, &Positional(value))
    }

    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, &Positional(value))
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.0.serialize_seq(len).map(Compound)
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len).map(Compound)
    }

    #[inline]
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, len).map(Compound)
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.0
            .serialize_tuple_variant(name, index, variant, len)
            .map(Compound)
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(Compound)
    }

    #[inline]
    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_tuple(len).map(Compound)
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0
            .serialize_tuple_variant(name, index, variant, len)
            .map(Compound)
    }

    #[inline]
    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.collect_str(value)
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// The format's compound serializers of sequences and tuples, each element wrapped in
/// [`Positional`].
macro_rules! forward_compound {
    ($($compound:ident::$method:ident;)*) => {
        $(
            impl<C: ser::$compound> ser::$compound for Compound<C> {
                type Ok = C::Ok;
                type Error = C::Error;

                #[inline]
                fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
                    self.0.$method(&Positional(value))
                }

                #[inline]
                fn end(self) -> Result<C::Ok, C::Error> {
                    self.0.end()
                }
            }
        )*
    };
}

forward_compound! {
    SerializeSeq::serialize_element;
    SerializeTuple::serialize_element;
    SerializeTupleStruct::serialize_field;
    SerializeTupleVariant::serialize_field;
}

impl<C: ser::SerializeMap> ser::SerializeMap for Compound<C> {
    type Ok = C::Ok;
    type Error = C::Error;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), C::Error> {
        self.0.serialize_key(&Positional(key))
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
        self.0.serialize_value(&Positional(value))
    }

    #[inline]
    fn end(self) -> Result<C::Ok, C::Error> {
        self.0.end()
    }
}

/// The error for a field skipped at save time: in a sequence, every later value would be read
/// into the wrong field.
fn skipped_field<E: ser::Error>(field: &str) -> E {
    E::custom(format_args!(
        "the field `{field}` of a component is skipped (`skip_serializing_if`), which a \
         snapshot's positional form cannot hold: every later field would shift"
    ))
}

/// The format's compound serializers of structs and struct variants, written as its tuples
/// and tuple variants: each field's value wrapped in [`Positional`], its name dropped, and a
/// skipped field refused.
macro_rules! forward_named_compound {
    ($($compound:ident as $positional:ident::$method:ident;)*) => {
        $(
            impl<C: ser::$positional> ser::$compound for Compound<C> {
                type Ok = C::Ok;
                type Error = C::Error;

                #[inline]
                fn serialize_field<T: Serialize + ?Sized>(
                    &mut self,
                    _key: &'static str,
                    value: &T,
                ) -> Result<(), C::Error> {
                    self.0.$method(&Positional(value))
                }

                fn skip_field(&mut self, key: &'static str) -> Result<(), C::Error> {
                    Err(skipped_field(key))
                }

                #[inline]
                fn end(self) -> Result<C::Ok, C::Error> {
                    self.0.end()
                }
            }
        )*
    };
}

forward_named_compound! {
    SerializeStruct as SerializeTuple::serialize_element;
    SerializeStructVariant as SerializeTupleVariant::serialize_field;
}

/// A value of `T` read in the positional form (any seed, wrapped).
pub(super) struct PositionalSeed<T>(pub(super) T);

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for PositionalSeed<T> {
    type Value = T::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T::Value, D::Error> {
        self.0.deserialize(PositionalDeserializer(deserializer))
    }
}

/// A format's deserializer reading structs as sequences (see the module documentation).
pub(super) struct PositionalDeserializer<D>(D);

/// A visitor, or one of the format's accessors, wrapping what it hands on.
pub(super) struct Wrapped<V>(V);

macro_rules! forward_deserialize {
    ($($method:ident$(($($arg:ident: $ty:ty),*))?;)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, $($($arg: $ty,)*)? visitor: V) -> Result<V::Value, D::Error> {
                self.0.$method($($($arg,)*)? Wrapped(visitor))
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for PositionalDeserializer<D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any;
        deserialize_bool;
        deserialize_i8;
        deserialize_i16;
        deserialize_i32;
        deserialize_i64;
        deserialize_i128;
        deserialize_u8;
        deserialize_u16;
        deserialize_u32;
        deserialize_u64;
        deserialize_u128;
        deserialize_f32;
        deserialize_f64;
        deserialize_char;
        deserialize_str;
        deserialize_string;
        deserialize_bytes;
        deserialize_byte_buf;
        deserialize_option;
        deserialize_unit;
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq;
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map;
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier;
        deserialize_ignored_any;
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(fields.len(), Wrapped(visitor))
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty);)*) => {
        $(
            #[inline]
            fn $method<E: de::Error>(self, value: $ty) -> Result<V::Value, E> {
                self.0.$method(value)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrapped<V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(formatter)
    }

    forward_visit! {
        visit_bool(bool);
        visit_i8(i8);
        visit_i16(i16);
        visit_i32(i32);
        visit_i64(i64);
        visit_i128(i128);
        visit_u8(u8);
        visit_u16(u16);
        visit_u32(u32);
        visit_u64(u64);
        visit_u128(u128);
        visit_f32(f32);
        visit_f64(f64);
        visit_char(char);
        visit_str(&str);
        visit_borrowed_str(&'de str);
        visit_string(alloc::string::String);
        visit_bytes(&[u8]);
        visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(alloc::vec::Vec<u8>);
    }

    #[inline]
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    #[inline]
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(PositionalDeserializer(deserializer))
    }

    #[inline]
    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<V::Value, D::Error> {
        self.0
            .visit_newtype_struct(PositionalDeserializer(deserializer))
    }

    #[inline]
    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Wrapped(seq))
    }

    #[inline]
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Wrapped(map))
    }

    #[inline]
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Wrapped(data))
    }
}

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for Wrapped<A> {
    type Error = A::Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(PositionalSeed(seed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Wrapped<A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(PositionalSeed(seed))
    }

    #[inline]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(PositionalSeed(seed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for Wrapped<A> {
    type Error = A::Error;
    type Variant = Wrapped<A::Variant>;

    #[inline]
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        self.0
            .variant_seed(PositionalSeed(seed))
            .map(|(value, variant)| (value, Wrapped(variant)))
    }
}

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for Wrapped<A> {
    type Error = A::Error;

    #[inline]
    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    #[inline]
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(PositionalSeed(seed))
    }

    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrapped(visitor))
    }

    /// A struct variant, read as the tuple variant of its fields' values.
    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(fields.len(), Wrapped(visitor))
    }
}

#[cfg(test)]
mod tests {
    use super::{Positional, PositionalSeed};
    use alloc::collections::BTreeMap;
    use alloc::string::{String, ToString};
    use alloc::vec;
    use alloc::vec::Vec;
    use core::marker::PhantomData;
    use serde::de::DeserializeSeed;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
    struct Point {
        x: f32,
        y: f32,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Wrapper(Point);

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum Shape {
        Dot,
        Circle { center: Point, radius: f32 },
        Line(Point, Point),
        Boxed(Point),
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Everything {
        name: String,
        wrapper: Wrapper,
        shapes: Vec<Shape>,
        maybe: Option<Point>,
        by_name: BTreeMap<String, Point>,
        pair: (Point, u8),
        unit: (),
    }

    fn everything() -> Everything {
        let point = |x: f32, y: f32| Point { x, y };
        Everything {
            name: "a \"name\"".to_string(),
            wrapper: Wrapper(point(1.0, 2.0)),
            shapes: vec![
                Shape::Dot,
                Shape::Circle {
                    center: point(3.0, 4.0),
                    radius: 0.5,
                },
                Shape::Line(point(5.0, 6.0), point(7.0, 8.0)),
                Shape::Boxed(point(9.0, 10.0)),
            ],
            maybe: Some(point(11.0, 12.0)),
            by_name: [("origin".to_string(), point(0.0, 0.0))].into(),
            pair: (point(13.0, 14.0), 15),
            unit: (),
        }
    }

    fn to_json<T: Serialize>(value: &T) -> String {
        serde_json::to_string(&Positional(value)).unwrap()
    }

    fn from_json<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, serde_json::Error> {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let value = PositionalSeed(PhantomData::<T>).deserialize(&mut deserializer)?;
        deserializer.end()?;
        Ok(value)
    }

    #[test]
    fn structs_at_every_depth_are_written_as_their_fields_values() {
        let text = to_json(&everything());
        assert_eq!(
            text,
            r#"["a \"name\"",[1.0,2.0],["Dot",{"Circle":[[3.0,4.0],0.5]},{"Line":[[5.0,6.0],[7.0,8.0]]},{"Boxed":[9.0,10.0]}],[11.0,12.0],{"origin":[0.0,0.0]},[[13.0,14.0],15],null]"#
        );
        assert_eq!(from_json::<Everything>(&text).unwrap(), everything());
    }

    #[test]
    fn the_named_form_is_refused_when_reading_the_positional_one() {
        let named = serde_json::to_string(&Point { x: 1.0, y: 2.0 }).unwrap();
        let error = from_json::<Point>(&named).unwrap_err().to_string();
        assert!(error.contains("invalid type: map"), "{error}");
        let error = from_json::<Point>("[1.0]").unwrap_err().to_string();
        assert!(error.contains("invalid length 1"), "{error}");
        assert!(from_json::<Point>("[1.0,2.0,3.0]").is_err());
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Flattened {
        id: u8,
        #[serde(flatten)]
        point: Point,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "kind")]
    enum Tagged {
        Empty,
        Full { point: Point, weight: u8 },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(untagged)]
    enum Untagged {
        Point(Point),
        Number(u8),
    }

    #[test]
    fn flattened_tagged_and_untagged_types_round_trip() {
        let point = Point { x: 1.0, y: 2.0 };
        let flattened = Flattened { id: 3, point };
        let text = to_json(&flattened);
        assert_eq!(text, r#"{"id":3,"x":1.0,"y":2.0}"#);
        assert_eq!(from_json::<Flattened>(&text).unwrap(), flattened);
        for tagged in [Tagged::Empty, Tagged::Full { point, weight: 4 }] {
            let text = to_json(&tagged);
            assert_eq!(from_json::<Tagged>(&text).unwrap(), tagged, "{text}");
        }
        assert_eq!(to_json(&Tagged::Empty), r#"["Empty"]"#);
        for untagged in [Untagged::Point(point), Untagged::Number(5)] {
            let text = to_json(&untagged);
            assert_eq!(from_json::<Untagged>(&text).unwrap(), untagged, "{text}");
        }
    }

    #[derive(Serialize)]
    struct Skipping {
        kept: u8,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
    }

    #[test]
    fn a_skipped_field_is_refused_by_name() {
        let present = Skipping {
            kept: 1,
            skipped: Some(2),
        };
        assert_eq!(to_json(&present), "[1,2]");
        let absent = Skipping {
            kept: 1,
            skipped: None,
        };
        let error = serde_json::to_string(&Positional(&absent))
            .unwrap_err()
            .to_string();
        assert!(error.contains("the field `skipped`"), "{error}");
    }
}
