//! The libp2p node: one tokio task owns the swarm; a cloneable handle talks to it
//! over bounded channels. Unexpected events are logged, never fatal.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use anyhow::Context as _;
use futures::StreamExt as _;
use libp2p::multiaddr::Protocol;
use libp2p::swarm::behaviour::toggle::Toggle;
use libp2p::swarm::{ConnectionId, NetworkBehaviour, SwarmEvent};
use libp2p::{
    Multiaddr, PeerId, Swarm, autonat, connection_limits, dcutr, identify, kad, mdns, noise, ping,
    relay, tcp, upnp, yamux,
};
use tokio::sync::{mpsc, oneshot, watch};

use libp2p::identity::Keypair;

use super::circuits::{Circuits, Limit};

mod tracker;
use tracker::{Request, Tracker, reserve, run};

/// Why a dial reached nobody, in terms a player can act on (libp2p's own error is
/// logged, not shown).
#[derive(Debug, thiserror::Error)]
pub enum Unreachable {
    /// Something answers at the address, with another identity.
    #[error("the address answers as another peer ({obtained})")]
    WrongPeer { obtained: PeerId },
    /// Nothing answers at any of the addresses.
    #[error("nobody answers at the addresses dialled")]
    Silent,
}
use super::public::{HOLD, Public, Relays};

/// How a node listens and finds peers.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Addresses to listen on; all interfaces over TCP and QUIC when empty.
    pub listen: Vec<Multiaddr>,
    /// `mDNS` on the LAN and `UPnP` on the router (never in tests: both multicast).
    pub discovery: bool,
    /// How often connections are pinged (default 5 s).
    pub ping_every: Option<Duration>,
    /// A relay (`/…/p2p/<relay id>`) to hold a reservation on, so that peers that
    /// cannot reach this node directly can through the relay.
    pub relay: Option<Multiaddr>,
    /// Whether the node joins the public network: the DHT as a client, `AutoNAT` to
    /// learn whether it is reachable, and (when not) reservations on relays it
    /// finds there.
    pub public: Public,
}

/// How often a connection is pinged (keeps it and NAT mappings alive; measures RTT).
const PING_EVERY: Duration = Duration::from_secs(5);

/// Limits against hostile third peers: connections still in their handshake, all
/// incoming connections, connections per peer, and streams per connection. A table
/// needs one connection (two while a relayed one is upgraded) and a few streams.
pub const MAX_PENDING_INCOMING: u32 = 128;
pub const MAX_ESTABLISHED_INCOMING: u32 = 64;
pub const MAX_PER_PEER: u32 = 4;
pub const MAX_STREAMS: usize = 32;

/// The connection limits every node (player or relay) keeps.
fn limits() -> connection_limits::Behaviour {
    connection_limits::Behaviour::new(
        connection_limits::ConnectionLimits::default()
            .with_max_pending_incoming(Some(MAX_PENDING_INCOMING))
            .with_max_established_incoming(Some(MAX_ESTABLISHED_INCOMING))
            .with_max_established_per_peer(Some(MAX_PER_PEER)),
    )
}

/// Yamux with at most [`MAX_STREAMS`] streams per connection.
pub(crate) fn yamux_config() -> yamux::Config {
    let mut config = yamux::Config::default();
    config.set_max_num_streams(MAX_STREAMS);
    config
}

#[derive(NetworkBehaviour)]
struct Behaviour {
    limits: connection_limits::Behaviour,
    stream: libp2p_stream::Behaviour,
    identify: identify::Behaviour,
    ping: ping::Behaviour,
    relay: relay::client::Behaviour,
    dcutr: dcutr::Behaviour,
    mdns: Toggle<mdns::tokio::Behaviour>,
    upnp: Toggle<upnp::tokio::Behaviour>,
    kad: Toggle<kad::Behaviour<kad::store::MemoryStore>>,
    autonat: Toggle<autonat::v2::client::Behaviour>,
}

