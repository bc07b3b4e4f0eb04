//! The sans-IO table state machine: frames and commands in; frames, events and deadlines out.
//!
//! Like `quinn-proto`: no sockets, no clock, no threads. Inputs are
//! [`Session::handle_message`], [`Session::handle_command`] and
//! [`Session::handle_timeout`], each given the current time; outputs are pulled
//! with [`Session::poll_transmit`], [`Session::poll_event`] and
//! [`Session::poll_timeout`]. The only randomness a session draws itself is its
//! secrets (salts, contributions, nonces), which TRUST.md requires to come from the
//! operating system; everything else — time, a computer player's choices — comes in.
//!
//! Architecture invariant: knows nothing of libp2p, tokio or egui. Every frame it
//! sends goes through its own [`table::Table`] first, exactly as the peer and
//! `armada verify` will check it.

pub mod archimedes;
mod endpoint;
pub mod icehouse;
pub mod open;
mod seated;
mod snapshot;

pub use endpoint::MAX_VOID_RUN;
pub use seated::{EachGame, TableGame, TableSession};
pub use snapshot::RestoreError;

/// The absent player's grace unless the host chooses another.
pub const GRACE_MS: u32 = 30_000;

/// A new table's settings — the one builder, with the one set of defaults: `variant`
/// and the absent player's grace; the move time is [`crate::fair::table::MOVE_MS`],
/// the answer and reveal deadlines 10 s. (The move timer is switched for each game:
/// [`Command::Timer`].)
pub fn settings(variant: crate::rules::Variant, grace_ms: u32) -> proto::Settings {
    proto::Settings {
        game: crate::fair::wire::game_kind(variant),
        move_ms: crate::fair::table::MOVE_MS,
        answer_ms: 10_000,
        reveal_ms: 10_000,
        grace_ms,
    }
}

use armada_proto::{self as proto, Payload};
use thiserror::Error;

use crate::fair::code::CodeKey;
use crate::fair::commit::{Binding, SealedBoard};
use crate::fair::hash::Hash;
use crate::fair::secret::{Contribution, EntropyError, Secret};
use crate::fair::shared::{
    STRIKES, contribution_commitment, shell_order, strike_number, timeout_cell,
};
use crate::fair::sign::Identity;
use crate::rules::{
    Action, ActionError, Content, DrawError, Fleet, PlacementError, Recorder, Seat,
};

use crate::fair::table::{ClaimState, Rejected};
use endpoint::{Endpoint, LeaveGame, Wired, wired};
// The session's vocabulary for its shells: what happened at the table (notes), the
// move log, lies and verdicts, and the table it reads them from.
pub use crate::fair::table::{Lie, Note, Played, Table, Verdict};
use crate::fair::wire;

/// Milliseconds on the caller's monotonic clock.
pub type Millis = u64;

/// What a player asks of the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Commit to this fleet (for the guest, this is Ready).
    Place(Fleet),
    /// The host starts the game once both fleets are committed, with the move timer
    /// as its switch stands.
    Start,
    /// The host's timer switch: whether the move timer runs in the games it starts
    /// from now on (on at a new table). Refused while a game runs.
    Timer(bool),
    Act(Action),
    OfferDraw,
    AnswerDraw(bool),
    Resign,
    PlayAgain,
    /// Leaves the table for good: a game under way is resigned, this side's reveal
    /// and verdict still go out, and the leave follows once the game is settled, so
    /// both records hold its result.
    Leave(String),
    /// Leaves at once: a game under way counts as resigned but is left unsettled (the
    /// other side claims the reveal it misses). What the protocol allows a client
    /// that cannot wait; Armada's own shells use [`Command::Leave`].
    LeaveNow(String),
}

