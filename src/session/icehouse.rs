//! One side of an Icehouse Armada table between friends, sans-IO: the open game's
//! session (`session::open`) plus the one secret this side holds between its
//! commitment and its reveal — its placement and salt — which it keeps in its
//! snapshot and reveals unasked once its turn to reveal comes.
//!
//! Architecture invariant: as every session — no sockets, no clock, no threads; the
//! only randomness it draws itself is the salt (and the table's nonces); every frame
//! goes through its own table first.

use armada_proto::{self as proto, IcePlaced, SavedFrame};

use crate::fair::hash::Hash;
use crate::fair::secret::Secret;
use crate::fair::sign::Identity;
use crate::fair::table::Rejected;
use crate::icehouse::{self as ice, Action, Placed};
use crate::rules::Seat;

use super::open;
use super::{CommandError, Millis, RestoreError};

// The observer's vocabulary, for the session's shells.
pub use crate::fair::icehouse::{
    IceMove, IcePlayed, Icehouse, Note, Outcome, Position, Reason, Table, Verdict, check_settings,
};
/// What the session tells its shell.
pub type Event = open::Event<Icehouse>;
pub use open::Event as OpenEvent;

/// A new Icehouse table's settings as the window opens one: the setup, the goal (in
/// a breakthrough, whether the host attacks), whether the host commands the heavy
/// squadron (never at a points table, which has no squadrons), the time a step may
/// take, and the grace.
pub fn settings(
    setup: ice::Setup,
    goal: proto::IceGoal,
    host_heavy: bool,
    move_ms: u32,
    grace_ms: u32,
) -> proto::Settings {
    let fleet = |f: ice::Fleet| proto::IceFleet {
        large: f.large,
        medium: f.medium,
        small: f.small,
    };
    let setup = match setup {
        ice::Setup::Basic => proto::IceSetup::Basic,
        ice::Setup::Advanced { heavy, light } => proto::IceSetup::Advanced {
            heavy: fleet(heavy),
            light: fleet(light),
        },
        ice::Setup::Points => proto::IceSetup::Points,
    };
    let host_heavy = host_heavy && setup != proto::IceSetup::Points;
    proto::Settings {
        game: proto::GameKind::Icehouse {
            setup,
            goal,
            host_heavy,
        },
        move_ms,
        answer_ms: 0,
        reveal_ms: 0,
        grace_ms,
    }
}

/// What a player asks of an Icehouse session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The chooser moves first (`true`) or lets the other side.
    Choose(bool),
    /// This side's placement, committed now and revealed in its turn.
    Place(Vec<Placed>),
    /// An action of the game under way.
    Act(Action),
    Resign,
    /// Offers a draw, once in this side's turn, while no offer stands.
    OfferDraw,
    /// Accepts or declines the other side's standing draw offer.
    AnswerDraw(bool),
    PlayAgain,
    Leave(String),
    LeaveNow(String),
}

/// What the table waits for from this side now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owed {
    Nothing,
    /// Whether to move first ([`Command::Choose`]).
    Choose,
    /// A placement ([`Command::Place`]) of this side, fleet (none: a points fleet of
    /// one's own, worth 12) and goal.
    Place(ice::Side, Option<ice::Fleet>, ice::Goal),
    /// An action ([`Command::Act`]).
    Act,
    PlayAgain,
}

/// The placement this side committed to in game `game`, until revealed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Placing {
    game: u32,
    salt: Hash,
    ships: Vec<IcePlaced>,
}

/// One side of an Icehouse table.
#[derive(Clone, Debug)]
pub struct Session {
    inner: open::Session<Icehouse>,
    placing: Option<Placing>,
}

/// The session as saved: the open session's snapshot and the secret placement.
#[derive(serde::Serialize, serde::Deserialize)]
struct Saved {
    magic: [u8; 8],
    inner: Vec<u8>,
    placing: Option<Placing>,
}

const MAGIC: [u8; 8] = *b"ARMADAIs";

impl Session {
    pub fn host(identity: Identity, secret: Hash, settings: proto::Settings) -> Self {
        Self::wrap(open::Session::host(identity, secret, settings))
    }

    pub fn guest(identity: Identity, secret: Hash) -> Self {
        Self::wrap(open::Session::guest(identity, secret))
    }

    pub fn guest_by_code(
        identity: Identity,
        secret: Hash,
        key: &crate::fair::code::CodeKey,
    ) -> Self {
        Self::wrap(open::Session::guest_by_code(identity, secret, key))
    }

