//! Two honest sessions in memory play whole tables.

use armada::fair::table::Verdict;
use armada::rules::{Seat, Variant};

use crate::pair::Pair;

fn honest(verdicts: &[Verdict; 2]) {
    assert_eq!(
        verdicts[0], verdicts[1],
        "both sides reach the same verdict"
    );
    assert!(
        matches!(verdicts[0], Verdict::Honest(_)),
        "{:?}",
        verdicts[0]
    );
}

#[test]
fn one_armada_game_ends_honest_on_both_sides() {
    let mut pair = Pair::new(Variant::Armada, false, 1);
    let verdicts = pair.play_game();
    honest(&verdicts);
    assert_eq!(pair.host.score(), pair.guest.score());
    assert_eq!(pair.host.score().iter().sum::<u32>(), 2);
    assert_eq!(
        pair.host.table().transcript().len(),
        pair.guest.table().transcript().len()
    );
    let _ = Seat::Host;
}

#[test]
fn a_table_of_many_games_stays_honest_and_swaps_the_first_mover() {
    let mut pair = Pair::new(Variant::Armada, false, 2);
    let games = 20;
    for game in 0..games {
        let verdicts = pair.play_game();
        honest(&verdicts);
        let first = pair.host.table().history().first().map(|p| p.seat);
        let expected = if game % 2 == 0 {
            Seat::Host
        } else {
            Seat::Guest
        };
        assert_eq!(
            first,
            Some(expected),
            "game {game}: the first mover alternates"
        );
        if game + 1 < games {
            pair.play_again();
        }
    }
    assert_eq!(pair.host.score(), pair.guest.score());
    assert_eq!(pair.host.score().iter().sum::<u32>(), 2 * games);
    assert_eq!(pair.host.table().verdicts().len(), games as usize);
}

/// Plays `games` complete games at one table and checks each ends honest on both sides,
/// with every weapon used along the way.
fn honest_table(seed: u64, games: u32) {
    let mut pair = Pair::new(Variant::Armada, false, seed);
    let mut used = [0u32; 4];
    for game in 0..games {
        honest(&pair.play_game());
        for played in pair.host.table().history() {
            used[match played.action {
                armada::rules::Action::Shot(_) => 0,
                armada::rules::Action::Torpedo(_) => 1,
                armada::rules::Action::AirStrike(_) => 2,
                armada::rules::Action::Radar(_) => 3,
            }] += 1;
        }
        if game + 1 < games {
            pair.play_again();
        }
    }
    assert!(
        used.iter().all(|&n| n > games),
        "every weapon used, many times: {used:?}"
    );
    let verified = armada::fair::verify::verify(&pair.guest.table().transcript_file());
    assert_eq!(verified.outcome, armada::fair::verify::Outcome::Honest);
    assert_eq!(verified.games.len(), games as usize);
}

// A thousand games in four tables, so the test runner can spread them over cores.
#[test]
fn a_thousand_games_end_honest_table_1() {
    honest_table(101, 250);
}

#[test]
fn a_thousand_games_end_honest_table_2() {
    honest_table(102, 250);
}

#[test]
fn a_thousand_games_end_honest_table_3() {
    honest_table(103, 250);
}

#[test]
fn a_thousand_games_end_honest_table_4() {
    honest_table(104, 250);
}

mod draws {
    use super::*;
    use armada::fair::table::Note;
    use armada::rules::{Action, EndReason};
    use armada::session::Command;

    fn started() -> Pair {
        Pair::started(Variant::Armada, false, 9)
    }

    /// Both sides settled the game honestly with this (winner, reason).
    fn assert_both_ended(pair: &mut Pair, expected: (Option<Seat>, EndReason)) {
        for seat in Seat::BOTH {
            let settled = pair.session(seat).table().settled().cloned();
            let Some(Verdict::Honest(ending)) = settled else {
                panic!("{seat}: {settled:?}")
            };
            assert_eq!((ending.winner, ending.reason), expected, "{seat}");
        }
    }

