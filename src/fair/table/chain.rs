//! The chains of frames every table keeps: each peer's seq, message hashes and what it
//! has seen of the other, and the ledger that takes a frame in (signature, order,
//! links, equivocation) before a game reads it.

use std::collections::{HashSet, VecDeque};

use armada_proto::{Frame, PROTOCOL_VERSION, Payload};

use super::vocab::{Lie, Rejected};
use crate::fair::hash::Hash;
use crate::fair::sign::{PeerKey, frame_hash};
use crate::fair::wire;
use crate::rules::Seat;

#[derive(Clone, Debug, Default)]
pub(crate) struct Chain {
    /// The seq of `frames[0]`: frames before it were compacted away.
    pub(crate) base: u32,
    /// Each frame's message hash and its place in the transcript (bytes are kept once).
    pub(crate) frames: VecDeque<(Hash, usize)>,
    /// Index into the other chain of the newest frame this chain has seen.
    pub(crate) seen: Option<u32>,
}

impl Chain {
    pub(crate) fn next(&self) -> u32 {
        self.base + self.frames.len() as u32
    }

    pub(crate) fn last(&self) -> Hash {
        self.frames.back().map_or([0; 32], |(h, _)| *h)
    }

    pub(crate) fn position(&self, hash: &Hash) -> Option<u32> {
        self.frames
            .iter()
            .rposition(|(h, _)| h == hash)
            .map(|i| self.base + i as u32)
    }

    /// Frame `seq`'s hash and place in the transcript, unless compacted away.
    pub(crate) fn get(&self, seq: u32) -> Option<(Hash, usize)> {
        self.frames
            .get(seq.checked_sub(self.base)? as usize)
            .copied()
    }

    /// Forgets the frames before `seq` (never the newest one).
    pub(crate) fn forget_before(&mut self, seq: u32) {
        while self.base < seq && self.frames.len() > 1 {
            self.frames.pop_front();
            self.base += 1;
        }
    }
}

/// Frames a table takes in at most (a table of about 2,500 sea battles; bounds what
/// a peer can make the other store).
const MAX_FRAMES: usize = 400_000;
/// Bytes of frames a table takes in at most (compacted ones included): its
/// transcript stays readable by `verify`.
const MAX_STORED: usize = armada_proto::MAX_TRANSCRIPT - 1024 * 1024;

/// What every table does with a frame before its game reads it: both peers' keys
/// and chains, the transcript, signatures, order, `prev` and `seen` links, and
/// equivocation. The sea battle's table and Archimedes' share it.
#[derive(Clone, Debug)]
pub(crate) struct Ledger {
    pub(crate) id: Hash,
    pub(crate) keys: [Option<Hash>; 2],
    /// The same keys, decoded for checking signatures.
    pub(crate) peer_keys: [Option<PeerKey>; 2],
    pub(crate) chains: [Chain; 2],
    /// Every accepted frame in the order it was taken in (but the first `compacted`).
    pub(crate) transcript: VecDeque<(Seat, Vec<u8>)>,
    pub(crate) compacted: usize,
    /// Bytes of all frames taken in (compacted ones included).
    pub(crate) stored: usize,
    /// (sender, seq) of every equivocation already on the record.
    equivocations: HashSet<(Seat, u32)>,
    /// The seat whose frames this process signed itself: their signatures need no
    /// re-check.
    pub(crate) own: Option<Seat>,
}

/// A frame the ledger took in.
pub(crate) enum Taken {
    /// In order, linked to its sender's last frame, its `seen` a frame of the other
    /// chain no older than before: the game reads its payload.
    Fresh {
        frame: Box<Frame>,
        seen: Option<u32>,
    },
    /// On the record, and a lie of its sender (a broken link, a false `seen`, two
    /// messages with one number).
    Lie(Lie),
}

impl Ledger {
    pub(crate) fn new(id: Hash, own: Option<Seat>) -> Self {
        Self {
            id,
            keys: [None; 2],
            peer_keys: [None, None],
            chains: [Chain::default(), Chain::default()],
            transcript: VecDeque::new(),
            compacted: 0,
            stored: 0,
            equivocations: HashSet::new(),
            own,
        }
    }

