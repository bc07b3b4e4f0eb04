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

/// `armada demo --game archimedes`: two computer levels play a whole game on a
/// `size` board; every move is printed with the board after it and each wave of
/// sinkings with the ships that saw it. With `transcript`, two sessions in memory
/// sign the same moves, and the host's record is saved there.
pub fn run_archimedes(
    size: u8,
    levels: &str,
    seed: u64,
    transcript: Option<&std::path::Path>,
) -> Result<()> {
    use armada::archimedes::{Level, Position, Side, choose, render};
    use std::fmt::Write as _;
    let (a, b) = levels
        .split_once(':')
        .context("--match takes A:B, like hard:insane")?;
    let levels = [
        a.parse::<Level>().map_err(anyhow::Error::msg)?,
        b.parse::<Level>().map_err(anyhow::Error::msg)?,
    ];
    let mut position = Position::start(size)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = format!(
        "Archimedes {size}×{size}, seed {seed}: {} (x, bottom-left) against {} (o, top-right)\n\n{}",
        levels[0],
        levels[1],
        render(&position)
    );
    let mark = |side: Side| if side == Side::First { 'x' } else { 'o' };
    let mut signed = transcript
        .map(|_| armada::driver::ArchimedesDuet::new(size))
        .transpose()?;
    while !position.is_over() {
        let side = position.mover();
        let mv = choose(&position, levels[side.index()], &mut rng)
            .context("a game not over has a move")?;
        let played = position.play(mv)?;
        if let Some(duet) = &mut signed {
            duet.play(mv)?;
        }
        let _ = writeln!(out, "\n{}. {} {mv}", position.moves(), mark(side));
        for (n, wave) in played.waves.iter().enumerate() {
            let sunk: Vec<String> = wave
                .iter()
                .map(|s| {
                    let by: Vec<String> = s.by.iter().map(ToString::to_string).collect();
                    format!("{} {} (seen by {})", mark(s.side), s.cell, by.join(" "))
                })
                .collect();
            let _ = writeln!(out, "   wave {}: sunk {}", n + 1, sunk.join(", "));
        }
        out.push_str(&render(&position));
        super::emit(&std::mem::take(&mut out));
    }
    let ending = position.ending().context("the game ended")?;
    let why = ending.reason;
    let result = match ending.winner {
        Some(side) => format!("{} ({}) wins", mark(side), levels[side.index()]),
        None => "a draw".to_owned(),
    };
    super::emit(&format!(
        "\n{result}: {why}; {} moves; ships left x {}, o {}\n",
        position.moves(),
        position.count(Side::First),
        position.count(Side::Second)
    ));
    if let (Some(duet), Some(path)) = (&signed, transcript) {
        let table = duet.host.table();
        anyhow::ensure!(table.settled().is_some(), "the signed game did not settle");
        std::fs::write(path, table.transcript_file())
            .with_context(|| format!("cannot write {}", path.display()))?;
        super::emit(&format!(
            "Transcript saved to {}; check it with `armada verify {}`.\n",
            path.display(),
            path.display()
        ));
    }
    Ok(())
}
