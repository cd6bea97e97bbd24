//! A world whose component or resource type borrows (`&'static str`), built with the `serde`
//! feature on (as this crate builds archetypal): it compiles and works, and saves; loading it
//! is unavailable (`World::from_snapshot`, `Deserialize`: a call does not compile), as for a
//! type that is not serde, since its values would borrow from the data read.

mod component {
    archetypal::ecs! {
        World {
            name: &'static str => NAME,
            level: u32 => LEVEL,
        }
    }

    #[test]
    fn a_borrowed_component_works_and_saves() {
        let mut world = World::new();
        let hero = EntityBuilder::new()
            .with_name("hero")
            .with_level(3)
            .spawn_one(&mut world);
        assert_eq!(world.get_name(hero), Some(&"hero"));
        let copy = world.clone();
        assert_eq!(copy.get_name(hero), Some(&"hero"));
        assert_eq!(world.check_invariants(), Ok(()));
        // Saving needs `Serialize` only, which a borrowed type has.
        let saved = serde_json::to_string(&world.snapshot()).unwrap();
        assert!(saved.contains("\"hero\""), "{saved}");
    }
}

mod resource {
    archetypal::ecs! {
        World {
            level: u32 => LEVEL,
        }
        Resources {
            names: Vec<&'static str>,
        }
    }

    #[test]
    fn a_borrowed_resource_works_and_saves() {
        let mut world = World::new();
        world.resources.names.push("hero");
        world.spawn(LEVEL);
        assert_eq!(world.clone().resources.names, ["hero"]);
        let saved = serde_json::to_string(&world.snapshot()).unwrap();
        assert!(saved.contains("\"hero\""), "{saved}");
    }
}
