//! TRUST.md's cheats C1–C15, each told by a lying peer that signs its own lies, each
//! caught by the honest session at the message TRUST.md says, for the exact reason.

use armada::fair::table::{Lie, Rejected, Verdict};
use armada::fair::verify::{Outcome, verify};
use armada::fair::wire;
use armada::rules::{Action, CellSet, Fleet, Seat, Variant};
use armada::session::Command;
use armada_proto::Payload;

use crate::liar::{Cheat, Duel};
use crate::support::{FLEET, cells, fleet};

fn standard() -> Fleet {
    fleet(Variant::Armada, FLEET)
}

fn duel(cheat: Cheat) -> Duel {
    Duel::new(Variant::Armada, standard(), standard(), cheat)
}

/// The guest's message numbers: hello 0, nonce 1, commit 2, then one per answer or move.
const FIRST_ANSWER: u32 = 3;

fn assert_lie(duel: &Duel, seq: u32, reason: &str) {
    let lie = duel.proven().expect("the lie is caught");
    assert_eq!(
        lie,
        Lie {
            liar: Seat::Guest,
            seq,
            reason: reason.into()
        }
    );
    // The game ended at once, and the liar is named the loser.
    let ending = duel
        .host
        .table()
        .game()
        .unwrap()
        .ending()
        .expect("the game ended");
    assert_eq!(ending.winner, Some(Seat::Host));
    assert_offline(duel, &Outcome::Lie(lie));
}

/// `armada verify` on the honest side's saved transcript finds the same.
fn assert_offline(duel: &Duel, expected: &Outcome) {
    let report = verify(&duel.host.table().transcript_file());
    assert_eq!(&report.outcome, expected);
    let code = match expected {
        Outcome::Honest => 0,
        Outcome::Lie(_) => 1,
        Outcome::Malformed(_) => 2,
        Outcome::Incomplete(_) => 3,
    };
    assert_eq!(report.outcome.exit_code(), code);
}

#[test]
fn c1_a_miss_on_a_deck_is_caught_at_once() {
    let mut d = duel(Cheat::MissOnDeck);
    d.host("A1");
    assert_lie(
        &d,
        FIRST_ANSWER,
        "the opening of A1 does not match the committed fleet",
    );
}

#[test]
fn c2_a_hit_on_water_is_caught_at_once() {
    let mut d = duel(Cheat::HitOnWater);
    d.host("E8");
    assert_lie(
        &d,
        FIRST_ANSWER,
        "the opening of E8 does not match the committed fleet",
    );
}

#[test]
fn c3_a_false_sinking_is_caught_by_its_ring() {
    let mut d = duel(Cheat::FalseSunk);
    d.host("A1");
    assert_lie(
        &d,
        FIRST_ANSWER,
        "a deck lies next to a ship reported sunk (at B1)",
    );
}

#[test]
fn c4_a_withheld_sinking_is_caught_as_soon_as_no_fleet_fits() {
    let host_fleet = standard();
    let mut d = duel(Cheat::WithholdSunk(cells("J1")[0]));
    d.host("J1"); // a hit, "not sunk": seq 3
    d.host("I1"); // seq 4, the move passes
    d.liar_misses(&host_fleet); // seq 5
    d.host("I2"); // seq 6
    d.liar_misses(&host_fleet); // seq 7
    assert_eq!(
        d.proven(),
        None,
        "J2 is still open: the boat could be a destroyer"
    );
    d.host("J2"); // seq 8: J1 is boxed in, yet afloat
    assert_lie(
        &d,
        8,
        "no legal fleet fits the answers any more: no legal fleet fits the answers given",
    );
}

#[test]
fn c4_a_withheld_sinking_never_boxed_in_is_caught_at_the_reveal() {
    let mut d = duel(Cheat::WithholdSunk(cells("J1")[0]));
    d.host("J1"); // "hit", seq 3: a lie nobody can see yet
    assert_eq!(d.proven(), None);
    d.host.handle_command(0, Command::Resign).unwrap();
    d.drive();
    let verdict = d.host.table().settled().cloned();
    let lie = Lie {
        liar: Seat::Guest,
        seq: 3,
        reason: "the answer to shot J1 does not match the revealed fleet".into(),
    };
    assert_eq!(verdict, Some(Verdict::Lie(lie.clone())));
    assert_offline(&d, &Outcome::Lie(lie));
}

#[test]
fn c5_an_all_water_fleet_is_caught_once_no_fleet_fits() {
    let host_fleet = standard();
    let mut d = duel(Cheat::Decks(CellSet::EMPTY));
    let mut shots = 0;
    while d.proven().is_none() {
        let game = d.host.table().game().unwrap();
        if game.mover() == Seat::Guest {
            d.liar_misses(&host_fleet);
            continue;
        }
        let cell = game
            .chart(Seat::Host)
            .unmarked()
            .iter()
            .next()
            .expect("caught before the board is full");
        d.host(&cell.to_string());
        shots += 1;
    }
    let lie = d.proven().unwrap();
    assert_eq!(
        lie.reason,
        "no legal fleet fits the answers any more: no legal fleet fits the answers given"
    );
    assert!(
        shots < 90,
        "caught after {shots} shots, long before the board is full"
    );
}

#[test]
fn c5_a_touching_fleet_is_caught_when_a_ring_holds_a_deck() {
    // The boat C7 moved to I4, touching the boat J3 and the destroyer's H5 by corners.
    let mut decks = standard().decks();
    decks.remove(cells("C7")[0]);
    decks.insert(cells("I4")[0]);
    let mut d = duel(Cheat::Decks(decks));
    d.host("I4");
    assert_lie(
        &d,
        FIRST_ANSWER,
        "a deck lies next to a ship reported sunk (at J3)",
    );
}

#[test]
fn c5_a_wrong_count_answered_consistently_is_caught_at_the_reveal() {
    // Five boats: an extra one at A10, far from everything the host will shoot.
    let mut decks = standard().decks();
    decks.insert(cells("A10")[0]);
    let mut d = duel(Cheat::Decks(decks));
    d.host("J1");
    d.host.handle_command(0, Command::Resign).unwrap();
    d.drive();
    let settled = d.host.table().settled().cloned();
    let Some(Verdict::Lie(lie)) = settled else {
        panic!("a lie at the reveal, not {settled:?}")
    };
    assert_eq!(lie.liar, Seat::Guest);
    assert_eq!(
        lie.reason,
        "the revealed fleet is illegal: the fleet needs 4 boats (1 decks), not 5"
    );
    assert_offline(&d, &Outcome::Lie(lie));
}

