//! The observer of a table, whatever game it plays: the ledger (keys, chains, transcript), the settings, the games finished, the leavers and a lie told outside a game — and what reads them.
//!
//! Each game's rules are a [`Rules`] type whose `Round` is the state of one game at
//! the table; the game adds its own methods on `Observer<ItsRules>` (the sea
//! battle's as `fair::table::Table`, Archimedes' as `fair::archimedes::Table`).

use std::collections::VecDeque;

use armada_proto::{self as proto, PROTOCOL_VERSION, Payload};

use super::chain::Ledger;
use super::protocol::{Heard, TableNote, TableNotes};
use super::{ClaimState, ForfeitClaim, Lie};
use crate::fair::hash::Hash;
use crate::fair::wire;
use crate::rules::Seat;

/// A game as a table plays it: the state of one game, how its frames change it and
/// how a settled one ends. The table's own frames (hellos, settings, nonces,
/// accusations, forfeit claims, verdicts, play again, leaves) are handled once, in
/// `protocol.rs`; everything else a frame can say goes to [`Rules::play`].
pub trait Rules: Clone + std::fmt::Debug + Sized + 'static {
    /// One game's state at the table, around the [`Core`] every game's round has.
    type Round: Clone + std::fmt::Debug;
    /// A settled game's outcome, as both sides sign it.
    type Verdict: Clone + std::fmt::Debug;
    /// What the observer learns from one frame: the table's notes among the game's.
    type Note: From<TableNote<Self::Verdict>> + TableNotes;
    /// Why a forfeit claim whose debtor owed nothing of the kind is a lie.
    const UNFOUNDED: &'static str;

    fn core(round: &Self::Round) -> &Core<Self::Verdict>;
    fn core_mut(round: &mut Self::Round) -> &mut Core<Self::Verdict>;
    /// Whether the host's settings are this game's, within what its rules allow.
    fn check_settings(settings: &proto::Settings) -> Result<(), String>;
    /// Game `number`'s round, before its nonces (the settings are in).
    fn new_round(table: &Observer<Self>, number: u32) -> Result<Self::Round, String>;
    /// Both nonces are in and the round has its id: the game opens.
    fn opened(
        round: &mut Self::Round,
        id: Hash,
        settings: &proto::Settings,
    ) -> Result<Self::Note, String>;
    /// Whether a frame is a move of the game, one a confirmed forfeit claim voids.
    fn game_move(payload: &Payload) -> bool;
    /// Looks at every frame before it is taken in (a draw acceptance decided by the
    /// offerer's next frame, say); nothing by default.
    fn first_look(
        table: &mut Observer<Self>,
        frame: Heard<'_>,
        notes: &mut Vec<Self::Note>,
    ) -> Result<(), String> {
        let _ = (table, frame, notes);
        Ok(())
    }
    /// Takes in a frame that is not the table's own; `Err` is the lie it tells.
    fn play(
        table: &mut Observer<Self>,
        frame: Heard<'_>,
        notes: &mut Vec<Self::Note>,
    ) -> Result<(), String>;
    /// `from` left the table with its frame `seq` (a game under way is resigned in
    /// [`Rules::after_frame`]); nothing more by default.
    fn left(
        table: &mut Observer<Self>,
        from: Seat,
        seq: u32,
        seen: Option<u32>,
        notes: &mut Vec<Self::Note>,
    ) {
        let _ = (table, from, seq, seen, notes);
    }
    /// After each frame taken in: a leaver's resignation, a settlement.
    fn after_frame(table: &mut Observer<Self>, notes: &mut Vec<Self::Note>);
    /// Whether the game under way takes `lie` (the liar loses it); `false` makes it
    /// the table's.
    fn lie_in_game(table: &mut Observer<Self>, lie: &Lie, notes: &mut Vec<Self::Note>) -> bool;
    /// Settles the game under way if nothing can change its end any more.
    fn settle(table: &mut Observer<Self>, notes: &mut Vec<Self::Note>);
    /// Whether `debtor` owes `owed` as things stand; `Err` if this game never owes it.
    fn owes(round: &Self::Round, debtor: Seat, owed: proto::Owed) -> Result<bool, String>;
    /// A forfeit claim by `claimant` (its frame `seq`) was confirmed: the debtor loses.
    fn forfeit(round: &mut Self::Round, claimant: Seat, seq: u32, notes: &mut Vec<Self::Note>);
    /// Whether a signed verdict says the settled one.
    fn says(settled: &Self::Verdict, signed: &proto::WireVerdict) -> bool;
    /// The settled verdict in words, for a lie that contradicts it.
    fn describe(settled: &Self::Verdict) -> String;
    /// The lie a verdict names, if it does.
    fn verdict_lie(verdict: &Self::Verdict) -> Option<&Lie>;
}

