//! `armada bench-ai` as the figures in README are taken: what it prints adds up, and a
//! seed gives the same games every time.

use std::process::Command;

/// `armada bench-ai` run with `args` (words split at spaces).
fn run(args: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_armada"))
        .arg("bench-ai")
        .args(args.split_whitespace())
        .output()
        .expect("armada runs")
}

/// What `armada bench-ai` with `args` printed, having succeeded.
fn bench_ai(args: &str) -> String {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bench-ai {args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    String::from_utf8(out.stdout).expect("the figures are text")
}

/// The value of `name=` on the line of `key=value` fields.
fn field<T: std::str::FromStr>(line: &str, name: &str) -> T {
    line.split_whitespace()
        .find_map(|f| f.strip_prefix(name)?.strip_prefix('='))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name}= in {line:?}"))
}

/// The figures without the times: what a seed fixes.
fn untimed(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.contains("thinking p50"))
        .map(|l| {
            l.split_whitespace()
                .filter(|f| !f.contains("_ms="))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// A kind's line under "decks found a use": uses a game, and per phase the decks and
/// the uses (`None` where it was not used).
fn kind_line(text: &str, kind: &str) -> (f64, Vec<Option<(u32, u32)>>) {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(kind))
        .unwrap_or_else(|| panic!("no line for {kind} in\n{text}"));
    let rest = line.trim_start().strip_prefix(kind).unwrap();
    let (per_game, phases) = rest.split_once(" a game;").unwrap();
    let phases = phases
        .split("  ")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (_, figure) = p.split_once(": ").unwrap();
            (figure != "—").then(|| {
                let inside = figure.split_once('(').unwrap().1;
                let (decks, rest) = inside.split_once(" in ").unwrap();
                let uses = rest.split_once(',').unwrap().0;
                (decks.parse().unwrap(), uses.parse().unwrap())
            })
        })
        .collect::<Vec<_>>();
    assert_eq!(phases.len(), 3, "three thirds of the hunt in {line:?}");
    (per_game.trim().parse().unwrap(), phases)
}

#[test]
fn the_weapon_figures_add_up_to_the_fleet_and_keep_to_the_stock() {
    let games = 6u32;
    let text = bench_ai("--level hard --games 6 --seed 5");
    let totals = |kind: &str| -> (u32, u32, f64) {
        let (per_game, phases) = kind_line(&text, kind);
        let (decks, uses) = phases
            .iter()
            .flatten()
            .fold((0, 0), |(d, u), (dd, uu)| (d + dd, u + uu));
        (decks, uses, per_game)
    };
    // Every one of the twenty decks of every game was hit once, by one of these.
    let hit: u32 = ["shot, hunting", "shot, finishing", "torpedo", "air strike"]
        .iter()
        .map(|k| totals(k).0)
        .sum();
    assert_eq!(hit, 20 * games, "{text}");
    // No more weapons than the stock, and the uses a game are the uses counted.
    for (kind, stock, most_a_use) in [("torpedo", 2, 1), ("air strike", 2, 5), ("radar", 1, 9)] {
        let (decks, uses, per_game) = totals(kind);
        assert!(
            uses <= stock * games,
            "{kind}: {uses} uses in {games} games"
        );
        assert!(
            decks <= most_a_use * uses,
            "{kind}: {decks} decks in {uses} uses"
        );
        assert!(
            (per_game - f64::from(uses) / f64::from(games)).abs() < 0.006,
            "{kind}: {per_game} a game, {uses} uses"
        );
    }
    // The hard level spends its torpedoes: each finds a deck on a fresh board.
    assert!(totals("torpedo").1 > 0, "{text}");
    // A radar sweep always passes the turn.
    let radar = text.lines().find(|l| l.contains("radar")).unwrap();
    for part in radar.split("kept the turn ").skip(1) {
        assert!(part.starts_with("0 %"), "{radar}");
    }
    let actions: u32 = [
        "shot, hunting",
        "shot, finishing",
        "torpedo",
        "air strike",
        "radar",
    ]
    .iter()
    .map(|k| totals(k).1)
    .sum();
    let last = text.lines().last().unwrap();
    let mean: f64 = field(last, "mean_shots");
    assert!(
        (mean - f64::from(actions) / f64::from(games)).abs() < 0.006,
        "{actions} actions in {games} games against {last}"
    );
    assert_eq!(field::<u32>(last, "games"), games);
    assert!(
        field::<f64>(last, "p99_ms") >= field(last, "p50_ms"),
        "{last}"
    );
}

#[test]
fn a_classic_hunt_takes_twenty_hits_and_a_turn_for_every_miss() {
    let text = bench_ai("--level hard --classic --games 5 --seed 3");
    assert!(
        !text.contains("decks found a use"),
        "no weapons in the classic game: {text}"
    );
    let head = text.lines().next().unwrap();
    let turns: f64 = head
        .split("; ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no turns in {head:?}"));
    let shots: f64 = field(text.lines().last().unwrap(), "mean_shots");
    // Each shot hits one of the twenty decks or passes the turn.
    assert!((shots - turns - 20.0).abs() < 0.006, "{text}");
    assert!((20.0..=100.0).contains(&shots), "{text}");
}

#[test]
fn a_seed_gives_the_same_games_every_time() {
    for args in [
        "--level hard --games 4 --seed 9",
        "--level hard --classic --games 3 --seed 9",
        "--match hard:medium --games 4 --seed 9",
        "--game archimedes --size 6 --match hard:medium --games 2 --seed 9",
        "--game icehouse --match hard:easy --games 2 --seed 9",
    ] {
        let first = untimed(&bench_ai(args));
        let again = untimed(&bench_ai(args));
        assert_eq!(first, again, "bench-ai {args:?}");
    }
}

#[test]
fn a_match_counts_every_game_once() {
    for args in [
        "--match hard:easy --games 5 --seed 2",
        "--game archimedes --size 6 --match medium:easy --games 3 --seed 2",
        "--game icehouse --match medium:easy --games 3 --seed 2",
    ] {
        let text = bench_ai(args);
        let tally = text
            .lines()
            .find(|l| l.starts_with("match="))
            .unwrap_or_else(|| panic!("no tally in {text}"));
        let games: u32 = field(tally, "games");
        let wins: u32 = field(tally, "wins");
        let counted = wins + field::<u32>(tally, "losses") + field::<u32>(tally, "draws");
        assert_eq!(counted, games, "{tally}");
        assert!(
            (field::<f64>(tally, "win_rate") - f64::from(wins) / f64::from(games)).abs() < 0.0006,
            "{tally}"
        );
        if args.contains("icehouse") {
            let ended: u32 = tally
                .split_whitespace()
                .filter(|f| f.starts_with("end_"))
                .map(|f| f.split_once('=').unwrap().1.parse::<u32>().unwrap())
                .sum();
            assert_eq!(ended, games, "every game ended one way: {tally}");
        }
    }
}

#[test]
fn bad_arguments_are_refused_by_name() {
    for (args, why) in [
        ("--match hard --games 2", "A:B"),
        ("--match hard:captain --games 2", "captain"),
        ("--level hard --games 0", "at least 1"),
    ] {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} was taken");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed figures");
    }
}
