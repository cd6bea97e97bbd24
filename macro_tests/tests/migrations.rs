//! Migrations between many archetypes, checked against a model after every single operation.
//!
//! Five components, two of them owning heap data (`String`, `Vec`) and none `Clone`, so a
//! migration has to move values. Every entity's values are distinct (derived from its handle or
//! from a counter), so a row that lands in the wrong place, or a location left pointing at the
//! old row after a `swap_remove`, shows up as a wrong value. After each operation every live
//! entity is compared with the model, dead handles must resolve to nothing, and
//! `check_invariants` must pass.

use std::collections::BTreeMap;

use archetypal::{Entity, ecs};

#[derive(Default, Debug, PartialEq)]
pub struct Alpha(pub u32);

#[derive(Default, Debug, PartialEq)]
pub struct Beta {
    pub x: f64,
    pub y: f64,
}

#[derive(Default, Debug, PartialEq)]
pub struct Gamma(pub String);

#[derive(Default, Debug, PartialEq)]
pub struct Delta(pub Vec<u64>);

#[derive(Default, Debug, PartialEq)]
pub struct Epsilon(pub i64);

ecs! {
    World {
        alpha: Alpha => ALPHA,
        beta: Beta => BETA,
        gamma: Gamma => GAMMA,
        delta: Delta => DELTA,
        epsilon: Epsilon => EPSILON,
    }
}

const BITS: [Mask; 5] = [ALPHA, BETA, GAMMA, DELTA, EPSILON];
const ALL: Mask = ALPHA | BETA | GAMMA | DELTA | EPSILON;

// A component's value is made from a seed; seed 0 makes the default value.
fn alpha(seed: u64) -> Alpha {
    Alpha(seed as u32)
}
fn beta(seed: u64) -> Beta {
    Beta {
        x: seed as f64,
        y: seed as f64 * 0.5,
    }
}
fn gamma(seed: u64) -> Gamma {
    Gamma(if seed == 0 {
        String::new()
    } else {
        format!("gamma-{seed}")
    })
}
fn delta(seed: u64) -> Delta {
    Delta((0..seed % 4).map(|step| seed + step).collect())
}
fn epsilon(seed: u64) -> Epsilon {
    Epsilon(-(seed as i64))
}

/// The seed a spawned entity's component `k` starts with.
fn spawn_seed(entity: Entity, k: usize) -> u64 {
    1_000_000 + u64::from(entity.id) * 1_000 + u64::from(entity.generation) * 10 + k as u64
}

/// The expected value of each component (`None`: absent), as seeds.
type Seeds = [Option<u64>; 5];

fn mask_of(seeds: &Seeds) -> Mask {
    (0..5)
        .filter(|&k| seeds[k].is_some())
        .fold(0, |mask, k| mask | BITS[k])
}

/// A world plus the model it must agree with.
struct Model {
    world: World,
    expected: BTreeMap<Entity, Seeds>,
    dead: Vec<Entity>,
    next_seed: u64,
    operations: usize,
}

impl Model {
    fn new() -> Self {
        Model {
            world: World::new(),
            expected: BTreeMap::new(),
            dead: Vec::new(),
            next_seed: 10_000_000,
            operations: 0,
        }
    }

    fn live(&self) -> Vec<Entity> {
        self.expected.keys().copied().collect()
    }

