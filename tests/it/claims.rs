//! Every signed statement is checked and the verdict does not hang on the order
//! frames were saved in (TRUST §13). Each case takes an honest table's frames and
//! signs a statement of its own in a player's name, as a modified client could.

use armada::fair::sign::{Identity, frame_hash};
use armada::fair::table::{Lie, Note, Table};
use armada::fair::verify::{Outcome, verify};
use armada::fair::wire;
use armada::rules::{Action, Seat, Variant};
use armada::session::Command;
use armada_proto::{self as proto, Body, Payload};

use crate::pair::Pair;
use crate::support::{cell, transcript_file};

/// A table's frames in one order, and both players' keys to sign more.
struct Signed {
    table: [u8; 32],
    frames: Vec<(Seat, Vec<u8>)>,
    ids: [Identity; 2],
}

impl Signed {
    /// The host's own record of the table.
    fn of(pair: &Pair) -> Self {
        Self {
            table: pair.host.table().id(),
            frames: pair.host.table().transcript().iter().cloned().collect(),
            ids: [pair.host.identity().clone(), pair.guest.identity().clone()],
        }
    }

    fn body(&self, i: usize) -> Body {
        proto::Frame::decode(&self.frames[i].1)
            .expect("a saved frame decodes")
            .body
    }

    /// The index of the first frame from `seat` whose payload `pick` accepts.
    fn find(&self, seat: Seat, pick: impl Fn(&Payload) -> bool) -> usize {
        (0..self.frames.len())
            .find(|&i| self.frames[i].0 == seat && pick(&self.body(i).payload))
            .expect("the table has such a frame")
    }

    /// Frame `i` signed again with `change` made to its body; the frames after it
    /// are dropped (they would link to the old bytes).
    fn change(&mut self, i: usize, change: impl FnOnce(&mut Body)) -> u32 {
        let mut body = self.body(i);
        change(&mut body);
        let seat = self.frames[i].0;
        self.frames[i].1 = self.ids[seat.index()].seal(&body);
        self.frames.truncate(i + 1);
        body.seq
    }

    /// A frame from `seat` after every frame here, having seen the other's newest.
    fn append(&mut self, seat: Seat, payload: Payload) -> u32 {
        let newest = |s: Seat| {
            self.frames
                .iter()
                .rev()
                .find(|(from, _)| *from == s)
                .map(|(_, bytes)| (frame_hash(bytes), proto::Frame::decode(bytes).unwrap()))
        };
        let (prev, seq) = newest(seat).map_or(([0; 32], 0), |(h, f)| (h, f.body.seq + 1));
        let seen = newest(seat.other()).map_or([0; 32], |(h, _)| h);
        let body = Body {
            version: proto::PROTOCOL_VERSION,
            table: self.table,
            from: wire::seat(seat),
            seq,
            prev,
            seen,
            payload,
        };
        self.frames.push((seat, self.ids[seat.index()].seal(&body)));
        seq
    }

    fn file(&self) -> Vec<u8> {
        transcript_file(self.table, &self.frames)
    }

    fn outcome(&self) -> Outcome {
        verify(&self.file()).outcome
    }
}

fn lie(liar: Seat, seq: u32, reason: &str) -> Outcome {
    Outcome::Lie(Lie {
        liar,
        seq,
        reason: reason.into(),
    })
}

/// A whole game played by random computer players.
fn finished(seed: u64) -> Pair {
    let mut pair = Pair::started(Variant::Armada, false, seed);
    pair.play_game();
    pair.drive();
    pair
}

/// The host offers a draw, the guest accepts, and both reveal.
fn drawn() -> Pair {
    let mut pair = Pair::started(Variant::Armada, false, 3);
    pair.host.handle_command(0, Command::OfferDraw).unwrap();
    pair.drive();
    pair.guest
        .handle_command(0, Command::AnswerDraw(true))
        .unwrap();
    pair.drive();
    assert!(pair.host.table().settled().is_some(), "the draw settles");
    pair
}

#[test]
fn an_acceptor_s_reveal_before_the_offerer_s_confirmation_is_a_lie_in_either_order() {
    let honest = Signed::of(&drawn());
    let host_reveal = honest.find(Seat::Host, |p| matches!(p, Payload::Reveal { .. }));
    let guest_reveal = honest.find(Seat::Guest, |p| matches!(p, Payload::Reveal { .. }));
    let accept = honest.find(Seat::Guest, |p| matches!(p, Payload::DrawAnswer { .. }));
    // The guest reveals having seen only what it had when it accepted.
    let mut early = Signed {
        table: honest.table,
        frames: honest.frames.clone(),
        ids: honest.ids.clone(),
    };
    let seen = honest.body(accept).seen;
    let seq = early.change(guest_reveal, |b| b.seen = seen);
    let early_reveal = early.frames[guest_reveal].clone();
    let base: Vec<_> = honest.frames[..host_reveal].to_vec();
    let expected = lie(
        Seat::Guest,
        seq,
        "a reveal before its sender saw the end, or a second one",
    );
    for order in [
        [honest.frames[host_reveal].clone(), early_reveal.clone()],
        [early_reveal.clone(), honest.frames[host_reveal].clone()],
    ] {
        early.frames = base.iter().cloned().chain(order).collect();
        assert_eq!(
            early.outcome(),
            expected,
            "the acceptor's file and the offerer's agree"
        );
    }
}