/// The associated types every [`Rules`] impl names, and the accessors of its round's
/// `core` field: `rounds!(Round, Verdict, Note);` inside the impl.
macro_rules! rounds {
    ($round:ty, $verdict:ty, $note:ty) => {
        type Round = $round;
        type Verdict = $verdict;
        type Note = $note;
        fn core(round: &$round) -> &$crate::fair::table::Core<$verdict> {
            &round.core
        }
        fn core_mut(round: &mut $round) -> &mut $crate::fair::table::Core<$verdict> {
            &mut round.core
        }
    };
}
pub(crate) use rounds;

/// What a frame that names a game another than its sender's current one is.
pub(crate) const OTHER_GAME: &str = "the message names another game";

/// What a round holds at every table, whatever its game: its number and id, the
/// nonces that opened it, who moves first, the frames that ended it, a lie proven
/// in it, a forfeit claim, its settled verdict and each side's signed one, and who
/// asked for another game.
#[derive(Clone, Debug)]
pub struct Core<V> {
    pub(crate) number: u32,
    pub(crate) nonces: [Option<Hash>; 2],
    pub(crate) id: Option<Hash>,
    pub(crate) first: Seat,
    /// The seat and seq of each message that ended the game (two for resignations
    /// that crossed). A frame whose sender sent or had seen one of them knew the
    /// game was over, whatever order an observer took the frames in.
    pub(crate) ends: Vec<(Seat, u32)>,
    pub(crate) lie: Option<Lie>,
    pub(crate) claim: Option<ForfeitClaim>,
    pub(crate) settled: Option<V>,
    pub(crate) verdicts: [Option<proto::WireVerdict>; 2],
    /// The seq of each side's `PlayAgain` after this game, once sent.
    pub(crate) again: [Option<u32>; 2],
}

impl<V> Core<V> {
    /// Game `number`'s round before its nonces: the host moves first in the first
    /// game, and each game again swaps who does.
    pub(crate) fn new(number: u32) -> Self {
        Self {
            number,
            nonces: [None; 2],
            id: None,
            first: if number.is_multiple_of(2) {
                Seat::Host
            } else {
                Seat::Guest
            },
            ends: Vec::new(),
            lie: None,
            claim: None,
            settled: None,
            verdicts: [None, None],
            again: [None; 2],
        }
    }
}

/// The observer of one table of game `G`.
#[derive(Clone, Debug)]
pub struct Observer<G: Rules> {
    /// Both chains, the keys and the transcript (frames forgotten by
    /// [`Observer::compact`] but counted).
    pub(crate) ledger: Ledger,
    pub(crate) settings: Option<proto::Settings>,
    pub(crate) round: Option<G::Round>,
    /// Games finished at this table: their verdicts, in order.
    pub(crate) finished: Vec<G::Verdict>,
    /// The first lie proven outside a game's settlement, and how many games had
    /// begun when it was told (it comes after those games' own lies).
    pub(crate) outside_lie: Option<(usize, Lie)>,
    /// The seats that left the table, in the order their leaves came: a leaver's
    /// later frames are refused, the other's are not (until it leaves too).
    pub(crate) leavers: Vec<Seat>,
}

impl<G: Rules> Observer<G> {
    /// An observer that checks every frame, both sides' (`verify`, a replay).
    pub fn new(id: Hash) -> Self {
        Self::with_ledger(Ledger::new(id, None))
    }

    /// The observer a session keeps: frames from `me` are its own, made by this process.
    pub fn for_seat(id: Hash, me: Seat) -> Self {
        Self::with_ledger(Ledger::new(id, Some(me)))
    }

    /// From now on `me`'s frames are taken as this process's own, their signatures
    /// not checked again. A session restoring a saved record replays it into a
    /// [`Self::new`] table first, so that its own frames are checked like a
    /// stranger's before it signs anything from them.
    pub fn own_from_now(&mut self, me: Seat) {
        self.ledger.own = Some(me);
    }

