//! Hosting and joining a table from the command line: a node, an invite, the one
//! invited guest, then the table played to its end.

use anyhow::Context as _;
use futures::StreamExt as _;
use libp2p::{Multiaddr, PeerId};
use rand::SeedableRng as _;
use tokio_util::bytes::Bytes;
use tokio_util::codec::{Framed, LengthDelimitedCodec};
use tokio_util::compat::FuturesAsyncReadCompatExt as _;

use super::{Config, GAME_PROTOCOL, Node, Player, TableOutcome, play_table};
use crate::fair::secret::Secret;
use crate::fair::table::Note;
use crate::rules::Seat;
use crate::session::{Event, Session};
use crate::store::Store;
use armada_proto::{self as proto, Invite};

/// What hosting and joining share.
#[derive(Debug)]
pub struct Seating {
    pub config: Config,
    pub store: Store,
    pub player: Player,
}

/// How long a stranger's first message may take before its stream is dropped.
const ADMIT_MS: u64 = 10_000;

/// Opens a table, prints its invite, seats the first peer that proves the invite's
/// secret (refusing anyone else, with a reason), and plays the table.
pub async fn host(
    seating: Seating,
    settings: proto::Settings,
    say: &mut (dyn FnMut(&str) + Send),
) -> anyhow::Result<TableOutcome> {
    let identity = seating.store.identity()?;
    let node = Node::start(&identity, seating.config).await?;
    let secret = *Secret::<32>::fresh()?.expose();
    let mut session = Session::host(identity, secret, settings);
    let addrs: Vec<Multiaddr> = node
        .addresses()
        .await
        .into_iter()
        .filter(|a| !a.to_string().contains("/0.0.0.0/"))
        .collect();
    let invite = Invite {
        version: 1,
        peer: node.peer_id().to_bytes(),
        addrs: addrs.iter().map(Multiaddr::to_vec).collect(),
        secret,
    };
    say("table open; invite (give it to your friend):");
    say(&invite.to_link());
    say(&format!("code: {}", invite.to_code()));
    let mut incoming = node
        .control()
        .accept(GAME_PROTOCOL)
        .map_err(|e| anyhow::anyhow!("cannot accept game streams: {e}"))?;
    let (peer, stream) = loop {
        let (peer, stream) = incoming
            .next()
            .await
            .context("the network stopped before anyone joined")?;
        match admit(&mut session, peer, stream).await {
            Ok(stream) => break (peer, stream),
            Err(why) => say(&format!("refused {peer}: {why}")),
        }
    };
    say(&format!("{peer} took the guest's seat"));
    // Anyone else who opens a game stream is told the table is taken.
    tokio::spawn(async move {
        while let Some((stranger, stream)) = incoming.next().await {
            tracing::info!(%stranger, "refused: the table is taken");
            refuse(stream, proto::ErrorCode::NotInvited, "the table is taken").await;
        }
    });
    play(session, peer, stream, seating.player, &seating.store, say).await
}

/// Reads a stranger's first message: a hello with a valid invite proof from the key
/// of the peer that sent it, or the stream is refused and nothing changed.
async fn admit(
    session: &mut Session,
    peer: PeerId,
    stream: libp2p::Stream,
) -> anyhow::Result<libp2p::Stream> {
    let codec = LengthDelimitedCodec::builder()
        .max_frame_length(proto::MAX_WIRE)
        .new_codec();
    let mut framed = Framed::new(stream.compat(), codec);
    let first = tokio::time::timeout(std::time::Duration::from_millis(ADMIT_MS), framed.next())
        .await
        .context("no hello in time")?
        .context("the stream closed")??;
    let mut probe = session.clone();
    let result = probe.handle_wire(0, &first);
    let key_ok = probe
        .table()
        .key(Seat::Guest)
        .is_some_and(|key| super::table::is_peer(&key, &peer));
    if result.is_ok() && key_ok {
        // Taken in for real: the frame is part of the table from now on.
        session
            .handle_wire(0, &first)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        return Ok(framed.into_inner().into_inner());
    }
    let (code, why) = match result {
        Err(rejected) => (rejected.code(), rejected.to_string()),
        Ok(()) => (
            proto::ErrorCode::NotInvited,
            "the hello's key is not the sender's network identity".into(),
        ),
    };
    refuse_framed(&mut framed, code, &why).await;
    anyhow::bail!(why)
}

