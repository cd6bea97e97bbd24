//! The positional form's round trips through serde_json, at every depth and for serde's
//! attributes that change a type's shape.

use super::Positional;
use super::read::PositionalSeed;
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
