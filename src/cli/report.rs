//! What the terminal prints of a table's events: a line for each event worth one,
//! and for a person playing, both boards after every action.

use std::fmt::Write as _;

use armada::driver::{Event, Note, Session, Verdict};
use armada::rules::{Seat, render};

/// Prints `event` of `session`; `person`: a person at this terminal plays the side.
pub fn report(session: &Session, event: &Event, person: bool) {
    if let Some(line) = describe(session, event) {
        super::emit(&format!("{line}\n"));
    }
    // The sweeper's picture, once, for its next action: never part of the record.
    if person
        && let Event::Table(Note::Resolved { seat, report, .. }) = event
        && *seat == session.seat()
        && let Some(picture) = report.radar_picture()
    {
        let cells: Vec<String> = picture
            .iter()
            .map(|(cell, deck)| format!("{cell} {}", if *deck { "deck" } else { "water" }))
            .collect();
        super::emit(&format!(
            "radar picture (for your next action only; it is not kept): {}\n",
            cells.join(", ")
        ));
    }
    if person && let Event::Table(Note::Resolved { .. } | Note::Started { .. }) = event {
        status(session);
    }
}

/// Prints where a sea battle stands for the person playing it: both boards and whose
/// move (after each action, and when a table is resumed).
pub fn status(session: &Session) {
    let Some(game) = session.table().game() else {
        return;
    };
    let me = session.seat();
    // With the timer on, the person's move says how long it may take.
    let clock = match session.table().settings() {
        Some(settings) if session.table().timer() && !game.is_over() && game.mover() == me => {
            format!("\n{} s on the clock", settings.move_ms / 1000)
        }
        _ => String::new(),
    };
    super::emit(&format!(
        "{}{}{clock}\n",
        side_by_side(
            &render(session.fleet(), game.chart(me.other())),
            &render(None, game.chart(me)),
        ),
        if game.is_over() {
            "game over"
        } else if game.mover() == me {
            "your move"
        } else {
            "their move"
        }
    ));
}

/// The two boards side by side (a 12×12 pair fits 60 columns), headed, with the
/// marks' legend under them: an action costs one screenful, not two.
fn side_by_side(own: &str, chart: &str) -> String {
    const GAP: &str = "     ";
    let width = own.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut out = format!("{:<width$}{GAP}their board (your chart)\n", "your board");
    for (left, right) in own.lines().zip(chart.lines()) {
        let _ = writeln!(out, "{left:<width$}{GAP}{right}");
    }
    out.push_str("# ship   x hit   X sunk   o miss   . not shot at\n");
    out
}

/// A line for the terminal about an event, if it is worth one.
fn describe(session: &Session, event: &Event) -> Option<String> {
    let me = session.seat();
    let who = |seat: Seat| if seat == me { "you" } else { "they" };
    Some(match event {
        Event::Table(Note::Started { timer }) => {
            format!(
                "game {} started ({})",
                session.table().game_number().unwrap_or(0) + 1,
                if *timer {
                    "15-second move timer"
                } else {
                    "no move timer"
                }
            )
        }
        Event::Timer(on) => format!(
            "the move timer is {} for the games you start",
            if *on { "on" } else { "off" }
        ),
        Event::Table(Note::Resolved {
            seat,
            report,
            timeout,
            ..
        }) => {
            // A shot the clock fired is not the player's choice: say so.
            let timer = if *timeout {
                " (the move timer ran out)"
            } else {
                ""
            };
            format!("{}{timer}: {report}", who(*seat))
        }
        Event::Table(Note::DrawOffered(seat)) if *seat == me => {
            "you offered a draw; the other player may accept or decline".into()
        }
        Event::Table(Note::DrawOffered(_)) => {
            "the other player offers a draw: type `accept` or `decline`".into()
        }
        Event::Table(Note::DrawOffersCrossed) => "both offered a draw at once: it is a draw".into(),
        Event::Table(Note::DrawDeclined(seat)) => format!("{} declined the draw", who(*seat)),
        Event::Table(Note::DrawAccepted(seat)) => format!("{} accepted the draw", who(*seat)),
        Event::Table(Note::PlayAgain(seat)) if *seat == me => {
            "you asked for another game; waiting for the other player".into()
        }
        Event::Table(Note::PlayAgain(_)) => {
            again_line(session.owed() == armada::driver::Owed::PlayAgain)?
        }
        Event::Table(Note::Left { seat, reason }) if *seat == me => {
            let resigned = session
                .table()
                .game()
                .and_then(armada::rules::Game::ending)
                .is_some_and(|e| {
                    e.reason == armada::rules::EndReason::Resigned && e.winner == Some(me.other())
                });
            if resigned {
                "you left the table; a game that was under way is recorded as resigned".into()
            } else {
                format!("you left the table: {reason}")
            }
        }
        Event::Table(Note::Left { reason, .. }) => format!("they left the table: {reason}"),
        Event::Table(Note::Ended(ending)) => format!("game over: {ending}"),
        Event::Table(Note::LieProven(lie)) => format!("lie proven: {lie}"),
        Event::Table(Note::ForfeitClaimed { claimant, owed }) => {
            claim_line(*claimant == me, armada::driver::owed_in_words(*owed))
        }
        Event::Table(Note::ClaimRefuted { .. }) => "the forfeit claim was refuted".into(),
        Event::Table(Note::Settled(verdict)) => match verdict {
            Verdict::Honest(ending) => {
                format!("verdict: {ending}; both fleets revealed and every answer proven")
            }
            Verdict::Lie(lie) => format!("verdict: {lie}; the {} loses", lie.liar),
            Verdict::Incomplete(why) => format!("verdict: incomplete: {why}"),
        },
        Event::Score(score) => format!(
            "score: host {} – guest {}{}",
            f64::from(score[0]) / 2.0,
            f64::from(score[1]) / 2.0,
            claim_counted(session)
        ),
        Event::Refused(rejected) => format!("refused a message: {rejected}"),
        Event::PeerRefused(error) => {
            format!("the other player refused a message: {}", error.detail)
        }
        Event::PeerGone(reason) => format!("the other player cannot go on: {reason}"),
        // The host starts each game: said once, when the second fleet is in.
        Event::Table(Note::Committed(_)) if session.owed() == armada::driver::Owed::Start => {
            "both fleets are placed: type `start` to begin (`timer off` first for no move timer)"
                .into()
        }
        _ => return None,
    })
}

