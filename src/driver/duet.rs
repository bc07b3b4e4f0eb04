//! Two sessions playing each other in memory: the one pump between two sessions,
//! for `armada demo`, the window's game against the computer, benchmarks and tests.

use crate::ai::RandomPlayer;
use crate::fair::secret::{EntropyError, Secret};
use crate::fair::sign::Identity;
use crate::rules::{Placer, Variant};
use crate::session::{Command, Millis, Owed, Session};

/// Two sessions that play each other in memory: the whole protocol, both sides honest.
#[derive(Clone, Debug)]
pub struct Duet {
    pub host: Session,
    pub guest: Session,
}

impl Duet {
    /// A new table of `variant` (no move timer), secrets from the operating system.
    pub fn new(variant: Variant) -> Result<Self, EntropyError> {
        Self::seated(Identity::generate(), variant)
    }

    /// [`Duet::new`] with the host signing as `host` (a person's saved key).
    pub fn seated(host: Identity, variant: Variant) -> Result<Self, EntropyError> {
        Self::signed(host, Identity::generate(), variant)
    }

    /// [`Duet::new`] with each side signing with its own given key.
    pub fn signed(host: Identity, guest: Identity, variant: Variant) -> Result<Self, EntropyError> {
        let secret = *Secret::<32>::fresh()?.expose();
        let settings = crate::session::settings(variant, crate::session::GRACE_MS);
        Ok(Self {
            host: Session::host(host, secret, settings).with_timer(false),
            guest: Session::guest(guest, secret),
        })
    }

    /// Moves stream messages both ways until neither side has anything to send.
    pub fn deliver(&mut self) -> bool {
        self.deliver_at(0)
    }

    /// [`Duet::deliver`] at time `now`; whether anything moved.
    pub fn deliver_at(&mut self, now: Millis) -> bool {
        let mut moved = false;
        loop {
            let mut any = false;
            while let Some(wire) = self.host.poll_wire() {
                let _ = self.guest.handle_wire(now, &wire);
                any = true;
            }
            while let Some(wire) = self.guest.poll_wire() {
                let _ = self.host.handle_wire(now, &wire);
                any = true;
            }
            if !any {
                return moved;
            }
            moved = true;
        }
    }

    /// Plays the current game to its settlement with random players; false if it stalled.
    pub fn play_game<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> bool {
        for _ in 0..100_000 {
            self.deliver();
            if self.host.table().settled().is_some() && self.guest.table().settled().is_some() {
                return true;
            }
            if !self.step(rng) {
                return false;
            }
        }
        false
    }

    /// Does the one thing the table waits for next (place, start, act); false if nothing.
    pub fn step<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> bool {
        step(&mut self.host, &mut self.guest, 0, rng).unwrap_or(false)
    }

    /// Both ask for another game at the table.
    pub fn play_again(&mut self) -> bool {
        let ok = self.host.handle_command(0, Command::PlayAgain).is_ok()
            && self.guest.handle_command(0, Command::PlayAgain).is_ok();
        self.deliver();
        ok
    }
}

/// Gives two random computer players at one table the one command the table waits
/// for next — place a fleet, start, or act — at time `now` ([`Session::owed`]).
/// `Ok(false)` when nothing is due; an error when the session refused the command.
pub fn step<R: rand::Rng + ?Sized>(
    host: &mut Session,
    guest: &mut Session,
    now: crate::session::Millis,
    rng: &mut R,
) -> Result<bool, crate::session::CommandError> {
    for session in [host, guest] {
        let command = match session.owed() {
            Owed::Fleet(spec) => Command::Place(Placer::new(&spec).place(rng)),
            Owed::Start => Command::Start,
            Owed::Action => match session.table().game() {
                Some(game) => Command::Act(RandomPlayer.choose(game, session.seat(), rng)),
                None => continue,
            },
            Owed::Nothing | Owed::PlayAgain => continue,
        };
        return session.handle_command(now, command).map(|()| true);
    }
    Ok(false)
}
