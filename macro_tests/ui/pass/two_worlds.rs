//! Two worlds in one module: each world's items are prefixed with its name, so they do not
//! clash; the short names (`EntityBuilder`, ...) are only ambiguous if used, and the
//! prefixed names always work.

#[derive(Default, Clone, Copy, Debug, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

archetypal::ecs! {
    GameWorld {
        position: Position => POSITION,
        health: u32 => HEALTH,
    }
    Resources {
        delta_time: f32,
    }
}

archetypal::ecs! {
    UiWorld {
        rect: [f32; 4] => RECT,
        label: String => LABEL,
    }
    Resources {
        focused: Option<archetypal::Entity>,
    }
}

fn main() {
    let mut game = GameWorld::new();
    game.resources.delta_time = 1.0 / 60.0;
    let player = game.spawn(POSITION | HEALTH);
    game.set_health(player, 10);
    let _built = GameWorldEntityBuilder::new()
        .with_position(Position { x: 1.0, y: 2.0 })
        .spawn(&mut game, 2);
    assert_eq!(game.query_entities(POSITION).count(), 3);

    let mut ui = UiWorld::new();
    let button = ui.spawn(RECT | LABEL);
    ui.set_label(button, String::from("OK"));
    ui.resources.focused = Some(button);
    let _title = UiWorldEntityBuilder::new()
        .with_label(String::from("Title"))
        .spawn_one(&mut ui);
    assert_eq!(ui.get_label(button).map(String::as_str), Some("OK"));

    let game_mask: GameWorldMask = POSITION | HEALTH;
    let ui_mask: UiWorldMask = RECT | LABEL;
    assert_eq!(game_mask, ui_mask);
    assert_eq!(GameWorld::COMPONENT_COUNT + UiWorld::COMPONENT_COUNT, 4);
    let _: &[GameWorldComponentArrays] = game.tables();
    let _: &[UiWorldComponentArrays] = ui.tables();
    let _: GameWorldResources = GameWorldResources::default();
    let _: UiWorldResources = UiWorldResources::default();
}
