//! Archimedes between friends, sans-IO: two sessions in memory play whole games,
//! frames cross in flight, lying peers sign their own lies, and `verify` reads each
//! side's transcript to the same verdict.

use std::collections::VecDeque;

use armada::archimedes::{Level, Move, Position, choose};
use armada::fair::archimedes::{Note, Outcome, Reason, Verdict};
use armada::fair::sign::Identity;
use armada::fair::verify::{Outcome as Checked, verify};
use armada::fair::wire;
use armada::rules::{Coord, Seat};
use armada::session::archimedes::{Command, Owed, Session, settings};
use armada_proto::{Body, PROTOCOL_VERSION, Payload, WireVerdict};
use rand::SeedableRng;
use rand::rngs::StdRng;

const MOVE_MS: u32 = 60_000;
const GRACE_MS: u32 = 30_000;

/// Two sides and the frames in flight between them (each queue in its sender's order).
struct Friends {
    host: Session,
    guest: Session,
    guest_id: Identity,
    to_guest: VecDeque<Vec<u8>>,
    to_host: VecDeque<Vec<u8>>,
    now: u64,
    rng: StdRng,
}

impl Friends {
    fn new(side: u8, seed: u64) -> Self {
        let secret = [seed as u8; 32];
        let guest_id = Identity::generate();
        let host = Session::host(
            Identity::generate(),
            secret,
            settings(side, MOVE_MS, GRACE_MS),
        );
        let guest = Session::guest(guest_id.clone(), secret);
        let mut friends = Self {
            host,
            guest,
            guest_id,
            to_guest: VecDeque::new(),
            to_host: VecDeque::new(),
            now: 0,
            rng: StdRng::seed_from_u64(seed),
        };
        friends.deliver();
        friends
    }

    /// Collects what each side sends.
    fn collect(&mut self) {
        while let Some(f) = self.host.poll_transmit() {
            self.to_guest.push_back(f);
        }
        while let Some(f) = self.guest.poll_transmit() {
            self.to_host.push_back(f);
        }
    }

    /// Delivers everything in flight, both ways, until nothing more is sent.
    fn deliver(&mut self) {
        loop {
            self.collect();
            if self.to_guest.is_empty() && self.to_host.is_empty() {
                return;
            }
            while let Some(f) = self.to_guest.pop_front() {
                self.guest
                    .handle_message(self.now, &f)
                    .expect("the guest takes the host's frame");
            }
            while let Some(f) = self.to_host.pop_front() {
                self.host
                    .handle_message(self.now, &f)
                    .expect("the host takes the guest's frame");
            }
        }
    }

    fn side(&mut self, seat: Seat) -> &mut Session {
        match seat {
            Seat::Host => &mut self.host,
            Seat::Guest => &mut self.guest,
        }
    }

    /// The side to move picks a move at `level`, without delivering it.
    fn move_by(&mut self, seat: Seat, level: Level) -> Move {
        let position = self.side(seat).table().position().expect("a game").clone();
        let mv = choose(&position, level, &mut self.rng).expect("a legal move");
        self.now += 10;
        let now = self.now;
        self.side(seat)
            .handle_command(now, Command::Move(mv))
            .expect("a legal move is sent");
        mv
    }

    /// Plays the current game to its settlement, `levels` for (host, guest).
    fn play_out(&mut self, levels: [Level; 2]) {
        for _ in 0..2_000 {
            self.deliver();
            let owed = [Seat::Host, Seat::Guest].map(|s| self.side(s).owed());
            match owed {
                [Owed::Move, _] => {
                    self.move_by(Seat::Host, levels[0]);
                }
                [_, Owed::Move] => {
                    self.move_by(Seat::Guest, levels[1]);
                }
                _ if self.host.table().settled().is_some()
                    && self.guest.table().settled().is_some() =>
                {
                    return;
                }
                _ => panic!("nobody owes a move and the game is not settled: {owed:?}"),
            }
        }
        panic!("a game of 2,000 moves");
    }

