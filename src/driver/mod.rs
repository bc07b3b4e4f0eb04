//! The hallway between the game and its shells: one owner per table that pumps
//! transport ↔ session ↔ store, runs computer players, keeps the clock and
//! reconnects; the command line and the window talk to tables only through it.
//!
//! Architecture invariant: decides nothing about the game (the session does); the
//! only module that joins `net`, `session`, `store` and `ai`. What the shells need of
//! the layers below comes from here.

//!
//! Without the feature `net` only the in-memory parts are built: computer players
//! and tables played in memory (what the fuzz targets use).

#[cfg(feature = "bench")]
mod bench;
pub mod bot;
#[cfg(feature = "net")]
mod flows;
mod local;
#[cfg(feature = "net")]
mod player;
#[cfg(feature = "net")]
mod remote;
#[cfg(feature = "net")]
mod table;
#[cfg(feature = "net")]
mod watch;

#[cfg(feature = "bench")]
pub use bench::{NetFigures, bench_net};
pub use bot::Bot;
#[cfg(feature = "net")]
pub use flows::{Seating, describe, host, join, resume};
pub use local::{Local, THINK_MS};
#[cfg(feature = "net")]
pub use player::{Human, Input, Player, TYPED_MOVES, WindowSide};
#[cfg(feature = "net")]
pub use remote::Remote;
#[cfg(feature = "net")]
pub use table::{Clock, Ended, Side, TableOutcome, play_table};
#[cfg(feature = "net")]
pub use watch::{Link, Update, Watch};
