//! The `armada` command line: a thin shell over the library; it holds no game rules.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[cfg(feature = "bench")]
use armada::driver::Level;
use armada::rules::Variant;

mod cli;

use cli::started;

/// The version `--version` prints: the program's, and the wire protocol's it speaks
/// (a test holds it to `armada_proto::PROTOCOL_VERSION`).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (protocol 3)");

/// Armada: a peer-to-peer sea battle for two friends, with proofs instead of a referee.
/// Without a command it opens the window.
#[derive(Debug, Parser)]
#[command(version = VERSION, about, args_conflicts_with_subcommands = true)]
struct Cli {
    /// Where saved games and the identity key live, for the window opened without a
    /// command (default: the platform's data directory).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// Whether to join the public libp2p network, and through whom.
#[derive(Clone, Debug, clap::Args)]
struct PublicArgs {
    /// Join the public network through this peer (`…/p2p/<id>`, repeatable) instead
    /// of the built-in list of well-known public bootstrap peers.
    #[arg(long, value_name = "MULTIADDR", conflicts_with = "no_public")]
    bootstrap: Vec<libp2p::Multiaddr>,
    /// Stay off the public network (no DHT, no relays found there): the LAN, direct
    /// addresses and `--relay` only. `ARMADA_NO_PUBLIC=1` in the environment does
    /// the same where no `--bootstrap` is given.
    #[arg(long)]
    no_public: bool,
}

impl PublicArgs {
    fn public(&self) -> armada::driver::Public {
        if self.no_public {
            armada::driver::Public::Off
        } else if self.bootstrap.is_empty() {
            armada::driver::Public::Builtin.unless_refused()
        } else {
            armada::driver::Public::Bootstrap(self.bootstrap.clone())
        }
    }
}

/// What every network command takes.
#[derive(Clone, Debug, clap::Args)]
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
    /// A computer plays this side: random, easy, medium or hard at the sea battle;
    /// easy, medium, hard or insane at Archimedes.
    #[arg(long, value_name = "LEVEL")]
    bot: Option<String>,
    /// Games to play at the table (Play again in between), then leave.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// A relay to be reachable through (`/ip4/…/tcp/…/p2p/<relay id>`), for a host
    /// behind NAT; the invite then carries the relayed address too.
    #[arg(long, value_name = "MULTIADDR")]
    relay: Option<libp2p::Multiaddr>,
    #[command(flatten)]
    public: PublicArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    #[cfg(feature = "bench")]
    /// Measures the window: time to the first frame, frame CPU time while an air
    /// strike's shells fall, resident memory (needs a display).
    BenchWindow {
        /// Frames a second, as a display's refresh paces them (0: as fast as the
        /// renderer goes, which a server without vsync such as Xvfb otherwise does).
        #[arg(long, default_value_t = 60)]
        fps: u32,
        /// The screen measured: `sea` (weapons animating) or `icehouse` (a step's
        /// ghost, then a broadside's shadow lighting targets, after a moving pointer).
        #[arg(long, default_value = "sea")]
        game: String,
        /// With `--game icehouse`: plays a table and saves pictures of its scenes,
        /// as the real window drew them, into this folder (measures nothing).
        #[arg(long)]
        shots: Option<std::path::PathBuf>,
    },
    /// Opens the window (what `armada` alone does).
    Window {
        /// Where saved games, the identity key and the window's preferences live.
        #[arg(long, value_name = "DIR")]
        data_dir: Option<PathBuf>,
        /// Friend tables listen here (repeatable); default: all interfaces, TCP and QUIC.
        #[arg(long, value_name = "MULTIADDR")]
        listen: Vec<libp2p::Multiaddr>,
        /// Friend tables without `mDNS` and `UPnP` (both multicast on the local
        /// network); the LAN search is off.
        #[arg(long)]
        no_discovery: bool,
        #[command(flatten)]
        public: PublicArgs,
    },
    /// Opens a table and prints its short code to read to a friend (`4821-harbor-anchor`) and its invite (a line starting `armada://join/`).
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
        /// The game: the sea battle (`sea`), `archimedes` (with `--size`) or
        /// `icehouse` (with `--setup`, `--goal`, `--squadron`).
        #[arg(long, default_value = "sea", value_parser = ["sea", "archimedes", "icehouse"])]
        game: String,
        /// Archimedes' board: 6, 8 or 10 (default 8).
        #[arg(long, value_name = "SIDE")]
        size: Option<u8>,
        /// Archimedes and Icehouse Armada: seconds a move (an Icehouse turn, all its
        /// actions; `--turn-time`) may take (10–600; default 60, Icehouse 90) before the
        /// other player may claim the game, after the grace.
        #[arg(long, visible_alias = "turn-time", value_name = "SECONDS",
              value_parser = clap::value_parser!(u32).range(10..=600))]
        move_time: Option<u32>,
        #[command(flatten)]
        ice: IceArgs,
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
    /// Joins a friend's table by the short code they read out (like
    /// `4821-harbor-anchor`) or by its invite (the `armada://join/…` link or its code).
    Join {
        #[command(flatten)]
        net: NetArgs,
        /// The short code (a number and two words) or the invite.
        #[arg(value_name = "CODE")]
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
        /// The game: the sea battle (`sea`), `archimedes` or `icehouse`.
        #[arg(long, default_value = "sea", value_parser = ["sea", "archimedes", "icehouse"])]
        game: String,
        /// Classic sea battle: plain shots only.
        #[arg(long, conflicts_with = "levels")]
        classic: bool,
        /// Board side: 8, 10 or 12 for the classic sea battle (10 if not given);
        /// 6, 8 or 10 for Archimedes (6 if not given).
        #[arg(long)]
        size: Option<u8>,
        /// Archimedes and Icehouse Armada: the two computer levels, first and second
        /// (Archimedes: hard:insane if not given; Icehouse: medium:hard).
        #[arg(long = "match", value_name = "A:B")]
        levels: Option<String>,
        /// Icehouse Armada: the squadron of the first captain (south).
        #[arg(long, default_value = "heavy", value_parser = ["heavy", "light"])]
        squadron: String,
        /// Icehouse Armada: the goal (in a breakthrough, south attacks).
        #[arg(long, default_value = "sink", value_parser = ["sink", "flagship", "breakthrough"])]
        goal: String,
        /// Save the signed transcript here, for `armada verify`.
        #[arg(long, value_name = "FILE")]
        transcript: Option<PathBuf>,
    },
    #[cfg(feature = "bench")]
    /// Measures computer players: shots to sink a hidden fleet, or one level against another.
    ///
    /// With `--level`, each game is one player against a hidden fleet (uniformly random,
    /// or placed as `--placement` places it; no opponent moving); the last line reads
    /// `level=… games=… mean_shots=… se=… p50_ms=… p99_ms=…`.
    /// With `--match A:B`, A plays B with seats alternating; the last line reads
    /// `match=A:B games=… wins=… losses=… draws=… win_rate=…`.
    BenchAi {
        /// The game: the sea battle (`sea`), `archimedes` (with `--size`; its
        /// levels are easy, medium, hard and insane, `--level` playing a random mover)
        /// or `icehouse` (`--match` of easy, medium, hard; it also prints how fast a
        /// line of fire is found under a pointer).
        #[arg(long, default_value = "sea", value_parser = ["sea", "archimedes", "icehouse"])]
        game: String,
        /// The Archimedes board: 6, 8 or 10.
        #[arg(long, default_value_t = 8)]
        size: u8,
        /// The level to measure alone: random, easy, medium or hard (Archimedes:
        /// easy, medium, hard or insane).
        #[arg(long, conflicts_with = "versus")]
        level: Option<String>,
        /// Hide the fleets as this level places its own (hard keeps tight rings);
        /// uniformly random without it.
        #[arg(long, requires = "level")]
        placement: Option<Level>,
        /// With `--level hard --placement hard`: the hunter knows how the hard level
        /// hides its fleet and weighs layouts by it (what that knowledge is worth).
        #[arg(long, requires = "placement")]
        knowing: bool,
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
        /// Icehouse Armada: the goal of every game (sink, flagship, or breakthrough
        /// with the attacker alternating); default sink.
        #[arg(long, value_parser = ["sink", "flagship", "breakthrough"])]
        goal: Option<String>,
    },
    #[cfg(feature = "bench")]
    /// Measures network play on loopback: libp2p ping, a move's round trip, connect
    /// times, a whole bot game. The last line reads
    /// `ping_rtt_us=… move_rtt_us=… ratio=… quic_connect_ms=… game_ms=…`.
    BenchNet,
    /// Relays for players who cannot reach each other directly (any player can run
    /// one), and serves the public DHT and `AutoNAT`; prints the addresses to give
    /// them as `--relay` (or `--bootstrap`).
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
        #[command(flatten)]
        public: PublicArgs,
        /// The longest a circuit through this relay may last, in seconds (when it
        /// ends, players move to a fresh one).
        #[arg(long, value_name = "SECS", default_value_t = 3600)]
        circuit_secs: u64,
        /// The most bytes a circuit may carry each way.
        #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024 * 1024)]
        circuit_bytes: u64,
    },
    /// Prints the completions of `armada`'s commands and options for a shell (bash,
    /// zsh, fish, elvish or powershell), to be saved where that shell looks.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Writes the manual pages into a directory: `armada.1`, and `armada-COMMAND.1`
    /// for each command.
    Man {
        /// The directory (created if missing).
        dir: PathBuf,
    },
    /// Re-checks a saved game offline: every answer, every proof, both reveals.
    ///
    /// Exit codes: 0 complete and honest; 1 a lie proven; 2 unreadable or malformed;
    /// 3 incomplete (a reveal missing, a forfeit claim not yet answered, or any
    /// forfeit at a sea battle; at Archimedes and Icehouse tables a confirmed forfeit
    /// is a complete end).
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
            eprintln!("armada: {}", cli::printable(&format!("{error:#}")));
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<u8> {
    let Some(command) = &cli.command else {
        return Ok(armada::ui::run(
            armada::driver::Store::open(cli.data_dir.as_deref()).ok(),
            None,
        ));
    };
    match command {
        #[cfg(feature = "bench")]
        Command::BenchWindow { fps, game, shots } => {
            cli::bench::bench_window(*fps, game, shots.as_deref())
        }
        Command::Window {
            data_dir,
            listen,
            no_discovery,
            public,
        } => Ok(armada::ui::run(
            armada::driver::Store::open(data_dir.as_deref()).ok(),
            Some(window_net(listen, *no_discovery, public)),
        )),
        Command::Lan {
            listen,
            wait,
            data_dir,
        } => cli::net::lan(listen, *wait, data_dir.as_deref()),
        command @ Command::Host { .. } => host(command),
        #[cfg(feature = "bench")]
        Command::BenchNet => cli::bench::bench_net(),
        Command::Relay {
            listen,
            data_dir,
            public,
            circuit_secs,
            circuit_bytes,
            ..
        } => cli::net::relay(
            listen,
            data_dir.as_deref(),
            &public.public(),
            armada::driver::CircuitLimits {
                duration: std::time::Duration::from_secs(*circuit_secs),
                bytes: *circuit_bytes,
            },
        ),
        Command::Resume { net, table } => cli::net::resume(net, table.as_deref()),
        Command::Join {
            net,
            invite,
            no_relay,
        } => cli::net::join(net, invite.clone(), *no_relay),
        command @ Command::Demo { .. } => demo(command),
        #[cfg(feature = "bench")]
        command @ Command::BenchAi { .. } => bench_ai(command),
        Command::Verify { json, file } => Ok(cli::verify(file, *json)),
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(*shell, &mut command, "armada", &mut std::io::stdout());
            Ok(0)
        }
        Command::Man { dir } => {
            std::fs::create_dir_all(dir)?;
            clap_mangen::generate_to(<Cli as clap::CommandFactory>::command(), dir)?;
            Ok(0)
        }
    }
}

