//! Computer against computer: straight through the engine, or through two whole sessions.
//!
//! Architecture invariant: the engine-only referee here, which sees both fleets,
//! serves demonstration and measurement; real games never have one. [`Duet`]
//! has none: two sessions that only exchange frames.

use crate::ai::{Level, RandomPlayer, View, radar_picture};
use crate::fair::secret::{EntropyError, Secret};
use crate::fair::sign::Identity;
use crate::fair::wire;
use crate::rules::{Coord, Fleet, Game, Placer, Report, Seat, ShellOrder, Variant};
use crate::session::{Command, Session};

/// A finished game with everything that happened in it.
#[derive(Clone, Debug)]
pub struct Record {
    /// The host's fleet and the guest's.
    pub fleets: [Fleet; 2],
    pub game: Game,
    /// Every action in order, with who played it.
    pub reports: Vec<(Seat, Report)>,
}

/// Places both fleets uniformly at random and plays two random players to the end.
pub fn play<R: rand::Rng + ?Sized>(variant: Variant, first: Seat, rng: &mut R) -> Record {
    let placer = Placer::new(&variant.fleet());
    let fleets = [placer.place(rng), placer.place(rng)];
    play_fleets(variant, first, fleets, rng)
}

/// Plays two random players to the end over the given fleets (host's first).
pub fn play_fleets<R: rand::Rng + ?Sized>(
    variant: Variant,
    first: Seat,
    fleets: [Fleet; 2],
    rng: &mut R,
) -> Record {
    play_levels(variant, [Level::Random; 2], first, fleets, rng)
}

/// Plays computer levels (host's first) to the end over the given fleets; each sees
/// its radar picture for its next action only.
pub fn play_levels<R: rand::Rng + ?Sized>(
    variant: Variant,
    levels: [Level; 2],
    first: Seat,
    mut fleets: [Fleet; 2],
    rng: &mut R,
) -> Record {
    let mut game = Game::new(variant, first, false);
    let mut reports = Vec::new();
    let mut radar: [Option<Vec<(Coord, bool)>>; 2] = [None, None];
    while !game.is_over() {
        let seat = game.mover();
        let view = View::of(&game, seat, radar[seat.index()].as_deref());
        let action = levels[seat.index()].choose(&view, rng);
        let shells =
            matches!(action, crate::rules::Action::AirStrike(_)).then(|| ShellOrder::random(rng));
        let enemy = &mut fleets[seat.other().index()];
        let report = game
            .play(seat, action, shells, enemy)
            .expect("computer players only play legal actions against a whole fleet");
        radar[seat.index()] = radar_picture(&report);
        reports.push((seat, report));
    }
    Record {
        fleets,
        game,
        reports,
    }
}

/// Two sessions that play each other in memory: the whole protocol, both sides honest.
#[derive(Clone, Debug)]
pub struct Duet {
    pub host: Session,
    pub guest: Session,
}

impl Duet {
    /// A new table of `variant` (no move timer), secrets from the operating system.
    pub fn new(variant: Variant) -> Result<Self, EntropyError> {
        let secret = *Secret::<32>::fresh()?.expose();
        let settings = armada_proto::Settings {
            game: wire::game_kind(variant),
            move_ms: 15_000,
            answer_ms: 10_000,
            reveal_ms: 30_000,
            grace_ms: 30_000,
        };
        Ok(Self {
            host: Session::host(Identity::generate(), secret, settings).with_timer(false),
            guest: Session::guest(Identity::generate(), secret),
        })
    }

    /// Moves stream messages both ways until neither side has anything to send.
    pub fn deliver(&mut self) -> bool {
        let mut moved = false;
        loop {
            let mut any = false;
            while let Some(wire) = self.host.poll_wire() {
                let _ = self.guest.handle_wire(0, &wire);
                any = true;
            }
            while let Some(wire) = self.guest.poll_wire() {
                let _ = self.host.handle_wire(0, &wire);
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
/// for next — place a fleet, start, or act — at time `now`. `Ok(false)` when nothing
/// is due; an error when the session refused the command.
pub fn step<R: rand::Rng + ?Sized>(
    host: &mut Session,
    guest: &mut Session,
    now: crate::session::Millis,
    rng: &mut R,
) -> Result<bool, crate::session::CommandError> {
    for seat in Seat::BOTH {
        let session = if seat == Seat::Host {
            &mut *host
        } else {
            &mut *guest
        };
        let table = session.table();
        if table.game_id().is_some() && !table.committed(seat) && table.settled().is_none() {
            let Some(variant) = table.variant() else {
                return Ok(false);
            };
            let fleet = Placer::new(&variant.fleet()).place(rng);
            return session
                .handle_command(now, Command::Place(fleet))
                .map(|()| true);
        }
    }
    let table = host.table();
    if table.game().is_none() && table.committed(Seat::Host) && table.committed(Seat::Guest) {
        return host.handle_command(now, Command::Start).map(|()| true);
    }
    for seat in Seat::BOTH {
        let session = if seat == Seat::Host {
            &mut *host
        } else {
            &mut *guest
        };
        let table = session.table();
        if let Some(game) = table.game()
            && !game.is_over()
            && game.mover() == seat
            && table.pending().is_none()
            && table.accepted_draw().is_none()
        {
            let action = RandomPlayer.choose(game, seat, rng);
            return session
                .handle_command(now, Command::Act(action))
                .map(|()| true);
        }
    }
    Ok(false)
}
