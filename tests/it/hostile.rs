//! Hostile input: garbage, truncated, oversized, mutated, replayed and reordered frames are
//! refused with a typed error, change nothing, and the honest game goes on to its end.

use armada::fair::table::Rejected;
use armada::rules::{Game, Seat, Variant};
use armada::session::Event;
use armada::session::Session;
use armada_proto::{DecodeError, ErrorCode, Wire};
use rand::RngExt;

use crate::pair::Pair;

/// What must not change when a frame is refused: transcript length, both chain heads, the game.
type State = (usize, (u32, [u8; 32]), (u32, [u8; 32]), Option<Game>);

fn state(session: &Session) -> State {
    let table = session.table();
    (
        table.transcript().len(),
        table.chain_head(Seat::Host),
        table.chain_head(Seat::Guest),
        table.game().cloned(),
    )
}

/// A pair a few actions into a game, with the next frame to the guest held back.
fn mid_game(seed: u64) -> (Pair, Vec<u8>) {
    let mut pair = Pair::new(Variant::Armada, false, seed);
    for _ in 0..40 {
        pair.drive();
        pair.step_bots();
    }
    pair.collect();
    while pair.wire[Seat::Guest.index()].is_empty() {
        pair.drive();
        assert!(pair.step_bots(), "the game goes on");
        pair.collect();
    }
    let frame = pair.wire[Seat::Guest.index()].pop_front().unwrap();
    (pair, frame)
}

fn refused(pair: &mut Pair, bytes: &[u8]) -> Rejected {
    let before = state(&pair.guest);
    let error = pair.guest.handle_message(0, bytes).expect_err("refused");
    assert_eq!(
        state(&pair.guest),
        before,
        "a refused frame changes nothing ({error})"
    );
    error
}

fn finish(mut pair: Pair, frame: Vec<u8>) {
    pair.wire[Seat::Guest.index()].push_front(frame);
    let verdicts = pair.play_game();
    assert!(
        matches!(verdicts[0], armada::fair::table::Verdict::Honest(_)),
        "{:?}",
        verdicts[0]
    );
    assert_eq!(verdicts[0], verdicts[1]);
}

#[test]
fn random_bytes_of_any_length_are_refused() {
    let (mut pair, frame) = mid_game(1);
    for len in [0, 1, 2, 63, 64, 65, 100, 500, 4000, 16_384] {
        let junk: Vec<u8> = (0..len).map(|_| pair.rng.random()).collect();
        refused(&mut pair, &junk);
    }
    finish(pair, frame);
}

#[test]
fn every_truncation_of_a_real_frame_is_refused() {
    let (mut pair, frame) = mid_game(2);
    for len in 0..frame.len() {
        refused(&mut pair, &frame[..len]);
    }
    finish(pair, frame);
}

#[test]
fn an_oversized_frame_is_refused_before_decoding() {
    let (mut pair, frame) = mid_game(3);
    let mut huge = frame.clone();
    huge.resize(armada_proto::MAX_FRAME + 1, 0);
    assert_eq!(
        refused(&mut pair, &huge),
        Rejected::Decode(DecodeError::TooLarge(armada_proto::MAX_FRAME + 1))
    );
    finish(pair, frame);
}

#[test]
fn mutated_frames_are_refused() {
    let (mut pair, frame) = mid_game(4);
    for _ in 0..2000 {
        let mut bad = frame.clone();
        let flips = pair.rng.random_range(1..4);
        for _ in 0..flips {
            let at = pair.rng.random_range(0..bad.len());
            bad[at] ^= pair.rng.random_range(1..=255u8);
        }
        refused(&mut pair, &bad);
    }
    // Bytes appended after the signature move the signature: refused too.
    let mut longer = frame.clone();
    longer.push(0);
    refused(&mut pair, &longer);
    finish(pair, frame);
}

#[test]
fn a_replayed_frame_is_refused_once_taken_in() {
    let (mut pair, frame) = mid_game(5);
    pair.guest.handle_message(0, &frame).unwrap();
    pair.collect();
    let error = refused(&mut pair, &frame);
    // What a reconnecting peer re-sends is no news to the player, nor to the peer.
    while let Some(event) = pair.guest.poll_event() {
        assert!(!matches!(event, Event::Refused(_)), "{event:?}");
    }
    assert!(pair.guest.poll_transmit().is_none(), "no refusal goes back");
    assert!(
        matches!(
            error,
            Rejected::Duplicate {
                from: Seat::Host,
                ..
            }
        ),
        "{error}"
    );
    let verdicts = pair.play_game();
    assert_eq!(verdicts[0], verdicts[1]);
}

#[test]
fn reordered_frames_wait_for_their_turn() {
    let mut pair = Pair::new(Variant::Armada, false, 6);
    // The host's hello and settings arrive in reverse order.
    pair.collect();
    let hello = pair.wire[Seat::Host.index()].pop_front().unwrap();
    pair.host.handle_message(0, &hello).unwrap();
    pair.collect();
    let mut to_guest: Vec<Vec<u8>> = pair.wire[Seat::Guest.index()].drain(..).collect();
    assert!(to_guest.len() >= 2, "hello and settings in flight");
    to_guest.reverse();
    let early = pair.guest.handle_message(0, &to_guest[0]);
    assert_eq!(
        early,
        Err(Rejected::NoHello),
        "settings before the hello cannot be checked yet"
    );
    for frame in &to_guest[1..] {
        let _ = pair.guest.handle_message(0, frame);
    }
    assert!(
        pair.guest.table().settings().is_some(),
        "the held frame was taken in once its turn came"
    );
    let verdicts = pair.play_game();
    assert!(matches!(
        verdicts[0],
        armada::fair::table::Verdict::Honest(_)
    ));
}

