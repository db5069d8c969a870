//! Tensor Chess, rule by rule (RULES.md sections 1.3 to 1.7): the beast
//! itself, pass-through, ricochet and propel, and the brute-force check of
//! every hand-built position. The rest of section 1 is in `rules_tensor.rs`.
//! Positions follow the Ukrainian rulebook's diagrams ("Схема N") where it
//! describes one; every expected move was worked out by hand from the rules.

use crate::common::*;
use tensorchess_rules::{Color, MoveKind, Position, Role, Tensor, san};

type P = Position<Tensor>;

fn p(pieces: &str, tail: &str) -> P {
    pos::<Tensor>(pieces, tail)
}

const W: &str = " w - - 0 1";
const B: &str = " b - - 0 1";

// ---- 1.3 The beast -----------------------------------------------------------

#[test]
fn r1_3_beast_steps_only_onto_empty_squares() {
    // Beast e4; own pawn e5 and enemy knight f4 next to it. It steps to the six
    // empty neighbours, hops over e5 to e6 and over f4 to g4, and never lands
    // on an occupied square or captures the knight.
    let pos = p("Ka1 kj8 Te4 Pe5 nf4", W);
    check_exact_from(
        &pos,
        "e4",
        &[
            "e4d3", "e4e3", "e4f3", "e4d4", "e4d5", "e4f5", "e4e6", "e4g4",
        ],
    );
    check_moves(&pos, &[], &["e4e5", "e4f4", "e4g4xf4"]);
}

#[test]
fn r1_3_orthogonal_hop_chain_turns_but_never_goes_diagonal() {
    // d2 → over d3 → d4 → over e4 → f4 (a turn from file to rank) → over f5 →
    // f6. From f4 a diagonal hop over g5 would reach h6, and from f6 one over
    // g5 would reach h4: the families never mix, so neither is a move.
    let pos = p("Ka1 ka8 Td2 Pd3 Pe4 pf5 Pg5", W);
    check_exact_from(
        &pos,
        "d2",
        &[
            "d2c1", "d2d1", "d2e1", "d2c2", "d2e2", "d2c3", "d2e3", // steps
            "d2d4", "d2f4", "d2f6", // hops
        ],
    );
    check_moves(&pos, &["d2f6"], &["d2h6", "d2h4"]);
}

#[test]
fn r1_3_diagonal_hop_chain_changes_diagonal_but_never_goes_orthogonal() {
    // d2 → over e3 → f4, then over g5 → h6 or over e5 → d6 (a change of
    // diagonal). An orthogonal hop from f4 over f5 would reach f6: not a move.
    let pos = p("Ka1 ka8 Td2 Pe3 Pg5 pe5 Pf5", W);
    check_exact_from(
        &pos,
        "d2",
        &[
            "d2c1", "d2d1", "d2e1", "d2c2", "d2e2", "d2c3", "d2d3", // steps
            "d2f4", "d2h6", "d2d6", // hops
        ],
    );
    check_moves(&pos, &["d2h6", "d2d6"], &["d2f6"]);
}

#[test]
fn r1_3_step_and_hops_never_combine() {
    // Beast d2, pawn e4: a step to d3 (or e3) followed by a hop over e4 would
    // reach f5 (or e5); a step is never combined with hops.
    let pos = p("Ka1 ka8 Td2 Pe4", W);
    check_moves(&pos, &["d2d3", "d2e3"], &["d2f5", "d2e5", "d2f4"]);
}

#[test]
fn r1_3_chain_may_not_end_on_its_start_without_capture() {
    // Beast d4 can hop over d5 to d6 and back over d5 to d4: that is no move.
    let pos = p("Ka1 kj8 Td4 Pd5", W);
    check_exact_from(
        &pos,
        "d4",
        &[
            "d4c3", "d4d3", "d4e3", "d4c4", "d4e4", "d4c5", "d4e5", "d4d6",
        ],
    );
    assert!(pos.parse_move("d4d4").is_err());
    for m in pos.legal_moves() {
        assert!(
            m.from() != m.to() || m.kind() == MoveKind::BeastCapture,
            "{} ends where it started",
            pos.move_string(m)
        );
    }
}

