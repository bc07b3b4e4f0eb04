//! The network commands' shell: a tokio runtime, typed moves from standard input,
//! lines printed as they come; `lan` and `relay`.

use anyhow::Result;

use armada::driver::arch_table::Session as ArchSession;
use armada::driver::ice_table::Session as IceSession;
use armada::driver::{Session, TableGame};

use super::emit;
use crate::NetArgs;

/// `armada lan`: the tables open on the LAN, one line each.
pub fn lan(
    listen: &[libp2p::Multiaddr],
    wait: u64,
    data_dir: Option<&std::path::Path>,
) -> Result<u8> {
    let store = armada::driver::Store::open(data_dir)?;
    let identity = store.identity()?;
    let config = armada::driver::Config {
        listen: listen.to_vec(),
        discovery: true,
        ping_every: None,
        relay: None,
        public: armada::driver::Public::Off,
    };
    let wait = std::time::Duration::from_secs(wait);
    let tables = tokio::runtime::Runtime::new()?
        .block_on(armada::driver::lan_tables(&identity, config, wait))?;
    if tables.is_empty() {
        emit("no open tables found on the LAN\n");
    }
    for (peer, offer) in tables {
        let game = match offer.game {
            armada_proto::GameKind::Armada => "Armada".to_string(),
            armada_proto::GameKind::Classic { side } => format!("classic {side}×{side}"),
            armada_proto::GameKind::Archimedes { side } => format!("Archimedes {side}×{side}"),
            armada_proto::GameKind::Icehouse { .. } => "Icehouse Armada".to_string(),
        };
        match offer.invite {
            Some(invite) => emit(&format!("{game} table of {peer}: {}\n", invite.to_link())),
            None => emit(&format!(
                "{game} table of {peer}: ask the host for the invite\n"
            )),
        }
    }
    Ok(0)
}

pub fn relay(
    listen: &[libp2p::Multiaddr],
    data_dir: Option<&std::path::Path>,
    public: &armada::driver::Public,
    circuit: armada::driver::CircuitLimits,
) -> Result<u8> {
    let store = armada::driver::Store::open(data_dir)?;
    let identity = store.identity()?;
    let mut serving = |address: &libp2p::Multiaddr| emit(&format!("relay at {address}\n"));
    tokio::runtime::Runtime::new()?.block_on(armada::driver::run_relay(
        &identity.keypair(),
        listen.to_vec(),
        public,
        circuit,
        &mut serving,
    ))?;
    Ok(0)
}

/// Standard input, line by line, from a thread of its own (a blocking read must not
/// hold up the table). A line that is not UTF-8 is refused here and the reading goes
/// on: only the end of input (or a failing terminal) ends it.
fn stdin_lines() -> tokio::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = tokio::sync::mpsc::channel(16);
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().split(b'\n').map_while(Result::ok) {
            let Ok(line) = String::from_utf8(line) else {
                eprintln!("armada: that line is not text (not UTF-8); nothing was done");
                continue;
            };
            let line = line.strip_suffix('\r').map(str::to_owned).unwrap_or(line);
            if tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// A game the command line can play at a network table: how it names a computer
/// level, and how it prints the table's events.
pub trait Shell: armada::driver::Game {
    fn bot(level: &str, games: u32) -> Result<Self::Bot>;
    fn report(session: &Self, event: &Self::Event, person: bool);
    /// Where the game stands, for the person at the terminal.
    fn status(session: &Self);
    /// What the score says of a claim it counts before it is settled (nothing where
    /// the score counts settled games only).
    fn claim_counted(_: &Self) -> &'static str {
        ""
    }
}

impl Shell for armada::driver::Session {
    fn bot(level: &str, games: u32) -> Result<Self::Bot> {
        let level = level
            .parse()
            .map_err(|e: String| anyhow::anyhow!("this table plays the sea battle: {e}"))?;
        Ok(armada::driver::Bot::new(level, games))
    }
    fn report(session: &Self, event: &Self::Event, person: bool) {
        super::report::report(session, event, person);
    }
    fn status(session: &Self) {
        super::report::status(session);
    }
    fn claim_counted(session: &Self) -> &'static str {
        super::report::claim_counted(session)
    }
}

impl Shell for armada::driver::arch_table::Session {
    fn bot(level: &str, games: u32) -> Result<Self::Bot> {
        let level = level
            .parse()
            .map_err(|e: String| anyhow::anyhow!("this table plays Archimedes: {e}"))?;
        Ok(armada::driver::ArchimedesBot::new(level, games))
    }
    fn report(session: &Self, event: &Self::Event, person: bool) {
        super::report::report_archimedes(session, event, person);
    }
    fn status(session: &Self) {
        super::report::status_archimedes(session);
    }
}

