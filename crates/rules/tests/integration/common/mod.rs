//! Helpers shared by the rules tests: building positions from piece lists,
//! listing moves as move strings, loading the perft files, editing FEN boards,
//! and an attack oracle that does not use the library's attack code.
#![allow(dead_code)]

use std::collections::BTreeSet;
use tensorchess_rules::{
    Color, GenType, Geometry, Move, MoveKind, MoveList, Position, Role, Square, Variant,
};

// ---- building positions -------------------------------------------------

/// The FEN board field of game `V` with the pieces of `pieces` placed, e.g.
/// `"Kf1 kf8 Tb3 pc7"` (letter, then square; upper case is White). Squares
/// that do not exist are written `*`.
pub fn board<V: Variant>(pieces: &str) -> String {
    let g = V::GEOMETRY;
    let mut cells: Vec<Option<char>> = vec![None; g.size()];
    for item in pieces.split_whitespace() {
        let mut chars = item.chars();
        let letter = chars.next().expect("piece letter");
        let square = chars.as_str();
        let sq = g
            .parse_square(square)
            .unwrap_or_else(|| panic!("bad square in '{item}'"));
        assert!(
            cells[sq.index()].is_none(),
            "two pieces on {square} in '{pieces}'"
        );
        cells[sq.index()] = Some(letter);
    }
    let mut out = String::new();
    for r in (0..g.ranks).rev() {
        let mut empty = 0;
        for f in 0..g.files {
            let idx = r as usize * g.files as usize + f as usize;
            let cell = if g.holes >> idx & 1 == 1 {
                Some('*')
            } else {
                cells[idx]
            };
            match cell {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if r > 0 {
            out.push('/');
        }
    }
    out
}

/// A full FEN: the board of `pieces`, then `tail` (e.g. `" w - - 0 1"`, or
/// `"[MMm] w - - 0 1"` with a Chessence pocket).
pub fn fen<V: Variant>(pieces: &str, tail: &str) -> String {
    format!("{}{}", board::<V>(pieces), tail)
}

/// The position of [`fen`]; panics with the FEN when it is rejected.
pub fn pos<V: Variant>(pieces: &str, tail: &str) -> Position<V> {
    let f = fen::<V>(pieces, tail);
    Position::<V>::from_fen(&f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

pub fn from_fen<V: Variant>(f: &str) -> Position<V> {
    Position::<V>::from_fen(f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

pub fn sq<V: Variant>(name: &str) -> Square {
    V::GEOMETRY
        .parse_square(name)
        .unwrap_or_else(|| panic!("{name} is not a square"))
}

pub fn name<V: Variant>(s: Square) -> String {
    V::GEOMETRY.square_name(s).to_string()
}

// ---- moves as strings -----------------------------------------------------

/// The legal moves' move strings.
pub fn moves<V: Variant>(p: &Position<V>) -> BTreeSet<String> {
    p.legal_moves().iter().map(|m| p.move_string(*m)).collect()
}

/// The legal moves' move strings whose piece starts on `from`.
pub fn moves_from<V: Variant>(p: &Position<V>, from: &str) -> BTreeSet<String> {
    let s = sq::<V>(from);
    p.legal_moves()
        .iter()
        .filter(|m| m.kind() != MoveKind::Drop && m.from() == s)
        .map(|m| p.move_string(*m))
        .collect()
}

/// Asserts that every move of `present` is legal and none of `absent` is.
#[track_caller]
pub fn check_moves<V: Variant>(p: &Position<V>, present: &[&str], absent: &[&str]) {
    let legal = moves(p);
    let missing: Vec<&str> = present
        .iter()
        .copied()
        .filter(|m| !legal.contains(*m))
        .collect();
    let wrong: Vec<&str> = absent
        .iter()
        .copied()
        .filter(|m| legal.contains(*m))
        .collect();
    assert!(
        missing.is_empty() && wrong.is_empty(),
        "position {}\n  missing legal moves: {missing:?}\n  illegal moves generated: {wrong:?}\n  all: {legal:?}",
        p.fen()
    );
    // The parser agrees with the list.
    for m in present {
        assert!(p.parse_move(m).is_ok(), "{m} does not parse in {}", p.fen());
    }
    for m in absent {
        assert!(
            p.parse_move(m).is_err(),
            "{m} parses but is not legal in {}",
            p.fen()
        );
    }
}

/// Asserts the exact set of legal move strings from one square.
#[track_caller]
pub fn check_exact_from<V: Variant>(p: &Position<V>, from: &str, expected: &[&str]) {
    let got = moves_from(p, from);
    let want: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        got,
        want,
        "moves from {from} in {}\n  extra: {:?}\n  missing: {:?}",
        p.fen(),
        got.difference(&want).collect::<Vec<_>>(),
        want.difference(&got).collect::<Vec<_>>()
    );
}

/// Plays a move string, which must be legal.
#[track_caller]
pub fn play<V: Variant>(p: &Position<V>, m: &str) -> Position<V> {
    let mv = p
        .parse_move(m)
        .unwrap_or_else(|e| panic!("{m} in {}: {e}", p.fen()));
    p.play(mv)
}

/// The piece letter on a square (`None` when empty).
pub fn at<V: Variant>(p: &Position<V>, s: &str) -> Option<char> {
    p.piece_at(sq::<V>(s)).map(|pc| pc.char())
}

// ---- perft files --------------------------------------------------------

/// The FENs of a `tests/data/*.perft` file.
pub fn perft_fens(file: &str) -> Vec<String> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("epd "))
        .map(|s| s.trim().to_string())
        .collect()
}

// ---- FEN board editing ----------------------------------------------------

/// The board of a FEN as cells, for editing: `None` empty, `Some('*')` a hole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub files: usize,
    pub ranks: usize,
    /// Index `rank * files + file`, rank 0 = the first rank.
    pub cells: Vec<Option<char>>,
    /// The pocket text between brackets, if any.
    pub pocket: Option<String>,
    /// The fields after the board.
    pub rest: Vec<String>,
}

impl Grid {
    /// Reads a FEN that the library accepted (so well formed).
    pub fn parse(g: &Geometry, fen: &str) -> Grid {
        let mut fields = fen.split_whitespace();
        let board = fields.next().expect("board");
        let (board, pocket) = match board.find('[') {
            Some(i) => (&board[..i], Some(board[i + 1..board.len() - 1].to_string())),
            None => (board, None),
        };
        let files = g.files as usize;
        let ranks = g.ranks as usize;
        let mut cells = vec![None; files * ranks];
        for (i, row) in board.split('/').enumerate() {
            let r = ranks - 1 - i;
            let mut f = 0;
            let mut n = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    n = n * 10 + d as usize;
                    continue;
                }
                f += n;
                n = 0;
                cells[r * files + f] = Some(c);
                f += 1;
            }
        }
        Grid {
            files,
            ranks,
            cells,
            pocket,
            rest: fields.map(str::to_string).collect(),
        }
    }

    pub fn get(&self, s: Square) -> Option<char> {
        self.cells[s.index()]
    }

    pub fn set(&mut self, s: Square, c: Option<char>) {
        self.cells[s.index()] = c;
    }

    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for r in (0..self.ranks).rev() {
            let mut empty = 0;
            for f in 0..self.files {
                match self.cells[r * self.files + f] {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if r > 0 {
                out.push('/');
            }
        }
        if let Some(p) = &self.pocket {
            out.push('[');
            out.push_str(p);
            out.push(']');
        }
        for f in &self.rest {
            out.push(' ');
            out.push_str(f);
        }
        out
    }
}

// ---- an attack oracle ---------------------------------------------------

/// Whether the side to move could capture a king standing on `target` with
/// one of its moves, found among the moves generated ignoring check: RULES
/// 1.10's definition of an attacked square, written with the move generator
/// instead of the library's attack test. Beasts never capture a king; propels,
/// castlings and drops never capture.
pub fn can_capture_on<V: Variant>(p: &Position<V>, target: Square) -> bool {
    let mut list = MoveList::new();
    p.generate_into(GenType::IgnoringCheck, &mut list);
    list.iter().any(|m| {
        m.to() == target
            && matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion)
            && p.piece_at(m.from()).map(|pc| pc.role()) != Some(Role::Beast)
    })
}

