//! Who plays a side at a network table: a computer level, a person typing moves, or
//! a person in the window.

use tokio::sync::mpsc;

use super::bot::Bot;
use crate::ai::Level;
use crate::rules::{Action, Seat};
use crate::session::{Command, Event, Owed, Session};
use crate::store::PlayedBy;

/// Who plays this side of the table.
#[derive(Debug)]
pub enum Player {
    Bot(Bot),
    Human(Human),
    /// A person in the window: commands come from it over a channel.
    Window(WindowSide),
}

/// A person playing in the window.
#[derive(Debug)]
pub struct WindowSide {
    commands: mpsc::Receiver<Command>,
    quit: bool,
}

impl WindowSide {
    pub fn new(commands: mpsc::Receiver<Command>) -> Self {
        Self {
            commands,
            quit: false,
        }
    }
}

/// Something a person did: a typed line, or a command from the window (`None` from
/// [`Player::input`]: the terminal or the window is gone).
#[derive(Debug)]
pub enum Input {
    Line(String),
    Command(Command),
}

/// A person at a terminal: one line per command.
#[derive(Debug)]
pub struct Human {
    lines: mpsc::Receiver<String>,
    games: u32,
    quit: bool,
}

/// What a person may type, for the help line.
pub const TYPED_MOVES: &str = "moves: E5 | torpedo row 3 right | torpedo column C down | air D4 | radar F6; \
     also: start (host), timer on | timer off (host, before a start), draw, accept, decline, resign, again, quit";

impl Human {
    /// A person whose lines come from `lines` (standard input, in the CLI).
    pub fn new(lines: mpsc::Receiver<String>, games: u32) -> Self {
        Self {
            lines,
            games: games.max(1),
            quit: false,
        }
    }

    /// The command a typed line asks for, or why it is not one.
    pub fn command(&mut self, session: &Session, line: &str) -> Result<Command, String> {
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
            "quit" | "leave" => {
                self.quit = true;
                Command::Leave("the player left".into())
            }
            _ => {
                let size = session
                    .table()
                    .variant()
                    .ok_or("no game is open yet")?
                    .size();
                Command::Act(Action::parse(text, size).map_err(|e| format!("{e}; {TYPED_MOVES}"))?)
            }
        })
    }
}

impl Player {
    /// A computer at `level`, or — without one — the person at the terminal.
    pub fn bot(level: Level, games: u32) -> Self {
        Self::Bot(Bot::new(level, games))
    }

    /// The level and games to remember with a table ("person" for a human).
    /// Who this is and how many games it plays, as a saved table keeps it.
    pub fn describe(&self) -> (PlayedBy, u32) {
        match self {
            Self::Bot(bot) => (PlayedBy::Computer(bot.level()), bot.games()),
            Self::Human(human) => (PlayedBy::Person, human.games),
            Self::Window(_) => (PlayedBy::Window, 0),
        }
    }

    pub fn observe(&mut self, me: Seat, event: &Event) {
        if let Self::Bot(bot) = self {
            bot.observe(me, event);
        }
    }

    /// Whether this side is done with the table.
    pub fn done(&self, session: &Session) -> bool {
        match self {
            Self::Bot(bot) => bot.done(session),
            Self::Human(human) => human.quit || super::bot::played(session, human.games),
            // A person in the window plays on until they leave the table.
            Self::Window(window) => window.quit,
        }
    }

    /// What a computer (or, for a person, the automatic part: the fleet) does next.
    pub fn next<R: rand::Rng + ?Sized>(
        &mut self,
        session: &Session,
        rng: &mut R,
    ) -> Option<Command> {
        match self {
            Self::Bot(bot) => bot.next(session, rng),
            // The window places its fleet itself.
            Self::Window(_) => None,
            // A person's fleet is placed automatically in the terminal.
            Self::Human(_) => match session.owed() {
                Owed::Fleet(spec) => Some(Command::Place(Level::Random.place(&spec, rng))),
                _ => None,
            },
        }
    }

    /// The person's next input, if this is a person (never resolves for a computer).
    pub async fn input(&mut self) -> Option<Input> {
        match self {
            Self::Human(human) => human.lines.recv().await.map(Input::Line),
            Self::Window(window) => {
                let command = window.commands.recv().await;
                if matches!(command, None | Some(Command::Leave(_))) {
                    window.quit = true;
                }
                command.map(Input::Command)
            }
            Self::Bot(_) => std::future::pending().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A typed line is the command it names; the host's timer switch has two words.
    #[test]
    fn typed_lines_are_commands() {
        let (_, lines) = mpsc::channel(1);
        let mut human = Human::new(lines, 1);
        let identity = crate::fair::sign::Identity::generate();
        let settings =
            crate::session::settings(crate::rules::Variant::Armada, crate::session::GRACE_MS);
        let session = Session::host(identity, [7; 32], settings);
        let typed = |human: &mut Human, line: &str| human.command(&session, line);
        assert_eq!(typed(&mut human, " Timer Off "), Ok(Command::Timer(false)));
        assert_eq!(typed(&mut human, "timer on"), Ok(Command::Timer(true)));
        assert_eq!(typed(&mut human, "start"), Ok(Command::Start));
        let refused = typed(&mut human, "timer").unwrap_err();
        assert!(refused.contains("no game is open"), "{refused}");
    }
}
