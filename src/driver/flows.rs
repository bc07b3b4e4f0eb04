//! Hosting, joining and resuming a table from the command line: a node, an invite,
//! the one invited guest, then the table played to its end across broken links.

use std::time::Duration;

use anyhow::Context as _;
use futures::{SinkExt as _, StreamExt as _};
use libp2p::{Multiaddr, PeerId};
use rand::SeedableRng as _;
use tokio_util::bytes::Bytes;
use tokio_util::codec::{Framed, LengthDelimitedCodec};

use super::code::{CodeDoor, Next};
use super::game::Game;
use super::table::play_framed;
use super::table::{Clock, Ended, Side, is_peer};
use super::{Player, TableOutcome};
use crate::fair::secret::Secret;
use crate::fair::table::table_id;
use crate::net::{Config, GAME_PROTOCOL, Node};
use crate::rules::Seat;
use crate::session::{EachGame, Session, TableGame, TableSession};
use crate::store::{Other, SavedSeat, Store, TableMeta};
use armada_proto::{self as proto, Invite};

mod door;
mod resume;
mod run;

use door::{MAX_AT_DOOR, Refusals, Strangers, admit, closes, first_frame, make_room};

pub use resume::{resume, saved_table, tell_damaged};
use run::run;
pub use run::{Report, Status};

/// What hosting, joining and resuming share.
pub struct Seating<G: Game = Session> {
    pub config: Config,
    pub store: Store,
    pub player: Player<G>,
    /// A window playing the table hears of every change here.
    pub watch: Option<super::Watch<G>>,
    /// The command line hears of every event here.
    pub report: Option<Report<G>>,
    /// A person at the command line resuming the table is shown the game here.
    pub status: Option<Status<G>>,
}

impl<G: Game> std::fmt::Debug for Seating<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seating")
            .field("config", &self.config)
            .field("store", &self.store)
            .field("player", &self.player)
            .field("watch", &self.watch)
            .field("report", &self.report.is_some())
            .field("status", &self.status.is_some())
            .finish()
    }
}

impl<G: Game> Seating<G> {
    fn tell(&self, update: super::Update<G>) {
        if let Some(watch) = &self.watch {
            watch.send(update);
        }
    }

    /// Tells a window the table's short code (`withdrawn`: the one before was).
    fn tell_code(&self, code: Option<proto::ShortCode>, withdrawn: bool) {
        self.tell(super::Update::Code {
            code: code.map(|c| c.to_string()),
            withdrawn,
        });
    }
}

pub(super) type Say<'a> = &'a mut (dyn FnMut(&str) + Send);

/// The longest pause between two redials.
const MAX_BACKOFF_MS: u64 = 4_000;

/// How long a guest that reached the host only through a relay waits for hole
/// punching to give a direct connection before it plays relayed.
const PUNCH_WAIT_MS: u64 = 3_000;

/// How long opening the game stream on a connection may take before it is asked
/// again (the connection may have been closing).
const STREAM_WAIT_MS: u64 = 3_000;

/// How this side gets a new stream when the link breaks.
enum Reach {
    /// The host waits for the seated guest to open one (anyone else is refused).
    Host(libp2p_stream::IncomingStreams),
    /// The guest redials the host at these addresses.
    Guest(Vec<Multiaddr>),
}

/// A game stream with its messages' framing.
pub(super) type Door = Framed<tokio_util::compat::Compat<libp2p::Stream>, LengthDelimitedCodec>;

fn framed(stream: libp2p::Stream) -> Door {
    crate::net::framed(stream, proto::MAX_WIRE)
}

/// How long a host on the public network waits for relays (or for a stranger to
/// confirm it is reachable) before it prints the invite.
const PUBLIC_WAIT: Duration = Duration::from_secs(30);

/// How long a host off the public network waits for its router to map a port
/// (`UPnP`) before it prints the invite.
const UPNP_WAIT: Duration = Duration::from_secs(5);

