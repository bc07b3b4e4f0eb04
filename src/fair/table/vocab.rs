//! The table's public vocabulary: what a frame's refusal, a note, a lie, a verdict,
//! a pending action, a forfeit claim and a played action are.

use armada_proto as proto;
use thiserror::Error;

use super::protocol::game_notes;
use crate::fair::hash::Hash;
use crate::rules::{Action, Ending, Game, Report, Seat, ShellOrder, Variant};

/// A frame that was not taken in; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Rejected {
    #[error(transparent)]
    Decode(#[from] proto::DecodeError),
    #[error("the message says it is from the {claimed}, but came from the {actual}")]
    Sender { claimed: Seat, actual: Seat },
    #[error("the first message of a peer must be its hello")]
    NoHello,
    #[error("not invited: the hello does not prove the invite's table secret")]
    NotInvited,
    #[error("the message is not signed by the {0}'s key")]
    Signature(Seat),
    #[error("the message belongs to another table")]
    OtherTable,
    #[error("message {seq} from the {from} was already received")]
    Duplicate { from: Seat, seq: u32 },
    #[error("message {got} from the {from} arrived before message {expected}")]
    OutOfOrder { from: Seat, expected: u32, got: u32 },
    #[error("the table has ended")]
    Closed,
}

impl Rejected {
    /// The refusal's code on the wire.
    pub fn code(&self) -> proto::ErrorCode {
        use proto::{DecodeError as D, ErrorCode as C};
        match self {
            Self::Decode(D::TooLarge(_)) => C::TooLarge,
            Self::Decode(D::Version(_)) => C::Version,
            Self::Decode(_) => C::Malformed,
            Self::Sender { .. } => C::Sender,
            Self::NoHello | Self::NotInvited => C::NotInvited,
            Self::Signature(_) => C::Signature,
            Self::OtherTable => C::OtherTable,
            Self::Duplicate { .. } => C::Duplicate,
            Self::OutOfOrder { .. } => C::OutOfOrder,
            Self::Closed => C::Closed,
        }
    }
}

/// A proven lie: who told it, in which of their messages, and which rule or proof failed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lie {
    pub liar: Seat,
    pub seq: u32,
    pub reason: String,
}

impl std::fmt::Display for Lie {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the {} lied in message {}: {}",
            self.liar, self.seq, self.reason
        )
    }
}

game_notes! {
    /// What the observer learnt from one accepted frame.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Note for Verdict {
        /// Both nonces are in: game `number` has its id; fleets may be placed.
        GameOpened {
            number: u32,
            id: Hash,
            variant: Variant,
            first: Seat,
        },
        Committed(Seat),
        /// The host started the game; `timer`: whether the move timer runs in it.
        Started {
            timer: bool,
        },
        /// An action waits for its answer.
        Acted {
            seat: Seat,
            number: u32,
            action: Action,
            timeout: bool,
        },
        /// An action was answered and checked.
        Resolved {
            seat: Seat,
            number: u32,
            report: Report,
            /// The move timer fired this shot for `seat`.
            timeout: bool,
        },
        DrawOffered(Seat),
        /// Two offers crossed: both lapsed, and the game goes on.
        DrawOffersCrossed,
        DrawDeclined(Seat),
        /// The draw was accepted; it takes effect when the offerer confirms.
        DrawAccepted(Seat),
        Ended(Ending),
        Revealed(Seat),
    }
}

/// The outcome of one game after the reveals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Both reveals checked out; the ending stands.
    Honest(Ending),
    /// A lie was proven; the liar lost.
    Lie(Lie),
    /// A reveal is missing, or a forfeit was claimed.
    Incomplete(String),
}

/// An action waiting for its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    /// The attacker.
    pub seat: Seat,
    pub number: u32,
    pub action: Action,
    /// The attacker's revealed contribution, for an air strike.
    pub contribution: Option<Hash>,
    /// The air strike's number in the game.
    pub strike: Option<u8>,
    /// The attacker's message.
    pub seq: u32,
    /// The move timer fired this shot for the attacker.
    pub timeout: bool,
}

/// A claim that the other peer owes a message past its deadline (TRUST.md §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForfeitClaim {
    pub claimant: Seat,
    pub owed: proto::Owed,
    /// The claimant's message.
    pub seq: u32,
    pub state: ClaimState,
    /// The debtor's message that decided the claim (confirmed or refuted it).
    pub decided_by: Option<u32>,
    /// Whether the debtor owed nothing of the kind as far as the claimant had seen:
    /// a lie, proven when the claim is confirmed.
    pub unfounded: bool,
}

impl ForfeitClaim {
    /// What the claim says, in words.
    pub fn reason(&self) -> String {
        format!(
            "the {} claimed a forfeit: the {} owed {}",
            self.claimant,
            self.claimant.other(),
            owed_in_words(self.owed)
        )
    }
}

/// What a forfeit claim says was owed, in words ("an answer").
pub fn owed_in_words(owed: proto::Owed) -> &'static str {
    match owed {
        proto::Owed::Answer => "an answer",
        proto::Owed::Move => "a move",
        proto::Owed::Reveal => "a reveal",
    }
}

/// Where a forfeit claim stands. The claim proves only who owed the next message;
/// the debtor's next message decides it: one that saw the claim confirms it, one
/// sent before the claim arrived refutes it (the debtor was there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimState {
    /// Nothing from the debtor since: the debtor is absent, as far as anyone knows.
    Pending,
    /// The game ended by forfeit.
    Confirmed,
    /// Void: the game goes on.
    Refuted,
}

/// One resolved action, kept to re-check the defender's answers after its reveal.
#[derive(Clone, Debug)]
pub struct Played {
    pub seat: Seat,
    pub action: Action,
    pub shells: Option<ShellOrder>,
    pub report: Report,
    /// The defender's answer message.
    pub answer_seq: u32,
    /// The move timer fired this shot for the attacker.
    pub timeout: bool,
    pub(super) before: Game,
}
