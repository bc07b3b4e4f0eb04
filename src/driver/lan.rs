//! The tables open on the LAN, as `armada lan` and the window's search list them.

use std::time::Duration;

use crate::fair::sign::Identity;
use crate::net::{Config, Node};

/// Starts a node as `identity`, listens `wait` for the peers mDNS finds and asks
/// each for its table: the host's peer id and its offer.
pub async fn lan_tables(
    identity: &Identity,
    config: Config,
    wait: Duration,
) -> anyhow::Result<Vec<(libp2p::PeerId, armada_proto::LanOffer)>> {
    // Looking around the LAN needs nothing of the internet.
    let config = Config {
        public: crate::net::Public::Off,
        ..config
    };
    let node = Node::start(&identity.keypair(), config).await?;
    Ok(crate::net::list_lan(&node, wait).await)
}