    fn wrap(inner: open::Session<Icehouse>) -> Self {
        Self {
            inner,
            placing: None,
        }
    }

    /// The open game's session underneath (its table, wire and events).
    pub fn inner(&self) -> &open::Session<Icehouse> {
        &self.inner
    }

    pub fn inner_mut(&mut self) -> &mut open::Session<Icehouse> {
        &mut self.inner
    }

    pub fn table(&self) -> &Table {
        self.inner.table()
    }

    pub fn seat(&self) -> Seat {
        self.inner.seat()
    }

    pub fn expect_code(&mut self, key: crate::fair::code::CodeKey) {
        self.inner.expect_code(key);
    }

    pub fn peer_gone(&self) -> Option<&str> {
        self.inner.peer_gone()
    }

    pub fn recall_peer_gone(&mut self, reason: String) {
        self.inner.recall_peer_gone(reason);
    }

    pub fn score(&self) -> [u32; 2] {
        self.inner.score()
    }

    pub fn sync_wire(&self) -> Vec<u8> {
        self.inner.sync_wire()
    }

    pub fn poll_wire(&mut self) -> Option<Vec<u8>> {
        self.inner.poll_wire()
    }

    /// The next frame for the peer (tests and the in-memory duet).
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.inner.poll_transmit()
    }

    pub fn has_outgoing(&self) -> bool {
        self.inner.has_outgoing()
    }

    pub fn poll_timeout(&self) -> Option<Millis> {
        self.inner.poll_timeout()
    }

    /// When this side's turn time runs out, while it owes its turn.
    pub fn move_deadline(&self) -> Option<Millis> {
        self.inner.move_deadline()
    }

    /// A turn's time at this table, in seconds, once the settings are in.
    pub fn move_seconds(&self) -> Option<u32> {
        self.inner.move_seconds()
    }

    pub fn poll_event(&mut self) -> Option<Event> {
        self.inner.poll_event()
    }

    /// What the table waits for from this side now.
    pub fn owed(&self) -> Owed {
        match self.inner.owed() {
            open::Owed::Nothing => Owed::Nothing,
            open::Owed::PlayAgain => Owed::PlayAgain,
            open::Owed::Move => {
                let me = self.seat();
                let Some(position) = self.table().position() else {
                    return Owed::Nothing;
                };
                if position.choosing(me) {
                    Owed::Choose
                } else if position.game().is_some() {
                    Owed::Act
                } else if position.revealing(me) {
                    // Revealed unasked as soon as it is due.
                    Owed::Nothing
                } else if let Some((side, fleet, goal)) = position.placing(me) {
                    Owed::Place(side, fleet, goal)
                } else {
                    Owed::Nothing
                }
            }
        }
    }

    /// A player's command; on error nothing changed.
    pub fn handle_command(&mut self, now: Millis, command: Command) -> Result<(), CommandError> {
        let inner = match command {
            Command::Choose(first) => open::Command::Move(IceMove::Choose {
                chooser_first: first,
            }),
            Command::Act(action) => open::Command::Move(IceMove::Act(action)),
            Command::Place(ships) => return self.place(now, &ships),
            Command::Resign => open::Command::Resign,
            Command::OfferDraw => open::Command::OfferDraw,
            Command::AnswerDraw(accept) => open::Command::AnswerDraw(accept),
            Command::PlayAgain => open::Command::PlayAgain,
            Command::Leave(why) => open::Command::Leave(why),
            Command::LeaveNow(why) => open::Command::LeaveNow(why),
        };
        self.inner.handle_command(now, inner)?;
        self.reveal_if_due(now);
        Ok(())
    }

    /// Commits to `ships` (checked against the page first) and keeps them to reveal.
    fn place(&mut self, now: Millis, ships: &[Placed]) -> Result<(), CommandError> {
        let Owed::Place(side, fleet, goal) = self.owed() else {
            return Err(CommandError::NotNow("no placement is owed now"));
        };
        let fleet = if let Some(fleet) = fleet {
            fleet
        } else {
            let own = ice::Fleet::of(ships);
            ice::check_points(own).map_err(|e| CommandError::Illegal(e.to_string()))?;
            own
        };
        ice::check_placement(side, goal, fleet, ships)
            .map_err(|e| CommandError::Illegal(e.to_string()))?;
        let salt = *Secret::<32>::fresh()?.expose();
        let position = self
            .table()
            .position()
            .ok_or(CommandError::NotNow("no game"))?;
        let hash = position.commit_for(self.seat(), &salt, ships);
        let game = self.table().game_number().unwrap_or(0);
        self.inner
            .handle_command(now, open::Command::Move(IceMove::Commit(hash)))?;
        let wire = match crate::fair::icehouse::act(
            &IceMove::reveal(salt, ships).ok_or(CommandError::Illegal("too many ships".into()))?,
        ) {
            proto::IceAct::Reveal { ships, .. } => ships,
            _ => Vec::new(),
        };
        self.placing = Some(Placing {
            game,
            salt,
            ships: wire,
        });
        self.reveal_if_due(now);
        Ok(())
    }

    /// Reveals this side's placement if the table waits for it.
    fn reveal_if_due(&mut self, now: Millis) {
        let me = self.seat();
        let due = self.inner.owed() == open::Owed::Move
            && self.table().position().is_some_and(|p| p.revealing(me));
        let Some(placing) = self.placing.clone().filter(|_| due) else {
            return;
        };
        if Some(placing.game) != self.table().game_number() {
            return;
        }
        let act = proto::IceAct::Reveal {
            salt: placing.salt,
            ships: placing.ships,
        };
        if let Ok(mv) = crate::fair::icehouse::from_act(&act)
            && self
                .inner
                .handle_command(now, open::Command::Move(mv))
                .is_ok()
        {
            self.placing = None;
        }
    }

    /// A stream message from the peer; refused ones change nothing.
    pub fn handle_wire(&mut self, now: Millis, bytes: &[u8]) -> Result<(), Rejected> {
        let result = self.inner.handle_wire(now, bytes);
        self.reveal_if_due(now);
        result
    }

    /// One frame from the peer (tests and the in-memory duet).
    pub fn handle_message(&mut self, now: Millis, bytes: &[u8]) -> Result<(), Rejected> {
        let result = self.inner.handle_message(now, bytes);
        self.reveal_if_due(now);
        result
    }

    pub fn handle_timeout(&mut self, now: Millis) {
        self.inner.handle_timeout(now);
        self.reveal_if_due(now);
    }

    /// Everything needed to go on after a restart but the frames and the key: the
    /// open session's snapshot and the placement not yet revealed.
    pub fn save_state(&self) -> Vec<u8> {
        let saved = Saved {
            magic: MAGIC,
            inner: self.inner.save_state(),
            placing: self.placing.clone(),
        };
        postcard::to_stdvec(&saved).expect("encoding into memory cannot fail")
    }

    /// The session saved by [`Session::save_state`], with its transcript's frames.
    pub fn restore_with(
        identity: Identity,
        bytes: &[u8],
        journal: &[SavedFrame],
        now: Millis,
    ) -> Result<Self, RestoreError> {
        let saved: Saved = postcard::from_bytes(bytes)
            .ok()
            .filter(|s: &Saved| s.magic == MAGIC)
            .ok_or_else(|| RestoreError::Malformed("not an Icehouse Armada table's save".into()))?;
        let inner = open::Session::restore_with(identity, &saved.inner, journal, now)?;
        // A kept placement must open this side's own signed commitment.
        if let Some(placing) = &saved.placing {
            let me = inner.seat();
            let ships: Vec<Placed> = match crate::fair::icehouse::from_act(&proto::IceAct::Reveal {
                salt: placing.salt,
                ships: placing.ships.clone(),
            }) {
                Ok(IceMove::Reveal { ships, count, .. }) => ships[..usize::from(count)].to_vec(),
                _ => return Err(RestoreError::Secrets("placement")),
            };
            let opens =
                inner
                    .table()
                    .position()
                    .is_some_and(|p: &crate::fair::icehouse::Position| {
                        p.committed(me) == Some(p.commit_for(me, &placing.salt, &ships))
                    });
            if inner.table().game_number() == Some(placing.game) && !opens {
                return Err(RestoreError::Secrets("placement"));
            }
        }
        let mut session = Self {
            inner,
            placing: saved.placing,
        };
        session.reveal_if_due(now);
        Ok(session)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A points table has no squadrons: the window's remembered squadron is not
    /// sent with it, so the table opens.
    #[test]
    fn a_points_table_is_opened_whatever_squadron_was_chosen() {
        for heavy in [false, true] {
            let settings = settings(
                ice::Setup::Points,
                proto::IceGoal::SinkAll,
                heavy,
                90_000,
                0,
            );
            assert!(check_settings(&settings).is_ok(), "heavy: {heavy}");
        }
        let basic = settings(ice::Setup::Basic, proto::IceGoal::SinkAll, true, 90_000, 0);
        assert!(matches!(
            check_settings(&basic),
            Ok((ice::Setup::Basic, _, true))
        ));
    }
}
