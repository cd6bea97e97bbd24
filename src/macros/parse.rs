//! `__ecs_parse!`: `ecs!`'s input turned into its normal form, once, and every malformed block
//! reported here, once, in `ecs!`'s words. The generating rules match only the normal form:
//!
//! ```text
//! components  [ $( $(#[$attr])* $field : $ty => $mask [$($option)*] ),+ ]
//! tags        [ $( $(#[$attr])* $tag => $mask ),* ]
//! relations   [ $( $(#[$attr])* $relation / $reverse => $mask [$($policy)*] ),* ]
//! events      [ $( $(#[$attr])* $event : $ty [$($option)*] ),* ]
//! resources   [ $( $(#[$attr])* $resource : $ty ),* ]
//! hooks       [ $( { $event $( ($mask) )? => $hook } )* ]  (each hook's kind checked)
//! rules       [ $( { [$($policy)*] $first $( $verb $target )? $( ( $($member),+ ) )? } )* ]
//! ```
//!
//! (`rules` a world's or a sub-world's: `{ [] VELOCITY requires POSITION }`, `{ [] exclusive (IDLE, MOVING) }`;
//! each rule's words are checked where it is read, `__ecs_rules!`, names and contradictions by
//! the `const fn`s of `rules.rs`.)
//!
//! A block not given is `[]`; so is a malformed one once reported, so the rest of the world still
//! compiles and the message is the only error. A world whose component list is malformed is
//! `error` in place of its list: its other blocks are still checked, and nothing is generated.
//! Types, paths and the like were parsed here. The lists reach the generating rules through
//! `paste!` (the impl blocks they fill are named by it), which takes a plain path apart into its
//! tokens, so the rules match a type as `ty` (a `tt` would not hold `a::B` once taken apart),
//! and a hook is a group of its own (`{ on_add (POSITION) => systems::placed }`, matched with
//! the path as `$($hook:tt)+`).
//!
//! Well-formed input is normalised in one step per world, per sub-world and for a game's own
//! blocks (the fast path). Input it refuses takes the checking walk, block by block and a
//! `Hooks` block's hooks one by one, which reports what is wrong; only the entry errors
//! (`__ecs_malformed_component!`, `__ecs_malformed_relation!`) walk a list to name the entry at
//! fault. Nothing walks the components one by one on the way to the generated code, so the
//! expansion depth does not grow with the component count.

