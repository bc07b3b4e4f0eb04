//! Playing a network table across broken links: the stream played while the connection's route is shown and other streams are answered, reconnecting, and the deadlines that run meanwhile.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Where a table's events go: the shell's report (the command line prints them),
/// told whether a person at the terminal plays this side.
pub type Report<G = Session> = Box<dyn FnMut(&G, &<G as TableSession>::Event, bool) + Send + Sync>;

/// The shell's word on where a table's game stands, for a person coming back to it.
pub type Status<G = Session> = Box<dyn Fn(&G) + Send + Sync>;

/// The shell's report, and whether a person at the terminal plays.
struct Reporter<G: Game> {
    report: Option<Report<G>>,
    person: bool,
}

impl<G: Game> Reporter<G> {
    fn event(&mut self, session: &G, event: &G::Event) {
        if let Some(report) = &mut self.report {
            report(session, event, self.person);
        }
    }
}

/// Plays the table across broken links until this side is done, or until its
/// forfeit claim against an absent peer has stood for the grace.
pub(super) async fn run<G: Game>(
    mut session: G,
    mut table: Table,
    mut stream: Option<(Door, bool)>,
    mut seating: Seating<G>,
    say: Say<'_>,
) -> anyhow::Result<TableOutcome<G>> {
    let person = matches!(seating.player, Player::Human(_));
    if person {
        say(G::TYPED_MOVES);
    }
    let mut reporter = Reporter {
        report: seating.report.take(),
        person,
    };
    let mut rng = rand::rngs::ChaCha8Rng::from_rng(&mut rand::rng());
    let mut side = Side {
        session: &mut session,
        player: &mut seating.player,
        store: Some(&seating.store),
        clock: Clock::new(),
        rng: &mut rng,
        watch: seating.watch.clone(),
    };
    // The window shows a table once it has its session: a resumed one may have
    // nothing to say until the other side moves.
    if let Some(watch) = &side.watch {
        watch.send(crate::driver::Update::Snapshot(
            Box::new(side.session.clone()),
            side.clock.now(),
        ));
    }
    // The route last told: a new stream over the same connection (the other side
    // resumed, or came back) does not tell it again.
    let mut shown = None;
    loop {
        let (next, synced) = if let Some(first) = stream.take() {
            first
        } else {
            match reconnect(&mut table, &mut side, say, &mut reporter).await? {
                Reconnected::Stream(stream) => (framed(stream), false),
                Reconnected::Gone => {
                    tell_gone(&side, say);
                    return Ok(TableOutcome {
                        session,
                        finished: false,
                    });
                }
                Reconnected::Left => {
                    // The leave is saved; the other peer learns it if it ever
                    // reconnects, or claims what this side owes.
                    say("you left the table while the link was down");
                    let finished = side.session.settled();
                    return Ok(TableOutcome { session, finished });
                }
            }
        };
        let watching = Watching {
            table: &mut table,
            shown: &mut shown,
        };
        let ended =
            match play_watching(next, synced, watching, &mut side, say, &mut reporter).await? {
                Played::Ended(ended) => ended,
                Played::Again(fresh) => {
                    // The other player is back on a new connection (a resumed process):
                    // the old one is dead even if its transport has not noticed yet.
                    say("the other player is back on a new connection");
                    stream = Some((framed(fresh), false));
                    continue;
                }
                Played::Back => {
                    say("the other player is back: reconnecting");
                    if let Some(watch) = &side.watch {
                        watch.send(crate::driver::Update::Link(
                            crate::driver::Link::Reconnecting,
                        ));
                    }
                    continue;
                }
            };
        match ended {
            Ended::Done => {
                return Ok(TableOutcome {
                    session,
                    finished: true,
                });
            }
            Ended::Link(_) if side.session.left(side.session.seat().other()) => {
                // The other player left the table for good: nothing to reconnect to.
                say("the other player left the table");
                if let Some(watch) = &side.watch {
                    watch.send(crate::driver::Update::Link(crate::driver::Link::Left));
                }
                let finished = side.session.settled();
                return Ok(TableOutcome { session, finished });
            }
            Ended::Link(why) => {
                // A link that comes back is told anew, however it goes.
                shown = None;
                link_lost(&side, &why, say);
            }
        }
    }
}