#[test]
fn r1_3_beast_capture_is_optional_and_may_return_to_start() {
    // White beast d4, black beast d5. Hopping over d5 to d6 may capture it
    // (d4d6xd5) or not (d4d6); from d6 a hop back over d5 may capture it and
    // end on the start (d4d4xd5).
    let pos = p("Ka1 kj8 Td4 td5", " w - - 30 40");
    check_exact_from(
        &pos,
        "d4",
        &[
            "d4c3", "d4d3", "d4e3", "d4c4", "d4e4", "d4c5", "d4e5", // steps
            "d4d6", "d4d6xd5", "d4d4xd5",
        ],
    );
    let back = play(&pos, "d4d4xd5");
    assert_eq!(at(&back, "d4"), Some('T'));
    assert_eq!(at(&back, "d5"), None);
    assert_eq!(back.pieces(Color::Black, Role::Beast).count(), 0);
    // A beast capture is a capture for the 100-ply rule (RULES 1.11).
    assert_eq!(back.halfmove_clock(), 0);
    let over = play(&pos, "d4d6");
    assert_eq!(at(&over, "d5"), Some('t'));
    assert_eq!(over.halfmove_clock(), 31);
}

#[test]
fn r1_3_at_most_one_beast_captured_and_capture_ends_the_move() {
    // White beast c4; black beasts d4 and f4 on the same rank, e4 and g4 empty.
    // Non-capturing chain: c4 → e4 → g4. Captures: d4 landing e4, f4 landing
    // g4 (after passing d4), f4 hopped back from g4 landing e4, d4 hopped back
    // from e4 landing c4. Capturing d4 and going on to g4 is not a move.
    let pos = p("Ka1 kj8 Tc4 td4 tf4", W);
    check_exact_from(
        &pos,
        "c4",
        &[
            "c4b3", "c4c3", "c4d3", "c4b4", "c4b5", "c4c5", "c4d5", // steps
            "c4e4", "c4g4", // hops without capture
            "c4e4xd4", "c4g4xf4", "c4e4xf4", "c4c4xd4",
        ],
    );
    check_moves(&pos, &[], &["c4g4xd4", "c4c4xf4"]);
    for m in pos.legal_moves() {
        if m.kind() == MoveKind::BeastCapture {
            let after = pos.play(m);
            assert_eq!(after.pieces(Color::Black, Role::Beast).count(), 1);
        }
    }
}

#[test]
fn r1_3_beast_captures_nothing_but_a_beast() {
    // Beast c4 hops over the enemy knight d4 without taking it.
    let pos = p("Ka1 kj8 Tc4 nd4", W);
    check_moves(&pos, &["c4e4"], &["c4d4", "c4e4xd4"]);
    let after = play(&pos, "c4e4");
    assert_eq!(at(&after, "d4"), Some('n'));
}

#[test]
fn r1_3_beasts_never_give_check_nor_attack_squares() {
    // White beasts next to the black king: no check, and the king may step
    // next to them (but never onto them: it cannot capture a beast).
    let pos = p("Ka1 ke8 Te7 Tf6", B);
    assert!(!pos.is_check());
    check_exact_from(&pos, "e8", &["e8d8", "e8f8", "e8d7", "e8f7"]);
}

#[test]
fn r1_3_beasts_and_kings_never_propel() {
    // A king next to its beast, and a beast next to another: no propel at all.
    let pos = p("Ke1 Te2 Td3 kj8", W);
    assert!(
        pos.legal_moves()
            .iter()
            .all(|m| m.kind() != MoveKind::Propel)
    );
    check_moves(&pos, &["d3f1"], &["e1e2"]);
}

// ---- 1.4 Pass-through ------------------------------------------------------------

/// Схема 4: White pawn b2 with its beast b3, white queen f1; black rook f7
/// with its beast f5, black bishop d8 with its beast g5.
const SCHEME4: &str = "Ka1 Qf1 Pb2 Tb3 ka8 rf7 tf5 bd8 tg5";

#[test]
fn r1_4_scheme4_white_pawn_and_queen() {
    let pos = p(SCHEME4, W);
    // The pawn jumps its own beast to b4 (or propels it); the queen cannot
    // pass the black beast f5 and so cannot take the rook on f7.
    check_moves(
        &pos,
        &["b2b4", "b2b3>b4", "f1f2", "f1f3", "f1f4"],
        &["b2b3", "f1f5", "f1f6", "f1f7"],
    );
}

