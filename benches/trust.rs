//! The trust core's figures: one action answered with proofs and checked (the whole
//! round trip between two sessions, signatures included), and a whole game verified offline.

use std::hint::black_box;
use std::time::{Duration, Instant};

use armada::driver::Duet;
use armada::rules::{Action, Seat, Variant};
use armada::session::Command;
use criterion::{Criterion, criterion_group, criterion_main};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// A started game, `shots` plain shots in, the host to move with its whole stock.
fn mid_game(shots: usize) -> Duet {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut duet = Duet::new(Variant::Armada).unwrap();
    while duet.host.table().game().is_none() {
        duet.deliver();
        assert!(duet.step(&mut rng));
    }
    duet.deliver();
    let mut played = 0;
    loop {
        let game = duet.host.table().game().unwrap();
        if played >= shots && game.mover() == Seat::Host {
            return duet;
        }
        let mover = game.mover();
        let open = game.chart(mover).unmarked();
        let cell = open.nth(rng.random_range(0..open.len())).unwrap();
        let session = if mover == Seat::Host {
            &mut duet.host
        } else {
            &mut duet.guest
        };
        session
            .handle_command(0, Command::Act(Action::Shot(cell)))
            .unwrap();
        duet.deliver();
        played += 1;
    }
}

fn round_trips(c: &mut Criterion) {
    let start = mid_game(30);
    let game = start.host.table().game().unwrap();
    let open = game.chart(Seat::Host).unmarked();
    let centre = open
        .iter()
        .find(|c| (1..9).contains(&c.col()) && (1..9).contains(&c.row()))
        .unwrap();
    let line = open.iter().next().unwrap().row();
    let actions = [
        ("shot", Action::Shot(open.iter().next().unwrap())),
        (
            "torpedo",
            Action::parse(
                &format!("torpedo row {} right", line + 1),
                game.variant().size(),
            )
            .unwrap(),
        ),
        ("air strike", Action::AirStrike(centre)),
        ("radar", Action::Radar(centre)),
    ];
    // Each action: the defender takes the signed action in and answers it with proofs
    // ("answer"); the attacker takes the answer in and checks it ("verify").
    let mut group = c.benchmark_group("trust");
    for (name, action) in actions {
        let mut after = start.clone();
        after.host.handle_command(0, Command::Act(action)).unwrap();
        let act = after.host.poll_transmit().unwrap();
        let mut answered = after.guest.clone();
        answered.handle_message(0, &act).unwrap();
        let answer = answered.poll_transmit().unwrap();
        group.bench_function(format!("{name}: answer"), |b| {
            b.iter_batched(
                || after.guest.clone(),
                |mut guest| {
                    guest.handle_message(0, &act).unwrap();
                    let frame = guest.poll_transmit();
                    // Returned, so dropping the session is not timed.
                    (black_box(frame), guest)
                },
                criterion::BatchSize::SmallInput,
            );
        });
        group.bench_function(format!("{name}: verify"), |b| {
            b.iter_batched(
                || after.host.clone(),
                |mut host| {
                    host.handle_message(0, &answer).unwrap();
                    black_box(host)
                },
                criterion::BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

/// One shot's whole exchange as it happens in play: the defender takes the signed
/// action in and answers it with proofs, the attacker takes the answer in and checks
/// it — signatures, openings and the consistency search included. Shots follow each
/// other through whole games (no cloned state, so no allocator artefacts are timed).
fn shots_in_play(c: &mut Criterion) {
    c.bench_function("trust/shot in play: answer + verify", |b| {
        b.iter_custom(|iters| {
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let mut duet = mid_game(0);
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if duet
                    .host
                    .table()
                    .game()
                    .is_none_or(armada::rules::Game::is_over)
                {
                    duet = mid_game(0);
                }
                let game = duet.host.table().game().unwrap();
                let mover = game.mover();
                let open = game.chart(mover).unmarked();
                let cell = open.nth(rng.random_range(0..open.len())).unwrap();
                let (attacker, defender) = if mover == Seat::Host {
                    (&mut duet.host, &mut duet.guest)
                } else {
                    (&mut duet.guest, &mut duet.host)
                };
                attacker
                    .handle_command(0, Command::Act(Action::Shot(cell)))
                    .unwrap();
                let act = attacker.poll_transmit().unwrap();
                let start = Instant::now();
                defender.handle_message(0, &act).unwrap();
                let answer = defender.poll_transmit().unwrap();
                attacker.handle_message(0, &answer).unwrap();
                total += start.elapsed();
                duet.deliver();
            }
            total
        });
    });
}

fn whole_game(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut duet = Duet::new(Variant::Armada).unwrap();
    assert!(duet.play_game(&mut rng));
    let transcript = duet.host.table().transcript_file();
    let frames = duet.host.table().transcript().len();
    c.bench_function(
        &format!(
            "verify a whole game ({frames} frames, {} bytes)",
            transcript.len()
        ),
        |b| {
            b.iter(|| black_box(armada::fair::verify::verify(&transcript)));
        },
    );
}

fn primitives(c: &mut Criterion) {
    use armada::fair::sign::{Identity, verify};
    use armada::rules::{Facts, fit_fleet};
    let duet = mid_game(30);
    let frame = duet.host.table().transcript().back().unwrap().1.clone();
    let decoded = armada_proto::Frame::decode(&frame).unwrap();
    let key = duet
        .host
        .table()
        .key(duet.host.table().transcript().back().unwrap().0)
        .unwrap();
    let mut group = c.benchmark_group("primitives");
    group.bench_function("ed25519 verify a frame (key decoded each time)", |b| {
        b.iter(|| black_box(verify(&key, &decoded)));
    });
    let peer = armada::fair::sign::PeerKey::parse(&key).unwrap();
    group.bench_function("ed25519 verify a frame", |b| {
        b.iter(|| black_box(peer.check(&decoded)));
    });
    group.bench_function("decode a frame strictly", |b| {
        b.iter(|| black_box(armada_proto::Frame::decode(&frame)));
    });
    let identity = Identity::generate();
    group.bench_function("ed25519 sign a frame", |b| {
        b.iter(|| black_box(identity.seal(&decoded.body)));
    });
    let facts = Facts::from_chart(duet.host.table().game().unwrap().chart(Seat::Host));
    let spec = Variant::Armada.fleet();
    group.bench_function("consistency search, 30 shots in", |b| {
        b.iter(|| black_box(fit_fleet(&spec, &facts, 200_000)));
    });
    // The proof work of one shot alone, without the signatures around it: the defender
    // resolves against its fleet and opens the cells looked at; the attacker checks the
    // openings and re-resolves from them.
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let fleet = armada::rules::Placer::new(&spec).place(&mut rng);
    let binding = armada::fair::commit::Binding {
        game: [1; 32],
        seat: Seat::Guest,
        size: spec.size(),
    };
    let board = armada::fair::commit::SealedBoard::seal(binding, fleet.decks()).unwrap();
    let root = board.root();
    let game = armada::rules::Game::new(Variant::Armada, Seat::Host, true);
    let target = fleet.decks().iter().next().unwrap();
    group.bench_function("shot proofs: build and check", |b| {
        b.iter(|| {
            let mut sea = armada::rules::Recorder::new(fleet.clone());
            let report = game
                .clone()
                .play(Seat::Host, Action::Shot(target), None, &mut sea)
                .unwrap();
            let openings: Vec<_> = sea
                .looked
                .iter()
                .map(|(cell, content)| (board.open(*cell), *content))
                .collect();
            let mut view = Proven(Vec::new());
            for (opening, content) in &openings {
                opening.check(&binding, &root).unwrap();
                view.0.push((opening.cell, *content));
            }
            let again = game
                .clone()
                .play(Seat::Host, Action::Shot(target), None, &mut view)
                .unwrap();
            assert_eq!(report, again);
            black_box(again)
        });
    });
    group.finish();
}

/// Checked openings as the attacker's view of the enemy sea.
struct Proven(Vec<(armada::rules::Coord, armada::rules::Content)>);

impl armada::rules::Sea for Proven {
    fn look(
        &mut self,
        cell: armada::rules::Coord,
        _: &armada::rules::Chart,
    ) -> Result<armada::rules::Content, armada::rules::SeaError> {
        self.0
            .iter()
            .find(|(c, _)| *c == cell)
            .map(|(_, content)| *content)
            .ok_or(armada::rules::SeaError::Unknown(cell))
    }
}

criterion_group!(benches, round_trips, shots_in_play, whole_game, primitives);
criterion_main!(benches);