#[test]
fn c5_a_bent_ship_answered_consistently_is_caught_at_the_reveal() {
    // The boat at C7 grown into an L with decks at D7 and D8. A reveal can only state
    // straight ships, so the L is two runs that touch (and the counts are off).
    let mut decks = standard().decks();
    decks.insert(cells("D7")[0]);
    decks.insert(cells("D8")[0]);
    let mut d = duel(Cheat::Decks(decks));
    d.host("J1");
    d.host.handle_command(0, Command::Resign).unwrap();
    d.drive();
    let settled = d.host.table().settled().cloned();
    let Some(Verdict::Lie(lie)) = settled else {
        panic!("a lie at the reveal, not {settled:?}")
    };
    assert_eq!(lie.liar, Seat::Guest);
    assert!(
        lie.reason.starts_with("the revealed fleet is illegal"),
        "{}",
        lie.reason
    );
    assert_offline(&d, &Outcome::Lie(lie));
}

#[test]
fn c5_an_overlapping_fleet_is_caught_at_the_reveal() {
    // The destroyer G5–H5 never placed: the liar commits to 18 decks and answers by
    // them. Its reveal states the missing destroyer at B3–C3, on top of the cruiser
    // A3–C3, so the counts add up and the decks are those committed.
    let mut decks = standard().decks();
    for cell in cells("G5 H5") {
        decks.remove(cell);
    }
    let mut d = duel(Cheat::Decks(decks));
    d.host("J1");
    d.liar.cheat = Cheat::NoReveal; // it reveals by hand below
    d.host.handle_command(0, Command::Resign).unwrap();
    d.drive();
    assert_eq!(d.host.table().settled(), None, "waiting for the reveal");
    let size = Variant::Armada.size();
    let overlapping = armada::rules::Ship::new(cells("B3")[0], armada::rules::Dir::Across, 2);
    let mut ships: Vec<_> = standard()
        .ships()
        .iter()
        .filter(|ship| ship.bow() != cells("G5")[0])
        .chain([&overlapping])
        .map(|ship| wire::ship(ship, size))
        .collect();
    ships.sort_by_key(|s| s.bow);
    let board = d.liar.board.as_ref().unwrap();
    assert_eq!(board.decks(), decks);
    let payload = Payload::Reveal {
        game: d.liar.table.game_id().unwrap(),
        ships,
        salts: board.salts().copied().collect(),
        contributions: d.liar.contributions.iter().map(|c| *c.expose()).collect(),
    };
    let (seq, _) = d.liar.table.chain_head(Seat::Guest);
    d.liar.send(payload);
    d.drive();
    let lie = Lie {
        liar: Seat::Guest,
        seq,
        reason: "the revealed fleet is illegal: cruiser A3–C3 overlaps destroyer B3–C3 at B3"
            .into(),
    };
    assert_eq!(d.host.table().settled(), Some(&Verdict::Lie(lie.clone())));
    assert_offline(&d, &Outcome::Lie(lie));
}

#[test]
fn c6_an_opening_that_does_not_match_is_caught_at_once() {
    let mut d = duel(Cheat::BadSalt);
    d.host("E8");
    assert_lie(
        &d,
        FIRST_ANSWER,
        "the opening of E8 does not match the committed fleet",
    );
}

#[test]
fn c6_a_layout_changed_mid_game_is_caught_at_once() {
    let mut d = duel(Cheat::ChangeLayout(standard().decks()));
    d.host("A1"); // answered from the committed layout
    d.host("B1"); // answered from the new one: same content, other salts
    assert_lie(
        &d,
        4,
        "the opening of B1 does not match the committed fleet",
    );
}

#[test]
fn c7_a_contribution_that_does_not_match_is_caught_at_once() {
    let mut d = duel(Cheat::BadContribution);
    d.host
        .handle_command(
            0,
            Command::Act(armada::rules::Action::AirStrike(cells("E9")[0])),
        )
        .unwrap();
    d.drive();
    assert_lie(
        &d,
        FIRST_ANSWER,
        "the contribution to air strike 0 does not match its commitment",
    );
}

#[test]
fn c7_a_copied_commitment_is_caught_at_once() {
    let d = duel(Cheat::CopyCommitment);
    let lie = d.proven().expect("caught");
    assert_eq!(
        lie,
        Lie {
            liar: Seat::Guest,
            seq: 2,
            reason: "the commitment copies the other peer's".into()
        }
    );
}

/// The liar, to move, plays `action` revealing `contribution` (where `Liar::act`
/// would reveal the committed one); returns the seq of its `Act`.
fn act_by_hand(d: &mut Duel, action: Action, contribution: Option<[u8; 32]>) -> u32 {
    let table = &d.liar.table;
    let (game, number) = (table.game_id().unwrap(), table.game().unwrap().actions());
    let (seq, _) = table.chain_head(Seat::Guest);
    d.liar.send(Payload::Act {
        game,
        number,
        action: wire::action(action, Variant::Armada.size()),
        timeout: false,
        contribution,
    });
    d.drive();
    seq
}

#[test]
fn c7_a_wrong_contribution_from_the_attacker_is_caught_at_once() {
    let mut d = duel(Cheat::None);
    d.host_misses(); // the liar has the move
    // Its first air strike is strike 2; it reveals its own contribution to strike 3.
    let wrong = *d.liar.contributions[3].expose();
    let seq = act_by_hand(&mut d, Action::AirStrike(cells("E9")[0]), Some(wrong));
    assert_lie(
        &d,
        seq,
        "the contribution to air strike 2 does not match its commitment",
    );
    // Caught at the `Act` itself: the host never answered the strike.
    assert_eq!(d.host.table().history().len(), 1, "only the host's miss");
    assert_eq!(d.host.table().pending(), None);
}

