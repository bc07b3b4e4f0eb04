//! A table against the computer, in memory: the player's session and the computer's,
//! their frames passed between them, the computer pausing a moment before each move.
//!
//! Who moves first in the first game is drawn by lot at a new table: the host moves
//! first (RULES.md), so the winner of the lot hosts. A computer that hosts opens the
//! table with the variant the person chose and presses Start (its [`Bot`] plays
//! either seat); the move timer stays off at either.
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
use crate::rules::{Seat, Variant};
use crate::session::{Command, CommandError, Event, Millis, Session};
use crate::store::{Other, PlayedBy, SavedSeat, Store, TableMeta};

/// How long the computer "thinks" before each move, so a person can follow it.
pub const THINK_MS: Millis = 700;

/// A person against a computer player, in memory, each at either seat.
#[derive(Debug)]
pub struct Local {
    duet: Duet,
    /// The person's seat; the computer has the other.
    person: Seat,
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
    /// against the computer). The person signs with `identity` (their saved key). A
    /// fair coin decides who moves first in the first game.
    pub fn new(identity: Identity, level: Level, variant: Variant) -> Result<Self, EntropyError> {
        // The thread's generator, seeded by the operating system: a lot the computer
        // cannot steer, and nothing to keep secret.
        Self::with_first(identity, level, variant, rand::random())
    }

    /// [`Local::new`] with the lot already drawn: the person moves first in the first
    /// game (hosts) if `person_first`, the computer otherwise.
    pub fn with_first(
        identity: Identity,
        level: Level,
        variant: Variant,
        person_first: bool,
    ) -> Result<Self, EntropyError> {
        let (duet, person) = if person_first {
            (
                Duet::signed(identity, Identity::generate(), variant)?,
                Seat::Host,
            )
        } else {
            (
                Duet::signed(Identity::generate(), identity, variant)?,
                Seat::Guest,
            )
        };
        let mut table = Self {
            duet,
            person,
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
            &self.session().table().id(),
            &TableMeta {
                seat: SavedSeat::from(self.person),
                other: Other::Computer {
                    level: self.bot.level(),
                },
                by: PlayedBy::Window,
                games: 0,
                game: crate::session::TableGame::Sea,
                knock: Vec::new(),
                gone: None,
            },
        )?;
        self.store = Some(store);
        self.save();
        Ok(self)
    }

    /// The table `id` as saved in `store`, to play on, each side at the seat it was
    /// saved at; `identity` is the person's key.
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
            .restore::<Session>(id, identity, now)?
            .ok_or_else(|| anyhow::anyhow!("the table has no saved session"))?;
        let them = store.load_computer(id, now)?;
        // The meta names the person's seat (Host in every older save); both saved
        // sides must sit as it says.
        let person = me.seat();
        anyhow::ensure!(
            them.seat() == person.other() && Seat::from(meta.seat) == person,
            "the saved sides of the table do not sit at two seats as its meta says"
        );
        let duet = match person {
            Seat::Host => Duet {
                host: me,
                guest: them,
            },
            Seat::Guest => Duet {
                host: them,
                guest: me,
            },
        };
        let mut table = Self {
            duet,
            person,
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
                .save(self.session())
                .and_then(|()| store.save_computer(self.computer()))
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
        match self.person {
            Seat::Host => &self.duet.host,
            Seat::Guest => &self.duet.guest,
        }
    }

    /// Whether the person won the lot: they move first in the table's first game
    /// (every Play again swaps who starts).
    pub fn person_first(&self) -> bool {
        self.person == Seat::Host
    }

    fn computer(&self) -> &Session {
        match self.person {
            Seat::Host => &self.duet.guest,
            Seat::Guest => &self.duet.host,
        }
    }

    /// The computer's level.
    pub fn level(&self) -> Level {
        self.bot.level()
    }

