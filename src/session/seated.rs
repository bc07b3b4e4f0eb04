//! What the driver and the store need of a table's session, whichever game it plays: the sea battle's [`super::Session`], Archimedes' [`super::archimedes::Session`] and Icehouse Armada's [`super::icehouse::Session`] all fit.
//!
//! One driver pumps stream ↔ session ↔ store for every game, so everything it asks
//! of a session is here, and nothing game-specific is: the game's own commands and
//! events pass through it untouched, as associated types.

use armada_proto::{self as proto, SavedFrame};

use super::{CommandError, Millis, RestoreError};
use crate::fair::code::CodeKey;
use crate::fair::hash::Hash;
use crate::fair::sign::Identity;
use crate::fair::table::Rejected;
use crate::rules::Seat;

/// The game a saved table plays (kept in its meta, to restore the right session).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TableGame {
    /// The sea battle, Armada or classic.
    #[default]
    Sea,
    Archimedes,
    Icehouse,
}

impl TableGame {
    /// Every game a table can play: the one list a new game joins (besides [`Self::ask`]).
    pub const ALL: [Self; 3] = [Self::Sea, Self::Archimedes, Self::Icehouse];

    pub fn is_sea(&self) -> bool {
        *self == Self::Sea
    }

    /// Puts `question` to this game's session type.
    pub fn ask(self, question: &mut impl EachGame) {
        match self {
            Self::Sea => question.game::<super::Session>(),
            Self::Archimedes => question.game::<super::archimedes::Session>(),
            Self::Icehouse => question.game::<super::icehouse::Session>(),
        }
    }
}

/// A question put to a game's session type, asked of every game in turn by
/// `for game in TableGame::ALL { game.ask(&mut question) }` — a generic method,
/// since a closure cannot be generic over the game.
pub trait EachGame {
    /// What the question makes of the game whose session is `S`.
    fn game<S: TableSession>(&mut self);
}

/// One side of a table between two peers, sans-IO, as the driver and store see it.
pub trait TableSession: Clone + std::fmt::Debug + Send + Sync + 'static {
    /// What a player asks of the session.
    type Command: Clone + std::fmt::Debug + Send + 'static;
    /// What the session tells its shell.
    type Event: Clone + std::fmt::Debug + Send + 'static;
    const GAME: TableGame;
    /// Whether a table whose settings name `game` is this game's.
    fn plays(game: &proto::GameKind) -> bool;

    /// The host's side of a new table; `secret` goes into the invite; `timer`: the
    /// move timer's switch where the game has one (Archimedes' moves are always timed).
    fn host(identity: Identity, secret: Hash, settings: proto::Settings, timer: bool) -> Self;
    /// The guest's side, from the invite's secret; its hello is ready to send.
    fn guest(identity: Identity, secret: Hash) -> Self;
    /// The guest's side admitted by a short code's handshake.
    fn guest_by_code(identity: Identity, secret: Hash, key: &CodeKey) -> Self;
    /// The host learns that a short code's handshake succeeded with `key`.
    fn expect_code(&mut self, key: CodeKey);

    fn seat(&self) -> Seat;
    fn table_id(&self) -> Hash;
    /// The key `seat` signs with, once its hello is in.
    fn key(&self, seat: Seat) -> Option<Hash>;
    fn left(&self, seat: Seat) -> bool;
    /// Whether the latest game's verdict is settled.
    fn settled(&self) -> bool;
    /// Whether a game is open (both players are in and the table's settings known).
    fn game_open(&self) -> bool;
    /// Games begun at the table (the one under way included).
    fn games_begun(&self) -> u32;
    /// Who claims a forfeit that waits for its answer, if anyone.
    fn claimant(&self) -> Option<Seat>;
    /// The table's grace for an absent player, once its settings are known.
    fn grace_ms(&self) -> Option<u32>;
    /// Why the peer said it cannot go on at this table, if it did.
    fn peer_gone(&self) -> Option<&str>;
    /// A resumed side recalls that the peer said it cannot go on, nothing sent again.
    fn recall_peer_gone(&mut self, reason: String);
    /// The running score in half points (host, guest), over settled games.
    fn score(&self) -> [u32; 2];

    /// The first message on a new connection: how far this side holds the peer's chain.
    fn sync_wire(&self) -> Vec<u8>;
    /// The next stream message for the peer.
    fn poll_wire(&mut self) -> Option<Vec<u8>>;
    /// Whether anything waits to be sent.
    fn has_outgoing(&self) -> bool;
    /// A stream message from the peer; refused ones change nothing.
    fn handle_wire(&mut self, now: Millis, bytes: &[u8]) -> Result<(), Rejected>;
    fn handle_timeout(&mut self, now: Millis);
    fn poll_timeout(&self) -> Option<Millis>;
    fn handle_command(&mut self, now: Millis, command: Self::Command) -> Result<(), CommandError>;
    /// The command that leaves the table for `reason`.
    fn leave(reason: String) -> Self::Command;
    fn is_leave(command: &Self::Command) -> bool;
    fn poll_event(&mut self) -> Option<Self::Event>;
    /// The bug an event reports in this client's own protocol, if it is one.
    fn internal(event: &Self::Event) -> Option<&str>;
    /// The peer's refusal an event carries, if it is one.
    fn peer_refused(event: &Self::Event) -> Option<&proto::ProtocolError>;
    /// Forgets what nobody can need again (it lives on in the saved transcript).
    fn compact(&mut self);

    /// How many frames the transcript holds (compacted ones included).
    fn transcript_len(&self) -> usize;
    /// The transcript's frames from number `n` on.
    fn transcript_from(&self, n: usize) -> Vec<(Seat, Vec<u8>)>;
    /// Whether every frame is still held.
    fn is_whole(&self) -> bool;
    /// The transcript as a file `armada verify` reads (only while whole).
    fn transcript_file(&self) -> Vec<u8>;
    /// The session without its frames (those are its transcript file).
    fn save_state(&self) -> Vec<u8>;
    /// The session saved by [`TableSession::save_state`], with its transcript's frames.
    fn restore_with(
        identity: Identity,
        bytes: &[u8],
        journal: &[SavedFrame],
        now: Millis,
    ) -> Result<Self, RestoreError>;
    /// How many of `frames` an observer of table `table` takes in before one fails.
    fn intact(table: Hash, frames: &[SavedFrame]) -> usize;
}

