//! A computer player seated at a table: the command its session owes next, if any.
//!
//! The same [`Session`] carries a computer's moves as a person's, so its answers are
//! proven like anyone's; this module only decides what to ask of it. It keeps the
//! radar picture of its own last sweep for exactly one action, as RULES.md says.

use crate::ai::{Level, View, radar_picture};
use crate::fair::table::Note;
use crate::rules::{Coord, Seat};
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
        let me = session.seat();
        let table = session.table();
        if table.pending_claim().is_some() || table.left(me) {
            return None;
        }
        if let Some(number) = table.game_number()
            && table.settled().is_some()
        {
            return (number + 1 < self.games && !table.wants_again(me))
                .then_some(Command::PlayAgain);
        }
        let variant = table.variant()?;
        if table.game_id().is_some() && !table.committed(me) {
            return Some(Command::Place(self.level.place(&variant.fleet(), rng)));
        }
        let Some(game) = table.game() else {
            let both = table.committed(Seat::Host) && table.committed(Seat::Guest);
            return (me == Seat::Host && both).then_some(Command::Start);
        };
        if game.is_over()
            || game.mover() != me
            || table.pending().is_some()
            || table.accepted_draw().is_some()
        {
            return None;
        }
        let view = View::of(game, me, self.radar.as_deref());
        let action = self.level.choose(&view, rng);
        // What the radar showed serves this one action, then it is gone.
        self.radar = None;
        Some(Command::Act(action))
    }
}

/// Whether `games` games of the session's table are played and the last is settled.
pub fn played(session: &Session, games: u32) -> bool {
    let table = session.table();
    table.settled().is_some() && table.game_number().is_some_and(|n| n + 1 >= games)
}
