//! Signing and checking frames with the peer's ed25519 identity (the libp2p key), and frame hashes.

use std::sync::Arc;

use armada_proto::{Body, Frame, SIGNATURE_LEN, encode_body};
use aws_lc_rs::signature::Ed25519KeyPair;
use libp2p_identity::ed25519;

use super::hash::{Hash, label, labelled};

/// This peer's signing key: its libp2p ed25519 identity, and the same key for
/// aws-lc's signer (which signs a frame in half the time; the signature bytes are the
/// same, since Ed25519 signing is deterministic).
#[derive(Clone)]
pub struct Identity(ed25519::Keypair, Arc<Ed25519KeyPair>);

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Identity({})", hex::encode(self.public()))
    }
}

impl Identity {
    /// A new identity from the operating system's randomness.
    pub fn generate() -> Self {
        Self::from_libp2p(ed25519::Keypair::generate())
    }

    /// The identity of a libp2p keypair; only ed25519 keys can sign Armada messages.
    pub fn from_libp2p(keypair: ed25519::Keypair) -> Self {
        let public = keypair.public().to_bytes();
        // Refuses a public key that is not the seed's, so both halves are one key.
        let signer = Ed25519KeyPair::from_seed_and_public_key(keypair.secret().as_ref(), &public)
            .expect("a libp2p ed25519 keypair is a valid seed and its public key");
        Self(keypair, Arc::new(signer))
    }

    /// The same key as a libp2p keypair, for the network's own handshakes.
    pub fn keypair(&self) -> libp2p_identity::Keypair {
        self.0.clone().into()
    }

    /// The secret key's bytes, to keep on disk (privately).
    pub fn to_secret_bytes(&self) -> [u8; 64] {
        self.0.to_bytes()
    }

    /// An identity kept with [`Identity::to_secret_bytes`]; `None` if the bytes are not one.
    pub fn from_secret_bytes(bytes: &[u8; 64]) -> Option<Self> {
        let mut copy = *bytes;
        ed25519::Keypair::try_from_bytes(&mut copy)
            .ok()
            .map(Self::from_libp2p)
    }

    /// The public key, as it travels in `Hello`.
    pub fn public(&self) -> [u8; 32] {
        self.0.public().to_bytes()
    }

    /// Encodes and signs `body`: the frame to send.
    pub fn seal(&self, body: &Body) -> Vec<u8> {
        let mut frame = encode_body(body);
        let signature = self.1.sign(&signed_bytes(&frame));
        frame.extend_from_slice(signature.as_ref());
        frame
    }
}

/// What a signature covers: a label, a zero byte, then the body's bytes.
pub fn signed_bytes(body: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(label::SIGNATURE.len() + 1 + body.len());
    bytes.extend_from_slice(label::SIGNATURE.as_bytes());
    bytes.push(0);
    bytes.extend_from_slice(body);
    bytes
}

/// A peer's public key, decoded once (decoding a point costs as much as a quarter of
/// a signature check).
#[derive(Clone, Debug)]
pub struct PeerKey(ed25519::PublicKey);

impl PeerKey {
    /// The key in a hello; `None` if the bytes are not an ed25519 public key.
    pub fn parse(key: &[u8; 32]) -> Option<Self> {
        ed25519::PublicKey::try_from_bytes(key).ok().map(Self)
    }

    /// Whether `frame` is signed by this key.
    pub fn check(&self, frame: &Frame) -> bool {
        debug_assert_eq!(frame.signature.len(), SIGNATURE_LEN);
        let message = signed_bytes(frame.body_bytes());
        self.0.verify(&message, &frame.signature)
    }
}

/// Whether `frame` is signed by the ed25519 public key `key`.
pub fn verify(key: &[u8; 32], frame: &Frame) -> bool {
    PeerKey::parse(key).is_some_and(|k| k.check(frame))
}

/// The hash that links messages: over the exact bytes of a frame, signature included.
pub fn frame_hash(bytes: &[u8]) -> Hash {
    labelled(label::MESSAGE, &[bytes])
}
