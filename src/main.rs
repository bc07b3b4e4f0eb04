//! The `armada` command line: a thin shell over the library; it holds no game rules.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use armada::ai::{Level, SoloGame};
use armada::demo::{Duet, play_levels};
use armada::fair::table::Verdict;
use armada::fair::verify;
use armada::rules::{EndReason, Seat, Variant, render};

/// Armada: a peer-to-peer sea battle for two friends, with proofs instead of a referee.
/// Without a command it opens the window.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// What every network command takes.
#[derive(Debug, clap::Args)]
struct NetArgs {
    /// Listen here (repeatable); default: all interfaces, TCP and QUIC.
    #[arg(long, value_name = "MULTIADDR")]
    listen: Vec<libp2p::Multiaddr>,
    /// No `mDNS` and no `UPnP` (both multicast on the local network).
    #[arg(long)]
    no_discovery: bool,
    /// Where saved games and the identity key live (default: the platform's data directory).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// A computer plays this side: random, easy, medium or hard.
    #[arg(long, value_name = "LEVEL")]
    bot: Option<Level>,
    /// Games to play at the table (Play again in between), then leave.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// A relay to be reachable through (`/ip4/…/tcp/…/p2p/<relay id>`), for a host
    /// behind NAT; the invite then carries the relayed address too.
    #[arg(long, value_name = "MULTIADDR")]
    relay: Option<libp2p::Multiaddr>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Measures the window: time to the first frame, frame CPU time while an air
    /// strike's shells fall, resident memory (needs a display).
    BenchWindow {
        /// Frames a second, as a display's refresh paces them (0: as fast as the
        /// renderer goes, which a server without vsync such as Xvfb otherwise does).
        #[arg(long, default_value_t = 60)]
        fps: u32,
    },
    /// Opens the window (what `armada` alone does).
    Window {
        /// Where saved games, the identity key and the window's preferences live.
        #[arg(long, value_name = "DIR")]
        data_dir: Option<PathBuf>,
    },
    /// Opens a table and prints its invite (a line starting `armada://join/`).
    Host {
        #[command(flatten)]
        net: NetArgs,
        /// Start games without the move timer (a person at the terminal can still
        /// type `timer on` or `timer off` before each start).
        #[arg(long)]
        no_timer: bool,
        /// Classic sea battle on a board of this side (8, 10 or 12): plain shots only.
        #[arg(long, value_name = "SIDE")]
        classic: Option<u8>,
        /// Anyone on the LAN may join without a code (`armada lan` shows the invite).
        #[arg(long)]
        lan: bool,
        /// How long (seconds, 0–600) a player may be gone past a deadline before the
        /// other may claim the game as a forfeit.
        #[arg(long, value_name = "SECONDS", default_value_t = 30,
              value_parser = clap::value_parser!(u32).range(0..=600))]
        grace: u32,
    },
    /// Lists the tables open on the LAN (found by `mDNS`).
    Lan {
        /// Listen here (repeatable); default: all interfaces, TCP and QUIC.
        #[arg(long, value_name = "MULTIADDR")]
        listen: Vec<libp2p::Multiaddr>,
        /// Seconds to look around before listing.
        #[arg(long, default_value_t = 3)]
        wait: u64,
        /// Where the identity key lives.
        #[arg(long, value_name = "DIR")]
        data_dir: Option<PathBuf>,
    },
    /// Joins a table from its invite (the link or the code).
    Join {
        #[command(flatten)]
        net: NetArgs,
        invite: String,
        /// Dial only the invite's direct addresses, never through a relay (behind
        /// NAT this fails: the relay is how hole punching starts).
        #[arg(long)]
        no_relay: bool,
    },
    /// Continues an interrupted table (the newest saved one, or `--table ID`) with the
    /// computer level and games saved with it.
    Resume {
        #[command(flatten)]
        net: NetArgs,
        /// The table's id (64 hex digits), as in its saved files' names.
        #[arg(long)]
        table: Option<String>,
    },
    /// Two random computer players play a whole game; every action and both boards are printed.
    Demo {
        /// Seed for placement and play: the same seed plays the same game.
        #[arg(long)]
        seed: Option<u64>,
        /// Classic sea battle: plain shots only.
        #[arg(long)]
        classic: bool,
        /// Board side for classic mode: 8, 10 or 12.
        #[arg(long, default_value_t = 10, requires = "classic")]
        size: u8,
        /// Save the signed transcript here, for `armada verify`.
        #[arg(long, value_name = "FILE")]
        transcript: Option<PathBuf>,
    },
    /// Measures computer players: shots to sink a hidden fleet, or one level against another.
    ///
    /// With `--level`, each game is one player against a hidden fleet (uniformly random,
    /// or placed as `--placement` places it; no opponent moving); the last line reads
    /// `level=… games=… mean_shots=… se=… p50_ms=… p99_ms=…`.
    /// With `--match A:B`, A plays B with seats alternating; the last line reads
    /// `match=A:B games=… wins=… losses=… draws=… win_rate=…`.
    BenchAi {
        /// The level to measure alone: random, easy, medium or hard.
        #[arg(long, conflicts_with = "versus")]
        level: Option<Level>,
        /// Hide the fleets as this level places its own (hard keeps tight rings);
        /// uniformly random without it.
        #[arg(long, requires = "level")]
        placement: Option<Level>,
        /// Two levels to play against each other, as A:B.
        #[arg(long = "match", value_name = "A:B")]
        versus: Option<String>,
        /// How many games.
        #[arg(long, default_value_t = 1000)]
        games: u32,
        /// Classic 10×10 (plain shots only) instead of Armada.
        #[arg(long)]
        classic: bool,
        /// Seed for fleets and choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Measures network play on loopback: libp2p ping, a move's round trip, connect
    /// times, a whole bot game. The last line reads
    /// `ping_rtt_us=… move_rtt_us=… ratio=… quic_connect_ms=… game_ms=…`.
    BenchNet,
    /// Relays for players who cannot reach each other directly (any player can run
    /// one); prints the addresses to give them as `--relay`.
    Relay {
        /// Listen here (repeatable); default: TCP and QUIC port 4001 on all interfaces.
        #[arg(long, value_name = "MULTIADDR")]
        listen: Vec<libp2p::Multiaddr>,
        /// Where the relay's identity key lives.
        #[arg(long, value_name = "DIR")]
        data_dir: Option<PathBuf>,
        /// Accepted like every network command's; a relay never uses `mDNS` or `UPnP`.
        #[arg(long)]
        no_discovery: bool,
    },
    /// Re-checks a saved game offline: every answer, every proof, both reveals.
    ///
    /// Exit codes: 0 complete and honest; 1 a lie proven; 2 unreadable or malformed;
    /// 3 incomplete (no reveal, or a forfeit claimed).
    Verify {
        /// Print the game record as one JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// The transcript file.
        file: PathBuf,
    },
}

