//! Tensor Chess, rule by rule (RULES.md section 1; the beast, pass-through,
//! ricochet and propel, sections 1.3 to 1.7, are in `rules_tensor_pieces.rs`).
//! Each test builds a small position by hand and lists moves that must be
//! legal and moves that must not be. Positions follow the Ukrainian
//! rulebook's diagrams ("Схема N") where it describes one. Every expected
//! move below was worked out by hand from the rules; the comments give the
//! reasoning.

use crate::common::*;
use tensorchess_rules::{Color, EndReason, Game, MoveKind, Outcome, Position, Role, Tensor, san};

type P = Position<Tensor>;

fn p(pieces: &str, tail: &str) -> P {
    pos::<Tensor>(pieces, tail)
}

const W: &str = " w - - 0 1";
const B: &str = " b - - 0 1";

// ---- 1.1 Board and setup ----------------------------------------------------

#[test]
fn r1_1_start_position() {
    let start = P::new();
    assert_eq!(
        start.fen(),
        "rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR w KQkq - 0 1"
    );
    // Back rank a→j: R T N B Q K B N T R, Black on the same files.
    for (file, letter) in "abcdefghij".chars().zip("RTNBQKBNTR".chars()) {
        assert_eq!(at(&start, &format!("{file}1")), Some(letter));
        assert_eq!(at(&start, &format!("{file}2")), Some('P'));
        assert_eq!(at(&start, &format!("{file}7")), Some('p'));
        assert_eq!(
            at(&start, &format!("{file}8")),
            Some(letter.to_ascii_lowercase())
        );
    }
    for c in Color::ALL {
        let count = |r| start.pieces(c, r).count();
        assert_eq!(count(Role::King), 1);
        assert_eq!(count(Role::Queen), 1);
        assert_eq!(count(Role::Rook), 2);
        assert_eq!(count(Role::Bishop), 2);
        assert_eq!(count(Role::Knight), 2);
        assert_eq!(count(Role::Beast), 2);
        assert_eq!(count(Role::Pawn), 10);
    }
    // 20 pawn moves, 4 knight moves, 4 beast hops (b1 over b2 to b3, over c2
    // to d3; i1 likewise), and 2 rook propels: the rook steps onto its beast,
    // which slides back onto the rook's empty home square.
    check_moves(
        &start,
        &[
            "a2a3", "a2a4", "e2e4", "j2j4", "c1b3", "c1d3", "h1g3", "h1i3", "b1b3", "b1d3", "i1g3",
            "i1i3", "a1b1>a1", "j1i1>j1",
        ],
        &[
            "b1b2", "b1c2", "b1a2", "d1e2", "c1a2", "f1h1", "f1c1", "e1e2", "a1b1", "e7e5",
        ],
    );
    assert_eq!(start.legal_moves().len(), 30);
}

// ---- 1.2 Words: the moving piece's square counts as empty --------------------

#[test]
fn r1_2_start_square_counts_as_empty() {
    // Rook d2 propels its beast on d5: the beast slides back down the d-file,
    // over the square the rook has just left, to d2 and on to d1.
    let pos = p("Ka1 kj8 Rd2 Td5", W);
    check_moves(
        &pos,
        &["d2d5>d4", "d2d5>d3", "d2d5>d2", "d2d5>d1"],
        &["d2d5>d5", "d2d5"],
    );
    let after = play(&pos, "d2d5>d1");
    assert_eq!(at(&after, "d5"), Some('R'));
    assert_eq!(at(&after, "d1"), Some('T'));
    assert_eq!(at(&after, "d2"), None);
}

// ---- 1.8 Castling ------------------------------------------------------------------

#[test]
fn r1_8_four_castlings() {
    let pos = p("Kf1 Ra1 Rj1 kf8", " w KQ - 0 1");
    check_moves(
        &pos,
        &["f1h1", "f1i1", "f1c1", "f1b1", "f1g1", "f1e1"],
        &["f1j1", "f1a1"],
    );
    for (m, king, rook) in [
        ("f1h1", "h1", "g1"),
        ("f1i1", "i1", "h1"),
        ("f1c1", "c1", "d1"),
        ("f1b1", "b1", "c1"),
    ] {
        let after = play(&pos, m);
        assert_eq!(at(&after, king), Some('K'), "{m}");
        assert_eq!(at(&after, rook), Some('R'), "{m}");
        assert_eq!(at(&after, "f1"), None, "{m}");
        assert_eq!(after.fen().split(' ').nth(2), Some("-"), "{m}");
        assert_eq!(
            pos.legal_moves()
                .iter()
                .find(|x| pos.move_string(**x) == m)
                .unwrap()
                .kind(),
            MoveKind::Castle
        );
    }
    let black = p("Kf1 kf8 ra8 rj8", " b kq - 0 1");
    check_moves(&black, &["f8h8", "f8i8", "f8c8", "f8b8"], &[]);
    assert_eq!(at(&play(&black, "f8i8"), "h8"), Some('r'));
}

