//! Saved tables on disk: a damaged save is named and refused, never played from, and
//! a side that cannot go on tells the other instead of leaving it to wait.

use std::path::Path;

use armada::rules::{Seat, Variant};
use armada::session::{Event, RestoreError, Session};
use armada::store::{Damaged, Store};
use armada_proto as proto;

use crate::pair::Pair;

/// A table a few actions into its first game, both sides saved in their own stores.
fn saved_mid_game(dir: &Path) -> (Pair, [Store; 2]) {
    let mut pair = Pair::started(Variant::Armada, false, 7);
    for _ in 0..6 {
        pair.step_bots();
        pair.drive();
    }
    let stores = [
        Store::open(Some(&dir.join("host"))).unwrap(),
        Store::open(Some(&dir.join("guest"))).unwrap(),
    ];
    stores[0].save(&pair.host).unwrap();
    stores[1].save(&pair.guest).unwrap();
    (pair, stores)
}

/// Flips one byte in the middle of the file at `path`.
fn flip_middle(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x20;
    std::fs::write(path, bytes).unwrap();
}

/// A guest's meta of a sea-battle table with a friend at a loopback address.
fn guest_meta() -> armada::store::TableMeta {
    armada::store::TableMeta {
        seat: armada::store::SavedSeat::Guest,
        other: armada::store::Other::Peer {
            id: "12D3KooWExample".into(),
            addrs: vec!["/ip4/127.0.0.1/tcp/4001".into()],
        },
        by: armada::store::PlayedBy::Person,
        games: 1,
        game: armada::session::TableGame::Sea,
        knock: Vec::new(),
        gone: None,
    }
}

fn damaged(error: &anyhow::Error) -> &Damaged {
    error
        .downcast_ref::<Damaged>()
        .unwrap_or_else(|| panic!("a damaged save is named as such, not {error:#}"))
}

#[test]
fn a_byte_flipped_in_a_saved_session_is_named_and_nothing_is_restored() {
    let dir = tempfile::tempdir().unwrap();
    let (pair, stores) = saved_mid_game(dir.path());
    let guest = &stores[1];
    let id = pair.guest.table().id();
    let path = guest.session_path(&id);
    flip_middle(&path);
    let before = std::fs::read(&path).unwrap();
    let transcript = std::fs::read(guest.transcript_path(&id)).unwrap();

    let error = guest
        .restore::<armada::driver::Session>(&id, pair.guest.identity().clone(), 0)
        .expect_err("a damaged session is refused");
    let damaged = damaged(&error);
    assert_eq!(damaged.table, id);
    assert_eq!(damaged.intact, pair.guest.table().transcript_len());
    let text = error.to_string();
    for part in [
        &format!("the saved table {} is damaged", hex::encode(id)),
        "nothing was signed from it",
        &format!("first {} frames are intact", damaged.intact),
        "armada verify",
    ] {
        assert!(text.contains(part), "{text:?} lacks {part:?}");
    }
    // Nothing was written: the files are as the disk left them.
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(
        std::fs::read(guest.transcript_path(&id)).unwrap(),
        transcript
    );
    // The host's save, untouched, still restores.
    let host = stores[0]
        .restore::<armada::driver::Session>(&id, pair.host.identity().clone(), 0)
        .unwrap()
        .unwrap();
    assert_eq!(
        host.table().transcript_len(),
        pair.host.table().transcript_len()
    );
}

#[test]
fn a_byte_flipped_in_a_tables_meta_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(Some(dir.path())).unwrap();
    let meta = guest_meta();
    let id = [9; 32];
    store.save_meta(&id, &meta).unwrap();
    assert_eq!(store.load_meta(&id).unwrap(), meta);
    let path = dir
        .path()
        .join("tables")
        .join(format!("{}.meta", hex::encode(id)));
    let text = std::fs::read_to_string(&path).unwrap();
    // A change a JSON reader takes without complaint: the address's port.
    std::fs::write(&path, text.replace("4001", "4002")).unwrap();
    let error = store.load_meta(&id).expect_err("a changed meta is refused");
    assert_eq!(damaged(&error).table, id);
}

#[test]
fn a_snapshot_whose_secrets_do_not_open_the_signed_commitment_is_refused() {
    // Below the store's check: even a snapshot that reads (a bug, or a disk flip
    // the check missed) never restores secrets that would sign false answers.
    let (pair, _) = saved_mid_game(tempfile::tempdir().unwrap().path());
    let saved = pair.guest.save();
    let mut refused_secrets = 0;
    for at in (0..saved.len()).step_by(3) {
        let mut bytes = saved.clone();
        bytes[at] ^= 0x01;
        match Session::restore(pair.guest.identity().clone(), &bytes, 0) {
            Ok(restored) => assert_eq!(
                restored.fleet(),
                pair.guest.fleet(),
                "byte {at} changed the fleet and was restored"
            ),
            Err(RestoreError::Secrets(_)) => refused_secrets += 1,
            Err(_) => {}
        }
    }
    assert!(
        refused_secrets > 100,
        "salts changed one by one are refused as secrets: {refused_secrets}"
    );
}