    #[test]
    fn a_computer_declines_a_draw_offered_to_it_at_once() {
        let mut pair = started();
        let mut bot = armada::driver::bot::Bot::new(armada::ai::Level::Hard, 1);
        assert!(
            !matches!(
                bot.next(&pair.guest, &mut pair.rng),
                Some(Command::AnswerDraw(_))
            ),
            "no offer, nothing to answer"
        );
        pair.host.handle_command(0, Command::OfferDraw).unwrap();
        pair.drive();
        let answer = bot.next(&pair.guest, &mut pair.rng);
        assert!(
            matches!(answer, Some(Command::AnswerDraw(false))),
            "{answer:?}"
        );
        pair.guest.handle_command(0, answer.unwrap()).unwrap();
        pair.drive();
        for seat in Seat::BOTH {
            let game = pair.session(seat).table().game().unwrap();
            assert!(!game.is_over() && game.draw_offer().is_none(), "{seat}");
        }
    }

    #[test]
    fn an_accepted_offer_ends_the_game_drawn_on_both_sides() {
        let mut pair = started();
        pair.host.handle_command(0, Command::OfferDraw).unwrap();
        pair.drive();
        assert!(
            pair.notes(Seat::Guest)
                .any(|n| *n == Note::DrawOffered(Seat::Host))
        );
        pair.guest
            .handle_command(0, Command::AnswerDraw(true))
            .unwrap();
        pair.drive();
        assert_both_ended(&mut pair, (None, EndReason::DrawAgreed));
        assert_eq!(pair.host.score(), [1, 1]);
        assert_eq!(pair.guest.score(), [1, 1]);
    }

    #[test]
    fn two_offers_that_cross_both_lapse_on_both_sides() {
        let mut pair = started();
        pair.host.handle_command(0, Command::OfferDraw).unwrap();
        pair.guest.handle_command(0, Command::OfferDraw).unwrap();
        pair.drive();
        for seat in Seat::BOTH {
            let game = pair.session(seat).table().game().unwrap();
            assert!(!game.is_over() && game.draw_offer().is_none(), "{seat}");
            assert!(
                pair.notes(seat).any(|n| *n == Note::DrawOffersCrossed),
                "{seat}"
            );
            assert!(
                pair.session(seat)
                    .handle_command(0, Command::OfferDraw)
                    .is_err(),
                "{seat}: once per move"
            );
        }
        honest(&pair.play_game());
    }

    /// Found by the `session` fuzz target: the host offered, then resigned before the
    /// guest's crossing offer came. Crossing offers used to agree a draw at once: the
    /// guest's table had a draw, the host's a resignation.
    #[test]
    fn a_resignation_after_an_offer_that_crossed_another_ends_the_same_on_both_sides() {
        let mut pair = started();
        pair.host.handle_command(0, Command::OfferDraw).unwrap();
        pair.guest.handle_command(0, Command::OfferDraw).unwrap();
        pair.collect();
        let offer = pair.wire[Seat::Guest.index()].pop_front().unwrap();
        pair.guest.handle_message(0, &offer).unwrap();
        pair.host.handle_command(0, Command::Resign).unwrap();
        pair.drive();
        assert_both_ended(&mut pair, (Some(Seat::Guest), EndReason::Resigned));
    }

    #[test]
    fn two_resignations_that_cross_end_the_game_with_no_winner_on_both_sides() {
        let mut pair = started();
        pair.host.handle_command(0, Command::Resign).unwrap();
        pair.guest.handle_command(0, Command::Resign).unwrap();
        pair.drive();
        assert_both_ended(&mut pair, (None, EndReason::Resigned));
        assert_eq!(pair.host.score(), pair.guest.score());
    }

    #[test]
    fn no_resigning_while_the_own_action_waits_for_its_answer() {
        let mut pair = started();
        let cell = pair
            .host
            .table()
            .game()
            .unwrap()
            .chart(Seat::Host)
            .unmarked()
            .iter()
            .next()
            .unwrap();
        pair.host
            .handle_command(0, Command::Act(Action::Shot(cell)))
            .unwrap();
        assert!(pair.host.handle_command(0, Command::Resign).is_err());
        pair.drive();
        pair.host
            .handle_command(0, Command::Resign)
            .expect("once answered, resigning is fine");
    }

