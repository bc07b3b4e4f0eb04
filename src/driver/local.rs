//! A table against the computer, in memory: the player's session and the computer's,
//! their frames passed between them, the computer pausing a moment before each move.
//!
//! No egui here: the window drives it with its clock (`now`, milliseconds), so a test
//! can drive it with a virtual one.

use std::collections::VecDeque;

use rand::SeedableRng as _;

use super::Duet;
use super::bot::Bot;
use crate::ai::Level;
use crate::fair::secret::EntropyError;
use crate::fair::sign::Identity;
use crate::rules::Variant;
use crate::session::{Command, CommandError, Event, Millis, Session};
use crate::store::{Other, PlayedBy, SavedSeat, Store, TableMeta};

/// How long the computer "thinks" before each move, so a person can follow it.
pub const THINK_MS: Millis = 700;

/// A person (the host) against a computer player (the guest), in memory.
#[derive(Debug)]
pub struct Local {
    /// The person is the host, the computer the guest.
    duet: Duet,
    bot: Bot,
    rng: rand::rngs::ChaCha8Rng,
    /// When the computer's pending command is due.
    due: Option<Millis>,
    /// How long the computer pauses before a move.
    think: Millis,
    events: VecDeque<Event>,
    /// Where both sides are saved after every change (so closing the window loses
    /// nothing), if anywhere.
    store: Option<Store>,
}

impl Local {
    /// A new table of `variant` against `level`, without the move timer (RULES: none
    /// against the computer). The person signs with `identity` (their saved key).
    pub fn new(identity: Identity, level: Level, variant: Variant) -> Result<Self, EntropyError> {
        let mut table = Self {
            duet: Duet::seated(identity, variant)?,
            bot: Bot::new(level, u32::MAX),
            rng: rand::rngs::ChaCha8Rng::from_rng(&mut rand::rng()),
            due: None,
            think: THINK_MS,
            events: VecDeque::new(),
            store: None,
        };
        table.deliver(0);
        Ok(table)
    }

    /// Saves both sides in `store` from now on, after every change.
    pub fn saved_in(mut self, store: Store) -> anyhow::Result<Self> {
        store.save_meta(
            &self.duet.host.table().id(),
            &TableMeta {
                seat: SavedSeat::Host,
                other: Other::Computer {
                    level: self.bot.level(),
                },
                by: PlayedBy::Window,
                games: 0,
            },
        )?;
        self.store = Some(store);
        self.save();
        Ok(self)
    }

    /// The table `id` as saved in `store`, to play on; `identity` is the person's key.
    pub fn restore(
        store: Store,
        id: &[u8; 32],
        identity: Identity,
        now: Millis,
    ) -> anyhow::Result<Self> {
        let meta = store.load_meta(id)?;
        let Other::Computer { level } = meta.other else {
            anyhow::bail!("not a table against the computer");
        };
        let me = store
            .restore(id, identity, now)?
            .ok_or_else(|| anyhow::anyhow!("the table has no saved session"))?;
        let them = store.load_computer(id, now)?;
        let mut table = Self {
            duet: Duet {
                host: me,
                guest: them,
            },
            bot: Bot::new(level, u32::MAX),
            rng: rand::rngs::ChaCha8Rng::from_rng(&mut rand::rng()),
            due: None,
            think: THINK_MS,
            events: VecDeque::new(),
            store: Some(store),
        };
        table.deliver(now);
        Ok(table)
    }

    /// Saves both sides, if the table has a store; a failed save is logged and the
    /// game goes on (the next save may succeed).
    fn save(&self) {
        if let Some(store) = &self.store
            && let Err(error) = store
                .save(&self.duet.host)
                .and_then(|()| store.save_computer(&self.duet.guest))
        {
            tracing::error!(%error, "cannot save the table");
        }
    }

    /// The computer moves as soon as it may (for tests).
    pub fn without_pauses(mut self) -> Self {
        self.think = 0;
        self
    }

    /// The person's session: everything the window shows comes from it.
    pub fn session(&self) -> &Session {
        &self.duet.host
    }

    /// The computer's level.
    pub fn level(&self) -> Level {
        self.bot.level()
    }

    /// A command of the person's; refused commands change nothing.
    pub fn command(&mut self, now: Millis, command: Command) -> Result<(), CommandError> {
        self.duet.host.handle_command(now, command)?;
        self.deliver(now);
        Ok(())
    }

    /// The person's next event, if any.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// Lets time pass to `now`: deadlines fire, frames move, the computer moves once
    /// its pause is over. When the table next wants `tick`, if at a known time.
    pub fn tick(&mut self, now: Millis) -> Option<Millis> {
        self.duet.host.handle_timeout(now);
        self.duet.guest.handle_timeout(now);
        self.deliver(now);
        if let Some(command) = self.bot.next(&self.duet.guest, &mut self.rng) {
            // Placing, starting and playing again need no pause.
            let pause = if matches!(command, Command::Act(_)) {
                self.think
            } else {
                0
            };
            let due = *self.due.get_or_insert(now + pause);
            if now >= due {
                self.due = None;
                // The computer's own commands are legal by construction; a refusal
                // would be a bug in it, and the person's game simply waits.
                if let Err(error) = self.duet.guest.handle_command(now, command) {
                    tracing::error!(%error, "the computer's command was refused");
                }
                self.deliver(now);
                return Some(now);
            }
        } else {
            self.due = None;
        }
        let deadlines = [
            self.duet.host.poll_timeout(),
            self.duet.guest.poll_timeout(),
            self.due,
        ];
        deadlines.into_iter().flatten().min()
    }

    /// Moves frames both ways until neither side has anything to send; the person's
    /// events are kept for the window, the computer's go to the computer. Both sides
    /// are saved if anything moved.
    fn deliver(&mut self, now: Millis) {
        let moved = self.duet.deliver_at(now);
        let me = self.duet.guest.seat();
        while let Some(event) = self.duet.guest.poll_event() {
            self.bot.observe(me, &event);
        }
        while let Some(event) = self.duet.host.poll_event() {
            self.events.push_back(event);
        }
        if moved {
            self.save();
        }
    }
}
