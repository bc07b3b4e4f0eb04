//! The fuzz targets' corpus and regressions, replayed on stable: every file of
//! `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/` through `armada::fuzz`.
//!
//! `write_corpus` (ignored) generates the seed corpus from real games:
//! `cargo test --test it fuzz::write_corpus -- --ignored`.

use std::fs;
use std::path::{Path, PathBuf};

use armada::driver::Duet;
use armada::fair::table::Verdict;
use armada::fuzz::{self, Cmd, Edit, GameChoice, Junk, Op, Setup, Side};
use armada::rules::{Action, Seat, Variant};
use armada::session::Command;
use armada_proto::{self as proto, Payload, Wire};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

/// A fuzz target's body.
type Target = fn(&[u8]);

const TARGETS: [(&str, Target); 4] = [
    ("wire", fuzz::wire),
    ("session", fuzz::session),
    ("verifier", fuzz::verifier),
    ("invite", fuzz::invite),
];

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The files of a directory, sorted; none if it does not exist.
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn replay(kind: &str, must_exist: bool) {
    let mut total = 0;
    for (target, run) in TARGETS {
        let dir = fuzz_dir().join(kind).join(target);
        let inputs = files(&dir);
        assert!(
            !must_exist || !inputs.is_empty(),
            "{} holds no inputs",
            dir.display()
        );
        for input in inputs {
            let bytes = fs::read(&input).unwrap();
            let outcome = std::panic::catch_unwind(|| run(&bytes));
            assert!(outcome.is_ok(), "{} fails", input.display());
            total += 1;
        }
    }
    assert!(total > 0, "no {kind} inputs at all");
}

#[test]
fn every_corpus_input_passes() {
    replay("corpus", true);
}

#[test]
fn every_regression_input_passes() {
    replay("regressions", false);
}

/// Every operation, written by `armada::fuzz::Seed` and read back by `arbitrary`.
fn every_op() -> Vec<Op> {
    let commands = [
        Cmd::Place { foreign: true },
        Cmd::Start,
        Cmd::Shot(143),
        Cmd::Torpedo {
            heading: 3,
            line: 9,
        },
        Cmd::AirStrike(55),
        Cmd::Radar(0),
        Cmd::OfferDraw,
        Cmd::AnswerDraw(true),
        Cmd::Resign,
        Cmd::PlayAgain,
        Cmd::Leave,
    ];
    let mut ops = vec![
        Op::Deliver(Side::Guest),
        Op::DeliverRaw(Side::Host),
        Op::Flush,
        Op::Drop(Side::Guest),
        Op::Duplicate(Side::Host),
        Op::Swap(Side::Guest),
        Op::Replay {
            to: Side::Host,
            back: 7,
        },
        Op::Mutate {
            to: Side::Guest,
            at: 300,
            xor: 0x80,
        },
        Op::Truncate {
            to: Side::Host,
            keep: 65,
        },
        Op::Misroute(Side::Guest),
        Op::Forge(Side::Host),
        Op::Garbage {
            to: Side::Guest,
            bytes: Junk(vec![0, 1, 2, 255]),
        },
        Op::Wait(1875),
        Op::Deadline,
        Op::Bot(Side::Host),
        Op::Restart(Side::Guest),
        Op::Reconnect,
    ];
    ops.extend(commands.map(|command| Op::Command {
        side: Side::Guest,
        command,
    }));
    ops
}

#[test]
fn seeds_read_back_as_written() {
    let setup = Setup {
        game: GameChoice::Classic12,
        timer: true,
        seed: 0xbeef,
    };
    let ops = every_op();
    let (read, back) = fuzz::session_ops(&fuzz::session_input(setup, &ops));
    assert_eq!((read, back), (setup, ops));
    for game in [
        GameChoice::Armada,
        GameChoice::Classic8,
        GameChoice::Classic10,
    ] {
        let setup = Setup {
            game,
            timer: false,
            seed: 1,
        };
        assert_eq!(fuzz::session_ops(&fuzz::session_input(setup, &[])).0, setup);
    }
}

