//! Attack tables and line attacks, built at compile time for each geometry.
//!
//! Lines are numbered 0 = file, 1 = rank, 2 = diagonal (a1–h8 direction),
//! 3 = anti-diagonal. Directions are `line * 2` (toward higher bit indices)
//! and `line * 2 + 1` (toward lower ones): N, S, E, W, NE, SW, NW, SE.
//! Rays stop at the board's edge and before a missing square.

use crate::{Bitboard, Geometry, Square, Word};

/// Line index of files.
pub const FILE_LINE: usize = 0;
/// Line index of ranks.
pub const RANK_LINE: usize = 1;
/// Line index of diagonals (the a1–h8 direction).
pub const DIAG_LINE: usize = 2;
/// Line index of anti-diagonals (the a8–h1 direction).
pub const ANTI_LINE: usize = 3;

/// Orthogonal lines (file, rank) and diagonal lines.
pub const ORTHO_LINES: [usize; 2] = [FILE_LINE, RANK_LINE];
/// Diagonal lines (diagonal, anti-diagonal).
pub const DIAG_LINES: [usize; 2] = [DIAG_LINE, ANTI_LINE];

/// The line at a right angle within the same family (file ↔ rank, diagonal ↔ anti-diagonal).
#[inline(always)]
pub const fn perpendicular(line: usize) -> usize {
    line ^ 1
}

/// (file step, rank step) of each direction.
pub const DIRS: [(i32, i32); 8] = [
    (0, 1),   // N
    (0, -1),  // S
    (1, 0),   // E
    (-1, 0),  // W
    (1, 1),   // NE
    (-1, -1), // SW
    (-1, 1),  // NW
    (1, -1),  // SE
];
/// Directions along files and ranks: N, S, E, W.
pub const ORTHO_DIRS: [usize; 4] = [0, 1, 2, 3];
/// Diagonal directions: NE, SW, NW, SE.
pub const DIAG_DIRS: [usize; 4] = [4, 5, 6, 7];

/// Precomputed attack masks for one geometry.
#[derive(Debug)]
pub struct Tables<W> {
    /// The board these tables are for.
    pub geometry: Geometry,
    /// All existing squares.
    pub board: W,
    /// Squares of each file.
    pub files: [W; 16],
    /// Squares of each rank.
    pub ranks: [W; 16],
    /// Knight attacks from each square.
    pub knight: [W; 128],
    /// King attacks from each square.
    pub king: [W; 128],
    /// Squares a pawn of each colour on a square attacks.
    pub pawn: [[W; 128]; 2],
    /// Per line: the squares below (`lower`) and above (`upper`) a square, up to an edge or hole.
    pub lower: [[W; 128]; 4],
    /// Per line: the squares above a square, up to an edge or hole.
    pub upper: [[W; 128]; 4],
    /// Per line: the whole line through a square, without the square.
    pub line_ex: [[W; 128]; 4],
    /// Squares from which one step in a direction lands on an existing square.
    pub step_from: [W; 8],
    /// Bit-index change of one step in a direction.
    pub delta: [i32; 8],
}

const fn exists(g: &Geometry, f: i32, r: i32) -> bool {
    f >= 0
        && r >= 0
        && f < g.files as i32
        && r < g.ranks as i32
        && (g.holes >> (r * g.files as i32 + f) as u32) & 1 == 0
}

const fn bit(g: &Geometry, f: i32, r: i32) -> u128 {
    1u128 << (r * g.files as i32 + f) as u32
}

/// Builds the tables of a geometry (as `u128`), at compile time.
pub const fn build(g: Geometry) -> Tables<u128> {
    let mut t = Tables {
        geometry: g,
        board: 0,
        files: [0; 16],
        ranks: [0; 16],
        knight: [0; 128],
        king: [0; 128],
        pawn: [[0; 128]; 2],
        lower: [[0; 128]; 4],
        upper: [[0; 128]; 4],
        line_ex: [[0; 128]; 4],
        step_from: [0; 8],
        delta: [0; 8],
    };
    let files = g.files as i32;
    let ranks = g.ranks as i32;
    let knight_jumps: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut d = 0;
    while d < 8 {
        t.delta[d] = DIRS[d].1 * files + DIRS[d].0;
        d += 1;
    }
    let mut r = 0;
    while r < ranks {
        let mut f = 0;
        while f < files {
            if exists(&g, f, r) {
                let sq = (r * files + f) as usize;
                let b = bit(&g, f, r);
                t.board |= b;
                t.files[f as usize] |= b;
                t.ranks[r as usize] |= b;
                let mut k = 0;
                while k < 8 {
                    let (df, dr) = knight_jumps[k];
                    if exists(&g, f + df, r + dr) {
                        t.knight[sq] |= bit(&g, f + df, r + dr);
                    }
                    k += 1;
                }
                let mut d = 0;
                while d < 8 {
                    let (df, dr) = DIRS[d];
                    if exists(&g, f + df, r + dr) {
                        t.king[sq] |= bit(&g, f + df, r + dr);
                        t.step_from[d] |= b;
                    }
                    // Ray in direction d, stopping at an edge or a hole.
                    let mut ray = 0u128;
                    let mut ff = f + df;
                    let mut rr = r + dr;
                    while exists(&g, ff, rr) {
                        ray |= bit(&g, ff, rr);
                        ff += df;
                        rr += dr;
                    }
                    let line = d / 2;
                    if d.is_multiple_of(2) {
                        t.upper[line][sq] = ray;
                    } else {
                        t.lower[line][sq] = ray;
                    }
                    t.line_ex[line][sq] |= ray;
                    d += 1;
                }
                if exists(&g, f - 1, r + 1) {
                    t.pawn[0][sq] |= bit(&g, f - 1, r + 1);
                }
                if exists(&g, f + 1, r + 1) {
                    t.pawn[0][sq] |= bit(&g, f + 1, r + 1);
                }
                if exists(&g, f - 1, r - 1) {
                    t.pawn[1][sq] |= bit(&g, f - 1, r - 1);
                }
                if exists(&g, f + 1, r - 1) {
                    t.pawn[1][sq] |= bit(&g, f + 1, r - 1);
                }
            }
            f += 1;
        }
        r += 1;
    }
    t
}

