//! The swarm task of a node: what it keeps track of between events (connections,
//! routes, relays, circuits, DHT queries) and how it answers its handles' requests.

#[allow(clippy::wildcard_imports)]
use super::*;

mod dht;
mod reach;

/// What a handle asks of the swarm task.
pub(super) enum Request {
    /// Dials from a fresh port, or (`listening`) from a listening one, so that the
    /// peer's answer can reach this node where it listens (see [`Node::knock`]).
    Dial {
        peer: PeerId,
        addrs: Vec<Multiaddr>,
        listening: bool,
        done: oneshot::Sender<anyhow::Result<Route>>,
    },
    /// `peer` said it is back: every connection to it older than the newest is dead.
    Back(PeerId),
    /// Where `peer` can be told that this node is back.
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
/// How many addresses peers say they see this node at are kept (identify).
const MAX_OBSERVED: usize = 8;
/// How many peers found on the LAN are kept, and addresses of each.
const MAX_LAN: usize = 64;
const MAX_LAN_ADDRS: usize = 8;
/// How many peers once reached through a relay are remembered.
const MAX_RELAYED_TO: usize = 64;

#[derive(Default)]
pub(super) struct Tracker {
    /// The route to each connected peer, published for handles.
    routes: watch::Sender<HashMap<PeerId, Route>>,
    /// Where each connected peer can be told this node is back after a restart
    /// (see [`Self::back_at`]), published for handles as soon as it is known.
    back_ats: watch::Sender<HashMap<PeerId, Vec<Multiaddr>>>,
    /// Addresses peers told this node it is seen at (identify): the first
    /// [`MAX_OBSERVED`], which the peers it dials first (its relay, the DHT's
    /// bootstrap peers) tell it.
    observed: Vec<Multiaddr>,
    /// The latest ping round trips per connected peer (at most 256 each).
    rtts: HashMap<PeerId, Vec<Duration>>,
    /// Peers found on the LAN by `mDNS` (at most [`MAX_LAN`], until they expire).
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
    /// Its own addresses a stranger confirmed (`AutoNAT`) and those the router maps
    /// (`UPnP`): held here alone, and watched by those who show them as they are
    /// learnt (a verdict may come after the host has shown its invite).
    reachable: watch::Sender<Confirmed>,
    /// A stranger tried to dial this node back (`AutoNAT`), whatever came of it
    /// (off the public network, nobody will).
    tested: bool,
    /// Still looking for a router to map ports on (`UPnP`).
    mapping: bool,
    /// The circuits this node dialled, replaced before their relays' limits.
    circuits: Circuits,
    /// The limits of circuits peers opened to this node, until their connection is up.
    inbound_limits: HashMap<PeerId, Limit>,
    /// Peers this node has been connected to through a relay, the newest
    /// [`MAX_RELAYED_TO`].
    relayed_to: std::collections::VecDeque<PeerId>,
    /// Those waiting to know how the node is reachable, and whether they wait for
    /// a stranger's try too.
    ready: Vec<(bool, oneshot::Sender<()>)>,
    /// DHT announcements under way.
    provides: HashMap<kad::QueryId, oneshot::Sender<anyhow::Result<()>>>,
    /// DHT lookups under way, and where their providers go.
    lookups: HashMap<kad::QueryId, mpsc::Sender<PeerId>>,
}

/// Takes a reservation on `relay` and waits (briefly) until the relay has told this
/// node where it sees it, over the relay's transports both.
pub(super) async fn reserve(
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

/// The swarm task: requests from handles, events from the network.
pub(super) async fn run(
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
    /// A tracker keeping `relays`; `tested` once no stranger will try to dial back,
    /// `mapping` while a router may map ports.
    pub(super) fn new(relays: Relays, tested: bool, mapping: bool) -> Self {
        Self {
            relays,
            tested,
            mapping,
            ..Self::default()
        }
    }

    /// The routes to connected peers, as they change.
    pub(super) fn subscribe(&self) -> Routes {
        self.routes.subscribe()
    }

    /// Its own addresses strangers confirmed, as they are learnt.
    pub(super) fn subscribe_reachable(&self) -> watch::Receiver<Confirmed> {
        self.reachable.subscribe()
    }

    /// Where connected peers listen, as it is learnt (see [`Self::back_at`]).
    pub(super) fn subscribe_back_ats(&self) -> BackAts {
        self.back_ats.subscribe()
    }

    /// Publishes where `peer` can be told this node is back, if that changed (and
    /// forgets it once the peer is gone: strangers come and go).
    fn publish_back_at(&self, peer: PeerId) {
        let at = self.links.contains_key(&peer).then(|| self.back_at(peer));
        self.back_ats.send_if_modified(|all| match at {
            Some(at) if !at.is_empty() => all.insert(peer, at.clone()).as_ref() != Some(&at),
            _ => all.remove(&peer).is_some(),
        });
    }

    fn on_request(&mut self, swarm: &mut Swarm<Behaviour>, request: Request) {
        match request {
            Request::Back(peer) => self.back(swarm, peer),
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
                    circuits: self.relays.circuits(),
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
            Request::Provide { key, done } => self.provide(swarm, &key, done),
            Request::Unprovide(key) => {
                if let Some(dht) = swarm.behaviour_mut().kad.as_mut() {
                    dht.stop_providing(&kad::RecordKey::new(&key));
                }
            }
            Request::Providers { key, found } => self.providers(swarm, &key, found),
            Request::Dial {
                peer,
                addrs,
                listening,
                done,
            } => {
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
                // A knock is the exception: it must come from where this node
                // listens, and never goes through a relay.
                let opts = libp2p::swarm::dial_opts::DialOpts::peer_id(peer)
                    .condition(libp2p::swarm::dial_opts::PeerCondition::Disconnected);
                let opts = if listening {
                    opts.addresses(addrs.into_iter().filter(|a| !is_relayed(a)).collect())
                        .build()
                } else {
                    opts.addresses(self.one_circuit_per_relay(addrs))
                        .allocate_new_port()
                        .build()
                };
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
        // Any peer says what it likes here, on every connection: the list is
        // bounded, and what came first (from the peers this node dialled) stays.
        if self.observed.len() < MAX_OBSERVED && !self.observed.contains(&info.observed_addr) {
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
        self.publish_back_at(peer);
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
        self.publish_back_at(peer);
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
            // The newest at the back: a friend met again is not the next to go.
            self.relayed_to.retain(|p| *p != peer_id);
            if self.relayed_to.len() == MAX_RELAYED_TO {
                self.relayed_to.pop_front();
            }
            self.relayed_to.push_back(peer_id);
        }
        let punched = |l: &Link| l.relayed || l.straight == Straight::Punched;
        let straight = if self.relayed_to.contains(&peer_id)
            || before.is_some_and(|links| links.iter().any(punched))
        {
            Straight::Punched
        } else if !dialled && !self.reachable.borrow().mapped.is_empty() && is_public(&addr) {
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
                // Kept for connected peers only: forgotten when the last link goes.
                if !self.links.contains_key(&peer) {
                    return;
                }
                let seen = self.rtts.entry(peer).or_default();
                if seen.len() == 256 {
                    seen.remove(0);
                }
                seen.push(rtt);
            }
            BehaviourEvent::Mdns(mdns::Event::Discovered(found)) => {
                for (peer, address) in found {
                    tracing::debug!(%peer, %address, "found on the LAN");
                    if self.lan.len() >= MAX_LAN && !self.lan.contains_key(&peer) {
                        continue;
                    }
                    let addrs = self.lan.entry(peer).or_default();
                    if addrs.len() < MAX_LAN_ADDRS && !addrs.contains(&address) {
                        addrs.push(address);
                    }
                }
            }
            BehaviourEvent::Mdns(mdns::Event::Expired(gone)) => {
                for (peer, address) in gone {
                    if let Some(addrs) = self.lan.get_mut(&peer) {
                        addrs.retain(|a| *a != address);
                        if addrs.is_empty() {
                            self.lan.remove(&peer);
                        }
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

    pub(super) fn on_event(
        &mut self,
        swarm: &mut Swarm<Behaviour>,
        event: SwarmEvent<BehaviourEvent>,
    ) {
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
                        self.rtts.remove(&peer_id);
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
