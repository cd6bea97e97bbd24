//! The demo's picture: the world seen from above, drawn between frames into an animated GIF.
//!
//! Every creature is a point: the herd in sage, burning creatures in orange, corpses in a faded
//! brown. The player's units are blue squares (orange while they burn) and their rally point a
//! white cross. Drawing only reads the world, after a frame's systems have run and outside the
//! frame's time; [`Recording`] measures its own time.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{BURNING, DEAD, PLAYER, Position, WORLD_SIZE, World, rally_point};

/// Pixels per side of the picture: the world at two units per pixel.
pub const PICTURE_SIDE: u16 = 500;

/// The side of a player unit's square, in pixels: the formation reads as a grid beside the
/// herd's single points.
const PLAYER_SQUARE: usize = 2;

/// How far the rally cross reaches from its centre, in pixels.
const RALLY_ARM: usize = 9;

/// What a pixel shows; the value is the colour's index in the GIF's palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Colour {
    Ground,
    Herd,
    Burning,
    Corpse,
    Player,
    Rally,
}

impl Colour {
    /// Every colour, in palette order.
    pub const ALL: [Colour; 6] = [
        Colour::Ground,
        Colour::Herd,
        Colour::Burning,
        Colour::Corpse,
        Colour::Player,
        Colour::Rally,
    ];

    /// The colour's red, green and blue.
    pub const fn rgb(self) -> [u8; 3] {
        match self {
            Colour::Ground => [0x10, 0x13, 0x17],
            // Dim, so the fires and the player's units stand out of the crowd.
            Colour::Herd => [0x5a, 0x6e, 0x55],
            Colour::Burning => [0xff, 0x6a, 0x10],
            // Faded: a little lighter than the ground.
            Colour::Corpse => [0x3a, 0x2f, 0x3a],
            Colour::Player => [0x4f, 0xc3, 0xff],
            Colour::Rally => [0xff, 0xff, 0xff],
        }
    }
}

/// The GIF's global palette: `Colour::ALL`'s colours, three bytes each.
fn palette() -> Vec<u8> {
    Colour::ALL.iter().flat_map(|colour| colour.rgb()).collect()
}

/// A square picture of the world, one palette index per pixel, row by row.
pub struct Canvas {
    side: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    pub fn new(side: u16) -> Canvas {
        let side = usize::from(side);
        Canvas {
            side,
            pixels: vec![Colour::Ground as u8; side * side],
        }
    }

    /// The pixel (column, row) a position falls in, or `None` off the world (a creature may
    /// overshoot an edge for a frame before it bounces back).
    pub fn pixel_of(&self, position: Position) -> Option<(usize, usize)> {
        let scale = self.side as f32 / WORLD_SIZE;
        let (column, row) = (position.x * scale, position.y * scale);
        let inside = |coordinate: f32| (0.0..self.side as f32).contains(&coordinate);
        (inside(column) && inside(row)).then_some((column as usize, row as usize))
    }

    fn set(&mut self, column: usize, row: usize, colour: Colour) {
        if column < self.side && row < self.side {
            self.pixels[row * self.side + column] = colour as u8;
        }
    }

    fn dot(&mut self, position: Position, colour: Colour) {
        if let Some((column, row)) = self.pixel_of(position) {
            self.set(column, row, colour);
        }
    }

    /// A square of `side` pixels, the position's pixel its top-left corner.
    fn square(&mut self, position: Position, side: usize, colour: Colour) {
        let Some((column, row)) = self.pixel_of(position) else {
            return;
        };
        for y in row..row + side {
            for x in column..column + side {
                self.set(x, y, colour);
            }
        }
    }

    /// A horizontal and a vertical bar, two pixels thick, crossing at the position's pixel and
    /// reaching `arm` pixels each way.
    fn cross(&mut self, position: Position, arm: usize, colour: Colour) {
        let Some((column, row)) = self.pixel_of(position) else {
            return;
        };
        for offset in 0..=2 * arm {
            for thickness in 0..2 {
                // Near the left or top edge, the part of a bar off the picture is skipped.
                if let Some(x) = (column + offset).checked_sub(arm) {
                    self.set(x, row + thickness, colour);
                }
                if let Some(y) = (row + offset).checked_sub(arm) {
                    self.set(column + thickness, y, colour);
                }
            }
        }
    }

    /// Draws `world` over a bare ground, the most telling last: corpses, the herd, the fires,
    /// then the player's units and their rally point. A pixel shows the last thing drawn on it.
    pub fn paint(&mut self, world: &World) {
        self.pixels.fill(Colour::Ground as u8);
        let dots = [
            (DEAD, 0, Colour::Corpse),
            (0, DEAD | BURNING | PLAYER, Colour::Herd),
            (BURNING, DEAD | PLAYER, Colour::Burning),
        ];
        for (with, without, colour) in dots {
            world
                .typed_query_ref::<&Position>()
                .with(with)
                .without(without)
                .for_each(|position| self.dot(*position, colour));
        }
        let units = [
            (PLAYER, BURNING, Colour::Player),
            (PLAYER | BURNING, 0, Colour::Burning),
        ];
        for (with, without, colour) in units {
            world
                .typed_query_ref::<&Position>()
                .with(with)
                .without(without)
                .for_each(|position| self.square(*position, PLAYER_SQUARE, colour));
        }
        let rally = rally_point(world.resources.rally.angle);
        self.cross(rally, RALLY_ARM, Colour::Rally);
    }