// ---------------------------------------------------------------------------
// The seed corpus

fn write(target: &str, name: &str, bytes: &[u8]) {
    let dir = fuzz_dir().join("corpus").join(target);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(name), bytes).unwrap();
}

/// A whole honest table of one game, played by two sessions in memory: its transcript.
fn honest_transcript(variant: Variant, seed: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut duet = Duet::new(variant).unwrap();
    assert!(duet.play_game(&mut rng));
    let file = duet.guest.table().transcript_file();
    assert_eq!(
        armada::fair::verify::verify(&file).outcome,
        armada::fair::verify::Outcome::Honest
    );
    file
}

/// An Armada game where every weapon was used, resigned after `actions` actions.
fn resigned_transcript(seed: u64, actions: usize) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut duet = Duet::new(Variant::Armada).unwrap();
    loop {
        duet.deliver();
        let history = duet.host.table().history();
        let used = |f: fn(&Action) -> bool| history.iter().any(|p| f(&p.action));
        if history.len() >= actions
            && used(|a| matches!(a, Action::Torpedo(_)))
            && used(|a| matches!(a, Action::AirStrike(_)))
            && used(|a| matches!(a, Action::Radar(_)))
            && duet.host.table().pending().is_none()
        {
            break;
        }
        assert!(duet.step(&mut rng), "the game goes on");
        assert!(duet.host.table().settled().is_none(), "no weapons used");
    }
    duet.host.handle_command(0, Command::Resign).unwrap();
    duet.deliver();
    assert!(duet.guest.table().settled().is_some());
    duet.guest.table().transcript_file()
}

fn payload_name(payload: &Payload) -> &'static str {
    match payload {
        Payload::Hello { join: Some(_), .. } => "hello-guest",
        Payload::Hello { join: None, .. } => "hello-host",
        Payload::CodeHello { .. } => "hello-code",
        Payload::Settings(_) => "settings",
        Payload::Nonce { .. } => "nonce",
        Payload::Commit { .. } => "commit",
        Payload::Start { .. } => "start",
        Payload::Act { action, .. } => match action {
            proto::WireAction::Shot { .. } => "act-shot",
            proto::WireAction::Torpedo { .. } => "act-torpedo",
            proto::WireAction::AirStrike { .. } => "act-air-strike",
            proto::WireAction::Radar { .. } => "act-radar",
        },
        Payload::Answer { openings, .. } if openings.len() > 1 => "answer-many",
        Payload::Answer { .. } => "answer-one",
        Payload::DrawOffer { .. } => "draw-offer",
        Payload::DrawAnswer { .. } => "draw-answer",
        Payload::Resign { .. } => "resign",
        Payload::Lie { .. } => "lie",
        Payload::Forfeit { .. } => "forfeit",
        Payload::Reveal { .. } => "reveal",
        Payload::Verdict { .. } => "verdict",
        Payload::PlayAgain { .. } => "play-again",
        Payload::Leave { .. } => "leave",
        Payload::Move { .. } => "move",
        Payload::Ice { .. } => "ice",
    }
}

fn write_wire_corpus(resigned: &[u8]) {
    let transcript = proto::decode_transcript(resigned).unwrap();
    let mut kinds = std::collections::BTreeMap::new();
    for frame in &transcript.frames {
        let decoded = proto::Frame::decode(&frame.bytes).unwrap();
        kinds
            .entry(payload_name(&decoded.body.payload))
            .or_insert_with(|| frame.bytes.clone());
    }
    for (name, bytes) in &kinds {
        write("wire", &format!("frame-{name}"), bytes);
    }
    // A torpedo's answer as the stream carries it, and the body alone.
    let answer = &kinds["answer-many"];
    write(
        "wire",
        "stream-frame",
        &proto::encode_wire(&Wire::Frame(answer.clone())),
    );
    write(
        "wire",
        "body-answer-many",
        &answer[..answer.len() - proto::SIGNATURE_LEN],
    );
    write(
        "wire",
        "stream-error",
        &proto::encode_wire(&Wire::Error(proto::ProtocolError {
            version: proto::PROTOCOL_VERSION,
            code: proto::ErrorCode::Signature,
            refused: [7; 32],
            detail: "the message is not signed by the host's key".into(),
        })),
    );
    write(
        "wire",
        "stream-sync",
        &proto::encode_wire(&Wire::Sync {
            table: transcript.table,
            next: 12,
        }),
    );
    // The table's opening: hellos, settings, nonces, commits, start.
    let opening = proto::Transcript {
        frames: transcript.frames[..8].to_vec(),
        ..transcript
    };
    write(
        "wire",
        "transcript-opening",
        &proto::encode_transcript(&opening),
    );
}