/// The addresses an invite carries, at most [`proto::MAX_ADDRS`]: never the
/// unspecified ones, and the relayed ones first (a guest behind NAT needs one, and
/// hole punching starts there).
fn invite_addrs(mut addrs: Vec<Multiaddr>) -> Vec<Multiaddr> {
    addrs.retain(|a| !a.to_string().contains("/0.0.0.0/"));
    // A relay lists its loopback addresses too: of no use to a guest elsewhere, who
    // would reach it at the others.
    let loopback = |a: &Multiaddr| {
        a.iter().any(|p| match p {
            libp2p::multiaddr::Protocol::Ip4(ip) => ip.is_loopback(),
            libp2p::multiaddr::Protocol::Ip6(ip) => ip.is_loopback(),
            _ => false,
        })
    };
    if addrs
        .iter()
        .any(|a| crate::net::is_relayed(a) && !loopback(a))
    {
        addrs.retain(|a| !(crate::net::is_relayed(a) && loopback(a)));
    }
    addrs.sort_by_key(|a| !crate::net::is_relayed(a));
    addrs.truncate(proto::MAX_ADDRS);
    addrs
}

/// What a host has said of how the internet reaches it, and the strangers'
/// verdicts still to come (one may come after the invite is out).
struct HostReach {
    verdicts: tokio::sync::watch::Receiver<crate::net::Confirmed>,
    told: Vec<Multiaddr>,
    /// Whether it looked for relays on the public network, and how many it holds.
    public: bool,
    relays: usize,
}

impl HostReach {
    /// Says each address confirmed since the last time, and tells a window how far
    /// the table reaches now.
    fn tell_new<G: Game>(&mut self, seating: &Seating<G>, say: Say<'_>) {
        self.say_new(say);
        seating.tell(super::Update::Open(self.open()));
    }

    /// Says each address confirmed since the last time.
    fn say_new(&mut self, say: Say<'_>) {
        let now = self.verdicts.borrow_and_update().clone();
        for addr in now.addrs.iter().filter(|a| !self.told.contains(a)) {
            say_reachable(addr, &now.mapped, say);
        }
        self.told = now.addrs;
    }

    /// What the relays found on the public network make of this node's reach.
    fn say_relays(&self, say: Say<'_>) {
        match self.relays {
            0 if self.told.is_empty() => say(
                "no relay found on the public network (it was asked for some for 30 s): only \
                 a friend who can reach this machine directly (on this LAN, say) can join; a \
                 friend's `armada relay`, given as --relay, would let anyone in",
            ),
            0 => {}
            n => say(&format!(
                "reachable through {n} relay(s) found on the public network"
            )),
        }
    }

    /// How a friend beyond this LAN can reach the table now, as a window shows it.
    fn open(&self) -> super::Open {
        let now = self.verdicts.borrow();
        if !now.addrs.is_empty() && !self.public {
            super::Open::InviteAnywhere
        } else if !now.addrs.is_empty() {
            super::Open::Anywhere {
                router: now.addrs.iter().any(|a| now.mapped.contains(a)),
            }
        } else if self.relays > 0 {
            super::Open::Relayed(self.relays)
        } else {
            super::Open::Nearby {
                searched: self.public,
            }
        }
    }
}

/// Waits (a while) to learn how the internet can reach this node (through the
/// public network, or a port its router mapped) when it may, and says so.
async fn tell_reach<G: Game>(node: &Node, seating: &Seating<G>, say: Say<'_>) -> HostReach {
    let public = seating.config.public.is_on();
    let mut told = HostReach {
        verdicts: node.reachable(),
        told: Vec::new(),
        public,
        relays: 0,
    };
    if !public && !seating.config.discovery {
        seating.tell(super::Update::Open(told.open()));
        return told;
    }
    seating.tell(super::Update::Open(super::Open::Searching { public }));
    if public {
        say("finding a way in from the internet (the public network)…");
    }
    let reach = node
        .reach(if public { PUBLIC_WAIT } else { UPNP_WAIT })
        .await;
    if public {
        told.relays = relays_held(&reach);
    }
    told.tell_new(seating, say);
    if public {
        told.say_relays(say);
    }
    told
}