    /// One GIF frame of the picture as it is.
    fn frame(&self, delay_centiseconds: u16) -> gif::Frame<'_> {
        let side = self.side as u16;
        gif::Frame {
            width: side,
            height: side,
            buffer: std::borrow::Cow::Borrowed(&self.pixels),
            delay: delay_centiseconds,
            ..gif::Frame::default()
        }
    }
}

/// Creates a GIF file (and its folder) of `canvas`'s size and palette.
fn create_gif(path: &Path, canvas: &Canvas) -> Result<gif::Encoder<BufWriter<File>>, String> {
    let failed = |error: &dyn std::fmt::Display| format!("{}: {error}", path.display());
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(|error| failed(&error))?;
    }
    let file = File::create(path).map_err(|error| failed(&error))?;
    let side = canvas.side as u16;
    gif::Encoder::new(BufWriter::new(file), side, side, &palette()).map_err(|error| failed(&error))
}

/// An animated GIF of the world, written a frame at a time, and the time spent on it.
pub struct Recording {
    encoder: gif::Encoder<BufWriter<File>>,
    canvas: Canvas,
    path: PathBuf,
    /// Where the last frame is written again, alone, when the recording finishes.
    still: PathBuf,
    delay_centiseconds: u16,
    frames: usize,
    time: Duration,
}

/// What a finished [`Recording`] wrote.
#[derive(Debug)]
pub struct Drawing {
    pub path: PathBuf,
    pub still: PathBuf,
    pub frames: usize,
    /// Painting, encoding and writing every frame, and the still.
    pub time: Duration,
}

impl Recording {
    /// Starts `path`, looping forever, each frame shown for `delay_centiseconds`; the last
    /// frame will also go to `still`. Creates the folders if missing.
    pub fn create(path: &Path, still: &Path, delay_centiseconds: u16) -> Result<Recording, String> {
        let start = Instant::now();
        let canvas = Canvas::new(PICTURE_SIDE);
        let mut encoder = create_gif(path, &canvas)?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        Ok(Recording {
            encoder,
            canvas,
            path: path.to_path_buf(),
            still: still.to_path_buf(),
            delay_centiseconds,
            frames: 0,
            time: start.elapsed(),
        })
    }

    /// Paints `world` and appends it as the next frame.
    pub fn draw(&mut self, world: &World) -> Result<(), String> {
        let start = Instant::now();
        self.canvas.paint(world);
        self.encoder
            .write_frame(&self.canvas.frame(self.delay_centiseconds))
            .map_err(|error| format!("{}: {error}", self.path.display()))?;
        self.frames += 1;
        self.time += start.elapsed();
        Ok(())
    }

