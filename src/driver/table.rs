//! One table played over one game stream: frames between the stream and the session,
//! the session's clock, a save after every message, a computer player's commands.

use futures::{SinkExt, StreamExt as _};
use libp2p::PeerId;
use tokio::time::Instant;
use tokio_util::bytes::Bytes;

use super::game::Game;
use super::player::Input;
use super::{Player, Update, Watch};
use crate::session::{Millis, Session};
use crate::store::Store;

/// How a table ended for this side.
#[derive(Debug)]
pub struct TableOutcome<G = Session> {
    pub session: G,
    /// Every game this side meant to play is settled.
    pub finished: bool,
}

/// How one connection's part of a table ended.
#[derive(Debug)]
pub enum Ended {
    /// This side played every game it meant to and left.
    Done,
    /// The link failed or the peer broke the stream's framing: the stream is cut
    /// off, the session is intact, and a new connection may carry on.
    Link(String),
}

/// How long a leaving side waits for the peer's last messages.
const PARTING_MS: u64 = 3_000;

/// The session's clock: milliseconds since `start`.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    start: Instant,
}

impl Clock {
    pub fn new() -> Self {
        Self {
            start: Instant::now(),
        }
    }

    pub fn now(self) -> Millis {
        self.start.elapsed().as_millis() as Millis
    }

    pub fn at(self, millis: Millis) -> Instant {
        self.start + std::time::Duration::from_millis(millis)
    }
}

impl Default for Clock {
    fn default() -> Self {
        Self::new()
    }
}

/// Fault injection for the crash tests: with `ARMADA_ABORT_AFTER_SEND=N` in its
/// environment the process dies abruptly (as by `kill -9`: nothing more is saved or
/// sent) right after its Nth game message went out.
pub(super) async fn crash_point() {
    static LEFT: std::sync::LazyLock<Option<std::sync::atomic::AtomicU64>> =
        std::sync::LazyLock::new(|| {
            std::env::var("ARMADA_ABORT_AFTER_SEND")
                .ok()
                .and_then(|n| n.parse().ok())
                .map(std::sync::atomic::AtomicU64::new)
        });
    if let Some(left) = &*LEFT
        && left.fetch_sub(1, std::sync::atomic::Ordering::Relaxed) == 1
    {
        // Time for the network task to put the message on the wire; nothing else
        // of the table runs meanwhile.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        std::process::abort();
    }
}

/// How long before its move timer fires a person at the terminal is warned.
const WARN_MS: Millis = 5_000;

/// The earliest of the session's next deadline, the end of parting (`PARTING_MS`
/// after this side's leave went out) and a warning due.
fn next_deadline(
    session: Option<Instant>,
    parted: Option<Instant>,
    warning: Option<Instant>,
) -> Option<Instant> {
    let parting = parted.map(|since| since + std::time::Duration::from_millis(PARTING_MS));
    [session, parting, warning].into_iter().flatten().min()
}

/// The warning a person at the terminal gets before its move timer shoots for it.
#[derive(Default)]
struct Warning {
    /// The move deadline last warned of.
    warned: Option<Millis>,
    /// The deadline a warning is due for.
    due: Option<Millis>,
}

impl Warning {
    /// When to wake for the warning of this side's running move clock, if one is due.
    fn at<R: ?Sized, G: Game>(&mut self, seat: &Side<'_, R, G>) -> Option<Instant> {
        self.due = match (&*seat.player, seat.session.move_deadline()) {
            (Player::Human(_), Some(at)) if self.warned != Some(at) => Some(at),
            _ => None,
        };
        self.due.map(|at| seat.clock.at(at.saturating_sub(WARN_MS)))
    }

    /// A deadline came: the warning if its time has come, then the session's own.
    fn deadline<R: ?Sized, G: Game>(&mut self, seat: &mut Side<'_, R, G>) {
        let now = seat.clock.now();
        self.fire::<G>(now);
        seat.session.handle_timeout(now);
    }

    /// Says how long is left, once the warning's time has come.
    fn fire<G: Game>(&mut self, now: Millis) {
        if let Some(at) = self.due.filter(|at| now + WARN_MS >= *at) {
            self.warned = Some(at);
            eprintln!(
                "armada: {} s left to move; {}",
                at.saturating_sub(now).div_ceil(1000),
                G::WHEN_LATE
            );
        }
    }
}

