//! A table with a friend over the network, for the window: the network side (node,
//! table, reconnects, saving) runs on a thread of its own; the window sends it
//! commands and reads back snapshots of the session, its events and the link's state.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use armada_proto::GameKind;
use tokio::sync::mpsc;

use super::game::Game;
use super::{Link, Open, Player, Seating, Update, Watch, WindowSide};
use crate::net::Config;
use crate::session::archimedes::Session as ArchSession;
use crate::session::icehouse::Session as IceSession;
use crate::session::{CommandError, Millis, Session};
use crate::store::Store;

/// The window's end of a network table.
#[derive(Debug)]
pub struct Remote<G: Game = Session> {
    commands: mpsc::Sender<G::Command>,
    updates: super::watch::Updates<G>,
    session: Option<G>,
    /// The table clock's time of the latest snapshot, and when it came.
    clock: (Millis, Instant),
    events: VecDeque<G::Event>,
    invite: Option<String>,
    code: Option<String>,
    /// Short codes withdrawn after wrong tries.
    withdrawn: u32,
    /// How a friend beyond this LAN can reach the hosted table.
    open: Option<Open>,
    link: Option<Link>,
    refused: Option<String>,
    ended: Option<Result<bool, String>>,
    /// Stops the network side without leaving the table (the window closes; the
    /// table is saved after every message and resumes from the home screen).
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    /// The player left the table: the network side says goodbye and ends by itself.
    left: bool,
}

/// How the network side of a table starts.
enum Start {
    /// Opens a table with these settings; the timer switch as it stands at first.
    Host(armada_proto::Settings, bool),
    Join(String),
    /// A saved table, played on from where it was.
    Resume([u8; 32]),
}

impl<G: Game> Remote<G> {
    /// Opens a table with `settings` and the timer switch at `timer`; the invite
    /// comes as soon as the node is up.
    pub fn host(
        store: Store,
        config: Config,
        settings: armada_proto::Settings,
        timer: bool,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        Self::start(store, config, Start::Host(settings, timer), wake)
    }

    /// Joins the table of `invite` (a link or a code).
    pub fn join(
        store: Store,
        config: Config,
        invite: &str,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        Self::start(store, config, Start::Join(invite.trim().to_owned()), wake)
    }

    /// A saved friend table, played on: the guest dials the host again, the host
    /// listens where it did.
    pub fn resume(
        store: Store,
        config: Config,
        id: &[u8; 32],
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        Self::start(store, config, Start::Resume(*id), wake)
    }

    fn start(
        store: Store,
        config: Config,
        start: Start,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        let (remote, seating, stopped) = Self::parts(store, config, wake);
        let watch = seating.watch.clone();
        std::thread::spawn(move || {
            let result = runtime().and_then(|runtime| {
                runtime.block_on(async move {
                    let mut say = |line: &str| tracing::info!(line, "table");
                    let table = async {
                        match start {
                            Start::Host(settings, timer) => {
                                super::host(seating, settings, timer, false, &mut say).await
                            }
                            Start::Join(invite) => {
                                super::join(seating, &invite, false, &mut say).await
                            }
                            Start::Resume(id) => super::resume(seating, id, &mut say).await,
                        }
                    };
                    until_stopped(table, stopped).await
                })
            });
            if let Some(watch) = watch {
                ended(&watch, result);
            }
        });
        remote
    }