#[test]
fn c7_an_air_strike_without_the_attacker_s_contribution_is_caught_at_once() {
    let mut d = duel(Cheat::None);
    d.host_misses();
    let seq = act_by_hand(&mut d, Action::AirStrike(cells("E9")[0]), None);
    assert_lie(&d, seq, "an air strike without its contribution");
    assert_eq!(d.host.table().history().len(), 1, "only the host's miss");
}

#[test]
fn c8_a_torpedo_run_past_a_deck_is_caught_at_once() {
    let mut d = duel(Cheat::TorpedoRunsPast);
    d.host("torpedo column H down"); // H1–H4 water, H5 a deck
    assert_lie(
        &d,
        FIRST_ANSWER,
        "the opening of H5 does not match the committed fleet",
    );
}

#[test]
fn c8_a_torpedo_stopped_on_water_is_caught_at_once() {
    let mut d = duel(Cheat::HitOnWater);
    d.host("torpedo row 8 right");
    assert_lie(
        &d,
        FIRST_ANSWER,
        "the opening of A8 does not match the committed fleet",
    );
}

/// Answers that break the order of openings, each to the host's torpedo down column H
/// (H1–H4 water, H5 a deck of the destroyer G5–H5, which it does not sink). Every
/// opening is honest about its cell; only which cells are opened, and how, is a lie.
mod c8_openings {
    use super::c10_replays::answer_by_hand;
    use super::*;
    use armada::rules::Content;

    /// The liar answers the torpedo with openings of `opened`, in that order; returns
    /// the duel and the seq of the answer.
    fn torpedo_answered_with(opened: &str) -> (Duel, u32) {
        let mut d = duel(Cheat::Stall);
        d.host("A1"); // answered honestly (seq 3), a hit: the host moves again
        d.host("torpedo column H down"); // the liar stalls: answered by hand
        let board = d.liar.board.as_ref().unwrap();
        let openings = cells(opened)
            .into_iter()
            .map(|cell| {
                let content = if d.liar.decks.contains(cell) {
                    Content::Deck { sinks: false }
                } else {
                    Content::Water
                };
                wire::opening(&board.open(cell), content, Variant::Armada.size())
            })
            .collect();
        let seq = answer_by_hand(&mut d, openings, None);
        assert_eq!(seq, 4);
        (d, seq)
    }

    #[test]
    fn the_honest_answer_is_taken() {
        let (d, _) = torpedo_answered_with("H1 H2 H3 H4 H5");
        assert_eq!(d.proven(), None);
        let played = d.host.table().history().last().unwrap();
        assert_eq!(played.answer_seq, 4);
        assert!(
            played
                .report
                .effects
                .iter()
                .any(armada::rules::Effect::is_hit)
        );
    }

    #[test]
    fn an_answer_that_leaves_out_the_deck_is_a_lie() {
        let (d, seq) = torpedo_answered_with("H1 H2 H3 H4");
        assert_lie(&d, seq, "the answer leaves out H5, which the rules need");
    }

    #[test]
    fn an_answer_that_opens_a_cell_not_asked_for_is_a_lie() {
        let (d, seq) = torpedo_answered_with("H1 H2 H3 H4 H5 H6");
        assert_lie(&d, seq, "the answer opens cells the rules did not ask for");
    }

    #[test]
    fn an_answer_that_opens_a_cell_twice_is_a_lie() {
        let (d, seq) = torpedo_answered_with("H1 H2 H2 H3 H4 H5");
        assert_lie(&d, seq, "H2 is opened twice");
    }

    #[test]
    fn an_answer_out_of_order_is_a_lie() {
        let (d, seq) = torpedo_answered_with("H2 H1 H3 H4 H5");
        assert_lie(
            &d,
            seq,
            "the answer's openings are not in the order the rules looked at them",
        );
    }
}

#[test]
fn c9_a_radar_lie_is_caught_at_once() {
    let mut d = duel(Cheat::RadarBlind);
    d.host("radar B2");
    assert_lie(
        &d,
        FIRST_ANSWER,
        "the opening of A1 does not match the committed fleet",
    );
}

#[test]
fn c11_a_message_signed_by_another_key_is_refused_and_changes_nothing() {
    let mut d = duel(Cheat::ForeignKey);
    // The liar's nonce, signed by a stranger, never got in: no game opened.
    assert_eq!(d.host.table().game_id(), None);
    assert!(d.host.table().key(Seat::Guest).is_some());
    let events: Vec<_> = std::iter::from_fn(|| d.host.poll_event()).collect();
    assert!(
        events.contains(&armada::session::Event::Refused(Rejected::Signature(
            Seat::Guest
        ))),
        "{events:?}"
    );
}

mod c10_replays {
    use super::*;
    use armada::fair::wire;
    use armada_proto::Payload;

    #[test]
    fn a_replayed_frame_is_refused_and_changes_nothing() {
        let mut d = duel(Cheat::None);
        d.host("A1");
        let (_, answer) = d.liar.table.transcript().back().unwrap().clone();
        let before = d.host.table().transcript().len();
        assert_eq!(
            d.host.handle_message(0, &answer),
            Err(Rejected::Duplicate {
                from: Seat::Guest,
                seq: 3
            })
        );
        assert_eq!(d.host.table().transcript().len(), before);
        assert_eq!(d.proven(), None);
    }

    #[test]
    fn a_message_that_skips_its_predecessor_is_a_lie() {
        let mut d = duel(Cheat::None);
        // Signed with a wrong link to the liar's previous message.
        let (seq, _) = d.liar.table.chain_head(Seat::Guest);
        let body = armada_proto::Body {
            version: armada_proto::PROTOCOL_VERSION,
            table: d.liar.table.id(),
            from: armada_proto::Seat::Guest,
            seq,
            prev: [7; 32],
            seen: d.liar.table.last_hash(Seat::Host),
            payload: Payload::Resign {
                game: d.liar.table.game_id().unwrap(),
            },
        };
        let frame = d.liar.identity.seal(&body);
        d.host.handle_message(0, &frame).unwrap();
        assert_lie(
            &d,
            seq,
            "the message does not follow the sender's previous message",
        );
    }