#[test]
fn a_resignation_or_a_draw_offer_after_the_end_is_a_lie() {
    let pair = finished(11);
    let honest = Signed::of(&pair);
    let game = pair.host.table().game_id().unwrap();
    let actions = pair.host.table().game().unwrap().actions();
    // Right after the frame that ended the game, from the side that sent it (it
    // knew), and after everything, from each side.
    let ending = (0..honest.frames.len())
        .rev()
        .find(|&i| matches!(honest.body(i).payload, Payload::Answer { .. }))
        .unwrap();
    let loser = honest.frames[ending].0;
    for payload in [
        Payload::Resign { game },
        Payload::DrawOffer {
            game,
            number: actions,
        },
    ] {
        let mut early = Signed {
            table: honest.table,
            frames: honest.frames[..=ending].to_vec(),
            ids: honest.ids.clone(),
        };
        let seq = early.append(loser, payload.clone());
        let reason = match payload {
            Payload::Resign { .. } => "a resignation after the game ended",
            _ => "a draw offer after the game ended",
        };
        assert_eq!(early.outcome(), lie(loser, seq, reason));
        for seat in Seat::BOTH {
            let mut late = Signed {
                table: honest.table,
                frames: honest.frames.clone(),
                ids: honest.ids.clone(),
            };
            let seq = late.append(seat, payload.clone());
            assert_eq!(late.outcome(), lie(seat, seq, reason));
        }
    }
}

#[test]
fn a_verdict_that_contradicts_the_record_is_a_lie() {
    let pair = finished(12);
    let honest = Signed::of(&pair);
    let winner = match pair.host.table().settled() {
        Some(armada::fair::table::Verdict::Honest(ending)) => ending.winner.unwrap(),
        other => panic!("an honest game: {other:?}"),
    };
    let verdict = honest.find(Seat::Guest, |p| matches!(p, Payload::Verdict { .. }));
    let wrong = [
        proto::WireVerdict::Honest {
            winner: Some(wire::seat(winner.other())),
        },
        proto::WireVerdict::Honest { winner: None },
        proto::WireVerdict::Lie {
            liar: proto::Seat::Host,
            seq: 5,
            reason: "made up".into(),
        },
        proto::WireVerdict::Incomplete {
            reason: "made up".into(),
        },
    ];
    for claim in wrong {
        let mut forged = Signed {
            table: honest.table,
            frames: honest.frames.clone(),
            ids: honest.ids.clone(),
        };
        let seq = forged.change(verdict, |b| {
            if let Payload::Verdict { verdict, .. } = &mut b.payload {
                *verdict = claim.clone();
            }
        });
        let Outcome::Lie(found) = forged.outcome() else {
            panic!("{claim:?} passed");
        };
        assert_eq!((found.liar, found.seq), (Seat::Guest, seq), "{claim:?}");
        assert!(
            found
                .reason
                .starts_with("a verdict that contradicts the record"),
            "{found}"
        );
    }
    // The honest verdicts stand.
    assert_eq!(honest.outcome(), Outcome::Honest);
}

#[test]
fn a_reveal_has_one_encoding() {
    let honest = Signed::of(&finished(13));
    let reveal = honest.find(Seat::Guest, |p| matches!(p, Payload::Reveal { .. }));
    let swapped = |b: &mut Body| {
        if let Payload::Reveal { ships, .. } = &mut b.payload {
            ships.swap(0, 1);
        }
    };
    let boat_down = |b: &mut Body| {
        if let Payload::Reveal { ships, .. } = &mut b.payload {
            let boat = ships.iter_mut().find(|s| s.len == 1).unwrap();
            boat.down = true;
        }
    };
    for change in [&swapped as &dyn Fn(&mut Body), &boat_down] {
        let mut forged = Signed {
            table: honest.table,
            frames: honest.frames.clone(),
            ids: honest.ids.clone(),
        };
        let seq = forged.change(reveal, change);
        assert_eq!(
            forged.outcome(),
            lie(
                Seat::Guest,
                seq,
                "the reveal is not in its one canonical form (ships in ascending order of their bow, a one-deck ship not down)"
            )
        );
    }
}