    /// Ends the GIF and writes its last frame alone to the still's path.
    pub fn finish(self) -> Result<Drawing, String> {
        let start = Instant::now();
        let Recording {
            encoder,
            canvas,
            path,
            still,
            frames,
            time,
            ..
        } = self;
        // `into_inner` writes the GIF's trailer; the flush reports what the buffer held back.
        let flushed = encoder.into_inner().map_err(|error| error.to_string());
        flushed
            .and_then(|mut file| {
                std::io::Write::flush(&mut file).map_err(|error| error.to_string())
            })
            .map_err(|error| format!("{}: {error}", path.display()))?;
        let mut still_gif = create_gif(&still, &canvas)?;
        still_gif
            .write_frame(&canvas.frame(0))
            .map_err(|error| format!("{}: {error}", still.display()))?;
        let mut file = still_gif
            .into_inner()
            .map_err(|error| format!("{}: {error}", still.display()))?;
        std::io::Write::flush(&mut file)
            .map_err(|error| format!("{}: {error}", still.display()))?;
        Ok(Drawing {
            path,
            still,
            frames,
            time: time + start.elapsed(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CREATURE, Mask};

    /// A world of a few creatures at known places: one of each kind the picture tells apart.
    struct Scene {
        world: World,
        herd: Position,
        burning: Position,
        corpse: Position,
        player: Position,
        empty: Position,
    }

    fn spawn_at(world: &mut World, mask: Mask, position: Position) -> archetypal::Entity {
        let entity = world.spawn(mask);
        world.set_position(entity, position);
        entity
    }

    fn scene() -> Scene {
        let mut world = World::new();
        // x and y differ everywhere, so a drawing with its axes swapped misses every one.
        let herd = Position { x: 100.0, y: 300.0 };
        let burning = Position { x: 640.0, y: 220.0 };
        let corpse = Position { x: 420.0, y: 880.0 };
        let player = Position { x: 900.0, y: 60.0 };
        spawn_at(&mut world, CREATURE, herd);
        spawn_at(&mut world, CREATURE | BURNING, burning);
        let dead = spawn_at(&mut world, CREATURE, corpse);
        world.add_dead(dead);
        spawn_at(&mut world, CREATURE | PLAYER, player);
        // The rally point at angle 0: (750, 500).
        world.resources.rally.angle = 0.0;
        Scene {
            world,
            herd,
            burning,
            corpse,
            player,
            empty: Position { x: 300.0, y: 600.0 },
        }
    }

    /// A decoded frame, its pixels as RGBA.
    struct Decoded {
        side: usize,
        rgba: Vec<u8>,
    }

    impl Decoded {
        /// The colour at a world position, where the test computes the pixel on its own: two
        /// world units per pixel.
        fn at(&self, position: Position) -> [u8; 3] {
            let (column, row) = ((position.x / 2.0) as usize, (position.y / 2.0) as usize);
            let index = 4 * (row * self.side + column);
            [self.rgba[index], self.rgba[index + 1], self.rgba[index + 2]]
        }

        fn count(&self, colour: Colour) -> usize {
            self.rgba
                .chunks_exact(4)
                .filter(|pixel| pixel[..3] == colour.rgb())
                .count()
        }
    }

    /// Every frame of the GIF at `path`, after checking its size.
    fn decode(path: &Path) -> Vec<Decoded> {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let file = File::open(path).expect("the recording wrote its file");
        let mut decoder = options.read_info(file).expect("a GIF");
        assert_eq!((decoder.width(), decoder.height()), (500, 500));
        let mut frames = Vec::new();
        while let Some(frame) = decoder.read_next_frame().expect("a GIF frame") {
            assert_eq!((frame.left, frame.top), (0, 0));
            assert_eq!((frame.width, frame.height), (500, 500));
            frames.push(Decoded {
                side: 500,
                rgba: frame.buffer.to_vec(),
            });
        }
        frames
    }

    #[test]
    fn the_picture_shows_each_creature_in_its_colour_at_its_place() {
        let Scene {
            mut world,
            herd,
            burning,
            corpse,
            player,
            empty,
        } = scene();
        // Under the temporary folder, in folders that do not exist yet: the recording makes them.
        let folder = std::env::temp_dir()
            .join(format!("archetypal-simulation-{}", std::process::id()))
            .join("picture");
        let (path, still) = (folder.join("simulation.gif"), folder.join("last-frame.gif"));
        let mut recording = Recording::create(&path, &still, 17).expect("start the recording");
        recording.draw(&world).expect("draw the first frame");
        // Between the frames the herd creature catches fire and the player's unit moves.
        let herd_entity = world
            .typed_query_ref::<archetypal::Entity>()
            .without(BURNING | DEAD | PLAYER)
            .iter()
            .next()
            .expect("the herd creature");
        world.add_components(herd_entity, BURNING);
        let moved = Position { x: 120.0, y: 740.0 };
        let unit = world
            .query_entities(PLAYER)
            .next()
            .expect("the player's unit");
        world.set_position(unit, moved);
        recording.draw(&world).expect("draw the second frame");
        let drawing = recording.finish().expect("finish the recording");
        assert_eq!(drawing.frames, 2);

        let frames = decode(&path);
        let stills = decode(&still);
        std::fs::remove_dir_all(folder.parent().unwrap()).expect("remove the test's folder");
        assert_eq!(frames.len(), 2, "one GIF frame per drawn frame");
        assert_eq!(stills.len(), 1);
        assert_eq!(
            stills[0].rgba, frames[1].rgba,
            "the still is the last frame"
        );

        let (first, second) = (&frames[0], &frames[1]);
        let rally = Position { x: 750.0, y: 500.0 };
        assert_eq!(first.at(herd), Colour::Herd.rgb());
        assert_eq!(first.at(burning), Colour::Burning.rgb());
        assert_eq!(first.at(corpse), Colour::Corpse.rgb());
        assert_eq!(first.at(player), Colour::Player.rgb());
        assert_eq!(first.at(rally), Colour::Rally.rgb());
        assert_eq!(first.at(empty), Colour::Ground.rgb());
        // Nothing else is drawn: one pixel per creature, 2 x 2 for the unit, and the cross (two
        // bars of 2 x 19 pixels, sharing 2 x 2).
        let cross = 2 * 2 * (2 * RALLY_ARM + 1) - 4;
        let expected = [
            (Colour::Herd, 1),
            (Colour::Burning, 1),
            (Colour::Corpse, 1),
            (Colour::Player, 4),
            (Colour::Rally, cross),
        ];
        for (colour, pixels) in expected {
            assert_eq!(first.count(colour), pixels, "{colour:?} pixels");
        }
        let ground = 500 * 500 - expected.iter().map(|(_, pixels)| pixels).sum::<usize>();
        assert_eq!(first.count(Colour::Ground), ground);

        // The second frame is the world as it was then.
        assert_eq!(second.at(herd), Colour::Burning.rgb());
        assert_eq!(second.count(Colour::Burning), 2);
        assert_eq!(second.count(Colour::Herd), 0);
        assert_eq!(second.at(player), Colour::Ground.rgb());
        assert_eq!(second.at(moved), Colour::Player.rgb());
        assert_eq!(second.count(Colour::Player), 4);
    }
}