/// The other player is gone for good: the person and the window are told, and
/// whether this side's forfeit claim stands.
fn tell_gone<R: rand::Rng + ?Sized, G: Game>(side: &Side<'_, R, G>, say: Say<'_>) {
    let claimed = side.session.claimant() == Some(side.session.seat());
    let gone = if side.session.peer_gone().is_some() {
        "the other player is gone (it cannot go on at this table)"
    } else {
        "the other player is gone"
    };
    say(&if claimed {
        format!("{gone}: a forfeit is claimed on the record")
    } else {
        gone.to_owned()
    });
    if let Some(watch) = &side.watch {
        watch.send(crate::driver::Update::Link(crate::driver::Link::Gone {
            claimed,
        }));
    }
}

/// The link broke: what the other player said if it cannot go on is kept (a
/// resumed side then need not wait for it), and the person and the window are told.
fn link_lost<R: rand::Rng + ?Sized, G: Game>(side: &Side<'_, R, G>, why: &str, say: Say<'_>) {
    if let (Some(reason), Some(store)) = (side.session.peer_gone(), side.store) {
        note_gone(store, &side.session.table_id(), reason);
    }
    say(&format!("link lost ({why}); reconnecting"));
    if let Some(watch) = &side.watch {
        watch.send(crate::driver::Update::Link(
            crate::driver::Link::Reconnecting,
        ));
    }
}

/// How playing over one stream ended.
enum Played {
    Ended(Ended),
    /// The other player opened a new stream: play goes on over it.
    Again(libp2p::Stream),
    /// The other player said it is back after a restart: this side dials again.
    Back,
}

/// The table a stream is played at, and the route last told of it.
struct Watching<'a> {
    table: &'a mut Table,
    shown: &'a mut Option<crate::net::Route>,
}

/// The next game stream someone opens to the host; never, for the guest.
async fn next_stream(reach: &mut Reach) -> Option<(PeerId, libp2p::Stream)> {
    match reach {
        Reach::Host(incoming) => incoming.next().await,
        Reach::Guest(_) => std::future::pending().await,
    }
}

/// Plays the table over `stream`, saying how the connection goes whenever that
/// changes (direct, relayed). Meanwhile the host answers every other stream: one
/// from the seated guest replaces this one, anyone else is told the seat is taken.
async fn play_watching<R: rand::Rng + ?Sized, G: Game>(
    stream: Door,
    synced: bool,
    watching: Watching<'_>,
    side: &mut Side<'_, R, G>,
    say: Say<'_>,
    reporter: &mut Reporter<G>,
) -> anyhow::Result<Played> {
    let Watching { table, shown } = watching;
    let mut routes = table.node.routes();
    let peer = table.peer;
    let watch = side.watch.clone();
    let mut tell = |routes: &mut crate::net::Routes, shown: &mut Option<crate::net::Route>| {
        show_route(routes, peer, shown, &mut *say);
        if let (Some(watch), Some(route)) = (&watch, shown.clone()) {
            watch.send(crate::driver::Update::Link(crate::driver::Link::Route(
                route,
            )));
        }
    };
    tell(&mut routes, shown);
    // The host notes where the guest listens, to tell it there if this side is
    // killed and resumed (see `Node::knock`).
    let knock = (side.session.seat() == Seat::Host)
        .then_some(side.store)
        .flatten()
        .map(|store| (store, side.session.table_id()));
    let mut heard = table.node.back_ats();
    heard.mark_changed();
    let mut noted: Option<Vec<String>> = None;
    let mut backs = table.node.backs();
    let mut report = |session: &G, event: &G::Event| reporter.event(session, event);
    let play = play_framed(stream, synced, peer, side, &mut report);
    tokio::pin!(play);
    loop {
        tokio::select! {
            // First: the old stream breaks as the other side's return is heard.
            biased;
            Ok(from) = backs.recv() => {
                if from == peer {
                    return Ok(Played::Back);
                }
            }
            ended = &mut play => return ended.map(Played::Ended),
            Ok(()) = routes.changed() => tell(&mut routes, shown),
            Ok(()) = heard.changed(), if knock.is_some() => {
                let at = heard.borrow_and_update().get(&peer).cloned().unwrap_or_default();
                if let Some((store, id)) = knock {
                    note_knock(store, &id, &at, &mut noted);
                }
            }
            Some((from, fresh)) = next_stream(&mut table.reach) => {
                if from == peer {
                    return Ok(Played::Again(fresh));
                }
                tokio::spawn(refuse(
                    framed(fresh),
                    proto::ErrorCode::NotInvited,
                    TAKEN,
                ));
            }
        }
    }
}

