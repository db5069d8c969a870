//! FEN (RULES 4.1): Fairy-Stockfish conventions, `*` for missing squares,
//! `[...]` for pieces in hand.

use crate::{
    Bitboard, CastlingRights, CastlingSide, Color, File, Piece, Position, Rank, Role, Square,
    Variant,
};
use std::fmt;

/// The part of a FEN that is wrong.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenField {
    /// The piece placement.
    Board,
    /// The pieces in hand (`[MMm]`, Chessence).
    Pocket,
    /// The side to move.
    Turn,
    /// The castling rights.
    Castling,
    /// The en-passant square.
    EnPassant,
    /// Plies since the last capture or pawn move.
    HalfmoveClock,
    /// The move number.
    Fullmoves,
    /// The fields parse, but the position cannot occur (missing king, side not to move in check…).
    Position,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Board => "board",
            FenField::Pocket => "pocket",
            FenField::Turn => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en-passant square",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::Fullmoves => "fullmove number",
            FenField::Position => "position",
        })
    }
}

/// A FEN that could not be read: which field, and why.
///
/// ```
/// use tensorchess_rules::{Chess, FenField, Position};
/// let err = Position::<Chess>::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1").unwrap_err();
/// assert_eq!(err.field, FenField::Turn);
/// assert!(err.to_string().contains("side to move"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN {field}: {reason}")]
pub struct ParseFenError {
    /// The field that is wrong.
    pub field: FenField,
    /// What is wrong with it.
    pub reason: String,
}

fn err<T>(field: FenField, reason: impl Into<String>) -> Result<T, ParseFenError> {
    Err(ParseFenError {
        field,
        reason: reason.into(),
    })
}

/// Longest FEN we look at; anything longer is not a position of these games.
const MAX_FEN_LEN: usize = 512;

/// Checks that a square written as empty (`hole = false`) exists, or that one
/// written `*` does not. Squares past the rank's end are judged later.
fn check_hole(g: &crate::Geometry, rank: Rank, file: u32, hole: bool) -> Result<(), ParseFenError> {
    if file >= g.files as u32 {
        return Ok(());
    }
    let is_hole = g.holes >> (rank.0 as u32 * g.files as u32 + file) & 1 == 1;
    let name = format!("{}{}", File(file as u8).char(), rank.0 + 1);
    match (hole, is_hole) {
        (false, true) => err(
            FenField::Board,
            format!(
                "rank {}: square {name} does not exist and must be written '*'",
                rank.0 + 1
            ),
        ),
        (true, false) => err(
            FenField::Board,
            format!(
                "rank {}: '*' on {name}, which exists on this board",
                rank.0 + 1
            ),
        ),
        _ => Ok(()),
    }
}

