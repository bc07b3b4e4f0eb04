//! The network commands' shell: a tokio runtime, typed moves from standard input,
//! lines printed as they come; `lan` and `relay`.

use anyhow::Result;

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
/// hold up the table).
fn stdin_lines() -> tokio::sync::mpsc::Receiver<String> {
    let (tx, rx) = tokio::sync::mpsc::channel(16);
    std::thread::spawn(move || {
        for line in std::io::stdin().lines().map_while(Result::ok) {
            if tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    rx
}

pub type Flow<'a> = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<armada::driver::TableOutcome>> + Send + 'a>,
>;

/// Runs a network command on a tokio runtime, printing its lines as they come.
pub fn network(
    net: &NetArgs,
    flow: impl for<'a> FnOnce(armada::driver::Seating, &'a mut (dyn FnMut(&str) + Send)) -> Flow<'a>,
) -> Result<u8> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ARMADA_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    // Without --bot a person plays, typing moves (a resumed table keeps the computer
    // level saved with it).
    let player = match net.bot {
        Some(level) => armada::driver::Player::bot(level, net.games),
        None => armada::driver::Player::Human(armada::driver::Human::new(stdin_lines(), net.games)),
    };
    let seating = armada::driver::Seating {
        config: armada::driver::Config {
            listen: net.listen.clone(),
            discovery: !net.no_discovery,
            ping_every: None,
            relay: net.relay.clone(),
            public: net.public.public(),
        },
        store: armada::driver::Store::open(net.data_dir.as_deref())?,
        player,
        watch: None,
        report: Some(Box::new(super::report::report)),
    };
    let runtime = tokio::runtime::Runtime::new()?;
    let mut say = |line: &str| emit(&format!("{line}\n"));
    let outcome = runtime.block_on(flow(seating, &mut say))?;
    let table = outcome.session.table();
    let score = outcome.session.score();
    emit(&format!(
        "table over: {} game(s); score host {} – guest {}\n",
        table.game_number().map_or(0, |n| n + 1),
        f64::from(score[0]) / 2.0,
        f64::from(score[1]) / 2.0
    ));
    Ok(u8::from(!outcome.finished))
}
