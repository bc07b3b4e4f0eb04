//! Computer against computer straight through the engine: `armada demo`, tests and benchmarks.
//!
//! Architecture invariant: a referee that sees both fleets exists only here, for
//! demonstration and measurement; real games never have one.

use crate::ai::RandomPlayer;
use crate::rules::{Fleet, Game, Placer, Report, Seat, ShellOrder, Variant};

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
    mut fleets: [Fleet; 2],
    rng: &mut R,
) -> Record {
    let mut game = Game::new(variant, first, false);
    let mut reports = Vec::new();
    while !game.is_over() {
        let seat = game.mover();
        let action = RandomPlayer.choose(&game, seat, rng);
        let shells =
            matches!(action, crate::rules::Action::AirStrike(_)).then(|| ShellOrder::random(rng));
        let enemy = &mut fleets[seat.other().index()];
        let report = game
            .play(seat, action, shells, enemy)
            .expect("the random player only plays legal actions against a whole fleet");
        reports.push((seat, report));
    }
    Record {
        fleets,
        game,
        reports,
    }
}
