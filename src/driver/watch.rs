//! What a network table tells a window that plays it: snapshots of the session, its
//! events, how the connection goes, refused commands, and the end.

use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};

use crate::net::Route;
use crate::session::{Session, TableSession};

/// One thing the window learns about its table.
#[derive(Debug)]
pub enum Update<G: TableSession = Session> {
    /// The invite link of a hosted table, to give to the friend.
    Invite(String),
    /// The hosted table's short code, or `None` once it has none (the seat is
    /// taken, or codes are off); `withdrawn` when the one before was withdrawn after
    /// wrong tries.
    Code {
        code: Option<String>,
        withdrawn: bool,
    },
    /// How a friend beyond this LAN can reach the hosted table, as the host learns it
    /// (a stranger's verdict may come after the invite is shown).
    Open(Open),
    /// How the connection goes.
    Link(Link),
    /// The session as it is now (after every change), and the table clock's time.
    Snapshot(Box<G>, crate::session::Millis),
    /// One of the session's events, in order.
    Event(G::Event),
    /// A command of the window's was refused, and why.
    Refused(String),
    /// The table is over for this side: `Ok(finished)`, or why it failed.
    Ended(Result<bool, String>),
}

/// How a friend beyond this LAN can reach a hosted table, as far as its host knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Open {
    /// Still finding out (before the invite is shown): asking the router to forward a
    /// port, and looking for relays on the public network when `public`.
    Searching { public: bool },
    /// From anywhere, directly: a stranger on the internet dialled this computer back,
    /// or (`router`) the router forwards a port to it (`UPnP`).
    Anywhere { router: bool },
    /// From anywhere, directly, but by the invite alone: the router forwards a port,
    /// and the public network is off, so the short code is found on this LAN only.
    InviteAnywhere,
    /// From anywhere, through this many relays found on the public network.
    Relayed(usize),
    /// Only from this LAN, or by an address that reaches this computer directly: no
    /// relay answered on the public network (`searched`), or it is off.
    Nearby { searched: bool },
}

/// The connection's state, as the window shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// Starting the node, dialling the host.
    Connecting,
    /// The table is open; no guest yet.
    Waiting,
    /// Connected, directly or through a relay.
    Route(Route),
    /// The link broke; redialling (or waiting for the guest to).
    Reconnecting,
    /// The other player is gone: it stayed away past the grace, or said it cannot
    /// go on; `claimed`: this side's forfeit claim stands on the record.
    Gone { claimed: bool },
    /// The other player left the table (its game resigned and settled first).
    Left,
}

/// The newest snapshot not yet taken by the window, with its table clock.
type Latest<G> = Arc<Mutex<Option<(Box<G>, crate::session::Millis)>>>;

/// What goes down the channel: an update, or word that a snapshot waits in the slot.
enum Sent<G: TableSession> {
    Update(Update<G>),
    Snapshot,
}

/// Where a table sends its updates, and how it wakes the window. Snapshots are not
/// queued: one slot holds the newest, so a window that does not draw for a while (or
/// a peer whose every junk message makes one) never piles up copies of the session.
pub struct Watch<G: TableSession = Session> {
    tx: mpsc::Sender<Sent<G>>,
    latest: Latest<G>,
    wake: Arc<dyn Fn() + Send + Sync>,
}

impl<G: TableSession> Clone for Watch<G> {
    fn clone(&self) -> Self {
        Self {
            tx: self.tx.clone(),
            latest: self.latest.clone(),
            wake: self.wake.clone(),
        }
    }
}

impl<G: TableSession> std::fmt::Debug for Watch<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch").finish_non_exhaustive()
    }
}

impl<G: TableSession> Watch<G> {
    /// A watch that calls `wake` after each update; the receiver for the window.
    pub fn new(wake: Arc<dyn Fn() + Send + Sync>) -> (Self, Updates<G>) {
        let (tx, rx) = mpsc::channel();
        let latest: Latest<G> = Arc::default();
        let updates = Updates {
            rx,
            latest: latest.clone(),
        };
        (Self { tx, latest, wake }, updates)
    }

