//! The bytes a [`SavedLocal`](crate::SavedLocal) is saved as (feature `serde`): a fixed binary
//! encoding of any serde value, so a snapshot in any format carries it and a load reads it back
//! without knowing its type (the type is known only at the system's next run, which decodes it).
//!
//! The rules, fixed (a checksum hashes these bytes): `bool` is one byte (0 or 1); integers,
//! `f32`, `f64` (their bit patterns) and `char` (its code point, as a `u32`) are their bytes,
//! little endian, at their own width; a string or byte string, a sequence and a map are their
//! length as a `u64`, then their bytes or elements (a map's key, then value, per entry); `None`
//! is 0, `Some(v)` is 1 then `v`; an enum variant is its index as a `u32`, then its fields; a
//! tuple, a struct (no names) and a newtype are their fields in order; a unit is nothing. Like
//! postcard, the encoding does not describe itself: a type whose `Deserialize` asks the format
//! what comes next (`deserialize_any`: untagged enums, `serde_json::Value`) cannot be decoded,
//! nor can a field skipped at save time (`skip_serializing_if`).
//!
//! Decoding trusts nothing: a length is only a claim and never sizes an allocation past the
//! bytes left, and a value holds at most [`ELEMENT_BUDGET`] elements more than it has bytes (so
//! a claimed length of zero-sized elements, `Vec<()>`, cannot make a load spin).

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};

/// Why a value could not be encoded or decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CodecError(String);

impl fmt::Display for CodecError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.0)
    }
}

impl core::error::Error for CodecError {}

impl ser::Error for CodecError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        CodecError(message.to_string())
    }
}

impl de::Error for CodecError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        CodecError(message.to_string())
    }
}

/// How many elements of sequences and maps a value may hold beyond one per byte of it: zero-sized
/// elements take no bytes, so without a bound a claimed length would be a loop of that length.
pub(crate) const ELEMENT_BUDGET: usize = 1 << 16;

/// `value`'s bytes.
pub(crate) fn encode<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, CodecError> {
    let mut encoder = Encoder(Vec::new());
    value.serialize(&mut encoder)?;
    Ok(encoder.0)
}

/// The value of type `T` that `bytes` hold, all of them.
pub(crate) fn decode<T: de::DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    let mut decoder = Decoder {
        bytes,
        budget: bytes.len() + ELEMENT_BUDGET,
    };
    let value = T::deserialize(&mut decoder)?;
    match decoder.bytes.is_empty() {
        true => Ok(value),
        false => Err(CodecError("bytes left after the value".to_string())),
    }
}

/// Writes a value's bytes.
struct Encoder(Vec<u8>);

impl Encoder {
    fn length(&mut self, length: usize) {
        self.0.extend_from_slice(&(length as u64).to_le_bytes());
    }
}

/// The serializer methods of values written as their little-endian bytes.
macro_rules! encode_numbers {
    ($($method:ident($type:ty)),* $(,)?) => {$(
        fn $method(self, value: $type) -> Result<(), CodecError> {
            self.0.extend_from_slice(&value.to_le_bytes());
            Ok(())
        }
    )*};
}

impl<'a> ser::Serializer for &'a mut Encoder {
    type Ok = ();
    type Error = CodecError;
    type SerializeSeq = Counted<'a>;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Counted<'a>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    encode_numbers!(
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
    );

    fn serialize_bool(self, value: bool) -> Result<(), CodecError> {
        self.0.push(u8::from(value));
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result<(), CodecError> {
        self.serialize_u32(u32::from(value))
    }

    fn serialize_str(self, value: &str) -> Result<(), CodecError> {
        self.serialize_bytes(value.as_bytes())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), CodecError> {
        self.length(value.len());
        self.0.extend_from_slice(value);
        Ok(())
    }

    fn serialize_none(self) -> Result<(), CodecError> {
        self.0.push(0);
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), CodecError> {
        self.0.push(1);
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), CodecError> {
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), CodecError> {
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
    ) -> Result<(), CodecError> {
        self.serialize_u32(index)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), CodecError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        value: &T,
    ) -> Result<(), CodecError> {
        self.serialize_u32(index)?;
        value.serialize(self)
    }