    /// The guest's own signature on a frame it builds itself, as a lying client would.
    fn guest_signs(&self, payload: Payload) -> Vec<u8> {
        let table = self.guest.table();
        let (seq, prev) = table.chain_head(Seat::Guest);
        self.guest_id.seal(&Body {
            version: PROTOCOL_VERSION,
            table: table.id(),
            from: wire::seat(Seat::Guest),
            seq,
            prev,
            seen: table.last_hash(Seat::Host),
            payload,
        })
    }

    fn verdicts(&self) -> [Vec<Verdict>; 2] {
        [self.host.table().verdicts(), self.guest.table().verdicts()]
    }
}

fn cell_index(c: Coord, side: u8) -> u8 {
    c.row() * side + c.col()
}

fn transcript(session: &Session) -> Vec<u8> {
    session.table().transcript_file()
}

#[test]
fn friends_play_whole_games_and_both_sides_and_verify_agree() {
    let mut friends = Friends::new(6, 11);
    let mut firsts = Vec::new();
    for game in 0..3 {
        firsts.push(friends.host.table().first().expect("a game opened"));
        friends.play_out([Level::Hard, Level::Medium]);
        let [host, guest] = friends.verdicts();
        assert_eq!(
            host, guest,
            "game {game}: both sides settle the same verdicts"
        );
        assert!(matches!(host[game], Verdict::Decided(_)), "{host:?}");
        assert_eq!(friends.host.score(), friends.guest.score());
        if game < 2 {
            friends.host.handle_command(0, Command::PlayAgain).unwrap();
            friends.guest.handle_command(0, Command::PlayAgain).unwrap();
            friends.deliver();
        }
    }
    // The host moves first in the first game; each Play again swaps.
    assert_eq!(firsts, [Seat::Host, Seat::Guest, Seat::Host]);
    let score = friends.host.score();
    assert_eq!(score[0] + score[1], 6, "three games, two half points each");
    for side in [&friends.host, &friends.guest] {
        let report = verify(&transcript(side));
        assert_eq!(report.outcome, Checked::Honest, "{}", report.to_text());
        assert_eq!(report.archimedes.len(), 3);
        let verdicts: Vec<_> = report
            .archimedes
            .iter()
            .map(|g| g.verdict.clone().unwrap())
            .collect();
        assert_eq!(verdicts, side.table().verdicts());
        // Every recorded game replays through the engine to the recorded end.
        for game in &report.archimedes {
            let mut position = Position::start(6).unwrap();
            let mut last = None;
            for step in &game.moves {
                last = position.play(step.played.mv).unwrap().ending;
            }
            let outcome = game.outcome.expect("ended");
            assert_eq!(
                outcome.reason,
                Reason::Rules(last.expect("the last move ended it").reason)
            );
        }
        assert!(
            report
                .to_text()
                .contains("Game 3 (Archimedes), the host moves first")
        );
    }
}

#[test]
fn a_resignation_that_crossed_a_move_voids_the_move_in_every_order() {
    let mut friends = Friends::new(8, 12);
    for _ in 0..3 {
        friends.move_by(Seat::Host, Level::Easy);
        friends.deliver();
        friends.move_by(Seat::Guest, Level::Easy);
        friends.deliver();
    }
    assert_eq!(friends.host.owed(), Owed::Move);
    // The host moves and the guest resigns; neither has seen the other's frame.
    friends.move_by(Seat::Host, Level::Medium);
    friends.guest.handle_command(0, Command::Resign).unwrap();
    friends.deliver();
    let want = Verdict::Decided(Outcome {
        winner: Some(Seat::Host),
        reason: Reason::Resigned,
    });
    assert_eq!(friends.verdicts(), [vec![want.clone()], vec![want.clone()]]);
    assert_eq!(
        friends.host.table().steps().len(),
        6,
        "the crossed move is void"
    );
    assert_eq!(friends.guest.table().steps().len(), 6);
    assert_eq!(
        friends.host.table().position(),
        friends.guest.table().position()
    );
    // The two transcripts hold the frames in different orders; verify reads both alike.
    let (host, guest) = (
        verify(&transcript(&friends.host)),
        verify(&transcript(&friends.guest)),
    );
    assert_eq!(host.archimedes, guest.archimedes);
    assert_eq!(host.archimedes[0].verdict, Some(want));
    assert_eq!(host.archimedes[0].moves.len(), 6);
    assert_eq!(host.outcome, Checked::Honest);
}

