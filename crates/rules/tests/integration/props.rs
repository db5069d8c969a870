//! Property tests over random playouts in all three games (seeded by
//! proptest), from the start and from every perft position:
//! (a) incremental hashes equal recomputed ones and FENs round-trip;
//! (b) the legal moves equal a brute-force filter of the moves generated
//!     ignoring check, judged by an attack oracle built on the move generator;
//! (c) the parsers never panic, on arbitrary text and on mutated real FENs;
//! (d) the board changes a move reports to an observer, replayed on the
//!     position before it, give the position after it.

use crate::common::*;
use proptest::prelude::*;
use tensorchess_rules::{
    Chess, Chessence, Color, Game, MoveObserver, Piece, Position, Square, Tensor, Variant, pgn, san,
};

/// The start FEN and every FEN of the game's perft file.
fn fens<V: Variant>(file: &str) -> Vec<String> {
    let mut v = vec![V::START_FEN.to_string()];
    v.extend(perft_fens(file));
    v
}

fn file_of<V: Variant>() -> &'static str {
    match V::KIND {
        tensorchess_rules::VariantKind::Tensor => "tensor.perft",
        tensorchess_rules::VariantKind::Chess => "chess.perft",
        tensorchess_rules::VariantKind::Chessence => "chessence.perft",
    }
}

/// Plays the moves picked by `choices` from the position picked by `start`,
/// calling `each` on every position reached (the first included).
fn playout<V: Variant>(start: usize, choices: &[u16], mut each: impl FnMut(&Position<V>)) {
    let all = fens::<V>(file_of::<V>());
    let mut pos = from_fen::<V>(&all[start % all.len()]);
    each(&pos);
    for &c in choices {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        pos = pos.play(m);
        each(&pos);
    }
}

/// (a): hash and FEN after every move of a playout, and the game's PGN.
fn hash_and_fen<V: Variant + PartialEq>(start: usize, choices: &[u16]) {
    let all = fens::<V>(file_of::<V>());
    let mut game = Game::from_position(from_fen::<V>(&all[start % all.len()]));
    for &c in choices {
        let pos = *game.position();
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        let text = san::san_with(&pos, m, &legal);
        assert_eq!(san::parse_san(&pos, &text), Ok(m), "{} {text}", pos.fen());
        let next = pos.play(m);
        let fen = next.fen();
        assert_eq!(
            next.hash(),
            next.compute_hash(),
            "{} after {}: incremental hash",
            pos.fen(),
            pos.move_string(m)
        );
        let back = from_fen::<V>(&fen);
        assert_eq!(back.fen(), fen);
        assert_eq!(
            back, next,
            "{fen}: the parsed position differs from the played one"
        );
        game.push(m);
    }
    // The game survives PGN.
    let text = pgn::write_pgn(&game, &[], None);
    let parsed = pgn::parse_pgn(&text).expect("own PGN parses");
    let replayed = pgn::replay::<V>(&parsed[0]).expect("own PGN replays");
    assert_eq!(replayed.moves(), game.moves(), "{text}");
}