pub(crate) fn parse_fen<V: Variant>(fen: &str) -> Result<Position<V>, ParseFenError> {
    let g = V::GEOMETRY;
    if fen.len() > MAX_FEN_LEN {
        return err(
            FenField::Board,
            format!("longer than {MAX_FEN_LEN} characters"),
        );
    }
    let mut fields = fen.split_whitespace();
    let Some(board_field) = fields.next() else {
        return err(FenField::Board, "empty FEN");
    };
    let mut pos = Position::<V>::empty();

    // Board and pocket.
    let (board_str, pocket_str) = match board_field.find('[') {
        Some(i) => {
            let rest = &board_field[i + 1..];
            let Some(rest) = rest.strip_suffix(']') else {
                return err(FenField::Pocket, "missing closing ']'");
            };
            (&board_field[..i], Some(rest))
        }
        None => (board_field, None),
    };
    let rows: Vec<&str> = board_str.split('/').collect();
    if rows.len() != g.ranks as usize {
        return err(
            FenField::Board,
            format!("{} ranks, expected {}", rows.len(), g.ranks),
        );
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = Rank(g.ranks - 1 - i as u8);
        let rank_name = rank.0 + 1;
        let mut file: u32 = 0;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut n = c.to_digit(10).unwrap_or(0);
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n * 10 + d;
                    chars.next();
                    if n > 64 {
                        break;
                    }
                }
                if n == 0 {
                    return err(
                        FenField::Board,
                        format!("rank {rank_name}: zero empty squares"),
                    );
                }
                for _ in 0..n {
                    check_hole(&g, rank, file, false)?;
                    file += 1;
                }
            } else if c == '*' {
                check_hole(&g, rank, file, true)?;
                file += 1;
            } else {
                let Some(piece) = Piece::from_char(c) else {
                    return err(
                        FenField::Board,
                        format!("rank {rank_name}: unknown piece '{c}'"),
                    );
                };
                if !V::ROLES.contains(&piece.role()) {
                    return err(
                        FenField::Board,
                        format!(
                            "rank {rank_name}: '{c}' is not a piece of {}",
                            V::KIND.title()
                        ),
                    );
                }
                if file >= g.files as u32 {
                    return err(
                        FenField::Board,
                        format!("rank {rank_name} has more than {} squares", g.files),
                    );
                }
                let Some(sq) = g.square(File(file as u8), rank) else {
                    return err(
                        FenField::Board,
                        format!(
                            "rank {rank_name}: a piece on the missing square {}{}",
                            File(file as u8).char(),
                            rank_name
                        ),
                    );
                };
                pos.put::<false>(sq, piece);
                file += 1;
            }
            if file > g.files as u32 {
                return err(
                    FenField::Board,
                    format!("rank {rank_name} has more than {} squares", g.files),
                );
            }
        }
        if file != g.files as u32 {
            return err(
                FenField::Board,
                format!("rank {rank_name} has {file} squares, expected {}", g.files),
            );
        }
    }
    if let Some(pocket) = pocket_str {
        for c in pocket.chars() {
            let Some(piece) = Piece::from_char(c) else {
                return err(FenField::Pocket, format!("unknown piece '{c}'"));
            };
            if !V::DROPS || piece.role() != V::DROP_ROLE {
                return err(
                    FenField::Pocket,
                    format!("'{c}' cannot be held in hand in {}", V::KIND.title()),
                );
            }
            let i = piece.color().index();
            if pos.hand[i] >= 15 {
                return err(FenField::Pocket, "more than 15 pieces in hand");
            }
            pos.hand[i] += 1;
        }
    }

    // Side to move.
    pos.turn = match fields.next() {
        None => Color::White,
        Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(other) => return err(FenField::Turn, format!("'{other}', expected 'w' or 'b'")),
    };

    // Castling.
    let castling_field = fields.next().unwrap_or("-");
    let mut rights = CastlingRights::NONE;
    if castling_field != "-" {
        for c in castling_field.chars() {
            let Some(side) = CastlingSide::from_char(c) else {
                return err(
                    FenField::Castling,
                    format!("'{c}', expected '-' or letters from KQkq"),
                );
            };
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            if V::CASTLING.is_none() {
                return err(
                    FenField::Castling,
                    format!("{} has no castling", V::KIND.title()),
                );
            }
            rights = rights.with(color, side);
        }
    }
    // Rights whose king or rook is not at home are ignored (RULES 4.1).
    if let Some(rule) = V::CASTLING {
        for color in Color::ALL {
            let rank = Position::<V>::back_rank(color);
            let king_home = g.square(File(rule.king_file), rank);
            let king_ok =
                king_home.and_then(|s| pos.piece_at(s)) == Some(Piece::new(color, Role::King));
            for side in CastlingSide::ALL {
                let rook_home = g.square(File(rule.rook_file(side)), rank);
                let rook_ok =
                    rook_home.and_then(|s| pos.piece_at(s)) == Some(Piece::new(color, Role::Rook));
                if !(king_ok && rook_ok) {
                    rights = rights.without(color, side);
                }
            }
        }
    }
    pos.castling = rights;

    // En passant: read now, kept below only if a capture is legal.
    let ep_field = fields.next().unwrap_or("-");
    let mut ep = None;
    if ep_field != "-" {
        let Some(sq) = g.parse_square(ep_field) else {
            return err(
                FenField::EnPassant,
                format!("'{ep_field}' is not a square of this board"),
            );
        };
        let expected = match pos.turn {
            Color::White => g.ranks - 3,
            Color::Black => 2,
        };
        if g.rank_of(sq).0 != expected {
            return err(
                FenField::EnPassant,
                format!("{ep_field} is not on the rank a pawn skips when the opponent just moved"),
            );
        }
        ep = Some(sq);
    }

    pos.halfmoves = match fields.next() {
        None => 0,
        Some(s) => s.parse().map_err(|_| ParseFenError {
            field: FenField::HalfmoveClock,
            reason: format!("'{s}' is not a number"),
        })?,
    };
    pos.fullmoves = match fields.next() {
        None => 1,
        Some(s) => match s.parse::<u32>() {
            Ok(n) => n.max(1),
            Err(_) => return err(FenField::Fullmoves, format!("'{s}' is not a number")),
        },
    };
    if let Some(extra) = fields.next() {
        return err(
            FenField::Fullmoves,
            format!("unexpected text after the FEN: '{extra}'"),
        );
    }

    validate(&pos)?;

    if let Some(ep) = ep {
        let t = V::tables();
        let them = !pos.turn;
        let fwd = t.delta[Position::<V>::forward_dir(them)];
        let pawn_sq = Square::new((ep.raw() as i32 + fwd) as u8);
        let origin = Square::new((ep.raw() as i32 - fwd) as u8);
        let plausible = pos.piece_at(pawn_sq) == Some(Piece::new(them, Role::Pawn))
            && pos.piece_at(ep).is_none()
            && pos.piece_at(origin).is_none();
        if plausible && pos.ep_capture_possible(ep) {
            pos.ep_square = Some(ep);
        }
    }
    pos.hash = pos.compute_hash();
    Ok(pos)
}