/// How this node can be reached through relays, as far as it knows (its addresses
/// confirmed directly are watched through [`Node::reachable`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Its circuit addresses on the relays it holds reservations on.
    pub circuits: Vec<Multiaddr>,
}

/// What strangers confirmed of how this node is reached, as it is learnt.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Confirmed {
    /// Its own addresses confirmed reachable: a stranger dialled back (`AutoNAT`), or
    /// the router maps them (`UPnP`).
    pub addrs: Vec<Multiaddr>,
    /// Its addresses the router maps to it (`UPnP`).
    pub mapped: Vec<Multiaddr>,
}

/// The way a table's connection to a peer currently goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// Straight to the peer (on a LAN, by a public address, or punched through NAT).
    Direct(Multiaddr, Straight),
    /// Through a relay (`…/p2p-circuit/…`): works anywhere, slower, and limited by
    /// the relay's circuit limits; `true` when those limits would end it within a
    /// game, so that fresh circuits replace it as it goes.
    Relayed(Multiaddr, bool),
}

/// How a direct connection came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Straight {
    /// The peer's address answered (the LAN, or a reachable address).
    Address,
    /// Hole punching, from a relayed connection.
    Punched,
    /// To this node's address that its router maps (`UPnP`).
    Mapped,
}

impl std::fmt::Display for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Direct(addr, Straight::Address) => write!(f, "direct {addr}"),
            Self::Direct(addr, Straight::Punched) => write!(f, "direct {addr} (hole punched)"),
            Self::Direct(addr, Straight::Mapped) => write!(f, "direct {addr} (UPnP)"),
            Self::Relayed(addr, limited) => {
                write!(f, "relayed {addr}")?;
                if let Some(relay) = peer_of_relay(addr) {
                    write!(f, " (via {relay}")?;
                    if *limited {
                        write!(f, "; limited: renewing")?;
                    }
                    write!(f, ")")?;
                }
                Ok(())
            }
        }
    }
}

/// Whether `addr` goes through a relay.
pub fn is_relayed(addr: &Multiaddr) -> bool {
    addr.iter()
        .any(|p| p == libp2p::multiaddr::Protocol::P2pCircuit)
}

/// How long a node that is usable already waits for a stranger to confirm it is
/// reachable (`AutoNAT`).
const VERDICT_WAIT: Duration = Duration::from_secs(3);

/// How long a node waits for a relay to see it over each of its transports.
const BOTH_WAYS: Duration = Duration::from_secs(5);

/// The last peer id in `addr` (`…/p2p/<id>`).
pub(super) fn peer_of(addr: &Multiaddr) -> Option<PeerId> {
    addr.iter()
        .filter_map(|p| match p {
            libp2p::multiaddr::Protocol::P2p(peer) => Some(peer),
            _ => None,
        })
        .last()
}

/// The relay of a circuit address (the peer id before `/p2p-circuit`).
fn peer_of_relay(circuit: &Multiaddr) -> Option<PeerId> {
    let relay: Multiaddr = circuit
        .iter()
        .take_while(|p| *p != Protocol::P2pCircuit)
        .collect();
    peer_of(&relay)
}

/// The relays among relayed `addrs`, each with its own addresses there (the part
/// before `/p2p-circuit`).
fn relays_of(addrs: &[Multiaddr]) -> Vec<(PeerId, Vec<Multiaddr>)> {
    let mut relays: Vec<(PeerId, Vec<Multiaddr>)> = Vec::new();
    for addr in addrs.iter().filter(|a| is_relayed(a)) {
        let relay: Multiaddr = addr
            .iter()
            .take_while(|p| *p != libp2p::multiaddr::Protocol::P2pCircuit)
            .collect();
        let Some(peer) = peer_of(&relay) else {
            continue;
        };
        match relays.iter_mut().find(|(p, _)| *p == peer) {
            Some((_, direct)) => direct.push(relay),
            None => relays.push((peer, vec![relay])),
        }
    }
    relays
}