/// The methods both sessions have under the same name and meaning, forwarded.
macro_rules! forward {
    () => {
        fn guest(identity: Identity, secret: Hash) -> Self {
            Self::guest(identity, secret)
        }
        fn guest_by_code(identity: Identity, secret: Hash, key: &CodeKey) -> Self {
            Self::guest_by_code(identity, secret, key)
        }
        fn expect_code(&mut self, key: CodeKey) {
            Self::expect_code(self, key);
        }
        fn seat(&self) -> Seat {
            Self::seat(self)
        }
        fn table_id(&self) -> Hash {
            self.table().id()
        }
        fn key(&self, seat: Seat) -> Option<Hash> {
            self.table().key(seat)
        }
        fn left(&self, seat: Seat) -> bool {
            self.table().left(seat)
        }
        fn settled(&self) -> bool {
            self.table().settled().is_some()
        }
        fn game_open(&self) -> bool {
            self.table().game_id().is_some()
        }
        fn games_begun(&self) -> u32 {
            self.table().game_number().map_or(0, |n| n + 1)
        }
        fn claimant(&self) -> Option<Seat> {
            self.table().pending_claim().map(|c| c.claimant)
        }
        fn grace_ms(&self) -> Option<u32> {
            self.table().settings().map(|s| s.grace_ms)
        }
        fn peer_gone(&self) -> Option<&str> {
            Self::peer_gone(self)
        }
        fn recall_peer_gone(&mut self, reason: String) {
            Self::recall_peer_gone(self, reason);
        }
        fn score(&self) -> [u32; 2] {
            Self::score(self)
        }
        fn sync_wire(&self) -> Vec<u8> {
            Self::sync_wire(self)
        }
        fn poll_wire(&mut self) -> Option<Vec<u8>> {
            Self::poll_wire(self)
        }
        fn has_outgoing(&self) -> bool {
            Self::has_outgoing(self)
        }
        fn handle_wire(&mut self, now: Millis, bytes: &[u8]) -> Result<(), Rejected> {
            Self::handle_wire(self, now, bytes)
        }
        fn handle_timeout(&mut self, now: Millis) {
            Self::handle_timeout(self, now);
        }
        fn poll_timeout(&self) -> Option<Millis> {
            Self::poll_timeout(self)
        }
        fn handle_command(
            &mut self,
            now: Millis,
            command: Self::Command,
        ) -> Result<(), CommandError> {
            Self::handle_command(self, now, command)
        }
        fn poll_event(&mut self) -> Option<Self::Event> {
            Self::poll_event(self)
        }
        fn transcript_file(&self) -> Vec<u8> {
            self.table().transcript_file()
        }
        fn transcript_len(&self) -> usize {
            self.table().transcript_len()
        }
        fn transcript_from(&self, n: usize) -> Vec<(Seat, Vec<u8>)> {
            self.table().transcript_from(n).cloned().collect()
        }
        fn is_whole(&self) -> bool {
            self.table().is_whole()
        }
        fn save_state(&self) -> Vec<u8> {
            Self::save_state(self)
        }
        fn restore_with(
            identity: Identity,
            bytes: &[u8],
            journal: &[SavedFrame],
            now: Millis,
        ) -> Result<Self, RestoreError> {
            Self::restore_with(identity, bytes, journal, now)
        }
    };
}

