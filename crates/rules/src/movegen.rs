//! Legal move generation for all three games.
//!
//! Pieces produce target sets; a per-origin restriction makes them legal.
//! Orthodox chess gets exact pin and check masks. Tensor Chess and Chessence
//! compute a *danger* set instead: the squares whose vacating could expose
//! the king (lines to enemy sliders, ricochet lines through enemy beasts, lines
//! to enemy men with slider powers). Moves from other squares, when not in
//! check, are legal as generated; the rest are tried on a copy. This is exact
//! because a move can only expose a king by vacating squares: placing a piece
//! or removing an enemy piece never creates an attack.

use crate::attacks::{DIAG_DIRS, DIAG_LINES, ORTHO_DIRS, ORTHO_LINES, Tables, perpendicular};
use crate::{Bitboard, Color, File, Move, MoveList, Piece, Position, Role, Square, Variant, Word};

/// Receives generated moves: a list, or a counter for perft's last ply.
pub(crate) trait Sink<W: Word> {
    fn push(&mut self, m: Move);

    /// Ordinary moves from `from` to each target.
    #[inline(always)]
    fn targets(&mut self, from: Square, targets: Bitboard<W>) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }

    /// Promotions from `from` to each target, one per role.
    #[inline(always)]
    fn promotions(&mut self, from: Square, targets: Bitboard<W>, roles: &[Role]) {
        for to in targets {
            for &r in roles {
                self.push(Move::promotion(from, to, r));
            }
        }
    }

    /// Pawn moves made set-wise: each target came from `target - delta`.
    #[inline(always)]
    fn shifted(&mut self, targets: Bitboard<W>, delta: i32, roles: Option<&[Role]>) {
        for to in targets {
            let from = Square::new((to.raw() as i32 - delta) as u8);
            match roles {
                None => self.push(Move::normal(from, to)),
                Some(roles) => {
                    for &r in roles {
                        self.push(Move::promotion(from, to, r));
                    }
                }
            }
        }
    }
}

pub(crate) struct Collect<'a>(pub &'a mut MoveList);

impl<W: Word> Sink<W> for Collect<'_> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.0.push(m);
    }
}

/// Counts moves without listing them (bulk counting at perft's last ply).
pub(crate) struct Count(pub u64);

impl<W: Word> Sink<W> for Count {
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn targets(&mut self, _from: Square, targets: Bitboard<W>) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn promotions(&mut self, _from: Square, targets: Bitboard<W>, roles: &[Role]) {
        self.0 += targets.count() as u64 * roles.len() as u64;
    }
    #[inline(always)]
    fn shifted(&mut self, targets: Bitboard<W>, _delta: i32, roles: Option<&[Role]>) {
        self.0 += targets.count() as u64 * roles.map_or(1, |r| r.len() as u64);
    }
}

/// Which moves to generate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Every legal move.
    All,
    /// Captures (beast captures and en passant included) and queen promotions:
    /// the moves of a quiescence search.
    Tactical,
    /// Every move the pieces can make, ignoring the safety of the mover's king
    /// (to explain why a move is illegal).
    IgnoringCheck,
}

struct Gen<'a, V: Variant> {
    pos: &'a Position<V>,
    t: &'static Tables<V::Word>,
    us: Color,
    them: Color,
    occ: Bitboard<V::Word>,
    own: Bitboard<V::Word>,
    empty: Bitboard<V::Word>,
    own_beasts: Bitboard<V::Word>,
    enemy_beasts: Bitboard<V::Word>,
    /// Where ordinary pieces may go: empty squares and enemy pieces other than beasts.
    land: Bitboard<V::Word>,
    king: Option<Square>,
    in_check: bool,
    double_check: bool,
    /// Orthodox chess: destinations that answer a check (all squares when not in check).
    check_mask: Bitboard<V::Word>,
    /// Orthodox chess: pieces pinned to their king.
    pinned: Bitboard<V::Word>,
    /// Other games: origins whose moves are tried on a copy.
    verify: Bitboard<V::Word>,
    tactical: bool,
    /// Ignore the mover's king safety.
    pseudo: bool,
}

impl<'a, V: Variant> Gen<'a, V> {
    /// Exact pin/check masks apply (orthodox chess); otherwise danger sets and trials.
    const EXACT: bool = !V::BEASTS && !V::MEN;