    #[test]
    fn a_declined_offer_lets_the_game_go_on() {
        let mut pair = started();
        pair.guest.handle_command(0, Command::OfferDraw).unwrap();
        pair.drive();
        pair.host
            .handle_command(0, Command::AnswerDraw(false))
            .unwrap();
        pair.drive();
        assert!(
            pair.notes(Seat::Guest)
                .any(|n| *n == Note::DrawDeclined(Seat::Host))
        );
        assert!(
            pair.guest.handle_command(0, Command::OfferDraw).is_err(),
            "once per move"
        );
        honest(&pair.play_game());
    }

    #[test]
    fn an_acceptance_that_crosses_the_offerers_action_lapses_on_both_sides() {
        let mut pair = started();
        pair.host.handle_command(0, Command::OfferDraw).unwrap();
        pair.drive();
        // The guest accepts while the host, not yet knowing, acts: the frames cross.
        pair.guest
            .handle_command(0, Command::AnswerDraw(true))
            .unwrap();
        let cell = pair
            .host
            .table()
            .game()
            .unwrap()
            .chart(Seat::Host)
            .unmarked()
            .iter()
            .next()
            .unwrap();
        pair.host
            .handle_command(0, Command::Act(Action::Shot(cell)))
            .unwrap();
        pair.drive();
        for seat in Seat::BOTH {
            let game = pair.session(seat).table().game().unwrap();
            assert!(!game.is_over(), "{seat}: acting declined the offer");
            assert_eq!(game.actions(), 1);
        }
        honest(&pair.play_game());
    }
}

/// Leaving is resigning, whatever the other peer's frames crossed on the way.
mod leaving {
    use super::*;
    use armada::fair::table::Note;
    use armada::rules::{Action, Coord, EndReason, Placer};
    use armada::session::{Command, CommandError};

    fn side(pair: &Pair, seat: Seat) -> &armada::session::Session {
        match seat {
            Seat::Host => &pair.host,
            Seat::Guest => &pair.guest,
        }
    }

    /// No side proved a lie, and both reached the same verdicts.
    fn agreed(pair: &Pair) -> Vec<Verdict> {
        for seat in Seat::BOTH {
            assert!(
                !pair.notes(seat).any(|n| matches!(n, Note::LieProven(_))),
                "{seat}: {:?}",
                side(pair, seat).table().verdicts()
            );
        }
        let verdicts = pair.host.table().verdicts();
        assert_eq!(verdicts, pair.guest.table().verdicts());
        verdicts
    }

    /// The guest, waiting for the host's reveal that never comes, claims a forfeit.
    fn guest_claims(pair: &mut Pair) {
        let deadline = pair.guest.poll_timeout().expect("the guest waits");
        pair.now = deadline;
        pair.guest.handle_timeout(deadline);
        pair.drive();
    }

    /// Found by the `session` fuzz target: the host's table confirmed at once the
    /// claim against it (it is the debtor's own table), the guest's waited for the
    /// host's next frame, which a peer that left never sends.
    #[test]
    fn a_forfeit_claim_against_a_peer_that_left_is_confirmed_at_once() {
        let mut pair = Pair::started(Variant::Armada, false, 11);
        pair.host
            .handle_command(0, Command::LeaveNow("bye".into()))
            .unwrap();
        pair.drive();
        guest_claims(&mut pair);
        assert!(matches!(agreed(&pair)[..], [Verdict::Incomplete(_)]));
    }

    /// Found by the `session` fuzz target: the host shot, claimed a forfeit for the
    /// missing answer and left; the guest's answer crossed the claim. Its table took
    /// the leave as a resignation, the host's had skipped it (its claim was pending)
    /// and then called the guest's reveal a lie.
    #[test]
    fn a_leave_while_the_own_forfeit_claim_waits_resigns_once_the_claim_is_refuted() {
        let mut pair = Pair::started(Variant::Armada, false, 12);
        let cell = pair
            .host
            .table()
            .game()
            .unwrap()
            .chart(Seat::Host)
            .unmarked();
        let cell = cell.iter().next().unwrap();
        pair.host
            .handle_command(0, Command::Act(Action::Shot(cell)))
            .unwrap();
        pair.collect();
        let deadline = pair
            .host
            .poll_timeout()
            .expect("the host waits for the answer");
        pair.host.handle_timeout(deadline);
        pair.host
            .handle_command(deadline, Command::LeaveNow("bye".into()))
            .unwrap();
        // The shot reaches the guest, which answers before the claim and the leave come.
        let shot = pair.wire[Seat::Guest.index()].pop_front().unwrap();
        pair.guest.handle_message(deadline, &shot).unwrap();
        pair.drive();
        for seat in Seat::BOTH {
            let ending = side(&pair, seat).table().game().unwrap().ending();
            assert_eq!(
                ending.map(|e| (e.winner, e.reason)),
                Some((Some(Seat::Guest), EndReason::Resigned)),
                "{seat}"
            );
        }
        guest_claims(&mut pair);
        assert!(matches!(agreed(&pair)[..], [Verdict::Incomplete(_)]));
    }

