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

/// How this node can be reached, as far as it knows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Its own addresses that a stranger on the internet dialled back (`AutoNAT`).
    pub confirmed: Vec<Multiaddr>,
    /// Its circuit addresses on the relays it holds reservations on.
    pub circuits: Vec<Multiaddr>,
    /// Its addresses the router maps to it (`UPnP`), among the confirmed ones.
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

enum Request {
    Dial {
        peer: PeerId,
        addrs: Vec<Multiaddr>,
        done: oneshot::Sender<anyhow::Result<Route>>,
    },
    /// Dials `peer` from a listening port, so that the peer's answer can reach
    /// this node where it listens (see [`Node::knock`]).
    Knock {
        peer: PeerId,
        addrs: Vec<Multiaddr>,
        done: oneshot::Sender<anyhow::Result<Route>>,
    },
    /// `peer` said it is back: every connection to it older than the newest is dead.
    Back(PeerId),
    /// Where `peer` can be told that this node is back.
    BackAt(PeerId, oneshot::Sender<Vec<Multiaddr>>),
    Addresses(oneshot::Sender<Vec<Multiaddr>>),
    Listeners(oneshot::Sender<Vec<Multiaddr>>),
    Rtt(PeerId, oneshot::Sender<Vec<Duration>>),
    Discovered(oneshot::Sender<Vec<(PeerId, Vec<Multiaddr>)>>),
    /// Answered once a stranger confirmed an address of this node's or its router
    /// mapped one, or once it holds the reservations it wants, the search for a
    /// router is over and (with `tested`) a stranger has tried to dial it back.
    Ready {
        tested: bool,
        reply: oneshot::Sender<()>,
    },
    Reach(oneshot::Sender<Reach>),
    /// Answered once there is a direct connection to the peer.
    Direct(PeerId, oneshot::Sender<Multiaddr>),
    /// Answered once `relay` has told this node where it sees it over each
    /// transport among `addrs` (or dialling that transport failed).
    BothWays {
        relay: PeerId,
        addrs: Vec<Multiaddr>,
        done: oneshot::Sender<()>,
    },
    /// Announces this node in the DHT as a provider of `key`: answered once the
    /// peers closest to the key were told (or the announcement failed).
    Provide {
        key: Vec<u8>,
        done: oneshot::Sender<anyhow::Result<()>>,
    },
    /// Stops announcing `key` (records already given out expire on their own).
    Unprovide(Vec<u8>),
    /// Looks `key` up in the DHT; see [`Node::providers`].
    Providers {
        key: Vec<u8>,
        found: mpsc::Sender<PeerId>,
    },
}

/// A transport hole punching can use. A punch needs the same one on both sides:
/// each side dials the addresses the other was seen at, and a NAT lets in only what
/// answers a packet it sent out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Transport {
    Tcp,
    Quic,
}

impl Transport {
    /// The transport of a direct address (none for a relayed or in-process one).
    fn of(addr: &Multiaddr) -> Option<Self> {
        use libp2p::multiaddr::Protocol;
        if is_relayed(addr) {
            return None;
        }
        if addr.iter().any(|p| p == Protocol::QuicV1) {
            Some(Self::Quic)
        } else if addr.iter().any(|p| matches!(p, Protocol::Tcp(_))) {
            Some(Self::Tcp)
        } else {
            None
        }
    }
}

/// A wait for a relay to see this node over each of its transports.
struct BothWays {
    relay: PeerId,
    /// Transports not yet seen over, each with the dial made for it, if one was.
    waiting: Vec<(Transport, Option<ConnectionId>)>,
    done: oneshot::Sender<()>,
}

/// One open connection to a peer.
struct Link {
    id: ConnectionId,
    /// The peer's address, or for a relayed connection the peer accepted, the
    /// circuit address it came in on.
    addr: Multiaddr,
    relayed: bool,
    /// This node dialled it (so the address is one the peer is reachable at).
    dialled: bool,
    /// The peer told this node, over this connection, where it sees it (identify).
    identified: bool,
    /// How a direct connection came about.
    straight: Straight,
    /// A relayed connection's circuit limits, as the relay reported them.
    limit: Option<Limit>,
}

impl Link {
    fn route(&self) -> Route {
        if self.relayed {
            Route::Relayed(self.addr.clone(), self.limit.is_some_and(Limit::binds))
        } else {
            Route::Direct(self.addr.clone(), self.straight)
        }
    }
}

/// Whether `addr` names no host (`0.0.0.0`, `::`): nothing to dial.
fn is_unspecified(addr: &Multiaddr) -> bool {
    addr.iter().any(|p| match p {
        Protocol::Ip4(ip) => ip.is_unspecified(),
        Protocol::Ip6(ip) => ip.is_unspecified(),
        _ => false,
    })
}

