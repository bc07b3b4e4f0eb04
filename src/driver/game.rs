//! What a seat at a network table needs of its game beyond the session: the game's computer player and the commands a person types, so that one driver plays the sea battle, Archimedes and Icehouse Armada alike.

use crate::rules::Seat;
use crate::session::archimedes::{self as arch, Owed as ArchOwed};
use crate::session::icehouse::{self as ice_session, Owed as IceOwed};
use crate::session::{Session, TableSession};
use crate::store::PlayedBy;

/// A game one driver can play between peers.
pub trait Game: TableSession {
    /// This game's computer player.
    type Bot: Computer<Self>;
    /// What a person may type, for the help line.
    const TYPED_MOVES: &'static str;
    /// The command a typed line asks for (leaving is the driver's), or why it is none.
    fn typed(&self, line: &str) -> Result<Self::Command, String>;
    /// What a person's side at a terminal does without being asked.
    fn automatic<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Command>;
    /// The computer saved with a table as `by`, for `games` games, if it is this game's.
    fn saved_bot(by: PlayedBy, games: u32) -> Option<Self::Bot>;
    /// What happens when this side's move clock runs out, for the warning before it.
    const WHEN_LATE: &'static str;
    /// When this side's move clock runs out, while it runs.
    fn move_deadline(&self) -> Option<crate::session::Millis>;
}

/// A computer player of game `G` seated at a table.
pub trait Computer<G: TableSession>: std::fmt::Debug + Send {
    /// Who it is, as a saved table keeps it.
    fn played_by(&self) -> PlayedBy;
    fn games(&self) -> u32;
    /// Takes in what the session reported.
    fn observe(&mut self, me: Seat, event: &G::Event);
    /// Whether every game it was asked to play is settled.
    fn done(&self, session: &G) -> bool {
        played(session, self.games())
    }
    /// The command the table waits for from it now, if any.
    fn next<R: rand::Rng + ?Sized>(&mut self, session: &G, rng: &mut R) -> Option<G::Command>;
}

/// Whether `games` games of the session's table are played and the last is settled.
pub fn played<G: TableSession>(session: &G, games: u32) -> bool {
    session.settled() && session.games_begun() >= games
}

impl Game for Session {
    type Bot = super::Bot;
    const TYPED_MOVES: &'static str = "moves: E5 | torpedo row 3 right | torpedo column C down | air D4 | radar F6; \
     also: start (host), timer on | timer off (host, before a start), draw, accept, decline, resign, again, quit";

    fn typed(&self, line: &str) -> Result<Self::Command, String> {
        use crate::session::Command;
        let text = line.trim();
        Ok(match text.to_lowercase().as_str() {
            "start" => Command::Start,
            "timer on" => Command::Timer(true),
            "timer off" => Command::Timer(false),
            "draw" => Command::OfferDraw,
            "accept" => Command::AnswerDraw(true),
            "decline" => Command::AnswerDraw(false),
            "resign" => Command::Resign,
            "again" => Command::PlayAgain,
            _ => {
                let size = self.table().variant().ok_or("no game is open yet")?.size();
                Command::Act(
                    crate::rules::Action::parse(text, size)
                        .map_err(|e| format!("{e} (type help for the moves)"))?,
                )
            }
        })
    }

    fn automatic<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Command> {
        // A person's fleet is placed at random in the terminal.
        match self.owed() {
            crate::session::Owed::Fleet(spec) => Some(crate::session::Command::Place(
                crate::ai::Level::Random.place(&spec, rng),
            )),
            _ => None,
        }
    }

    fn saved_bot(by: PlayedBy, games: u32) -> Option<Self::Bot> {
        match by {
            PlayedBy::Computer(level) => Some(super::Bot::new(level, games)),
            _ => None,
        }
    }

    const WHEN_LATE: &'static str = "then the timer fires a shot for you";

    fn move_deadline(&self) -> Option<crate::session::Millis> {
        Session::move_deadline(self)
    }
}