#[test]
fn r1_4_scheme4_black_bishop_and_rook() {
    let pos = p(SCHEME4, B);
    // The bishop passes its beast g5 and goes on to j2; the rook passes its
    // beast f5 and takes the queen on f1. Neither stops on a beast.
    check_moves(
        &pos,
        &[
            "d8e7", "d8f6", "d8h4", "d8i3", "d8j2", "f7f6", "f7f4", "f7f3", "f7f2", "f7f1",
        ],
        &["d8g5", "f7f5"],
    );
    let after = play(&pos, "f7f1");
    assert_eq!(at(&after, "f1"), Some('r'));
}

#[test]
fn r1_4_sliders_pass_several_own_beasts_and_stop_at_an_enemy_beast() {
    // Rook a3 along rank 3: own beasts c3 and e3 are passed, the black beast
    // h3 blocks and cannot be taken.
    let pos = p("Kj1 kj8 Ra3 Tc3 Te3 th3", W);
    check_moves(
        &pos,
        &["a3b3", "a3d3", "a3f3", "a3g3"],
        &["a3c3", "a3e3", "a3h3", "a3i3", "a3j3"],
    );
}

#[test]
fn r1_4_knights_leap_over_enemy_beasts() {
    let pos = p("Ka1 kj8 Nd4 td5 te5 te4 tc4", W);
    check_moves(&pos, &["d4e6", "d4c6", "d4f5", "d4b5"], &[]);
}

#[test]
fn r1_4_pawn_pass_through_only_first_move_over_own_beast_onto_empty() {
    // c2: the beast ahead is an enemy one. d2: own beast, but d4 is occupied.
    // e3: not on its first move. g2: own beast, g4 empty: the jump is legal.
    let pos = p("Ka1 kj8 Pc2 tc3 Pd2 Td3 pd4 Pe3 Te4 Pg2 Tg3", W);
    check_moves(
        &pos,
        &["g2g4", "g2g3>g4", "e3d4"],
        &["c2c4", "c2c3", "d2d4", "d2d3>d4", "e3e5", "e3e4>e5", "g2g3"],
    );
}

#[test]
fn r1_4_pawn_pass_through_creates_no_en_passant_square() {
    // b2 jumps its beast b3 to b4 next to the black pawn c4: no en passant.
    let pos = p("Ka1 kj8 Pb2 Tb3 pc4", W);
    let after = play(&pos, "b2b4");
    assert_eq!(after.ep_square(), None);
    assert_eq!(after.fen().split(' ').nth(3), Some("-"));
    assert!(
        after
            .legal_moves()
            .iter()
            .all(|m| m.kind() != MoveKind::EnPassant)
    );
    // The same pawn structure without the beast: an ordinary double step does
    // give en passant.
    let plain = p("Ka1 kj8 Pb2 pc4", W);
    let after = play(&plain, "b2b4");
    assert_eq!(after.fen().split(' ').nth(3), Some("b3"));
    check_moves(&after, &["c4b3"], &[]);
}

#[test]
fn r1_4_king_never_passes_a_beast_outside_castling() {
    let pos = p("Ke4 Te5 kj8", W);
    check_exact_from(
        &pos,
        "e4",
        &["e4d3", "e4e3", "e4f3", "e4d4", "e4f4", "e4d5", "e4f5"],
    );
}

// ---- 1.5 Ricochet ------------------------------------------------------------------

#[test]
fn r1_5_scheme5_bishop_ricochet_gives_check() {
    // Black bishop a7, black beast d4: the bishop slides to d4 and turns onto
    // the other diagonal through d4 (c3 b2 a1 / e5 f6 g7 h8). From f6 it
    // checks the king on h4.
    let pos = p("Kh4 kj8 ba7 td4", B);
    check_moves(
        &pos,
        &[
            "a7b8", "a7b6", "a7c5", "a7e3", "a7f2", "a7g1", // through the beast
            "a7c3", "a7b2", "a7a1", "a7e5", "a7f6", "a7g7", "a7h8", // ricochet
        ],
        &["a7d4", "a7d5", "a7e4"],
    );
    let m = pos.parse_move("a7f6").unwrap();
    let after = pos.play(m);
    assert!(after.is_check());
    assert!(king_attacked(&after, Color::White));
    assert_eq!(san::san(&pos, m), "Bf6+");
}

