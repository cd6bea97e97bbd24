//! Cloning and snapshots cost nothing when unused: a world whose component, resource and event
//! types are neither `Clone` nor `Serialize` compiles and works (it is just not `Clone` and has
//! no snapshots), and so does one whose compiled-out component has no type at all. A second
//! world in the same module, all `Clone` and serde, clones and snapshots.

use archetypal::ecs;

/// Neither `Clone` nor `Serialize`.
#[derive(Default, Debug, PartialEq)]
pub struct Handle(pub u32);

#[derive(Default, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Position(pub i32);

#[cfg(any())]
pub struct DebugInfo;

ecs! {
    Opaque {
        position: Position => POSITION,
        handle: Handle => HANDLE,
        #[cfg(any())]
        debug_info: DebugInfo => DEBUG_INFO,
    }
    Events {
        grabbed: Handle,
    }
    Resources {
        current: Handle,
    }
}

ecs! {
    Plain {
        place: Position => PLACE,
        #[cfg(any())]
        debug_info: DebugInfo => PLAIN_DEBUG_INFO,
    }
    Tags {
        marked => MARKED,
    }
    Resources {
        count: u32,
        #[cfg(any())]
        hidden: DebugInfo,
    }
}

fn main() {
    let mut opaque = Opaque::new();
    let entity = opaque.spawn(POSITION | HANDLE);
    opaque.set_handle(entity, Handle(3));
    opaque.events.grabbed.send(Handle(1));
    assert_eq!(opaque.get_handle(entity), Some(&Handle(3)));

    let mut plain = Plain::new();
    let entity = plain.spawn(PLACE | MARKED);
    plain.set_place(entity, Position(4));
    plain.resources.count = 2;
    let copy = plain.clone();
    plain.despawn(entity);
    plain.restore(&copy);
    assert_eq!(plain.get_place(entity), Some(&Position(4)));
    let text = serde_json::to_string(&plain.snapshot()).unwrap();
    let loaded: Plain = serde_json::from_str(&text).unwrap();
    assert!(loaded.has_marked(entity));
    assert_eq!(loaded.resources.count, 2);
}
