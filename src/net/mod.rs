//! Network play over libp2p: a node that owns the swarm, and a table played over one
//! long-lived game stream.
//!
//! Architecture invariant: a thin shell. The game's logic is the [`crate::session`]
//! state machine; this module moves its bytes, keeps its clock, saves it through
//! [`crate::store`] after every message, and never decides anything about the game.

#[cfg(feature = "bench")]
mod bench;
mod flows;
mod lan;
mod node;
mod player;
mod relay;
mod table;
mod watch;

#[cfg(feature = "bench")]
pub use bench::{NetFigures, bench_net};
pub use flows::{Seating, describe, host, join, resume};
pub use lan::{LAN_PROTOCOL, list as list_lan, serve as serve_lan};
pub use node::{
    Config, MAX_ESTABLISHED_INCOMING, MAX_PENDING_INCOMING, MAX_PER_PEER, MAX_STREAMS, Node, Route,
    Routes, is_relayed,
};
pub use player::{Human, Input, Player, TYPED_MOVES, WindowSide};
pub use relay::{relay_config, run_relay};
pub use table::{Clock, Ended, Side, TableOutcome, play_table};
pub use watch::{Link, Update, Watch};

use libp2p::StreamProtocol;

/// The protocol of a table's game stream.
pub const GAME_PROTOCOL: StreamProtocol = StreamProtocol::new("/armada/game/1");
