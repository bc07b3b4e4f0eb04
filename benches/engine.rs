//! The rules engine's figures: fleets placed per second and complete random games per second.

use std::hint::black_box;

use armada::demo;
use armada::rules::{Placer, Seat, Variant};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

fn placement(c: &mut Criterion) {
    let mut group = c.benchmark_group("placement");
    group.throughput(Throughput::Elements(1));
    for variant in [Variant::Armada, Variant::classic(12).unwrap()] {
        let placer = Placer::new(&variant.fleet());
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        group.bench_function(variant.to_string(), |b| {
            b.iter(|| black_box(placer.place(&mut rng)));
        });
    }
    group.finish();
}

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("game");
    group.throughput(Throughput::Elements(1));
    for variant in [Variant::Armada, Variant::classic(10).unwrap()] {
        // Fleets are placed beforehand: this measures play through the engine alone.
        let placer = Placer::new(&variant.fleet());
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let fleets: Vec<_> = (0..256)
            .map(|_| [placer.place(&mut rng), placer.place(&mut rng)])
            .collect();
        let mut next = fleets.iter().cycle();
        group.bench_function(format!("{variant} random vs random"), |b| {
            b.iter(|| {
                let pair = next.next().expect("cycle never ends").clone();
                black_box(demo::play_fleets(variant, Seat::Host, pair, &mut rng))
            });
        });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    group.bench_function("Armada with placement", |b| {
        b.iter(|| black_box(demo::play(Variant::Armada, Seat::Host, &mut rng)));
    });
    group.finish();
}

criterion_group!(benches, placement, games);
criterion_main!(benches);