    fn new(pos: &'a Position<V>, kind: GenType) -> Self {
        let t = V::tables();
        let us = pos.turn;
        let them = !us;
        let occ = pos.occupied();
        let own = pos.by_color(us);
        let enemy = pos.by_color(them);
        let (own_beasts, enemy_beasts) = if V::BEASTS {
            (pos.pieces(us, Role::Beast), pos.pieces(them, Role::Beast))
        } else {
            (Bitboard::EMPTY, Bitboard::EMPTY)
        };
        let empty = t.board() - occ;
        let tactical = kind == GenType::Tactical;
        let capturable = enemy - enemy_beasts;
        let land = if tactical {
            capturable
        } else {
            empty | capturable
        };
        let king = pos.king_of(us);
        let mut g = Gen {
            pos,
            t,
            us,
            them,
            occ,
            own,
            empty,
            own_beasts,
            enemy_beasts,
            land,
            king,
            in_check: false,
            double_check: false,
            check_mask: t.board(),
            pinned: Bitboard::EMPTY,
            verify: Bitboard::EMPTY,
            tactical,
            pseudo: kind == GenType::IgnoringCheck,
        };
        if g.pseudo {
            return g;
        }
        if let Some(k) = king {
            if Self::EXACT {
                g.exact_masks(k);
            } else {
                g.in_check = pos.is_attacked_by(k, them, occ);
                g.verify = if g.in_check { t.board() } else { g.danger(k) };
            }
        }
        g
    }

    fn exact_masks(&mut self, k: Square) {
        let t = self.t;
        let pos = self.pos;
        let checkers = pos.direct_attackers(k, self.them, self.occ);
        self.in_check = checkers.any();
        self.double_check = checkers.more_than_one();
        if let Some(c) = checkers.single_square() {
            self.check_mask = t.between(k, c).with(c);
        }
        let enemy = pos.by_color(self.them);
        let queens = pos.by_role(Role::Queen);
        let rq = enemy & (pos.by_role(Role::Rook) | queens);
        let bq = enemy & (pos.by_role(Role::Bishop) | queens);
        for line in 0..4 {
            let sliders = if line < 2 { rq } else { bq };
            if !(t.line(line, k) & sliders).any() {
                continue;
            }
            // Enemy sliders seen from the king through our pieces.
            let snipers = t.line_attacks(line, k, enemy) & sliders;
            for s in snipers {
                let dir = if s > k { line * 2 } else { line * 2 + 1 };
                let between = t.ray(dir, k) & t.ray(dir ^ 1, s) & self.occ;
                if let Some(b) = between.single_square()
                    && self.own.contains(b)
                {
                    self.pinned.add(b);
                }
            }
        }
    }

    /// Squares whose vacating might expose the king (see the module comment).
    fn danger(&self, k: Square) -> Bitboard<V::Word> {
        let t = self.t;
        let pos = self.pos;
        let (orth, diag) = if V::MEN {
            let powers = pos.men_powers(self.them);
            (powers.rook, powers.bishop)
        } else {
            let enemy = pos.by_color(self.them);
            let queens = pos.by_role(Role::Queen);
            (
                enemy & (pos.by_role(Role::Rook) | queens),
                enemy & (pos.by_role(Role::Bishop) | queens),
            )
        };
        let mut d = Bitboard::EMPTY;
        for dir in 0..8 {
            let line = dir / 2;
            let sliders = if line < 2 { orth } else { diag };
            if sliders.is_empty() {
                continue;
            }
            let ray = t.ray(dir, k);
            if (ray & sliders).any() {
                d |= ray;
            }
            if V::BEASTS {
                for x in ray & self.enemy_beasts {
                    let cross = t.line(perpendicular(line), x);
                    if (cross & sliders).any() {
                        d |= ray | cross;
                    }
                }
            }
        }
        d
    }

    /// Destinations from `from` that are legal as generated (`Some`), or `None`
    /// when each move must be tried.
    #[inline(always)]
    fn restrict(&self, from: Square) -> Option<Bitboard<V::Word>> {
        if Self::EXACT {
            if self.pinned.contains(from) {
                let k = self.king?;
                let line = self.t.line_between(k, from)?;
                Some(self.check_mask & self.t.line(line, k))
            } else {
                Some(self.check_mask)
            }
        } else if self.verify.contains(from) {
            None
        } else {
            Some(self.t.board())
        }
    }

    #[inline(always)]
    fn emit_targets<S: Sink<V::Word>>(
        &self,
        sink: &mut S,
        from: Square,
        targets: Bitboard<V::Word>,
    ) {
        match self.restrict(from) {
            Some(mask) => sink.targets(from, targets & mask),
            None => {
                for to in targets {
                    let m = Move::normal(from, to);
                    if self.pos.is_legal_by_trial(m) {
                        sink.push(m);
                    }
                }
            }
        }
    }

