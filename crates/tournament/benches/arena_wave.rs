//! How long pairing a wave of waiting arena players takes.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use tensorchess_tournament::arena::{pair_arena, ArenaCandidate};
use tensorchess_tournament::{PlayerKey, Side};

/// A deterministic wave of `n` players who have each played a few games.
fn wave(n: u64) -> Vec<ArenaCandidate> {
    let mut seed = 7u64;
    let mut rand = move |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    (0..n)
        .map(|i| ArenaCandidate {
            key: PlayerKey(i),
            rating: 1000 + rand(1500) as i32,
            rank: 1 + rand(n) as u32,
            recent_opponents: vec![PlayerKey(rand(n)), PlayerKey(rand(n))],
            colours: (0..1 + rand(6))
                .map(|_| {
                    if rand(2) == 0 {
                        Side::White
                    } else {
                        Side::Black
                    }
                })
                .collect(),
        })
        .collect()
}

fn pair_waves(c: &mut Criterion) {
    let mut group = c.benchmark_group("pair_arena");
    for n in [20u64, 60, 1000] {
        let players = wave(n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &players, |b, players| {
            b.iter(|| pair_arena(players, players.len() + 100));
        });
    }
    group.finish();
}

criterion_group!(benches, pair_waves);
criterion_main!(benches);
