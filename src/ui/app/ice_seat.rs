//! What the Icehouse screen plays against: the computer in this process, or a friend over the network (who chooses who moves first, both placements committed before either is shown); one face for both, so the screen lays, draws and acts alike.

use crate::driver::ice::{Action, Fleet, Game, Goal, Level, Placed, Played, Side};
use crate::driver::ice_table::{self as table, IcePlayed, Note, Owed};
use crate::driver::{IcehouseError, IcehouseTable, Millis, Remote};
use crate::rules::Seat;

/// The table behind an Icehouse screen.
#[derive(Debug)]
pub(super) enum IceTable {
    Computer(Box<IcehouseTable>),
    Friend(Box<Remote<table::Session>>),
}

/// Something the screen should show as it happens.
pub(super) enum Seen {
    Played(Played),
    /// The table's game changed otherwise (a new game, a move made void, a reveal):
    /// the screen takes the table's game as it is.
    Changed,
}

/// How a game was decided, as the results say it.
pub(super) type Decided = super::decided::Decided<Side>;

/// Where a friend's table stands before the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Before {
    /// The game is not under way yet: nothing can be chosen, laid or resigned.
    Starting,
    /// This side chooses who moves first.
    Choose,
    /// The friend chooses.
    FriendChooses,
    /// This side lays its fleet.
    Place,
    /// Laid and committed; the friend's is awaited.
    Laid,
}

impl IceTable {
    fn session(&self) -> Option<&table::Session> {
        match self {
            Self::Computer(_) => None,
            Self::Friend(remote) => remote.session(),
        }
    }

    fn position(&self) -> Option<&table::Position> {
        self.session()?.table().position()
    }

    /// The game on the table, once both fleets are laid.
    pub(super) fn game(&self) -> Option<&Game> {
        match self {
            Self::Computer(table) => table.game(),
            Self::Friend(_) => self.position()?.game(),
        }
    }

    /// The person's side, once known (a friend's table: once the first mover is chosen).
    pub(super) fn person(&self) -> Option<Side> {
        match self {
            Self::Computer(table) => Some(table.person()),
            Self::Friend(_) => {
                let session = self.session()?;
                let south = self.position()?.south()?;
                Some(if south == session.seat() {
                    Side::South
                } else {
                    Side::North
                })
            }
        }
    }

    /// The person's fleet and the goal, once known (`own`: the person's own fleet
    /// at a friend's points table).
    pub(super) fn fleet_and_goal(&self, own: Fleet) -> Option<(Fleet, Goal)> {
        match self {
            Self::Computer(table) => Some((table.fleet(), table.goal())),
            Self::Friend(_) => {
                let session = self.session()?;
                let (_, fleet, goal) = self.position()?.placing(session.seat())?;
                Some((fleet.unwrap_or(own), goal))
            }
        }
    }

    /// At a friend's table while the person chooses who moves first: the fleet the
    /// person commands if it moves first, and if the friend does (they differ in the
    /// advanced setup, where the side not moving first takes the other squadron).
    pub(super) fn fleets_if_chosen(&self) -> Option<(Fleet, Fleet)> {
        let seat = self.session()?.seat();
        let position = self.position()?;
        Some((
            position.fleet_if_chosen(seat, true)?,
            position.fleet_if_chosen(seat, false)?,
        ))
    }

    /// Whether the person lays a fleet of its own choosing (a friend's points table).
    pub(super) fn fleet_is_own(&self) -> bool {
        let Some(session) = self.session() else {
            return false;
        };
        self.position()
            .and_then(|p| p.placing(session.seat()))
            .is_some_and(|(_, fleet, _)| fleet.is_none())
    }

    /// The goal of the game on the table.
    pub(super) fn goal(&self) -> Option<Goal> {
        match self {
            Self::Computer(table) => Some(table.goal()),
            Self::Friend(_) => self.game().map(Game::goal).or_else(|| {
                let session = self.session()?;
                self.position()?.placing(session.seat()).map(|(_, _, g)| g)
            }),
        }
    }

    /// The table's (or the saved game's) random name: the totals count each game
    /// once by it and the game's number.
    pub(super) fn id(&self) -> [u8; 32] {
        match self {
            Self::Computer(table) => table.saved().id,
            Self::Friend(_) => self.session().map_or([0; 32], |s| s.table().id()),
        }
    }

