//! Draw offers at an Icehouse Armada table: offered in the own turn once a turn,
//! accepted or declined until the other side acts, an acceptance that crossed the
//! offerer's actions, and every order of arrival reaching one verdict.

use armada::fair::icehouse::{IceMove, Icehouse};
use armada::fair::table::open::{Note, Outcome, Reason, Verdict};
use armada::fair::verify;
use armada::icehouse::{self as ice, Level};
use armada::rules::Seat;
use armada::session::CommandError;
use armada::session::open::{Command, Table};
use armada_proto::{self as proto, Payload};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::icehouse_table::{Pair, settings};

const DRAW: Verdict<ice::EndReason> = Verdict::Decided(Outcome {
    winner: None,
    reason: Reason::DrawAgreed,
});

/// A table whose fleets are on the table: the choice, two commitments, two reveals.
fn at_sea(seed: u64) -> Pair {
    let mut pair = Pair::new(
        settings(proto::IceSetup::Basic, proto::IceGoal::SinkAll, true),
        seed,
    );
    // Before the fleets are on the table nobody may offer a draw.
    for side in &mut pair.sides {
        let refused = side.handle_command(0, Command::OfferDraw);
        assert!(
            matches!(refused, Err(CommandError::NotNow(_))),
            "{refused:?}"
        );
    }
    pair.put_to_sea();
    pair
}

/// `count` actions of the mover other than ending its turn, sent but not delivered.
fn act_unseen(pair: &mut Pair, mover: Seat, count: usize) {
    let mut sent = 0;
    for _ in 0..500 {
        if sent == count {
            return;
        }
        let game = pair.game(mover.index());
        let action = ice::choose(&game, Level::Hard, &mut pair.rng);
        if action == ice::Action::EndTurn {
            continue;
        }
        pair.sides[mover.index()]
            .handle_command(0, Command::Move(IceMove::Act(action)))
            .unwrap();
        sent += 1;
    }
    panic!("only {sent} of {count} actions were found");
}

/// `seat` offers a draw, and the other side hears it.
fn offer(pair: &mut Pair, seat: Seat) {
    pair.sides[seat.index()]
        .handle_command(0, Command::OfferDraw)
        .unwrap();
    pair.deliver();
}

fn end_turn(pair: &mut Pair, seat: Seat) {
    pair.sides[seat.index()]
        .handle_command(0, Command::Move(IceMove::Act(ice::Action::EndTurn)))
        .unwrap();
    pair.deliver();
}

/// Both sides' records of the table, verified from either side's frames.
fn verified_alike(pair: &Pair) -> verify::IcehouseRecord {
    let [host, guest] = Seat::BOTH.map(|seat| pair.verified(seat));
    for report in [&host, &guest] {
        assert_eq!(
            report.outcome,
            verify::Outcome::Honest,
            "{}",
            report.to_text()
        );
    }
    assert_eq!(host.icehouse, guest.icehouse, "one record from either side");
    host.icehouse[0].clone()
}

/// The table's frames fed to a fresh observer in `seeds` random orders (each
/// frame once its `seen` is in): every order reaches the sessions' verdicts.
fn every_order_agrees(pair: &Pair, seeds: u64) {
    let want = pair.sides[0].table().verdicts();
    assert_eq!(pair.sides[1].table().verdicts(), want);
    let frames: Vec<(Seat, Vec<u8>)> = pair.sides[0].table().transcript().iter().cloned().collect();
    let chains: [Vec<Vec<u8>>; 2] = Seat::BOTH.map(|seat| {
        frames
            .iter()
            .filter(|(s, _)| *s == seat)
            .map(|(_, b)| b.clone())
            .collect()
    });
    for seed in 0..seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut table: Table<Icehouse> = Table::new(pair.sides[0].table().id());
        let mut next = [0usize; 2];
        while next[0] < chains[0].len() || next[1] < chains[1].len() {
            let mut order = Seat::BOTH;
            if rng.random_bool(0.5) {
                order.reverse();
            }
            let taken = order.into_iter().any(|seat| {
                let Some(bytes) = chains[seat.index()].get(next[seat.index()]) else {
                    return false;
                };
                // A frame whose `seen` is not in yet would read as a lie: not yet.
                let mut trial = table.clone();
                let notes = trial.receive(seat, bytes).expect("an honest frame");
                if notes.iter().any(|n| matches!(n, Note::LieProven(_))) {
                    return false;
                }
                table = trial;
                next[seat.index()] += 1;
                true
            });
            assert!(taken, "no frame could be taken in (seed {seed})");
        }
        assert_eq!(table.verdicts(), want, "seed {seed}");
        assert_eq!(
            table.steps().len(),
            pair.sides[0].table().steps().len(),
            "seed {seed}"
        );
    }
}

/// A game ended by a frame that crossed `void` actions: `verdict` on both sides,
/// the actions void in one record from either side, and every order agreeing.
fn crossed(pair: &Pair, verdict: &Verdict<ice::EndReason>, void: usize) {
    for side in &pair.sides {
        assert_eq!(&side.table().verdicts(), std::slice::from_ref(verdict));
    }
    let record = verified_alike(pair);
    assert_eq!(record.void.len(), void, "the crossed actions are void");
    assert_eq!(record.moves.len(), 5, "the placement steps stand");
    every_order_agrees(pair, 40);
}