/// Whether `addr` is an address on the internet at large (not loopback, private,
/// link-local or shared).
fn is_public(addr: &Multiaddr) -> bool {
    addr.iter().any(|p| match p {
        Protocol::Ip4(ip) => {
            !(ip.is_loopback()
                || ip.is_private()
                || ip.is_link_local()
                || ip.is_unspecified()
                || (ip.octets()[0] == 100 && (ip.octets()[1] & 0xc0) == 64))
        }
        Protocol::Ip6(ip) => {
            !(ip.is_loopback()
                || ip.is_unspecified()
                || (ip.segments()[0] & 0xfe00) == 0xfc00
                || (ip.segments()[0] & 0xffc0) == 0xfe80)
        }
        _ => false,
    })
}

/// What the swarm task keeps track of between events.
#[derive(Default)]
struct Tracker {
    /// The route to each connected peer, published for handles.
    routes: watch::Sender<HashMap<PeerId, Route>>,
    /// Addresses peers told this node it is seen at (identify).
    observed: Vec<Multiaddr>,
    /// The latest ping round trips per peer (at most 256 each).
    rtts: HashMap<PeerId, Vec<Duration>>,
    /// Peers found on the LAN by `mDNS`.
    lan: BTreeMap<PeerId, Vec<Multiaddr>>,
    /// Open connections per peer.
    links: HashMap<PeerId, Vec<Link>>,
    /// Dials asked for by handles: the peer, the dial's connection, the answer.
    dials: Vec<(PeerId, ConnectionId, oneshot::Sender<anyhow::Result<Route>>)>,
    directs: Vec<(PeerId, oneshot::Sender<Multiaddr>)>,
    /// The addresses each identified peer says it listens on.
    listens: HashMap<PeerId, Vec<Multiaddr>>,
    both_ways: Vec<BothWays>,
    /// The relays this node holds reservations on (found on the public network).
    relays: Relays,
    /// Its own addresses a stranger confirmed by dialling back (`AutoNAT`).
    confirmed: Vec<Multiaddr>,
    /// A stranger tried to dial this node back (`AutoNAT`), whatever came of it
    /// (off the public network, nobody will).
    tested: bool,
    /// Still looking for a router to map ports on (`UPnP`).
    mapping: bool,
    /// Addresses the router maps to this node.
    mapped: Vec<Multiaddr>,
    /// The circuits this node dialled, replaced before their relays' limits.
    circuits: Circuits,
    /// The limits of circuits peers opened to this node, until their connection is up.
    inbound_limits: HashMap<PeerId, Limit>,
    /// Peers this node has been connected to through a relay.
    relayed_to: std::collections::HashSet<PeerId>,
    /// Those waiting to know how the node is reachable, and whether they wait for
    /// a stranger's try too.
    ready: Vec<(bool, oneshot::Sender<()>)>,
    /// DHT announcements under way.
    provides: HashMap<kad::QueryId, oneshot::Sender<anyhow::Result<()>>>,
    /// DHT lookups under way, and where their providers go.
    lookups: HashMap<kad::QueryId, mpsc::Sender<PeerId>>,
}

/// A running node: its identity, its game streams, and a line to its swarm task.
#[derive(Clone)]
pub struct Node {
    peer: PeerId,
    control: libp2p_stream::Control,
    requests: mpsc::Sender<Request>,
    routes: Routes,
    backs: tokio::sync::broadcast::Sender<PeerId>,
}

/// How the connection to each connected peer goes, as it changes.
pub type Routes = watch::Receiver<HashMap<PeerId, Route>>;

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
        let mut tracker = Tracker {
            relays: Relays::new(if config.public.is_on() { HOLD } else { 0 }),
            tested: !config.public.is_on(),
            mapping: config.discovery,
            ..Tracker::default()
        };
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
        let routes = tracker.routes.subscribe();
        tokio::spawn(run(swarm, inbox, tracker));
        Ok(Self {
            peer,
            control,
            requests,
            routes,
            backs: back,
        })
    }

    /// Hears each peer that says it is back after a restart ([`Node::knock`]).
    pub fn backs(&self) -> tokio::sync::broadcast::Receiver<PeerId> {
        self.backs.subscribe()
    }

    pub fn peer_id(&self) -> PeerId {
        self.peer
    }

    /// Opens and accepts game streams.
    pub fn control(&self) -> libp2p_stream::Control {
        self.control.clone()
    }

    /// The addresses the node listens on (and was told it is seen at).
    pub async fn addresses(&self) -> Vec<Multiaddr> {
        let (tx, rx) = oneshot::channel();
        if self.requests.send(Request::Addresses(tx)).await.is_err() {
            return Vec::new();
        }
        rx.await.unwrap_or_default()
    }

    /// Where `peer` can be told that this node is back after a restart: the
    /// addresses it listens on (identify) and those of punched connections (which
    /// come from its listening port); never a relay's.
    pub async fn back_at(&self, peer: PeerId) -> Vec<Multiaddr> {
        let (tx, rx) = oneshot::channel();
        if self.requests.send(Request::BackAt(peer, tx)).await.is_err() {
            return Vec::new();
        }
        rx.await.unwrap_or_default()
    }

    /// Tells `peer`, at `addrs` (what [`Node::back_at`] said before a restart), that
    /// this node is back: its old connections to this node are closed at once, so
    /// that it dials again now instead of waiting out its transport's idle timeout
    /// (QUIC does not notice a killed peer for seconds).
    pub async fn knock(&self, peer: PeerId, addrs: Vec<Multiaddr>) -> anyhow::Result<()> {
        let (done, rx) = oneshot::channel();
        self.requests
            .send(Request::Knock { peer, addrs, done })
            .await
            .map_err(|_| anyhow::anyhow!("the network task has stopped"))?;
        rx.await
            .map_err(|_| anyhow::anyhow!("the network task has stopped"))??;
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
        let (tx, rx) = oneshot::channel();
        if self.requests.send(Request::Listeners(tx)).await.is_err() {
            return Vec::new();
        }
        rx.await.unwrap_or_default()
    }

    /// The round trips of the latest libp2p pings to `peer` (at most 256).
    pub async fn ping_rtts(&self, peer: PeerId) -> Vec<Duration> {
        let (tx, rx) = oneshot::channel();
        if self.requests.send(Request::Rtt(peer, tx)).await.is_err() {
            return Vec::new();
        }
        rx.await.unwrap_or_default()
    }

    /// Peers found on the LAN by `mDNS` so far, with their addresses.
    pub async fn discovered(&self) -> Vec<(PeerId, Vec<Multiaddr>)> {
        let (tx, rx) = oneshot::channel();
        if self.requests.send(Request::Discovered(tx)).await.is_err() {
            return Vec::new();
        }
        rx.await.unwrap_or_default()
    }

    /// How this node can be reached: waits up to `within` for a stranger to confirm
    /// an address of its or the router to map one (`UPnP`), or else for the
    /// reservations it wants (on the public network), a stranger's try, and the
    /// search for a router to end.
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
        let (tx, rx) = oneshot::channel();
        if self.requests.send(Request::Reach(tx)).await.is_err() {
            return Reach::default();
        }
        rx.await.unwrap_or_default()
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
        let (done, rx) = oneshot::channel();
        self.requests
            .send(Request::Dial { peer, addrs, done })
            .await
            .map_err(|_| anyhow::anyhow!("the network task has stopped"))?;
        rx.await
            .map_err(|_| anyhow::anyhow!("the network task has stopped"))?
    }
}