fn write_verifier_corpus(resigned: &[u8]) {
    let classic = honest_transcript(Variant::Classic(armada::rules::BoardSize::SMALL), 5);
    write(
        "verifier",
        "honest-classic8",
        &fuzz::verifier_input(&[], &classic),
    );
    write(
        "verifier",
        "resigned-armada",
        &fuzz::verifier_input(&[], resigned),
    );
    let frames = u16::try_from(proto::decode_transcript(resigned).unwrap().frames.len()).unwrap();
    let edited: [(&str, &[Edit]); 2] = [
        ("edit-cut", &[Edit::Cut(frames / 2)]),
        (
            "edit-swap-flip-reseat",
            &[
                Edit::Swap(frames - 3, frames - 2),
                Edit::Flip {
                    frame: 9,
                    at: 40,
                    xor: 1,
                },
                Edit::Reseat(3),
            ],
        ),
    ];
    for (name, edits) in edited {
        write("verifier", name, &fuzz::verifier_input(edits, resigned));
    }
}

fn write_invite_corpus() {
    let key = libp2p_identity::ed25519::SecretKey::try_from_bytes([9; 32]).unwrap();
    let peer = libp2p_identity::Keypair::from(libp2p_identity::ed25519::Keypair::from(key))
        .public()
        .to_peer_id();
    let addrs: Vec<libp2p::Multiaddr> = [
        "/ip4/192.168.1.20/tcp/40123".to_string(),
        "/ip6/fe80::1/udp/40123/quic-v1".to_string(),
        format!("/ip4/203.0.113.5/tcp/4001/p2p/{peer}/p2p-circuit"),
    ]
    .iter()
    .map(|a| a.parse().unwrap())
    .collect();
    let invite = proto::Invite {
        version: 1,
        peer: peer.to_bytes(),
        addrs: addrs.iter().map(libp2p::Multiaddr::to_vec).collect(),
        secret: [0x42; 32],
    };
    write("invite", "link", invite.to_link().as_bytes());
    write(
        "invite",
        "code-padded",
        format!("  {}\n", invite.to_code()).as_bytes(),
    );
    let bare = proto::Invite {
        addrs: Vec::new(),
        ..invite.clone()
    };
    write("invite", "link-no-address", bare.to_link().as_bytes());
    let offer = |invite| proto::LanOffer {
        version: proto::LAN_OFFER_VERSION,
        game: proto::GameKind::Classic { side: 12 },
        invite,
        rendezvous: Some(4821),
    };
    write("invite", "lan-offer", &offer(Some(invite)).encode());
    write("invite", "lan-offer-no-invite", &offer(None).encode());
}

/// Rounds of (host's player, guest's player, deliver everything).
fn bot_rounds(rounds: usize) -> Vec<Op> {
    (0..rounds)
        .flat_map(|_| [Op::Bot(Side::Host), Op::Bot(Side::Guest), Op::Flush])
        .collect()
}

