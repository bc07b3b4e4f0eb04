//! The `armada` command line: a thin shell over the library; it holds no game rules.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use armada::demo::Duet;
use armada::fair::table::Verdict;
use armada::fair::verify;
use armada::rules::{EndReason, Seat, Variant, render};

/// Armada: a peer-to-peer sea battle for two friends, with proofs instead of a referee.
#[derive(Debug, Parser)]
#[command(version, about, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
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
    match run(&Cli::parse()) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("armada: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<u8> {
    match &cli.command {
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