#[test]
fn a_draw_offered_in_the_own_turn_and_accepted_is_a_draw_on_both_sides_and_in_verify() {
    let mut pair = at_sea(31);
    let mover = pair.sides[0].table().mover().unwrap();
    let other = mover.other();
    let refused = pair.sides[other.index()].handle_command(0, Command::OfferDraw);
    assert!(
        matches!(refused, Err(CommandError::NotNow(_))),
        "{refused:?}"
    );
    offer(&mut pair, mover);
    for side in &pair.sides {
        assert_eq!(side.table().draw_offer().map(|o| o.seat), Some(mover));
    }
    assert!(matches!(
        pair.sides[mover.index()].handle_command(0, Command::OfferDraw),
        Err(CommandError::NotNow("one draw offer a turn"))
    ));
    pair.sides[other.index()]
        .handle_command(0, Command::AnswerDraw(true))
        .unwrap();
    pair.deliver();
    for side in &pair.sides {
        assert_eq!(side.table().verdicts(), vec![DRAW]);
        assert_eq!(side.score(), [1, 1], "half a point each");
    }
    let record = verified_alike(&pair);
    assert_eq!(record.verdict, Some(DRAW));
    assert!(record.void.is_empty());
}

#[test]
fn a_declined_offer_is_not_made_again_that_turn_and_a_forged_second_one_is_a_named_lie() {
    let mut pair = at_sea(32);
    let mover = pair.sides[0].table().mover().unwrap();
    offer(&mut pair, mover);
    pair.sides[mover.other().index()]
        .handle_command(0, Command::AnswerDraw(false))
        .unwrap();
    pair.deliver();
    assert!(pair.sides[0].table().draw_offer().is_none());
    assert!(matches!(
        pair.sides[mover.index()].handle_command(0, Command::OfferDraw),
        Err(CommandError::NotNow("one draw offer a turn"))
    ));
    let table = pair.sides[mover.index()].table();
    let payload = Payload::DrawOffer {
        game: table.game_id().unwrap(),
        number: table.steps().len() as u32,
    };
    let seq = pair.sign(mover, payload);
    let Some(Verdict::Lie(told)) = pair.sides[mover.other().index()].table().settled().cloned()
    else {
        panic!("no lie named");
    };
    assert_eq!((told.liar, told.seq), (mover, seq));
    assert_eq!(told.reason, "a second draw offer in one turn");
}

#[test]
fn acting_declines_an_offer_and_a_forged_answer_to_it_is_a_named_lie() {
    let mut pair = at_sea(33);
    let mover = pair.sides[0].table().mover().unwrap();
    let other = mover.other();
    offer(&mut pair, mover);
    // The offer stands through the offerer's end of turn, into the other's turn.
    end_turn(&mut pair, mover);
    assert_eq!(
        pair.sides[other.index()]
            .table()
            .draw_offer()
            .map(|o| o.seat),
        Some(mover)
    );
    // The other side may not offer while the offer stands; acting declines it.
    assert!(
        pair.sides[other.index()]
            .handle_command(0, Command::OfferDraw)
            .is_err()
    );
    let (game, number) = {
        let table = pair.sides[other.index()].table();
        (table.game_id().unwrap(), table.draw_offer().unwrap().number)
    };
    end_turn(&mut pair, other);
    for side in &pair.sides {
        assert!(side.table().draw_offer().is_none(), "the offer lapsed");
    }
    assert!(
        pair.sides[other.index()]
            .handle_command(0, Command::AnswerDraw(true))
            .is_err()
    );
    // The offerer may offer again in its new turn; a forged acceptance of the
    // lapsed offer is a lie.
    let seq = pair.sign(
        other,
        Payload::DrawAnswer {
            game,
            number,
            accept: true,
        },
    );
    let Some(Verdict::Lie(told)) = pair.sides[mover.index()].table().settled().cloned() else {
        panic!("no lie named");
    };
    assert_eq!((told.liar, told.seq), (other, seq));
    assert_eq!(told.reason, "an answer to a draw offer that was not made");
}

#[test]
fn an_acceptance_crossing_the_offerers_actions_voids_them_in_every_order_of_arrival() {
    let mut pair = at_sea(34);
    let mover = pair.sides[0].table().mover().unwrap();
    offer(&mut pair, mover);
    // The offerer acts twice more; the other accepts having seen neither action.
    act_unseen(&mut pair, mover, 2);
    pair.sides[mover.other().index()]
        .handle_command(0, Command::AnswerDraw(true))
        .unwrap();
    pair.deliver();
    crossed(&pair, &DRAW, 2);
}

/// Regression: a resignation crossing two actions, taken in between them by an
/// observer (action, resignation, action), once left the second action misnumbered
/// and called it a lie.
#[test]
fn a_resignation_crossing_several_actions_reaches_one_verdict_in_every_order() {
    let mut pair = at_sea(35);
    let mover = pair.sides[0].table().mover().unwrap();
    act_unseen(&mut pair, mover, 2);
    pair.sides[mover.other().index()]
        .handle_command(0, Command::Resign)
        .unwrap();
    pair.deliver();
    let resigned = Verdict::Decided(Outcome {
        winner: Some(mover),
        reason: Reason::Resigned,
    });
    crossed(&pair, &resigned, 2);
}

/// The offerer resigned while the other side, not having seen it, accepted: the
/// draw the offerer offered, wherever either frame arrived first.
#[test]
fn an_acceptance_crossing_the_offerers_resignation_is_the_draw_it_offered() {
    let mut pair = at_sea(36);
    let mover = pair.sides[0].table().mover().unwrap();
    offer(&mut pair, mover);
    pair.sides[mover.index()]
        .handle_command(0, Command::Resign)
        .unwrap();
    pair.sides[mover.other().index()]
        .handle_command(0, Command::AnswerDraw(true))
        .unwrap();
    pair.deliver();
    for side in &pair.sides {
        assert_eq!(side.table().verdicts(), vec![DRAW]);
    }
    verified_alike(&pair);
    every_order_agrees(&pair, 20);
}
