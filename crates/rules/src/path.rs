//! The route a move takes on the board, for showing it: a ricochet bounces off
//! its beast, a hop chain lands square by square, a propel moves two pieces.

use crate::attacks::{DIAG_DIRS, ORTHO_DIRS, perpendicular};
use crate::{Bitboard, Move, MoveKind, Piece, Position, Role, Square, Variant};

/// One piece's route: `squares[0]` is where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// The piece that moves.
    pub piece: Piece,
    /// The squares it passes through, start first, end last.
    pub squares: Vec<Square>,
}

/// How a move looks: the routes of the pieces that move, in order, and the
/// square of a piece it removes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePath {
    /// The pieces that move, in order.
    pub routes: Vec<Route>,
    /// The square of a piece the move removes, if it removes one.
    pub captured: Option<Square>,
}

impl<V: Variant> Position<V> {
    /// The route of a legal move (the simplest one when several lead to the same result).
    ///
    /// ```
    /// use tensorchess_rules::{Position, Tensor};
    /// // The rook on a1 ricochets off its beast on a3 along the third rank.
    /// let pos = Position::<Tensor>::from_fen("9k/10/10/10/10/T9/10/R8K w - - 0 1").unwrap();
    /// let m = pos.parse_move("a1e3").unwrap();
    /// let path = pos.move_path(m);
    /// let g = tensorchess_rules::Geometry::TENSOR;
    /// let names: Vec<String> = path.routes[0].squares.iter().map(|s| g.square_name(*s).to_string()).collect();
    /// assert_eq!(names, ["a1", "a3", "e3"]);
    /// ```
    pub fn move_path(&self, m: Move) -> MovePath {
        let us = self.turn();
        let from = m.from();
        let to = m.to();
        let mover = self.piece_at(from);
        let single = |piece: Piece, squares: Vec<Square>, captured| MovePath {
            routes: vec![Route { piece, squares }],
            captured,
        };
        match m.kind() {
            MoveKind::Drop => single(
                Piece::new(us, m.drop_role().unwrap_or(V::DROP_ROLE)),
                vec![to],
                None,
            ),
            MoveKind::Castle => {
                let king = Piece::new(us, Role::King);
                let mut routes = vec![Route {
                    piece: king,
                    squares: vec![from, to],
                }];
                if let Some((rf, rt)) = Self::castling_rook_squares(us, to) {
                    routes.push(Route {
                        piece: Piece::new(us, Role::Rook),
                        squares: vec![rf, rt],
                    });
                }
                MovePath {
                    routes,
                    captured: None,
                }
            }
            MoveKind::EnPassant => {
                let t = Self::t();
                let victim = Square::new((to.raw() as i32 - t.delta[Self::forward_dir(us)]) as u8);
                single(Piece::new(us, Role::Pawn), vec![from, to], Some(victim))
            }
            MoveKind::Propel => {
                let piece = mover.unwrap_or(Piece::new(us, Role::Pawn));
                MovePath {
                    routes: vec![
                        Route {
                            piece,
                            squares: vec![from, to],
                        },
                        Route {
                            piece: Piece::new(us, Role::Beast),
                            squares: vec![to, m.aux()],
                        },
                    ],
                    captured: None,
                }
            }
            MoveKind::BeastCapture => {
                let g = V::GEOMETRY;
                let cap = m.aux();
                // The last hop goes over `cap`: it started as far behind `cap` as `to` is beyond.
                let (tf, tr) = (g.file_of(to).0 as i32, g.rank_of(to).0 as i32);
                let (cf, cr) = (g.file_of(cap).0 as i32, g.rank_of(cap).0 as i32);
                let (lf, lr) = (2 * cf - tf, 2 * cr - tr);
                let diagonal = tf != cf && tr != cr;
                let mut squares = vec![from];
                if let Some(last) = g.square(crate::File(lf as u8), crate::Rank(lr as u8))
                    && last != from
                {
                    squares = self
                        .hop_route(from, last, diagonal)
                        .unwrap_or(vec![from, last]);
                }
                squares.push(to);
                single(Piece::new(us, Role::Beast), squares, Some(cap))
            }
            MoveKind::Normal | MoveKind::Promotion => {
                let Some(piece) = mover else {
                    return single(Piece::new(us, Role::Pawn), vec![from, to], None);
                };
                let captured = self.piece_at(to).map(|_| to);
                let squares = match piece.role() {
                    Role::Beast => {
                        if Self::t().king(from).contains(to) {
                            vec![from, to]
                        } else {
                            self.hop_route(from, to, false)
                                .or_else(|| self.hop_route(from, to, true))
                                .unwrap_or(vec![from, to])
                        }
                    }
                    Role::Knight => self.knight_route(from, to),
                    Role::Bishop | Role::Rook | Role::Queen => {
                        self.slider_route(piece.role(), from, to)
                    }
                    _ => vec![from, to],
                };
                single(piece, squares, captured)
            }
        }
    }

    fn knight_route(&self, from: Square, to: Square) -> Vec<Square> {
        let t = Self::t();
        if t.knight(from).contains(to) || !V::BEASTS {
            return vec![from, to];
        }
        let beasts = self.pieces(self.turn(), Role::Beast);
        match (t.knight(from) & beasts)
            .into_iter()
            .find(|x| t.knight(*x).contains(to))
        {
            Some(x) => vec![from, x, to],
            None => vec![from, to],
        }
    }

    fn slider_route(&self, role: Role, from: Square, to: Square) -> Vec<Square> {
        let t = Self::t();
        let own_beasts = if V::BEASTS {
            self.pieces(self.turn(), Role::Beast)
        } else {
            Bitboard::EMPTY
        };
        let blockers = self.occupied() - own_beasts;
        let lines: &[usize] = match role {
            Role::Bishop => &[2, 3],
            Role::Rook => &[0, 1],
            _ => &[0, 1, 2, 3],
        };
        for &l in lines {
            if t.line_attacks(l, from, blockers).contains(to) {
                return vec![from, to];
            }
        }
        for &l in lines {
            for x in t.line_attacks(l, from, blockers) & own_beasts {
                if t.line_attacks(perpendicular(l), x, blockers).contains(to) {
                    return vec![from, x, to];
                }
            }
        }
        vec![from, to]
    }

    /// Shortest hop chain of one family from `from` to `to` (the start counts as empty).
    fn hop_route(&self, from: Square, to: Square, diagonal: bool) -> Option<Vec<Square>> {
        let t = Self::t();
        let occ = self.occupied().without(from);
        let open = self.empty_squares().with(from);
        let dirs = if diagonal { DIAG_DIRS } else { ORTHO_DIRS };
        let mut parent: Vec<Option<Square>> = vec![None; 128];
        let mut seen = Bitboard::<V::Word>::from_square(from);
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(sq) = queue.pop_front() {
            if sq == to && sq != from {
                break;
            }
            for d in dirs {
                let over = t.shift(Bitboard::from_square(sq), d) & occ;
                let land = t.shift(over, d) & open;
                if let Some(next) = land.first()
                    && !seen.contains(next)
                {
                    seen.add(next);
                    parent[next.index()] = Some(sq);
                    queue.push_back(next);
                }
            }
        }
        if !seen.contains(to) || to == from {
            return None;
        }
        let mut route = vec![to];
        let mut cur = to;
        while let Some(p) = parent[cur.index()] {
            route.push(p);
            cur = p;
        }
        route.reverse();
        Some(route)
    }
}
