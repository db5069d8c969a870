//! The evaluation terms of a position.

use super::{Accumulator, Evaluate};
use tensorchess_rules::attacks::{DIAG_DIRS, DIAG_LINES, ORTHO_DIRS, ORTHO_LINES, perpendicular};
use tensorchess_rules::{Bitboard, Color, Position, Role, Square, Variant, Word};

/// Where the terms of a board's game live: material, piece-square tables
/// (files mirrored), mobility, then the named terms of [`Misc`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Files of the board.
    pub files: usize,
    /// Ranks of the board.
    pub ranks: usize,
}

/// Named terms, after the tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Misc {
    /// The side to move.
    Tempo = 0,
    /// Two bishops or more.
    BishopPair,
    /// Rooks on a file without pawns.
    RookOpenFile,
    /// Rooks on a file without pawns of their own side.
    RookSemiOpenFile,
    /// Pawns with another of their side ahead on the file.
    DoubledPawn,
    /// Pawns with no pawn of their side on the files beside them.
    IsolatedPawn,
    /// Pawns defended by a pawn or standing beside one.
    ConnectedPawn,
    /// Pawns in front of their king.
    PawnShield,
    /// Attacks on the squares around the enemy king.
    KingZoneAttacks,
    /// A king on a file without pawns of its side.
    KingOpenFile,
    /// Pieces that can reach one of their own beasts (ricochet and propel power).
    BeastLinked,
    /// Beasts in the opponent's half.
    BeastAdvanced,
    /// Men with a rook's power.
    MenRookPower,
    /// Men with a bishop's power.
    MenBishopPower,
    /// Men with a knight's power.
    MenKnightPower,
    /// Men with no power at all.
    MenIdle,
    /// Men in reserve.
    Reserve,
    /// Men next to the enemy king.
    MenNearKing,
    /// Pieces (not pawns) attacked by enemy pawns.
    PawnThreatened,
    /// Pieces and pawns attacked and not defended.
    Hanging,
    /// Rooks and queens attacked by enemy knights or bishops.
    MinorThreatened,
    /// The square of the number of pieces attacking the enemy king's zone
    /// (up to 4): attacks count when several pieces join in.
    KingAttackers,
    /// Passed pawns whose next square is empty, by rank from the owner's side.
    PassedFree,
    /// Passed pawns by rank from the owner's side: 10 terms.
    PassedPawn,
}

const MISC_COUNT: usize = Misc::PassedPawn as usize + 10;

const MISC_NAMES: [&str; 24] = [
    "tempo",
    "bishop_pair",
    "rook_open_file",
    "rook_semi_open_file",
    "doubled_pawn",
    "isolated_pawn",
    "connected_pawn",
    "pawn_shield",
    "king_zone_attacks",
    "king_open_file",
    "beast_linked",
    "beast_advanced",
    "men_rook_power",
    "men_bishop_power",
    "men_knight_power",
    "men_idle",
    "reserve",
    "men_near_king",
    "pawn_threatened",
    "hanging",
    "minor_threatened",
    "king_attackers",
    "passed_free",
    "passed_pawn",
];

impl Layout {
    /// The layout of a board of `files` × `ranks`.
    pub const fn new(files: usize, ranks: usize) -> Layout {
        Layout { files, ranks }
    }
    /// The first material term (one per role, in role order).
    pub const MATERIAL: usize = 0;
    /// Files of a piece-square table: the board's left half, mirrored.
    pub const fn half_files(&self) -> usize {
        self.files.div_ceil(2)
    }
    /// Squares of one piece-square table.
    pub const fn pst_squares(&self) -> usize {
        self.half_files() * self.ranks
    }
    /// The first piece-square term.
    pub const fn pst_base(&self) -> usize {
        8
    }
    /// The piece-square term of `role` on table square `index`.
    #[inline(always)]
    pub const fn pst(&self, role: Role, index: usize) -> usize {
        8 + role as usize * self.pst_squares() + index
    }
    /// The mobility term of `role`.
    pub const fn mobility(&self, role: Role) -> usize {
        8 + 8 * self.pst_squares() + role as usize
    }
    /// The named term `m`.
    #[inline(always)]
    pub const fn misc(&self, m: Misc) -> usize {
        8 + 8 * self.pst_squares() + 8 + m as usize
    }
    /// The passed-pawn term of `rank`, counted from the owner's side (the last one from rank 9 on).
    pub const fn passed(&self, rank: usize) -> usize {
        self.misc(Misc::PassedPawn) + if rank < 10 { rank } else { 9 }
    }
    /// Number of terms.
    pub const fn len(&self) -> usize {
        8 + 8 * self.pst_squares() + 8 + MISC_COUNT
    }
    /// Never: every layout has terms.
    pub const fn is_empty(&self) -> bool {
        false
    }
}

