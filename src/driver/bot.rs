//! A computer player seated at a table: the command its session owes next, if any.
//!
//! The same [`Session`] carries a computer's moves as a person's, so its answers are
//! proven like anyone's; this module only decides what to ask of it. It keeps the
//! radar picture of its own last sweep for exactly one action, as RULES.md says.

use crate::ai::{Level, View, radar_picture};
use crate::fair::table::Note;
use crate::rules::{Coord, FleetSpec, Game, Seat};
use crate::session::{Command, Event, Session};

/// A computer player at one side of a table, for `games` games.
#[derive(Clone, Debug)]
pub struct Bot {
    level: Level,
    games: u32,
    radar: Option<Vec<(Coord, bool)>>,
}

impl Bot {
    pub fn new(level: Level, games: u32) -> Self {
        Self {
            level,
            games: games.max(1),
            radar: None,
        }
    }

    pub fn level(&self) -> Level {
        self.level
    }

    pub fn games(&self) -> u32 {
        self.games
    }

    /// Takes in what the session reported: the picture of its own radar sweep.
    pub fn observe(&mut self, me: Seat, event: &Event) {
        if let Event::Table(Note::Resolved { seat, report, .. }) = event
            && *seat == me
        {
            self.radar = radar_picture(report);
        }
    }

    /// Whether every game it was asked to play is settled.
    pub fn done(&self, session: &Session) -> bool {
        played(session, self.games)
    }

    /// The command the table waits for from this side now, if any.
    pub fn next<R: rand::Rng + ?Sized>(
        &mut self,
        session: &Session,
        rng: &mut R,
    ) -> Option<Command> {
        match self.due(session) {
            Due::Nothing => None,
            Due::PlayAgain => Some(Command::PlayAgain),
            Due::Fleet(spec) => Some(Command::Place(self.level.place(&spec, rng))),
            Due::Start => Some(Command::Start),
            Due::Action(game) => {
                let view = View::of(game, session.seat(), self.radar.as_deref());
                let action = self.level.choose(&view, rng);
                // What the radar showed serves this one action, then it is gone.
                self.radar = None;
                Some(Command::Act(action))
            }
        }
    }

    /// The fleet this side must place now, if that is what its table waits for.
    pub fn fleet_due(&self, session: &Session) -> Option<FleetSpec> {
        match self.due(session) {
            Due::Fleet(spec) => Some(spec),
            _ => None,
        }
    }

    /// What the table waits for from this side (before anything is drawn at random).
    fn due<'s>(&self, session: &'s Session) -> Due<'s> {
        let me = session.seat();
        let table = session.table();
        if table.pending_claim().is_some() || table.left(me) {
            return Due::Nothing;
        }
        if let Some(number) = table.game_number()
            && table.settled().is_some()
        {
            return if number + 1 < self.games && !table.wants_again(me) {
                Due::PlayAgain
            } else {
                Due::Nothing
            };
        }
        let Some(variant) = table.variant() else {
            return Due::Nothing;
        };
        if table.game_id().is_some() && !table.committed(me) {
            return Due::Fleet(variant.fleet());
        }
        let Some(game) = table.game() else {
            let both = table.committed(Seat::Host) && table.committed(Seat::Guest);
            return if me == Seat::Host && both {
                Due::Start
            } else {
                Due::Nothing
            };
        };
        if game.is_over()
            || game.mover() != me
            || table.pending().is_some()
            || table.accepted_draw().is_some()
        {
            return Due::Nothing;
        }
        Due::Action(game)
    }
}

/// What a table waits for from one side.
enum Due<'s> {
    Nothing,
    PlayAgain,
    Fleet(FleetSpec),
    Start,
    /// A move in this game.
    Action(&'s Game),
}

/// Whether `games` games of the session's table are played and the last is settled.
pub fn played(session: &Session, games: u32) -> bool {
    let table = session.table();
    table.settled().is_some() && table.game_number().is_some_and(|n| n + 1 >= games)
}
