//! The table's protocol, once for every game: hellos, settings, nonces and game ids, accusations, forfeit claims, verdicts, play again and leaves; a game's own frames go to its [`Rules`].
//!
//! A frame is taken in by [`Observer::receive`]: the ledger checks its signature,
//! chain and `seen` link; a pending forfeit claim is decided by the debtor's next
//! frame; then the frame is either the table's (here) or the game's
//! ([`Rules::play`]). A frame that breaks a rule is a lie, proven in the game under
//! way while it is not settled ([`Rules::lie_in_game`]), at table level after.

use armada_proto::{self as proto, Body, Payload, WireVerdict};

use super::chain::{Chain, Taken};
use super::observer::{OTHER_GAME, Observer, Rules};
use super::{Lie, Rejected, game_id};
use crate::fair::hash::Hash;
use crate::rules::Seat;

/// What the table's own frames teach an observer, whatever the game; each game's
/// note type has these among its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableNote<V> {
    Hello(Seat),
    Settings(proto::Settings),
    LieProven(Lie),
    /// A forfeit claim, pending until the debtor's next message decides it.
    ForfeitClaimed {
        claimant: Seat,
        owed: proto::Owed,
    },
    /// The debtor's message `by` was sent before the claim arrived: the claim is void.
    ClaimRefuted {
        claimant: Seat,
        by: u32,
    },
    Settled(V),
    VerdictSent {
        seat: Seat,
        verdict: WireVerdict,
    },
    PlayAgain(Seat),
    Left {
        seat: Seat,
        reason: String,
    },
    /// A frame that crossed the end of the game (or a lapsed offer): it changes
    /// nothing.
    Void,
}

/// What every game's notes tell alike.
pub trait TableNotes {
    /// The lie a note proves, if it is one.
    fn lie(&self) -> Option<&Lie>;
    /// Who said hello, if the note says so.
    fn hello(&self) -> Option<Seat>;
    /// Whether the frame changed nothing (it lapsed with the game it belongs to).
    fn is_void(&self) -> bool;
}

/// A game's note type: the game's own variants as written, then the table's (those
/// of [`TableNote`], which converts into it). A game declares its notes with it once,
/// so every game's notes say the table's news in the same words.
macro_rules! game_notes {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident $(<$g:ident: $bound:path>)? for $verdict:ty { $($own:tt)* }
    ) => {
        $(#[$meta])*
        $vis enum $name $(<$g: $bound>)? {
            $($own)*
            /// The table's news (see `TableNote`).
            Hello($crate::rules::Seat),
            Settings(armada_proto::Settings),
            LieProven($crate::fair::table::Lie),
            ForfeitClaimed {
                claimant: $crate::rules::Seat,
                owed: armada_proto::Owed,
            },
            ClaimRefuted {
                claimant: $crate::rules::Seat,
                by: u32,
            },
            Settled($verdict),
            VerdictSent {
                seat: $crate::rules::Seat,
                verdict: armada_proto::WireVerdict,
            },
            PlayAgain($crate::rules::Seat),
            Left {
                seat: $crate::rules::Seat,
                reason: String,
            },
            Void,
        }

        impl $(<$g: $bound>)? $crate::fair::table::TableNotes for $name $(<$g>)? {
            fn lie(&self) -> Option<&$crate::fair::table::Lie> {
                match self {
                    Self::LieProven(lie) => Some(lie),
                    _ => None,
                }
            }
            fn hello(&self) -> Option<$crate::rules::Seat> {
                match self {
                    Self::Hello(seat) => Some(*seat),
                    _ => None,
                }
            }
            fn is_void(&self) -> bool {
                matches!(self, Self::Void)
            }
        }

        impl $(<$g: $bound>)? From<$crate::fair::table::TableNote<$verdict>> for $name $(<$g>)? {
            fn from(note: $crate::fair::table::TableNote<$verdict>) -> Self {
                use $crate::fair::table::TableNote as T;
                match note {
                    T::Hello(seat) => Self::Hello(seat),
                    T::Settings(settings) => Self::Settings(settings),
                    T::LieProven(lie) => Self::LieProven(lie),
                    T::ForfeitClaimed { claimant, owed } => Self::ForfeitClaimed { claimant, owed },
                    T::ClaimRefuted { claimant, by } => Self::ClaimRefuted { claimant, by },
                    T::Settled(verdict) => Self::Settled(verdict),
                    T::VerdictSent { seat, verdict } => Self::VerdictSent { seat, verdict },
                    T::PlayAgain(seat) => Self::PlayAgain(seat),
                    T::Left { seat, reason } => Self::Left { seat, reason },
                    T::Void => Self::Void,
                }
            }
        }
    };
}
pub(crate) use game_notes;

