//! The trainer learns a known function; the quantised network computes
//! what the float one does; training samples have the engine's features.

use super::model::{FloatNet, Scratch};
use super::samples::{sigmoid, Blend, SampleSet};
use super::trainer::{mean_loss, train, TrainConfig};
use crate::nnue::data::{GameRecord, GameResult, Sample};
use rand::rngs::StdRng;
use rand::seq::index::sample;
use rand::{Rng, SeedableRng};
use tensorchess_engine::nnue::{features, Accumulator, Network, SCALE};
use tensorchess_rules::{Chess, Chessence, Color, Position, Tensor, Variant, VariantKind};

const FEATURES: usize = 64;
/// The most centipawns the quantised network may differ from the float one.
const QUANTISATION_BOUND: i32 = 10;

/// The known function: each feature is worth `(f mod 7 − 3) / 10` for the
/// side to move and the negative for the other side.
fn worth(f: u16) -> f32 {
    ((f % 7) as f32 - 3.0) / 10.0
}

fn synthetic(n: usize, seed: u64) -> SampleSet {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut set = SampleSet::default();
    for _ in 0..n {
        let k = rng.random_range(4..12);
        let us: Vec<u16> = sample(&mut rng, FEATURES, k)
            .into_iter()
            .map(|f| f as u16)
            .collect();
        let them: Vec<u16> = sample(&mut rng, FEATURES, k)
            .into_iter()
            .map(|f| f as u16)
            .collect();
        let x: f32 =
            us.iter().map(|&f| worth(f)).sum::<f32>() - them.iter().map(|&f| worth(f)).sum::<f32>();
        set.push(&us, &them, sigmoid(x));
    }
    set
}

fn config() -> TrainConfig {
    TrainConfig {
        hidden: 16,
        epochs: 40,
        batch: 64,
        rate: 0.01,
        rate_decay: 0.97,
        threads: 2,
        seed: 3,
    }
}

#[test]
fn a_tiny_network_learns_a_known_function() {
    let (train_set, validation) = (synthetic(3000, 1), synthetic(500, 2));
    let mut rng = StdRng::seed_from_u64(config().seed);
    let start = FloatNet::random(FEATURES, 16, || rng.random_range(-1.0..1.0));
    let before = mean_loss(&start, &validation, 2);
    let mut reports = Vec::new();
    let net = train(FEATURES, &train_set, &validation, &config(), |r| {
        reports.push(r.clone())
    });
    let after = mean_loss(&net, &validation, 2);
    assert_eq!(reports.len(), 40);
    assert_eq!(reports.last().map(|r| r.validation_loss), Some(after));
    assert!(after < before * 0.1, "validation loss {before} -> {after}");
    assert!(after < 0.002, "validation loss {after}");
}

/// The quantised network's evaluation of a sample, in centipawns.
fn quantised_cp(net: &Network, us: &[u16], them: &[u16]) -> i32 {
    let acc = |fs: &[u16]| {
        let mut values = net.input_bias.clone();
        for &f in fs {
            for (a, w) in values.iter_mut().zip(net.feature_row(f as usize)) {
                *a = a.wrapping_add(*w);
            }
        }
        Accumulator { values }
    };
    net.output(&acc(us), &acc(them))
}

#[test]
fn the_quantised_network_matches_the_float_one() {
    let set = synthetic(300, 5);
    let float = train(
        FEATURES,
        &set,
        &SampleSet::default(),
        &TrainConfig {
            epochs: 10,
            ..config()
        },
        |_| {},
    );
    let mut quantised = float.quantise(VariantKind::Chess);
    // A real network's feature count is the game's; the arithmetic is the same.
    quantised.input_weights.truncate(FEATURES * 16);
    let mut scratch = Scratch::default();
    let mut worst = 0;
    for i in 0..set.len() {
        let (us, them) = set.features(i);
        let f = (float.forward(us, them, &mut scratch) * SCALE as f32).round() as i32;
        let q = quantised_cp(&quantised, us, them);
        worst = worst.max((f - q).abs());
    }
    // Output weights are rounded to 1/64: within QUANTISATION_BOUND.
    assert!(
        worst <= QUANTISATION_BOUND,
        "quantised differs by up to {worst} cp"
    );
}

#[test]
fn samples_have_the_engines_features() {
    fn check<V: Variant>(seed: u64) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pos = Position::<V>::new();
        let mut samples = Vec::new();
        let mut positions = Vec::new();
        for _ in 0..60 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos = pos.play(legal[rng.random_range(0..legal.len())]);
            samples.push(Sample::of(&pos, 0));
            positions.push(pos);
        }
        let game = GameRecord {
            index: 0,
            result: GameResult::Draw,
            samples,
        };
        let mut set = SampleSet::default();
        set.add_games::<V>(std::slice::from_ref(&game), Blend::new(0.5));
        for (i, pos) in positions.iter().enumerate() {
            let engine = |c: Color| {
                let mut v = Vec::new();
                features::active_features(pos, c, |f| v.push(f as u16));
                v.sort_unstable();
                v
            };
            let (us, them) = set.features(i);
            let (mut us, mut them) = (us.to_vec(), them.to_vec());
            us.sort_unstable();
            them.sort_unstable();
            assert_eq!(us, engine(pos.turn()));
            assert_eq!(them, engine(!pos.turn()));
        }
    }
    check::<Tensor>(1);
    check::<Chess>(2);
    check::<Chessence>(3);
}

#[test]
fn the_blend_reads_scores_on_its_own_scale_and_weighs_the_result() {
    // ln 3 units of the sigmoid are three games in four.
    let three_in_four = 3f32.ln();
    let engine = Blend::new(1.0);
    assert!((engine.target(three_in_four * SCALE as f32, 0.0) - 0.75).abs() < 1e-5);
    let steeper = Blend {
        lambda: 1.0,
        score_scale: 80.0,
    };
    assert!((steeper.target(three_in_four * 80.0, 0.0) - 0.75).abs() < 1e-5);
    assert!(steeper.target(150.0, 0.0) > engine.target(150.0, 0.0) + 0.2);
    let half = Blend {
        lambda: 0.5,
        score_scale: 80.0,
    };
    assert!((half.target(0.0, 1.0) - 0.75).abs() < 1e-6);
    assert!((half.target(0.0, 0.0) - 0.25).abs() < 1e-6);
}