    /// Found by the `session` fuzz target: the guest left before the host's start
    /// reached it. The host's table resigned the game for the guest; the guest's
    /// started it after the leave, and called the host's reveal a lie.
    #[test]
    fn a_leave_that_crossed_the_start_resigns_the_game_it_started() {
        let mut pair = Pair::new(Variant::Armada, false, 13);
        loop {
            pair.drive();
            let table = pair.host.table();
            if table.committed(Seat::Host) && table.committed(Seat::Guest) {
                break;
            }
            assert!(pair.step_bots(), "the fleets are placed");
        }
        pair.host.handle_command(0, Command::Start).unwrap();
        pair.guest
            .handle_command(0, Command::LeaveNow("bye".into()))
            .unwrap();
        pair.drive();
        for seat in Seat::BOTH {
            let ending = side(&pair, seat).table().game().unwrap().ending();
            assert_eq!(
                ending.map(|e| (e.winner, e.reason)),
                Some((Some(Seat::Host), EndReason::Resigned)),
                "{seat}"
            );
        }
        agreed(&pair);
    }

    /// Found by the `session` fuzz target: the guest left before the host's hello
    /// reached it, the host left too. The guest's table then forgot its own leave
    /// (it kept one leaver, the last), so the guest sent its nonce after leaving;
    /// the host's refused it, and the two chains differed for good.
    #[test]
    fn when_both_leave_neither_sends_anything_after_its_leave() {
        let mut pair = Pair::new(Variant::Armada, false, 15);
        pair.collect();
        // The guest's hello reaches the host, which answers: hello, settings, nonce.
        let hello = pair.wire[Seat::Host.index()].pop_front().unwrap();
        pair.host.handle_message(0, &hello).unwrap();
        pair.guest
            .handle_command(0, Command::LeaveNow("bye".into()))
            .unwrap();
        pair.host
            .handle_command(0, Command::LeaveNow("bye".into()))
            .unwrap();
        pair.drive();
        for seat in Seat::BOTH {
            let table = side(&pair, seat).table();
            assert!(table.left(Seat::Host) && table.left(Seat::Guest), "{seat}");
            assert_eq!(
                table.chain_head(Seat::Guest),
                side(&pair, seat.other()).table().chain_head(Seat::Guest),
                "{seat}: both hold the same guest frames"
            );
            assert_eq!(table.chain_head(Seat::Guest).0, 2, "hello and leave only");
            assert!(table.nonce_due(Seat::Guest).is_some(), "{seat}");
        }
        // A side that left can send nothing more.
        assert!(pair.guest.handle_command(0, Command::Resign).is_err());
        agreed(&pair);
    }

    /// Found by the `session` fuzz target: a computer player placed its fleet for a
    /// new game after its side had left; the session stored the secrets before its
    /// own table refused the commit, and then dropped the last game's. A side that
    /// left now refuses every command up front and changes nothing, and a computer
    /// player whose side left does nothing.
    #[test]
    fn a_side_that_left_refuses_every_command_and_changes_nothing() {
        let mut pair = Pair::started(Variant::Armada, false, 16);
        pair.guest
            .handle_command(0, Command::LeaveNow("bye".into()))
            .unwrap();
        pair.drive();
        let fleet = Placer::new(&Variant::Armada.fleet()).place(&mut pair.rng);
        let cell = Coord::new(0, 0).unwrap();
        let before = pair.guest.save();
        for command in [
            Command::Place(fleet),
            Command::Start,
            Command::Act(Action::Shot(cell)),
            Command::OfferDraw,
            Command::AnswerDraw(true),
            Command::Resign,
            Command::PlayAgain,
            Command::Leave("again".into()),
            Command::LeaveNow("again".into()),
        ] {
            let what = format!("{command:?}");
            let result = pair.guest.handle_command(0, command);
            assert!(
                matches!(result, Err(CommandError::NotNow("you left the table"))),
                "{what}: {result:?}"
            );
            assert_eq!(pair.guest.save(), before, "{what} changed nothing");
        }
        let mut bot = armada::driver::bot::Bot::new(armada::ai::Level::Random, 5);
        assert!(bot.next(&pair.guest, &mut pair.rng).is_none());
        assert!(pair.guest.poll_transmit().is_none(), "nothing sent");
    }

