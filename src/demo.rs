//! Computer against computer straight through the engine, for measurement and tests.
//!
//! Architecture invariant: the engine-only referee here, which sees both fleets,
//! serves measurement and tests; real games never have one. (Two whole sessions
//! playing each other in memory are `driver::Duet`: they only exchange frames.)

use crate::ai::{Level, View};
pub use crate::ai::{Prior, SoloGame, knowing};
use crate::rules::{Coord, Fleet, Game, Placer, Report, Seat, ShellOrder, Variant};

/// A finished game with everything that happened in it.
#[derive(Clone, Debug)]
pub struct Record {
    /// The host's fleet and the guest's.
    pub fleets: [Fleet; 2],
    pub game: Game,
    /// Every action in order, with who played it.
    pub reports: Vec<(Seat, Report)>,
}

/// Places both fleets uniformly at random and plays two random players to the end.
pub fn play<R: rand::Rng + ?Sized>(variant: Variant, first: Seat, rng: &mut R) -> Record {
    let placer = Placer::new(&variant.fleet());
    let fleets = [placer.place(rng), placer.place(rng)];
    play_fleets(variant, first, fleets, rng)
}

/// Plays two random players to the end over the given fleets (host's first).
pub fn play_fleets<R: rand::Rng + ?Sized>(
    variant: Variant,
    first: Seat,
    fleets: [Fleet; 2],
    rng: &mut R,
) -> Record {
    play_levels(variant, [Level::Random; 2], first, fleets, rng)
}

/// Plays computer levels (host's first) to the end over the given fleets; each sees
/// its radar picture for its next action only.
pub fn play_levels<R: rand::Rng + ?Sized>(
    variant: Variant,
    levels: [Level; 2],
    first: Seat,
    mut fleets: [Fleet; 2],
    rng: &mut R,
) -> Record {
    let mut game = Game::new(variant, first, false);
    let mut reports = Vec::new();
    let mut radar: [Option<Vec<(Coord, bool)>>; 2] = [None, None];
    while !game.is_over() {
        let seat = game.mover();
        let view = View::of(&game, seat, radar[seat.index()].as_deref());
        let action = levels[seat.index()].choose(&view, rng);
        let shells =
            matches!(action, crate::rules::Action::AirStrike(_)).then(|| ShellOrder::random(rng));
        let enemy = &mut fleets[seat.other().index()];
        let report = game
            .play(seat, action, shells, enemy)
            .expect("computer players only play legal actions against a whole fleet");
        radar[seat.index()] = report.radar_picture();
        reports.push((seat, report));
    }
    Record {
        fleets,
        game,
        reports,
    }
}