#[test]
fn two_resignations_that_crossed_make_a_draw() {
    let mut friends = Friends::new(6, 13);
    friends.move_by(Seat::Host, Level::Easy);
    friends.deliver();
    friends.host.handle_command(0, Command::Resign).unwrap();
    friends.guest.handle_command(0, Command::Resign).unwrap();
    friends.deliver();
    let draw = Verdict::Decided(Outcome {
        winner: None,
        reason: Reason::BothResigned,
    });
    assert_eq!(friends.verdicts(), [vec![draw.clone()], vec![draw]]);
    assert_eq!(friends.host.score(), [1, 1]);
    assert_eq!(verify(&transcript(&friends.guest)).outcome, Checked::Honest);
}

#[test]
fn a_leave_during_the_game_resigns_it() {
    let mut friends = Friends::new(6, 14);
    friends.move_by(Seat::Host, Level::Easy);
    friends.deliver();
    friends
        .guest
        .handle_command(0, Command::Leave("bye".into()))
        .unwrap();
    friends.deliver();
    assert_eq!(
        friends.host.table().settled(),
        Some(&Verdict::Decided(Outcome {
            winner: Some(Seat::Host),
            reason: Reason::Resigned
        }))
    );
    assert!(friends.host.table().left(Seat::Guest));
}

/// Plays a few moves, then lets the guest send `lie` (signed with its own key) to
/// the host; returns the host's notes of it and the verify report of its transcript.
fn caught(friends: &mut Friends, lie: &[u8]) -> (Vec<Note>, armada::fair::verify::Report) {
    friends
        .host
        .handle_message(friends.now, lie)
        .expect("a signed frame is taken in");
    let mut notes = Vec::new();
    while let Some(event) = friends.host.poll_event() {
        if let armada::session::archimedes::Event::Table(note) = event {
            notes.push(note);
        }
    }
    (notes, verify(&transcript(&friends.host)))
}

fn lie_of(report: &armada::fair::verify::Report) -> armada::fair::table::Lie {
    match &report.outcome {
        Checked::Lie(lie) => lie.clone(),
        other => panic!("no lie named: {other:?}\n{}", report.to_text()),
    }
}

#[test]
fn an_illegal_move_signed_by_the_peer_is_a_named_lie() {
    let mut friends = Friends::new(6, 15);
    friends.move_by(Seat::Host, Level::Easy);
    friends.deliver();
    let table = friends.guest.table();
    let position = table.position().unwrap().clone();
    let game = table.game_id().unwrap();
    // A guest ship moved onto another guest ship.
    let mut ships = position.ships(position.mover()).iter();
    let (from, onto) = (ships.next().unwrap(), ships.next().unwrap());
    let lie = friends.guest_signs(Payload::Move {
        game,
        number: 1,
        from: cell_index(from, 6),
        to: cell_index(onto, 6),
    });
    let (notes, report) = caught(&mut friends, &lie);
    assert!(
        notes
            .iter()
            .any(|n| matches!(n, Note::LieProven(l) if l.liar == Seat::Guest))
    );
    let lie = lie_of(&report);
    assert_eq!(
        (lie.liar, lie.seq),
        (Seat::Guest, friends.guest.table().chain_head(Seat::Guest).0)
    );
    assert!(lie.reason.contains("illegal move"), "{lie}");
    // The honest host signs the verdict that the liar lost.
    assert_eq!(
        friends.host.table().settled().map(Verdict::winner),
        Some(Some(Seat::Host))
    );
}

