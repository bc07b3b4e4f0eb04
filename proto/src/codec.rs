//! Frames and bodies as bytes: size limits first, then strict, canonical postcard.

use thiserror::Error;

use crate::PROTOCOL_VERSION;
use crate::message::{Body, Payload, WireVerdict};

/// The largest frame a peer accepts, checked before anything is decoded. The largest
/// honest frame (a 12×12 reveal, or a torpedo's answer) is under 4 KiB.
pub const MAX_FRAME: usize = 16 * 1024;
pub const SIGNATURE_LEN: usize = 64;
pub const MAX_BODY: usize = MAX_FRAME - SIGNATURE_LEN;
/// The longest free text (a reason) a message may carry, in bytes.
pub const MAX_TEXT: usize = 512;

/// Why bytes are not a message.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DecodeError {
    #[error("the frame has {0} bytes, more than the limit of {MAX_FRAME}")]
    TooLarge(usize),
    #[error("the file has more than {MAX_TRANSCRIPT} bytes, the limit of a transcript")]
    TranscriptTooLarge,
    #[error("the frame has {0} bytes, too short to hold a body and a signature")]
    TooShort(usize),
    #[error(
        "protocol version {0} is not supported (this client speaks version {PROTOCOL_VERSION})"
    )]
    Version(u16),
    #[error("the message is malformed: {0}")]
    Malformed(String),
    #[error("the message has {0} bytes after its end")]
    Trailing(usize),
    #[error("the message is not in canonical form")]
    NonCanonical,
    #[error("a text in the message is longer than {MAX_TEXT} bytes")]
    TextTooLong,
    #[error("the file ends after {0} bytes, inside its head: it was cut short")]
    HeadCut(usize),
    #[error("the file was cut short or damaged at byte {at}, after {whole} whole frame(s)")]
    FrameCut { at: usize, whole: usize },
}

/// A frame split into its body bytes and signature, the body decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub body: Body,
    pub signature: [u8; SIGNATURE_LEN],
    /// The exact bytes received: body then signature.
    pub bytes: Vec<u8>,
}

impl Frame {
    /// Decodes a whole frame as received, strictly.
    pub fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        let (body_bytes, signature) = split_frame(bytes)?;
        Ok(Self {
            body: decode_body(body_bytes)?,
            signature,
            bytes: bytes.to_vec(),
        })
    }

    /// The body's bytes, which the signature covers.
    pub fn body_bytes(&self) -> &[u8] {
        &self.bytes[..self.bytes.len() - SIGNATURE_LEN]
    }
}

/// Splits a frame into body bytes and signature, checking its size first.
pub fn split_frame(bytes: &[u8]) -> Result<(&[u8], [u8; SIGNATURE_LEN]), DecodeError> {
    if bytes.len() > MAX_FRAME {
        return Err(DecodeError::TooLarge(bytes.len()));
    }
    if bytes.len() <= SIGNATURE_LEN {
        return Err(DecodeError::TooShort(bytes.len()));
    }
    let (body, signature) = bytes.split_at(bytes.len() - SIGNATURE_LEN);
    let signature = signature.try_into().expect("split at the signature length");
    Ok((body, signature))
}

/// Settings' canonical bytes (hashed into every game id).
pub fn encode_settings(settings: &crate::Settings) -> Vec<u8> {
    postcard::to_stdvec(settings).expect("encoding into memory cannot fail")
}

/// A body's canonical bytes.
pub fn encode_body(body: &Body) -> Vec<u8> {
    postcard::to_stdvec(body).expect("encoding into memory cannot fail")
}

