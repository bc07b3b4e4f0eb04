//! Two sessions playing each other in memory: the one pump between two sessions,
//! for `armada demo`, the window's game against the computer, benchmarks and tests.

use crate::ai::RandomPlayer;
use crate::fair::secret::{EntropyError, Secret};
use crate::fair::sign::Identity;
use crate::rules::{Placer, Variant};
use crate::session::archimedes as arch;
use crate::session::icehouse as ice;
use crate::session::{Command, GRACE_MS, Millis, Owed, Session, TableSession};

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
        pump(&mut self.host, &mut self.guest, now)
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

/// Moves stream messages both ways between two sessions of a table, at time `now`,
/// until neither has anything to send; whether anything moved.
fn pump<S: TableSession>(host: &mut S, guest: &mut S, now: Millis) -> bool {
    let mut moved = false;
    loop {
        let mut any = false;
        while let Some(wire) = host.poll_wire() {
            let _ = guest.handle_wire(now, &wire);
            any = true;
        }
        while let Some(wire) = guest.poll_wire() {
            let _ = host.handle_wire(now, &wire);
            any = true;
        }
        if !any {
            return moved;
        }
        moved = true;
    }
}

/// Two Archimedes sessions in memory, both honest, playing the moves they are
/// given: a game's signed record (`armada demo --game archimedes --transcript`).
#[derive(Clone, Debug)]
pub struct ArchimedesDuet {
    pub host: arch::Session,
    pub guest: arch::Session,
}

impl ArchimedesDuet {
    /// A new table on a `side` board (the host moves first), its first game open.
    pub fn new(side: u8) -> Result<Self, EntropyError> {
        let secret = *Secret::<32>::fresh()?.expose();
        let settings = arch::settings(side, *crate::fair::archimedes::MOVE_MS.end(), GRACE_MS);
        let mut duet = Self {
            host: arch::Session::host(Identity::generate(), secret, settings),
            guest: arch::Session::guest(Identity::generate(), secret),
        };
        pump(&mut duet.host, &mut duet.guest, 0);
        Ok(duet)
    }

    /// The side to move plays `mv`, and both sides hear it (and, at the end, sign
    /// their verdicts).
    pub fn play(
        &mut self,
        mv: crate::archimedes::Move,
    ) -> Result<(), crate::session::CommandError> {
        let mover = self
            .host
            .table()
            .mover()
            .ok_or(crate::session::CommandError::NotNow("no game under way"))?;
        let session = if mover == self.host.seat() {
            &mut self.host
        } else {
            &mut self.guest
        };
        session.handle_command(0, arch::Command::Move(mv))?;
        pump(&mut self.host, &mut self.guest, 0);
        Ok(())
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

/// Two Icehouse Armada sessions in memory, both honest, playing what they are told:
/// a game's signed record (`armada demo --game icehouse --transcript`).
#[derive(Clone, Debug)]
pub struct IcehouseDuet {
    pub host: ice::Session,
    pub guest: ice::Session,
}

impl IcehouseDuet {
    /// A new table with `settings`, its first game open (the guest chooses first).
    pub fn new(settings: armada_proto::Settings) -> Result<Self, EntropyError> {
        let secret = *Secret::<32>::fresh()?.expose();
        let mut duet = Self {
            host: ice::Session::host(Identity::generate(), secret, settings),
            guest: ice::Session::guest(Identity::generate(), secret),
        };
        pump(&mut duet.host, &mut duet.guest, 0);
        Ok(duet)
    }

    /// `seat`'s side does `command`, and both sides hear it (placements are
    /// revealed, and at the end verdicts signed, as the sessions owe them).
    pub fn command(
        &mut self,
        seat: crate::rules::Seat,
        command: ice::Command,
    ) -> Result<(), crate::session::CommandError> {
        let session = if seat == self.host.seat() {
            &mut self.host
        } else {
            &mut self.guest
        };
        session.handle_command(0, command)?;
        pump(&mut self.host, &mut self.guest, 0);
        Ok(())
    }
}
