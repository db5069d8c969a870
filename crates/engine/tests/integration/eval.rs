//! Evaluation terms: each named term counts what it says, for the right
//! side, in positions built for it; and the evaluation is symmetric.

use std::collections::HashMap;
use tensorchess_engine::eval::{Accumulator, Evaluate, evaluate, term_name};
use tensorchess_rules::{Chess, Position, Tensor};

/// The position's terms by name (White minus Black).
struct Named<V: Evaluate>(HashMap<String, i32>, std::marker::PhantomData<V>);

impl<V: Evaluate> Accumulator for Named<V> {
    fn add(&mut self, term: usize, value: i32) {
        *self.0.entry(term_name(&V::LAYOUT, term)).or_default() += value;
    }
}

fn terms<V: Evaluate>(fen: &str) -> HashMap<String, i32> {
    let pos = Position::<V>::from_fen(fen).unwrap();
    let mut named = Named::<V>(HashMap::new(), std::marker::PhantomData);
    V::terms(&pos, &mut named);
    named.0
}

fn term(terms: &HashMap<String, i32>, name: &str) -> i32 {
    terms.get(name).copied().unwrap_or(0)
}

#[test]
fn an_undefended_attacked_piece_is_hanging() {
    // The black knight on e5 is attacked by the rook on e1 and defended by
    // nothing; White's rook is defended by its king.
    let t = terms::<Chess>("4k3/8/8/4n3/8/8/8/4RK2 w - - 0 1");
    assert_eq!(term(&t, "hanging"), -1, "{t:?}");
    // Defended by a pawn on d6, it no longer hangs.
    let t = terms::<Chess>("4k3/8/3p4/4n3/8/8/8/4RK2 w - - 0 1");
    assert_eq!(term(&t, "hanging"), 0, "{t:?}");
}

#[test]
fn a_knight_or_bishop_attacking_a_rook_or_queen_threatens_it() {
    // White's knight on c6 attacks the rook on d8 and the queen on e7.
    let t = terms::<Chess>("3r2k1/4qppp/2N5/8/8/8/5PPP/6K1 w - - 0 1");
    assert_eq!(term(&t, "minor_threatened"), -2, "{t:?}");
    // A bishop on b5 attacking the rook on e8 through d7 and c6.
    let t = terms::<Chess>("4r1k1/5ppp/8/1B6/8/8/5PPP/6K1 w - - 0 1");
    assert_eq!(term(&t, "minor_threatened"), -1, "{t:?}");
}

#[test]
fn king_attackers_count_the_square_of_the_pieces_joining_in() {
    // The zone is the king's square and its neighbours. The knight on g5
    // reaches f7 and h7; with the queen on h5 (h7 and f7 too) two join in.
    let one = terms::<Chess>("6k1/5ppp/8/6N1/8/8/5PPP/6K1 w - - 0 1");
    assert_eq!(term(&one, "king_attackers"), 1, "{one:?}");
    let two = terms::<Chess>("6k1/5ppp/8/6NQ/8/8/5PPP/6K1 w - - 0 1");
    assert_eq!(term(&two, "king_attackers"), 4, "{two:?}");
}

#[test]
fn a_passed_pawn_with_its_next_square_empty_is_free_by_rank() {
    // White pawn on d6 (rank index 5), nothing in front of it.
    let t = terms::<Chess>("6k1/8/3P4/8/8/8/8/6K1 w - - 0 1");
    assert_eq!(term(&t, "passed_free"), 5, "{t:?}");
    assert_eq!(term(&t, "passed_pawn_rank6"), 1, "{t:?}");
    // Blocked by the black king on d7: still passed, not free.
    let t = terms::<Chess>("8/3k4/3P4/8/8/8/8/6K1 w - - 0 1");
    assert_eq!(term(&t, "passed_free"), 0, "{t:?}");
    assert_eq!(term(&t, "passed_pawn_rank6"), 1, "{t:?}");
}

/// The same position with colours swapped, as a FEN (orthodox boards).
fn mirrored(fen: &str) -> String {
    let mut fields = fen.split(' ');
    let board: Vec<String> = fields
        .next()
        .unwrap()
        .split('/')
        .rev()
        .map(|rank| {
            rank.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let turn = if fields.next() == Some("w") { "b" } else { "w" };
    format!("{} {turn} - - 0 1", board.join("/"))
}

/// Each position scores the same as its colour-swapped twin.
fn assert_colour_blind<V: Evaluate>(fens: &[&str]) {
    for fen in fens {
        let a = Position::<V>::from_fen(fen).unwrap();
        let b = Position::<V>::from_fen(&mirrored(fen)).unwrap();
        let w = V::default_weights();
        assert_eq!(evaluate(&a, w), evaluate(&b, w), "{fen}");
    }
}

#[test]
fn the_evaluation_is_the_same_for_either_colour() {
    assert_colour_blind::<Chess>(&[
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "3r2k1/4qppp/2N5/8/8/8/5PPP/6K1 w - - 0 1",
        "6k1/8/3P4/8/8/8/8/6K1 b - - 0 1",
    ]);
    assert_colour_blind::<Tensor>(&[
        "r1bqkbnr1t/ppppppppp1/2n7/9p/10/4T5/PPPPPPPPPP/R1BQKBNR1T w - - 0 1",
        "4k4t/10/10/4n5/10/10/10/T3RK4 w - - 0 1",
    ]);
}
