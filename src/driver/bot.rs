//! A computer player seated at a table: the command its session owes next, if any.
//!
//! The same [`Session`] carries a computer's moves as a person's, so its answers are
//! proven like anyone's; this module only decides what to ask of it. It keeps the
//! radar picture of its own last sweep for exactly one action, as RULES.md says.

use crate::ai::{Level, View};
use crate::fair::table::Note;
use crate::rules::{Coord, FleetSpec, Seat};
use crate::session::{Command, Event, Owed, Session};

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
            self.radar = report.radar_picture();
        }
    }

    /// Whether every game it was asked to play is settled.
    pub fn done(&self, session: &Session) -> bool {
        super::game::played(session, self.games)
    }

    /// The command the table waits for from this side now, if any.
    pub fn next<R: rand::Rng + ?Sized>(
        &mut self,
        session: &Session,
        rng: &mut R,
    ) -> Option<Command> {
        // A draw offered to it is declined at once, as at the other games' tables,
        // rather than left standing until an action lapses it.
        if let Some(game) = session.table().game()
            && game.draw_offer() == Some(session.seat().other())
            && game.clone().answer_draw(session.seat(), false).is_ok()
        {
            return Some(Command::AnswerDraw(false));
        }
        match self.due(session) {
            Owed::Nothing => None,
            Owed::PlayAgain => Some(Command::PlayAgain),
            Owed::Fleet(spec) => Some(Command::Place(self.level.place(&spec, rng))),
            Owed::Start => Some(Command::Start),
            Owed::Action => {
                let game = session.table().game()?;
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
            Owed::Fleet(spec) => Some(spec),
            _ => None,
        }
    }

    /// What the session owes, but another game only while this computer has games
    /// left to play.
    fn due(&self, session: &Session) -> Owed {
        match session.owed() {
            Owed::PlayAgain
                if session
                    .table()
                    .game_number()
                    .is_some_and(|n| n + 1 >= self.games) =>
            {
                Owed::Nothing
            }
            owed => owed,
        }
    }
}
