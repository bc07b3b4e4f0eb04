//! Who plays a side at a network table: a computer level, a person typing moves, or
//! a person in the window — of any game.

use tokio::sync::mpsc;

use super::game::{Computer, Game, played};
use crate::rules::Seat;
use crate::session::Session;
use crate::store::PlayedBy;

/// Who plays this side of a table of game `G`.
#[derive(Debug)]
pub enum Player<G: Game = Session> {
    Bot(G::Bot),
    Human(Human),
    /// A person in the window: commands come from it over a channel.
    Window(WindowSide<G::Command>),
}

/// A person playing in the window.
#[derive(Debug)]
pub struct WindowSide<C = crate::session::Command> {
    commands: mpsc::Receiver<C>,
    quit: bool,
}

impl<C> WindowSide<C> {
    pub fn new(commands: mpsc::Receiver<C>) -> Self {
        Self {
            commands,
            quit: false,
        }
    }
}

/// Something a person did: a typed line, or a command from the window (`None` from
/// [`Player::input`]: the terminal or the window is gone).
#[derive(Debug)]
pub enum Input<C> {
    Line(String),
    Command(C),
}

/// A person at a terminal: one line per command.
#[derive(Debug)]
pub struct Human {
    lines: mpsc::Receiver<String>,
    /// Lines typed before anyone sat at the table, kept for the table's first steps.
    held: std::collections::VecDeque<String>,
    games: u32,
    quit: bool,
}

/// What a person may type at a sea battle's table, for the help line.
pub const TYPED_MOVES: &str = <Session as Game>::TYPED_MOVES;

impl Human {
    /// A person whose lines come from `lines` (standard input, in the CLI).
    pub fn new(lines: mpsc::Receiver<String>, games: u32) -> Self {
        Self {
            lines,
            held: std::collections::VecDeque::new(),
            games: games.max(1),
            quit: false,
        }
    }

    /// The command a typed line asks for, or why it is not one.
    pub fn command<G: Game>(&mut self, session: &G, line: &str) -> Result<G::Command, String> {
        // No command is longer; a refusal never echoes a pasted page back whole.
        const LONGEST: usize = 256;
        let chars = line.trim().chars().count();
        if chars > LONGEST {
            let start: String = line.trim().chars().take(24).collect();
            return Err(format!(
                "\"{start}…\" is not a command ({chars} characters; none is longer than {LONGEST})"
            ));
        }
        match line.trim().to_lowercase().as_str() {
            "quit" | "leave" => {
                self.quit = true;
                Ok(G::leave("the player left".into()))
            }
            // Not a command: the answer is the moves, printed as a refusal is.
            "help" | "?" => Err(G::TYPED_MOVES.to_owned()),
            _ => session.typed(line),
        }
    }
}

impl<G: Game> Player<G> {
    /// Who this is and how many games it plays, as a saved table keeps it.
    pub fn describe(&self) -> (PlayedBy, u32) {
        match self {
            Self::Bot(bot) => (bot.played_by(), bot.games()),
            Self::Human(human) => (PlayedBy::Person, human.games),
            Self::Window(_) => (PlayedBy::Window, 0),
        }
    }

    pub fn observe(&mut self, me: Seat, event: &G::Event) {
        if let Self::Bot(bot) = self {
            bot.observe(me, event);
        }
    }

    /// Whether this side is done with the table.
    pub fn done(&self, session: &G) -> bool {
        match self {
            Self::Bot(bot) => bot.done(session),
            Self::Human(human) => human.quit || played(session, human.games),
            // A person in the window plays on until they leave the table.
            Self::Window(window) => window.quit,
        }
    }

    /// What a computer (or, for a person, the automatic part: the sea battle's
    /// fleet) does next.
    pub fn next<R: rand::Rng + ?Sized>(&mut self, session: &G, rng: &mut R) -> Option<G::Command> {
        match self {
            Self::Bot(bot) => bot.next(session, rng),
            // The window places its fleet itself.
            Self::Window(_) => None,
            Self::Human(_) => session.automatic(rng),
        }
    }

    /// While the host waits for a guest: the line a person typed (`None`: the input
    /// ended); never resolves for a computer or the window, whose commands wait for
    /// the table.
    pub async fn typed_early(&mut self) -> Option<String> {
        match self {
            Self::Human(human) => human.lines.recv().await,
            Self::Bot(_) | Self::Window(_) => std::future::pending().await,
        }
    }

    /// Keeps a line typed before anyone sat at the table for the table's first step.
    pub fn hold(&mut self, line: String) {
        if let Self::Human(human) = self {
            human.held.push_back(line);
        }
    }

    /// The person's next input, if this is a person (never resolves for a computer).
    pub async fn input(&mut self) -> Option<Input<G::Command>> {
        match self {
            Self::Human(human) => match human.held.pop_front() {
                Some(line) => Some(Input::Line(line)),
                None => human.lines.recv().await.map(Input::Line),
            },
            Self::Window(window) => {
                let command = window.commands.recv().await;
                if command.as_ref().is_none_or(G::is_leave) {
                    window.quit = true;
                }
                command.map(Input::Command)
            }
            Self::Bot(_) => std::future::pending().await,
        }
    }
}

impl Player {
    /// A computer at `level` playing the sea battle.
    pub fn bot(level: crate::ai::Level, games: u32) -> Self {
        Self::Bot(super::Bot::new(level, games))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Command;

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
        assert_eq!(
            typed(&mut human, "quit"),
            Ok(Command::Leave("the player left".into()))
        );
        let refused = typed(&mut human, "timer").unwrap_err();
        assert!(refused.contains("no game is open"), "{refused}");
        // A pasted page is refused without being echoed back whole.
        let page = "E5 ".repeat(3_000);
        let refused = typed(&mut human, &page).unwrap_err();
        assert!(
            refused.len() < 120 && refused.contains("8999 characters"),
            "{refused}"
        );
    }

    /// At an Archimedes table a typed line is a move, resign or again.
    #[test]
    fn typed_archimedes_lines_are_commands() {
        use crate::session::archimedes as arch;
        let (_, lines) = mpsc::channel(1);
        let mut human = Human::new(lines, 1);
        let identity = crate::fair::sign::Identity::generate();
        let session = arch::Session::host(identity, [7; 32], arch::settings(6, 60_000, 30_000));
        assert_eq!(human.command(&session, "resign"), Ok(arch::Command::Resign));
        assert_eq!(
            human.command(&session, " Again"),
            Ok(arch::Command::PlayAgain)
        );
        let refused = human.command(&session, "B1-B2").unwrap_err();
        assert!(refused.contains("no game is open"), "{refused}");
    }
}
