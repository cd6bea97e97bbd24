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
//! `PositionalDeserializer` (`read.rs`), which turns `deserialize_struct` into
//! `deserialize_tuple` the same way. Derived `Deserialize` impls read a struct from a sequence,
//! which is what non-self-describing formats rely on.
//!
//! What it asks of a component type, as postcard does: its fields are not skipped at save time
//! (`#[serde(skip_serializing_if)]` is refused with an error naming the field, since a missing
//! value would shift every later one), and a hand-written `Deserialize` that reads a struct
//! accepts a sequence (`visit_seq`), as derived ones do.

use core::fmt;

use serde::ser::{self, Serialize, Serializer};

pub(super) mod read;
#[cfg(test)]
mod tests;

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
