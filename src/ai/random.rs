//! The random player: any legal action, chosen at random; the demo's and the tests' opponent.

use rand::RngExt;

use crate::rules::{Action, BoardSize, Coord, Game, Heading, Seat, Torpedo, Weapon};

/// Plays uniformly random legal actions: mostly plain shots, and a weapon about one
/// action in nine each while it lasts, on a random legal target.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

impl RandomPlayer {
    /// A legal action for `seat`, which must be the mover of a game still on.
    pub fn choose<R: rand::Rng + ?Sized>(&self, game: &Game, seat: Seat, rng: &mut R) -> Action {
        let stock = game.stock(seat);
        let weapons: Vec<Weapon> = [Weapon::Torpedo, Weapon::AirStrike, Weapon::Radar]
            .into_iter()
            .filter(|&w| stock.left(w) > 0)
            .collect();
        let pick = rng.random_range(0..6 + weapons.len());
        if let Some(&weapon) = weapons.get(pick) {
            let size = game.variant().size();
            // Rejection keeps the draw uniform over legal targets and is fast while
            // most targets are legal; listing them all is the fallback late in a game.
            for _ in 0..32 {
                let action = random_target(weapon, size, rng);
                if game.check(seat, &action).is_ok() {
                    return action;
                }
            }
            let options: Vec<Action> = weapon_targets(weapon, size)
                .filter(|action| game.check(seat, action).is_ok())
                .collect();
            if !options.is_empty() {
                return options[rng.random_range(0..options.len())];
            }
        }
        let open = game.chart(seat).unmarked();
        let cell = open
            .nth(rng.random_range(0..open.len().max(1)))
            .unwrap_or_else(|| Coord::new(0, 0).expect("A1 exists"));
        Action::Shot(cell)
    }
}

/// One target drawn uniformly from all of [`weapon_targets`].
fn random_target<R: rand::Rng + ?Sized>(weapon: Weapon, size: BoardSize, rng: &mut R) -> Action {
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
fn weapon_targets(weapon: Weapon, size: BoardSize) -> Box<dyn Iterator<Item = Action>> {
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