#[test]
fn a_move_out_of_turn_and_a_false_verdict_are_named_lies() {
    // Out of turn: the guest moves first, a move that would be legal on its turn.
    let mut friends = Friends::new(6, 16);
    let position = friends.guest.table().position().unwrap().clone();
    let ships = position.ships(armada::archimedes::Side::Second);
    let from = ships
        .iter()
        .find(|c| !position.reach(*c).is_empty())
        .unwrap();
    let to = position.reach(from).iter().next().unwrap();
    let lie = friends.guest_signs(Payload::Move {
        game: friends.guest.table().game_id().unwrap(),
        number: 0,
        from: cell_index(from, 6),
        to: cell_index(to, 6),
    });
    let (_, report) = caught(&mut friends, &lie);
    assert!(
        lie_of(&report).reason.contains("out of turn"),
        "{}",
        report.to_text()
    );

    // A false verdict: the guest resigns, then signs that it won.
    let mut friends = Friends::new(6, 17);
    friends.move_by(Seat::Host, Level::Easy);
    friends.deliver();
    friends.guest.handle_command(0, Command::Resign).unwrap();
    let resign = friends.guest.poll_transmit().unwrap();
    friends.host.handle_message(1, &resign).unwrap();
    let lie = friends.guest_signs(Payload::Verdict {
        game: friends.guest.table().game_id().unwrap(),
        verdict: WireVerdict::Honest {
            winner: Some(armada_proto::Seat::Guest),
        },
    });
    let (_, report) = caught(&mut friends, &lie);
    let lie = lie_of(&report);
    assert_eq!(lie.liar, Seat::Guest);
    assert!(lie.reason.contains("contradicts the record"), "{lie}");
    // The game itself stays the host's: the resignation decided it.
    assert_eq!(
        report.archimedes[0].verdict,
        Some(Verdict::Decided(Outcome {
            winner: Some(Seat::Host),
            reason: Reason::Resigned
        }))
    );
}

#[test]
fn equivocation_is_a_named_lie() {
    let mut friends = Friends::new(6, 18);
    friends.move_by(Seat::Host, Level::Easy);
    friends.deliver();
    // The guest makes a move and delivers it, then signs another with the same number.
    friends.move_by(Seat::Guest, Level::Easy);
    let honest = friends.guest.poll_transmit().unwrap();
    friends.host.handle_message(friends.now, &honest).unwrap();
    let frame = armada_proto::Frame::decode(&honest).unwrap();
    let mut body = frame.body.clone();
    let Payload::Move { from, to, .. } = &mut body.payload else {
        panic!("a move");
    };
    std::mem::swap(from, to);
    let twin = friends.guest_id.seal(&body);
    let (notes, report) = caught(&mut friends, &twin);
    assert!(notes.iter().any(|n| matches!(n, Note::LieProven(_))));
    let lie = lie_of(&report);
    assert_eq!(lie.liar, Seat::Guest);
    assert!(lie.reason.contains("equivocation"), "{lie}");
}

#[test]
fn an_overdue_move_is_claimed_and_the_absent_side_forfeits() {
    let mut friends = Friends::new(6, 19);
    friends.move_by(Seat::Host, Level::Easy);
    friends.deliver();
    // The guest owes its move; the host's deadline is its move time plus the grace.
    let due = friends
        .host
        .poll_timeout()
        .expect("the host waits for the guest");
    assert_eq!(due, friends.now + u64::from(MOVE_MS + GRACE_MS));
    friends.host.handle_timeout(due - 1);
    assert!(
        friends.host.poll_transmit().is_none(),
        "nothing before the deadline"
    );
    friends.host.handle_timeout(due);
    let claim = friends.host.poll_transmit().expect("a forfeit claim");
    friends.guest.handle_message(due, &claim).unwrap();
    friends.deliver();
    let forfeit = Verdict::Decided(Outcome {
        winner: Some(Seat::Host),
        reason: Reason::Forfeit,
    });
    assert_eq!(friends.verdicts(), [vec![forfeit.clone()], vec![forfeit]]);
    assert_eq!(friends.guest.owed(), Owed::PlayAgain);
    assert!(
        friends
            .guest
            .handle_command(
                due,
                Command::Move(Move {
                    from: Coord::new(0, 1).unwrap(),
                    to: Coord::new(0, 2).unwrap(),
                })
            )
            .is_err()
    );
    assert_eq!(verify(&transcript(&friends.guest)).outcome, Checked::Honest);
}