#[test]
fn an_answer_sent_after_seeing_a_forfeit_claim_confirms_it() {
    let mut pair = Pair::started(Variant::Armada, false, 14);
    pair.host
        .handle_command(0, Command::Act(Action::Shot(cell("A1"))))
        .unwrap();
    pair.collect();
    // The guest answers, but its answer never reaches the host.
    for frame in std::mem::take(&mut pair.wire[Seat::Guest.index()]) {
        pair.guest.handle_message(0, &frame).unwrap();
    }
    pair.collect();
    let answer = pair.wire[Seat::Host.index()]
        .pop_front()
        .expect("the answer");
    pair.wire[Seat::Host.index()].clear();
    pair.now = 10 * 60_000;
    pair.host.handle_timeout(pair.now);
    pair.collect();
    let mut frames = Signed::of(&pair);
    let claim = frames.find(Seat::Host, |p| matches!(p, Payload::Forfeit { .. }));
    // The same answer, signed as sent after the claim arrived.
    let mut body = proto::Frame::decode(&answer).unwrap().body;
    body.seen = frame_hash(&frames.frames[claim].1);
    frames.frames.push((Seat::Guest, frames.ids[1].seal(&body)));
    let outcome = frames.outcome();
    assert!(
        matches!(&outcome, Outcome::Incomplete(why) if why.contains("claimed a forfeit")),
        "{outcome:?}"
    );
    // And an observer holding the frames sees the claim confirmed, the answer void.
    let mut table = Table::new(frames.table);
    let mut notes = Vec::new();
    for (seat, bytes) in &frames.frames {
        notes = table.receive(*seat, bytes).unwrap();
    }
    assert!(notes.contains(&Note::Void), "{notes:?}");
}

/// Every field of `answer` changed to other values, one change at a time.
fn mutations(answer: &Payload, side: u8) -> Vec<(String, Payload)> {
    let Payload::Answer {
        game,
        number,
        openings,
        contribution,
    } = answer
    else {
        panic!("an answer");
    };
    let with =
        |game: [u8; 32], number: u32, openings: Vec<proto::WireOpening>, c| Payload::Answer {
            game,
            number,
            openings,
            contribution: c,
        };
    let mut out = Vec::new();
    let mut other_game = *game;
    other_game[0] ^= 1;
    out.push((
        "game".into(),
        with(other_game, *number, openings.clone(), *contribution),
    ));
    for n in [number.wrapping_add(1), number.wrapping_sub(1)] {
        out.push((
            format!("number {n}"),
            with(*game, n, openings.clone(), *contribution),
        ));
    }
    let contributions = match contribution {
        None => vec![Some([7; 32])],
        Some(c) => {
            let mut flipped = *c;
            flipped[31] ^= 1;
            vec![None, Some(flipped)]
        }
    };
    for c in contributions {
        out.push((
            format!("contribution {c:?}"),
            with(*game, *number, openings.clone(), c),
        ));
    }
    if !openings.is_empty() {
        let mut fewer = openings.clone();
        fewer.pop();
        out.push((
            "last opening left out".into(),
            with(*game, *number, fewer, *contribution),
        ));
        let mut more = openings.clone();
        more.push(openings[0].clone());
        out.push((
            "an opening twice".into(),
            with(*game, *number, more, *contribution),
        ));
    }
    if openings.len() > 1 {
        let mut swapped = openings.clone();
        swapped.swap(0, 1);
        out.push((
            "two openings swapped".into(),
            with(*game, *number, swapped, *contribution),
        ));
    }
    for (j, opening) in openings.iter().enumerate() {
        let mut changed = |what: String, edit: &dyn Fn(&mut proto::WireOpening)| {
            let mut list = openings.clone();
            edit(&mut list[j]);
            out.push((
                format!("opening {j}: {what}"),
                with(*game, *number, list, *contribution),
            ));
        };
        for cell in (0..side * side).filter(|c| *c != opening.cell) {
            changed(format!("cell {cell}"), &|o| o.cell = cell);
        }
        for claim in [proto::Claim::Water, proto::Claim::Deck, proto::Claim::Sinks] {
            if claim != opening.claim {
                changed(format!("claim {claim:?}"), &|o| o.claim = claim);
            }
        }
        changed("salt".into(), &|o| o.salt[0] ^= 1);
        changed("path cut".into(), &|o| {
            o.path.pop();
        });
        changed("path longer".into(), &|o| o.path.push([0; 32]));
        changed("path hash".into(), &|o| o.path[0][0] ^= 1);
    }
    out
}

