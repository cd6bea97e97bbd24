// A game's systems compare access per sub-world, for up to 8 of them: a game with 9 is refused
// with ecs!'s message.
archetypal::ecs! {
    Game {
        S0 {
            c0: u8 => C0,
        }
        S1 {
            c1: u8 => C1,
        }
        S2 {
            c2: u8 => C2,
        }
        S3 {
            c3: u8 => C3,
        }
        S4 {
            c4: u8 => C4,
        }
        S5 {
            c5: u8 => C5,
        }
        S6 {
            c6: u8 => C6,
        }
        S7 {
            c7: u8 => C7,
        }
        S8 {
            c8: u8 => C8,
        }
    }
}

fn main() {}