/// A running node: its identity, its game streams, and a line to its swarm task.
#[derive(Clone)]
pub struct Node {
    peer: PeerId,
    control: libp2p_stream::Control,
    requests: mpsc::Sender<Request>,
    routes: Routes,
    back_ats: BackAts,
    reachable: watch::Receiver<Confirmed>,
    backs: tokio::sync::broadcast::Sender<PeerId>,
}

/// How the connection to each connected peer goes, as it changes.
pub type Routes = watch::Receiver<HashMap<PeerId, Route>>;

/// Where each connected peer can be told that this node is back after a restart
/// (see [`Node::back_ats`]), as it is learnt.
pub type BackAts = watch::Receiver<HashMap<PeerId, Vec<Multiaddr>>>;

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("peer", &self.peer)
            .finish_non_exhaustive()
    }
}

impl Node {
    /// Starts a node with `identity` (its key is the peer id) and waits until it
    /// listens on every requested address.
    pub async fn start(identity: &Keypair, config: Config) -> anyhow::Result<Self> {
        // Before anything listens: the guard on the built-in list fails loudly here.
        let bootstrap = config.public.peers()?;
        let mut swarm = build(
            identity,
            config.discovery,
            config.ping_every.unwrap_or(PING_EVERY),
            config.public.is_on(),
        )?;
        let listen = if config.listen.is_empty() {
            vec![
                "/ip4/0.0.0.0/tcp/0".parse()?,
                "/ip4/0.0.0.0/udp/0/quic-v1".parse()?,
            ]
        } else {
            config.listen
        };
        for addr in &listen {
            swarm
                .listen_on(addr.clone())
                .with_context(|| format!("cannot listen on {addr}"))?;
        }
        let mut tracker = Tracker::new(
            Relays::new(if config.public.is_on() { HOLD } else { 0 }),
            !config.public.is_on(),
            config.discovery,
        );
        if let Some(kad) = swarm.behaviour_mut().kad.as_mut() {
            for (peer, addr) in bootstrap {
                kad.add_address(&peer, addr);
            }
            if let Err(error) = kad.bootstrap() {
                tracing::info!(%error, "no DHT bootstrap");
            }
        }
        // Each listener reports at least one address before the node is handed out.
        let mut listening = 0;
        while listening < listen.len() {
            match swarm.select_next_some().await {
                SwarmEvent::NewListenAddr { address, .. } => {
                    tracing::debug!(%address, "listening");
                    listening += 1;
                }
                SwarmEvent::ListenerError { error, .. } => {
                    anyhow::bail!("a listener failed: {error}")
                }
                SwarmEvent::ListenerClosed { reason, .. } => {
                    anyhow::bail!("a listener closed: {reason:?}")
                }
                other => tracker.on_event(&mut swarm, other),
            }
        }
        if let Some(relay) = config.relay {
            reserve(&mut swarm, &mut tracker, &relay).await?;
        }
        let peer = *swarm.local_peer_id();
        let mut control = swarm.behaviour().stream.new_control();
        let (requests, inbox) = mpsc::channel(64);
        let mut backs = control
            .accept(super::BACK_PROTOCOL)
            .context("cannot accept the back protocol")?;
        let told = requests.clone();
        let (back, _) = tokio::sync::broadcast::channel(16);
        let heard = back.clone();
        tokio::spawn(async move {
            // Only the peer itself can say it is back (the stream is authenticated),
            // and all it closes is that peer's own stale connections. Those who
            // listen hear it before the old streams break.
            while let Some((from, stream)) = backs.next().await {
                drop(stream);
                let _ = heard.send(from);
                if told.send(Request::Back(from)).await.is_err() {
                    break;
                }
            }
        });
        let routes = tracker.subscribe();
        let back_ats = tracker.subscribe_back_ats();
        let reachable = tracker.subscribe_reachable();
        tokio::spawn(run(swarm, inbox, tracker));
        Ok(Self {
            peer,
            control,
            requests,
            routes,
            back_ats,
            reachable,
            backs: back,
        })
    }