impl Computer<Session> for super::Bot {
    fn played_by(&self) -> PlayedBy {
        PlayedBy::Computer(self.level())
    }
    fn games(&self) -> u32 {
        super::Bot::games(self)
    }
    fn observe(&mut self, me: Seat, event: &crate::session::Event) {
        super::Bot::observe(self, me, event);
    }
    fn next<R: rand::Rng + ?Sized>(
        &mut self,
        session: &Session,
        rng: &mut R,
    ) -> Option<crate::session::Command> {
        super::Bot::next(self, session, rng)
    }
}

impl Game for arch::Session {
    type Bot = ArchimedesBot;
    const TYPED_MOVES: &'static str =
        "moves: B1-B4 (a ship from B1 to B4); also: resign, again, quit";

    fn typed(&self, line: &str) -> Result<Self::Command, String> {
        let text = line.trim();
        Ok(match text.to_lowercase().as_str() {
            "resign" => arch::Command::Resign,
            "again" => arch::Command::PlayAgain,
            _ => {
                let size = self.table().position().ok_or("no game is open yet")?.size();
                arch::Command::Move(
                    crate::archimedes::Move::parse(text, size)
                        .map_err(|e| format!("{e} (type help for the moves)"))?,
                )
            }
        })
    }

    fn automatic<R: rand::Rng + ?Sized>(&self, _: &mut R) -> Option<Self::Command> {
        None
    }

    const WHEN_LATE: &'static str = OPEN_LATE;

    fn move_deadline(&self) -> Option<crate::session::Millis> {
        arch::Session::move_deadline(self)
    }

    fn saved_bot(by: PlayedBy, games: u32) -> Option<Self::Bot> {
        match by {
            PlayedBy::ArchimedesComputer(level) => Some(ArchimedesBot::new(level, games)),
            _ => None,
        }
    }
}

/// A computer player at an Archimedes table between peers, for `games` games.
#[derive(Clone, Debug)]
pub struct ArchimedesBot {
    level: crate::archimedes::Level,
    games: u32,
}

impl ArchimedesBot {
    pub fn new(level: crate::archimedes::Level, games: u32) -> Self {
        Self {
            level,
            games: games.max(1),
        }
    }
}

impl Computer<arch::Session> for ArchimedesBot {
    fn played_by(&self) -> PlayedBy {
        PlayedBy::ArchimedesComputer(self.level)
    }
    fn games(&self) -> u32 {
        self.games
    }
    fn observe(&mut self, _: Seat, _: &arch::Event) {}
    fn next<R: rand::Rng + ?Sized>(
        &mut self,
        session: &arch::Session,
        rng: &mut R,
    ) -> Option<arch::Command> {
        match session.owed() {
            ArchOwed::Nothing => None,
            ArchOwed::PlayAgain => {
                (session.games_begun() < self.games).then_some(arch::Command::PlayAgain)
            }
            ArchOwed::Move => {
                let position = session.table().position()?;
                let mut rng = rng;
                crate::archimedes::choose(position, self.level, &mut rng).map(arch::Command::Move)
            }
        }
    }
}

/// What an open game's move clock running out means: there is no move to make for
/// the player, and the other side may claim the game.
const OPEN_LATE: &str = "then, after the grace, the other player may claim the game";

impl Game for ice_session::Session {
    type Bot = IcehouseBot;
    const WHEN_LATE: &'static str = OPEN_LATE;

    fn move_deadline(&self) -> Option<crate::session::Millis> {
        ice_session::Session::move_deadline(self)
    }