#[test]
fn a_move_that_crossed_the_claim_refutes_it() {
    let mut friends = Friends::new(6, 20);
    friends.move_by(Seat::Host, Level::Easy);
    friends.deliver();
    let due = friends.host.poll_timeout().unwrap();
    friends.host.handle_timeout(due);
    // The guest moves before the claim reaches it.
    friends.move_by(Seat::Guest, Level::Easy);
    friends.deliver();
    for side in [&friends.host, &friends.guest] {
        assert!(side.table().settled().is_none(), "the game goes on");
        assert_eq!(side.table().steps().len(), 2);
        assert_eq!(side.table().mover(), Some(Seat::Host));
    }
    friends.play_out([Level::Easy, Level::Easy]);
    let [host, guest] = friends.verdicts();
    assert_eq!(host, guest);
    assert_eq!(verify(&transcript(&friends.host)).outcome, Checked::Honest);
}

/// The one rule above all, for Archimedes: frames delivered in random interleavings,
/// with moves, resignations, leaves and overdue claims crossing in flight, and
/// both sides and `verify` of both transcripts always reach the same verdicts.
#[test]
fn every_order_of_delivery_reaches_one_verdict() {
    let mut reasons = std::collections::BTreeSet::new();
    let (mut undone, mut refuted, mut voided) = (0, 0, 0);
    for seed in 0..60 {
        let mut friends = Friends::new(6, 100 + seed);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut games = 0;
        for _ in 0..3_000 {
            friends.collect();
            let (host_settled, guest_settled) = (
                friends.host.table().settled().is_some(),
                friends.guest.table().settled().is_some(),
            );
            if host_settled
                && guest_settled
                && friends.to_host.is_empty()
                && friends.to_guest.is_empty()
            {
                games += 1;
                let left =
                    friends.host.table().left(Seat::Host) || friends.host.table().left(Seat::Guest);
                if games == 3 || left {
                    break;
                }
                friends
                    .host
                    .handle_command(friends.now, Command::PlayAgain)
                    .unwrap();
                friends
                    .guest
                    .handle_command(friends.now, Command::PlayAgain)
                    .unwrap();
                continue;
            }
            random_step(&mut friends, &mut rng);
        }
        friends.deliver();
        let [host, guest] = friends.verdicts();
        assert_eq!(host, guest, "seed {seed}: the two sides disagree");
        assert!(!host.is_empty(), "seed {seed}: no game was settled");
        let (a, b) = (
            verify(&transcript(&friends.host)),
            verify(&transcript(&friends.guest)),
        );
        let verdicts = |r: &armada::fair::verify::Report| -> Vec<_> {
            r.archimedes
                .iter()
                .filter_map(|g| g.verdict.clone())
                .collect()
        };
        assert_eq!(
            verdicts(&a),
            host,
            "seed {seed}: verify of the host's transcript"
        );
        assert_eq!(
            verdicts(&b),
            host,
            "seed {seed}: verify of the guest's transcript"
        );
        assert_eq!(a.archimedes, b.archimedes, "seed {seed}");
        voided += a.archimedes.iter().map(|g| g.void.len()).sum::<usize>();
        for verdict in &host {
            if let Verdict::Decided(outcome) = verdict {
                reasons.insert(format!("{:?}", outcome.reason));
            }
        }
        for side in [&mut friends.host, &mut friends.guest] {
            while let Some(event) = side.poll_event() {
                match event {
                    armada::session::archimedes::Event::Table(Note::Undone(_)) => undone += 1,
                    armada::session::archimedes::Event::Table(Note::ClaimRefuted { .. }) => {
                        refuted += 1;
                    }
                    _ => {}
                }
            }
        }
        assert!(
            !matches!(a.outcome, Checked::Lie(_)),
            "seed {seed}: honest sides told no lie: {:?}",
            a.outcome
        );
    }
    // The runs cross what they are meant to cross.
    eprintln!(
        "ends {reasons:?}, moves voided {undone}, void in the records {voided}, claims refuted {refuted}"
    );
    for reason in ["Resigned", "Forfeit", "Rules(Fleet)"] {
        assert!(
            reasons.contains(reason),
            "no game ended by {reason}: {reasons:?}"
        );
    }
    assert!(undone > 0, "no resignation crossed a move");
    assert!(
        voided > 0,
        "the record lists no move or frame that counted for nothing"
    );
    assert!(refuted > 0, "no move crossed a forfeit claim");
}