/// Whether side `c`'s king is attacked in `p` (oracle version).
pub fn king_attacked<V: Variant>(p: &Position<V>, c: Color) -> bool {
    let Some(k) = p.king_of(c) else {
        return false;
    };
    let attacker_to_move = if p.turn() == c { p.play_null() } else { *p };
    can_capture_on(&attacker_to_move, k)
}

/// Whether `m` leaves the mover's king attacked (oracle version).
pub fn leaves_king_attacked<V: Variant>(p: &Position<V>, m: Move) -> bool {
    let us = p.turn();
    king_attacked(&p.play(m), us)
}

/// Whether square `s` on the mover's back rank would be attacked if the
/// mover's king stood there instead of on its square (RULES 1.8: the squares a
/// castling king crosses, judged with the king lifted off its square).
pub fn square_attacked_for_king<V: Variant>(p: &Position<V>, s: Square) -> bool {
    let us = p.turn();
    let k = p.king_of(us).expect("king");
    let g = V::GEOMETRY;
    let mut grid = Grid::parse(&g, &p.fen());
    let king = grid.get(k);
    grid.set(k, None);
    grid.set(s, king);
    match Position::<V>::from_fen(&grid.to_fen()) {
        Ok(moved) => can_capture_on(&moved.play_null(), s),
        Err(_) => {
            // The only way the edited FEN can be rejected: our king on `s`
            // would stand next to theirs, which then attacks `s`.
            let them = p.king_of(!us).expect("their king");
            let (df, dr) = (
                g.file_of(s).0 as i32 - g.file_of(them).0 as i32,
                g.rank_of(s).0 as i32 - g.rank_of(them).0 as i32,
            );
            assert!(df.abs() <= 1 && dr.abs() <= 1, "unexpected FEN rejection");
            true
        }
    }
}