/// Takes a reservation on `relay` and waits (briefly) until the relay has told this
/// node where it sees it, over the relay's transports both.
async fn reserve(
    swarm: &mut Swarm<Behaviour>,
    tracker: &mut Tracker,
    relay: &Multiaddr,
) -> anyhow::Result<()> {
    let circuit = relay.clone().with(libp2p::multiaddr::Protocol::P2pCircuit);
    swarm
        .listen_on(circuit)
        .with_context(|| format!("cannot use the relay {relay}"))?;
    let reserved = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match swarm.select_next_some().await {
                SwarmEvent::NewListenAddr { address, .. }
                    if address
                        .iter()
                        .any(|p| p == libp2p::multiaddr::Protocol::P2pCircuit) =>
                {
                    tracing::info!(%address, "reachable through the relay");
                    return Ok(());
                }
                SwarmEvent::ListenerClosed { reason, .. } => {
                    return Err(anyhow::anyhow!(
                        "the relay refused a reservation: {reason:?}"
                    ));
                }
                other => tracker.on_event(swarm, other),
            }
        }
    })
    .await;
    reserved.map_err(|_| anyhow::anyhow!("the relay {relay} did not answer in time"))??;
    // The address the relay sees us at goes into invites (and is where hole
    // punching aims): wait briefly for the relay's identify to tell it.
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        while tracker.observed.is_empty() {
            let event = swarm.select_next_some().await;
            tracker.on_event(swarm, event);
        }
    })
    .await;
    // And over its other transport too, whichever line of the relay's was given.
    if let Some(relay_peer) = peer_of(relay) {
        let mut addrs = tracker
            .listens
            .get(&relay_peer)
            .into_iter()
            .flatten()
            .filter(|a| a.iter().next() == relay.iter().next())
            .cloned()
            .collect::<Vec<_>>();
        addrs.push(relay.clone());
        let (done, mut seen) = oneshot::channel();
        tracker.both_ways(swarm, relay_peer, &addrs, done);
        let _ = tokio::time::timeout(BOTH_WAYS, async {
            loop {
                tokio::select! {
                    _ = &mut seen => return,
                    event = swarm.select_next_some() => tracker.on_event(swarm, event),
                }
            }
        })
        .await;
    }
    Ok(())
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

/// The swarm task: requests from handles, events from the network.
async fn run(
    mut swarm: Swarm<Behaviour>,
    mut inbox: mpsc::Receiver<Request>,
    mut tracker: Tracker,
) {
    loop {
        let due = tracker.circuits.next_due();
        tokio::select! {
            request = inbox.recv() => match request {
                None => return,
                Some(request) => tracker.on_request(&mut swarm, request),
            },
            event = swarm.select_next_some() => tracker.on_event(&mut swarm, event),
            () = tokio::time::sleep_until(due.unwrap_or_else(tokio::time::Instant::now)),
                if due.is_some() => tracker.replace_circuits(&mut swarm),
        }
    }
}

