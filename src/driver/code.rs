//! Short table codes over the network: the host's door (a code shown, its number
//! announced in the DHT and on the LAN, handshakes answered, the code withdrawn
//! after three wrong tries) and the guest's search (the number looked up, the
//! words proven to each host found, the invite received).

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use anyhow::Context as _;
use futures::{SinkExt, StreamExt as _};
use libp2p::PeerId;
use rand::RngExt as _;
use tokio::sync::{mpsc, oneshot, watch};
use tokio_util::bytes::Bytes;

use crate::fair::code::{CodeKey, GuestHandshake, HandshakeError, HostHandshake};
use crate::net::{CODE_PROTOCOL, Node};
use armada_proto::{self as proto, CodeMessage, Invite, LanOffer, Refusal, ShortCode};

/// How long one handshake message may take.
const STEP: Duration = Duration::from_secs(10);
/// How long a host looks for another table with the number it drew before it takes it.
const TAKEN_WAIT: Duration = Duration::from_secs(3);
/// Codes withdrawn before a table stops showing short codes at all.
const MAX_WITHDRAWN: u8 = 3;
/// How long a guest looks for the host of a code, all told.
pub const SEARCH: Duration = Duration::from_secs(25);
/// How long a guest listens on the LAN before it asks the tables there.
const LAN_LISTEN: Duration = Duration::from_secs(2);

type Framed = tokio_util::codec::Framed<
    tokio_util::compat::Compat<libp2p::Stream>,
    tokio_util::codec::LengthDelimitedCodec,
>;

fn framed(stream: libp2p::Stream) -> Framed {
    crate::net::framed(stream, proto::MAX_CODE_MESSAGE)
}

async fn send(framed: &mut Framed, message: &CodeMessage) -> anyhow::Result<()> {
    framed
        .send(Bytes::from(message.encode()))
        .await
        .context("the stream closed")
}

async fn receive(framed: &mut Framed) -> anyhow::Result<CodeMessage> {
    let bytes = tokio::time::timeout(STEP, framed.next())
        .await
        .context("no answer in time")?
        .context("the stream closed")??;
    Ok(CodeMessage::decode(&bytes)?)
}

/// What a handshake at the host's door came to.
#[derive(Debug)]
pub(super) enum Outcome {
    /// The guest proved the words: its hello may prove `key` once `ack` is answered.
    Admitted(PeerId, CodeKey, oneshot::Sender<()>),
    /// A try was spent and lost.
    Wrong(PeerId),
}

/// The host's short code and what it takes to keep it honest.
pub(super) struct CodeDoor {
    node: Node,
    invite: Invite,
    code: Option<ShortCode>,
    /// The number of the latest code drawn.
    last: Option<u16>,
    /// Tries left on the current code: handshakes take one before they answer.
    left: Arc<AtomicU8>,
    withdrawn: u8,
    public: bool,
    lan: Option<watch::Sender<LanOffer>>,
    incoming: Option<libp2p_stream::IncomingStreams>,
    outcomes: (mpsc::Sender<Outcome>, mpsc::Receiver<Outcome>),
}

/// The rendezvous number a test build was told to draw (to make two hosts share one).
fn forced_rendezvous() -> Option<u16> {
    if !cfg!(feature = "harness") {
        return None;
    }
    std::env::var("ARMADA_TEST_RENDEZVOUS")
        .ok()?
        .parse()
        .ok()
        .filter(|r| *r < proto::RENDEZVOUS)
}

impl CodeDoor {
    /// Opens the door: draws a code, announces it where guests can look (the DHT when
    /// `public`, the LAN offer when `lan` is given), and says what to read out.
    /// Without either, or when no announcement took, there is no short code.
    pub(super) async fn open(
        node: &Node,
        invite: &Invite,
        public: bool,
        lan: Option<watch::Sender<LanOffer>>,
        say: super::flows::Say<'_>,
    ) -> Self {
        let incoming = node.control().accept(CODE_PROTOCOL).ok();
        let mut door = Self {
            node: node.clone(),
            invite: invite.clone(),
            code: None,
            last: None,
            left: Arc::new(AtomicU8::new(0)),
            withdrawn: 0,
            public,
            lan,
            incoming,
            outcomes: mpsc::channel(16),
        };
        if door.incoming.is_some() {
            door.renew(say).await;
        }
        door
    }

    /// The code shown now, if any.
    pub(super) fn code(&self) -> Option<ShortCode> {
        self.code
    }