    /// The game's number at its table (a game against the computer is its own).
    pub(super) fn game_number(&self) -> u32 {
        self.session()
            .and_then(|s| s.table().game_number())
            .unwrap_or(0)
    }

    /// The computer's level (none for a friend).
    pub(super) fn level(&self) -> Option<Level> {
        match self {
            Self::Computer(table) => Some(table.level()),
            Self::Friend(_) => None,
        }
    }

    /// Where a friend's table stands before the battle (`None`: in battle, or over).
    pub(super) fn before(&self) -> Option<Before> {
        match self {
            Self::Computer(table) => {
                (table.game().is_none() && !table.is_over()).then_some(Before::Place)
            }
            Self::Friend(_) => {
                let session = self.session()?;
                let Some(position) = self.position() else {
                    // Both nonces of the game's id are not in yet.
                    return (!session.table().ended()).then_some(Before::Starting);
                };
                if position.game().is_some() || session.table().ended() {
                    return None;
                }
                let seat = session.seat();
                Some(if session.owed() == Owed::Choose {
                    Before::Choose
                } else if position.south().is_none() {
                    Before::FriendChooses
                } else if position.placing(seat).is_some() && position.committed(seat).is_none() {
                    // Laid while the friend commits first: sent when it is owed.
                    Before::Place
                } else {
                    Before::Laid
                })
            }
        }
    }

    /// Whether the table takes the person's placement now.
    pub(super) fn owes_placement(&self) -> bool {
        match self {
            Self::Computer(table) => table.game().is_none() && !table.is_over(),
            Self::Friend(_) => self
                .session()
                .is_some_and(|s| matches!(s.owed(), Owed::Place(..))),
        }
    }

    /// Whether it is the person's turn to act.
    pub(super) fn my_turn(&self) -> bool {
        match self {
            Self::Computer(table) => table.my_turn(),
            Self::Friend(_) => self.session().is_some_and(|s| s.owed() == Owed::Act),
        }
    }

    /// The person's choice of who moves first (a friend's table).
    pub(super) fn choose(&mut self, first: bool) {
        if let Self::Friend(remote) = self {
            let _ = remote.command(table::Command::Choose(first));
        }
    }

    /// The person's placement; why not, if refused at once.
    pub(super) fn place(
        &mut self,
        now: Millis,
        placement: Vec<Placed>,
    ) -> Result<(), IcehouseError> {
        match self {
            Self::Computer(table) => table.place(now, placement),
            Self::Friend(remote) => {
                let _ = remote.command(table::Command::Place(placement));
                Ok(())
            }
        }
    }

    /// The person's action; a refusal the computer's table names at once (a
    /// friend's table says it later, as [`IceTable::take_refused`]).
    pub(super) fn play(&mut self, now: Millis, action: Action) -> Result<(), IcehouseError> {
        match self {
            Self::Computer(table) => table.play(now, action).map(|_| ()),
            Self::Friend(remote) => {
                let _ = remote.command(table::Command::Act(action));
                Ok(())
            }
        }
    }

    pub(super) fn resign(&mut self) {
        match self {
            Self::Computer(table) => table.resign(),
            Self::Friend(remote) => {
                let _ = remote.command(table::Command::Resign);
            }
        }
    }

    /// A friend's table: the time an action may take (the table's step clock).
    pub(super) fn step_ms(&self) -> Option<Millis> {
        Some(Millis::from(self.session()?.table().settings()?.move_ms))
    }

    /// A friend's table, the friend to act: how long until this side may claim
    /// their overdue action (the step clock and the grace), on the table's clock.
    pub(super) fn friend_time_left(&self) -> Option<Millis> {
        let Self::Friend(remote) = self else {
            return None;
        };
        let session = remote.session()?;
        let deadline = session.poll_timeout()?;
        let grace = Millis::from(session.table().settings()?.grace_ms);
        Some(deadline.saturating_sub(grace).saturating_sub(remote.now()))
    }

    /// The draw offer standing at a friend's table: whether it is this side's.
    pub(super) fn draw_offer(&self) -> Option<bool> {
        let session = self.session()?;
        let offer = session.table().draw_offer()?;
        Some(offer.seat == session.seat())
    }