impl Tracker {
    fn on_request(&mut self, swarm: &mut Swarm<Behaviour>, request: Request) {
        match request {
            Request::Knock { peer, addrs, done } => self.knock(swarm, peer, addrs, done),
            Request::Back(peer) => self.back(swarm, peer),
            Request::BackAt(peer, reply) => {
                let _ = reply.send(self.back_at(peer));
            }
            Request::Addresses(reply) => {
                let mut addrs: Vec<Multiaddr> = swarm.listeners().cloned().collect();
                addrs.extend(swarm.external_addresses().cloned());
                addrs.extend(self.observed.iter().cloned());
                let mut seen = std::collections::HashSet::new();
                addrs.retain(|a| seen.insert(a.clone()));
                let _ = reply.send(addrs);
            }
            Request::Ready { tested, reply } => {
                self.ready.push((tested, reply));
                self.answer_ready();
            }
            Request::Reach(reply) => {
                let _ = reply.send(Reach {
                    confirmed: self.confirmed.clone(),
                    circuits: self.relays.circuits(),
                    mapped: self.mapped.clone(),
                });
            }
            Request::Discovered(reply) => {
                let _ = reply.send(self.lan.iter().map(|(p, a)| (*p, a.clone())).collect());
            }
            Request::Rtt(peer, reply) => {
                let _ = reply.send(self.rtts.get(&peer).cloned().unwrap_or_default());
            }
            Request::Listeners(reply) => {
                let _ = reply.send(swarm.listeners().cloned().collect());
            }
            Request::Direct(peer, reply) => {
                self.directs.push((peer, reply));
                self.answer_directs(peer);
            }
            Request::BothWays { relay, addrs, done } => {
                self.both_ways(swarm, relay, &addrs, done);
            }
            Request::Provide { key, done } => {
                let Some(dht) = swarm.behaviour_mut().kad.as_mut() else {
                    let _ = done.send(Err(anyhow::anyhow!("the public network is off")));
                    return;
                };
                match dht.start_providing(kad::RecordKey::new(&key)) {
                    Ok(id) => {
                        self.provides.insert(id, done);
                    }
                    Err(error) => {
                        let _ = done.send(Err(anyhow::anyhow!("cannot announce: {error}")));
                    }
                }
            }
            Request::Unprovide(key) => {
                if let Some(dht) = swarm.behaviour_mut().kad.as_mut() {
                    dht.stop_providing(&kad::RecordKey::new(&key));
                }
            }
            Request::Providers { key, found } => {
                // Off the public network the sender is dropped at once: none found.
                if let Some(dht) = swarm.behaviour_mut().kad.as_mut() {
                    let id = dht.get_providers(kad::RecordKey::new(&key));
                    self.lookups.insert(id, found);
                }
            }
            Request::Dial { peer, addrs, done } => {
                self.circuits.dialled(peer, &addrs);
                if let Some(route) = self.route(peer) {
                    let _ = done.send(Ok(route));
                    return;
                }
                // A fresh local port: a dial from the listening port that a NAT
                // drops still leaves a mapping in our own router, and the peer's
                // hole-punching dial would then meet our listener instead of our
                // punching dial (both sides end up as listeners and the punch
                // stalls). The port the relay and others observe is unaffected:
                // that connection is dialled by the relay client, reusing it.
                // Even while hole punching is still dialling the peer (a punch that
                // fails takes seconds to give up): the table needs a way back now.
                let opts = libp2p::swarm::dial_opts::DialOpts::peer_id(peer)
                    .addresses(self.one_circuit_per_relay(addrs))
                    .condition(libp2p::swarm::dial_opts::PeerCondition::Disconnected)
                    .allocate_new_port()
                    .build();
                let id = opts.connection_id();
                match swarm.dial(opts) {
                    Ok(()) => self.dials.push((peer, id, done)),
                    Err(error) => {
                        let _ = done.send(Err(anyhow::anyhow!("cannot dial: {error}")));
                    }
                }
            }
        }
    }

    /// Dials `peer` at `addrs` from a listening port (see [`Node::knock`]).
    fn knock(
        &mut self,
        swarm: &mut Swarm<Behaviour>,
        peer: PeerId,
        addrs: Vec<Multiaddr>,
        done: oneshot::Sender<anyhow::Result<Route>>,
    ) {
        if let Some(route) = self.route(peer) {
            let _ = done.send(Ok(route));
            return;
        }
        let opts = libp2p::swarm::dial_opts::DialOpts::peer_id(peer)
            .addresses(addrs.into_iter().filter(|a| !is_relayed(a)).collect())
            .condition(libp2p::swarm::dial_opts::PeerCondition::Disconnected)
            .build();
        let id = opts.connection_id();
        match swarm.dial(opts) {
            Ok(()) => self.dials.push((peer, id, done)),
            Err(error) => {
                let _ = done.send(Err(anyhow::anyhow!("cannot dial: {error}")));
            }
        }
    }

    /// `peer` is back after a restart: its connections but the newest are dead.
    fn back(&self, swarm: &mut Swarm<Behaviour>, peer: PeerId) {
        // Links are kept in the order they were established.
        let stale: Vec<ConnectionId> = self.links.get(&peer).map_or_else(Vec::new, |links| {
            links.iter().rev().skip(1).map(|l| l.id).collect()
        });
        if !stale.is_empty() {
            tracing::info!(%peer, stale = stale.len(), "the peer is back: its old connections are closed");
        }
        for id in stale {
            swarm.close_connection(id);
        }
    }

