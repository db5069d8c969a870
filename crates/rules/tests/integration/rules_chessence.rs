//! Chessence, rule by rule (RULES.md section 3), on hand-built positions.
//! Board: files a–f, ranks 1–9; the squares a2 b3 b5 c6 d4 e5 e7 f8 do not
//! exist. White's drop squares: d2 d3 e1 e2 e3 f2; Black's: a8 b7 b8 b9 c7 c8.

use crate::common::*;
use tensorchess_rules::{
    Chessence, Color, EndReason, Game, Geometry, MoveKind, Outcome, Position, Role, san,
};

type P = Position<Chessence>;

fn p(pieces: &str, tail: &str) -> P {
    pos::<Chessence>(pieces, tail)
}

const START: &str = "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w - - 0 1";

#[test]
fn r3_board_setup_and_missing_squares() {
    let g = Geometry::CHESSENCE;
    for hole in ["a2", "b3", "b5", "c6", "d4", "e5", "e7", "f8"] {
        assert!(g.parse_square(hole).is_none(), "{hole} must not exist");
    }
    assert_eq!(g.squares().count(), 6 * 9 - 8);
    let start = P::new();
    assert_eq!(start.fen(), START);
    assert_eq!(at(&start, "f1"), Some('K'));
    assert_eq!(at(&start, "a9"), Some('k'));
    for s in ["d2", "d3", "e1", "e2", "e3", "f2"] {
        assert_eq!(at(&start, s), Some('M'), "{s}");
    }
    for s in ["a8", "b7", "b8", "b9", "c7", "c8"] {
        assert_eq!(at(&start, s), Some('m'), "{s}");
    }
    assert_eq!(start.hand(Color::White), 3);
    assert_eq!(start.hand(Color::Black), 3);
    assert_eq!(start.legal_moves().len(), 36);
    // A piece on a missing square, or a digit that counts one, is rejected.
    assert!(P::from_fen(&START.replace("mmm2*", "mmm2M")).is_err());
    assert!(P::from_fen(&START.replace("mmm2*", "mmm3")).is_err());
}

#[test]
fn r3_kings_never_move() {
    // The white king has empty squares all around and is the only piece with
    // a square to go to: still no move.
    let pos = p("Kc5 ka9 Ma1", "[] w - - 0 1");
    assert!(pos.legal_moves().is_empty());
    let start = P::new();
    let f1 = sq::<Chessence>("f1");
    assert!(
        start
            .legal_moves()
            .iter()
            .all(|m| m.from() != f1 || m.kind() == MoveKind::Drop)
    );
}

#[test]
fn r3_orthogonal_neighbour_gives_rook_power_to_both() {
    // c2 and c3 touch orthogonally: both move as rooks, and only as rooks.
    // c3 stops before the missing c6 and is blocked westward by b3; c2 stops
    // before a2.
    let pos = p("Kf1 ka9 Mc2 Mc3", "[] w - - 0 1");
    check_exact_from(&pos, "c3", &["c3c4", "c3c5", "c3d3", "c3e3", "c3f3"]);
    check_exact_from(&pos, "c2", &["c2c1", "c2b2", "c2d2", "c2e2", "c2f2"]);
}

#[test]
fn r3_diagonal_neighbour_gives_bishop_power_to_both() {
    // c3 and d2 touch diagonally. c3 stops before the missing d4.
    let pos = p("Kf1 ka9 Mc3 Md2", "[] w - - 0 1");
    check_exact_from(&pos, "c3", &["c3b4", "c3a5", "c3b2", "c3a1"]);
    check_exact_from(&pos, "d2", &["d2e3", "d2f4", "d2e1", "d2c1"]);
    check_moves(&pos, &[], &["c3c4", "c3d3", "c3e4", "d2d3"]);
}

#[test]
fn r3_knight_relation_gives_knight_power_jumping_but_never_landing_on_holes() {
    // c3 and e4 are a knight's move apart. From c3 the knight squares a2 and
    // b5 do not exist; e4's jumps to c5 and d6 pass the missing d4 and e5.
    let pos = p("Kf1 ka9 Mc3 Me4", "[] w - - 0 1");
    check_exact_from(&pos, "c3", &["c3a4", "c3b1", "c3d1", "c3d5", "c3e2"]);
    check_exact_from(&pos, "e4", &["e4c5", "e4d2", "e4d6", "e4f2", "e4f6"]);
    assert!(pos.parse_move("c3a2").is_err());
    assert!(pos.parse_move("c3b5").is_err());
}