const fn narrow128(a: &[u128; 128]) -> [u64; 128] {
    let mut out = [0u64; 128];
    let mut i = 0;
    while i < 128 {
        out[i] = a[i] as u64;
        i += 1;
    }
    out
}

const fn narrow16(a: &[u128; 16]) -> [u64; 16] {
    let mut out = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        out[i] = a[i] as u64;
        i += 1;
    }
    out
}

const fn narrow_lines(a: &[[u128; 128]; 4]) -> [[u64; 128]; 4] {
    [
        narrow128(&a[0]),
        narrow128(&a[1]),
        narrow128(&a[2]),
        narrow128(&a[3]),
    ]
}

/// Converts tables of a board of at most 64 squares to `u64`.
pub const fn narrow(t: Tables<u128>) -> Tables<u64> {
    assert!(t.geometry.files as usize * t.geometry.ranks as usize <= 64);
    let mut step_from = [0u64; 8];
    let mut d = 0;
    while d < 8 {
        step_from[d] = t.step_from[d] as u64;
        d += 1;
    }
    Tables {
        geometry: t.geometry,
        board: t.board as u64,
        files: narrow16(&t.files),
        ranks: narrow16(&t.ranks),
        knight: narrow128(&t.knight),
        king: narrow128(&t.king),
        pawn: [narrow128(&t.pawn[0]), narrow128(&t.pawn[1])],
        lower: narrow_lines(&t.lower),
        upper: narrow_lines(&t.upper),
        line_ex: narrow_lines(&t.line_ex),
        step_from,
        delta: t.delta,
    }
}

impl<W: Word> Tables<W> {
    /// All existing squares.
    #[inline(always)]
    pub fn board(&self) -> Bitboard<W> {
        Bitboard(self.board)
    }

    /// Squares a knight on `sq` attacks.
    #[inline(always)]
    pub fn knight(&self, sq: Square) -> Bitboard<W> {
        Bitboard(self.knight[sq.index()])
    }

    /// Squares a king on `sq` attacks.
    #[inline(always)]
    pub fn king(&self, sq: Square) -> Bitboard<W> {
        Bitboard(self.king[sq.index()])
    }

    /// Squares a pawn of `color` on `sq` attacks.
    #[inline(always)]
    pub fn pawn(&self, color: crate::Color, sq: Square) -> Bitboard<W> {
        Bitboard(self.pawn[color.index()][sq.index()])
    }

    /// The whole line through `sq` (without `sq`), ignoring pieces.
    #[inline(always)]
    pub fn line(&self, line: usize, sq: Square) -> Bitboard<W> {
        Bitboard(self.line_ex[line][sq.index()])
    }

    /// The ray from `sq` in direction `dir`, ignoring pieces.
    #[inline(always)]
    pub fn ray(&self, dir: usize, sq: Square) -> Bitboard<W> {
        let line = dir / 2;
        Bitboard(if dir.is_multiple_of(2) {
            self.upper[line][sq.index()]
        } else {
            self.lower[line][sq.index()]
        })
    }

    /// Squares reached along one line from `sq` in both directions, up to and
    /// including the first square in `blockers` each way.
    ///
    /// Uses the obstruction-difference method (Gerd Isenberg, chessprogramming wiki).
    #[inline(always)]
    pub fn line_attacks(&self, line: usize, sq: Square, blockers: Bitboard<W>) -> Bitboard<W> {
        let i = sq.index();
        let lower = self.lower[line][i] & blockers.0;
        let upper = self.upper[line][i] & blockers.0;
        let ms1b = W::BITS - 1 - (lower | W::ONE).leading_zeros();
        let from_ms1b = W::ZERO.wrapping_sub(W::ONE) << ms1b;
        let ls1b = upper & upper.wrapping_neg();
        let odiff = ls1b.wrapping_add(ls1b).wrapping_add(from_ms1b);
        Bitboard(self.line_ex[line][i] & odiff)
    }

