//! Why a well-formed move cannot be played: a reason a program can name
//! (a code and its arguments, for translations) and a sentence for a player.

use crate::movegen::GenType;
use crate::uci::{MoveText, MoveTextDisplay, move_string};
use crate::{Color, Move, MoveKind, MoveList, Position, Role, Square, Variant, VariantKind};
use std::fmt;

/// Why a well-formed move is not legal in a position.
///
/// [`IllegalReason::code`] names the reason in one word and
/// [`IllegalReason::args`] gives its details, so a page can say it in any
/// language; `Display` says it in English.
///
/// ```
/// use tensorchess_rules::{Position, Tensor, IllegalReason, uci::ParseMoveError};
/// let pos = Position::<Tensor>::new();
/// let Err(ParseMoveError::Illegal { reason, .. }) = pos.parse_move("e2e5") else { panic!() };
/// assert_eq!(reason.code(), "cannot_move_that_way");
/// assert_eq!(reason.to_string(), "the pawn on e2 cannot move that way");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The game has no drops.
    NoDrops {
        /// The game being played.
        game: VariantKind,
    },
    /// Only this role can be dropped.
    WrongDropRole {
        /// The only role that can be dropped.
        role: Role,
    },
    /// The mover has nothing in reserve.
    EmptyHand,
    /// Not one of the mover's drop squares.
    NotDropSquare {
        /// The square concerned, by name.
        square: String,
    },
    /// The square is occupied.
    Occupied {
        /// The square concerned, by name.
        square: String,
    },
    /// No piece stands on the starting square.
    NoPiece {
        /// The square concerned, by name.
        square: String,
    },
    /// The piece belongs to the side not to move.
    NotYours {
        /// The role of the piece concerned.
        role: Role,
        /// The square it stands on, by name.
        square: String,
        /// The side to move.
        turn: Color,
    },
    /// Castling out of check.
    CastleOutOfCheck,
    /// Castling through or into an attacked square.
    CastleThroughAttack,
    /// The king is in check and the move does not get it out.
    StillInCheck,
    /// The move would leave the mover's king attacked.
    KingWouldBeInCheck,
    /// Kings never move in this game.
    KingsNeverMove {
        /// The game being played.
        game: VariantKind,
    },
    /// A Chessence man without the power to reach the square.
    ManHasNoPower {
        /// The square the man starts from, by name.
        from: String,
        /// The square it would end on, by name.
        to: String,
    },
    /// A beast's step or hop chain cannot reach the square.
    BeastCannotReach {
        /// The square the beast starts from, by name.
        from: String,
        /// The square it would end on, by name.
        to: String,
    },
    /// A move string names a beast capture (`x`) but the piece is no beast.
    OnlyBeastsCaptureBeasts {
        /// The role of the piece concerned.
        role: Role,
        /// The square the piece starts from, by name.
        from: String,
    },
    /// The square named after `x` holds no enemy beast.
    NoEnemyBeast {
        /// The square named after `x`.
        square: String,
    },
    /// No hop chain of the beast ends on `to` with its last hop over the
    /// enemy beast on `captured`.
    BeastCannotCapture {
        /// The square the beast starts from, by name.
        from: String,
        /// The square it would end on, by name.
        to: String,
        /// The square of the enemy beast to capture, by name.
        captured: String,
    },
    /// Only beasts capture beasts (by hopping over them).
    CannotCaptureBeast {
        /// The role of the piece concerned.
        role: Role,
        /// The square of the beast, by name.
        square: String,
    },
    /// A piece stops on its own beast only to propel it.
    StopsOnOwnBeast {
        /// The role of the piece concerned.
        role: Role,
        /// The square of the beast, by name.
        square: String,
    },
    /// Kings and beasts never propel.
    CannotPropel {
        /// The role of the piece concerned.
        role: Role,
    },
    /// The square the piece would propel from holds no beast of its side.
    NoBeastToPropel {
        /// The square the piece would stop on, by name.
        square: String,
    },
    /// The piece cannot reach the beast it would propel.
    CannotReachBeast {
        /// The role of the piece concerned.
        role: Role,
        /// The square the piece starts from, by name.
        from: String,
        /// The square of the beast, by name.
        beast: String,
    },
    /// The beast cannot be propelled to that square by this piece.
    BadPropelSquare {
        /// The role of the piece concerned.
        role: Role,
        /// The square of the beast, by name.
        beast: String,
        /// The square the beast would go to, by name.
        to: String,
    },
    /// A promotion piece given for a move that is no promotion.
    NotAPromotion,
    /// A pawn reaching the last rank must say what it becomes.
    PromotionNeedsPiece,
    /// The game does not allow promotion to this role.
    CannotPromoteTo {
        /// The role asked for.
        role: Role,
    },
    /// Castling is written as the king's move in this game (e.g. `Kh1`).
    CastlingWrittenAsKingMove {
        /// The game being played.
        game: VariantKind,
    },
    /// No castling is possible here.
    NoCastling,
    /// A SAN that no legal move matches.
    NoSuchMove {
        /// The role the SAN names.
        role: Role,
        /// The destination the SAN names.
        to: String,
    },
    /// A SAN drop that no legal drop matches.
    NoSuchDrop {
        /// The role the SAN names.
        role: Role,
        /// The destination the SAN names.
        to: String,
    },
    /// The side to move has no piece of that kind.
    NoPieceOfRole {
        /// The role the SAN names.
        role: Role,
    },
    /// A SAN that several legal moves match.
    Ambiguous {
        /// The moves the SAN could mean.
        options: String,
    },
    /// Any other move the piece cannot make.
    CannotMoveThatWay {
        /// The role of the piece concerned.
        role: Role,
        /// The square the piece starts from, by name.
        from: String,
    },
}