#[test]
fn r3_several_relations_give_several_powers() {
    // c3: rook power from c2, bishop power from d2.
    let pos = p("Kf1 ka9 Mc2 Mc3 Md2", "[] w - - 0 1");
    check_exact_from(
        &pos,
        "c3",
        &[
            "c3c4", "c3c5", "c3d3", "c3e3", "c3f3", "c3b4", "c3a5", "c3b2", "c3a1",
        ],
    );
}

#[test]
fn r3_slides_stop_at_missing_squares_and_the_edge() {
    // a1 has rook power (b1) but a2 does not exist and b1 is its own man.
    let pos = p("Kf1 ka9 Ma1 Mb1", "[] w - - 0 1");
    check_exact_from(&pos, "a1", &[]);
    check_exact_from(&pos, "b1", &["b1b2", "b1c1", "b1d1", "b1e1"]);
}

#[test]
fn r3_the_king_and_enemy_men_give_no_power() {
    // The man e2 touches its own king f1 and the black man e3: no power, so
    // White has no move at all (and no reserve), and loses.
    let pos = p("Kf1 ka9 Me2 me3", "[] w - - 0 1");
    assert!(pos.legal_moves().is_empty());
    assert!(!pos.is_check());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: EndReason::NoLegalMoves
        })
    );
}

#[test]
fn r3_drops_only_on_own_empty_drop_squares() {
    let pos = p("Kf1 ka9 Md2 mb8", "[MMm] w - - 4 10");
    let drops: Vec<String> = moves(&pos)
        .into_iter()
        .filter(|m| m.contains('@'))
        .collect();
    assert_eq!(drops, vec!["M@d3", "M@e1", "M@e2", "M@e3", "M@f2"]);
    check_moves(&pos, &["M@d3"], &["M@d2", "M@c2", "M@a8", "M@b7", "M@f1"]);
    let after = play(&pos, "M@e2");
    assert_eq!(at(&after, "e2"), Some('M'));
    assert_eq!(after.hand(Color::White), 1);
    assert!(after.fen().starts_with(&format!(
        "{}[Mm]",
        board::<Chessence>("Kf1 ka9 Md2 Me2 mb8")
    )));
    assert_eq!(after.halfmove_clock(), 0);
    // Black drops on its own squares (b8 is taken).
    let black: Vec<String> = moves(&after)
        .into_iter()
        .filter(|m| m.contains('@'))
        .collect();
    assert_eq!(black, vec!["M@a8", "M@b7", "M@b9", "M@c7", "M@c8"]);
    // An empty reserve: no drops.
    let none = p("Kf1 ka9 Md2 Md3", "[m] w - - 0 1");
    assert!(moves(&none).iter().all(|m| !m.contains('@')));
}

#[test]
fn r3_captured_men_leave_the_game() {
    let pos = p("Kf1 ka9 Mc2 Mc3 mc5", "[Mm] w - - 9 10");
    let m = pos.parse_move("c3c5").unwrap();
    assert_eq!(san::san(&pos, m), "Mxc5");
    let after = pos.play(m);
    assert_eq!(at(&after, "c5"), Some('M'));
    assert_eq!(after.hand(Color::White), 1);
    assert_eq!(after.hand(Color::Black), 1);
    assert_eq!(after.halfmove_clock(), 0);
    assert_eq!(after.pieces(Color::Black, Role::Man).count(), 0);
}

#[test]
fn r3_no_promotion() {
    let pos = p("Kf1 ka9 Md8 Md7", "[] w - - 0 1");
    assert!(
        pos.legal_moves()
            .iter()
            .all(|m| m.kind() != MoveKind::Promotion)
    );
    let after = play(&pos, "d8d9");
    assert_eq!(at(&after, "d9"), Some('M'));
    assert!(pos.parse_move("d8d9q").is_err());
}