    /// The window's end of a table, and the seating and stop its network side
    /// plays with.
    fn parts(
        store: Store,
        config: Config,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> (Self, Seating<G>, tokio::sync::oneshot::Receiver<()>) {
        let (watch, updates) = Watch::new(wake);
        let (commands, inbox) = mpsc::channel(64);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let seating = Seating {
            config,
            store,
            player: Player::Window(WindowSide::new(inbox)),
            watch: Some(watch),
            report: None,
            status: None,
        };
        let remote = Self {
            commands,
            updates,
            session: None,
            clock: (0, Instant::now()),
            events: VecDeque::new(),
            invite: None,
            code: None,
            withdrawn: 0,
            open: None,
            link: Some(Link::Connecting),
            refused: None,
            ended: None,
            stop: Some(stop),
            left: false,
        };
        (remote, seating, stopped)
    }

    /// The player leaves the table for good (the other side is told; a game under
    /// way is resigned).
    pub fn leave(&mut self) {
        self.left = true;
        let _ = self.commands.try_send(G::leave("the player left".into()));
    }

    /// Takes in what the network side sent since the last call.
    pub fn poll(&mut self) {
        while let Some(update) = self.updates.try_recv() {
            self.take(update);
        }
    }

    /// Waits up to `timeout` for news from the network side and takes it in;
    /// whether any came. For a caller with nothing to do until then (a test
    /// stepping the window): it wakes at the news, not at the end of a fixed pause.
    pub fn wait(&mut self, timeout: std::time::Duration) -> bool {
        match self.updates.recv_timeout(timeout) {
            Some(update) => {
                self.take(update);
                self.poll();
                true
            }
            None => false,
        }
    }

    fn take(&mut self, update: Update<G>) {
        match update {
            Update::Invite(link) => self.invite = Some(link),
            Update::Code { code, withdrawn } => {
                self.withdrawn += u32::from(withdrawn);
                self.code = code;
            }
            Update::Open(open) => self.open = Some(open),
            Update::Link(link) => self.link = Some(link),
            Update::Snapshot(session, now) => {
                self.session = Some(*session);
                self.clock = (now, Instant::now());
            }
            Update::Event(event) => self.events.push_back(event),
            Update::Refused(why) => self.refused = Some(why),
            Update::Ended(result) => self.ended = Some(result),
        }
    }

    /// Whether the table has a game open (both players are in), so it can be shown.
    pub fn ready(&self) -> bool {
        self.session.as_ref().is_some_and(G::game_open)
    }

    /// The session as last reported (once [`Remote::ready`], always there).
    pub fn session(&self) -> Option<&G> {
        self.session.as_ref()
    }

    /// The table clock now, for showing deadlines.
    pub fn now(&self) -> Millis {
        self.clock.0 + self.clock.1.elapsed().as_millis() as Millis
    }

    pub fn invite(&self) -> Option<&str> {
        self.invite.as_deref()
    }

    /// The hosted table's short code, while it has one.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// How many of the table's short codes were withdrawn after wrong tries.
    pub fn codes_withdrawn(&self) -> u32 {
        self.withdrawn
    }

    /// How a friend beyond this LAN can reach the hosted table, once its host knows.
    pub fn open(&self) -> Option<Open> {
        self.open
    }

    pub fn link(&self) -> Option<&Link> {
        self.link.as_ref()
    }

    /// Why the last command was refused, once.
    pub fn take_refused(&mut self) -> Option<String> {
        self.refused.take()
    }

    /// How the network side ended, if it did.
    pub fn ended(&self) -> Option<&Result<bool, String>> {
        self.ended.as_ref()
    }

    pub fn poll_event(&mut self) -> Option<G::Event> {
        self.events.pop_front()
    }

    /// Hands a command to the network side (it answers a refusal with
    /// [`Remote::take_refused`]).
    pub fn command(&mut self, command: G::Command) -> Result<(), CommandError> {
        self.commands
            .try_send(command)
            .map_err(|_| CommandError::NotNow("the table is closed"))
    }
}

impl<G: Game> Drop for Remote<G> {
    fn drop(&mut self) {
        // Dropped without leaving (the window closes): stop the network side before
        // its command channel closes, which it would take for a goodbye.
        if !self.left
            && let Some(stop) = self.stop.take()
        {
            let _ = stop.send(());
        }
    }
}

/// The network side's runtime.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}

/// Plays `table` until it ends or the window stops it (`None`).
async fn until_stopped<G: Game>(
    table: impl std::future::Future<Output = anyhow::Result<super::TableOutcome<G>>>,
    stopped: tokio::sync::oneshot::Receiver<()>,
) -> anyhow::Result<Option<super::TableOutcome<G>>> {
    // The stop first: a window that closes also closes the command channel, which
    // the table would take for the player leaving. (A stop dropped unsent, after
    // `leave`, stops nothing.)
    tokio::select! {
        biased;
        Ok(()) = stopped => Ok(None),
        outcome = table => outcome.map(Some),
    }
}

/// Tells the window how the network side ended (nothing if it was stopped).
fn ended<G: Game>(watch: &Watch<G>, result: anyhow::Result<Option<super::TableOutcome<G>>>) {
    match result {
        Ok(Some(outcome)) => watch.send(Update::Ended(Ok(outcome.finished))),
        Ok(None) => {}
        Err(error) => watch.send(Update::Ended(Err(format!("{error:#}")))),
    }
}

/// A friend's table on its way to the window, of any game.
#[derive(Debug)]
pub enum Pending {
    Sea(Box<Remote>),
    Archimedes(Box<Remote<ArchSession>>),
    Icehouse(Box<Remote<IceSession>>),
    /// Joining: the host's settings will say which game the table plays.
    Joining(Joining),
}

/// A join whose game is not known yet.
#[derive(Debug)]
pub struct Joining {
    found: std::sync::mpsc::Receiver<Result<Pending, String>>,
    failed: Option<Result<bool, String>>,
    /// The player left before the game was known: a table that opens meanwhile is
    /// left at once (the host is told), not merely stopped.
    left: Arc<std::sync::atomic::AtomicBool>,
    /// Stops the join (the window went home or closed).
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Joining {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// A reached table and what joining it needs, whichever game it turns out to play.
struct Join<'a, H> {
    store: Store,
    config: Config,
    wake: Arc<dyn Fn() + Send + Sync>,
    reached: super::Reached,
    say: super::flows::Say<'a>,
    hand_over: H,
}

impl<H: FnOnce(Pending)> Join<'_, H> {
    /// Joins as game `G`: the window gets its `Remote` (wrapped by `wrap`) at
    /// once, and hears how the table ended once it has.
    async fn play<G: Game>(self, wrap: fn(Box<Remote<G>>) -> Pending) {
        let (remote, seating, stop) = Remote::<G>::parts(self.store, self.config, self.wake);
        let watch = seating.watch.clone();
        (self.hand_over)(wrap(Box::new(remote)));
        let table = super::join_reached(seating, self.reached, self.say);
        let result = Box::pin(until_stopped(table, stop)).await;
        if let Some(watch) = watch {
            ended(&watch, result);
        }
    }
}

/// A friend's table on screen, once both players are in.
#[derive(Debug)]
pub enum Ready {
    Sea(Box<Remote>),
    Archimedes(Box<Remote<ArchSession>>),
    Icehouse(Box<Remote<IceSession>>),
}

impl Pending {
    /// Opens a table with `settings`, of whichever game they name; the timer switch
    /// (the sea battle's) as it stands at first.
    pub fn host(
        store: Store,
        config: Config,
        settings: armada_proto::Settings,
        timer: bool,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        match settings.game {
            GameKind::Archimedes { .. } => {
                Self::Archimedes(Box::new(Remote::host(store, config, settings, timer, wake)))
            }
            GameKind::Icehouse { .. } => {
                Self::Icehouse(Box::new(Remote::host(store, config, settings, timer, wake)))
            }
            GameKind::Armada | GameKind::Classic { .. } => {
                Self::Sea(Box::new(Remote::host(store, config, settings, timer, wake)))
            }
        }
    }

