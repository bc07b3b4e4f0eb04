//! Short table codes (`4821-harbor-anchor`): a rendezvous number that finds the host,
//! two words that prove the guest was told the code, and the handshake's messages.
//!
//! The number is public (it is looked up in the DHT); the words never leave the two
//! players: they are the password of a SPAKE2 exchange over `/armada/code/1`, which
//! the host answers at most [`TRIES`] times per code. The words come from
//! [`WORDS`], a list written for this project (public domain): 256 short concrete
//! English nouns, no two of them one letter apart.

use std::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::Invite;

/// Rendezvous numbers run from 0000 to 9999 (always printed with four digits).
pub const RENDEZVOUS: u16 = 10_000;
/// Wrong tries a host takes on one code before it withdraws it.
pub const TRIES: u8 = 3;
/// The longest handshake message, in bytes (an admission carries an invite).
pub const MAX_CODE_MESSAGE: usize = crate::MAX_INVITE + 64;
/// The longest SPAKE2 message accepted (Ed25519 group: 33 bytes).
pub const MAX_SPAKE: usize = 64;

/// The code words, indexed by byte: 256 of them, so two words carry 16 bits.
pub const WORDS: [&str; 256] = [
    "acorn", "adult", "agent", "album", "amber", "anchor", "angel", "ankle", "apple", "apron",
    "arrow", "atlas", "attic", "autumn", "award", "bacon", "badge", "baker", "bamboo", "banana",
    "banjo", "barrel", "basket", "beach", "beaver", "berry", "bishop", "blanket", "blossom",
    "bottle", "bramble", "bread", "breeze", "brick", "bridge", "bronze", "brush", "bucket",
    "buffalo", "bugle", "bundle", "butter", "button", "cabin", "cactus", "camel", "candle",
    "canoe", "canvas", "canyon", "captain", "carpet", "carrot", "castle", "cedar", "cellar",
    "chalk", "cherry", "chess", "chimney", "circus", "cliff", "clock", "cloud", "clover", "cobalt",
    "cocoa", "comet", "compass", "copper", "coral", "cotton", "cowboy", "crater", "crayon",
    "cricket", "crystal", "cupboard", "curtain", "cushion", "dagger", "daisy", "desert", "diamond",
    "dinner", "doctor", "dolphin", "donkey", "dragon", "drum", "eagle", "easel", "echo", "elbow",
    "engine", "falcon", "feather", "fence", "fiddle", "finch", "flag", "flute", "forest", "fossil",
    "fountain", "fox", "galaxy", "garden", "garlic", "ginger", "glacier", "globe", "goblet",
    "granite", "grape", "gravel", "guitar", "hammer", "harbor", "harvest", "hazel", "hedgehog",
    "helmet", "hermit", "hockey", "honey", "hornet", "husky", "iceberg", "igloo", "island",
    "ivory", "jacket", "jaguar", "jelly", "jigsaw", "jungle", "kayak", "kettle", "kitten",
    "ladder", "lagoon", "lantern", "lemon", "lettuce", "lily", "lizard", "lobster", "magnet",
    "magpie", "mango", "maple", "marble", "meadow", "melon", "mirror", "mosaic", "motor", "muffin",
    "mustard", "napkin", "needle", "nickel", "noodle", "nutmeg", "oasis", "ocean", "olive",
    "onion", "orange", "orbit", "orchid", "otter", "oyster", "paddle", "palace", "panda", "peanut",
    "pebble", "pelican", "pencil", "pepper", "piano", "pickle", "pillow", "pilot", "pine",
    "pirate", "planet", "plum", "pony", "poppy", "potato", "prism", "pumpkin", "puzzle", "quartz",
    "quill", "quiver", "rabbit", "radish", "raven", "ribbon", "rocket", "rudder", "salmon",
    "sandal", "saucer", "scarf", "sherbet", "shovel", "silver", "sketch", "sled", "sparrow",
    "spider", "sponge", "spoon", "squid", "statue", "storm", "stove", "sugar", "summit", "sunset",
    "swan", "tablet", "teapot", "temple", "thistle", "thunder", "tiger", "timber", "toast",
    "tomato", "torch", "tractor", "trumpet", "tulip", "tunnel", "turnip", "turtle", "umbrella",
    "unicorn", "valley", "velvet", "violin", "volcano", "wagon", "walnut", "walrus", "wolf",
    "yacht", "yogurt", "zebra", "zipper",
];

/// A short code: the rendezvous number and the two words' indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShortCode {
    pub rendezvous: u16,
    pub words: [u8; 2],
}

