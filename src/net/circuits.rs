//! Relayed connections that outlive their relays' limits: each circuit this node
//! dialled is replaced by a fresh one (through the same relay or another) before its
//! limit, and every few minutes on a relay without one, since each fresh circuit is
//! another chance for hole punching. A state machine the swarm task feeds and asks;
//! it dials and closes nothing itself.

use std::collections::HashMap;
use std::time::Duration;

use libp2p::swarm::ConnectionId;
use libp2p::{Multiaddr, PeerId};
use tokio::time::Instant;

/// How often a circuit with no limit (or a long one) is replaced all the same: a
/// punch missed at first is tried again this often.
pub const PUNCH_RETRY: Duration = Duration::from_mins(2);

/// A circuit allowed less data than this is replaced at least every [`DATA_EVERY`]:
/// how much a game sends in a while is not known ahead, and an hour of play is far
/// from this much.
const SMALL_DATA: u64 = 1024 * 1024;
const DATA_EVERY: Duration = Duration::from_secs(30);

/// How long after a failed replacement it is tried again.
const RETRY: Duration = Duration::from_secs(10);

/// A relay's limits on one circuit: how long it may last, how many bytes it may
/// carry each way (none: no limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    pub duration: Option<Duration>,
    pub data: Option<u64>,
}

impl Limit {
    /// Whether these limits would end a circuit within a game (under ten minutes,
    /// or under [`SMALL_DATA`] each way): such circuits are renewed as the game
    /// goes, and the player is told so.
    pub fn binds(self) -> bool {
        self.duration.is_some_and(|d| d < Duration::from_mins(10))
            || self.data.is_some_and(|bytes| bytes < SMALL_DATA)
    }

    /// How long a circuit under this limit is used before it is replaced: two thirds
    /// of its time (the rest is for opening the next one), at most [`PUNCH_RETRY`].
    pub fn replace_after(self) -> Duration {
        let mut after = PUNCH_RETRY;
        if let Some(duration) = self.duration {
            after = after.min(duration * 2 / 3);
        }
        if self.data.is_some_and(|bytes| bytes < SMALL_DATA) {
            after = after.min(DATA_EVERY);
        }
        after
    }
}

/// The circuits this node dialled, when each is to be replaced, and the
/// replacements under way.
#[derive(Debug, Default)]
pub struct Circuits {
    /// Limits the relay client reported for circuits just opened through each
    /// relay, not yet matched to their connection.
    limits: HashMap<PeerId, Limit>,
    /// When each circuit is to be replaced: its connection, its peer, the time.
    due: Vec<(ConnectionId, PeerId, Instant)>,
    /// The relayed addresses each peer was dialled at.
    addrs: HashMap<PeerId, Vec<Multiaddr>>,
    /// Replacements under way: the fresh dial, and the circuit it replaces.
    replacing: HashMap<ConnectionId, ConnectionId>,
}

impl Circuits {
    /// `peer` is dialled at `addrs`: its relayed ones are where fresh circuits go.
    pub fn dialled(&mut self, peer: PeerId, addrs: &[Multiaddr]) {
        let relayed: Vec<Multiaddr> = addrs
            .iter()
            .filter(|a| super::is_relayed(a))
            .cloned()
            .collect();
        if !relayed.is_empty() {
            self.addrs.insert(peer, relayed);
        }
    }

    /// The limits of the circuit just opened through `relay`, if reported.
    pub fn limit_of(&self, relay: PeerId) -> Option<Limit> {
        self.limits.get(&relay).copied()
    }

    /// The relay client opened a circuit through `relay` under `limit`.
    pub fn limited(&mut self, relay: PeerId, limit: Limit) {
        self.limits.insert(relay, limit);
    }

    /// This node's circuit `id` to `peer` through `relay` is up at `now`: when it is
    /// to be replaced is set; if it replaces another, that one's connection (to
    /// close: the game's stream moves to the fresh one).
    pub fn opened(
        &mut self,
        id: ConnectionId,
        peer: PeerId,
        relay: PeerId,
        now: Instant,
    ) -> Option<ConnectionId> {
        let limit = self.limits.remove(&relay).unwrap_or_default();
        if self.addrs.contains_key(&peer) {
            self.due.push((id, peer, now + limit.replace_after()));
        }
        let old = self.replacing.remove(&id)?;
        self.due.retain(|(c, _, _)| *c != old);
        Some(old)
    }

    /// When the next circuit is due to be replaced.
    pub fn next_due(&self) -> Option<Instant> {
        self.due.iter().map(|(_, _, at)| *at).min()
    }

