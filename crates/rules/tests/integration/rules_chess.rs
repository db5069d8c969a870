//! Orthodox chess (RULES.md section 2): a few rules checked by hand.

use crate::common::*;
use tensorchess_rules::{Chess, Color, EndReason, Game, MoveKind, Outcome, Position, san};

type P = Position<Chess>;

#[test]
fn castling_and_castling_rights() {
    let pos = from_fen::<Chess>("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    check_moves(&pos, &["e1g1", "e1c1"], &["e1h1", "e1a1", "e1b1"]);
    let after = play(&pos, "e1g1");
    assert_eq!(at(&after, "g1"), Some('K'));
    assert_eq!(at(&after, "f1"), Some('R'));
    assert_eq!(after.fen().split(' ').nth(2), Some("kq"));
    // A rook move loses that side's right; a rook captured at home likewise.
    let moved = play(&play(&pos, "h1h2"), "e8d8");
    check_moves(&moved, &["e1c1"], &["e1g1"]);
    let captured = play(&pos, "a1a8");
    assert_eq!(captured.fen().split(' ').nth(2), Some("Kk"));
    // The king may not cross an attacked square; the rook may.
    let crossed = from_fen::<Chess>("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    check_moves(&crossed, &["e1c1"], &["e1g1"]);
    let rook_crosses = from_fen::<Chess>("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    check_moves(&rook_crosses, &["e1c1", "e1g1"], &[]);
    // Not out of check.
    let check = from_fen::<Chess>("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(check.is_check());
    check_moves(&check, &["e1d1", "e1f2"], &["e1c1", "e1g1"]);
}

#[test]
fn castling_san_is_o_o() {
    let kiwipete =
        from_fen::<Chess>("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let short = kiwipete.parse_move("e1g1").unwrap();
    let long = kiwipete.parse_move("e1c1").unwrap();
    assert_eq!(short.kind(), MoveKind::Castle);
    assert_eq!(san::san(&kiwipete, short), "O-O");
    assert_eq!(san::san(&kiwipete, long), "O-O-O");
    assert_eq!(san::parse_san(&kiwipete, "O-O"), Ok(short));
    assert_eq!(san::parse_san(&kiwipete, "0-0-0"), Ok(long));
}

#[test]
fn en_passant_and_the_pinned_capturer() {
    // b5xc6 e.p. would open rank 5 between the king a5 and the rook h5: it is
    // illegal, so the FEN drops the en-passant square.
    let pinned = from_fen::<Chess>("8/8/8/KPp4r/8/8/8/7k w - c6 0 2");
    assert_eq!(pinned.ep_square(), None);
    assert_eq!(pinned.fen(), "8/8/8/KPp4r/8/8/8/7k w - - 0 2");
    check_moves(&pinned, &["b5b6"], &["b5c6"]);
    // The same after the double step itself.
    let before = from_fen::<Chess>("8/2p5/8/KP5r/8/8/8/7k b - - 0 1");
    assert_eq!(play(&before, "c7c5").fen().split(' ').nth(3), Some("-"));
    // Without the rook the capture is legal and the square is kept.
    let free = from_fen::<Chess>("8/8/8/KPp5/8/8/8/7k w - c6 0 2");
    assert_eq!(free.fen().split(' ').nth(3), Some("c6"));
    check_moves(&free, &["b5c6"], &[]);
    let taken = play(&free, "b5c6");
    assert_eq!(at(&taken, "c5"), None);
    assert_eq!(san::san(&free, free.parse_move("b5c6").unwrap()), "bxc6");
}

#[test]
fn insufficient_material() {
    let dead = Some(Outcome::Draw {
        reason: EndReason::DeadMaterial,
    });
    for f in [
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",    // K v K
        "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1",  // K+B v K
        "8/8/8/4k3/8/8/8/1N2K3 w - - 0 1",  // K+N v K
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", // bishops c1 and f8: both dark
    ] {
        assert_eq!(from_fen::<Chess>(f).outcome(), dead, "{f}");
    }
    for f in [
        "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", // bishops c1 (dark) and c8 (light)
        "8/8/8/4k3/8/8/8/1NB1K3 w - - 0 1",  // K+B+N v K
        "1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1", // K+N v K+N
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",   // a pawn
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",    // a rook
    ] {
        assert_eq!(from_fen::<Chess>(f).outcome(), None, "{f}");
    }
}

#[test]
fn stalemate_and_checkmate() {
    let stale = from_fen::<Chess>("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!stale.is_check());
    assert_eq!(
        stale.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::Stalemate
        })
    );
    let mut game = Game::<Chess>::new();
    for m in ["f3", "e5", "g4"] {
        game.push_str(m).unwrap();
    }
    let pos = *game.position();
    let mate = pos.parse_san("Qh4").unwrap();
    assert_eq!(san::san(&pos, mate), "Qh4#");
    game.push(mate);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: EndReason::Checkmate
        })
    );
}

#[test]
fn start_position() {
    let start = P::new();
    assert_eq!(start.legal_moves().len(), 20);
    check_moves(&start, &["e2e4", "g1f3"], &["e1g1", "e2e5", "f1c4"]);
}