    /// Squares a rook on `sq` reaches, up to and including the first blockers.
    #[inline(always)]
    pub fn rook_attacks(&self, sq: Square, blockers: Bitboard<W>) -> Bitboard<W> {
        self.line_attacks(FILE_LINE, sq, blockers) | self.line_attacks(RANK_LINE, sq, blockers)
    }

    /// Squares a bishop on `sq` reaches, up to and including the first blockers.
    #[inline(always)]
    pub fn bishop_attacks(&self, sq: Square, blockers: Bitboard<W>) -> Bitboard<W> {
        self.line_attacks(DIAG_LINE, sq, blockers) | self.line_attacks(ANTI_LINE, sq, blockers)
    }

    /// Moves every square of `bb` one step in direction `dir`, dropping those that leave the board.
    #[inline(always)]
    pub fn shift(&self, bb: Bitboard<W>, dir: usize) -> Bitboard<W> {
        let src = bb.0 & self.step_from[dir];
        let d = self.delta[dir];
        Bitboard(if d > 0 {
            src << d as u32
        } else {
            src >> (-d) as u32
        })
    }

    /// The line index (0..4) through two distinct squares, if they share one.
    pub fn line_between(&self, a: Square, b: Square) -> Option<usize> {
        (0..4).find(|&l| self.line(l, a).contains(b))
    }

    /// Squares strictly between `a` and `b` on their common line (empty if none).
    pub fn between(&self, a: Square, b: Square) -> Bitboard<W> {
        for dir in 0..8 {
            if self.ray(dir, a).contains(b) {
                return self.ray(dir, a) & self.ray(dir ^ 1, b);
            }
        }
        Bitboard::EMPTY
    }
}

/// The tables of orthodox chess.
pub static CHESS_TABLES: Tables<u64> = narrow(build(Geometry::CHESS));
/// The tables of Tensor Chess.
pub static TENSOR_TABLES: Tables<u128> = build(Geometry::TENSOR);
/// The tables of Chessence.
pub static CHESSENCE_TABLES: Tables<u64> = narrow(build(Geometry::CHESSENCE));

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(g: &Geometry, s: &str) -> Square {
        g.parse_square(s).unwrap()
    }

    #[test]
    fn knight_corner_has_two_moves_on_every_board() {
        let t = &TENSOR_TABLES;
        assert_eq!(t.knight(Square::new(0)).count(), 2);
        assert_eq!(CHESS_TABLES.knight(Square::new(63)).count(), 2);
    }

    #[test]
    fn line_attacks_stop_at_blockers() {
        let g = Geometry::TENSOR;
        let t = &TENSOR_TABLES;
        let e4 = sq(&g, "e4");
        let blockers = Bitboard::from_square(sq(&g, "e6")) | Bitboard::from_square(sq(&g, "b4"));
        let a = t.rook_attacks(e4, blockers);
        let names: Vec<String> = a
            .into_iter()
            .map(|s| g.square_name(s).to_string())
            .collect();
        for s in ["e5", "e6", "e3", "e2", "e1", "d4", "c4", "b4", "f4", "j4"] {
            assert!(names.contains(&s.to_string()), "{s} missing");
        }
        assert!(!a.contains(sq(&g, "e7")));
        assert!(!a.contains(sq(&g, "a4")));
        assert_eq!(a.count(), 2 + 3 + 3 + 5);
    }

    #[test]
    fn chessence_rays_stop_before_holes() {
        let g = Geometry::CHESSENCE;
        let t = &CHESSENCE_TABLES;
        // a1 north: a2 is a hole.
        assert!(t.ray(0, sq(&g, "a1")).is_empty());
        // c3 north: c4, c5, then c6 is missing.
        assert_eq!(t.ray(0, sq(&g, "c3")).count(), 2);
        // Knights jump over holes but never land on one: b1 -> a3, c3, d2.
        assert_eq!(t.knight(sq(&g, "b1")).count(), 3);
        assert!(!t.knight(sq(&g, "c1")).contains(Square::new(6)));
        assert_eq!(t.board().count(), 54 - 8);
    }

    #[test]
    fn shift_never_wraps() {
        let t = &TENSOR_TABLES;
        let j1 = Square::new(9);
        assert!(t.shift(Bitboard::from_square(j1), 2).is_empty());
        let a1 = Square::new(0);
        assert!(t.shift(Bitboard::from_square(a1), 3).is_empty());
        assert_eq!(
            t.shift(Bitboard::from_square(a1), 4),
            Bitboard::from_square(Square::new(11))
        );
    }
}