impl Shell for IceSession {
    fn bot(level: &str, games: u32) -> Result<Self::Bot> {
        let level = level
            .parse()
            .map_err(|e: String| anyhow::anyhow!("this table plays Icehouse Armada: {e}"))?;
        Ok(armada::driver::IcehouseBot::new(level, games))
    }
    fn report(session: &Self, event: &Self::Event, person: bool) {
        super::report::report_icehouse(session, event, person);
    }
    fn status(session: &Self) {
        super::report::status_icehouse(session);
    }
}

/// Where a network command's lines go.
pub type Say<'a> = &'a mut (dyn FnMut(&str) + Send);

/// The seating a network command's arguments ask for, at a table of game `G`:
/// without --bot a person plays, typing moves (a resumed table keeps the computer
/// level saved with it).
pub fn seating<G: Shell>(net: &NetArgs) -> Result<armada::driver::Seating<G>> {
    let person = net.bot.is_none();
    let player = match &net.bot {
        Some(level) => armada::driver::Player::Bot(G::bot(level, net.games)?),
        None => armada::driver::Player::Human(armada::driver::Human::new(stdin_lines(), net.games)),
    };
    Ok(armada::driver::Seating {
        config: config(net),
        store: armada::driver::Store::open(net.data_dir.as_deref())?,
        player,
        watch: None,
        report: Some(Box::new(G::report)),
        status: person.then(|| Box::new(G::status) as armada::driver::Status<G>),
    })
}

/// The network settings the arguments ask for.
pub fn config(net: &NetArgs) -> armada::driver::Config {
    armada::driver::Config {
        listen: net.listen.clone(),
        discovery: !net.no_discovery,
        ping_every: None,
        relay: net.relay.clone(),
        public: net.public.public(),
    }
}

/// Prints how the table went; the exit code (1 if this side's games were not all
/// settled).
pub fn finish<G: Shell>(outcome: &armada::driver::TableOutcome<G>) -> u8 {
    let score = outcome.session.score();
    emit(&format!(
        "table over: {} game(s); score host {} – guest {}{}\n",
        outcome.session.games_begun(),
        f64::from(score[0]) / 2.0,
        f64::from(score[1]) / 2.0,
        G::claim_counted(&outcome.session)
    ));
    u8::from(!outcome.finished)
}

pub type Flow<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = Result<u8>> + 'a>>;

/// What a Ctrl-C leaves behind, for the line that tells the person.
pub enum Kept {
    /// The table being resumed, saved as it was unless its save is damaged.
    Table(armada::driver::Store, [u8; 32]),
    /// A table only if one was begun since: the tables in the store before.
    Begun(armada::driver::Store, Vec<[u8; 32]>),
    /// Nothing of a table (a damaged one is only being reported).
    Nothing,
}

impl Kept {
    /// Watches `store` for a table begun from now on.
    pub fn begun(store: &armada::driver::Store) -> Self {
        Self::Begun(store.clone(), store.tables().unwrap_or_default())
    }

    fn stopped(&self) -> &'static str {
        let saved = match self {
            Self::Table(store, id) => store.looks_intact(id),
            Self::Begun(store, before) => store
                .tables()
                .is_ok_and(|now| now.iter().any(|id| !before.contains(id))),
            Self::Nothing => false,
        };
        if saved {
            "armada: stopped; the table is saved, and `armada resume` continues it"
        } else if matches!(self, Self::Begun(..)) {
            "armada: stopped before a table began; nothing was saved"
        } else {
            "armada: stopped"
        }
    }
}

/// Runs a network command on a tokio runtime, printing its lines as they come;
/// a Ctrl-C stops it and says what `kept` holds.
pub fn network(kept: &Kept, flow: impl for<'a> FnOnce(Say<'a>) -> Flow<'a>) -> Result<u8> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ARMADA_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let runtime = tokio::runtime::Runtime::new()?;
    let mut say = |line: &str| emit(&format!("{line}\n"));
    runtime.block_on(async {
        tokio::select! {
            // The handler is set up when first polled: first, so that a Ctrl-C after
            // the flow's first line is caught, not the process killed outright.
            biased;
            Ok(()) = tokio::signal::ctrl_c() => {
                // Every frame is saved before it is sent or shown, so stopping here
                // loses nothing; the person is told how to come back.
                eprintln!("{}", kept.stopped());
                Ok(130)
            }
            done = flow(&mut say) => done,
        }
    })
}