    /// Compares every live entity with the model, checks dead handles and the invariants.
    fn check(&mut self, operation: &str) {
        self.operations += 1;
        let context = format!("after operation {} ({operation})", self.operations);
        let world = &self.world;
        if let Err(error) = world.check_invariants() {
            panic!("{context}: {error}");
        }
        assert_eq!(world.entity_count(), self.expected.len(), "{context}");
        assert_eq!(
            world.entities().collect::<Vec<_>>(),
            self.live(),
            "{context}: live entities"
        );
        for (&entity, seeds) in &self.expected {
            assert_eq!(
                world.component_mask(entity),
                Some(mask_of(seeds)),
                "{context}: mask of {entity}"
            );
            assert_eq!(
                world.get_alpha(entity),
                seeds[0].map(alpha).as_ref(),
                "{context}: alpha of {entity}"
            );
            assert_eq!(
                world.get_beta(entity),
                seeds[1].map(beta).as_ref(),
                "{context}: beta of {entity}"
            );
            assert_eq!(
                world.get_gamma(entity),
                seeds[2].map(gamma).as_ref(),
                "{context}: gamma of {entity}"
            );
            assert_eq!(
                world.get_delta(entity),
                seeds[3].map(delta).as_ref(),
                "{context}: delta of {entity}"
            );
            assert_eq!(
                world.get_epsilon(entity),
                seeds[4].map(epsilon).as_ref(),
                "{context}: epsilon of {entity}"
            );
        }
        for &entity in &self.dead {
            assert!(!world.is_alive(entity), "{context}: {entity} is dead");
            assert_eq!(world.component_mask(entity), None, "{context}: {entity}");
            assert_eq!(world.get_alpha(entity), None, "{context}: {entity}");
            assert_eq!(world.get_gamma(entity), None, "{context}: {entity}");
        }
        for (k, &bit) in BITS.iter().enumerate() {
            let expected = self.expected.values().filter(|s| s[k].is_some()).count();
            assert_eq!(
                world.query_entities(bit).count(),
                expected,
                "{context}: entities with component {k}"
            );
        }
    }

    fn is_live(&self, entity: Entity) -> bool {
        self.expected.contains_key(&entity)
    }

    fn spawn_batch(&mut self, mask: Mask, count: usize) -> Vec<Entity> {
        let entities = self.world.spawn_batch(mask, count, |table, index| {
            let entity = table.entities[index];
            if mask & ALPHA != 0 {
                table.alpha[index] = alpha(spawn_seed(entity, 0));
            }
            if mask & BETA != 0 {
                table.beta[index] = beta(spawn_seed(entity, 1));
            }
            if mask & GAMMA != 0 {
                table.gamma[index] = gamma(spawn_seed(entity, 2));
            }
            if mask & DELTA != 0 {
                table.delta[index] = delta(spawn_seed(entity, 3));
            }
            if mask & EPSILON != 0 {
                table.epsilon[index] = epsilon(spawn_seed(entity, 4));
            }
        });
        assert_eq!(entities.len(), count);
        for &entity in &entities {
            let mut seeds = [None; 5];
            for (k, seed) in seeds.iter_mut().enumerate() {
                if mask & BITS[k] != 0 {
                    *seed = Some(spawn_seed(entity, k));
                }
            }
            assert!(self.expected.insert(entity, seeds).is_none());
        }
        self.check(&format!("spawn_batch({mask:#b}, {count})"));
        entities
    }

    fn despawn(&mut self, entity: Entity) {
        let live = self.is_live(entity);
        assert_eq!(self.world.despawn(entity), live, "despawn({entity})");
        if live {
            self.expected.remove(&entity);
            self.dead.push(entity);
        }
        self.check(&format!("despawn({entity})"));
    }

    /// `set_<k>` with a fresh value: adds the component (migrating) if missing.
    fn set(&mut self, entity: Entity, k: usize) {
        self.next_seed += 1;
        let seed = self.next_seed;
        let world = &mut self.world;
        let done = match k {
            0 => world.set_alpha(entity, alpha(seed)),
            1 => world.set_beta(entity, beta(seed)),
            2 => world.set_gamma(entity, gamma(seed)),
            3 => world.set_delta(entity, delta(seed)),
            _ => world.set_epsilon(entity, epsilon(seed)),
        };
        assert_eq!(done, self.is_live(entity), "set {k} on {entity}");
        if let Some(seeds) = self.expected.get_mut(&entity) {
            seeds[k] = Some(seed);
        }
        self.check(&format!("set component {k} of {entity}"));
    }

    /// `add_<k>`: a default value if missing, the old value kept otherwise.
    fn add(&mut self, entity: Entity, k: usize) {
        let world = &mut self.world;
        let done = match k {
            0 => world.add_alpha(entity),
            1 => world.add_beta(entity),
            2 => world.add_gamma(entity),
            3 => world.add_delta(entity),
            _ => world.add_epsilon(entity),
        };
        assert_eq!(done, self.is_live(entity), "add {k} to {entity}");
        if let Some(seeds) = self.expected.get_mut(&entity) {
            seeds[k].get_or_insert(0);
        }
        self.check(&format!("add component {k} to {entity}"));
    }