    /// Draws a code whose number no other table announces, and announces it.
    async fn renew(&mut self, say: super::flows::Say<'_>) {
        let mut rendezvous = forced_rendezvous();
        if rendezvous.is_none() {
            for _ in 0..3 {
                // Never the withdrawn code's number: a guest holding that code learns
                // it was withdrawn, instead of spending a try on the new words.
                let drawn = loop {
                    let drawn = rand::rng().random_range(0..proto::RENDEZVOUS);
                    if Some(drawn) != self.last {
                        break drawn;
                    }
                };
                rendezvous = Some(drawn);
                if !self.public || !self.taken(drawn).await {
                    break;
                }
            }
        }
        self.last = rendezvous;
        let Some(rendezvous) = rendezvous else { return };
        let mut words = [0u8; 2];
        rand::rng().fill(&mut words);
        let code = ShortCode { rendezvous, words };
        let mut announced = false;
        if self.public {
            match self
                .node
                .provide(ShortCode::rendezvous_key(rendezvous))
                .await
            {
                Ok(()) => announced = true,
                Err(error) => say(&format!(
                    "the short code could not be announced on the public network ({error})"
                )),
            }
        }
        if let Some(lan) = &self.lan {
            lan.send_modify(|offer| offer.rendezvous = Some(rendezvous));
            announced = true;
        }
        if announced {
            self.left.store(proto::TRIES, Ordering::SeqCst);
            self.code = Some(code);
        }
    }

    /// Whether another table announces `rendezvous` in the DHT now.
    async fn taken(&self, rendezvous: u16) -> bool {
        let mut found = self
            .node
            .providers(ShortCode::rendezvous_key(rendezvous))
            .await;
        matches!(
            tokio::time::timeout(TAKEN_WAIT, found.recv()).await,
            Ok(Some(_))
        )
    }

    /// Withdraws the current code: no try left on it, no longer announced.
    async fn withdraw(&mut self) {
        if let Some(code) = self.code.take() {
            self.left.store(0, Ordering::SeqCst);
            self.node
                .unprovide(ShortCode::rendezvous_key(code.rendezvous))
                .await;
            if let Some(lan) = &self.lan {
                lan.send_modify(|offer| offer.rendezvous = None);
            }
        }
    }

    /// Stops answering short codes at all (the seat is taken, or codes are off).
    pub(super) async fn close(&mut self) {
        self.withdraw().await;
        // Dropping the accepting end makes the protocol unsupported: a late guest
        // learns at once that the code is over.
        self.incoming = None;
    }

    /// The next handshake to answer or outcome to take in; `None` while the door has
    /// nothing.
    pub(super) async fn next(&mut self) -> Option<Next> {
        let incoming = self.incoming.as_mut()?;
        tokio::select! {
            Some((peer, stream)) = incoming.next() => Some(Next::Stream(peer, stream)),
            Some(outcome) = self.outcomes.1.recv() => Some(Next::Outcome(outcome)),
        }
    }

    /// Answers a guest's handshake in the background.
    pub(super) fn answer(&self, peer: PeerId, stream: libp2p::Stream) {
        let (code, left, tx) = (self.code, self.left.clone(), self.outcomes.0.clone());
        let host = self.node.peer_id().to_bytes();
        let invite = self.invite.clone();
        tokio::spawn(async move {
            let mut framed = framed(stream);
            if let Err(error) = handshake(&mut framed, code, &left, &host, peer, invite, &tx).await
            {
                tracing::info!(%peer, %error, "a short code's handshake failed");
            }
            let _ = SinkExt::<Bytes>::close(&mut framed).await;
        });
    }

    /// Takes in what a handshake came to: the seat promised to a guest that proved
    /// the words, or a lost try (the code withdrawn when none is left, and a new one
    /// drawn while the table may still show one).
    pub(super) async fn outcome<G: crate::session::TableSession>(
        &mut self,
        session: &mut G,
        outcome: Outcome,
        say: super::flows::Say<'_>,
    ) {
        match outcome {
            Outcome::Admitted(peer, key, ack) => {
                session.expect_code(key);
                let _ = ack.send(());
                say(&format!("{peer} said the right code"));
            }
            Outcome::Wrong(peer) => {
                let left = self.left.load(Ordering::SeqCst);
                say(&format!(
                    "someone ({peer}) tried a wrong code; {left} tr{} left on this code",
                    if left == 1 { "y" } else { "ies" }
                ));
                let Some(old) = self.code.filter(|_| left == 0) else {
                    return;
                };
                self.withdraw().await;
                self.withdrawn += 1;
                if self.withdrawn >= MAX_WITHDRAWN {
                    say(&format!(
                        "someone tried wrong codes {} times: short codes are off for this \
                         table; give your friend the invite instead",
                        u32::from(MAX_WITHDRAWN) * u32::from(proto::TRIES)
                    ));
                    self.close().await;
                    return;
                }
                self.renew(say).await;
                let Some(new) = self.code else { return };
                say(&format!(
                    "someone tried a wrong code {} times: {old} is withdrawn; your new code \
                     is {new}",
                    proto::TRIES
                ));
            }
        }
    }
}

