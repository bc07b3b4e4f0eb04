//! Invites: what a guest needs to find a table and prove it was invited, as a link.
//!
//! `armada://join/<code>`, where the code is URL-safe base64 (no padding) of the
//! postcard encoding of [`Invite`]. The bare code is accepted too. Checked strictly:
//! size first, then the encoding, then each field's bounds.

use data_encoding::BASE64URL_NOPAD;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The link's prefix.
pub const INVITE_PREFIX: &str = "armada://join/";
/// The longest invite code accepted, in bytes (the link's prefix and surrounding
/// whitespace aside, so that a code that reads also reads as a link).
pub const MAX_INVITE: usize = 4096;
/// Addresses an invite carries at most.
pub const MAX_ADDRS: usize = 16;
/// The longest address or peer id, in bytes.
pub const MAX_ADDR: usize = 256;

/// A table's invite.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invite {
    /// The invite format's version: 1.
    pub version: u8,
    /// The host's libp2p peer id, as bytes.
    pub peer: Vec<u8>,
    /// Addresses the host may be reached at (libp2p multiaddrs, as bytes).
    pub addrs: Vec<Vec<u8>>,
    /// The table secret: proves to the host that a guest was invited.
    pub secret: [u8; 32],
}

/// Why a text is not an invite.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum InviteError {
    #[error("the invite is longer than {MAX_INVITE} characters")]
    TooLong,
    #[error("the invite is not a valid code (expected armada://join/… or the code alone)")]
    Encoding,
    #[error("the invite's contents are malformed")]
    Malformed,
    #[error("invite version {0} is not supported (this client reads version 1)")]
    Version(u8),
    #[error("the invite carries too many or too long addresses")]
    Bounds,
}

impl Invite {
    /// The invite as a link.
    pub fn to_link(&self) -> String {
        format!("{INVITE_PREFIX}{}", self.to_code())
    }

    /// The invite as a bare code.
    pub fn to_code(&self) -> String {
        BASE64URL_NOPAD
            .encode(&postcard::to_stdvec(self).expect("encoding into memory cannot fail"))
    }

    /// Reads a link or a bare code.
    pub fn parse(text: &str) -> Result<Self, InviteError> {
        let text = text.trim();
        let code = text.strip_prefix(INVITE_PREFIX).unwrap_or(text);
        if code.len() > MAX_INVITE {
            return Err(InviteError::TooLong);
        }
        let bytes = BASE64URL_NOPAD
            .decode(code.as_bytes())
            .map_err(|_| InviteError::Encoding)?;
        let (invite, rest) =
            postcard::take_from_bytes::<Self>(&bytes).map_err(|_| InviteError::Malformed)?;
        if !rest.is_empty() {
            return Err(InviteError::Malformed);
        }
        if invite.version != 1 {
            return Err(InviteError::Version(invite.version));
        }
        if invite.peer.len() > MAX_ADDR
            || invite.addrs.len() > MAX_ADDRS
            || invite.addrs.iter().any(|a| a.len() > MAX_ADDR)
        {
            return Err(InviteError::Bounds);
        }
        Ok(invite)
    }
}

/// What a host tells a peer on its LAN that asks (the `/armada/lan/1` stream): the
/// game, the rendezvous number of its short code if it shows one, and — only if the
/// host chose to take LAN joins without a code — the invite.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LanOffer {
    /// The format's version: 2.
    pub version: u8,
    pub game: crate::GameKind,
    pub invite: Option<Invite>,
    /// The number of the host's short code (never its words).
    pub rendezvous: Option<u16>,
}

/// The LAN offer's version.
pub const LAN_OFFER_VERSION: u8 = 2;

impl LanOffer {
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_stdvec(self).expect("encoding into memory cannot fail")
    }

    /// Reads an offer strictly: size first, then the encoding and the invite's bounds.
    pub fn decode(bytes: &[u8]) -> Result<Self, InviteError> {
        let offer: Self = strict(bytes, MAX_INVITE)?;
        if offer.version != LAN_OFFER_VERSION {
            return Err(InviteError::Version(offer.version));
        }
        if offer.rendezvous.is_some_and(|r| r >= crate::RENDEZVOUS) {
            return Err(InviteError::Bounds);
        }
        if let Some(invite) = &offer.invite {
            Invite::parse(&invite.to_code())?;
        }
        Ok(offer)
    }
}

/// A message of at most `max` bytes, decoded whole (no trailing bytes).
pub(crate) fn strict<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    max: usize,
) -> Result<T, InviteError> {
    if bytes.len() > max {
        return Err(InviteError::TooLong);
    }
    let (value, rest) =
        postcard::take_from_bytes::<T>(bytes).map_err(|_| InviteError::Malformed)?;
    if !rest.is_empty() {
        return Err(InviteError::Malformed);
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invite() -> Invite {
        Invite {
            version: 1,
            peer: vec![0, 36, 8, 1],
            addrs: vec![vec![4, 127, 0, 0, 1, 6, 0x1f, 0x90]],
            secret: [7; 32],
        }
    }

    #[test]
    fn links_and_codes_round_trip() {
        let i = invite();
        assert_eq!(Invite::parse(&i.to_link()), Ok(i.clone()));
        assert_eq!(Invite::parse(&format!("  {}\n", i.to_code())), Ok(i));
    }

    /// Found by the `invite` fuzz target: a code of 4083 characters read, but its
    /// link (14 more) was refused as too long.
    #[test]
    fn the_longest_code_reads_as_a_link_too() {
        let mut i = invite();
        i.addrs = vec![vec![0; 247]; 12];
        i.peer = vec![0; 39];
        let code = i.to_code();
        assert!(code.len() <= MAX_INVITE && i.to_link().len() > MAX_INVITE);
        assert_eq!(Invite::parse(&code), Ok(i.clone()));
        assert_eq!(Invite::parse(&i.to_link()), Ok(i));
    }

    #[test]
    fn lan_offers_round_trip_and_junk_is_refused() {
        let offer = LanOffer {
            version: LAN_OFFER_VERSION,
            game: crate::GameKind::Armada,
            invite: Some(invite()),
            rendezvous: Some(4821),
        };
        assert_eq!(LanOffer::decode(&offer.encode()), Ok(offer.clone()));
        let far = LanOffer {
            rendezvous: Some(crate::RENDEZVOUS),
            ..offer
        };
        assert_eq!(LanOffer::decode(&far.encode()), Err(InviteError::Bounds));
        assert_eq!(LanOffer::decode(&[9]), Err(InviteError::Malformed));
        assert_eq!(LanOffer::decode(&[0; 5000]), Err(InviteError::TooLong));
    }

    #[test]
    fn junk_is_refused_by_name() {
        assert_eq!(
            Invite::parse("armada://join/!!"),
            Err(InviteError::Encoding)
        );
        assert_eq!(
            Invite::parse("armada://join/AAAA"),
            Err(InviteError::Malformed)
        );
        assert_eq!(Invite::parse(&"A".repeat(5000)), Err(InviteError::TooLong));
        let link = format!("{INVITE_PREFIX}{}", "A".repeat(MAX_INVITE + 1));
        assert_eq!(Invite::parse(&link), Err(InviteError::TooLong));
        let mut i = invite();
        i.version = 2;
        assert_eq!(Invite::parse(&i.to_link()), Err(InviteError::Version(2)));
        let mut i = invite();
        i.addrs = vec![vec![1]; MAX_ADDRS + 1];
        assert_eq!(Invite::parse(&i.to_link()), Err(InviteError::Bounds));
    }
}
