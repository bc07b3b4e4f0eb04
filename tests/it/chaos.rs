//! Chaos on the link: bot tables played through a TCP proxy that delays, stalls and
//! cuts the connection at random moments; every game still ends honest on both sides.
//!
//! `ARMADA_CHAOS_TABLES` and `ARMADA_CHAOS_GAMES` set the size (2 tables of 4 games
//! by default; `scripts/chaos.sh` runs 10 × 10).

use std::io::{Read as _, Write as _};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use rand::{RngExt as _, SeedableRng as _};

use crate::net::{Process, assert_honest};

/// What the proxy did to the link.
#[derive(Default)]
struct Damage {
    cuts: AtomicUsize,
    stalls: AtomicUsize,
}

/// A TCP proxy to `upstream` on 127.0.0.1: each connection lives a random 0.15–1.5 s
/// and is then cut (both directions, both ends); chunks are delayed now and then, and
/// sometimes stalled for up to 0.8 s. Seeded, so a failing run can be replayed.
fn chaos_proxy(
    upstream: SocketAddr,
    seed: u64,
    stop: Arc<AtomicBool>,
) -> (SocketAddr, Arc<Damage>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let damage = Arc::new(Damage::default());
    let seen = damage.clone();
    std::thread::spawn(move || {
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
        while !stop.load(Ordering::Relaxed) {
            let Ok((inbound, _)) = listener.accept() else {
                std::thread::sleep(Duration::from_millis(5));
                continue;
            };
            inbound.set_nonblocking(false).unwrap();
            let Ok(outbound) = TcpStream::connect(upstream) else {
                continue;
            };
            let life = Duration::from_millis(rng.random_range(150..1500));
            let ends = [inbound.try_clone().unwrap(), outbound.try_clone().unwrap()];
            let cut = seen.clone();
            std::thread::spawn(move || {
                std::thread::sleep(life);
                cut.cuts.fetch_add(1, Ordering::Relaxed);
                for end in ends {
                    let _ = end.shutdown(Shutdown::Both);
                }
            });
            for (from, to) in [
                (inbound.try_clone().unwrap(), outbound.try_clone().unwrap()),
                (outbound, inbound),
            ] {
                let pump_seed = rng.random();
                let stalls = seen.clone();
                std::thread::spawn(move || pump(from, to, pump_seed, &stalls));
            }
        }
    });
    (addr, damage)
}

/// Copies `from` to `to` with random delays and stalls until either end closes.
fn pump(mut from: TcpStream, mut to: TcpStream, seed: u64, damage: &Damage) {
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let mut buf = [0u8; 4096];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let roll: f64 = rng.random();
        if roll < 0.01 {
            damage.stalls.fetch_add(1, Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(rng.random_range(300..800)));
        } else if roll < 0.1 {
            std::thread::sleep(Duration::from_millis(rng.random_range(1..30)));
        }
        if to.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(Shutdown::Both);
    let _ = from.shutdown(Shutdown::Both);
}

fn from_env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One table of `games` games through a fresh chaos proxy: both sides finish, both
/// transcripts verify honest with every game; how often the link came back, and what
/// the proxy did.
fn table_through_chaos(dir: &Path, games: usize, seed: u64) -> (usize, usize, usize) {
    let (host_data, guest_data) = (dir.join("host"), dir.join("guest"));
    let games_arg = games.to_string();
    let host = Process::start(
        &[
            "host",
            "--bot",
            "medium",
            "--games",
            &games_arg,
            "--listen",
            "/ip4/127.0.0.1/tcp/0",
        ],
        &host_data,
    );
    let link = host.line_starting("armada://join/");
    let address = host.line_starting("address: /ip4/127.0.0.1/tcp/");
    let port: u16 = address.rsplit('/').next().unwrap().parse().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let (proxy, damage) = chaos_proxy(SocketAddr::from(([127, 0, 0, 1], port)), seed, stop.clone());
    // The guest knows the host only by the proxy's address.
    let mut invite = armada_proto::Invite::parse(&link).unwrap();
    let through: libp2p::Multiaddr = format!("/ip4/127.0.0.1/tcp/{}", proxy.port())
        .parse()
        .unwrap();
    invite.addrs = vec![through.to_vec()];
    let guest = Process::start(
        &[
            "join",
            &invite.to_link(),
            "--bot",
            "easy",
            "--games",
            &games_arg,
            "--listen",
            "/ip4/127.0.0.1/tcp/0",
        ],
        &guest_data,
    );
    // Hang guards only, generous enough for a loaded machine: what is asserted is how
    // the tables end, never how fast.
    let limit = Duration::from_secs(120 + 60 * games as u64);
    let reconnects = reconnects(&guest, limit) + reconnects(&host, Duration::from_mins(1));
    let (guest_code, guest_err) = guest.finish_within(Duration::from_mins(1));
    let (host_code, host_err) = host.finish_within(Duration::from_mins(1));
    stop.store(true, Ordering::Relaxed);
    assert_eq!((guest_code, host_code), (0, 0), "{guest_err}\n{host_err}");
    assert_honest(&host_data, games);
    assert_honest(&guest_data, games);
    (
        reconnects,
        damage.cuts.load(Ordering::Relaxed),
        damage.stalls.load(Ordering::Relaxed),
    )
}

/// Reads `process`'s lines until it closes its output: how many say the link came
/// back. Counted by the players, not the proxy: after a cut a side may reach the other
/// at an address it learnt on the way, around the proxy.
fn reconnects(process: &Process, limit: Duration) -> usize {
    let deadline = std::time::Instant::now() + limit;
    let mut count = 0;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match process.lines.recv_timeout(left) {
            Ok(line) => count += usize::from(line.contains("reconnected")),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return count,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                panic!("armada did not finish in time")
            }
        }
    }
}

#[test]
fn bot_tables_through_a_link_that_delays_stalls_and_cuts_end_honest() {
    let tables = from_env("ARMADA_CHAOS_TABLES", 2);
    let games = from_env("ARMADA_CHAOS_GAMES", 4);
    let (mut reconnects, mut cuts, mut stalls) = (0, 0, 0);
    for table in 0..tables {
        let dir = tempfile::tempdir().unwrap();
        let (c, k, s) = table_through_chaos(dir.path(), games, 0xC4A0_5000 + table as u64);
        reconnects += c;
        cuts += k;
        stalls += s;
    }
    println!(
        "chaos: tables={tables} games={} reconnects={reconnects} cuts={cuts} stalls={stalls}",
        tables * games
    );
    // Not vacuous: the link was really cut, and each cut was followed by a reconnect.
    assert!(cuts >= tables, "the proxy cut the link only {cuts} times");
    assert!(reconnects > 0, "no side ever said the link came back");
}