/// A frame as the table takes it in: its sender, seq and `prev`, the newest frame of
/// the other chain its sender had seen, and what it says.
#[derive(Clone, Copy, Debug)]
pub struct Heard<'a> {
    pub from: Seat,
    pub seq: u32,
    pub prev: Hash,
    pub seen: Option<u32>,
    pub payload: &'a Payload,
}

/// Whether the other chain's frame `seq` is at or before what `seen` points at (the
/// newest frame of the other chain its sender had seen).
pub(crate) fn covers(seen: Option<u32>, seq: u32) -> bool {
    seen.is_some_and(|s| s >= seq)
}

/// Whether `from`, having seen the other chain up to `seen`, knew the game was
/// over: one of the frames that ended it (`ends`) is its own or one it had seen. A
/// frame sent without that knowledge crossed the end.
pub(crate) fn knew_end(ends: &[(Seat, u32)], from: Seat, seen: Option<u32>) -> bool {
    ends.iter()
        .any(|&(seat, seq)| seat == from || covers(seen, seq))
}

/// Whether nothing can cross `seat`'s frame `seq` that ended the game any more: the
/// other side has sent a frame that saw it, or ended the game itself (then every
/// later frame of it knew the end).
pub(crate) fn end_final(ends: &[(Seat, u32)], chains: &[Chain; 2], seat: Seat, seq: u32) -> bool {
    let other = seat.other();
    covers(chains[other.index()].seen, seq) || ends.iter().any(|&(s, _)| s == other)
}

impl<G: Rules> Observer<G> {
    /// Takes in one frame sent by `from`. On `Err` nothing changed.
    pub fn receive(&mut self, from: Seat, bytes: &[u8]) -> Result<Vec<G::Note>, Rejected> {
        let (frame, seen) = match self.ledger.take(from, bytes, self.left(from))? {
            Taken::Fresh { frame, seen } => (frame, seen),
            Taken::Lie(lie) => return Ok(self.prove(lie)),
        };
        let body = &frame.body;
        let mut notes = Vec::new();
        if let Err(reason) = self.frame(from, body, seen, &mut notes) {
            notes.extend(self.prove(Lie {
                liar: from,
                seq: body.seq,
                reason,
            }));
        }
        G::after_frame(self, &mut notes);
        Ok(notes)
    }

    /// A proven lie: the current game's while the game takes it (the liar loses
    /// it), else the table's, once.
    pub(crate) fn prove(&mut self, lie: Lie) -> Vec<G::Note> {
        let mut notes = Vec::new();
        if !G::lie_in_game(self, &lie, &mut notes) && self.outside_lie.is_none() {
            self.outside_lie = Some((self.begun(), lie.clone()));
            notes.push(TableNote::LieProven(lie).into());
        }
        notes
    }

    /// The current round, if `game` is its id.
    pub(crate) fn round_for(&mut self, game: &Hash) -> Result<&mut G::Round, String> {
        match self.round.as_mut() {
            Some(round) if G::core(round).id.as_ref() == Some(game) => Ok(round),
            _ => Err(OTHER_GAME.into()),
        }
    }

