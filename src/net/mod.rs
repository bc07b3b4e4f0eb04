//! libp2p: a node whose one task owns the swarm, the LAN answer and listing, the relay
//! server, the public network (DHT, `AutoNAT`, relays found there); it moves framed
//! bytes between peers and reports connections.
//!
//! Architecture invariant: knows libp2p and `armada-proto`, nothing of games: no
//! session, no store, no rules, no text for a terminal. `crate::driver` plays tables
//! over the streams it opens.

mod circuits;
mod lan;
mod node;
mod public;
mod relay;

pub use lan::{LAN_PROTOCOL, list as list_lan, serve as serve_lan};
pub use node::{
    BackAts, Config, Confirmed, MAX_ESTABLISHED_INCOMING, MAX_PENDING_INCOMING, MAX_PER_PEER,
    MAX_STREAMS, Node, Reach, Route, Routes, Straight, Unreachable, is_relayed,
};
pub use public::{BOOTSTRAP, NO_PUBLIC_ENV, Public};
pub use relay::{CircuitLimits, relay_config, run_relay};

use libp2p::StreamProtocol;
use tokio_util::codec::{Framed, LengthDelimitedCodec};
use tokio_util::compat::{Compat, FuturesAsyncReadCompatExt as _};

/// The protocol of a table's game stream.
pub const GAME_PROTOCOL: StreamProtocol = StreamProtocol::new("/armada/game/1");
/// The protocol by which a resumed peer tells the other that it is back (the
/// other's old connections to it are dead, whether or not its transport noticed).
pub const BACK_PROTOCOL: StreamProtocol = StreamProtocol::new("/armada/back/1");
/// The protocol of a short code's handshake (`armada_proto::CodeMessage`).
pub const CODE_PROTOCOL: StreamProtocol = StreamProtocol::new("/armada/code/1");

/// A stream as length-delimited messages of at most `max` bytes (checked before a
/// message is buffered).
pub fn framed(
    stream: libp2p::Stream,
    max: usize,
) -> Framed<Compat<libp2p::Stream>, LengthDelimitedCodec> {
    let codec = LengthDelimitedCodec::builder()
        .max_frame_length(max)
        .new_codec();
    Framed::new(stream.compat(), codec)
}
