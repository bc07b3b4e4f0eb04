//! What the sea-battle screens play against: the computer in this process, or a friend over the network; one face for both, and the stage the table is at.

use super::super::i18n::{Arg, Text};
use crate::driver::{Command, Event, Local, Millis, Remote, Session};
use crate::rules::Variant;

/// The table behind the screen: against the computer in memory, or with a friend
/// over the network.
#[derive(Debug)]
pub(super) enum Driver {
    Local(Box<Local>),
    Remote(Box<Remote>),
}

impl Driver {
    pub(super) fn session(&self) -> &Session {
        match self {
            Self::Local(local) => local.session(),
            Self::Remote(remote) => remote
                .session()
                .expect("a network table is shown only once its session came"),
        }
    }

    pub(super) fn command(
        &mut self,
        now: Millis,
        command: Command,
    ) -> Result<(), crate::driver::CommandError> {
        match self {
            Self::Local(local) => local.command(now, command),
            Self::Remote(remote) => remote.command(command),
        }
    }

    pub(super) fn poll_event(&mut self) -> Option<Event> {
        match self {
            Self::Local(local) => local.poll_event(),
            Self::Remote(remote) => remote.poll_event(),
        }
    }

    /// Lets time pass (a computer table) or takes in the network's news; when the
    /// table next wants a look, if at a known time.
    pub(super) fn tick(&mut self, now: Millis) -> Option<Millis> {
        match self {
            Self::Local(local) => local.tick(now),
            Self::Remote(remote) => {
                remote.poll();
                None
            }
        }
    }

    /// The session clock's time (the window's for a computer table, the network
    /// side's for a friend's).
    pub(super) fn clock(&self, now: Millis) -> Millis {
        match self {
            Self::Local(_) => now,
            Self::Remote(remote) => remote.now(),
        }
    }

    pub(super) fn remote_ref(&self) -> Option<&Remote> {
        match self {
            Self::Local(_) => None,
            Self::Remote(remote) => Some(remote),
        }
    }

    pub(super) fn remote(&mut self) -> Option<&mut Remote> {
        match self {
            Self::Local(_) => None,
            Self::Remote(remote) => Some(remote),
        }
    }
}

/// The connection's state in words.
pub(super) fn link_line(t: &Text, link: Option<&crate::driver::Link>) -> String {
    use crate::driver::{Link, Route, Straight};
    t.get(match link {
        None | Some(Link::Connecting) => "link-connecting",
        Some(Link::Waiting) => "link-waiting",
        Some(Link::Route(Route::Direct(_, Straight::Address))) => "link-direct",
        Some(Link::Route(Route::Direct(_, Straight::Punched))) => "link-direct-punched",
        Some(Link::Route(Route::Direct(_, Straight::Mapped))) => "link-direct-upnp",
        Some(Link::Route(Route::Relayed(_, false))) => "link-relayed",
        Some(Link::Route(Route::Relayed(_, true))) => "link-relayed-limited",
        Some(Link::Reconnecting) => "link-reconnecting",
        Some(Link::Gone { claimed: true }) => "link-gone",
        Some(Link::Gone { claimed: false }) => "link-gone-unclaimed",
        Some(Link::Left) => "link-left",
    })
}

/// How a friend beyond this LAN can reach a hosted table, in a line; whether it is a
/// warning (only a friend nearby can join).
pub(super) fn open_line(t: &Text, open: crate::driver::Open) -> (String, bool) {
    use crate::driver::Open;
    match open {
        Open::Searching { public: true } => (t.get("friend-open-searching"), false),
        Open::Searching { public: false } => (t.get("friend-open-asking-router"), false),
        Open::Anywhere { router: false } => (t.get("friend-open-anywhere"), false),
        Open::Anywhere { router: true } => (t.get("friend-open-router"), false),
        Open::InviteAnywhere => (t.get("friend-open-invite-only"), false),
        Open::Relayed(relays) => (
            t.with(
                "friend-open-relayed",
                &[(
                    "relays",
                    Arg::from(u32::try_from(relays).unwrap_or(u32::MAX)),
                )],
            ),
            false,
        ),
        Open::Nearby { searched: true } => (t.get("friend-open-no-relay"), true),
        Open::Nearby { searched: false } => (t.get("friend-open-off"), true),
    }
}

/// What the table waits for, as the screen shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    Placing,
    Waiting,
    Battle,
    Over,
}

pub(super) fn stage(session: &Session) -> Stage {
    let table = session.table();
    match table.game() {
        Some(game) if game.is_over() || table.ended() => Stage::Over,
        Some(_) => Stage::Battle,
        None if table.game_id().is_some() && !table.committed(session.seat()) => Stage::Placing,
        None => Stage::Waiting,
    }
}

/// The variant of `driver`'s table (Armada until the host's settings say).
pub(super) fn variant_of(driver: &Driver) -> Variant {
    driver
        .session()
        .table()
        .variant()
        .unwrap_or(Variant::Armada)
}

#[cfg(test)]
mod tests {
    use super::super::super::i18n::{Lang, Text};
    use crate::driver::Link;

    /// A friend who is gone is not said to owe a forfeit claim this side never made
    /// (an untimed table whose friend's save broke claims nothing).
    #[test]
    fn a_friend_gone_without_a_claim_is_not_said_to_have_one() {
        for lang in [Lang::En, Lang::Uk, Lang::Ru] {
            let t = Text::new(lang);
            let claimed = super::link_line(&t, Some(&Link::Gone { claimed: true }));
            let unclaimed = super::link_line(&t, Some(&Link::Gone { claimed: false }));
            assert_ne!(claimed, unclaimed, "{lang:?}");
            assert_eq!(unclaimed, t.get("link-gone-unclaimed"), "{lang:?}");
            assert_ne!(unclaimed, "link-gone-unclaimed", "{lang:?}: not translated");
        }
    }
}