    /// `remove_<k>`: returns the removed value.
    fn remove(&mut self, entity: Entity, k: usize) {
        let expected = self
            .expected
            .get_mut(&entity)
            .and_then(|seeds| seeds[k].take());
        let world = &mut self.world;
        match k {
            0 => assert_eq!(world.remove_alpha(entity), expected.map(alpha)),
            1 => assert_eq!(world.remove_beta(entity), expected.map(beta)),
            2 => assert_eq!(world.remove_gamma(entity), expected.map(gamma)),
            3 => assert_eq!(world.remove_delta(entity), expected.map(delta)),
            _ => assert_eq!(world.remove_epsilon(entity), expected.map(epsilon)),
        }
        self.check(&format!("remove component {k} from {entity}"));
    }

    fn add_components(&mut self, entity: Entity, mask: Mask) {
        let live = self.is_live(entity);
        assert_eq!(self.world.add_components(entity, mask), live);
        if let Some(seeds) = self.expected.get_mut(&entity) {
            for (k, seed) in seeds.iter_mut().enumerate() {
                if mask & BITS[k] != 0 {
                    seed.get_or_insert(0);
                }
            }
        }
        self.check(&format!("add_components({entity}, {mask:#b})"));
    }

    fn remove_components(&mut self, entity: Entity, mask: Mask) {
        let live = self.is_live(entity);
        assert_eq!(self.world.remove_components(entity, mask), live);
        if let Some(seeds) = self.expected.get_mut(&entity) {
            for (k, seed) in seeds.iter_mut().enumerate() {
                if mask & BITS[k] != 0 {
                    *seed = None;
                }
            }
        }
        self.check(&format!("remove_components({entity}, {mask:#b})"));
    }

    /// Number of tables holding at least one entity.
    fn occupied_tables(&self) -> usize {
        self.world
            .tables()
            .iter()
            .filter(|table| !table.entities.is_empty())
            .count()
    }
}

/// Eight archetypes, twelve entities each.
const START_MASKS: [Mask; 8] = [
    ALPHA,
    ALPHA | BETA,
    ALPHA | BETA | GAMMA,
    BETA | GAMMA | DELTA,
    GAMMA | DELTA | EPSILON,
    ALL,
    DELTA | EPSILON,
    0,
];

fn populated() -> (Model, Vec<Entity>) {
    let mut model = Model::new();
    let mut entities = Vec::new();
    for mask in START_MASKS {
        entities.extend(model.spawn_batch(mask, 12));
    }
    assert_eq!(model.world.archetype_count(), 8);
    assert_eq!(model.occupied_tables(), 8);
    (model, entities)
}

#[test]
fn single_component_migrations_across_eight_archetypes() {
    let (mut model, entities) = populated();
    for (index, &entity) in entities.iter().enumerate() {
        let k = index % 5;
        match index % 4 {
            0 => model.add(entity, k),
            1 => model.remove(entity, k),
            2 => model.set(entity, k),
            _ => {
                model.remove(entity, (k + 1) % 5);
                model.add(entity, (k + 2) % 5);
            }
        }
    }
    assert!(model.occupied_tables() >= 6);
    // Take everything back off, one component at a time, then put it back.
    for &entity in &entities {
        for k in 0..5 {
            model.remove(entity, k);
        }
    }
    assert_eq!(model.occupied_tables(), 1, "everyone is in the empty table");
    for (index, &entity) in entities.iter().enumerate() {
        model.set(entity, index % 5);
        model.add(entity, (index + 3) % 5);
        if index % 3 == 0 {
            model.add(entity, (index + 1) % 5);
        }
    }
    assert!(model.occupied_tables() >= 6);
}

#[test]
fn multi_component_migrations_across_eight_archetypes() {
    let (mut model, entities) = populated();
    let masks = [
        ALPHA | GAMMA,
        BETA | DELTA | EPSILON,
        ALL,
        GAMMA | EPSILON,
        ALPHA | DELTA,
        0,
    ];
    for (index, &entity) in entities.iter().enumerate() {
        let mask = masks[index % masks.len()];
        if index % 2 == 0 {
            model.add_components(entity, mask);
        } else {
            model.remove_components(entity, mask);
        }
    }
    for (index, &entity) in entities.iter().enumerate().rev() {
        let mask = masks[(index + 1) % masks.len()];
        if index % 3 == 0 {
            model.remove_components(entity, mask);
        } else {
            model.add_components(entity, mask);
        }
        if index % 7 == 0 {
            model.set(entity, index % 5);
        }
    }
    assert!(model.occupied_tables() >= 6);
}