    /// Joins the table of `invite` (a link or a code), whichever game it plays.
    pub fn join(
        store: Store,
        config: Config,
        invite: &str,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        let invite = invite.trim().to_owned();
        let (tx, found) = std::sync::mpsc::channel();
        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        let left = Arc::new(std::sync::atomic::AtomicBool::new(false));
        // The table, handed to the window — or left at once if the player left
        // (or the window went) while it was being reached.
        let hand_over = {
            let left = left.clone();
            move |tx: &std::sync::mpsc::Sender<Result<Pending, String>>, mut pending: Pending| {
                if left.load(std::sync::atomic::Ordering::SeqCst) {
                    pending.leave();
                    return;
                }
                if let Err(std::sync::mpsc::SendError(Ok(mut pending))) = tx.send(Ok(pending)) {
                    pending.leave();
                }
            }
        };
        std::thread::spawn(move || {
            let runtime = match runtime() {
                Ok(runtime) => runtime,
                Err(error) => {
                    let _ = tx.send(Err(format!("{error:#}")));
                    wake();
                    return;
                }
            };
            runtime.block_on(async move {
                let mut say = |line: &str| tracing::info!(line, "table");
                let reached = tokio::select! {
                    biased;
                    _ = &mut stopped => return,
                    reached = super::reach(&store, &config, &invite, false, &mut say) => reached,
                };
                let reached = match reached {
                    Ok(reached) => reached,
                    Err(error) => {
                        let _ = tx.send(Err(format!("{error:#}")));
                        wake();
                        return;
                    }
                };
                let game = reached.game;
                let join = Join {
                    store,
                    config,
                    wake,
                    reached,
                    say: &mut say,
                    hand_over: |pending| hand_over(&tx, pending),
                };
                match game {
                    GameKind::Icehouse { .. } => join.play(Pending::Icehouse).await,
                    GameKind::Archimedes { .. } => join.play(Pending::Archimedes).await,
                    GameKind::Armada | GameKind::Classic { .. } => join.play(Pending::Sea).await,
                }
            });
        });
        Self::Joining(Joining {
            found,
            failed: None,
            left,
            stop: Some(stop),
        })
    }