#[test]
fn r1_8_castling_through_own_beasts() {
    // The start's back rank without the minor pieces: the rook jumps its beast
    // (j1 over i1 to g1, a1 over b1 to d1); the king may not land on a beast.
    let pos = p("Kf1 Ra1 Tb1 Ti1 Rj1 kf8", " w KQ - 0 1");
    check_moves(&pos, &["f1h1", "f1c1"], &["f1i1", "f1b1"]);
    let after = play(&pos, "f1h1");
    assert_eq!(at(&after, "h1"), Some('K'));
    assert_eq!(at(&after, "g1"), Some('R'));
    assert_eq!(at(&after, "i1"), Some('T'));
    // The king jumps its beast on g1 to i1; castling to h1 would put the rook
    // on the beast's square.
    let pos = p("Kf1 Tg1 Rj1 kf8", " w K - 0 1");
    check_moves(&pos, &["f1i1"], &["f1h1"]);
    let after = play(&pos, "f1i1");
    assert_eq!(at(&after, "i1"), Some('K'));
    assert_eq!(at(&after, "h1"), Some('R'));
    assert_eq!(at(&after, "g1"), Some('T'));
    // Ukrainian rulebook: an own beast on h1 stops both castlings on that side.
    let pos = p("Kf1 Th1 Rj1 kf8", " w K - 0 1");
    check_moves(&pos, &[], &["f1h1", "f1i1"]);
}

#[test]
fn r1_8_crossed_square_holding_own_beast_counts_as_guarded() {
    // The black rook g8 attacks g1. With the white beast on g1 the king may
    // cross it (f1i1); without it the king may not cross g1 at all.
    let guarded = p("Kf1 Tg1 Rj1 kc8 rg8", " w K - 0 1");
    check_moves(&guarded, &["f1i1"], &["f1h1", "f1g1"]);
    let open = p("Kf1 Rj1 kc8 rg8", " w K - 0 1");
    check_moves(&open, &["f1e1"], &["f1h1", "f1i1", "f1g1"]);
}

#[test]
fn r1_8_enemy_beast_blocks_castling() {
    let pos = p("Kf1 Ra1 Rj1 kf8 th1 td1", " w KQ - 0 1");
    check_moves(&pos, &[], &["f1h1", "f1i1", "f1c1", "f1b1"]);
}

#[test]
fn r1_8_no_castling_out_of_check_or_through_or_into_attack() {
    // In check from the rook f8: no castling.
    let check = p("Kf1 Ra1 Rj1 kc8 rf8", " w KQ - 0 1");
    assert!(check.is_check());
    check_moves(&check, &[], &["f1h1", "f1i1", "f1c1", "f1b1"]);
    // i1 and b1 attacked: those two castlings are out; the rook may pass b1.
    let land = p("Kf1 Ra1 Rj1 ke8 ri8 rb8", " w KQ - 0 1");
    check_moves(&land, &["f1h1", "f1c1"], &["f1i1", "f1b1"]);
    // d1 attacked: the king would cross it on both queen-side castlings.
    // h1 attacked: landing there, or crossing it to i1, is out.
    let cross = p("Kf1 Ra1 Rj1 ke8 rd8 rh8", " w KQ - 0 1");
    check_moves(&cross, &[], &["f1h1", "f1i1", "f1c1", "f1b1"]);
    // g1 attacked through the black bishop's own beast (b6 → e3 → f2 → g1):
    // the king may not cross it.
    let through = p("Kf1 Rj1 ka8 bb6 te3", " w K - 0 1");
    assert!(!through.is_check());
    check_moves(&through, &["f1e1"], &["f1h1", "f1i1", "f1g1"]);
    // g1 attacked by a ricochet: rook c4 → black beast g4 → down the g-file.
    let ricochet = p("Kf1 Rj1 ka8 rc4 tg4", " w K - 0 1");
    assert!(!ricochet.is_check());
    check_moves(
        &ricochet,
        &["f1e1", "f1f2"],
        &["f1h1", "f1i1", "f1g1", "f1g2"],
    );
}