    /// Sends `update` (dropped if the window is gone) and wakes the window. A
    /// snapshot replaces one the window has not taken yet.
    pub fn send(&self, update: Update<G>) {
        let sent = match update {
            Update::Snapshot(session, now) => {
                let mut slot = self.latest.lock().unwrap_or_else(PoisonError::into_inner);
                // The window was already told of the slot: it takes this one instead.
                if slot.replace((session, now)).is_some() {
                    drop(slot);
                    (self.wake)();
                    return;
                }
                Sent::Snapshot
            }
            update => Sent::Update(update),
        };
        let _ = self.tx.send(sent);
        (self.wake)();
    }
}

/// The window's end of a [`Watch`]: the updates in order, a snapshot always the
/// newest there is.
pub struct Updates<G: TableSession = Session> {
    rx: mpsc::Receiver<Sent<G>>,
    latest: Latest<G>,
}

impl<G: TableSession> std::fmt::Debug for Updates<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Updates").finish_non_exhaustive()
    }
}

impl<G: TableSession> Updates<G> {
    /// The next update, if one is there.
    pub fn try_recv(&self) -> Option<Update<G>> {
        loop {
            if let Some(update) = self.open(self.rx.try_recv().ok()?) {
                return Some(update);
            }
        }
    }

    /// The next update, waiting up to `timeout` for it.
    pub fn recv_timeout(&self, timeout: std::time::Duration) -> Option<Update<G>> {
        let until = std::time::Instant::now() + timeout;
        loop {
            let left = until.saturating_duration_since(std::time::Instant::now());
            if let Some(update) = self.open(self.rx.recv_timeout(left).ok()?) {
                return Some(update);
            }
        }
    }

    fn open(&self, sent: Sent<G>) -> Option<Update<G>> {
        match sent {
            Sent::Update(update) => Some(update),
            Sent::Snapshot => {
                let mut slot = self.latest.lock().unwrap_or_else(PoisonError::into_inner);
                slot.take()
                    .map(|(session, now)| Update::Snapshot(session, now))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    fn snapshot(now: crate::session::Millis) -> Update {
        let session = Session::guest(crate::fair::sign::Identity::generate(), [2; 32]);
        Update::Snapshot(Box::new(session), now)
    }

    /// What the window reads: refusals by their text, snapshots by their clock.
    fn read(updates: &Updates) -> Vec<String> {
        std::iter::from_fn(|| updates.try_recv())
            .map(|u| match u {
                Update::Refused(why) => why,
                Update::Snapshot(_, now) => format!("snapshot {now}"),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_snapshot_the_window_has_not_taken_is_replaced_by_the_newest_and_nothing_else_is() {
        let woken = Arc::new(AtomicU32::new(0));
        let counter = woken.clone();
        let (watch, updates) = Watch::new(Arc::new(move || {
            counter.fetch_add(1, Ordering::Relaxed);
        }));
        watch.send(Update::Refused("a".into()));
        watch.send(snapshot(1));
        watch.send(Update::Refused("b".into()));
        for now in 2..1_000 {
            watch.send(snapshot(now));
        }
        watch.send(Update::Refused("c".into()));
        assert_eq!(read(&updates), ["a", "snapshot 999", "b", "c"]);
        // Every update woke the window, a replaced snapshot too.
        assert_eq!(woken.load(Ordering::Relaxed), 1_002);
        // Taken: the next snapshot is news again.
        watch.send(snapshot(1_000));
        assert_eq!(
            updates
                .recv_timeout(std::time::Duration::from_secs(5))
                .map(|u| matches!(u, Update::Snapshot(_, 1_000))),
            Some(true)
        );
        assert!(updates.try_recv().is_none());
    }
}