    fn frame(
        &mut self,
        from: Seat,
        body: &Body,
        seen: Option<u32>,
        notes: &mut Vec<G::Note>,
    ) -> Result<(), String> {
        let seq = body.seq;
        // A pending forfeit claim is decided by the debtor's next message; a game
        // move that confirms it counts for nothing.
        if self.decide_claim(from, seq, seen, G::game_move(&body.payload), notes) {
            notes.push(TableNote::Void.into());
            return Ok(());
        }
        self.claimant_waits(from, seen, &body.payload)?;
        let heard = Heard {
            from,
            seq,
            prev: body.prev,
            seen,
            payload: &body.payload,
        };
        // A side that asked for the next game is done with this one: a message of
        // its naming a game after that is a lie, whether or not the other side's
        // request (which would open the next round) was taken in before it.
        if body.payload.game().is_some()
            && self
                .round
                .as_ref()
                .is_some_and(|r| G::core(r).again[from.index()].is_some())
        {
            return Err(OTHER_GAME.into());
        }
        G::first_look(self, heard, notes)?;
        match &body.payload {
            Payload::Hello { key, join } => {
                self.hello(from, seq, key, notes)?;
                // Only the guest proves the invite (the proof itself needs the secret,
                // which no observer holds); a host's proof would mean nothing.
                if join.is_some() != (from == Seat::Guest) {
                    return Err(
                        "a hello with a join proof from the host, or without one from the guest"
                            .into(),
                    );
                }
            }
            Payload::CodeHello { key, .. } => {
                // The key stands even when the hello is a lie, as a host's `Hello`
                // with a proof does: the sender's later frames are still its own, and
                // the record names the lie instead of refusing everything after it.
                self.hello(from, seq, key, notes)?;
                if from != Seat::Guest {
                    return Err("a short code's hello from the host".into());
                }
            }
            Payload::Settings(settings) => {
                if from != Seat::Host || self.settings.is_some() {
                    return Err("only the host sets the table, once".into());
                }
                G::check_settings(settings)?;
                self.settings = Some(*settings);
                notes.push(TableNote::Settings(*settings).into());
            }
            Payload::Nonce { number, nonce } => self.nonce(from, *number, *nonce, notes)?,
            Payload::Lie {
                game,
                seq: accused,
                reason: _,
            } => {
                let round = self.round_for(game)?;
                let confirmed = G::core(round)
                    .lie
                    .as_ref()
                    .is_some_and(|l| l.liar == from.other() && l.seq == *accused);
                if !confirmed {
                    return Err("it accuses the other peer of a lie that is not proven".into());
                }
            }
            Payload::Forfeit { game, owed } => {
                self.forfeit_claim(from, seq, seen, game, *owed, notes)?;
            }
            Payload::Verdict { game, verdict } => self.verdict(from, game, verdict, notes)?,
            Payload::PlayAgain { number } => {
                let both = self.play_again(from, seq, *number)?;
                notes.push(TableNote::PlayAgain(from).into());
                if both {
                    self.begin_next(G::new_round)?;
                }
            }
            Payload::Leave { reason } => {
                self.leavers.push(from);
                notes.push(
                    TableNote::Left {
                        seat: from,
                        reason: reason.clone(),
                    }
                    .into(),
                );
                G::left(self, from, seq, seen, notes);
            }
            _ => G::play(self, heard, notes)?,
        }
        Ok(())
    }

    fn hello(
        &mut self,
        from: Seat,
        seq: u32,
        key: &Hash,
        notes: &mut Vec<G::Note>,
    ) -> Result<(), String> {
        if seq != 0 {
            return Err("a second hello".into());
        }
        self.ledger.set_key(from, key);
        notes.push(TableNote::Hello(from).into());
        Ok(())
    }

    /// `from`'s nonce for game `number`: with both in, the game has its id and opens.
    fn nonce(
        &mut self,
        from: Seat,
        number: u32,
        nonce: Hash,
        notes: &mut Vec<G::Note>,
    ) -> Result<(), String> {
        let [Some(host_key), Some(guest_key)] = self.ledger.keys else {
            return Err("a nonce before both hellos".into());
        };
        let settings = self.settings.ok_or("a nonce before the table's settings")?;
        if self.round.is_none() && number == 0 {
            self.round = Some(G::new_round(self, 0)?);
        }
        let table = self.id();
        let round = self.round.as_mut().ok_or("a nonce outside a game")?;
        let core = G::core_mut(round);
        if core.number != number || core.nonces[from.index()].is_some() {
            return Err("a nonce for the wrong game, or a second one".into());
        }
        core.nonces[from.index()] = Some(nonce);
        if let [Some(host), Some(guest)] = core.nonces {
            let id = game_id(
                &table, &settings, number, &host, &guest, &host_key, &guest_key,
            );
            core.id = Some(id);
            notes.push(G::opened(round, id, &settings)?);
        }
        Ok(())
    }

    /// A side's signed verdict: it must say what the settled record says (this very
    /// frame may be the one that settles the end).
    fn verdict(
        &mut self,
        from: Seat,
        game: &Hash,
        verdict: &WireVerdict,
        notes: &mut Vec<G::Note>,
    ) -> Result<(), String> {
        if G::core(self.round_for(game)?).verdicts[from.index()].is_some() {
            return Err("a second verdict for one game".into());
        }
        G::settle(self, notes);
        let core = G::core_mut(self.round_for(game)?);
        // A verdict is a signed claim like any other: it must say what the frames
        // its sender had seen prove.
        let settled = core
            .settled
            .as_ref()
            .ok_or("a verdict before the game was settled")?;
        if !G::says(settled, verdict) {
            return Err(format!(
                "a verdict that contradicts the record (which says: {})",
                G::describe(settled)
            ));
        }
        core.verdicts[from.index()] = Some(verdict.clone());
        notes.push(
            TableNote::VerdictSent {
                seat: from,
                verdict: verdict.clone(),
            }
            .into(),
        );
        Ok(())
    }
}