/// What the host's door has next.
pub(super) enum Next {
    Stream(PeerId, libp2p::Stream),
    Outcome(Outcome),
}

/// The host's side of one handshake: a try is taken before the reply (which lets
/// the guest test one guess), and the invite is sent only after the guest's
/// confirmation checked and the session was told.
async fn handshake(
    framed: &mut Framed,
    code: Option<ShortCode>,
    left: &AtomicU8,
    host: &[u8],
    peer: PeerId,
    invite: Invite,
    outcomes: &mpsc::Sender<Outcome>,
) -> anyhow::Result<()> {
    let CodeMessage::Start {
        rendezvous, spake, ..
    } = receive(framed).await?
    else {
        anyhow::bail!("the handshake did not start with Start");
    };
    let Some(code) = code.filter(|c| c.rendezvous == rendezvous) else {
        return refuse(
            framed,
            Refusal::Withdrawn,
            "a code this table no longer shows",
        )
        .await;
    };
    if left.load(Ordering::SeqCst) == 0 {
        return refuse(framed, Refusal::Withdrawn, "no try left on this code").await;
    }
    let guest = peer.to_bytes();
    let (pending, reply, confirm) = HostHandshake::answer(&code, host, &guest, &spake)?;
    if left
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_err()
    {
        return refuse(framed, Refusal::Withdrawn, "no try left on this code").await;
    }
    send(
        framed,
        &CodeMessage::Reply {
            spake: reply,
            confirm,
        },
    )
    .await?;
    let checked = match receive(framed).await {
        Ok(CodeMessage::Confirm { confirm }) => pending.check(&confirm),
        _ => Err(HandshakeError::Wrong),
    };
    match checked {
        Ok(key) => {
            let (ack, acked) = oneshot::channel();
            outcomes
                .send(Outcome::Admitted(peer, key, ack))
                .await
                .context("the table closed")?;
            acked.await.context("the table closed")?;
            send(framed, &CodeMessage::Admit { invite }).await
        }
        Err(error) => {
            let _ = outcomes.send(Outcome::Wrong(peer)).await;
            send(
                framed,
                &CodeMessage::Refuse {
                    why: Refusal::Wrong,
                },
            )
            .await?;
            Err(error.into())
        }
    }
}

/// Tells the guest why it is not admitted; the handshake ends there.
async fn refuse(framed: &mut Framed, why: Refusal, reason: &str) -> anyhow::Result<()> {
    send(framed, &CodeMessage::Refuse { why }).await?;
    anyhow::bail!("{reason}")
}

/// What the guest's handshake with one host came to.
enum Tried {
    Admitted(Invite, CodeKey),
    Refused(Refusal),
    /// The host no longer takes codes (its table started or closed).
    Expired,
    Failed(String),
}

async fn try_host(node: &Node, code: &ShortCode, host: PeerId) -> Tried {
    let mut routes = node.routes();
    if tokio::time::timeout(STEP, routes.wait_for(|r| r.contains_key(&host)))
        .await
        .is_err()
    {
        return Tried::Failed("it could not be reached".into());
    }
    // Reached through a relay, hole punching is under way, and a punch that lands
    // closes the relayed connection with the handshake on it (a try lost): give it
    // its moment first, as the game stream does.
    if matches!(node.route(host), Some(crate::net::Route::Relayed(..))) {
        super::flows::punched(node, host).await;
    }
    let stream = match super::flows::open_stream(node, host, CODE_PROTOCOL, None).await {
        Ok(stream) => stream,
        Err(error) => {
            return match error.downcast_ref::<libp2p_stream::OpenStreamError>() {
                Some(libp2p_stream::OpenStreamError::UnsupportedProtocol(_)) => Tried::Expired,
                _ => Tried::Failed(error.to_string()),
            };
        }
    };
    let mut framed = framed(stream);
    let result = async {
        let (guest, start) =
            GuestHandshake::start(code, &node.peer_id().to_bytes(), &host.to_bytes());
        send(
            &mut framed,
            &CodeMessage::Start {
                version: 1,
                rendezvous: code.rendezvous,
                spake: start,
            },
        )
        .await?;
        let (spake, confirm) = match receive(&mut framed).await? {
            CodeMessage::Reply { spake, confirm } => (spake, confirm),
            CodeMessage::Refuse { why } => return Ok(Tried::Refused(why)),
            _ => anyhow::bail!("an unexpected handshake message"),
        };
        let (key, mine) = match guest.finish(&spake, &confirm) {
            Ok(done) => done,
            Err(HandshakeError::Wrong) => {
                // Tell the host the try is over (it counts it either way).
                let _ = send(&mut framed, &CodeMessage::Confirm { confirm: [0; 32] }).await;
                return Ok(Tried::Refused(Refusal::Wrong));
            }
            Err(error) => anyhow::bail!("{error}"),
        };
        send(&mut framed, &CodeMessage::Confirm { confirm: mine }).await?;
        match receive(&mut framed).await? {
            CodeMessage::Admit { invite } if invite.peer == host.to_bytes() => {
                Ok(Tried::Admitted(invite, key))
            }
            CodeMessage::Refuse { why } => Ok(Tried::Refused(why)),
            _ => anyhow::bail!("an unexpected handshake message"),
        }
    }
    .await;
    result.unwrap_or_else(|e| Tried::Failed(e.to_string()))
}