    /// The addresses a stranger confirmed this node reachable at, as they are
    /// learnt: a verdict may come after [`Self::reach`] gave up waiting.
    pub fn reachable(&self) -> watch::Receiver<Confirmed> {
        self.reachable.clone()
    }

    /// Hears each peer that says it is back after a restart ([`Node::knock`]).
    pub fn backs(&self) -> tokio::sync::broadcast::Receiver<PeerId> {
        self.backs.subscribe()
    }

    pub fn peer_id(&self) -> PeerId {
        self.peer
    }

    /// Asks the network task something; the default if it has stopped.
    async fn ask<T: Default>(&self, request: impl FnOnce(oneshot::Sender<T>) -> Request) -> T {
        let (tx, rx) = oneshot::channel();
        if self.requests.send(request(tx)).await.is_err() {
            return T::default();
        }
        rx.await.unwrap_or_default()
    }

    /// Opens and accepts game streams.
    pub fn control(&self) -> libp2p_stream::Control {
        self.control.clone()
    }

    /// The addresses the node listens on (and was told it is seen at).
    pub async fn addresses(&self) -> Vec<Multiaddr> {
        self.ask(Request::Addresses).await
    }

    /// Where each connected peer can be told that this node is back after a
    /// restart, as soon as it is known: the addresses it listens on (identify) and
    /// those of punched connections (which come from its listening port); never a
    /// relay's.
    pub fn back_ats(&self) -> BackAts {
        self.back_ats.clone()
    }

    /// Tells `peer`, at `addrs` (what [`Node::back_ats`] said before a restart), that
    /// this node is back: its old connections to this node are closed at once, so
    /// that it dials again now instead of waiting out its transport's idle timeout
    /// (QUIC does not notice a killed peer for seconds).
    pub async fn knock(&self, peer: PeerId, addrs: Vec<Multiaddr>) -> anyhow::Result<()> {
        self.dial_from(peer, addrs, true).await?;
        let mut stream = self
            .control()
            .open_stream(peer, super::BACK_PROTOCOL)
            .await
            .map_err(|e| anyhow::anyhow!("cannot say so: {e}"))?;
        futures::AsyncWriteExt::close(&mut stream).await?;
        Ok(())
    }

    /// The addresses the node listens on, and nothing else (what it can bind again).
    pub async fn listeners(&self) -> Vec<Multiaddr> {
        self.ask(Request::Listeners).await
    }

    /// The round trips of the latest libp2p pings to `peer` (at most 256).
    pub async fn ping_rtts(&self, peer: PeerId) -> Vec<Duration> {
        self.ask(|tx| Request::Rtt(peer, tx)).await
    }

    /// Peers found on the LAN by `mDNS` so far, with their addresses.
    pub async fn discovered(&self) -> Vec<(PeerId, Vec<Multiaddr>)> {
        self.ask(Request::Discovered).await
    }

    /// How this node can be reached through relays, once it knows how it is reached:
    /// waits up to `within` for a stranger to confirm an address of its or the router
    /// to map one (`UPnP`), or else for the reservations it wants (on the public
    /// network), a stranger's try, and the search for a router to end.
    pub async fn reach(&self, within: Duration) -> Reach {
        let until = tokio::time::Instant::now() + within;
        // Usable first (the relays held, or an address confirmed or mapped), then a
        // moment for a stranger's verdict: one that can dial this node back does so
        // within a second or two, while behind NAT the verdict waits for its dial to
        // time out, which the player need not.
        for tested in [false, true] {
            let until = if tested {
                until.min(tokio::time::Instant::now() + VERDICT_WAIT)
            } else {
                until
            };
            let (reply, rx) = oneshot::channel();
            if self
                .requests
                .send(Request::Ready { tested, reply })
                .await
                .is_ok()
            {
                let _ = tokio::time::timeout_at(until, rx).await;
            }
        }
        self.ask(Request::Reach).await
    }