impl IllegalReason {
    /// The reason in one word (`snake_case`), stable for programs and translations.
    pub fn code(&self) -> &'static str {
        use IllegalReason::*;
        match self {
            NoDrops { .. } => "no_drops",
            WrongDropRole { .. } => "wrong_drop_role",
            EmptyHand => "empty_hand",
            NotDropSquare { .. } => "not_drop_square",
            Occupied { .. } => "occupied",
            NoPiece { .. } => "no_piece",
            NotYours { .. } => "not_yours",
            CastleOutOfCheck => "castle_out_of_check",
            CastleThroughAttack => "castle_through_attack",
            StillInCheck => "still_in_check",
            KingWouldBeInCheck => "king_would_be_in_check",
            KingsNeverMove { .. } => "kings_never_move",
            ManHasNoPower { .. } => "man_has_no_power",
            BeastCannotReach { .. } => "beast_cannot_reach",
            OnlyBeastsCaptureBeasts { .. } => "only_beasts_capture_beasts",
            NoEnemyBeast { .. } => "no_enemy_beast",
            BeastCannotCapture { .. } => "beast_cannot_capture",
            CannotCaptureBeast { .. } => "cannot_capture_beast",
            StopsOnOwnBeast { .. } => "stops_on_own_beast",
            CannotPropel { .. } => "cannot_propel",
            NoBeastToPropel { .. } => "no_beast_to_propel",
            CannotReachBeast { .. } => "cannot_reach_beast",
            BadPropelSquare { .. } => "bad_propel_square",
            NotAPromotion => "not_a_promotion",
            PromotionNeedsPiece => "promotion_needs_piece",
            CannotPromoteTo { .. } => "cannot_promote_to",
            CastlingWrittenAsKingMove { .. } => "castling_written_as_king_move",
            NoCastling => "no_castling",
            NoSuchMove { .. } => "no_such_move",
            NoSuchDrop { .. } => "no_such_drop",
            NoPieceOfRole { .. } => "no_piece_of_role",
            Ambiguous { .. } => "ambiguous",
            CannotMoveThatWay { .. } => "cannot_move_that_way",
        }
    }

    /// The reason's details by name: squares (`from`, `to`, `square`,
    /// `beast`, `captured`), roles (`role`: `knight`, `beast`, ...), a colour
    /// (`turn`), a game (`game`: `tensor`, ...), `options`.
    pub fn args(&self) -> Vec<(&'static str, String)> {
        use IllegalReason::*;
        let s = |v: &String| v.clone();
        match self {
            NoDrops { game } | KingsNeverMove { game } | CastlingWrittenAsKingMove { game } => {
                vec![("game", game.name().into())]
            }
            WrongDropRole { role } | CannotPropel { role } | CannotPromoteTo { role } => {
                vec![("role", role.name().into())]
            }
            NoPieceOfRole { role } => vec![("role", role.name().into())],
            EmptyHand | CastleOutOfCheck | CastleThroughAttack | StillInCheck
            | KingWouldBeInCheck | NotAPromotion | PromotionNeedsPiece | NoCastling => vec![],
            NotDropSquare { square }
            | Occupied { square }
            | NoPiece { square }
            | NoEnemyBeast { square }
            | NoBeastToPropel { square } => vec![("square", s(square))],
            NotYours { role, square, turn } => vec![
                ("role", role.name().into()),
                ("square", s(square)),
                ("turn", turn.name().into()),
            ],
            ManHasNoPower { from, to } | BeastCannotReach { from, to } => {
                vec![("from", s(from)), ("to", s(to))]
            }
            OnlyBeastsCaptureBeasts { role, from } | CannotMoveThatWay { role, from } => {
                vec![("role", role.name().into()), ("from", s(from))]
            }
            BeastCannotCapture { from, to, captured } => {
                vec![("from", s(from)), ("to", s(to)), ("captured", s(captured))]
            }
            CannotCaptureBeast { role, square } | StopsOnOwnBeast { role, square } => {
                vec![("role", role.name().into()), ("square", s(square))]
            }
            CannotReachBeast { role, from, beast } => vec![
                ("role", role.name().into()),
                ("from", s(from)),
                ("beast", s(beast)),
            ],
            BadPropelSquare { role, beast, to } => vec![
                ("role", role.name().into()),
                ("beast", s(beast)),
                ("to", s(to)),
            ],
            NoSuchMove { role, to } | NoSuchDrop { role, to } => {
                vec![("role", role.name().into()), ("to", s(to))]
            }
            Ambiguous { options } => vec![("options", s(options))],
        }
    }
}