    /// A single move of a piece on `from` whose legality the masks cannot judge
    /// by destination (propels, beast captures).
    #[inline(always)]
    fn emit_special<S: Sink<V::Word>>(&self, sink: &mut S, from: Square, m: Move) {
        let ok = match self.restrict(from) {
            Some(mask) => mask.contains(m.to()),
            None => self.pos.is_legal_by_trial(m),
        };
        if ok {
            sink.push(m);
        }
    }

    fn generate<S: Sink<V::Word>>(&self, sink: &mut S) {
        if !self.double_check {
            if !V::MEN {
                self.pawns(sink);
                self.knights(sink);
                self.sliders(sink, Role::Bishop);
                self.sliders(sink, Role::Rook);
                self.sliders(sink, Role::Queen);
            }
            if V::BEASTS {
                self.beasts(sink);
            }
            if V::MEN {
                self.men(sink);
            }
            if V::DROPS && !self.tactical {
                self.drops(sink);
            }
        }
        if V::KING_MOVES {
            self.king_moves(sink);
        }
    }

    fn pawns<S: Sink<V::Word>>(&self, sink: &mut S) {
        let pos = self.pos;
        let t = self.t;
        let us = self.us;
        let pawns = pos.pieces(us, Role::Pawn);
        if pawns.is_empty() {
            return;
        }
        let fwd = Position::<V>::forward_dir(us);
        let delta = t.delta[fwd];
        // Capture directions: NW/NE for White, SW/SE for Black.
        let (cap_dirs, cap_deltas) = match us {
            Color::White => ([6usize, 4], [t.delta[6], t.delta[4]]),
            Color::Black => ([5usize, 7], [t.delta[5], t.delta[7]]),
        };
        let start = Position::<V>::pawn_start_rank(us);
        let last = Position::<V>::last_rank(us);
        let capturable = pos.by_color(self.them) - self.enemy_beasts;
        let promos = V::PROMOTIONS;
        let promos_here: &[Role] = if self.tactical {
            &promos[..1.min(promos.len())]
        } else {
            promos
        };

        // Pawns whose moves are judged by destination go set-wise.
        let free = if Self::EXACT {
            pawns - self.pinned
        } else {
            pawns - self.verify
        };
        let mask = if Self::EXACT {
            self.check_mask
        } else {
            t.board()
        };
        if free.any() {
            let single = t.shift(free, fwd) & self.empty & mask;
            if !self.tactical {
                sink.shifted(single - last, delta, None);
                // Double step, over an empty square or an own beast (pass-through).
                let mid = t.shift(free & start, fwd) & (self.empty | self.own_beasts);
                let double = t.shift(mid, fwd) & self.empty & mask;
                sink.shifted(double, 2 * delta, None);
            }
            sink.shifted(single & last, delta, Some(promos_here));
            for i in 0..2 {
                let caps = t.shift(free, cap_dirs[i]) & capturable & mask;
                sink.shifted(caps - last, cap_deltas[i], None);
                sink.shifted(caps & last, cap_deltas[i], Some(promos_here));
            }
            if V::BEASTS && !self.tactical {
                // Propel: a pawn on its first move steps onto its beast, which goes one square on.
                let beasts = t.shift(free & start, fwd) & self.own_beasts;
                let dest = t.shift(beasts, fwd) & self.empty;
                for bt in dest {
                    let b = Square::new((bt.raw() as i32 - delta) as u8);
                    let from = Square::new((b.raw() as i32 - delta) as u8);
                    sink.push(Move::propel(from, b, bt));
                }
            }
        }
        for from in pawns - free {
            let b = Bitboard::from_square(from);
            let mut targets = Bitboard::EMPTY;
            let single = t.shift(b, fwd) & self.empty;
            if !self.tactical || (single & last).any() {
                targets |= single;
            }
            if !self.tactical && (b & start).any() {
                let mid = t.shift(b, fwd) & (self.empty | self.own_beasts);
                targets |= t.shift(mid, fwd) & self.empty;
            }
            targets |= t.pawn(us, from) & capturable;
            match self.restrict(from) {
                Some(m) => {
                    let targets = targets & m;
                    sink.targets(from, targets - last);
                    sink.promotions(from, targets & last, promos_here);
                }
                None => {
                    for to in targets {
                        if last.contains(to) {
                            for &r in promos_here {
                                let m = Move::promotion(from, to, r);
                                if pos.is_legal_by_trial(m) {
                                    sink.push(m);
                                }
                            }
                        } else {
                            let m = Move::normal(from, to);
                            if pos.is_legal_by_trial(m) {
                                sink.push(m);
                            }
                        }
                    }
                }
            }
            if V::BEASTS && !self.tactical && (b & start).any() {
                let beast = t.shift(b, fwd) & self.own_beasts;
                if let Some(bsq) = beast.first()
                    && let Some(dest) = (t.shift(beast, fwd) & self.empty).first()
                {
                    self.emit_special(sink, from, Move::propel(from, bsq, dest));
                }
            }
        }
        if let Some(ep) = pos.ep_square {
            for from in t.pawn(self.them, ep) & pawns {
                let m = Move::en_passant(from, ep);
                if self.pseudo || pos.is_legal_by_trial(m) {
                    sink.push(m);
                }
            }
        }
    }

