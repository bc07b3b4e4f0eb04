//! The pure game engine: board, fleet, placement, chart, actions and turns, exactly as RULES.md says.
//!
//! Architecture invariant: no IO, no clock, no randomness of its own (an RNG is
//! passed in where one is needed), no knowledge of crypto, network or UI. It
//! never panics on any input: illegal actions and unanswerable seas are typed
//! errors, and a refused action changes nothing.

mod action;
mod cells;
mod chart;
mod coord;
mod deduce;
mod fleet;
mod game;
mod picture;
mod placement;
mod sample;
mod sea;
mod variant;

pub use action::{
    Action, ActionParseError, Effect, Heading, Report, ShellOrder, ShellOrderError, Torpedo, square,
};
pub use cells::{CellSet, Cells};
pub use chart::{Chart, Mark};
pub use coord::{BoardSize, Coord, CoordError, MAX_SIZE};
pub use deduce::{Consistency, Facts, fit_fleet};
pub use fleet::{Dir, Fleet, PlacementError, Ship};
pub use game::{ActionError, DrawError, EndReason, Ending, Game, Seat, legal, resolve};
pub use picture::{PictureError, parse_fleet, render};
pub use placement::Placer;
pub use sample::{SampleError, Sampler};
pub use sea::{Content, Recorder, Sea, SeaError};
pub use variant::{FleetSpec, FleetSpecError, Stock, Variant, VariantError, Weapon, ship_name};
