//! A position of one of the games: placement, side to move, rights, clocks.

use crate::attacks::{DIAG_DIRS, ORTHO_DIRS, Tables, perpendicular};
use crate::zobrist::KEYS;
use crate::{
    Bitboard, CastlingSide, Color, Move, MoveKind, MoveObserver, Piece, Rank, Role, Square, Variant,
};
use std::marker::PhantomData;

/// Men of one side with the powers their neighbours lend them (Chessence):
/// a man beside a friendly man moves as a rook, one diagonally beside a
/// friendly man as a bishop, one a knight's move away from one as a knight.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MenPowers<W: crate::Word> {
    /// Men with a friendly man orthogonally next to them.
    pub rook: Bitboard<W>,
    /// Men with a friendly man diagonally next to them.
    pub bishop: Bitboard<W>,
    /// Men with a friendly man a knight's move away.
    pub knight: Bitboard<W>,
}

/// Castling rights: which sides each colour may still castle to.
///
/// ```
/// use tensorchess_rules::{CastlingRights, CastlingSide, Color};
/// let rights = CastlingRights::NONE.with(Color::White, CastlingSide::KingSide);
/// assert!(rights.has(Color::White, CastlingSide::KingSide));
/// assert!(!rights.has(Color::Black, CastlingSide::KingSide));
/// assert!(rights.without_color(Color::White).is_empty());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No right at all.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// Every right of both colours.
    pub const ALL: CastlingRights = CastlingRights(0b1111);

    /// Bit `color * 2 + side`.
    #[inline(always)]
    const fn bit(color: Color, side: CastlingSide) -> u8 {
        1 << (color.index() * 2 + side.index())
    }

    /// Whether `color` may still castle to `side`.
    #[inline]
    pub fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    /// These rights without `color`'s castling to `side`.
    #[inline]
    pub fn without(self, color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(self.0 & !Self::bit(color, side))
    }

    /// These rights with `color`'s castling to `side`.
    #[inline]
    pub fn with(self, color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(self.0 | Self::bit(color, side))
    }

    /// These rights without any of `color`'s.
    #[inline]
    pub fn without_color(self, color: Color) -> CastlingRights {
        CastlingRights(self.0 & !(3 << (color.index() * 2)))
    }

    /// Whether no right is left.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights in either set.
    #[inline]
    pub fn union(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 | other.0)
    }

    /// The rights in both sets.
    #[inline]
    pub fn intersection(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & other.0)
    }

    /// These rights without those of `other`.
    #[inline]
    pub fn difference(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & !other.0)
    }

    /// 0..16, for tables keyed by the rights (Zobrist keys).
    #[inline(always)]
    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A position. Cheap to copy: moves are made by copying (`play`) or in place (`play_unchecked`).
///
/// ```
/// use tensorchess_rules::{Position, Tensor};
/// let pos = Position::<Tensor>::new();
/// assert_eq!(pos.legal_moves().len(), 30);
/// assert!(!pos.is_check());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position<V: Variant> {
    pub(crate) by_color: [Bitboard<V::Word>; 2],
    pub(crate) by_role: [Bitboard<V::Word>; 8],
    pub(crate) mailbox: V::Mailbox,
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    /// Set only when an en-passant capture is legal (RULES 4.1).
    pub(crate) ep_square: Option<Square>,
    pub(crate) hand: [u8; 2],
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
    pub(crate) _variant: PhantomData<V>,
}

impl<V: Variant> Default for Position<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Variant> Position<V> {
    /// The game's start position.
    pub fn new() -> Self {
        crate::fen::parse_fen::<V>(V::START_FEN).expect("start FEN is valid")
    }

