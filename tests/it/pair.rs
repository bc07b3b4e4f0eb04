//! Two sessions in memory, a virtual clock, and queues between them that tests may drop,
//! reorder or tamper with (after quinn-proto's test `Pair`).

use std::collections::VecDeque;

use armada::fair::sign::Identity;
use armada::fair::table::{Note, Verdict};
use armada::rules::{Seat, Variant};
use armada::session::{Command, Event, Millis, Session};
use armada_proto as proto;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// The settings of every table the tests open: the session's own defaults.
pub fn settings(variant: Variant) -> proto::Settings {
    armada::session::settings(variant, armada::session::GRACE_MS)
}

pub struct Pair {
    pub host: Session,
    pub guest: Session,
    pub now: Millis,
    pub rng: ChaCha8Rng,
    /// Frames in flight: to the host, to the guest.
    pub wire: [VecDeque<Vec<u8>>; 2],
    pub events: [Vec<Event>; 2],
}

impl Pair {
    pub fn new(variant: Variant, timer: bool, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let secret: [u8; 32] = rng.random();
        let host = Session::host(Identity::generate(), secret, settings(variant)).with_timer(timer);
        let guest = Session::guest(Identity::generate(), secret);
        Self {
            host,
            guest,
            now: 0,
            rng,
            wire: [VecDeque::new(), VecDeque::new()],
            events: [Vec::new(), Vec::new()],
        }
    }

    /// A pair whose first game has just started (fleets placed, Start sent and taken in).
    pub fn started(variant: Variant, timer: bool, seed: u64) -> Self {
        let mut pair = Self::new(variant, timer, seed);
        while pair.host.table().game().is_none() {
            pair.drive();
            assert!(pair.step_bots(), "the game starts");
        }
        pair.drive();
        pair
    }

    pub fn session(&mut self, seat: Seat) -> &mut Session {
        match seat {
            Seat::Host => &mut self.host,
            Seat::Guest => &mut self.guest,
        }
    }

    /// Moves every queued frame out of both outboxes onto the wire.
    pub fn collect(&mut self) {
        while let Some(frame) = self.host.poll_transmit() {
            self.wire[Seat::Guest.index()].push_back(frame);
        }
        while let Some(frame) = self.guest.poll_transmit() {
            self.wire[Seat::Host.index()].push_back(frame);
        }
        for seat in Seat::BOTH {
            while let Some(event) = self.session(seat).poll_event() {
                self.events[seat.index()].push(event);
            }
        }
    }

    /// Delivers everything in flight until both sides are quiet; true if anything moved.
    pub fn drive(&mut self) -> bool {
        let mut moved = false;
        loop {
            self.collect();
            if self.wire.iter().all(VecDeque::is_empty) {
                return moved;
            }
            moved = true;
            for seat in Seat::BOTH {
                while let Some(frame) = self.wire[seat.index()].pop_front() {
                    let now = self.now;
                    let _ = self.session(seat).handle_message(now, &frame);
                }
            }
        }
    }

    /// Lets computer players do whatever the table waits for next; false if nothing was due.
    pub fn step_bots(&mut self) -> bool {
        armada::driver::step(&mut self.host, &mut self.guest, self.now, &mut self.rng)
            .unwrap_or_else(|e| panic!("a computer player's command was refused: {e}"))
    }

    /// Plays the current game to its settlement with random computer players.
    pub fn play_game(&mut self) -> [Verdict; 2] {
        for _ in 0..10_000 {
            self.drive();
            if let (Some(a), Some(b)) = (self.host.table().settled(), self.guest.table().settled())
            {
                return [a.clone(), b.clone()];
            }
            if !self.step_bots() {
                let tail = |events: &[Event]| {
                    let odd: Vec<_> = events
                        .iter()
                        .filter(|e| !matches!(e, Event::Table(_)))
                        .cloned()
                        .collect();
                    let last: Vec<_> = events.iter().rev().take(4).cloned().collect();
                    format!("unusual {odd:?}; last {last:?}")
                };
                panic!(
                    "stuck:\nhost {}\nguest {}",
                    tail(&self.events[0]),
                    tail(&self.events[1])
                );
            }
        }
        panic!("the game did not end");
    }

    /// Both sides ask for another game.
    pub fn play_again(&mut self) {
        let now = self.now;
        self.host.handle_command(now, Command::PlayAgain).unwrap();
        self.guest.handle_command(now, Command::PlayAgain).unwrap();
        self.drive();
    }

    #[allow(dead_code)]
    pub fn notes(&self, seat: Seat) -> impl Iterator<Item = &Note> {
        self.events[seat.index()].iter().filter_map(|e| match e {
            Event::Table(note) => Some(note),
            _ => None,
        })
    }
}
