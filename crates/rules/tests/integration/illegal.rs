//! Why a move is illegal: each reason a player can meet in Tensor Chess,
//! named by its code and said in English.

use tensorchess_rules::uci::ParseMoveError;
use tensorchess_rules::{Chess, IllegalReason, Position, Tensor, Variant};

fn reason<V: Variant>(fen: &str, text: &str) -> IllegalReason {
    let pos = Position::<V>::from_fen(fen).unwrap();
    match pos.parse_move(text) {
        Err(ParseMoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text} in {fen}: expected illegal, got {other:?}"),
    }
}

/// A knight on c1 with its beast on d3.
const KNIGHT_AND_BEAST: &str = "9k/10/10/10/10/3T6/10/2N6K w - - 0 1";

#[test]
fn a_bad_propel_square_names_the_propelled_beast_and_how_it_moves() {
    let r = reason::<Tensor>(KNIGHT_AND_BEAST, "c1d3>d4");
    assert_eq!(r.code(), "bad_propel_square");
    assert_eq!(
        r.to_string(),
        "the beast on d3 cannot be propelled to d4: propelled by a knight it makes one knight jump onto an empty square"
    );
    let args = r.args();
    assert!(args.contains(&("beast", "d3".into())) && args.contains(&("to", "d4".into())));
    // The same propel to a knight's jump away is legal.
    let pos = Position::<Tensor>::from_fen(KNIGHT_AND_BEAST).unwrap();
    assert!(pos.parse_move("c1d3>e5").is_ok());
}

#[test]
fn propels_need_a_beast_the_piece_reaches() {
    assert_eq!(
        reason::<Tensor>(KNIGHT_AND_BEAST, "c1e3>e5").code(),
        "no_beast_to_propel"
    );
    let bishop = "10/9k/10/10/10/3T6/10/2B6K w - - 0 1";
    let r = reason::<Tensor>(bishop, "c1d3>d5");
    assert_eq!(r.code(), "cannot_reach_beast");
    assert_eq!(
        r.to_string(),
        "the bishop on c1 cannot reach the beast on d3"
    );
    assert_eq!(
        reason::<Tensor>("9k/10/10/10/10/4T5/10/5K4 w - - 0 1", "f1e3>e5").code(),
        "cannot_propel"
    );
}

#[test]
fn a_piece_stops_on_its_beast_only_to_propel_it() {
    let r = reason::<Tensor>(KNIGHT_AND_BEAST, "c1d3");
    assert_eq!(r.code(), "stops_on_own_beast");
    assert!(r.to_string().contains("only to propel it"), "{r}");
}

/// The position: White's beast on e3 may capture on e4 and come
/// back to e3.
const BEAST_CAPTURE: &str = "9k/10/10/3P6/4t1t3/4T5/10/9K w - - 0 1";

#[test]
fn beast_captures_are_explained() {
    let pos = Position::<Tensor>::from_fen(BEAST_CAPTURE).unwrap();
    assert!(pos.parse_move("e3e3xe4").is_ok());
    assert_eq!(
        reason::<Tensor>(BEAST_CAPTURE, "e3e3xd5").code(),
        "no_enemy_beast"
    );
    let r = reason::<Tensor>(BEAST_CAPTURE, "e3a3xe4");
    assert_eq!(r.code(), "beast_cannot_capture");
    assert!(r.to_string().contains("last hop"), "{r}");
    assert_eq!(
        reason::<Tensor>("9k/10/10/10/4t5/10/4N5/9K w - - 0 1", "e2e6xe4").code(),
        "only_beasts_capture_beasts"
    );
}

#[test]
fn beasts_and_the_pieces_that_cannot_take_them() {
    let r = reason::<Tensor>(BEAST_CAPTURE, "e3e6");
    assert_eq!(r.code(), "beast_cannot_reach");
    assert!(
        r.to_string().starts_with("the beast on e3 cannot reach e6"),
        "{r}"
    );
    let rook_and_beast = "9k/10/10/10/4t5/10/10/4R4K w - - 0 1";
    let r = reason::<Tensor>(rook_and_beast, "e1e4");
    assert_eq!(r.code(), "cannot_capture_beast");
    assert!(
        r.to_string().contains("only a beast captures a beast"),
        "{r}"
    );
}

#[test]
fn promotions_say_what_is_missing() {
    let pawn = "9k/4P5/10/10/10/10/10/9K w - - 0 1";
    assert_eq!(
        reason::<Tensor>(pawn, "e7e8").code(),
        "promotion_needs_piece"
    );
    assert!(
        Position::<Tensor>::from_fen(pawn)
            .unwrap()
            .parse_move("e7e8t")
            .is_ok()
    );
    assert_eq!(
        reason::<Chess>("7k/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8t").code(),
        "cannot_promote_to"
    );
    assert_eq!(
        reason::<Chess>("7k/8/8/8/8/8/4P3/K7 w - - 0 1", "e2e3q").code(),
        "not_a_promotion"
    );
}

#[test]
fn ordinary_reasons_keep_their_words() {
    let start = Tensor::START_FEN;
    let r = reason::<Tensor>(start, "e2e5");
    assert_eq!(r.to_string(), "the pawn on e2 cannot move that way");
    assert_eq!(r.code(), "cannot_move_that_way");
    assert_eq!(reason::<Tensor>(start, "e3e4").code(), "no_piece");
    assert_eq!(reason::<Tensor>(start, "e7e5").code(), "not_yours");
}

/// SAN that names a move the king's safety forbids says so, as the same
/// move written as a move string does (not "no pawn can go there").
#[test]
fn san_blocked_by_check_says_check() {
    use tensorchess_rules::san::SanError;
    let fen = "4k5/10/10/10/10/10/P3q5/5K4 w - - 0 1";
    let pos = Position::<Tensor>::from_fen(fen).unwrap();
    let by_string = reason::<Tensor>(fen, "a2a3");
    assert_eq!(by_string.code(), "still_in_check");
    match pos.parse_san("a3") {
        Err(SanError::Illegal(_, r)) => assert_eq!(r, by_string),
        other => panic!("a3: expected illegal, got {other:?}"),
    }
    // A move no piece of that kind could make at all is still "no such move".
    match pos.parse_san("a5") {
        Err(SanError::Illegal(_, r)) => assert_eq!(r.code(), "no_such_move"),
        other => panic!("a5: expected illegal, got {other:?}"),
    }
}