/// What a sea battle's score says of a forfeit claim still open: it counts the claim,
/// which the other side's next message may yet refute.
pub fn claim_counted(session: &armada::driver::Session) -> &'static str {
    if session.table().pending_claim().is_some() {
        " (counting the forfeit claim, which their next message may refute)"
    } else {
        ""
    }
}

/// How long a person may take over what it owes at an open game's table, said after
/// what it owes (nothing before the settings are in).
fn on_the_clock(seconds: Option<u32>) -> String {
    seconds.map_or_else(String::new, |s| format!("; {s} s on the clock"))
}

/// A forfeit claim as its two sides read it, at every game alike: who owed `what`,
/// and that the claimant's win is a claim, decided by the debtor's next message.
fn claim_line(mine: bool, what: &str) -> String {
    if mine {
        format!(
            "you claimed a forfeit: the other player owed {what} past its deadline; \
             the game is yours unless their next message shows they were there \
             (until then the record says incomplete)"
        )
    } else {
        format!("they claimed a forfeit: you owed {what} past its deadline; the game is theirs")
    }
}

/// The other player asked for another game: the person is asked to answer only if
/// the table waits for that (not once it is leaving, nor once it asked first and
/// the game begins).
fn again_line(again_owed: bool) -> Option<String> {
    again_owed.then(|| "the other player asks for another game: type `again` to play it".into())
}

/// The line of an open game's table event that every such game says alike: the
/// end, lies, claims, the verdict, leaves, play again and the peer's words; `None`
/// for the game's own (its moves) and for what needs no line.
fn open_table_line<G: armada::driver::OpenGame>(
    event: &armada::driver::OpenEvent<G>,
    me: Seat,
    again_owed: bool,
) -> Option<String> {
    use armada::driver::{OpenEvent as Event, OpenNote as Note};
    let who = |seat: Seat| if seat == me { "you" } else { "they" };
    match event {
        Event::Table(Note::Ended(outcome)) => Some(format!("game over: {outcome}")),
        Event::Table(Note::LieProven(lie)) => Some(format!("lie proven: {lie}")),
        Event::Table(Note::ForfeitClaimed { claimant, .. }) => {
            Some(claim_line(*claimant == me, "a move"))
        }
        Event::Table(Note::ClaimRefuted { .. }) => Some("the forfeit claim was refuted".into()),
        Event::Table(Note::DrawOffered(seat)) if *seat == me => {
            Some("you offered a draw; it stands until the other player answers or acts".into())
        }
        Event::Table(Note::DrawOffered(_)) => Some(
            "the other player offers a draw: type `accept` or `decline` (acting declines it)"
                .into(),
        ),
        Event::Table(Note::DrawDeclined(seat)) => Some(format!("{} declined the draw", who(*seat))),
        Event::Table(Note::Settled(verdict)) => Some(format!("verdict: {verdict}")),
        Event::Table(Note::Left { seat, reason }) => {
            Some(format!("{} left the table: {reason}", who(*seat)))
        }
        Event::Table(Note::PlayAgain(seat)) if *seat == me => {
            Some("you asked for another game; waiting for the other player".into())
        }
        Event::Table(Note::PlayAgain(_)) => again_line(again_owed),
        Event::Refused(rejected) => Some(format!("refused a message: {rejected}")),
        Event::PeerRefused(error) => Some(format!(
            "the other player refused a message: {}",
            error.detail
        )),
        Event::PeerGone(reason) => Some(format!("the other player cannot go on: {reason}")),
        _ => None,
    }
}