    /// Where `peer` listens (identify) and its punched connections' addresses.
    fn back_at(&self, peer: PeerId) -> Vec<Multiaddr> {
        let mut addrs: Vec<Multiaddr> = self
            .listens
            .get(&peer)
            .into_iter()
            .flatten()
            .filter(|a| !is_relayed(a) && !is_unspecified(a))
            .cloned()
            .collect();
        for link in self.links.get(&peer).into_iter().flatten() {
            if !link.relayed && link.straight == Straight::Punched && !addrs.contains(&link.addr) {
                addrs.push(link.addr.clone());
            }
        }
        addrs
    }

    /// `addrs` with one circuit address per relay this node is connected to: a
    /// circuit goes over the connection there whatever transport its address names,
    /// and each one dialled costs the relay a circuit, which it limits per peer.
    fn one_circuit_per_relay(&self, addrs: Vec<Multiaddr>) -> Vec<Multiaddr> {
        let mut through: Vec<PeerId> = Vec::new();
        addrs
            .into_iter()
            .filter(|addr| {
                let Some(relay) = is_relayed(addr).then(|| peer_of_relay(addr)).flatten() else {
                    return true;
                };
                if !self.links.contains_key(&relay) {
                    return true;
                }
                let first = !through.contains(&relay);
                through.push(relay);
                first
            })
            .collect()
    }

    /// Makes sure `relay` sees this node over each transport among `addrs` (its own
    /// direct addresses): dials it on each one no identified connection uses yet,
    /// from the listening port (what hole punching will aim at), and answers `done`
    /// once each transport is identified or its dial failed. A host that reached its
    /// relay over TCP and a guest that reached it over QUIC would otherwise each know
    /// only where they are seen on their own transport, and no punch could meet.
    fn both_ways(
        &mut self,
        swarm: &mut Swarm<Behaviour>,
        relay: PeerId,
        addrs: &[Multiaddr],
        done: oneshot::Sender<()>,
    ) {
        let mut waiting = Vec::new();
        for transport in [Transport::Tcp, Transport::Quic] {
            let these: Vec<Multiaddr> = addrs
                .iter()
                .filter(|a| Transport::of(a) == Some(transport))
                .cloned()
                .collect();
            if these.is_empty() {
                continue;
            }
            let link = self.links.get(&relay).and_then(|links| {
                links
                    .iter()
                    .find(|l| Transport::of(&l.addr) == Some(transport))
            });
            match link {
                Some(link) if link.identified => {}
                Some(_) => waiting.push((transport, None)),
                None => {
                    let opts = libp2p::swarm::dial_opts::DialOpts::peer_id(relay)
                        .addresses(these)
                        .condition(libp2p::swarm::dial_opts::PeerCondition::Always)
                        .build();
                    let id = opts.connection_id();
                    if swarm.dial(opts).is_ok() {
                        waiting.push((transport, Some(id)));
                    }
                }
            }
        }
        self.both_ways.push(BothWays {
            relay,
            waiting,
            done,
        });
        self.answer_both_ways();
    }

    /// `peer` told this node, over `connection`, where it sees it and where it listens.
    fn identified(
        &mut self,
        swarm: &mut Swarm<Behaviour>,
        peer: PeerId,
        connection: ConnectionId,
        info: identify::Info,
    ) {
        if !self.observed.contains(&info.observed_addr) {
            self.observed.push(info.observed_addr);
        }
        if let Some(dht) = swarm.behaviour_mut().kad.as_mut()
            && info.protocols.contains(&kad::PROTOCOL_NAME)
        {
            for addr in info.listen_addrs.iter().filter(|a| !is_relayed(a)) {
                dht.add_address(&peer, addr.clone());
            }
        }
        if info.protocols.contains(&relay::HOP_PROTOCOL_NAME) {
            // Reserved on at the address this node reached it at: known to work.
            let dialled = self.links.get(&peer).and_then(|links| {
                links
                    .iter()
                    .find(|l| l.id == connection && l.dialled && !l.relayed)
            });
            if let Some(link) = dialled {
                self.relays.found(peer, link.addr.clone());
                self.fill_relays(swarm);
            }
        }
        self.listens.insert(peer, info.listen_addrs);
        if let Some(link) = self
            .links
            .get_mut(&peer)
            .and_then(|links| links.iter_mut().find(|l| l.id == connection))
        {
            link.identified = true;
        }
        self.answer_both_ways();
    }

    /// Asks relays for reservations until as many are asked for or held as wanted.
    fn fill_relays(&mut self, swarm: &mut Swarm<Behaviour>) {
        while let Some((relay, addr)) = self.relays.next() {
            let circuit = addr
                .with_p2p(relay)
                .unwrap_or_else(|addr| addr)
                .with(Protocol::P2pCircuit);
            match swarm.listen_on(circuit.clone()) {
                Ok(listener) => {
                    tracing::info!(%circuit, "asking a relay for a reservation");
                    self.relays.asked(listener, relay);
                }
                Err(error) => tracing::info!(%circuit, %error, "cannot use the relay"),
            }
        }
    }

