//! Icehouse Armada between two sessions in memory: who moves first chosen, both
//! placements committed before either is revealed, every step signed and checked,
//! lies named, and `armada verify` reaching the sessions' verdicts.

use std::collections::VecDeque;

use armada::fair::hash::Hash;
use armada::fair::icehouse::{IceMove, Icehouse, commitment};
use armada::fair::sign::Identity;
use armada::fair::table::open::Verdict;
use armada::fair::verify;
use armada::fair::wire;
use armada::icehouse::{self as ice, Fleet, Level, Placed};
use armada::rules::Seat;
use armada::session::open::{Command, Owed, Session};
use armada_proto::{self as proto, Body, IceAct, PROTOCOL_VERSION, Payload};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

pub(crate) fn settings(
    setup: proto::IceSetup,
    goal: proto::IceGoal,
    host_heavy: bool,
) -> proto::Settings {
    proto::Settings {
        game: proto::GameKind::Icehouse {
            setup,
            goal,
            host_heavy,
        },
        move_ms: 90_000,
        answer_ms: 0,
        reveal_ms: 0,
        grace_ms: 0,
    }
}

/// A side's placement secret: the salt and the ships, kept until its reveal.
type Secret = Option<(Hash, Vec<Placed>)>;

/// Two sides of an Icehouse table, every frame delivered at once.
pub(crate) struct Pair {
    pub(crate) sides: [Session<Icehouse>; 2],
    ids: [Identity; 2],
    secrets: [Secret; 2],
    pub(crate) rng: ChaCha8Rng,
}

impl Pair {
    pub(crate) fn new(settings: proto::Settings, seed: u64) -> Self {
        let secret = [7; 32];
        let ids = [Identity::generate(), Identity::generate()];
        let host = Session::host(ids[0].clone(), secret, settings);
        let guest = Session::guest(ids[1].clone(), secret);
        let mut pair = Self {
            sides: [host, guest],
            ids,
            secrets: [None, None],
            rng: ChaCha8Rng::seed_from_u64(seed),
        };
        pair.deliver();
        pair
    }

    pub(crate) fn deliver(&mut self) {
        self.deliver_at(0);
    }

    /// Delivers every frame in flight at time `now`.
    pub(crate) fn deliver_at(&mut self, now: u64) {
        let mut flight: VecDeque<(usize, Vec<u8>)> = VecDeque::new();
        loop {
            for (i, side) in self.sides.iter_mut().enumerate() {
                while let Some(frame) = side.poll_transmit() {
                    flight.push_back((1 - i, frame));
                }
            }
            let Some((to, frame)) = flight.pop_front() else {
                return;
            };
            self.sides[to]
                .handle_message(now, &frame)
                .expect("an honest frame is taken");
        }
    }

    /// What `seat`'s player does next: choose, place and commit, reveal, or act as
    /// a computer captain of `level`.
    pub(crate) fn next_move(&mut self, seat: Seat, level: Level) -> IceMove {
        let position = self.sides[seat.index()]
            .table()
            .position()
            .expect("a game")
            .clone();
        if position.choosing(seat) {
            return IceMove::Choose {
                chooser_first: self.rng.random_bool(0.5),
            };
        }
        if position.revealing(seat) {
            let (salt, ships) = self.secrets[seat.index()].clone().expect("placed");
            return IceMove::reveal(salt, &ships).expect("at most 12 ships");
        }
        if let Some(game) = position.game() {
            return IceMove::Act(ice::choose(game, level, &mut self.rng));
        }
        let (side, fleet, goal) = position.placing(seat).expect("placing");
        let fleet = fleet.unwrap_or(Fleet::new(2, 3, 0));
        let ships = ice::random_placement(side, fleet, goal, &mut self.rng);
        let salt: Hash = self.rng.random();
        let hash = position.commit_for(seat, &salt, &ships);
        self.secrets[seat.index()] = Some((salt, ships));
        IceMove::Commit(hash)
    }

    /// The game at sea as side `i` (0 host, 1 guest) sees it.
    pub(crate) fn game(&self, i: usize) -> ice::Game {
        self.sides[i]
            .table()
            .position()
            .expect("a game")
            .game()
            .expect("the fleets are on the table")
            .clone()
    }

