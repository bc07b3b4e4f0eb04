//! The public libp2p network: its well-known bootstrap peers, the guard that keeps
//! test builds off them, and the choice of relays to hold reservations on (rust-libp2p
//! has the relay client but no `AutoRelay`: finding and keeping relays is ours).

use std::collections::HashMap;

use libp2p::core::transport::ListenerId;
use libp2p::{Multiaddr, PeerId};

/// The public bootstrap peers every IPFS/libp2p node starts from (Kubo's list): a
/// DNS name whose `dnsaddr` records name the nodes, and one node by IP address.
pub const BOOTSTRAP: [&str; 6] = [
    "/dnsaddr/bootstrap.libp2p.io/p2p/QmNnooDu7bfjPFoTZYxMNLWUQJyrVwtbZg5gBMjTezGAJN",
    "/dnsaddr/bootstrap.libp2p.io/p2p/QmQCU2EcMqAqQPR2i9bChDtGNJchTbq5TbXJJ16u19uLTa",
    "/dnsaddr/bootstrap.libp2p.io/p2p/QmbLHAnMoJPWSCR5Zhtx6BHJX9KiKNN6tpvbUcqanj75Nb",
    "/dnsaddr/bootstrap.libp2p.io/p2p/QmcZf59bWwK5XFi76CZX8cbJ4BhTzzA3gU1ZjYZcYW3dwt",
    "/ip4/104.131.131.82/tcp/4001/p2p/QmaCpDMGvV2BGHeYERUEnRQAwe3N8SzbUtfsmvsqQLuvuJ",
    "/ip4/104.131.131.82/udp/4001/quic-v1/p2p/QmaCpDMGvV2BGHeYERUEnRQAwe3N8SzbUtfsmvsqQLuvuJ",
];

/// Set (to anything but `0`) for scripts and CI: the built-in bootstrap list is
/// never used, as if `--no-public` were given where no `--bootstrap` is.
pub const NO_PUBLIC_ENV: &str = "ARMADA_NO_PUBLIC";

/// Whether and how a node joins the public network (the DHT, `AutoNAT`, relays).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Public {
    /// Not at all: the LAN, direct addresses and an explicit relay only.
    #[default]
    Off,
    /// Through these bootstrap peers (`--bootstrap`): a test's own network, or a
    /// player's choice.
    Bootstrap(Vec<Multiaddr>),
    /// Through the built-in public bootstrap peers ([`BOOTSTRAP`]): what players use.
    Builtin,
}

impl Public {
    /// The built-in list unless [`NO_PUBLIC_ENV`] says no: then none at all.
    #[must_use]
    pub fn unless_refused(self) -> Self {
        let refused = std::env::var(NO_PUBLIC_ENV).is_ok_and(|v| v != "0");
        if refused && self == Self::Builtin {
            Self::Off
        } else {
            self
        }
    }

    /// Whether the node joins a DHT at all.
    pub fn is_on(&self) -> bool {
        *self != Self::Off
    }

    /// The bootstrap peers, each with its address; an error instead of the built-in
    /// list in a test build, so that a test that forgot `--bootstrap` or
    /// `--no-public` fails loudly rather than reaching the internet.
    pub fn peers(&self) -> anyhow::Result<Vec<(PeerId, Multiaddr)>> {
        let addrs: Vec<Multiaddr> = match self {
            Self::Off => Vec::new(),
            Self::Bootstrap(addrs) => addrs.clone(),
            Self::Builtin => {
                anyhow::ensure!(
                    !cfg!(feature = "harness"),
                    "this is a test build (feature `harness`): it never dials the public \
                     bootstrap peers; pass --bootstrap MULTIADDR or --no-public"
                );
                BOOTSTRAP
                    .iter()
                    .map(|a| a.parse())
                    .collect::<Result<_, _>>()?
            }
        };
        addrs
            .into_iter()
            .map(|addr| {
                let peer = super::node::peer_of(&addr).ok_or_else(|| {
                    anyhow::anyhow!("a bootstrap address must end in /p2p/<peer id>: {addr}")
                })?;
                Ok((peer, addr))
            })
            .collect()
    }
}

/// How many reservations a node that is not reachable directly holds: two, so that
/// one relay going away leaves the table reachable while a replacement is found.
pub const HOLD: usize = 2;

/// How often one relay is asked for a reservation before it is passed over.
const TRIES: u8 = 3;

/// The relays a node holds reservations on, and those it could: a state machine
/// the swarm task feeds (peers found to serve relaying, listeners opened, accepted
/// and closed) and asks which relay to try next.
#[derive(Debug, Default)]
pub struct Relays {
    /// How many reservations to hold (none once the node is reachable directly).
    want: usize,
    /// Peers found to serve relaying, with the address this node reached them at,
    /// in the order found.
    candidates: Vec<(PeerId, Multiaddr)>,
    /// Reservations asked for or held: the listener, its relay, and its circuit
    /// address once the relay accepted.
    held: HashMap<ListenerId, (PeerId, Option<Multiaddr>)>,
    /// Reservations asked of each relay so far.
    tries: HashMap<PeerId, u8>,
}

impl Relays {
    /// Holds `want` reservations.
    pub fn new(want: usize) -> Self {
        Self {
            want,
            ..Self::default()
        }
    }

    /// How many reservations to hold from now on.
    pub fn set_want(&mut self, want: usize) {
        self.want = want;
    }

    /// `peer` serves relaying, and this node reached it at `addr`.
    pub fn found(&mut self, peer: PeerId, addr: Multiaddr) {
        if !self.candidates.iter().any(|(p, _)| *p == peer) {
            self.candidates.push((peer, addr));
        }
    }