/// Decodes a body: size, then version, then the whole, with nothing left over and
/// nothing but the canonical encoding accepted.
pub fn decode_body(bytes: &[u8]) -> Result<Body, DecodeError> {
    if bytes.len() > MAX_BODY {
        return Err(DecodeError::TooLarge(bytes.len()));
    }
    let (version, _) = postcard::take_from_bytes::<u16>(bytes)
        .map_err(|e| DecodeError::Malformed(e.to_string()))?;
    if version != PROTOCOL_VERSION {
        return Err(DecodeError::Version(version));
    }
    let (body, rest) = postcard::take_from_bytes::<Body>(bytes)
        .map_err(|e| DecodeError::Malformed(e.to_string()))?;
    if !rest.is_empty() {
        return Err(DecodeError::Trailing(rest.len()));
    }
    if encode_body(&body) != bytes {
        return Err(DecodeError::NonCanonical);
    }
    let text = match &body.payload {
        Payload::Lie { reason, .. } | Payload::Leave { reason } => Some(reason),
        Payload::Verdict { verdict, .. } => match verdict {
            WireVerdict::Lie { reason, .. } | WireVerdict::Incomplete { reason } => Some(reason),
            WireVerdict::Honest { .. } => None,
        },
        _ => None,
    };
    if text.is_some_and(|t| t.len() > MAX_TEXT) {
        return Err(DecodeError::TextTooLong);
    }
    Ok(body)
}

/// The largest stream message: a frame of `MAX_FRAME` bytes behind its tag and length.
pub const MAX_WIRE: usize = MAX_FRAME + 4;

/// A stream message's bytes.
pub fn encode_wire(wire: &crate::Wire) -> Vec<u8> {
    postcard::to_stdvec(wire).expect("encoding into memory cannot fail")
}

/// Decodes one stream message, size first; the frame inside is not decoded (see
/// [`Frame::decode`]). A refusal decodes whatever protocol version it names, so
/// peers of different versions can still tell each other why they part.
pub fn decode_wire(bytes: &[u8]) -> Result<crate::Wire, DecodeError> {
    if bytes.len() > MAX_WIRE {
        return Err(DecodeError::TooLarge(bytes.len()));
    }
    let (wire, rest) = postcard::take_from_bytes::<crate::Wire>(bytes)
        .map_err(|e| DecodeError::Malformed(e.to_string()))?;
    if !rest.is_empty() {
        return Err(DecodeError::Trailing(rest.len()));
    }
    if encode_wire(&wire) != bytes {
        return Err(DecodeError::NonCanonical);
    }
    // A frame over MAX_FRAME cannot fit in MAX_WIRE bytes.
    match &wire {
        crate::Wire::Error(error) if error.detail.len() > MAX_TEXT => Err(DecodeError::TextTooLong),
        crate::Wire::Gone { reason, .. } if reason.len() > MAX_TEXT => {
            Err(DecodeError::TextTooLong)
        }
        _ => Ok(wire),
    }
}

/// The first bytes of every transcript file.
pub const TRANSCRIPT_MAGIC: [u8; 8] = *b"ARMADA\0T";
/// The largest transcript file read, checked before decoding.
pub const MAX_TRANSCRIPT: usize = 256 * 1024 * 1024;

/// The fixed start of a transcript file; the frames follow it, one after another.
#[derive(serde::Serialize, serde::Deserialize)]
struct TranscriptHead {
    magic: [u8; 8],
    version: u16,
    table: crate::Hash,
}

/// A transcript's bytes, for a file: its head, then each frame. A saving peer
/// appends each new frame's [`encode_saved_frame`] to the file.
pub fn encode_transcript(transcript: &crate::Transcript) -> Vec<u8> {
    let head = TranscriptHead {
        magic: transcript.magic,
        version: transcript.version,
        table: transcript.table,
    };
    let mut bytes = postcard::to_stdvec(&head).expect("encoding into memory cannot fail");
    for frame in &transcript.frames {
        bytes.extend(encode_saved_frame(frame));
    }
    bytes
}

/// One frame's bytes in a transcript file.
pub fn encode_saved_frame(frame: &crate::SavedFrame) -> Vec<u8> {
    postcard::to_stdvec(frame).expect("encoding into memory cannot fail")
}