/// How the window's friend tables listen and find peers, as `armada window` is told.
fn window_net(
    listen: &[libp2p::Multiaddr],
    no_discovery: bool,
    public: &PublicArgs,
) -> armada::driver::Config {
    armada::driver::Config {
        listen: listen.to_vec(),
        discovery: !no_discovery,
        public: public.public(),
        ..armada::driver::Config::default()
    }
}

/// `armada host`: a new table of the game and settings the arguments ask for.
fn host(command: &Command) -> Result<u8> {
    let Command::Host {
        net,
        no_timer,
        classic,
        game,
        size,
        move_time,
        lan,
        grace,
        ice,
    } = command
    else {
        anyhow::bail!("not the host command");
    };
    anyhow::ensure!(
        game == "icehouse" || !ice.given(),
        "--setup, --heavy, --light, --goal, --attacker and --squadron are for --game icehouse"
    );
    let settings = if game == "icehouse" {
        anyhow::ensure!(
            classic.is_none() && !*no_timer && size.is_none(),
            "--classic, --no-timer and --size are not Icehouse Armada's"
        );
        icehouse_settings(ice, move_time.unwrap_or(90), *grace)?
    } else if game == "archimedes" {
        anyhow::ensure!(
            classic.is_none() && !*no_timer,
            "--classic and --no-timer are for the sea battle (Archimedes' moves are \
             always timed: --move-time)"
        );
        let size = size.unwrap_or(8);
        let move_ms = move_time.unwrap_or(60) * 1000;
        armada::driver::arch::Position::start(size).map_err(|e| anyhow::anyhow!(e))?;
        armada::driver::arch_table::settings(size, move_ms, grace * 1000)
    } else {
        anyhow::ensure!(
            size.is_none() && move_time.is_none(),
            "--size and --move-time are for --game archimedes (a classic board: --classic)"
        );
        table_settings(*classic, *grace)?
    };
    cli::net::host(net, settings, !*no_timer, *lan)
}