#[test]
fn r1_5_scheme5_ricochet_fork_and_enemy_cannot_ricochet() {
    // Black bishop d6 with its beast f4 attacks, by ricochet along c1–j8, both
    // the white king d2 and the white queen i7. The queen cannot answer by
    // ricocheting off the black beast, and the king may step onto no square of
    // the ricochet line (e3, nor c1 behind it).
    let pos = p("Kd2 Qi7 ka8 bd6 tf4", W);
    assert!(pos.is_check());
    let all: Vec<String> = moves(&pos).into_iter().collect();
    assert_eq!(
        all,
        vec!["d2c2", "d2c3", "d2d1", "d2d3", "d2e1", "d2e2"],
        "only king moves leave the ricochet line"
    );
    check_moves(&pos, &[], &["d2e3", "d2c1", "i7d6", "i7f4"]);
}

#[test]
fn r1_5_scheme6_rook_ricochets() {
    // Rook b1 ricochets off its beast b3 along rank 3 (and passes its beast
    // e3 there); rook f6 ricochets off its beast i6 along the i-file. A second
    // ricochet (b1 → b3 → e3 → up the e-file) is not allowed.
    let pos = p("Ka1 kj8 Rb1 Tb3 Te3 Rf6 Ti6", W);
    check_moves(
        &pos,
        &[
            "b1a3", "b1c3", "b1d3", "b1f3", "b1j3", "b1b2", "b1b4", "b1b8", "b1c1", "b1j1", "f6i7",
            "f6i8", "f6i5", "f6i1", "f6j6", "f6a6", "f6f1", "f6f8",
        ],
        &["b1b3", "b1e3", "b1e4", "b1e5", "b1e2", "f6i6", "b1a1"],
    );
}

#[test]
fn r1_5_ricochet_then_capture_but_not_a_beast() {
    // Rook b1, beast b3: along rank 3 it takes the knight e3 but goes no
    // further, and the black beast a3 can be neither taken nor passed. Up the
    // b-file the black beast b6 blocks.
    let pos = p("Kj1 kj8 Rb1 Tb3 ne3 ta3 tb6", W);
    check_moves(
        &pos,
        &["b1c3", "b1d3", "b1e3", "b1b2", "b1b4", "b1b5"],
        &["b1a3", "b1f3", "b1b6", "b1b7"],
    );
}

#[test]
fn r1_5_queen_arriving_orthogonally_leaves_orthogonally() {
    // Queen d1, beast d4: ricochet along rank 4 only, never along d4's diagonals.
    let pos = p("Kj1 kj8 Qd1 Td4", W);
    check_moves(
        &pos,
        &["d1e4", "d1j4", "d1c4", "d1b4", "d1a4", "d1d8"],
        &[
            "d1d4", "d1e5", "d1f6", "d1c5", "d1c3", "d1e3", "d1b2", "d1f2",
        ],
    );
}

#[test]
fn r1_5_queen_arriving_diagonally_leaves_diagonally() {
    // Queen a1, beast d4: ricochet along the a7–g1 diagonal only.
    let pos = p("Kj1 kj8 Qa1 Td4", W);
    check_moves(
        &pos,
        &["a1c5", "a1b6", "a1e3", "a1f2", "a1e5", "a1h8"],
        &["a1d4", "a1d5", "a1e4", "a1d3", "a1c4"],
    );
}

#[test]
fn r1_5_scheme7_knight_ricochet_and_scheme8_knight_propel() {
    // Knight f4, its beast g6. Ricochet: a second knight move from g6, to an
    // empty square or an enemy piece that is not a beast, never home (f4).
    // Propel (Схема 8): the knight stays on g6 and the beast jumps, to empty
    // squares only, the knight's old square f4 included.
    let pos = p("Ka1 ka8 Nf4 Tg6 pe7 ti5 Bh8", W);
    check_exact_from(
        &pos,
        "f4",
        &[
            // ordinary knight moves
            "f4e2", "f4g2", "f4d3", "f4h3", "f4d5", "f4h5", "f4e6",
            // ricochet off g6: e5, e7 (takes the pawn), f8, i7, h4
            "f4e5", "f4e7", "f4f8", "f4i7", "f4h4", // propel the beast from g6
            "f4g6>e5", "f4g6>f8", "f4g6>i7", "f4g6>h4", "f4g6>f4",
        ],
    );
    check_moves(
        &pos,
        &[],
        &[
            "f4g6", "f4f4", "f4h8", "f4i5", "f4g6>e7", "f4g6>h8", "f4g6>i5",
        ],
    );
    let after = play(&pos, "f4g6>f4");
    assert_eq!(at(&after, "g6"), Some('N'));
    assert_eq!(at(&after, "f4"), Some('T'));
}

