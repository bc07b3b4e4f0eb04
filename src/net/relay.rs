//! `armada relay`: a node that relays for others — any player can run one. Two
//! players who cannot reach each other directly meet through it, then try to upgrade
//! to a direct connection (`DCUtR`); if that fails, the game goes on relayed. It is
//! a server of the public DHT and of `AutoNAT` too, so players find it there as they
//! find the public network's own relays, and learn from it whether they are
//! reachable.
//!
//! Limits (sized for game signalling and whole relayed games, not bulk traffic):
//! 128 reservations (4 per peer), 64 circuits (16 per peer), each circuit at most one
//! hour and 16 MiB by default (`--circuit-secs`, `--circuit-bytes`; a whole Armada
//! game is about 100 KiB each way, and players move to a fresh circuit before a
//! circuit's limit); 256 incoming connections (8 per peer, 64 still in their
//! handshake), 32 streams per connection.

use std::time::Duration;

use anyhow::Context as _;
use futures::StreamExt as _;
use libp2p::swarm::{NetworkBehaviour, SwarmEvent};
use libp2p::{Multiaddr, autonat, identify, kad, multiaddr::Protocol, noise, ping, relay, tcp};

use libp2p::identity::Keypair;

#[derive(NetworkBehaviour)]
struct Behaviour {
    limits: libp2p::connection_limits::Behaviour,
    relay: relay::Behaviour,
    identify: identify::Behaviour,
    ping: ping::Behaviour,
    kad: kad::Behaviour<kad::store::MemoryStore>,
    autonat: autonat::v2::server::Behaviour,
}

/// How long one circuit may last and how much it may carry each way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CircuitLimits {
    pub duration: Duration,
    pub bytes: u64,
}

impl Default for CircuitLimits {
    /// An hour and 16 MiB: a whole game, several times over.
    fn default() -> Self {
        Self {
            duration: Duration::from_hours(1),
            bytes: 16 * 1024 * 1024,
        }
    }
}

/// The relay's limits, with `circuit` on each circuit.
pub fn relay_config(circuit: CircuitLimits) -> relay::Config {
    relay::Config {
        max_reservations: 128,
        max_reservations_per_peer: 4,
        reservation_duration: Duration::from_hours(1),
        max_circuits: 64,
        max_circuits_per_peer: 16,
        max_circuit_duration: circuit.duration,
        max_circuit_bytes: circuit.bytes,
        ..relay::Config::default()
    }
}

/// Runs a relay on `listen` until the process ends, joining the DHT through
/// `public`'s bootstrap peers (it answers DHT queries either way); `serving` gets
/// each address to give to players (`--relay ADDR`, `--bootstrap ADDR`).
pub async fn run_relay(
    identity: &Keypair,
    listen: Vec<Multiaddr>,
    public: &super::Public,
    circuit: CircuitLimits,
    serving: &mut (dyn FnMut(&Multiaddr) + Send),
) -> anyhow::Result<()> {
    let bootstrap = public.peers()?;
    let mut swarm = libp2p::SwarmBuilder::with_existing_identity(identity.clone())
        .with_tokio()
        .with_tcp(
            tcp::Config::default().nodelay(true),
            noise::Config::new,
            super::node::yamux_config,
        )?
        .with_quic()
        .with_dns()?
        .with_behaviour(|key| Behaviour {
            // Room for every reservation and circuit, and no more.
            limits: libp2p::connection_limits::Behaviour::new(
                libp2p::connection_limits::ConnectionLimits::default()
                    .with_max_pending_incoming(Some(64))
                    .with_max_established_incoming(Some(256))
                    .with_max_established_per_peer(Some(8)),
            ),
            relay: relay::Behaviour::new(key.public().to_peer_id(), relay_config(circuit)),
            identify: identify::Behaviour::new(identify::Config::new(
                "/armada/id/1".into(),
                key.public(),
            )),
            ping: ping::Behaviour::new(ping::Config::new()),
            kad: super::node::dht(key.public().to_peer_id(), kad::Mode::Server),
            autonat: autonat::v2::server::Behaviour::default(),
        })
        .map_err(|e| anyhow::anyhow!("cannot set up the relay: {e}"))?
        .with_swarm_config(|c| c.with_idle_connection_timeout(super::node::IDLE))
        .build();
    let listen = if listen.is_empty() {
        vec![
            "/ip4/0.0.0.0/tcp/4001".parse()?,
            "/ip4/0.0.0.0/udp/4001/quic-v1".parse()?,
        ]
    } else {
        listen
    };
    for addr in listen {
        swarm
            .listen_on(addr.clone())
            .with_context(|| format!("cannot listen on {addr}"))?;
    }
    for (peer, addr) in bootstrap {
        swarm.behaviour_mut().kad.add_address(&peer, addr);
    }
    if let Err(error) = swarm.behaviour_mut().kad.bootstrap() {
        tracing::info!(%error, "no DHT bootstrap: answering only");
    }
    let me = *swarm.local_peer_id();
    loop {
        match swarm.select_next_some().await {
            SwarmEvent::NewListenAddr { address, .. } => {
                // A relay serves only at addresses it knows to be reachable: its own.
                swarm.add_external_address(address.clone());
                serving(&address.with(Protocol::P2p(me)));
            }
            SwarmEvent::Behaviour(BehaviourEvent::Identify(identify::Event::Received {
                peer_id,
                info,
                ..
            })) if info.protocols.contains(&kad::PROTOCOL_NAME) => {
                // Another DHT server: into the routing table at the addresses it
                // listens on.
                for addr in info.listen_addrs {
                    swarm.behaviour_mut().kad.add_address(&peer_id, addr);
                }
            }
            SwarmEvent::Behaviour(BehaviourEvent::Relay(event)) => {
                tracing::info!(?event, "relay");
            }
            other => tracing::trace!(?other, "relay event"),
        }
    }
}