    /// A saved friend table of `game`, played on.
    pub fn resume(
        store: Store,
        config: Config,
        id: &[u8; 32],
        game: super::TableGame,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        match game {
            super::TableGame::Sea => Self::Sea(Box::new(Remote::resume(store, config, id, wake))),
            super::TableGame::Archimedes => {
                Self::Archimedes(Box::new(Remote::resume(store, config, id, wake)))
            }
            super::TableGame::Icehouse => {
                Self::Icehouse(Box::new(Remote::resume(store, config, id, wake)))
            }
        }
    }

    /// Takes in what the network side sent.
    pub fn poll(&mut self) {
        match self {
            Self::Sea(remote) => remote.poll(),
            Self::Archimedes(remote) => remote.poll(),
            Self::Icehouse(remote) => remote.poll(),
            Self::Joining(joining) => {
                match joining.found.try_recv() {
                    Ok(Ok(pending)) => {
                        // The join's stop now belongs to the table's own.
                        joining.stop = None;
                        *self = pending;
                        self.poll();
                    }
                    Ok(Err(why)) => joining.failed = Some(Err(why)),
                    Err(_) => {}
                }
            }
        }
    }

    /// Waits up to `timeout` for news; whether any came.
    pub fn wait(&mut self, timeout: std::time::Duration) -> bool {
        match self {
            Self::Sea(remote) => remote.wait(timeout),
            Self::Archimedes(remote) => remote.wait(timeout),
            Self::Icehouse(remote) => remote.wait(timeout),
            Self::Joining(joining) => match joining.found.recv_timeout(timeout) {
                Ok(Ok(pending)) => {
                    joining.stop = None;
                    *self = pending;
                    self.poll();
                    true
                }
                Ok(Err(why)) => {
                    joining.failed = Some(Err(why));
                    true
                }
                Err(_) => false,
            },
        }
    }

    /// The table, once both players are in; `self` stays as it was otherwise.
    pub fn take_ready(self) -> Result<Ready, Self> {
        match self {
            Self::Sea(remote) if remote.ready() => Ok(Ready::Sea(remote)),
            Self::Archimedes(remote) if remote.ready() => Ok(Ready::Archimedes(remote)),
            Self::Icehouse(remote) if remote.ready() => Ok(Ready::Icehouse(remote)),
            other => Err(other),
        }
    }

    pub fn invite(&self) -> Option<&str> {
        match self {
            Self::Sea(remote) => remote.invite(),
            Self::Archimedes(remote) => remote.invite(),
            Self::Icehouse(remote) => remote.invite(),
            Self::Joining(_) => None,
        }
    }

    pub fn code(&self) -> Option<&str> {
        match self {
            Self::Sea(remote) => remote.code(),
            Self::Archimedes(remote) => remote.code(),
            Self::Icehouse(remote) => remote.code(),
            Self::Joining(_) => None,
        }
    }

    pub fn codes_withdrawn(&self) -> u32 {
        match self {
            Self::Sea(remote) => remote.codes_withdrawn(),
            Self::Archimedes(remote) => remote.codes_withdrawn(),
            Self::Icehouse(remote) => remote.codes_withdrawn(),
            Self::Joining(_) => 0,
        }
    }

    /// How a friend beyond this LAN can reach the hosted table, once its host knows.
    pub fn open(&self) -> Option<Open> {
        match self {
            Self::Sea(remote) => remote.open(),
            Self::Archimedes(remote) => remote.open(),
            Self::Icehouse(remote) => remote.open(),
            Self::Joining(_) => None,
        }
    }

    pub fn link(&self) -> Option<&Link> {
        match self {
            Self::Sea(remote) => remote.link(),
            Self::Archimedes(remote) => remote.link(),
            Self::Icehouse(remote) => remote.link(),
            Self::Joining(_) => Some(&Link::Connecting),
        }
    }

    /// How the network side ended, if it did.
    pub fn ended(&self) -> Option<&Result<bool, String>> {
        match self {
            Self::Sea(remote) => remote.ended(),
            Self::Archimedes(remote) => remote.ended(),
            Self::Icehouse(remote) => remote.ended(),
            Self::Joining(joining) => joining.failed.as_ref(),
        }
    }

    /// The player leaves for good (a table under way is told).
    pub fn leave(&mut self) {
        match self {
            Self::Sea(remote) => remote.leave(),
            Self::Archimedes(remote) => remote.leave(),
            Self::Icehouse(remote) => remote.leave(),
            Self::Joining(joining) => {
                joining
                    .left
                    .store(true, std::sync::atomic::Ordering::SeqCst);
                // A table handed over already, unread: left too.
                while let Ok(Ok(mut pending)) = joining.found.try_recv() {
                    pending.leave();
                }
            }
        }
    }
}