/// One line: this node is reachable directly at `addr`, and who said so.
fn say_reachable(addr: &Multiaddr, mapped: &[Multiaddr], say: Say<'_>) {
    if mapped.contains(addr) {
        say(&format!(
            "reachable directly at {addr} (mapped on the router by UPnP)"
        ));
    } else {
        say(&format!(
            "reachable directly at {addr} (a stranger on the internet dialled back)"
        ));
    }
}

/// How many relays found on the public network hold a reservation for this node.
fn relays_held(reach: &crate::net::Reach) -> usize {
    // Each relay holds one reservation, with an address per transport.
    reach
        .circuits
        .iter()
        .filter_map(|circuit| {
            circuit.iter().find_map(|p| match p {
                libp2p::multiaddr::Protocol::P2p(peer) => Some(peer),
                _ => None,
            })
        })
        .collect::<std::collections::BTreeSet<PeerId>>()
        .len()
}

/// Says what to give the friend: the short code first (when there is one), then the
/// invite; and tells a window the same.
fn announce<G: Game>(
    seating: &Seating<G>,
    session: &G,
    invite: &Invite,
    code: Option<proto::ShortCode>,
    addrs: &[Multiaddr],
    say: Say<'_>,
) {
    if let Some(code) = code {
        say("table open. Read this code to your friend:");
        say(&format!("    {code}"));
        say(&format!(
            "(they type `armada join {code}`, or type it under Play a friend in the window)"
        ));
        if !seating.config.public.is_on() {
            say("(the public network is off: the code is found on this LAN only)");
        }
        say("or give them the invite (256 bits, needs no public network):");
    } else {
        say("table open; invite (give it to your friend):");
    }
    say(&invite.to_link());
    seating.tell(super::Update::Invite(invite.to_link()));
    seating.tell_code(code, false);
    seating.tell(super::Update::Link(super::Link::Waiting));
    seating.tell(super::Update::Snapshot(Box::new(session.clone()), 0));
    for addr in addrs {
        say(&format!("address: {addr}"));
    }
    say(&format!("invite code: {}", invite.to_code()));
}