    /// A copy of the table to try something on (its own random numbers).
    fn fork(&mut self) -> Self {
        Self {
            sides: self.sides.clone(),
            ids: self.ids.clone(),
            secrets: self.secrets.clone(),
            rng: ChaCha8Rng::seed_from_u64(self.rng.random()),
        }
    }

    /// `seat` commits to `ships` (kept to reveal when due).
    fn commit(&mut self, seat: Seat, ships: Vec<Placed>) {
        let position = self.sides[seat.index()].table().position().unwrap();
        let salt: Hash = self.rng.random();
        let hash = position.commit_for(seat, &salt, &ships);
        self.secrets[seat.index()] = Some((salt, ships));
        self.sides[seat.index()]
            .handle_command(0, Command::Move(IceMove::Commit(hash)))
            .unwrap();
        self.deliver();
    }

    /// The fleets laid where the caller says: the chooser moves first (south).
    fn put_to_sea_as(&mut self, south: &[Placed], north: &[Placed]) -> Seat {
        let chooser = self.sides[0].table().mover().unwrap();
        self.sides[chooser.index()]
            .handle_command(
                0,
                Command::Move(IceMove::Choose {
                    chooser_first: true,
                }),
            )
            .unwrap();
        self.deliver();
        self.commit(chooser, south.to_vec());
        self.commit(chooser.other(), north.to_vec());
        for seat in [chooser, chooser.other()] {
            let mv = self.next_move(seat, Level::Easy);
            self.sides[seat.index()]
                .handle_command(0, Command::Move(mv))
                .unwrap();
            self.deliver();
        }
        chooser
    }

    /// Plays the five steps before the fleets are on the table: the choice, the
    /// commitments and the reveals.
    pub(crate) fn put_to_sea(&mut self) {
        for _ in 0..5 {
            let mover = self.sides[0].table().mover().unwrap();
            let mv = self.next_move(mover, Level::Easy);
            self.sides[mover.index()]
                .handle_command(0, Command::Move(mv))
                .unwrap();
            self.deliver();
        }
        assert!(self.sides[0].table().position().unwrap().game().is_some());
    }

    /// Plays the game to its end with the two levels (host's, guest's).
    pub(crate) fn play_out(&mut self, levels: [Level; 2]) {
        for _ in 0..20_000 {
            let Some(mover) = self.sides[0].table().mover() else {
                return;
            };
            let mv = self.next_move(mover, levels[mover.index()]);
            self.sides[mover.index()]
                .handle_command(0, Command::Move(mv))
                .unwrap_or_else(|e| panic!("{mv}: {e:?}"));
            self.deliver();
        }
        panic!("the game did not end");
    }

    /// A step `seat` signs by hand (a lying client), delivered to the other side.
    fn lie(&mut self, seat: Seat, act: IceAct, number: u32) -> u32 {
        let game = self.sides[seat.index()].table().game_id().expect("a game");
        self.sign(seat, Payload::Ice { game, number, act })
    }

    /// A frame `seat` signs by hand (a lying client), delivered to the other side.
    pub(crate) fn sign(&mut self, seat: Seat, payload: Payload) -> u32 {
        let table = self.sides[seat.index()].table();
        let (seq, prev) = table.chain_head(seat);
        let frame = self.ids[seat.index()].seal(&Body {
            version: PROTOCOL_VERSION,
            table: table.id(),
            from: wire::seat(seat),
            seq,
            prev,
            seen: table.last_hash(seat.other()),
            payload,
        });
        self.sides[seat.other().index()]
            .handle_message(0, &frame)
            .expect("a signed lie is taken in");
        seq
    }

    pub(crate) fn verified(&self, seat: Seat) -> verify::Report {
        verify::verify(&self.sides[seat.index()].table().transcript_file())
    }
}