#[test]
fn r1_8_castling_rights() {
    let pos = p("Kf1 Ra1 Rj1 kf8", " w Q - 0 1");
    check_moves(&pos, &["f1c1", "f1b1"], &["f1h1", "f1i1"]);
    // After the j-rook moves and comes back, the right is gone.
    let mut game = Game::<Tensor>::from_position(p("Kf1 Ra1 Rj1 kf8", " w KQ - 0 1"));
    for m in ["j1j2", "f8g8", "j2j1", "g8f8"] {
        game.push_str(m).unwrap();
    }
    check_moves(game.position(), &["f1c1"], &["f1h1", "f1i1"]);
    // Rights whose rook is not at home are ignored when reading a FEN.
    let ignored = p("Kf1 Ra1 Rj2 kf8", " w KQ - 0 1");
    assert_eq!(ignored.fen().split(' ').nth(2), Some("Q"));
}

#[test]
fn r1_8_castling_is_written_as_the_kings_move() {
    let pos = p("Kf1 Ra1 Rj1 kf8", " w KQ - 0 1");
    for (ms, s) in [
        ("f1h1", "Kh1"),
        ("f1i1", "Ki1"),
        ("f1c1", "Kc1"),
        ("f1b1", "Kb1"),
    ] {
        let m = pos.parse_move(ms).unwrap();
        assert_eq!(san::san(&pos, m), s);
        assert_eq!(san::parse_san(&pos, s), Ok(m));
    }
    assert!(san::parse_san(&pos, "O-O").is_err());
    assert!(san::parse_san(&pos, "O-O-O").is_err());
}

// ---- 1.9 Pawns ---------------------------------------------------------------------

#[test]
fn r1_9_en_passant() {
    let pos = p("Ka1 kj8 Pe5 pd7 ph7", B);
    let after = play(&pos, "d7d5");
    assert_eq!(after.fen().split(' ').nth(3), Some("d6"));
    check_moves(&after, &["e5d6", "e5e6"], &["e5d5"]);
    let taken = play(&after, "e5d6");
    assert_eq!(at(&taken, "d5"), None);
    assert_eq!(at(&taken, "d6"), Some('P'));
    // No capture possible: no en-passant square in the FEN.
    let after = play(&pos, "h7h5");
    assert_eq!(after.fen().split(' ').nth(3), Some("-"));
}

#[test]
fn r1_9_promotion_to_queen_rook_bishop_knight_or_beast() {
    let pos = p("Ka1 kj8 Pc7 rd8 tb8", W);
    check_moves(
        &pos,
        &[
            "c7c8q", "c7c8r", "c7c8b", "c7c8n", "c7c8t", "c7d8q", "c7d8r", "c7d8b", "c7d8n",
            "c7d8t",
        ],
        &["c7c8", "c7c8k", "c7c8p", "c7b8q", "c7b8t", "c7d8"],
    );
    let after = play(&pos, "c7c8t");
    assert_eq!(at(&after, "c8"), Some('T'));
    assert_eq!(moves_from(&pos, "c7").len(), 10);
}

#[test]
fn r1_9_first_move_means_the_starting_rank() {
    // A pawn on its starting rank double-steps whatever its history; one
    // elsewhere never does.
    let pos = p("Ka1 kj8 Pc2 Pd3", W);
    check_moves(&pos, &["c2c4", "d3d4"], &["d3d5"]);
    let black = p("Ka1 kj8 pc7 pd6", B);
    check_moves(&black, &["c7c5", "d6d5"], &["d6d4"]);
}

#[test]
fn r1_9_pawns_neither_take_nor_pass_an_enemy_beast() {
    let pos = p("Ka1 kj8 Pd4 te5 td5", W);
    check_moves(&pos, &[], &["d4e5", "d4d5"]);
}

// ---- 1.10 Attack, check, legality -----------------------------------------------------

#[test]
fn r1_10_pin_through_the_attackers_own_beast() {
    // Black rook e8 passes its beast e5: the white knight e3 is pinned.
    let pinned = p("Ke1 Ne3 ka8 re8 te5", W);
    check_exact_from(&pinned, "e3", &[]);
    // With a white beast on e5 instead, the rook is blocked and the knight free.
    let free = p("Ke1 Ne3 ka8 re8 Te5", W);
    check_exact_from(
        &free,
        "e3",
        &[
            "e3c2", "e3c4", "e3d1", "e3d5", "e3f1", "e3f5", "e3g2", "e3g4",
        ],
    );
}