    /// A resignation and a leave that cross are two resignations that cross, even
    /// while the leaver's own shot waits for its answer (its resignation waits too).
    #[test]
    fn a_resignation_that_crosses_a_leave_ends_the_game_with_no_winner() {
        for shot_first in [false, true] {
            let mut pair = Pair::started(Variant::Armada, false, 14);
            if shot_first {
                let cell = pair
                    .host
                    .table()
                    .game()
                    .unwrap()
                    .chart(Seat::Host)
                    .unmarked();
                let cell = cell.iter().next().unwrap();
                pair.host
                    .handle_command(0, Command::Act(Action::Shot(cell)))
                    .unwrap();
            }
            pair.host
                .handle_command(0, Command::LeaveNow("bye".into()))
                .unwrap();
            pair.guest.handle_command(0, Command::Resign).unwrap();
            pair.drive();
            for seat in Seat::BOTH {
                let ending = side(&pair, seat).table().game().unwrap().ending();
                assert_eq!(
                    ending.map(|e| (e.winner, e.reason)),
                    Some((None, EndReason::Resigned)),
                    "{seat}, the host shot first: {shot_first}"
                );
            }
            agreed(&pair);
        }
    }
}

mod timer {
    use super::*;
    use armada::fair::table::Note;

    fn started_with_timer() -> Pair {
        Pair::started(Variant::Armada, true, 10)
    }

    #[test]
    fn an_open_draw_offer_stops_both_clocks_and_a_declined_one_starts_the_movers_afresh() {
        use armada::session::Command;
        let mut pair = started_with_timer();
        // The host, to move, offers a draw 5 s into its move.
        pair.now = 5_000;
        pair.host.handle_command(5_000, Command::OfferDraw).unwrap();
        pair.drive();
        assert_eq!(pair.host.poll_timeout(), None, "the offerer's clock stops");
        assert_eq!(pair.guest.poll_timeout(), None, "and so does the claim's");
        // Thinking about it long past the move time fires nothing.
        pair.host.handle_timeout(60_000);
        pair.guest.handle_timeout(60_000);
        pair.drive();
        assert_eq!(pair.host.table().game().unwrap().actions(), 0);
        // Declined at 60 s: the host has its whole move time again from then.
        pair.now = 60_000;
        pair.guest
            .handle_command(60_000, Command::AnswerDraw(false))
            .unwrap();
        pair.drive();
        assert_eq!(pair.host.poll_timeout(), Some(60_000 + 15_000));
        assert_eq!(pair.guest.poll_timeout(), Some(60_000 + 15_000 + 30_000));
    }

    #[test]
    fn the_movers_client_fires_at_the_derived_cell_when_its_clock_runs_out() {
        let mut pair = started_with_timer();
        assert_eq!(
            pair.host.poll_timeout(),
            Some(15_000),
            "15 s from the start"
        );
        pair.host.handle_timeout(14_999);
        pair.drive();
        assert_eq!(
            pair.host.table().game().unwrap().actions(),
            0,
            "not before the deadline"
        );
        pair.now = 15_000;
        pair.host.handle_timeout(15_000);
        pair.drive();
        let timed_out = pair.notes(Seat::Guest).any(|n| {
            matches!(
                n,
                Note::Acted {
                    seat: Seat::Host,
                    timeout: true,
                    ..
                }
            )
        });
        assert!(timed_out, "the guest accepted the timeout shot");
        assert_eq!(pair.guest.table().history().len(), 1);
        honest(&pair.play_game());
    }

