//! Every message of a table, as plain data: what each field is, not what it means for the game.

use serde::{Deserialize, Serialize};

/// A SHA-256 digest, or 32 bytes of key or randomness.
pub type Hash = [u8; 32];

/// Which side sent a message: the host opened the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    Host,
    Guest,
}

/// The game played at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    Armada,
    Classic {
        side: u8,
    },
    /// Archimedes (ARCHIMEDES.md) on a `side`×`side` board: 6, 8 or 10.
    Archimedes {
        side: u8,
    },
    /// Icehouse Armada (ICEHOUSE.md): its setup, its goal, and whether the host
    /// commands the heavy squadron (false in the points setup).
    Icehouse {
        setup: IceSetup,
        goal: IceGoal,
        host_heavy: bool,
    },
}

/// How an Icehouse Armada table's fleets are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IceSetup {
    /// Four large ships against four medium and four small.
    Basic,
    /// The host's numbers: the heavy squadron's and the light squadron's ships.
    Advanced { heavy: IceFleet, light: IceFleet },
    /// Each side's own fleet worth 12 pips, revealed with its placement.
    Points,
}

/// A fleet's ships of each size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IceFleet {
    pub large: u8,
    pub medium: u8,
    pub small: u8,
}

/// What an Icehouse Armada table plays for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IceGoal {
    SinkAll,
    Flagship,
    /// `host_attacks`: the host's side attacks, whoever moves first.
    Breakthrough {
        host_attacks: bool,
    },
}

/// A point of the table in micrometres.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IcePoint {
    pub x: i32,
    pub y: i32,
}

/// One ship of a revealed placement: its size (0 small, 1 medium, 2 large), stern
/// and bow, and whether it is the flagship.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IcePlaced {
    pub size: u8,
    pub stern: IcePoint,
    pub bow: IcePoint,
    pub flagship: bool,
}

/// One step of an Icehouse Armada game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IceAct {
    /// The chooser says whether it moves first (in the advanced setup: accepts the
    /// squadrons as set; not moving first swaps them).
    Choose {
        chooser_first: bool,
    },
    /// The hash binding this side's placement, before either is revealed.
    Commit {
        placement: Hash,
    },
    /// The placement and the salt that open the commitment.
    Reveal {
        salt: Hash,
        ships: Vec<IcePlaced>,
    },
    /// A move: ship `ship` (from 0, in its placement's order) steps to each bow.
    Move {
        ship: u8,
        bows: Vec<IcePoint>,
    },
    /// A broadside at enemy ship `target` along the line from the field's base
    /// (`j` thousandths along it) to `at`.
    Fire {
        ship: u8,
        starboard: bool,
        o: i32,
        j: i32,
        target: u8,
        at: IcePoint,
    },
    EndTurn,
}

/// A table's settings: chosen by the host, bound into every game id. (Whether the move
/// timer runs is chosen for each game, in its `Start`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Settings {
    pub game: GameKind,
    /// Time for each action when the timer runs, in milliseconds.
    pub move_ms: u32,
    /// Time to answer an action, in milliseconds.
    pub answer_ms: u32,
    /// Time to reveal after the end, in milliseconds.
    pub reveal_ms: u32,
    /// Extra time granted to an absent peer before a forfeit may be claimed.
    pub grace_ms: u32,
}

/// A torpedo's heading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Heading {
    Right,
    Left,
    Down,
    Up,
}

/// An action; cells are indices `row * side + col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WireAction {
    Shot { cell: u8 },
    Torpedo { heading: Heading, line: u8 },
    AirStrike { centre: u8 },
    Radar { centre: u8 },
}

/// What an opening claims of its cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Claim {
    Water,
    /// A deck whose ship stays afloat.
    Deck,
    /// A deck whose hit sinks its ship.
    Sinks,
}

/// One cell proven against the fleet commitment.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WireOpening {
    pub cell: u8,
    pub claim: Claim,
    pub salt: [u8; 16],
    /// Sibling hashes from the leaf up to the root.
    pub path: Vec<Hash>,
}

/// One ship of a revealed fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WireShip {
    pub bow: u8,
    pub down: bool,
    pub len: u8,
}

/// What a forfeit claim says the other peer owes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Owed {
    Answer,
    Move,
    Reveal,
}

/// A peer's final word on a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WireVerdict {
    /// Both reveals checked out; `winner` is `None` for a draw.
    Honest { winner: Option<Seat> },
    /// The other peer's message `seq` is a lie; `reason` says which rule or proof failed.
    Lie {
        liar: Seat,
        seq: u32,
        reason: String,
    },
    /// The game ended without both reveals.
    Incomplete { reason: String },
}