#[test]
fn r1_5_knight_ricochet_gives_check() {
    // Knight f4 and beast g6 attack h8 by ricochet: the black king there is in
    // check and may not step to i7, also on a ricochet square.
    let pos = p("Ka1 Nf4 Tg6 kh8", B);
    assert!(pos.is_check());
    let all: Vec<String> = moves(&pos).into_iter().collect();
    assert_eq!(all, vec!["h8g7", "h8g8", "h8h7", "h8i8"]);
    // The knight move that sets it up is written with '+'.
    let before = p("Ka1 Nd3 Tg6 kh8", W);
    let m = before.parse_move("d3f4").unwrap();
    assert_eq!(san::san(&before, m), "Nf4+");
}

#[test]
fn r1_5_no_propel_after_a_ricochet() {
    // Bishop a1 ricochets off c3 toward e1, where another own beast stands:
    // it may neither stop there nor propel it. It may propel c3 itself.
    let pos = p("Kj1 kj8 Ba1 Tc3 Te1", W);
    assert!(moves(&pos).iter().all(|m| !m.starts_with("a1e1")));
    check_moves(
        &pos,
        &["a1d2", "a1b4", "a1a5", "a1c3>d2", "a1c3>a1", "a1c3>b4"],
        &["a1e1"],
    );
}

// ---- 1.6 Propel --------------------------------------------------------------------

#[test]
fn r1_6_scheme9_bishop_propel() {
    // Bishop c7 goes to its beast f4 (through d6, e5); the beast slides on any
    // diagonal from f4: back to c7 (the bishop's old square) and on to b8, to
    // g5 but not onto the own pawn h6, to e3 but not onto the black knight d2
    // (no capture) nor past it, and through the own beast h2 to i1.
    let pos = p("Ka1 kj8 Bc7 Tf4 Ph6 Th2 nd2", W);
    let propels: Vec<String> = moves_from(&pos, "c7")
        .into_iter()
        .filter(|m| m.starts_with("c7f4>"))
        .collect();
    assert_eq!(
        propels,
        vec![
            "c7f4>b8", "c7f4>c7", "c7f4>d6", "c7f4>e3", "c7f4>e5", "c7f4>g3", "c7f4>g5", "c7f4>i1"
        ]
    );
    // The bishop may also pass f4 and propel h2, whose beast may pass f4.
    check_moves(
        &pos,
        &[
            "c7h2>g1", "c7h2>i3", "c7h2>j4", "c7h2>i1", "c7h2>g3", "c7h2>e5", "c7h2>c7", "c7h2>b8",
        ],
        &[
            "c7f4>h6", "c7f4>h2", "c7f4>d2", "c7f4>c1", "c7f4>f5", "c7f4>f4", "c7h2>f4",
        ],
    );
    let after = play(&pos, "c7f4>b8");
    assert_eq!(at(&after, "f4"), Some('B'));
    assert_eq!(at(&after, "b8"), Some('T'));
    assert_eq!(at(&after, "c7"), None);
}

#[test]
fn r1_6_scheme10_rook_propel() {
    // Rook g3 goes to its beast g5; the beast slides along the g-file (down to
    // the rook's old square g3 and beyond, g2 and g1) or along rank 5.
    let pos = p("Ka1 kj8 Rg3 Tg5", W);
    let propels: Vec<String> = moves_from(&pos, "g3")
        .into_iter()
        .filter(|m| m.contains('>'))
        .collect();
    let mut want: Vec<String> = [
        "g4", "g3", "g2", "g1", "g6", "g7", "g8", "a5", "b5", "c5", "d5", "e5", "f5", "h5", "i5",
        "j5",
    ]
    .iter()
    .map(|s| format!("g3g5>{s}"))
    .collect();
    want.sort();
    assert_eq!(propels, want);
    check_moves(&pos, &[], &["g3g5>h6", "g3g5>g5", "g3g5"]);
}