/// Prints an Archimedes table's `event`; `person`: a person at this terminal plays
/// the side, and sees the board after every move.
pub fn report_archimedes(
    session: &armada::driver::arch_table::Session,
    event: &armada::driver::arch_table::Event,
    person: bool,
) {
    use armada::driver::arch_table::{Event, Note};
    let me = session.seat();
    let who = |seat: Seat| if seat == me { "you" } else { "they" };
    let line = match event {
        Event::Table(Note::Opened { number, first, .. }) => Some(format!(
            "game {} started: {} move first (the bottom-left fleet)",
            number + 1,
            who(*first)
        )),
        Event::Table(Note::Moved(step)) => {
            let mine = session.table().side(me);
            let sunk: Vec<String> = step
                .played
                .sunk()
                .map(|s| {
                    let whose = if Some(s.side) == mine {
                        "yours"
                    } else {
                        "theirs"
                    };
                    format!("{} ({whose})", s.cell)
                })
                .collect();
            Some(format!(
                "{}: {}{}",
                who(step.seat),
                step.played.mv,
                if sunk.is_empty() {
                    String::new()
                } else {
                    format!("; sunk {}", sunk.join(", "))
                }
            ))
        }
        Event::Table(Note::Undone(step)) => Some(format!(
            "{} move {} is void: the resignation had not seen it",
            if step.seat == me { "your" } else { "their" },
            step.played.mv
        )),
        _ => open_table_line(
            event,
            me,
            session.owed() == armada::driver::arch_table::Owed::PlayAgain,
        ),
    };
    if let Some(line) = line {
        super::emit(&format!("{line}\n"));
    }
    if person && let Event::Table(Note::Moved(_) | Note::Opened { .. }) = event {
        status_archimedes(session);
    }
}

/// Prints where an Archimedes game stands for the person playing it: the board,
/// whose move, and which ships are theirs.
pub fn status_archimedes(session: &armada::driver::arch_table::Session) {
    let me = session.seat();
    let Some(position) = session.table().position() else {
        return;
    };
    let ships = match session.table().side(me) {
        Some(armada::driver::arch::Side::First) => "your ships are x",
        _ => "your ships are o",
    };
    super::emit(&format!(
        "{}{}; {ships}\n",
        armada::driver::arch::render(position),
        if position.is_over() {
            "game over".to_owned()
        } else if session.table().mover() == Some(me) {
            format!("your move{}", on_the_clock(session.move_seconds()))
        } else {
            "their move".to_owned()
        }
    ));
}

/// What an Icehouse Armada table's event says at the terminal; a person also sees
/// the table after each turn and what the table waits for from them.
pub fn report_icehouse(
    session: &armada::driver::ice_table::Session,
    event: &armada::driver::ice_table::Event,
    person: bool,
) {
    use armada::driver::ice_table::{IcePlayed, Note, OpenEvent as Event};
    let me = session.seat();
    let who = |seat: Seat| if seat == me { "you" } else { "they" };
    let line = match event {
        Event::Table(Note::Opened { number, first, .. }) => Some(format!(
            "game {} started: {} choose who moves first",
            number + 1,
            who(first.other())
        )),
        Event::Table(Note::Moved(step)) => Some(match &step.played {
            IcePlayed::Chose { .. } => {
                let south = session
                    .table()
                    .position()
                    .and_then(armada::driver::ice_table::Position::south);
                let letters = match south {
                    Some(s) if s == me => "; your ships are the capital letters",
                    Some(_) => "; your ships are the small letters (north)",
                    None => "",
                };
                format!(
                    "{} move first (south){letters}",
                    south.map_or("someone", |s| who(s))
                )
            }
            IcePlayed::Committed { .. } => format!("{}: placement committed", who(step.seat)),
            IcePlayed::Revealed { fleet, .. } => {
                format!("{}: placement revealed ({fleet})", who(step.seat))
            }
            IcePlayed::Acted { played, .. } => format!("{}: {played}", who(step.seat)),
        }),
        Event::Table(Note::Undone(_)) => Some(
            "a step is void: the resignation or acceptance that ended the game had not seen it"
                .into(),
        ),
        _ => open_table_line(
            event,
            me,
            session.owed() == armada::driver::ice_table::Owed::PlayAgain,
        ),
    };
    if let Some(line) = line {
        super::emit(&format!("{line}\n"));
    }
    if !person {
        return;
    }
    let turn_ended = matches!(
        event,
        Event::Table(Note::Moved(step))
            if matches!(step.played, IcePlayed::Acted { played, .. } if played.turn_ended)
                || matches!(step.played, IcePlayed::Revealed { .. })
    );
    if turn_ended && let Some(game) = session.table().position().and_then(|p| p.game()) {
        super::emit(&armada::icehouse::render(game));
    }
    if matches!(event, Event::Table(_)) {
        icehouse_owed(session);
    }
}

