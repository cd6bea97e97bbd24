//! The checks run after every step: the world read every way against the model.

use super::*;
use std::collections::BTreeMap;

impl Harness {
    /// Compares the event channels and the change log with the model: every stored item, in
    /// order, through the channel and through the generated readers, and every cursor's
    /// unread count.
    pub(super) fn check_events(&self) -> Result<(), String> {
        let world = &self.world;
        ensure_eq!(world.resources.counter, self.counter, "resources.counter");
        check_channel("hit", &world.events.hit, &self.hit_cursors, &self.hits)?;
        check_channel("note", &world.events.note, &self.note_cursors, &self.notes)?;
        check_channel(
            "change log",
            world.change_log(),
            &self.log_cursors,
            &self.log,
        )?;
        let hits: Vec<Hit> = self.hits.stored().cloned().collect();
        ensure_eq!(world.events.hit.len(), hits.len(), "len_hit");
        ensure_eq!(world.events.hit.is_empty(), hits.is_empty(), "is_empty_hit");
        ensure_eq!(world.events.hit.collect(), hits, "collect_hit");
        let notes: Vec<Note> = self.notes.stored().cloned().collect();
        ensure_eq!(world.events.note.len(), notes.len(), "len_note");
        ensure_eq!(
            world.events.note.is_empty(),
            notes.is_empty(),
            "is_empty_note"
        );
        ensure!(
            world.events.note.read().eq(notes.iter()),
            "read_note: {:?}",
            world.events.note.read().collect::<Vec<_>>()
        );
        // A fresh cursor gets every stored entry and has lost nothing.
        let mut probe = EventCursor::new();
        let consumed = world.consume_changes(&mut probe);
        ensure_eq!(consumed.lost(), 0, "a fresh change cursor lost entries");
        ensure!(
            consumed.iter().eq(self.log.stored()),
            "change log entries\n  world: {:?}\n  model: {:?}",
            consumed.iter().collect::<Vec<_>>(),
            self.log.stored().collect::<Vec<_>>()
        );
        Ok(())
    }

    /// The `since` tick of `since`.
    pub(super) fn since_tick(&self, since: Since) -> ModelTick {
        match since {
            Since::LastStep => self.last_tick,
            Since::Remembered(index) => self.remembered[index % self.remembered.len()],
        }
    }

    /// The live entities matching `include` / `exclude` one of whose tracked `include`
    /// components was written after `since`, sorted.
    pub(super) fn expected_changed(
        &self,
        include: u64,
        exclude: u64,
        since: ModelTick,
    ) -> Vec<Entity> {
        let mut expected: Vec<Entity> = self
            .model
            .iter()
            .filter(|(_, m)| matches(m.mask(), include, exclude) && m.changed_since(include, since))
            .map(|(&entity, _)| entity)
            .collect();
        expected.sort_unstable();
        expected
    }

    /// Runs a changed-only typed query and compares the visited rows with the model.
    pub(super) fn check_changed_pass(
        &mut self,
        include: u64,
        exclude: u64,
        since: Since,
    ) -> Result<(), String> {
        let tick = self.since_tick(since);
        let expected = self.expected_changed(include, exclude, tick);
        let mut visited = Vec::new();
        self.world
            .typed_query::<Entity>()
            .changed_since(include, tick.world())
            .without(exclude)
            .for_each(|entity| visited.push(entity));
        visited.sort_unstable();
        ensure_eq!(
            visited,
            expected,
            "{since:?} changed pass ({include:#b}, {exclude:#b}) since {tick:?} (now {:?})",
            self.tick
        );
        Ok(())
    }