#[test]
fn every_field_of_every_answer_kind_changed_is_refused_or_a_named_lie() {
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    for seed in 20..40 {
        let pair = finished(seed);
        let frames = Signed::of(&pair);
        let mut table = Table::new(frames.table);
        let mut action = None;
        for (i, (seat, bytes)) in frames.frames.iter().enumerate() {
            let body = frames.body(i);
            if let Payload::Act { action: a, .. } = body.payload {
                action = Some(a);
            }
            if let (Payload::Answer { .. }, Some(a)) = (&body.payload, action) {
                let kind = match a {
                    proto::WireAction::Shot { .. } => "shot",
                    proto::WireAction::Torpedo { .. } => "torpedo",
                    proto::WireAction::AirStrike { .. } => "air strike",
                    proto::WireAction::Radar { .. } => "radar",
                };
                if let Payload::Answer { openings, .. } = &body.payload
                    && kind == "radar"
                    && openings.iter().any(|o| o.claim == proto::Claim::Deck)
                {
                    // A deck a radar saw, claimed "sinks", must be among the changes.
                    *kinds.entry("radar deck").or_default() += 1;
                }
                let seen = kinds.entry(kind).or_default();
                // A few of each kind: every field of each is tried.
                if *seen < 3 {
                    *seen += 1;
                    for (what, payload) in mutations(&body.payload, 10) {
                        let forged = frames.ids[seat.index()].seal(&Body {
                            payload,
                            ..body.clone()
                        });
                        match table.clone().receive(*seat, &forged) {
                            Err(_) => {}
                            Ok(notes) => assert!(
                                notes.iter().any(|n| matches!(
                                    n,
                                    Note::LieProven(lie) if lie.liar == *seat && lie.seq == body.seq
                                )),
                                "a {kind} answer with its {what} changed was taken: {notes:?}"
                            ),
                        }
                    }
                }
            }
            table.receive(*seat, bytes).unwrap();
        }
        if kinds.len() == 5
            && ["shot", "torpedo", "air strike", "radar"]
                .iter()
                .all(|k| kinds[k] >= 3)
        {
            return;
        }
    }
    panic!("the games did not answer every kind of action: {kinds:?}");
}

#[test]
fn a_join_proof_only_the_guest_sends() {
    let honest = Signed::of(&finished(15));
    let hello = |seat| honest.find(seat, |p| matches!(p, Payload::Hello { .. }));
    for (seat, join) in [(Seat::Host, Some([1; 32])), (Seat::Guest, None)] {
        // Both hellos, the one of `seat` signed again with the other kind of join.
        let mut forged = Signed {
            table: honest.table,
            frames: honest.frames[..=hello(Seat::Host).max(hello(Seat::Guest))].to_vec(),
            ids: honest.ids.clone(),
        };
        let mut body = honest.body(hello(seat));
        if let Payload::Hello { join: j, .. } = &mut body.payload {
            *j = join;
        }
        forged.frames[hello(seat)].1 = honest.ids[seat.index()].seal(&body);
        assert_eq!(
            forged.outcome(),
            lie(
                seat,
                0,
                "a hello with a join proof from the host, or without one from the guest"
            )
        );
    }
}

#[test]
fn an_unfounded_forfeit_claim_is_judged_the_same_in_either_order() {
    let honest = Signed::of(&finished(16));
    // The host's second action: before it, every action was answered and nothing is
    // owed to the guest.
    let act = (0..honest.frames.len())
        .filter(|&i| {
            honest.frames[i].0 == Seat::Host
                && matches!(honest.body(i).payload, Payload::Act { .. })
        })
        .nth(1)
        .unwrap();
    let Payload::Act { game, .. } = honest.body(act).payload else {
        unreachable!("the frame was picked as an action")
    };
    let mut claimed = Signed {
        table: honest.table,
        frames: honest.frames[..act].to_vec(),
        ids: honest.ids.clone(),
    };
    let claim_seq = claimed.append(
        Seat::Guest,
        Payload::Forfeit {
            game,
            owed: proto::Owed::Answer,
        },
    );
    let claim = claimed.frames.last().unwrap().clone();
    let base = honest.frames[..act].to_vec();
    // The host's action crossed the claim: it refutes it, whichever came first.
    let mut records = Vec::new();
    for order in [
        [honest.frames[act].clone(), claim.clone()],
        [claim.clone(), honest.frames[act].clone()],
    ] {
        claimed.frames = base.iter().cloned().chain(order).collect();
        let report = verify(&claimed.file());
        assert!(
            matches!(report.outcome, Outcome::Incomplete(_)),
            "{:?}",
            report.outcome
        );
        records.push(report.to_json().to_string());
    }
    assert_eq!(records[0], records[1]);
    // A host frame that saw the claim confirms it: then it is the guest's lie.
    let mut body = honest.body(act);
    body.seen = frame_hash(&claim.1);
    claimed.frames = base.into_iter().chain([claim.clone()]).collect();
    claimed.frames.push((Seat::Host, honest.ids[0].seal(&body)));
    assert_eq!(
        claimed.outcome(),
        lie(
            Seat::Guest,
            claim_seq,
            "a forfeit claim, but the other peer owed nothing of the kind"
        )
    );
}