/// `armada host`: opens a table with `settings` (any game's) and plays it.
pub fn host(net: &NetArgs, settings: armada_proto::Settings, timer: bool, lan: bool) -> Result<u8> {
    fn host_as<G: Shell>(
        net: &NetArgs,
        settings: armada_proto::Settings,
        timer: bool,
        lan: bool,
    ) -> Result<u8> {
        let seating = seating::<G>(net)?;
        network(&Kept::begun(&seating.store), move |say| {
            Box::pin(async move {
                let outcome = armada::driver::host(seating, settings, timer, lan, say).await?;
                Ok(finish(&outcome))
            })
        })
    }
    if matches!(settings.game, armada_proto::GameKind::Archimedes { .. }) {
        host_as::<ArchSession>(net, settings, timer, lan)
    } else if matches!(settings.game, armada_proto::GameKind::Icehouse { .. }) {
        host_as::<IceSession>(net, settings, timer, lan)
    } else {
        host_as::<Session>(net, settings, timer, lan)
    }
}

/// `armada join`: reaches the host, learns the table's game from its settings, and
/// plays it.
pub fn join(net: &NetArgs, invite: String, direct_only: bool) -> Result<u8> {
    async fn join_as<G: Shell>(
        net: &NetArgs,
        reached: armada::driver::Reached,
        say: Say<'_>,
    ) -> Result<u8> {
        let seating = match seating::<G>(net) {
            Ok(seating) => seating,
            Err(error) => {
                // Seated already: the host hears at once that this guest cannot play.
                reached.decline(&format!("{error:#}")).await;
                return Err(error);
            }
        };
        Ok(finish(
            &armada::driver::join_reached(seating, reached, say).await?,
        ))
    }
    // A level no game has is refused before anything is sent.
    if let Some(level) = &net.bot {
        anyhow::ensure!(
            Session::bot(level, 1).is_ok()
                || ArchSession::bot(level, 1).is_ok()
                || IceSession::bot(level, 1).is_ok(),
            "{level:?} is not a computer level (the sea battle: random, easy, medium, hard; \
             Archimedes: easy, medium, hard, insane; Icehouse Armada: easy, medium, hard)"
        );
    }
    let store = armada::driver::Store::open(net.data_dir.as_deref())?;
    let config = config(net);
    let net = net.clone();
    network(&Kept::begun(&store), move |say| {
        Box::pin(async move {
            let reached = armada::driver::reach(&store, &config, &invite, direct_only, say).await?;
            if matches!(reached.game, armada_proto::GameKind::Archimedes { .. }) {
                join_as::<ArchSession>(&net, reached, say).await
            } else if matches!(reached.game, armada_proto::GameKind::Icehouse { .. }) {
                join_as::<IceSession>(&net, reached, say).await
            } else {
                join_as::<Session>(&net, reached, say).await
            }
        })
    })
}

/// `armada resume`: plays on the saved network table `table` (the newest if none),
/// whichever game it plays.
pub fn resume(net: &NetArgs, table: Option<&str>) -> Result<u8> {
    fn resume_as<G: Shell>(net: &NetArgs, id: [u8; 32]) -> Result<u8> {
        let seating = seating::<G>(net)?;
        network(&Kept::Table(seating.store.clone(), id), move |say| {
            Box::pin(async move {
                let outcome = armada::driver::resume(seating, id, say).await?;
                Ok(finish(&outcome))
            })
        })
    }
    let store = armada::driver::Store::open(net.data_dir.as_deref())?;
    let found = match armada::driver::saved_table(&store, table) {
        Ok(found) => found,
        Err(error) => {
            // A damaged meta: nothing is signed from it, and the other player is
            // told at once, as for a damaged session.
            if let Some(damaged) = error.downcast_ref::<armada::driver::Damaged>().cloned() {
                let config = config(net);
                network(&Kept::Nothing, move |say| {
                    Box::pin(async move {
                        armada::driver::tell_damaged(&config, &store, &damaged, say).await?;
                        Ok(0)
                    })
                })?;
            }
            return Err(error);
        }
    };
    match found {
        (id, TableGame::Sea) => resume_as::<Session>(net, id),
        (id, TableGame::Archimedes) => resume_as::<ArchSession>(net, id),
        (id, TableGame::Icehouse) => resume_as::<IceSession>(net, id),
    }
}