/// Whether `key` (an ed25519 public key from a hello) is the key of `peer`.
pub(super) fn is_peer(key: &[u8; 32], peer: &PeerId) -> bool {
    libp2p::identity::ed25519::PublicKey::try_from_bytes(key)
        .is_ok_and(|k| libp2p::identity::PublicKey::from(k).to_peer_id() == *peer)
}

/// Everything a side needs while it plays, connected or not.
pub struct Side<'a, R: ?Sized, G: Game = Session> {
    pub session: &'a mut G,
    pub player: &'a mut Player<G>,
    pub store: Option<&'a Store>,
    pub clock: Clock,
    pub rng: &'a mut R,
    /// A window playing this side hears of every change here.
    pub watch: Option<Watch<G>>,
}

impl<R: ?Sized, G: Game> std::fmt::Debug for Side<'_, R, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Side")
            .field("seat", &self.session.seat())
            .finish_non_exhaustive()
    }
}

impl<R: rand::Rng + ?Sized, G: Game> Side<'_, R, G> {
    /// What a person did (`None`: the terminal or the window closed, which leaves
    /// the table); true when this side is now leaving. A refused line is answered on
    /// the terminal, a refused window command to the window.
    pub(super) fn input(&mut self, input: Option<Input<G::Command>>) -> anyhow::Result<bool> {
        let command = match input {
            None => G::leave("the player left".into()),
            Some(Input::Command(command)) => command,
            Some(Input::Line(line)) => {
                let Player::Human(human) = &mut *self.player else {
                    return Ok(false);
                };
                if line.trim().is_empty() {
                    return Ok(false);
                }
                match human.command(self.session, &line) {
                    Ok(command) => command,
                    Err(why) => {
                        // Typed at a terminal, answered there.
                        eprintln!("armada: {why}");
                        return Ok(false);
                    }
                }
            }
        };
        let leaving = G::is_leave(&command);
        match self.session.handle_command(self.clock.now(), command) {
            Ok(()) => Ok(leaving),
            Err(_) if leaving => Err(anyhow::anyhow!("cannot leave the table")),
            Err(why) => {
                match &self.watch {
                    Some(watch) => watch.send(Update::Refused(why.to_string())),
                    None => eprintln!("armada: {why}"),
                }
                Ok(false)
            }
        }
    }

    /// Hands events to the player and `report`, then saves — before anything is sent,
    /// and only when something happened or waits to be sent (a pass that only sent
    /// changes nothing a restart needs: frames sent again are dropped as duplicates).
    pub fn settle_events(&mut self, report: &mut impl FnMut(&G, &G::Event)) -> anyhow::Result<()> {
        let me = self.session.seat();
        let mut changed = self.session.has_outgoing();
        while let Some(event) = self.session.poll_event() {
            changed = true;
            self.player.observe(me, &event);
            report(self.session, &event);
            if let Some(watch) = &self.watch {
                watch.send(Update::Event(event.clone()));
            }
            if let Some(bug) = G::internal(&event) {
                anyhow::bail!("this client broke the protocol: {bug}");
            }
        }
        if changed && let Some(store) = self.store {
            store.save(self.session)?;
            // Saved: what the table no longer needs lives on in the file only.
            self.session.compact();
        }
        if changed && let Some(watch) = &self.watch {
            watch.send(Update::Snapshot(
                Box::new(self.session.clone()),
                self.clock.now(),
            ));
        }
        Ok(())
    }
}

/// Plays the table with `peer` over `stream` until this side's games are done or the
/// link fails; `report` sees every event. The session is saved after every message in
/// or out, before anything is sent; the first message on the stream says how far this
/// side holds the peer's chain, so both send again what a broken link lost.
pub async fn play_table<R: rand::Rng + ?Sized, G: Game>(
    stream: libp2p::Stream,
    peer: PeerId,
    seat: &mut Side<'_, R, G>,
    report: &mut impl FnMut(&G, &G::Event),
) -> anyhow::Result<Ended> {
    let framed = crate::net::framed(stream, armada_proto::MAX_WIRE);
    play_framed(framed, false, peer, seat, report).await
}