    /// Game one played honestly and resigned, game two started with the host to move;
    /// the liar stops answering by itself. Returns game one's sealed board and
    /// contributions, the material a replay would reuse.
    fn into_game_two() -> (Duel, armada::fair::commit::SealedBoard, Vec<[u8; 32]>) {
        let host_fleet = standard();
        let mut d = duel(Cheat::None);
        d.host("A1");
        d.host.handle_command(0, Command::Resign).unwrap();
        d.drive();
        assert!(matches!(d.host.table().settled(), Some(Verdict::Honest(_))));
        let board = d.liar.board.clone().unwrap();
        let contributions = d.liar.contributions.iter().map(|c| *c.expose()).collect();
        d.host.handle_command(0, Command::PlayAgain).unwrap();
        d.liar.send(Payload::PlayAgain { number: 1 });
        d.drive();
        d.liar.send(Payload::Nonce {
            number: 1,
            nonce: [9; 32],
        }); // the game opens: it commits
        d.drive();
        d.host
            .handle_command(0, Command::Place(host_fleet.clone()))
            .unwrap();
        d.drive();
        d.host.handle_command(0, Command::Start).unwrap();
        d.drive();
        // Game two: the guest moves first.
        d.liar_misses(&host_fleet);
        d.liar.cheat = Cheat::Stall;
        (d, board, contributions)
    }

    /// The liar answers the pending action by hand; returns the seq of that answer.
    pub(super) fn answer_by_hand(
        d: &mut Duel,
        openings: Vec<armada_proto::WireOpening>,
        contribution: Option<[u8; 32]>,
    ) -> u32 {
        let (id, number) = (
            d.liar.table.game_id().unwrap(),
            d.liar.table.pending().unwrap().number,
        );
        let (seq, _) = d.liar.table.chain_head(Seat::Guest);
        d.liar.send(Payload::Answer {
            game: id,
            number,
            openings,
            contribution,
        });
        d.drive();
        seq
    }

    /// The liar's next frame as it would sign it honestly, carrying `payload`: a test
    /// changes one field before sealing it.
    fn resignation(d: &Duel) -> Payload {
        Payload::Resign {
            game: d.liar.table.game_id().unwrap(),
        }
    }

    const BAD_SEEN: &str = "the message refers to a message of the other peer that was never sent, or to an older one than before";

    #[test]
    fn a_frame_of_another_table_is_refused_and_changes_nothing() {
        let mut d = duel(Cheat::None);
        let body = armada_proto::Body {
            table: [1; 32],
            ..d.liar.next_body(resignation(&d))
        };
        let frame = d.liar.identity.seal(&body);
        let before = d.host.table().transcript().len();
        assert_eq!(d.host.handle_message(0, &frame), Err(Rejected::OtherTable));
        assert_eq!(d.host.table().transcript().len(), before);
        assert_eq!(d.host.table().chain_head(Seat::Guest).0, body.seq);
        assert_eq!(d.proven(), None);
        assert!(
            !d.host.table().game().unwrap().is_over(),
            "the resignation did not count"
        );
        // Its number is still free: the liar's next real frame takes it.
        d.host("A1");
        assert_eq!(d.host.table().history()[0].answer_seq, body.seq);
        assert_eq!(d.proven(), None);
    }

    #[test]
    fn an_action_naming_game_one_in_game_two_is_a_lie() {
        let (mut d, game_one, _) = into_game_two();
        d.liar.cheat = Cheat::None;
        d.host_misses(); // the liar has the move
        let stale = game_one.binding().game;
        assert_ne!(d.liar.table.game_id(), Some(stale));
        let (seq, _) = d.liar.table.chain_head(Seat::Guest);
        d.liar.send(Payload::Act {
            game: stale,
            number: d.liar.table.game().unwrap().actions(),
            action: wire::action(Action::Shot(cells("E9")[0]), Variant::Armada.size()),
            timeout: false,
            contribution: None,
        });
        d.drive();
        assert_lie(&d, seq, "the message names another game");
    }

    #[test]
    fn a_seen_link_to_no_frame_of_the_other_peer_is_a_lie() {
        let mut d = duel(Cheat::None);
        d.host("A1");
        resign_having_seen(&mut d, [9; 32]);
    }

    /// The liar resigns in a frame whose `seen` link is `seen`: a lie, named as such.
    fn resign_having_seen(d: &mut Duel, seen: [u8; 32]) {
        let body = armada_proto::Body {
            seen,
            ..d.liar.next_body(resignation(d))
        };
        d.host
            .handle_message(0, &d.liar.identity.seal(&body))
            .unwrap();
        assert_lie(d, body.seq, BAD_SEEN);
    }

    #[test]
    fn a_seen_link_older_than_before_is_a_lie() {
        let mut d = duel(Cheat::None);
        d.host("A1"); // the liar's answer saw the host's shot
        let host_hello = d
            .liar
            .table
            .transcript()
            .iter()
            .find(|(seat, _)| *seat == Seat::Host)
            .map(|(_, bytes)| armada::fair::sign::frame_hash(bytes))
            .unwrap();
        // A real frame of the host's, but older than the shot.
        resign_having_seen(&mut d, host_hello);
    }

    #[test]
    fn a_mid_game_frame_ahead_of_its_predecessor_is_held_then_taken_in() {
        let mut d = duel(Cheat::None);
        d.host
            .handle_command(0, Command::Act(Action::Shot(cells("E8")[0])))
            .unwrap();
        while let Some(frame) = d.host.poll_transmit() {
            d.liar.receive(&frame);
        }
        // The liar answers the miss (seq 3) and, to move now, shoots at once (seq 4);
        // the shot overtakes the answer.
        d.liar.act(Action::Shot(cells("A10")[0]), false);
        let answer = d.liar.outbox.pop_front().unwrap();
        let shot = d.liar.outbox.pop_front().unwrap();
        assert!(d.liar.outbox.is_empty());
        assert_eq!(
            d.host.handle_message(0, &shot),
            Err(Rejected::OutOfOrder {
                from: Seat::Guest,
                expected: 3,
                got: 4
            })
        );
        assert_eq!(
            d.host.table().chain_head(Seat::Guest).0,
            3,
            "held, not taken in"
        );
        assert!(d.host.table().history().is_empty());
        d.host.handle_message(0, &answer).unwrap();
        assert_eq!(
            d.host.table().chain_head(Seat::Guest).0,
            5,
            "the answer, then the held shot"
        );
        d.drive();
        let history = d.host.table().history();
        assert_eq!(history.len(), 2, "the host's miss and the liar's shot");
        assert_eq!(
            (history[1].seat, history[1].action),
            (Seat::Guest, Action::Shot(cells("A10")[0]))
        );
        assert_eq!(d.proven(), None);
        assert_eq!(d.host.table().game().unwrap().mover(), Seat::Host);
        let guest_frames: Vec<_> = d
            .host
            .table()
            .transcript()
            .iter()
            .filter(|(seat, _)| *seat == Seat::Guest)
            .map(|(_, bytes)| bytes.clone())
            .collect();
        assert_eq!(guest_frames[3..], [answer, shot], "taken in in order");
    }