    /// Whether this side may offer a draw now (a friend's table, its own turn, once).
    pub(super) fn may_offer_draw(&self) -> bool {
        self.session()
            .is_some_and(|s| s.table().draw_offer_refusal(s.seat()).is_none())
    }

    pub(super) fn offer_draw(&mut self) {
        if let Self::Friend(remote) = self {
            let _ = remote.command(table::Command::OfferDraw);
        }
    }

    pub(super) fn answer_draw(&mut self, accept: bool) {
        if let Self::Friend(remote) = self {
            let _ = remote.command(table::Command::AnswerDraw(accept));
        }
    }

    /// Asks the friend for another game.
    pub(super) fn play_again(&mut self) {
        if let Self::Friend(remote) = self {
            let _ = remote.command(table::Command::PlayAgain);
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

    /// Whether the game has ended (a friend's may not be settled yet).
    pub(super) fn ended(&self) -> bool {
        match self {
            Self::Computer(table) => table.is_over(),
            Self::Friend(_) => self.session().is_some_and(|s| s.table().ended()),
        }
    }

    /// How the game was decided, once it is settled.
    pub(super) fn decided(&self) -> Option<Decided> {
        match self {
            Self::Computer(table) => {
                let winner = table.winner()?;
                let why = if table.resigned().is_some() {
                    "arch-why-resigned"
                } else {
                    rules_reason(table.game()?.ending()?.reason)
                };
                Some(Decided {
                    winner,
                    why,
                    lie: None,
                })
            }
            Self::Friend(_) => {
                let session = self.session()?;
                let south = self.position().and_then(table::Position::south);
                let side =
                    |seat: Seat| south.map(|s| if s == seat { Side::South } else { Side::North });
                Some(Decided::settled(
                    session.table().settled()?,
                    side,
                    rules_reason,
                ))
            }
        }
    }

    /// Every action of the game, with its side, in order.
    pub(super) fn history(&self) -> Vec<(Side, Action)> {
        match self {
            Self::Computer(table) => {
                let saved = table.saved();
                let Ok(mut game) = Game::new(
                    saved.goal,
                    saved.fleets,
                    [&saved.placements[0], &saved.placements[1]],
                ) else {
                    return Vec::new();
                };
                saved
                    .actions
                    .iter()
                    .map(|&action| {
                        let side = game.to_move();
                        let _ = game.play(action);
                        (side, action)
                    })
                    .collect()
            }
            Self::Friend(_) => self.session().map_or_else(Vec::new, |s| {
                s.table()
                    .steps()
                    .iter()
                    .filter_map(|step| match step.played {
                        IcePlayed::Acted { played, .. } => Some((played.side, played.action)),
                        _ => None,
                    })
                    .collect()
            }),
        }
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
                        table::Event::Table(Note::Moved(step)) => match step.played {
                            IcePlayed::Acted { played, .. } => seen.push(Seen::Played(played)),
                            _ => seen.push(Seen::Changed),
                        },
                        table::Event::Table(Note::Opened { .. } | Note::Undone(_)) => {
                            seen.push(Seen::Changed);
                        }
                        _ => {}
                    }
                }
            }
        }
        seen
    }

    /// When [`IceTable::poll`] should be called next without news.
    pub(super) fn poll_timeout(&self) -> Option<Millis> {
        match self {
            Self::Computer(table) => table.poll_timeout(),
            Self::Friend(_) => None,
        }
    }

    /// Why the friend's table refused the person's last command.
    pub(super) fn take_refused(&mut self) -> Option<String> {
        self.remote().and_then(Remote::take_refused)
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

fn rules_reason(reason: crate::driver::ice::EndReason) -> &'static str {
    use crate::driver::ice::EndReason;
    match reason {
        EndReason::AllSunk => "ice-why-all-sunk",
        EndReason::FlagshipSunk => "ice-why-flagship-sunk",
        EndReason::Rammed => "ice-why-rammed",
        EndReason::Quiet => "ice-why-quiet",
        EndReason::BrokeThrough => "ice-why-broke-through",
        EndReason::Held => "ice-why-held",
    }
}