/// Opens a table, prints its invite, seats the first peer that proves the invite's
/// secret (refusing anyone else, with a reason), and plays the table.
pub async fn host<G: Game>(
    mut seating: Seating<G>,
    settings: proto::Settings,
    timer: bool,
    lan: bool,
    say: Say<'_>,
) -> anyhow::Result<TableOutcome<G>> {
    anyhow::ensure!(
        !lan || seating.config.discovery,
        "--lan needs discovery (mDNS): drop --no-discovery"
    );
    let identity = seating.store.identity()?;
    let node = Node::start(&identity.keypair(), seating.config.clone()).await?;
    let secret = *Secret::<32>::fresh()?.expose();
    let mut session = G::host(identity, secret, settings, timer);
    let public = seating.config.public.is_on();
    let mut reached = tell_reach(&node, &seating, say).await;
    let listening = node.listeners().await;
    let addrs = invite_addrs(node.addresses().await);
    let invite = Invite {
        version: 1,
        peer: node.peer_id().to_bytes(),
        addrs: addrs.iter().map(Multiaddr::to_vec).collect(),
        secret,
    };
    let offer = seating.config.discovery.then(|| {
        tokio::sync::watch::channel(proto::LanOffer {
            version: proto::LAN_OFFER_VERSION,
            game: settings.game,
            // With --lan, peers on the LAN that ask get the invite too.
            invite: lan.then(|| invite.clone()),
            rendezvous: None,
        })
    });
    if let Some((_, offer)) = &offer {
        crate::net::serve_lan(&node, offer.clone())?;
    }
    let mut codes = CodeDoor::open(&node, &invite, public, offer.map(|(tx, _)| tx), say).await;
    announce(&seating, &session, &invite, codes.code(), &addrs, say);
    let mut incoming = node
        .control()
        .accept(GAME_PROTOCOL)
        .map_err(|e| anyhow::anyhow!("cannot accept game streams: {e}"))?;
    // Strangers at the door are read side by side, each for at most ADMIT_MS. The
    // door holds MAX_AT_DOOR of them (MAX_AT_DOOR_PER_PEER from one peer); a newcomer
    // to a full door sends the oldest away: a hello comes at once, so a crowd of slow
    // or silent strangers cannot keep the invited guest out.
    let (read_tx, mut reads) = tokio::sync::mpsc::channel(MAX_AT_DOOR);
    let mut door = Strangers::new();
    let mut tickets = 0u64;
    let mut refusals = Refusals::default();
    // A person may close the table or ask what to do while nobody has joined.
    let mut typing = true;
    let seated_guest = loop {
        tokio::select! {
            Ok(()) = reached.verdicts.changed() => reached.tell_new(&seating, say),
            typed = seating.player.typed_early(), if typing => match typed {
                // The input ended: the table's first step hears it, as it always did.
                None => typing = false,
                Some(line) if closes(&mut seating.player, &line, say) => break None,
                Some(_) => {}
            },
            next = incoming.next() => {
                let (peer, stream) = next.context("the network stopped before anyone joined")?;
                make_room(&mut door, peer, &mut refusals, say);
                tickets += 1;
                let (ticket, tx) = (tickets, read_tx.clone());
                let reading = tokio::spawn(async move {
                    let _ = tx.send((ticket, peer, first_frame(stream).await)).await;
                });
                door.push_back((ticket, peer, reading.abort_handle()));
            }
            Some(next) = codes.next() => match next {
                Next::Stream(peer, stream) => codes.answer(peer, stream),
                Next::Outcome(outcome) => {
                    let had = codes.code();
                    codes.outcome(&mut session, outcome, say).await;
                    if codes.code() != had {
                        seating.tell_code(codes.code(), true);
                    }
                }
            },
            Some((ticket, peer, read)) = reads.recv() => {
                door.retain(|(t, _, _)| *t != ticket);
                let admitted = match read {
                    Ok((framed, first)) => admit(&mut session, peer, framed, &first),
                    Err(why) => Err(why),
                };
                match admitted {
                    Ok(stream) => break Some((peer, stream)),
                    Err(why) => refusals.refused(peer, &why.to_string(), &mut *say),
                }
            }
        }
    };
    for (_, _, reading) in door {
        reading.abort();
    }
    refusals.flush(&mut *say);
    // The seat is taken, or the table closed: the short code is over.
    codes.close().await;
    let Some((peer, stream)) = seated_guest else {
        say("you closed the table before anyone joined; nothing was saved");
        return Ok(TableOutcome {
            session,
            finished: true,
        });
    };
    seating.tell_code(None, false);
    say(&format!("{peer} took the guest's seat"));
    let reach = Reach::Host(incoming);
    let table = Table { node, peer, reach };
    seated(seating, session, table, &listening, (stream, false), say).await
}

/// The seat is taken: saves how to find the other player again (`addrs`) and plays
/// the table from the first `stream` (`synced`: this side's sync went out on it).
async fn seated<G: Game>(
    seating: Seating<G>,
    session: G,
    table: Table,
    addrs: &[Multiaddr],
    stream: (Door, bool),
    say: Say<'_>,
) -> anyhow::Result<TableOutcome<G>> {
    remember(&seating, &session, table.peer, addrs)?;
    // Boxed: the table's future is large, and the door's loop before it is too.
    Box::pin(run(session, table, Some(stream), seating, say)).await
}

/// Saves how to find the table's other player again: for the host its own listen
/// addresses (to listen there again), for the guest the host's.
fn remember<G: Game>(
    seating: &Seating<G>,
    session: &G,
    peer: PeerId,
    addrs: &[Multiaddr],
) -> anyhow::Result<()> {
    let (by, games) = seating.player.describe();
    seating.store.save_meta(
        &session.table_id(),
        &TableMeta {
            seat: session.seat().into(),
            other: Other::Peer {
                id: peer.to_string(),
                addrs: addrs.iter().map(ToString::to_string).collect(),
            },
            by,
            games,
            game: G::GAME,
            knock: Vec::new(),
            gone: None,
        },
    )
}