    /// Compares the change-detection state with the model: the ticks, `command_count`, and
    /// `typed_query_ref::<Entity>().changed_since(..)` for a few masks and ticks.
    pub(super) fn check_ticks(&mut self, depth: Depth) -> Result<(), String> {
        ensure_eq!(self.world.current_tick(), self.tick.world(), "current_tick");
        ensure_eq!(self.world.last_tick(), self.last_tick.world(), "last_tick");
        // Consecutive built spawns of one mask are one entry of the world's queue, and their
        // handles are staged in the order queued.
        let continues = |pair: (&ModelCommand, &ModelCommand)| matches!(pair, (ModelCommand::SpawnBuilt(before, ..), ModelCommand::SpawnBuilt(mask, ..)) if before == mask);
        let entries = self.queue.len()
            - self
                .queue
                .iter()
                .zip(self.queue.iter().skip(1))
                .filter(|&pair| continues(pair))
                .count();
        // Staged by mask, in the order queued within each.
        let mut staged: BTreeMap<u64, Vec<Entity>> = BTreeMap::new();
        for command in &self.queue {
            if let ModelCommand::SpawnBuilt(mask, entity, _) = command {
                staged.entry(*mask).or_default().push(*entity);
            }
        }
        ensure_eq!(self.world.command_count(), entries, "command_count");
        let mut held: BTreeMap<u64, Vec<Entity>> = BTreeMap::new();
        for (entity, mask) in self.world.queued_commands().spawns() {
            held.entry(mask).or_default().push(entity);
        }
        ensure_eq!(held, staged, "staged spawns");
        let step = match depth {
            Depth::Step(step) => step,
            Depth::Full => 0,
        };
        let rotating = (step as u64 * 13 + 3) % (EVERY + 1);
        let masks = [
            0,
            HEALTH,
            NAME | POS,
            TRACKED,
            SCRATCH,
            SCRATCH | LEVEL,
            HERO | HEALTH,
            rotating,
        ];
        // Each mask since the last step or since a remembered tick, alternating with the step
        // (two of the fixed masks per step, in turn; all in a `Full` check); the rotating one
        // also since the tick before the current one and since the current one (nothing is
        // newer).
        let remembered = |k: usize| self.remembered[(step + k) % self.remembered.len()];
        let in_turn = |k: usize| match depth {
            Depth::Full => true,
            Depth::Step(step) => k == masks.len() - 1 || k % 4 == step % 4,
        };
        let mut queries: Vec<(u64, ModelTick)> = masks
            .iter()
            .enumerate()
            .filter(|&(k, _)| in_turn(k))
            .map(|(k, &mask)| {
                let since = if (step + k) % 2 == 0 {
                    self.last_tick
                } else {
                    remembered(k)
                };
                (mask, since)
            })
            .collect();
        queries.extend([
            (rotating, ModelTick(self.tick.0 - 1)),
            (rotating, self.tick),
        ]);
        for (include, since) in queries {
            let mut got: Vec<Entity> = self
                .world
                .typed_query_ref::<archetypal::Entity>()
                .changed_since(include, since.world())
                .iter()
                .collect();
            got.sort_unstable();
            let expected = self.expected_changed(include, 0, since);
            ensure_eq!(
                got,
                expected,
                "changed_since({include:#b}, {since:?}) (now {:?})",
                self.tick
            );
        }
        let (include, exclude) = CHECKED_PAIRS[step % CHECKED_PAIRS.len()];
        if step % 2 == 0 {
            self.check_changed_pass(include | rotating, exclude & !rotating, Since::LastStep)
        } else {
            self.check_changed_pass(include, exclude, Since::Remembered(step))
        }
    }

    /// `mutate` through a typed query: visits every matching entity, writes (bumps) `comp` of
    /// those with an even id through their `Mut` guards, and stamps exactly those.
    pub(super) fn typed_mutate(
        &mut self,
        include: u64,
        exclude: u64,
        comp: Comp,
    ) -> Result<(), String> {
        let now = self.tick;
        let mut expected: Vec<Entity> = Vec::new();
        for (&entity, components) in self.model.iter_mut() {
            if matches(components.mask(), include, exclude) {
                expected.push(entity);
                if entity.id % 2 == 0 {
                    components.bump(comp);
                    components.stamp(comp.bit(), now);
                }
            }
        }
        expected.sort();
        let mut visited = Vec::new();
        macro_rules! bump {
            ($ty:ty) => {
                self.world
                    .typed_query::<(Entity, &mut $ty)>()
                    .with(include)
                    .without(exclude)
                    .for_each(|(entity, mut value)| {
                        visited.push(entity);
                        if entity.id % 2 == 0 {
                            value.bump();
                        }
                    })
            };
        }
        match comp {
            Comp::Health => bump!(Health),
            Comp::Level => bump!(Level),
            Comp::Name => bump!(Name),
            Comp::Pos => bump!(Pos),
            Comp::Flags => bump!(Flags),
            Comp::Scratch => bump!(Scratch),
        }
        visited.sort();
        ensure_eq!(
            visited,
            expected,
            "typed query ({include:#b}, {exclude:#b}) visited"
        );
        Ok(())
    }