/// Finds the host of `code` (in the DHT, and among the tables on the LAN when
/// `lan`), proves the words to each host found until one admits this guest, within
/// [`SEARCH`]: the host, its invite and the handshake's key, or one sentence on
/// what went wrong.
pub(super) async fn find(
    node: &Node,
    code: &ShortCode,
    lan: bool,
    say: super::flows::Say<'_>,
) -> anyhow::Result<(PeerId, Invite, CodeKey)> {
    say(&format!("looking for the table of {code}…"));
    let (tx, mut hosts) = mpsc::channel::<PeerId>(16);
    let mut dht = node
        .providers(ShortCode::rendezvous_key(code.rendezvous))
        .await;
    let from_dht = {
        let tx = tx.clone();
        tokio::spawn(async move {
            while let Some(peer) = dht.recv().await {
                let _ = tx.send(peer).await;
            }
        })
    };
    let from_lan = lan.then(|| {
        let (tx, node, rendezvous) = (tx.clone(), node.clone(), code.rendezvous);
        tokio::spawn(async move {
            for (peer, offer) in crate::net::list_lan(&node, LAN_LISTEN).await {
                if offer.rendezvous == Some(rendezvous) {
                    let _ = tx.send(peer).await;
                }
            }
        })
    });
    drop(tx);
    let mut tried = std::collections::HashSet::new();
    let (mut wrong, mut withdrawn, mut expired, mut failed) = (0, 0, 0, Vec::new());
    let search = async {
        while let Some(host) = hosts.recv().await {
            if !tried.insert(host) {
                continue;
            }
            // A handshake cut by its connection is tried once more, on the one
            // that stayed (the host counts the cut one as a try).
            let mut outcome = try_host(node, code, host).await;
            if matches!(outcome, Tried::Failed(_)) && node.route(host).is_some() {
                outcome = try_host(node, code, host).await;
            }
            match outcome {
                Tried::Admitted(invite, key) => return Some((host, invite, key)),
                Tried::Refused(Refusal::Wrong) => wrong += 1,
                Tried::Refused(Refusal::Withdrawn) => withdrawn += 1,
                Tried::Expired => expired += 1,
                Tried::Failed(why) => failed.push(why),
            }
        }
        None
    };
    let found = tokio::time::timeout(SEARCH, search).await;
    from_dht.abort();
    if let Some(lan) = from_lan {
        lan.abort();
    }
    if let Ok(Some(found)) = found {
        return Ok(found);
    }
    let waited = if found.is_err() {
        format!(" (looked for {} s)", SEARCH.as_secs())
    } else {
        String::new()
    };
    anyhow::bail!(if wrong > 0 {
        format!(
            "the table of {:04} did not take these words{waited}: check the code with \
             your friend (after {} wrong tries the host gets a new code)",
            code.rendezvous,
            proto::TRIES
        )
    } else if withdrawn > 0 {
        format!("code {code} was withdrawn after wrong tries: ask your friend for the new code")
    } else if expired > 0 {
        format!("code {code} has expired: its table has started or closed")
    } else if let Some(why) = failed.first() {
        format!(
            "the table of {code} did not answer ({why}): it may have closed; check with \
             your friend"
        )
    } else {
        format!(
            "no table answers to {code}{waited}: check the number with your friend, and \
             that the table is still open"
        )
    })
}