/// The refusal the guest has queued for the host, if any.
fn told(pair: &mut Pair) -> Option<armada_proto::ProtocolError> {
    let mut refusal = None;
    while let Some(bytes) = pair.guest.poll_wire() {
        match armada_proto::decode_wire(&bytes).unwrap() {
            Wire::Error(error) => refusal = Some(error),
            Wire::Frame(frame) => pair.wire[Seat::Host.index()].push_back(frame),
            Wire::Sync { .. } | Wire::Gone { .. } => {
                unreachable!("a session sends a sync only when asked, and never gone")
            }
        }
    }
    refusal
}

#[test]
fn a_refusal_is_told_to_the_peer_once_per_accepted_frame_and_changes_nothing() {
    let (mut pair, frame) = mid_game(7);
    let junk = vec![0xff; 80];
    let before = state(&pair.guest);
    let error = pair
        .guest
        .handle_wire(0, &armada_proto::encode_wire(&Wire::Frame(junk.clone())))
        .expect_err("junk is refused");
    assert_eq!(state(&pair.guest), before, "{error}");
    let refusal = told(&mut pair).expect("the peer is told why");
    assert_eq!(refusal.code, ErrorCode::Malformed);
    assert_eq!(refusal.refused, armada::fair::sign::frame_hash(&junk));
    assert_eq!(refusal.detail, error.to_string());
    // More junk before the next good frame: refused, but not told again (no echo flood).
    for _ in 0..100 {
        refused(&mut pair, &junk);
    }
    assert_eq!(told(&mut pair), None);
    // Junk that is not even a stream message is refused the same way.
    assert!(pair.guest.handle_wire(0, &[9, 9, 9]).is_err());
    assert_eq!(told(&mut pair), None);
    pair.guest
        .handle_wire(0, &armada_proto::encode_wire(&Wire::Frame(frame)))
        .expect("the held frame is taken in");
    refused(&mut pair, &junk);
    assert!(told(&mut pair).is_some(), "told again after a good frame");

    // The host hears the refusal as an event, and nothing changes on its side.
    let before = state(&pair.host);
    let bytes = armada_proto::encode_wire(&Wire::Error(refusal.clone()));
    pair.host.handle_wire(0, &bytes).unwrap();
    assert_eq!(state(&pair.host), before);
    assert!(
        std::iter::from_fn(|| pair.host.poll_event())
            .any(|e| e == Event::PeerRefused(refusal.clone()))
    );
    let verdicts = pair.play_game();
    assert!(matches!(
        verdicts[0],
        armada::fair::table::Verdict::Honest(_)
    ));
    assert_eq!(verdicts[0], verdicts[1]);
}

#[test]
fn another_version_and_an_uninvited_guest_are_told_by_code() {
    let (mut pair, frame) = mid_game(8);
    let mut other = frame.clone();
    other[0] = 1; // the version before this one, first in the body
    refused(&mut pair, &other);
    assert_eq!(told(&mut pair).map(|e| e.code), Some(ErrorCode::Version));
    finish(pair, frame);

    // A guest with the wrong table secret: the host refuses its hello.
    let secret = [1; 32];
    let mut host = Session::host(
        armada::fair::sign::Identity::generate(),
        secret,
        crate::pair::settings(Variant::Armada),
    );
    let mut stranger = Session::guest(armada::fair::sign::Identity::generate(), [2; 32]);
    let hello = stranger.poll_wire().unwrap();
    assert_eq!(host.handle_wire(0, &hello), Err(Rejected::NotInvited));
    assert!(host.table().key(Seat::Guest).is_none());
    let reply = armada_proto::decode_wire(&host.poll_wire().unwrap()).unwrap();
    assert!(
        matches!(reply, Wire::Error(ref e) if e.code == ErrorCode::NotInvited),
        "{reply:?}"
    );
    assert_eq!(host.poll_wire(), None, "nothing else is sent to a stranger");
}

#[test]
fn a_sync_sends_again_the_same_signed_frames_and_nothing_else() {
    let (mut pair, frame) = mid_game(9);
    pair.wire[Seat::Guest.index()].push_front(frame);
    pair.drive();
    let own: Vec<Vec<u8>> = pair
        .host
        .table()
        .transcript()
        .iter()
        .filter(|(seat, _)| *seat == Seat::Host)
        .map(|(_, bytes)| bytes.clone())
        .collect();
    let table = pair.host.table().id();
    let sync = |table: [u8; 32], next: u32| armada_proto::encode_wire(&Wire::Sync { table, next });
    // Another table's sync, or one beyond the chain, is ignored.
    let before = state(&pair.host);
    pair.host.handle_wire(0, &sync([9; 32], 0)).unwrap();
    pair.host
        .handle_wire(0, &sync(table, own.len() as u32 + 1))
        .unwrap();
    assert_eq!(pair.host.poll_wire(), None);
    // The guest says it holds the host's frames up to 2: frames 3.. come again, unchanged.
    pair.host.handle_wire(0, &sync(table, 3)).unwrap();
    let again: Vec<Vec<u8>> = std::iter::from_fn(|| pair.host.poll_wire())
        .map(|bytes| match armada_proto::decode_wire(&bytes).unwrap() {
            Wire::Frame(frame) => frame,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(again, own[3..].to_vec());
    assert_eq!(
        state(&pair.host),
        before,
        "a sync changes nothing but the outbox"
    );
    // The guest drops them all as duplicates, and the game goes on to its end.
    for frame in &again {
        assert!(matches!(
            pair.guest.handle_message(0, frame),
            Err(Rejected::Duplicate { .. })
        ));
    }
    let verdicts = pair.play_game();
    assert!(matches!(
        verdicts[0],
        armada::fair::table::Verdict::Honest(_)
    ));
}