/// How a propelled beast moves, by the piece that propels it (RULES 1.6).
fn propelled_like(role: Role) -> &'static str {
    match role {
        Role::Knight => "one knight jump onto an empty square",
        Role::Bishop => "a diagonal slide over empty squares (and own beasts)",
        Role::Rook => "an orthogonal slide over empty squares (and own beasts)",
        Role::Queen => "a slide, in the line family the queen arrived with",
        Role::Pawn => "exactly one square forward, onto an empty square",
        _ => "nowhere",
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalReason::*;
        match self {
            NoDrops { game } => write!(f, "there are no drops in {}", game.title()),
            WrongDropRole { role } => write!(f, "only a {} can be dropped", role.name()),
            EmptyHand => f.write_str("you have no piece in reserve"),
            NotDropSquare { square } => write!(f, "{square} is not one of your drop squares"),
            Occupied { square } => write!(f, "{square} is occupied"),
            NoPiece { square } => write!(f, "there is no piece on {square}"),
            NotYours { role, square, turn } => write!(
                f,
                "the {} on {square} is not yours: it is {}'s move",
                role.name(),
                turn.name()
            ),
            CastleOutOfCheck => f.write_str("you may not castle out of check"),
            CastleThroughAttack => {
                f.write_str("the king may not castle through or into an attacked square")
            }
            StillInCheck => f.write_str("your king is in check and this does not get it out"),
            KingWouldBeInCheck => f.write_str("your king would be in check"),
            KingsNeverMove { game } => write!(f, "kings never move in {}", game.title()),
            ManHasNoPower { from, to } => write!(
                f,
                "the man on {from} has no power to reach {to} (its powers come from neighbouring men)"
            ),
            BeastCannotReach { from, to } => write!(
                f,
                "the beast on {from} cannot reach {to}: a beast steps to an adjacent empty square, \
                 or hops over adjacent pieces onto empty squares, all hops orthogonal or all diagonal"
            ),
            OnlyBeastsCaptureBeasts { role, from } => write!(
                f,
                "the {} on {from} is not a beast: only a beast captures with 'x' (by hopping over an enemy beast)",
                role.name()
            ),
            NoEnemyBeast { square } => write!(f, "there is no enemy beast on {square} to capture"),
            BeastCannotCapture { from, to, captured } => write!(
                f,
                "the beast on {from} cannot capture the beast on {captured} and land on {to}: \
                 the last hop of its chain must go over the enemy beast and land on {to}"
            ),
            CannotCaptureBeast { role, square } => write!(
                f,
                "the {} cannot capture the beast on {square}: only a beast captures a beast, by hopping over it",
                role.name()
            ),
            StopsOnOwnBeast { role, square } => write!(
                f,
                "the {} may stop on your beast on {square} only to propel it: say where the beast goes (like {square}>…)",
                role.name()
            ),
            CannotPropel { role } => write!(f, "a {} never propels a beast", role.name()),
            NoBeastToPropel { square } => {
                write!(f, "there is no beast of yours on {square} to propel")
            }
            CannotReachBeast { role, from, beast } => write!(
                f,
                "the {} on {from} cannot reach the beast on {beast}",
                role.name()
            ),
            BadPropelSquare { role, beast, to } => write!(
                f,
                "the beast on {beast} cannot be propelled to {to}: propelled by a {} it makes {}",
                role.name(),
                propelled_like(*role)
            ),
            NotAPromotion => f.write_str("only a pawn reaching the last rank promotes"),
            PromotionNeedsPiece => {
                f.write_str("a pawn reaching the last rank must say what it becomes (like e7e8q)")
            }
            CannotPromoteTo { role } => write!(f, "a pawn cannot promote to a {}", role.name()),
            CastlingWrittenAsKingMove { game } => write!(
                f,
                "castling is written as the king's move in {} (e.g. Kh1)",
                game.title()
            ),
            NoCastling => f.write_str("castling is not possible here"),
            NoSuchMove { role, to } => {
                write!(f, "no {} of yours can make that move to {to}", role.name())
            }
            NoSuchDrop { role, to } => write!(f, "no {} can be dropped on {to}", role.name()),
            NoPieceOfRole { role } => write!(f, "you have no {}", role.name()),
            Ambiguous { options } => write!(f, "it is ambiguous: it could mean {options}"),
            CannotMoveThatWay { role, from } => {
                write!(f, "the {} on {from} cannot move that way", role.name())
            }
        }
    }
}