    /// A relay found on the public network holds a reservation for this node, which
    /// is reachable at `circuit` now: the relay is made to see it over both
    /// transports, so that a punch can meet on either.
    fn reserved(&mut self, swarm: &mut Swarm<Behaviour>, circuit: &Multiaddr) {
        tracing::info!(%circuit, "reachable through a relay found on the public network");
        if let Some(relay) = peer_of(circuit) {
            let here: Vec<Multiaddr> = self
                .links
                .get(&relay)
                .into_iter()
                .flatten()
                .filter(|l| !l.relayed)
                .map(|l| l.addr.clone())
                .collect();
            let mut addrs = self.listens.get(&relay).cloned().unwrap_or_default();
            addrs.retain(|a| here.iter().any(|h| h.iter().next() == a.iter().next()));
            addrs.extend(here);
            let (done, _) = oneshot::channel();
            self.both_ways(swarm, relay, &addrs, done);
        }
        self.answer_ready();
    }

    /// A stranger dialled this node back at `address` (`AutoNAT`): it is reachable
    /// as it is, and asks for no more reservations.
    fn confirmed(&mut self, address: Multiaddr) {
        tracing::info!(%address, "reachable directly (a stranger dialled back)");
        if !self.confirmed.contains(&address) {
            self.confirmed.push(address);
        }
        self.relays.set_want(0);
        self.answer_ready();
    }

    /// Dials a fresh circuit for each one due to be replaced (the old one is closed
    /// once the fresh one is up).
    fn replace_circuits(&mut self, swarm: &mut Swarm<Behaviour>) {
        for (old, peer, addrs) in self.circuits.due(tokio::time::Instant::now()) {
            let opts = libp2p::swarm::dial_opts::DialOpts::peer_id(peer)
                .addresses(self.one_circuit_per_relay(addrs))
                .condition(libp2p::swarm::dial_opts::PeerCondition::Always)
                .build();
            let fresh = opts.connection_id();
            match swarm.dial(opts) {
                Ok(()) => {
                    tracing::info!(%peer, "a fresh circuit before the relay's limit");
                    self.circuits.replacing(fresh, old);
                }
                Err(error) => {
                    tracing::info!(%peer, %error, "cannot dial a fresh circuit");
                    self.circuits
                        .failed(fresh, peer, tokio::time::Instant::now());
                }
            }
        }
    }

    /// The router mapped a port (or a mapping expired, or there is no router to
    /// map on): the search for one is over.
    fn upnp(&mut self, event: upnp::Event) {
        tracing::info!(?event, "UPnP");
        match event {
            upnp::Event::NewExternalAddr { external_addr, .. } => {
                self.mapped.push(external_addr);
            }
            upnp::Event::ExpiredExternalAddr { external_addr, .. } => {
                self.mapped.retain(|a| *a != external_addr);
                self.confirmed.retain(|a| *a != external_addr);
            }
            upnp::Event::GatewayNotFound | upnp::Event::NonRoutableGateway => {}
        }
        self.mapping = false;
        self.answer_ready();
    }

    /// Answers those waiting to know how the node is reachable, once it does.
    fn answer_ready(&mut self) {
        let known = !self.confirmed.is_empty();
        let usable = self.relays.enough() && !self.mapping;
        let tested = self.tested;
        for (_, reply) in self.ready.extract_if(.., |(wants_test, _)| {
            known || (usable && (tested || !*wants_test))
        }) {
            let _ = reply.send(());
        }
    }

    /// Answers the waits whose relay now sees this node over every transport asked.
    fn answer_both_ways(&mut self) {
        let links = &self.links;
        for wait in &mut self.both_ways {
            let identified = |transport: Transport| {
                links.get(&wait.relay).is_some_and(|links| {
                    links
                        .iter()
                        .any(|l| l.identified && Transport::of(&l.addr) == Some(transport))
                })
            };
            wait.waiting
                .retain(|(transport, _)| !identified(*transport));
        }
        for wait in self.both_ways.extract_if(.., |w| w.waiting.is_empty()) {
            let _ = wait.done.send(());
        }
    }

    /// After `peer`'s connections changed: publishes its route, and answers those
    /// waiting for a direct-only connection to it.
    fn links_changed(&mut self, peer: PeerId) {
        let route = self.route(peer);
        self.routes.send_if_modified(|routes| {
            let before = match &route {
                Some(route) => routes.insert(peer, route.clone()),
                None => routes.remove(&peer),
            };
            before != route
        });
        self.answer_directs(peer);
    }

    /// Tells those waiting for a direct-only connection to `peer` if it is one now.
    fn answer_directs(&mut self, peer: PeerId) {
        let Some(links) = self.links.get(&peer) else {
            return;
        };
        if links.iter().any(|link| link.relayed) {
            return;
        }
        let Some(link) = links.first() else {
            return;
        };
        for (_, reply) in self.directs.extract_if(.., |(p, _)| *p == peer) {
            let _ = reply.send(link.addr.clone());
        }
    }