#[test]
fn a_whole_icehouse_game_between_two_sessions_settles_and_verifies_from_either_side() {
    let goals = [
        proto::IceGoal::SinkAll,
        proto::IceGoal::Flagship,
        proto::IceGoal::Breakthrough { host_attacks: true },
    ];
    for (seed, goal) in goals.into_iter().enumerate() {
        let mut pair = Pair::new(
            settings(proto::IceSetup::Basic, goal, seed % 2 == 0),
            seed as u64,
        );
        pair.play_out([Level::Hard, Level::Medium]);
        let settled = pair.sides[0].table().settled().cloned().expect("settled");
        assert!(matches!(settled, Verdict::Decided(_)), "{settled:?}");
        assert_eq!(pair.sides[1].table().settled(), Some(&settled));
        for side in &pair.sides {
            assert_eq!(side.owed(), Owed::PlayAgain);
        }
        for seat in Seat::BOTH {
            let report = pair.verified(seat);
            assert_eq!(report.outcome, verify::Outcome::Honest, "{goal:?}");
            assert_eq!(report.icehouse.len(), 1);
            assert_eq!(report.icehouse[0].verdict.as_ref(), Some(&settled));
            // The choice, two commitments and two reveals come before the first action.
            let moves = &report.icehouse[0].moves;
            assert!(moves.len() > 5);
            let text = report.to_text();
            assert!(text.contains("commits to its placement"), "{text}");
            assert!(text.contains("reveals its placement (4L 0M 0S)"), "{text}");
            // Every step and shot names its ships as the players see them (L1, M2, S3).
            let named = |word: &str| {
                let mut chars = word.chars();
                matches!(chars.next(), Some('L' | 'M' | 'S'))
                    && chars.as_str().parse::<u8>().is_ok_and(|n| n > 0)
            };
            let actions: Vec<&str> = text
                .lines()
                .filter(|l| l.contains(" fires ") || l.contains(" moves "))
                .collect();
            assert!(actions.iter().any(|l| l.contains(" fires ")), "{text}");
            for line in actions {
                let words: Vec<&str> = line.split_whitespace().collect();
                assert!(named(words[2]), "{line}");
                if let Some(at) = words.iter().position(|&w| w == "at") {
                    assert!(named(words[at + 1].trim_end_matches(':')), "{line}");
                }
            }
        }
    }
}

#[test]
fn the_advanced_and_points_setups_reveal_the_fleets_they_allow_and_play_again() {
    let advanced = proto::IceSetup::Advanced {
        heavy: proto::IceFleet {
            large: 2,
            medium: 0,
            small: 0,
        },
        light: proto::IceFleet {
            large: 0,
            medium: 2,
            small: 2,
        },
    };
    for setup in [advanced, proto::IceSetup::Points] {
        let mut pair = Pair::new(settings(setup, proto::IceGoal::SinkAll, false), 11);
        pair.play_out([Level::Medium, Level::Hard]);
        for side in &mut pair.sides {
            side.handle_command(0, Command::PlayAgain).expect("again");
        }
        pair.deliver();
        pair.play_out([Level::Hard, Level::Medium]);
        let verdicts = pair.sides[0].table().verdicts();
        assert_eq!(verdicts.len(), 2);
        assert_eq!(pair.sides[1].table().verdicts(), verdicts);
        let report = pair.verified(Seat::Guest);
        assert_eq!(report.outcome, verify::Outcome::Honest);
        assert_eq!(report.icehouse.len(), 2);
    }
}

#[test]
fn a_reveal_that_does_not_open_its_commitment_is_a_named_lie() {
    let mut pair = Pair::new(
        settings(proto::IceSetup::Basic, proto::IceGoal::SinkAll, true),
        5,
    );
    // Choose and commit honestly, up to the first reveal.
    while !pair.sides[0]
        .table()
        .position()
        .is_some_and(|p| Seat::BOTH.iter().any(|&s| p.revealing(s)))
    {
        let mover = pair.sides[0].table().mover().unwrap();
        let mv = pair.next_move(mover, Level::Easy);
        pair.sides[mover.index()]
            .handle_command(0, Command::Move(mv))
            .unwrap();
        pair.deliver();
    }
    let position = pair.sides[0].table().position().unwrap().clone();
    let liar = Seat::BOTH
        .into_iter()
        .find(|&s| position.revealing(s))
        .unwrap();
    let (salt, mut ships) = pair.secrets[liar.index()].clone().unwrap();
    // The session refuses to send it.
    ships.swap(0, 1);
    let swapped = IceMove::reveal(salt, &ships).unwrap();
    let refused = pair.sides[liar.index()].handle_command(0, Command::Move(swapped));
    assert!(refused.is_err(), "{refused:?}");
    // Signed by a lying client, it is a lie named by the other side and by verify.
    let wire: Vec<proto::IcePlaced> = match armada::fair::icehouse::act(&swapped) {
        IceAct::Reveal { ships, .. } => ships,
        _ => unreachable!(),
    };
    let seq = pair.lie(liar, IceAct::Reveal { salt, ships: wire }, 3);
    let named = pair.sides[liar.other().index()].table().settled().cloned();
    let Some(Verdict::Lie(told)) = &named else {
        panic!("no lie named: {named:?}");
    };
    assert_eq!((told.liar, told.seq), (liar, seq));
    assert!(
        told.reason
            .contains("the placement revealed does not match its commitment"),
        "{}",
        told.reason
    );
    let report = pair.verified(liar.other());
    assert!(matches!(report.outcome, verify::Outcome::Lie(ref l) if l.liar == liar));
}

