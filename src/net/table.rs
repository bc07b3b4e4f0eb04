//! One table played over one game stream: frames between the stream and the session,
//! the session's clock, a save after every message, a computer player's commands.

use anyhow::Context as _;
use futures::{SinkExt, StreamExt as _};
use libp2p::PeerId;
use tokio::time::Instant;
use tokio_util::bytes::Bytes;
use tokio_util::codec::{Framed, LengthDelimitedCodec};
use tokio_util::compat::FuturesAsyncReadCompatExt as _;

use crate::bot::Bot;
use crate::session::{Command, Event, Millis, Session};
use crate::store::Store;

/// Who plays this side of the table.
#[derive(Debug)]
pub enum Player {
    Bot(Bot),
}

/// How a table ended for this side.
#[derive(Debug)]
pub struct TableOutcome {
    pub session: Session,
    /// Every game this side meant to play is settled.
    pub finished: bool,
}

/// How long a leaving side waits for the peer's last messages.
const PARTING_MS: u64 = 3_000;

/// Whether `key` (an ed25519 public key from a hello) is the key of `peer`.
pub(super) fn is_peer(key: &[u8; 32], peer: &PeerId) -> bool {
    libp2p::identity::ed25519::PublicKey::try_from_bytes(key)
        .is_ok_and(|k| libp2p::identity::PublicKey::from(k).to_peer_id() == *peer)
}

/// Plays `session` with `peer` over `stream` until this side's games are done or the
/// link fails; `report` sees every event. The session is saved to `store` after
/// every message in or out, before anything is sent.
pub async fn play_table<R: rand::Rng + ?Sized>(
    stream: libp2p::Stream,
    peer: PeerId,
    mut session: Session,
    mut player: Player,
    store: Option<&Store>,
    rng: &mut R,
    mut report: impl FnMut(&Session, &Event),
) -> anyhow::Result<TableOutcome> {
    let start = Instant::now();
    let clock = move || -> Millis { start.elapsed().as_millis() as Millis };
    let codec = LengthDelimitedCodec::builder()
        .max_frame_length(armada_proto::MAX_WIRE)
        .new_codec();
    let mut framed = Framed::new(stream.compat(), codec);
    let me = session.seat();
    let mut leaving: Option<Instant> = None;
    // The peer's last word on why it refused something, for when it hangs up.
    let mut refused: Option<String> = None;
    loop {
        while let Some(event) = session.poll_event() {
            let Player::Bot(bot) = &mut player;
            bot.observe(me, &event);
            report(&session, &event);
            if let Event::PeerRefused(error) = &event {
                refused = Some(error.detail.clone());
            }
            if let Event::Internal(bug) = event {
                anyhow::bail!("this client broke the protocol: {bug}");
            }
        }
        if let Some(store) = store {
            store.save(&session)?;
        }
        let mut sent = false;
        while let Some(bytes) = session.poll_wire() {
            framed
                .send(Bytes::from(bytes))
                .await
                .context("the connection to the other player dropped")?;
            sent = true;
        }
        if sent {
            continue;
        }
        if let Some(key) = session.table().key(me.other())
            && !is_peer(&key, &peer)
        {
            anyhow::bail!("the other player signs with a key that is not its network identity");
        }
        let Player::Bot(bot) = &mut player;
        if leaving.is_none() && bot.done(&session) {
            session
                .handle_command(clock(), Command::Leave("all games played".into()))
                .map_err(|e| anyhow::anyhow!("cannot leave: {e}"))?;
            leaving = Some(Instant::now());
            continue;
        }
        if let Some(since) = leaving
            && (session.table().left() == Some(me.other())
                || since.elapsed().as_millis() as u64 > PARTING_MS)
        {
            let _ = SinkExt::<Bytes>::close(&mut framed).await;
            return Ok(TableOutcome {
                session,
                finished: true,
            });
        }
        if leaving.is_none()
            && let Some(command) = bot.next(&session, rng)
        {
            if let Err(error) = session.handle_command(clock(), command.clone()) {
                anyhow::bail!("the computer player's {command:?} was refused: {error}");
            }
            continue;
        }
        let deadline = session
            .poll_timeout()
            .map(|at| start + std::time::Duration::from_millis(at))
            .or_else(|| leaving.map(|since| since + std::time::Duration::from_millis(PARTING_MS)));
        tokio::select! {
            frame = framed.next() => match frame {
                Some(Ok(bytes)) => {
                    // A refused frame changes nothing; the session tells the peer why.
                    let _ = session.handle_wire(clock(), &bytes);
                }
                Some(Err(error)) => {
                    anyhow::bail!("the other player broke the stream's framing: {error}")
                }
                None if leaving.is_some() => {
                    return Ok(TableOutcome { session, finished: true });
                }
                None => match refused {
                    Some(why) => anyhow::bail!("the other player refused us and hung up: {why}"),
                    None => anyhow::bail!("the other player closed the connection"),
                },
            },
            () = async {
                match deadline {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            } => session.handle_timeout(clock()),
        }
    }
}
