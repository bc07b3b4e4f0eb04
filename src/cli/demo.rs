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
    match (&signed, transcript) {
        (Some(duet), Some(path)) => {
            let table = duet.host.table();
            save_signed(table.settled().is_some(), &table.transcript_file(), path)
        }
        _ => Ok(()),
    }
}

/// Saves the host's signed record (`file`) of a demo game at `path`, once the game
/// is `settled`.
fn save_signed(settled: bool, file: &[u8], path: &std::path::Path) -> Result<()> {
    anyhow::ensure!(settled, "the signed game did not settle");
    std::fs::write(path, file).with_context(|| format!("cannot write {}", path.display()))?;
    super::emit(&format!(
        "Transcript saved to {}; check it with `armada verify {}`.\n",
        path.display(),
        path.display()
    ));
    Ok(())
}

/// `armada demo --game icehouse`: two computer captains play Icehouse Armada's basic
/// setup; the first level commands `squadron` and moves first (south). Each turn
/// is printed as its actions, then a sketch of the table. With `transcript`, two
/// sessions in memory sign the same game (the host south) and the host's record is
/// saved there.
pub fn run_icehouse(
    levels: &str,
    squadron: &str,
    goal: &str,
    seed: u64,
    transcript: Option<&std::path::Path>,
) -> Result<()> {
    use armada::icehouse::{Fleet, Game, Goal, Level, Side, choose, random_placement, render};
    use std::fmt::Write as _;
    let (a, b) = levels
        .split_once(':')
        .context("--match takes A:B, like medium:hard")?;
    let level = |name: &str| {
        Level::parse(name).with_context(|| format!("{name} is not a level: easy, medium or hard"))
    };
    let levels = [level(a)?, level(b)?];
    let fleets = match squadron {
        "heavy" => [Fleet::HEAVY, Fleet::LIGHT],
        "light" => [Fleet::LIGHT, Fleet::HEAVY],
        other => anyhow::bail!("{other} is not a squadron: heavy or light"),
    };
    let goal = match goal {
        "sink" => Goal::SinkAll,
        "flagship" => Goal::Flagship,
        "breakthrough" => Goal::Breakthrough {
            attacker: Side::South,
        },
        other => anyhow::bail!("{other} is not a goal: sink, flagship or breakthrough"),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let placements = [
        random_placement(Side::South, fleets[0], goal, &mut rng),
        random_placement(Side::North, fleets[1], goal, &mut rng),
    ];
    let mut game = Game::new(
        goal,
        fleets,
        [placements[0].as_slice(), placements[1].as_slice()],
    )
    .map_err(|(side, e)| anyhow::anyhow!("{side}'s placement: {e}"))?;
    let mut signed = transcript
        .map(|_| signed_icehouse(goal, squadron == "heavy", &placements))
        .transpose()?;
    super::emit(&format!(
        "Icehouse Armada, seed {seed}: {} ({} {}, south, capitals) against {} ({} {}, north)\n\n{}",
        levels[0].name(),
        squadron,
        fleets[0],
        levels[1].name(),
        if squadron == "heavy" {
            "light"
        } else {
            "heavy"
        },
        fleets[1],
        render(&game)
    ));
    // Enough for any game: quiet waters ends one after forty turns without a hit,
    // a breakthrough after forty-one.
    let mut actions = 0;
    while game.ending().is_none() {
        anyhow::ensure!(actions < 100_000, "the demo game did not end");
        let side = game.to_move();
        let mut out = format!("\nTurn {} ({side}):\n", game.turn());
        loop {
            let action = choose(&game, levels[side.index()], &mut rng);
            let played = game
                .play(action)
                .map_err(|e| anyhow::anyhow!("the {side} captain's {action:?} was refused: {e}"))?;
            if let Some(duet) = &mut signed {
                let seat = if side == Side::South {
                    armada::rules::Seat::Host
                } else {
                    armada::rules::Seat::Guest
                };
                duet.command(seat, armada::driver::ice_table::Command::Act(action))?;
            }
            actions += 1;
            let _ = writeln!(out, "  {played}");
            if played.turn_ended || played.ending.is_some() {
                break;
            }
        }
        out.push_str(&render(&game));
        super::emit(&out);
    }
    let ending = game.ending().context("the game ended")?;
    let result = match ending.winner {
        Some(side) => format!("{side} ({}) wins", levels[side.index()].name()),
        None => "a draw".to_owned(),
    };
    super::emit(&format!(
        "\n{result}: {}; {} turns; strength south {}, north {}\n",
        ending.reason,
        game.turn(),
        game.strength(Side::South),
        game.strength(Side::North)
    ));
    match (&signed, transcript) {
        (Some(duet), Some(path)) => {
            let table = duet.host.table();
            save_signed(table.settled().is_some(), &table.transcript_file(), path)
        }
        _ => Ok(()),
    }
}

/// Two sessions in memory at an Icehouse table of the demo's goal, the host south
/// (the guest, choosing, lets it move first) and each side committed to its
/// placement, both revealed.
fn signed_icehouse(
    goal: armada::icehouse::Goal,
    host_heavy: bool,
    placements: &[Vec<armada::icehouse::Placed>; 2],
) -> Result<armada::driver::IcehouseDuet> {
    use armada::driver::ice_table::Command;
    use armada::rules::Seat;
    let goal = match goal {
        armada::icehouse::Goal::SinkAll => armada_proto::IceGoal::SinkAll,
        armada::icehouse::Goal::Flagship => armada_proto::IceGoal::Flagship,
        armada::icehouse::Goal::Breakthrough { .. } => {
            armada_proto::IceGoal::Breakthrough { host_attacks: true }
        }
    };
    let settings = armada_proto::Settings {
        game: armada_proto::GameKind::Icehouse {
            setup: armada_proto::IceSetup::Basic,
            goal,
            host_heavy,
        },
        move_ms: 90_000,
        answer_ms: 0,
        reveal_ms: 0,
        grace_ms: 0,
    };
    let mut duet = armada::driver::IcehouseDuet::new(settings)?;
    duet.command(Seat::Guest, Command::Choose(false))?;
    duet.command(Seat::Host, Command::Place(placements[0].clone()))?;
    duet.command(Seat::Guest, Command::Place(placements[1].clone()))?;
    Ok(duet)
}
