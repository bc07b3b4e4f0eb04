//! What a network table tells a window that plays it: snapshots of the session, its
//! events, how the connection goes, refused commands, and the end.

use std::sync::Arc;
use std::sync::mpsc;

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
    /// The other player stayed away past the grace: a forfeit is claimed.
    Gone,
    /// The other player left the table (its game resigned and settled first).
    Left,
}

/// Where a table sends its updates, and how it wakes the window.
pub struct Watch<G: TableSession = Session> {
    tx: mpsc::Sender<Update<G>>,
    wake: Arc<dyn Fn() + Send + Sync>,
}

impl<G: TableSession> Clone for Watch<G> {
    fn clone(&self) -> Self {
        Self {
            tx: self.tx.clone(),
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
    pub fn new(wake: Arc<dyn Fn() + Send + Sync>) -> (Self, mpsc::Receiver<Update<G>>) {
        let (tx, rx) = mpsc::channel();
        (Self { tx, wake }, rx)
    }

    /// Sends `update` (dropped if the window is gone) and wakes the window.
    pub fn send(&self, update: Update<G>) {
        let _ = self.tx.send(update);
        (self.wake)();
    }
}