    #[test]
    fn a_game_one_opening_replayed_into_game_two_is_refused() {
        let (mut d, game_one, _) = into_game_two();
        d.host("A1");
        let deck = armada::rules::Content::Deck { sinks: false };
        let stale = wire::opening(&game_one.open(cells("A1")[0]), deck, Variant::Armada.size());
        let seq = answer_by_hand(&mut d, vec![stale], None);
        assert_lie(
            &d,
            seq,
            "the opening of A1 does not match the committed fleet",
        );
    }

    #[test]
    fn a_game_one_contribution_replayed_into_game_two_is_refused() {
        let (mut d, _, game_one) = into_game_two();
        d.host("air E9");
        // The host's strike is number 0: the liar answers with game one's contribution 0.
        let seq = answer_by_hand(&mut d, vec![], Some(game_one[0]));
        assert_lie(
            &d,
            seq,
            "the contribution to air strike 0 does not match its commitment",
        );
    }
}

mod c12_illegal_actions {
    use super::*;
    use armada::fair::shared::{strike_number, timeout_cell};

    /// A duel in which the liar has the move.
    fn liar_to_move() -> (Duel, Fleet) {
        let mut d = duel(Cheat::None);
        d.host_misses();
        (d, standard())
    }

    fn illegal(action: Action, timeout: bool, reason: &str) {
        let (mut d, _) = liar_to_move();
        let (seq, _) = d.liar.table.chain_head(Seat::Guest);
        d.liar.act(action, timeout);
        d.drive();
        assert_lie(&d, seq, reason);
    }

    /// The liar plays `action` (typed as a player would), which misses and hands the
    /// move over; the host misses back.
    fn liar_misses_with(d: &mut Duel, action: &str) {
        let action = Action::parse(action, Variant::Armada.size()).unwrap();
        d.liar.act(action, false);
        d.drive();
        assert_eq!(d.proven(), None, "{action} is legal");
        let game = d.host.table().game().unwrap();
        assert_eq!(game.mover(), Seat::Host, "{action} missed");
        d.host_misses();
    }

    /// The liar plays `before` (each a miss), then `action`, which must be named as a
    /// lie for `reason`. An air strike reveals the liar's committed contribution (its
    /// last one once both are spent), so only the rules can refuse it.
    fn illegal_after(before: &[&str], action: &str, reason: &str) {
        let (mut d, _) = liar_to_move();
        for earlier in before {
            liar_misses_with(&mut d, earlier);
        }
        let action = Action::parse(action, Variant::Armada.size()).unwrap();
        let contribution = matches!(action, Action::AirStrike(_)).then(|| {
            let left = d.liar.table.game().unwrap().stock(Seat::Guest).air_strikes;
            let strike = strike_number(Seat::Guest, (2 - left).min(1));
            *d.liar.contributions[strike as usize].expose()
        });
        let seq = act_by_hand(&mut d, action, contribution);
        assert_lie(&d, seq, reason);
    }

    #[test]
    fn a_third_torpedo() {
        illegal_after(
            &["torpedo row 8 right", "torpedo row 9 right"],
            "torpedo row 10 right",
            "illegal action torpedo row 10 →: no torpedo left",
        );
    }

    #[test]
    fn a_third_air_strike() {
        illegal_after(
            &["air E9", "air I9"],
            "air B9",
            "illegal action air strike B9: no air strike left",
        );
    }

    #[test]
    fn a_torpedo_line_with_no_open_cell() {
        illegal_after(
            &["torpedo row 8 right"],
            "torpedo row 8 left",
            "illegal action torpedo row 8 ←: torpedo row 8 ←: every cell of that line is already marked",
        );
    }

    #[test]
    fn an_air_strike_square_with_no_open_cell() {
        // Rows 8 and 9 by torpedo, then A10–C10: the square A8–C10 is all marked.
        illegal_after(
            &[
                "torpedo row 8 right",
                "torpedo row 9 right",
                "A10",
                "B10",
                "C10",
            ],
            "air B9",
            "illegal action air strike B9: the square around B9 has no unmarked cell",
        );
    }

    #[test]
    fn an_edge_centre() {
        illegal(
            Action::AirStrike(cells("A5")[0]),
            false,
            "illegal action air strike A5: A5 is on the edge: the centre's whole 3×3 square must lie on the board",
        );
    }

    #[test]
    fn a_marked_cell_and_a_spent_radar() {
        let (mut d, host_fleet) = liar_to_move();
        d.liar.act(Action::Radar(cells("B9")[0]), false);
        d.drive();
        d.host_misses();
        d.liar.act(Action::Shot(cells("E9")[0]), false);
        d.drive();
        d.host_misses();
        let (seq, _) = d.liar.table.chain_head(Seat::Guest);
        d.liar.act(Action::Shot(cells("E9")[0]), false);
        d.drive();
        assert_lie(&d, seq, "illegal action shot E9: E9 is already marked");
        let _ = host_fleet;
        let mut d2 = liar_to_move().0;
        d2.liar.act(Action::Radar(cells("B9")[0]), false);
        d2.drive();
        d2.host_misses();
        let (seq, _) = d2.liar.table.chain_head(Seat::Guest);
        d2.liar.act(Action::Radar(cells("E9")[0]), false);
        d2.drive();
        assert_lie(&d2, seq, "illegal action radar E9: no radar left");
    }