/// A readable name for a term (for the tuner's output).
pub fn term_name(layout: &Layout, term: usize) -> String {
    let role_name = |i: usize| Role::ALL[i].name();
    if term < 8 {
        return format!("material_{}", role_name(term));
    }
    let pst_end = 8 + 8 * layout.pst_squares();
    if term < pst_end {
        let k = term - 8;
        let role = k / layout.pst_squares();
        let idx = k % layout.pst_squares();
        let file = (b'a' + (idx % layout.half_files()) as u8) as char;
        return format!(
            "pst_{}_{}{}",
            role_name(role),
            file,
            idx / layout.half_files() + 1
        );
    }
    if term < pst_end + 8 {
        return format!("mobility_{}", role_name(term - pst_end));
    }
    let m = term - pst_end - 8;
    if m < MISC_NAMES.len() - 1 {
        MISC_NAMES[m].to_string()
    } else {
        format!("passed_pawn_rank{}", m - (MISC_NAMES.len() - 1) + 1)
    }
}

#[inline(always)]
fn sign(c: Color) -> i32 {
    match c {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// Squares above rank `r` (White's view) or below it (Black's).
#[inline(always)]
fn ahead<V: Variant>(c: Color, sq: Square) -> Bitboard<V::Word> {
    let g = V::GEOMETRY;
    let r = g.rank_of(sq).0 as u32;
    let files = g.files as u32;
    let board = V::tables().board();
    match c {
        Color::White => {
            let k = (r + 1) * files;
            if k >= <V::Word as Word>::BITS {
                Bitboard::EMPTY
            } else {
                Bitboard(board.0 >> k << k)
            }
        }
        Color::Black => {
            let k = r * files;
            Bitboard(board.0 & (<V::Word as Word>::ONE << k).wrapping_sub(<V::Word as Word>::ONE))
        }
    }
}

#[inline(always)]
fn adjacent_files<V: Variant>(sq: Square) -> Bitboard<V::Word> {
    let t = V::tables();
    let f = V::GEOMETRY.file_of(sq).0 as usize;
    let mut m = Bitboard::EMPTY;
    if f > 0 {
        m |= Bitboard(t.files[f - 1]);
    }
    if f + 1 < V::GEOMETRY.files as usize {
        m |= Bitboard(t.files[f + 1]);
    }
    m
}

pub(crate) fn write_terms<V: Evaluate, A: Accumulator>(pos: &Position<V>, acc: &mut A) {
    let t = V::tables();
    let g = V::GEOMETRY;
    let l = V::LAYOUT;
    let occ = pos.occupied();
    let half = l.half_files();

    acc.add(l.misc(Misc::Tempo), sign(pos.turn()));

    // Material and piece-square tables.
    for c in Color::ALL {
        let s = sign(c);
        for &role in V::ROLES {
            let pieces = pos.pieces(c, role);
            if pieces.is_empty() {
                continue;
            }
            acc.add(Layout::MATERIAL + role.index(), s * pieces.count() as i32);
            for sq in pieces {
                let f = g.file_of(sq).0 as usize;
                let f = f.min(g.files as usize - 1 - f);
                let r = g.rank_of(sq).0 as usize;
                let r = match c {
                    Color::White => r,
                    Color::Black => g.ranks as usize - 1 - r,
                };
                acc.add(l.pst(role, r * half + f), s);
            }
        }
    }
    if V::DROPS {
        let diff = pos.hand(Color::White) as i32 - pos.hand(Color::Black) as i32;
        acc.add(Layout::MATERIAL + V::DROP_ROLE.index(), diff);
        acc.add(l.misc(Misc::Reserve), diff);
    }

    let pawns_all = pos.by_role(Role::Pawn);
    let pawn_attacks = {
        let w = pos.pieces(Color::White, Role::Pawn);
        let b = pos.pieces(Color::Black, Role::Pawn);
        // NW/NE for White, SW/SE for Black.
        [t.shift(w, 6) | t.shift(w, 4), t.shift(b, 5) | t.shift(b, 7)]
    };

    // What each side attacks (pawns and king included), and with its minor
    // pieces: for hanging pieces and threats, once both sides are known.
    let mut attacked = [Bitboard::EMPTY; 2];
    let mut by_minors = [Bitboard::EMPTY; 2];

    for c in Color::ALL {
        let s = sign(c);
        let us = c.index();
        let own = pos.by_color(c);
        attacked[us] = pawn_attacks[us];
        if let Some(k) = pos.king_of(c).filter(|_| V::KING_MOVES) {
            attacked[us] |= t.king(k);
        }
        let mut zone_attackers = 0i32;
        let own_beasts = pos.pieces(c, Role::Beast);
        let enemy_beasts = pos.pieces(!c, Role::Beast);
        let land = t.board() - own - enemy_beasts;
        let safe = land - pawn_attacks[1 - us];
        let blockers = occ - own_beasts;
        let zone = match pos.king_of(!c) {
            Some(k) => t.king(k).with(k),
            None => Bitboard::EMPTY,
        };
        let mut zone_hits = 0i32;
        let mut linked = 0i32;

        // Knights, with ricochets off own beasts.
        let mut mob = 0i32;
        for sq in pos.pieces(c, Role::Knight) {
            let mut a = t.knight(sq);
            if V::BEASTS {
                let via = a & own_beasts;
                if via.any() {
                    linked += 1;
                }
                for x in via {
                    a |= t.knight(x);
                }
            }
            mob += (a & safe).count() as i32;
            zone_hits += (a & zone).count() as i32;
            zone_attackers += (a & zone).any() as i32;
            by_minors[us] |= a;
        }
        acc.add(l.mobility(Role::Knight), s * mob);

        // Sliders: pass through own beasts and ricochet off them.
        for (role, lines) in [
            (Role::Bishop, &DIAG_LINES[..]),
            (Role::Rook, &ORTHO_LINES[..]),
            (Role::Queen, &[0usize, 1, 2, 3][..]),
        ] {
            let mut mob = 0i32;
            for sq in pos.pieces(c, role) {
                let mut a = Bitboard::EMPTY;
                let mut seen_beast = false;
                for &line in lines {
                    let la = t.line_attacks(line, sq, blockers);
                    a |= la;
                    if V::BEASTS {
                        for x in la & own_beasts {
                            seen_beast = true;
                            a |= t.line_attacks(perpendicular(line), x, blockers);
                        }
                    }
                }
                if seen_beast {
                    linked += 1;
                }
                mob += (a & safe).count() as i32;
                zone_hits += (a & zone).count() as i32;
                zone_attackers += (a & zone).any() as i32;
                attacked[us] |= a;
                if role == Role::Bishop {
                    by_minors[us] |= a;
                }
                if role == Role::Rook {
                    let file = Bitboard(t.files[g.file_of(sq).0 as usize]);
                    if !(file & pawns_all).any() {
                        acc.add(l.misc(Misc::RookOpenFile), s);
                    } else if !(file & pos.pieces(c, Role::Pawn)).any() {
                        acc.add(l.misc(Misc::RookSemiOpenFile), s);
                    }
                }
            }
            acc.add(l.mobility(role), s * mob);
        }
        if pos.pieces(c, Role::Bishop).count() >= 2 {
            acc.add(l.misc(Misc::BishopPair), s);
        }

        if V::BEASTS {
            let mut mob = 0i32;
            let mut advanced = 0i32;
            let empty = t.board() - occ;
            for sq in own_beasts {
                mob += (t.king(sq) & empty).count() as i32;
                // Single hops over any piece.
                let b = Bitboard::from_square(sq);
                for d in ORTHO_DIRS.iter().chain(DIAG_DIRS.iter()) {
                    let over = t.shift(b, *d) & occ;
                    mob += (t.shift(over, *d) & empty).count() as i32;
                }
                let r = g.rank_of(sq).0 as usize;
                let rel = match c {
                    Color::White => r,
                    Color::Black => g.ranks as usize - 1 - r,
                };
                if rel >= g.ranks as usize / 2 {
                    advanced += 1;
                }
            }
            acc.add(l.mobility(Role::Beast), s * mob);
            acc.add(l.misc(Misc::BeastLinked), s * linked);
            acc.add(l.misc(Misc::BeastAdvanced), s * advanced);
        }

        if V::MEN {
            let powers = pos.men_powers(c);
            let men = pos.pieces(c, Role::Man);
            let mut mob = 0i32;
            for sq in men {
                let mut a = Bitboard::EMPTY;
                if powers.rook.contains(sq) {
                    a |= t.rook_attacks(sq, occ);
                }
                if powers.bishop.contains(sq) {
                    a |= t.bishop_attacks(sq, occ);
                }
                if powers.knight.contains(sq) {
                    a |= t.knight(sq);
                }
                mob += (a & land).count() as i32;
                zone_hits += (a & zone).count() as i32;
                zone_attackers += (a & zone).any() as i32;
                attacked[us] |= a;
            }
            acc.add(l.mobility(Role::Man), s * mob);
            acc.add(l.misc(Misc::MenRookPower), s * powers.rook.count() as i32);
            acc.add(
                l.misc(Misc::MenBishopPower),
                s * powers.bishop.count() as i32,
            );
            acc.add(
                l.misc(Misc::MenKnightPower),
                s * powers.knight.count() as i32,
            );
            let idle = men - powers.rook - powers.bishop - powers.knight;
            acc.add(l.misc(Misc::MenIdle), s * idle.count() as i32);
            acc.add(l.misc(Misc::MenNearKing), s * (men & zone).count() as i32);
        }

        acc.add(l.misc(Misc::KingZoneAttacks), s * zone_hits);
        let n = zone_attackers.min(4);
        acc.add(l.misc(Misc::KingAttackers), s * n * n);

        // Pawn structure.
        let own_pawns = pos.pieces(c, Role::Pawn);
        let enemy_pawns = pos.pieces(!c, Role::Pawn);
        for sq in own_pawns {
            let file = Bitboard(t.files[g.file_of(sq).0 as usize]);
            let front = ahead::<V>(c, sq);
            let adj = adjacent_files::<V>(sq);
            if (own_pawns & file & front).any() {
                acc.add(l.misc(Misc::DoubledPawn), s);
            }
            if !(own_pawns & adj).any() {
                acc.add(l.misc(Misc::IsolatedPawn), s);
            }
            if !(enemy_pawns & (file | adj) & front).any() {
                let r = g.rank_of(sq).0 as usize;
                let rel = match c {
                    Color::White => r,
                    Color::Black => g.ranks as usize - 1 - r,
                };
                acc.add(l.passed(rel), s);
                let stop = t.shift(Bitboard::from_square(sq), Position::<V>::forward_dir(c));
                if stop.any() && !(stop & occ).any() {
                    acc.add(l.misc(Misc::PassedFree), s * rel as i32);
                }
            }
            let rank = Bitboard(t.ranks[g.rank_of(sq).0 as usize]);
            if (own_pawns & adj & rank).any() || (t.pawn(!c, sq) & own_pawns).any() {
                acc.add(l.misc(Misc::ConnectedPawn), s);
            }
        }
        let threatened = (own - own_pawns - pos.pieces(c, Role::King)) & pawn_attacks[1 - us];
        acc.add(l.misc(Misc::PawnThreatened), s * threatened.count() as i32);

        // King shelter.
        if V::KING_MOVES
            && let Some(k) = pos.king_of(c)
        {
            let file = Bitboard(t.files[g.file_of(k).0 as usize]);
            let front = ahead::<V>(c, k);
            let near = (file | adjacent_files::<V>(k)) & front;
            let close = t.king(k) | t.shift(t.king(k), Position::<V>::forward_dir(c));
            acc.add(
                l.misc(Misc::PawnShield),
                s * (own_pawns & near & close).count() as i32,
            );
            if !(own_pawns & file).any() {
                acc.add(l.misc(Misc::KingOpenFile), s);
            }
        }
    }

    // Threats, now that both sides' attacks are known. Knights' attacks
    // were counted as minors' only: add them to their side's whole.
    for c in Color::ALL {
        attacked[c.index()] |= by_minors[c.index()];
    }
    for c in Color::ALL {
        let s = sign(c);
        let (us, them) = (c.index(), 1 - c.index());
        let own = pos.by_color(c) - pos.pieces(c, Role::King);
        let hanging = own & (attacked[them] - attacked[us]);
        acc.add(l.misc(Misc::Hanging), s * hanging.count() as i32);
        let majors = pos.pieces(c, Role::Rook) | pos.pieces(c, Role::Queen);
        acc.add(
            l.misc(Misc::MinorThreatened),
            s * (majors & by_minors[them]).count() as i32,
        );
    }
}