async fn refuse(mut framed: Door, code: proto::ErrorCode, why: &str) {
    use futures::SinkExt;
    let error = proto::Wire::Error(proto::ProtocolError {
        version: proto::PROTOCOL_VERSION,
        code,
        refused: [0; 32],
        detail: why.chars().take(proto::MAX_TEXT / 4).collect(),
    });
    let _ = framed.send(Bytes::from(proto::encode_wire(&error))).await;
    let _ = SinkExt::<Bytes>::close(&mut framed).await;
}

/// What a guest was given to join with.
enum Ticket {
    Invite(Invite),
    Code(proto::ShortCode),
}

/// Joins the table of `invite` (a short code like `4821-harbor-anchor`, a link or
/// a long code) and plays it, if it plays game `G`; with `direct_only` the
/// invite's relayed addresses are left out.
pub async fn join<G: Game>(
    seating: Seating<G>,
    invite: &str,
    direct_only: bool,
    say: Say<'_>,
) -> anyhow::Result<TableOutcome<G>> {
    seating.tell(super::Update::Link(super::Link::Connecting));
    let reached = reach(&seating.store, &seating.config, invite, direct_only, say).await?;
    join_reached(seating, reached, say).await
}

/// A guest at the host's door: admitted, and told the table's settings, before it
/// knows which game's session to play the table with.
pub struct Reached {
    node: Node,
    peer: PeerId,
    addrs: Vec<Multiaddr>,
    secret: crate::fair::hash::Hash,
    key: Option<crate::fair::code::CodeKey>,
    framed: Door,
    /// The host's messages read so far (its hello and settings among them).
    heard: Vec<Bytes>,
    /// What this side already sent: its sync and hello.
    sent: Vec<Vec<u8>>,
    /// The game the host's settings name.
    pub game: proto::GameKind,
}

impl std::fmt::Debug for Reached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reached")
            .field("peer", &self.peer)
            .field("game", &self.game)
            .finish_non_exhaustive()
    }
}

/// How long a guest waits for the host's settings after its hello.
const SETTINGS_MS: u64 = 30_000;
/// How many of the host's messages a guest reads for its settings (the host sends
/// them second, after its hello).
const MAX_BEFORE_SETTINGS: usize = 16;

/// Whether this side may take the guest's seat at `invite`'s table (`peer` hosts it):
/// not at its own table, nor at one it already sits at.
fn may_join(store: &Store, node: &Node, peer: PeerId, invite: &Invite) -> anyhow::Result<()> {
    anyhow::ensure!(
        peer != node.peer_id(),
        "that is your own table: your friend joins it with this invite (a second player on \
         this computer needs a data folder of its own, --data-dir)"
    );
    let table = crate::fair::table::table_id(&invite.secret);
    anyhow::ensure!(
        !store.has_table(&table),
        "you already sit at this table: `armada resume --table {}` continues it",
        hex::encode(table)
    );
    Ok(())
}