/// `armada host --game icehouse`'s own arguments.
#[derive(clap::Args, Clone, Debug)]
struct IceArgs {
    /// Icehouse Armada: how the fleets are chosen (basic: four large against four
    /// medium and four small; advanced: --heavy and --light set the numbers, and the
    /// guest accepts and moves first or swaps squadrons; points: each builds a secret
    /// fleet worth 12).
    #[arg(long, value_parser = ["basic", "advanced", "points"])]
    setup: Option<String>,
    /// Icehouse Armada, advanced setup: the heavy squadron's large ships (1–4).
    #[arg(long, value_name = "LARGE", default_value_t = 4)]
    heavy: u8,
    /// Icehouse Armada, advanced setup: the light squadron's medium and small ships
    /// (each 0–4, at least one ship), as M,S.
    #[arg(long, value_name = "M,S", default_value = "4,4")]
    light: String,
    /// Icehouse Armada: the goal.
    #[arg(long, value_parser = ["sink", "flagship", "breakthrough"])]
    goal: Option<String>,
    /// Icehouse Armada, breakthrough: who attacks, whoever moves first.
    #[arg(long, value_parser = ["host", "guest"])]
    attacker: Option<String>,
    /// Icehouse Armada: the host's squadron (basic and advanced setups; in the
    /// advanced one the guest may swap).
    #[arg(long, value_parser = ["heavy", "light"])]
    squadron: Option<String>,
}

