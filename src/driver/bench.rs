//! `armada bench-net`: a real libp2p connection on loopback, measured — ping round
//! trip, a move's round trip (attack → verified answer), QUIC connect time, and a
//! whole bot game's wall time.

use std::time::{Duration, Instant};

use anyhow::Context as _;
use futures::StreamExt as _;
use rand::SeedableRng as _;

use super::table::{Clock, Ended, Side};
use super::{Player, play_table};
use crate::ai::Level;
use crate::fair::sign::Identity;
use crate::fair::table::Note;
use crate::net::{Config, GAME_PROTOCOL, Node};
use crate::session::{Event, Session};

/// What the benchmark measured.
#[derive(Clone, Debug)]
pub struct NetFigures {
    pub ping_rtt: Duration,
    pub move_rtt: Duration,
    pub quic_connect: Duration,
    pub tcp_connect: Duration,
    pub game: Duration,
    pub moves: usize,
}

fn loopback(transport: &str) -> Config {
    Config {
        listen: vec![transport.parse().expect("a valid address")],
        discovery: false,
        ping_every: Some(Duration::from_millis(10)),
        relay: None,
        public: crate::net::Public::Off,
    }
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values.get(values.len() / 2).copied().unwrap_or_default()
}

/// Connect time: a fresh node dials the listener `connects` times.
async fn connect_time(transport: &str, connects: usize) -> anyhow::Result<Duration> {
    let listener = Node::start(&Identity::generate().keypair(), loopback(transport)).await?;
    let addrs = listener.listeners().await;
    let mut times = Vec::new();
    for _ in 0..connects {
        let dialer = Node::start(&Identity::generate().keypair(), loopback(transport)).await?;
        let start = Instant::now();
        dialer.dial(listener.peer_id(), addrs.clone()).await?;
        times.push(start.elapsed());
    }
    Ok(median(times))
}

/// One whole game between two bots over TCP on loopback; move round trips are timed
/// at the attacker from sending an action to having checked its answer.
async fn game(games: u32) -> anyhow::Result<(Duration, Vec<Duration>, Duration)> {
    let host_id = Identity::generate();
    let guest_id = Identity::generate();
    let host = Node::start(&host_id.keypair(), loopback("/ip4/127.0.0.1/tcp/0")).await?;
    let guest = Node::start(&guest_id.keypair(), loopback("/ip4/127.0.0.1/tcp/0")).await?;
    let mut incoming = host
        .control()
        .accept(GAME_PROTOCOL)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    guest.dial(host.peer_id(), host.listeners().await).await?;
    // The ping round trip on the idle connection: fifty pings, ten milliseconds apart.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let ping = median(guest.ping_rtts(host.peer_id()).await);
    let secret = [7; 32];
    let settings =
        crate::session::settings(crate::rules::Variant::Armada, crate::session::GRACE_MS);
    let start = Instant::now();
    let mut control = guest.control();
    let opened = control.open_stream(host.peer_id(), GAME_PROTOCOL);
    let (stream, accepted) = tokio::join!(opened, incoming.next());
    let guest_stream = stream.map_err(|e| anyhow::anyhow!("{e}"))?;
    let (_, host_stream) = accepted.context("no stream came in")?;
    let side = |identity: Identity, seat: crate::rules::Seat| match seat {
        crate::rules::Seat::Host => Session::host(identity, secret, settings).with_timer(false),
        crate::rules::Seat::Guest => Session::guest(identity, secret),
    };
    let play = |stream, peer, mut session: Session, level| async move {
        let mut player = Player::bot(level, games);
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
        let mut side = Side {
            session: &mut session,
            player: &mut player,
            store: None,
            clock: Clock::new(),
            rng: &mut rng,
            watch: None,
        };
        let mut sent: Option<Instant> = None;
        let mut rtts = Vec::new();
        let me = side.session.seat();
        let ended = play_table(
            stream,
            peer,
            &mut side,
            &mut |_: &Session, event: &Event| match event {
                Event::Table(Note::Acted { seat, .. }) if *seat == me => {
                    sent = Some(Instant::now());
                }
                Event::Table(Note::Resolved { seat, .. }) if *seat == me => {
                    if let Some(at) = sent.take() {
                        rtts.push(at.elapsed());
                    }
                }
                _ => {}
            },
        )
        .await;
        (ended, rtts)
    };
    // Each side in a task of its own, as two processes would be.
    let host_task = tokio::spawn(play(
        host_stream,
        guest.peer_id(),
        side(host_id, crate::rules::Seat::Host),
        Level::Medium,
    ));
    let guest_task = tokio::spawn(play(
        guest_stream,
        host.peer_id(),
        side(guest_id, crate::rules::Seat::Guest),
        Level::Medium,
    ));
    let (host_result, guest_result) = (host_task.await?, guest_task.await?);
    let wall = start.elapsed();
    for (ended, _) in [&host_result, &guest_result] {
        match ended {
            Ok(Ended::Done) => {}
            Ok(Ended::Link(why)) => anyhow::bail!("the link broke: {why}"),
            Err(error) => anyhow::bail!("{error}"),
        }
    }
    let mut rtts = host_result.1;
    rtts.extend(guest_result.1);
    Ok((wall, rtts, ping))
}

/// Runs every measurement once.
pub async fn bench_net() -> anyhow::Result<NetFigures> {
    let quic_connect = connect_time("/ip4/127.0.0.1/udp/0/quic-v1", 11).await?;
    let tcp_connect = connect_time("/ip4/127.0.0.1/tcp/0", 11).await?;
    let (game, rtts, ping_rtt) = game(1).await?;
    let moves = rtts.len();
    Ok(NetFigures {
        ping_rtt,
        move_rtt: median(rtts),
        quic_connect,
        tcp_connect,
        game,
        moves,
    })
}