    /// Announces this node in the DHT under `key` (a short code's rendezvous
    /// number); fails off the public network, or when no peer took the record.
    pub async fn provide(&self, key: Vec<u8>) -> anyhow::Result<()> {
        let (done, rx) = oneshot::channel();
        self.requests
            .send(Request::Provide { key, done })
            .await
            .map_err(|_| anyhow::anyhow!("the network stopped"))?;
        rx.await
            .map_err(|_| anyhow::anyhow!("the network stopped"))?
    }

    /// Stops announcing `key`.
    pub async fn unprovide(&self, key: Vec<u8>) {
        let _ = self.requests.send(Request::Unprovide(key)).await;
    }

    /// Looks `key` up in the DHT: each provider found arrives on the receiver,
    /// already being dialled at the addresses its record carries; the receiver ends
    /// when the lookup does (at once off the public network).
    pub async fn providers(&self, key: Vec<u8>) -> mpsc::Receiver<PeerId> {
        let (found, rx) = mpsc::channel(16);
        let _ = self.requests.send(Request::Providers { key, found }).await;
        rx
    }

    /// How the connection to `peer` goes now (direct when any connection is), if
    /// there is one.
    pub fn route(&self, peer: PeerId) -> Option<Route> {
        self.routes.borrow().get(&peer).cloned()
    }

    /// How the connection to each connected peer goes, updated as connections come
    /// and go (for showing the connection state as it changes).
    pub fn routes(&self) -> Routes {
        self.routes.clone()
    }

    /// Waits until the connection to `peer` is direct and only direct (for instance
    /// once hole punching succeeded and the relayed one is closed); its address.
    pub async fn direct(&self, peer: PeerId) -> Option<Multiaddr> {
        let (tx, rx) = oneshot::channel();
        if self.requests.send(Request::Direct(peer, tx)).await.is_err() {
            return None;
        }
        rx.await.ok()
    }

    /// Dials `peer` at `addrs`; returns once connected, with the route of the
    /// connection that answered (a relayed one may be made direct moments later by
    /// hole punching, so this is not the same as [`Node::route`] afterwards).
    pub async fn dial(&self, peer: PeerId, addrs: Vec<Multiaddr>) -> anyhow::Result<Route> {
        // Through a relay, hole punching follows: first let each relay see this node
        // over each of its transports, so that the addresses this side offers (taken
        // when the relayed connection opens) match the other side's on one of them.
        let waits = relays_of(&addrs)
            .into_iter()
            .map(|(relay, direct)| async move {
                let (done, seen) = oneshot::channel();
                let asked = Request::BothWays {
                    relay,
                    addrs: direct,
                    done,
                };
                if self.requests.send(asked).await.is_ok() {
                    let _ = seen.await;
                }
            });
        let _ = tokio::time::timeout(BOTH_WAYS, futures::future::join_all(waits)).await;
        self.dial_from(peer, addrs, false).await
    }

    /// Dials `peer` at `addrs`, from a listening port if `listening` (else a fresh one).
    async fn dial_from(
        &self,
        peer: PeerId,
        addrs: Vec<Multiaddr>,
        listening: bool,
    ) -> anyhow::Result<Route> {
        let (done, rx) = oneshot::channel();
        let request = Request::Dial {
            peer,
            addrs,
            listening,
            done,
        };
        self.requests
            .send(request)
            .await
            .map_err(|_| anyhow::anyhow!("the network task has stopped"))?;
        rx.await
            .map_err(|_| anyhow::anyhow!("the network task has stopped"))?
    }
}