/// Saves `at` as where to tell the guest that a resumed host is back, if it changed
/// since `noted` (a meta that cannot be read or saved keeps the old hint).
fn note_knock(store: &Store, id: &[u8; 32], at: &[Multiaddr], noted: &mut Option<Vec<String>>) {
    let at: Vec<String> = at.iter().map(ToString::to_string).collect();
    if at.is_empty() || noted.as_ref() == Some(&at) {
        return;
    }
    let saved = store.load_meta(id).and_then(|mut meta| {
        if meta.knock != at {
            meta.knock.clone_from(&at);
            store.save_meta(id, &meta)?;
        }
        Ok(())
    });
    match saved {
        Ok(()) => *noted = Some(at),
        Err(error) => tracing::info!(%error, "where the guest listens is not noted"),
    }
}

/// Saves that the other player said it cannot go on at table `id`, so that a
/// resumed side does not wait for it (a meta that cannot be read or saved only
/// leaves the resumed side waiting, as it would without this).
fn note_gone(store: &Store, id: &[u8; 32], reason: &str) {
    let saved = store.load_meta(id).and_then(|mut meta| {
        if meta.gone.is_none() {
            meta.gone = Some(reason.to_owned());
            store.save_meta(id, &meta)?;
        }
        Ok(())
    });
    if let Err(error) = saved {
        tracing::info!(%error, "that the other player cannot go on is not noted");
    }
}

/// What a stranger at a table whose seat is taken is told.
const TAKEN: &str = "that table already has its guest";

/// Says how the connection to `peer` goes, if that changed since `shown`.
fn show_route(
    routes: &mut crate::net::Routes,
    peer: PeerId,
    shown: &mut Option<crate::net::Route>,
    say: &mut (dyn FnMut(&str) + Send),
) {
    let now = routes.borrow_and_update().get(&peer).cloned();
    if let Some(route) = &now
        && now != *shown
    {
        say(&format!("connection: {route}"));
    }
    *shown = now;
}

/// How waiting for the link ended.
enum Reconnected {
    Stream(libp2p::Stream),
    /// The other player stayed away past the grace after this side's forfeit claim.
    Gone,
    /// This side's player left the table meanwhile.
    Left,
}

/// Waits for the link to come back (dialling, as the guest), while the table's
/// deadlines run and the player may still act: what it does is saved and goes out
/// once the link is back.
async fn reconnect<R: rand::Rng + ?Sized, G: Game>(
    table: &mut Table,
    side: &mut Side<'_, R, G>,
    say: Say<'_>,
    reporter: &mut Reporter<G>,
) -> anyhow::Result<Reconnected> {
    let mut backoff = 250;
    let mut claimed_at: Option<tokio::time::Instant> = None;
    let grace = side
        .session
        .grace_ms()
        .unwrap_or(crate::session::GRACE_MS)
        .into();
    loop {
        let me = side.session.seat();
        let claimed = side.session.claimant() == Some(me);
        // The other player said it cannot go on: once its forfeit is claimed (or
        // nothing waits on it), there is nobody to wait for.
        if side.session.peer_gone().is_some() && (claimed || side.session.poll_timeout().is_none())
        {
            return Ok(Reconnected::Gone);
        }
        if claimed {
            let since = *claimed_at.get_or_insert_with(tokio::time::Instant::now);
            if since.elapsed() > Duration::from_millis(grace) {
                return Ok(Reconnected::Gone);
            }
        }
        let deadline = side.session.poll_timeout().map_or_else(
            || tokio::time::Instant::now() + Duration::from_secs(1),
            |at| side.clock.at(at),
        );
        let peer = table.peer;
        let attempt = async {
            match &mut table.reach {
                Reach::Host(incoming) => loop {
                    let Some((from, stream)) = incoming.next().await else {
                        return Err(anyhow::anyhow!("the network stopped"));
                    };
                    if from == peer {
                        return Ok(stream);
                    }
                    tokio::spawn(refuse(framed(stream), proto::ErrorCode::NotInvited, TAKEN));
                },
                Reach::Guest(addrs) => connect(&table.node, peer, addrs, false, &mut *say).await,
            }
        };
        tokio::select! {
            result = attempt => match result {
                Ok(stream) => {
                    say("reconnected");
                    return Ok(Reconnected::Stream(stream));
                }
                Err(error) => {
                    tracing::info!(%error, "not yet");
                    tokio::time::sleep(Duration::from_millis(backoff)).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF_MS);
                }
            },
            () = tokio::time::sleep_until(deadline) => {
                side.session.handle_timeout(side.clock.now());
                side.settle_events(&mut |s: &G, e: &G::Event| reporter.event(s, e))?;
            }
            input = side.player.input() => {
                let left = side.input(input)?;
                side.settle_events(&mut |s: &G, e: &G::Event| reporter.event(s, e))?;
                if left {
                    return Ok(Reconnected::Left);
                }
            }
        }
    }
}
