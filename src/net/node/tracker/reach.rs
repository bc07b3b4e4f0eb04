//! How the node learns it can be reached: a stranger's dial-back (`AutoNAT`), a
//! port the router maps (`UPnP`), and the answers to those waiting to know.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Tracker {
    /// A stranger dialled this node back at `address` (`AutoNAT`): it is reachable
    /// as it is, and asks for no more reservations.
    pub(super) fn confirmed(&mut self, address: Multiaddr) {
        tracing::info!(%address, "reachable directly (a stranger dialled back)");
        self.reachable.send_if_modified(|known| {
            let new = !known.addrs.contains(&address);
            if new {
                known.addrs.push(address);
            }
            new
        });
        self.relays.set_want(0);
        self.answer_ready();
    }

    /// The router mapped a port (or a mapping expired, or there is no router to
    /// map on): the search for one is over.
    pub(super) fn upnp(&mut self, event: upnp::Event) {
        tracing::info!(?event, "UPnP");
        match event {
            upnp::Event::NewExternalAddr { external_addr, .. } => {
                self.reachable
                    .send_modify(|known| known.mapped.push(external_addr));
            }
            upnp::Event::ExpiredExternalAddr { external_addr, .. } => {
                self.reachable.send_if_modified(|known| {
                    let before = (known.addrs.len(), known.mapped.len());
                    known.mapped.retain(|a| *a != external_addr);
                    known.addrs.retain(|a| *a != external_addr);
                    before != (known.addrs.len(), known.mapped.len())
                });
            }
            upnp::Event::GatewayNotFound | upnp::Event::NonRoutableGateway => {}
        }
        self.mapping = false;
        self.answer_ready();
    }

    /// Answers those waiting to know how the node is reachable, once it does.
    pub(super) fn answer_ready(&mut self) {
        let known = !self.reachable.borrow().addrs.is_empty();
        let usable = self.relays.enough() && !self.mapping;
        let tested = self.tested;
        for (_, reply) in self.ready.extract_if(.., |(wants_test, _)| {
            known || (usable && (tested || !*wants_test))
        }) {
            let _ = reply.send(());
        }
    }
}
