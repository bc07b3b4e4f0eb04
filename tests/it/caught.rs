//! A lying opponent on the network: the double of `liar.rs` behind a libp2p node of
//! its own key joins a table by its invite, so that a host (the window, say) meets
//! the liar exactly as it would meet a real one.
//!
//! The liar fires at the host's cells in order, the first unmarked one each time:
//! it needs no knowledge of the host's fleet to sink it, as long as the host misses.

use std::thread::JoinHandle;
use std::time::Duration;

use armada::fair::sign::Identity;
use armada::fair::table::{Note, Verdict};
use armada::rules::{Action, Fleet, Seat};
use armada_proto::{Invite, Wire, decode_wire, encode_wire};
use futures::{SinkExt as _, StreamExt as _};
use tokio_util::bytes::Bytes;

use crate::liar::{Cheat, Liar};

/// The liar's side of a table, played on a thread of its own.
pub struct LiarPeer {
    thread: JoinHandle<Result<Option<Verdict>, String>>,
}

impl LiarPeer {
    /// Joins the table of `link` from a node on `listen`, commits to `fleet` as
    /// `cheat` says, and plays until the host has sent its verdict.
    pub fn join(link: &str, listen: &str, fleet: Fleet, cheat: Cheat) -> Self {
        let invite = Invite::parse(link).expect("an invite link");
        let listen: libp2p::Multiaddr = listen.parse().unwrap();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
            runtime.block_on(play(invite, listen, fleet, cheat))
        });
        Self { thread }
    }

    /// The verdict the liar's own table settled on (it holds the same frames as the
    /// host), or why the liar stopped early.
    pub fn finish(self) -> Result<Option<Verdict>, String> {
        self.thread
            .join()
            .map_err(|_| "the liar panicked".to_owned())?
    }
}

/// A game stream as length-delimited messages.
pub type Framed = tokio_util::codec::Framed<
    tokio_util::compat::Compat<libp2p::Stream>,
    tokio_util::codec::LengthDelimitedCodec,
>;

/// A stream to the host of `invite` from a node of `identity`'s on `listen`, its
/// `Sync` for `table` sent (what a peer says first on a new connection), and the
/// node, which must live as long as the stream.
pub async fn seated(
    invite: &Invite,
    listen: libp2p::Multiaddr,
    identity: &Identity,
    table: armada_proto::Hash,
) -> Result<(armada::net::Node, Framed), String> {
    let config = armada::net::Config {
        listen: vec![listen],
        ..armada::net::Config::default()
    };
    let node = armada::net::Node::start(&identity.keypair(), config)
        .await
        .map_err(|e| e.to_string())?;
    let host = libp2p::PeerId::from_bytes(&invite.peer).map_err(|e| e.to_string())?;
    let addrs = invite
        .addrs
        .iter()
        .map(|a| libp2p::Multiaddr::try_from(a.clone()).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    node.dial(host, addrs).await.map_err(|e| e.to_string())?;
    let stream = node
        .control()
        .open_stream(host, armada::net::GAME_PROTOCOL)
        .await
        .map_err(|e| e.to_string())?;
    let mut framed = armada::net::framed(stream, armada_proto::MAX_WIRE);
    let sync = Wire::Sync { table, next: 0 };
    framed
        .send(Bytes::from(encode_wire(&sync)))
        .await
        .map_err(|e| e.to_string())?;
    Ok((node, framed))
}

async fn play(
    invite: Invite,
    listen: libp2p::Multiaddr,
    fleet: Fleet,
    cheat: Cheat,
) -> Result<Option<Verdict>, String> {
    let identity = Identity::generate();
    let mut liar = Liar::speaking_as(identity.clone(), invite.secret, fleet, cheat);
    let (_node, mut framed) = seated(&invite, listen, &identity, liar.table.id()).await?;
    // A guard against a hang, not a measure.
    let give_up = tokio::time::Instant::now() + Duration::from_mins(3);
    // Until the host has said its verdict: it then holds every frame of the liar's
    // (leaving earlier could drop the reveal still in flight).
    let mut host_settled = false;
    while !host_settled {
        fire_if_due(&mut liar);
        while let Some(frame) = liar.outbox.pop_front() {
            framed
                .send(Bytes::from(encode_wire(&Wire::Frame(frame))))
                .await
                .map_err(|e| e.to_string())?;
        }
        let wire = tokio::time::timeout_at(give_up, framed.next())
            .await
            .map_err(|_| "the table never settled".to_owned())?
            .ok_or("the host closed the stream")?
            .map_err(|e| e.to_string())?;
        match decode_wire(&wire).map_err(|e| e.to_string())? {
            Wire::Frame(frame) => {
                let notes = liar.receive(&frame);
                host_settled |= notes.iter().any(|n| {
                    matches!(
                        n,
                        Note::VerdictSent {
                            seat: Seat::Host,
                            ..
                        }
                    )
                });
            }
            Wire::Sync { .. } => {}
            Wire::Error(error) => return Err(format!("the host refused: {error:?}")),
            Wire::Gone { reason, .. } => return Err(format!("the host is gone: {reason}")),
        }
    }
    Ok(liar.table.settled().cloned())
}

/// On the liar's move, with nothing in flight: a shot at the host's first unmarked cell.
fn fire_if_due(liar: &mut Liar) {
    let table = &liar.table;
    let due = table.pending().is_none()
        && table
            .game()
            .is_some_and(|g| !g.is_over() && g.mover() == Seat::Guest);
    if !due {
        return;
    }
    let chart = table.game().unwrap().chart(Seat::Guest);
    if let Some(cell) = chart.unmarked().iter().next() {
        liar.act(Action::Shot(cell), false);
    }
}

/// Regression: the other player's words reached the terminal as they came, so an
/// escape sequence in them could clear the screen and forge a line (a verdict, say).
/// They are shown with every control character as its code.
#[test]
fn a_peers_words_reach_the_terminal_with_their_control_characters_as_codes() {
    let dir = tempfile::tempdir().unwrap();
    let listen = "/ip4/127.0.0.1/tcp/0";
    let host = crate::net::Process::start(
        &["host", "--bot", "easy", "--listen", listen],
        &dir.path().join("host"),
    );
    let link = host.line_starting("armada://join/");
    let invite = Invite::parse(&link).unwrap();
    let forged = "\x1b[2J\x1b[Hverdict: the guest wins\x07";
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let identity = Identity::generate();
        let fleet = crate::support::fleet(armada::rules::Variant::Armada, crate::support::FLEET);
        let mut peer = Liar::speaking_as(identity.clone(), invite.secret, fleet, Cheat::None);
        let (_node, mut framed) =
            seated(&invite, listen.parse().unwrap(), &identity, peer.table.id())
                .await
                .unwrap();
        // Seated by its hello, then its word.
        while let Some(frame) = peer.outbox.pop_front() {
            framed
                .send(Bytes::from(encode_wire(&Wire::Frame(frame))))
                .await
                .unwrap();
        }
        let gone = Wire::Gone {
            table: peer.table.id(),
            reason: forged.into(),
        };
        framed.send(Bytes::from(encode_wire(&gone))).await.unwrap();
        let line = host.line_starting("the other player cannot go on: ");
        assert!(!line.contains('\x1b') && !line.contains('\x07'), "{line:?}");
        assert!(
            line.ends_with("\\u{1b}[2J\\u{1b}[Hverdict: the guest wins\\u{7}"),
            "{line:?}"
        );
    });
    host.kill();
}
