//! Archimedes, the second game: queen-moving ships on one shared board that sink
//! under the gaze of three enemies (`ARCHIMEDES.md`) — its rules engine and its
//! computer players.
//!
//! Architecture invariant: as pure as the sea battle's engine — no IO, no clock, no
//! randomness of its own (the computer takes an RNG), no crypto, network or UI; an
//! illegal move is a typed error that changes nothing. It shares the sea battle's
//! cells and board sizes (`crate::rules`) and nothing else.

mod ai;
mod game;
mod picture;

pub use ai::{Level, choose};
pub use game::{
    EndReason, Ending, Move, MoveError, MoveParseError, Played, Position, QUIET_LIMIT, SIZES, Side,
    SizeError, Sunk,
};
pub use picture::{PictureError, parse, render};
