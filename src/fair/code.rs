//! The short code's handshake: SPAKE2 over the code, bound to both peers, with key
//! confirmation both ways; pure computation, no IO.
//!
//! The guest is SPAKE2's side A, the host side B; their identities are their libp2p
//! peer ids (the connection's, which its encryption authenticated), and the password
//! is the whole code (its number and words). Each run lets a guest test one guess:
//! the messages reveal nothing of the words to an eavesdropper or to a guest that
//! guessed wrong. Randomness comes from the operating system, inside `spake2`.

use spake2::{Ed25519Group, Identity, Password, Spake2};
use thiserror::Error;

use super::hash::{Hash, label, labelled};
use armada_proto::ShortCode;

/// Why a handshake failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HandshakeError {
    /// The other side's confirmation did not match: it holds other words.
    #[error("the words do not match")]
    Wrong,
    /// The other side's message is not a SPAKE2 message.
    #[error("a malformed handshake message")]
    Malformed,
}

/// What a successful handshake leaves both sides: a key only they know, from which
/// the guest's join proof is made.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct CodeKey(Hash);

impl std::fmt::Debug for CodeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CodeKey(hidden)")
    }
}

impl CodeKey {
    pub fn expose(&self) -> &Hash {
        &self.0
    }
}

fn password(code: &ShortCode) -> Password {
    Password::new(labelled(label::CODE_PASSWORD, &[&code.password()]))
}

fn spake(
    password: &Password,
    guest: &[u8],
    host: &[u8],
    side_a: bool,
) -> (Spake2<Ed25519Group>, Vec<u8>) {
    let (a, b) = (Identity::new(guest), Identity::new(host));
    if side_a {
        Spake2::<Ed25519Group>::start_a(password, &a, &b)
    } else {
        Spake2::<Ed25519Group>::start_b(password, &a, &b)
    }
}

fn confirm(role: &str, shared: &[u8]) -> Hash {
    labelled(role, &[shared])
}

/// The guest's half of a handshake in flight.
pub struct GuestHandshake {
    spake: Spake2<Ed25519Group>,
}

impl std::fmt::Debug for GuestHandshake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GuestHandshake")
    }
}

impl GuestHandshake {
    /// Starts a handshake with the host `host` for `code`; the message goes in `Start`.
    pub fn start(code: &ShortCode, guest: &[u8], host: &[u8]) -> (Self, Vec<u8>) {
        let (spake, message) = spake(&password(code), guest, host, true);
        (Self { spake }, message)
    }

    /// Checks the host's reply; on success, the key and the guest's confirmation.
    pub fn finish(
        self,
        reply: &[u8],
        host_confirm: &Hash,
    ) -> Result<(CodeKey, Hash), HandshakeError> {
        let shared = self
            .spake
            .finish(reply)
            .map_err(|_| HandshakeError::Malformed)?;
        if confirm(label::CODE_HOST, &shared) != *host_confirm {
            return Err(HandshakeError::Wrong);
        }
        Ok((
            CodeKey(labelled(label::CODE_KEY, &[&shared])),
            confirm(label::CODE_GUEST, &shared),
        ))
    }
}

/// The host's half, after its reply: waits for the guest's confirmation.
pub struct HostHandshake {
    shared: Vec<u8>,
}

impl std::fmt::Debug for HostHandshake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HostHandshake")
    }
}

impl HostHandshake {
    /// Answers a guest's `Start` for the host's own `code`: the reply's message and
    /// the host's confirmation. Answering spends one of the code's tries, whatever
    /// comes next (a guest may stop here and test its guess offline against the
    /// confirmation: one guess, as online).
    pub fn answer(
        code: &ShortCode,
        host: &[u8],
        guest: &[u8],
        start: &[u8],
    ) -> Result<(Self, Vec<u8>, Hash), HandshakeError> {
        let (spake, message) = spake(&password(code), guest, host, false);
        let shared = spake.finish(start).map_err(|_| HandshakeError::Malformed)?;
        let confirmation = confirm(label::CODE_HOST, &shared);
        Ok((Self { shared }, message, confirmation))
    }

    /// Checks the guest's confirmation: the key if it holds the same code.
    pub fn check(self, guest_confirm: &Hash) -> Result<CodeKey, HandshakeError> {
        if confirm(label::CODE_GUEST, &self.shared) != *guest_confirm {
            return Err(HandshakeError::Wrong);
        }
        Ok(CodeKey(labelled(label::CODE_KEY, &[&self.shared])))
    }
}

/// The guest's proof in its `CodeHello`: the handshake's key bound to the table's
/// secret (sent in the admission) and to the guest's game key.
pub fn code_proof(secret: &Hash, key: &CodeKey, game_key: &Hash) -> Hash {
    labelled(label::CODE_JOIN, &[secret, &key.0, game_key])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> ShortCode {
        ShortCode::parse(text).unwrap()
    }

    fn run(
        guest_code: &str,
        host_code: &str,
        guest: &[u8],
        host_sees: &[u8],
    ) -> Result<(CodeKey, CodeKey), HandshakeError> {
        let (g, start) = GuestHandshake::start(&code(guest_code), guest, b"host");
        let (h, reply, host_confirm) =
            HostHandshake::answer(&code(host_code), b"host", host_sees, &start)?;
        let (guest_key, guest_confirm) = g.finish(&reply, &host_confirm)?;
        let host_key = h.check(&guest_confirm)?;
        Ok((guest_key, host_key))
    }

    #[test]
    fn the_same_code_gives_both_sides_one_key() {
        let (a, b) = run(
            "4821-harbor-anchor",
            "4821-harbor-anchor",
            b"guest",
            b"guest",
        )
        .unwrap();
        assert_eq!(a, b);
        let (c, _) = run(
            "4821-harbor-anchor",
            "4821-harbor-anchor",
            b"guest",
            b"guest",
        )
        .unwrap();
        assert_ne!(a, c, "every run has a fresh key");
    }

    #[test]
    fn other_words_another_number_or_another_peer_fail() {
        for (guest, host) in [
            ("4821-harbor-acorn", "4821-harbor-anchor"),
            ("4821-anchor-harbor", "4821-harbor-anchor"),
            ("4822-harbor-anchor", "4821-harbor-anchor"),
        ] {
            assert_eq!(
                run(guest, host, b"guest", b"guest").unwrap_err(),
                HandshakeError::Wrong
            );
        }
        // A relay in the middle that passes the messages on under its own identity
        // does not get a key that matches.
        assert_eq!(
            run(
                "4821-harbor-anchor",
                "4821-harbor-anchor",
                b"guest",
                b"mallory"
            )
            .unwrap_err(),
            HandshakeError::Wrong
        );
    }

    #[test]
    fn junk_is_malformed_not_a_panic() {
        assert_eq!(
            HostHandshake::answer(&code("1-acorn-zebra"), b"h", b"g", &[1, 2, 3]).unwrap_err(),
            HandshakeError::Malformed
        );
    }
}
