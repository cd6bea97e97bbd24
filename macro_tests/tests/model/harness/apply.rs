//! Applying one operation to the world and to the model, comparing what each returns.

use super::*;

impl Harness {
    pub(super) fn apply(&mut self, op: &Op) -> Result<(), String> {
        let now = self.tick;
        self.touched.borrow_mut().clear();
        ensure_eq!(
            self.world.current_tick(),
            now.world(),
            "current_tick before {op:?}"
        );
        match op {
            &Op::Spawn(mask) => {
                let entity = self.world.spawn(mask);
                self.register(entity, rules::spawned(mask, []))?;
            }
            &Op::SpawnEntities(mask, count) => {
                let entities = self.world.spawn_entities(mask, count);
                ensure_eq!(entities.len(), count, "spawn_entities count");
                for entity in entities {
                    self.register(entity, rules::spawned(mask, []))?;
                }
            }
            &Op::SpawnBatch { mask, count, seed } => {
                let mut seen = Vec::new();
                let mut calls = 0usize;
                // The batch's table is that of the mask the rules make of it; `init` writes
                // the components of `mask` the rules kept.
                let settled = rules::spawn_mask(mask);
                let entities = self.world.spawn_batch(mask, count, |view, index| {
                    assert_eq!(
                        view.mask,
                        settled & ALL,
                        "spawn_batch view of the wrong table"
                    );
                    seen.push(view.entities[index]);
                    for comp in COMPS {
                        if mask & settled & comp.bit() != 0 {
                            view_write(view, Value::batch(comp, seed, calls), index);
                        }
                    }
                    calls += 1;
                });
                ensure_eq!(entities.len(), count, "spawn_batch count");
                ensure_eq!(seen, entities, "spawn_batch init rows vs returned handles");
                for (k, entity) in entities.into_iter().enumerate() {
                    let values = COMPS
                        .iter()
                        .filter(|comp| mask & comp.bit() != 0)
                        .map(|&comp| Value::batch(comp, seed, k));
                    self.register(entity, rules::spawned(mask, values))?;
                }
            }
            &Op::SpawnValues {
                shape,
                count,
                seed,
                hint_low,
            } => {
                let how = if hint_low {
                    ValuesSpawn::HintLow
                } else {
                    ValuesSpawn::Now
                };
                let entities = spawn_values(&mut self.world, shape, count, seed, how);
                ensure_eq!(entities.len(), count, "spawn_values count");
                let mask = SPAWN_VALUES_SHAPES[shape]
                    .iter()
                    .fold(0, |mask, comp| mask | comp.bit());
                for (k, entity) in entities.into_iter().enumerate() {
                    let values = SPAWN_VALUES_SHAPES[shape]
                        .iter()
                        .map(|&comp| Value::batch(comp, seed, k));
                    self.register(entity, rules::spawned(mask, values))?;
                }
            }
            Op::Builder { values, count } => {
                let mut components = ModelEntity::default();
                let mut held = HeldValues::default();
                for value in values {
                    components.put(value.clone());
                    held.put(value.clone());
                }
                let world = &mut self.world;
                let entities = with_held_values!(
                    EntityBuilder::new(), held, |builder| {
                        ensure_eq!(builder.mask(), components.mask(), "EntityBuilder::mask");
                        match *count {
                            Some(count) => {
                                let entities = builder.spawn(world, count);
                                ensure_eq!(entities.len(), count, "EntityBuilder::spawn count");
                                entities
                            }
                            None => vec![builder.spawn_one(world)],
                        }
                    };
                    health with_health, level with_level, name with_name, pos with_pos,
                    flags with_flags, scratch with_scratch
                );
                for entity in entities {
                    self.register(entity, rules::spawned(components.mask(), values.clone()))?;
                }
            }
            Op::Despawn(target) => {
                let entity = self.resolve(target)?;
                let expected = self.m_despawn(entity);
                ensure_eq!(self.world.despawn(entity), expected, "despawn({entity:?})");
            }
            Op::DespawnEntities(targets) => {
                let entities = targets
                    .iter()
                    .map(|target| self.resolve(target))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut expected: Vec<Entity> = entities
                    .iter()
                    .copied()
                    .filter(|&entity| self.m_despawn(entity))
                    .collect();
                let mut despawned = self.world.despawn_entities(&entities);
                despawned.sort();
                expected.sort();
                ensure_eq!(despawned, expected, "despawn_entities({entities:?})");
            }
            Op::Set(target, value) => {
                let entity = self.resolve(target)?;
                let expected = self.m_set(entity, value.clone(), now);
                let got = w_set(&mut self.world, entity, value.clone());
                ensure_eq!(got, expected, "set({entity:?}, {value:?})");
            }
            &Op::Add(ref target, comp) => {
                let entity = self.resolve(target)?;
                let expected = self.m_add(entity, comp.bit(), now);
                let got = w_add(&mut self.world, entity, comp);
                ensure_eq!(got, expected, "add_{comp:?}({entity:?})");
            }
            &Op::Remove(ref target, comp) => {
                let entity = self.resolve(target)?;
                let removed = self.model.get_mut(&entity).and_then(|components| {
                    let gone = rules::removal(components.mask(), comp.bit())?;
                    let value = components.get(comp)?;
                    components.remove_all(gone);
                    Some((value, gone))
                });
                let expected = removed.map(|(value, gone)| {
                    self.log_change(StructuralChange::Removed { entity, mask: gone });
                    value
                });
                let got = w_remove(&mut self.world, entity, comp);
                ensure_eq!(got, expected, "remove_{comp:?}({entity:?})");
            }
            &Op::AddComponents(ref target, mask) => {
                let entity = self.resolve(target)?;
                let expected = self.m_add(entity, mask, now);
                let got = self.world.add_components(entity, mask);
                ensure_eq!(got, expected, "add_components({entity:?}, {mask:#b})");
            }
            &Op::RemoveComponents(ref target, mask) => {
                let entity = self.resolve(target)?;
                let expected = self.m_remove(entity, mask);
                let got = self.world.remove_components(entity, mask);
                ensure_eq!(got, expected, "remove_components({entity:?}, {mask:#b})");
            }
            &Op::AddTag(ref target, tag) => {
                let entity = self.resolve(target)?;
                let expected = self.m_add(entity, tag.bit(), now);
                let tables = self.world.archetype_count();
                // The table, not the row: a tag moves its row within the table (to its tag
                // segment), never to another table.
                let table = self.world.locate(entity).map(|at| at.table());
                let got = w_add_tag(&mut self.world, entity, tag);
                ensure_eq!(got, expected, "add_{tag:?}({entity:?})");
                ensure_eq!(
                    (
                        self.world.archetype_count(),
                        self.world.locate(entity).map(|at| at.table())
                    ),
                    (tables, table),
                    "add_{tag:?}({entity:?}) migrated"
                );
            }
            &Op::RemoveTag(ref target, tag) => {
                let entity = self.resolve(target)?;
                let expected = self.m_remove(entity, tag.bit());
                let table = self.world.locate(entity).map(|at| at.table());
                let got = w_remove_tag(&mut self.world, entity, tag);
                ensure_eq!(got, expected, "remove_{tag:?}({entity:?})");
                ensure_eq!(
                    self.world.locate(entity).map(|at| at.table()),
                    table,
                    "remove_{tag:?}({entity:?}) migrated"
                );
            }
            Op::Modify(target, value) | Op::GetMutWrite(target, value) => {
                let entity = self.resolve(target)?;
                let expected = self.model.get_mut(&entity).and_then(|components| {
                    let old = components.get(value.comp())?;
                    components.put(value.clone());
                    components.stamp(value.comp().bit(), now);
                    Some(old)
                });
                let got = if matches!(op, Op::Modify(..)) {
                    w_modify(&mut self.world, entity, value.clone())
                } else {
                    w_get_mut_write(&mut self.world, entity, value.clone())
                };
                ensure_eq!(got, expected, "write {value:?} to {entity:?} ({op:?})");
            }
            &Op::Mutate {
                include,
                exclude,
                comp,
                via,
            } => self.mutate(include | comp.bit(), exclude, comp, via)?,
            &Op::WarmQuery(include) => self.world.warm_query(include),
            &Op::Query { include, exclude } => {
                let live = self.live_view();
                self.check_query(&live, &mut Vec::new(), include, exclude, false)?;
            }
            &Op::QueueSpawn(mask, count) => {
                // Half through the world's command part (a system's `split_mut()`), which
                // reserves through the allocator's loan: the same handles either way.
                let entities = if count % 2 == 1 {
                    self.world
                        .split_mut()
                        .commands
                        .queue_spawn_entities(mask, count)
                } else {
                    self.world.commands().queue_spawn_entities(mask, count)
                };
                ensure_eq!(entities.len(), count, "queue_spawn_entities count");
                for &entity in &entities {
                    self.note_reserved(entity, "queue_spawn_entities")?;
                }
                self.queue.push(ModelCommand::Spawn(mask, entities));
            }
            &Op::QueueSpawnBuilt(ref value, extra) => {
                let builder = match value.clone() {
                    Value::Health(value) => EntityBuilder::new().with_health(value),
                    Value::Level(value) => EntityBuilder::new().with_level(value),
                    Value::Name(value) => EntityBuilder::new().with_name(value),
                    Value::Pos(value) => EntityBuilder::new().with_pos(value),
                    Value::Flags(value) => EntityBuilder::new().with_flags(value),
                    Value::Scratch(value) => EntityBuilder::new().with_scratch(value),
                }
                .with_mask(extra);
                let mask = builder.mask();
                ensure_eq!(mask, value.comp().bit() | extra, "the builder's mask");
                // Through the command part of a split, as a system queues it from a loop.
                let entity = self.world.split_mut().commands.queue_spawn(builder);
                self.note_reserved(entity, "queue_spawn")?;
                self.queue
                    .push(ModelCommand::SpawnBuilt(mask, entity, vec![value.clone()]));
            }
            &Op::QueueSpawnValues { shape, count, seed } => {
                let entities =
                    spawn_values(&mut self.world, shape, count, seed, ValuesSpawn::Queued);
                ensure_eq!(entities.len(), count, "queue_spawn_values count");
                let mask = SPAWN_VALUES_SHAPES[shape]
                    .iter()
                    .fold(0, |mask, comp| mask | comp.bit());
                for (k, &entity) in entities.iter().enumerate() {
                    self.note_reserved(entity, "queue_spawn_values")?;
                    let values = SPAWN_VALUES_SHAPES[shape]
                        .iter()
                        .map(|&comp| Value::batch(comp, seed, k))
                        .collect();
                    self.queue
                        .push(ModelCommand::SpawnBuilt(mask, entity, values));
                }
            }
            Op::QueueDespawn(target) => {
                let entity = self.resolve(target)?;
                self.world.commands().queue_despawn(entity);
                self.queue.push(ModelCommand::Despawn(entity));
            }
            &Op::QueueAddComponents(ref target, mask) => {
                let entity = self.resolve(target)?;
                self.world.commands().queue_add_components(entity, mask);
                self.queue.push(ModelCommand::Add(entity, mask));
            }
            &Op::QueueRemoveComponents(ref target, mask) => {
                let entity = self.resolve(target)?;
                self.world.commands().queue_remove_components(entity, mask);
                self.queue.push(ModelCommand::Remove(entity, mask));
            }
            Op::QueueSet(target, value) => {
                let entity = self.resolve(target)?;
                match value.clone() {
                    Value::Health(value) => self.world.commands().queue_set_health(entity, value),
                    Value::Level(value) => self.world.commands().queue_set_level(entity, value),
                    Value::Name(value) => self.world.commands().queue_set_name(entity, value),
                    Value::Pos(value) => self.world.commands().queue_set_pos(entity, value),
                    Value::Flags(value) => self.world.commands().queue_set_flags(entity, value),
                    Value::Scratch(value) => self.world.commands().queue_set_scratch(entity, value),
                }
                self.queue.push(ModelCommand::Set(entity, value.clone()));
            }
            &Op::QueueTag(ref target, tag, add) => {
                let entity = self.resolve(target)?;
                match (tag, add) {
                    (Tag::Hero, true) => self.world.commands().queue_add_hero(entity),
                    (Tag::Marked, true) => self.world.commands().queue_add_marked(entity),
                    (Tag::Hero, false) => self.world.commands().queue_remove_hero(entity),
                    (Tag::Marked, false) => self.world.commands().queue_remove_marked(entity),
                }
                self.queue.push(if add {
                    ModelCommand::Add(entity, tag.bit())
                } else {
                    ModelCommand::Remove(entity, tag.bit())
                });
            }
            Op::ApplyCommands => {
                let expected = self.m_apply_commands(now)?;
                let report = self.world.apply_commands();
                ensure_eq!(report, expected, "apply_commands report");
            }
            Op::ClearCommands => {
                self.world.clear_commands();
                self.queue.clear();
                // The pending reserved handles are released: they stay in `reserved_set`, and
                // every check expects them dead for good.
                self.pending.clear();
            }
            Op::Step => {
                self.remembered.push(self.tick);
                self.hits.expire_before(self.frame);
                self.notes.expire_before(self.frame);
                self.frame += 1;
                self.world.step();
                self.last_tick = self.tick;
                self.tick = self.tick.next();
            }
            Op::IncrementTick => {
                self.remembered.push(self.tick);
                let got = self.world.increment_tick();
                self.tick = self.tick.next();
                ensure_eq!(got, self.tick.world(), "increment_tick()");
            }
            &Op::MarkChanged(ref target, mask) => {
                let entity = self.resolve(target)?;
                let expected = match self.model.get_mut(&entity) {
                    Some(components) => {
                        components.stamp(mask, now);
                        true
                    }
                    None => false,
                };
                let got = self.world.mark_changed(entity, mask);
                ensure_eq!(got, expected, "mark_changed({entity:?}, {mask:#b})");
            }
            &Op::Changed {
                include,
                exclude,
                since,
            } => self.check_changed_pass(include, exclude, since)?,
            &Op::Send(channel, value) => match channel {
                Channel::Hit => {
                    self.hits.send(Hit(value), self.frame);
                    self.world.events.hit.send(Hit(value));
                }
                Channel::Note => {
                    let note = Note(format!("n{value}"));
                    self.notes.send(note.clone(), self.frame);
                    self.world.events.note.send(note);
                }
            },
            &Op::Consume(channel, k) => {
                let k = k % CURSORS;
                match channel {
                    Channel::Hit => {
                        let expected = self.hits.consume(k);
                        let consumed = self.world.events.hit.consume(&mut self.hit_cursors[k]);
                        ensure_eq!(consumed.len(), expected.0.len(), "consume_hit len");
                        let got = (
                            consumed.iter().cloned().collect::<Vec<_>>(),
                            consumed.lost(),
                        );
                        ensure_eq!(got, expected, "consume_hit through cursor {k}");
                    }
                    Channel::Note => {
                        let expected = self.notes.consume(k);
                        let consumed = self.world.events.note.consume(&mut self.note_cursors[k]);
                        ensure_eq!(consumed.len(), expected.0.len(), "consume_note len");
                        let got = (
                            consumed.iter().cloned().collect::<Vec<_>>(),
                            consumed.lost(),
                        );
                        ensure_eq!(got, expected, "consume_note through cursor {k}");
                    }
                }
            }
            &Op::ResetCursor(channel, k, at_end) => {
                let k = k % CURSORS;
                match channel {
                    Channel::Hit => {
                        let end = self.world.events.hit.cursor_at_end();
                        self.hits
                            .reset_cursor(k, &mut self.hit_cursors[k], at_end.then_some(end));
                    }
                    Channel::Note => {
                        let end = self.world.events.note.cursor_at_end();
                        self.notes.reset_cursor(
                            k,
                            &mut self.note_cursors[k],
                            at_end.then_some(end),
                        );
                    }
                }
            }
            &Op::ClearEvents(channel) => match channel {
                Channel::Hit => {
                    self.hits.clear();
                    self.world.events.hit.clear();
                }
                Channel::Note => {
                    self.notes.clear();
                    self.world.events.note.clear();
                }
            },
            &Op::EnableChangeLog(capacity) => {
                // The same log goes on: stored items and numbering stay, the new capacity
                // trims the oldest (lost to cursors that had not read them).
                self.log.limit = Some(capacity);
                self.log.trim_to(capacity);
                self.logging = true;
                self.world.enable_change_log(capacity);
            }
            Op::DisableChangeLog => {
                self.logging = false;
                self.world.disable_change_log();
            }
            &Op::ConsumeChanges(k) => {
                let k = k % CURSORS;
                let expected = self.log.consume(k);
                let consumed = self.world.consume_changes(&mut self.log_cursors[k]);
                let got = (
                    consumed.iter().copied().collect::<Vec<_>>(),
                    consumed.lost(),
                );
                ensure_eq!(got, expected, "consume_changes through cursor {k}");
            }
            &Op::ResetChangeCursor(k, at_end) => {
                let k = k % CURSORS;
                let end = self.world.change_cursor();
                self.log
                    .reset_cursor(k, &mut self.log_cursors[k], at_end.then_some(end));
            }
            &Op::TrimChanges(keep) => {
                self.log.trim_to(keep);
                self.world.trim_changes(keep);
            }
            &Op::TypedWrite {
                include,
                exclude,
                comp,
                optional,
            } => {
                let required = if optional { 0 } else { comp.bit() };
                let mut expected = Vec::new();
                for (&entity, components) in self.model.iter_mut() {
                    if matches(components.mask(), include | required, exclude) {
                        // Absent (only with `optional`): `bump` and `stamp` leave it absent.
                        components.bump(comp);
                        components.stamp(comp.bit(), now);
                        expected.push(entity);
                    }
                }
                expected.sort();
                let world = &mut self.world;
                let mut visited = match (comp, optional) {
                    (Comp::Health, false) => typed_write!(world, Health, include, exclude),
                    (Comp::Level, false) => typed_write!(world, Level, include, exclude),
                    (Comp::Name, false) => typed_write!(world, Name, include, exclude),
                    (Comp::Pos, false) => typed_write!(world, Pos, include, exclude),
                    (Comp::Flags, false) => typed_write!(world, Flags, include, exclude),
                    (Comp::Scratch, false) => typed_write!(world, Scratch, include, exclude),
                    (Comp::Health, true) => typed_write_optional!(world, Health, include, exclude),
                    (Comp::Level, true) => typed_write_optional!(world, Level, include, exclude),
                    (Comp::Name, true) => typed_write_optional!(world, Name, include, exclude),
                    (Comp::Pos, true) => typed_write_optional!(world, Pos, include, exclude),
                    (Comp::Flags, true) => typed_write_optional!(world, Flags, include, exclude),
                    (Comp::Scratch, true) => {
                        typed_write_optional!(world, Scratch, include, exclude)
                    }
                };
                visited.sort();
                ensure_eq!(
                    visited,
                    expected,
                    "typed_query::<(Entity, {}{comp:?}{})>().with({include:#b}).without({exclude:#b})",
                    if optional { "Option<&mut " } else { "&mut " },
                    if optional { ">" } else { "" }
                );
                self.touched.borrow_mut().extend(visited);
            }
            &Op::TypedRead {
                include,
                exclude,
                comp,
            } => {
                let mut expected: Vec<(Entity, Value, Option<Name>)> = self
                    .model
                    .iter()
                    .filter(|(_, components)| {
                        matches(components.mask(), include | comp.bit(), exclude)
                    })
                    .map(|(&entity, components)| {
                        let value = components.get(comp).expect("matched: has the component");
                        (entity, value, components.name.clone())
                    })
                    .collect();
                expected.sort();
                let world = &mut self.world;
                let (mut rows, count) = match comp {
                    Comp::Health => typed_read!(world, Health, include, exclude),
                    Comp::Level => typed_read!(world, Level, include, exclude),
                    Comp::Name => typed_read!(world, Name, include, exclude),
                    Comp::Pos => typed_read!(world, Pos, include, exclude),
                    Comp::Flags => typed_read!(world, Flags, include, exclude),
                    Comp::Scratch => typed_read!(world, Scratch, include, exclude),
                };
                rows.sort();
                ensure_eq!(
                    rows,
                    expected,
                    "typed_query::<(Entity, &{comp:?}, Option<&Name>)>().with({include:#b}).without({exclude:#b})"
                );
                ensure_eq!(count, expected.len(), "typed_query::<&{comp:?}>().count()");
            }
            &Op::AddToCounter(amount) => {
                self.counter = self.counter.wrapping_add(amount);
                self.world.resources.counter = self.world.resources.counter.wrapping_add(amount);
            }
            &Op::SumHealthIntoCounter(include) => {
                for components in self.model.values() {
                    if let Some(health) = &components.health
                        && matches(components.mask(), include, 0)
                    {
                        self.counter = self.counter.wrapping_add(i64::from(health.0));
                    }
                }
                let mut expected_queued: Vec<Entity> = self
                    .model
                    .iter()
                    .filter(|(_, components)| {
                        components
                            .health
                            .as_ref()
                            .is_some_and(|health| health.0 < 0)
                            && matches(components.mask(), include, 0)
                    })
                    .map(|(&entity, _)| entity)
                    .collect();
                expected_queued.sort();
                self.hits.send(Hit(self.counter as i32), self.frame);
                // The world: one pass over `components`, writing `resources`, queueing on
                // `commands` and sending on `events`, all borrowed at once.
                let mut queued = Vec::new();
                let parts = self.world.split_mut();
                let (resources, events, mut commands) =
                    (parts.resources, parts.events, parts.commands);
                parts
                    .components
                    .typed_query::<(Entity, &Health)>()
                    .with(include)
                    .for_each(|(entity, health)| {
                        resources.counter = resources.counter.wrapping_add(i64::from(health.0));
                        if health.0 < 0 {
                            commands.queue_despawn(entity);
                            queued.push(entity);
                        }
                    });
                events.hit.send(Hit(resources.counter as i32));
                // The queue holds the despawns in the world's row order.
                self.queue
                    .extend(queued.iter().map(|&entity| ModelCommand::Despawn(entity)));
                queued.sort();
                ensure_eq!(
                    queued,
                    expected_queued,
                    "despawns queued through split_mut().commands"
                );
            }
            Op::SaveClone => {
                let mut copy = self.clone();
                copy.saved = None;
                // A clone starts with an empty queue: the reserved handles of queued spawns are
                // given back in it as `clear_commands()` gives them back.
                copy.queue.clear();
                copy.pending.clear();
                // The clone itself must agree with the model's copy.
                copy.check_all(Depth::Step(self.issued.len()))
                    .map_err(|error| format!("the clone: {error}"))?;
                copy.check_events()
                    .map_err(|error| format!("the clone: {error}"))?;
                self.saved = Some(Box::new(copy));
            }
            Op::Restore => {
                if let Some(saved) = self.saved.take() {
                    let mut world = std::mem::take(&mut self.world);
                    world.restore(&saved.world);
                    ensure_eq!(
                        world.clone().spawn_entities(0, 3),
                        saved.world.clone().spawn_entities(0, 3),
                        "the next handles of the restored world and of the saved clone"
                    );
                    let mut restored = (*saved).clone();
                    restored.world = world;
                    restored.saved = Some(saved);
                    *self = restored;
                }
            }
            &Op::Snapshot(json) => {
                // The next handles a clone of the saved world issues (its reservations given
                // back): the loaded world must issue the same ones.
                let next_of_clone = self.world.clone().spawn_entities(0, 3);
                let loaded: World = if json {
                    let text = serde_json::to_string(&self.world.snapshot())
                        .map_err(|error| format!("saving to JSON: {error}"))?;
                    serde_json::from_str(&text)
                        .map_err(|error| format!("loading from JSON: {error}"))?
                } else {
                    let bytes = postcard::to_allocvec(&self.world.snapshot())
                        .map_err(|error| format!("saving to postcard: {error}"))?;
                    postcard::from_bytes(&bytes)
                        .map_err(|error| format!("loading from postcard: {error}"))?
                };
                ensure_eq!(
                    loaded.clone().spawn_entities(0, 3),
                    next_of_clone,
                    "the next handles of the loaded world and of a clone of the saved one"
                );
                self.world = loaded;
                // Not saved: the event channels (the bound of `note` is the harness's setting,
                // set again), the change log (a loaded world starts with it off and empty) and
                // queued commands (their reserved handles are given back). Every row's change
                // ticks are saved: the model's stamps stay as they are.
                self.world.events.note = EventChannel::with_capacity_limit(NOTE_LIMIT);
                self.hits = ModelChannel::new(None);
                self.notes = ModelChannel::new(Some(NOTE_LIMIT));
                self.log = ModelChannel::new(Some(LOG_CAPACITY));
                self.logging = false;
                self.hit_cursors = [EventCursor::new(); CURSORS];
                self.note_cursors = [EventCursor::new(); CURSORS];
                self.log_cursors = [EventCursor::new(); CURSORS];
                self.queue.clear();
                self.pending.clear();
            }
            Op::RunSchedule => {
                // `regenerate_heroes`, then `announce_counter`; after each, the tick advances
                // and the queued commands are applied (the first sync point applies all of them).
                for components in self.model.values_mut() {
                    if matches(components.mask(), HEALTH | HERO, 0) {
                        components.bump(Comp::Health);
                        components.stamp(HEALTH, now);
                    }
                }
                self.counter = self.counter.wrapping_add(1);
                let mut expected = self.m_sync_point()?;
                self.hits.send(Hit(self.counter as i32), self.frame);
                expected.absorb(self.m_sync_point()?);
                let mut schedule = Schedule::<World>::new();
                schedule
                    .push("regenerate_heroes", regenerate_heroes)
                    .and_then(|schedule| schedule.push("announce_counter", announce_counter))
                    .map_err(|error| format!("building the schedule: {error:?}"))?;
                let report = schedule.run(&mut self.world);
                ensure_eq!(report, expected, "the schedule's command report");
            }
        }
        Ok(())
    }