/// [`play_table`] over a stream already framed (what was read of it stays read);
/// `synced`: this side's sync went out on it already.
pub(super) async fn play_framed<R: rand::Rng + ?Sized, G: Game>(
    mut framed: super::flows::Door,
    synced: bool,
    peer: PeerId,
    seat: &mut Side<'_, R, G>,
    report: &mut impl FnMut(&G, &G::Event),
) -> anyhow::Result<Ended> {
    let link = |e: std::io::Error| Ended::Link(format!("the connection dropped: {e}"));
    // A second sync would have the peer send again what may be on its way.
    if !synced && let Err(error) = framed.send(Bytes::from(seat.session.sync_wire())).await {
        return Ok(link(error));
    }
    let me = seat.session.seat();
    // The player is leaving: no more input is taken; the session resigns, reveals and
    // settles the game under way before its leave goes out.
    let mut leaving = seat.session.left(me);
    // When this side's leave was seen going out (or, back at a table this side already
    // left, the link having broken as it said so, when play began): the peer has
    // `PARTING_MS` to take it in before the stream is closed.
    let mut parted: Option<Instant> = None;
    // The peer's last word on why it refused something, for when it hangs up.
    let mut refused: Option<armada_proto::ProtocolError> = None;
    let mut warning = Warning::default();
    loop {
        seat.settle_events(&mut |session: &G, event: &G::Event| {
            if let Some(error) = G::peer_refused(event) {
                refused = Some(error.clone());
            }
            report(session, event);
        })?;
        let mut sent = false;
        while let Some(bytes) = seat.session.poll_wire() {
            if let Err(error) = framed.send(Bytes::from(bytes)).await {
                return Ok(link(error));
            }
            crash_point().await;
            sent = true;
        }
        if sent {
            continue;
        }
        if seat.session.left(me.other()) && !seat.session.left(me) {
            // The leave is the other side's last frame, and what this side owed in
            // answer (its reveal, its verdict) went out above: closing lets it go.
            let _ = SinkExt::<Bytes>::close(&mut framed).await;
            return Ok(Ended::Link("the other player left the table".into()));
        }
        if seat.session.peer_gone().is_some() {
            // Closing tells the other side its word was heard.
            let _ = SinkExt::<Bytes>::close(&mut framed).await;
            return Ok(Ended::Link("the other player cannot go on".into()));
        }
        if let Some(key) = seat.session.key(me.other())
            && !is_peer(&key, &peer)
        {
            anyhow::bail!("the other player signs with a key that is not its network identity");
        }
        if !leaving && seat.player.done(seat.session) {
            seat.session
                .handle_command(seat.clock.now(), G::leave("all games played".into()))
                .map_err(|e| anyhow::anyhow!("cannot leave: {e}"))?;
            leaving = true;
            continue;
        }
        if seat.session.left(me) && parted.is_none() {
            parted = Some(Instant::now());
        }
        if let Some(since) = parted
            && (seat.session.left(me.other()) || since.elapsed().as_millis() as u64 > PARTING_MS)
        {
            let _ = SinkExt::<Bytes>::close(&mut framed).await;
            return Ok(Ended::Done);
        }
        if !leaving && let Some(command) = seat.player.next(seat.session, &mut *seat.rng) {
            if let Err(error) = seat
                .session
                .handle_command(seat.clock.now(), command.clone())
            {
                anyhow::bail!("the computer player's {command:?} was refused: {error}");
            }
            continue;
        }
        let session_deadline = seat.session.poll_timeout().map(|at| seat.clock.at(at));
        let deadline = next_deadline(session_deadline, parted, warning.at(seat));
        tokio::select! {
            frame = framed.next() => match frame {
                Some(Ok(bytes)) => {
                    // A refused frame changes nothing; the session tells the peer why.
                    let _ = seat.session.handle_wire(seat.clock.now(), &bytes);
                }
                Some(Err(error)) => {
                    return Ok(Ended::Link(format!("the stream broke: {error}")));
                }
                None if seat.session.left(me) => return Ok(Ended::Done),
                None => {
                    if let Some(error) = refused.filter(|e| e.code == armada_proto::ErrorCode::NotInvited) {
                        anyhow::bail!("the other player refused us: {}", error.detail);
                    }
                    return Ok(Ended::Link("the other player closed the connection".into()));
                }
            },
            () = async {
                match deadline {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            } => warning.deadline(seat),
            input = seat.player.input(), if !leaving => {
                if seat.input(input)? {
                    leaving = true;
                }
            }
        }
    }
}