#[test]
fn a_commitment_binds_the_game_the_seat_the_salt_and_every_ship() {
    let ships = ice::random_placement(
        ice::Side::South,
        Fleet::HEAVY,
        ice::Goal::SinkAll,
        &mut ChaCha8Rng::seed_from_u64(1),
    );
    let base = commitment(&[1; 32], Seat::Host, &[2; 32], &ships);
    assert_ne!(base, commitment(&[9; 32], Seat::Host, &[2; 32], &ships));
    assert_ne!(base, commitment(&[1; 32], Seat::Guest, &[2; 32], &ships));
    assert_ne!(base, commitment(&[1; 32], Seat::Host, &[3; 32], &ships));
    let mut moved = ships.clone();
    moved[3].pose.bow.x += 1;
    assert_ne!(base, commitment(&[1; 32], Seat::Host, &[2; 32], &moved));
}

/// A placement that opens its commitment but breaks the page (here: laid in the
/// other side's home strip) is a lie named with the rule it breaks.
#[test]
fn a_placement_outside_the_home_strip_is_a_named_lie_even_when_it_opens_its_commitment() {
    let mut pair = Pair::new(
        settings(proto::IceSetup::Basic, proto::IceGoal::SinkAll, true),
        13,
    );
    // The choice, by the guest: it moves first (south).
    let chooser = pair.sides[0].table().mover().unwrap();
    pair.sides[chooser.index()]
        .handle_command(
            0,
            Command::Move(IceMove::Choose {
                chooser_first: true,
            }),
        )
        .unwrap();
    pair.deliver();
    let south = chooser;
    let position = pair.sides[0].table().position().unwrap().clone();
    let (side, fleet, goal) = position.placing(south).unwrap();
    assert_eq!(side, ice::Side::South);
    // South lays its fleet in the north strip and commits to it honestly: the
    // commitment itself cannot tell.
    let ships = ice::random_placement(
        ice::Side::North,
        fleet.unwrap(),
        goal,
        &mut ChaCha8Rng::seed_from_u64(3),
    );
    let salt = [9; 32];
    let hash = position.commit_for(south, &salt, &ships);
    pair.sides[south.index()]
        .handle_command(0, Command::Move(IceMove::Commit(hash)))
        .expect("a commitment cannot be checked before its reveal");
    pair.deliver();
    // North commits honestly; south's session then refuses to reveal that placement.
    let north = south.other();
    let mv = pair.next_move(north, Level::Easy);
    pair.sides[north.index()]
        .handle_command(0, Command::Move(mv))
        .unwrap();
    pair.deliver();
    let reveal = IceMove::reveal(salt, &ships).unwrap();
    assert!(
        pair.sides[south.index()]
            .handle_command(0, Command::Move(reveal))
            .is_err()
    );
    // Signed by a lying client, it opens the commitment and is still a lie.
    let IceAct::Reveal { ships: wire, .. } = armada::fair::icehouse::act(&reveal) else {
        unreachable!("a reveal's wire form is a reveal")
    };
    let seq = pair.lie(south, IceAct::Reveal { salt, ships: wire }, 3);
    let named = pair.sides[north.index()].table().settled().cloned();
    let Some(Verdict::Lie(told)) = &named else {
        panic!("no lie named: {named:?}");
    };
    assert_eq!((told.liar, told.seq), (south, seq));
    assert!(
        told.reason.contains("lies outside the south home strip"),
        "{}",
        told.reason
    );
}