    /// Bumps `comp` of every entity matching `include` / `exclude` (`include` holds `comp`).
    pub(super) fn mutate(
        &mut self,
        include: u64,
        exclude: u64,
        comp: Comp,
        via: Via,
    ) -> Result<(), String> {
        if let Via::TypedQuery = via {
            return self.typed_mutate(include, exclude, comp);
        }
        let mut expected: Vec<Entity> = Vec::new();
        let now = self.tick;
        for (&entity, components) in self.model.iter_mut() {
            // A table view hands out every column and cannot see writes, so every tracked
            // column it hands out is reported changed: the whole table for the per-entity
            // forms (tags filter the rows, not the view), the rows handed out for
            // `for_each_table_mut` (one view per run of matching rows).
            let handed_out = match via {
                Via::ForEachTableMut => matches(components.mask(), include, exclude),
                Via::TypedQuery => false,
                // Tag bits do not choose tables; a bit outside the world matches no table.
                _ => matches(components.mask() & ALL, include & !TAGS, exclude & ALL),
            };
            if handed_out {
                components.stamp(ALL, now);
            }
            if matches(components.mask(), include, exclude) {
                components.bump(comp);
                expected.push(entity);
            }
        }
        expected.sort();

        // Visits one row: checks it, bumps it, records it (shared by every form, parallel too).
        let visited_and_bad = Mutex::new((Vec::<Entity>::new(), Vec::<String>::new()));
        let visit = |entity: Entity, view: &mut ComponentArraysMut<'_>, index: usize| {
            if view.entities.get(index) != Some(&entity)
                || !matches(view.mask, include & !TAGS, exclude & !TAGS)
            {
                visited_and_bad.lock().unwrap().1.push(format!(
                    "{entity:?} at row {index} of a view of mask {:#b} holding {:?}",
                    view.mask,
                    view.entities.get(index)
                ));
                return;
            }
            view_bump(view, comp, index);
            visited_and_bad.lock().unwrap().0.push(entity);
        };
        match via {
            Via::ForEachMut => self.world.for_each_mut(include, exclude, visit),
            Via::ParForEachMut => self.world.par_for_each_mut(include, exclude, visit),
            Via::ForEachTableMut => self.world.for_each_table_mut(include, exclude, |view| {
                for index in 0..view.entities.len() {
                    let entity = view.entities[index];
                    visit(entity, view, index);
                }
            }),
            Via::TypedQuery => unreachable!("handled by typed_mutate"),
        }
        let (mut visited, bad_rows) = visited_and_bad
            .into_inner()
            .map_err(|_| "a visit panicked".to_owned())?;
        ensure!(
            bad_rows.is_empty(),
            "{via:?} visited bad rows: {bad_rows:?}"
        );
        visited.sort();
        ensure_eq!(
            visited,
            expected,
            "{via:?}({include:#b}, {exclude:#b}) visited"
        );
        Ok(())
    }

    /// The live entities of the model with their masks, sorted by handle.
    pub(super) fn live_view(&self) -> Vec<Live<'_>> {
        let mut live: Vec<Live<'_>> = self
            .model
            .iter()
            .map(|(&entity, components)| Live {
                entity,
                components,
                mask: components.mask(),
            })
            .collect();
        live.sort_unstable_by_key(|live| live.entity);
        live
    }

    /// Compares every read-only query over `include` / `exclude` with the model (only
    /// `for_each`, row by row, when `rows_only`).
    pub(super) fn check_query(
        &self,
        live: &[Live<'_>],
        scratch: &mut Vec<Entity>,
        include: u64,
        exclude: u64,
        rows_only: bool,
    ) -> Result<(), String> {
        let world = &self.world;
        let expected = || {
            live.iter()
                .filter(move |l| matches(l.mask, include, exclude))
                .map(|l| l.entity)
        };
        let differs = |got: &mut Vec<Entity>| {
            got.sort_unstable();
            !got.iter().copied().eq(expected())
        };
        let report = |what: &str, got: &[Entity]| {
            Err(format!(
                "{what}({include:#b}, {exclude:#b})\n  world: {got:?}\n  model: {:?}",
                expected().collect::<Vec<_>>()
            ))
        };

        scratch.clear();
        let mut bad_row = None;
        world.for_each(include, exclude, |entity, table, index| {
            scratch.push(entity);
            if bad_row.is_some() {
                return;
            }
            let model = live
                .binary_search_by_key(&entity, |l| l.entity)
                .ok()
                .map(|position| live[position].components);
            if table.entities.get(index) != Some(&entity)
                || !matches(table.mask, include & !TAGS, exclude & !TAGS)
                || model.is_none_or(|m| !table_row_matches(table, index, m))
            {
                bad_row = Some(format!(
                    "{entity:?} at row {index} of table {:#b} holding {:?}: {:?}; model: {model:?}",
                    table.mask,
                    table.entities.get(index),
                    COMPS.map(|comp| table_value(table, comp, index))
                ));
            }
        });
        if let Some(bad_row) = bad_row {
            return Err(format!("for_each({include:#b}, {exclude:#b}): {bad_row}"));
        }
        if differs(scratch) {
            return report("for_each", scratch);
        }
        if rows_only {
            return Ok(());
        }

        scratch.clear();
        scratch.extend(
            world
                .typed_query_ref::<archetypal::Entity>()
                .with(include)
                .without(exclude)
                .iter(),
        );
        if differs(scratch) {
            return report("query().with().without().entities", scratch);
        }
        ensure_eq!(
            world
                .typed_query_ref::<archetypal::Entity>()
                .with(include)
                .without(exclude)
                .count(),
            expected().count(),
            "query().with({include:#b}).without({exclude:#b}).count()"
        );
        scratch.clear();
        world.for_each(include, exclude, |entity, _, _| scratch.push(entity));
        if differs(scratch) {
            return report("query().with().without().iter", scratch);
        }

        let first = world.query_entities(include).next();
        let mut with_include = live.iter().filter(|l| l.mask & include == include);
        let first_ok = match first {
            None => with_include.next().is_none(),
            Some(first) => with_include.any(|l| l.entity == first),
        };
        ensure!(
            first_ok,
            "query_entities({include:#b}).next() is {first:?}; live: {live:?}"
        );
        Ok(())
    }

    /// Compares all observable state of the world with the model.
    pub(super) fn check_all(&self, depth: Depth) -> Result<(), String> {
        let world = &self.world;
        world
            .check_invariants()
            .map_err(|error| format!("check_invariants: {error}"))?;
        let live = self.live_view();

        ensure_eq!(world.entity_count(), live.len(), "entity_count");
        ensure_eq!(
            world.archetype_count(),
            world.tables().len(),
            "archetype_count"
        );
        ensure_eq!(
            world
                .tables()
                .iter()
                .map(|t| t.entities.len())
                .sum::<usize>(),
            live.len(),
            "rows over all tables"
        );

        // Id order; live ids are distinct, so id order is handle order.
        let all = world.entities().collect::<Vec<_>>();
        ensure!(
            all.iter().copied().eq(live.iter().map(|l| l.entity)),
            "entities() (id order)\n  world: {all:?}\n  model: {:?}",
            live.iter().map(|l| l.entity).collect::<Vec<_>>()
        );

        // Every handle ever issued, plus never-issued ones: every accessor for the handles the
        // step targeted and, in turn, a quarter of the others (all of them in a `Full` check).
        // Every live entity's values are also compared row by row through `for_each(0, 0)`
        // below, after every step.
        let never: Vec<Entity> = (0..8).map(|choice| self.never_issued(choice)).collect();
        let touched = self.touched.borrow();
        let handles = self.issued.iter().chain(&self.reserved).chain(&never);
        for (index, &entity) in handles.enumerate() {
            let in_turn = match depth {
                Depth::Full => true,
                Depth::Step(step) => index % 4 == step % 4,
            };
            if !in_turn && !touched.contains(&entity) {
                continue;
            }
            let model = live
                .binary_search_by_key(&entity, |l| l.entity)
                .ok()
                .map(|position| live[position].components);
            let mask = model.map(ModelEntity::mask);
            ensure_eq!(
                world.is_alive(entity),
                model.is_some(),
                "is_alive({entity:?})"
            );
            ensure_eq!(
                world.component_mask(entity),
                mask,
                "component_mask({entity:?})"
            );
            for checked in CHECKED_MASKS {
                ensure_eq!(
                    world.has_components(entity, checked),
                    mask.is_some_and(|mask| mask & checked == checked),
                    "has_components({entity:?}, {checked:#b})"
                );
            }
            for comp in COMPS {
                ensure!(
                    w_get_matches(world, comp, entity, model),
                    "get_{comp:?}({entity:?})\n  world: {:?}\n  model: {:?}",
                    w_get(world, comp, entity),
                    model.and_then(|m| m.get(comp))
                );
                ensure_eq!(
                    w_has(world, comp, entity),
                    mask.is_some_and(|mask| mask & comp.bit() != 0),
                    "has_{comp:?}({entity:?})"
                );
            }
            for tag in TAG_LIST {
                ensure_eq!(
                    w_has_tag(world, tag, entity),
                    mask.is_some_and(|mask| mask & tag.bit() != 0),
                    "has_{tag:?}({entity:?})"
                );
            }
        }

        for tag in TAG_LIST {
            let tagged = w_query_tag(world, tag);
            let expected = live
                .iter()
                .filter(|l| l.mask & tag.bit() != 0)
                .map(|l| l.entity);
            ensure!(
                tagged.iter().copied().eq(expected.clone()),
                "query_{tag:?}()\n  world: {tagged:?}\n  model: {:?}",
                expected.collect::<Vec<_>>()
            );
        }

        let (includes, pairs, slices): (Vec<u64>, Vec<(u64, u64)>, Vec<Comp>) = match depth {
            Depth::Full => (
                (0..=EVERY).collect(),
                CHECKED_PAIRS.to_vec(),
                COMPS.to_vec(),
            ),
            Depth::Step(step) => {
                // Every mask of components and tags comes up in turn (EVERY + 1 = 256), and two
                // of `CHECKED_INCLUDES`.
                let include = (step as u64 * 7) % (EVERY + 1);
                let exclude = ((step as u64 * 11 + 5) % (EVERY + 1)) & !include;
                let n = CHECKED_INCLUDES.len();
                let includes = vec![
                    CHECKED_INCLUDES[step % n],
                    CHECKED_INCLUDES[(step + n / 2) % n],
                    include,
                    (include + 13) % (EVERY + 1),
                ];
                // `(0, 0)` compares every row with the model; the other two alternate.
                let pairs = if step % 2 == 0 {
                    vec![(0, 0), CHECKED_PAIRS[(step / 2) % CHECKED_PAIRS.len()]]
                } else {
                    vec![(0, 0), (include, exclude)]
                };
                (includes, pairs, vec![COMPS[step % COMPS.len()]])
            }
        };

        let mut scratch = Vec::new();
        for include in includes {
            scratch.clear();
            scratch.extend(world.query_entities(include));
            scratch.sort_unstable();
            let expected = live
                .iter()
                .filter(|l| l.mask & include == include)
                .map(|l| l.entity);
            ensure!(
                scratch.iter().copied().eq(expected.clone()),
                "query_entities({include:#b})\n  world: {scratch:?}\n  model: {:?}",
                expected.collect::<Vec<_>>()
            );
        }

        for (include, exclude) in pairs {
            // After every step, `(0, 0)` compares every row with the model through `for_each`;
            // the builder forms of it are checked in a `Full` check and by `Op::Query`.
            let rows_only = (include, exclude) == (0, 0) && matches!(depth, Depth::Step(_));
            self.check_query(&live, &mut scratch, include, exclude, rows_only)?;
        }

        // `query_<c>()` and `iter_<c>_slices()` of one component in turn (all in a `Full` check).
        let models = || live.iter().map(|l| l.components);
        for comp in slices {
            match comp {
                Comp::Health => {
                    let model = || models().filter_map(|m| m.health.as_ref());
                    multiset_eq(
                        "typed_query_ref::<&Health>",
                        world.typed_query_ref::<&Health>().iter(),
                        model(),
                    )?;
                    let slices = world.tables().iter().flat_map(|table| &table.health);
                    multiset_eq("tables().health", slices, model())?;
                }
                Comp::Level => {
                    let model = || models().filter_map(|m| m.level.as_ref());
                    multiset_eq(
                        "typed_query_ref::<&Level>",
                        world.typed_query_ref::<&Level>().iter(),
                        model(),
                    )?;
                    let slices = world.tables().iter().flat_map(|table| &table.level);
                    multiset_eq("tables().level", slices, model())?;
                }
                Comp::Name => {
                    let model = || models().filter_map(|m| m.name.as_ref());
                    multiset_eq(
                        "typed_query_ref::<&Name>",
                        world.typed_query_ref::<&Name>().iter(),
                        model(),
                    )?;
                    let slices = world.tables().iter().flat_map(|table| &table.name);
                    multiset_eq("tables().name", slices, model())?;
                }
                Comp::Pos => {
                    let model = || models().filter_map(|m| m.pos.as_ref());
                    multiset_eq(
                        "typed_query_ref::<&Pos>",
                        world.typed_query_ref::<&Pos>().iter(),
                        model(),
                    )?;
                    let slices = world.tables().iter().flat_map(|table| &table.pos);
                    multiset_eq("tables().pos", slices, model())?;
                }
                Comp::Flags => {
                    let model = || models().filter_map(|m| m.flags.as_ref());
                    multiset_eq(
                        "typed_query_ref::<&Flags>",
                        world.typed_query_ref::<&Flags>().iter(),
                        model(),
                    )?;
                    let slices = world.tables().iter().flat_map(|table| &table.flags);
                    multiset_eq("tables().flags", slices, model())?;
                }
                Comp::Scratch => {
                    let model = || models().filter_map(|m| m.scratch.as_ref());
                    multiset_eq(
                        "typed_query_ref::<&Scratch>",
                        world.typed_query_ref::<&Scratch>().iter(),
                        model(),
                    )?;
                    let slices = world.tables().iter().flat_map(|table| &table.scratch);
                    multiset_eq("tables().scratch", slices, model())?;
                }
            }
        }
        Ok(())
    }
}

