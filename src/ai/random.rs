//! The random player and the random weapon targets every level draws from.

use rand::RngExt;

use super::{Level, View};
use crate::rules::{Action, BoardSize, Coord, Game, Heading, Seat, Torpedo, Weapon};

/// Plays uniformly random legal actions: mostly plain shots, and a weapon about one
/// action in nine each while it lasts, on a random legal target. Same as [`Level::Random`].
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

impl RandomPlayer {
    /// A legal action for `seat`, which must be the mover of a game still on.
    pub fn choose<R: rand::Rng + ?Sized>(&self, game: &Game, seat: Seat, rng: &mut R) -> Action {
        Level::Random.choose(&View::of(game, seat, None), rng)
    }
}

/// One target drawn uniformly from all of [`weapon_targets`].
pub(super) fn random_target<R: rand::Rng + ?Sized>(
    weapon: Weapon,
    size: BoardSize,
    rng: &mut R,
) -> Action {
    let side = size.side();
    let cell = |rng: &mut R| {
        Coord::new(rng.random_range(0..side), rng.random_range(0..side)).expect("on the board")
    };
    match weapon {
        Weapon::Torpedo => {
            let heading =
                [Heading::Right, Heading::Left, Heading::Down, Heading::Up][rng.random_range(0..4)];
            Action::Torpedo(Torpedo {
                heading,
                line: rng.random_range(0..side),
            })
        }
        Weapon::AirStrike => Action::AirStrike(cell(rng)),
        Weapon::Radar => Action::Radar(cell(rng)),
    }
}

/// Every target the weapon could be aimed at on `size`, legal or not.
pub(super) fn weapon_targets(weapon: Weapon, size: BoardSize) -> Box<dyn Iterator<Item = Action>> {
    match weapon {
        Weapon::Torpedo => Box::new(
            [Heading::Right, Heading::Left, Heading::Down, Heading::Up]
                .into_iter()
                .flat_map(move |heading| {
                    (0..size.side()).map(move |line| Action::Torpedo(Torpedo { heading, line }))
                }),
        ),
        Weapon::AirStrike => Box::new(size.cells().map(Action::AirStrike)),
        Weapon::Radar => Box::new(size.cells().map(Action::Radar)),
    }
}