/// One random thing happens: a frame delivered either way, a move, a resignation,
/// a leave, or time passing to the next deadlines.
fn random_step(friends: &mut Friends, rng: &mut StdRng) {
    use rand::RngExt;
    friends.now += rng.random_range(0..20_000);
    let now = friends.now;
    match rng.random_range(0..100) {
        0..30 => {
            if let Some(f) = friends.to_guest.pop_front() {
                friends.guest.handle_message(now, &f).unwrap();
            }
        }
        30..60 => {
            if let Some(f) = friends.to_host.pop_front() {
                friends.host.handle_message(now, &f).unwrap();
            }
        }
        60..90 => {
            let seat = if rng.random_bool(0.5) {
                Seat::Host
            } else {
                Seat::Guest
            };
            if friends.side(seat).owed() == Owed::Move {
                friends.move_by(seat, Level::Easy);
            }
        }
        90..94 => {
            let seat = if rng.random_bool(0.5) {
                Seat::Host
            } else {
                Seat::Guest
            };
            let _ = friends.side(seat).handle_command(now, Command::Resign);
        }
        94..95 => {
            let seat = if rng.random_bool(0.5) {
                Seat::Host
            } else {
                Seat::Guest
            };
            let _ = friends
                .side(seat)
                .handle_command(now, Command::Leave("gone".into()));
        }
        _ => {
            friends.host.handle_timeout(now);
            friends.guest.handle_timeout(now);
        }
    }
}

/// `armada verify` as a user runs it on an Archimedes table's saved transcript: the
/// moves with their sinking waves and the result, exit 0; a liar's, exit 1, named.
#[test]
fn the_binary_verifies_an_archimedes_transcript_and_names_a_lie() {
    let verify_file = |bytes: Vec<u8>, json: bool| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.armada");
        std::fs::write(&path, bytes).unwrap();
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_armada"));
        command.arg("verify");
        if json {
            command.arg("--json");
        }
        let out = command.arg(&path).output().expect("armada runs");
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let mut friends = Friends::new(6, 21);
    friends.play_out([Level::Medium, Level::Easy]);
    let (code, text) = verify_file(transcript(&friends.guest), false);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("Game 1 (Archimedes), the host moves first"),
        "{text}"
    );
    assert!(text.contains("   1. host  "), "{text}");
    assert!(text.contains("; sunk "), "a sinking wave is listed: {text}");
    assert!(text.contains("verdict: complete and honest"), "{text}");
    let (code, json) = verify_file(transcript(&friends.host), true);
    assert_eq!(code, Some(0));
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["games"][0]["kind"], "archimedes 6×6");
    assert_eq!(json["settings"]["kind"], "archimedes 6×6");
    assert_eq!(json["verdict"]["status"], "honest");

    let mut friends = Friends::new(6, 22);
    friends.move_by(Seat::Host, Level::Easy);
    friends.deliver();
    let position = friends.guest.table().position().unwrap().clone();
    let mut ships = position.ships(position.mover()).iter();
    let (from, onto) = (ships.next().unwrap(), ships.next().unwrap());
    let lie = friends.guest_signs(Payload::Move {
        game: friends.guest.table().game_id().unwrap(),
        number: 1,
        from: cell_index(from, 6),
        to: cell_index(onto, 6),
    });
    friends.host.handle_message(friends.now, &lie).unwrap();
    let (code, text) = verify_file(transcript(&friends.host), false);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("verdict: lie proven: the guest lied in message"),
        "{text}"
    );
    assert!(text.contains("an illegal move"), "{text}");
}

