//! The codec's round trips, its documented bytes and its refusals.

use super::*;
use alloc::collections::BTreeMap;
use alloc::vec;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Shape {
    Point,
    Circle(f32),
    Box { width: u16, height: i64 },
    Pair(i8, char),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Grid {
    cells: Vec<Option<u32>>,
    names: BTreeMap<String, (bool, u128)>,
    shapes: Vec<Shape>,
    unit: (),
    bytes: Vec<u8>,
}

fn grid() -> Grid {
    Grid {
        cells: vec![Some(3), None, Some(u32::MAX)],
        names: [
            ("a".to_string(), (true, 7)),
            ("é".to_string(), (false, u128::MAX)),
        ]
        .into_iter()
        .collect(),
        shapes: vec![
            Shape::Point,
            Shape::Circle(1.5),
            Shape::Box {
                width: 2,
                height: -9,
            },
            Shape::Pair(-1, 'x'),
        ],
        unit: (),
        bytes: vec![1, 2, 3],
    }
}

#[test]
fn every_form_round_trips() {
    let bytes = encode(&grid()).unwrap();
    assert_eq!(decode::<Grid>(&bytes).unwrap(), grid());
}

#[test]
fn the_bytes_are_the_documented_ones() {
    assert_eq!(
        encode(&(true, 0x0102u16, Some('a'))).unwrap(),
        [1, 2, 1, 1, 97, 0, 0, 0]
    );
    assert_eq!(
        encode(&vec!["hi"]).unwrap(),
        [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i']
    );
    assert_eq!(
        encode(&Shape::Circle(0.0)).unwrap(),
        [1, 0, 0, 0, 0, 0, 0, 0]
    );
}

#[test]
fn every_truncation_and_bad_byte_is_an_error() {
    let bytes = encode(&grid()).unwrap();
    for length in 0..bytes.len() {
        assert!(decode::<Grid>(&bytes[..length]).is_err(), "{length}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(decode::<Grid>(&longer).is_err(), "bytes left over");
    assert!(decode::<bool>(&[2]).is_err());
    assert!(decode::<Option<u8>>(&[7, 0]).is_err());
    assert!(decode::<char>(&0xD800u32.to_le_bytes()).is_err());
    assert!(decode::<String>(&[1, 0, 0, 0, 0, 0, 0, 0, 0xFF]).is_err());
    assert!(decode::<Shape>(&[9, 0, 0, 0]).is_err(), "no such variant");
    // A huge claimed length sizes nothing: the bytes end first, or the element budget.
    assert!(decode::<Vec<u8>>(&u64::MAX.to_le_bytes()).is_err());
    assert!(decode::<Vec<()>>(&u64::MAX.to_le_bytes()).is_err());
    let units = vec![(); ELEMENT_BUDGET];
    assert_eq!(decode::<Vec<()>>(&encode(&units).unwrap()).unwrap(), units);
}