    #[test]
    fn out_of_turn() {
        let mut d = duel(Cheat::None);
        let (seq, _) = d.liar.table.chain_head(Seat::Guest);
        d.liar.act(Action::Shot(cells("E9")[0]), false);
        d.drive();
        assert_lie(&d, seq, "illegal action shot E9: it is the host's turn");
    }

    /// The cell the liar's timeout shot must go to now.
    fn due(d: &Duel) -> armada::rules::Coord {
        let table = &d.liar.table;
        let (id, game) = (table.game_id().unwrap(), table.game().unwrap());
        let (_, prev) = table.chain_head(Seat::Guest);
        timeout_cell(
            &id,
            &prev,
            game.actions(),
            game.chart(Seat::Guest).unmarked(),
        )
        .unwrap()
    }

    /// The liar to move in a game its host started with the move timer on.
    fn timed_liar_to_move() -> Duel {
        let mut d = Duel::timed(Variant::Armada, standard(), standard(), Cheat::None, true);
        d.host_misses();
        d
    }

    #[test]
    fn a_timeout_shot_in_a_game_without_the_timer_is_a_lie() {
        let (mut d, _) = liar_to_move();
        let due = due(&d);
        let (seq, _) = d.liar.table.chain_head(Seat::Guest);
        d.liar.act(Action::Shot(due), true);
        d.drive();
        assert_lie(&d, seq, "a timeout shot in a game without the move timer");
    }

    #[test]
    fn a_timeout_shot_must_hit_the_derived_cell() {
        let mut d = timed_liar_to_move();
        let due = due(&d);
        let (seq, _) = d.liar.table.chain_head(Seat::Guest);
        let open = d.liar.table.game().unwrap().chart(Seat::Guest).unmarked();
        let other = open.iter().find(|c| *c != due).unwrap();
        d.liar.act(Action::Shot(other), true);
        d.drive();
        assert_lie(
            &d,
            seq,
            &format!("a timeout shot at shot {other}, but the timeout cell is {due}"),
        );
    }

    #[test]
    fn a_timeout_shot_at_the_derived_cell_is_accepted() {
        let mut d = timed_liar_to_move();
        let due = due(&d);
        d.liar.act(Action::Shot(due), true);
        d.drive();
        assert_eq!(d.proven(), None);
        let played = d.host.table().history().last().unwrap();
        assert_eq!(played.action, Action::Shot(due));
        // The record says the clock fired it, for the log to say so.
        assert!(played.timeout);
        let chosen = d.host.table().history().iter().filter(|p| !p.timeout);
        assert_eq!(chosen.count(), d.host.table().history().len() - 1);
    }
}

#[test]
fn c13_refusing_to_reveal_is_a_forfeit_on_the_record() {
    let mut d = duel(Cheat::NoReveal);
    d.host("A1");
    d.host.handle_command(0, Command::Resign).unwrap();
    d.drive();
    assert_eq!(d.host.table().settled(), None, "waiting for the reveal");
    let deadline = d.host.poll_timeout().expect("a reveal deadline");
    d.host.handle_timeout(deadline - 1);
    assert_eq!(d.host.table().settled(), None, "not before the deadline");
    d.host.handle_timeout(deadline);
    d.drive();
    assert_claim_pending(&d, "the host claimed a forfeit: the guest owed a reveal");
    assert_eq!(d.host.score(), [2, 0], "whoever refuses to reveal loses");
    // The guest's next message saw the claim: it confirms it.
    d.liar.send(armada_proto::Payload::Leave {
        reason: "gone".into(),
    });
    d.drive();
    assert_eq!(
        d.host.table().settled(),
        Some(&Verdict::Incomplete(
            "the host claimed a forfeit: the guest owed a reveal".into()
        ))
    );
    assert_eq!(d.host.score(), [2, 0], "counted once");
    assert_offline(
        &d,
        &Outcome::Incomplete("game 1: the host claimed a forfeit: the guest owed a reveal".into()),
    );
}

/// The host's claim stands unanswered: the game is unsettled, verify says so.
fn assert_claim_pending(d: &Duel, reason: &str) {
    let claim = d.host.table().claim().expect("a claim");
    assert_eq!(claim.state, armada::fair::table::ClaimState::Pending);
    assert_eq!(claim.reason(), reason);
    assert_eq!(d.host.table().settled(), None);
    assert_eq!(d.proven(), None);
    assert_offline(
        d,
        &Outcome::Incomplete(format!(
            "game 1: {reason}, and the transcript ends before the guest answered the claim"
        )),
    );
}

#[test]
fn c14_stalling_past_the_answer_deadline_is_a_forfeit_on_the_record() {
    let mut d = duel(Cheat::Stall);
    d.host("A1");
    d.host("B1"); // never answered
    let deadline = d.host.poll_timeout().expect("an answer deadline");
    assert_eq!(deadline, 10_000 + 30_000, "answer time plus the grace");
    d.host.handle_timeout(deadline);
    d.drive();
    assert_claim_pending(&d, "the host claimed a forfeit: the guest owed an answer");
    assert!(
        d.host.handle_command(d.now, Command::Resign).is_err(),
        "the claimant waits for the debtor"
    );
}

#[test]
fn an_answer_that_crossed_the_forfeit_claim_refutes_it_and_the_game_goes_on() {
    let mut d = duel(Cheat::Stall);
    d.host("A1");
    d.host("B1");
    let deadline = d.host.poll_timeout().expect("an answer deadline");
    d.host.handle_timeout(deadline); // the claim is on its way...
    d.liar.cheat = Cheat::None;
    d.liar.answer(); // ...and so is the late answer: they cross
    d.drive();
    let claim = d.host.table().claim().expect("a claim");
    assert_eq!(claim.state, armada::fair::table::ClaimState::Refuted);
    assert_eq!(d.liar.table.claim(), Some(claim), "both sides agree");
    assert_eq!(d.proven(), None);
    let game = d.host.table().game().unwrap();
    assert!(!game.is_over(), "the game goes on");
    assert_eq!(d.host.table().history().len(), 2, "B1 was answered");
    assert_eq!(d.host.score(), [0, 0]);
    // ...and it can be claimed again when the guest stalls for real.
    d.liar.cheat = Cheat::Stall;
    if d.host.table().game().unwrap().mover() == Seat::Guest {
        d.liar_misses(&standard());
    }
    d.host_misses();
    let deadline = d.host.poll_timeout().expect("an answer deadline");
    d.host.handle_timeout(deadline);
    d.drive();
    assert_eq!(
        d.host.table().claim().map(|c| c.state),
        Some(armada::fair::table::ClaimState::Pending)
    );
}