/// `prefix`, then enough `round`s to settle the first game at both sides: half as many
/// again as it took once (air strikes fall by the sessions' own randomness, so a
/// replay may take longer; the computer players stop after one game).
fn until_settled(setup: Setup, prefix: &[Op], round: &[Op]) -> Vec<Op> {
    let with = |rounds: usize| {
        let mut ops = prefix.to_vec();
        for _ in 0..rounds {
            ops.extend_from_slice(round);
        }
        ops
    };
    for rounds in (10..2000).step_by(10) {
        let run = fuzz::session_run(&fuzz::session_input(setup, &with(rounds)));
        if run.verdicts.iter().all(|v| !v.is_empty()) {
            assert!(matches!(run.verdicts[0][0], Verdict::Honest(_)));
            return with(rounds * 3 / 2);
        }
    }
    panic!("the game did not end");
}

fn setup(game: GameChoice, timer: bool, seed: u16) -> Setup {
    Setup { game, timer, seed }
}

fn command(side: Side, command: Cmd) -> Op {
    Op::Command { side, command }
}

fn write_session(name: &str, setup: Setup, ops: &[Op]) {
    write("session", name, &fuzz::session_input(setup, ops));
}

/// Whole games: straight through, and with the timer on where the host never moves
/// (its client fires timeout shots at each deadline).
fn whole_game_seeds() {
    let armada = setup(GameChoice::Armada, false, 1);
    write_session(
        "armada-whole-game",
        armada,
        &until_settled(armada, &[], &bot_rounds(1)),
    );
    let timed = setup(GameChoice::Classic8, true, 2);
    let mut prefix = bot_rounds(4);
    prefix.push(Op::Deadline);
    let timeouts = [Op::Bot(Side::Guest), Op::Flush, Op::Deadline, Op::Flush];
    write_session(
        "classic8-timeout-shots",
        timed,
        &until_settled(timed, &prefix, &timeouts),
    );
}

/// A whole game over a bad link: drops, duplicates, swaps, corruption, replays, a
/// stranger's frames, reconnections.
fn bad_link_seed() {
    let chaos = setup(GameChoice::Armada, false, 3);
    let bad_link = [
        Op::Bot(Side::Host),
        Op::Deliver(Side::Guest),
        Op::Duplicate(Side::Host),
        Op::Swap(Side::Guest),
        Op::Bot(Side::Guest),
        Op::Mutate {
            to: Side::Host,
            at: 77,
            xor: 4,
        },
        Op::Forge(Side::Guest),
        Op::Flush,
        Op::Replay {
            to: Side::Host,
            back: 2,
        },
        Op::Drop(Side::Guest),
        Op::Bot(Side::Host),
        Op::Bot(Side::Guest),
        Op::DeliverRaw(Side::Guest),
        Op::Misroute(Side::Host),
        Op::Flush,
        Op::Bot(Side::Host),
        Op::Truncate {
            to: Side::Guest,
            keep: 70,
        },
        Op::Reconnect,
        Op::Flush,
    ];
    write_session(
        "armada-bad-link",
        chaos,
        &until_settled(chaos, &[], &bad_link),
    );
}

/// A whole game where each side restarts from its snapshot: while the table opens,
/// after placing, and in the middle of the game.
fn restarts_seed() {
    let mut restarts = vec![
        Op::Deliver(Side::Host),
        Op::Restart(Side::Host),
        Op::Flush,
        Op::Bot(Side::Host),
        Op::Bot(Side::Guest),
        Op::Restart(Side::Guest),
        Op::Flush,
    ];
    restarts.extend(bot_rounds(20));
    restarts.extend([
        Op::Bot(Side::Host),
        Op::Bot(Side::Guest),
        Op::Restart(Side::Host),
        Op::Flush,
        Op::Restart(Side::Guest),
        Op::Flush,
    ]);
    let restarted = setup(GameChoice::Classic12, true, 5);
    write_session(
        "classic12-restarts",
        restarted,
        &until_settled(restarted, &restarts, &bot_rounds(1)),
    );
}