    #[test]
    fn an_absent_mover_is_claimed_as_a_forfeit_after_the_grace() {
        let mut pair = started_with_timer();
        // The host's clock ran out and its client never fired: the guest waits the grace.
        assert_eq!(pair.guest.poll_timeout(), Some(15_000 + 30_000));
        pair.guest.handle_timeout(45_000);
        pair.drive();
        let settled = pair.guest.table().settled().cloned();
        assert_eq!(
            settled,
            Some(Verdict::Incomplete(
                "the guest claimed a forfeit: the host owed a move".into()
            ))
        );
        assert_eq!(pair.guest.score(), [0, 2]);
    }

    /// Starts the open game with computer players placing the fleets.
    fn start(pair: &mut Pair) {
        while pair
            .host
            .table()
            .game()
            .is_none_or(armada::rules::Game::is_over)
        {
            pair.drive();
            assert!(pair.step_bots(), "the game starts");
        }
        pair.drive();
    }

    /// The move timer is the host's switch for each game: the guest cannot touch it,
    /// the host cannot flip it during a game, a game started without it has no move
    /// deadline, the switch survives a restart, and the next game's start says again.
    #[test]
    fn the_host_switches_the_timer_before_each_start() {
        use armada::session::{Command, CommandError, Event, Session};

        let mut pair = Pair::new(Variant::Armada, true, 11);
        assert!(pair.host.timer_switch(), "on at a new table");
        assert!(matches!(
            pair.guest.handle_command(0, Command::Timer(false)),
            Err(CommandError::NotNow(_))
        ));
        pair.host.handle_command(0, Command::Timer(false)).unwrap();
        pair.drive();
        assert!(pair.events[0].contains(&Event::Timer(false)));
        start(&mut pair);
        assert!(!pair.host.table().timer() && !pair.guest.table().timer());
        assert!(
            pair.notes(Seat::Guest)
                .any(|n| *n == Note::Started { timer: false })
        );
        assert_eq!(pair.host.poll_timeout(), None, "no move deadline");
        assert_eq!(pair.guest.poll_timeout(), None, "no move deadline");
        assert!(
            pair.host.handle_command(0, Command::Timer(true)).is_err(),
            "not during a game"
        );
        honest(&pair.play_game());

        let identity = pair.host.identity().clone();
        pair.host = Session::restore(identity, &pair.host.save(), pair.now).unwrap();
        assert!(!pair.host.timer_switch(), "the switch is saved");
        pair.play_again();
        pair.host.handle_command(0, Command::Timer(true)).unwrap();
        start(&mut pair);
        assert!(pair.host.table().timer() && pair.guest.table().timer());
        // The guest moves first in the second game: its clock runs.
        assert_eq!(pair.guest.poll_timeout(), Some(pair.now + 15_000));
        honest(&pair.play_game());
    }
}

mod restarts {
    use super::*;
    use armada::session::{RestoreError, Session};

    fn restart(session: &mut Session, now: u64) {
        let identity = session.identity().clone();
        let saved = session.save();
        *session = Session::restore(identity, &saved, now).expect("a saved session restores");
    }

    #[test]
    fn a_game_survives_a_restart_of_either_side_at_every_step() {
        let mut pair = Pair::new(Variant::Armada, false, 21);
        for step in 0..10_000 {
            // Restart one side, often with the frames its last command made still unsent.
            let seat = if step % 2 == 0 {
                Seat::Host
            } else {
                Seat::Guest
            };
            restart(pair.session(seat), 0);
            pair.drive();
            if pair.host.table().settled().is_some() && pair.guest.table().settled().is_some() {
                break;
            }
            assert!(pair.step_bots(), "stuck at step {step}");
        }
        honest(&[
            pair.host.table().settled().unwrap().clone(),
            pair.guest.table().settled().unwrap().clone(),
        ]);
        // One chain per peer: a restarted peer re-sent, it never signed a second version.
        let verified = armada::fair::verify::verify(&pair.host.table().transcript_file());
        assert_eq!(verified.outcome, armada::fair::verify::Outcome::Honest);
    }

