//! The libp2p node: one tokio task owns the swarm; a cloneable handle talks to it
//! over bounded channels. Unexpected events are logged, never fatal.

use std::time::Duration;

use anyhow::Context as _;
use futures::StreamExt as _;
use libp2p::swarm::behaviour::toggle::Toggle;
use libp2p::swarm::{NetworkBehaviour, SwarmEvent};
use libp2p::{
    Multiaddr, PeerId, Swarm, dcutr, identify, mdns, noise, ping, relay, tcp, upnp, yamux,
};
use tokio::sync::{mpsc, oneshot};

use crate::fair::sign::Identity;

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
}

/// How often a connection is pinged (keeps it and NAT mappings alive; measures RTT).
const PING_EVERY: Duration = Duration::from_secs(5);

#[derive(NetworkBehaviour)]
struct Behaviour {
    stream: libp2p_stream::Behaviour,
    identify: identify::Behaviour,
    ping: ping::Behaviour,
    relay: relay::client::Behaviour,
    dcutr: dcutr::Behaviour,
    mdns: Toggle<mdns::tokio::Behaviour>,
    upnp: Toggle<upnp::tokio::Behaviour>,
}

enum Request {
    Dial {
        peer: PeerId,
        addrs: Vec<Multiaddr>,
        done: oneshot::Sender<anyhow::Result<()>>,
    },
    Addresses(oneshot::Sender<Vec<Multiaddr>>),
    Listeners(oneshot::Sender<Vec<Multiaddr>>),
    Rtt(PeerId, oneshot::Sender<Vec<Duration>>),
    Discovered(oneshot::Sender<Vec<(PeerId, Vec<Multiaddr>)>>),
}

/// A running node: its identity, its game streams, and a line to its swarm task.
#[derive(Clone)]
pub struct Node {
    peer: PeerId,
    control: libp2p_stream::Control,
    requests: mpsc::Sender<Request>,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("peer", &self.peer)
            .finish_non_exhaustive()
    }
}

impl Node {
    /// Starts a node with `identity` (its ed25519 key is the peer id) and waits until
    /// it listens on every requested address.
    pub async fn start(identity: &Identity, config: Config) -> anyhow::Result<Self> {
        let mut swarm = build(
            identity,
            config.discovery,
            config.ping_every.unwrap_or(PING_EVERY),
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
                other => tracing::debug!(?other, "while starting"),
            }
        }
        if let Some(relay) = config.relay {
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
                        other => tracing::debug!(?other, "while reserving"),
                    }
                }
            })
            .await;
            reserved.map_err(|_| anyhow::anyhow!("the relay {relay} did not answer in time"))??;
        }
        let peer = *swarm.local_peer_id();
        let control = swarm.behaviour().stream.new_control();
        let (requests, inbox) = mpsc::channel(64);
        tokio::spawn(run(swarm, inbox));
        Ok(Self {
            peer,
            control,
            requests,
        })
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

    /// Dials `peer` at `addrs`; returns once connected.
    pub async fn dial(&self, peer: PeerId, addrs: Vec<Multiaddr>) -> anyhow::Result<()> {
        let (done, rx) = oneshot::channel();
        self.requests
            .send(Request::Dial { peer, addrs, done })
            .await
            .map_err(|_| anyhow::anyhow!("the network task has stopped"))?;
        rx.await
            .map_err(|_| anyhow::anyhow!("the network task has stopped"))?
    }
}

fn build(
    identity: &Identity,
    discovery: bool,
    ping_every: Duration,
) -> anyhow::Result<Swarm<Behaviour>> {
    let swarm = libp2p::SwarmBuilder::with_existing_identity(identity.keypair())
        .with_tokio()
        .with_tcp(
            tcp::Config::default().nodelay(true),
            noise::Config::new,
            yamux::Config::default,
        )?
        .with_quic()
        .with_relay_client(noise::Config::new, yamux::Config::default)?
        .with_behaviour(|key, relay| {
            let peer = key.public().to_peer_id();
            let mdns = if discovery {
                Some(mdns::tokio::Behaviour::new(mdns::Config::default(), peer)?)
            } else {
                None
            };
            Ok(Behaviour {
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
            })
        })
        .map_err(|e| anyhow::anyhow!("cannot set up the network: {e}"))?
        // A table's connection stays up while the game waits on a person.
        .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(3600)))
        .build();
    Ok(swarm)
}