/// Prints where an Icehouse Armada game stands for the person playing it: the table,
/// and what it waits for from them.
pub fn status_icehouse(session: &armada::driver::ice_table::Session) {
    if let Some(game) = session.table().position().and_then(|p| p.game()) {
        super::emit(&armada::icehouse::render(game));
    }
    icehouse_owed(session);
}

/// What an Icehouse table waits for from the person, and how to type it.
fn icehouse_owed(session: &armada::driver::ice_table::Session) {
    use armada::driver::ice_table::Owed;
    let clock = on_the_clock(session.move_seconds());
    let hint = match session.owed() {
        Owed::Choose => Some(format!(
            "you choose: type `first` to move first, `second` to let them{clock}"
        )),
        Owed::Place(side, Some(fleet), _) => Some(format!(
            "place your fleet ({fleet}) in the {side} strip: type `place` (at random) or \
             every ship by hand (type help for the form){clock}"
        )),
        Owed::Place(side, None, _) => Some(format!(
            "build a fleet worth 12 (L 3, M 2, S 1) in the {side} strip: type `place 2L3M` \
             for yours at random, `place` for 1L 3M 3S, or every ship by hand{clock}"
        )),
        Owed::Act => Some(format!(
            "your action: move, fire or end (type help for the forms){}",
            session.move_seconds().map_or_else(String::new, |s| format!(
                "; {s} s a turn, its actions together"
            ))
        )),
        Owed::PlayAgain | Owed::Nothing => None,
    };
    if let Some(hint) = hint {
        super::emit(&format!("{hint}\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: a draw offer, its answer and a request for another game were
    /// silent at the terminal, for the sender and for the other player alike.
    #[test]
    fn offers_answers_requests_and_leaves_are_told_to_both_sides() {
        let settings =
            armada::driver::settings(armada::rules::Variant::Armada, armada::driver::GRACE_MS);
        let identity = armada::driver::Identity::generate();
        let host = Session::host(identity, [7; 32], settings);
        let line = |note: Note| describe(&host, &Event::Table(note)).unwrap_or_default();
        let (me, them) = (Seat::Host, Seat::Guest);
        assert!(line(Note::DrawOffered(me)).starts_with("you offered a draw"));
        assert!(line(Note::DrawOffered(them)).contains("type `accept` or `decline`"));
        assert_eq!(line(Note::DrawDeclined(them)), "they declined the draw");
        assert_eq!(line(Note::DrawAccepted(me)), "you accepted the draw");
        assert!(line(Note::PlayAgain(me)).starts_with("you asked for another game"));
        let left = |seat| {
            line(Note::Left {
                seat,
                reason: "bye".into(),
            })
        };
        assert_eq!(left(me), "you left the table: bye", "no game was under way");
        assert_eq!(left(them), "they left the table: bye");
    }

    /// Regression: a person who had typed `quit` (or had already asked for another
    /// game) was still told to type `again` when the other player asked.
    #[test]
    fn the_other_players_request_for_another_game_asks_only_while_it_waits_for_an_answer() {
        use armada::driver::Command;
        let mut duet = armada::driver::Duet::new(armada::rules::Variant::Armada).unwrap();
        let mut rng = <rand::rngs::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(5);
        assert!(duet.play_game(&mut rng));
        let asked = Event::Table(Note::PlayAgain(Seat::Guest));
        let line = |session: &Session| describe(session, &asked).unwrap_or_default();
        assert!(line(&duet.host).contains("type `again`"));
        let mut asked_first = duet.host.clone();
        asked_first.handle_command(0, Command::PlayAgain).unwrap();
        assert_eq!(line(&asked_first), "", "both asked: the game begins");
        duet.host
            .handle_command(0, Command::Leave("bye".into()))
            .unwrap();
        assert_eq!(line(&duet.host), "", "a side leaving is not asked");
    }
}