    fn knights<S: Sink<V::Word>>(&self, sink: &mut S) {
        let t = self.t;
        for from in self.pos.pieces(self.us, Role::Knight) {
            let jumps = t.knight(from);
            let mut targets = jumps & self.land;
            if V::BEASTS {
                for x in jumps & self.own_beasts {
                    let second = t.knight(x);
                    // Ricochet: a second knight move from the beast, not back home (RULES 1.5).
                    targets |= second & self.land;
                    if !self.tactical {
                        // Propel: the beast makes one knight jump to an empty square (RULES 1.6).
                        for dest in second & (self.empty.with(from)) {
                            self.emit_special(sink, from, Move::propel(from, x, dest));
                        }
                    }
                }
            }
            self.emit_targets(sink, from, targets);
        }
    }

    fn sliders<S: Sink<V::Word>>(&self, sink: &mut S, role: Role) {
        let t = self.t;
        let lines: &[usize] = match role {
            Role::Bishop => &DIAG_LINES,
            Role::Rook => &ORTHO_LINES,
            _ => &[0, 1, 2, 3],
        };
        // Own beasts are transparent to our sliders (RULES 1.4).
        let blockers = self.occ - self.own_beasts;
        for from in self.pos.pieces(self.us, role) {
            let mut targets = Bitboard::EMPTY;
            for &line in lines {
                let a = t.line_attacks(line, from, blockers);
                targets |= a & self.land;
                if V::BEASTS {
                    for x in a & self.own_beasts {
                        // Ricochet: turn 90 degrees within the family (RULES 1.5).
                        targets |= t.line_attacks(perpendicular(line), x, blockers) & self.land;
                        if !self.tactical {
                            self.propels_from_slide(sink, from, x, line);
                        }
                    }
                }
            }
            self.emit_targets(sink, from, targets);
        }
    }

    /// A slider on `from` lands on its beast on `x`, arriving along `line`; the
    /// beast slides on in that family, through own beasts, to empty squares (RULES 1.6).
    fn propels_from_slide<S: Sink<V::Word>>(
        &self,
        sink: &mut S,
        from: Square,
        x: Square,
        line: usize,
    ) {
        let t = self.t;
        let blockers = (self.occ - self.own_beasts).without(from);
        let lines = if line < 2 { ORTHO_LINES } else { DIAG_LINES };
        let free = self.empty.with(from);
        for l in lines {
            for dest in t.line_attacks(l, x, blockers) & free {
                self.emit_special(sink, from, Move::propel(from, x, dest));
            }
        }
    }

    fn beasts<S: Sink<V::Word>>(&self, sink: &mut S) {
        let t = self.t;
        for from in self.pos.pieces(self.us, Role::Beast) {
            // The starting square counts as empty during the move (RULES 1.2).
            let open = self.empty.with(from);
            let occ = self.occ.without(from);
            let mut targets = Bitboard::EMPTY;
            for dirs in [ORTHO_DIRS, DIAG_DIRS] {
                let reach = Self::hop_reach(t, from, dirs, occ, open);
                targets |= reach;
                // Beast capture: a last hop over an enemy beast (RULES 1.3).
                for d in dirs {
                    let over = t.shift(reach, d) & self.enemy_beasts;
                    for to in t.shift(over, d) & open {
                        let captured = Square::new((to.raw() as i32 - t.delta[d]) as u8);
                        let m = Move::beast_capture(from, to, captured);
                        self.emit_special(sink, from, m);
                    }
                }
            }
            if !self.tactical {
                targets |= t.king(from) & self.empty;
                self.emit_targets(sink, from, targets.without(from));
            }
        }
    }

