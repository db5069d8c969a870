//! `Position::has_mating_material`: anything but the king and beasts, on the
//! board or in hand, could mate; a flag against a side without it is a draw.

use tensorchess_rules::{Chess, Chessence, Color, Position, Tensor};

fn pos<V: tensorchess_rules::Variant>(fen: &str) -> Position<V> {
    Position::<V>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn tensor_chess_beasts_are_no_mating_material() {
    let p = pos::<Tensor>("k9/10/10/10/10/10/10/TK6Tq w - - 0 1");
    assert!(
        !p.has_mating_material(Color::White),
        "a king and two beasts"
    );
    assert!(p.has_mating_material(Color::Black), "a queen");
    let pawn = pos::<Tensor>("k9/10/10/10/10/10/P9/K9 w - - 0 1");
    assert!(pawn.has_mating_material(Color::White));
    assert!(!pawn.has_mating_material(Color::Black));
}

#[test]
fn in_chess_anything_but_the_king_is() {
    let p = pos::<Chess>("k7/8/8/8/8/8/8/KN6 w - - 0 1");
    // A lone knight cannot force mate, but it can mate: a flag against it loses.
    assert!(p.has_mating_material(Color::White));
    assert!(!p.has_mating_material(Color::Black));
}

#[test]
fn chessence_men_in_reserve_count() {
    let start = Position::<Chessence>::new();
    assert!(start.has_mating_material(Color::White));
    assert!(start.has_mating_material(Color::Black));
    let reserve_only = pos::<Chessence>("k5/5*/4*1/2*3/1*2*1/3*2/1*4/*5/5K[M] w - - 0 1");
    assert!(
        reserve_only.has_mating_material(Color::White),
        "a man in hand"
    );
    assert!(
        !reserve_only.has_mating_material(Color::Black),
        "a bare king"
    );
}