/// What a message says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Payload {
    /// A peer's first message: its ed25519 public key; the guest adds proof that it
    /// holds the invite's table secret.
    Hello {
        key: Hash,
        join: Option<Hash>,
    },
    /// The host's table settings.
    Settings(Settings),
    /// A fresh nonce for game number `number` of the table (from 0).
    Nonce {
        number: u32,
        nonce: Hash,
    },
    /// The fleet commitment and one contribution commitment per air strike of the game.
    /// The guest's commit is its Ready.
    Commit {
        game: Hash,
        fleet: Hash,
        contributions: Vec<Hash>,
    },
    /// The host starts the game; `timer` says whether the 15-second move timer runs
    /// in it (the host's switch, chosen for each game before its start).
    Start {
        game: Hash,
        timer: bool,
    },
    /// Action `number` of the game. An air strike carries the attacker's contribution;
    /// `timeout` marks the shot a client fires when its mover's clock ran out.
    Act {
        game: Hash,
        number: u32,
        action: WireAction,
        timeout: bool,
        contribution: Option<Hash>,
    },
    /// The defender's answer to action `number`: an opening per cell the rules looked
    /// at, in that order; an air strike's answer carries the defender's contribution.
    Answer {
        game: Hash,
        number: u32,
        openings: Vec<WireOpening>,
        contribution: Option<Hash>,
    },
    /// A draw offer made before action `number`.
    DrawOffer {
        game: Hash,
        number: u32,
    },
    /// The answer to the draw offer made before action `number`.
    DrawAnswer {
        game: Hash,
        number: u32,
        accept: bool,
    },
    Resign {
        game: Hash,
    },
    /// The other peer's message `seq` is a proven lie; the game ends, the liar loses.
    Lie {
        game: Hash,
        seq: u32,
        reason: String,
    },
    /// The other peer owes a message past its deadline; the game ends by forfeit.
    Forfeit {
        game: Hash,
        owed: Owed,
    },
    /// After the end: the fleet, every cell's salt, every contribution.
    Reveal {
        game: Hash,
        ships: Vec<WireShip>,
        salts: Vec<[u8; 16]>,
        contributions: Vec<Hash>,
    },
    Verdict {
        game: Hash,
        verdict: WireVerdict,
    },
    /// Ready for game number `number` of the table.
    PlayAgain {
        number: u32,
    },
    /// The peer leaves the table.
    Leave {
        reason: String,
    },
    /// The first message of a guest admitted by a short code instead of the invite's
    /// secret: its ed25519 public key and a proof bound to the code handshake's key
    /// (so the transcript says which way the guest came in).
    CodeHello {
        key: Hash,
        join: Hash,
    },
    /// Archimedes: move `number` of the game (from 0, both sides counted together),
    /// the ship on cell `from` to cell `to` (cells `row * side + col`, row 0 at the
    /// bottom).
    Move {
        game: Hash,
        number: u32,
        from: u8,
        to: u8,
    },
    /// Icehouse Armada: step `number` of the game (from 0, both sides counted
    /// together; the choice, the commitments and the reveals are steps too).
    Ice {
        game: Hash,
        number: u32,
        act: IceAct,
    },
}

impl Payload {
    /// The game a message is about, for those that name one (the table's own
    /// messages — hellos, settings, nonces, play again, leave — name none).
    pub fn game(&self) -> Option<&Hash> {
        match self {
            Self::Commit { game, .. }
            | Self::Start { game, .. }
            | Self::Act { game, .. }
            | Self::Answer { game, .. }
            | Self::DrawOffer { game, .. }
            | Self::DrawAnswer { game, .. }
            | Self::Resign { game }
            | Self::Lie { game, .. }
            | Self::Forfeit { game, .. }
            | Self::Reveal { game, .. }
            | Self::Verdict { game, .. }
            | Self::Move { game, .. }
            | Self::Ice { game, .. } => Some(game),
            Self::Hello { .. }
            | Self::Settings(_)
            | Self::Nonce { .. }
            | Self::PlayAgain { .. }
            | Self::Leave { .. }
            | Self::CodeHello { .. } => None,
        }
    }
}

/// A signed message's contents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Body {
    pub version: u16,
    /// The table this message belongs to.
    pub table: Hash,
    pub from: Seat,
    /// The sender's message number at this table, from 0 without gaps.
    pub seq: u32,
    /// Hash of the sender's previous frame (zeros for seq 0).
    pub prev: Hash,
    /// Hash of the last frame the sender received from the other peer (zeros if none).
    pub seen: Hash,
    pub payload: Payload,
}

/// Why a peer refused a frame of the other peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// Over the size limit.
    TooLarge,
    /// Not a well-formed, canonical message.
    Malformed,
    /// A protocol version the refusing peer does not speak.
    Version,
    /// The first message was not a hello proving the invite's table secret.
    NotInvited,
    /// The signature does not check with the sender's key.
    Signature,
    /// The frame names another table.
    OtherTable,
    /// The frame names the wrong sender seat.
    Sender,
    /// A message number already received.
    Duplicate,
    /// A message number ahead of the next expected one.
    OutOfOrder,
    /// The table has ended.
    Closed,
}

/// A refusal, sent back unsigned and outside both chains: it only informs the peer
/// (and its user) why a frame was dropped, and changes nothing at either side.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ProtocolError {
    /// The protocol version the refusing peer speaks.
    pub version: u16,
    pub code: ErrorCode,
    /// SHA-256 of the refused bytes.
    pub refused: Hash,
    /// A human-readable reason, at most `MAX_TEXT` bytes.
    pub detail: String,
}

/// One message on a game stream: a signed frame, a refusal of one, or where the
/// sender's copy of the other chain ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wire {
    Frame(Vec<u8>),
    Error(ProtocolError),
    /// Sent first on every (re)connection: "I hold your frames up to `next` − 1 of
    /// table `table`; send me the rest".
    Sync {
        table: Hash,
        next: u32,
    },
    /// "I cannot go on at table `table`" (its saved state is damaged, say): the
    /// receiver stops waiting for the sender; `reason` is at most `MAX_TEXT` bytes.
    /// Unsigned, and only the sender's word about itself.
    Gone {
        table: Hash,
        reason: String,
    },
}

/// One frame of a saved transcript, with the seat that sent it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedFrame {
    pub from: Seat,
    pub bytes: Vec<u8>,
}

/// A saved table: every frame in the order the saving peer took it in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transcript {
    pub magic: [u8; 8],
    pub version: u16,
    pub table: Hash,
    pub frames: Vec<SavedFrame>,
}
