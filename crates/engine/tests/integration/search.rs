//! The search finds forced mates (checked by brute force in the test), in
//! all three games, respects its limits, and always returns a legal move.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tensorchess_engine::{Engine, FlagHandler, Level, Limits, NoHandler, Options, SearchInfo};
use tensorchess_rules::{Chess, Chessence, Position, Tensor, Variant};

/// Whether the side to move can force mate within `plies` (odd) plies: a brute-force check.
fn forced_mate<V: Variant>(pos: &Position<V>, plies: u32) -> bool {
    pos.legal_moves().into_iter().any(|m| {
        let after = pos.play(m);
        let replies = after.legal_moves();
        if replies.is_empty() {
            return after.is_check() || V::NO_MOVE_LOSES;
        }
        plies > 2
            && replies
                .into_iter()
                .all(|r| forced_mate(&after.play(r), plies - 2))
    })
}

fn search<V: tensorchess_engine::eval::Evaluate>(
    fen: &str,
    limits: Limits,
) -> (Position<V>, tensorchess_engine::SearchResult) {
    let pos = Position::<V>::from_fen(fen).unwrap();
    let mut engine = Engine::default();
    let r = engine.search(&[pos], &limits, &mut NoHandler);
    (pos, r)
}

#[test]
fn chess_mate_in_two_is_found() {
    // Doubled rooks against a back rank defended by the queen.
    let fen = "3r2k1/5ppp/1q6/8/8/8/3R1PPP/3R2K1 w - - 0 1";
    let pos = Position::<Chess>::from_fen(fen).unwrap();
    assert!(forced_mate(&pos, 3));
    assert!(!forced_mate(&pos, 1));
    let (_, r) = search::<Chess>(fen, Limits::depth(6));
    assert_eq!(r.score.mate_moves(), Some(2), "score {}", r.score);
    let after = pos.play(r.best);
    assert!(
        after
            .legal_moves()
            .into_iter()
            .all(|reply| forced_mate(&after.play(reply), 1))
    );
}

#[test]
fn tensor_rook_mates_by_ricochet_off_its_beast() {
    // The rook reaches the eighth rank only by bouncing off the beast on e1
    // (a1e8), or mates by propelling the beast to e8 and ricocheting off it
    // along the eighth rank (a1e1>e8): both mates use the beast.
    let fen = "k9/pp8/10/10/10/10/10/R3T4K w - - 0 1";
    let pos = Position::<Tensor>::from_fen(fen).unwrap();
    assert!(forced_mate(&pos, 1));
    let (_, r) = search::<Tensor>(fen, Limits::depth(3));
    assert_eq!(r.score.mate_moves(), Some(1));
    let path = pos.move_path(r.best);
    let g = Tensor::GEOMETRY;
    let text = pos.move_string(r.best);
    assert!(text == "a1e8" || text == "a1e1>e8", "{text}");
    if text == "a1e8" {
        assert_eq!(path.routes[0].squares.len(), 3, "a ricochet");
        assert_eq!(g.square_name(path.routes[0].squares[1]).to_string(), "e1");
    }
    assert!(pos.play(r.best).legal_moves().is_empty());
}

#[test]
fn tensor_search_finds_a_forced_mate_in_two() {
    // Black's king is boxed in by its own pawns; White's queen and rook combine.
    let fen = "k9/pp8/10/10/10/10/5PPPPP/1Q2R4K w - - 0 1";
    let pos = Position::<Tensor>::from_fen(fen).unwrap();
    let has = forced_mate(&pos, 3);
    let (_, r) = search::<Tensor>(fen, Limits::depth(6));
    if has {
        assert!(r.score.is_mate() && r.score.0 > 0, "score {}", r.score);
        assert!(r.score.mate_moves().unwrap() <= 2);
    } else {
        assert!(!r.score.is_mate() || r.score.mate_moves().unwrap() > 2);
    }
}

#[test]
fn chessence_leaving_the_opponent_without_moves_wins() {
    // Black has only its king (which never moves) and nothing in reserve:
    // after any White move Black has no legal move and loses.
    let fen = "k5/5*/4*1/2*3/1*2*1/3*2/1*4/*2MM1/5K[] w - - 0 1";
    let pos = Position::<Chessence>::from_fen(fen).unwrap();
    assert!(forced_mate(&pos, 1));
    let (_, r) = search::<Chessence>(fen, Limits::depth(2));
    assert_eq!(r.score.mate_moves(), Some(1), "score {}", r.score);
}

#[test]
fn hundredth_ply_without_progress_is_a_draw_in_the_tree() {
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80";
    let (_, r) = search::<Chess>(fen, Limits::depth(4));
    assert_eq!(r.score.0, 0);
}