/// (b): the legal moves against the brute-force filter, and the check flag
/// against the oracle.
fn brute_force<V: Variant>(start: usize, choices: &[u16]) {
    playout::<V>(start, choices, |pos| {
        let legal = pos.legal_moves();
        let got = moves(pos);
        assert_eq!(got.len(), legal.len(), "{}: a move listed twice", pos.fen());
        assert_eq!(pos.count_legal() as usize, legal.len(), "{}", pos.fen());
        let want = brute_force_legal(pos);
        assert_eq!(
            got,
            want,
            "{}\n  generated but illegal: {:?}\n  legal but missing: {:?}",
            pos.fen(),
            got.difference(&want).collect::<Vec<_>>(),
            want.difference(&got).collect::<Vec<_>>()
        );
        let us = pos.turn();
        assert_eq!(pos.is_check(), king_attacked(pos, us), "{}", pos.fen());
        // The side that just moved is never left in check.
        assert!(!king_attacked(pos, !us), "{}", pos.fen());
        // The library's attack test agrees with the oracle on the kings' squares.
        for c in [Color::White, Color::Black] {
            if let Some(k) = pos.king_of(c) {
                assert_eq!(
                    pos.is_attacked_by(k, !c, pos.occupied()),
                    king_attacked(pos, c),
                    "{}: {c:?} king",
                    pos.fen()
                );
            }
        }
    });
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn hash_and_fen_tensor(start in 0usize..1000, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        hash_and_fen::<Tensor>(start, &choices);
    }

    #[test]
    fn hash_and_fen_chess(start in 0usize..1000, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        hash_and_fen::<Chess>(start, &choices);
    }

    #[test]
    fn hash_and_fen_chessence(start in 0usize..1000, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        hash_and_fen::<Chessence>(start, &choices);
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn legal_equals_brute_force_tensor(start in 0usize..1000, choices in prop::collection::vec(any::<u16>(), 0..60)) {
        brute_force::<Tensor>(start, &choices);
    }

    #[test]
    fn legal_equals_brute_force_chess(start in 0usize..1000, choices in prop::collection::vec(any::<u16>(), 0..60)) {
        brute_force::<Chess>(start, &choices);
    }

    #[test]
    fn legal_equals_brute_force_chessence(start in 0usize..1000, choices in prop::collection::vec(any::<u16>(), 0..60)) {
        brute_force::<Chessence>(start, &choices);
    }
}

// ---- (c) parsers never panic -------------------------------------------------

const FEN_CHARS: &str = "rnbqkptmRNBQKPTM0123456789/*[] -wbKQkqacdefghij";

/// Applies `edits` (position, operation, character) to `fen`.
fn mutate(fen: &str, edits: &[(usize, u8, usize)]) -> String {
    let alphabet: Vec<char> = FEN_CHARS.chars().collect();
    let mut chars: Vec<char> = fen.chars().collect();
    for &(at, op, c) in edits {
        let c = alphabet[c % alphabet.len()];
        if chars.is_empty() {
            chars.push(c);
            continue;
        }
        let i = at % chars.len();
        match op % 3 {
            0 => chars[i] = c,
            1 => chars.insert(i, c),
            _ => {
                chars.remove(i);
            }
        }
    }
    chars.into_iter().collect()
}

/// Parses a FEN of game `V`; when it is accepted, the position must behave:
/// its FEN round-trips and every legal move plays with a consistent hash.
fn parse_and_use<V: Variant>(fen: &str) {
    if let Ok(pos) = Position::<V>::from_fen(fen) {
        let printed = pos.fen();
        let back = Position::<V>::from_fen(&printed)
            .unwrap_or_else(|e| panic!("{fen} was accepted, its print {printed} not: {e}"));
        assert_eq!(back.fen(), printed, "from {fen}");
        for m in pos.legal_moves() {
            let next = pos.play(m);
            assert_eq!(
                next.hash(),
                next.compute_hash(),
                "{printed} {}",
                pos.move_string(m)
            );
            let _ = san::san(&pos, m);
        }
        let _ = pos.outcome();
    }
}

fn parse_text_everywhere(text: &str) {
    parse_and_use::<Tensor>(text);
    parse_and_use::<Chess>(text);
    parse_and_use::<Chessence>(text);
    let t = Position::<Tensor>::new();
    let c = Position::<Chess>::new();
    let e = Position::<Chessence>::new();
    let _ = t.parse_move(text);
    let _ = c.parse_move(text);
    let _ = e.parse_move(text);
    let games = pgn::parse_pgn(text);
    let _ = san::parse_san(&t, text);
    let _ = san::parse_any(&t, text);
    let _ = san::parse_san(&c, text);
    let _ = san::parse_san(&e, text);
    if let Ok(games) = games {
        for g in &games {
            let _ = pgn::replay::<Tensor>(g);
            let _ = pgn::replay::<Chess>(g);
            let _ = pgn::replay::<Chessence>(g);
        }
    }
}

/// Found by `parsers_never_panic_on_arbitrary_text`: `parse_san` once sliced
/// the text inside a multi-byte character, so "Þ6" panicked instead of being
/// rejected (PGN replay reached it with any non-ASCII move token).
#[test]
fn san_parser_survives_non_ascii_text() {
    let t = Position::<Tensor>::new();
    for text in ["Þ6", "Nþ3", "eé4", "Ä1", "Tb1d3xç2"] {
        assert!(
            std::panic::catch_unwind(|| san::parse_san(&t, text)).is_ok(),
            "{text}"
        );
        assert!(san::parse_san(&t, text).is_err(), "{text}");
    }
    let games = pgn::parse_pgn("[Variant \"Tensor\"]\n\n1. Þ6 *").unwrap();
    assert!(pgn::replay::<Tensor>(&games[0]).is_err());
}

/// `from_fen` accepts clocks up to `u32::MAX`; `play` once added one to them
/// and overflowed (a panic in debug and test builds).
#[test]
fn huge_fen_clocks_do_not_overflow() {
    let pos = Position::<Chess>::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 4294967295 4294967295")
        .expect("the FEN is accepted");
    for m in pos.legal_moves() {
        let after = std::panic::catch_unwind(|| pos.play(m));
        assert!(after.is_ok(), "{} panics", pos.move_string(m));
    }
}

fn all_fens() -> Vec<String> {
    let mut v = fens::<Tensor>("tensor.perft");
    v.extend(fens::<Chess>("chess.perft"));
    v.extend(fens::<Chessence>("chessence.perft"));
    v
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn parsers_never_panic_on_arbitrary_text(text in "\\PC{0,120}") {
        parse_text_everywhere(&text);
    }

    #[test]
    fn parsers_never_panic_on_notation_like_text(
        text in "[a-k0-9>x@=+#MTQRBNKOo\\-/*\\[\\] wbKQkq.\"(){};]{0,40}"
    ) {
        parse_text_everywhere(&text);
    }

    #[test]
    fn mutated_real_fens(
        pick in 0usize..1000,
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<usize>()), 1..4),
    ) {
        let fens = all_fens();
        let fen = mutate(&fens[pick % fens.len()], &edits);
        parse_and_use::<Tensor>(&fen);
        parse_and_use::<Chess>(&fen);
        parse_and_use::<Chessence>(&fen);
    }

    #[test]
    fn pgn_with_random_moves(
        pick in 0usize..1000,
        words in prop::collection::vec("[a-jKQRBNTMO1-9x>@=\\-]{1,8}", 0..12),
    ) {
        let fens = all_fens();
        let fen = &fens[pick % fens.len()];
        let text = format!(
            "[Variant \"Tensor\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. {} *\n",
            words.join(" ")
        );
        parse_text_everywhere(&text);
    }
}

