//! The host's door: strangers read side by side until one proves the invite, the
//! room they may take, the refusals said without flooding, and what the person
//! types while nobody has joined.

use std::time::Duration;

use anyhow::Context as _;
use futures::StreamExt as _;
use libp2p::PeerId;

use super::{Door, Game, Say, framed, is_peer, refuse};
use crate::rules::Seat;
use armada_proto as proto;

/// How long a stranger's first message may take before its stream is dropped.
const ADMIT_MS: u64 = 10_000;
/// How many strangers' first messages are awaited at once before the table is
/// taken, and how many of them from one peer.
pub(super) const MAX_AT_DOOR: usize = 16;
const MAX_AT_DOOR_PER_PEER: usize = 2;

/// Strangers at the host's door, each by its ticket, its peer and the task reading it.
pub(super) type Strangers = std::collections::VecDeque<(u64, PeerId, tokio::task::AbortHandle)>;

/// Makes room at the door for one more stranger from `peer`: when the door is full,
/// or `peer` has its share of it, the oldest (of `peer`'s) is sent away.
pub(super) fn make_room(door: &mut Strangers, peer: PeerId, refusals: &mut Refusals, say: Say<'_>) {
    let own = door.iter().filter(|(_, p, _)| *p == peer).count();
    let evict = if own >= MAX_AT_DOOR_PER_PEER {
        door.iter().position(|(_, p, _)| *p == peer)
    } else {
        (door.len() >= MAX_AT_DOOR).then_some(0)
    };
    if let Some((_, old, reading)) = evict.and_then(|i| door.remove(i)) {
        reading.abort();
        refusals.refused(old, "no hello yet, and the door is crowded", say);
    }
}

/// A line a person typed while nobody has joined: whether it closes the table. `help`
/// is answered; any other line waits for the table (a timer switch, say).
pub(super) fn closes<G: Game>(player: &mut super::Player<G>, line: &str, say: Say<'_>) -> bool {
    match line.trim().to_lowercase().as_str() {
        "quit" | "leave" => return true,
        "help" | "?" => say(
            "nobody has joined yet: give your friend the invite or the code above; `quit` \
             closes the table",
        ),
        _ => player.hold(line.to_owned()),
    }
    false
}

/// Reads a stranger's first message (a sync may come before it), within `ADMIT_MS`.
pub(super) async fn first_frame(stream: libp2p::Stream) -> anyhow::Result<(Door, Vec<u8>)> {
    let mut framed = framed(stream);
    // A sync may come first (it says how much of the host's chain the guest holds);
    // the first frame must be the hello.
    let first = tokio::time::timeout(Duration::from_millis(ADMIT_MS), async {
        for _ in 0..4 {
            let bytes = framed.next().await.context("the stream closed")??;
            if !matches!(proto::decode_wire(&bytes), Ok(proto::Wire::Sync { .. })) {
                return Ok(bytes.to_vec());
            }
        }
        anyhow::bail!("no hello among the first messages")
    })
    .await
    .context("no hello in time")??;
    Ok((framed, first))
}

/// Takes in a stranger's first message if it is a hello with a valid invite proof
/// from the key of the peer that sent it; otherwise the stream is refused (in the
/// background) and nothing changed.
pub(super) fn admit<G: Game>(
    session: &mut G,
    peer: PeerId,
    framed: Door,
    first: &[u8],
) -> anyhow::Result<Door> {
    let mut probe = session.clone();
    let result = probe.handle_wire(0, first);
    let key_ok = probe
        .key(Seat::Guest)
        .is_some_and(|key| is_peer(&key, &peer));
    if result.is_ok() && key_ok {
        // Taken in for real: the frame is part of the table from now on.
        session
            .handle_wire(0, first)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        return Ok(framed);
    }
    let (code, why) = match result {
        Err(rejected) => (rejected.code(), rejected.to_string()),
        Ok(()) => (
            proto::ErrorCode::NotInvited,
            "the hello's key is not the sender's network identity".into(),
        ),
    };
    tokio::spawn({
        let why = why.clone();
        async move { refuse(framed, code, &why).await }
    });
    anyhow::bail!(why)
}

/// Strangers refused at a table's door, told one line a minute at most: the first
/// one in full, then how many more and the latest (a flood of junk streams is one
/// line, not one per stream).
#[derive(Default)]
pub(super) struct Refusals {
    /// When the last line was said.
    said: Option<tokio::time::Instant>,
    /// Refused since, unsaid; the latest of them.
    more: u32,
    latest: Option<String>,
}

impl Refusals {
    const EVERY: Duration = Duration::from_mins(1);

    pub(super) fn refused(&mut self, peer: PeerId, why: &str, say: Say<'_>) {
        let line = format!("{peer}: {why}");
        if self.said.is_none_or(|at| at.elapsed() >= Self::EVERY) {
            self.flush(&mut *say);
            say(&format!("refused {line}"));
            self.said = Some(tokio::time::Instant::now());
        } else {
            self.more += 1;
            self.latest = Some(line);
        }
    }

    /// Says what was counted and not yet said.
    pub(super) fn flush(&mut self, say: Say<'_>) {
        if let Some(latest) = self.latest.take() {
            say(&format!(
                "refused {} more stranger(s) since (latest: {latest})",
                self.more
            ));
            self.said = Some(tokio::time::Instant::now());
        }
        self.more = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The door holds two strangers a peer and sixteen in all: each newcomer past
    /// that sends the oldest away (of its own peer's, if that peer has its share),
    /// and every one sent away is counted in the lines said.
    #[tokio::test]
    async fn the_door_holds_two_strangers_a_peer_and_sixteen_in_all() {
        let mut door = Strangers::new();
        let mut refusals = Refusals::default();
        let mut lines = Vec::new();
        let mut say = |line: &str| lines.push(line.to_owned());
        let peers: Vec<PeerId> = (0..12).map(|_| PeerId::random()).collect();
        let come = |door: &mut Strangers, refusals: &mut Refusals, peer: PeerId, say: Say<'_>| {
            make_room(door, peer, refusals, say);
            let reading = tokio::spawn(std::future::pending::<()>()).abort_handle();
            door.push_back((0, peer, reading));
        };
        // One peer's eight streams: two stay, six are sent away.
        for _ in 0..8 {
            come(&mut door, &mut refusals, peers[0], &mut say);
        }
        assert_eq!(door.len(), MAX_AT_DOOR_PER_PEER);
        // Eleven more peers with two each: the door fills to sixteen, then the oldest
        // go, the first peer's two first.
        for &peer in &peers[1..] {
            for _ in 0..2 {
                come(&mut door, &mut refusals, peer, &mut say);
            }
        }
        assert_eq!(door.len(), MAX_AT_DOOR);
        assert!(door.iter().all(|(_, p, _)| peers[4..].contains(p)));
        refusals.flush(&mut say);
        let refused: usize = lines
            .iter()
            .map(|line| {
                line.strip_prefix("refused ")
                    .and_then(|rest| rest.split_once(" more stranger(s) since"))
                    .map_or(1, |(n, _)| n.parse().unwrap())
            })
            .sum();
        assert_eq!(refused, 6 + 8, "{lines:?}");
        assert_eq!(lines.len(), 2, "one line in full, then the rest summed");
    }
}