#[test]
fn a_node_limit_of_one_still_gives_a_legal_move() {
    for fen in [
        Tensor::START_FEN,
        "4qk1nr1/1ppp1bpp1p/3np5/1t1t1pb1p1/2PBP3R1/1rR1QPK3/P1BP1NPPPT/1T8 b - - 1 23",
    ] {
        let (pos, r) = search::<Tensor>(fen, Limits::nodes(1));
        assert!(pos.is_legal(r.best));
    }
    let (pos, r) = search::<Chessence>(Chessence::START_FEN, Limits::nodes(1));
    assert!(pos.is_legal(r.best));
}

#[test]
fn no_legal_move_gives_the_null_move() {
    let (pos, r) = search::<Chess>("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Limits::depth(3));
    assert!(pos.legal_moves().is_empty());
    assert!(r.best.is_null());
}

#[test]
fn stop_flag_ends_an_infinite_search() {
    let stop = Arc::new(AtomicBool::new(false));
    let s2 = stop.clone();
    // Stopped once the search says something (it is under way, with a move).
    let (said, heard) = std::sync::mpsc::channel();
    let setter = std::thread::spawn(move || {
        heard.recv().unwrap();
        s2.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let pos = Position::<Tensor>::new();
    let mut engine = Engine::default();
    let mut infos = 0;
    let mut handler = FlagHandler {
        stop,
        on_info: |_: &SearchInfo| {
            infos += 1;
            let _ = said.send(());
        },
    };
    let started = Instant::now();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let r = engine.search(&[pos], &limits, &mut handler);
    setter.join().unwrap();
    // Generous bound: this checks that stop is obeyed, not speed.
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(pos.is_legal(r.best));
    assert!(infos > 0);
}

#[test]
fn multipv_gives_distinct_lines_best_first() {
    let pos = Position::<Chess>::new();
    let mut engine = Engine::new(Options {
        multipv: 3,
        ..Options::default()
    });
    let r = engine.search(&[pos], &Limits::depth(5), &mut NoHandler);
    assert_eq!(r.lines.len(), 3);
    let firsts: Vec<_> = r.lines.iter().map(|l| l.0[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(r.lines.windows(2).all(|w| w[0].1 >= w[1].1));
    assert_eq!(r.best, firsts[0]);
}

#[test]
fn two_threads_search_and_agree_on_a_mate() {
    let mut engine = Engine::new(Options {
        threads: 2,
        ..Options::default()
    });
    let pos = Position::<Tensor>::from_fen("k9/pp8/10/10/10/10/10/R3T4K w - - 0 1").unwrap();
    let r = engine.search(&[pos], &Limits::depth(5), &mut NoHandler);
    assert_eq!(r.score.mate_moves(), Some(1));
}

#[test]
fn every_level_plays_legal_moves_deterministically() {
    let pos = Position::<Tensor>::new();
    for n in 1..=5 {
        let level = Level::new(n).unwrap();
        let mut a = Engine::new(Options {
            level: Some(level),
            ..Options::default()
        });
        let mut b = Engine::new(Options {
            level: Some(level),
            ..Options::default()
        });
        let limits = Limits::depth(3);
        let ra = a.search(&[pos], &limits, &mut NoHandler);
        let rb = b.search(&[pos], &limits, &mut NoHandler);
        assert!(pos.is_legal(ra.best));
        assert_eq!(ra.best, rb.best, "level {n}");
    }
}

#[test]
fn searchmoves_limit_the_root_moves() {
    let mut game = tensorchess_rules::Game::<Chess>::new();
    for m in ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6"] {
        game.push_str(m).unwrap();
    }
    let pos = *game.position();
    let allowed = vec![
        pos.parse_move("a2a3").unwrap(),
        pos.parse_move("h2h3").unwrap(),
    ];
    let mut engine = Engine::default();
    let limits = Limits {
        depth: Some(4),
        searchmoves: allowed.clone(),
        ..Limits::default()
    };
    let r = engine.search(game.positions(), &limits, &mut NoHandler);
    assert!(allowed.contains(&r.best));
    let r = engine.search(
        game.positions(),
        &Limits {
            nodes: Some(1),
            searchmoves: allowed.clone(),
            ..Limits::default()
        },
        &mut NoHandler,
    );
    assert!(allowed.contains(&r.best));
}

#[test]
fn movetime_is_used_in_full() {
    let pos = Position::<Tensor>::new();
    let mut engine = Engine::default();
    let r = engine.search(
        &[pos],
        &Limits::movetime(Duration::from_millis(300)),
        &mut NoHandler,
    );
    // Generous bounds: the search uses most of a fixed move time, not half of it.
    assert!(r.time >= Duration::from_millis(200), "{:?}", r.time);
}

#[test]
fn an_impossible_hash_size_falls_back() {
    assert!(tensorchess_engine::TranspositionTable::try_new(1 << 40).is_none());
    let tt = tensorchess_engine::TranspositionTable::new(4);
    assert_eq!(tt.size_mb(), 4);
}

#[test]
fn with_any_one_feature_off_the_search_still_finds_the_mate_and_plays_legally() {
    use tensorchess_engine::{Feature, Features};
    // Mate in two (doubled rooks), searched deep enough for every feature
    // (singular extensions start at depth 8) to take part.
    let fen = "3r2k1/5ppp/1q6/8/8/8/3R1PPP/3R2K1 w - - 0 1";
    let mate = Position::<Chess>::from_fen(fen).unwrap();
    let middlegame = Position::<Tensor>::new();
    for name in Feature::ALL {
        let features = Features::default().with(name, false);
        let options = || Options {
            features,
            ..Options::default()
        };
        let r = Engine::new(options()).search(&[mate], &Limits::depth(9), &mut NoHandler);
        assert_eq!(r.score.mate_moves(), Some(2), "without {name}: {}", r.score);
        assert!(mate.is_legal(r.best), "without {name}");
        let r = Engine::new(options()).search(&[middlegame], &Limits::depth(8), &mut NoHandler);
        assert!(middlegame.is_legal(r.best), "without {name}");
        assert!(r.score.0.abs() < 200, "without {name}: {}", r.score);
    }
}

#[test]
fn a_new_game_forgets_what_earlier_searches_learnt() {
    let mut game = tensorchess_rules::Game::<Chess>::new();
    for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        game.push_str(m).unwrap();
    }
    let limits = Limits::depth(8);
    let fresh = Engine::default().search(game.positions(), &limits, &mut NoHandler);
    let mut engine = Engine::default();
    // Learn from another position first: the table and the move history
    // now hold what that search found, and the same search differs.
    let start = [Position::<Chess>::new()];
    engine.search(&start, &limits, &mut NoHandler);
    let warm = engine.search(game.positions(), &limits, &mut NoHandler);
    assert_ne!(warm.nodes, fresh.nodes, "nothing carried over");
    engine.new_game();
    let again = engine.search(game.positions(), &limits, &mut NoHandler);
    assert_eq!(again.nodes, fresh.nodes);
    assert_eq!(again.best, fresh.best);
}

#[test]
fn a_game_switches_its_features_off_unless_they_are_forced_on() {
    use tensorchess_engine::{Feature, Features};
    let nodes = |features: Features| {
        let options = Options {
            features,
            ..Options::default()
        };
        let r = Engine::new(options).search(
            &[Position::<Tensor>::new()],
            &Limits::depth(7),
            &mut NoHandler,
        );
        r.nodes
    };
    // Tensor Chess switches `tt_eval` off: switching it on changes nothing,
    // switching it off changes nothing, forcing it on changes the search.
    let default = nodes(Features::default());
    let mut off = Features::default();
    off.set(Feature::TtEval, false);
    assert_eq!(nodes(off), default);
    let mut forced = Features::default();
    forced.force(Feature::TtEval);
    assert_ne!(
        nodes(forced),
        default,
        "forcing tt_eval on did not reach the search"
    );
    assert!(
        !Features::default()
            .for_game::<Tensor>()
            .is_on(Feature::TtEval)
    );
    assert!(forced.for_game::<Tensor>().is_on(Feature::TtEval));
    assert!(
        Features::default()
            .for_game::<Chess>()
            .is_on(Feature::TtEval)
    );
}

#[test]
fn contempt_prices_a_perpetual_check() {
    // Black has a queen and two rooks more; White's queen checks forever
    // from g5 and e5 (the pawn on e7 keeps the king off f8).
    let pos = Position::<Chess>::from_fen("6k1/4Pp1p/8/8/q4Q2/1r6/r4PPP/6K1 w - - 0 1").unwrap();
    let score = |contempt: i32| {
        let mut engine = Engine::new(Options {
            contempt,
            ..Options::default()
        });
        engine
            .search(&[pos], &Limits::depth(10), &mut NoHandler)
            .score
            .0
    };
    // No contempt: the repetition is an even game.
    assert_eq!(score(0), 0);
    // Seeking a draw (negative contempt): the draw is worth that much to White.
    assert_eq!(score(-40), 40);
    // Avoiding one: the draw costs White 50, so nothing it finds is worth
    // more than the even game it had, and the draw is its floor.
    let avoiding = score(50);
    assert!((-50..0).contains(&avoiding), "{avoiding}");
}