/// The clock is a turn's, not a step's: the other side's claim falls due `move_ms`
/// after the turn began, however many actions came meanwhile; the claim, confirmed
/// by the slow side's next frame, wins the game on both sides and in `verify`.
#[test]
fn a_whole_turn_owed_past_the_turn_time_is_claimed_and_the_claim_wins() {
    let mut table = settings(proto::IceSetup::Basic, proto::IceGoal::SinkAll, true);
    table.move_ms = 10_000;
    let mut pair = Pair::new(table, 40);
    pair.put_to_sea();
    let slow = pair.sides[0].table().mover().unwrap();
    let claimant = slow.other();
    assert_eq!(pair.sides[claimant.index()].poll_timeout(), Some(10_000));
    // One action at 8 s does not restart the clock of the turn.
    let game = pair.game(Seat::Host.index());
    let action = (0..200)
        .map(|_| ice::choose(&game, Level::Hard, &mut pair.rng))
        .find(|a| *a != ice::Action::EndTurn)
        .expect("an action other than ending the turn");
    pair.sides[slow.index()]
        .handle_command(8_000, Command::Move(IceMove::Act(action)))
        .unwrap();
    pair.deliver_at(8_000);
    assert_eq!(pair.sides[claimant.index()].poll_timeout(), Some(10_000));
    pair.sides[claimant.index()].handle_timeout(9_999);
    assert!(
        pair.sides[claimant.index()].table().claim().is_none(),
        "not yet"
    );
    pair.sides[claimant.index()].handle_timeout(10_000);
    pair.deliver_at(10_000);
    let won = Verdict::Decided(armada::fair::table::open::Outcome {
        winner: Some(claimant),
        reason: armada::fair::table::open::Reason::Forfeit,
    });
    for side in &pair.sides {
        assert_eq!(side.table().verdicts(), vec![won.clone()]);
    }
    for seat in Seat::BOTH {
        let report = pair.verified(seat);
        assert_eq!(
            report.outcome,
            verify::Outcome::Honest,
            "{}",
            report.to_text()
        );
        assert!(report.icehouse[0].claimed);
    }
}

/// A ship laid with its stern at (x, y) mm, heading east, north, west or south.
fn laid(size: ice::Size, x: i64, y: i64, heading: u16) -> Placed {
    let stern = ice::Point::new(x * 1000, y * 1000);
    let s = size.slant();
    let (dx, dy) = match heading {
        0 => (s, 0),
        90 => (0, s),
        180 => (-s, 0),
        _ => (0, -s),
    };
    Placed {
        size,
        pose: ice::Pose::new(stern, ice::Point::new(stern.x + dx, stern.y + dy)),
        flagship: false,
    }
}

/// A table laid out for lies, south (the guest, light) to move: M1 and M2 bow to bow
/// 17 mm apart, M3 and M4 and three small ships heading north, S1 at the west edge
/// heading west; north's four large ships in a row heading south.
fn laid_out() -> (Pair, Seat) {
    use ice::Size::{Large, Medium, Small};
    let mut pair = Pair::new(
        settings(proto::IceSetup::Basic, proto::IceGoal::SinkAll, true),
        50,
    );
    let south = [
        laid(Medium, 200, 60, 0),
        laid(Medium, 290, 60, 180),
        laid(Medium, 450, 60, 90),
        laid(Medium, 600, 60, 90),
        laid(Small, 35, 60, 180),
        laid(Small, 700, 60, 90),
        laid(Small, 750, 60, 90),
        laid(Small, 800, 60, 90),
    ];
    let north = [100, 300, 500, 700].map(|x| laid(Large, x, 500, 270));
    let liar = pair.put_to_sea_as(&south, &north);
    assert_eq!(liar, Seat::Guest);
    (pair, liar)
}

/// South's move of ship `ship` by `steps` steps of (dx, dy) each from its bow.
fn straight(game: &ice::Game, ship: u8, (dx, dy): (i64, i64), steps: i64) -> ice::Action {
    let bow = game.ships(ice::Side::South)[usize::from(ship)].pose.bow;
    let bows: Vec<ice::Point> = (1..=steps)
        .map(|k| ice::Point::new(bow.x + k * dx, bow.y + k * dy))
        .collect();
    ice::Action::Move {
        ship,
        steps: ice::Steps::new(&bows).unwrap(),
    }
}