    fn with_ledger(ledger: Ledger) -> Self {
        Self {
            ledger,
            settings: None,
            round: None,
            finished: Vec::new(),
            outside_lie: None,
            leavers: Vec::new(),
        }
    }

    pub fn id(&self) -> Hash {
        self.ledger.id
    }

    /// Whether `seat` left the table.
    pub fn left(&self, seat: Seat) -> bool {
        self.leavers.contains(&seat)
    }

    pub fn key(&self, seat: Seat) -> Option<Hash> {
        self.ledger.keys[seat.index()]
    }

    pub fn settings(&self) -> Option<proto::Settings> {
        self.settings
    }

    /// The transcript's frames still held (all of them unless compacted).
    pub fn transcript(&self) -> &VecDeque<(Seat, Vec<u8>)> {
        &self.ledger.transcript
    }

    /// How many frames the transcript holds (compacted ones included).
    pub fn transcript_len(&self) -> usize {
        self.ledger.compacted + self.ledger.transcript.len()
    }

    /// The transcript's frames from number `n` on (`n` not before those compacted).
    pub fn transcript_from(&self, n: usize) -> impl ExactSizeIterator<Item = &(Seat, Vec<u8>)> {
        self.ledger.transcript.range(
            n.saturating_sub(self.ledger.compacted)
                .min(self.ledger.transcript.len())..,
        )
    }

    /// Whether every frame is still held ([`Observer::compact`] was never of use).
    pub fn is_whole(&self) -> bool {
        self.ledger.compacted == 0
    }

    /// `seat`'s own frames from its seq `seq` on, as signed.
    pub fn frames_from(&self, seat: Seat, seq: u32) -> Vec<Vec<u8>> {
        let chain = &self.ledger.chains[seat.index()];
        (seq.max(chain.base)..chain.next())
            .filter_map(|s| chain.get(s))
            .map(|(_, at)| self.ledger.transcript[at - self.ledger.compacted].1.clone())
            .collect()
    }

    /// Forgets frames nobody can need again: those of each chain before the newest
    /// one the other chain has seen (a later `seen` link cannot point before it, and
    /// the other side saved them before it sent that link), and the bytes of every
    /// frame before the oldest kept. A table that went on for thousands of games keeps
    /// only what its recent frames need; the frames live on in the saved transcript.
    /// A repeat of a forgotten frame is refused as a duplicate (equivocation about a
    /// frame both sides have long acknowledged is no longer looked for).
    pub fn compact(&mut self) {
        for seat in [Seat::Host, Seat::Guest] {
            if let Some(seen) = self.ledger.chains[seat.other().index()].seen {
                self.ledger.chains[seat.index()].forget_before(seen);
            }
        }
        let oldest = self
            .ledger
            .chains
            .iter()
            .filter_map(|chain| chain.frames.front().map(|(_, at)| *at))
            .min()
            .unwrap_or(self.ledger.compacted);
        while self.ledger.compacted < oldest {
            if self.ledger.transcript.pop_front().is_none() {
                break;
            }
            self.ledger.compacted += 1;
        }
    }

    /// The transcript as a file `armada verify` reads; only whole (before any
    /// [`Observer::compact`]) — a compacted table's transcript is its saved file.
    pub fn transcript_file(&self) -> Vec<u8> {
        debug_assert!(self.is_whole(), "a compacted table has no whole transcript");
        proto::encode_transcript(&proto::Transcript {
            magic: proto::TRANSCRIPT_MAGIC,
            version: PROTOCOL_VERSION,
            table: self.id(),
            frames: self
                .ledger
                .transcript
                .iter()
                .map(|(seat, bytes)| proto::SavedFrame {
                    from: wire::seat(*seat),
                    bytes: bytes.clone(),
                })
                .collect(),
        })
    }

    /// The next seq `seat` will send, and the hash its next frame must link to.
    pub fn chain_head(&self, seat: Seat) -> (u32, Hash) {
        let chain = &self.ledger.chains[seat.index()];
        (chain.next(), chain.last())
    }

    /// The hash of the newest frame received from `seat` (zeros if none).
    pub fn last_hash(&self, seat: Seat) -> Hash {
        self.ledger.chains[seat.index()].last()
    }

    fn core(&self) -> Option<&Core<G::Verdict>> {
        self.round.as_ref().map(G::core)
    }

    pub fn game_id(&self) -> Option<Hash> {
        self.core()?.id
    }

    pub fn game_number(&self) -> Option<u32> {
        self.core().map(|c| c.number)
    }