    fn serialize_seq(self, _length: Option<usize>) -> Result<Counted<'a>, CodecError> {
        Ok(Counted::start(self))
    }

    fn serialize_tuple(self, _length: usize) -> Result<Self, CodecError> {
        Ok(self)
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _length: usize,
    ) -> Result<Self, CodecError> {
        Ok(self)
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        _length: usize,
    ) -> Result<Self, CodecError> {
        self.serialize_u32(index)?;
        Ok(self)
    }

    fn serialize_map(self, _length: Option<usize>) -> Result<Counted<'a>, CodecError> {
        Ok(Counted::start(self))
    }

    fn serialize_struct(self, _name: &'static str, _length: usize) -> Result<Self, CodecError> {
        Ok(self)
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        _variant: &'static str,
        _length: usize,
    ) -> Result<Self, CodecError> {
        self.serialize_u32(index)?;
        Ok(self)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// A sequence or map being written: its length's place is filled in at its end (serde need not
/// know it up front).
struct Counted<'a> {
    encoder: &'a mut Encoder,
    at: usize,
    count: usize,
}

impl<'a> Counted<'a> {
    fn start(encoder: &'a mut Encoder) -> Self {
        let at = encoder.0.len();
        encoder.length(0);
        Counted {
            encoder,
            at,
            count: 0,
        }
    }

    fn end(self) -> Result<(), CodecError> {
        let length = (self.count as u64).to_le_bytes();
        self.encoder.0[self.at..self.at + 8].copy_from_slice(&length);
        Ok(())
    }
}

impl ser::SerializeSeq for Counted<'_> {
    type Ok = ();
    type Error = CodecError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CodecError> {
        self.count += 1;
        value.serialize(&mut *self.encoder)
    }

    fn end(self) -> Result<(), CodecError> {
        Counted::end(self)
    }
}

impl ser::SerializeMap for Counted<'_> {
    type Ok = ();
    type Error = CodecError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), CodecError> {
        self.count += 1;
        key.serialize(&mut *self.encoder)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CodecError> {
        value.serialize(&mut *self.encoder)
    }

    fn end(self) -> Result<(), CodecError> {
        Counted::end(self)
    }
}

/// The compound forms whose fields are written in order, with nothing around them.
macro_rules! encode_fields {
    ($($trait:ident::$method:ident),* $(,)?) => {$(
        impl ser::$trait for &mut Encoder {
            type Ok = ();
            type Error = CodecError;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CodecError> {
                value.serialize(&mut **self)
            }

            fn end(self) -> Result<(), CodecError> {
                Ok(())
            }
        }
    )*};
}

encode_fields!(
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);

impl ser::SerializeStruct for &mut Encoder {
    type Ok = ();
    type Error = CodecError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), CodecError> {
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), CodecError> {
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Encoder {
    type Ok = ();
    type Error = CodecError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), CodecError> {
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), CodecError> {
        Ok(())
    }
}

/// Reads a value from the bytes left, with how many more elements it may read.
struct Decoder<'b> {
    bytes: &'b [u8],
    budget: usize,
}

impl<'b> Decoder<'b> {
    /// The next `count` bytes, or an error if fewer are left.
    fn take(&mut self, count: usize) -> Result<&'b [u8], CodecError> {
        if count > self.bytes.len() {
            return Err(CodecError("the bytes end inside a value".to_string()));
        }
        let (taken, rest) = self.bytes.split_at(count);
        self.bytes = rest;
        Ok(taken)
    }

    /// Counts one more element of a sequence or map against the budget.
    fn element(&mut self) -> Result<(), CodecError> {
        self.budget = self.budget.checked_sub(1).ok_or(CodecError(
            "more elements than the bytes can hold".to_string(),
        ))?;
        Ok(())
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], CodecError> {
        let mut array = [0; N];
        array.copy_from_slice(self.take(N)?);
        Ok(array)
    }

    /// A length: a claim, which sizes nothing (see [`Elements::size_hint`]).
    fn length(&mut self) -> Result<usize, CodecError> {
        usize::try_from(u64::from_le_bytes(self.array()?))
            .map_err(|_| CodecError("a length past this machine's".to_string()))
    }

    fn bytes(&mut self) -> Result<&'b [u8], CodecError> {
        let length = self.length()?;
        self.take(length)
    }

    fn str(&mut self) -> Result<&'b str, CodecError> {
        core::str::from_utf8(self.bytes()?)
            .map_err(|_| CodecError("a string not UTF-8".to_string()))
    }
}