#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_parse {
    // The fast path, one step: a world whose blocks are all well-formed, in order, with hooks
    // of the kinds a world has. Its blocks come twice: the second copy is matched for the
    // hooks' kinds (by a pattern naming each kind, which cannot say which one it matched).
    // Anything else takes the checking walk (`@check`), which reports what is wrong.
    (
        @world $world:ident
        { $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident $([$($option:ident)*])? ),+ $(,)? }
        {
            $( Tags { $( $(#[$tag_attr:meta])* $tag:ident => $tag_mask:ident ),* $(,)? } )?
            $( Relations { $( $(#[$relation_attr:meta])* $relation:ident / $reverse:ident => $relation_mask:ident $([$($policy:tt)*])? ),* $(,)? } )?
            $( Events { $( $(#[$event_attr:meta])* $event:ident : $event_ty:ty $([$($event_option:ident)*])? ),* $(,)? } )?
            $( Resources { $( $(#[$resource_attr:meta])* $resource:ident : $resource_ty:ty ),* $(,)? } )?
            $( Hooks { $( $hook_event:ident $( ( $hook_mask:ident ) )? => $hook:path ),* $(,)? } )?
            $( Rules { $( $rule:ident $( $rule_verb:ident $rule_target:ident )? $( ( $($rule_member:ident),+ $(,)? ) )? $( [ $($rule_policy:ident)* ] )? ),* $(,)? } )?
        }
        {
            $( Tags $tags_block:tt )? $( Relations $relations_block:tt )? $( Events $events_block:tt )? $( Resources $resources_block:tt )?
            $( Hooks {
                $( $(on_spawn)? $(on_despawn)? $(on_add ($add:ident))? $(on_remove ($remove:ident))? $(on_link ($link:ident))? $(on_unlink ($unlink:ident))? => $known:path ),* $(,)?
            } )?
            $( Rules $rules_block:tt )?
        }
    ) => {
        $crate::__ecs_generate! {
            (world $world [ $( $(#[$attr])* $field : $ty => $mask [$($($option)*)?] ),+ ])
            tags: [ $( $( $(#[$tag_attr])* $tag => $tag_mask ),* )? ]
            relations: [ $( $( $(#[$relation_attr])* $relation / $reverse => $relation_mask [$($($policy)*)?] ),* )? ]
            events: [ $( $( $(#[$event_attr])* $event : $event_ty [$($($event_option)*)?] ),* )? ]
            resources: [ $( $( $(#[$resource_attr])* $resource : $resource_ty ),* )? ]
            hooks: [ $( $( { $hook_event $( ( $hook_mask ) )? => $hook } )* )? ]
            rules: [ $( $( { [ $($($rule_policy)*)? ] $rule $( $rule_verb $rule_target )? $( ( $($rule_member),+ ) )? } )* )? ]
        }
    };
    (@world $world:ident $components:tt { $($blocks:tt)* } $copy:tt) => {
        $crate::__ecs_parse! { @check (world $world) $world $components $($blocks)* }
    };

    // A multi-world's sub-worlds, one at a time: which of its blocks follow each (`Tags`,
    // `Relations`, `Hooks`, in that order: a block out of place starts the next sub-world, as
    // a sub-world may be named like a block), then the sub-world in one step (`@sub_world`).
    // `$done` lists those parsed, or is `error` after a malformed component list.
    (@sub_worlds $game:ident $done:tt { Relations { $($relations:tt)* } $($rest:tt)* } $blocks:tt) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: in the multi-world `",
            ::core::stringify!($game),
            "`, relations belong to a sub-world: write its `Relations { ... }` block right after it (after its `Tags` block, if any)"
        ));
    };
    (@sub_worlds $game:ident $done:tt { Hooks { $($hooks:tt)* } $($rest:tt)* } $blocks:tt) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: in the multi-world `",
            ::core::stringify!($game),
            "`, a sub-world's `Hooks { ... }` block comes right after it (after its `Tags` and `Relations` blocks, if any)"
        ));
    };
    (@sub_worlds $game:ident $done:tt { $sub_world:ident { $($components:tt)* } Tags { $($tags:tt)* } Relations { $($relations:tt)* } Hooks { $($hooks:tt)* } $($rest:tt)* } $blocks:tt) => {
        $crate::__ecs_parse! { @sub_world $game $done $sub_world { $($components)* } { $($tags)* } { $($relations)* } { $($hooks)* } { $($hooks)* } { $($rest)* } $blocks }
    };
    (@sub_worlds $game:ident $done:tt { $sub_world:ident { $($components:tt)* } Tags { $($tags:tt)* } Relations { $($relations:tt)* } $($rest:tt)* } $blocks:tt) => {
        $crate::__ecs_parse! { @sub_world $game $done $sub_world { $($components)* } { $($tags)* } { $($relations)* } {} {} { $($rest)* } $blocks }
    };
    (@sub_worlds $game:ident $done:tt { $sub_world:ident { $($components:tt)* } Tags { $($tags:tt)* } Hooks { $($hooks:tt)* } $($rest:tt)* } $blocks:tt) => {
        $crate::__ecs_parse! { @sub_world $game $done $sub_world { $($components)* } { $($tags)* } {} { $($hooks)* } { $($hooks)* } { $($rest)* } $blocks }
    };
    (@sub_worlds $game:ident $done:tt { $sub_world:ident { $($components:tt)* } Tags { $($tags:tt)* } $($rest:tt)* } $blocks:tt) => {
        $crate::__ecs_parse! { @sub_world $game $done $sub_world { $($components)* } { $($tags)* } {} {} {} { $($rest)* } $blocks }
    };
    (@sub_worlds $game:ident $done:tt { $sub_world:ident { $($components:tt)* } Relations { $($relations:tt)* } Hooks { $($hooks:tt)* } $($rest:tt)* } $blocks:tt) => {
        $crate::__ecs_parse! { @sub_world $game $done $sub_world { $($components)* } {} { $($relations)* } { $($hooks)* } { $($hooks)* } { $($rest)* } $blocks }
    };
    (@sub_worlds $game:ident $done:tt { $sub_world:ident { $($components:tt)* } Relations { $($relations:tt)* } $($rest:tt)* } $blocks:tt) => {
        $crate::__ecs_parse! { @sub_world $game $done $sub_world { $($components)* } {} { $($relations)* } {} {} { $($rest)* } $blocks }
    };
    (@sub_worlds $game:ident $done:tt { $sub_world:ident { $($components:tt)* } Hooks { $($hooks:tt)* } $($rest:tt)* } $blocks:tt) => {
        $crate::__ecs_parse! { @sub_world $game $done $sub_world { $($components)* } {} {} { $($hooks)* } { $($hooks)* } { $($rest)* } $blocks }
    };
    (@sub_worlds $game:ident $done:tt { $sub_world:ident { $($components:tt)* } $($rest:tt)* } $blocks:tt) => {
        $crate::__ecs_parse! { @sub_world $game $done $sub_world { $($components)* } {} {} {} {} { $($rest)* } $blocks }
    };
    (@sub_worlds $game:ident $done:tt $rest:tt $blocks:tt) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: malformed multi-world `",
            ::core::stringify!($game),
            "`; write each sub-world as `Name { component: Type => MASK, ... }`, optionally followed by `Tags { tag => TAG }`, `Relations { forward / reverse => MASK }`, `Hooks { on_add(MASK) => function }` and `Rules { VELOCITY requires POSITION }`"
        ));
    };
    // One sub-world, its hooks given twice (for their kinds, as a world's blocks are).
    (
        @sub_world $game:ident $done:tt $sub_world:ident
        { $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident $([$($option:ident)*])? ),+ $(,)? }
        { $( $(#[$tag_attr:meta])* $tag:ident => $tag_mask:ident ),* $(,)? }
        { $( $(#[$relation_attr:meta])* $relation:ident / $reverse:ident => $relation_mask:ident $([$($policy:tt)*])? ),* $(,)? }
        { $( $hook_event:ident $( ( $hook_mask:ident ) )? => $hook:path ),* $(,)? }
        { $( $(on_add ($add:ident))? $(on_remove ($remove:ident))? $(on_link ($link:ident))? $(on_unlink ($unlink:ident))? => $known:path ),* $(,)? }
        $rest:tt $blocks:tt
    ) => {
        $crate::__ecs_parse! {
            @sub_world_done $game $done
            (
                $sub_world
                [ $( $(#[$attr])* $field : $ty => $mask [$($($option)*)?] ),+ ]
                [ $( $(#[$tag_attr])* $tag => $tag_mask ),* ]
                [ $( $(#[$relation_attr])* $relation / $reverse => $relation_mask [$($($policy)*)?] ),* ]
                [ $( { $hook_event $( ( $hook_mask ) )? => $hook } )* ]
            )
            $rest $blocks
        }
    };
    (@sub_world $game:ident $done:tt $sub_world:ident $components:tt $tags:tt $relations:tt $hooks:tt $kinds:tt $rest:tt $blocks:tt) => {
        $crate::__ecs_parse! {
            @check (sub_world $game $done $sub_world { $rest $blocks }) $sub_world $components Tags $tags Relations $relations Hooks $hooks
        }
    };
    // A sub-world's blocks are read: its `Rules` block, its last, if one follows
    // (well-formed, or malformed: reported, standing for `[]`), taken off the rest.
    (
        @sub_world_done $game:ident $done:tt $sub_world:tt
        { Rules { $( $rule:ident $( $verb:ident $target:ident )? $( ( $($member:ident),+ $(,)? ) )? $( [ $($policy:ident)* ] )? ),* $(,)? } $($rest:tt)* }
        $blocks:tt
    ) => {
        $crate::__ecs_parse! {
            @sub_world_next $game $done $sub_world
            [ $( { [ $($($policy)*)? ] $rule $( $verb $target )? $( ( $($member),+ ) )? } )* ]
            { $($rest)* } $blocks
        }
    };
    (@sub_world_done $game:ident $done:tt $sub_world:tt { Rules { $($rules:tt)* } $($rest:tt)* } $blocks:tt) => {
        ::core::compile_error!(
            "ecs!: malformed `Rules` block; write each rule as `VELOCITY requires POSITION` (optionally followed by `[refuse]`) or `exclusive(IDLE, MOVING, ATTACKING)`, separated by commas"
        );
        $crate::__ecs_parse! { @sub_world_next $game $done $sub_world [] { $($rest)* } $blocks }
    };
    (@sub_world_done $game:ident $done:tt $sub_world:tt $rest:tt $blocks:tt) => {
        $crate::__ecs_parse! { @sub_world_next $game $done $sub_world [] $rest $blocks }
    };
    // A sub-world is complete: whether it is the first (it records spawns for the game's
    // hooks) and the last (despawns); after the last, the game's own blocks.
    (@sub_world_next $game:ident [] ($($sub_world:tt)+) $rules:tt {} $blocks:tt) => {
        $crate::__ecs_parse! { @game $game [ ($($sub_world)+ $rules spawn: yes despawn: yes) ] $blocks $blocks }
    };
    (@sub_world_next $game:ident [] ($($sub_world:tt)+) $rules:tt $rest:tt $blocks:tt) => {
        $crate::__ecs_parse! { @sub_worlds $game [ ($($sub_world)+ $rules spawn: yes despawn: no) ] $rest $blocks }
    };
    (@sub_world_next $game:ident [ $($done:tt)+ ] ($($sub_world:tt)+) $rules:tt {} $blocks:tt) => {
        $crate::__ecs_parse! { @game $game [ $($done)+ ($($sub_world)+ $rules spawn: no despawn: yes) ] $blocks $blocks }
    };
    (@sub_world_next $game:ident [ $($done:tt)+ ] ($($sub_world:tt)+) $rules:tt $rest:tt $blocks:tt) => {
        $crate::__ecs_parse! { @sub_worlds $game [ $($done)+ ($($sub_world)+ $rules spawn: no despawn: no) ] $rest $blocks }
    };
    // This sub-world's component list, or an earlier one's, was malformed (and reported): the
    // rest is still checked, and nothing is generated.
    (@sub_world_next $game:ident $done:tt $sub_world:tt $rules:tt {} $blocks:tt) => {
        $crate::__ecs_parse! { @game $game error $blocks $blocks }
    };
    (@sub_world_next $game:ident $done:tt $sub_world:tt $rules:tt $rest:tt $blocks:tt) => {
        $crate::__ecs_parse! { @sub_worlds $game error $rest $blocks }
    };
    // The game's own blocks: in one step when well-formed (its hooks given twice, for their
    // kinds), else through the checking walk.
    (
        @game $game:ident [ $($done:tt)+ ]
        {
            $( Events { $( $(#[$event_attr:meta])* $event:ident : $event_ty:ty $([$($event_option:ident)*])? ),* $(,)? } )?
            $( Resources { $( $(#[$resource_attr:meta])* $resource:ident : $resource_ty:ty ),* $(,)? } )?
            $( Hooks { $( $hook_event:ident $( ( $hook_mask:ident ) )? => $hook:path ),* $(,)? } )?
        }
        {
            $( Events $events_block:tt )? $( Resources $resources_block:tt )?
            $( Hooks { $( $(on_spawn)? $(on_despawn)? => $known:path ),* $(,)? } )?
        }
    ) => {
        $crate::__ecs_generate! {
            (game $game [ $($done)+ ])
            tags: [] relations: []
            events: [ $( $( $(#[$event_attr])* $event : $event_ty [$($($event_option)*)?] ),* )? ]
            resources: [ $( $( $(#[$resource_attr])* $resource : $resource_ty ),* )? ]
            hooks: [ $( $( { $hook_event $( ( $hook_mask ) )? => $hook } )* )? ]
        }
    };
    (@game $game:ident $done:tt { $($blocks:tt)* } $copy:tt) => {
        $crate::__ecs_parse! { @tags (game $game $done) rest: $($blocks)* }
    };

    // The checking walk, for input the fast path refused: the same normal form, block by
    // block, each malformed block reported (and standing for `[]`, so the rest still compiles
    // and the message is the only error), each hook's kind checked one by one (`@hook`). First
    // a world's or a sub-world's components (`$form` completed by their list, or by `error`).
    (@check ($($form:tt)*) $world:ident { $( $(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident $([$($option:ident)*])? ),+ $(,)? } $($blocks:tt)*) => {
        $crate::__ecs_parse! { @tags ($($form)* [ $( $(#[$attr])* $field : $ty => $mask [$($($option)*)?] ),+ ]) rest: $($blocks)* }
    };
    (@check ($($form:tt)*) $world:ident { $($components:tt)* } $($blocks:tt)*) => {
        $crate::__ecs_parse! { @malformed_components $world { $($components)* } }
        $crate::__ecs_parse! { @tags ($($form)* error) rest: $($blocks)* }
    };

    // Error path only: an empty or malformed component list.
    (@malformed_components $world:ident {}) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the world `",
            ::core::stringify!($world),
            "` declares no components; add one like `position: Position => POSITION`"
        ));
    };
    (@malformed_components $world:ident { $($components:tt)* }) => {
        $crate::__ecs_malformed_component! { $($components)* }
    };

    // The blocks after the components, each at most once and in this order: `Tags`,
    // `Relations`, `Events`, `Resources`, `Hooks` (a sub-world's: `Tags`, `Relations`, `Hooks`).
    (@tags (game $game:ident $done:tt) rest: Tags { $($tags:tt)* } $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: in the multi-world `",
            ::core::stringify!($game),
            "`, tags belong to a sub-world: write its `Tags { ... }` block right after it, inside `",
            ::core::stringify!($game),
            " { ... }`"
        ));
        $crate::__ecs_parse! { @relations (game $game $done) tags: [] rest: $($rest)* }
    };
    (@tags $form:tt rest: Tags { $( $(#[$attr:meta])* $tag:ident => $mask:ident ),* $(,)? } $($rest:tt)*) => {
        $crate::__ecs_parse! { @relations $form tags: [ $( $(#[$attr])* $tag => $mask ),* ] rest: $($rest)* }
    };
    (@tags $form:tt rest: Tags { $($tags:tt)* } $($rest:tt)*) => {
        ::core::compile_error!(
            "ecs!: malformed `Tags` block; write each tag as `name => MASK`, separated by commas"
        );
        $crate::__ecs_parse! { @relations $form tags: [] rest: $($rest)* }
    };
    (@tags $form:tt rest: $($rest:tt)*) => {
        $crate::__ecs_parse! { @relations $form tags: [] rest: $($rest)* }
    };

    (@relations (game $game:ident $done:tt) tags: $tags:tt rest: Relations { $($relations:tt)* } $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: in the multi-world `",
            ::core::stringify!($game),
            "`, relations belong to a sub-world: write its `Relations { ... }` block right after it (after its `Tags` block, if any), inside `",
            ::core::stringify!($game),
            " { ... }`"
        ));
        $crate::__ecs_parse! { @events (game $game $done) tags: $tags relations: [] rest: $($rest)* }
    };
    (
        @relations $form:tt tags: $tags:tt
        rest: Relations { $( $(#[$attr:meta])* $relation:ident / $reverse:ident => $mask:ident $([$($policy:tt)*])? ),* $(,)? } $($rest:tt)*
    ) => {
        $crate::__ecs_parse! {
            @events $form tags: $tags relations: [ $( $(#[$attr])* $relation / $reverse => $mask [$($($policy)*)?] ),* ] rest: $($rest)*
        }
    };
    (@relations $form:tt tags: $tags:tt rest: Relations { $($relations:tt)* } $($rest:tt)*) => {
        $crate::__ecs_malformed_relation! { $($relations)* }
        $crate::__ecs_parse! { @events $form tags: $tags relations: [] rest: $($rest)* }
    };
    (@relations $form:tt tags: $tags:tt rest: $($rest:tt)*) => {
        $crate::__ecs_parse! { @events $form tags: $tags relations: [] rest: $($rest)* }
    };

    // A sub-world has no events or resources of its own (a sub-world may be named `Events`).
    (@events (sub_world $($form:tt)*) tags: $tags:tt relations: $relations:tt rest: $($rest:tt)*) => {
        $crate::__ecs_parse! { @hooks (sub_world $($form)*) tags: $tags relations: $relations events: [] resources: [] rest: $($rest)* }
    };
    (@events $form:tt tags: $tags:tt relations: $relations:tt rest: Events { $( $(#[$attr:meta])* $event:ident : $ty:ty $([$($option:ident)*])? ),* $(,)? } $($rest:tt)*) => {
        $crate::__ecs_parse! {
            @resources $form tags: $tags relations: $relations events: [ $( $(#[$attr])* $event : $ty [$($($option)*)?] ),* ] rest: $($rest)*
        }
    };
    (@events $form:tt tags: $tags:tt relations: $relations:tt rest: Events { $($events:tt)* } $($rest:tt)*) => {
        ::core::compile_error!(
            "ecs!: malformed `Events` block; write each event as `name: Type`, optionally followed by `[saved]`, separated by commas"
        );
        $crate::__ecs_parse! { @resources $form tags: $tags relations: $relations events: [] rest: $($rest)* }
    };
    (@events $form:tt tags: $tags:tt relations: $relations:tt rest: $($rest:tt)*) => {
        $crate::__ecs_parse! { @resources $form tags: $tags relations: $relations events: [] rest: $($rest)* }
    };

    (
        @resources $form:tt tags: $tags:tt relations: $relations:tt events: $events:tt
        rest: Resources { $( $(#[$attr:meta])* $resource:ident : $ty:ty ),* $(,)? } $($rest:tt)*
    ) => {
        $crate::__ecs_parse! {
            @hooks $form tags: $tags relations: $relations events: $events resources: [ $( $(#[$attr])* $resource : $ty ),* ] rest: $($rest)*
        }
    };
    (@resources $form:tt tags: $tags:tt relations: $relations:tt events: $events:tt rest: Resources { $($resources:tt)* } $($rest:tt)*) => {
        ::core::compile_error!(
            "ecs!: malformed `Resources` block; write each resource as `name: Type`, separated by commas"
        );
        $crate::__ecs_parse! { @hooks $form tags: $tags relations: $relations events: $events resources: [] rest: $($rest)* }
    };
    (@resources $form:tt tags: $tags:tt relations: $relations:tt events: $events:tt rest: $($rest:tt)*) => {
        $crate::__ecs_parse! { @hooks $form tags: $tags relations: $relations events: $events resources: [] rest: $($rest)* }
    };

    // A `Hooks` block of the right shape has each hook's kind checked (`@hook`) where it is
    // declared: a world's, a sub-world's or a game's own (`$context`, the form's first word).
    (
        @hooks ($context:ident $($form:tt)*) tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt
        rest: Hooks { $( $event:ident $( ( $mask:ident ) )? => $hook:path ),* $(,)? } $($rest:tt)*
    ) => {
        $crate::__ecs_parse! {
            @hook $context [] [ $( { $event $( ( $mask ) )? => $hook } )* ]
            { @end ($context $($form)*) tags: $tags relations: $relations events: $events resources: $resources hooks: }
            { rest: $($rest)* }
        }
    };
    (@hooks (game $($form:tt)*) tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt rest: Hooks { $($hooks:tt)* } $($rest:tt)*) => {
        ::core::compile_error!(
            "ecs!: malformed `Hooks` block; write each hook as `on_despawn => function`, separated by commas"
        );
        $crate::__ecs_parse! { @end (game $($form)*) tags: $tags relations: $relations events: $events resources: $resources hooks: [] rest: $($rest)* }
    };
    (@hooks $form:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt rest: Hooks { $($hooks:tt)* } $($rest:tt)*) => {
        ::core::compile_error!(
            "ecs!: malformed `Hooks` block; write each hook as `on_add(POSITION) => function`, separated by commas"
        );
        $crate::__ecs_parse! { @end $form tags: $tags relations: $relations events: $events resources: $resources hooks: [] rest: $($rest)* }
    };
    (@hooks $form:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt rest: $($rest:tt)*) => {
        $crate::__ecs_parse! { @end $form tags: $tags relations: $relations events: $events resources: $resources hooks: [] rest: $($rest)* }
    };

    // One hook's kind: a world takes every kind; a sub-world those of its components, tags
    // and relations; a game's own block `on_spawn` and `on_despawn`. A hook in the wrong place
    // is reported and left out, so its message is the only error.
    (@hook sub_world $done:tt [ { on_spawn $($hook:tt)* } $($hooks:tt)* ] $then:tt $after:tt) => {
        $crate::__ecs_parse! { @lifecycle_elsewhere on_spawn }
        $crate::__ecs_parse! { @hook sub_world $done [ $($hooks)* ] $then $after }
    };
    (@hook sub_world $done:tt [ { on_despawn $($hook:tt)* } $($hooks:tt)* ] $then:tt $after:tt) => {
        $crate::__ecs_parse! { @lifecycle_elsewhere on_despawn }
        $crate::__ecs_parse! { @hook sub_world $done [ $($hooks)* ] $then $after }
    };
    (@hook $context:ident [ $($done:tt)* ] [ { on_spawn => $hook:tt } $($hooks:tt)* ] $then:tt $after:tt) => {
        $crate::__ecs_parse! { @hook $context [ $($done)* { on_spawn => $hook } ] [ $($hooks)* ] $then $after }
    };
    (@hook $context:ident [ $($done:tt)* ] [ { on_despawn => $hook:tt } $($hooks:tt)* ] $then:tt $after:tt) => {
        $crate::__ecs_parse! { @hook $context [ $($done)* { on_despawn => $hook } ] [ $($hooks)* ] $then $after }
    };
    (@hook game $done:tt [ { $event:ident $($hook:tt)* } $($hooks:tt)* ] $then:tt $after:tt) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: a multi-world's own `Hooks` block holds `on_spawn` and `on_despawn`; `",
            ::core::stringify!($event),
            "` goes in a `Hooks` block right after the sub-world that declares its component, tag or relation"
        ));
        $crate::__ecs_parse! { @hook game $done [ $($hooks)* ] $then $after }
    };
    (@hook $context:ident [ $($done:tt)* ] [ { on_add ($mask:ident) => $hook:tt } $($hooks:tt)* ] $then:tt $after:tt) => {
        $crate::__ecs_parse! { @hook $context [ $($done)* { on_add ($mask) => $hook } ] [ $($hooks)* ] $then $after }
    };
    (@hook $context:ident [ $($done:tt)* ] [ { on_remove ($mask:ident) => $hook:tt } $($hooks:tt)* ] $then:tt $after:tt) => {
        $crate::__ecs_parse! { @hook $context [ $($done)* { on_remove ($mask) => $hook } ] [ $($hooks)* ] $then $after }
    };
    (@hook $context:ident [ $($done:tt)* ] [ { on_link ($mask:ident) => $hook:tt } $($hooks:tt)* ] $then:tt $after:tt) => {
        $crate::__ecs_parse! { @hook $context [ $($done)* { on_link ($mask) => $hook } ] [ $($hooks)* ] $then $after }
    };
    (@hook $context:ident [ $($done:tt)* ] [ { on_unlink ($mask:ident) => $hook:tt } $($hooks:tt)* ] $then:tt $after:tt) => {
        $crate::__ecs_parse! { @hook $context [ $($done)* { on_unlink ($mask) => $hook } ] [ $($hooks)* ] $then $after }
    };
    (@hook $context:ident $done:tt [ { $event:ident $($hook:tt)* } $($hooks:tt)* ] $then:tt $after:tt) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: unknown hook `",
            ::core::stringify!($event),
            "`; a hook is `on_spawn`, `on_despawn`, `on_add(MASK)`, `on_remove(MASK)`, `on_link(RELATION)` or `on_unlink(RELATION)`, then `=> function`"
        ));
        $crate::__ecs_parse! { @hook $context $done [ $($hooks)* ] $then $after }
    };
    (@hook $context:ident $done:tt [] { $($then:tt)* } { $($after:tt)* }) => {
        $crate::__ecs_parse! { $($then)* $done $($after)* }
    };
    (@lifecycle_elsewhere $event:ident) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: `",
            ::core::stringify!($event),
            "` is the multi-world's: write it in the game's own `Hooks` block, after its `Resources` block"
        ));
    };

    // A sub-world checked: its entry, or `error` (its component list was malformed).
    (
        @end (sub_world $game:ident $done:tt $sub_world:ident { $rest:tt $blocks:tt } [ $($components:tt)* ])
        tags: $tags:tt relations: $relations:tt events: [] resources: [] hooks: $hooks:tt rest:
    ) => {
        $crate::__ecs_parse! { @sub_world_done $game $done ($sub_world [ $($components)* ] $tags $relations $hooks) $rest $blocks }
    };
    (
        @end (sub_world $game:ident $done:tt $sub_world:ident { $rest:tt $blocks:tt } error)
        tags: $tags:tt relations: $relations:tt events: [] resources: [] hooks: $hooks:tt rest:
    ) => {
        $crate::__ecs_parse! { @sub_world_done $game error () $rest $blocks }
    };
    // A world's `Rules` block, its last: well-formed, malformed (reported, standing for `[]`),
    // or followed by a block out of place. A game's own blocks take none (a sub-world's is
    // read with it, `@sub_world_done`).
    (
        @end (world $($form:tt)*) tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt
        rest: Rules { $( $rule:ident $( $verb:ident $target:ident )? $( ( $($member:ident),+ $(,)? ) )? $( [ $($policy:ident)* ] )? ),* $(,)? }
    ) => {
        $crate::__ecs_generate! {
            (world $($form)*) tags: $tags relations: $relations events: $events resources: $resources hooks: $hooks
            rules: [ $( { [ $($($policy)*)? ] $rule $( $verb $target )? $( ( $($member),+ ) )? } )* ]
        }
    };
    (@end (world $($form:tt)*) tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt rest: Rules { $($rules:tt)* }) => {
        ::core::compile_error!(
            "ecs!: malformed `Rules` block; write each rule as `VELOCITY requires POSITION` (optionally followed by `[refuse]`) or `exclusive(IDLE, MOVING, ATTACKING)`, separated by commas"
        );
        $crate::__ecs_generate! { (world $($form)*) tags: $tags relations: $relations events: $events resources: $resources hooks: $hooks rules: [] }
    };
    (@end (game $game:ident $($form:tt)*) tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt rest: Rules { $($rules:tt)* } $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: in the multi-world `",
            ::core::stringify!($game),
            "`, rules belong to a sub-world and name its own components: write its `Rules { ... }` block right after it (after its `Tags`, `Relations` and `Hooks` blocks, if any), inside `",
            ::core::stringify!($game),
            " { ... }`"
        ));
    };
    (@end $form:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt rest: Rules { $($rules:tt)* } $block:ident $($rest:tt)*) => {
        $crate::__ecs_block_error! { $block }
    };
    (@end (world $($form:tt)*) tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt rest:) => {
        $crate::__ecs_generate! { (world $($form)*) tags: $tags relations: $relations events: $events resources: $resources hooks: $hooks rules: [] }
    };
    // A world or a game is complete: generate it.
    (@end $form:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt rest:) => {
        $crate::__ecs_generate! { $form tags: $tags relations: $relations events: $events resources: $resources hooks: $hooks }
    };
    (@end $form:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt rest: $block:ident { $($body:tt)* } $($rest:tt)*) => {
        $crate::__ecs_block_error! { $block }
    };
    (@end $form:tt tags: $tags:tt relations: $relations:tt events: $events:tt resources: $resources:tt hooks: $hooks:tt rest: $($rest:tt)*) => {
        ::core::compile_error!(
            "ecs!: expected a block like `Resources { delta_time: f32 }` after the world block"
        );
    };
}

/// Error path only: a block that is out of order, repeated, or unknown.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_block_error {
    (Tags) => { $crate::__ecs_block_error! { @misplaced "Tags" } };
    (Relations) => { $crate::__ecs_block_error! { @misplaced "Relations" } };
    (Events) => { $crate::__ecs_block_error! { @misplaced "Events" } };
    (Resources) => { $crate::__ecs_block_error! { @misplaced "Resources" } };
    (Hooks) => { $crate::__ecs_block_error! { @misplaced "Hooks" } };
    (Rules) => { $crate::__ecs_block_error! { @misplaced "Rules" } };
    (@misplaced $block:literal) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the `",
            $block,
            "` block is repeated or out of order; after the world block come `Tags`, `Relations`, `Events`, `Resources`, `Hooks` and `Rules`, each at most once, in that order"
        ));
    };
    ($block:ident) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: unknown block `",
            ::core::stringify!($block),
            "`; after the world block, `ecs!` accepts `Tags`, `Relations`, `Events`, `Resources`, `Hooks` and `Rules` blocks"
        ));
    };
}

/// Error path only: finds the first malformed component entry and says what is wrong with it.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_malformed_component {
    ($(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident $([$($option:ident)*])? $(, $($rest:tt)*)?) => {
        $crate::__ecs_malformed_component! { $($($rest)*)? }
    };
    ($(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident [$($option:tt)*] $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: malformed options for the component `",
            ::core::stringify!($field),
            "`; the only option is `[untracked]`"
        ));
    };
    ($(#[$attr:meta])* $field:ident : $ty:ty => $mask:ident $($rest:tt)+) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: expected a comma after the component `",
            ::core::stringify!($field),
            "`"
        ));
    };
    ($(#[$attr:meta])* $field:ident : $ty:ty $(, $($rest:tt)*)?) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the component `",
            ::core::stringify!($field),
            "` has no mask constant; write `",
            ::core::stringify!($field),
            ": ",
            ::core::stringify!($ty),
            " => MASK_NAME`"
        ));
    };
    ($(#[$attr:meta])* $field:ident : $ty:ty => $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the component `",
            ::core::stringify!($field),
            "` needs a mask constant name after `=>`, like `POSITION`"
        ));
    };
    ($(#[$attr:meta])* $field:ident : $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the component `",
            ::core::stringify!($field),
            "` needs a type after `:`; write `",
            ::core::stringify!($field),
            ": Type => MASK_NAME`"
        ));
    };
    ($(#[$attr:meta])* $field:ident $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: expected `:` after the component name `",
            ::core::stringify!($field),
            "`; write `",
            ::core::stringify!($field),
            ": Type => MASK_NAME`"
        ));
    };
    ($($rest:tt)*) => {
        ::core::compile_error!(
            "ecs!: malformed world block; write each component as `name: Type => MASK`, separated by commas"
        );
    };
}

/// Error path only: finds the first malformed relation entry and says what is wrong with it.
#[doc(hidden)]
#[macro_export]
macro_rules! __ecs_malformed_relation {
    ($(#[$attr:meta])* $relation:ident / $reverse:ident => $mask:ident $([$($policy:tt)*])? $(, $($rest:tt)*)?) => {
        $crate::__ecs_malformed_relation! { $($($rest)*)? }
    };
    ($(#[$attr:meta])* $relation:ident => $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the relation `",
            ::core::stringify!($relation),
            "` needs a reverse name (the target's side); write `",
            ::core::stringify!($relation),
            " / reverse_name => MASK`, like `child_of / children => CHILD_OF`"
        ));
    };
    ($(#[$attr:meta])* $relation:ident / $reverse:ident $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "ecs!: the relation `",
            ::core::stringify!($relation),
            "` needs a mask constant and a comma: `",
            ::core::stringify!($relation),
            " / ",
            ::core::stringify!($reverse),
            " => MASK [cascade],`"
        ));
    };
    ($($rest:tt)*) => {
        ::core::compile_error!(
            "ecs!: malformed `Relations` block; write each relation as `forward / reverse => MASK`, optionally followed by `[cascade]`, separated by commas"
        );
    };
}