#[test]
fn a_peer_that_cannot_go_on_is_claimed_at_once_instead_of_after_the_grace() {
    let mut pair = Pair::started(Variant::Armada, true, 11);
    // Play until the guest owes a move; the host waits on it.
    while pair
        .host
        .table()
        .game()
        .is_some_and(|g| g.mover() != Seat::Guest)
    {
        pair.step_bots();
        pair.drive();
    }
    let graced = pair
        .host
        .poll_timeout()
        .expect("the host waits on the guest");
    assert!(graced > pair.now, "the grace runs");
    let id = pair.host.table().id();

    // A word for another table changes nothing.
    pair.host
        .handle_wire(pair.now, &Session::gone_wire([1; 32], "elsewhere"))
        .unwrap();
    assert_eq!(pair.host.peer_gone(), None);
    assert_eq!(pair.host.poll_timeout(), Some(graced));

    pair.host
        .handle_wire(
            pair.now,
            &Session::gone_wire(id, "its saved table is damaged"),
        )
        .unwrap();
    assert_eq!(pair.host.peer_gone(), Some("its saved table is damaged"));
    assert!(pair.host.poll_timeout().unwrap() <= pair.now, "due at once");
    pair.collect();
    assert!(
        pair.events[0]
            .iter()
            .any(|e| *e == Event::PeerGone("its saved table is damaged".into()))
    );
    pair.host.handle_timeout(pair.now);
    let claim = pair
        .host
        .table()
        .pending_claim()
        .expect("the host claims the guest's move at once");
    assert_eq!(claim.claimant, Seat::Host);
    assert_eq!(claim.owed, proto::Owed::Move);
}

#[test]
fn a_gone_text_is_bounded_on_the_wire() {
    let long = "é".repeat(proto::MAX_TEXT);
    let bytes = Session::gone_wire([3; 32], &long);
    let Ok(proto::Wire::Gone { reason, .. }) = proto::decode_wire(&bytes) else {
        panic!("a gone message decodes");
    };
    assert!(reason.len() <= proto::MAX_TEXT && long.starts_with(&reason));
}

/// Plays the current game of `pair` on to its settlement; false if it stalled.
fn played_on(pair: &mut Pair) -> bool {
    for _ in 0..10_000 {
        pair.drive();
        if pair.host.table().settled().is_some() && pair.guest.table().settled().is_some() {
            return true;
        }
        if !armada::driver::step(&mut pair.host, &mut pair.guest, pair.now, &mut pair.rng)
            .unwrap_or(false)
        {
            return false;
        }
    }
    false
}

/// Whether `verify` names a lie in `bytes`, a transcript file.
fn names_a_lie(bytes: &[u8]) -> Option<String> {
    match armada::fair::verify::verify(bytes).outcome {
        armada::fair::verify::Outcome::Lie(lie) => Some(lie.to_string()),
        _ => None,
    }
}

#[test]
fn a_bit_flipped_anywhere_in_a_saved_table_never_leads_to_a_signed_lie() {
    // Regression: a resumed side took its own saved frames on trust, so a flipped
    // bit in one of them made it sign "the host lied" about itself, or — a changed
    // signature changing the frame's hash — accuse the honest guest of citing a
    // message never sent.
    let dir = tempfile::tempdir().unwrap();
    let (pair, stores) = saved_mid_game(dir.path());
    let id = pair.host.table().id();
    let identities = [pair.host.identity().clone(), pair.guest.identity().clone()];
    let (mut refused, mut restored) = (0, 0);
    for seat in Seat::BOTH {
        let store = &stores[seat.index()];
        for path in [store.session_path(&id), store.transcript_path(&id)] {
            let good = std::fs::read(&path).unwrap();
            for at in 0..good.len() {
                let mut bytes = good.clone();
                bytes[at] ^= 1 << (at % 8);
                std::fs::write(&path, &bytes).unwrap();
                if let Some(lie) = names_a_lie(&bytes) {
                    panic!("verify of {} with byte {at} flipped: {lie}", path.display());
                }
                let result = store.restore::<Session>(&id, identities[seat.index()].clone(), 0);
                let session = match result {
                    Err(error) => {
                        assert_eq!(damaged(&error).table, id, "byte {at}: {error:#}");
                        refused += 1;
                        continue;
                    }
                    Ok(session) => session.expect("the table is saved"),
                };
                restored += 1;
                // It restored: the flip changed nothing that matters. Play on with the
                // other side as saved; nobody may be named a liar.
                let other = stores[seat.other().index()]
                    .restore::<Session>(&id, identities[seat.other().index()].clone(), 0)
                    .unwrap()
                    .unwrap();
                let mut on = Pair::new(Variant::Armada, false, at as u64);
                *on.session(seat) = session;
                *on.session(seat.other()) = other;
                assert!(played_on(&mut on), "byte {at} of {}", path.display());
                for side in Seat::BOTH {
                    let file = on.session(side).table().transcript_file();
                    if let Some(lie) = names_a_lie(&file) {
                        panic!("byte {at} of {} led to a signed lie: {lie}", path.display());
                    }
                }
            }
            std::fs::write(&path, &good).unwrap();
        }
    }
    // Nearly every byte is covered by a check or a signature.
    assert!(
        refused > 10 * restored,
        "refused {refused}, restored {restored}"
    );
}