/// Why a text is not a short code; each says what to type instead.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CodeError {
    #[error("a short code is a number and two words, like 4821-harbor-anchor")]
    Shape,
    #[error("the number of a short code has at most four digits, like 4821")]
    Number,
    #[error("\"{word}\" is not one of the code words{}", hint(*.suggestion))]
    Word {
        word: String,
        suggestion: Option<&'static str>,
    },
}

fn hint(suggestion: Option<&'static str>) -> String {
    suggestion.map_or_else(String::new, |s| format!(" (did you mean \"{s}\"?)"))
}

impl fmt::Display for ShortCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04}-{}-{}",
            self.rendezvous,
            WORDS[usize::from(self.words[0])],
            WORDS[usize::from(self.words[1])]
        )
    }
}

impl ShortCode {
    /// Whether `text` is meant as a short code rather than an invite: it starts with
    /// a digit and is short (a long invite starts with `armada://` or base64 that a
    /// short code's shape never matches).
    pub fn is_meant(text: &str) -> bool {
        let text = text.trim();
        text.len() <= 64
            && text.starts_with(|c: char| c.is_ascii_digit())
            && text.contains(|c: char| c == '-' || c.is_whitespace())
    }

    /// Reads a code as people type it: any case, the parts separated by hyphens or
    /// spaces, the number with or without leading zeros.
    pub fn parse(text: &str) -> Result<Self, CodeError> {
        let text = text.trim().to_lowercase();
        let parts: Vec<&str> = text
            .split(|c: char| c == '-' || c.is_whitespace())
            .filter(|p| !p.is_empty())
            .collect();
        let [number, first, second] = parts[..] else {
            return Err(CodeError::Shape);
        };
        if number.len() > 4 || !number.bytes().all(|b| b.is_ascii_digit()) {
            return Err(if number.bytes().all(|b| b.is_ascii_digit()) {
                CodeError::Number
            } else {
                CodeError::Shape
            });
        }
        let rendezvous = number.parse().map_err(|_| CodeError::Number)?;
        Ok(Self {
            rendezvous,
            words: [word(first)?, word(second)?],
        })
    }

    /// The DHT key the host provides and the guest looks up: the SHA-256 multihash
    /// (`0x12 0x20` then the digest) of `armada/v1/table/` and the four digits. It
    /// depends on the number only, never on the words.
    pub fn rendezvous_key(rendezvous: u16) -> Vec<u8> {
        let digest = Sha256::digest(format!("armada/v1/table/{rendezvous:04}").as_bytes());
        let mut key = vec![0x12, 0x20];
        key.extend_from_slice(&digest);
        key
    }

    /// The code's words, as the bytes the handshake's password is made of.
    pub fn password(&self) -> [u8; 4] {
        let [r0, r1] = self.rendezvous.to_be_bytes();
        [r0, r1, self.words[0], self.words[1]]
    }
}

fn word(text: &str) -> Result<u8, CodeError> {
    if let Some(i) = WORDS.iter().position(|w| *w == text) {
        return Ok(u8::try_from(i).expect("256 words"));
    }
    let suggestion = WORDS
        .iter()
        .map(|w| (distance(w, text), *w))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, w)| w);
    Err(CodeError::Word {
        word: text.chars().take(32).collect(),
        suggestion,
    })
}

/// Levenshtein distance, for the suggestion after a typo (the words are short).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().take(64).collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (here + 1)
                .min(row[j] + 1)
                .min(previous + usize::from(ca != *cb));
            previous = here;
        }
    }
    row[b.len()]
}

/// Why a host did not admit a guest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    /// The words did not match (a try was spent).
    Wrong,
    /// The host no longer answers to this number: its code was withdrawn after
    /// wrong tries, and a new one was shown to the host.
    Withdrawn,
}

/// The short-code handshake, on its own stream (`/armada/code/1`), each message
/// length-delimited: `Start`, `Reply`, `Confirm`, then `Admit` or `Refuse`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CodeMessage {
    /// Guest → host: the code's number and the guest's SPAKE2 message (side A).
    Start {
        version: u8,
        rendezvous: u16,
        spake: Vec<u8>,
    },
    /// Host → guest: the host's SPAKE2 message (side B) and its key confirmation.
    Reply { spake: Vec<u8>, confirm: [u8; 32] },
    /// Guest → host: the guest's key confirmation.
    Confirm { confirm: [u8; 32] },
    /// Host → guest: admitted; the table's invite (sent only after the guest's
    /// confirmation checked, over the connection's own encryption).
    Admit { invite: Invite },
    /// Host → guest: not admitted, and why.
    Refuse { why: Refusal },
}

