//! Tables on the LAN: a host answers peers found by `mDNS` with what it offers; `armada
//! lan` asks every peer it finds and lists the open tables.

use std::time::Duration;

use futures::{SinkExt, StreamExt as _};
use libp2p::{PeerId, StreamProtocol};
use tokio_util::bytes::Bytes;
use tokio_util::codec::{Framed, LengthDelimitedCodec};

use super::Node;
use armada_proto::{LanOffer, MAX_INVITE};

/// The protocol a host answers LAN queries on.
pub const LAN_PROTOCOL: StreamProtocol = StreamProtocol::new("/armada/lan/1");

fn framed(
    stream: libp2p::Stream,
) -> Framed<tokio_util::compat::Compat<libp2p::Stream>, LengthDelimitedCodec> {
    super::framed(stream, MAX_INVITE)
}

/// Answers every LAN query with the latest `offer`, until the node stops.
pub fn serve(node: &Node, offer: tokio::sync::watch::Receiver<LanOffer>) -> anyhow::Result<()> {
    let mut incoming = node
        .control()
        .accept(LAN_PROTOCOL)
        .map_err(|e| anyhow::anyhow!("cannot answer LAN queries: {e}"))?;
    tokio::spawn(async move {
        while let Some((peer, stream)) = incoming.next().await {
            tracing::debug!(%peer, "LAN query");
            let bytes = Bytes::from(offer.borrow().encode());
            let mut framed = framed(stream);
            let _ = framed.send(bytes).await;
            let _ = SinkExt::<Bytes>::close(&mut framed).await;
        }
    });
    Ok(())
}

/// The tables on the LAN: peers found by `mDNS` within `wait`, each asked what it offers.
pub async fn list(node: &Node, wait: Duration) -> Vec<(PeerId, LanOffer)> {
    tokio::time::sleep(wait).await;
    let mut tables = Vec::new();
    for (peer, addrs) in node.discovered().await {
        let asked = tokio::time::timeout(Duration::from_secs(3), async {
            node.dial(peer, addrs).await.ok()?;
            let stream = node.control().open_stream(peer, LAN_PROTOCOL).await.ok()?;
            let bytes = framed(stream).next().await?.ok()?;
            LanOffer::decode(&bytes).ok()
        })
        .await;
        if let Ok(Some(offer)) = asked {
            tables.push((peer, offer));
        }
    }
    tables
}