fn validate<V: Variant>(pos: &Position<V>) -> Result<(), ParseFenError> {
    for c in Color::ALL {
        let kings = pos.pieces(c, Role::King).count();
        if kings != 1 {
            return err(
                FenField::Position,
                format!("{} has {kings} kings, expected 1", c.name()),
            );
        }
    }
    let t = V::tables();
    let back_ranks = Bitboard::<V::Word>(t.ranks[0] | t.ranks[V::GEOMETRY.ranks as usize - 1]);
    if (pos.by_role(Role::Pawn) & back_ranks).any() {
        return err(FenField::Position, "a pawn on the first or last rank");
    }
    if pos.opponent_in_check() {
        return err(
            FenField::Position,
            format!(
                "{} is in check but it is not their move",
                (!pos.turn).name()
            ),
        );
    }
    Ok(())
}

pub(crate) fn write_fen<V: Variant>(pos: &Position<V>) -> String {
    let g = V::GEOMETRY;
    let mut s = String::with_capacity(96);
    for r in (0..g.ranks).rev() {
        let mut empty = 0;
        for f in 0..g.files {
            let idx = r * g.files + f;
            let sq = Square::new(idx);
            let cell = if g.holes >> idx & 1 == 1 {
                Some('*')
            } else {
                pos.piece_at(sq).map(|p| p.char())
            };
            match cell {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if r > 0 {
            s.push('/');
        }
    }
    if V::DROPS {
        s.push('[');
        for c in Color::ALL {
            for _ in 0..pos.hand[c.index()] {
                s.push(Piece::new(c, V::DROP_ROLE).char());
            }
        }
        s.push(']');
    }
    s.push(' ');
    s.push(pos.turn.char());
    s.push(' ');
    let rights = pos.castling;
    if rights.is_empty() {
        s.push('-');
    } else {
        for c in Color::ALL {
            for side in CastlingSide::ALL {
                if rights.has(c, side) {
                    s.push(side.char(c));
                }
            }
        }
    }
    s.push(' ');
    match pos.ep_square {
        Some(ep) => s.push_str(&g.square_name(ep).to_string()),
        None => s.push('-'),
    }
    s.push_str(&format!(" {} {}", pos.halfmoves, pos.fullmoves));
    s
}

impl<V: Variant> Position<V> {
    /// Reads a FEN of this game.
    ///
    /// ```
    /// use tensorchess_rules::{Chessence, Position};
    /// let fen = "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w - - 0 1";
    /// let pos = Position::<Chessence>::from_fen(fen).unwrap();
    /// assert_eq!(pos.fen(), fen);
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position<V>, ParseFenError> {
        parse_fen(fen)
    }

    /// Reads a FEN, or an EPD line (board, side, castling and en passant,
    /// then operations, which are ignored), which is given the clocks `0 1`.
    /// A text that is neither gives the FEN's error.
    ///
    /// ```
    /// use tensorchess_rules::{Chess, Position};
    /// let epd = "4k3/8/8/8/8/8/8/4K3 w - - bm Ke2; id \"bare\";";
    /// let pos = Position::<Chess>::from_fen_or_epd(epd).unwrap();
    /// assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    /// assert!(Position::<Chess>::from_fen_or_epd("4k3/8 w - -").is_err());
    /// ```
    pub fn from_fen_or_epd(text: &str) -> Result<Position<V>, ParseFenError> {
        let text = text.trim();
        Self::from_fen(text).or_else(|e| {
            let fields: Vec<&str> = text.split_whitespace().collect();
            if fields.len() >= 4
                && let Ok(p) = Self::from_fen(&format!("{} 0 1", fields[..4].join(" ")))
            {
                return Ok(p);
            }
            Err(e)
        })
    }

    /// Writes the FEN; the en-passant square appears only when a capture there is legal.
    pub fn fen(&self) -> String {
        write_fen(self)
    }

    /// The FEN's board, side, castling and en-passant fields: equal exactly when
    /// two positions count as the same for repetition (clocks ignored).
    pub fn epd(&self) -> String {
        let fen = self.fen();
        fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
    }
}
