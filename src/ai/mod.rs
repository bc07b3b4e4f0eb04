//! Computer players: they choose actions from what a player may know, through the rules alone.
//!
//! A player is a [`Level`] and keeps nothing between actions (`&self` everywhere):
//! what it may know comes in a [`View`] each time. A radar picture is in the view
//! only for the action right after the sweep, so no level can use it later — the
//! interface enforces RULES.md's "only for its next action", good intentions need not.
//!
//! Architecture invariant: depends only on `rules`; never sees the enemy fleet.

mod hard;
mod levels;
mod random;
mod solo;

pub use hard::Prior;
pub use levels::{Level, knowing};
pub use random::RandomPlayer;
pub use solo::{SoloGame, solo_game};

use crate::rules::{Chart, Coord, Game, Seat, Stock, Variant};

/// Everything a computer player may know when it chooses its next action.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    pub variant: Variant,
    /// Its chart of the enemy board.
    pub chart: &'a Chart,
    pub stock: Stock,
    /// What its radar showed — present only for the action right after the sweep.
    pub radar: Option<&'a [(Coord, bool)]>,
}

impl<'a> View<'a> {
    /// The view of `seat` in `game`, with the radar picture its last action produced, if any.
    pub fn of(game: &'a Game, seat: Seat, radar: Option<&'a [(Coord, bool)]>) -> Self {
        Self {
            variant: game.variant(),
            chart: game.chart(seat),
            stock: game.stock(seat),
            radar,
        }
    }
}

/// A torpedo heading across and one down, each way at random.
fn random_headings<R: rand::Rng + ?Sized>(
    rng: &mut R,
) -> (crate::rules::Heading, crate::rules::Heading) {
    use crate::rules::Heading;
    use rand::RngExt as _;
    let across = if rng.random_bool(0.5) {
        Heading::Right
    } else {
        Heading::Left
    };
    let down = if rng.random_bool(0.5) {
        Heading::Down
    } else {
        Heading::Up
    };
    (across, down)
}