    /// A command of the person's; refused commands change nothing.
    pub fn command(&mut self, now: Millis, command: Command) -> Result<(), CommandError> {
        sides(&mut self.duet, self.person)
            .0
            .handle_command(now, command)?;
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
        let computer = sides(&mut self.duet, self.person).1;
        if let Some(command) = self.bot.next(computer, &mut self.rng) {
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
                if let Err(error) = computer.handle_command(now, command) {
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
        let seat = self.person.other();
        let (person, computer) = sides(&mut self.duet, self.person);
        while let Some(event) = computer.poll_event() {
            self.bot.observe(seat, &event);
        }
        while let Some(event) = person.poll_event() {
            self.events.push_back(event);
        }
        if moved {
            self.save();
        }
    }
}

/// The person's session and the computer's, the person sitting at `person`.
fn sides(duet: &mut Duet, person: Seat) -> (&mut Session, &mut Session) {
    match person {
        Seat::Host => (&mut duet.host, &mut duet.guest),
        Seat::Guest => (&mut duet.guest, &mut duet.host),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fair::verify::{Outcome, verify};
    use crate::session::{Note, Verdict};

    /// The person's side played by the easy computer at `local` for `games` games
    /// (or until the current game has `until_actions` actions), on a virtual clock:
    /// the other computer thinks before each move. The seat of each game's first
    /// action, in order.
    fn play(local: &mut Local, games: u32, until_actions: Option<usize>) -> Vec<Seat> {
        let mut me = Bot::new(Level::Easy, games);
        let mut rng = rand::rng();
        let mut now: Millis = 0;
        let mut firsts = Vec::new();
        let mut opened = false;
        for _ in 0..40_000 {
            let seat = local.session().seat();
            while let Some(event) = local.poll_event() {
                match &event {
                    Event::Table(Note::Started { timer }) => {
                        assert!(!timer, "no move timer against the computer");
                        opened = true;
                    }
                    Event::Table(Note::Resolved { seat, .. }) if opened => {
                        firsts.push(*seat);
                        opened = false;
                    }
                    _ => {}
                }
                me.observe(seat, &event);
            }
            if me.done(local.session())
                || until_actions.is_some_and(|n| local.session().table().history().len() >= n)
            {
                return firsts;
            }
            if let Some(command) = me.next(local.session(), &mut rng) {
                local.command(now, command).unwrap();
            }
            now += 100;
            local.tick(now);
        }
        panic!("the table stalled");
    }

    /// Whole games at every level from either seat: the lot's winner acts first in
    /// the first game, the other in the second, no timer runs, and the transcript
    /// verifies honest.
    #[test]
    fn the_person_plays_whole_games_honestly_from_either_seat() {
        for level in [Level::Easy, Level::Medium, Level::Hard] {
            for person_first in [true, false] {
                let mut local =
                    Local::with_first(Identity::generate(), level, Variant::Armada, person_first)
                        .unwrap();
                assert_eq!(local.person_first(), person_first);
                let me = local.session().seat();
                assert_eq!(me == Seat::Host, person_first);
                let firsts = play(&mut local, 2, None);
                assert_eq!(firsts, [Seat::Host, Seat::Guest], "{level} {person_first}");
                let table = local.session().table();
                assert!(matches!(table.settled(), Some(Verdict::Honest(_))));
                let score = local.session().score();
                assert_eq!(score[0] + score[1], 4, "two games, two points");
                assert_eq!(verify(&table.transcript_file()).outcome, Outcome::Honest);
            }
        }
    }

    /// Saved mid-game and restored, the person sits where they sat, with every move,
    /// and plays on to an honest end; the saved tables list the score from their side.
    #[test]
    fn a_table_resumes_with_the_person_in_the_seat_they_had() {
        for person_first in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let store = Store::open(Some(dir.path())).unwrap();
            let identity = Identity::generate();
            let mut local = Local::with_first(
                identity.clone(),
                Level::Medium,
                Variant::Armada,
                person_first,
            )
            .unwrap()
            .saved_in(store.clone())
            .unwrap();
            play(&mut local, 1, Some(6));
            let before = local.session().clone();
            let id = before.table().id();
            assert_eq!(store.load_meta(&id).unwrap().seat, before.seat().into());
            drop(local);

            let mut local = Local::restore(store.clone(), &id, identity, 0).unwrap();
            let after = local.session();
            assert_eq!(after.seat(), before.seat());
            assert_eq!(local.person_first(), person_first);
            let moves = |s: &Session| -> Vec<_> {
                s.table()
                    .history()
                    .iter()
                    .map(|p| (p.seat, p.action, p.report.effects.clone()))
                    .collect()
            };
            assert_eq!(moves(after), moves(&before));
            assert_eq!(after.table().game_number(), Some(0));

            play(&mut local, 1, None);
            let session = local.session();
            assert!(matches!(
                session.table().settled(),
                Some(Verdict::Honest(_))
            ));
            let saved = super::super::saved_tables(&store, 8);
            assert_eq!(saved.unfinished, None);
            let [past] = saved.past.as_slice() else {
                panic!("one finished table: {:?}", saved.past);
            };
            let me = session.seat();
            let score = session.score();
            assert_eq!(past.points, [score[me.index()], score[me.other().index()]]);
            assert_eq!(past.outcome, Outcome::Honest);
        }
    }

    /// The lot is a fair coin: over 64 new tables both seatings come up. Each
    /// seating fails to appear with probability 2^-64, so the test fails once in
    /// 2^63 runs: not flaky.
    #[test]
    fn new_tables_seat_the_person_by_lot() {
        let firsts: Vec<bool> = (0..64)
            .map(|_| {
                Local::new(Identity::generate(), Level::Easy, Variant::Armada)
                    .unwrap()
                    .person_first()
            })
            .collect();
        assert!(firsts.contains(&true) && firsts.contains(&false));
    }
}
