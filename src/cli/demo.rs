//! `armada demo`: two computer players through two whole sessions, printed.

use anyhow::{Context as _, Result};
use rand::SeedableRng as _;
use rand::rngs::ChaCha8Rng;

use armada::driver::Duet;
use armada::driver::Verdict;
use armada::rules::{EndReason, Seat, Variant, render};

/// Plays and prints one demo game; saves its transcript where asked.
pub fn run_demo(variant: Variant, seed: u64, transcript: Option<&std::path::Path>) -> Result<()> {
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

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