impl IceArgs {
    /// Whether any of these was given (they are for --game icehouse only).
    fn given(&self) -> bool {
        self.setup.is_some()
            || self.goal.is_some()
            || self.squadron.is_some()
            || self.attacker.is_some()
            || self.heavy != 4
            || self.light != "4,4"
    }
}

/// An Icehouse Armada table's settings from `armada host`'s words.
fn icehouse_settings(ice: &IceArgs, move_secs: u32, grace: u32) -> Result<armada_proto::Settings> {
    use armada_proto::{GameKind, IceFleet, IceGoal, IceSetup};
    let setup = match ice.setup.as_deref().unwrap_or("basic") {
        "points" => IceSetup::Points,
        "advanced" => {
            let (medium, small) = ice
                .light
                .split_once(',')
                .and_then(|(m, s)| Some((m.trim().parse().ok()?, s.trim().parse().ok()?)))
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "--light takes M,S: the light squadron's medium and small ships"
                    )
                })?;
            IceSetup::Advanced {
                heavy: IceFleet {
                    large: ice.heavy,
                    medium: 0,
                    small: 0,
                },
                light: IceFleet {
                    large: 0,
                    medium,
                    small,
                },
            }
        }
        _ => IceSetup::Basic,
    };
    anyhow::ensure!(
        matches!(setup, IceSetup::Advanced { .. }) || (ice.heavy == 4 && ice.light == "4,4"),
        "--heavy and --light are for --setup advanced"
    );
    anyhow::ensure!(
        setup != IceSetup::Points || ice.squadron.is_none(),
        "in the points setup each side builds its own fleet: no --squadron"
    );
    let goal = match ice.goal.as_deref().unwrap_or("sink") {
        "flagship" => IceGoal::Flagship,
        "breakthrough" => IceGoal::Breakthrough {
            host_attacks: ice.attacker.as_deref() != Some("guest"),
        },
        _ => IceGoal::SinkAll,
    };
    anyhow::ensure!(
        matches!(goal, IceGoal::Breakthrough { .. }) || ice.attacker.is_none(),
        "--attacker is for --goal breakthrough"
    );
    let settings = armada_proto::Settings {
        game: GameKind::Icehouse {
            setup,
            goal,
            host_heavy: setup != IceSetup::Points && ice.squadron.as_deref() != Some("light"),
        },
        move_ms: move_secs * 1000,
        answer_ms: 0,
        reveal_ms: 0,
        grace_ms: grace * 1000,
    };
    armada::driver::ice_table::check_settings(&settings).map_err(anyhow::Error::msg)?;
    Ok(settings)
}

