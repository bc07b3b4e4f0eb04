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

mod archimedes;
#[cfg(feature = "bench")]
mod bench;
pub mod bot;
mod code;
mod duet;
#[cfg(feature = "net")]
mod flows;
mod game;
mod icehouse;
#[cfg(feature = "net")]
mod lan;
mod local;
mod pace;
#[cfg(feature = "net")]
mod player;
#[cfg(feature = "net")]
mod remote;
mod saved;
#[cfg(feature = "net")]
mod table;
#[cfg(feature = "net")]
mod watch;

pub use archimedes::ArchimedesTable;
#[cfg(feature = "bench")]
pub use bench::{NetFigures, bench_net};
pub use bot::Bot;
pub use duet::{ArchimedesDuet, Duet, IcehouseDuet, step};
#[cfg(feature = "net")]
pub use flows::{
    Reached, Report, Seating, Status, host, join, join_reached, reach, resume, saved_table,
    tell_damaged,
};
pub use game::{ArchimedesBot, Computer, Game, IcehouseBot, played};
pub use icehouse::{IcehouseChoice, IcehouseError, IcehouseGoal, IcehouseTable};
#[cfg(feature = "net")]
pub use lan::lan_tables;
pub use local::{Local, THINK_MS};
#[cfg(feature = "net")]
pub use player::{Human, Input, Player, TYPED_MOVES, WindowSide};
#[cfg(feature = "net")]
pub use remote::{Joining, Pending, Ready, Remote};
pub use saved::{PastTable, SavedTables, saved_tables};
#[cfg(feature = "net")]
pub use table::{Clock, Ended, Side, TableOutcome, play_table};
#[cfg(feature = "net")]
pub use watch::{Link, Open, Update, Watch};

// What the shells use of the layers below, in one place: the session's vocabulary
// (commands, events, verdicts, what a side owes), the store, the computer levels,
// the network's settings, and the offline verifier.
pub use crate::ai::Level;
/// The second game's engine, for the shells to draw and to name moves.
pub use crate::archimedes as arch;
pub use crate::fair::sign::Identity;
pub use crate::fair::table::owed_in_words;
pub use crate::fair::verify;
pub use crate::icehouse as ice;
#[cfg(feature = "net")]
pub use crate::net::{CircuitLimits, Config, Public, Reach, Route, Straight, run_relay};
/// The second game's table between peers: its session, commands and events.
pub use crate::session::archimedes as arch_table;
pub use crate::session::icehouse as ice_table;
// Every open game's table events, for shells that word them once.
pub use crate::fair::table::open::{
    Note as OpenNote, OpenGame, Reason as OpenReason, Verdict as OpenVerdict,
};
pub use crate::session::open::Event as OpenEvent;
pub use crate::session::{
    Command, CommandError, Event, GRACE_MS, Lie, Millis, Note, Owed, Played, Session, Table,
    TableGame, TableSession, Verdict, settings,
};
pub use crate::store::{
    Against, ArchimedesAgainst, ArchimedesKind, Damaged, IcehouseAgainst, IcehouseKind, Kind,
    Other, Outcome, PlayedBy, SavedSeat, Store, TableMeta, Tally, Totals, TotalsLost,
};