/// The legal moves by brute force: moves ignoring check, kept when the
/// mover's king is not attacked after them (oracle), castlings also when not
/// in check before and no crossed square without an own beast is attacked.
pub fn brute_force_legal<V: Variant>(p: &Position<V>) -> BTreeSet<String> {
    let us = p.turn();
    let mut list = MoveList::new();
    p.generate_into(GenType::IgnoringCheck, &mut list);
    let in_check = king_attacked(p, us);
    let g = V::GEOMETRY;
    list.into_iter()
        .filter(|&m| {
            if m.kind() == MoveKind::Castle {
                if in_check {
                    return false;
                }
                let rank = g.rank_of(m.from());
                let (a, b) = (g.file_of(m.from()).0, g.file_of(m.to()).0);
                let (lo, hi) = (a.min(b), a.max(b));
                for f in lo + 1..hi {
                    let c = g.square(tensorchess_rules::File(f), rank).expect("square");
                    let own_beast = p
                        .piece_at(c)
                        .is_some_and(|pc| pc.color() == us && pc.role() == Role::Beast);
                    if !own_beast && square_attacked_for_king(p, c) {
                        return false;
                    }
                }
            }
            !leaves_king_attacked(p, m)
        })
        .map(|m| p.move_string(m))
        .collect()
}

// ---- property tests -------------------------------------------------------

/// Proptest's settings: `cases` cases, or `PROPTEST_CASES` when set (for
/// long runs).
pub fn config(cases: u32) -> proptest::prelude::ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(cases);
    proptest::prelude::ProptestConfig {
        cases,
        ..proptest::prelude::ProptestConfig::default()
    }
}