/// A new table's settings: Armada or classic of a side, the absent player's grace in
/// seconds.
fn table_settings(classic: Option<u8>, grace: u32) -> Result<armada_proto::Settings> {
    let variant = match classic {
        Some(side) => Variant::classic(side)?,
        None => Variant::Armada,
    };
    Ok(armada::driver::settings(variant, grace * 1000))
}

/// `armada demo`: the sea battle's two peers in memory, or an Archimedes game.
fn demo(command: &Command) -> Result<u8> {
    match command {
        Command::Demo {
            seed,
            game,
            size,
            levels,
            transcript,
            ..
        } if game == "archimedes" => {
            let seed = seed.unwrap_or_else(rand::random);
            let levels = levels.as_deref().unwrap_or("hard:insane");
            cli::demo::run_archimedes(size.unwrap_or(6), levels, seed, transcript.as_deref())?;
            Ok(0)
        }
        Command::Demo {
            seed,
            game,
            size,
            levels,
            squadron,
            goal,
            transcript,
            classic,
        } if game == "icehouse" => {
            anyhow::ensure!(
                size.is_none() && !*classic,
                "--size and --classic are not Icehouse Armada's"
            );
            let seed = seed.unwrap_or_else(rand::random);
            let levels = levels.as_deref().unwrap_or("medium:hard");
            cli::demo::run_icehouse(levels, squadron, goal, seed, transcript.as_deref())?;
            Ok(0)
        }
        Command::Demo {
            seed,
            classic,
            size,
            transcript,
            ..
        } => {
            let variant = match (*classic, size) {
                (true, size) => Variant::classic(size.unwrap_or(10))?,
                (false, None) => Variant::Armada,
                (false, Some(_)) => anyhow::bail!("--size is for --classic or --game archimedes"),
            };
            let seed = seed.unwrap_or_else(rand::random);
            cli::demo::run_demo(variant, seed, transcript.as_deref())?;
            Ok(0)
        }
        _ => anyhow::bail!("not the demo command"),
    }
}

