//! What the Archimedes screen plays against: the computer in this process, or a friend over the network; one face for both, so the screen draws and takes moves alike.

use crate::driver::arch::{EndReason, Level, Move, Played, Position, Side};
use crate::driver::arch_table::{self as table, Note};
use crate::driver::{ArchimedesTable, Millis, Remote};
use crate::rules::Seat;

/// The table behind an Archimedes screen.
#[derive(Debug)]
pub(super) enum ArchTable {
    Computer(Box<ArchimedesTable>),
    Friend(Box<Remote<table::Session>>),
}

/// Something the screen should show as it happens.
pub(super) enum Seen {
    Played(Played),
    /// A new game opened at the friend's table (Play again).
    NewGame,
    /// A move made void by a resignation that had not seen it.
    Undone,
}

/// How a game was decided, as the results screen says it.
pub(super) type Decided = super::decided::Decided<Side>;

impl ArchTable {
    fn session(&self) -> Option<&table::Session> {
        match self {
            Self::Computer(_) => None,
            Self::Friend(remote) => remote.session(),
        }
    }

    /// The game's number at its table (a game against the computer is its own table).
    pub(super) fn game_number(&self) -> u32 {
        self.session()
            .and_then(|s| s.table().game_number())
            .unwrap_or(0)
    }

    /// The position on the board now.
    pub(super) fn position(&self) -> Position {
        match self {
            Self::Computer(table) => table.position().clone(),
            // Between two games (both asked for another, its first move not yet
            // drawn): the table's board, fresh.
            Self::Friend(_) => self
                .session()
                .and_then(|s| {
                    s.table()
                        .position()
                        .cloned()
                        .or_else(|| match s.table().settings()?.game {
                            armada_proto::GameKind::Archimedes { side } => {
                                Position::start(side).ok()
                            }
                            _ => None,
                        })
                })
                .or_else(|| Position::start(8).ok())
                .expect("an 8×8 board exists"),
        }
    }

    /// The person's fleet.
    pub(super) fn person(&self) -> Side {
        match self {
            Self::Computer(table) => table.person(),
            Self::Friend(_) => self
                .session()
                .and_then(|s| s.table().side(s.seat()))
                .unwrap_or(Side::First),
        }
    }

    /// Whether it is the person's move.
    pub(super) fn my_move(&self) -> bool {
        match self {
            Self::Computer(table) => {
                !table.position().is_over() && table.position().mover() == table.person()
            }
            Self::Friend(_) => self
                .session()
                .is_some_and(|s| s.owed() == table::Owed::Move),
        }
    }

    pub(super) fn last_move(&self) -> Option<Move> {
        match self {
            Self::Computer(table) => table.last_move(),
            Self::Friend(_) => self
                .session()
                .and_then(|s| s.table().steps().last().map(|s| s.played.mv)),
        }
    }

    /// The computer's level (none for a friend).
    pub(super) fn level(&self) -> Option<Level> {
        match self {
            Self::Computer(table) => Some(table.level()),
            Self::Friend(_) => None,
        }
    }

    pub(super) fn id(&self) -> [u8; 32] {
        match self {
            Self::Computer(table) => table.id(),
            Self::Friend(_) => self.session().map_or([0; 32], |s| s.table().id()),
        }
    }

    /// The person's move; whether it was taken.
    pub(super) fn play(&mut self, now: Millis, mv: Move) -> bool {
        match self {
            Self::Computer(table) => table.play(now, mv).is_ok(),
            Self::Friend(remote) => remote.command(table::Command::Move(mv)).is_ok(),
        }
    }

    pub(super) fn resign(&mut self) {
        match self {
            Self::Computer(table) => {
                let _ = table.resign();
            }
            Self::Friend(remote) => {
                let _ = remote.command(table::Command::Resign);
            }
        }
    }

    /// Asks the friend for another game.
    pub(super) fn play_again(&mut self) {
        if let Self::Friend(remote) = self {
            let _ = remote.command(table::Command::PlayAgain);
        }
    }

    /// Whether the game on the board is under way: at a friend's table, once both
    /// nonces of its id are in (until then the board is the fresh one and nothing
    /// can be played or resigned).
    pub(super) fn open(&self) -> bool {
        match self {
            Self::Computer(_) => true,
            Self::Friend(_) => self
                .session()
                .is_some_and(|s| s.table().position().is_some()),
        }
    }

    /// Whether the game on the board has ended (it may not be settled yet).
    pub(super) fn ended(&self) -> bool {
        match self {
            Self::Computer(table) => table.position().is_over(),
            Self::Friend(_) => self.session().is_some_and(|s| s.table().ended()),
        }
    }

    /// How the game was decided, once it is settled.
    pub(super) fn decided(&self) -> Option<Decided> {
        match self {
            Self::Computer(table) => {
                let ending = table.position().ending()?;
                Some(Decided {
                    winner: ending.winner,
                    why: rules_reason(ending.reason),
                    lie: None,
                })
            }
            Self::Friend(_) => {
                let session = self.session()?;
                let verdict = session.table().settled()?;
                let side = |seat: Seat| session.table().side(seat);
                Some(Decided::settled(verdict, side, rules_reason))
            }
        }
    }

    /// Whether (this side, the friend) asked for another game.
    pub(super) fn again(&self) -> [bool; 2] {
        self.session().map_or([false; 2], |s| {
            [
                s.table().wants_again(s.seat()),
                s.table().wants_again(s.seat().other()),
            ]
        })
    }

    /// Whether the friend left the table.
    pub(super) fn friend_left(&self) -> bool {
        self.session()
            .is_some_and(|s| s.table().left(s.seat().other()))
    }

    /// What happened since the last call.
    pub(super) fn poll(&mut self, now: Millis) -> Vec<Seen> {
        let mut seen = Vec::new();
        match self {
            Self::Computer(table) => {
                table.handle_timeout(now);
                while let Some(played) = table.poll_played() {
                    seen.push(Seen::Played(played));
                }
            }
            Self::Friend(remote) => {
                remote.poll();
                while let Some(event) = remote.poll_event() {
                    match event {
                        table::Event::Table(Note::Moved(step)) => {
                            seen.push(Seen::Played(step.played));
                        }
                        table::Event::Table(Note::Opened { number, .. }) if number > 0 => {
                            seen.push(Seen::NewGame);
                        }
                        table::Event::Table(Note::Undone(_)) => seen.push(Seen::Undone),
                        _ => {}
                    }
                }
            }
        }
        seen
    }

    /// When [`ArchTable::poll`] should be called next without news.
    pub(super) fn poll_timeout(&self) -> Option<Millis> {
        match self {
            Self::Computer(table) => table.poll_timeout(),
            Self::Friend(_) => None,
        }
    }

    /// The friend's table, if this is one.
    pub(super) fn remote_ref(&self) -> Option<&Remote<table::Session>> {
        match self {
            Self::Computer(_) => None,
            Self::Friend(remote) => Some(remote),
        }
    }

    /// The friend's table, if this is one.
    pub(super) fn remote(&mut self) -> Option<&mut Remote<table::Session>> {
        match self {
            Self::Computer(_) => None,
            Self::Friend(remote) => Some(remote),
        }
    }
}

fn rules_reason(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Fleet => "arch-why-fleet",
        EndReason::NoMove => "arch-why-no-move",
        EndReason::Quiet => "arch-why-quiet",
        EndReason::Resigned => "arch-why-resigned",
    }
}