impl CodeMessage {
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_stdvec(self).expect("encoding into memory cannot fail")
    }

    /// Reads a handshake message strictly: size first, then the encoding, then the
    /// bounds of what it carries.
    pub fn decode(bytes: &[u8]) -> Result<Self, crate::InviteError> {
        use crate::InviteError;
        let message: Self = crate::invite::strict(bytes, MAX_CODE_MESSAGE)?;
        match &message {
            Self::Start { version, .. } if *version != 1 => {
                return Err(InviteError::Version(*version));
            }
            Self::Start {
                rendezvous, spake, ..
            } if *rendezvous >= RENDEZVOUS || spake.len() > MAX_SPAKE => {
                return Err(InviteError::Bounds);
            }
            Self::Reply { spake, .. } if spake.len() > MAX_SPAKE => {
                return Err(InviteError::Bounds);
            }
            Self::Admit { invite } => {
                Invite::parse(&invite.to_code())?;
            }
            _ => {}
        }
        Ok(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_as_people_type_them() {
        let code = ShortCode::parse("4821-harbor-anchor").unwrap();
        assert_eq!(code.to_string(), "4821-harbor-anchor");
        for typed in [
            "  4821 Harbor ANCHOR ",
            "4821 - harbor - anchor",
            "4821-harbor anchor",
        ] {
            assert_eq!(ShortCode::parse(typed), Ok(code), "{typed}");
        }
        let small = ShortCode::parse("7-acorn-zipper").unwrap();
        assert_eq!(small.to_string(), "0007-acorn-zipper");
        assert_eq!(ShortCode::parse(&small.to_string()), Ok(small));
    }

    #[test]
    fn a_bad_code_says_what_is_wrong() {
        assert_eq!(ShortCode::parse("4821-harbor"), Err(CodeError::Shape));
        assert_eq!(
            ShortCode::parse("48213-harbor-anchor"),
            Err(CodeError::Number)
        );
        assert_eq!(
            ShortCode::parse("x821-harbor-anchor"),
            Err(CodeError::Shape)
        );
        let typo = ShortCode::parse("4821-harbr-anchor").unwrap_err();
        assert_eq!(
            typo.to_string(),
            "\"harbr\" is not one of the code words (did you mean \"harbor\"?)"
        );
        let far = ShortCode::parse("4821-harbor-xyzzyq").unwrap_err();
        assert_eq!(far.to_string(), "\"xyzzyq\" is not one of the code words");
    }

    #[test]
    fn the_words_are_distinct_and_far_apart() {
        for (i, a) in WORDS.iter().enumerate() {
            assert!(a.bytes().all(|b| b.is_ascii_lowercase()), "{a}");
            for b in &WORDS[i + 1..] {
                assert!(distance(a, b) >= 2, "{a} and {b} are one letter apart");
            }
        }
    }

    #[test]
    fn short_codes_and_invites_are_told_apart() {
        assert!(ShortCode::is_meant("4821-harbor-anchor"));
        assert!(ShortCode::is_meant(" 12 lily zebra"));
        assert!(!ShortCode::is_meant("armada://join/ASYAJAgBEiCp"));
        assert!(!ShortCode::is_meant("ASYAJAgBEiCpaGXl"));
    }

    #[test]
    fn the_rendezvous_key_is_a_sha256_multihash_of_the_number_alone() {
        let key = ShortCode::rendezvous_key(4821);
        assert_eq!(key.len(), 34);
        assert_eq!(&key[..2], &[0x12, 0x20]);
        assert_ne!(key, ShortCode::rendezvous_key(4822));
    }

    #[test]
    fn handshake_messages_are_bounded() {
        let start = CodeMessage::Start {
            version: 1,
            rendezvous: 4821,
            spake: vec![0; 33],
        };
        assert_eq!(CodeMessage::decode(&start.encode()), Ok(start));
        let far = CodeMessage::Start {
            version: 1,
            rendezvous: RENDEZVOUS,
            spake: vec![0; 33],
        };
        assert!(CodeMessage::decode(&far.encode()).is_err());
        let long = CodeMessage::Reply {
            spake: vec![0; MAX_SPAKE + 1],
            confirm: [0; 32],
        };
        assert!(CodeMessage::decode(&long.encode()).is_err());
        assert!(CodeMessage::decode(&[0xff; 8]).is_err());
    }
}