/// `liar` signs `action` as step `number` on a copy of the table: the other side
/// names it a lie (the reason returned), changes nothing, and `verify` agrees.
fn named_lie(pair: &mut Pair, liar: Seat, action: ice::Action, number: u32) -> String {
    let mut table = pair.fork();
    let honest = liar.other();
    let before = table.game(honest.index());
    let seq = table.lie(
        liar,
        armada::fair::icehouse::act(&IceMove::Act(action)),
        number,
    );
    let Some(Verdict::Lie(told)) = table.sides[honest.index()].table().settled().cloned() else {
        panic!("{action:?}: no lie named");
    };
    assert_eq!((told.liar, told.seq), (liar, seq));
    assert_eq!(table.game(honest.index()), before, "nothing changed");
    let report = table.verified(honest);
    assert!(
        matches!(&report.outcome, verify::Outcome::Lie(l) if l.liar == liar && l.seq == seq),
        "{}",
        report.to_text()
    );
    told.reason
}

/// Every kind of illegal step and shot signed by a lying client on a laid-out
/// position is a lie named with the engine's refusal at the other side's table and
/// in `verify`, and changes nothing there.
#[test]
fn every_kind_of_illegal_step_or_shot_signed_by_a_liar_is_named_with_its_reason() {
    let (mut pair, liar) = laid_out();
    let game = pair.game(0);
    let (m, s) = (ice::Size::Medium.slant(), ice::Size::Small.slant());
    let stern = game.ships(ice::Side::South)[2].pose.stern;
    let cases = [
        (
            straight(&game, 2, (0, m + 10_000), 1),
            "is not one ship length from",
        ),
        (
            ice::Action::Move {
                ship: 2,
                steps: ice::Steps::new(&[stern]).unwrap(),
            },
            "turns too sharply",
        ),
        (straight(&game, 4, (-s, 0), 1), "is off the table"),
        (
            straight(&game, 0, (m, 0), 1),
            "touches south's medium ship M2",
        ),
        (
            straight(&game, 2, (0, m), 3),
            "takes at most 2 steps, not 3",
        ),
        (
            ice::Action::Fire(ice::Shot {
                ship: 2,
                side: ice::Broadside::Port,
                o: 0,
                j: 0,
                target: 0,
                at: game.ships(ice::Side::North)[0].pose.bow,
            }),
            "is not in the field of fire",
        ),
    ];
    for (action, says) in cases {
        let refusal = game.check(&action).expect_err(says).to_string();
        assert!(refusal.contains(says), "{refusal} / {says}");
        let reason = named_lie(&mut pair, liar, action, 5);
        assert!(
            reason.starts_with("an illegal move") && reason.ends_with(&refusal),
            "{reason}"
        );
    }
}

/// A ship that moved moving again, and a fourth action after the turn's three, are
/// named lies too.
#[test]
fn a_second_move_of_one_ship_and_a_fourth_action_signed_by_a_liar_are_named() {
    let (mut pair, liar) = laid_out();
    let game = pair.game(0);
    let (m, s) = (ice::Size::Medium.slant(), ice::Size::Small.slant());
    let honest_steps = [
        straight(&game, 2, (0, m), 1),
        straight(&game, 3, (0, m), 1),
        straight(&game, 5, (0, s), 1),
    ];
    pair.sides[liar.index()]
        .handle_command(0, Command::Move(IceMove::Act(honest_steps[0])))
        .unwrap();
    pair.deliver();
    let again = straight(&pair.game(0), 2, (0, m), 1);
    let reason = named_lie(&mut pair, liar, again, 6);
    assert!(
        reason.ends_with("M3 has already moved this turn"),
        "{reason}"
    );
    for action in &honest_steps[1..] {
        pair.sides[liar.index()]
            .handle_command(0, Command::Move(IceMove::Act(*action)))
            .unwrap();
        pair.deliver();
    }
    let fourth = straight(&game, 6, (0, s), 1);
    let reason = named_lie(&mut pair, liar, fourth, 8);
    assert!(reason.contains("out of turn"), "{reason}");
}