    /// The circuits due to be replaced at `now`: each with its peer and where to
    /// dial a fresh one. They are not due again until [`Circuits::replacing`] or
    /// [`Circuits::failed`] says.
    pub fn due(&mut self, now: Instant) -> Vec<(ConnectionId, PeerId, Vec<Multiaddr>)> {
        let due: Vec<(ConnectionId, PeerId, Instant)> =
            self.due.extract_if(.., |(_, _, at)| *at <= now).collect();
        due.into_iter()
            .filter_map(|(id, peer, _)| Some((id, peer, self.addrs.get(&peer)?.clone())))
            .collect()
    }

    /// `fresh` is dialled to replace `old`.
    pub fn replacing(&mut self, fresh: ConnectionId, old: ConnectionId) {
        self.replacing.insert(fresh, old);
    }

    /// The dial `fresh` failed at `now`: the circuit it was to replace, if still
    /// up, is replaced a little later.
    pub fn failed(&mut self, fresh: ConnectionId, peer: PeerId, now: Instant) {
        if let Some(old) = self.replacing.remove(&fresh) {
            self.due.push((old, peer, now + RETRY));
        }
    }

    /// Connection `id` closed.
    pub fn closed(&mut self, id: ConnectionId, peer: PeerId, peer_gone: bool) {
        self.due.retain(|(c, _, _)| *c != id);
        self.replacing.retain(|_, old| *old != id);
        if peer_gone && !self.due.iter().any(|(_, p, _)| *p == peer) {
            self.limits.remove(&peer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_circuit_is_replaced_before_its_limit_and_at_least_every_few_minutes() {
        let public = Limit {
            duration: Some(Duration::from_mins(2)),
            data: Some(128 * 1024),
        };
        assert_eq!(public.replace_after(), DATA_EVERY);
        let short = Limit {
            duration: Some(Duration::from_secs(6)),
            data: None,
        };
        assert_eq!(short.replace_after(), Duration::from_secs(4));
        assert_eq!(Limit::default().replace_after(), PUNCH_RETRY);
        let friend = Limit {
            duration: Some(Duration::from_hours(1)),
            data: Some(16 * 1024 * 1024),
        };
        assert_eq!(friend.replace_after(), PUNCH_RETRY);
    }

    #[test]
    fn a_fresh_circuit_replaces_the_old_one_and_a_failed_one_is_tried_again() {
        let (peer, relay) = (PeerId::random(), PeerId::random());
        let circuit: Multiaddr = format!("/ip4/10.0.0.1/tcp/4001/p2p/{relay}/p2p-circuit")
            .parse()
            .unwrap();
        let direct: Multiaddr = "/ip4/10.0.0.2/tcp/4001".parse().unwrap();
        let mut circuits = Circuits::default();
        circuits.dialled(peer, &[direct, circuit.clone()]);
        let start = Instant::now();
        circuits.limited(
            relay,
            Limit {
                duration: Some(Duration::from_secs(6)),
                data: None,
            },
        );
        let [first, second, third] = [
            ConnectionId::new_unchecked(1),
            ConnectionId::new_unchecked(2),
            ConnectionId::new_unchecked(3),
        ];
        assert_eq!(circuits.opened(first, peer, relay, start), None);
        assert_eq!(circuits.next_due(), Some(start + Duration::from_secs(4)));
        assert!(circuits.due(start + Duration::from_secs(3)).is_empty());
        let due = circuits.due(start + Duration::from_secs(4));
        assert_eq!(due, vec![(first, peer, vec![circuit.clone()])]);
        assert_eq!(circuits.next_due(), None, "not due again while replaced");
        // The fresh dial fails: tried again a little later.
        circuits.replacing(second, first);
        circuits.failed(second, peer, start + Duration::from_secs(4));
        assert_eq!(circuits.next_due(), Some(start + Duration::from_secs(14)));
        let due = circuits.due(start + Duration::from_secs(14));
        assert_eq!(due.len(), 1);
        // The next one is up: the first is to be closed, and the fresh one is due in
        // its turn (no limit reported this time: the longest wait).
        circuits.replacing(third, first);
        let now = start + Duration::from_secs(15);
        assert_eq!(circuits.opened(third, peer, relay, now), Some(first));
        assert_eq!(circuits.next_due(), Some(now + PUNCH_RETRY));
        circuits.closed(third, peer, true);
        assert_eq!(circuits.next_due(), None);
    }
}