    #[test]
    fn a_snapshot_is_refused_for_another_identity_or_when_damaged() {
        let mut pair = Pair::new(Variant::Armada, false, 22);
        pair.drive();
        let saved = pair.host.save();
        let stranger = armada::fair::sign::Identity::generate();
        assert!(matches!(
            Session::restore(stranger, &saved, 0),
            Err(RestoreError::Identity)
        ));
        let identity = pair.host.identity().clone();
        assert!(matches!(
            Session::restore(identity.clone(), &saved[..saved.len() / 2], 0),
            Err(RestoreError::Malformed(_))
        ));
        assert!(matches!(
            Session::restore(identity, b"junk", 0),
            Err(RestoreError::Malformed(_))
        ));
    }
}

/// A player who leaves mid-game: the game is resigned, both reveals still go out, the
/// verdict is settled on both sides, and only then the leave — so nothing waits.
mod leaving_a_game {
    use super::*;
    use armada::fair::verify::{Outcome, verify};
    use armada::rules::{Action, EndReason};
    use armada::session::{Command, CommandError, Owed};

    /// Both records verify complete and agree; the leaver has left.
    fn settled_and_complete(pair: &Pair, leaver: Seat) {
        for seat in Seat::BOTH {
            let table = match seat {
                Seat::Host => pair.host.table(),
                Seat::Guest => pair.guest.table(),
            };
            assert!(table.left(leaver), "{seat}: the leave is in");
            assert!(!table.left(leaver.other()), "{seat}");
            let ending = table.game().and_then(armada::rules::Game::ending);
            assert_eq!(
                ending.map(|e| (e.winner, e.reason)),
                Some((Some(leaver.other()), EndReason::Resigned)),
                "{seat}"
            );
            let report = verify(&table.transcript_file());
            assert_eq!(
                report.outcome,
                Outcome::Honest,
                "{seat}: {:?}",
                report.outcome
            );
            assert_eq!(report.left, Seat::BOTH.map(|s| s == leaver), "{seat}");
        }
        honest(&[
            pair.host.table().settled().unwrap().clone(),
            pair.guest.table().settled().unwrap().clone(),
        ]);
    }

    /// Regression: a leave used to go out bare; the leaver never revealed, the other
    /// side waited for that reveal for good and neither record had a result.
    #[test]
    fn leaving_mid_game_resigns_it_and_both_records_get_a_verdict() {
        for leaver in Seat::BOTH {
            let mut pair = Pair::started(Variant::Armada, false, 21);
            for _ in 0..5 {
                pair.step_bots();
                pair.drive();
            }
            pair.session(leaver)
                .handle_command(0, Command::Leave("bye".into()))
                .unwrap();
            pair.drive();
            settled_and_complete(&pair, leaver);
            // The one who stays is offered nothing to play: its friend is gone.
            let stays = pair.session(leaver.other());
            assert_eq!(stays.owed(), Owed::Nothing);
            assert!(matches!(
                stays.handle_command(0, Command::PlayAgain),
                Err(CommandError::NotNow("the other player left the table"))
            ));
            assert_eq!(
                stays.poll_timeout(),
                None,
                "{leaver}: nothing is waited for"
            );
        }
    }

    #[test]
    fn a_leave_while_the_own_shot_waits_for_its_answer_resigns_after_the_answer() {
        let mut pair = Pair::started(Variant::Armada, false, 22);
        let cell = pair
            .host
            .table()
            .game()
            .unwrap()
            .chart(Seat::Host)
            .unmarked()
            .iter()
            .next()
            .unwrap();
        pair.host
            .handle_command(0, Command::Act(Action::Shot(cell)))
            .unwrap();
        pair.host
            .handle_command(0, Command::Leave("bye".into()))
            .unwrap();
        // Nothing more is taken from the player meanwhile.
        assert!(pair.host.handle_command(0, Command::Resign).is_err());
        pair.drive();
        settled_and_complete(&pair, Seat::Host);
    }

    #[test]
    fn leaving_between_games_or_after_the_last_leaves_at_once() {
        let mut pair = Pair::started(Variant::classic(10).unwrap(), false, 23);
        pair.play_game();
        pair.guest
            .handle_command(0, Command::Leave("done".into()))
            .unwrap();
        pair.drive();
        for table in [pair.host.table(), pair.guest.table()] {
            assert!(table.left(Seat::Guest));
            let report = verify(&table.transcript_file());
            assert_eq!(report.outcome, Outcome::Honest);
        }
        assert_eq!(pair.host.owed(), Owed::Nothing, "no play-again offered");
    }

