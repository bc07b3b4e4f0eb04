//! Network tables run by the driver's own flows (`host`, `join`, the reconnect loop,
//! `play_table`) inside this process: libp2p's in-memory transport instead of
//! sockets, and tokio's paused clock, which jumps to the next deadline whenever
//! every task waits, so minutes of a table's time pass in no time at all.

use std::time::Duration;

use armada::driver::{self, Level, Player, Seating, Session, Store, TableOutcome};
use armada::fair::verify::{Outcome, verify};
use armada::net::Config;
use armada::rules::Variant;
use tokio::sync::{mpsc, oneshot};

/// How long a table may take on the paused clock before the test calls it a hang.
const HANG: Duration = Duration::from_hours(6);

fn in_process() -> Config {
    Config {
        listen: vec!["/memory/0".parse().unwrap()],
        ..Config::default()
    }
}

fn seating(dir: &std::path::Path, player: Player) -> Seating {
    Seating {
        config: in_process(),
        store: Store::open(Some(dir)).unwrap(),
        player,
        watch: None,
        report: None,
        status: None,
    }
}

/// A current-thread runtime on the paused clock.
fn paused() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .unwrap()
}

/// The first invite among the host's lines.
async fn invite(lines: &mut mpsc::UnboundedReceiver<String>) -> String {
    loop {
        let line = lines.recv().await.expect("the host printed its invite");
        if line.starts_with("armada://join/") {
            return line;
        }
    }
}

/// The one transcript saved in the data directory `dir`.
pub(crate) fn transcript(dir: &std::path::Path) -> Vec<u8> {
    let tables = dir.join("tables");
    let path = std::fs::read_dir(&tables)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "armada"))
        .expect("a saved transcript");
    std::fs::read(path).unwrap()
}

#[test]
fn two_computer_players_play_a_network_table_in_process_on_the_paused_clock() {
    let dir = tempfile::tempdir().unwrap();
    let (host_dir, guest_dir) = (dir.path().join("host"), dir.path().join("guest"));
    let (outcomes, lines) = paused().block_on(async {
        let (tx, mut lines) = mpsc::unbounded_channel();
        let mut say = move |line: &str| {
            let _ = tx.send(line.to_owned());
        };
        let settings = driver::settings(Variant::Armada, driver::GRACE_MS);
        let host = driver::host(
            seating(&host_dir, Player::bot(Level::Medium, 2)),
            settings,
            true,
            false,
            &mut say,
        );
        let guest = async {
            let link = invite(&mut lines).await;
            let mut quiet = |_: &str| {};
            driver::join(
                seating(&guest_dir, Player::bot(Level::Easy, 2)),
                &link,
                false,
                &mut quiet,
            )
            .await
        };
        let both = async { tokio::join!(host, guest) };
        let (host, guest) = Box::pin(tokio::time::timeout(HANG, both))
            .await
            .expect("the table ends");
        let mut said = Vec::new();
        while let Ok(line) = lines.try_recv() {
            said.push(line);
        }
        ([host.unwrap(), guest.unwrap()], said)
    });
    for (outcome, side) in outcomes.iter().zip(["host", "guest"]) {
        assert!(outcome.finished, "the {side} played every game: {lines:?}");
        let table = outcome.session.table();
        assert!(
            table.settled().is_some(),
            "{side}: the last game is settled"
        );
        assert_eq!(
            table.game_number(),
            Some(1),
            "{side}: the second game (from 0)"
        );
    }
    assert!(
        lines.iter().any(|l| l.starts_with("address: /memory/")),
        "the table is inside this process: {lines:?}"
    );
    for side in [&host_dir, &guest_dir] {
        assert_eq!(verify(&transcript(side)).outcome, Outcome::Honest);
    }
}

#[test]
fn a_guest_that_vanishes_mid_game_is_claimed_against_after_the_grace_on_the_paused_clock() {
    let dir = tempfile::tempdir().unwrap();
    let (host_dir, guest_dir) = (dir.path().join("host"), dir.path().join("guest"));
    let (host, lines, waited) = paused().block_on(async {
        let (tx, mut lines) = mpsc::unbounded_channel();
        let mut say = move |line: &str| {
            let _ = tx.send(line.to_owned());
        };
        let settings = driver::settings(Variant::Armada, driver::GRACE_MS);
        let host = driver::host(
            seating(&host_dir, Player::bot(Level::Easy, 1)),
            settings,
            true,
            false,
            &mut say,
        );
        // The guest's process dies once a few moves of the game are on the record.
        let (vanish, vanished) = oneshot::channel();
        let mut vanish = Some(vanish);
        let mut guest_seating = seating(&guest_dir, Player::bot(Level::Easy, 1));
        guest_seating.report = Some(Box::new(move |session: &Session, _, _| {
            if session.table().history().len() >= 6
                && let Some(vanish) = vanish.take()
            {
                let _ = vanish.send(tokio::time::Instant::now());
            }
        }));
        let guest = async {
            let link = invite(&mut lines).await;
            let mut quiet = |_: &str| {};
            tokio::select! {
                outcome = driver::join(guest_seating, &link, false, &mut quiet) => {
                    panic!("the guest was to vanish mid-game: {outcome:?}")
                }
                at = vanished => at.unwrap(),
            }
        };
        let both = async { tokio::join!(host, guest) };
        let (host, gone_at) = Box::pin(tokio::time::timeout(HANG, both))
            .await
            .expect("the host gives up on the vanished guest");
        let waited = gone_at.elapsed();
        let mut said = Vec::new();
        while let Ok(line) = lines.try_recv() {
            said.push(line);
        }
        (host.unwrap(), said, waited)
    });
    let TableOutcome { session, finished } = host;
    assert!(!finished, "the game was not played out");
    assert!(
        lines
            .iter()
            .any(|l| l == "the other player is gone: a forfeit is claimed on the record"),
        "{lines:?}"
    );
    let claim = session.table().pending_claim().expect("a forfeit claim");
    assert_eq!(claim.claimant, armada::rules::Seat::Host);
    assert!(
        waited >= Duration::from_millis(driver::GRACE_MS.into()),
        "the host waited out the grace on the table's clock: {waited:?}"
    );
    assert!(
        matches!(
            verify(&transcript(&host_dir)).outcome,
            Outcome::Incomplete(_)
        ),
        "a claimed forfeit leaves the table incomplete"
    );
}