/// Reaches the host of `invite` (see [`join`]), says hello and reads on until the
/// host's settings name the table's game. Both games' hellos are the same frame,
/// so nothing said here depends on the game; [`join_reached`] plays on.
pub async fn reach(
    store: &Store,
    config: &Config,
    invite: &str,
    direct_only: bool,
    say: Say<'_>,
) -> anyhow::Result<Reached> {
    // Read before anything starts, so a mistyped code or invite costs nothing.
    let ticket = if proto::ShortCode::is_meant(invite) {
        let code = proto::ShortCode::parse(invite)?;
        // A code is looked up on the LAN or the public network: with both off it
        // could never be found, whatever its number.
        anyhow::ensure!(
            config.discovery || config.public.is_on(),
            "a short code is found on the LAN or through the public network, and both are \
             off for this run (--no-discovery, --no-public): join with the invite link instead"
        );
        Ticket::Code(code)
    } else {
        Ticket::Invite(Invite::parse(invite)?)
    };
    let identity = store.identity()?;
    let node = Node::start(&identity.keypair(), config.clone()).await?;
    let (invite, key) = match ticket {
        Ticket::Invite(invite) => (invite, None),
        Ticket::Code(code) => {
            let (_, invite, key) = super::code::find(&node, &code, config.discovery, say).await?;
            say("the host took the code");
            (invite, Some(key))
        }
    };
    let peer = PeerId::from_bytes(&invite.peer).context("the invite's peer id is malformed")?;
    may_join(store, &node, peer, &invite)?;
    let mut addrs = invite
        .addrs
        .iter()
        .map(|a| Multiaddr::try_from(a.clone()))
        .collect::<Result<Vec<_>, _>>()
        .context("an address in the invite is malformed")?;
    if direct_only {
        addrs.retain(|a| !crate::net::is_relayed(a));
    }
    anyhow::ensure!(!addrs.is_empty(), "the invite has no address to dial");
    let relayed = addrs.iter().any(crate::net::is_relayed);
    let stream = match connect(&node, peer, &addrs, true, say).await {
        Ok(stream) => stream,
        Err(error) => match error.downcast_ref::<crate::net::Unreachable>() {
            Some(crate::net::Unreachable::WrongPeer { .. }) => anyhow::bail!(
                "the address in that invite answers as another peer: the invite is out of date"
            ),
            Some(crate::net::Unreachable::Silent) if !relayed => anyhow::bail!(
                "nobody answers at that invite: the table may be closed, or the host is \
                 behind a home router and the invite has no relay (the host needs the \
                 public network on, or a friend's `armada relay` given as --relay)"
            ),
            _ => {
                return Err(error.context(
                    "cannot reach the host, directly or through the relays in the invite",
                ));
            }
        },
    };
    say(&format!("connected to the host {peer}"));
    // The sea battle's guest says the hello every game's guest would.
    let mut hello = match &key {
        Some(key) => Session::guest_by_code(identity, invite.secret, key),
        None => Session::guest(identity, invite.secret),
    };
    let mut sent = vec![hello.sync_wire()];
    sent.extend(std::iter::from_fn(|| hello.poll_wire()));
    // Hole punching may close the connection the stream runs on, as it replaces a
    // relayed one: the stream is opened again, and the same greeting said again
    // (the host takes a repeated hello as the duplicate it is).
    let mut stream = Some(stream);
    let mut tries = 0;
    let (framed, heard, game) = loop {
        let stream = match stream.take() {
            Some(stream) => stream,
            None => open_stream(&node, peer, GAME_PROTOCOL, Some(&addrs)).await?,
        };
        let mut framed = framed(stream);
        let mut heard = Vec::new();
        let greeting = tokio::time::timeout(
            Duration::from_millis(SETTINGS_MS),
            greet(&mut framed, &sent, &mut heard),
        )
        .await
        .context("the host did not say which game its table plays")??;
        match greeting {
            Greeting::Game(game) => break (framed, heard, game),
            Greeting::Broke(why) if tries < GREET_TRIES => {
                tries += 1;
                tracing::info!(%why, "the greeting's stream broke; again");
            }
            Greeting::Broke(why) => anyhow::bail!("the connection to the host broke: {why}"),
        }
    };
    Ok(Reached {
        node,
        peer,
        addrs,
        secret: invite.secret,
        key,
        framed,
        heard,
        sent,
        game,
    })
}

/// How a greeting of the host went.
enum Greeting {
    /// The host's settings name this game.
    Game(proto::GameKind),
    /// The stream broke first (why).
    Broke(String),
}

/// How many times a guest greets the host again on a new stream after one broke.
const GREET_TRIES: u32 = 3;