/// Crossing draw offers (both lapse), an offer accepted, another game, crossing
/// resignations, then the host leaves.
fn draw_seed() {
    let mut draw = bot_rounds(12);
    draw.extend([
        command(Side::Host, Cmd::OfferDraw),
        command(Side::Guest, Cmd::OfferDraw),
        Op::Flush,
        Op::Bot(Side::Host),
        Op::Bot(Side::Guest),
        Op::Flush,
        command(Side::Host, Cmd::OfferDraw),
        command(Side::Guest, Cmd::OfferDraw),
        Op::Flush,
        command(Side::Guest, Cmd::AnswerDraw(true)),
        command(Side::Host, Cmd::AnswerDraw(true)),
        Op::Flush,
        command(Side::Host, Cmd::PlayAgain),
        command(Side::Guest, Cmd::PlayAgain),
        Op::Flush,
    ]);
    draw.extend(bot_rounds(6));
    draw.extend([
        command(Side::Guest, Cmd::Resign),
        command(Side::Host, Cmd::Resign),
        Op::Flush,
        command(Side::Host, Cmd::Leave),
        Op::Flush,
    ]);
    write_session(
        "draw-resign-leave",
        setup(GameChoice::Classic10, false, 4),
        &draw,
    );
}

/// Players typing commands: every weapon, off-board cells, a foreign fleet.
fn typed_seed() {
    let mut typed = vec![
        command(Side::Host, Cmd::Place { foreign: true }),
        command(Side::Host, Cmd::Place { foreign: false }),
        Op::Flush,
        command(Side::Guest, Cmd::Place { foreign: false }),
        Op::Flush,
        command(Side::Guest, Cmd::Start),
        command(Side::Host, Cmd::Start),
        Op::Flush,
    ];
    for cell in [0, 13, 26, 50, 77, 99, 120, 143] {
        for side in [Side::Host, Side::Guest] {
            typed.extend([
                command(side, Cmd::Radar(cell)),
                command(side, Cmd::AirStrike(cell + 1)),
                command(
                    side,
                    Cmd::Torpedo {
                        heading: cell,
                        line: cell % 11,
                    },
                ),
                command(side, Cmd::Shot(cell + 2)),
                Op::Flush,
            ]);
        }
    }
    write_session(
        "typed-commands",
        setup(GameChoice::Armada, false, 1),
        &typed,
    );
}

/// Garbage and misdirected frames while the table opens.
fn hostile_seed() {
    let hostile = [
        Op::Garbage {
            to: Side::Host,
            bytes: Junk(vec![0, 70, 1, 2, 3]),
        },
        Op::Misroute(Side::Host),
        Op::Reconnect,
        Op::Deliver(Side::Host),
        Op::Forge(Side::Host),
        Op::Flush,
        Op::Garbage {
            to: Side::Guest,
            bytes: Junk(vec![2, 0, 0, 0]),
        },
        Op::Replay {
            to: Side::Guest,
            back: 1,
        },
        Op::Bot(Side::Guest),
        Op::Bot(Side::Host),
        Op::Flush,
        Op::Restart(Side::Host),
        Op::Flush,
    ];
    write_session(
        "hostile-opening",
        setup(GameChoice::Classic8, true, 2),
        &hostile,
    );
}

fn write_session_corpus() {
    whole_game_seeds();
    bad_link_seed();
    restarts_seed();
    draw_seed();
    typed_seed();
    hostile_seed();
}

#[test]
#[ignore = "writes fuzz/corpus; run by hand after a protocol change"]
fn write_corpus() {
    let resigned = resigned_transcript(7, 12);
    write_wire_corpus(&resigned);
    write_verifier_corpus(&resigned);
    write_invite_corpus();
    write_session_corpus();
    replay("corpus", true);
}

/// The seed corpus plays what it says: whole games, honest at both sides.
#[test]
fn the_whole_game_seeds_play_a_whole_game() {
    for name in [
        "armada-whole-game",
        "classic8-timeout-shots",
        "armada-bad-link",
    ] {
        let bytes = fs::read(fuzz_dir().join("corpus/session").join(name)).unwrap();
        let run = fuzz::session_run(&bytes);
        for seat in Seat::BOTH {
            let verdicts = &run.verdicts[seat.index()];
            assert!(
                matches!(verdicts.first(), Some(Verdict::Honest(_))),
                "{name}: the {seat} has {verdicts:?}"
            );
        }
    }
}
