//! The network's accumulators: updated move by move they equal a refresh
//! from scratch, after every move of random games in all three games; and
//! a network file reads back as written.

use proptest::prelude::*;
use tensorchess_engine::nnue::{
    self, Accumulator, AccumulatorStack, Delta, Network, NetworkError, features::feature_count,
};
use tensorchess_rules::{Chess, Chessence, Color, Position, Tensor, Variant};

/// A network of pseudo-random weights (xorshift from `seed`).
fn random_net<V: Variant>(hidden: usize, seed: u64) -> Network {
    let mut x = seed | 1;
    let mut next = move |span: i64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ((x % (2 * span as u64 + 1)) as i64 - span) as i16
    };
    let mut net = Network::zeros::<V>(hidden);
    net.input_weights.iter_mut().for_each(|w| *w = next(60));
    net.input_bias.iter_mut().for_each(|w| *w = next(100));
    net.output_weights.iter_mut().for_each(|w| *w = next(127));
    net.output_bias = next(3000) as i32;
    net
}

/// Plays the moves `choices` picks, checking both accumulators after each
/// against a refresh, and the lazy stack (evaluated every `every` plies,
/// with a null move where `choices` says so) against a fresh evaluation.
fn incremental_equals_refresh<V: Variant>(choices: &[u16], every: usize) {
    // 24 to 48 neurons: with and without lanes past the last full SIMD register.
    let net = random_net::<V>(24 + 8 * (choices.len() % 4), 0x9e37 + choices.len() as u64);
    let mut pos = Position::<V>::new();
    let mut sides = [
        Accumulator::refresh(&net, &pos, Color::White),
        Accumulator::refresh(&net, &pos, Color::Black),
    ];
    let mut stack = AccumulatorStack::new(&net, choices.len() + 1);
    stack.set_root(0);
    assert_eq!(stack.evaluate(&net, &pos, 0), nnue::evaluate(&net, &pos));
    for (i, &c) in choices.iter().enumerate() {
        let ply = i + 1;
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let next = if c % 17 == 0 && !pos.is_check() {
            stack.play_null(ply - 1);
            pos.play_null()
        } else {
            let m = legal[c as usize % legal.len()];
            let mut delta = Delta::NONE;
            let next = pos.play_observed(m, &mut delta);
            for (side, color) in Color::ALL.into_iter().enumerate() {
                sides[side].apply::<V>(&net, &delta, color);
                assert_eq!(
                    sides[side],
                    Accumulator::refresh(&net, &next, color),
                    "{} then {m:?}",
                    pos.fen()
                );
            }
            assert_eq!(stack.play(&pos, m, ply - 1).hash(), next.hash());
            next
        };
        pos = next;
        if ply % every == 0 {
            assert_eq!(
                stack.evaluate(&net, &pos, ply),
                nnue::evaluate(&net, &pos),
                "{}",
                pos.fen()
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn incremental_tensor(choices in prop::collection::vec(any::<u16>(), 0..150), every in 1usize..6) {
        incremental_equals_refresh::<Tensor>(&choices, every);
    }

    #[test]
    fn incremental_chess(choices in prop::collection::vec(any::<u16>(), 0..150), every in 1usize..6) {
        incremental_equals_refresh::<Chess>(&choices, every);
    }

    #[test]
    fn incremental_chessence(choices in prop::collection::vec(any::<u16>(), 0..150), every in 1usize..6) {
        incremental_equals_refresh::<Chessence>(&choices, every);
    }
}

#[test]
fn a_network_file_reads_back() {
    let net = random_net::<Tensor>(16, 7);
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes::<Tensor>(&bytes), Ok(net));
}

#[test]
fn bad_network_files_are_refused() {
    let bytes = random_net::<Tensor>(16, 7).to_bytes();
    assert_eq!(
        Network::from_bytes::<Tensor>(b"hello"),
        Err(NetworkError::BadMagic)
    );
    assert!(matches!(
        Network::from_bytes::<Chess>(&bytes),
        Err(NetworkError::WrongGame { .. })
    ));
    assert!(matches!(
        Network::from_bytes::<Tensor>(&bytes[..bytes.len() - 1]),
        Err(NetworkError::BadLength { .. })
    ));
    let mut long = bytes.clone();
    long.push(0);
    assert!(matches!(
        Network::from_bytes::<Tensor>(&long),
        Err(NetworkError::BadLength { .. })
    ));
    let mut wide = random_net::<Tensor>(16, 7);
    wide.output_weights[3] = 300;
    assert_eq!(
        Network::from_bytes::<Tensor>(&wide.to_bytes()),
        Err(NetworkError::BadOutputWeight(300))
    );
    assert_eq!(feature_count::<Chessence>(), 2 * 2 * 54 + 2 * 16);
}

#[test]
fn a_search_with_a_network_finds_the_mate() {
    use std::sync::Arc;
    use tensorchess_engine::{Engine, Limits, NoHandler, Options};
    use tensorchess_rules::Game;
    let mut engine = Engine::new(Options {
        use_nnue: true,
        network: Some(Arc::new(random_net::<Chess>(32, 11))),
        ..Options::default()
    });
    let mut game = Game::<Chess>::new();
    for m in ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6"] {
        game.push_str(m).unwrap();
    }
    let result = engine.search(game.positions(), &Limits::depth(3), &mut NoHandler);
    assert_eq!(game.position().move_string(result.best), "h5f7");
    // The static evaluation is the network's.
    let pos = game.position();
    assert_eq!(
        engine.static_eval(pos).abs(),
        nnue::evaluate(engine.options.network.as_ref().unwrap(), pos).abs()
    );
}

#[test]
fn use_nnue_picks_the_built_in_network_and_levels_keep_the_hand_made_eval() {
    use tensorchess_engine::{Engine, Level, Options};
    let pos = Position::<Tensor>::new().play(Position::<Tensor>::new().parse_move("e2e4").unwrap());
    let built_in = nnue::embedded::<Tensor>().unwrap();
    let on = Options {
        use_nnue: true,
        ..Options::default()
    };
    assert_eq!(on.network_for::<Tensor>(), Some(built_in));
    let engine = Engine::new(on.clone());
    // Black to move: the static eval is from White's view.
    assert_eq!(engine.static_eval(&pos), -nnue::evaluate(built_in, &pos));
    // Chess and Chessence have their own networks.
    assert_eq!(on.network_for::<Chess>(), nnue::embedded::<Chess>());
    assert!(on.network_for::<Chess>().is_some());
    assert_eq!(on.network_for::<Chessence>(), nnue::embedded::<Chessence>());
    assert!(on.network_for::<Chessence>().is_some());
    // A level for people keeps its (hand-made) strength.
    let weak = Options {
        level: Level::new(2),
        ..on
    };
    assert_eq!(weak.network_for::<Tensor>(), None);
    // Full strength evaluates Tensor Chess with the network by default;
    // switched off, with the weights.
    assert_eq!(Options::default().network_for::<Tensor>(), Some(built_in));
    let off = Options {
        use_nnue: false,
        ..Options::default()
    };
    assert_eq!(off.network_for::<Tensor>(), None);
}