    fn route(&self, peer: PeerId) -> Option<Route> {
        let links = self.links.get(&peer)?;
        // A direct connection if there is one, else the first (relayed) one.
        links
            .iter()
            .find(|link| !link.relayed)
            .or_else(|| links.first())
            .map(Link::route)
    }

    /// A connection to `peer` is up: published as its route, answering diallers.
    fn connected(
        &mut self,
        swarm: &mut Swarm<Behaviour>,
        peer_id: PeerId,
        connection_id: ConnectionId,
        endpoint: &libp2p::core::ConnectedPoint,
    ) {
        let relayed = endpoint.is_relayed();
        let addr = match endpoint {
            libp2p::core::ConnectedPoint::Listener { local_addr, .. } if relayed => {
                local_addr.clone()
            }
            _ => endpoint.get_remote_address().clone(),
        };
        tracing::info!(peer = %peer_id, %addr, relayed, "connected");
        let dialled = endpoint.is_dialer();
        let before = self.links.get(&peer_id);
        // A peer first reached through a relay is reached directly by a punch (which
        // can land on both transports, and after the relayed connection is gone).
        if relayed {
            self.relayed_to.insert(peer_id);
        }
        let punched = |l: &Link| l.relayed || l.straight == Straight::Punched;
        let straight = if self.relayed_to.contains(&peer_id)
            || before.is_some_and(|links| links.iter().any(punched))
        {
            Straight::Punched
        } else if !dialled && !self.mapped.is_empty() && is_public(&addr) {
            Straight::Mapped
        } else {
            Straight::Address
        };
        let limit = if !relayed {
            None
        } else if dialled {
            peer_of_relay(&addr).and_then(|relay| self.circuits.limit_of(relay))
        } else {
            self.inbound_limits.remove(&peer_id)
        };
        let link = Link {
            id: connection_id,
            addr,
            relayed,
            dialled,
            identified: false,
            straight,
            limit,
        };
        let route = link.route();
        if link.relayed
            && link.dialled
            && let Some(relay) = peer_of_relay(&link.addr)
            && let Some(old) =
                self.circuits
                    .opened(connection_id, peer_id, relay, tokio::time::Instant::now())
        {
            tracing::info!(peer = %peer_id, via = %link.addr, "moved to a fresh circuit: closing the old one");
            swarm.close_connection(old);
        }
        let links = self.links.entry(peer_id).or_default();
        links.push(link);
        if !relayed {
            // A direct connection supersedes relayed ones: closing them moves
            // the game's stream here (the table reconnects and syncs).
            for link in links.iter().filter(|link| link.relayed) {
                tracing::info!(peer = %peer_id, via = %link.addr, "direct now: closing the relayed connection");
                swarm.close_connection(link.id);
            }
        }
        self.links_changed(peer_id);
        // Answered after the route is published: a dialler sees it at once.
        for (_, _, done) in self.dials.extract_if(.., |(p, _, _)| *p == peer_id) {
            let _ = done.send(Ok(route.clone()));
        }
    }

    /// A circuit opened, through a relay (this node dialled) or to it (a peer did):
    /// its limits are kept until its connection is up.
    fn circuit(&mut self, event: relay::client::Event) {
        let (peer, limit, outbound) = match event {
            relay::client::Event::OutboundCircuitEstablished {
                relay_peer_id,
                limit,
            } => (relay_peer_id, limit, true),
            relay::client::Event::InboundCircuitEstablished { src_peer_id, limit } => {
                (src_peer_id, limit, false)
            }
            other @ relay::client::Event::ReservationReqAccepted { .. } => {
                return tracing::trace!(?other, "relay client");
            }
        };
        let limit = Limit {
            duration: limit.and_then(|l| l.duration()),
            data: limit.and_then(|l| l.data_in_bytes()),
        };
        if outbound {
            tracing::info!(relay = %peer, ?limit, "a circuit through a relay");
            self.circuits.limited(peer, limit);
        } else {
            self.inbound_limits.insert(peer, limit);
        }
    }

    /// What the behaviours report.
    fn on_behaviour(&mut self, swarm: &mut Swarm<Behaviour>, event: BehaviourEvent) {
        match event {
            BehaviourEvent::Identify(identify::Event::Received {
                connection_id,
                peer_id,
                info,
            }) => self.identified(swarm, peer_id, connection_id, info),
            BehaviourEvent::Upnp(event) => self.upnp(event),
            BehaviourEvent::Relay(event) => self.circuit(event),
            BehaviourEvent::Autonat(event) => {
                tracing::debug!(?event, "AutoNAT");
                self.tested = true;
                self.answer_ready();
            }
            BehaviourEvent::Ping(ping::Event {
                peer,
                result: Ok(rtt),
                ..
            }) => {
                let seen = self.rtts.entry(peer).or_default();
                if seen.len() == 256 {
                    seen.remove(0);
                }
                seen.push(rtt);
            }
            BehaviourEvent::Mdns(mdns::Event::Discovered(found)) => {
                for (peer, address) in found {
                    tracing::debug!(%peer, %address, "found on the LAN");
                    let addrs = self.lan.entry(peer).or_default();
                    if !addrs.contains(&address) {
                        addrs.push(address);
                    }
                }
            }
            BehaviourEvent::Kad(kad::Event::OutboundQueryProgressed {
                id, result, step, ..
            }) => self.queried(swarm, id, result, step.last),
            BehaviourEvent::Dcutr(event) => {
                tracing::info!(?event, "hole punching");
                if let Ok(connection) = event.result
                    && let Some(link) = self
                        .links
                        .get_mut(&event.remote_peer_id)
                        .and_then(|links| links.iter_mut().find(|l| l.id == connection))
                {
                    link.straight = Straight::Punched;
                    self.links_changed(event.remote_peer_id);
                }
            }
            other => tracing::trace!(?other, "network event"),
        }
    }