    pub(crate) fn empty() -> Self {
        Position {
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 8],
            mailbox: V::EMPTY_MAILBOX,
            turn: Color::White,
            castling: CastlingRights::NONE,
            ep_square: None,
            hand: [0, 0],
            halfmoves: 0,
            fullmoves: 1,
            hash: 0,
            _variant: PhantomData,
        }
    }

    #[inline(always)]
    pub(crate) fn t() -> &'static Tables<V::Word> {
        V::tables()
    }

    // ---- queries -------------------------------------------------------

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.mailbox.as_ref().get(sq.index()).copied().flatten()
    }

    /// Squares holding a piece.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard<V::Word> {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares holding a piece of `c`.
    #[inline(always)]
    pub fn by_color(&self, c: Color) -> Bitboard<V::Word> {
        self.by_color[c.index()]
    }

    /// Squares holding a piece of role `r`, of either side.
    #[inline(always)]
    pub fn by_role(&self, r: Role) -> Bitboard<V::Word> {
        self.by_role[r.index()]
    }

    /// Squares holding a piece of `c` and role `r`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, r: Role) -> Bitboard<V::Word> {
        self.by_color[c.index()] & self.by_role[r.index()]
    }

    /// Existing squares with no piece.
    #[inline(always)]
    pub fn empty_squares(&self) -> Bitboard<V::Word> {
        Self::t().board() - self.occupied()
    }

    /// The square of `c`'s king, if it has one.
    #[inline(always)]
    pub fn king_of(&self, c: Color) -> Option<Square> {
        self.pieces(c, Role::King).first()
    }

    /// Who may still castle where.
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant target square, present only when such a capture is legal.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Pieces in hand (Chessence reserve men) of a side.
    pub fn hand(&self, c: Color) -> u8 {
        self.hand[c.index()]
    }

    /// Plies since the last capture, pawn move or drop.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmoves
    }

    /// The move number (1 at the start, raised after each Black move).
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Zobrist hash of placement, side to move, castling rights, legal en-passant square and hands.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Recomputes the hash from scratch (tests compare it with the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                h ^= KEYS.piece_square[p.index()][sq.index()];
            }
        }
        if self.turn == Color::Black {
            h ^= KEYS.black_to_move;
        }
        h ^= KEYS.castling[self.castling.index()];
        if let Some(ep) = self.ep_square {
            h ^= KEYS.ep_file[V::GEOMETRY.file_of(ep).0 as usize];
        }
        for c in Color::ALL {
            h ^= KEYS.hand[c.index()][self.hand[c.index()].min(15) as usize];
        }
        h
    }

    /// The back rank of a side.
    #[inline(always)]
    pub fn back_rank(c: Color) -> Rank {
        match c {
            Color::White => Rank(0),
            Color::Black => Rank(V::GEOMETRY.ranks - 1),
        }
    }

    /// Pawns of a side on their starting rank ("first move", RULES 1.9).
    #[inline(always)]
    pub(crate) fn pawn_start_rank(c: Color) -> Bitboard<V::Word> {
        let t = Self::t();
        Bitboard(match c {
            Color::White => t.ranks[1],
            Color::Black => t.ranks[V::GEOMETRY.ranks as usize - 2],
        })
    }

    #[inline(always)]
    pub(crate) fn last_rank(c: Color) -> Bitboard<V::Word> {
        let t = Self::t();
        Bitboard(match c {
            Color::White => t.ranks[V::GEOMETRY.ranks as usize - 1],
            Color::Black => t.ranks[0],
        })
    }

    /// Direction index of a pawn's step forward (N or S).
    #[inline(always)]
    pub fn forward_dir(c: Color) -> usize {
        match c {
            Color::White => 0,
            Color::Black => 1,
        }
    }

    // ---- attacks -----------------------------------------------------

    /// Men of `c` with the powers their neighbours give them: (rook, bishop, knight) (Chessence).
    #[inline]
    pub fn men_powers(&self, c: Color) -> MenPowers<V::Word> {
        let t = Self::t();
        let men = self.pieces(c, Role::Man);
        let mut ortho = Bitboard::EMPTY;
        for d in ORTHO_DIRS {
            ortho |= t.shift(men, d);
        }
        let mut diag = Bitboard::EMPTY;
        for d in DIAG_DIRS {
            diag |= t.shift(men, d);
        }
        let mut knight = Bitboard::EMPTY;
        for m in men {
            knight |= t.knight(m);
        }
        MenPowers {
            rook: men & ortho,
            bishop: men & diag,
            knight: men & knight,
        }
    }

    /// Whether side `by` attacks `sq` (could capture a king standing there), with
    /// `occ` as the occupied squares. No piece attacks its own square.
    pub fn is_attacked_by(&self, sq: Square, by: Color, occ: Bitboard<V::Word>) -> bool {
        let t = Self::t();
        let theirs = self.by_color[by.index()] & occ;
        let not_sq = !Bitboard::from_square(sq);
        if V::MEN {
            let powers = self.men_powers(by);
            let (rook_men, bishop_men, knight_men) =
                (powers.rook & occ, powers.bishop & occ, powers.knight & occ);
            return (t.knight(sq) & knight_men).any()
                || (rook_men.any() && (t.rook_attacks(sq, occ) & rook_men).any())
                || (bishop_men.any() && (t.bishop_attacks(sq, occ) & bishop_men).any());
        }
        let pawns = theirs & self.by_role[Role::Pawn.index()];
        if (t.pawn(!by, sq) & pawns).any() {
            return true;
        }
        let knights = theirs & self.by_role[Role::Knight.index()] & not_sq;
        if (t.knight(sq) & knights).any() {
            return true;
        }
        if (t.king(sq) & theirs & self.by_role[Role::King.index()]).any() {
            return true;
        }
        let queens = self.by_role[Role::Queen.index()];
        let rq = theirs & (self.by_role[Role::Rook.index()] | queens);
        let bq = theirs & (self.by_role[Role::Bishop.index()] | queens);
        let beasts = if V::BEASTS {
            theirs & self.by_role[Role::Beast.index()]
        } else {
            Bitboard::EMPTY
        };
        // Their beasts let their sliders pass (RULES 1.4); ours block.
        let blockers = occ - beasts;
        for line in 0..4 {
            let sliders = if line < 2 { rq } else { bq };
            if sliders.is_empty() {
                continue;
            }
            let a = t.line_attacks(line, sq, blockers);
            if (a & sliders).any() {
                return true;
            }
            if V::BEASTS {
                // Ricochet: from one of their beasts on this line, at a right angle (RULES 1.5).
                for x in a & beasts {
                    if (t.line_attacks(perpendicular(line), x, blockers) & sliders).any() {
                        return true;
                    }
                }
            }
        }
        if V::BEASTS && knights.any() {
            for x in t.knight(sq) & beasts {
                if (t.knight(x) & knights).any() {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        match self.king_of(self.turn) {
            Some(k) => self.is_attacked_by(k, !self.turn, self.occupied()),
            None => false,
        }
    }

    /// Whether the side that just moved left its king attacked (an illegal position).
    #[inline]
    pub(crate) fn opponent_in_check(&self) -> bool {
        let them = !self.turn;
        match self.king_of(them) {
            Some(k) => self.is_attacked_by(k, self.turn, self.occupied()),
            None => false,
        }
    }

    /// Pieces of side `by` directly attacking `sq` (no ricochets): the checkers of
    /// orthodox chess.
    pub(crate) fn direct_attackers(
        &self,
        sq: Square,
        by: Color,
        occ: Bitboard<V::Word>,
    ) -> Bitboard<V::Word> {
        let t = Self::t();
        let theirs = self.by_color[by.index()];
        let queens = self.by_role[Role::Queen.index()];
        (t.pawn(!by, sq) & self.by_role[Role::Pawn.index()]
            | t.knight(sq) & self.by_role[Role::Knight.index()]
            | t.king(sq) & self.by_role[Role::King.index()]
            | t.rook_attacks(sq, occ) & (self.by_role[Role::Rook.index()] | queens)
            | t.bishop_attacks(sq, occ) & (self.by_role[Role::Bishop.index()] | queens))
            & theirs
    }

    // ---- changing the board -------------------------------------------

    #[inline(always)]
    pub(crate) fn put<const HASH: bool>(&mut self, sq: Square, p: Piece) {
        let b = Bitboard::from_square(sq);
        self.by_color[p.color().index()] |= b;
        self.by_role[p.role().index()] |= b;
        self.mailbox.as_mut()[sq.index()] = Some(p);
        if HASH {
            self.hash ^= KEYS.piece_square[p.index()][sq.index()];
        }
    }

    #[inline(always)]
    pub(crate) fn take<const HASH: bool>(&mut self, sq: Square) -> Option<Piece> {
        let p = self.mailbox.as_ref()[sq.index()]?;
        let b = Bitboard::from_square(sq);
        self.by_color[p.color().index()] ^= b;
        self.by_role[p.role().index()] ^= b;
        self.mailbox.as_mut()[sq.index()] = None;
        if HASH {
            self.hash ^= KEYS.piece_square[p.index()][sq.index()];
        }
        Some(p)
    }

    /// [`Position::take`], telling `obs` what left the square.
    #[inline(always)]
    fn take_seen<const HASH: bool, O: MoveObserver>(
        &mut self,
        sq: Square,
        obs: &mut O,
    ) -> Option<Piece> {
        let p = self.take::<HASH>(sq);
        if let Some(p) = p {
            obs.removed(sq, p);
        }
        p
    }

    /// [`Position::put`], telling `obs` what arrived on the square.
    #[inline(always)]
    fn put_seen<const HASH: bool, O: MoveObserver>(&mut self, sq: Square, p: Piece, obs: &mut O) {
        self.put::<HASH>(sq, p);
        obs.added(sq, p);
    }

    pub(crate) fn set_castling(&mut self, rights: CastlingRights) {
        self.hash ^= KEYS.castling[self.castling.index()] ^ KEYS.castling[rights.index()];
        self.castling = rights;
    }

    pub(crate) fn set_hand(&mut self, c: Color, n: u8) {
        let i = c.index();
        self.hash ^= KEYS.hand[i][self.hand[i].min(15) as usize] ^ KEYS.hand[i][n.min(15) as usize];
        self.hand[i] = n;
    }

    pub(crate) fn set_ep(&mut self, ep: Option<Square>) {
        if let Some(old) = self.ep_square {
            self.hash ^= KEYS.ep_file[V::GEOMETRY.file_of(old).0 as usize];
        }
        if let Some(new) = ep {
            self.hash ^= KEYS.ep_file[V::GEOMETRY.file_of(new).0 as usize];
        }
        self.ep_square = ep;
    }

    /// Castling rights lost when a piece leaves or arrives on `sq`.
    #[inline]
    fn rights_touching(sq: Square) -> CastlingRights {
        let Some(rule) = V::CASTLING else {
            return CastlingRights::NONE;
        };
        let g = V::GEOMETRY;
        let mut lost = CastlingRights::NONE;
        for c in Color::ALL {
            let rank = Self::back_rank(c);
            if g.rank_of(sq) != rank {
                continue;
            }
            let file = g.file_of(sq).0;
            for side in CastlingSide::ALL {
                if file == rule.king_file || file == rule.rook_file(side) {
                    lost = lost.with(c, side);
                }
            }
        }
        lost
    }

    /// The rook's squares (from, to) of a castling whose king goes to `king_to`.
    pub(crate) fn castling_rook_squares(color: Color, king_to: Square) -> Option<(Square, Square)> {
        let rule = V::CASTLING?;
        let g = V::GEOMETRY;
        let rank = Self::back_rank(color);
        let file = g.file_of(king_to).0;
        let opt = rule.options.iter().find(|o| o.king_to == file)?;
        Some((
            g.square(crate::File(rule.rook_file(opt.side)), rank)?,
            g.square(crate::File(opt.rook_to), rank)?,
        ))
    }

    /// Plays a move assumed legal (from [`Position::legal_moves`]), in place.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        self.do_move::<true>(m);
    }

    /// Plays a legal move and returns the new position, telling `obs` the
    /// board changes (see [`MoveObserver`]).
    #[inline]
    pub fn play_observed<O: MoveObserver>(&self, m: Move, obs: &mut O) -> Position<V> {
        let mut p = *self;
        p.do_move_observed::<true, O>(m, obs);
        p
    }

    /// Plays a legal move and returns the new position.
    #[inline]
    pub fn play(&self, m: Move) -> Position<V> {
        let mut p = *self;
        p.do_move::<true>(m);
        p
    }

    /// Passes the turn (for null-move pruning). Not a legal move of any game.
    pub fn play_null(&self) -> Position<V> {
        let mut p = *self;
        p.set_ep(None);
        p.turn = !p.turn;
        p.hash ^= KEYS.black_to_move;
        p.halfmoves = p.halfmoves.saturating_add(1);
        p
    }

    /// Makes a move. With `FULL = false` only the placement changes (for
    /// legality tests): no hash, rights, clocks or en-passant bookkeeping.
    #[inline(always)]
    pub(crate) fn do_move<const FULL: bool>(&mut self, m: Move) {
        self.do_move_observed::<FULL, ()>(m, &mut ());
    }

    /// [`Position::do_move`], telling `obs` each piece taken off or put on a
    /// square and each change of a hand.
    #[inline(always)]
    fn do_move_observed<const FULL: bool, O: MoveObserver>(&mut self, m: Move, obs: &mut O) {
        let us = self.turn;
        let from = m.from();
        let to = m.to();
        let mut reset_clock = false;
        let mut ep_candidate = None;
        if FULL && self.ep_square.is_some() {
            self.set_ep(None);
        }
        match m.kind() {
            MoveKind::Normal => {
                let p = self.take_seen::<FULL, O>(from, obs);
                let Some(p) = p else { return };
                if self.take_seen::<FULL, O>(to, obs).is_some() {
                    reset_clock = true;
                }
                self.put_seen::<FULL, O>(to, p, obs);
                if p.role() == Role::Pawn {
                    reset_clock = true;
                    if FULL {
                        let g = V::GEOMETRY;
                        let fr = g.rank_of(from).0 as i32;
                        let tr = g.rank_of(to).0 as i32;
                        if (fr - tr).abs() == 2 {
                            let mid =
                                Square::new(((from.raw() as u16 + to.raw() as u16) / 2) as u8);
                            // A pass-through double step sets no en-passant square (RULES 1.4).
                            if self.piece_at(mid).is_none() {
                                ep_candidate = Some(mid);
                            }
                        }
                    }
                }
            }
            MoveKind::Promotion => {
                self.take_seen::<FULL, O>(from, obs);
                self.take_seen::<FULL, O>(to, obs);
                let role = m.promotion_role().unwrap_or(Role::Queen);
                self.put_seen::<FULL, O>(to, Piece::new(us, role), obs);
                reset_clock = true;
            }
            MoveKind::EnPassant => {
                let t = Self::t();
                let victim = Square::new((to.raw() as i32 - t.delta[Self::forward_dir(us)]) as u8);
                self.take_seen::<FULL, O>(victim, obs);
                if let Some(p) = self.take_seen::<FULL, O>(from, obs) {
                    self.put_seen::<FULL, O>(to, p, obs);
                }
                reset_clock = true;
            }
            MoveKind::Castle => {
                if let Some((rook_from, rook_to)) = Self::castling_rook_squares(us, to) {
                    let king = self.take_seen::<FULL, O>(from, obs);
                    let rook = self.take_seen::<FULL, O>(rook_from, obs);
                    if let Some(k) = king {
                        self.put_seen::<FULL, O>(to, k, obs);
                    }
                    if let Some(r) = rook {
                        self.put_seen::<FULL, O>(rook_to, r, obs);
                    }
                }
            }
            MoveKind::Propel => {
                let beast = self.take_seen::<FULL, O>(to, obs);
                if let Some(p) = self.take_seen::<FULL, O>(from, obs) {
                    if p.role() == Role::Pawn {
                        reset_clock = true;
                    }
                    self.put_seen::<FULL, O>(to, p, obs);
                }
                if let Some(b) = beast {
                    self.put_seen::<FULL, O>(m.aux(), b, obs);
                }
            }
            MoveKind::BeastCapture => {
                self.take_seen::<FULL, O>(m.aux(), obs);
                if let Some(b) = self.take_seen::<FULL, O>(from, obs) {
                    self.put_seen::<FULL, O>(to, b, obs);
                }
                reset_clock = true;
            }
            MoveKind::Drop => {
                let role = m.drop_role().unwrap_or(V::DROP_ROLE);
                self.put_seen::<FULL, O>(to, Piece::new(us, role), obs);
                if FULL {
                    let before = self.hand[us.index()];
                    let n = before.saturating_sub(1);
                    self.set_hand(us, n);
                    obs.hand_changed(us, before, n);
                } else {
                    self.hand[us.index()] = self.hand[us.index()].saturating_sub(1);
                }
                reset_clock = true;
            }
        }
        self.turn = !us;
        if FULL {
            self.hash ^= KEYS.black_to_move;
            if V::CASTLING.is_some() && !self.castling.is_empty() {
                let lost = Self::rights_touching(from).union(Self::rights_touching(to));
                if !lost.intersection(self.castling).is_empty() {
                    self.set_castling(self.castling.difference(lost));
                }
            }
            self.halfmoves = if reset_clock {
                0
            } else {
                self.halfmoves.saturating_add(1)
            };
            if us == Color::Black {
                self.fullmoves = self.fullmoves.saturating_add(1);
            }
            if let Some(ep) = ep_candidate
                && self.ep_capture_possible(ep)
            {
                self.set_ep(Some(ep));
            }
        }
    }

    /// Whether the side to move has a legal en-passant capture onto `ep`.
    pub(crate) fn ep_capture_possible(&self, ep: Square) -> bool {
        let t = Self::t();
        let us = self.turn;
        let pawns = t.pawn(!us, ep) & self.pieces(us, Role::Pawn);
        pawns
            .into_iter()
            .any(|p| self.is_legal_by_trial(Move::en_passant(p, ep)))
    }

    /// Legality by making the move on a copy and looking at the mover's king.
    #[inline]
    pub(crate) fn is_legal_by_trial(&self, m: Move) -> bool {
        let us = self.turn;
        let mut p = *self;
        p.do_move::<false>(m);
        match p.king_of(us) {
            Some(k) => !p.is_attacked_by(k, !us, p.occupied()),
            None => true,
        }
    }
}
