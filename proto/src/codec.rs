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

/// The first bytes of every transcript file.
pub const TRANSCRIPT_MAGIC: [u8; 8] = *b"ARMADA\0T";
/// The largest transcript file read, checked before decoding.
pub const MAX_TRANSCRIPT: usize = 64 * 1024 * 1024;

/// A transcript's bytes, for a file.
pub fn encode_transcript(transcript: &crate::Transcript) -> Vec<u8> {
    postcard::to_stdvec(transcript).expect("encoding into memory cannot fail")
}

/// Reads a transcript file: size, magic and version first, then strictly the rest.
pub fn decode_transcript(bytes: &[u8]) -> Result<crate::Transcript, DecodeError> {
    if bytes.len() > MAX_TRANSCRIPT {
        return Err(DecodeError::TooLarge(bytes.len()));
    }
    if !bytes.starts_with(&TRANSCRIPT_MAGIC) {
        return Err(DecodeError::Malformed("not an Armada transcript".into()));
    }
    let (transcript, rest) = postcard::take_from_bytes::<crate::Transcript>(bytes)
        .map_err(|e| DecodeError::Malformed(e.to_string()))?;
    if transcript.version != PROTOCOL_VERSION {
        return Err(DecodeError::Version(transcript.version));
    }
    if !rest.is_empty() {
        return Err(DecodeError::Trailing(rest.len()));
    }
    Ok(transcript)
}