    /// The connection to `peer` is gone: it is no candidate until found again (a
    /// reservation on it already asked for ends by itself).
    pub fn lost(&mut self, peer: PeerId) {
        self.candidates.retain(|(p, _)| *p != peer);
    }

    /// The next relay to ask for a reservation, if fewer than wanted are asked for
    /// or held: the first candidate not in use and not yet tried [`TRIES`] times.
    pub fn next(&mut self) -> Option<(PeerId, Multiaddr)> {
        if self.held.len() >= self.want {
            return None;
        }
        let in_use = |peer: &PeerId| self.held.values().any(|(p, _)| p == peer);
        let tries = &self.tries;
        let (peer, addr) = self
            .candidates
            .iter()
            .find(|(p, _)| !in_use(p) && tries.get(p).copied().unwrap_or(0) < TRIES)?
            .clone();
        *self.tries.entry(peer).or_default() += 1;
        Some((peer, addr))
    }

    /// A reservation on `peer` was asked for by `listener`.
    pub fn asked(&mut self, listener: ListenerId, peer: PeerId) {
        self.held.insert(listener, (peer, None));
    }

    /// `listener`'s relay accepted: this node is reachable at `circuit`. Whether the
    /// listener is one of these reservations.
    pub fn accepted(&mut self, listener: ListenerId, circuit: Multiaddr) -> bool {
        match self.held.get_mut(&listener) {
            Some((_, at)) => {
                *at = Some(circuit);
                true
            }
            None => false,
        }
    }

    /// `listener` closed (refused, expired, or its connection lost): its relay, if it
    /// was one of these reservations. The relay goes to the back of the line; one
    /// that held a reservation may be tried again as often as at first.
    pub fn closed(&mut self, listener: ListenerId) -> Option<PeerId> {
        let (peer, at) = self.held.remove(&listener)?;
        if at.is_some() {
            self.tries.remove(&peer);
        }
        // Others are asked first.
        if let Some(i) = self.candidates.iter().position(|(p, _)| *p == peer) {
            let candidate = self.candidates.remove(i);
            self.candidates.push(candidate);
        }
        Some(peer)
    }

    /// The circuit addresses of the reservations held now.
    pub fn circuits(&self) -> Vec<Multiaddr> {
        let mut circuits: Vec<Multiaddr> = self
            .held
            .values()
            .filter_map(|(_, at)| at.clone())
            .collect();
        circuits.sort();
        circuits
    }

    /// Whether as many reservations are held as wanted.
    pub fn enough(&self) -> bool {
        self.held.values().filter(|(_, at)| at.is_some()).count() >= self.want
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer() -> PeerId {
        PeerId::random()
    }

    fn addr(n: u8) -> Multiaddr {
        format!("/ip4/10.0.0.{n}/tcp/4001").parse().unwrap()
    }

    #[test]
    fn holds_as_many_as_wanted_and_replaces_a_relay_that_goes() {
        let mut relays = Relays::new(2);
        let (r1, r2, r3) = (peer(), peer(), peer());
        assert_eq!(relays.next(), None, "no candidate yet");
        relays.found(r1, addr(1));
        relays.found(r2, addr(2));
        relays.found(r1, addr(9));
        relays.found(r3, addr(3));
        let ids = [ListenerId::next(), ListenerId::next(), ListenerId::next()];
        assert_eq!(relays.next(), Some((r1, addr(1))));
        relays.asked(ids[0], r1);
        assert_eq!(relays.next(), Some((r2, addr(2))));
        relays.asked(ids[1], r2);
        assert_eq!(relays.next(), None, "two asked for: enough");
        assert!(relays.accepted(ids[0], addr(1)));
        assert!(!relays.enough());
        assert!(relays.accepted(ids[1], addr(2)));
        assert!(relays.enough());
        assert_eq!(relays.circuits().len(), 2);
        // r1's reservation ends: r3 replaces it.
        assert_eq!(relays.closed(ids[0]), Some(r1));
        assert!(!relays.enough());
        assert_eq!(relays.next(), Some((r3, addr(3))));
        relays.asked(ids[2], r3);
        assert_eq!(relays.next(), None);
        assert!(
            !relays.accepted(ListenerId::next(), addr(7)),
            "not a reservation"
        );
    }

    #[test]
    fn a_relay_that_keeps_refusing_is_passed_over() {
        let mut relays = Relays::new(1);
        let r1 = peer();
        relays.found(r1, addr(1));
        for _ in 0..TRIES {
            let id = ListenerId::next();
            assert_eq!(relays.next(), Some((r1, addr(1))));
            relays.asked(id, r1);
            assert_eq!(relays.closed(id), Some(r1));
        }
        assert_eq!(relays.next(), None, "refused {TRIES} times");
        relays.lost(r1);
        relays.set_want(0);
        assert!(relays.enough());
    }

    #[cfg(feature = "harness")]
    #[test]
    fn the_built_in_list_is_refused_in_a_test_build() {
        let error = Public::Builtin.peers().unwrap_err().to_string();
        assert!(error.contains("--no-public"), "{error}");
        assert!(Public::Off.peers().unwrap().is_empty());
        let bootstrap: Multiaddr =
            "/ip4/10.0.0.1/tcp/4001/p2p/12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN"
                .parse()
                .unwrap();
        assert_eq!(
            Public::Bootstrap(vec![bootstrap.clone()]).peers().unwrap()[0].1,
            bootstrap
        );
        assert!(
            Public::Bootstrap(vec![addr(1)]).peers().is_err(),
            "no peer id"
        );
    }
}