impl TableSession for super::Session {
    type Command = super::Command;
    type Event = super::Event;
    const GAME: TableGame = TableGame::Sea;
    forward!();
    fn plays(game: &proto::GameKind) -> bool {
        !matches!(
            game,
            proto::GameKind::Archimedes { .. } | proto::GameKind::Icehouse { .. }
        )
    }

    fn host(identity: Identity, secret: Hash, settings: proto::Settings, timer: bool) -> Self {
        Self::host(identity, secret, settings).with_timer(timer)
    }
    fn leave(reason: String) -> Self::Command {
        super::Command::Leave(reason)
    }
    fn is_leave(command: &Self::Command) -> bool {
        matches!(command, super::Command::Leave(_))
    }
    fn internal(event: &Self::Event) -> Option<&str> {
        match event {
            super::Event::Internal(bug) => Some(bug),
            _ => None,
        }
    }
    fn peer_refused(event: &Self::Event) -> Option<&proto::ProtocolError> {
        match event {
            super::Event::PeerRefused(error) => Some(error),
            _ => None,
        }
    }
    fn compact(&mut self) {
        Self::compact(self);
    }
    fn intact(table: Hash, frames: &[SavedFrame]) -> usize {
        super::endpoint::intact::<crate::fair::table::Table>(table, frames)
    }
}

impl TableSession for super::archimedes::Session {
    type Command = super::archimedes::Command;
    type Event = super::archimedes::Event;
    const GAME: TableGame = TableGame::Archimedes;
    forward!();
    fn plays(game: &proto::GameKind) -> bool {
        matches!(game, proto::GameKind::Archimedes { .. })
    }

    fn host(identity: Identity, secret: Hash, settings: proto::Settings, _: bool) -> Self {
        Self::host(identity, secret, settings)
    }
    fn leave(reason: String) -> Self::Command {
        super::archimedes::Command::Leave(reason)
    }
    fn is_leave(command: &Self::Command) -> bool {
        matches!(command, super::archimedes::Command::Leave(_))
    }
    fn internal(event: &Self::Event) -> Option<&str> {
        match event {
            super::archimedes::Event::Internal(bug) => Some(bug),
            _ => None,
        }
    }
    fn peer_refused(event: &Self::Event) -> Option<&proto::ProtocolError> {
        match event {
            super::archimedes::Event::PeerRefused(error) => Some(error),
            _ => None,
        }
    }
    fn compact(&mut self) {}
    fn intact(table: Hash, frames: &[SavedFrame]) -> usize {
        super::endpoint::intact::<crate::fair::archimedes::Table>(table, frames)
    }
}

impl TableSession for super::icehouse::Session {
    type Command = super::icehouse::Command;
    type Event = super::icehouse::Event;
    const GAME: TableGame = TableGame::Icehouse;
    forward!();
    fn plays(game: &proto::GameKind) -> bool {
        matches!(game, proto::GameKind::Icehouse { .. })
    }

    fn host(identity: Identity, secret: Hash, settings: proto::Settings, _: bool) -> Self {
        Self::host(identity, secret, settings)
    }
    fn leave(reason: String) -> Self::Command {
        super::icehouse::Command::Leave(reason)
    }
    fn is_leave(command: &Self::Command) -> bool {
        matches!(command, super::icehouse::Command::Leave(_))
    }
    fn internal(event: &Self::Event) -> Option<&str> {
        match event {
            super::open::Event::Internal(bug) => Some(bug),
            _ => None,
        }
    }
    fn peer_refused(event: &Self::Event) -> Option<&proto::ProtocolError> {
        match event {
            super::open::Event::PeerRefused(error) => Some(error),
            _ => None,
        }
    }
    fn compact(&mut self) {}
    fn intact(table: Hash, frames: &[SavedFrame]) -> usize {
        super::endpoint::intact::<crate::fair::icehouse::Table>(table, frames)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each game asks the session that plays it, and every game is asked once.
    #[test]
    fn every_game_is_asked_of_its_own_session() {
        struct Games(Vec<TableGame>);
        impl EachGame for Games {
            fn game<S: TableSession>(&mut self) {
                self.0.push(S::GAME);
            }
        }
        let mut asked = Games(Vec::new());
        for game in TableGame::ALL {
            game.ask(&mut asked);
        }
        assert_eq!(asked.0, TableGame::ALL);
        let all = TableGame::ALL;
        assert!(
            (0..all.len()).all(|i| !all[..i].contains(&all[i])),
            "no game listed twice: {all:?}"
        );
    }
}