    /// How many frames the transcript holds (compacted ones included).
    pub(crate) fn len(&self) -> usize {
        self.compacted + self.transcript.len()
    }

    /// A hello's key becomes the key `seat` signs with.
    pub(crate) fn set_key(&mut self, seat: Seat, key: &Hash) {
        self.keys[seat.index()] = Some(*key);
        self.peer_keys[seat.index()] = PeerKey::parse(key);
    }

    /// Takes in one frame sent by `from` (refused if `closed` to it). On `Err`
    /// nothing changed.
    pub(crate) fn take(
        &mut self,
        from: Seat,
        bytes: &[u8],
        closed: bool,
    ) -> Result<Taken, Rejected> {
        if closed || self.len() >= MAX_FRAMES || self.stored + bytes.len() > MAX_STORED {
            return Err(Rejected::Closed);
        }
        let frame = Frame::decode(bytes)?;
        let body = &frame.body;
        let claimed = wire::from_seat(body.from);
        if claimed != from {
            return Err(Rejected::Sender {
                claimed,
                actual: from,
            });
        }
        let hello_key;
        let key = match (&self.peer_keys[from.index()], &body.payload) {
            (Some(key), _) => Some(key),
            (None, Payload::Hello { key, .. } | Payload::CodeHello { key, .. })
                if body.seq == 0 =>
            {
                hello_key = PeerKey::parse(key);
                hello_key.as_ref()
            }
            (None, _) => return Err(Rejected::NoHello),
        };
        if self.own != Some(from) && !key.is_some_and(|k| k.check(&frame)) {
            return Err(Rejected::Signature(from));
        }
        if body.table != self.id {
            return Err(Rejected::OtherTable);
        }
        let chain = &self.chains[from.index()];
        if body.seq < chain.next() {
            return self.earlier(from, &frame, bytes);
        }
        if body.seq > chain.next() {
            return Err(Rejected::OutOfOrder {
                from,
                expected: chain.next(),
                got: body.seq,
            });
        }
        // In order: from here on the frame is part of the record.
        let link_ok = body.prev == chain.last();
        let seen = if body.seen == [0; 32] {
            Some(None)
        } else {
            self.chains[from.other().index()]
                .position(&body.seen)
                .map(Some)
        };
        let previous_seen = chain.seen;
        let at = self.len();
        self.chains[from.index()]
            .frames
            .push_back((frame_hash(bytes), at));
        self.transcript.push_back((from, bytes.to_vec()));
        self.stored += bytes.len();
        let lie = |reason: &str| {
            Ok(Taken::Lie(Lie {
                liar: from,
                seq: body.seq,
                reason: reason.into(),
            }))
        };
        if body.version != PROTOCOL_VERSION || !link_ok {
            return lie("the message does not follow the sender's previous message");
        }
        let Some(seen) = seen.filter(|s| *s >= previous_seen) else {
            return lie(
                "the message refers to a message of the other peer that was never sent, or to an older one than before",
            );
        };
        self.chains[from.index()].seen = seen;
        Ok(Taken::Fresh {
            frame: Box::new(frame),
            seen,
        })
    }

    /// A frame whose number was already taken: a harmless repeat, or equivocation.
    fn earlier(&mut self, from: Seat, frame: &Frame, bytes: &[u8]) -> Result<Taken, Rejected> {
        let seq = frame.body.seq;
        let Some((_, at)) = self.chains[from.index()].get(seq) else {
            // Compacted away: long acknowledged by both sides.
            return Err(Rejected::Duplicate { from, seq });
        };
        let earlier = &self.transcript[at - self.compacted].1;
        let earlier_body = &earlier[..earlier.len() - armada_proto::SIGNATURE_LEN];
        // One piece of evidence per number is kept; more add nothing.
        if earlier_body == frame.body_bytes() || !self.equivocations.insert((from, seq)) {
            return Err(Rejected::Duplicate { from, seq });
        }
        // Two different signed messages with one number: provable to anyone.
        self.transcript.push_back((from, bytes.to_vec()));
        self.stored += bytes.len();
        Ok(Taken::Lie(Lie {
            liar: from,
            seq,
            reason: "two different signed messages carry this number (equivocation)".into(),
        }))
    }
}