/// Reads a transcript file: size, magic and version first, then strictly the rest.
pub fn decode_transcript(bytes: &[u8]) -> Result<crate::Transcript, DecodeError> {
    let (transcript, used) = decode_transcript_prefix(bytes)?;
    if used != bytes.len() {
        return Err(DecodeError::FrameCut {
            at: used,
            whole: transcript.frames.len(),
        });
    }
    Ok(transcript)
}

/// Reads the head and the whole frames of a transcript file, stopping at the first
/// frame that is cut short or damaged (what a crash in the middle of an append
/// leaves): the transcript so far and how many bytes it takes.
pub fn decode_transcript_prefix(bytes: &[u8]) -> Result<(crate::Transcript, usize), DecodeError> {
    if bytes.len() > MAX_TRANSCRIPT {
        return Err(DecodeError::TranscriptTooLarge);
    }
    if !bytes.starts_with(&TRANSCRIPT_MAGIC) {
        return Err(DecodeError::Malformed("not an Armada transcript".into()));
    }
    let (head, mut rest) =
        postcard::take_from_bytes::<TranscriptHead>(bytes).map_err(|e| match e {
            postcard::Error::DeserializeUnexpectedEnd => DecodeError::HeadCut(bytes.len()),
            e => DecodeError::Malformed(e.to_string()),
        })?;
    if head.version != PROTOCOL_VERSION {
        return Err(DecodeError::Version(head.version));
    }
    let mut frames = Vec::new();
    while !rest.is_empty() {
        let Ok((frame, after)) = postcard::take_from_bytes::<crate::SavedFrame>(rest) else {
            break;
        };
        frames.push(frame);
        rest = after;
    }
    let transcript = crate::Transcript {
        magic: head.magic,
        version: head.version,
        table: head.table,
        frames,
    };
    Ok((transcript, bytes.len() - rest.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Payload, Seat};

    fn body(payload: Payload) -> Body {
        Body {
            version: PROTOCOL_VERSION,
            table: [1; 32],
            from: Seat::Guest,
            seq: 300,
            prev: [2; 32],
            seen: [3; 32],
            payload,
        }
    }

    #[test]
    fn a_body_round_trips() {
        let b = body(Payload::Resign { game: [4; 32] });
        assert_eq!(decode_body(&encode_body(&b)), Ok(b));
    }

    #[test]
    fn another_version_is_refused_by_name() {
        let mut b = body(Payload::Resign { game: [4; 32] });
        // Version 1 (the timer in the table's settings), version 2 (radar answers
        // that told a last deck, several encodings of a reveal) and one yet to come.
        for version in [1, 2, 4] {
            b.version = version;
            let error = decode_body(&encode_body(&b)).unwrap_err();
            assert_eq!(error, DecodeError::Version(version));
            assert_eq!(
                error.to_string(),
                format!(
                    "protocol version {version} is not supported (this client speaks version 3)"
                )
            );
        }
    }

    #[test]
    fn trailing_and_non_canonical_bytes_are_refused() {
        let b = body(Payload::Resign { game: [4; 32] });
        let mut bytes = encode_body(&b);
        bytes.push(0);
        assert_eq!(decode_body(&bytes), Err(DecodeError::Trailing(1)));
        // seq 300 is the varint ac 02; the same number spelt ac 82 00 is not canonical.
        let bytes = encode_body(&b);
        let at = bytes.windows(2).position(|w| w == [0xac, 0x02]).unwrap();
        let mut long = bytes[..at].to_vec();
        long.extend_from_slice(&[0xac, 0x82, 0x00]);
        long.extend_from_slice(&bytes[at + 2..]);
        assert!(matches!(
            decode_body(&long),
            Err(DecodeError::NonCanonical | DecodeError::Malformed(_))
        ));
    }

    #[test]
    fn long_texts_and_frames_are_refused() {
        let b = body(Payload::Leave {
            reason: "x".repeat(MAX_TEXT + 1),
        });
        assert_eq!(decode_body(&encode_body(&b)), Err(DecodeError::TextTooLong));
        assert_eq!(
            split_frame(&vec![0; MAX_FRAME + 1]),
            Err(DecodeError::TooLarge(MAX_FRAME + 1))
        );
        assert_eq!(split_frame(&[0; 64]), Err(DecodeError::TooShort(64)));
    }

    #[test]
    fn stream_messages_round_trip_and_are_bounded() {
        let frame = crate::Wire::Frame(vec![7; 100]);
        let bytes = encode_wire(&frame);
        assert_eq!(&bytes[..3], &[0, 100, 7]);
        assert_eq!(decode_wire(&bytes), Ok(frame));
        let error = crate::Wire::Error(crate::ProtocolError {
            version: 9,
            code: crate::ErrorCode::Version,
            refused: [1; 32],
            detail: "speaks 1".into(),
        });
        assert_eq!(decode_wire(&encode_wire(&error)), Ok(error));
        let big = encode_wire(&crate::Wire::Frame(vec![0; MAX_FRAME + 1]));
        assert!(matches!(decode_wire(&big), Err(DecodeError::TooLarge(_))));
        let most = encode_wire(&crate::Wire::Frame(vec![0; MAX_FRAME]));
        assert_eq!(most.len(), MAX_WIRE);
        assert!(decode_wire(&most).is_ok());
        assert!(matches!(
            decode_wire(&vec![0; MAX_WIRE + 1]),
            Err(DecodeError::TooLarge(_))
        ));
        assert!(matches!(
            decode_wire(&[5, 1]),
            Err(DecodeError::Malformed(_))
        ));
        let long = crate::Wire::Error(crate::ProtocolError {
            version: 1,
            code: crate::ErrorCode::Malformed,
            refused: [0; 32],
            detail: "x".repeat(MAX_TEXT + 1),
        });
        assert_eq!(
            decode_wire(&encode_wire(&long)),
            Err(DecodeError::TextTooLong)
        );
        let gone = crate::Wire::Gone {
            table: [7; 32],
            reason: "x".repeat(MAX_TEXT + 1),
        };
        assert_eq!(
            decode_wire(&encode_wire(&gone)),
            Err(DecodeError::TextTooLong)
        );
    }

    #[test]
    fn a_transcript_round_trips_and_junk_is_refused() {
        let t = crate::Transcript {
            magic: TRANSCRIPT_MAGIC,
            version: PROTOCOL_VERSION,
            table: [5; 32],
            frames: vec![crate::SavedFrame {
                from: Seat::Host,
                bytes: vec![1, 2, 3],
            }],
        };
        let bytes = encode_transcript(&t);
        assert_eq!(decode_transcript(&bytes), Ok(t.clone()));
        // Appending a frame's bytes gives the longer transcript.
        let more = crate::SavedFrame {
            from: Seat::Guest,
            bytes: vec![4; 300],
        };
        let mut longer = bytes.clone();
        longer.extend(encode_saved_frame(&more));
        let mut t2 = t.clone();
        t2.frames.push(more);
        assert_eq!(decode_transcript(&longer), Ok(t2));
        // A frame cut short is refused as a whole, and skipped as a prefix.
        let cut = &longer[..longer.len() - 1];
        assert_eq!(
            decode_transcript(cut),
            Err(DecodeError::FrameCut {
                at: bytes.len(),
                whole: 1
            })
        );
        assert_eq!(decode_transcript_prefix(cut), Ok((t, bytes.len())));
        // A file that ends inside its head says so, not postcard's words.
        assert_eq!(
            decode_transcript(&bytes[..10]),
            Err(DecodeError::HeadCut(10))
        );
        assert!(decode_transcript(b"ARMADA\0Tjunk").is_err());
        assert!(decode_transcript(b"hello").is_err());
    }
}