/// Peers in the same process (`/memory/N` addresses), with the same noise and yamux
/// as TCP: what tests use when the network itself is not under test (the window's
/// friend tables). Built with the test scaffolding only; otherwise never listens or
/// dials.
fn in_process(
    key: &Keypair,
) -> Result<
    libp2p::core::transport::Boxed<(PeerId, libp2p::core::muxing::StreamMuxerBox)>,
    Box<dyn std::error::Error + Send + Sync>,
> {
    use libp2p::core::transport::{MemoryTransport, OptionalTransport};
    use libp2p::core::{Transport as _, muxing::StreamMuxerBox, upgrade::Version};
    let memory = MemoryTransport::default()
        .upgrade(Version::V1)
        .authenticate(noise::Config::new(key)?)
        .multiplex(yamux_config())
        .map(|(peer, muxer), _| (peer, StreamMuxerBox::new(muxer)));
    let memory = if cfg!(feature = "harness") {
        OptionalTransport::some(memory)
    } else {
        OptionalTransport::none()
    };
    Ok(memory.boxed())
}

fn build(
    identity: &Keypair,
    discovery: bool,
    ping_every: Duration,
    public: bool,
) -> anyhow::Result<Swarm<Behaviour>> {
    let swarm = libp2p::SwarmBuilder::with_existing_identity(identity.clone())
        .with_tokio()
        .with_tcp(
            tcp::Config::default().nodelay(true),
            noise::Config::new,
            yamux_config,
        )?
        .with_quic_config(|mut quic| {
            quic.max_concurrent_stream_limit = MAX_STREAMS as u32;
            quic
        })
        .with_other_transport(|key| in_process(key))?
        // The public bootstrap peers are named by `/dnsaddr`.
        .with_dns()?
        .with_relay_client(noise::Config::new, yamux_config)?
        .with_behaviour(|key, relay| {
            let peer = key.public().to_peer_id();
            let mdns = if discovery {
                Some(mdns::tokio::Behaviour::new(mdns::Config::default(), peer)?)
            } else {
                None
            };
            Ok(Behaviour {
                limits: limits(),
                stream: libp2p_stream::Behaviour::new(),
                identify: identify::Behaviour::new(identify::Config::new(
                    "/armada/id/1".into(),
                    key.public(),
                )),
                ping: ping::Behaviour::new(ping::Config::new().with_interval(ping_every)),
                relay,
                dcutr: dcutr::Behaviour::new(peer),
                mdns: mdns.into(),
                upnp: discovery.then(upnp::tokio::Behaviour::default).into(),
                kad: public.then(|| dht(peer, kad::Mode::Client)).into(),
                // Each new candidate address is tested within a second of appearing.
                autonat: public
                    .then(|| {
                        autonat::v2::client::Behaviour::new(
                            rand::make_rng::<rand::rngs::StdRng>(),
                            autonat::v2::client::Config::default()
                                .with_probe_interval(Duration::from_secs(1)),
                        )
                    })
                    .into(),
            })
        })
        .map_err(|e| anyhow::anyhow!("cannot set up the network: {e}"))?
        // A table's connection stays up while its game stream is open, however long
        // the game waits on a person; the DHT's connections are let go soon after.
        .with_swarm_config(|c| c.with_idle_connection_timeout(IDLE))
        .build();
    Ok(swarm)
}

/// How long a connection with no stream open is kept.
pub(super) const IDLE: Duration = Duration::from_mins(2);

/// A DHT node on the public network's protocol (`/ipfs/kad/1.0.0`): a client asks
/// and is never asked (a player behind NAT would only waste others' queries); a
/// server (a relay) answers.
pub(super) fn dht(peer: PeerId, mode: kad::Mode) -> kad::Behaviour<kad::store::MemoryStore> {
    let mut dht = kad::Behaviour::with_config(
        peer,
        kad::store::MemoryStore::new(peer),
        kad::Config::new(kad::PROTOCOL_NAME),
    );
    dht.set_mode(Some(mode));
    dht
}