#[test]
fn c15_two_signed_messages_with_one_number_are_provable_equivocation() {
    let mut d = duel(Cheat::None);
    d.host("A1"); // the liar's answer is its message 3
    let body = armada_proto::Body {
        version: armada_proto::PROTOCOL_VERSION,
        table: d.liar.table.id(),
        from: armada_proto::Seat::Guest,
        seq: 3,
        prev: d
            .liar
            .table
            .transcript()
            .iter()
            .filter(|(s, _)| *s == Seat::Guest)
            .nth(2)
            .map(|(_, b)| armada::fair::sign::frame_hash(b))
            .unwrap(),
        seen: [0; 32],
        payload: armada_proto::Payload::Resign {
            game: d.liar.table.game_id().unwrap(),
        },
    };
    let second = d.liar.identity.seal(&body);
    d.host.handle_message(0, &second).unwrap();
    assert_lie(
        &d,
        3,
        "two different signed messages carry this number (equivocation)",
    );
}

mod false_forfeits {
    use super::*;
    use armada_proto::{Owed, Payload};

    #[test]
    fn a_claim_that_nothing_was_owed_for_is_a_lie() {
        let mut d = duel(Cheat::None);
        // The host is to move and waits for nothing: no answer is owed to the guest.
        let (seq, _) = d.liar.table.chain_head(Seat::Guest);
        let game = d.liar.table.game_id().unwrap();
        d.liar.send(Payload::Forfeit {
            game,
            owed: Owed::Answer,
        });
        d.drive();
        assert_lie(
            &d,
            seq,
            "a forfeit claim, but the other peer owed nothing of the kind",
        );
    }

    #[test]
    fn a_claim_that_crossed_the_owed_reveal_is_refuted_by_it() {
        let mut d = duel(Cheat::None);
        d.host.handle_command(0, Command::Resign).unwrap();
        // The resignation arrives; the host's reveal right behind it is still on its way
        // when the guest claims the host never revealed.
        let resign = d.host.poll_transmit().unwrap();
        let in_flight: Vec<Vec<u8>> = std::iter::from_fn(|| d.host.poll_transmit()).collect();
        assert!(!in_flight.is_empty(), "the reveal follows the resignation");
        d.liar.receive(&resign);
        let game = d.liar.table.game_id().unwrap();
        d.liar.send(Payload::Forfeit {
            game,
            owed: Owed::Reveal,
        });
        for frame in &in_flight {
            d.liar.receive(frame);
        }
        d.drive();
        assert_eq!(d.proven(), None, "the claim crossed the reveal: not a lie");
        let claim = d.host.table().claim().expect("a claim");
        assert_eq!(claim.state, armada::fair::table::ClaimState::Refuted);
        assert_eq!(d.liar.table.claim(), Some(claim), "both sides agree");
        assert!(matches!(
            d.host.table().settled(),
            Some(Verdict::Honest(ending)) if ending.winner == Some(Seat::Guest)
        ));
        assert_eq!(d.host.score(), [0, 2], "the claim counts for nothing");
        assert_offline(&d, &Outcome::Honest);
    }

    #[test]
    fn a_claim_with_a_stale_view_cannot_win_a_game() {
        // The liar claims the host owes a move, pretending not to have seen the host's
        // action (its `seen` is older): the host's action refutes it, the game goes on.
        let mut d = duel(Cheat::Stall);
        d.host("A1"); // a hit: the host moves again
        let (_, stale) = d.liar.table.chain_head(Seat::Host);
        d.host("B1"); // arrives, and is not answered
        let game = d.liar.table.game_id().unwrap();
        let (seq, prev) = d.liar.table.chain_head(Seat::Guest);
        let body = armada_proto::Body {
            version: armada_proto::PROTOCOL_VERSION,
            table: d.liar.table.id(),
            from: armada_proto::Seat::Guest,
            seq,
            prev,
            seen: stale,
            payload: Payload::Forfeit {
                game,
                owed: Owed::Move,
            },
        };
        let frame = d.liar.identity.seal(&body);
        let _ = d.host.handle_message(0, &frame);
        let claim = d.host.table().claim().expect("a claim");
        assert_eq!(claim.state, armada::fair::table::ClaimState::Refuted);
        assert_eq!(d.proven(), None);
        assert!(!d.host.table().game().unwrap().is_over());
        assert_eq!(d.host.score(), [0, 0]);
    }
}

mod malformed_fields {
    use super::*;
    use armada::fair::sign::Identity;
    use armada::fair::table::{Table, join_proof, table_id};
    use armada_proto::{Body, PROTOCOL_VERSION, Payload};

    #[test]
    fn a_torpedo_line_off_the_board_is_named_not_a_panic() {
        let mut d = duel(Cheat::None);
        d.host_misses();
        let (seq, _) = d.liar.table.chain_head(Seat::Guest);
        let game = d.liar.table.game_id().unwrap();
        let number = d.liar.table.game().unwrap().actions();
        let action = armada_proto::WireAction::Torpedo {
            heading: armada_proto::Heading::Down,
            line: 255,
        };
        d.liar.send(Payload::Act {
            game,
            number,
            action,
            timeout: false,
            contribution: None,
        });
        d.drive();
        assert_lie(&d, seq, "torpedo line 255 is off the board");
    }