/// The deserializer methods of values read from their little-endian bytes.
macro_rules! decode_numbers {
    ($($method:ident($type:ty) => $visit:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
            visitor.$visit(<$type>::from_le_bytes(self.array()?))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Decoder<'de> {
    type Error = CodecError;

    decode_numbers!(
        deserialize_i8(i8) => visit_i8, deserialize_i16(i16) => visit_i16,
        deserialize_i32(i32) => visit_i32, deserialize_i64(i64) => visit_i64,
        deserialize_i128(i128) => visit_i128, deserialize_u8(u8) => visit_u8,
        deserialize_u16(u16) => visit_u16, deserialize_u32(u32) => visit_u32,
        deserialize_u64(u64) => visit_u64, deserialize_u128(u128) => visit_u128,
        deserialize_f32(f32) => visit_f32, deserialize_f64(f64) => visit_f64,
    );

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, CodecError> {
        Err(CodecError(
            "a saved local's type must not ask what comes next (`deserialize_any`)".to_string(),
        ))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        match self.array::<1>()? {
            [0] => visitor.visit_bool(false),
            [1] => visitor.visit_bool(true),
            _ => Err(CodecError("a bool neither 0 nor 1".to_string())),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        let code = u32::from_le_bytes(self.array()?);
        let value = char::from_u32(code).ok_or(CodecError("not a char".to_string()))?;
        visitor.visit_char(value)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        visitor.visit_borrowed_str(self.str()?)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        visitor.visit_borrowed_bytes(self.bytes()?)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        match self.array::<1>()? {
            [0] => visitor.visit_none(),
            [1] => visitor.visit_some(self),
            _ => Err(CodecError("an option neither 0 nor 1".to_string())),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, CodecError> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, CodecError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        let left = self.length()?;
        visitor.visit_seq(Elements {
            decoder: self,
            left,
        })
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        length: usize,
        visitor: V,
    ) -> Result<V::Value, CodecError> {
        visitor.visit_seq(Elements {
            decoder: self,
            left: length,
        })
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        length: usize,
        visitor: V,
    ) -> Result<V::Value, CodecError> {
        self.deserialize_tuple(length, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        let left = self.length()?;
        visitor.visit_map(Elements {
            decoder: self,
            left,
        })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, CodecError> {
        self.deserialize_tuple(fields.len(), visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, CodecError> {
        visitor.visit_enum(self)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        self.deserialize_u32(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, CodecError> {
        self.deserialize_any(visitor)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The elements of a sequence, tuple or map left to read.
struct Elements<'a, 'de> {
    decoder: &'a mut Decoder<'de>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Elements<'_, 'de> {
    type Error = CodecError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, CodecError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.decoder.element()?;
        seed.deserialize(&mut *self.decoder).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        // A claim: at most one element per byte left, so it never sizes past the input.
        Some(self.left.min(self.decoder.bytes.len()))
    }
}

impl<'de> de::MapAccess<'de> for Elements<'_, 'de> {
    type Error = CodecError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, CodecError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.decoder.element()?;
        seed.deserialize(&mut *self.decoder).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, CodecError> {
        seed.deserialize(&mut *self.decoder)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left.min(self.decoder.bytes.len()))
    }
}

impl<'de> de::EnumAccess<'de> for &mut Decoder<'de> {
    type Error = CodecError;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self), CodecError> {
        let index = u32::from_le_bytes(self.array()?);
        let variant = seed.deserialize(index.into_deserializer())?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for &mut Decoder<'de> {
    type Error = CodecError;

    fn unit_variant(self) -> Result<(), CodecError> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, CodecError> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        length: usize,
        visitor: V,
    ) -> Result<V::Value, CodecError> {
        de::Deserializer::deserialize_tuple(self, length, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, CodecError> {
        de::Deserializer::deserialize_tuple(self, fields.len(), visitor)
    }
}

#[cfg(test)]
mod tests;