    /// A DHT query's progress: an announcement's answer, or a lookup's providers.
    fn queried(
        &mut self,
        swarm: &mut Swarm<Behaviour>,
        id: kad::QueryId,
        result: kad::QueryResult,
        last: bool,
    ) {
        match result {
            kad::QueryResult::StartProviding(result) => {
                if let Some(done) = self.provides.remove(&id) {
                    let _ = done.send(
                        result
                            .map(|_| ())
                            .map_err(|e| anyhow::anyhow!("the announcement failed: {e}")),
                    );
                }
            }
            kad::QueryResult::GetProviders(Ok(kad::GetProvidersOk::FoundProviders {
                providers,
                ..
            })) => {
                let me = *swarm.local_peer_id();
                if let Some(found) = self.lookups.get(&id) {
                    for peer in providers.into_iter().filter(|p| *p != me) {
                        // The addresses a provider's record carries are known only
                        // while the query runs: dial now, at them.
                        let opts = libp2p::swarm::dial_opts::DialOpts::peer_id(peer)
                            .condition(
                                libp2p::swarm::dial_opts::PeerCondition::DisconnectedAndNotDialing,
                            )
                            .build();
                        if let Err(error) = swarm.dial(opts) {
                            tracing::debug!(%peer, %error, "no new dial of a provider");
                        }
                        let _ = found.try_send(peer);
                    }
                }
            }
            _ => {}
        }
        if last {
            self.lookups.remove(&id);
        }
    }

    fn on_event(&mut self, swarm: &mut Swarm<Behaviour>, event: SwarmEvent<BehaviourEvent>) {
        match event {
            SwarmEvent::ConnectionEstablished {
                peer_id,
                connection_id,
                endpoint,
                ..
            } => self.connected(swarm, peer_id, connection_id, &endpoint),
            SwarmEvent::ConnectionClosed {
                peer_id,
                connection_id,
                ..
            } => {
                let gone = self
                    .links
                    .get(&peer_id)
                    .is_none_or(|links| links.iter().all(|l| l.id == connection_id));
                self.circuits.closed(connection_id, peer_id, gone);
                if let Some(links) = self.links.get_mut(&peer_id) {
                    links.retain(|link| link.id != connection_id);
                    if links.is_empty() {
                        self.links.remove(&peer_id);
                        self.listens.remove(&peer_id);
                        self.relays.lost(peer_id);
                    }
                }
                self.links_changed(peer_id);
            }
            SwarmEvent::OutgoingConnectionError {
                peer_id: Some(peer),
                connection_id,
                error,
            } => {
                tracing::info!(%peer, %error, "dial failed");
                self.circuits
                    .failed(connection_id, peer, tokio::time::Instant::now());
                for wait in &mut self.both_ways {
                    wait.waiting
                        .retain(|(_, dial)| *dial != Some(connection_id));
                }
                self.answer_both_ways();
                // Only this dial's own failure answers it: another dial of the same
                // peer (hole punching, or a stream asked of a peer not connected)
                // may fail while this one still goes on.
                if !swarm.is_connected(&peer) {
                    for (_, _, done) in self
                        .dials
                        .extract_if(.., |(p, id, _)| *p == peer && *id == connection_id)
                    {
                        let why = match &error {
                            libp2p::swarm::DialError::WrongPeerId { obtained, .. } => {
                                Unreachable::WrongPeer {
                                    obtained: *obtained,
                                }
                            }
                            _ => Unreachable::Silent,
                        };
                        let _ = done.send(Err(why.into()));
                    }
                }
            }
            SwarmEvent::NewListenAddr {
                listener_id,
                address,
            } => {
                if self.relays.accepted(listener_id, address.clone()) {
                    self.reserved(swarm, &address);
                }
            }
            SwarmEvent::ListenerClosed {
                listener_id,
                reason,
                ..
            } => {
                if let Some(relay) = self.relays.closed(listener_id) {
                    tracing::info!(%relay, ?reason, "a relay's reservation ended: finding another");
                    self.fill_relays(swarm);
                }
            }
            SwarmEvent::ExternalAddrConfirmed { address } if !is_relayed(&address) => {
                self.confirmed(address);
            }
            SwarmEvent::Behaviour(event) => self.on_behaviour(swarm, event),
            other => tracing::trace!(?other, "network event"),
        }
    }
}