    #[test]
    fn a_host_cannot_shorten_the_move_timer() {
        let secret = [5; 32];
        let (host, guest) = (Identity::generate(), Identity::generate());
        let mut table = Table::new(table_id(&secret));
        let frame = |who: &Identity, from, seq, prev, payload| {
            who.seal(&Body {
                version: PROTOCOL_VERSION,
                table: table_id(&secret),
                from,
                seq,
                prev,
                seen: [0; 32],
                payload,
            })
        };
        let hello = frame(
            &guest,
            armada_proto::Seat::Guest,
            0,
            [0; 32],
            Payload::Hello {
                key: guest.public(),
                join: Some(join_proof(&secret, &guest.public())),
            },
        );
        table.receive(Seat::Guest, &hello).unwrap();
        let host_hello = frame(
            &host,
            armada_proto::Seat::Host,
            0,
            [0; 32],
            Payload::Hello {
                key: host.public(),
                join: None,
            },
        );
        table.receive(Seat::Host, &host_hello).unwrap();
        let mut settings = crate::pair::settings(Variant::Armada);
        settings.move_ms = 1_000;
        let prev = armada::fair::sign::frame_hash(&host_hello);
        let bad = frame(
            &host,
            armada_proto::Seat::Host,
            1,
            prev,
            Payload::Settings(settings),
        );
        table.receive(Seat::Host, &bad).unwrap();
        let lie = table.first_lie().expect("caught");
        assert_eq!((lie.liar, lie.seq), (Seat::Host, 1));
        assert_eq!(
            lie.reason,
            "the table's deadlines are outside what the rules allow"
        );
    }
}

#[test]
fn leaving_mid_game_resigns_it_and_the_round_still_settles() {
    let mut d = duel(Cheat::None);
    d.host("A1");
    d.liar.cheat = Cheat::NoReveal;
    d.liar.send(armada_proto::Payload::Leave {
        reason: "bored".into(),
    });
    d.drive();
    let ending = d.host.table().game().unwrap().ending().expect("ended");
    assert_eq!(
        (ending.winner, ending.reason),
        (Some(Seat::Host), armada::rules::EndReason::Resigned)
    );
    assert!(
        d.host.table().revealed(Seat::Host),
        "the host's own frames are still taken in"
    );
    let deadline = d
        .host
        .poll_timeout()
        .expect("waiting for the leaver's reveal");
    d.host.handle_timeout(deadline);
    d.drive();
    // A peer that left sends nothing more: the claim against it stands at once.
    let reason = "the host claimed a forfeit: the guest owed a reveal";
    assert_eq!(
        d.host.table().settled(),
        Some(&Verdict::Incomplete(reason.into()))
    );
    assert_eq!(d.host.score(), [2, 0]);
    assert_offline(&d, &Outcome::Incomplete(format!("game 1: {reason}")));
}

mod draw_binding {
    use super::*;
    use armada_proto::Payload;

    /// The host offers a draw; the lying guest accepts, then moves anyway. The game,
    /// the move number of the offer, and the seq of the lying move.
    fn accepts_then_moves(d: &mut Duel) -> (armada::fair::hash::Hash, u32, u32) {
        d.host_misses(); // the guest is to move
        d.host.handle_command(0, Command::OfferDraw).unwrap();
        d.drive();
        let (game, number) = (
            d.liar.table.game_id().unwrap(),
            d.liar.table.game().unwrap().actions(),
        );
        d.liar.send(Payload::DrawAnswer {
            game,
            number,
            accept: true,
        });
        let (seq, _) = d.liar.table.chain_head(Seat::Guest);
        d.liar
            .act(armada::rules::Action::Shot(cells("A10")[0]), false);
        d.drive();
        (game, number, seq)
    }

    #[test]
    fn acting_after_accepting_a_draw_is_a_lie() {
        let mut d = duel(Cheat::None);
        // The guest is bound by its acceptance.
        let (_, _, seq) = accepts_then_moves(&mut d);
        let lie = d.proven().expect("caught");
        assert_eq!((lie.liar, lie.seq), (Seat::Guest, seq));
    }

    /// After its lie every further offer of the liar's is one more lie that decides
    /// nothing; it may not send them without end: past a run of them its frames are
    /// refused as the table's end, and the record still names the first lie.
    #[test]
    fn a_liar_cannot_grow_the_record_without_end_after_its_lie() {
        use armada::session::{Event, MAX_VOID_RUN, TableSession as _};
        let mut d = duel(Cheat::None);
        let (game, number, _) = accepts_then_moves(&mut d);
        let lie = d.proven().expect("caught");
        while d.host.poll_event().is_some() {}
        let before = d.host.transcript_len();
        for _ in 0..3 * MAX_VOID_RUN {
            d.liar.send(Payload::DrawOffer { game, number });
            d.drive();
        }
        let taken = d.host.transcript_len() - before;
        assert!(
            taken > 0 && taken <= MAX_VOID_RUN as usize,
            "{taken}: the first offers are taken in, the rest refused"
        );
        for _ in 0..10 {
            d.liar.send(Payload::DrawOffer { game, number });
            d.drive();
        }
        assert_eq!(d.host.transcript_len() - before, taken, "refused for good");
        let refused = std::iter::from_fn(|| d.host.poll_event())
            .filter(|e| matches!(e, Event::Refused(Rejected::Closed)))
            .count();
        assert_eq!(refused, 1, "the end is told once, not once a frame");
        assert_offline(&d, &Outcome::Lie(lie));
    }

    #[test]
    fn an_offerer_who_never_confirms_an_accepted_draw_forfeits_on_the_record() {
        let mut d = duel(Cheat::NoReveal);
        d.host_misses();
        d.liar.send(Payload::DrawOffer {
            game: d.liar.table.game_id().unwrap(),
            number: d.liar.table.game().unwrap().actions(),
        });
        d.drive();
        d.host.handle_command(0, Command::AnswerDraw(true)).unwrap();
        d.liar.cheat = Cheat::Stall;
        // The liar's table sees the acceptance but it never sends the confirming reveal.
        while let Some(frame) = d.host.poll_transmit() {
            let _ = d.liar.table.receive(Seat::Host, &frame);
        }
        assert!(
            d.host.handle_command(0, Command::OfferDraw).is_err(),
            "the acceptor is bound"
        );
        let deadline = d.host.poll_timeout().expect("waiting for the confirmation");
        d.host.handle_timeout(deadline);
        d.drive();
        assert_claim_pending(&d, "the host claimed a forfeit: the guest owed a reveal");
    }
}
