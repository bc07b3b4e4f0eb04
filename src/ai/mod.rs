//! Computer players: they choose actions from what a player may know, through the rules alone.
//!
//! Architecture invariant: depends only on `rules`; never sees the enemy fleet,
//! only its own chart, stock and the game's public state.

mod random;

pub use random::RandomPlayer;