#[test]
fn r1_10_check_through_the_attackers_own_beast() {
    let pos = p("Ke1 ka8 re8 te5", W);
    assert!(pos.is_check());
    let all: Vec<String> = moves(&pos).into_iter().collect();
    assert_eq!(all, vec!["e1d1", "e1d2", "e1f1", "e1f2"]);
}

#[test]
fn r1_10_pin_along_a_ricochet_line() {
    // Black rook a4 reaches its beast d4 and turns down the d-file: the white
    // bishop d2 shields its king d1: its only move is to b4, which blocks
    // the rook's first leg.
    let pinned = p("Kd1 Bd2 kb8 ra4 td4", W);
    assert!(!pinned.is_check());
    check_exact_from(&pinned, "d2", &["d2b4"]);
    let free = p("Kd1 Bd2 kb8 ra4", W);
    assert!(moves_from(&free, "d2").contains("d2e3"));
}

#[test]
fn r1_10_pin_on_the_first_leg_of_a_ricochet_line() {
    // The knight c4 stands between the black rook a4 and the black beast d4,
    // whose ricochet down the d-file would reach the king d1. Its only legal
    // move is to d2, onto the second leg.
    let pos = p("Kd1 Nc4 kj8 ra4 td4", W);
    assert!(!pos.is_check());
    check_exact_from(&pos, "c4", &["c4d2"]);
}

#[test]
fn r1_10_a_beast_may_block_a_check_and_may_be_pinned() {
    // A white beast is an enemy beast to the black rook, so it blocks.
    let check = p("Ke1 Td3 ka8 re8", W);
    let all: Vec<String> = moves(&check).into_iter().collect();
    assert_eq!(
        all,
        vec!["d3e2", "d3e3", "d3e4", "e1d1", "e1d2", "e1f1", "e1f2"]
    );
    // A beast shielding its king stays on the line.
    let pinned = p("Ke1 Te4 ka8 re8", W);
    check_exact_from(&pinned, "e4", &["e4e3", "e4e5"]);
}

#[test]
fn r1_10_the_moving_king_is_lifted_off_its_square() {
    // The black rook d8 checks the king d2 down the d-file. Behind the king
    // stands the black beast d1: with the king lifted, the rook reaches d1
    // and ricochets along rank 1, so c1 and e1 are attacked too.
    let pos = p("Kd2 kj8 rd8 td1", W);
    assert!(pos.is_check());
    let all: Vec<String> = moves(&pos).into_iter().collect();
    assert_eq!(all, vec!["d2c2", "d2c3", "d2e2", "d2e3"]);
    check_moves(&pos, &[], &["d2c1", "d2e1", "d2d1", "d2d3"]);
}

#[test]
fn r1_10_legality_is_judged_with_ricochet_attacks() {
    // The white king may not step into the ricochet line of the black rook a4
    // via its beast d4 (d-file), though no black piece sees d3 directly.
    let pos = p("Ke2 kj8 ra4 td4", W);
    check_moves(&pos, &["e2e1", "e2f3", "e2e3"], &["e2d3", "e2d2", "e2d1"]);
}

// ---- 1.11 End of the game -----------------------------------------------------------

#[test]
fn r1_11_checkmate_by_ricochet_even_on_the_hundredth_ply() {
    // Black rook h8 goes to d8; via the black beast d1 it turns along rank 1
    // and mates the king a1 (b1 is on the same line, a2 b2 are its own pawns).
    // The clock stands at 99: the mate, on the 100th ply, still counts.
    let pre = p("Ka1 Pa2 Pb2 kj8 rh8 td1", " b - - 99 60");
    assert!(!king_attacked(&pre, Color::White));
    let m = pre.parse_move("h8d8").unwrap();
    assert_eq!(san::san(&pre, m), "Rd8#");
    let after = pre.play(m);
    assert_eq!(after.halfmove_clock(), 100);
    assert!(after.is_check());
    check_moves(&after, &[], &["a1b1", "a2a3", "a2a4", "b2b3", "b2b4"]);
    let mate = Some(Outcome::Decisive {
        winner: Color::Black,
        reason: EndReason::Checkmate,
    });
    assert_eq!(after.outcome(), mate);
    let mut game = Game::from_position(pre);
    game.push(m);
    assert_eq!(game.outcome(), mate);
}

#[test]
fn r1_11_stalemate_is_a_draw() {
    // The pawn e4 is blocked by the black beast (which it cannot take); the
    // king has no square.
    let pos = p("Ka1 Pe4 kj8 qc2 te5", W);
    assert!(!pos.is_check());
    check_moves(&pos, &[], &["e4e5", "a1a2", "a1b1", "a1b2"]);
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::Stalemate
        })
    );
}