#[test]
fn plain_resume_names_a_damaged_meta_instead_of_finding_no_table() {
    // Regression: the newest network table, its meta damaged, was passed over, and
    // `armada resume` said there was no table to resume.
    let dir = tempfile::tempdir().unwrap();
    let (pair, stores) = saved_mid_game(dir.path());
    let store = &stores[1];
    let id = pair.guest.table().id();
    let meta = guest_meta();
    store.save_meta(&id, &meta).unwrap();
    assert_eq!(armada::driver::saved_table(store, None).unwrap().0, id);
    let path = dir
        .path()
        .join("guest")
        .join("tables")
        .join(format!("{}.meta", hex::encode(id)));
    flip_middle(&path);
    let error = armada::driver::saved_table(store, None).expect_err("a damaged meta is named");
    assert_eq!(damaged(&error).table, id, "{error:#}");
}

/// Runs `f` on a thread of its own: a read that never ends fails the test by name
/// instead of hanging the run.
fn within_a_minute<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(f()));
    receive
        .recv_timeout(std::time::Duration::from_mins(1))
        .unwrap_or_else(|_| panic!("{what} never returned: it waits on the file"))
}

#[test]
fn a_saved_file_grown_huge_or_turned_into_a_pipe_is_named_without_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let (pair, stores) = saved_mid_game(dir.path());
    let [_, guest] = stores;
    let id = pair.guest.table().id();
    let identity = pair.guest.identity().clone();
    guest.save_meta(&id, &guest_meta()).unwrap();

    // A transcript one byte past the largest there can be: a sparse file, so the
    // disk holds nothing, but reading it whole would take 256 MiB of memory.
    let transcript = guest.transcript_path(&id);
    std::fs::remove_file(&transcript).unwrap();
    std::fs::File::create(&transcript)
        .unwrap()
        .set_len(proto::MAX_TRANSCRIPT as u64 + 1)
        .unwrap();
    let error = guest
        .restore::<armada::driver::Session>(&id, identity.clone(), 0)
        .expect_err("an oversized transcript is refused");
    assert_eq!(damaged(&error).table, id);
    assert!(format!("{error:#}").contains("more than"), "{error:#}");
    let listed = armada::driver::saved_tables(&guest, 10);
    assert_eq!(listed.unreadable, 1, "the table is counted as unreadable");

    // The snapshot a pipe: opening it would wait for a writer that never comes.
    let session = guest.session_path(&id);
    std::fs::remove_file(&session).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&session)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", session.display());
    let error = within_a_minute("restoring from a pipe", move || {
        guest
            .restore::<armada::driver::Session>(&id, identity, 0)
            .map(|_| ())
            .map_err(|e| (damaged(&e).table, format!("{e:#}")))
    })
    .expect_err("a pipe is refused");
    assert_eq!(error.0, id);
    assert!(error.1.contains("not a regular file"), "{}", error.1);
}

#[test]
fn a_damaged_transcript_is_named_as_the_damaged_file() {
    let dir = tempfile::tempdir().unwrap();
    let (pair, stores) = saved_mid_game(dir.path());
    let guest = &stores[1];
    let id = pair.guest.table().id();
    let transcript = guest.transcript_path(&id);
    flip_middle(&transcript);
    let error = guest
        .restore::<armada::driver::Session>(&id, pair.guest.identity().clone(), 0)
        .expect_err("a damaged transcript is refused");
    let what = &damaged(&error).what;
    assert!(
        what.starts_with(&transcript.display().to_string()),
        "names the transcript: {what}"
    );
    assert!(
        !what.contains(&guest.session_path(&id).display().to_string()),
        "{what}"
    );
}