/// Says `sent` (the sync and the hello) on `framed` and reads the host's messages
/// into `heard` until its settings; an error if the host refuses this guest.
async fn greet(
    framed: &mut Door,
    sent: &[Vec<u8>],
    heard: &mut Vec<Bytes>,
) -> anyhow::Result<Greeting> {
    for (i, bytes) in sent.iter().enumerate() {
        if let Err(error) = framed.send(Bytes::from(bytes.clone())).await {
            return Ok(Greeting::Broke(error.to_string()));
        }
        // The sync is not a game message; the hello is (the crash tests count it).
        if i > 0 {
            super::table::crash_point().await;
        }
    }
    loop {
        let bytes = match framed.next().await {
            Some(Ok(bytes)) => bytes,
            Some(Err(error)) => return Ok(Greeting::Broke(error.to_string())),
            None => return Ok(Greeting::Broke("the host closed the stream".into())),
        };
        let wire = proto::decode_wire(&bytes);
        heard.push(bytes.freeze());
        anyhow::ensure!(
            heard.len() <= MAX_BEFORE_SETTINGS,
            "the host sent {MAX_BEFORE_SETTINGS} messages without its settings"
        );
        match wire {
            Ok(proto::Wire::Frame(frame)) => {
                if let Ok(frame) = proto::Frame::decode(&frame)
                    && let proto::Payload::Settings(settings) = frame.body.payload
                {
                    return Ok(Greeting::Game(settings.game));
                }
            }
            Ok(proto::Wire::Error(error)) => {
                anyhow::bail!("the host refused us: {}", error.detail)
            }
            Ok(proto::Wire::Gone { reason, .. }) => {
                anyhow::bail!("the host cannot go on: {reason}")
            }
            _ => {}
        }
    }
}

/// How long a guest that declines a table waits for the host to show it heard.
const DECLINE_MS: u64 = 10_000;

impl Reached {
    /// Turns the table down after all (this side cannot play its game): the host is
    /// told at once that this guest cannot go on, and need not wait for it.
    pub async fn decline(mut self, reason: &str) {
        let gone = Session::gone_wire(table_id(&self.secret), reason);
        if self.framed.send(Bytes::from(gone)).await.is_ok() {
            // Heard once the host closes the stream (it does on `Gone`); a process
            // that ended at once could take the word down with it, unsent.
            let _ = tokio::time::timeout(Duration::from_millis(DECLINE_MS), async {
                while let Some(Ok(_)) = self.framed.next().await {}
            })
            .await;
        }
        let _ = futures::SinkExt::<Bytes>::close(&mut self.framed).await;
    }
}

/// Plays on the table [`reach`] got to, as game `G`.
pub async fn join_reached<G: Game>(
    seating: Seating<G>,
    reached: Reached,
    say: Say<'_>,
) -> anyhow::Result<TableOutcome<G>> {
    anyhow::ensure!(
        G::plays(&reached.game),
        "the host's table plays {:?}, not {:?}",
        reached.game,
        G::GAME
    );
    let identity = seating.store.identity()?;
    let mut session = match &reached.key {
        Some(key) => G::guest_by_code(identity, reached.secret, key),
        None => G::guest(identity, reached.secret),
    };
    // Its hello went out already, word for word.
    while let Some(bytes) = session.poll_wire() {
        anyhow::ensure!(
            reached.sent.contains(&bytes),
            "this client's hello differs between its games (a bug)"
        );
    }
    for bytes in &reached.heard {
        let _ = session.handle_wire(0, bytes);
    }
    let reach = Reach::Guest(reached.addrs.clone());
    let table = Table {
        node: reached.node,
        peer: reached.peer,
        reach,
    };
    seated(
        seating,
        session,
        table,
        &reached.addrs,
        (reached.framed, true),
        say,
    )
    .await
}

/// Dials the host and opens the game stream; where the only way is through a relay,
/// first (with `punch_first`) gives hole punching a moment to find a direct one.
/// Back to a table, no moment is lost: a punch that lands later moves the stream.
async fn connect(
    node: &Node,
    peer: PeerId,
    addrs: &[Multiaddr],
    punch_first: bool,
    say: Say<'_>,
) -> anyhow::Result<libp2p::Stream> {
    // The route of the connection the dial made, not the route now: hole punching
    // may already have replaced a relayed connection.
    if let crate::net::Route::Relayed(..) = node.dial(peer, addrs.to_vec()).await?
        && punch_first
    {
        say("reached the host through a relay; trying for a direct connection");
        if !punched(node, peer).await {
            say("no direct connection yet: playing through the relay");
        }
    }
    open_stream(node, peer, GAME_PROTOCOL, Some(addrs)).await
}

/// Gives hole punching its moment (at most `PUNCH_WAIT_MS`) to replace a relayed
/// connection to `peer` with a direct one: whether it did.
pub(super) async fn punched(node: &Node, peer: PeerId) -> bool {
    tokio::time::timeout(Duration::from_millis(PUNCH_WAIT_MS), node.direct(peer))
        .await
        .is_ok()
}