    /// Squares reachable by hop chains of one family, the start included.
    #[inline]
    fn hop_reach(
        t: &Tables<V::Word>,
        from: Square,
        dirs: [usize; 4],
        occ: Bitboard<V::Word>,
        open: Bitboard<V::Word>,
    ) -> Bitboard<V::Word> {
        let mut reach = Bitboard::from_square(from);
        let mut frontier = reach;
        loop {
            let mut next = Bitboard::EMPTY;
            for d in dirs {
                next |= t.shift(t.shift(frontier, d) & occ, d) & open;
            }
            next = next - reach;
            if next.is_empty() {
                return reach;
            }
            reach |= next;
            frontier = next;
        }
    }

    fn men<S: Sink<V::Word>>(&self, sink: &mut S) {
        let t = self.t;
        let powers = self.pos.men_powers(self.us);
        for from in self.pos.pieces(self.us, Role::Man) {
            let mut targets = Bitboard::EMPTY;
            if powers.rook.contains(from) {
                targets |= t.rook_attacks(from, self.occ);
            }
            if powers.bishop.contains(from) {
                targets |= t.bishop_attacks(from, self.occ);
            }
            if powers.knight.contains(from) {
                targets |= t.knight(from);
            }
            self.emit_targets(sink, from, targets & self.land);
        }
    }

    fn drops<S: Sink<V::Word>>(&self, sink: &mut S) {
        if self.pos.hand[self.us.index()] == 0 {
            return;
        }
        let zone = Bitboard::<V::Word>::from_u128(V::DROP_SQUARES[self.us.index()]) & self.empty;
        for to in zone {
            let m = Move::drop(V::DROP_ROLE, to);
            // A drop only adds a blocker: it can break no rule unless we are in check.
            if !self.in_check || self.pseudo || self.pos.is_legal_by_trial(m) {
                sink.push(m);
            }
        }
    }

    fn king_moves<S: Sink<V::Word>>(&self, sink: &mut S) {
        let Some(k) = self.king else { return };
        let t = self.t;
        let occ = self.occ.without(k);
        for to in t.king(k) & self.land {
            if self.pseudo || !self.pos.is_attacked_by(to, self.them, occ) {
                sink.push(Move::normal(k, to));
            }
        }
        if !self.tactical && (!self.in_check || self.pseudo) {
            self.castlings(sink, k);
        }
    }

    fn castlings<S: Sink<V::Word>>(&self, sink: &mut S, k: Square) {
        let Some(rule) = V::CASTLING else { return };
        let pos = self.pos;
        let g = V::GEOMETRY;
        let t = self.t;
        let rank = Position::<V>::back_rank(self.us);
        if g.square(File(rule.king_file), rank) != Some(k) {
            return;
        }
        let rook = Piece::new(self.us, Role::Rook);
        for opt in rule.options {
            if !pos.castling.has(self.us, opt.side) {
                continue;
            }
            let (Some(rook_sq), Some(king_to), Some(rook_to)) = (
                g.square(File(rule.rook_file(opt.side)), rank),
                g.square(File(opt.king_to), rank),
                g.square(File(opt.rook_to), rank),
            ) else {
                continue;
            };
            if pos.piece_at(rook_sq) != Some(rook) {
                continue;
            }
            // Between king and rook: empty or own beasts (RULES 1.8).
            if !t
                .between(k, rook_sq)
                .is_subset(self.empty | self.own_beasts)
            {
                continue;
            }
            let free = self.empty.with(k).with(rook_sq);
            if !free.contains(king_to) || !free.contains(rook_to) {
                continue;
            }
            // Squares the king crosses may not be attacked, unless an own beast guards them.
            let occ = self.occ.without(k);
            let crossed = t.between(k, king_to) - self.own_beasts;
            if !self.pseudo
                && crossed
                    .into_iter()
                    .any(|sq| pos.is_attacked_by(sq, self.them, occ))
            {
                continue;
            }
            let m = Move::castle(k, king_to);
            if self.pseudo || pos.is_legal_by_trial(m) {
                sink.push(m);
            }
        }
    }
}

impl<V: Variant> Position<V> {
    /// All legal moves, each once (moves are distinct by effect).
    ///
    /// ```
    /// use tensorchess_rules::{Chess, Chessence, Position};
    /// assert_eq!(Position::<Chess>::new().legal_moves().len(), 20);
    /// assert_eq!(Position::<Chessence>::new().legal_moves().len(), 36);
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_into(GenType::All, &mut list);
        list
    }

    /// Legal moves of one kind, appended to `list`.
    pub fn generate_into(&self, kind: GenType, list: &mut MoveList) {
        Gen::new(self, kind).generate(&mut Collect(list));
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_legal(&self) -> u64 {
        let mut c = Count(0);
        Gen::new(self, GenType::All).generate(&mut c);
        c.0
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        !m.is_null() && self.legal_moves().contains(&m)
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal() > 0
    }
}