    /// Who moves first in the current game.
    pub fn first(&self) -> Option<Seat> {
        self.core().map(|c| c.first)
    }

    /// The current game's verdict, once settled.
    pub fn settled(&self) -> Option<&G::Verdict> {
        self.core()?.settled.as_ref()
    }

    /// Whether `seat` signed its verdict on the current game.
    pub fn verdict_sent(&self, seat: Seat) -> bool {
        self.core()
            .is_some_and(|c| c.verdicts[seat.index()].is_some())
    }

    /// Whether `seat` asked for another game after the current one.
    pub fn wants_again(&self, seat: Seat) -> bool {
        self.core().is_some_and(|c| c.again[seat.index()].is_some())
    }

    /// The verdicts of every finished game, and of the current one once settled.
    pub fn verdicts(&self) -> Vec<G::Verdict> {
        let mut all = self.finished.clone();
        all.extend(self.settled().cloned());
        all
    }

    /// The game number for which `seat` still owes its nonce, once the table is ready for one.
    pub fn nonce_due(&self, seat: Seat) -> Option<u32> {
        match self.core() {
            None if self.settings.is_some() && self.ledger.keys.iter().all(Option::is_some) => {
                Some(0)
            }
            Some(core) if core.nonces[seat.index()].is_none() => Some(core.number),
            _ => None,
        }
    }

    /// The current game's forfeit claim, if one was made.
    pub fn claim(&self) -> Option<ForfeitClaim> {
        self.core().and_then(|c| c.claim)
    }

    /// The current game's forfeit claim unless it was refuted: one that waits or one
    /// that decided the game. While one stands, no other may be made.
    pub fn standing_claim(&self) -> Option<ForfeitClaim> {
        self.claim().filter(|c| c.state != ClaimState::Refuted)
    }

    /// The current game's forfeit claim while it waits for the debtor's next message.
    pub fn pending_claim(&self) -> Option<ForfeitClaim> {
        self.claim().filter(|c| c.state == ClaimState::Pending)
    }

    /// `from` asks at its `seq` for game `number`, the next one, once the current game
    /// is settled; whether both have asked now (then [`Observer::begin_next`]).
    pub(crate) fn play_again(&mut self, from: Seat, seq: u32, number: u32) -> Result<bool, String> {
        let round = self.round.as_mut().ok_or("play again before any game")?;
        let core = G::core_mut(round);
        if number != core.number + 1 || core.settled.is_none() || core.again[from.index()].is_some()
        {
            return Err("play again before the game is settled, or for the wrong game".into());
        }
        core.again[from.index()] = Some(seq);
        Ok(core.again.iter().all(Option::is_some))
    }

    /// Both asked for another game: the settled one is filed, and `next` makes the
    /// new round.
    pub(crate) fn begin_next(
        &mut self,
        next: fn(&Self, u32) -> Result<G::Round, String>,
    ) -> Result<(), String> {
        let Some(round) = self.round.take() else {
            return Ok(());
        };
        let core = G::core(&round);
        let number = core.number + 1;
        self.finished.extend(core.settled.clone());
        self.round = Some(next(self, number)?);
        Ok(())
    }

    /// The first lie proven at this table, in the order they were told: a game's
    /// lie (in its verdict, or the current game's before it settles) comes before
    /// one told outside a game if that game had begun when the outside one was told.
    pub fn first_lie(&self) -> Option<Lie> {
        let in_games = self
            .finished
            .iter()
            .chain(self.settled())
            .enumerate()
            .find_map(|(i, v)| G::verdict_lie(v).map(|lie| (i, lie.clone())))
            .or_else(|| {
                let lie = self.core()?.lie.clone()?;
                Some((self.finished.len(), lie))
            });
        match (in_games, &self.outside_lie) {
            (Some((game, lie)), Some((begun, _))) if game < *begun => Some(lie),
            (_, Some((_, lie))) => Some(lie.clone()),
            (in_games, None) => in_games.map(|(_, lie)| lie),
        }
    }

    /// Games opened at the table (both nonces in), the one under way included: a
    /// lie told before a round opens is the table's, however far the requests for
    /// that round had come (which the order frames arrive in may change).
    pub(crate) fn begun(&self) -> usize {
        let opened = self.round.as_ref().is_some_and(|r| G::core(r).id.is_some());
        self.finished.len() + usize::from(opened)
    }
}