/// A live model entity, as the checks walk them.
#[derive(Debug)]
pub(super) struct Live<'a> {
    pub(super) entity: Entity,
    pub(super) components: &'a ModelEntity,
    pub(super) mask: u64,
}

/// Whether `get_<comp>(entity)` equals the model's value (compared by reference).
pub(super) fn w_get_matches(
    world: &World,
    comp: Comp,
    entity: Entity,
    model: Option<&ModelEntity>,
) -> bool {
    match comp {
        Comp::Health => world.get_health(entity) == model.and_then(|m| m.health.as_ref()),
        Comp::Level => world.get_level(entity) == model.and_then(|m| m.level.as_ref()),
        Comp::Name => world.get_name(entity) == model.and_then(|m| m.name.as_ref()),
        Comp::Pos => world.get_pos(entity) == model.and_then(|m| m.pos.as_ref()),
        Comp::Flags => world.get_flags(entity) == model.and_then(|m| m.flags.as_ref()),
        Comp::Scratch => world.get_scratch(entity) == model.and_then(|m| m.scratch.as_ref()),
    }
}

/// Whether row `index` of `table` holds exactly the model entity's components.
pub(super) fn table_row_matches(
    table: &ComponentArrays,
    index: usize,
    model: &ModelEntity,
) -> bool {
    fn column<T: PartialEq>(present: bool, column: &[T], index: usize, model: &Option<T>) -> bool {
        match (present, model) {
            (true, Some(value)) => column.get(index) == Some(value),
            (false, None) => true,
            _ => false,
        }
    }
    let has = |bit: u64| table.mask & bit != 0;
    column(has(HEALTH), &table.health, index, &model.health)
        && column(has(LEVEL), &table.level, index, &model.level)
        && column(has(NAME), &table.name, index, &model.name)
        && column(has(POS), &table.pos, index, &model.pos)
        && column(has(FLAGS), &table.flags, index, &model.flags)
        && column(has(SCRATCH), &table.scratch, index, &model.scratch)
}

/// Compares two iterators of values as multisets.
pub(super) fn multiset_eq<'a, T: Ord + std::fmt::Debug + 'a>(
    what: &str,
    world: impl Iterator<Item = &'a T>,
    model: impl Iterator<Item = &'a T>,
) -> Result<(), String> {
    let mut world: Vec<&T> = world.collect();
    let mut model: Vec<&T> = model.collect();
    world.sort_unstable();
    model.sort_unstable();
    ensure_eq!(world, model, "{what}() multiset");
    Ok(())
}
