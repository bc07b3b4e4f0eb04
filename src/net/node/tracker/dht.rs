//! The node's part in the public DHT: announcing a short code's key and looking up
//! who announced one.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Tracker {
    /// Announces this node as a provider of `key`; `done` hears how it went.
    pub(super) fn provide(
        &mut self,
        swarm: &mut Swarm<Behaviour>,
        key: &[u8],
        done: oneshot::Sender<anyhow::Result<()>>,
    ) {
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

    /// Looks up the providers of `key`; each found goes to `found`.
    pub(super) fn providers(
        &mut self,
        swarm: &mut Swarm<Behaviour>,
        key: &[u8],
        found: mpsc::Sender<PeerId>,
    ) {
        // Off the public network the sender is dropped at once: none found.
        if let Some(dht) = swarm.behaviour_mut().kad.as_mut() {
            let id = dht.get_providers(kad::RecordKey::new(&key));
            self.lookups.insert(id, found);
        }
    }

    /// A DHT query's progress: an announcement's answer, or a lookup's providers.
    pub(super) fn queried(
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
}
