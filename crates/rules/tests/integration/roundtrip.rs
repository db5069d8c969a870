//! Notation round trips on every position of the perft files and every
//! position one ply after them: FEN print → parse → print, move strings and
//! SAN of every legal move parse back to the same move, and the SAN strings
//! of a position's moves are all distinct.

use crate::common::perft_fens;
use std::collections::BTreeSet;
use tensorchess_rules::{Chess, Chessence, Position, Tensor, Variant, san};

fn check_position<V: Variant>(pos: &Position<V>, label: &str) -> usize {
    let fen = pos.fen();
    let back = Position::<V>::from_fen(&fen).unwrap_or_else(|e| panic!("{label}: {fen}: {e}"));
    assert_eq!(back.fen(), fen, "{label}: FEN round trip");
    assert_eq!(
        back.hash(),
        pos.hash(),
        "{label}: {fen}: hash after parsing"
    );
    let legal = pos.legal_moves();
    let mut sans = BTreeSet::new();
    let mut strings = BTreeSet::new();
    for &m in &legal {
        let s = pos.move_string(m);
        assert_eq!(pos.parse_move(&s), Ok(m), "{label}: {fen}: move string {s}");
        assert!(strings.insert(s.clone()), "{label}: {fen}: {s} twice");
        let text = san::san_with(pos, m, &legal);
        assert_eq!(
            san::parse_san(pos, &text),
            Ok(m),
            "{label}: {fen}: SAN {text} of {s}"
        );
        assert!(
            sans.insert(text.clone()),
            "{label}: {fen}: SAN {text} names two moves"
        );
    }
    legal.len()
}

fn run<V: Variant>(file: &str) {
    let fens = perft_fens(file);
    assert!(!fens.is_empty());
    let mut checked = 0;
    for (i, fen) in fens.iter().enumerate() {
        let pos = Position::<V>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let label = format!("{file} #{i}");
        check_position(&pos, &label);
        for m in pos.legal_moves() {
            let child = pos.play(m);
            check_position(&child, &format!("{label} after {}", pos.move_string(m)));
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn tensor_roundtrip() {
    run::<Tensor>("tensor.perft");
}

#[test]
fn chess_roundtrip() {
    run::<Chess>("chess.perft");
}

#[test]
fn chessence_roundtrip() {
    run::<Chessence>("chessence.perft");
}