#[test]
fn despawns_and_respawns_between_migrations() {
    let (mut model, entities) = populated();
    // Despawn every third entity, migrating a neighbour in between.
    for (index, &entity) in entities.iter().enumerate() {
        if index % 3 == 0 {
            model.despawn(entity);
            model.despawn(entity); // refused the second time
        } else if index % 3 == 1 {
            model.set(entity, (index + 2) % 5);
        }
    }
    // Recycled ids land in fresh archetypes; the old handles stay dead.
    let respawned = model.spawn_batch(BETA | EPSILON, 10);
    assert!(respawned.iter().all(|entity| entity.generation == 1));
    let more = model.spawn_batch(ALPHA | GAMMA | EPSILON, 30);
    assert!(more.iter().any(|entity| entity.generation == 0));
    for (index, &entity) in respawned.iter().chain(&more).enumerate() {
        model.add_components(entity, BITS[index % 5] | BITS[(index + 2) % 5]);
        model.remove(entity, (index + 4) % 5);
    }
    // Stale handles change nothing.
    let stale: Vec<Entity> = model.dead.clone();
    for (index, &entity) in stale.iter().enumerate() {
        model.set(entity, index % 5);
        model.add(entity, index % 5);
        model.remove(entity, index % 5);
        model.add_components(entity, ALL);
        model.remove_components(entity, ALL);
        model.despawn(entity);
    }
    assert!(model.occupied_tables() >= 6);
}

#[test]
fn a_migration_swaps_the_last_row_into_the_hole() {
    let mut model = Model::new();
    let entities = model.spawn_batch(ALPHA | BETA, 5);
    model.add(entities[1], 2);
    let source = model.world.find_table(ALPHA | BETA).unwrap();
    let destination = model.world.find_table(ALPHA | BETA | GAMMA).unwrap();
    assert_eq!(
        model.world.tables()[source].entities,
        vec![entities[0], entities[4], entities[2], entities[3]]
    );
    assert_eq!(
        model.world.tables()[destination].entities,
        vec![entities[1]]
    );
    assert_eq!(
        model.world.tables()[source].alpha,
        vec![
            alpha(spawn_seed(entities[0], 0)),
            alpha(spawn_seed(entities[4], 0)),
            alpha(spawn_seed(entities[2], 0)),
            alpha(spawn_seed(entities[3], 0)),
        ]
    );
    // The last row leaving needs no swap.
    model.remove(entities[3], 1);
    assert_eq!(
        model.world.tables()[source].entities,
        vec![entities[0], entities[4], entities[2]]
    );
    // The first row leaving takes the last one's place.
    model.remove_components(entities[0], ALPHA | BETA);
    assert_eq!(
        model.world.tables()[source].entities,
        vec![entities[2], entities[4]]
    );
}

/// xorshift64: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

#[test]
fn random_operations_agree_with_the_model() {
    for seed in [0x9e37_79b9_7f4a_7c15_u64, 0xdead_beef, 42] {
        let mut rng = Rng(seed);
        let mut model = Model::new();
        let mut handles: Vec<Entity> = Vec::new();
        for mask in START_MASKS {
            handles.extend(model.spawn_batch(mask, 6));
        }
        for _ in 0..800 {
            let target = handles[rng.below(handles.len())];
            let k = rng.below(5);
            let mask = rng.below(32) as Mask;
            match rng.below(100) {
                0..=5 if model.expected.len() < 120 => {
                    handles.extend(model.spawn_batch(mask, 1 + rng.below(4)));
                }
                0..=11 => model.despawn(target),
                12..=29 => model.set(target, k),
                30..=44 => model.add(target, k),
                45..=62 => model.remove(target, k),
                63..=80 => model.add_components(target, mask),
                _ => model.remove_components(target, mask),
            }
        }
        assert!(model.world.archetype_count() >= 6);
    }
}