    /// The model's side of a schedule's sync point after a system: the tick advances, then the
    /// queued commands are applied at the new tick.
    fn m_sync_point(&mut self) -> Result<CommandReport, String> {
        self.remembered.push(self.tick);
        self.tick = self.tick.next();
        self.m_apply_commands(self.tick)
    }

    /// The model's side of `apply_commands` at tick `now`: what the world's report must say.
    fn m_apply_commands(&mut self, now: ModelTick) -> Result<CommandReport, String> {
        let (mut applied, mut skipped) = (0, 0);
        for command in std::mem::take(&mut self.queue) {
            let done = match command {
                ModelCommand::Spawn(mask, entities) => {
                    for entity in entities {
                        self.register_reserved(entity, rules::spawned(mask, []))?;
                    }
                    true
                }
                ModelCommand::SpawnBuilt(mask, entity, values) => {
                    self.register_reserved(entity, rules::spawned(mask, values))?;
                    true
                }
                ModelCommand::Despawn(entity) => self.m_despawn(entity),
                ModelCommand::Add(entity, mask) => self.m_add(entity, mask, now),
                ModelCommand::Remove(entity, mask) => self.m_remove(entity, mask),
                ModelCommand::Set(entity, value) => self.m_set(entity, value, now),
            };
            if done {
                applied += 1;
            } else {
                skipped += 1;
            }
        }
        Ok(CommandReport { applied, skipped })
    }
}