#[test]
fn r1_6_queen_propel_follows_the_family_it_arrived_with() {
    let ortho = p("Kj1 kj8 Qd1 Td4", W);
    check_moves(
        &ortho,
        &["d1d4>a4", "d1d4>j4", "d1d4>d8", "d1d4>d1", "d1d4>d2"],
        &["d1d4>e5", "d1d4>a7", "d1d4>c3"],
    );
    let diag = p("Kj1 kj8 Qa1 Td4", W);
    check_moves(
        &diag,
        &["a1d4>a7", "a1d4>g1", "a1d4>h8", "a1d4>a1", "a1d4>c3"],
        &["a1d4>d8", "a1d4>a4", "a1d4>d1", "a1d4>j4"],
    );
}

#[test]
fn r1_6_pawn_propel_one_square_on_the_first_move_only() {
    // c2: steps onto its beast c3, which goes to c4 (never further).
    // d3: not on its first move. e2: the square beyond the beast is occupied.
    // f2: the beast is two squares ahead; the pawn reaches it only by a step.
    let pos = p("Ka1 kj8 Pc2 Tc3 Pd3 Td4 Pe2 Te3 pe4 Pf2 Tf4", " w - - 7 20");
    let propels: Vec<String> = moves(&pos)
        .into_iter()
        .filter(|m| m.contains('>'))
        .collect();
    assert_eq!(propels, vec!["c2c3>c4"]);
    check_moves(
        &pos,
        &["c2c3>c4", "c2c4", "f2f3"],
        &["c2c3>c5", "d3d4>d5", "e2e3>e4", "f2f4>f5", "f2f4", "c2c3"],
    );
    let after = play(&pos, "c2c3>c4");
    assert_eq!(at(&after, "c3"), Some('P'));
    assert_eq!(at(&after, "c4"), Some('T'));
    assert_eq!(after.halfmove_clock(), 0);
    assert_eq!(after.ep_square(), None);
    // Black's pawns propel downward.
    let black = p("Ka1 kj8 pg7 tg6", B);
    check_moves(&black, &["g7g6>g5", "g7g5"], &["g7g6>g4"]);
}

#[test]
fn r1_6_propel_by_a_piece_does_not_reset_the_clock() {
    let pos = p("Ka1 kj8 Rg3 Tg5", " w - - 10 20");
    assert_eq!(play(&pos, "g3g5>g1").halfmove_clock(), 11);
}

// ---- 1.7 Other pieces: only a beast captures a beast --------------------------------

#[test]
fn r1_7_only_a_beast_captures_a_beast() {
    // The black beast on d5 stands where every white piece could otherwise
    // take it: pawn c4/e4 diagonally, knight, bishop, rook, queen, king.
    let pos = p("Kd4 Pc4 Nb4 Bf7 Ra5 Qf5 kj8 td5", W);
    assert!(
        pos.legal_moves()
            .iter()
            .all(|m| m.to() != sq::<Tensor>("d5"))
    );
    check_moves(
        &pos,
        &["c4c5", "d4e4"],
        &["c4d5", "b4d5", "b3d5", "d1d5", "f5d5", "d4d5"],
    );
}

// ---- The rulebooks' own arithmetic: brute force agrees on every position above ----

#[test]
fn brute_force_agrees_on_hand_built_positions() {
    for (pieces, tail) in [
        (SCHEME4, W),
        (SCHEME4, B),
        ("Kd2 Qi7 ka8 bd6 tf4", W),
        ("Ka1 kj8 Rb1 Tb3 Te3 Rf6 Ti6", W),
        ("Ka1 ka8 Nf4 Tg6 pe7 ti5 Bh8", W),
        ("Kf1 Ra1 Tb1 Ti1 Rj1 kf8", " w KQ - 0 1"),
        ("Kf1 Tg1 Rj1 kc8 rg8", " w K - 0 1"),
        ("Kf1 Ra1 Rj1 ke8 ri8 rb8", " w KQ - 0 1"),
        ("Kf1 Rj1 ka8 bb6 te3", " w K - 0 1"),
    ] {
        let pos = p(pieces, tail);
        assert_eq!(moves(&pos), brute_force_legal(&pos), "{}", pos.fen());
    }
}