/// `armada bench-ai`: the sea battle's levels, Archimedes' or Icehouse Armada's.
#[cfg(feature = "bench")]
fn bench_ai(command: &Command) -> Result<u8> {
    match command {
        Command::BenchAi {
            game,
            level,
            versus,
            games,
            classic,
            seed,
            placement,
            goal,
            knowing,
            ..
        } if game == "icehouse" => {
            anyhow::ensure!(
                !*classic && placement.is_none() && level.is_none() && !*knowing,
                "Icehouse Armada measures a --match of two captains"
            );
            cli::bench_icehouse::bench_ai(versus.as_deref(), *games, *seed, goal.as_deref())
        }
        Command::BenchAi {
            game,
            size,
            level,
            versus,
            games,
            classic,
            seed,
            placement,
            goal,
            knowing,
        } if game == "archimedes" => {
            anyhow::ensure!(
                !*classic && placement.is_none() && goal.is_none() && !*knowing,
                "--classic and --placement are the sea battle's, --goal Icehouse Armada's"
            );
            cli::bench_archimedes::bench_ai(
                level.as_deref(),
                versus.as_deref(),
                *size,
                *games,
                *seed,
            )
        }
        Command::BenchAi {
            level,
            versus,
            games,
            classic,
            seed,
            placement,
            knowing,
            goal: None,
            ..
        } => cli::bench::bench_ai(
            level
                .as_deref()
                .map(str::parse::<Level>)
                .transpose()
                .map_err(anyhow::Error::msg)?,
            versus.as_deref(),
            *games,
            *classic,
            *seed,
            *placement,
            *knowing,
        ),
        Command::BenchAi { .. } => anyhow::bail!("--goal is for --game icehouse"),
        _ => anyhow::bail!("not the bench-ai command"),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
    }

    #[test]
    fn the_window_flags_reach_its_friend_tables() {
        use armada::driver::Public;
        use clap::Parser;
        let net = |args: &[&str]| {
            let cli = super::Cli::try_parse_from(args).expect("the flags parse");
            let Some(super::Command::Window {
                listen,
                no_discovery,
                public,
                ..
            }) = &cli.command
            else {
                panic!("not the window command: {args:?}");
            };
            super::window_net(listen, *no_discovery, public)
        };
        let off = net(&[
            "armada",
            "window",
            "--no-public",
            "--no-discovery",
            "--listen",
            "/ip4/127.0.0.1/tcp/0",
        ]);
        assert!(!off.discovery);
        assert_eq!(off.public, Public::Off);
        assert_eq!(off.listen, ["/ip4/127.0.0.1/tcp/0".parse().unwrap()]);
        let seed =
            "/ip4/10.0.0.1/tcp/4001/p2p/12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN";
        let through = net(&["armada", "window", "--bootstrap", seed]);
        assert!(through.discovery && through.listen.is_empty());
        assert_eq!(
            through.public,
            Public::Bootstrap(vec![seed.parse().unwrap()])
        );
        // Off and through a peer at once is no choice.
        assert!(
            super::Cli::try_parse_from(["armada", "window", "--no-public", "--bootstrap", seed])
                .is_err()
        );
    }

    #[test]
    fn the_version_names_the_protocol_spoken() {
        let protocol = format!("(protocol {})", armada_proto::PROTOCOL_VERSION);
        assert!(super::VERSION.ends_with(&protocol), "{}", super::VERSION);
    }
}
