//! The positional form of a text snapshot's columns (since format version 4): a struct inside a
//! column is written as its fields' values in order (`[1.0,2.0]`, not `{"x":1.0,"y":2.0}`), at
//! every depth (nested structs, struct variants, options, newtypes), and read back exactly. A
//! component whose field is skipped at save time is refused with the field's name; the named
//! form of a column is refused on loading.

use archetypal::{Entity, ecs};
use serde::{Deserialize, Serialize};

#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Vec2 {
    pub x: f32,
    pub y: f32,
}

/// A struct holding a struct.
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Body {
    pub center: Vec2,
    pub radius: f32,
}

/// Every kind of variant.
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    #[default]
    Dot,
    Circle {
        radius: f32,
    },
    Segment(Vec2, Vec2),
    Around(Vec2),
}

/// A handle and an optional struct.
#[derive(Default, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Owner {
    pub owner: Option<Entity>,
    pub offset: Option<Vec2>,
    pub name: String,
}

/// A field skipped when it is `None`: the positional form cannot hold the gap.
#[derive(Default, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sparse {
    pub kept: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maybe: Option<u8>,
}

ecs! {
    World {
        body: Body => BODY,
        shape: Shape => SHAPE,
        owner: Owner => OWNER,
        sparse: Sparse => SPARSE,
    }
    Resources {
        /// Resources keep their own serde form.
        origin: Vec2,
    }
}

fn populated_world() -> World {
    let mut world = World::new();
    let first = world.spawn(BODY | SHAPE | OWNER);
    world.set_body(
        first,
        Body {
            center: Vec2 { x: 1.0, y: 2.0 },
            radius: 0.5,
        },
    );
    world.set_shape(first, Shape::Circle { radius: 3.0 });
    let second = world.spawn(BODY | SHAPE | OWNER);
    world.set_shape(
        second,
        Shape::Segment(Vec2 { x: 1.0, y: 0.0 }, Vec2 { x: 0.0, y: 1.0 }),
    );
    world.set_owner(
        second,
        Owner {
            owner: Some(first),
            offset: Some(Vec2 { x: -1.0, y: 4.0 }),
            name: "second".to_string(),
        },
    );
    let third = world.spawn(SHAPE);
    world.set_shape(third, Shape::Around(Vec2 { x: 7.0, y: 8.0 }));
    world.resources.origin = Vec2 { x: 0.25, y: 0.75 };
    world
}

fn assert_same_world(expected: &World, loaded: &World) {
    assert_eq!(loaded.entity_count(), expected.entity_count());
    for entity in [0, 1, 2].map(|id| Entity::new(id, 0)) {
        assert_eq!(loaded.get_body(entity), expected.get_body(entity));
        assert_eq!(loaded.get_shape(entity), expected.get_shape(entity));
        assert_eq!(loaded.get_owner(entity), expected.get_owner(entity));
        assert_eq!(loaded.get_sparse(entity), expected.get_sparse(entity));
    }
    assert_eq!(loaded.resources.origin, expected.resources.origin);
}

#[test]
fn columns_hold_their_structs_fields_in_order_and_load_back_exactly() {
    let world = populated_world();
    let text = serde_json::to_string(&world.snapshot()).unwrap();
    let tables = concat!(
        r#""tables":[{"entities":[0,1],"#,
        r#""body":[[[1.0,2.0],0.5],[[0.0,0.0],0.0]],"#,
        r#""shape":[{"Circle":[3.0]},{"Segment":[[1.0,0.0],[0.0,1.0]]}],"#,
        r#""owner":[[null,null,""],[[0,0],[-1.0,4.0],"second"]]},"#,
        r#"{"entities":[2],"shape":[{"Around":[7.0,8.0]}]}]"#,
    );
    assert!(text.contains(tables), "{text}");
    assert!(
        text.contains(r#""resources":{"origin":{"x":0.25,"y":0.75}}"#),
        "{text}"
    );
    let loaded: World = serde_json::from_str(&text).unwrap();
    assert_same_world(&world, &loaded);
    assert_eq!(serde_json::to_string(&loaded.snapshot()).unwrap(), text);
}

#[test]
fn binary_snapshots_are_unchanged_and_still_load() {
    let world = populated_world();
    let bytes = postcard::to_allocvec(&world.snapshot()).unwrap();
    let loaded: World = postcard::from_bytes(&bytes).unwrap();
    assert_same_world(&world, &loaded);
    assert_eq!(postcard::to_allocvec(&loaded.snapshot()).unwrap(), bytes);
}

#[test]
fn a_field_skipped_at_save_time_is_refused_by_name() {
    let mut world = World::new();
    let entity = world.spawn(SPARSE);
    world.set_sparse(
        entity,
        Sparse {
            kept: 1,
            maybe: Some(2),
        },
    );
    let text = serde_json::to_string(&world.snapshot()).unwrap();
    assert!(text.contains(r#""sparse":[[1,2]]"#), "{text}");
    let loaded: World = serde_json::from_str(&text).unwrap();
    assert_eq!(loaded.get_sparse(entity), world.get_sparse(entity));

    world.set_sparse(entity, Sparse::default());
    let error = serde_json::to_string(&world.snapshot())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("the field `maybe` of a component is skipped"),
        "{error}"
    );
}

#[test]
fn a_column_in_the_named_form_is_refused() {
    let mut world = World::new();
    world.spawn(BODY);
    let text = serde_json::to_string(&world.snapshot()).unwrap();
    let positional = r#""body":[[[0.0,0.0],0.0]]"#;
    assert!(text.contains(positional), "{text}");
    let named = text.replace(
        positional,
        r#""body":[{"center":{"x":0.0,"y":0.0},"radius":0.0}]"#,
    );
    let Err(error) = serde_json::from_str::<World>(&named) else {
        panic!("loaded the named form: {named}");
    };
    let error = error.to_string();
    assert!(error.contains("invalid type: map"), "{error}");
    // A struct with a value missing or one too many is refused too.
    for bad in [r#""body":[[[0.0,0.0]]]"#, r#""body":[[[0.0,0.0],0.0,1.0]]"#] {
        let mutant = text.replace(positional, bad);
        assert!(serde_json::from_str::<World>(&mutant).is_err(), "{mutant}");
    }
}