    const TYPED_MOVES: &'static str = "moves: first | second (who moves first, when you choose), \
     place (your fleet at random in your strip) | place 2L3M (a points fleet of your own) | place L* 120,60 90 M 300,60 90 … (each ship's size, stern in mm, heading in degrees; * the flagship), move S2 412.5,300 420,326.4 | move S2 +30 -15, \
     fire L1 port at m3 | fire L1 port o=1200 j=500 at m3 p=401.2,330, end; also: draw (offer one in your turn), accept, decline, resign, again, quit";

    fn typed(&self, line: &str) -> Result<Self::Command, String> {
        use ice_session::Command;
        let text = line.trim();
        Ok(match text.to_lowercase().as_str() {
            "resign" => Command::Resign,
            "draw" => Command::OfferDraw,
            "accept" => Command::AnswerDraw(true),
            "decline" => Command::AnswerDraw(false),
            "again" => Command::PlayAgain,
            "first" => Command::Choose(true),
            "second" => Command::Choose(false),
            words if words.split_whitespace().next() == Some("place") => {
                let IceOwed::Place(side, fleet, goal) = self.owed() else {
                    return Err(match self.owed() {
                        IceOwed::Choose => "first choose who moves first: type `first` or `second`",
                        _ => "no placement is owed now: wait for the other player",
                    }
                    .into());
                };
                Command::Place(
                    crate::icehouse::parse_placement(side, fleet, goal, text, &mut rand::rng())
                        .map_err(|e| e.to_string())?,
                )
            }
            _ => {
                let game =
                    self.table()
                        .position()
                        .and_then(|p| p.game())
                        .ok_or(match self.owed() {
                            IceOwed::Choose => {
                                "first choose who moves first: type `first` or `second`"
                            }
                            IceOwed::Place(..) => {
                                "first place your fleet (type help for the forms)"
                            }
                            _ => "the fleets are not on the table yet: wait for the other player",
                        })?;
                Command::Act(
                    crate::icehouse::parse(game, text)
                        .map_err(|e| format!("{e} (type help for the moves)"))?,
                )
            }
        })
    }

    fn automatic<R: rand::Rng + ?Sized>(&self, _: &mut R) -> Option<Self::Command> {
        None
    }

    fn saved_bot(by: PlayedBy, games: u32) -> Option<Self::Bot> {
        match by {
            PlayedBy::IcehouseComputer(level) => Some(IcehouseBot::new(level, games)),
            _ => None,
        }
    }
}

/// A computer captain at an Icehouse Armada table between peers, for `games` games.
#[derive(Clone, Debug)]
pub struct IcehouseBot {
    level: crate::icehouse::Level,
    games: u32,
}

impl IcehouseBot {
    pub fn new(level: crate::icehouse::Level, games: u32) -> Self {
        Self {
            level,
            games: games.max(1),
        }
    }
}

/// The points fleets a computer captain builds, one drawn per game.
const POINTS_FLEETS: [crate::icehouse::Fleet; 4] = [
    crate::icehouse::Fleet::new(4, 0, 0),
    crate::icehouse::Fleet::new(2, 3, 0),
    crate::icehouse::Fleet::new(1, 3, 3),
    crate::icehouse::Fleet::new(0, 4, 4),
];

impl Computer<ice_session::Session> for IcehouseBot {
    fn played_by(&self) -> PlayedBy {
        PlayedBy::IcehouseComputer(self.level)
    }
    fn games(&self) -> u32 {
        self.games
    }
    fn observe(&mut self, _: Seat, _: &ice_session::Event) {}
    fn next<R: rand::Rng + ?Sized>(
        &mut self,
        session: &ice_session::Session,
        rng: &mut R,
    ) -> Option<ice_session::Command> {
        use ice_session::Command;
        use rand::RngExt as _;
        if let Some(offer) = session.table().draw_offer()
            && offer.seat != session.seat()
        {
            // A captain takes a draw when it is behind in strength afloat.
            let position = session.table().position()?;
            let game = position.game()?;
            let me = if position.south() == Some(session.seat()) {
                crate::icehouse::Side::South
            } else {
                crate::icehouse::Side::North
            };
            return Some(Command::AnswerDraw(
                game.strength(me) < game.strength(me.other()),
            ));
        }
        match session.owed() {
            IceOwed::Nothing => None,
            IceOwed::PlayAgain => {
                (session.games_begun() < self.games).then_some(Command::PlayAgain)
            }
            IceOwed::Choose => Some(Command::Choose(rng.random_bool(0.5))),
            IceOwed::Place(side, fleet, goal) => {
                let fleet =
                    fleet.unwrap_or(POINTS_FLEETS[rng.random_range(0..POINTS_FLEETS.len())]);
                Some(Command::Place(crate::icehouse::random_placement(
                    side, fleet, goal, rng,
                )))
            }
            IceOwed::Act => {
                let game = session.table().position()?.game()?;
                Some(Command::Act(crate::icehouse::choose(game, self.level, rng)))
            }
        }
    }
}