#[test]
fn r3_check_must_be_answered() {
    // The black man f6 has rook power (f7) and checks the fixed king f1.
    // White's men a1 b1 cannot help; the only answer is the drop on f2.
    let pos = p("Kf1 ka9 Ma1 Mb1 mf6 mf7", "[M] w - - 0 1");
    assert!(pos.is_check());
    let all: Vec<String> = moves(&pos).into_iter().collect();
    assert_eq!(all, vec!["M@f2"]);
    assert!(!play(&pos, "M@f2").is_check());
}

#[test]
fn r3_pinned_man_stays_on_the_line() {
    // f3 (rook power from e3, bishop power from e2) shields the king from the
    // black man f6: it may move along the f-file only.
    let pos = p("Kf1 ka9 Mf3 Me3 Me2 mf6 mf7", "[] w - - 0 1");
    assert!(!pos.is_check());
    check_exact_from(&pos, "f3", &["f3f2", "f3f4", "f3f5", "f3f6"]);
    check_moves(&pos, &["e3d3", "e3e4"], &["f3e4", "f3d5"]);
}

#[test]
fn r3_no_legal_move_loses_checkmate_and_stalemate_alike() {
    // Mate: e6 (rook power from d6) goes to f6 next to f7 and checks down the
    // f-file; White has nothing.
    let pre = p("Kf1 ka9 mf7 me6 md6", "[] b - - 0 1");
    assert!(!pre.is_check());
    let m = pre.parse_move("e6f6").unwrap();
    assert_eq!(san::san(&pre, m), "Mf6#");
    assert_eq!(
        pre.play(m).outcome(),
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: EndReason::Checkmate
        })
    );
    // The same with a white man on f3 (which has no power): no check, but
    // White has no move and loses all the same. SAN has no '#'.
    let pre = p("Kf1 Mf3 ka9 mf7 me6 md6", "[] b - - 0 1");
    let m = pre.parse_move("e6f6").unwrap();
    assert_eq!(san::san(&pre, m), "Mf6");
    let after = pre.play(m);
    assert!(!after.is_check());
    assert_eq!(
        after.outcome(),
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: EndReason::NoLegalMoves
        })
    );
    let mut game = Game::from_position(pre);
    game.push(m);
    assert_eq!(game.outcome().and_then(|o| o.winner()), Some(Color::Black));
    // Project decision: on the 100th ply too, leaving the opponent without a
    // move wins (as a mate on the 100th ply does).
    let late = p("Kf1 Mf3 ka9 mf7 me6 md6", "[] b - - 99 60");
    let after = play(&late, "e6f6");
    assert_eq!(after.halfmove_clock(), 100);
    assert_eq!(
        after.outcome().map(|o| o.reason()),
        Some(EndReason::NoLegalMoves)
    );
}

#[test]
fn r3_hundred_plies_without_capture_or_drop() {
    let pos = p("Kf1 ka9 Mc2 Mc3 mb8 mb9", "[Mm] w - - 99 60");
    assert_eq!(pos.outcome(), None);
    let quiet = play(&pos, "c3c4");
    assert_eq!(
        quiet.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::HundredPlies
        })
    );
    // A drop resets the count.
    let dropped = play(&pos, "M@d2");
    assert_eq!(dropped.halfmove_clock(), 0);
    assert_eq!(dropped.outcome(), None);
}

#[test]
fn r3_threefold_repetition_counts_pockets() {
    // c1 ↔ c2 (rook power from d1, then from d2); c8 ↔ c7 likewise.
    let start = p("Kf1 Mc1 Md1 Md2 ka9 mb7 mb8 mc8", "[Mm] w - - 0 1");
    let mut game = Game::from_position(start);
    let cycle = ["c1c2", "c8c7", "c2c1", "c7c8"];
    for m in cycle {
        game.push_str(m).unwrap();
    }
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), None);
    for m in cycle {
        game.push_str(m).unwrap();
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::Repetition
        })
    );
    // The same placement with other pockets is another position.
    let other = p("Kf1 Mc1 Md1 Md2 ka9 mb7 mb8 mc8", "[M] w - - 0 1");
    assert_ne!(start.hash(), other.hash());
    assert_ne!(start.epd(), other.epd());
}