/// Regression: every illegal move was refused as "that move is not legal", with no
/// reason; the engine's reason is now the refusal.
#[test]
fn an_illegal_move_is_refused_with_the_rules_reason() {
    let mut friends = Friends::new(6, 31);
    let seat = friends.host.table().mover().expect("a mover");
    let position = friends.side(seat).table().position().unwrap().clone();
    let mine = position.ships(position.mover()).iter().next().unwrap();
    let theirs = position
        .ships(position.mover().other())
        .iter()
        .next()
        .unwrap();
    let refused = |friends: &mut Friends, from: Coord, to: Coord| {
        friends
            .side(seat)
            .handle_command(0, Command::Move(Move { from, to }))
            .expect_err("an illegal move is refused")
            .to_string()
    };
    assert_eq!(
        refused(&mut friends, mine, mine),
        "a ship must move at least one cell"
    );
    assert_eq!(
        refused(&mut friends, theirs, mine),
        format!("the ship at {theirs} is not yours")
    );
    // Nothing was sent.
    assert!(friends.side(seat).poll_transmit().is_none());
}

/// As for the sea battle: a bit flipped anywhere in an Archimedes table's saved
/// session or transcript, on either side, is refused by name or changes nothing; no
/// transcript, damaged or played on, names a lie. (Regression: a resumed side took
/// its own frames on trust and signed "the guest lied in message 5".)
#[test]
fn a_bit_flipped_anywhere_in_a_saved_archimedes_table_never_leads_to_a_signed_lie() {
    use armada::store::{Damaged, Store};
    let mut friends = Friends::new(6, 41);
    for _ in 0..4 {
        let seat = friends.host.table().mover().unwrap();
        friends.move_by(seat, Level::Easy);
        friends.deliver();
    }
    let dir = tempfile::tempdir().unwrap();
    let stores = [
        Store::open(Some(&dir.path().join("host"))).unwrap(),
        Store::open(Some(&dir.path().join("guest"))).unwrap(),
    ];
    stores[0].save(&friends.host).unwrap();
    stores[1].save(&friends.guest).unwrap();
    let id = friends.host.table().id();
    let identities = [
        friends.host.identity().clone(),
        friends.guest.identity().clone(),
    ];
    let lie = |bytes: &[u8]| match verify(bytes).outcome {
        Checked::Lie(lie) => Some(lie.to_string()),
        _ => None,
    };
    let (mut refused, mut restored) = (0, 0);
    for seat in Seat::BOTH {
        let store = &stores[seat.index()];
        for path in [store.session_path(&id), store.transcript_path(&id)] {
            let good = std::fs::read(&path).unwrap();
            for at in 0..good.len() {
                let mut bytes = good.clone();
                bytes[at] ^= 1 << (at % 8);
                std::fs::write(&path, &bytes).unwrap();
                assert_eq!(lie(&bytes), None, "byte {at} of {}", path.display());
                let session =
                    match store.restore::<Session>(&id, identities[seat.index()].clone(), 0) {
                        Err(error) => {
                            let damaged = error.downcast_ref::<Damaged>();
                            assert!(
                                damaged.is_some_and(|d| d.table == id),
                                "byte {at}: {error:#}"
                            );
                            refused += 1;
                            continue;
                        }
                        Ok(session) => session.unwrap(),
                    };
                restored += 1;
                let other = stores[seat.other().index()]
                    .restore::<Session>(&id, identities[seat.other().index()].clone(), 0)
                    .unwrap()
                    .unwrap();
                let mut on = Friends::new(6, 41);
                *on.side(seat) = session;
                *on.side(seat.other()) = other;
                on.play_out([Level::Easy, Level::Easy]);
                for side in Seat::BOTH {
                    let file = on.side(side).table().transcript_file();
                    assert_eq!(
                        lie(&file),
                        None,
                        "byte {at} of {} played on",
                        path.display()
                    );
                }
            }
            std::fs::write(&path, &good).unwrap();
        }
    }
    assert!(
        refused > 10 * restored,
        "refused {refused}, restored {restored}"
    );
}