/// The swarm task: requests from handles, events from the network.
async fn run(mut swarm: Swarm<Behaviour>, mut inbox: mpsc::Receiver<Request>) {
    let mut dials: Vec<(PeerId, oneshot::Sender<anyhow::Result<()>>)> = Vec::new();
    let mut observed: Vec<Multiaddr> = Vec::new();
    let mut rtts: std::collections::HashMap<PeerId, Vec<Duration>> =
        std::collections::HashMap::new();
    let mut lan: std::collections::BTreeMap<PeerId, Vec<Multiaddr>> =
        std::collections::BTreeMap::new();
    loop {
        tokio::select! {
            request = inbox.recv() => match request {
                None => return,
                Some(Request::Addresses(reply)) => {
                    let mut addrs: Vec<Multiaddr> = swarm.listeners().cloned().collect();
                    addrs.extend(swarm.external_addresses().cloned());
                    addrs.extend(observed.iter().cloned());
                    let mut seen = std::collections::HashSet::new();
                    addrs.retain(|a| seen.insert(a.clone()));
                    let _ = reply.send(addrs);
                }
                Some(Request::Discovered(reply)) => {
                    let _ = reply.send(lan.iter().map(|(p, a)| (*p, a.clone())).collect());
                }
                Some(Request::Rtt(peer, reply)) => {
                    let _ = reply.send(rtts.get(&peer).cloned().unwrap_or_default());
                }
                Some(Request::Listeners(reply)) => {
                    let _ = reply.send(swarm.listeners().cloned().collect());
                }
                Some(Request::Dial { peer, addrs, done }) => {
                    if swarm.is_connected(&peer) {
                        let _ = done.send(Ok(()));
                        continue;
                    }
                    let opts = libp2p::swarm::dial_opts::DialOpts::peer_id(peer)
                        .addresses(addrs)
                        .build();
                    match swarm.dial(opts) {
                        Ok(()) => dials.push((peer, done)),
                        Err(error) => { let _ = done.send(Err(anyhow::anyhow!("cannot dial: {error}"))); }
                    }
                }
            },
            event = swarm.select_next_some() => match event {
                SwarmEvent::ConnectionEstablished { peer_id, endpoint, .. } => {
                    tracing::info!(peer = %peer_id, address = %endpoint.get_remote_address(), "connected");
                    for (_, done) in dials.extract_if(.., |(p, _)| *p == peer_id) {
                        let _ = done.send(Ok(()));
                    }
                }
                SwarmEvent::OutgoingConnectionError { peer_id: Some(peer), error, .. } => {
                    tracing::info!(%peer, %error, "dial failed");
                    if !swarm.is_connected(&peer) {
                        for (_, done) in dials.extract_if(.., |(p, _)| *p == peer) {
                            let _ = done.send(Err(anyhow::anyhow!("cannot reach the peer: {error}")));
                        }
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Identify(identify::Event::Received { info, .. })) => {
                    if !observed.contains(&info.observed_addr) {
                        observed.push(info.observed_addr);
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Ping(ping::Event { peer, result: Ok(rtt), .. })) => {
                    let seen = rtts.entry(peer).or_default();
                    if seen.len() == 256 {
                        seen.remove(0);
                    }
                    seen.push(rtt);
                }
                SwarmEvent::Behaviour(BehaviourEvent::Mdns(mdns::Event::Discovered(found))) => {
                    for (peer, address) in found {
                        tracing::debug!(%peer, %address, "found on the LAN");
                        let addrs = lan.entry(peer).or_default();
                        if !addrs.contains(&address) {
                            addrs.push(address);
                        }
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Dcutr(event)) => {
                    tracing::info!(?event, "hole punching");
                }
                other => tracing::trace!(?other, "network event"),
            }
        }
    }
}