/// A board and hands rebuilt from the changes a move reports.
struct Replay {
    squares: Vec<Option<Piece>>,
    hands: [u8; 2],
    changes: usize,
}

impl Replay {
    fn of<V: Variant>(pos: &Position<V>) -> Replay {
        let n = V::GEOMETRY.files as usize * V::GEOMETRY.ranks as usize;
        Replay {
            squares: (0..n).map(|i| pos.piece_at(Square::new(i as u8))).collect(),
            hands: [pos.hand(Color::White), pos.hand(Color::Black)],
            changes: 0,
        }
    }
}

impl MoveObserver for Replay {
    fn removed(&mut self, sq: Square, piece: Piece) {
        assert_eq!(self.squares[sq.index()], Some(piece), "removed from {sq:?}");
        self.squares[sq.index()] = None;
        self.changes += 1;
    }
    fn added(&mut self, sq: Square, piece: Piece) {
        assert_eq!(self.squares[sq.index()], None, "added on {sq:?}");
        self.squares[sq.index()] = Some(piece);
        self.changes += 1;
    }
    fn hand_changed(&mut self, color: Color, before: u8, after: u8) {
        assert_eq!(self.hands[color.index()], before);
        self.hands[color.index()] = after;
        self.changes += 1;
    }
}

/// (d): every move's reported changes, replayed, give the next position;
/// no move reports more than four.
fn observed_changes<V: Variant + PartialEq>(start: usize, choices: &[u16]) {
    let all = fens::<V>(file_of::<V>());
    let mut pos = from_fen::<V>(&all[start % all.len()]);
    for &c in choices {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        let mut replay = Replay::of(&pos);
        let next = pos.play_observed(m, &mut replay);
        assert_eq!(next, pos.play(m));
        let expected = Replay::of(&next);
        assert_eq!(replay.squares, expected.squares, "{} {m:?}", pos.fen());
        assert_eq!(replay.hands, expected.hands, "{} {m:?}", pos.fen());
        assert!(
            replay.changes <= 4,
            "{} {m:?}: {} changes",
            pos.fen(),
            replay.changes
        );
        pos = next;
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn observed_changes_tensor(start in 0usize..1000, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        observed_changes::<Tensor>(start, &choices);
    }

    #[test]
    fn observed_changes_chess(start in 0usize..1000, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        observed_changes::<Chess>(start, &choices);
    }

    #[test]
    fn observed_changes_chessence(start in 0usize..1000, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        observed_changes::<Chessence>(start, &choices);
    }
}
