//! The `armada` command line: a thin shell over the library; it holds no game rules.

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use armada::demo;
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
    },
}

fn main() -> ExitCode {
    match run(&Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("armada: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<()> {
    match cli.command {
        Command::Demo {
            seed,
            classic,
            size,
        } => {
            let variant = if classic {
                Variant::classic(size)?
            } else {
                Variant::Armada
            };
            let seed = seed.unwrap_or_else(rand::random);
            run_demo(variant, seed);
            Ok(())
        }
    }
}

fn run_demo(variant: Variant, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let record = demo::play(variant, Seat::Host, &mut rng);
    println!("Armada demo: {variant}, seed {seed}; the host moves first.");
    for (n, (seat, report)) in record.reports.iter().enumerate() {
        println!("{:>4}. {seat:<5} {report}", n + 1);
    }
    for seat in Seat::BOTH {
        let fleet = &record.fleets[seat.index()];
        println!("\nThe {seat}'s sea, as the {} left it:", seat.other());
        print!("{}", render(Some(fleet), record.game.chart(seat.other())));
    }
    if let Some(ending) = record.game.ending() {
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
            record.game.actions()
        );
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