async fn refuse(stream: libp2p::Stream, code: proto::ErrorCode, why: &str) {
    let codec = LengthDelimitedCodec::builder()
        .max_frame_length(proto::MAX_WIRE)
        .new_codec();
    let mut framed = Framed::new(stream.compat(), codec);
    refuse_framed(&mut framed, code, why).await;
}

async fn refuse_framed<T>(
    framed: &mut Framed<T, LengthDelimitedCodec>,
    code: proto::ErrorCode,
    why: &str,
) where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    use futures::SinkExt;
    let error = proto::Wire::Error(proto::ProtocolError {
        version: proto::PROTOCOL_VERSION,
        code,
        refused: [0; 32],
        detail: why.chars().take(proto::MAX_TEXT / 4).collect(),
    });
    let _ = framed.send(Bytes::from(proto::encode_wire(&error))).await;
    let _ = SinkExt::<Bytes>::close(framed).await;
}

/// Joins the table of `invite` (a link or a code) and plays it.
pub async fn join(
    seating: Seating,
    invite: &str,
    say: &mut (dyn FnMut(&str) + Send),
) -> anyhow::Result<TableOutcome> {
    let invite = Invite::parse(invite)?;
    let peer = PeerId::from_bytes(&invite.peer).context("the invite's peer id is malformed")?;
    let addrs = invite
        .addrs
        .iter()
        .map(|a| Multiaddr::try_from(a.clone()))
        .collect::<Result<Vec<_>, _>>()
        .context("an address in the invite is malformed")?;
    let identity = seating.store.identity()?;
    let node = Node::start(&identity, seating.config).await?;
    node.dial(peer, addrs).await?;
    let stream = node
        .control()
        .open_stream(peer, GAME_PROTOCOL)
        .await
        .map_err(|e| anyhow::anyhow!("cannot open the game stream: {e}"))?;
    say(&format!("connected to the host {peer}"));
    let session = Session::guest(identity, invite.secret);
    play(session, peer, stream, seating.player, &seating.store, say).await
}

async fn play(
    session: Session,
    peer: PeerId,
    stream: libp2p::Stream,
    player: Player,
    store: &Store,
    say: &mut (dyn FnMut(&str) + Send),
) -> anyhow::Result<TableOutcome> {
    let mut rng = rand::rngs::ChaCha8Rng::from_rng(&mut rand::rng());
    play_table(
        stream,
        peer,
        session,
        player,
        Some(store),
        &mut rng,
        |session, event| {
            if let Some(line) = describe(session, event) {
                say(&line);
            }
        },
    )
    .await
}

/// A line for the terminal about an event, if it is worth one.
pub fn describe(session: &Session, event: &Event) -> Option<String> {
    let me = session.seat();
    let who = |seat: Seat| if seat == me { "you" } else { "they" };
    Some(match event {
        Event::Table(Note::Started) => {
            format!(
                "game {} started",
                session.table().game_number().unwrap_or(0) + 1
            )
        }
        Event::Table(Note::Resolved { seat, report, .. }) => format!("{}: {report}", who(*seat)),
        Event::Table(Note::Ended(ending)) => format!("game over: {ending:?}"),
        Event::Table(Note::LieProven(lie)) => format!("lie proven: {lie}"),
        Event::Table(Note::Settled(verdict)) => format!("verdict: {verdict:?}"),
        Event::Score(score) => format!(
            "score: host {} – guest {}",
            f64::from(score[0]) / 2.0,
            f64::from(score[1]) / 2.0
        ),
        Event::Refused(rejected) => format!("refused a message: {rejected}"),
        Event::PeerRefused(error) => {
            format!("the other player refused a message: {}", error.detail)
        }
        _ => return None,
    })
}