fn main() -> ExitCode {
    started();
    match run(&Cli::parse()) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("armada: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<u8> {
    let Some(command) = &cli.command else {
        return Ok(armada::ui::run(armada::store::Store::open(None).ok()));
    };
    match command {
        Command::BenchWindow { fps } => bench_window(*fps),
        Command::Window { data_dir } => Ok(armada::ui::run(
            armada::store::Store::open(data_dir.as_deref()).ok(),
        )),
        Command::Lan {
            listen,
            wait,
            data_dir,
        } => lan(listen, *wait, data_dir.as_deref()),
        Command::Host {
            net,
            no_timer,
            classic,
            lan,
            grace,
        } => {
            let settings = table_settings(*classic, *grace)?;
            network(net, |seating, say| {
                Box::pin(armada::net::host(seating, settings, !*no_timer, *lan, say))
            })
        }
        Command::BenchNet => bench_net(),
        Command::Relay {
            listen, data_dir, ..
        } => relay(listen, data_dir.as_deref()),
        Command::Resume { net, table } => {
            let table = table.clone();
            network(net, move |seating, say| {
                Box::pin(async move { armada::net::resume(seating, table.as_deref(), say).await })
            })
        }
        Command::Join {
            net,
            invite,
            no_relay,
        } => {
            let (invite, direct_only) = (invite.clone(), *no_relay);
            network(net, move |seating, say| {
                Box::pin(async move { armada::net::join(seating, &invite, direct_only, say).await })
            })
        }
        Command::Demo {
            seed,
            classic,
            size,
            transcript,
        } => {
            let variant = if *classic {
                Variant::classic(*size)?
            } else {
                Variant::Armada
            };
            let seed = seed.unwrap_or_else(rand::random);
            run_demo(variant, seed, transcript.as_deref())?;
            Ok(0)
        }
        Command::BenchAi {
            level,
            versus,
            games,
            classic,
            seed,
            placement,
        } => bench_ai(
            *level,
            versus.as_deref(),
            *games,
            *classic,
            *seed,
            *placement,
        ),
        Command::Verify { json, file } => {
            let bytes = match std::fs::read(file) {
                Ok(bytes) => bytes,
                Err(error) => {
                    eprintln!("armada: cannot read {}: {error}", file.display());
                    return Ok(2);
                }
            };
            let report = verify::verify(&bytes);
            if *json {
                emit(&format!("{:#}\n", report.to_json()));
            } else {
                emit(&report.to_text());
            }
            Ok(report.outcome.exit_code())
        }
    }
}

/// A new table's settings: Armada or classic of a side, the absent player's grace in
/// seconds.
fn table_settings(classic: Option<u8>, grace: u32) -> Result<armada_proto::Settings> {
    let variant = match classic {
        Some(side) => Variant::classic(side)?,
        None => Variant::Armada,
    };
    Ok(armada::session::settings(variant, grace * 1000))
}

/// `armada bench-window`: the window's first frame, frames during an air strike,
/// memory; the last line carries the figures.
fn bench_window(fps: u32) -> Result<u8> {
    let dir = tempfile::tempdir()?;
    let store = armada::store::Store::open(Some(dir.path()))?;
    let figures = armada::ui::bench(store, started(), fps)?;
    let stats = |v: &[f64]| {
        let mut sorted = v.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
        (at(0.5), at(0.99))
    };
    let (cpu_p50, cpu_p99) = stats(&figures.frame_cpu_ms);
    let (wall_p50, wall_p99) = stats(&figures.frame_wall_ms);
    let (show_p50, show_p99) = stats(&figures.show_ms);
    println!(
        "fps={fps} frames={} first_frame_ms={:.0} frame_cpu_p50_ms={cpu_p50:.2} frame_cpu_p99_ms={cpu_p99:.2} \
         frame_wall_p50_ms={wall_p50:.2} frame_wall_p99_ms={wall_p99:.2} show_p50_ms={show_p50:.2} \
         show_p99_ms={show_p99:.2} rss_mib={:.0} peak_rss_mib={:.0} weapons={}",
        figures.frame_cpu_ms.len(),
        figures.first_frame_ms,
        figures.rss_mib,
        figures.peak_rss_mib,
        figures.weapons
    );
    Ok(0)
}

/// When the process started (as near as `main` knows).
fn started() -> std::time::Instant {
    *STARTED.get_or_init(std::time::Instant::now)
}

static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// `armada bench-ai`: one level alone, or two against each other.
fn bench_ai(
    level: Option<Level>,
    versus: Option<&str>,
    games: u32,
    classic: bool,
    seed: u64,
    placement: Option<Level>,
) -> Result<u8> {
    let variant = if classic {
        Variant::classic(10)?
    } else {
        Variant::Armada
    };
    anyhow::ensure!(games > 0, "--games must be at least 1");
    match (level, versus) {
        (Some(level), None) => {
            bench_level(
                level,
                placement.unwrap_or(Level::Random),
                variant,
                games,
                seed,
            );
        }
        (None, Some(pair)) => {
            let (a, b) = pair
                .split_once(':')
                .context("--match takes A:B, like hard:medium")?;
            let levels = [
                a.parse::<Level>().map_err(anyhow::Error::msg)?,
                b.parse::<Level>().map_err(anyhow::Error::msg)?,
            ];
            bench_match(levels, variant, games, seed);
        }
        _ => anyhow::bail!("say --level L or --match A:B"),
    }
    Ok(0)
}

/// `armada lan`: the tables open on the LAN, one line each.
fn lan(listen: &[libp2p::Multiaddr], wait: u64, data_dir: Option<&std::path::Path>) -> Result<u8> {
    let store = armada::store::Store::open(data_dir)?;
    let identity = store.identity()?;
    let config = armada::net::Config {
        listen: listen.to_vec(),
        discovery: true,
        ping_every: None,
        relay: None,
    };
    let tables = tokio::runtime::Runtime::new()?.block_on(async {
        let node = armada::net::Node::start(&identity, config).await?;
        anyhow::Ok(armada::net::list_lan(&node, std::time::Duration::from_secs(wait)).await)
    })?;
    if tables.is_empty() {
        emit("no open tables found on the LAN\n");
    }
    for (peer, offer) in tables {
        let game = match offer.game {
            armada_proto::GameKind::Armada => "Armada".to_string(),
            armada_proto::GameKind::Classic { side } => format!("classic {side}×{side}"),
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

fn relay(listen: &[libp2p::Multiaddr], data_dir: Option<&std::path::Path>) -> Result<u8> {
    let store = armada::store::Store::open(data_dir)?;
    let identity = store.identity()?;
    let mut say = |line: &str| emit(&format!("{line}\n"));
    tokio::runtime::Runtime::new()?.block_on(armada::net::run_relay(
        &identity,
        listen.to_vec(),
        &mut say,
    ))?;
    Ok(0)
}

fn bench_net() -> Result<u8> {
    let figures = tokio::runtime::Runtime::new()?.block_on(armada::net::bench_net())?;
    let us = |d: std::time::Duration| d.as_secs_f64() * 1e6;
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    emit(&format!(
        "tcp_connect_ms={:.2} moves={}\nping_rtt_us={:.0} move_rtt_us={:.0} ratio={:.2} quic_connect_ms={:.2} game_ms={:.0}\n",
        ms(figures.tcp_connect),
        figures.moves,
        us(figures.ping_rtt),
        us(figures.move_rtt),
        us(figures.move_rtt) / us(figures.ping_rtt).max(1.0),
        ms(figures.quic_connect),
        ms(figures.game),
    ));
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

type Flow<'a> = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<armada::net::TableOutcome>> + Send + 'a>,
>;

/// Runs a network command on a tokio runtime, printing its lines as they come.
fn network(
    net: &NetArgs,
    flow: impl for<'a> FnOnce(armada::net::Seating, &'a mut (dyn FnMut(&str) + Send)) -> Flow<'a>,
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
        Some(level) => armada::net::Player::bot(level, net.games),
        None => armada::net::Player::Human(armada::net::Human::new(stdin_lines(), net.games)),
    };
    let seating = armada::net::Seating {
        config: armada::net::Config {
            listen: net.listen.clone(),
            discovery: !net.no_discovery,
            ping_every: None,
            relay: net.relay.clone(),
        },
        store: armada::store::Store::open(net.data_dir.as_deref())?,
        player,
        watch: None,
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

fn run_demo(variant: Variant, seed: u64, transcript: Option<&std::path::Path>) -> Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut duet = Duet::new(variant)?;
    anyhow::ensure!(duet.play_game(&mut rng), "the demo game stalled");
    println!("Armada demo: {variant}, seed {seed}; the host moves first.");
    let table = duet.host.table();
    for (n, played) in table.history().iter().enumerate() {
        println!("{:>4}. {:<5} {}", n + 1, played.seat, played.report);
    }
    let game = table.game().context("the game started")?;
    for (seat, fleet) in [
        (Seat::Host, duet.host.fleet()),
        (Seat::Guest, duet.guest.fleet()),
    ] {
        let fleet = fleet.context("both fleets were placed")?;
        println!("\nThe {seat}'s sea, as the {} left it:", seat.other());
        print!("{}", render(Some(fleet), game.chart(seat.other())));
    }
    if let Some(ending) = game.ending() {
        let winner = ending
            .winner
            .map_or_else(|| "nobody".to_owned(), |s| format!("the {s}"));
        let why = match ending.reason {
            EndReason::FleetSunk => "sank the whole enemy fleet",
            EndReason::Resigned => "won by resignation",
            EndReason::DrawAgreed => "agreed a draw",
            EndReason::Forfeit => "won by forfeit",
        };
        println!(
            "\n{} {why} after {} actions.",
            capitalise(&winner),
            game.actions()
        );
    }
    match table.settled() {
        Some(Verdict::Honest(_)) => println!("Both reveals check out: every answer was honest."),
        other => println!("Verdict: {other:?}"),
    }
    if let Some(path) = transcript {
        std::fs::write(path, table.transcript_file())
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!(
            "Transcript saved to {}; check it with `armada verify {}`.",
            path.display(),
            path.display()
        );
    }
    Ok(())
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(at).copied().unwrap_or(0.0)
}

/// The mean of `values` and its standard error.
fn mean_se(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let sd = (values.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    (mean, sd / n.sqrt())
}

fn bench_level(level: Level, placement: Level, variant: Variant, games: u32, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut shots = Vec::with_capacity(games as usize);
    let mut turns = Vec::with_capacity(games as usize);
    let mut times = Vec::new();
    for _ in 0..games {
        let fleet = placement.place(&variant.fleet(), &mut rng);
        let mut game = SoloGame::new(variant, fleet);
        while !game.is_over() {
            let start = std::time::Instant::now();
            let action = level.choose(&game.view(), &mut rng);
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            game.play(action, &mut rng)
                .expect("levels only choose legal actions");
        }
        shots.push(f64::from(game.actions()));
        turns.push(f64::from(game.turns()));
    }
    let (turns_mean, turns_se) = mean_se(&turns);
    let (mean, se) = mean_se(&shots);
    shots.sort_by(f64::total_cmp);
    times.sort_by(f64::total_cmp);
    println!(
        "{variant}: median {} shots, p90 {} shots; {turns_mean:.2} ± {turns_se:.2} turns (actions that passed the turn)",
        percentile(&shots, 0.5),
        percentile(&shots, 0.9)
    );
    println!(
        "level={level} games={games} mean_shots={mean:.2} se={se:.2} p50_ms={:.3} p99_ms={:.3}",
        percentile(&times, 0.5),
        percentile(&times, 0.99)
    );
}

fn bench_match(levels: [Level; 2], variant: Variant, games: u32, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut wins, mut losses, draws) = (0u32, 0u32, 0u32);
    for game in 0..games {
        // Seats alternate: A is the host (and moves first) in even games.
        let a = if game % 2 == 0 {
            Seat::Host
        } else {
            Seat::Guest
        };
        let seated = if a == Seat::Host {
            levels
        } else {
            [levels[1], levels[0]]
        };
        let fleets = seated.map(|level| level.place(&variant.fleet(), &mut rng));
        let record = play_levels(variant, seated, Seat::Host, fleets, &mut rng);
        match record.game.ending().and_then(|e| e.winner) {
            Some(w) if w == a => wins += 1,
            Some(_) => losses += 1,
            None => {}
        }
    }
    let rate = f64::from(wins) / f64::from(games);
    let margin = 1.96 * (rate * (1.0 - rate) / f64::from(games)).sqrt();
    println!(
        "{variant}: 95% interval for the win rate {:.3}–{:.3}",
        rate - margin,
        rate + margin
    );
    println!(
        "match={}:{} games={games} wins={wins} losses={losses} draws={draws} win_rate={rate:.3}",
        levels[0], levels[1]
    );
}

/// Writes to standard output; a reader that went away (`| head`) is not an error.
fn emit(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