impl<V: Variant> Position<V> {
    /// Why a well-formed move cannot be played here.
    pub fn why_illegal(&self, mt: &MoveText) -> IllegalReason {
        use IllegalReason::*;
        let g = V::GEOMETRY;
        let name = |s: Square| g.square_name(s).to_string();
        if let Some(role) = mt.drop {
            if !V::DROPS {
                return NoDrops { game: V::KIND };
            }
            if role != V::DROP_ROLE {
                return WrongDropRole { role: V::DROP_ROLE };
            }
            if self.hand(self.turn) == 0 {
                return EmptyHand;
            }
            if V::DROP_SQUARES[self.turn.index()] >> mt.to.index() & 1 == 0 {
                return NotDropSquare {
                    square: name(mt.to),
                };
            }
            if self.piece_at(mt.to).is_some() {
                return Occupied {
                    square: name(mt.to),
                };
            }
            return self.check_reason();
        }
        let Some(piece) = self.piece_at(mt.from) else {
            return NoPiece {
                square: name(mt.from),
            };
        };
        let role = piece.role();
        if piece.color() != self.turn {
            return NotYours {
                role,
                square: name(mt.from),
                turn: self.turn,
            };
        }
        let canonical = MoveTextDisplay::<V>::new(mt).to_string();
        let mut pseudo = MoveList::new();
        self.generate_into(GenType::IgnoringCheck, &mut pseudo);
        if let Some(m) = pseudo.iter().find(|m| move_string::<V>(**m) == canonical) {
            if m.kind() == MoveKind::Castle {
                return if self.is_check() {
                    CastleOutOfCheck
                } else {
                    CastleThroughAttack
                };
            }
            return self.check_reason();
        }
        if role == Role::King && !V::KING_MOVES {
            return KingsNeverMove { game: V::KIND };
        }
        if V::MEN && role == Role::Man {
            return ManHasNoPower {
                from: name(mt.from),
                to: name(mt.to),
            };
        }
        if let Some(reason) = self.why_promotion_illegal(mt, role, &pseudo) {
            return reason;
        }
        if V::BEASTS
            && let Some(reason) = self.why_beast_move_illegal(mt, role, &pseudo)
        {
            return reason;
        }
        CannotMoveThatWay {
            role,
            from: name(mt.from),
        }
    }

