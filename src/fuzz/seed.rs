//! The [`Seed`] encoders: the bytes `arbitrary` reads back as the same operations, so the checked-in corpus can be generated.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Writes the bytes that `arbitrary` reads back as `self` (for the seed corpus).
pub trait Seed {
    fn put(&self, out: &mut Vec<u8>);
}

/// The variant `index` of an enum of `count`, as the derive reads it: a `u32` whose
/// product with `count`, shifted down 32 bits, is `index`.
fn put_variant(out: &mut Vec<u8>, index: u32, count: u32) {
    let x = (u64::from(index) << 32).div_ceil(u64::from(count));
    out.extend_from_slice(&(x as u32).to_le_bytes());
}

impl Seed for u8 {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(*self);
    }
}

impl Seed for u16 {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

impl Seed for bool {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
}

impl Seed for Side {
    fn put(&self, out: &mut Vec<u8>) {
        put_variant(out, *self as u32, 2);
    }
}

impl Seed for GameChoice {
    fn put(&self, out: &mut Vec<u8>) {
        put_variant(out, *self as u32, 4);
    }
}

impl Seed for Setup {
    fn put(&self, out: &mut Vec<u8>) {
        self.game.put(out);
        self.timer.put(out);
        self.seed.put(out);
    }
}

impl Seed for Junk {
    fn put(&self, out: &mut Vec<u8>) {
        let len = u16::try_from(self.0.len()).unwrap_or(u16::MAX);
        len.put(out);
        out.extend_from_slice(&self.0[..usize::from(len)]);
    }
}

impl Seed for Cmd {
    fn put(&self, out: &mut Vec<u8>) {
        let count = 11;
        match *self {
            Self::Place { foreign } => {
                put_variant(out, 0, count);
                foreign.put(out);
            }
            Self::Start => put_variant(out, 1, count),
            Self::Shot(cell) => {
                put_variant(out, 2, count);
                cell.put(out);
            }
            Self::Torpedo { heading, line } => {
                put_variant(out, 3, count);
                heading.put(out);
                line.put(out);
            }
            Self::AirStrike(cell) => {
                put_variant(out, 4, count);
                cell.put(out);
            }
            Self::Radar(cell) => {
                put_variant(out, 5, count);
                cell.put(out);
            }
            Self::OfferDraw => put_variant(out, 6, count),
            Self::AnswerDraw(accept) => {
                put_variant(out, 7, count);
                accept.put(out);
            }
            Self::Resign => put_variant(out, 8, count),
            Self::PlayAgain => put_variant(out, 9, count),
            Self::Leave => put_variant(out, 10, count),
        }
    }
}

impl Seed for Op {
    fn put(&self, out: &mut Vec<u8>) {
        let count = 18;
        match self {
            Self::Deliver(side) => {
                put_variant(out, 0, count);
                side.put(out);
            }
            Self::DeliverRaw(side) => {
                put_variant(out, 1, count);
                side.put(out);
            }
            Self::Flush => put_variant(out, 2, count),
            Self::Drop(side) => {
                put_variant(out, 3, count);
                side.put(out);
            }
            Self::Duplicate(side) => {
                put_variant(out, 4, count);
                side.put(out);
            }
            Self::Swap(side) => {
                put_variant(out, 5, count);
                side.put(out);
            }
            Self::Replay { to, back } => {
                put_variant(out, 6, count);
                to.put(out);
                back.put(out);
            }
            Self::Mutate { to, at, xor } => {
                put_variant(out, 7, count);
                to.put(out);
                at.put(out);
                xor.put(out);
            }
            Self::Truncate { to, keep } => {
                put_variant(out, 8, count);
                to.put(out);
                keep.put(out);
            }
            Self::Misroute(side) => {
                put_variant(out, 9, count);
                side.put(out);
            }
            Self::Forge(side) => {
                put_variant(out, 10, count);
                side.put(out);
            }
            Self::Garbage { to, bytes } => {
                put_variant(out, 11, count);
                to.put(out);
                bytes.put(out);
            }
            Self::Wait(units) => {
                put_variant(out, 12, count);
                units.put(out);
            }
            Self::Deadline => put_variant(out, 13, count),
            Self::Bot(side) => {
                put_variant(out, 14, count);
                side.put(out);
            }
            Self::Command { side, command } => {
                put_variant(out, 15, count);
                side.put(out);
                command.put(out);
            }
            Self::Restart(side) => {
                put_variant(out, 16, count);
                side.put(out);
            }
            Self::Reconnect => put_variant(out, 17, count),
        }
    }
}

impl Seed for Edit {
    fn put(&self, out: &mut Vec<u8>) {
        let count = 10;
        match *self {
            Self::Cut(n) => {
                put_variant(out, 0, count);
                n.put(out);
            }
            Self::Drop(i) => {
                put_variant(out, 1, count);
                i.put(out);
            }
            Self::Duplicate(i) => {
                put_variant(out, 2, count);
                i.put(out);
            }
            Self::Swap(a, b) => {
                put_variant(out, 3, count);
                a.put(out);
                b.put(out);
            }
            Self::Move { from, to } => {
                put_variant(out, 4, count);
                from.put(out);
                to.put(out);
            }
            Self::Reseat(i) => {
                put_variant(out, 5, count);
                i.put(out);
            }
            Self::Flip { frame, at, xor } => {
                put_variant(out, 6, count);
                frame.put(out);
                at.put(out);
                xor.put(out);
            }
            Self::Truncate { frame, keep } => {
                put_variant(out, 7, count);
                frame.put(out);
                keep.put(out);
            }
            Self::Table { at, xor } => {
                put_variant(out, 8, count);
                at.put(out);
                xor.put(out);
            }
            Self::Version(v) => {
                put_variant(out, 9, count);
                v.put(out);
            }
        }
    }
}

/// An input of [`session`]: the setup, then the operations.
pub fn session_input(setup: Setup, ops: &[Op]) -> Vec<u8> {
    let mut out = Vec::new();
    setup.put(&mut out);
    for op in ops {
        op.put(&mut out);
    }
    out
}

/// An input of [`verifier`]: a transcript file as it is (`edits` empty), or changed by `edits`.
pub fn verifier_input(edits: &[Edit], file: &[u8]) -> Vec<u8> {
    let mut out = vec![u8::from(!edits.is_empty())];
    if !edits.is_empty() {
        for edit in edits {
            true.put(&mut out);
            edit.put(&mut out);
        }
        false.put(&mut out);
    }
    out.extend_from_slice(file);
    out
}