    /// Random tables, a random side leaving at a random moment of a random game
    /// (placing, playing, after the end), by a plain leave or by a leave its process
    /// crashed in the middle of and said again after the restart: the leave completes
    /// on the frames alone (nobody waits on a deadline), and both records verify
    /// alike, every game that started settled.
    #[test]
    fn a_side_leaving_at_any_moment_leaves_both_records_settled_and_alike() {
        use armada::session::Session;
        use rand::rngs::ChaCha8Rng;
        use rand::{RngExt, SeedableRng};
        let mut paths = [0; 2];
        let tables = 120;
        for seed in 0..tables {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let variant = [Variant::Armada, Variant::classic(10).unwrap()][seed as usize % 2];
            let mut pair = Pair::new(variant, rng.random_bool(0.5), seed);
            let leaver = if rng.random_bool(0.5) {
                Seat::Host
            } else {
                Seat::Guest
            };
            let game = rng.random_range(0..2u32);
            let at = rng.random_range(0..90);
            let mut steps = 0;
            loop {
                pair.drive();
                let table = pair.host.table();
                let number = table.game_number().unwrap_or(0);
                let settled = table.settled().is_some() && pair.guest.table().settled().is_some();
                if number == game && (steps >= at || settled) {
                    break;
                }
                if settled {
                    pair.play_again();
                    continue;
                }
                assert!(pair.step_bots(), "seed {seed}: the table plays on");
                steps += 1;
            }
            let now = pair.now;
            pair.session(leaver)
                .handle_command(now, Command::Leave("bye".into()))
                .unwrap();
            let crash = rng.random_bool(0.5);
            if crash {
                // Crashed with the leave begun: restarted from its save, the person
                // leaves again.
                pair.collect();
                let side = pair.session(leaver);
                let saved = side.save();
                let restored = Session::restore(side.identity().clone(), &saved, now).unwrap();
                *side = restored;
                let _ = pair
                    .session(leaver)
                    .handle_command(now, Command::Leave("bye".into()));
            }
            paths[usize::from(crash)] += 1;
            pair.drive();
            let files = Seat::BOTH.map(|seat| pair.session(seat).table().transcript_file());
            let reports = files.each_ref().map(|f| verify(f));
            for seat in Seat::BOTH {
                let side = pair.session(seat);
                let what =
                    format!("seed {seed}, {leaver} left in game {game} at step {at}, {seat}");
                assert!(side.table().left(leaver), "{what}: the leave is in");
                assert_eq!(side.poll_timeout(), None, "{what}: nothing waits");
                assert_eq!(side.owed(), Owed::Nothing, "{what}");
                let report = &reports[seat.index()];
                assert!(
                    report
                        .games
                        .iter()
                        .all(|g| g.moves.is_empty() && g.ending.is_none() || g.verdict.is_some()),
                    "{what}: every game played is settled: {:?}",
                    report.outcome
                );
                assert!(
                    !matches!(report.outcome, Outcome::Lie(_) | Outcome::Malformed(_)),
                    "{what}: {:?}",
                    report.outcome
                );
            }
            assert_eq!(
                reports[0].games, reports[1].games,
                "seed {seed}: the same record"
            );
            assert_eq!(reports[0].outcome, reports[1].outcome, "seed {seed}");
        }
        eprintln!(
            "{tables} tables: {} plain leaves, {} crashed mid-leave",
            paths[0], paths[1]
        );
    }

    #[test]
    fn a_leave_while_the_other_side_cannot_answer_goes_once_the_reveal_is_claimed() {
        let mut pair = Pair::started(Variant::Armada, false, 24);
        pair.guest
            .handle_command(0, Command::Leave("bye".into()))
            .unwrap();
        // The host never hears of it: the guest resigned and revealed, and waits.
        pair.collect();
        pair.wire = Default::default();
        assert!(!pair.guest.table().left(Seat::Guest), "the leave waits");
        let deadline = pair.guest.poll_timeout().expect("the reveal is waited for");
        pair.now = deadline;
        pair.guest.handle_timeout(deadline);
        pair.collect();
        assert!(
            pair.guest.table().left(Seat::Guest),
            "after its claim of the missing reveal, the leaver goes"
        );
    }
}