    /// Promotion letters where no promotion is possible, or missing where one is.
    fn why_promotion_illegal(
        &self,
        mt: &MoveText,
        role: Role,
        pseudo: &MoveList,
    ) -> Option<IllegalReason> {
        let same_squares = |m: &&Move| m.from() == mt.from && m.to() == mt.to;
        let promotes = pseudo
            .iter()
            .filter(same_squares)
            .any(|m| m.kind() == MoveKind::Promotion);
        match mt.promotion {
            Some(p) if role == Role::Pawn && promotes && !V::PROMOTIONS.contains(&p) => {
                Some(IllegalReason::CannotPromoteTo { role: p })
            }
            Some(_) if !promotes => Some(IllegalReason::NotAPromotion),
            None if promotes && mt.propel_to.is_none() => Some(IllegalReason::PromotionNeedsPiece),
            _ => None,
        }
    }

    /// The reasons that only Tensor Chess has: beasts' hops and captures,
    /// propels, and pieces that may not stop on or take a beast.
    fn why_beast_move_illegal(
        &self,
        mt: &MoveText,
        role: Role,
        pseudo: &MoveList,
    ) -> Option<IllegalReason> {
        use IllegalReason::*;
        let g = V::GEOMETRY;
        let name = |s: Square| g.square_name(s).to_string();
        let us = self.turn;
        let beast_of = |sq: Square, c: Color| {
            self.piece_at(sq)
                .is_some_and(|p| p.role() == Role::Beast && p.color() == c)
        };
        if let Some(captured) = mt.captured_beast {
            if role != Role::Beast {
                return Some(OnlyBeastsCaptureBeasts {
                    role,
                    from: name(mt.from),
                });
            }
            if !beast_of(captured, !us) {
                return Some(NoEnemyBeast {
                    square: name(captured),
                });
            }
            return Some(BeastCannotCapture {
                from: name(mt.from),
                to: name(mt.to),
                captured: name(captured),
            });
        }
        if let Some(dest) = mt.propel_to {
            if matches!(role, Role::King | Role::Beast) {
                return Some(CannotPropel { role });
            }
            if !beast_of(mt.to, us) {
                return Some(NoBeastToPropel {
                    square: name(mt.to),
                });
            }
            let reaches = pseudo
                .iter()
                .any(|m| m.kind() == MoveKind::Propel && m.from() == mt.from && m.to() == mt.to);
            return Some(if reaches {
                BadPropelSquare {
                    role,
                    beast: name(mt.to),
                    to: name(dest),
                }
            } else {
                CannotReachBeast {
                    role,
                    from: name(mt.from),
                    beast: name(mt.to),
                }
            });
        }
        if role == Role::Beast {
            return Some(BeastCannotReach {
                from: name(mt.from),
                to: name(mt.to),
            });
        }
        if beast_of(mt.to, !us) {
            return Some(CannotCaptureBeast {
                role,
                square: name(mt.to),
            });
        }
        if beast_of(mt.to, us) && role != Role::King {
            return Some(StopsOnOwnBeast {
                role,
                square: name(mt.to),
            });
        }
        None
    }

    pub(crate) fn check_reason(&self) -> IllegalReason {
        if self.is_check() {
            IllegalReason::StillInCheck
        } else {
            IllegalReason::KingWouldBeInCheck
        }
    }
}