/// Why a command was refused; nothing changed.
#[derive(Debug, Error)]
pub enum CommandError {
    #[error("not now: {0}")]
    NotNow(&'static str),
    #[error(transparent)]
    Action(#[from] ActionError),
    #[error(transparent)]
    Draw(#[from] DrawError),
    #[error(transparent)]
    Placement(#[from] PlacementError),
    #[error(transparent)]
    Entropy(#[from] EntropyError),
    /// A move the game's rules refuse, and why.
    #[error("{0}")]
    Illegal(String),
}

/// What the table waits for from this side now: the one place that decides it, for
/// computer players, the window and the tests alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owed {
    /// Nothing: the other side's turn, an answer or a claim pending, the game over.
    Nothing,
    /// A fleet of this spec ([`Command::Place`]).
    Fleet(crate::rules::FleetSpec),
    /// The host's [`Command::Start`]: both fleets are committed.
    Start,
    /// An action in the current game ([`Command::Act`]); the game is
    /// [`Table::game`].
    Action,
    /// The game is settled: another needs [`Command::PlayAgain`] (unless this side
    /// asked already, or is done playing).
    PlayAgain,
}

/// What the session tells its shell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Something happened at the table (a frame of either side was taken in).
    Table(Note),
    /// A frame from the peer was refused and changed nothing.
    Refused(Rejected),
    /// The running score at the table, in half points (host, guest).
    Score([u32; 2]),
    /// The host's timer switch now stands so: the games it starts run the move timer
    /// or not.
    Timer(bool),
    /// The peer refused a frame (advisory: the peer's word, unsigned).
    PeerRefused(proto::ProtocolError),
    /// The peer said it cannot go on at this table (unsigned, its word about itself):
    /// every deadline waiting on it is due now.
    PeerGone(String),
    /// This client broke its own protocol (a bug): the table cannot go on.
    Internal(String),
}

/// What the session waits for, and since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    /// My clock runs: my client fires the timeout shot at the deadline.
    MyMove { number: u32 },
    /// Their clock runs (plus the grace).
    TheirMove { number: u32 },
    /// Their answer to my action.
    Answer { number: u32 },
    /// Their reveal after the end.
    Reveal { game: u32 },
}

/// My secrets for the current game.
#[derive(Clone, Debug)]
struct Secrets {
    game: Hash,
    fleet: Fleet,
    board: SealedBoard,
    contributions: Vec<Contribution>,
}

/// One side of a table.
#[derive(Clone, Debug)]
pub struct Session {
    wire: Endpoint<Table, Event>,
    /// The host's timer switch (see [`Command::Timer`]).
    timer: bool,
    secrets: Option<Secrets>,
    wait: Option<(Wait, Millis)>,
    revealed_for: Option<Hash>,
    verdict_for: Option<Hash>,
    lie_sent: Option<(Seat, u32)>,
    forfeit_sent: Option<Hash>,
    score: [u32; 2],
    /// The player asked to leave while a game was under way: this side resigns, still
    /// reveals, and says its leave (with this reason) once the game is settled, so that
    /// the game gets a verdict on both sides' records. Not saved: a side restarted
    /// meanwhile has resigned and reveals all the same.
    leaving: Option<String>,
}

impl Session {
    endpoint::wired_api!(Table, Event);

    /// The host's side of a new table; `secret` goes into the invite.
    pub fn host(identity: Identity, secret: Hash, settings: proto::Settings) -> Self {
        Self::seated(Seat::Host, identity, secret, Some(settings))
    }

    /// The host's side with its timer switch set to `on` (see [`Command::Timer`]).
    #[must_use]
    pub fn with_timer(mut self, on: bool) -> Self {
        self.timer = on && self.wire.me == Seat::Host;
        self
    }

    /// What the table waits for from this side now.
    pub fn owed(&self) -> Owed {
        let me = self.wire.me;
        let table = &self.wire.table;
        // Nothing is asked of a side that left or is leaving, nor of one whose friend
        // left (what it still owes the record, its answers and reveal, goes out
        // without asking).
        let parted = table.left(me) || table.left(me.other()) || self.leaving.is_some();
        if table.pending_claim().is_some() || parted {
            return Owed::Nothing;
        }
        if table.game_number().is_some() && table.settled().is_some() {
            return if table.wants_again(me) {
                Owed::Nothing
            } else {
                Owed::PlayAgain
            };
        }
        let Some(variant) = table.variant() else {
            return Owed::Nothing;
        };
        if table.game_id().is_some() && !table.committed(me) {
            return Owed::Fleet(variant.fleet());
        }
        let Some(game) = table.game() else {
            let both = table.committed(Seat::Host) && table.committed(Seat::Guest);
            return if me == Seat::Host && both {
                Owed::Start
            } else {
                Owed::Nothing
            };
        };
        if game.is_over()
            || game.mover() != me
            || table.pending().is_some()
            || table.accepted_draw().is_some()
        {
            return Owed::Nothing;
        }
        Owed::Action
    }

    /// Forgets frames of the table nobody can need again ([`Table::compact`]); for a
    /// session whose frames are saved (they stay in its transcript file), so that a
    /// table of thousands of games keeps a bounded memory.
    pub fn compact(&mut self) {
        self.wire.table.compact();
    }

    /// My fleet in the current game, once placed.
    pub fn fleet(&self) -> Option<&Fleet> {
        self.secrets.as_ref().map(|s| &s.fleet)
    }

    /// The host's timer switch: whether the next game it starts runs the move timer.
    pub fn timer_switch(&self) -> bool {
        self.timer
    }

    /// The running score in half points (host, guest); a pending forfeit claim
    /// counts for its claimant until the other peer refutes it.
    pub fn score(&self) -> [u32; 2] {
        let mut score = self.score;
        if let Some(claim) = self.wire.table.pending_claim() {
            let claimant = &mut score[claim.claimant.index()];
            *claimant = claimant.saturating_add(2);
        }
        score
    }

    /// When this side's move clock runs out and its client fires the timeout shot,
    /// while that clock runs (for a shell to warn the person before).
    pub fn move_deadline(&self) -> Option<Millis> {
        matches!(self.wait, Some((Wait::MyMove { .. }, _)))
            .then(|| self.poll_timeout())
            .flatten()
    }

    /// When [`Session::handle_timeout`] should next be called.
    pub fn poll_timeout(&self) -> Option<Millis> {
        let settings = self.wire.table.settings()?;
        let (wait, since) = self.wait?;
        if self.wire.peer_gone.is_some() {
            // Nobody is coming: my move goes as at my deadline, and what the peer
            // owes is claimed at once.
            return Some(since);
        }
        let grace = Millis::from(settings.grace_ms);
        Some(
            since
                + match wait {
                    Wait::MyMove { .. } => Millis::from(settings.move_ms),
                    Wait::TheirMove { .. } => Millis::from(settings.move_ms) + grace,
                    Wait::Answer { .. } => Millis::from(settings.answer_ms) + grace,
                    Wait::Reveal { .. } => Millis::from(settings.reveal_ms) + grace,
                },
        )
    }

    /// The host starts the open game once both fleets are committed.
    fn start(&mut self, now: Millis) -> Result<(), CommandError> {
        let table = &self.wire.table;
        let id = table
            .game_id()
            .ok_or(CommandError::NotNow("no game is open"))?;
        if self.wire.me != Seat::Host
            || table.game().is_some()
            || !(table.committed(Seat::Host) && table.committed(Seat::Guest))
        {
            return Err(CommandError::NotNow(
                "the host starts once both fleets are placed",
            ));
        }
        let timer = self.timer;
        self.send_now(now, Payload::Start { game: id, timer })
    }

    /// The host switches the move timer for the games it starts from now on.
    fn switch_timer(&mut self, on: bool) -> Result<(), CommandError> {
        if self.wire.me != Seat::Host || self.wire.table.game().is_some_and(|g| !g.is_over()) {
            return Err(CommandError::NotNow(
                "the host switches the timer before a game starts",
            ));
        }
        if self.timer != on {
            self.timer = on;
            self.wire.events.push_back(Event::Timer(on));
        }
        Ok(())
    }

    /// A player's command; on error nothing changed.
    pub fn handle_command(&mut self, now: Millis, command: Command) -> Result<(), CommandError> {
        if self.wire.table.left(self.wire.me) || self.leaving.is_some() {
            return Err(CommandError::NotNow("you left the table"));
        }
        if self
            .wire
            .table
            .pending_claim()
            .is_some_and(|c| c.claimant == self.wire.me)
            && !matches!(command, Command::Leave(_) | Command::LeaveNow(_))
        {
            return Err(CommandError::NotNow(
                "you claimed a forfeit: the other peer's next message decides it",
            ));
        }
        match command {
            Command::Place(fleet) => self.place(now, &fleet)?,
            Command::Start => self.start(now)?,
            Command::Timer(on) => self.switch_timer(on)?,
            Command::Act(action) => self.act(now, action, false)?,
            Command::OfferDraw => {
                let (id, game) = self.live_game()?;
                game.clone().offer_draw(self.wire.me)?;
                let number = game.actions();
                self.send_now(now, Payload::DrawOffer { game: id, number })?;
            }
            Command::AnswerDraw(accept) => {
                let (id, game) = self.live_game()?;
                game.clone().answer_draw(self.wire.me, accept)?;
                let number = game.actions();
                self.send_now(
                    now,
                    Payload::DrawAnswer {
                        game: id,
                        number,
                        accept,
                    },
                )?;
            }
            Command::Resign => {
                let (id, _) = self.live_game()?;
                if self
                    .wire
                    .table
                    .pending()
                    .is_some_and(|p| p.seat == self.wire.me)
                {
                    return Err(CommandError::NotNow("wait for the answer to your action"));
                }
                self.send_now(now, Payload::Resign { game: id })?;
            }
            Command::PlayAgain => {
                let number = self
                    .wire
                    .table
                    .game_number()
                    .ok_or(CommandError::NotNow("no game yet"))?;
                if self.wire.table.settled().is_none() || self.wire.table.wants_again(self.wire.me)
                {
                    return Err(CommandError::NotNow("the game is not settled yet"));
                }
                if self.wire.table.left(self.wire.me.other()) {
                    return Err(CommandError::NotNow("the other player left the table"));
                }
                self.send_now(now, Payload::PlayAgain { number: number + 1 })?;
            }
            Command::Leave(reason) => {
                // A game under way is resigned and settled first (see `leave_step`).
                self.leaving = Some(reason);
                self.react(now, Vec::new());
            }
            Command::LeaveNow(reason) => {
                self.send_now(now, Payload::Leave { reason })?;
            }
        }
        Ok(())
    }

    /// Time has passed: fire my timeout shot, or claim a forfeit from an absent peer.
    pub fn handle_timeout(&mut self, now: Millis) {
        let Some(deadline) = self.poll_timeout() else {
            return;
        };
        if now < deadline {
            return;
        }
        let Some((wait, _)) = self.wait else { return };
        match wait {
            Wait::MyMove { number } => {
                let (Some(id), Some(game)) = (self.wire.table.game_id(), self.wire.table.game())
                else {
                    return;
                };
                let (_, prev) = self.wire.table.chain_head(self.wire.me);
                if let Some(cell) =
                    timeout_cell(&id, &prev, number, game.chart(self.wire.me).unmarked())
                {
                    let _ = self.act(now, Action::Shot(cell), true);
                }
            }
            Wait::TheirMove { .. } => self.claim(now, proto::Owed::Move),
            Wait::Answer { .. } => self.claim(now, proto::Owed::Answer),
            Wait::Reveal { .. } => self.claim(now, proto::Owed::Reveal),
        }
    }

    fn claim(&mut self, now: Millis, owed: proto::Owed) {
        let Some(id) = self.wire.table.game_id() else {
            return;
        };
        // One standing claim per game: never a second while one waits or decided it.
        let claimed = self.wire.table.standing_claim().is_some();
        if self.forfeit_sent == Some(id) || claimed {
            return;
        }
        self.forfeit_sent = Some(id);
        let _ = self.send_now(now, Payload::Forfeit { game: id, owed });
    }

    fn live_game(&self) -> Result<(Hash, &crate::rules::Game), CommandError> {
        let id = self
            .wire
            .table
            .game_id()
            .ok_or(CommandError::NotNow("no game is open"))?;
        let game = self
            .wire
            .table
            .game()
            .ok_or(CommandError::NotNow("the game has not started"))?;
        if game.is_over() {
            return Err(CommandError::Action(ActionError::GameOver));
        }
        if self.wire.table.accepted_draw() == Some(self.wire.me) {
            return Err(CommandError::NotNow(
                "you accepted a draw; the game ends with it",
            ));
        }
        Ok((id, game))
    }

    fn place(&mut self, now: Millis, fleet: &Fleet) -> Result<(), CommandError> {
        let id = self
            .wire
            .table
            .game_id()
            .ok_or(CommandError::NotNow("no game is open"))?;
        let variant = self
            .wire
            .table
            .variant()
            .ok_or(CommandError::NotNow("no game is open"))?;
        if self.wire.table.committed(self.wire.me) {
            return Err(CommandError::NotNow("the fleet is already committed"));
        }
        let fleet = Fleet::new(&variant.fleet(), fleet.ships().to_vec())?;
        let binding = Binding {
            game: id,
            seat: self.wire.me,
            size: variant.size(),
        };
        let board = SealedBoard::seal(binding, fleet.decks())?;
        let strikes = if variant.has_weapons() { STRIKES } else { 0 };
        let contributions = (0..strikes)
            .map(|_| Secret::fresh())
            .collect::<Result<Vec<_>, _>>()?;
        let key = self.wire.identity.public();
        let commitments = contributions
            .iter()
            .enumerate()
            .map(|(s, c)| contribution_commitment(&id, self.wire.me, &key, s as u8, c.expose()))
            .collect();
        let payload = Payload::Commit {
            game: id,
            fleet: board.root(),
            contributions: commitments,
        };
        // In place for the table's own checks of the commit; put back as they were
        // (the last game's, or none) if the commit is refused.
        let before = self.secrets.replace(Secrets {
            game: id,
            fleet,
            board,
            contributions,
        });
        match self.wire.send(payload) {
            Ok(notes) => {
                self.react(now, notes);
                Ok(())
            }
            Err(e) => {
                self.secrets = before;
                Err(e)
            }
        }
    }

    fn act(&mut self, now: Millis, action: Action, timeout: bool) -> Result<(), CommandError> {
        let (id, game) = self.live_game()?;
        if self.wire.table.pending().is_some() {
            return Err(CommandError::NotNow("the last action waits for its answer"));
        }
        game.check(self.wire.me, &action)?;
        let number = game.actions();
        let contribution = match action {
            Action::AirStrike(_) => {
                let strike = strike_number(self.wire.me, 2 - game.stock(self.wire.me).air_strikes);
                let secrets = self
                    .secrets
                    .as_ref()
                    .ok_or(CommandError::NotNow("no fleet placed"))?;
                secrets
                    .contributions
                    .get(strike as usize)
                    .map(|c| *c.expose())
            }
            _ => None,
        };
        let size = game.variant().size();
        let payload = Payload::Act {
            game: id,
            number,
            action: wire::action(action, size),
            timeout,
            contribution,
        };
        self.send_now(now, payload)
    }

    fn send_now(&mut self, now: Millis, payload: Payload) -> Result<(), CommandError> {
        let notes = self.wire.send(payload)?;
        self.react(now, notes);
        Ok(())
    }

    /// Follows up what the table learnt — answers, accusations, verdicts, the next
    /// nonce, the reveal — until nothing more is owed; then updates the deadline.
    fn react(&mut self, now: Millis, notes: Vec<Note>) {
        self.pump(notes);
        self.refresh_wait(now);
    }

    /// Follows up one note: an answer to the other side's action, an accusation, a
    /// verdict, the score when a forfeit is claimed or refuted.
    fn follow_note(&mut self, note: &Note) -> Vec<Note> {
        match note {
            Note::Acted { seat, .. } if *seat != self.wire.me => self.answer(),
            Note::LieProven(lie) if lie.liar != self.wire.me => self.accuse(lie),
            Note::Settled(verdict) => self.settle(verdict),
            Note::ForfeitClaimed { .. } => {
                self.wire.events.push_back(Event::Score(self.score()));
                Vec::new()
            }
            Note::ClaimRefuted { claimant, .. } => {
                if *claimant == self.wire.me {
                    // The peer was there after all: it may be claimed against again.
                    self.forfeit_sent = None;
                }
                self.wire.events.push_back(Event::Score(self.score()));
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// A frame this side owes without being asked: the reveal, or a leave's next step.
    fn owed_frame(&mut self) -> Option<Vec<Note>> {
        // The offerer confirms an accepted draw with its reveal.
        let offered = self.wire.table.accepted_draw() == Some(self.wire.me.other());
        if let Some(id) = self.wire.table.game_id()
            && (self.wire.table.ended() || offered)
            && self.revealed_for != Some(id)
        {
            self.revealed_for = Some(id);
            if let Some(payload) = self.reveal_payload(id) {
                return self.wire.send(payload).ok();
            }
        }
        self.leave_step()
    }

    fn refresh_wait(&mut self, now: Millis) {
        let timer = self.wire.table.timer();
        // A claim that stands decides the game (one per game); a pending one waits
        // for the debtor's next message, however long.
        let claimed = self.wire.table.standing_claim().is_some();
        let wait = match (self.wire.table.game(), self.wire.table.pending()) {
            _ if claimed => None,
            // I accepted a draw: the offerer owes its confirming reveal.
            (Some(_), _) if self.wire.table.accepted_draw() == Some(self.wire.me) => {
                let number = self.wire.table.game_number().unwrap_or(0);
                (self.forfeit_sent.is_none()).then_some(Wait::Reveal { game: number })
            }
            (Some(game), _) if game.is_over() => {
                let number = self.wire.table.game_number().unwrap_or(0);
                (!self.wire.table.revealed(self.wire.me.other()) && self.forfeit_sent.is_none())
                    .then_some(Wait::Reveal { game: number })
            }
            (Some(_), Some(pending)) if pending.seat == self.wire.me => Some(Wait::Answer {
                number: pending.number,
            }),
            // No clock runs while a draw offer waits for its answer: the offerer's
            // move time is not spent on the other side's thinking, and the clock
            // starts afresh once the offer is declined.
            (Some(game), None)
                if timer
                    && self.wire.table.accepted_draw().is_none()
                    && game.draw_offer().is_none() =>
            {
                let number = game.actions();
                Some(if game.mover() == self.wire.me {
                    Wait::MyMove { number }
                } else {
                    Wait::TheirMove { number }
                })
            }
            _ => None,
        };
        if wait != self.wait.map(|(w, _)| w) {
            self.wait = wait.map(|w| (w, now));
        }
    }

    /// Their action arrived and checked out: my answer, with an opening per cell looked at.
    fn answer(&mut self) -> Vec<Note> {
        let (Some(id), Some(game), Some(pending)) = (
            self.wire.table.game_id(),
            self.wire.table.game(),
            self.wire.table.pending(),
        ) else {
            return Vec::new();
        };
        let (attacker, number, action) = (pending.seat, pending.number, pending.action);
        let (strike, theirs) = (pending.strike, pending.contribution);
        let Some(secrets) = self.secrets.as_ref().filter(|s| s.game == id) else {
            return Vec::new();
        };
        let mine = strike
            .and_then(|s| secrets.contributions.get(s as usize))
            .map(|c| *c.expose());
        let shells = match (strike, mine) {
            (Some(strike), Some(mine)) => {
                let theirs = theirs.unwrap_or_default();
                let (host, guest) = if attacker == Seat::Host {
                    (theirs, mine)
                } else {
                    (mine, theirs)
                };
                Some(shell_order(&id, strike, &host, &guest))
            }
            _ => None,
        };
        let mut sea = Recorder::new(secrets.fleet.clone());
        if game
            .clone()
            .play(attacker, action, shells, &mut sea)
            .is_err()
        {
            return Vec::new();
        }
        let size = game.variant().size();
        // A radar shows deck or water: whether a deck is its ship's last is not told.
        let radar = matches!(action, Action::Radar(_));
        let openings = sea
            .looked
            .iter()
            .map(|(cell, content)| {
                let content = match content {
                    Content::Deck { .. } if radar => Content::Deck { sinks: false },
                    other => *other,
                };
                wire::opening(&secrets.board.open(*cell), content, size)
            })
            .collect();
        self.wire
            .send(Payload::Answer {
                game: id,
                number,
                openings,
                contribution: mine,
            })
            .unwrap_or_default()
    }

    fn accuse(&mut self, lie: &Lie) -> Vec<Note> {
        if self.lie_sent == Some((lie.liar, lie.seq)) {
            return Vec::new();
        }
        self.lie_sent = Some((lie.liar, lie.seq));
        let Some(id) = self.wire.table.game_id() else {
            return Vec::new();
        };
        let reason = lie.reason.chars().take(proto::MAX_TEXT / 4).collect();
        self.wire
            .send(Payload::Lie {
                game: id,
                seq: lie.seq,
                reason,
            })
            .unwrap_or_default()
    }

    fn reveal_payload(&self, id: Hash) -> Option<Payload> {
        let secrets = self.secrets.as_ref().filter(|s| s.game == id)?;
        let size = secrets.fleet.size();
        // The one canonical form (PROTOCOL §6): by bow, a boat never down.
        let mut ships: Vec<_> = secrets
            .fleet
            .ships()
            .iter()
            .map(|s| wire::ship(s, size))
            .collect();
        ships.sort_by_key(|s| s.bow);
        Some(Payload::Reveal {
            game: id,
            ships,
            salts: secrets.board.salts().copied().collect(),
            contributions: secrets.contributions.iter().map(|c| *c.expose()).collect(),
        })
    }

    fn settle(&mut self, verdict: &Verdict) -> Vec<Note> {
        let Some(id) = self.wire.table.game_id() else {
            return Vec::new();
        };
        if self.verdict_for == Some(id) {
            return Vec::new();
        }
        self.verdict_for = Some(id);
        let (wire_verdict, points) = match verdict {
            Verdict::Honest(ending) => (
                proto::WireVerdict::Honest {
                    winner: ending.winner.map(wire::seat),
                },
                [
                    ending.half_points(Seat::Host),
                    ending.half_points(Seat::Guest),
                ],
            ),
            Verdict::Lie(lie) => (
                proto::WireVerdict::Lie {
                    liar: wire::seat(lie.liar),
                    seq: lie.seq,
                    reason: lie.reason.chars().take(proto::MAX_TEXT / 4).collect(),
                },
                if lie.liar == Seat::Host {
                    [0, 2]
                } else {
                    [2, 0]
                },
            ),
            Verdict::Incomplete(reason) => {
                let claimant = self
                    .wire
                    .table
                    .claim()
                    .filter(|c| c.state == ClaimState::Confirmed)
                    .map(|c| c.claimant);
                (
                    proto::WireVerdict::Incomplete {
                        reason: reason.chars().take(proto::MAX_TEXT / 4).collect(),
                    },
                    match claimant {
                        Some(Seat::Host) => [2, 0],
                        Some(Seat::Guest) => [0, 2],
                        None => [0, 0],
                    },
                )
            }
        };
        // Saturating: the score comes back from a saved file, which is not trusted
        // to be sane.
        self.score[0] = self.score[0].saturating_add(points[0]);
        self.score[1] = self.score[1].saturating_add(points[1]);
        self.wire.events.push_back(Event::Score(self.score));
        self.wire
            .send(Payload::Verdict {
                game: id,
                verdict: wire_verdict,
            })
            .unwrap_or_default()
    }
}

impl Wired for Session {
    wired!(Table, Event);
    fn with_wire(wire: Endpoint<Table, Event>) -> Self {
        Self {
            timer: wire.me == Seat::Host,
            wire,
            secrets: None,
            wait: None,
            revealed_for: None,
            verdict_for: None,
            lie_sent: None,
            forfeit_sent: None,
            score: [0; 2],
            leaving: None,
        }
    }
    fn react(&mut self, now: Millis, notes: Vec<Note>) {
        Session::react(self, now, notes);
    }
    fn follow(&mut self, note: &Note) -> Vec<Note> {
        self.follow_note(note)
    }
    fn leaving(&mut self) -> &mut Option<String> {
        &mut self.leaving
    }
    /// A game under way may be resigned once this side's action is answered, its
    /// draw acceptance decided and no claim waits (an accepted draw settles as a draw).
    fn leave_game(&self) -> LeaveGame {
        let table = &self.wire.table;
        let me = self.wire.me;
        let live = table.game().is_some_and(|g| !g.is_over()) && table.settled().is_none();
        let bound = table.accepted_draw().is_some()
            || table.pending().is_some_and(|p| p.seat == me)
            || table.pending_claim().is_some();
        match table.game_id() {
            Some(id) if live && !bound => LeaveGame::Resign(id),
            _ if table.game().is_some() && table.settled().is_none() => LeaveGame::Wait,
            _ => LeaveGame::Free,
        }
    }
    fn unasked(&mut self) -> Option<Vec<Note>> {
        self.owed_frame()
    }
}

endpoint::told_events!(Event, Note);
