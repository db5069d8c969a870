//! Move generation speed: listing legal moves, counting them, making moves,
//! and small perfts, for each game. `cargo bench -p tensorchess-rules`.

use criterion::{Criterion, black_box, criterion_main};
use tensorchess_rules::{Chess, Chessence, Position, Tensor, Variant, perft};

fn positions<V: Variant>(fens: &[&str]) -> Vec<Position<V>> {
    fens.iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect()
}

fn bench_game<V: Variant>(c: &mut Criterion, name: &str, fens: &[&str], depth: u32) {
    let ps = positions::<V>(fens);
    c.bench_function(&format!("{name}/legal_moves"), |b| {
        b.iter(|| {
            ps.iter()
                .map(|p| black_box(p).legal_moves().len())
                .sum::<usize>()
        })
    });
    c.bench_function(&format!("{name}/count_legal"), |b| {
        b.iter(|| ps.iter().map(|p| black_box(p).count_legal()).sum::<u64>())
    });
    c.bench_function(&format!("{name}/play_all"), |b| {
        b.iter(|| {
            let mut h = 0u64;
            for p in &ps {
                for m in p.legal_moves() {
                    h ^= p.play(m).hash();
                }
            }
            h
        })
    });
    c.bench_function(&format!("{name}/perft{depth}_start"), |b| {
        b.iter(|| perft(black_box(&Position::<V>::new()), depth))
    });
}

fn benches(c: &mut Criterion) {
    bench_game::<Chess>(
        c,
        "chess",
        &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        ],
        4,
    );
    bench_game::<Tensor>(
        c,
        "tensor",
        &[
            "rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1",
            "4qk1nr1/1ppp1bpp1p/3np5/1t1t1pb1p1/2PBP3R1/1rR1QPK3/P1BP1NPPPT/1T8 b - - 1 23",
            "2r1q1b2r/2p1kp4/p2n4pT/t1TQp1pp1N/1p2P1n3/3PB5/PPP4PPP/R2B1K3R w - - 1 28",
        ],
        3,
    );
    bench_game::<Chessence>(
        c,
        "chessence",
        &["km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w - - 0 1"],
        4,
    );
}

// Private: `criterion_group!` defines a public function without documentation.
mod group {
    criterion::criterion_group!(movegen, super::benches);
}
criterion_main!(group::movegen);