/// Opens a stream of `protocol` to `peer`. Hole punching may be replacing
/// connections this very moment (a direct one closes the relayed one, and a punch
/// can land on both transports), and a stream is asked of any one connection: one
/// asked of a connection as it closed fails, or never answers, and is opened again
/// on one that stays (or, if none stayed and `redial` has addresses, on a new one).
pub(super) async fn open_stream(
    node: &Node,
    peer: PeerId,
    protocol: libp2p::StreamProtocol,
    redial: Option<&[Multiaddr]>,
) -> anyhow::Result<libp2p::Stream> {
    let mut tries = 0;
    loop {
        let opened = tokio::time::timeout(
            Duration::from_millis(STREAM_WAIT_MS),
            node.control().open_stream(peer, protocol.clone()),
        )
        .await;
        let error = match opened {
            Ok(Ok(stream)) => return Ok(stream),
            Ok(Err(libp2p_stream::OpenStreamError::UnsupportedProtocol(p))) => {
                return Err(libp2p_stream::OpenStreamError::UnsupportedProtocol(p).into());
            }
            Ok(Err(error)) => error.to_string(),
            Err(_) => "no answer".to_string(),
        };
        if tries < 3 {
            tracing::info!(%error, %protocol, "the stream did not open; again");
            tries += 1;
            tokio::time::sleep(Duration::from_millis(250)).await;
            // Every connection went with the one that closed: dial again.
            if let Some(addrs) = redial
                && node.route(peer).is_none()
            {
                node.dial(peer, addrs.to_vec()).await?;
            }
        } else {
            let now = node
                .route(peer)
                .map_or_else(|| "none".to_string(), |r| r.to_string());
            anyhow::bail!(
                "cannot open the {protocol} stream ({} tries; the connection now: {now}): {error}",
                tries + 1
            );
        }
    }
}

/// The network side of a table: the node, the other player, and how to reach it again.
struct Table {
    node: Node,
    peer: PeerId,
    reach: Reach,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::Open;
    use crate::net::Confirmed;

    fn host_reach(
        public: bool,
        relays: usize,
    ) -> (tokio::sync::watch::Sender<Confirmed>, HostReach) {
        let (tx, verdicts) = tokio::sync::watch::channel(Confirmed::default());
        let reach = HostReach {
            verdicts,
            told: Vec::new(),
            public,
            relays,
        };
        (tx, reach)
    }

    #[test]
    fn a_window_is_told_the_widest_way_in_and_a_verdict_after_the_invite_widens_it() {
        let addr: Multiaddr = "/ip4/198.51.100.7/tcp/4001".parse().unwrap();
        let (router, off) = host_reach(false, 0);
        assert_eq!(off.open(), Open::Nearby { searched: false });
        // Off the public network, only the router can open the way, and the code is
        // found on the LAN alone.
        router.send_modify(|c| {
            c.addrs.push(addr.clone());
            c.mapped.push(addr.clone());
        });
        assert_eq!(off.open(), Open::InviteAnywhere);
        let (tx, mut reach) = host_reach(true, 0);
        assert_eq!(reach.open(), Open::Nearby { searched: true });
        reach.relays = 2;
        assert_eq!(reach.open(), Open::Relayed(2));
        // A stranger's dial-back, after the relays: direct beats relayed.
        tx.send_modify(|c| c.addrs.push(addr.clone()));
        assert_eq!(reach.open(), Open::Anywhere { router: false });
        let mut said = Vec::new();
        reach.say_new(&mut |line: &str| said.push(line.to_owned()));
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("a stranger on the internet dialled back"));
        // The router maps that address: it is the router's doing.
        tx.send_modify(|c| c.mapped.push(addr.clone()));
        assert_eq!(reach.open(), Open::Anywhere { router: true });
        // The mapping expires: back to the relays.
        tx.send_modify(|c| {
            c.addrs.clear();
            c.mapped.clear();
        });
        assert_eq!(reach.open(), Open::Relayed(2));
    }
}