#[test]
fn r1_11_dead_material_means_no_pawn_knight_bishop_rook_or_queen() {
    let dead = Some(Outcome::Draw {
        reason: EndReason::DeadMaterial,
    });
    let beasts = p("Ka1 Tb3 Tc3 kj8 th6", W);
    assert_eq!(beasts.outcome(), dead);
    // Beasts still move (the b3 beast hops over c3), but nothing can mate.
    check_moves(&beasts, &["b3d3", "b3b4", "a1b2"], &["b3h6", "b3c3"]);
    assert_eq!(p("Ka1 kj8", W).outcome(), dead);
    // Any pawn, knight, bishop, rook or queen keeps the game going.
    for extra in ["Nd4", "Bd4", "Rd4", "Qd4", "Pd4", "nd4", "pd5"] {
        let pos = p(&format!("Ka1 Tb3 kj8 {extra}"), W);
        assert_eq!(pos.outcome(), None, "{extra}");
    }
}

#[test]
fn r1_11_hundred_plies_without_pawn_move_or_capture() {
    let pos = p("Ka1 Tb3 Pc2 kj8 td5 te5", " w - - 99 80");
    assert_eq!(pos.outcome(), None);
    let quiet = play(&pos, "b3b4");
    assert_eq!(quiet.halfmove_clock(), 100);
    assert_eq!(
        quiet.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::HundredPlies
        })
    );
    // Automatic in a game too: no claim is needed.
    let mut game = Game::from_position(pos);
    game.push_str("b3b4").unwrap();
    assert_eq!(
        game.outcome().map(|o| o.reason()),
        Some(EndReason::HundredPlies)
    );
    // A pawn move or a beast capture resets the count.
    assert_eq!(play(&pos, "c2c3").outcome(), None);
    let far = p("Ka1 Tc5 Ph2 kj8 td5 te8", " w - - 99 80");
    let cap = play(&far, "c5e5xd5");
    assert_eq!(cap.halfmove_clock(), 0);
    assert_eq!(cap.outcome(), None);
}

#[test]
fn r1_11_threefold_repetition() {
    let mut game = Game::<Tensor>::new();
    let cycle = ["b1b3", "b8b6", "b3b1", "b6b8"];
    for m in cycle {
        game.push_str(m).unwrap();
    }
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), None);
    for m in cycle {
        game.push_str(m).unwrap();
    }
    assert_eq!(game.repetitions(), 3);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::Repetition
        })
    );
}

#[test]
fn r1_11_repetition_compares_castling_rights() {
    // The first position still has castling rights; after the king's trip it
    // has none, so it is a different position.
    let mut game = Game::<Tensor>::from_position(p("Kf1 Rj1 kf8", " w K - 0 1"));
    let cycle = ["f1g1", "f8g8", "g1f1", "g8f8"];
    for round in 1..=3 {
        for m in cycle {
            game.push_str(m).unwrap();
        }
        assert_eq!(game.repetitions(), round, "round {round}");
    }
    assert_eq!(
        game.outcome().map(|o| o.reason()),
        Some(EndReason::Repetition)
    );
}

// ---- Preface: one move per effect ------------------------------------------------

#[test]
fn one_move_per_effect() {
    // Rook b1 reaches a3 two ways: via its beast b3 (along rank 3) and via its
    // beast a1 (up the a-file). One move.
    let pos = p("Kj1 kj8 Rb1 Tb3 Ta1", W);
    let strings: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| pos.move_string(*m))
        .collect();
    assert_eq!(strings.iter().filter(|s| *s == "b1a3").count(), 1);
    let distinct: std::collections::BTreeSet<&String> = strings.iter().collect();
    assert_eq!(distinct.len(), strings.len());
    // The beast d4 reaches f4 by one hop (over e4) and by a chain d6, f6, f4
    // (over d5, e6, f5): one move.
    let hops = p("Kj1 kj8 Td4 Pd5 Pe6 Pf5 Pe4", W);
    let strings: Vec<String> = hops
        .legal_moves()
        .iter()
        .map(|m| hops.move_string(*m))
        .collect();
    let distinct: std::collections::BTreeSet<&String> = strings.iter().collect();
    assert_eq!(distinct.len(), strings.len());
    assert!(distinct.contains(&"d4f4".to_string()));
    assert!(distinct.contains(&"d4f6".to_string()));
}