/// An Archimedes game with a friend is listed among the past games with its board
/// and score, once settled; before that it is the friend table to resume.
#[test]
fn an_archimedes_table_with_a_friend_is_listed_among_past_games() {
    use armada::driver::saved_tables;
    use armada::store::{Other, PlayedBy, Store, TableMeta};
    let mut friends = Friends::new(6, 21);
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(Some(dir.path())).unwrap();
    let id = friends.host.table().id();
    let meta = TableMeta {
        seat: Seat::Host.into(),
        other: Other::Peer {
            id: "peer".into(),
            addrs: Vec::new(),
        },
        by: PlayedBy::Window,
        games: 0,
        game: armada::session::TableGame::Archimedes,
        knock: Vec::new(),
        gone: None,
    };
    store.save_meta(&id, &meta).unwrap();
    let seat = friends.host.table().mover().unwrap();
    friends.move_by(seat, Level::Easy);
    friends.deliver();
    store.save(&friends.host).unwrap();
    let saved = saved_tables(&store, 8);
    assert_eq!(saved.friend, Some(id), "a game under way is resumed");
    assert!(saved.past.is_empty());

    friends.play_out([Level::Medium, Level::Easy]);
    store.save(&friends.host).unwrap();
    let saved = saved_tables(&store, 8);
    assert_eq!(saved.friend, None, "a settled game is not resumed");
    let [past] = saved.past.as_slice() else {
        panic!("one past table: {:?}", saved.past);
    };
    assert_eq!((past.id, past.side, past.games), (id, Some(6), 1));
    let points = match friends.host.table().outcome().unwrap().winner {
        None => [1, 1],
        Some(Seat::Host) => [2, 0],
        Some(Seat::Guest) => [0, 2],
    };
    assert_eq!(past.points, points);
    assert_eq!(past.computer, None);
}

/// A forfeit claim for what an Archimedes table never owes (an answer, a reveal) is
/// a lie, even when the claimant had not seen the other side's latest frame (which
/// would refute a claim for a move instead).
#[test]
fn a_claim_for_an_answer_at_an_archimedes_table_is_a_lie_whatever_its_sender_had_seen() {
    for owed in [armada_proto::Owed::Answer, armada_proto::Owed::Reveal] {
        let mut friends = Friends::new(6, 61);
        assert_eq!(friends.host.table().mover(), Some(Seat::Host));
        friends.move_by(Seat::Host, Level::Easy);
        // The host's move stays in flight: the claim has not seen it.
        let claim = friends.guest_signs(Payload::Forfeit {
            game: friends.guest.table().game_id().unwrap(),
            owed,
        });
        friends.host.handle_message(friends.now, &claim).unwrap();
        let lie = friends.host.table().first_lie().expect("a lie");
        assert_eq!(lie.liar, Seat::Guest, "{owed:?}: {lie}");
        assert!(lie.reason.contains("only a move can be owed"), "{lie}");
    }
}

#[test]
fn a_message_about_the_old_game_after_its_sender_asked_for_the_next_is_one_lie_in_every_order() {
    let mut friends = Friends::new(6, 41);
    friends.play_out([Level::Easy, Level::Easy]);
    friends.deliver();
    let host = friends.host.table();
    let (table, game) = (host.id(), host.game_id().expect("game 0"));
    let before: Vec<(Seat, Vec<u8>)> = host.transcript().iter().cloned().collect();
    // Both ask for the next game, neither having seen the other's request; then the
    // guest signs a message about game 0.
    let now = friends.now;
    friends
        .host
        .handle_command(now, Command::PlayAgain)
        .unwrap();
    friends
        .guest
        .handle_command(now, Command::PlayAgain)
        .unwrap();
    let host_again = friends.host.poll_transmit().expect("the host's request");
    let guest_again = friends.guest.poll_transmit().expect("the guest's request");
    let old = crate::support::guest_signs(
        &friends.guest_id,
        friends.guest.table(),
        Payload::Resign { game },
    );
    let [opened_first, opened_after] = crate::support::both_orders::<
        armada::fair::table::open::Open<armada::fair::archimedes::Archimedes>,
    >(table, &before, [&host_again, &guest_again, &old]);
    assert_eq!(opened_first, opened_after);
    let lie = opened_first.0.expect("the message is a lie");
    assert_eq!(
        (lie.liar, lie.reason.as_str()),
        (Seat::Guest, "the message names another game")
    );
}
